"""DM Lag entries: teams and rosters, district-balance and extra-player dispensations, the
direct-qualifier team and line-ups per half.

Every service runs in one transaction: permission first (``clubs.permissions``), then every check
(``ubf.rules.eligibility``; all violations collected), then the writes. A refusal raises
:class:`~clubs.services.base.ServiceError` with every violation (clause, Swedish, English) and nothing is
saved. What the regulations punish later rather than refuse now (an unpaid member, a player who
was on another team, a player from outside UBF) comes back as warnings, which are also written
to the audit trail (``clubs.Decision``, actions ``teams.team.flagged`` and
``teams.lineup.flagged``) for TK: the penalties themselves are TK's decisions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q

from clubs import clock, seats, windows
from clubs.locks import lock_row
from clubs.models import (
    UBF_DISTRICT_CODE,
    Entry,
    FinalSeat,
    HeatStatus,
    Player,
    Representation,
    Season,
)
from clubs.permissions import can_manage_team, can_manage_team_heat, is_tk
from clubs.recompute import request_recompute
from clubs.selectors import (
    lookup_players,
    membership_paid_on,
    normalise_mid,
    player_infos,
    player_infos_for,
)
from clubs.services import seats as seat_services
from clubs.services.base import (
    acting_user_id,
    as_warning,
    error,
    flag_warnings,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
    text_required,
    warning,
)
from teams.models import (
    Dispensation,
    ExternalTeamPlay,
    Lineup,
    Match,
    RosterEntry,
    Team,
    TeamCompetition,
    TeamHeat,
)
from teams.services.decisions.common import _has_started, _plays_elsewhere
from ubf.rules.eligibility import (
    check_district_balance,
    check_extra_players,
    check_fielded_extra_players,
    check_membership,
    check_played_for_two_teams,
    check_team_direct_qualifier,
    check_team_dm_status,
    check_team_roster,
    check_unpaid_fielded,
    dispensation_covers,
)
from ubf.rules.i18n import Message, gettext_noop
from ubf.rules.people import PlayerInfo
from ubf.rules.violations import Violation
from ubf.rules.windows import ENTRIES

_CLOSED_HEAT = (HeatStatus.REJECTED, HeatStatus.CANCELLED)


def _authenticated(user):
    return user if acting_user_id(user) is not None else None


# ------------------------------------------------------------------------------------------
# Outcomes
# ------------------------------------------------------------------------------------------


@dataclass
class TeamOutcome:
    """A team entered or changed: the warnings (shown and flagged to TK) and, when the district
    balance fails (R-TEAM-3), the dispensation requested from TK."""

    team: Team
    warnings: list[Violation] = field(default_factory=list)
    dispensation: Dispensation | None = None


@dataclass
class LineupOutcome:
    lineups: list[Lineup]
    warnings: list[Violation] = field(default_factory=list)


# ------------------------------------------------------------------------------------------
# Reading helpers
# ------------------------------------------------------------------------------------------


def _regular_players(team: Team) -> list[Player]:
    return [
        r.player for r in team.roster.filter(is_extra=False).select_related("player").order_by("id")
    ]


def _earlier_teams(
    season: Season,
    players: Iterable[Player],
    *,
    exclude_team: Team | None,
    on_roster: bool,
    until: date | None = None,
) -> dict[str, list[tuple[str, str]]]:
    """R-TEAM-RES-2 / R-TEAM-5: ``MID → [(team name, district)]`` of the other teams a player
    was on this season: their rosters (``on_roster``) or their line-ups (played, in a match on
    or before ``until`` or undated), plus ExternalTeamPlay records (on or before ``until``)."""
    ids = {p.pk: p.mid for p in players}
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    if not ids:
        return out
    if on_roster:
        rows = (
            RosterEntry.objects.filter(team__competition__season=season, player_id__in=list(ids))
            .exclude(team__status=Team.Status.WITHDRAWN)
            .values_list("player_id", "team__name")
        )
    else:
        qs = Lineup.objects.filter(match__competition__season=season, player_id__in=list(ids))
        if until is not None:
            qs = qs.exclude(match__played_on__gt=until)
        rows = qs.values_list("player_id", "team__name")
    if exclude_team is not None:
        rows = rows.exclude(team=exclude_team)
    for pid, name in rows.distinct():
        out[ids[pid]].append((name, "UBF"))
    ext = ExternalTeamPlay.objects.filter(season=season, player_id__in=list(ids))
    if until is not None:
        ext = ext.filter(played_on__lte=until)
    for pid, name, district in ext.values_list("player_id", "team_name", "district"):
        out[ids[pid]].append((f"{name} ({district})", district))
    return out


def _other_team_warnings(
    infos: Iterable[PlayerInfo], earlier: dict[str, list[tuple[str, str]]]
) -> list[Violation]:
    """R-TEAM-RES-2 for TK's own registration of a direct qualifier: a player already on
    another team this season is flagged."""
    out = []
    for p in infos:
        teams = earlier.get(p.mid)
        if not teams:
            continue
        names = ", ".join(n for n, _ in teams)
        out.append(
            warning(
                "R-TEAM-RES-2",
                gettext_noop(
                    "%(player)s står redan i ett annat lag denna säsong (%(names)s). Spelar hen "
                    "för det här laget diskvalificeras laget. TK har fått en flagga."
                ),
                mid=p.mid,
                other_teams=[n for n, _ in teams],
                params={"player": p.label(), "names": names},
            )
        )
    return out


def _on_other_roster_errors(
    infos: Iterable[PlayerInfo], rosters: dict[str, list[tuple[str, str]]]
) -> list[Violation]:
    """R-TEAM-RES-2: a player already on another team's roster this season is refused."""
    out = []
    for p in infos:
        teams = rosters.get(p.mid)
        if not teams:
            continue
        names = ", ".join(dict.fromkeys(n for n, _ in teams))
        out.append(
            error(
                "R-TEAM-RES-2",
                gettext_noop(
                    "%(player)s står redan i ett annat lag denna säsong (%(names)s). En spelare "
                    "som har spelat för ett lag diskvalificerar det lag hen sedan spelar för; "
                    "bara TK kan godkänna det, med ett skäl."
                ),
                mid=p.mid,
                other_teams=list(dict.fromkeys(n for n, _ in teams)),
                params={"player": p.label(), "names": names},
            )
        )
    return out


@dataclass
class OtherTeamAllowed:
    """TK let players of other teams in, with a reason: recorded as a decision (R-GEN-3)."""

    reason: str
    findings: list[Violation]

    def record(self, obj, *, user, season) -> None:
        record_decision(
            "teams.other_team.allowed",
            obj,
            user=user,
            reason=self.reason,
            clause="R-TEAM-RES-2",
            season=season,
            mids=sorted({v.data.get("mid") for v in self.findings if v.data.get("mid")}),
            findings=[v.message_sv for v in self.findings],
        )


def other_team_check(
    user,
    season: Season,
    players: Iterable[Player],
    infos: Iterable[PlayerInfo],
    *,
    exclude_team: Team | None,
    reason: str = "",
) -> tuple[list[Violation], OtherTeamAllowed | None]:
    """R-TEAM-RES-2 on every path that puts a player on a team (entry, entry request, its
    confirmation, roster change): a player who has played for another team this season, or is
    on another team's roster, is refused with the clause, unless TK gives a reason; then the
    findings come back as warnings and an :class:`OtherTeamAllowed` to record."""
    players, by_mid = list(players), {i.mid: i for i in infos}
    played = _earlier_teams(season, players, exclude_team=exclude_team, on_roster=False)
    rosters = _earlier_teams(season, players, exclude_team=exclude_team, on_roster=True)
    known = [by_mid[p.mid] for p in players if p.mid in by_mid]
    findings = _played_elsewhere_errors(known, played)
    findings += _on_other_roster_errors([i for i in known if i.mid not in played], rosters)
    if not findings:
        return [], None
    reason = (reason or "").strip()
    if is_tk(user) and reason:
        return [as_warning(v) for v in findings], OtherTeamAllowed(reason, findings)
    if is_tk(user):
        findings.append(
            error(
                "R-GEN-3",
                gettext_noop(
                    "TK kan godkänna en spelare från ett annat lag bara med ett skäl, som "
                    "registreras som ett beslut."
                ),
            )
        )
    return findings, None


def _played_elsewhere_errors(
    infos: Iterable[PlayerInfo], played: dict[str, list[tuple[str, str]]]
) -> list[Violation]:
    """R-TEAM-RES-2: a player who has played for another team this season (a line-up in UBF or
    a recorded play elsewhere) cannot be added: a team that fields him is disqualified."""
    out = []
    for p in infos:
        teams = played.get(p.mid)
        if not teams:
            continue
        names = ", ".join(dict.fromkeys(n for n, _ in teams))
        out.append(
            error(
                "R-TEAM-RES-2",
                gettext_noop(
                    "%(player)s har redan spelat för %(teams)s denna säsong och kan inte läggas "
                    "till i laget: ett lag som ställer upp med hen diskvalificeras."
                ),
                params={"player": p.label(), "teams": names},
                mid=p.mid,
                other_teams=list(dict.fromkeys(n for n, _ in teams)),
            )
        )
    return out


def _latest_balance_dispensation(team: Team) -> Dispensation | None:
    return (
        team.dispensations.filter(kind=Dispensation.Kind.DISTRICT_BALANCE).order_by("-id").first()
    )


def _request_balance_dispensation(team: Team, violation: Violation, user) -> Dispensation:
    """R-TEAM-3: the team is entered but needs TK's dispensation before it starts; a pending
    request is reused, otherwise a new one is made (a roster change needs a new decision)."""
    latest = _latest_balance_dispensation(team)
    if latest is not None and latest.status == Dispensation.Status.REQUESTED:
        return latest
    return Dispensation.objects.create(
        kind=Dispensation.Kind.DISTRICT_BALANCE,
        team=team,
        status=Dispensation.Status.REQUESTED,
        requested_by=_authenticated(user),
        reason=violation.message_sv,
    )


def _balance_warning(v: Violation) -> Violation:
    return warning(
        "R-TEAM-3",
        gettext_noop(
            "%(finding)s Laget är anmält och dispens har begärts hos TK; laget får inte starta "
            "förrän TK har beviljat den."
        ),
        params={"finding": v},
        **v.data,
    )


# ------------------------------------------------------------------------------------------
# Team data (R-TEAM-REG-2, R-TEAM-2, R-TEAM-3, R-GEN-2, R-TEAM-4, R-TEAM-RES-2)
# ------------------------------------------------------------------------------------------


@dataclass
class _TeamData:
    name: str
    address: str
    phone: str
    email: str
    captain: Player | None
    players: list[Player]
    infos: list[PlayerInfo]
    violations: list[Violation]
    balance: list[Violation]


def _check_team_data(
    competition: TeamCompetition,
    *,
    name,
    captain_mid,
    address,
    phone,
    email,
    player_mids,
    rules,
    exclude_team: Team | None = None,
) -> _TeamData:
    season = competition.season
    name, address, phone, email = (str(x or "").strip() for x in (name, address, phone, email))
    captain = normalise_mid(captain_mid)
    mids = [m for m in (normalise_mid(x) for x in player_mids) if m]
    violations: list[Violation] = []
    missing = [
        label
        for label, value in (
            (gettext_noop("lagets namn"), name),
            (gettext_noop("lagkaptenens MID"), captain),
            (gettext_noop("adress"), address),
            (gettext_noop("telefon"), phone),
            (gettext_noop("e-post"), email),
        )
        if not value
    ]
    if missing:
        violations.append(
            error(
                "R-TEAM-REG-2",
                gettext_noop(
                    "Anmälan saknar %(missing)s. Vid anmälan ska lagets namn och lagkaptenens "
                    "namn, MID, adress, telefon och e-post uppges."
                ),
                params={"missing": missing},
                missing=missing,
            )
        )
    if email:
        try:
            validate_email(email)
        except ValidationError:
            violations.append(
                error(
                    "R-TEAM-REG-2",
                    gettext_noop("E-postadressen %(email)r är inte giltig."),
                    params={"email": email},
                )
            )
    if name:
        clash = Team.objects.filter(competition=competition, name__iexact=name)
        if exclude_team is not None:
            clash = clash.exclude(pk=exclude_team.pk)
        if clash.exists():
            violations.append(
                error(
                    "R-TEAM-REG-2",
                    gettext_noop("Lagnamnet %(name)r används redan i %(competition)s."),
                    params={"name": name, "competition": competition},
                )
            )
    found, unknown = lookup_players(mids + ([captain] if captain else []), clause="R-TEAM-REG-2")
    violations += unknown
    infos_by_mid = player_infos_for(season, found.values())
    infos = [infos_by_mid[m] for m in mids if m in infos_by_mid]
    balance: list[Violation] = []
    if not unknown:
        for v in check_team_roster(infos, rules=rules):
            (balance if v.clause == "R-TEAM-3" else violations).append(v)
        if len(set(mids)) > rules.roster_max:
            violations.append(
                error(
                    "R-TEAM-5",
                    gettext_noop(
                        "Högst %(roster_max)s ordinarie spelare kan anmälas. En sjunde eller "
                        "åttonde spelare får bara spela med dispens från TK, sökt före varje "
                        "speltillfälle."
                    ),
                    params={"roster_max": rules.roster_max},
                )
            )
    players = [found[m] for m in dict.fromkeys(mids) if m in found]
    return _TeamData(
        name=name,
        address=address,
        phone=phone,
        email=email,
        captain=found.get(captain),
        players=players,
        infos=list({p.mid: p for p in infos}.values()),
        violations=violations,
        balance=balance,
    )


def _direct_seat(team: Team) -> FinalSeat:
    """R-TEAM-DIRECT-1: last season's champions registered by TK hold the final's direct seat
    from now on (the recompute keeps it), with the next free number of the final."""
    seat = FinalSeat(
        competition_id=team.competition_id,
        key=str(team.id),
        holder=team,
        source=FinalSeat.Source.DIRECT,
    )
    seat.explain("R-TEAM-DIRECT-1", seats.seat_reason(FinalSeat.Source.DIRECT))
    seat.save()
    seats.number_seats(team.competition_id)
    return seat


def _create_team(competition, data: _TeamData, *, user, **fields) -> Team:
    team = Team.objects.create(
        competition=competition,
        name=data.name,
        captain=data.captain,
        address=data.address,
        phone=data.phone,
        email=data.email,
        **fields,
    )
    for p in data.players:
        RosterEntry.objects.create(team=team, player=p)
    return team


# ------------------------------------------------------------------------------------------
# 4. Team entries and rosters
# ------------------------------------------------------------------------------------------


@transaction.atomic
def enter_team(
    user,
    heat: TeamHeat,
    *,
    name: str,
    captain_mid,
    address: str,
    phone: str,
    email: str,
    player_mids: Iterable,
    reason: str = "",
) -> TeamOutcome:
    """Enter a team with the heat responsible of the chosen heat (R-TEAM-REG-2).

    Who: TK, the heat responsible, or an official of an arranging club. Refused (nothing saved):
    a missing team name, captain MID, address, phone or e-mail (R-TEAM-REG-2); unknown MIDs; a
    roster that is not 4–6 distinct players each with a representation club this season
    (R-TEAM-2; a 7th/8th player needs a dispensation per occasion, R-TEAM-5); a closed heat; an
    entry after the heat's entries window (``clubs.windows``: its last entry day, and never once
    the heat has started, R-TEAM-REG-2) unless TK gives a ``reason`` (recorded as a decision).
    Entered with warnings flagged to TK: unpaid members (R-GEN-2; fielding them is punished,
    R-TEAM-RES-1), members outside UBF (R-TEAM-4), a player already on another team this season
    in UBF or elsewhere (R-TEAM-RES-2). District balance failing (R-TEAM-3): the team is entered
    and a Dispensation (district balance, requested) is created; see :func:`teams.selectors.team_may_start`.
    Teams are numbered 1..n in the heat in entry order.
    """
    require(can_manage_team_heat(user, heat))
    heat = lock_row(TeamHeat.objects.select_related("competition__season"), heat.pk)
    competition = heat.competition
    season = competition.season
    rules = season.rules()
    outside = windows.enforce(
        windows.heat_windows(heat)[ENTRIES], user, season=season, reason=reason
    )
    data = _check_team_data(
        competition,
        name=name,
        captain_mid=captain_mid,
        address=address,
        phone=phone,
        email=email,
        player_mids=player_mids,
        rules=rules,
    )
    violations = data.violations
    if heat.status in _CLOSED_HEAT:
        violations.append(
            error(
                "R-TEAM-REG-2",
                gettext_noop("Heatet %(heat)s är %(heat_status)s och tar inte emot lag."),
                params={
                    "heat": heat.name,
                    "heat_status": heat.get_status_display(),
                },
            )
        )
    others, allowed = other_team_check(
        user, season, data.players, data.infos, exclude_team=None, reason=reason
    )
    violations += others
    warnings = raise_on_errors(violations)

    numbers = Team.objects.filter(heat=heat).values_list("number", flat=True)
    number = max((n for n in numbers if n is not None), default=0) + 1
    team = _create_team(competition, data, user=user, heat=heat, number=number)
    dispensation = None
    if data.balance:
        dispensation = _request_balance_dispensation(team, data.balance[0], user)
        warnings.append(_balance_warning(data.balance[0]))
    flag_warnings("teams.team.flagged", team, warnings, user=user, season=season)
    if allowed is not None:
        allowed.record(team, user=user, season=season)
    windows.record_late(outside, "teams.team.entry", team, user=user, season=season)
    request_recompute(competition.pk)
    return TeamOutcome(team=team, warnings=warnings, dispensation=dispensation)


@dataclass
class RosterChange:
    """A roster change checked against every rule but its window (R-TEAM-2, R-TEAM-3,
    R-TEAM-5, R-GEN-2, R-TEAM-4, R-TEAM-RES-2): ``violations`` holds the errors and the
    warnings; :func:`_apply_roster_change` saves it once there are no errors. The one check
    of a direct change (:func:`update_roster`) and of a change asked of TK
    (``teams.services.change_requests``)."""

    team: Team
    adds: list[str]
    removes: list[str]
    added: list[Player]
    removed: list[Player]
    entries: dict[str, RosterEntry]
    violations: list[Violation]
    balance: list[Violation]
    allowed: OtherTeamAllowed | None = None


def check_roster_change(
    team: Team, add_mids: Iterable = (), remove_mids: Iterable = (), *, user=None, reason=""
):
    """Every check of adding ``add_mids`` to and removing ``remove_mids`` from ``team``'s
    regular players, without its window and without saving (see :func:`update_roster`). A
    player of another team is refused unless TK (``user``) gives a ``reason``
    (:func:`other_team_check`)."""
    season = team.competition.season
    rules = season.rules()
    adds = list(dict.fromkeys(m for m in (normalise_mid(x) for x in add_mids) if m))
    removes = list(dict.fromkeys(m for m in (normalise_mid(x) for x in remove_mids) if m))
    entries = {r.player.mid: r for r in team.roster.select_related("player")}
    regulars = [m for m, r in entries.items() if not r.is_extra]

    found, violations = lookup_players(adds, clause="R-TEAM-2")
    all_known = not violations
    for m in removes:
        if m not in regulars:
            violations.append(
                error(
                    "R-TEAM-2",
                    gettext_noop("%(value)s står inte i lagets spelartrupp och kan inte tas bort."),
                    mid=m,
                    params={"value": m},
                )
            )
    for m in adds:
        if m in regulars and m not in removes:
            violations.append(
                error(
                    "R-TEAM-2",
                    gettext_noop("%(value)s står redan i laget."),
                    mid=m,
                    params={"value": m},
                )
            )
    new_mids = [m for m in regulars if m not in removes] + [m for m in adds if m not in regulars]
    infos = player_infos(season, new_mids)
    new_infos = [infos[m] for m in new_mids if m in infos]
    balance: list[Violation] = []
    if all_known:
        for v in check_team_roster(new_infos, rules=rules):
            if v.clause == "R-TEAM-3":
                balance.append(v)
            elif (
                v.is_error
                or v.data.get("mid") in adds
                or any(m in adds for m in v.data.get("mids", ()))
            ):
                violations.append(v)
        if len(new_mids) > rules.roster_max:
            violations.append(
                error(
                    "R-TEAM-5",
                    gettext_noop(
                        "En sjunde eller åttonde spelare kan inte läggas till i laget; TK kan ge "
                        "dispens för den spelaren för ett speltillfälle i taget."
                    ),
                )
            )
    added_players = [found[m] for m in adds if m in found and m not in regulars]
    others, allowed = other_team_check(
        user,
        season,
        added_players,
        [infos[p.mid] for p in added_players if p.mid in infos],
        exclude_team=team,
        reason=reason,
    )
    violations += others
    return RosterChange(
        team=team,
        adds=adds,
        removes=removes,
        added=added_players,
        removed=[entries[m].player for m in removes if m in entries],
        entries=entries,
        violations=violations,
        balance=balance,
        allowed=allowed,
    )


def _apply_roster_change(change: RosterChange, warnings: list[Violation], user) -> TeamOutcome:
    team, entries = change.team, change.entries
    for m in change.removes:
        entries[m].delete()
    for p in change.added:
        if p.mid in entries:  # an extra player becomes a regular
            entries[p.mid].is_extra = False
            entries[p.mid].save(update_fields=["is_extra"])
        else:
            RosterEntry.objects.create(team=team, player=p)
    dispensation = None
    if change.balance and (change.adds or change.removes):
        dispensation = _request_balance_dispensation(team, change.balance[0], user)
        warnings.append(_balance_warning(change.balance[0]))
    flag_warnings("teams.team.flagged", team, warnings, user=user, season=team.competition.season)
    if change.allowed is not None:
        change.allowed.record(team, user=user, season=team.competition.season)
    return TeamOutcome(team=team, warnings=warnings, dispensation=dispensation)


def locked_team(team: Team) -> Team:
    """``team`` read again with its row locked (the one lock of a roster change)."""
    return lock_row(Team.objects.select_related("competition__season", "heat"), team.pk)


@transaction.atomic
def update_roster(
    user,
    team: Team,
    add_mids: Iterable = (),
    remove_mids: Iterable = (),
    *,
    reason: str = "",
    allow_other_team: bool = True,
) -> TeamOutcome:
    """Add or remove regular roster players (who: the team's captain, whoever manages its heat,
    TK). The roster stays at 4–6 distinct players with a representation club (R-TEAM-2; a 7th
    needs :func:`request_extra_player`, R-TEAM-5); removed players must be regulars on it.
    Warnings as for :func:`enter_team` for the added players (R-GEN-2, R-TEAM-4,
    R-TEAM-RES-2). The district balance is checked again (R-TEAM-3): if it fails, a
    dispensation is requested (a pending request is reused; a granted one for the old roster
    no longer counts).

    Refused: a change once the team has no match left to play (``clubs.windows.roster_window``,
    R-TEAM-2) unless TK gives a ``reason`` (recorded as a decision; a captain asks TK instead,
    ``teams.services.change_requests.request_roster_change``); adding a player who has
    played for another team this season or is on another team's roster (R-TEAM-RES-2; the
    message names the team), unless TK gives a ``reason`` and ``allow_other_team``
    (:func:`other_team_check`: recorded as ``teams.other_team.allowed``)."""
    require(can_manage_team(user, team))
    team = locked_team(team)
    season = team.competition.season
    outside = windows.enforce(windows.roster_window(team), user, season=season, reason=reason)
    change = check_roster_change(
        team, add_mids, remove_mids, user=user, reason=reason if allow_other_team else ""
    )
    warnings = raise_on_errors(change.violations)
    outcome = _apply_roster_change(change, warnings, user)
    windows.record_late(outside, "teams.roster", team, user=user, season=season)
    request_recompute(team.competition_id)
    return outcome


# ------------------------------------------------------------------------------------------
# District balance (R-TEAM-3): the captain asks TK before the team starts
# ------------------------------------------------------------------------------------------


@transaction.atomic
def request_balance_dispensation(user, team: Team, reason: str) -> Dispensation:
    """R-TEAM-3: the captain (or whoever manages the team's heat, or TK) asks TK for the
    dispensation a team without a UBF majority needs before it starts, with the team's reason.
    One model with the 7th/8th player's dispensation (:class:`teams.models.Dispensation`, kind
    district balance): the request made when the team was entered is completed with the
    reason, a rejected one is asked again as a new request. Refused (nothing saved): no reason;
    a roster that meets the balance (nothing to ask); a dispensation granted or a request with
    a reason already waiting; after the team's first match day (``clubs.windows``: TK may
    still, with a reason) or once a match of the team has been played."""
    require(can_manage_team(user, team))
    team = lock_row(Team.objects.select_related("competition__season", "heat"), team.pk)
    season = team.competition.season
    late = windows.enforce(
        windows.balance_dispensation_window(team),
        user,
        season=season,
        reason=reason,
    )
    problems = text_required(
        reason,
        "R-TEAM-3",
        gettext_noop("Skriv varför laget ska få dispens: TK beslutar utifrån lagets motivering."),
    )
    infos = player_infos_for(season, _regular_players(team))
    finding = check_district_balance(list(infos.values()))
    latest = _latest_balance_dispensation(team)
    if not finding:
        problems.append(
            error(
                "R-TEAM-3",
                gettext_noop(
                    "Laget har minst lika många spelare från UBF-klubbar som från något annat "
                    "distrikt och behöver ingen dispens."
                ),
            )
        )
    elif latest is not None and latest.status == Dispensation.Status.GRANTED:
        problems.append(error("R-TEAM-3", gettext_noop("TK har redan beviljat laget dispens.")))
    elif (
        latest is not None
        and latest.status == Dispensation.Status.REQUESTED
        and latest.request_reason
    ):
        problems.append(
            error(
                "R-TEAM-3",
                gettext_noop("Dispens är redan begärd och väntar på TK:s beslut."),
            )
        )
    if _has_started(team):
        problems.append(
            error(
                "R-TEAM-3",
                gettext_noop(
                    "%(team)s har redan spelat: dispens för distriktsbalansen ska begäras och "
                    "beviljas innan laget startar."
                ),
                params={"team": team.name},
            )
        )
    raise_on_errors(problems)

    if latest is not None and latest.status == Dispensation.Status.REQUESTED:
        latest.request_reason = reason.strip()
        if latest.requested_by_id is None:
            latest.requested_by = _authenticated(user)
        latest.save(update_fields=["request_reason", "requested_by"])
        dispensation = latest
    else:
        dispensation = Dispensation.objects.create(
            kind=Dispensation.Kind.DISTRICT_BALANCE,
            team=team,
            status=Dispensation.Status.REQUESTED,
            requested_by=_authenticated(user),
            request_reason=reason.strip(),
            reason=finding[0].message_sv,
        )
    windows.record_late(late, "teams.dispensation.request", dispensation, user=user, season=season)
    return dispensation


# ------------------------------------------------------------------------------------------
# Extra players (R-TEAM-5)
# ------------------------------------------------------------------------------------------


@transaction.atomic
def request_extra_player(
    user, team: Team, mid, *, occasion: str, occasion_date: date
) -> Dispensation:
    """R-TEAM-5: ask TK for a dispensation for a 7th (or 8th) player for one occasion (who: the
    captain, whoever manages the team's heat, TK). Refused: no occasion or date, a date already
    passed (it is sought before each occasion), a roster that still has room (add the player to
    it instead), a player already on the roster, a player who has played for another team this
    season, more than 8 players with the extras of that day, the same request twice. Unpaid
    membership (R-GEN-2) and a club outside UBF (R-TEAM-4) are warnings in the request. The
    RosterEntry (``is_extra``) is made when the granted player is fielded
    (:func:`record_lineup`); see :func:`extra_player_allowed`."""
    require(can_manage_team(user, team))
    team = lock_row(Team.objects.select_related("competition__season"), team.pk)
    season = team.competition.season
    rules = season.rules()
    m = normalise_mid(mid)
    occasion = str(occasion or "").strip()
    found, violations = lookup_players([m], clause="R-TEAM-5")
    occasions = dict(team_occasions(team))
    if occasion_date is None:
        violations.append(
            error(
                "R-TEAM-5",
                gettext_noop("Ange vilket speltillfälle (och dag) dispensen gäller."),
            )
        )
    elif occasion_date not in occasions:
        days = ", ".join(d.isoformat() for d in occasions) or "–"
        violations.append(
            error(
                "R-TEAM-5",
                gettext_noop(
                    "Dispensen gäller ett av lagets egna speltillfällen; laget spelar inte "
                    "%(occasion_date)s (lagets speldagar: %(days)s)."
                ),
                params={"occasion_date": occasion_date.isoformat(), "days": days},
                occasion_date=occasion_date,
            )
        )
    elif not windows.dispensation_window(occasion_date).is_open(clock.today()):
        violations.append(
            error(
                "R-TEAM-5",
                gettext_noop(
                    "Dispens ska sökas före speltillfället; %(occasion_date)s har redan varit."
                ),
                params={"occasion_date": occasion_date},
            )
        )
    if occasion_date in occasions and not occasion:
        occasion = occasions[occasion_date]
    regulars = _regular_players(team)
    if len(regulars) < rules.roster_max:
        violations.append(
            error(
                "R-TEAM-5",
                gettext_noop(
                    "Laget har %(n_regulars)s spelare; en sjunde spelare behövs först när laget "
                    "har %(roster_max)s. Lägg till spelaren i spelartruppen i stället."
                ),
                params={"n_regulars": len(regulars), "roster_max": rules.roster_max},
            )
        )
    player = found.get(m)
    warnings: list[Violation] = []
    if player is not None:
        if any(p.pk == player.pk for p in regulars):
            violations.append(
                error(
                    "R-TEAM-5", gettext_noop("%(value)s står redan i laget."), params={"value": m}
                )
            )
        same_day = Dispensation.objects.filter(
            team=team, kind=Dispensation.Kind.EXTRA_PLAYER, occasion_date=occasion_date
        ).exclude(status=Dispensation.Status.REJECTED)
        if same_day.filter(player=player).exists():
            violations.append(
                error(
                    "R-TEAM-5",
                    gettext_noop(
                        "Dispens för %(value)s den %(occasion_date)s är redan begärd eller "
                        "beviljad."
                    ),
                    params={"value": m, "occasion_date": occasion_date},
                )
            )
        other_extras = [d.player for d in same_day.exclude(player=player).select_related("player")]
        infos = player_infos_for(season, regulars + other_extras + [player])
        played_elsewhere = _earlier_teams(season, [player], exclude_team=team, on_roster=False)
        # R-TEAM-5: refused now, not only when TK grants it (decide_dispensation refuses a
        # player on or played for another team).
        violations += _on_other_roster_errors(
            [infos[m]],
            {}
            if played_elsewhere
            else _earlier_teams(season, [player], exclude_team=team, on_roster=True),
        )
        violations += check_extra_players(
            [infos[p.mid] for p in regulars],
            [infos[p.mid] for p in other_extras] + [infos[m]],
            dispensations={p.mid for p in other_extras} | {m},
            played_for_other_team=set(played_elsewhere),
            rules=rules,
        )
        warnings += check_membership([infos[m]], team=True, rules=rules)
        warnings += check_team_dm_status([infos[m]])
    raise_on_errors(violations)
    dispensation = Dispensation.objects.create(
        kind=Dispensation.Kind.EXTRA_PLAYER,
        team=team,
        player=player,
        occasion=occasion,
        occasion_date=occasion_date,
        status=Dispensation.Status.REQUESTED,
        requested_by=_authenticated(user),
        reason="\n".join(str(w) for w in warnings),
    )
    flag_warnings("teams.team.flagged", team, warnings, user=user, season=season)
    return dispensation


def team_occasions(team: Team) -> list[tuple[date, str]]:
    """R-TEAM-5: the days on which ``team`` plays (its matches, its heat's play days, the
    final's central days once it is in the final), each with a label: the choice a
    dispensation is asked for."""
    out: dict[date, str] = {}
    if team.heat_id:
        heat = team.heat
        for number, day in enumerate(
            dict.fromkeys(d for d in (heat.first_date, heat.last_date) if d), start=1
        ):
            out[day] = f"{heat.name}, dag {number}"
    if team.is_direct_qualifier or team.is_finalist:
        comp = team.competition
        out.setdefault(comp.final_day1, "Final, centraldag 1")
        out.setdefault(comp.final_day2, "Final, centraldag 2")
    for match in (
        Match.objects.filter(Q(home=team) | Q(away=team))
        .select_related("home", "away", "heat", "competition")
        .order_by("round", "id")
    ):
        day = windows.match_date(match)
        if day is not None:
            out[day] = f"Rond {match.round}: {match.home} – {match.away}"
    return sorted(out.items())


def extra_player_allowed(team: Team, player: Player, on_date: date) -> bool:
    """R-TEAM-5, R-TEAM-RES-3: True when TK has granted ``player`` as a 7th/8th player of
    ``team`` for the occasion on ``on_date`` (a dispensation holds for one occasion only)."""
    return player.pk in _granted_extras(team, on_date)


def _granted_extras(team: Team, on: date) -> set[int]:
    """The players TK granted as 7th/8th players of ``team`` for the occasion on ``on``
    (:func:`ubf.rules.eligibility.dispensation_covers`)."""
    return {
        player_id
        for player_id, occasion_date in Dispensation.objects.filter(
            team=team,
            kind=Dispensation.Kind.EXTRA_PLAYER,
            status=Dispensation.Status.GRANTED,
            player__isnull=False,
        ).values_list("player_id", "occasion_date")
        if dispensation_covers(occasion_date, on)
    }


# ------------------------------------------------------------------------------------------
# Direct-qualifier team (R-TEAM-DIRECT-1)
# ------------------------------------------------------------------------------------------


@transaction.atomic
def register_direct_team(
    user,
    competition: TeamCompetition,
    *,
    name: str,
    captain_mid,
    address: str,
    phone: str,
    email: str,
    player_mids: Iterable,
    last_season_roster_mids: Iterable,
) -> TeamOutcome:
    """R-TEAM-DIRECT-1: TK registers last season's DM champions directly in the final: at
    least ceil(2/3 × last season's roster) of those players on the new roster, registered no
    later than the last day of the qualifying period; one such team per competition. The entry
    itself follows :func:`enter_team` (R-TEAM-REG-2, R-TEAM-2 refused; R-GEN-2, R-TEAM-4,
    R-TEAM-RES-2 warnings; R-TEAM-3 dispensation requested). Whether those players then play a
    half of the final is checked after the final (``check_team_direct_final_play``)."""
    require(is_tk(user))
    competition = TeamCompetition.objects.select_related("season").get(pk=competition.pk)
    season = competition.season
    rules = season.rules()
    player_mids = list(player_mids)
    champions = [m for m in (normalise_mid(x) for x in last_season_roster_mids) if m]
    data = _check_team_data(
        competition,
        name=name,
        captain_mid=captain_mid,
        address=address,
        phone=phone,
        email=email,
        player_mids=player_mids,
        rules=rules,
    )
    violations = data.violations
    violations += check_team_direct_qualifier(
        champions,
        [normalise_mid(x) for x in player_mids],
        clock.today(),
        competition.qualifying_end,
        rules=rules,
    )
    if (
        Team.objects.filter(competition=competition, is_direct_qualifier=True)
        .exclude(status=Team.Status.WITHDRAWN)
        .exists()
    ):
        violations.append(
            error(
                "R-TEAM-DIRECT-1",
                gettext_noop("%(competition)s har redan ett direktkvalificerat lag."),
                params={"competition": competition},
            )
        )
    warnings = raise_on_errors(violations)
    warnings += _other_team_warnings(
        data.infos, _earlier_teams(season, data.players, exclude_team=None, on_roster=True)
    )
    team = _create_team(competition, data, user=user, heat=None, is_direct_qualifier=True)
    _direct_seat(team)  # R-TEAM-DIRECT-1: the champions hold the final's direct seat
    dispensation = None
    if data.balance:
        dispensation = _request_balance_dispensation(team, data.balance[0], user)
        warnings.append(_balance_warning(data.balance[0]))
    record_decision(
        "teams.direct_qualifier.registered",
        team,
        user=user,
        reason="\n".join(str(w) for w in warnings),
        clause="R-TEAM-DIRECT-1",
        season=season,
        champions=champions,
        remaining=sorted(set(champions) & {p.mid for p in data.players}),
        deadline=competition.qualifying_end,
    )
    flag_warnings("teams.team.flagged", team, warnings, user=user, season=season)
    request_recompute(competition.pk)
    return TeamOutcome(team=team, warnings=warnings, dispensation=dispensation)


# ------------------------------------------------------------------------------------------
# 5. Line-ups
# ------------------------------------------------------------------------------------------


@dataclass
class LineupCheck:
    """A line-up checked against every rule but its window (R-TEAM-2, R-TEAM-5, R-TEAM-RES-2,
    R-TEAM-RES-3, R-TEAM-KVAL-5, R-TEAM-WO-1): ``violations`` holds the errors. The one check
    of a line-up recorded directly (:func:`record_lineup`) and of one asked of TK
    (``teams.services.change_requests``)."""

    match: Match
    team: Team
    on: date
    halves: list[list[str]]
    found: dict[str, Player]
    fielded: list[Player]
    infos: dict[str, PlayerInfo]
    extras: list[Player]
    violations: list[Violation]


def check_lineup(
    match: Match,
    team: Team,
    half1_mids: Iterable,
    half2_mids: Iterable = (),
    *,
    today: date,
    user=None,
    reason: str = "",
) -> LineupCheck:
    """Every check of ``team``'s line-up for ``match``, without its window and without saving
    (see :func:`record_lineup`). A 7th/8th player without a dispensation for the day is
    refused, except that TK (``user``) with a ``reason`` records what happened at the table:
    the line-up is then kept as a violation (a WARNING of R-TEAM-RES-3 in ``violations``) for
    TK to sanction (``teams.services.decisions.disqualify_team``)."""
    recording = is_tk(user) and bool((reason or "").strip())
    season = match.competition.season
    rules = season.rules()
    on = match.played_on or today
    halves = [
        [normalise_mid(x) for x in half1_mids if normalise_mid(x)],
        [normalise_mid(x) for x in half2_mids if normalise_mid(x)],
    ]
    violations: list[Violation] = []
    if team.pk not in (match.home_id, match.away_id):
        violations.append(
            error(
                "R-TEAM-2",
                gettext_noop("%(team)s spelar inte i matchen %(match)s."),
                params={"team": team, "match": match},
            )
        )
    if match.status == Match.Status.WALKOVER:
        violations.append(
            error(
                "R-TEAM-WO-1",
                gettext_noop("Matchen är avgjord på W.O. och har ingen laguppställning."),
            )
        )
    if match.halves == 1 and halves[1]:
        violations.append(
            error(
                "R-TEAM-KVAL-5",
                gettext_noop(
                    "Matchen spelas i ett segment (%(boards)s brickor); ange bara en "
                    "laguppställning."
                ),
                params={"boards": match.boards},
            )
        )
    for number, mids in enumerate(halves[: match.halves], start=1):
        if len(mids) != 4 or len(set(mids)) != 4:
            violations.append(
                error(
                    "R-TEAM-2",
                    gettext_noop(
                        "Halvlek %(number)s: laget ska ställa upp med fyra olika spelare "
                        "(angivna: %(n_set)s)."
                    ),
                    half=number,
                    params={"number": number, "n_set": len(set(mids))},
                )
            )
    all_mids = list(dict.fromkeys(m for h in halves for m in h))
    found, unknown = lookup_players(all_mids, clause="R-TEAM-2")
    violations += unknown

    regulars = _regular_players(team)
    regular_ids = {p.pk for p in regulars}
    granted = _granted_extras(team, on)
    fielded = [found[m] for m in all_mids if m in found]
    infos = player_infos_for(season, {p.pk: p for p in regulars + fielded}.values(), paid_by=on)
    regular_infos = [infos[p.mid] for p in regulars]
    extras = [p for p in fielded if p.pk not in regular_ids and p.pk in granted]
    for p in fielded:
        if p.pk in regular_ids or p.pk in granted:
            continue
        for v in check_fielded_extra_players(regular_infos, [infos[p.mid]], rules=rules):
            if v.clause == "R-TEAM-RES-3" and recording:
                violations.append(
                    warning(
                        "R-TEAM-RES-3",
                        gettext_noop(
                            "%(infos)s spelade som sjunde/åttonde spelare utan beviljad dispens "
                            "för %(on)s. TK har registrerat det som en överträdelse; laget "
                            "diskvalificeras genom TK:s beslut (R-TEAM-RES-3)."
                        ),
                        mid=p.mid,
                        violation=True,
                        params={"infos": infos[p.mid].label(), "on": on},
                    )
                )
            elif v.clause == "R-TEAM-RES-3":
                violations.append(
                    error(
                        "R-TEAM-RES-3",
                        gettext_noop(
                            "%(infos)s är sjunde/åttonde spelare utan beviljad dispens för "
                            "%(on)s (R-TEAM-5). Att ställa upp hen skulle diskvalificera laget; "
                            "laguppställningen sparas inte."
                        ),
                        mid=p.mid,
                        params={"infos": infos[p.mid].label(), "on": on},
                    )
                )
            else:
                violations.append(
                    error(
                        "R-TEAM-2",
                        gettext_noop(
                            "%(infos)s står inte i laget; lägg till spelaren i spelartruppen "
                            "innan hen spelar."
                        ),
                        mid=p.mid,
                        params={"infos": infos[p.mid].label()},
                    )
                )
    clash = (
        Lineup.objects.filter(match=match, player__in=fielded)
        .exclude(team=team)
        .select_related("player")
    )
    for row in clash:
        violations.append(
            error(
                "R-TEAM-RES-2",
                gettext_noop("%(player)s spelar för motståndarlaget i denna match."),
                mid=row.player.mid,
                params={"player": row.player},
            )
        )
    return LineupCheck(
        match=match,
        team=team,
        on=on,
        halves=halves,
        found=found,
        fielded=fielded,
        infos=infos,
        extras=extras,
        violations=violations,
    )


def lineup_players(match: Match, team: Team) -> tuple[Match, Team]:
    """``match`` and ``team`` read with what a line-up's checks need."""
    return (
        Match.objects.select_related("competition__season", "heat").get(pk=match.pk),
        Team.objects.select_related("competition__season").get(pk=team.pk),
    )


def can_record_lineup(user, match: Match, team: Team) -> bool:
    """Who records a line-up: that team's captain, the match's heat responsible or arranging
    club official, TK."""
    if is_tk(user):
        return True
    if user is None or not user.is_authenticated:
        return False
    if team.captain_user_id == user.id:
        return True
    return match.heat is not None and can_manage_team_heat(user, match.heat)


@transaction.atomic
def record_lineup(
    user,
    match: Match,
    team: Team,
    *,
    half1_mids: Iterable,
    half2_mids: Iterable = (),
    reason: str = "",
) -> LineupOutcome:
    """Record who played each half of ``match`` for ``team`` (who: that team's captain, the
    match's heat responsible or arranging club official, TK), replacing the team's earlier
    line-up for the match at once.

    Refused (nothing saved): a team not in the match, a W.O. match, not exactly 4 different
    players in a half, a second half in a one-segment match (R-TEAM-KVAL-5), a player who is
    neither on the roster nor a 7th/8th player granted for the match's date (R-TEAM-5; fielding
    him would disqualify the team, R-TEAM-RES-3; TK with a ``reason`` records it as it was
    played, as a violation: ``teams.lineup.violation_recorded``), a player also in the
    opponents' line-up.
    Returned as warnings and flagged to TK (the penalties are TK's decisions): an unpaid player
    (R-TEAM-RES-1: 5 VP per match, disqualification after 14 days), a player who played for
    another team earlier this season (R-TEAM-RES-2), a player outside UBF (R-TEAM-4: the team
    leaves the DM title race). Requests a recompute of the team competition.
    """
    match, team = lineup_players(match, team)
    require(can_record_lineup(user, match, team))
    season = match.competition.season
    rules = season.rules()
    today = clock.today()
    # Up to the match day; after it a change of who played is TK's, with a reason (R-TEAM-2).
    outside = windows.enforce(
        windows.lineup_window(match), user, season=season, reason=reason, today=today
    )
    check = check_lineup(match, team, half1_mids, half2_mids, today=today, user=user, reason=reason)
    warnings: list[Violation] = raise_on_errors(check.violations)
    on, halves, found, fielded, infos, extras = (
        check.on,
        check.halves,
        check.found,
        check.fielded,
        check.infos,
        check.extras,
    )

    fielded_infos = [infos[p.mid] for p in fielded]
    # R-TEAM-RES-1: unpaid (as of the match date) players fielded.
    unpaid = [p for p in fielded if not infos[p.mid].membership_paid]
    if unpaid:
        paid_on = membership_paid_on(season, unpaid)
        earlier = defaultdict(set)
        for pid, match_id, played_on in (
            Lineup.objects.filter(team=team, player__in=unpaid)
            .exclude(match=match)
            .values_list("player_id", "match_id", "match__played_on")
        ):
            earlier[pid].add((match_id, played_on))
        for p in unpaid:
            fee = paid_on.get(p.mid)
            matches = {
                (m_id, d) for m_id, d in earlier[p.pk] if fee is None or d is None or d < fee
            }
            dates = [d for _, d in matches if d is not None] + [on]
            warnings += [
                as_warning(v)
                for v in check_unpaid_fielded(
                    infos[p.mid],
                    min(dates),
                    today,
                    matches_played=len(matches) + 1,
                    fee_received_on=fee,
                    rules=rules,
                )
            ]
    # R-TEAM-RES-2: took part for another team on an earlier day (the same rule as TK's
    # disqualification, :func:`ubf.rules.eligibility.check_played_for_two_teams`).
    for p in fielded:
        warnings += [
            as_warning(v)
            for v in check_played_for_two_teams(
                infos[p.mid], team.name, [on], _plays_elsewhere(p, team), found_on=today
            )
        ]
    # R-TEAM-4: a player outside UBF takes the team out of the DM title race.
    warnings += check_team_dm_status([], fielded_infos)

    Lineup.objects.filter(match=match, team=team).delete()
    lineups = [
        Lineup.objects.create(match=match, team=team, player=found[m], half=number)
        for number, mids in enumerate(halves[: match.halves], start=1)
        for m in mids
    ]
    for p in extras:
        RosterEntry.objects.get_or_create(team=team, player=p, defaults={"is_extra": True})
    recorded = [v for v in warnings if v.clause == "R-TEAM-RES-3" and v.data.get("violation")]
    if recorded:
        # R-TEAM-RES-3: TK recorded what happened at the table, with a reason (R-GEN-3).
        record_decision(
            "teams.lineup.violation_recorded",
            match,
            user=user,
            reason=reason.strip(),
            clause="R-TEAM-RES-3",
            season=season,
            team=team.name,
            mids=[v.data["mid"] for v in recorded],
            on=on,
        )
    flag_warnings("teams.lineup.flagged", match, warnings, user=user, season=season)
    windows.record_late(outside, "teams.lineup", match, user=user, season=season)
    request_recompute(match.competition_id)
    return LineupOutcome(lineups=lineups, warnings=warnings)


# ------------------------------------------------------------------------------------------
# Lists (admin): roster size and DM/SM status without a query per row
# ------------------------------------------------------------------------------------------


def with_roster_and_dm_columns(queryset):
    """Annotate teams with ``roster_size`` (regular players, R-TEAM-2) and
    ``fielded_outside_ubf`` (R-TEAM-4: a player without a UBF representation club this season
    has played for the team; it then competes only for SM places), as :func:`teams.selectors.team_dm_status`
    decides, in the list's one query."""
    ubf_rep = Representation.objects.filter(
        player=OuterRef("player"),
        season=OuterRef("team__competition__season"),
        club__district__code=UBF_DISTRICT_CODE,
    )
    outside = Lineup.objects.filter(team=OuterRef("pk")).filter(~Exists(ubf_rep))
    return queryset.annotate(
        roster_size=Count("roster", filter=Q(roster__is_extra=False), distinct=True),
        fielded_outside_ubf=Exists(outside),
    )


@transaction.atomic
def withdraw_team(user, team: Team, *, reason: str) -> Team:
    """A team withdraws (its captain, its heat's responsible or TK), saying why. Before it has
    played it simply leaves its heat; after it has qualified, the seat it holds in the final is
    offered down the replacement chain (R-TEAM-REPL-1, R-REPL-1..7), whether or not it had been
    marked as a finalist. The withdrawal is recorded, and the recompute moves the chain on."""
    team = lock_row(Team.objects.select_related("competition__season"), team.pk)
    require(can_manage_team(user, team))
    problems = reason_required(reason, "R-TEAM-REPL-1")
    if team.status != Team.Status.ENTERED:
        problems.append(
            error(
                "R-TEAM-REPL-1",
                gettext_noop("Laget är redan %(status)s."),
                params={"status": team.get_status_display()},
            )
        )
    raise_on_errors(problems)
    team.status = Team.Status.WITHDRAWN
    team.status_reason = reason.strip()
    team.save(update_fields=["status", "status_reason"])
    # R-TEAM-REPL-1: the seat it holds is given up now, as a pair's is (the recompute offers it
    # down the chain, and vacates it too if it was not yet held when the team withdrew).
    held = seat_services.give_up_held(
        team,
        "R-TEAM-REPL-1",
        Message(
            gettext_noop("Lämnad: %(team)s har dragit sig ur (%(why)s); platsen erbjuds vidare"),
            {"team": team.name, "why": team.status_reason},
        ),
    )
    record_decision(
        "teams.team.withdrawn",
        team,
        user=user,
        reason=reason.strip(),
        clause="R-TEAM-REPL-1",
        season=team.competition.season,
        finalist=bool(held),
    )
    request_recompute(team.competition_id)
    return team


def on_seat_taken(sender, *, offer, seat, replaced, **kwargs) -> None:
    """R-TEAM-REPL-1 (:data:`clubs.services.seats.seat_taken`): a team that accepted the offer of
    a final seat takes the replaced team's place in the final's matches not yet played (it
    already has its number, the seat's). A pairs final has no matches."""
    if replaced is None or offer.seat.competition.kind != Entry.Kind.TEAMS:
        return
    for side in ("home", "away"):
        Match.objects.filter(
            competition_id=seat.competition_id,
            stage=Match.Stage.FINAL,
            status=Match.Status.SCHEDULED,
            **{f"{side}_id": replaced},
        ).update(**{f"{side}_id": seat.holder_id})

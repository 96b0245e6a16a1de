"""Read side of the team portal: each team's roster, DM/SM status and whether it may start,
for many teams in a fixed number of queries.

``team_rows`` applies the rulebook's team checks to stored teams; ``team_may_start`` and
``team_dm_status`` ask the same question for one team.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

from django.db.models import Prefetch, Q

from clubs.i18n import render_with_clause
from clubs.models import Player, Season
from clubs.permissions import club_ids_of, is_tk
from clubs.selectors import player_infos_for
from teams.models import (
    Dispensation,
    ExternalTeamPlay,
    Lineup,
    Match,
    RosterEntry,
    Team,
    TeamEntryRequest,
)
from ubf.rules.eligibility import (
    check_district_balance,
    check_membership,
    check_team_dm_status,
    check_team_roster,
    fielded_players,
    team_bonus_eligible,
    team_competes_for_dm,
)
from ubf.rules.i18n import gettext_noop
from ubf.rules.people import PlayerInfo
from ubf.rules.violations import Violation


@dataclass(frozen=True)
class TeamDmStatus:
    """R-TEAM-4: whether the team still competes for the DM title (no fielded player from
    outside UBF) and for the DM bonus (every roster member and fielded player in UBF)."""

    competes_for_dm: bool
    bonus_eligible: bool
    reasons: tuple[Violation, ...] = ()
    #: Played matches without a recorded line-up (their roster was counted; preliminary).
    without_lineup: int = 0

    @property
    def label(self) -> str:
        """``DM/SM`` while the team competes for both, ``SM`` once only for SM places."""
        return "DM/SM" if self.competes_for_dm else "SM"


def violation_text(v: Violation) -> str:
    """A violation as a person reads it, in the active language, with its clause."""
    return render_with_clause(v)


@dataclass
class RosterLine:
    player: Player
    info: PlayerInfo
    is_extra: bool


@dataclass
class TeamRow:
    team: Team
    roster: list[RosterLine]
    dm: TeamDmStatus
    may_start: bool
    reasons: list[Violation]
    matches: list[Match] = field(default_factory=list)
    # What may cost the team its place or points if it starts as it stands (R-TEAM-RES-1/2).
    risks: list[Violation] = field(default_factory=list)
    #: R-TEAM-3: the district balance's finding whether or not TK has granted a dispensation
    #: (empty when the roster meets it), and the latest district-balance dispensation.
    balance: list[Violation] = field(default_factory=list)
    balance_dispensation: Dispensation | None = None

    @property
    def needs_balance_dispensation(self) -> bool:
        """The team lacks a UBF majority and TK has not granted the dispensation (yet)."""
        granted = (
            self.balance_dispensation is not None
            and self.balance_dispensation.status == Dispensation.Status.GRANTED
        )
        return bool(self.balance) and not granted

    @property
    def reason_texts(self) -> list[str]:
        return [violation_text(v) for v in self.reasons]

    @property
    def risk_texts(self) -> list[str]:
        return [violation_text(v) for v in self.risks]

    @property
    def start_label(self) -> str:
        """The badge: "Får starta" only when nothing stands in the way."""
        if not self.may_start:
            return "no"
        return "risk" if self.risks else "yes"

    @property
    def dm_texts(self) -> list[str]:
        return [violation_text(v) for v in self.dm.reasons]


def team_rows(teams, season: Season) -> list[TeamRow]:
    """The index rows: roster, DM/SM status and whether each team may start, for all ``teams``
    in a constant number of queries (whatever their number).

    This is where R-TEAM-4 (DM/SM status) and R-TEAM-2/R-TEAM-3 (may the team start) are
    applied to stored teams, with the rule functions of ``ubf.rules.eligibility``;
    :func:`team_dm_status` and :func:`team_may_start` call it for one team."""
    teams = list(
        teams.select_related("heat", "competition", "captain").prefetch_related(
            Prefetch(
                "roster", queryset=RosterEntry.objects.select_related("player").order_by("id")
            ),
            Prefetch(
                "dispensations",
                queryset=Dispensation.objects.filter(
                    kind=Dispensation.Kind.DISTRICT_BALANCE
                ).order_by("-id"),
                to_attr="balance_dispensations",
            ),
        )
    )
    if not teams:
        return []
    ids = [t.pk for t in teams]
    rules = season.rules()
    lineups: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for tid, mid_, pid in Lineup.objects.filter(team_id__in=ids).values_list(
        "team_id", "match_id", "player_id"
    ):
        lineups[tid][mid_].add(pid)
    lineup_players = {
        p.pk: p
        for p in Player.objects.filter(
            pk__in=Lineup.objects.filter(team_id__in=ids).values("player_id")
        )
    }
    everyone = dict(lineup_players)
    for t in teams:
        everyone.update({r.player_id: r.player for r in t.roster.all()})
    infos = player_infos_for(season, everyone.values())
    # R-TEAM-RES-2: where each roster player has played this season (UBF line-ups, elsewhere).
    played_for: dict[int, dict[int | str, str]] = defaultdict(dict)
    for pid, tid, name in (
        Lineup.objects.filter(match__competition__season=season, player_id__in=list(everyone))
        .values_list("player_id", "team_id", "team__name")
        .distinct()
    ):
        played_for[pid][tid] = name
    for pid, name, district in ExternalTeamPlay.objects.filter(
        season=season, player_id__in=list(everyone)
    ).values_list("player_id", "team_name", "district"):
        played_for[pid][f"{name}/{district}"] = f"{name} ({district})"
    matches: dict[int, list[Match]] = {pk: [] for pk in ids}
    for m in (
        Match.objects.filter(Q(home_id__in=ids) | Q(away_id__in=ids))
        .select_related("home", "away")
        .order_by("stage", "round", "played_on", "id")
    ):
        for side in (m.home_id, m.away_id):
            if side in matches:
                matches[side].append(m)

    rows = []
    for t in teams:
        entries = list(t.roster.all())
        roster_infos = [infos[r.player.mid] for r in entries]
        regular_infos = [infos[r.player.mid] for r in entries if not r.is_extra]
        # R-TEAM-4, the one reading (ubf.rules.eligibility.fielded_players): recorded line-ups,
        # and the roster for a played match without one.
        counted = fielded_players(
            [m.id for m in matches[t.pk] if m.status == Match.Status.PLAYED],
            lineups.get(t.pk, {}),
            [r.player_id for r in entries],
        )
        fielded = [infos[everyone[pid].mid] for pid in sorted(counted.players)]
        dm = TeamDmStatus(
            competes_for_dm=team_competes_for_dm(fielded),
            bonus_eligible=team_bonus_eligible(roster_infos, fielded),
            reasons=tuple(check_team_dm_status(roster_infos, fielded)),
            without_lineup=len(counted.without_lineup),
        )
        # as team_may_start (R-TEAM-2, R-TEAM-3)
        reasons: list[Violation] = []
        if t.status != Team.Status.ENTERED:
            reasons.append(
                Violation(
                    clause="R-TEAM-2",
                    template=gettext_noop("Laget är %(status)s."),
                    params={"status": t.get_status_display()},
                )
            )
        reasons += [
            v
            for v in check_team_roster(regular_infos, rules=rules)
            if v.is_error and v.clause != "R-TEAM-3"
        ]
        latest = t.balance_dispensations[0] if t.balance_dispensations else None
        granted = latest is not None and latest.status == Dispensation.Status.GRANTED
        balance = check_district_balance(regular_infos)
        for v in [] if granted else balance:
            status = latest.get_status_display() if latest else gettext_noop("inte begärd")
            reasons.append(
                replace(
                    v,
                    template=gettext_noop("%(finding)s Dispens: %(status)s."),
                    params={"finding": v, "status": status},
                )
            )
        risks: list[Violation] = []
        for r in entries:
            others = [n for key, n in played_for.get(r.player_id, {}).items() if key != t.pk]
            if others:
                names = ", ".join(others)
                risks.append(
                    Violation(
                        clause="R-TEAM-RES-2",
                        template=gettext_noop(
                            "%(player)s (%(mid)s) har spelat för %(teams)s denna säsong: "
                            "ställer laget upp med hen diskvalificeras det."
                        ),
                        data={"mid": r.player.mid, "other_teams": others},
                        params={"player": r.player.full_name, "mid": r.player.mid, "teams": names},
                    )
                )
        risks += check_membership(roster_infos, team=True, rules=rules)
        rows.append(
            TeamRow(
                team=t,
                roster=[RosterLine(r.player, infos[r.player.mid], r.is_extra) for r in entries],
                dm=dm,
                may_start=not reasons,
                reasons=reasons,
                matches=matches[t.pk],
                risks=risks,
                balance=balance,
                balance_dispensation=latest,
            )
        )
    return rows


def team_may_start(team: Team) -> tuple[bool, list[Violation]]:
    """R-TEAM-3, R-TEAM-2: may the team start? Not if it is withdrawn, excluded or
    disqualified; not with a roster outside 4–6 regulars; not while its district balance fails
    without a dispensation granted by TK (the latest district-balance dispensation must be
    granted). Returns ``(may_start, reasons)``. Computed by :func:`team_rows`, which pages use for
    many teams at once."""
    row = _team_row(team)
    return row.may_start, row.reasons


def team_dm_status(team: Team) -> TeamDmStatus:
    """R-TEAM-4: does the team still compete for the DM title (no player from outside UBF
    fielded in any DM match), and for the DM bonus (also every roster member in UBF,
    R-TEAM-MP-3)? ``label`` is "DM/SM" or "SM" (SM semifinal places only)."""
    return _team_row(team).dm


def _team_row(team: Team):
    (row,) = team_rows(Team.objects.filter(pk=team.pk), team.competition.season)
    return row


def entry_requests_to_answer(user):
    """R-TEAM-REG-2: the open team entry requests of the heats ``user`` answers for (the heat
    responsible, an official of an arranging club, TK: all), oldest first, in one query."""
    if user is None or not user.is_authenticated:
        return []
    qs = TeamEntryRequest.objects.filter(status=TeamEntryRequest.Status.REQUESTED)
    if not is_tk(user):
        qs = qs.filter(
            Q(heat__responsible_user=user)
            | Q(heat__organisers__club_id__in=list(club_ids_of(user)))
        )
    return list(qs.select_related("heat", "requested_by").distinct().order_by("requested_at", "id"))

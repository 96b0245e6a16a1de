"""DM Par entries: pairs entered by MID in a qualifier heat, reserves, direct qualifiers and the
SM partner declaration.

Every service runs in one transaction: permission first (``clubs.permissions``), then every check
(``ubf.rules.eligibility`` / ``ubf.rules.heats``; all violations collected), then the writes.
A refusal raises :class:`~clubs.services.base.ServiceError` carrying every violation (clause, Swedish,
English) and nothing is saved. Warnings (allowed, but TK must know) are returned and written to
the audit trail (``clubs.Decision``, action ``pairs.entry.flagged``) so TK sees them.

R-PAIR-KVAL-7 (one qualifier per player and discipline) is applied over the whole discipline
by :func:`restrike_discipline`, which every entry and reserve notice calls after writing: the
later entry is accepted but struck (status ``struck``, the reason names the earlier heat); if
heat dates change, calling it again moves the strike to whichever heat is now the later one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubs import clock, seats, windows
from clubs.locks import lock_competition, lock_row
from clubs.models import FinalSeat, HeatStatus, Player, Representation
from clubs.permissions import can_act_for_club, can_manage_pair_heat, is_tk
from clubs.recompute import request_recompute
from clubs.selectors import lookup_players, normalise_mid, player_infos
from clubs.services.base import (
    acting_user_id,
    as_warning,
    error,
    flag_warnings,
    raise_on_errors,
    record_decision,
    require,
    warning,
)
from pairs.models import (
    FINAL_SESSION,
    ExternalQualifier,
    PairCompetition,
    PairEntry,
    PairHeat,
    ReserveNotice,
    SmPartnerDeclaration,
)
from pairs.selectors import final_seat_holders
from ubf.rules.eligibility import (
    PartnerChoice,
    check_direct_qualifier,
    check_discipline,
    check_final_reserve,
    check_membership,
    check_pair_district,
    check_pair_entry,
    check_pair_shape,
    check_qualifier_reserve,
    check_regulars_together,
    check_session_entry,
    direct_place_status,
    may_organiser_refuse,
    sm_partner_for,
    struck_pairs,
)
from ubf.rules.i18n import Message, gettext_noop
from ubf.rules.people import HeatPlayed, PlayerInfo, QualifierEntry
from ubf.rules.types import HeatType
from ubf.rules.violations import Violation
from ubf.rules.windows import ENTRIES

#: Prefix of ``PairEntry.status_reason`` for a strike under R-PAIR-KVAL-7; only such strikes
#: are undone by :func:`restrike_discipline` (a strike for another reason is left alone).
KVAL7_PREFIX = "R-PAIR-KVAL-7: "

_CLOSED_HEAT = (HeatStatus.REJECTED, HeatStatus.CANCELLED)


# ------------------------------------------------------------------------------------------
# Outcomes
# ------------------------------------------------------------------------------------------


@dataclass
class PairEntryOutcome:
    """What :func:`enter_pair` did: the entry, whether it is struck (R-PAIR-KVAL-7), the
    direct places forfeited by it (R-DIRECT-2) and every warning (shown to the user, flagged
    to TK)."""

    entry: PairEntry
    warnings: list[Violation] = field(default_factory=list)
    struck: bool = False
    forfeited: list[PairEntry] = field(default_factory=list)


@dataclass
class ReserveOutcome:
    notice: ReserveNotice
    warnings: list[Violation] = field(default_factory=list)


@dataclass
class StrikeChange:
    """One entry whose R-PAIR-KVAL-7 status changed in :func:`restrike_discipline`."""

    entry: PairEntry
    struck: bool
    violations: list[Violation] = field(default_factory=list)


# ------------------------------------------------------------------------------------------
# Adapters: qualifier entries of a discipline (R-PAIR-KVAL-7, R-DIRECT-2, R-PAIR-RES-2/4)
# ------------------------------------------------------------------------------------------


def heat_key(heat: PairHeat) -> str:
    """The heat as named in messages and in ``QualifierEntry.heat_id``: name and id."""
    return f"{heat.name} #{heat.pk}"


def _sessions(heat: PairHeat) -> list[int]:
    return list(heat.session_dates)


def _session_date(heat: PairHeat, session: int):
    return heat.last_date if session == 2 else heat.first_date


def _played_by_session(entry: PairEntry, notices: Iterable[ReserveNotice]) -> list[set[str]]:
    """For each heat session, the MIDs of the two players who played (reserves notified for
    that session replacing the regular they stand in for)."""
    regulars = [entry.player1.mid, entry.player2.mid]
    out = []
    for s in _sessions(entry.heat):
        swap = {n.replaced_player.mid: n.reserve.mid for n in notices if n.session == s}
        out.append({swap.get(m, m) for m in regulars})
    return out


def _entries_qs(competition: PairCompetition):
    return (
        PairEntry.objects.filter(heat__competition=competition)
        .exclude(status=PairEntry.Status.WITHDRAWN)
        .select_related("heat", "player1", "player2")
        .prefetch_related("reserve_notices__reserve", "reserve_notices__replaced_player")
        .order_by("heat__first_date", "pk")
    )


def qualifier_entries(
    competition: PairCompetition, *, entries: Iterable[PairEntry] | None = None
) -> list[QualifierEntry]:
    """R-PAIR-KVAL-7, R-DIRECT-2: the season's qualifier entries in ``competition``'s
    discipline as the rules see them, in date order: every entry of this system that takes part
    in the qualifier (not withdrawn, heat neither rejected nor cancelled; ``mids`` are everyone
    who played a session, notified reserves included), then every ExternalQualifier record of
    the discipline (one per player, its own heat)."""
    discipline = str(competition.discipline)
    out: list[QualifierEntry] = []
    rows = list(entries) if entries is not None else list(_entries_qs(competition))
    for e in rows:
        if not e.takes_part_in_qualifier or e.heat.status in _CLOSED_HEAT:
            continue
        notices = [n for n in e.reserve_notices.all() if n.session != FINAL_SESSION]
        mids = set().union(*_played_by_session(e, notices))
        out.append(
            QualifierEntry(
                entry_id=str(e.pk),
                heat_id=heat_key(e.heat),
                date=e.heat.first_date,
                discipline=discipline,
                mids=frozenset(mids),
            )
        )
    for x in ExternalQualifier.objects.filter(
        season=competition.season_id, discipline=discipline
    ).select_related("player"):
        out.append(
            QualifierEntry(
                entry_id=f"ext{x.pk}",
                heat_id=f"{x.district} extern #{x.pk}",
                date=x.played_on,
                discipline=discipline,
                mids=frozenset({x.player.mid}),
                district=x.district,
            )
        )
    out.sort(key=lambda q: (q.date is None, q.date or date.min))
    return out


def heats_played(competition: PairCompetition, mid: str) -> list[HeatPlayed]:
    """R-PAIR-RES-2: the qualifier heats of the discipline ``mid`` played this season (any
    dfb), struck entries included (a struck pair still played the qualifier)."""
    return [
        HeatPlayed(q.heat_id, q.date, q.discipline, q.district)
        for q in qualifier_entries(competition)
        if mid in q.mids
    ]


# ------------------------------------------------------------------------------------------
# R-PAIR-KVAL-7 and R-DIRECT-2 over the whole discipline
# ------------------------------------------------------------------------------------------


@transaction.atomic
def restrike_discipline(competition: PairCompetition, *, user=None) -> list[StrikeChange]:
    """R-PAIR-KVAL-7: recompute which entries of the discipline are struck (hors concours),
    using :func:`ubf.rules.eligibility.struck_pairs` over the season's qualifier entries (this
    system and ExternalQualifier records). A newly struck entry gets status ``struck`` and a
    reason naming the earlier heat; an entry no longer struck (dates changed, entry withdrawn)
    returns to ``entered``. Each change is recorded for TK (``pairs.entry.struck`` /
    ``pairs.entry.reinstated``) and a recompute of the competition is requested."""
    competition = PairCompetition.objects.select_related("season").get(pk=competition.pk)
    rows = list(_entries_qs(competition))
    struck = struck_pairs(qualifier_entries(competition, entries=rows))
    changes: list[StrikeChange] = []
    for e in rows:
        vs = struck.get(str(e.pk))
        if vs:
            reason = KVAL7_PREFIX + " ".join(v.message_sv for v in vs)
            if e.status != PairEntry.Status.STRUCK or e.status_reason != reason:
                e.status, e.status_reason = PairEntry.Status.STRUCK, reason
                e.save(update_fields=["status", "status_reason"])
                changes.append(StrikeChange(e, True, list(vs)))
        elif e.status == PairEntry.Status.STRUCK and e.status_reason.startswith(KVAL7_PREFIX):
            e.status, e.status_reason = PairEntry.Status.ENTERED, ""
            e.save(update_fields=["status", "status_reason"])
            changes.append(StrikeChange(e, False))
    for c in changes:
        record_decision(
            "pairs.entry.struck" if c.struck else "pairs.entry.reinstated",
            c.entry,
            user=None,
            reason=c.entry.status_reason
            or "R-PAIR-KVAL-7: inte längre ett senare kval för någon av spelarna.",
            clause="R-PAIR-KVAL-7",
            season=competition.season,
            earlier_heats=[v.data.get("earlier_heat_id") for v in c.violations],
            mids=[v.data.get("mid") for v in c.violations],
            triggered_by=acting_user_id(user),
        )
    if changes:
        request_recompute(competition.pk)
    return changes


def _forfeit_direct_places(competition: PairCompetition, *, user) -> list[PairEntry]:
    """R-DIRECT-2: a registered direct qualifier whose player played (or is entered to play) a
    qualifier with another partner, even as a reserve, forfeits the direct place."""
    out = []
    entries = [q for q in qualifier_entries(competition) if not q.entry_id.startswith("ext")]
    for dq in PairEntry.objects.filter(
        competition=competition,
        entered_as=PairEntry.EnteredAs.DIRECT,
        status=PairEntry.Status.ENTERED,
    ).select_related("player1", "player2"):
        status = direct_place_status(
            {dq.player1.mid, dq.player2.mid}, competition.discipline, entries
        )
        if not status.forfeited:
            continue
        dq.status = PairEntry.Status.FORFEITED
        dq.status_reason = "R-DIRECT-2: " + " ".join(v.message_sv for v in status.violations)
        dq.save(update_fields=["status", "status_reason"])
        record_decision(
            "pairs.direct_qualifier.forfeited",
            dq,
            user=None,
            reason=dq.status_reason,
            clause="R-DIRECT-2",
            season=competition.season,
            heats=[v.data.get("heat_id") for v in status.violations],
            triggered_by=acting_user_id(user),
        )
        request_recompute(competition.pk)
        out.append(dq)
    return out


def _apply_season_rules(
    competition: PairCompetition, *, user
) -> tuple[list[StrikeChange], list[PairEntry]]:
    return restrike_discipline(competition, user=user), _forfeit_direct_places(
        competition, user=user
    )


def _consequence_warnings(
    changes: list[StrikeChange], forfeited: list[PairEntry], entry: PairEntry
) -> list[Violation]:
    """The warnings of the season's rules after ``entry`` was entered or given a reserve: its own
    strike as the rule words it ("har redan kvalspelat", R-PAIR-KVAL-7); ANOTHER entry struck
    because of it (this heat is now a player's first qualifier) named as that other pair in its
    heat, never worded as if ``entry`` itself were struck (issue 22: it read as a false
    warning about the heat just entered)."""
    out: list[Violation] = []
    for c in changes:
        if not c.struck:
            continue
        if c.entry.pk == entry.pk:
            out += [as_warning(v) for v in c.violations]
            continue
        out.append(
            warning(
                "R-PAIR-KVAL-7",
                gettext_noop(
                    "Paret %(pair)s i heatet %(other_heat)s stryks (utom tävlan): för "
                    "%(mids)s är detta heat nu det första kvalet i disciplinen denna säsong."
                ),
                entry=c.entry.pk,
                params={
                    "pair": str(c.entry),
                    "other_heat": c.entry.heat.name,
                    "mids": ", ".join(str(v.data.get("mid")) for v in c.violations),
                },
            )
        )
    for dq in forfeited:
        out.append(
            warning(
                "R-DIRECT-2",
                gettext_noop(
                    "Direktplatsen för %(player1)s – %(player2)s är förverkad: en spelare har "
                    "kvalspelat med en annan partner."
                ),
                direct_qualifier=dq.pk,
                params={"player1": dq.player1.full_name, "player2": dq.player2.full_name},
            )
        )
    return out


# ------------------------------------------------------------------------------------------
# 1. Pair entries
# ------------------------------------------------------------------------------------------


def _next_pair_number(heat: PairHeat) -> str:
    numbers = [
        int(n)
        for n in PairEntry.objects.filter(heat=heat).values_list("pair_number", flat=True)
        if n and n.isdigit()
    ]
    return str(max(numbers, default=0) + 1)


@transaction.atomic
def enter_pair(
    user,
    heat: PairHeat,
    mid1,
    mid2,
    *,
    pair_number: str | None = None,
    takes_part_in_qualifier: bool = True,
    session: int = 1,
    reason: str = "",
) -> PairEntryOutcome:
    """Enter a pair by the players' MIDs in a qualifier heat.

    Who: TK or an official of an arranging club (``can_manage_pair_heat``). Refused (nothing
    saved): unknown MIDs; the same player twice or a player already entered in the heat
    (R-PAIR-1); unpaid SBF membership (R-GEN-2); the discipline's conditions (R-PAIR-3:
    Veteran birth year, Dam women, Mixed one of each); a silver heat entry that does not take
    part in the qualifier (R-PAIR-KVAL-5: every pair does); a new pair at the second session
    (R-PAIR-KVAL-6); a closed heat (R-PAIR-KVAL-1); an entry after the heat's entries window
    (``clubs.windows``: the day of its first session at the latest, R-PAIR-KVAL-6) unless TK
    gives a ``reason``, which is then recorded as a decision.

    Pair limit and last registration day (R-PAIR-KVAL-4): the organiser may not refuse a pair
    with a UBF player, so when the heat is full or registration has closed such a pair is still
    entered, beyond the limit, with a WARNING for TK; an out-of-district pair is then refused
    (the organiser may refuse it). Below the limit everyone is entered.

    Allowed with warnings flagged to TK: an out-of-district pair (R-PAIR-1). A player's second
    qualifier in the discipline this season is accepted but STRUCK (R-PAIR-KVAL-7, see
    :func:`restrike_discipline`). A directly qualified player entering with another partner
    forfeits the direct place (R-DIRECT-2); entering together keeps it.
    """
    require(can_manage_pair_heat(user, heat))
    heat = lock_row(PairHeat.objects.select_related("competition__season"), heat.pk)
    competition = heat.competition
    season = competition.season
    rules = season.rules()
    today = clock.today()
    outside = windows.enforce(
        windows.heat_windows(heat)[ENTRIES], user, season=season, reason=reason, today=today
    )
    m1, m2 = normalise_mid(mid1), normalise_mid(mid2)

    players, violations = lookup_players([m1, m2], clause="R-GEN-2")
    if heat.status in _CLOSED_HEAT:
        violations.append(
            error(
                "R-PAIR-KVAL-1",
                gettext_noop("Heatet %(heat)s är %(heat_status)s och tar inte emot anmälningar."),
                params={
                    "heat": heat.name,
                    "heat_status": heat.get_status_display(),
                },
            )
        )
    violations += check_session_entry(None, session, (), rules=rules)
    if heat.heat_type == HeatType.SILVER and not takes_part_in_qualifier:
        violations.append(
            error(
                "R-PAIR-KVAL-5",
                gettext_noop(
                    "I ett silverkval deltar varje par i DM-kvalet; paret kan inte anmälas som "
                    "icke deltagande."
                ),
            )
        )

    infos = player_infos(season, list(players))
    pair: list[PlayerInfo] = []
    if not m1 or not m2 or m1 == m2:
        violations += check_pair_shape([PlayerInfo(mid=m, name="") for m in (m1, m2) if m])
    elif m1 in infos and m2 in infos:
        pair = [infos[m1], infos[m2]]
        violations += check_pair_entry(pair, competition.discipline, rules=rules)

    same_pair: PairEntry | None = None
    if m1 and m2 and m1 != m2:
        for e in (
            PairEntry.objects.filter(heat=heat)
            .filter(Q(player1__mid__in=[m1, m2]) | Q(player2__mid__in=[m1, m2]))
            .select_related("player1", "player2")
        ):
            if e.status == PairEntry.Status.WITHDRAWN:
                if {e.player1.mid, e.player2.mid} == {m1, m2}:
                    same_pair = e
                continue
            for m in {m1, m2} & {e.player1.mid, e.player2.mid}:
                violations.append(
                    error(
                        "R-PAIR-1",
                        gettext_noop(
                            "Spelaren %(mid)s är redan anmäld i heatet %(heat)s (par "
                            "%(number)s: %(entry)s)."
                        ),
                        mid=m,
                        entry=e.pk,
                        params={
                            "mid": m,
                            "heat": heat.name,
                            "number": e.pair_number or "?",
                            "entry": e,
                        },
                    )
                )

    active = PairEntry.objects.filter(heat=heat).exclude(status=PairEntry.Status.WITHDRAWN)
    over_limit = heat.pair_limit is not None and active.count() >= heat.pair_limit
    late = heat.last_registration_day is not None and today > heat.last_registration_day
    if (over_limit or late) and len(pair) == 2:
        why = (
            Message(gettext_noop("heatet är fullt (%(limit)s par)"), {"limit": heat.pair_limit})
            if over_limit
            else Message(
                gettext_noop("sista anmälningsdag var %(day)s"),
                {"day": heat.last_registration_day},
            )
        )
        if may_organiser_refuse(pair):
            violations.append(
                error(
                    "R-PAIR-KVAL-4",
                    gettext_noop(
                        "Anmälan tas inte emot: %(why)s, och ingen av spelarna representerar "
                        "en UBF-klubb, så arrangören får neka paret."
                    ),
                    pair_limit=heat.pair_limit,
                    params={"why": why},
                )
            )
        else:
            violations.append(
                warning(
                    "R-PAIR-KVAL-4",
                    gettext_noop(
                        "Paret anmäls trots att %(why)s: arrangören får inte neka ett par med "
                        "en spelare från en UBF-klubb."
                    ),
                    pair_limit=heat.pair_limit,
                    entries=active.count(),
                    params={"why": why},
                )
            )

    number = str(pair_number).strip() if pair_number is not None else ""
    if (
        number
        and PairEntry.objects.filter(heat=heat, pair_number=number)
        .exclude(pk=same_pair.pk if same_pair else None)
        .exists()
    ):
        violations.append(
            error(
                "",
                gettext_noop("Parnummer %(number)s används redan i heatet."),
                params={"number": number},
            )
        )

    warnings = raise_on_errors(violations)

    number = number or (same_pair.pair_number if same_pair else "") or _next_pair_number(heat)
    if same_pair is not None:
        entry = same_pair
        entry.pair_number = number
        entry.takes_part_in_qualifier = takes_part_in_qualifier
        entry.status, entry.status_reason = PairEntry.Status.ENTERED, ""
        entry.save()
    else:
        entry = PairEntry.objects.create(
            heat=heat,
            player1=players[m1],
            player2=players[m2],
            pair_number=number,
            takes_part_in_qualifier=takes_part_in_qualifier,
        )
    flag_warnings("pairs.entry.flagged", entry, warnings, user=user, season=season)
    windows.record_late(outside, "pairs.entry", entry, user=user, season=season)
    changes, forfeited = _apply_season_rules(competition, user=user)
    request_recompute(competition.pk)
    entry.refresh_from_db()
    return PairEntryOutcome(
        entry=entry,
        warnings=warnings + _consequence_warnings(changes, forfeited, entry),
        struck=entry.status == PairEntry.Status.STRUCK,
        forfeited=forfeited,
    )


@transaction.atomic
def withdraw_pair(user, entry: PairEntry, *, reason: str = "") -> PairEntry:
    """R-PAIR-KVAL-6: an arranging club's official (or TK) withdraws a pair from a qualifier
    heat while the heat's entries window is open (up to its first session); after it only TK,
    with a reason, recorded (``clubs.windows.enforce``). A pair already withdrawn is refused.
    The entry stays (status ``withdrawn``, the reason kept) so a new entry of the same pair
    takes it up again; the withdrawal is recorded (``pairs.entry.withdrawn``), the season's
    strikes are redone (R-PAIR-KVAL-7: a later heat's entry may no longer be struck) and the
    competition is recomputed (R-REPL-6)."""
    current = PairEntry.objects.select_related("heat").get(pk=entry.pk)
    require(
        can_manage_pair_heat(user, current.heat),
        gettext_noop("Du kan bara återta par i kvalheat som din klubb arrangerar."),
    )
    entry = lock_row(
        PairEntry.objects.select_related("heat__competition__season", "player1", "player2"),
        entry.pk,
        competition="heat__competition_id",
    )
    heat = entry.heat
    competition = heat.competition
    problems: list[Violation] = []
    if entry.status == PairEntry.Status.WITHDRAWN:
        problems.append(
            error(
                "R-PAIR-KVAL-6",
                gettext_noop("Paret %(pair)s är redan återtaget."),
                params={"pair": str(entry)},
            )
        )
    raise_on_errors(problems)
    outside = windows.enforce(
        windows.heat_windows(heat)[ENTRIES], user, season=heat.competition.season, reason=reason
    )
    previous = entry.status
    entry.status = PairEntry.Status.WITHDRAWN
    entry.status_reason = (reason or "").strip()
    entry.save(update_fields=["status", "status_reason"])
    record_decision(
        "pairs.entry.withdrawn",
        entry,
        user=user,
        reason=(reason or "").strip(),
        clause="R-PAIR-KVAL-6",
        season=competition.season,
        heat_id=heat.pk,
        pair_number=entry.pair_number,
        previous_status=previous,
    )
    windows.record_late(outside, "pairs.entry", entry, user=user, season=competition.season)
    _apply_season_rules(competition, user=user)
    request_recompute(competition.pk)
    return entry


# ------------------------------------------------------------------------------------------
# 2. Reserves
# ------------------------------------------------------------------------------------------


def may_notify_final_reserve(user, entry: PairEntry) -> bool:
    """R-PAIR-RES-2, R-GEN-3: who notifies a reserve for the DM final: TK, or an official of a
    club that one of the pair's regular players represents this season (the pair's club)."""
    if is_tk(user):
        return True
    clubs = Representation.objects.filter(
        season_id=entry.competition.season_id,
        player_id__in=[entry.player1_id, entry.player2_id],
    ).values_list("club_id", flat=True)
    return any(can_act_for_club(user, club) for club in clubs)


@transaction.atomic
def notify_reserve(
    user, entry: PairEntry, *, session: int, replaced_mid, reserve_mid
) -> ReserveOutcome:
    """Record a reserve for one session of a qualifier heat, or for the DM final
    (``session=FINAL_SESSION``).

    Heat (who: TK or an arranging club's official): R-PAIR-RES-1 the notice must come in
    advance, i.e. before the session's date (``clubs.clock.today()`` earlier than it); the
    replaced player is one of the pair's regulars; at least one regular plays every session of
    the heat. Final (who: TK, or for TK's chair to receive (R-GEN-3) the pair's club official:
    an official of a club one of its regulars represents this season, :func:`may_notify_final_reserve`;
    the entry must hold a final seat; up to the final's date): R-PAIR-RES-2 the reserve has not
    played a qualifier in the discipline this season. Both:
    R-PAIR-RES-3 the reserve is not a regular of another pair; R-GEN-2 the reserve has paid;
    R-PAIR-3 the line-up meets the discipline. A second notice for the same session and
    regular replaces the first. In a heat, the reserve's play counts for R-PAIR-KVAL-7 and
    R-DIRECT-2 (applied after saving, as for an entry).
    """
    entry = PairEntry.objects.select_related(
        "competition__season", "heat", "player1", "player2"
    ).get(pk=entry.pk)
    heat, competition = entry.heat, entry.competition
    final = session == FINAL_SESSION
    if not final and heat is None:
        # A direct qualifier or a pair of a direct final plays no heat: only the final.
        require(may_notify_final_reserve(user, entry))
        raise_on_errors(
            [error("R-PAIR-RES-1", gettext_noop("Paret spelar inget kvalheat: bara finalen."))]
        )
    require(may_notify_final_reserve(user, entry) if final else can_manage_pair_heat(user, heat))
    season = competition.season
    rules = season.rules()
    today = clock.today()
    replaced, reserve = normalise_mid(replaced_mid), normalise_mid(reserve_mid)
    regulars = [entry.player1.mid, entry.player2.mid]
    clause = "R-PAIR-RES-2" if final else "R-PAIR-RES-1"

    players, violations = lookup_players([replaced, reserve], clause=clause)
    if not replaced or not reserve:
        violations.append(
            error(
                clause,
                gettext_noop("Ange både den ordinarie spelarens och reservens MID."),
            )
        )
    if entry.status == PairEntry.Status.WITHDRAWN:
        violations.append(error(clause, gettext_noop("Paret har återtagit sin anmälan.")))
    if final:
        if not seats.holds_seat(entry):
            violations.append(
                error(
                    "R-PAIR-RES-2",
                    gettext_noop("Paret har ingen plats i DM-finalen."),
                )
            )
        session_date = competition.final_date
        in_time = today <= session_date
        sessions = [FINAL_SESSION]
    elif session not in _sessions(heat):
        violations.append(
            error(
                "R-PAIR-RES-1",
                gettext_noop("Heatet har inget speltillfälle %(session)s."),
                session=session,
                params={"session": session},
            )
        )
        session_date, in_time, sessions = None, True, _sessions(heat)
    else:
        session_date = _session_date(heat, session)
        in_time = windows.reserve_window(session_date).is_open(today)  # by the day before
        sessions = _sessions(heat)
    if not in_time:
        violations.append(
            error(
                clause,
                gettext_noop(
                    "Reserven måste anmälas i förväg till arrangören, före speldagen "
                    "%(session_date)s; i dag är det %(today)s. Paret räknas annars som ordinarie "
                    "konstellation så som det spelar."
                ),
                session_date=session_date,
                today=today,
                params={"session_date": session_date, "today": today},
            )
        )
    if replaced and replaced not in regulars:
        violations.append(
            error(
                clause,
                gettext_noop(
                    "%(replaced)s är inte ordinarie spelare i paret (%(regulars_0)s, "
                    "%(regulars_1)s)."
                ),
                mid=replaced,
                params={"replaced": replaced, "regulars_0": regulars[0], "regulars_1": regulars[1]},
            )
        )
    if reserve and reserve in regulars:
        violations.append(
            error(
                clause,
                gettext_noop(
                    "%(reserve)s är redan ordinarie spelare i paret och kan inte vara dess reserv."
                ),
                mid=reserve,
                params={"reserve": reserve},
            )
        )
    if violations:
        raise_on_errors(violations)

    remaining = regulars[1] if replaced == regulars[0] else regulars[0]
    infos = player_infos(season, [remaining, reserve])
    lineup = [infos[remaining], infos[reserve]]
    violations += check_membership([infos[reserve]], rules=rules)
    violations += check_discipline(lineup, competition.discipline, rules=rules)
    warnings_extra = check_pair_district(lineup)

    # R-PAIR-RES-1: at least one regular plays every session of the stage.
    notices = [
        n
        for n in entry.reserve_notices.select_related("replaced_player", "reserve")
        if not (n.session == session and n.replaced_player.mid == replaced)
    ]
    planned = {(n.session, n.replaced_player.mid): n.reserve.mid for n in notices}
    planned[(session, replaced)] = reserve
    played = [{planned.get((s, m), m) for m in regulars} for s in sessions]
    violations += check_qualifier_reserve(regulars, played, set(planned.values()))

    # R-PAIR-RES-3: regulars of two different pairs never play together. In a heat, a direct
    # qualifier's player who stands in is recorded and forfeits the direct place (R-DIRECT-2,
    # applied after saving) rather than refused; in the final both pairs hold seats: refused.
    others = PairEntry.objects.filter(competition=competition)
    if not final:
        others = others.exclude(entered_as=PairEntry.EnteredAs.DIRECT)
    for other in (
        others.exclude(status=PairEntry.Status.WITHDRAWN)
        .exclude(pk=entry.pk)
        .filter(Q(player1__mid=reserve) | Q(player2__mid=reserve))
        .select_related("player1", "player2")
    ):
        if {other.player1.mid, other.player2.mid} == {remaining, reserve}:
            continue
        violations += check_regulars_together(
            [remaining, reserve], {remaining: f"par {entry.pk}", reserve: f"par {other.pk}"}
        )
        break

    if final:
        violations += check_final_reserve(
            reserve, competition.discipline, heats_played(competition, reserve)
        )

    warnings = raise_on_errors(violations) + warnings_extra

    notice, _ = ReserveNotice.objects.update_or_create(
        entry=entry,
        session=session,
        replaced_player=players[replaced],
        defaults={"reserve": players[reserve], "notified_at": clock.now(), "notified_by": user},
    )
    if not final:
        changes, forfeited = _apply_season_rules(competition, user=user)
        warnings += _consequence_warnings(changes, forfeited, entry)
    flag_warnings("pairs.entry.flagged", entry, warnings, user=user, season=season)
    request_recompute(competition.pk)
    return ReserveOutcome(notice=notice, warnings=warnings)


# ------------------------------------------------------------------------------------------
# 3. Direct qualifiers and SM partners
# ------------------------------------------------------------------------------------------


@transaction.atomic
def register_direct_qualifier(
    user,
    competition: PairCompetition,
    mid1,
    mid2,
    *,
    champion_mids: Iterable[str] | None = None,
) -> PairEntry:
    """R-DIRECT-1: TK registers last season's champions as directly qualified for the final:
    the discipline allows it (not Dam), the registration comes no later than the last day of
    the qualifying period (the final's date for a direct final), and the pair is intact
    (``champion_mids``: last season's gold pair as TK knows it; without it TK's registration of
    the two players is taken as that pair). The players must have paid (R-GEN-2) and meet the
    discipline (R-PAIR-3), and neither may already be entered in a qualifier with another
    partner (R-DIRECT-2). Recorded as a TK decision."""
    require(is_tk(user))
    competition = PairCompetition.objects.select_related("season").get(pk=competition.pk)
    season = competition.season
    rules = season.rules()
    m1, m2 = normalise_mid(mid1), normalise_mid(mid2)
    champions = [normalise_mid(m) for m in champion_mids] if champion_mids else [m1, m2]
    players, violations = lookup_players([m1, m2], clause="R-DIRECT-1")
    deadline = competition.qualifying_end or competition.final_date
    violations += check_direct_qualifier(
        competition.discipline, champions, [m1, m2], clock.today(), deadline, rules=rules
    )
    if PairEntry.objects.filter(
        competition=competition, entered_as=PairEntry.EnteredAs.DIRECT
    ).exists():
        violations.append(
            error(
                "R-DIRECT-1",
                gettext_noop("%(competition)s har redan ett direktkvalificerat par."),
                params={"competition": competition},
            )
        )
    infos = player_infos(season, [m1, m2])
    if m1 in infos and m2 in infos:
        violations += check_pair_entry([infos[m1], infos[m2]], competition.discipline, rules=rules)
    status = direct_place_status(
        {m1, m2},
        competition.discipline,
        [q for q in qualifier_entries(competition) if not q.entry_id.startswith("ext")],
    )
    violations += list(status.violations)
    warnings = raise_on_errors(violations)
    dq = PairEntry.objects.create(
        competition=competition,
        entered_as=PairEntry.EnteredAs.DIRECT,
        player1=players[m1],
        player2=players[m2],
        registered_on=clock.today(),
    )
    record_decision(
        "pairs.direct_qualifier.registered",
        dq,
        user=user,
        reason="; ".join(str(w) for w in warnings),
        clause="R-DIRECT-1",
        season=season,
        champions=champions,
        deadline=deadline,
        played_together=status.played_together,
    )
    request_recompute(competition.pk)
    return dq


def _qualifier_partners(competition: PairCompetition, mid: str) -> list[str]:
    out: list[str] = []
    for q in qualifier_entries(competition):
        if mid in q.mids and not q.entry_id.startswith("ext"):
            out += sorted(q.mids - {mid})
    return list(dict.fromkeys(out))


def _final_partner(competition: PairCompetition, mid: str) -> str | None:
    """The partner ``mid`` plays the DM final with (a final reserve taken into account)."""
    for holder in final_seat_holders(competition):
        if (partner := holder.partner_of(mid)) is not None:
            return partner
    return None


@transaction.atomic
def declare_sm_partner(
    user, competition: PairCompetition, player_mid, partner_mid
) -> SmPartnerDeclaration:
    """R-PAIR-RES-4: TK (UBF's competition secretary), or an official of the club the player
    represents this season on the player's behalf, records the partner a player qualified for
    SM will play the SM stage with. Refused after the DM final's day, or if the partner is not
    someone the player played a qualifier with this season. A later declaration replaces an
    earlier one."""
    competition = PairCompetition.objects.select_related("season").get(pk=competition.pk)
    p, q = normalise_mid(player_mid), normalise_mid(partner_mid)
    players, violations = lookup_players([p, q], clause="R-PAIR-RES-4")
    if not p or not q:
        violations.append(
            error(
                "R-PAIR-RES-4",
                gettext_noop("Ange både spelarens och SM-partnerns MID."),
            )
        )
    raise_on_errors(violations)
    clubs = Representation.objects.filter(season=competition.season, player__mid=p).values_list(
        "club_id", flat=True
    )
    require(is_tk(user) or any(can_act_for_club(user, c) for c in clubs))
    today = clock.today()
    choice = sm_partner_for(
        p,
        _qualifier_partners(competition, p),
        q,
        None,
        declared_in_time=today <= competition.final_date,
    )
    raise_on_errors(list(choice.violations))
    decl, _ = SmPartnerDeclaration.objects.update_or_create(
        competition=competition,
        player=players[p],
        defaults={"partner": players[q], "declared_at": clock.now(), "recorded_by": user},
    )
    record_decision(
        "pairs.sm_partner.declared",
        decl,
        user=user,
        reason=choice.reason_sv,
        clause="R-PAIR-RES-4",
        season=competition.season,
        player=p,
        partner=q,
    )
    return decl


@dataclass(frozen=True)
class SmPartnerRow:
    """A player who played the qualifiers with several partners (R-PAIR-RES-4), the partners
    in the order played, and the partner that goes on to SM as things stand."""

    player: Player
    partners: list[Player]
    choice: PartnerChoice


def players_with_several_partners(
    competition: PairCompetition, *, club_ids: Iterable[int] | None = None
) -> list[SmPartnerRow]:
    """R-PAIR-RES-4: every player of ``competition``'s qualifiers who played with more than one
    partner (those who may have to declare their SM partner), optionally only those who
    represent one of ``club_ids`` this season; ordered by name."""
    partners: dict[str, list[str]] = {}
    for q in qualifier_entries(competition):
        if q.entry_id.startswith("ext"):
            continue
        for mid in q.mids:
            partners.setdefault(mid, [])
            for other in sorted(q.mids - {mid}):
                if other not in partners[mid]:
                    partners[mid].append(other)
    several = {m: ps for m, ps in partners.items() if len(ps) > 1}
    players = Player.objects.filter(mid__in=set(several).union(*several.values()))
    if club_ids is not None:
        keep = set(
            Representation.objects.filter(
                season=competition.season_id, club_id__in=list(club_ids), player__mid__in=several
            ).values_list("player__mid", flat=True)
        )
        several = {m: ps for m, ps in several.items() if m in keep}
    by_mid = {pl.mid: pl for pl in players}
    rows = [
        SmPartnerRow(
            player=by_mid[m],
            partners=[by_mid[x] for x in ps if x in by_mid],
            choice=sm_partner_of(competition, by_mid[m]),
        )
        for m, ps in several.items()
        if m in by_mid
    ]
    return sorted(rows, key=lambda r: (r.player.last_name, r.player.first_name, r.player.mid))


def sm_partner_of(competition: PairCompetition, player: Player) -> PartnerChoice:
    """R-PAIR-RES-4: the partner ``player`` goes on to SM with, and why: the only partner of
    the qualifiers, else a valid declaration (made by the end of the DM final's day), else the
    line-up that played the DM final. ``PartnerChoice.partner`` is a MID (or None)."""
    decl = (
        SmPartnerDeclaration.objects.filter(competition=competition, player=player)
        .select_related("partner")
        .first()
    )
    in_time = decl is None or timezone.localdate(decl.declared_at) <= competition.final_date
    return sm_partner_for(
        player.mid,
        _qualifier_partners(competition, player.mid),
        decl.partner.mid if decl else None,
        _final_partner(competition, player.mid),
        declared_in_time=in_time,
    )


@transaction.atomic
def enter_direct_final_pair(user, competition: PairCompetition, mid1, mid2) -> FinalSeat:
    """R-PAIR-DF-1: a pair entered straight into a direct final (a discipline without heats,
    e.g. DM Par Dam): it holds a seat of the final, pays the final's fee and is in the final's
    upload. Who: TK, or an official of either player's club. Refused (nothing saved): the
    competition is not a direct final; unknown MIDs; the same player twice or a player already
    in the final (R-PAIR-1); unpaid membership (R-GEN-2); the discipline's conditions
    (R-PAIR-3); after the final's day."""
    lock_competition(competition.pk)
    competition = PairCompetition.objects.select_related("season").get(pk=competition.pk)
    season = competition.season
    m1, m2 = normalise_mid(mid1), normalise_mid(mid2)
    players, violations = lookup_players([m1, m2], clause="R-GEN-2")
    clubs = Representation.objects.filter(season=season, player__mid__in=[m1, m2]).values_list(
        "club_id", flat=True
    )
    require(is_tk(user) or any(can_act_for_club(user, c) for c in clubs))
    if not competition.is_direct_final:
        violations.append(
            error(
                "R-PAIR-DF-1",
                gettext_noop(
                    "%(competition)s har kvalheat: paren anmäls till ett kval, inte direkt till "
                    "finalen."
                ),
                params={"competition": competition},
            )
        )
    if not windows.direct_final_window(competition).is_open(clock.today()):
        violations.append(
            error(
                "R-PAIR-DF-1",
                gettext_noop("Finalen spelades %(date)s; anmälan är stängd."),
                params={"date": competition.final_date},
            )
        )
    infos = player_infos(season, list(players))
    if not m1 or not m2 or m1 == m2:
        violations += check_pair_shape([PlayerInfo(mid=m, name="") for m in (m1, m2) if m])
    elif m1 in infos and m2 in infos:
        violations += check_pair_entry(
            [infos[m1], infos[m2]], competition.discipline, rules=season.rules()
        )
    taken = {p.mid for h in final_seat_holders(competition) for p in h.registered}
    for mid in sorted({m1, m2} & taken):
        violations.append(
            error(
                "R-PAIR-1",
                gettext_noop("%(mid)s är redan anmäld till finalen."),
                mid=mid,
                params={"mid": mid},
            )
        )
    warnings_ = raise_on_errors(violations)
    entry = PairEntry.objects.create(
        competition=competition,
        entered_as=PairEntry.EnteredAs.DIRECT_FINAL,
        player1=players[m1],
        player2=players[m2],
        registered_on=clock.today(),
    )
    seat = FinalSeat(
        competition=competition,
        holder=entry,
        source=FinalSeat.Source.DIRECT_FINAL,
        status=FinalSeat.Status.CONFIRMED,
    )
    seat.explain(
        "R-PAIR-DF-1",
        Message(
            gettext_noop("Anmält till direktfinalen %(date)s"),
            {"date": clock.today().isoformat()},
        ),
    )
    seat.save()
    flag_warnings("pairs.direct_final.entered", seat, warnings_, user=user, season=season)
    request_recompute(competition.pk)
    return seat


def on_seat_given_up(sender, *, seat, reason, **kwargs) -> None:
    """R-REPL-7 (:data:`clubs.services.seats.seat_given_up`): a direct qualifier that gives its
    seat up gives its direct place up: the pair entered as a direct qualifier is marked so
    (``declined``, with the reason), whether it holds the seat itself or through the heat
    entry it played together (R-ALLOC-2). Other seats change nothing here."""
    if seat.source != FinalSeat.Source.DIRECT or seat.competition.kind != PairEntry.Kind.PAIRS:
        return
    holder = PairEntry.objects.get(pk=seat.holder_id)
    players = [holder.player1_id, holder.player2_id]
    for dq in PairEntry.objects.filter(
        competition_id=seat.competition_id,
        entered_as=PairEntry.EnteredAs.DIRECT,
        player1_id__in=players,
        player2_id__in=players,
    ):
        dq.status = PairEntry.Status.DECLINED
        dq.status_reason = reason
        dq.save(update_fields=["status", "status_reason"])

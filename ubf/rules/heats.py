"""Qualifier heats and direct finals: R-PAIR-KVAL-*, R-TEAM-KVAL-1, -2, -5 and -6, R-TEAM-DF-1
and R-PAIR-DF-1.

Every function returns its answer with the reasons (clause, figures) and never raises on data a
person typed in: broken rules come back as :class:`~ubf.rules.violations.Violation` objects.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction

from .i18n import Message, gettext_noop
from .season import DEFAULT_RULES, SeasonRules
from .types import Discipline, HeatType, MasterpointColour
from .violations import Severity, Violation

# ---------------------------------------------------------------------------------------------
# Pairs: heat type, qualifying pairs (R-PAIR-KVAL-5, R-PAIR-KVAL-7, R-ALLOC-1, R-PAIR-4)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HeatValidity:
    """R-PAIR-KVAL-5: whether a pairs heat counts as a qualifier, and its masterpoint colour."""

    heat_type: HeatType
    counts_as_qualifier: bool
    masterpoint_colour: MasterpointColour
    violations: tuple[Violation, ...] = ()
    reasons: tuple[str, ...] = ()


def pair_heat_validity(
    heat_type: HeatType | str,
    boards_played_max: int,
    pairs_in_event: int,
    declared_pairs: int = 0,
    rules: SeasonRules = DEFAULT_RULES,
) -> HeatValidity:
    """R-PAIR-KVAL-5: does the heat count as a qualifier, and in which colour are masterpoints?

    ``boards_played_max`` is the most boards any pair played in the event (the event "comprises"
    that many boards); ``pairs_in_event`` every pair in the event; ``declared_pairs`` (bronze
    heat) the pairs that declared for the qualifier before the start.

    * Silver heat: counts with at least ``rules.heat_min_boards`` boards. Silver masterpoints if
      the event has at least ``rules.silver_mp_min_pairs`` pairs and some pair played at least
      ``rules.silver_mp_min_boards_by_a_pair`` boards, otherwise bronze.
    * Bronze heat: counts with at least ``rules.bronze_min_declared_pairs`` declared pairs and at
      least ``rules.heat_min_boards`` boards. Always bronze masterpoints.

    A heat that misses a minimum does not count (ERROR violations saying which minimum).
    """
    heat_type = HeatType(heat_type)
    violations: list[Violation] = []
    reasons: list[str] = []

    if boards_played_max < rules.heat_min_boards:
        violations.append(
            Violation(
                "R-PAIR-KVAL-5",
                gettext_noop(
                    "Tävlingen omfattade %(boards_played_max)s brickor; minst "
                    "%(heat_min_boards)s krävs för att den ska räknas som klubbkval."
                ),
                data={"boards": boards_played_max, "minimum": rules.heat_min_boards},
                params={
                    "boards_played_max": boards_played_max,
                    "heat_min_boards": rules.heat_min_boards,
                },
            )
        )
    else:
        reasons.append(f"{boards_played_max} ≥ {rules.heat_min_boards} boards")

    if heat_type == HeatType.BRONZE:
        if declared_pairs < rules.bronze_min_declared_pairs:
            violations.append(
                Violation(
                    "R-PAIR-KVAL-5",
                    gettext_noop(
                        "Bara %(declared_pairs)s par anmälde att de deltar i DM-kvalet; minst "
                        "%(bronze_min_declared_pairs)s krävs i ett bronskval."
                    ),
                    data={"declared": declared_pairs, "minimum": rules.bronze_min_declared_pairs},
                    params={
                        "declared_pairs": declared_pairs,
                        "bronze_min_declared_pairs": rules.bronze_min_declared_pairs,
                    },
                )
            )
        else:
            reasons.append(f"{declared_pairs} ≥ {rules.bronze_min_declared_pairs} declared pairs")
        colour = MasterpointColour.BRONZE
        reasons.append("bronze heat: bronze masterpoints")
    else:
        silver = (
            pairs_in_event >= rules.silver_mp_min_pairs
            and boards_played_max >= rules.silver_mp_min_boards_by_a_pair
        )
        colour = MasterpointColour.SILVER if silver else MasterpointColour.BRONZE
        reasons.append(
            f"silver heat with {pairs_in_event} pairs (silver needs ≥ {rules.silver_mp_min_pairs})"
            f" and {boards_played_max} boards by a pair (silver needs ≥ "
            f"{rules.silver_mp_min_boards_by_a_pair}): {colour.value} masterpoints"
        )

    return HeatValidity(
        heat_type=heat_type,
        counts_as_qualifier=not violations,
        masterpoint_colour=colour,
        violations=tuple(violations),
        reasons=tuple(reasons),
    )


@dataclass(frozen=True)
class PairHeatEntries:
    """The pairs of one pairs heat, as far as counting qualifying pairs needs them.

    ``pairs``: every pair in the event (keys, e.g. a pair id). ``declared``: in a bronze heat, the
    pairs that declared for the qualifier. ``struck``: pairs struck under R-PAIR-KVAL-7.
    ``boards_played_max``: when given, the heat is checked by :func:`pair_heat_validity` and a
    heat that does not count gives no qualifying pairs.
    """

    heat_type: HeatType
    pairs: tuple[Hashable, ...]
    declared: frozenset = frozenset()
    struck: frozenset = frozenset()
    boards_played_max: int | None = None
    key: Hashable = None


@dataclass(frozen=True)
class QualifyingPairs:
    """R-ALLOC-1 / R-PAIR-4: the pairs of a heat that count, and why the others do not."""

    pairs: tuple[Hashable, ...]
    left_out: dict = field(default_factory=dict, compare=False)  # pair -> reason
    heat_counts: bool = True
    validity: HeatValidity | None = None

    @property
    def count(self) -> int:
        return len(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)


def qualifying_pairs(heat: PairHeatEntries, rules: SeasonRules = DEFAULT_RULES) -> QualifyingPairs:
    """R-PAIR-KVAL-5, R-PAIR-KVAL-7, R-ALLOC-1, R-PAIR-4: the pairs of a heat that count.

    Every pair of a silver heat; only the declared pairs of a bronze heat; never a pair struck
    under R-PAIR-KVAL-7; nobody if the heat does not count as a qualifier (checked when
    ``heat.boards_played_max`` is known). Whether a bronze heat reached its minimum of declared
    pairs is judged on the declarations made before the start, struck pairs included (a later
    strike does not undo the heat for the other pairs).
    """
    heat_type = HeatType(heat.heat_type)
    validity = None
    if heat.boards_played_max is not None:
        declared_in_event = sum(1 for p in heat.pairs if p in heat.declared)
        validity = pair_heat_validity(
            heat_type, heat.boards_played_max, len(heat.pairs), declared_in_event, rules
        )
        if not validity.counts_as_qualifier:
            reason = "R-PAIR-KVAL-5: heat does not count as a qualifier"
            return QualifyingPairs(
                pairs=(),
                left_out=dict.fromkeys(heat.pairs, reason),
                heat_counts=False,
                validity=validity,
            )
    counted: list[Hashable] = []
    left_out: dict = {}
    for pair in heat.pairs:
        if pair in heat.struck:
            left_out[pair] = "R-PAIR-KVAL-7: struck (already played a qualifier this season)"
        elif heat_type == HeatType.BRONZE and pair not in heat.declared:
            left_out[pair] = "R-PAIR-KVAL-5: did not declare for the qualifier in a bronze heat"
        else:
            counted.append(pair)
    return QualifyingPairs(pairs=tuple(counted), left_out=left_out, validity=validity)


# ---------------------------------------------------------------------------------------------
# Pairs: sessions, registration, changes, invitation (R-PAIR-KVAL-1, -2, -3, -6)
# ---------------------------------------------------------------------------------------------


def heat_session_violations(
    session_pairs: Sequence[Iterable[Hashable]], rules: SeasonRules = DEFAULT_RULES
) -> list[Violation]:
    """R-PAIR-KVAL-6: at most ``rules.heat_max_sessions`` sessions, and no new pair (not even
    hors concours) at a later session. ``session_pairs`` lists, per session in order, every pair
    that played it (hors concours pairs included)."""
    violations: list[Violation] = []
    sessions = [list(s) for s in session_pairs]
    if len(sessions) > rules.heat_max_sessions:
        violations.append(
            Violation(
                "R-PAIR-KVAL-6",
                gettext_noop(
                    "Kvalheatet har %(n_sessions)s speltillfällen; högst %(heat_max_sessions)s "
                    "är tillåtna."
                ),
                data={"sessions": len(sessions), "maximum": rules.heat_max_sessions},
                params={"n_sessions": len(sessions), "heat_max_sessions": rules.heat_max_sessions},
            )
        )
    if sessions:
        first = set(sessions[0])
        for number, pairs in enumerate(sessions[1:], start=2):
            new = [p for p in pairs if p not in first]
            if new:
                violations.append(
                    Violation(
                        "R-PAIR-KVAL-6",
                        gettext_noop(
                            "%(n_new)s nya par tillkom vid speltillfälle %(number)s; nya par får "
                            "inte tillkomma, inte ens utom tävlan."
                        ),
                        data={"session": number, "pairs": new},
                        params={"n_new": len(new), "number": number},
                    )
                )
    return violations


def heat_registration_violations(
    dates: Iterable[date],
    period_start: date,
    period_end: date,
    registered_on: date | None,
    deadline: date,
    *,
    discipline: Discipline | str | None = None,
) -> list[Violation]:
    """R-PAIR-KVAL-1: every play date inside the qualifying period (both ends included), and the
    heat registered with TK on or before the registration deadline. Dam has no qualifier heats."""
    violations: list[Violation] = []
    dates = sorted(dates)
    if discipline is not None and Discipline(discipline) == Discipline.DAM:
        violations.append(
            Violation(
                "R-PAIR-KVAL-1",
                gettext_noop("DM Par Dam har inga klubbkval, bara direktfinal."),
            )
        )
    if not dates:
        violations.append(
            Violation(
                "R-PAIR-KVAL-1",
                gettext_noop("Kvalheatet saknar speldag."),
            )
        )
    for day in dates:
        if not period_start <= day <= period_end:
            violations.append(
                Violation(
                    "R-PAIR-KVAL-1",
                    gettext_noop(
                        "Speldagen %(day)s ligger utanför kvalperioden "
                        "%(period_start)s–%(period_end)s."
                    ),
                    data={"date": day, "period_start": period_start, "period_end": period_end},
                    params={"day": day, "period_start": period_start, "period_end": period_end},
                )
            )
    if registered_on is None:
        violations.append(
            Violation(
                "R-PAIR-KVAL-1",
                gettext_noop("Kvalheatet är inte anmält till UBF TK (sista dag %(deadline)s)."),
                data={"deadline": deadline},
                params={"deadline": deadline},
            )
        )
    elif registered_on > deadline:
        violations.append(
            Violation(
                "R-PAIR-KVAL-1",
                gettext_noop(
                    "Kvalheatet anmäldes %(registered_on)s, efter sista anmälningsdag %(deadline)s."
                ),
                data={"registered_on": registered_on, "deadline": deadline},
                params={"registered_on": registered_on, "deadline": deadline},
            )
        )
    return violations


def change_needs_tk_approval(today: date, deadline: date) -> bool:
    """R-PAIR-KVAL-2: after the registration deadline, moving or cancelling a heat is a request
    that TK approves or rejects (on the deadline day itself the club may still change it)."""
    return today > deadline


def invitation_violations(
    heat_start: date,
    sent_on: date | None,
    has_last_registration_day: bool,
    requires_preregistration: bool,
    *,
    has_pair_limit: bool = False,
    states_pair_limit: bool = True,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-PAIR-KVAL-3: the electronic invitation reaches TK's chair at least
    ``rules.invitation_days_before`` days before the heat starts, and states the last
    registration day (where pre-registration is required) and any limit on the number of pairs.
    Late or incomplete invitations are WARNING flags for TK and the club."""
    violations: list[Violation] = []
    latest = heat_start - timedelta(days=rules.invitation_days_before)
    if sent_on is None:
        violations.append(
            Violation(
                "R-PAIR-KVAL-3",
                gettext_noop(
                    "Inbjudan har inte skickats till TK:s ordförande (senast %(latest)s)."
                ),
                Severity.WARNING,
                data={"due_by": latest},
                params={"latest": latest},
            )
        )
    elif sent_on > latest:
        days = (heat_start - sent_on).days
        violations.append(
            Violation(
                "R-PAIR-KVAL-3",
                gettext_noop(
                    "Inbjudan skickades %(sent_on)s, %(days)s dagar före start; den skulle ha "
                    "skickats senast %(latest)s (%(invitation_days_before)s dagar före)."
                ),
                Severity.WARNING,
                data={"sent_on": sent_on, "due_by": latest, "days_before": days},
                params={
                    "sent_on": sent_on,
                    "days": days,
                    "latest": latest,
                    "invitation_days_before": rules.invitation_days_before,
                },
            )
        )
    if requires_preregistration and not has_last_registration_day:
        violations.append(
            Violation(
                "R-PAIR-KVAL-3",
                gettext_noop("Inbjudan anger inte sista anmälningsdag, fast föranmälan krävs."),
                Severity.WARNING,
            )
        )
    if has_pair_limit and not states_pair_limit:
        violations.append(
            Violation(
                "R-PAIR-KVAL-3",
                gettext_noop("Inbjudan anger inte begränsningen av antalet par."),
                Severity.WARNING,
            )
        )
    return violations


# ---------------------------------------------------------------------------------------------
# Teams: heats (R-TEAM-KVAL-1, -2, -5, -6)
# ---------------------------------------------------------------------------------------------


def team_heat_club_violations(
    arranging_clubs: Iterable[Hashable],
    other_heats_clubs: Iterable[Iterable[Hashable]] = (),
    *,
    joint_heat_stated: bool = True,
) -> list[Violation]:
    """R-TEAM-KVAL-1: a club arranges at most one heat per season; clubs may arrange a heat
    together (a regional heat), which the invitation and registration must say.

    ``other_heats_clubs``: the arranging clubs of each other team heat this season."""
    clubs = list(dict.fromkeys(arranging_clubs))
    violations: list[Violation] = []
    if not clubs:
        violations.append(Violation("R-TEAM-KVAL-1", gettext_noop("Kvalheatet saknar arrangör.")))
    busy = {c for heat in other_heats_clubs for c in heat}
    for club in clubs:
        if club in busy:
            violations.append(
                Violation(
                    "R-TEAM-KVAL-1",
                    gettext_noop(
                        "Klubben %(club)s arrangerar redan ett kvalheat denna säsong; en klubb "
                        "får bara arrangera ett heat."
                    ),
                    data={"club": club},
                    params={"club": club},
                )
            )
    if len(clubs) > 1 and not joint_heat_stated:
        violations.append(
            Violation(
                "R-TEAM-KVAL-1",
                gettext_noop(
                    "Heatet arrangeras av flera klubbar; det ska framgå av inbjudan och anmälan."
                ),
                Severity.WARNING,
                data={"clubs": clubs},
            )
        )
    return violations


def too_few_teams_at_close(
    teams_entered: int,
    other_heats: Iterable[Hashable] = (),
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-TEAM-KVAL-2: fewer than ``rules.heat_min_teams`` teams when entries close: the organiser
    tells TK at once and the teams are offered places in the other heats (listed in ``data``)."""
    if teams_entered >= rules.heat_min_teams:
        return []
    offers = list(other_heats)
    return [
        Violation(
            "R-TEAM-KVAL-2",
            gettext_noop(
                "Bara %(teams_entered)s lag anmälda när anmälningstiden gått ut (minst "
                "%(heat_min_teams)s). Meddela UBF TK:s ordförande genast; lagen erbjuds plats i "
                "ett annat kvalheat."
            ),
            Severity.WARNING,
            data={"teams": teams_entered, "minimum": rules.heat_min_teams, "offer_heats": offers},
            params={"teams_entered": teams_entered, "heat_min_teams": rules.heat_min_teams},
        )
    ]


def half_minutes(
    boards_in_half: int, *, dealt_at_table: bool = False, rules: SeasonRules = DEFAULT_RULES
) -> int:
    """R-TEAM-KVAL-6: playing time of one half (or of a one-segment match) in minutes.

    ``rules.minutes_per_board`` (7.5) per board with pre-duplicated boards, rounded UP to the
    nearest ``rules.half_rounding_minutes`` (5); plus ``rules.dealt_at_table_extra_minutes`` (5)
    if the boards are dealt at the table. 12 boards → 90, 10 → 75, 8 → 60, 7 → 55 (52.5)."""
    if boards_in_half <= 0:
        return 0
    raw = Fraction(rules.minutes_per_board) * boards_in_half
    step = rules.half_rounding_minutes
    minutes = math.ceil(raw / step) * step
    if dealt_at_table:
        minutes += rules.dealt_at_table_extra_minutes
    return int(minutes)


def team_heat_board_violations(
    matches: Iterable[tuple[Hashable, Hashable, int]], rules: SeasonRules = DEFAULT_RULES
) -> list[Violation]:
    """R-TEAM-KVAL-5: every match has ``rules.match_min_boards``–``rules.match_max_boards``
    boards, the same number in every match of the heat, and each team plays at least
    ``rules.team_heat_min_boards_per_team`` boards in the heat in total.

    ``matches``: (home, away, boards) for each match, planned or played; a bye (``None`` as a
    side) is ignored."""
    per_team: dict[Hashable, int] = defaultdict(int)
    board_counts: list[int] = []
    teams_seen: list[Hashable] = []
    for home, away, boards in matches:
        for team in (home, away):
            if team is not None and team not in per_team:
                teams_seen.append(team)
                per_team[team] = 0
        if home is None or away is None:
            continue
        board_counts.append(boards)
        per_team[home] += boards
        per_team[away] += boards

    violations: list[Violation] = []
    bad = sorted(
        {b for b in board_counts if not rules.match_min_boards <= b <= rules.match_max_boards}
    )
    for b in bad:
        violations.append(
            Violation(
                "R-TEAM-KVAL-5",
                gettext_noop(
                    "En match med %(b)s brickor: varje match ska ha "
                    "%(match_min_boards)s–%(match_max_boards)s brickor."
                ),
                data={"boards": b},
                params={
                    "b": b,
                    "match_min_boards": rules.match_min_boards,
                    "match_max_boards": rules.match_max_boards,
                },
            )
        )
    distinct = sorted(set(board_counts))
    if len(distinct) > 1:
        violations.append(
            Violation(
                "R-TEAM-KVAL-5",
                gettext_noop(
                    "Matcherna har olika antal brickor (%(map)s); alla matcher i heatet ska ha "
                    "lika många."
                ),
                data={"board_counts": distinct},
                params={"map": ", ".join(map(str, distinct))},
            )
        )
    short = {
        t: per_team[t] for t in teams_seen if per_team[t] < rules.team_heat_min_boards_per_team
    }
    if short:
        violations.append(
            Violation(
                "R-TEAM-KVAL-5",
                gettext_noop(
                    "%(n_short)s lag spelar färre än %(team_heat_min_boards_per_team)s brickor "
                    "totalt i heatet."
                ),
                data={"boards_by_team": short, "minimum": rules.team_heat_min_boards_per_team},
                params={
                    "n_short": len(short),
                    "team_heat_min_boards_per_team": rules.team_heat_min_boards_per_team,
                },
            )
        )
    return violations


# ---------------------------------------------------------------------------------------------
# Direct finals (R-TEAM-DF-1, R-PAIR-DF-1)
# ---------------------------------------------------------------------------------------------


def needs_direct_final(arranging_clubs: int, rules: SeasonRules = DEFAULT_RULES) -> bool:
    """R-PAIR-DF-1, R-TEAM-DF-1: fewer than two clubs willing to arrange qualifiers means TK
    decides on a direct DM final on the final's date."""
    return arranging_clubs < rules.direct_final_min_arranging_clubs


def direct_final_notice(
    arranging_clubs: int,
    *,
    teams: bool = False,
    decide_by: date | None = None,
    rules: SeasonRules = DEFAULT_RULES,
) -> Violation | None:
    """R-PAIR-DF-1 (pairs) / R-TEAM-DF-1 (``teams=True``): the message for TK when a direct final
    is needed (a WARNING: TK must decide, at the latest when the qualifying period ends
    (``decide_by``)); ``None`` when enough clubs arrange qualifiers."""
    if not needs_direct_final(arranging_clubs, rules):
        return None
    clause = "R-TEAM-DF-1" if teams else "R-PAIR-DF-1"
    when = (
        Message(gettext_noop("senast %(date)s"), {"date": decide_by})
        if decide_by
        else gettext_noop("senast när kvalperioden går ut")
    )
    template = (
        gettext_noop(
            "Bara %(arranging_clubs)s klubb(ar) vill arrangera kval. TK ska %(when)s besluta "
            "om en direkt DM-final på finalens datum. Alla lag ska mötas; brickor per match "
            "får anpassas."
        )
        if teams
        else gettext_noop(
            "Bara %(arranging_clubs)s klubb(ar) vill arrangera kval. TK ska %(when)s besluta "
            "om en direkt DM-final på finalens datum."
        )
    )
    return Violation(
        clause,
        template,
        Severity.WARNING,
        data={"arranging_clubs": arranging_clubs, "decide_by": decide_by},
        params={"arranging_clubs": arranging_clubs, "when": when},
    )

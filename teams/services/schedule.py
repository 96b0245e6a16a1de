"""The schedules of a team heat and of the DM Lag final (issue 22): proposed, adjusted by the
person who runs them, and saved in one transaction.

Clauses: R-TEAM-KVAL-4 (everyone meets everyone where possible; otherwise a seeded schedule
that favours nobody), R-TEAM-KVAL-5 (8–24 boards, the same in every match, at least 70 boards
a team; 16+ boards in two halves), R-TEAM-KVAL-6 (the time of a half), R-TEAM-FINAL-1 (the final:
a single round robin of 8 or 10 teams over the two central days, 24 or 20 boards, the teams
numbered by their final seats), R-TEAM-DF-1 (a direct final: everyone meets everyone, the boards
set to fit), R-GEN-3 (recorded with who, when and why).

Who: a heat's schedule is made by whoever manages the heat (TK, the heat responsible, an
official of an arranging club: ``clubs.permissions.can_manage_team_heat``); the final's by TK.
A schedule may be changed only while none of its matches has a result (played, a W.O., a file
or board results); a match that would go away must not carry a line-up, a penalty, a ruling or
a roster-change request. Everything is checked before anything is written; a match that stays
(the same two teams) keeps its row, so its line-ups stay with it.

The numbers in a schedule are the teams' numbers: in a heat their number in the heat, in the
final their seat's number (``clubs.seats.with_seats`` reads it, ``clubs.seats.number_seats``
gives a held seat without one the next free number when the schedule is saved).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db import transaction
from django.db.models import Count, Q

from clubs import seats
from clubs.locks import lock_competition
from clubs.permissions import can_manage_team_heat, is_tk
from clubs.recompute import request_recompute
from clubs.services.base import (
    ServiceError,
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
    require_open_season,
)
from teams.models import (
    Match,
    Team,
    TeamCompetition,
    TeamHeat,
)
from ubf.rules.heats import half_minutes, team_heat_board_violations
from ubf.rules.i18n import gettext_noop
from ubf.rules.schedule import (
    final_board_violations,
    final_boards,
    full_round_robin_rounds,
    match_halves,
    round_days,
    round_robin,
    schedule_violations,
    seeded_schedule,
)
from ubf.rules.violations import Violation

__all__ = [
    "Schedule",
    "ScheduleRound",
    "ScheduleTeam",
    "final_schedule",
    "heat_schedule",
    "propose_final_schedule",
    "propose_heat_schedule",
    "save_final_schedule",
    "save_heat_schedule",
]

#: An entered round: its play day (None when not given) and its matches as (home, away)
#: numbers.
EnteredRound = tuple[date | None, Sequence[tuple[int, int]]]


@dataclass(frozen=True)
class ScheduleTeam:
    number: int
    team: Team

    @property
    def name(self) -> str:
        return self.team.name


@dataclass
class ScheduleRound:
    number: int
    played_on: date | None
    matches: list[tuple[int, int]]
    #: The numbers of the teams that sit out this round.
    byes: list[int] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The matches as a person types them: "1-7, 2-6, 3-5"."""
        return ", ".join(f"{h}-{a}" for h, a in self.matches)


@dataclass
class Schedule:
    """A heat's or the final's schedule: the saved one (``saved``) or a proposal (nothing
    saved), with what the rules say about it."""

    competition: TeamCompetition
    heat: TeamHeat | None
    teams: list[ScheduleTeam]
    rounds: list[ScheduleRound]
    boards: int
    #: The days a round may be played on (a heat's days; the final's two central days).
    days: list[date]
    #: Errors and warnings of this schedule as it stands (R-TEAM-KVAL-4/5, R-TEAM-FINAL-1).
    problems: list[Violation] = field(default_factory=list)
    #: Why it cannot be changed now (a match with a result); empty when it can.
    locked: list[Violation] = field(default_factory=list)
    saved: bool = False
    #: After saving: whether anything was written (False: the same schedule again).
    changed: bool = False
    #: A proposal: the seeds it was made with (team numbers, best first).
    seeds: list[int] = field(default_factory=list)

    @property
    def is_final(self) -> bool:
        return self.heat is None

    @property
    def clause(self) -> str:
        return "R-TEAM-FINAL-1" if self.is_final else "R-TEAM-KVAL-4"

    @property
    def halves(self) -> int:
        return match_halves(self.boards, self.competition.season.rules())

    @property
    def half_minutes(self) -> int:
        """R-TEAM-KVAL-6 (and R-TEAM-FINAL-1's 1 h 30 / 1 h 15 for 24 / 20 boards)."""
        rules = self.competition.season.rules()
        per_half = -(-self.boards // self.halves)
        dealt = bool(self.heat and self.heat.dealt_at_table)
        return half_minutes(per_half, dealt_at_table=dealt, rules=rules)

    @property
    def full_rounds(self) -> int:
        """Rounds for everyone to meet everyone (R-TEAM-KVAL-4)."""
        return full_round_robin_rounds(len(self.teams))

    @property
    def is_full(self) -> bool:
        met = {frozenset(m) for r in self.rounds for m in r.matches}
        n = len(self.teams)
        return n > 1 and len(met) == n * (n - 1) // 2

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.problems if v.is_error]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.problems if not v.is_error]

    @property
    def match_count(self) -> int:
        return sum(len(r.matches) for r in self.rounds)

    @property
    def named_rounds(self) -> list[dict]:
        """The rounds for a page: each match as (home number, home name, away number, away
        name), and who sits out."""
        names = {t.number: t.name for t in self.teams}
        return [
            {
                "number": r.number,
                "played_on": r.played_on,
                "matches": [(h, names.get(h, "?"), a, names.get(a, "?")) for h, a in r.matches],
                "byes": [(b, names.get(b, "?")) for b in r.byes],
            }
            for r in self.rounds
        ]


# ---------------------------------------------------------------------------------------------
# Reading: the teams, the days, the saved schedule, why it is locked
# ---------------------------------------------------------------------------------------------


def _heat_teams(heat: TeamHeat) -> list[ScheduleTeam]:
    teams = Team.objects.filter(heat=heat, status=Team.Status.ENTERED, number__isnull=False)
    return [ScheduleTeam(t.number, t) for t in teams.order_by("number", "id")]


def _final_teams(competition: TeamCompetition) -> list[ScheduleTeam]:
    """The teams holding a seat, numbered by their seats (R-TEAM-FINAL-1); a held seat
    without a number yet is numbered when the schedule is saved."""
    holders = list(seats.holding(Team.objects.filter(competition=competition)).order_by("id"))
    out = [ScheduleTeam(t.final_seat_number, t) for t in holders if t.final_seat_number]
    taken = {t.number for t in out}
    number = 0
    for team in holders:  # as number_seats will number them: the next free numbers
        if not team.final_seat_number:
            number += 1
            while number in taken:
                number += 1
            taken.add(number)
            out.append(ScheduleTeam(number, team))
    return sorted(out, key=lambda t: t.number)


def _heat_days(heat: TeamHeat) -> list[date]:
    last = heat.last_date or heat.first_date
    return [heat.first_date + timedelta(days=i) for i in range((last - heat.first_date).days + 1)]


def _final_days(competition: TeamCompetition) -> list[date]:
    return sorted({competition.final_day1, competition.final_day2})


def _matches(competition: TeamCompetition, heat: TeamHeat | None):
    if heat is None:
        return Match.objects.filter(competition=competition, stage=Match.Stage.FINAL)
    return Match.objects.filter(competition=competition, stage=Match.Stage.KVAL, heat=heat)


def _lock_reasons(competition, heat) -> list[Violation]:
    """R-TEAM-KVAL-4 / R-TEAM-FINAL-1: a schedule changes only while none of its matches has a
    result (played or a W.O., IMPs, board results or a file)."""
    with_result = (
        _matches(competition, heat)
        .filter(
            ~Q(status=Match.Status.SCHEDULED)
            | Q(imps_home__isnull=False)
            | Q(board_results__isnull=False)
            | Q(uploads__isnull=False)
        )
        .select_related("home", "away")
        .distinct()
        .order_by("round", "id")
    )
    first = with_result.first()
    if first is None:
        return []
    clause = "R-TEAM-FINAL-1" if heat is None else "R-TEAM-KVAL-4"
    return [
        error(
            clause,
            gettext_noop(
                "Spelschemat kan inte ändras: matchen %(home)s – %(away)s (rond %(round)s) har "
                "redan resultat. Ett schema ändras bara så länge ingen av dess matcher har "
                "resultat."
            ),
            match=first.pk,
            params={"home": first.home.name, "away": first.away.name, "round": first.round},
        )
    ]


def _from_matches(teams: list[ScheduleTeam], matches, number_of) -> tuple[list, int | None]:
    by_round: dict[int, ScheduleRound] = {}
    boards = None
    for m in matches:
        r = by_round.setdefault(m.round, ScheduleRound(m.round, m.played_on, []))
        if m.played_on and (r.played_on is None or m.played_on < r.played_on):
            r.played_on = m.played_on
        r.matches.append((number_of.get(m.home_id, 0), number_of.get(m.away_id, 0)))
        boards = boards or m.boards
    rounds = [by_round[k] for k in sorted(by_round)]
    numbers = [t.number for t in teams]
    for r in rounds:
        playing = {x for m in r.matches for x in m}
        r.byes = [n for n in numbers if n not in playing]
    return rounds, boards


def _saved(competition, heat, teams: list[ScheduleTeam], days, default_boards: int) -> Schedule:
    number_of = {t.team.pk: t.number for t in teams}
    matches = _matches(competition, heat).order_by("round", "id")
    rounds, boards = _from_matches(teams, matches, number_of)
    schedule = Schedule(
        competition=competition,
        heat=heat,
        teams=teams,
        rounds=rounds,
        boards=boards or default_boards,
        days=days,
        saved=bool(rounds),
    )
    if rounds:
        schedule.problems = _problems(schedule)
    schedule.locked = _lock_reasons(competition, heat)
    return schedule


def heat_schedule(heat: TeamHeat) -> Schedule:
    """The heat's saved schedule (no rounds when none is saved), its problems and locks."""
    heat = TeamHeat.objects.select_related("competition__season").get(pk=heat.pk)
    return _saved(
        heat.competition, heat, _heat_teams(heat), _heat_days(heat), heat.boards_per_match
    )


def final_schedule(competition: TeamCompetition) -> Schedule:
    """The final's saved schedule (no rounds when none is saved), its problems and locks."""
    competition = TeamCompetition.objects.select_related("season").get(pk=competition.pk)
    teams = _final_teams(competition)
    rules = competition.season.rules()
    boards = final_boards(len(teams), rules) or rules.match_max_boards
    return _saved(competition, None, teams, _final_days(competition), boards)


# ---------------------------------------------------------------------------------------------
# The checks of a schedule (proposed, entered, or saved)
# ---------------------------------------------------------------------------------------------


def _problems(schedule: Schedule) -> list[Violation]:
    """Everything the rules say about ``schedule``: the rounds and meetings (R-TEAM-KVAL-4,
    R-TEAM-FINAL-1), the play days, the boards (R-TEAM-KVAL-5, R-TEAM-FINAL-1, R-TEAM-DF-1)."""
    competition, heat = schedule.competition, schedule.heat
    rules = competition.season.rules()
    numbers = [t.number for t in schedule.teams]
    out: list[Violation] = []
    if len(numbers) < 2:
        out.append(
            error(
                schedule.clause,
                gettext_noop("Det behövs minst två lag för ett spelschema (nu %(n)s)."),
                params={"n": len(numbers)},
            )
        )
        return out
    if not schedule.rounds:
        out.append(error(schedule.clause, gettext_noop("Schemat har inga ronder.")))
        return out
    out += schedule_violations(
        [r.matches for r in schedule.rounds],
        numbers,
        clause=schedule.clause,
        full_required=heat is None,
    )
    out += _day_problems(schedule)
    if heat is None:
        out += final_board_violations(
            len(numbers), schedule.boards, direct_final=competition.is_direct_final, rules=rules
        )
    else:
        out += team_heat_board_violations(
            [(h, a, schedule.boards) for r in schedule.rounds for h, a in r.matches], rules
        )
    return out


def _day_problems(schedule: Schedule) -> list[Violation]:
    """Each round on one of the allowed days (a heat's days, R-TEAM-REG-1; the final's central
    days, R-TEAM-FINAL-1), the rounds in the order of their days."""
    clause = "R-TEAM-FINAL-1" if schedule.is_final else "R-TEAM-REG-1"
    allowed = set(schedule.days)
    first, last = min(schedule.days), max(schedule.days)
    out = []
    previous: ScheduleRound | None = None
    for r in schedule.rounds:
        if r.played_on is None:
            out.append(
                error(
                    clause,
                    gettext_noop("Rond %(round)s: ange speldag."),
                    params={"round": r.number},
                )
            )
            continue
        if r.played_on not in allowed:
            out.append(
                error(
                    clause,
                    gettext_noop(
                        "Rond %(round)s spelas %(day)s, utanför speldagarna %(first)s–%(last)s."
                    ),
                    params={"round": r.number, "day": r.played_on, "first": first, "last": last},
                )
            )
        if previous is not None and previous.played_on and r.played_on < previous.played_on:
            out.append(
                error(
                    clause,
                    gettext_noop("Rond %(round)s spelas före rond %(previous)s."),
                    params={"round": r.number, "previous": previous.number},
                )
            )
        previous = r
    return out


# ---------------------------------------------------------------------------------------------
# Proposals (nothing saved)
# ---------------------------------------------------------------------------------------------


def _rounds_of(pairings, dates, numbers) -> list[ScheduleRound]:
    rounds = []
    for i, round_ in enumerate(pairings):
        matches = [(h, a) for h, a in round_ if h is not None and a is not None]
        playing = {x for m in matches for x in m}
        byes = [n for n in numbers if n not in playing]
        rounds.append(ScheduleRound(i + 1, dates[i] if i < len(dates) else None, matches, byes))
    return rounds


def propose_heat_schedule(
    heat: TeamHeat,
    *,
    rounds: int | None = None,
    seeds: Sequence[int] | None = None,
    boards: int | None = None,
) -> Schedule:
    """R-TEAM-KVAL-4: a proposal for the heat: everyone meets everyone (``rounds`` left out or
    enough for it), otherwise a seeded schedule of ``rounds`` rounds in which the average seed
    of each team's opponents is as even as can be (``ubf.rules.schedule.seeded_schedule``;
    ``seeds``: the team numbers best first, by default in number order). The rounds are spread
    over the heat's days; ``boards`` per match (default: the heat's, R-TEAM-KVAL-5). Nothing is
    saved: the proposal carries its problems (too few boards a team, ...)."""
    heat = TeamHeat.objects.select_related("competition__season").get(pk=heat.pk)
    teams = _heat_teams(heat)
    numbers = [t.number for t in teams]
    order = list(seeds) if seeds else numbers
    if sorted(order) != sorted(numbers):
        raise ServiceError(
            [
                error(
                    "R-TEAM-KVAL-4",
                    gettext_noop("Seedningen ska ta med varje lag i heatet en gång."),
                )
            ]
        )
    full = full_round_robin_rounds(len(numbers))
    wanted = full if rounds is None else max(0, min(int(rounds), full))
    pairings = round_robin(order) if wanted >= full else seeded_schedule(order, wanted)
    days = _heat_days(heat)
    schedule = Schedule(
        competition=heat.competition,
        heat=heat,
        teams=teams,
        rounds=_rounds_of(pairings, round_days(len(pairings), days), numbers),
        boards=int(boards) if boards else heat.boards_per_match,
        days=days,
        seeds=order,
    )
    schedule.problems = _problems(schedule)
    schedule.locked = _lock_reasons(heat.competition, heat)
    return schedule


def propose_final_schedule(competition: TeamCompetition, *, boards: int | None = None) -> Schedule:
    """R-TEAM-FINAL-1 (R-TEAM-DF-1 for a direct final): a single round robin of the teams
    holding a seat, by their seats' numbers (circle method, each team's home and away matches
    differing by at most one), the rounds over the two central days (the first day taking the
    extra round), 24 boards a match with 8 teams and 20 with 10 (``boards`` for a direct final,
    whose boards are set to fit the number of teams). Nothing is saved."""
    competition = TeamCompetition.objects.select_related("season").get(pk=competition.pk)
    rules = competition.season.rules()
    teams = _final_teams(competition)
    numbers = [t.number for t in teams]
    pairings = round_robin(numbers)
    days = _final_days(competition)
    default = final_boards(len(numbers), rules) or rules.match_max_boards
    schedule = Schedule(
        competition=competition,
        heat=None,
        teams=teams,
        rounds=_rounds_of(pairings, round_days(len(pairings), days), numbers),
        boards=int(boards) if boards and competition.is_direct_final else default,
        days=days,
        seeds=numbers,
    )
    schedule.problems = _problems(schedule)
    schedule.locked = _lock_reasons(competition, None)
    return schedule


# ---------------------------------------------------------------------------------------------
# Saving (one transaction: checked first, nothing written on any error)
# ---------------------------------------------------------------------------------------------


@transaction.atomic
def save_heat_schedule(
    user, heat, rounds: Sequence[EnteredRound], *, boards: int, reason: str = ""
) -> Schedule:
    """The heat's schedule as entered (``rounds``: each its day and its (home, away) numbers;
    ``boards`` per match, the heat's number from now on), by whoever manages the heat
    (R-TEAM-KVAL-3). Checked: R-TEAM-KVAL-4 (nobody twice in a round or meeting twice, every
    team playing, everyone meeting everyone when the rounds allow it), R-TEAM-KVAL-5 (boards),
    the heat's days, no match with a result; changing a saved schedule needs a reason. Saved:
    the matches (a match of the same two teams keeps its row), recorded as
    ``teams.schedule.saved``, and the heat recomputed."""
    heat = heat if isinstance(heat, TeamHeat) else TeamHeat.objects.get(pk=heat)
    require(
        can_manage_team_heat(user, heat),
        gettext_noop("Bara UBF TK och den som ansvarar för heatet kan lägga dess spelschema."),
    )
    lock_competition(heat.competition_id, heat_ids=[heat.pk])
    heat = TeamHeat.objects.select_related("competition__season").get(pk=heat.pk)
    teams = _heat_teams(heat)
    return _save(user, heat.competition, heat, teams, _heat_days(heat), rounds, int(boards), reason)


@transaction.atomic
def save_final_schedule(
    user, competition, rounds: Sequence[EnteredRound], *, boards: int | None = None, reason=""
) -> Schedule:
    """TK saves the DM Lag final's schedule (R-TEAM-FINAL-1; R-TEAM-DF-1 for a direct final):
    the teams by their seats' numbers (a held seat without a number gets the next free one
    first, ``clubs.seats.number_seats``), a single round robin over the two central days, the
    boards the number of teams gives (``boards``: a direct final's own). The same checks and
    record as a heat's schedule."""
    require(is_tk(user), gettext_noop("Bara UBF TK lägger finalens spelschema."))
    pk = competition.pk if isinstance(competition, TeamCompetition) else competition
    lock_competition(pk)
    competition = TeamCompetition.objects.select_related("season").get(pk=pk)
    seats.number_seats(competition)
    teams = _final_teams(competition)
    rules = competition.season.rules()
    default = final_boards(len(teams), rules) or rules.match_max_boards
    wanted = int(boards) if boards and competition.is_direct_final else default
    return _save(user, competition, None, teams, _final_days(competition), rounds, wanted, reason)


def _save(user, competition, heat, teams, days, entered, boards, reason) -> Schedule:
    require_open_season(competition.season)
    numbers = [t.number for t in teams]
    schedule = Schedule(
        competition=competition,
        heat=heat,
        teams=teams,
        rounds=_rounds_of(
            [list(matches) for _day, matches in entered], [d for d, _m in entered], numbers
        ),
        boards=boards,
        days=days,
    )
    locked = _lock_reasons(competition, heat)
    raise_on_errors(locked)
    problems = _problems(schedule)
    existing = {frozenset((m.home_id, m.away_id)): m for m in _matches(competition, heat)}
    team_of = {t.number: t.team for t in teams}
    wanted: dict[frozenset, tuple[ScheduleRound, int, int]] = {}
    for r in schedule.rounds:
        for h, a in r.matches:
            if h in team_of and a in team_of and h != a:
                wanted[frozenset((team_of[h].pk, team_of[a].pk))] = (r, h, a)
    going = [m for key, m in existing.items() if key not in wanted]
    problems += _going_problems(going, schedule.clause)
    changed = _changes(existing, wanted, team_of, boards, schedule.halves) or bool(going)
    if existing and changed:
        problems += reason_required(reason, schedule.clause)
    raise_on_errors(problems)
    schedule.problems = [v for v in problems if not v.is_error]
    schedule.saved = True
    if not changed and (heat is None or heat.boards_per_match == boards):
        return schedule
    schedule.changed = True

    stage = Match.Stage.FINAL if heat is None else Match.Stage.KVAL
    created = updated = 0
    Match.objects.filter(pk__in=[m.pk for m in going]).delete()
    for key, (r, h, a) in wanted.items():
        fields = {
            "round": r.number,
            "played_on": r.played_on,
            "home": team_of[h],
            "away": team_of[a],
            "boards": boards,
            "halves": schedule.halves,
        }
        match = existing.get(key)
        if match is None:
            Match.objects.create(competition=competition, stage=stage, heat=heat, **fields)
            created += 1
        elif any(getattr(match, k) != v for k, v in fields.items()):
            for k, v in fields.items():
                setattr(match, k, v)
            match.save()
            updated += 1
    old_boards = None
    if heat is not None and heat.boards_per_match != boards:
        old_boards = heat.boards_per_match
        heat.boards_per_match = boards
        heat.save(update_fields=["boards_per_match"])
    record_decision(
        "teams.schedule.saved",
        heat if heat is not None else competition,
        user=user,
        reason=(reason or "").strip(),
        clause=schedule.clause,
        season=competition.season,
        rounds=[[r.played_on, r.text] for r in schedule.rounds],
        boards=boards,
        boards_before=old_boards,
        created=created,
        updated=updated,
        deleted=len(going),
        full=schedule.is_full,
        teams={t.number: t.name for t in teams},
    )
    request_recompute(competition.pk, heat_ids=[heat.pk] if heat is not None else ["final"])
    return schedule


def _changes(existing, wanted, team_of, boards, halves) -> bool:
    """Whether the entered schedule differs from the saved matches."""
    if set(existing) != set(wanted):
        return True
    for key, (r, h, a) in wanted.items():
        m = existing[key]
        if (m.round, m.played_on, m.home_id, m.away_id, m.boards, m.halves) != (
            r.number,
            r.played_on,
            team_of[h].pk,
            team_of[a].pk,
            boards,
            halves,
        ):
            return True
    return False


def _going_problems(going: list[Match], clause: str) -> list[Violation]:
    """A match that the new schedule drops must not carry what a person recorded for it."""
    if not going:
        return []
    counted = (
        Match.objects.filter(pk__in=[m.pk for m in going])
        .select_related("home", "away")
        .annotate(
            n_lineups=Count("lineups", distinct=True),
            n_penalties=Count("penalties", distinct=True),
            n_rulings=Count("rulings", distinct=True),
            n_requests=Count("change_requests", distinct=True),
        )
        .order_by("round", "id")
    )
    out = []
    for m in counted:
        if m.n_lineups or m.n_penalties or m.n_rulings or m.n_requests:
            out.append(
                error(
                    clause,
                    gettext_noop(
                        "Matchen %(home)s – %(away)s (rond %(round)s) finns inte i det nya "
                        "schemat men har laguppställning, VP-avdrag, domslut eller en begärd "
                        "ändring registrerad; behåll matchen eller be TK ta bort det först."
                    ),
                    match=m.pk,
                    params={"home": m.home.name, "away": m.away.name, "round": m.round},
                )
            )
    return out

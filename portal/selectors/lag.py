"""Read side of the public DM Lag pages: everything a page needs in a fixed number of queries.

Standings are computed by the recompute task and stored as snapshots
(:class:`results.models.StandingSnapshot`); pages only read them. Each row of a team snapshot
carries the team's matches as they count (``results``: opponent, round, IMPs, VP, W.O., struck),
so the cross table and the round by round results agree with the standings without the page
computing anything (``results/services/recompute/teams.py``).

* :func:`lag_page` – ``/lag/``: the final (standings, cross table, round by round, DM and SM
  order, the semifinal choice order), the heats (their standings until the final is shown,
  then one row each, linked to the heat's page), the latest matches (8 queries at most; 9
  once the final has started: one for the SM semifinal's answers, R-TEAM-SEMI-1);
* :func:`team_page` – ``/lag/lag/<id>/``: roster with clubs, matches, line-ups, status,
  masterpoints (7 queries; 9 for a team of the final: the final's matches, for what it needs,
  and the SM semifinal's answers);
* :func:`match_page` – ``/lag/match/<id>/``: both teams, IMPs, VP, W.O., boards, line-ups
  (5 queries).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q
from django.http import Http404

from clubs import seats
from clubs.models import HeatStatus, Representation, Season
from portal.selectors.outlook import FinalNeeds, TeamNeeds, final_needs
from portal.selectors.tk_lots import standing_lot_notes
from results.models import AllocationRun, Lot, RecomputeStatus, StandingSnapshot
from results.seat_states import OFFERED, SeatWords, annotate_held, heats_left, held_words
from results.services.lots import TEAM_FINAL
from results.services.semifinal import Board as SemifinalBoard
from results.services.semifinal import board_from, state_message
from teams.models import (
    BoardResult,
    Dispensation,
    Lineup,
    Match,
    Penalty,
    RosterEntry,
    Ruling,
    SemifinalChoice,
    Team,
    TeamCompetition,
    TeamHeat,
    TeamHeatOrganiser,
)
from ubf.rules.eligibility import check_district_balance
from ubf.rules.heats import half_minutes
from ubf.rules.i18n import Message
from ubf.rules.info import TEAM_STAGES, system_rules
from ubf.rules.people import UBF, PlayerInfo

DONE = (Match.Status.PLAYED, Match.Status.WALKOVER)


@dataclass
class HeatView:
    heat: TeamHeat
    teams: list[Team]
    snapshot: StandingSnapshot | None
    organisers: list[str] = field(default_factory=list)
    #: R-TEAM-KVAL-6: the playing time of one half of the heat's matches, in minutes.
    half_minutes: int = 0

    @property
    def finalists(self) -> int:
        """The heat's teams that hold a seat in the final."""
        return sum(1 for t in self.teams if t.holds_final_seat)

    @property
    def winner(self) -> dict | None:
        """The heat's first team in its standings (its snapshot row), None before results."""
        rows = self.snapshot.data if self.snapshot else None
        return next((r for r in rows or () if r.get("rank") == 1), None)


@dataclass
class CrossCell:
    """One cell of the cross table: the row team's VP against the column team (None on the
    diagonal; ``result`` None when they have not met yet)."""

    opponent_id: int
    diagonal: bool = False
    result: dict | None = None


@dataclass
class CrossRow:
    row: dict
    cells: list[CrossCell]


@dataclass
class RoundMatch:
    match: Match
    #: The home team's result as it counts in the standings (snapshot), None before a recompute.
    counted: dict | None = None


@dataclass
class RoundView:
    number: int
    played_on: object = None
    matches: list[RoundMatch] = field(default_factory=list)

    #: The round being played: the first round not complete, once the stage has started
    #: (exactly one round "pågår" at a time).
    in_play: bool = False

    @property
    def complete(self) -> bool:
        return all(m.match.status in DONE for m in self.matches)


@dataclass
class LagPage:
    season: Season | None
    competition: TeamCompetition | None
    final_snapshot: StandingSnapshot | None = None
    #: the ties in the final's table that matter (R-TEAM-TIE-1), drawn or not
    final_lots: list = field(default_factory=list)
    final_teams: list[Team] = field(default_factory=list)
    final_started: bool = False
    heats: list[HeatView] = field(default_factory=list)
    recompute_pending: bool = False
    allocation: AllocationRun | None = None
    recent_matches: list[Match] = field(default_factory=list)
    #: The final's cross table (rows in ranking order) and its rounds.
    cross_table: list[CrossRow] = field(default_factory=list)
    rounds: list[RoundView] = field(default_factory=list)
    #: R-TEAM-4: the DM order (title, plaques) and the full order (SM semifinal places), as
    #: pairs of snapshot rows side by side (either side None when the lists differ in length).
    orders: list[tuple[int, dict | None, dict | None]] = field(default_factory=list)
    #: R-TEAM-SEMI-1: the teams that choose an SM semifinal venue, in choosing order.
    semifinal_order: list[dict] = field(default_factory=list)
    #: R-TEAM-SEMI-1: the choosing of venues, each team with its state (chosen, choosing
    #: now, waiting; declined), ``results.services.semifinal.board_from``.
    semifinal: SemifinalBoard | None = None
    system: Message = system_rules("teams", "final").text
    stages: str = TEAM_STAGES
    #: The final is being played: started, and not every match of it played or W.O.
    final_live: bool = False
    #: "Vad behöver laget" before each of the last two rounds (portal.selectors.outlook).
    needs: FinalNeeds | None = None

    @property
    def final_shown(self) -> bool:
        """/lag/ shows the final's standings (else the final's teams or nothing, then heats)."""
        return self.final_started or bool(self.final_snapshot and self.final_snapshot.rounds_played)

    @property
    def poll(self) -> bool:
        """The final's block refreshes itself (htmx polling of /lag/final/): while the final
        is being played, and while a recompute is counting new results in."""
        return self.final_live or self.recompute_pending


def _competition(season: Season | None) -> tuple[Season | None, TeamCompetition | None]:
    """The season's DM Lag with its season in one query (the current season's by default)."""
    qs = TeamCompetition.objects.select_related("season")
    if season is not None:
        return season, qs.filter(season=season).first()
    competition = qs.filter(season__is_current=True).first()
    if competition is not None:
        return competition.season, competition
    season = Season.current()
    if season is None:
        return None, None
    return season, qs.filter(season=season).first()


def cross_table(rows: list[dict]) -> list[CrossRow]:
    """The cross table of a stage from its snapshot rows: the row team's VP against each
    opponent (columns in the same ranking order), a dash on the diagonal."""
    out = []
    for row in rows:
        against = {r["opponent_id"]: r for r in row.get("results") or ()}
        out.append(
            CrossRow(
                row=row,
                cells=[
                    CrossCell(
                        opponent_id=col["team_id"],
                        diagonal=col["team_id"] == row["team_id"],
                        result=against.get(col["team_id"]),
                    )
                    for col in rows
                ],
            )
        )
    return out


def round_views(matches: list[Match], rows: list[dict]) -> list[RoundView]:
    """The stage's matches round by round, each with its result as the standings count it."""
    counted = {}
    for row in rows:
        for r in row.get("results") or ():
            counted[(r["match_id"], row["team_id"])] = r
    by_round: dict[int, RoundView] = {}
    for m in sorted(matches, key=lambda m: (m.round, m.id)):
        view = by_round.setdefault(m.round, RoundView(number=m.round))
        view.played_on = view.played_on or m.played_on
        view.matches.append(RoundMatch(match=m, counted=counted.get((m.id, m.home_id))))
    views = [by_round[k] for k in sorted(by_round)]
    if any(m.status in DONE for m in matches):
        current = next((v for v in views if not v.complete), None)
        if current is not None:
            current.in_play = True
    return views


def _recent(matches: list[Match], n: int = 12) -> list[Match]:
    """The latest played matches of every stage (R-TEAM-1: results published as they come)."""
    done = [m for m in matches if m.status in DONE]
    done.sort(key=lambda m: (m.played_on is not None, m.played_on, m.round, m.id), reverse=True)
    return done[:n]


def side_by_side(rows: list[dict]) -> list[tuple[int, dict | None, dict | None]]:
    """R-TEAM-4: position, the DM order's team there and the full order's team there."""
    dm = sorted((r for r in rows if r.get("dm_rank")), key=lambda r: r["dm_rank"])
    full = list(rows)
    return [
        (i + 1, dm[i] if i < len(dm) else None, full[i] if i < len(full) else None)
        for i in range(max(len(dm), len(full)))
    ]


def lag_page(season: Season | None = None, *, final_only: bool = False) -> LagPage:
    """The current season's DM Lag: the final if it has started, else the heats.
    ``final_only``: the final's block alone (/lag/final/, the page the hall polls): without
    the heats, their standings and the latest matches, which it does not show (on the
    national season most of the work: every heat's standing and match)."""
    season, competition = _competition(season)
    if competition is None:
        return LagPage(season=season, competition=None)

    snapshot_rows = StandingSnapshot.objects.filter(competition=competition)
    match_rows = Match.objects.filter(competition=competition)
    if final_only:
        snapshot_rows = snapshot_rows.filter(scope=StandingSnapshot.Scope.TEAM_FINAL)
        match_rows = match_rows.filter(stage=Match.Stage.FINAL)
    snapshots = {(s.scope, s.heat_id): s for s in snapshot_rows}
    final_snapshot = snapshots.get((StandingSnapshot.Scope.TEAM_FINAL, None))
    matches = list(match_rows.select_related("home", "away", "heat"))
    final_matches = [m for m in matches if m.stage == Match.Stage.FINAL]
    final_started = any(m.status in DONE for m in final_matches)

    status = RecomputeStatus.objects.filter(competition=competition).first()
    page = LagPage(
        season=season,
        competition=competition,
        final_snapshot=final_snapshot,
        # R-TEAM-TIE-1: the final's table's lots, one query whether or not it has a tie
        final_lots=standing_lot_notes(
            competition,
            final_snapshot,
            lots=(
                Lot.objects.filter(competition=competition, standing=TEAM_FINAL).select_related(
                    "drawn_by"
                )
                if final_snapshot
                else []
            ),
        ),
        final_started=final_started,
        recompute_pending=bool(status and status.pending),
        allocation=(
            None if final_started else AllocationRun.objects.filter(competition=competition).first()
        ),
    )
    page.final_live = final_started and not all(m.status in DONE for m in final_matches)
    if not final_only:
        page.recent_matches = _recent(matches)
    teams = list(
        annotate_held(seats.with_seats(Team.objects.filter(competition=competition))).order_by(
            "number", "name"
        )
    )
    page.final_teams = sorted(
        (t for t in teams if t.holds_final_seat),
        key=lambda t: (t.final_seat_number or 0, t.name),
    )
    # Issue 21: each finalist's place in words ("preliminärt, X heat kvar" until every heat is
    # in), here and in the allocation's list of seats.
    # (the final started: every heat is in; else the run stores the figure)
    left = (
        0
        if page.final_started or not page.final_teams
        else heats_left(competition, page.allocation)
    )
    for t in page.final_teams:
        t.seat_words = held_words(t.final_seat_status, t.final_seat_source, left)
    final_rows = final_snapshot.data if final_snapshot else []
    if final_rows and all(r.get("team_id") for r in final_rows):
        if all("results" in r for r in final_rows):  # snapshots from before the rows kept them
            page.cross_table = cross_table(final_rows)
        page.orders = side_by_side(final_rows)
        page.semifinal_order = sorted(
            (r for r in final_rows if r.get("sm_choice")), key=lambda r: r["sm_choice"]
        )
    if final_rows and all(r.get("team_id") for r in final_rows) and page.final_started:
        # one query once the final is played: the teams' answers with their venues
        page.semifinal = board_from(
            competition,
            final_snapshot,
            list(
                SemifinalChoice.objects.filter(competition=competition).select_related(
                    "venue", "team"
                )
            ),
        )
    page.rounds = round_views(final_matches, final_rows)
    page.needs = final_needs(competition, final_snapshot, final_matches)
    if final_only:
        return page

    heats = (
        TeamHeat.objects.filter(competition=competition)
        .exclude(status__in=[HeatStatus.REJECTED, HeatStatus.CANCELLED])
        .order_by("first_date", "name")
    )
    organisers = defaultdict(list)
    for o in TeamHeatOrganiser.objects.filter(competition=competition).select_related("club"):
        organisers[o.heat_id].append(o.club.name)
    by_heat = defaultdict(list)
    for t in teams:
        by_heat[t.heat_id].append(t)
    rules = season.rules()
    for heat in heats:
        page.heats.append(
            HeatView(
                heat=heat,
                teams=by_heat.get(heat.id, []),
                snapshot=snapshots.get((StandingSnapshot.Scope.TEAM_HEAT, heat.id)),
                organisers=sorted(organisers.get(heat.id, [])),
                half_minutes=half_minutes(
                    heat.boards_per_match // 2, dealt_at_table=heat.dealt_at_table, rules=rules
                ),
            )
        )
    return page


# ---------------------------------------------------------------------------------------------
# The team page
# ---------------------------------------------------------------------------------------------


@dataclass
class TeamRosterLine:
    player: object
    club: object | None
    is_extra: bool
    #: False when the player represents a club outside UBF this season (R-TEAM-2, R-TEAM-4).
    in_ubf: bool
    halves: int = 0


@dataclass
class TeamMatch:
    match: Match
    opponent: Team
    home: bool
    #: The result as the standings count it (the snapshot row's), None before a recompute.
    counted: dict | None = None
    #: half -> the team's players who played it (R-TEAM-MP-2), empty when not recorded.
    lineup: dict[int, list] = field(default_factory=dict)

    @property
    def imps_for(self):
        return self.match.imps_home if self.home else self.match.imps_away

    @property
    def imps_against(self):
        return self.match.imps_away if self.home else self.match.imps_home

    @property
    def vp_for(self):
        return self.match.vp_home if self.home else self.match.vp_away

    @property
    def vp_against(self):
        return self.match.vp_away if self.home else self.match.vp_home

    @property
    def walkover_given(self) -> bool:
        return bool(self.counted and self.counted.get("walkover") == "given")


@dataclass
class TeamStatus:
    """Where the team stands: ``kind`` is one of ``withdrawn``, ``excluded``, ``disqualified``,
    ``final``, ``offered``, ``next``, ``reserve``, ``out``, ``playing``; the rest are the
    figures the page's sentence needs."""

    kind: str
    reason: str = ""
    rank: int | None = None
    seats: int | None = None
    position: int | None = None
    direct: bool = False
    #: the final place in words (``results.seat_states``), for ``final`` and ``offered``
    words: SeatWords | None = None


@dataclass
class TeamPage:
    team: Team
    roster: list[TeamRosterLine]
    matches: list[TeamMatch]
    status: TeamStatus
    heat_row: dict | None = None
    final_row: dict | None = None
    #: R-TEAM-4: players outside UBF who played for the team (from the line-ups).
    outside_players: list = field(default_factory=list)
    #: What the team needs before the final's last round(s), None at other times.
    needs: TeamNeeds | None = None
    #: R-TEAM-SEMI-1: where the team stands in the choosing of SM semifinal venues, in words
    #: (None for a team without a place), and whether it declined its place.
    semifinal: Message | None = None
    semifinal_declined: bool = False
    #: R-TEAM-3: the roster lacks a UBF majority (the finding), and the state of the latest
    #: district-balance dispensation ("requested", "granted", "rejected", "" when not asked).
    balance: list = field(default_factory=list)
    balance_state: str = ""


def _team_status(
    team: Team, heat_row: dict | None, run: AllocationRun | None, final_started: bool = False
) -> TeamStatus:
    """In the final, offered a seat, next to be asked, reserve, out, or still playing (from the
    stored team, the heat's snapshot row and the allocation run, R-TEAM-ADV-1, R-TEAM-REPL-1)."""
    if team.status != Team.Status.ENTERED:
        return TeamStatus(kind=team.status, reason=team.status_reason)
    if team.is_finalist:
        words = None
        if "final_seat_source" in team.__dict__:  # annotate_held: the held seat in words
            # the final under way: every heat is in; else the run stores the figure
            left = 0 if final_started else heats_left(team.competition, run)
            words = held_words(team.final_seat_status, team.final_seat_source, left)
        return TeamStatus(kind="final", direct=team.is_direct_qualifier, words=words)
    explanation = run.explanation if run else {}
    key = str(team.pk)
    for seat in explanation.get("chain", ()):
        if seat.get("pending") == team.name:
            return TeamStatus(kind="offered", words=SeatWords(OFFERED))
        if seat.get("ask_key") == key:
            return TeamStatus(kind="next")
    rank = heat_row.get("rank") if heat_row else None
    for venue in explanation.get("venues", ()):
        if team.heat and venue.get("label") == team.heat.name:
            for position, entry in enumerate(venue.get("next", ()), start=1):
                if entry.get("entry") == key and not run.provisional:
                    return TeamStatus(kind="reserve", position=position, rank=rank)
            if rank and not run.provisional:
                return TeamStatus(kind="out", rank=rank, seats=venue.get("seats"))
    return TeamStatus(kind="playing", rank=rank)


def team_page(team_id: int) -> TeamPage:
    """``/lag/lag/<id>/``: the team's roster (with each player's club this season), its matches
    with results and line-ups, its status and its masterpoints, in 7 queries (9 for a team of
    the final: its matches tell what the team needs, portal.selectors.outlook, and the
    answers of the SM semifinal's choosing where it stands, R-TEAM-SEMI-1). Raises Http404."""
    team = (
        annotate_held(
            seats.with_seats(Team.objects.select_related("competition__season", "heat", "captain"))
        )
        .filter(pk=team_id)
        .first()
    )
    if team is None:
        raise Http404
    season = team.competition.season
    entries = list(RosterEntry.objects.filter(team=team).select_related("player"))
    clubs = {
        r.player_id: r.club
        for r in Representation.objects.filter(
            season=season, player__roster_entries__team=team
        ).select_related("club__district")
    }
    matches = list(
        Match.objects.filter(Q(home=team) | Q(away=team))
        .select_related("home", "away", "heat")
        .order_by("stage", "round", "id")
    )
    lineups: dict[int, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    halves: dict[int, int] = defaultdict(int)
    fielded = {}
    for x in (
        Lineup.objects.filter(team=team)
        .select_related("player")
        .order_by("match_id", "half", "player__last_name", "player__first_name")
    ):
        lineups[x.match_id][x.half].append(x.player)
        halves[x.player_id] += 1
        fielded[x.player_id] = x.player
    heat_row = final_row = final_snapshot = None
    for s in StandingSnapshot.objects.filter(
        Q(scope=StandingSnapshot.Scope.TEAM_FINAL, heat__isnull=True)
        | Q(scope=StandingSnapshot.Scope.TEAM_HEAT, heat_id=team.heat_id),
        competition=team.competition,
    ):
        row = next((r for r in s.data if r.get("team_id") == team.pk), None)
        if s.scope == StandingSnapshot.Scope.TEAM_FINAL:
            final_row, final_snapshot = row, s
        else:
            heat_row = row
    run = AllocationRun.objects.filter(competition=team.competition).first()
    counted = {
        r["match_id"]: r for row in (heat_row, final_row) if row for r in row.get("results") or ()
    }
    roster = [
        TeamRosterLine(
            player=e.player,
            club=clubs.get(e.player_id),
            is_extra=e.is_extra,
            in_ubf=bool(clubs.get(e.player_id)) and clubs[e.player_id].district.code == UBF,
            halves=halves.get(e.player_id, 0),
        )
        for e in entries
    ]
    # R-TEAM-3: from the roster's clubs read above; one query more only when it fails
    balance = check_district_balance(
        [
            PlayerInfo(
                mid=e.player.mid,
                name="",
                district=clubs[e.player_id].district.code if clubs.get(e.player_id) else None,
            )
            for e in entries
            if not e.is_extra
        ]
    )
    balance_state = ""
    if balance:
        latest = (
            Dispensation.objects.filter(team=team, kind=Dispensation.Kind.DISTRICT_BALANCE)
            .order_by("-id")
            .first()
        )
        balance_state = latest.status if latest else ""
    needs = semifinal = None
    declined = False
    if final_row is not None:  # two queries more for a finalist: the final's matches
        final_matches = list(
            Match.objects.filter(competition=team.competition, stage=Match.Stage.FINAL).only(
                "id", "home_id", "away_id", "boards", "status", "round"
            )
        )
        outlook = final_needs(team.competition, final_snapshot, final_matches)
        needs = outlook.by_team.get(team.pk) if outlook else None
        # and R-TEAM-SEMI-1: every team's answer (a decline moves the others' turns)
        choices = list(
            SemifinalChoice.objects.filter(competition=team.competition).select_related("venue")
        )
        board = board_from(team.competition, final_snapshot, choices)
        semifinal = state_message(board.turn_of(team.pk), board)
        declined = any(c.team_id == team.pk and c.venue_id is None for c in choices)
    return TeamPage(
        team=team,
        roster=roster,
        matches=[
            TeamMatch(
                match=m,
                opponent=m.away if m.home_id == team.pk else m.home,
                home=m.home_id == team.pk,
                counted=counted.get(m.id),
                lineup=dict(sorted(lineups.get(m.id, {}).items())),
            )
            for m in matches
        ],
        status=_team_status(
            team,
            heat_row,
            run,
            final_started=any(m.stage == Match.Stage.FINAL and m.status in DONE for m in matches),
        ),
        heat_row=heat_row,
        final_row=final_row,
        outside_players=[
            line.player for line in roster if not line.in_ubf and line.player.pk in fielded
        ],
        needs=needs,
        semifinal=semifinal,
        semifinal_declined=declined,
        balance=balance,
        balance_state=balance_state,
    )


# ---------------------------------------------------------------------------------------------
# The match page
# ---------------------------------------------------------------------------------------------


@dataclass
class MatchPage:
    match: Match
    boards: list[BoardResult]
    #: team id -> half -> players (R-TEAM-MP-2), empty when not recorded.
    lineups: dict[int, dict[int, list]]
    walkover: object | None = None
    penalties: list[Penalty] = field(default_factory=list)
    #: The home team's result as the standings count it (struck results, W.O.s).
    counted: dict | None = None
    #: The rulings decided at some instance (R-RULING-1..3): (ruling, the decision's text).
    rulings: list[tuple] = field(default_factory=list)

    @property
    def home_lineup(self) -> dict[int, list]:
        return self.lineups.get(self.match.home_id, {})

    @property
    def away_lineup(self) -> dict[int, list]:
        return self.lineups.get(self.match.away_id, {})

    @property
    def lineup_pairs(self) -> list[tuple[Team, dict[int, list]]]:
        return [(self.match.home, self.home_lineup), (self.match.away, self.away_lineup)]

    @property
    def has_contracts(self) -> bool:
        return any(b.contract_room1 or b.contract_room2 for b in self.boards)


def match_page(match_id: int) -> MatchPage:
    """``/lag/match/<id>/``: both teams, IMPs, VP, W.O., every board with both rooms' scores
    (and contracts where the file had them), the line-ups per half, in 5 queries. Raises
    Http404."""
    match = (
        Match.objects.select_related(
            "home", "away", "heat", "competition__season", "walkover__offender"
        )
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise Http404
    boards = list(BoardResult.objects.filter(match=match).order_by("board_number"))
    lineups: dict[int, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    for x in (
        Lineup.objects.filter(match=match)
        .select_related("player")
        .order_by("half", "player__last_name", "player__first_name")
    ):
        lineups[x.team_id][x.half].append(x.player)
    penalties = list(
        Penalty.objects.filter(match=match, status=Penalty.Status.GRANTED).select_related("team")
    )
    snapshot = StandingSnapshot.objects.filter(
        competition_id=match.competition_id,
        scope=(
            StandingSnapshot.Scope.TEAM_FINAL
            if match.stage == Match.Stage.FINAL
            else StandingSnapshot.Scope.TEAM_HEAT
        ),
        heat_id=match.heat_id if match.stage == Match.Stage.KVAL else None,
    ).first()
    counted = None
    for row in snapshot.data if snapshot else ():
        if row.get("team_id") == match.home_id:
            counted = next((r for r in row.get("results") or () if r["match_id"] == match.pk), None)
    try:
        walkover = match.walkover
    except Match.walkover.RelatedObjectDoesNotExist:
        walkover = None
    return MatchPage(
        match=match,
        boards=boards,
        lineups={t: dict(sorted(h.items())) for t, h in lineups.items()},
        walkover=walkover,
        penalties=penalties,
        counted=counted,
        rulings=decided_rulings(match),
    )


def decided_rulings(match: Match) -> list[tuple]:
    """R-RULING-1..3: the match's rulings whose last instance has decided, each with that
    instance (TD, jury, Lagkommission) and its decision; a pending appeal is not shown."""
    out = []
    for r in Ruling.objects.filter(match=match).order_by("board_number", "pk"):
        if r.stage == Ruling.Stage.FINAL:
            out.append((r, r.lagkommission_decision))
        elif r.stage == Ruling.Stage.JURY:
            out.append((r, r.jury_decision))
        elif r.stage == Ruling.Stage.RULED:
            out.append((r, r.ruling))
    return out

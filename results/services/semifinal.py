"""The choosing of SM Lag semifinal venues (R-TEAM-SEMI-1): "the teams choose a semifinal venue
one at a time, starting with the winners of the final, on the last central day right after
play ends; TK reports the choices to SBF".

The order is the DM Lag final's full order (R-TEAM-4: not the DM order) as the recompute stored
it in the final's snapshot, cut at SBF's number of places for UBF
(``TeamCompetition.sm_semifinal_places``), without the teams disqualified or excluded
(R-TEAM-RES-2) and without the teams that declined their place: the next team of the full
order then moves up and chooses last (:func:`ubf.rules.sm.semifinal_turns`). Each answer is a
:class:`teams.models.SemifinalChoice` (a venue, or declined), recorded by TK in the hall or by
the team's captain on the captain's page, only for the team whose turn it is, and only once the
final is complete (its snapshot no longer provisional, no tie of the choosing order left to a
lot not drawn, R-TEAM-TIE-1). TK corrects an answer with a reason. Every answer is logged
(``teams.semifinal_choice.*``); a decline asks for a recompute, since the snapshot's
``sm_choice`` (the "SM 1", "SM 2" of the standings) follows it.

Here in ``results`` because the order is read from the final's snapshot. The list for SBF
(:func:`semifinal_list_rows`, CSV and Excel) has one row per player: order, team, venue,
state, player, MID, club, captain and the captain's contact.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from clubs import clock
from clubs.locks import lock_competition, lock_row
from clubs.permissions import is_tk
from clubs.recompute import request_recompute
from clubs.selectors import player_infos_for
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
    require_open_season,
)
from clubs.spreadsheets import safe_cell, text_cells
from teams.models import (
    RosterEntry,
    SemifinalChoice,
    SemifinalVenue,
    Team,
    TeamCompetition,
)
from ubf.rules.i18n import Message, gettext_noop
from ubf.rules.sm import CHOSEN, TURN, WAITING, semifinal_turns
from ubf.rules.violations import Violation

from ..models import Lot, StandingSnapshot
from .lots import TEAM_FINAL, ties_of

CLAUSE = "R-TEAM-SEMI-1"

#: The words of each state, for pages and the list (the state a page shows, never implied).
STATE_WORDS = {
    CHOSEN: gettext_noop("valt"),
    TURN: gettext_noop("väljer nu"),
    WAITING: gettext_noop("väntar på sin tur"),
    SemifinalChoice.State.DECLINED: gettext_noop("tackat nej"),
    "provisional": gettext_noop("preliminär ordning"),
}


@dataclass
class Turn:
    """A team with one of UBF's semifinal places: ``number`` in the choosing order, its place
    ``rank`` in the final's full order, ``state`` (``chosen``, ``turn``, ``waiting``) and,
    once chosen, the venue and the recorded answer."""

    team_id: int
    name: str
    number: int
    rank: int | None
    state: str
    venue: SemifinalVenue | None = None
    choice: SemifinalChoice | None = None
    team: Team | None = None

    @property
    def words(self) -> str:
        return STATE_WORDS[self.state]


@dataclass
class Board:
    """Where the choosing stands: the places, the venues (each with ``taken``), the turns,
    the teams that declined (with their answers) or were passed over, and ``closed``: why no
    choice can be recorded yet (empty once it can)."""

    competition: TeamCompetition
    places: int
    venues: list[SemifinalVenue] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    declined: list[SemifinalChoice] = field(default_factory=list)
    passed_over: list[tuple[str, object]] = field(default_factory=list)
    closed: list[Violation] = field(default_factory=list)
    #: The order may still change: the final is not complete, or a lot in it is not drawn.
    provisional: bool = True
    #: Every match of the final is in its standings (the snapshot is no longer provisional).
    complete: bool = False
    #: Answers of teams that no longer hold a place (a team disqualified after it chose).
    stale: list[SemifinalChoice] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        return not self.closed

    @property
    def current(self) -> Turn | None:
        return next((t for t in self.turns if t.state == TURN), None)

    @property
    def done(self) -> bool:
        return bool(self.turns) and all(t.state == CHOSEN for t in self.turns)

    def turn_of(self, team_id: int) -> Turn | None:
        return next((t for t in self.turns if t.team_id == team_id), None)

    def venues_with_room(self, keep: SemifinalVenue | None = None) -> list[SemifinalVenue]:
        """The venues a team can still choose (``keep``: the venue it holds, when correcting)."""
        return [
            v
            for v in self.venues
            if v.places is None or v.taken < v.places or (keep is not None and v.pk == keep.pk)
        ]


def _final_snapshot(competition) -> StandingSnapshot | None:
    return StandingSnapshot.objects.filter(
        competition=competition, scope=StandingSnapshot.Scope.TEAM_FINAL, heat__isnull=True
    ).first()


def board_from(
    competition: TeamCompetition,
    snapshot: StandingSnapshot | None,
    choices: list[SemifinalChoice],
    *,
    venues: list[SemifinalVenue] | None = None,
    lots: list[Lot] | None = None,
) -> Board:
    """The board from what a page has read already: the final's ``snapshot``, the
    competition's ``choices`` (with their venues), and for TK's page its ``venues`` (with
    ``taken``) and the final's ``lots`` (an undrawn tie of the choosing order closes it). No
    query of its own."""
    places = competition.sm_semifinal_places or 0
    rows = snapshot.data if snapshot else []
    rows = [r for r in rows if r.get("team_id")]
    by_team = {c.team_id: c for c in choices}
    declined = [c for c in choices if c.state == SemifinalChoice.State.DECLINED]
    excluded = {
        r["team_id"]: r.get("excluded_reason") or r.get("status_label")
        for r in rows
        if r.get("status_label")
    }
    result = semifinal_turns(
        [r["team_id"] for r in rows],
        places,
        excluded,
        declined=[c.team_id for c in declined],
        chosen={c.team_id: c.venue_id for c in choices if c.state == SemifinalChoice.State.CHOSEN},
    )
    row_of = {r["team_id"]: r for r in rows}
    venue_of = {c.venue_id: c.venue for c in choices if c.venue_id}
    board = Board(
        competition=competition,
        places=places,
        venues=venues or [],
        declined=declined,
        passed_over=[(row_of.get(t, {}).get("name", str(t)), why) for t, why in result.passed_over],
    )
    holders = {t.team for t in result.turns}
    board.stale = [
        c for c in choices if c.state == SemifinalChoice.State.CHOSEN and c.team_id not in holders
    ]
    for t in result.turns:
        row = row_of.get(t.team, {})
        board.turns.append(
            Turn(
                team_id=t.team,
                name=row.get("name", ""),
                number=t.number,
                rank=row.get("rank"),
                state=t.state,
                venue=venue_of.get(t.venue),
                choice=by_team.get(t.team),
            )
        )
    closed: list[Violation] = []
    if not places:
        closed.append(
            error(
                CLAUSE,
                gettext_noop(
                    "SBF har inte meddelat hur många platser i SM Lags semifinal UBF får; TK "
                    "anger antalet under Semifinalorter."
                ),
            )
        )
    if snapshot is None or snapshot.provisional:
        closed.append(
            error(
                CLAUSE,
                gettext_noop(
                    "DM-finalen är inte färdigspelad: semifinalorterna väljs på sista "
                    "centraldagen, direkt efter att finalen spelats klart och alla resultat är "
                    "inräknade."
                ),
            )
        )
    elif lots is not None:
        last = max((t.number for t in result.turns), default=0)
        for tie in ties_of(competition, snapshot, heat=None, run=None, lots=lots):
            if tie.lot is None and tie.first <= last:
                closed.append(
                    error(
                        "R-TEAM-TIE-1",
                        gettext_noop(
                            "Lotten mellan %(teams)s om plats %(first)s–%(last)s i finalen är "
                            "inte dragen: ordningen att välja semifinalort är preliminär tills "
                            "TK har dragit den."
                        ),
                        params={
                            "teams": ", ".join(tie.names),
                            "first": tie.first,
                            "last": tie.last,
                        },
                    )
                )
    if venues is not None and not venues:
        closed.append(
            error(
                CLAUSE,
                gettext_noop(
                    "Inga semifinalorter är inlagda: TK lägger in SBF:s orter under Semifinalorter."
                ),
            )
        )
    board.closed = closed
    board.complete = snapshot is not None and not snapshot.provisional
    board.provisional = (
        snapshot is None or snapshot.provisional or any(v.clause == "R-TEAM-TIE-1" for v in closed)
    )
    return board


def _venues(competition) -> list[SemifinalVenue]:
    return list(
        SemifinalVenue.objects.filter(competition=competition).annotate(
            taken=Count("choices", filter=Q(choices__state=SemifinalChoice.State.CHOSEN))
        )
    )


def _choices(competition) -> list[SemifinalChoice]:
    return list(
        SemifinalChoice.objects.filter(competition=competition).select_related(
            "venue", "team", "recorded_by"
        )
    )


def semifinal_board(competition: TeamCompetition, *, with_teams: bool = False) -> Board:
    """The whole board for TK's page, the captain's page and the services, in four queries
    (five ``with_teams``: the turns' teams with their captains, for the list and the page)."""
    board = board_from(
        competition,
        _final_snapshot(competition),
        _choices(competition),
        venues=_venues(competition),
        lots=list(Lot.objects.filter(competition=competition, standing=TEAM_FINAL)),
    )
    if with_teams:
        teams = Team.objects.select_related("captain").in_bulk([t.team_id for t in board.turns])
        for t in board.turns:
            t.team = teams.get(t.team_id)
    return board


# ---------------------------------------------------------------------------------------------
# Recording an answer, correcting one
# ---------------------------------------------------------------------------------------------


def _may_answer(user, team: Team) -> bool:
    """TK, or the team's own captain (its account): the captain records the team's choice on
    the captain's page when its turn comes."""
    if is_tk(user):
        return True
    return bool(user is not None and user.is_authenticated and team.captain_user_id == user.id)


def _venue_problems(board: Board, venue, *, keep=None) -> list[Violation]:
    if venue is None:
        return [error(CLAUSE, gettext_noop("Välj en semifinalort, eller tacka nej till platsen."))]
    known = {v.pk: v for v in board.venues}
    if venue.pk not in known:
        return [
            error(
                CLAUSE,
                gettext_noop("%(venue)s är inte en av SBF:s semifinalorter för %(competition)s."),
                params={"venue": str(venue), "competition": str(board.competition)},
            )
        ]
    if known[venue.pk] not in board.venues_with_room(keep=keep):
        v = known[venue.pk]
        return [
            error(
                CLAUSE,
                gettext_noop(
                    "%(venue)s är full: SBF har gett orten %(places)s plats(er) för UBF:s lag, "
                    "och de är redan valda."
                ),
                params={"venue": v.name, "places": v.places},
            )
        ]
    return []


def _moved_up(before: Board, after: Board) -> list[str]:
    had = {t.team_id for t in before.turns}
    return [t.name for t in after.turns if t.team_id not in had]


@transaction.atomic
def record_semifinal_choice(
    user, team: Team, *, venue: SemifinalVenue | None = None, decline: bool = False, reason=""
) -> SemifinalChoice:
    """R-TEAM-SEMI-1: the answer of the team whose turn it is: the venue it chooses, or its
    place declined (``decline``, with a reason: the next team of the full order moves up).
    Who: TK, or the team's captain. Refused (nothing saved): the final not complete (or a lot
    of the choosing order not drawn, SBF's number of places or the venues not entered), a team
    without a place, a team whose turn it is not (the team choosing now is named), a team that
    has answered already (TK corrects it), no venue or a venue that is full or not SBF's."""
    require(
        _may_answer(user, team),
        gettext_noop(
            "Bara UBF TK, eller lagets kapten när det är lagets tur, registrerar valet av "
            "semifinalort (R-TEAM-SEMI-1)."
        ),
    )
    competition = TeamCompetition.objects.select_related("season").get(pk=team.competition_id)
    require_open_season(competition.season)
    lock_competition(competition.pk)
    board = semifinal_board(competition)
    problems = list(board.closed)
    turn = board.turn_of(team.pk)
    answered = SemifinalChoice.objects.filter(team=team).first()
    if answered is not None:
        problems.append(
            error(
                CLAUSE,
                gettext_noop(
                    "%(team)s har redan svarat (%(answer)s); TK rättar ett svar med motivering."
                ),
                params={"team": team.name, "answer": str(answered)},
            )
        )
    elif turn is None:
        problems.append(
            error(
                CLAUSE,
                gettext_noop(
                    "%(team)s har ingen av UBF:s %(places)s platser i SM Lags semifinal "
                    "(platserna går i finalens fullständiga ordning, R-TEAM-4)."
                ),
                params={"team": team.name, "places": board.places},
            )
        )
    elif turn.state != TURN and board.current is not None:
        problems.append(
            error(
                CLAUSE,
                gettext_noop(
                    "Det är inte %(team)s tur att välja: nu väljer %(current)s (nummer "
                    "%(number)s). Lagen väljer en i taget i finalens ordning."
                ),
                params={
                    "team": team.name,
                    "current": board.current.name,
                    "number": board.current.number,
                },
            )
        )
    if decline:
        problems += reason_required(reason, CLAUSE)
        if venue is not None:
            problems.append(
                error(CLAUSE, gettext_noop("Välj antingen en semifinalort eller att tacka nej."))
            )
    else:
        problems += _venue_problems(board, venue)
    raise_on_errors(problems)

    choice = SemifinalChoice.objects.create(
        competition=competition,
        team=team,
        state=SemifinalChoice.State.DECLINED if decline else SemifinalChoice.State.CHOSEN,
        venue=None if decline else venue,
        recorded_at=clock.now(),
        recorded_by=user if user is not None and user.is_authenticated else None,
        reason=(reason or "").strip(),
    )
    data = {"team": team.name, "number": turn.number, "rank": turn.rank}
    if decline:
        after = semifinal_board(competition)
        data["moved_up"] = _moved_up(board, after)
    else:
        data["venue"] = venue.name
    record_decision(
        f"teams.semifinal_choice.{'declined' if decline else 'chosen'}",
        choice,
        user=user,
        reason=(reason or "").strip(),
        clause=CLAUSE,
        season=competition.season,
        **data,
    )
    if decline:  # the snapshot's "SM n" follows the places (results.services.recompute.teams)
        request_recompute(competition.pk)
    return choice


@transaction.atomic
def correct_semifinal_choice(
    user, choice: SemifinalChoice, *, venue: SemifinalVenue | None = None, decline=False, reason=""
) -> SemifinalChoice:
    """R-TEAM-SEMI-1, R-GEN-3: TK corrects a recorded answer, with a reason: another venue, a
    declined place, or a decline taken back (a venue for a team that had declined), which is
    refused when a team that would lose its place has chosen already (correct that one first)."""
    require(
        is_tk(user),
        gettext_noop("Bara UBF TK rättar ett val av semifinalort (R-TEAM-SEMI-1)."),
    )
    competition = TeamCompetition.objects.select_related("season").get(pk=choice.competition_id)
    require_open_season(competition.season)
    lock_competition(competition.pk)
    choice = lock_row(
        SemifinalChoice.objects.select_related("team", "venue"),
        choice.pk,
        competition="competition_id",
    )
    board = semifinal_board(competition)
    problems = reason_required(reason, CLAUSE)
    old = str(choice)
    was_declined = choice.state == SemifinalChoice.State.DECLINED
    if decline:
        if was_declined:
            problems.append(
                error(CLAUSE, gettext_noop("Laget har redan tackat nej; inget ändras."))
            )
        if venue is not None:
            problems.append(
                error(CLAUSE, gettext_noop("Välj antingen en semifinalort eller att tacka nej."))
            )
    else:
        keep = None if was_declined else choice.venue
        problems += _venue_problems(board, venue, keep=keep)
        if venue is not None and not was_declined and venue.pk == choice.venue_id:
            problems.append(
                error(
                    CLAUSE,
                    gettext_noop("Laget har redan valt %(venue)s; inget ändras."),
                    params={"venue": venue.name},
                )
            )
        if was_declined:
            others = [c for c in _choices(competition) if c.pk != choice.pk]
            restored = board_from(competition, _final_snapshot(competition), others)
            if restored.turn_of(choice.team_id) is None:
                problems.append(
                    error(
                        CLAUSE,
                        gettext_noop(
                            "%(team)s skulle inte få någon plats: UBF:s platser är redan "
                            "tagna i finalens ordning."
                        ),
                        params={"team": choice.team.name},
                    )
                )
            holders = {t.team_id for t in restored.turns}
            lost = [t for t in board.turns if t.team_id not in holders and t.choice is not None]
            for t in lost:
                problems.append(
                    error(
                        CLAUSE,
                        gettext_noop(
                            "%(other)s har redan svarat och skulle förlora sin plats om "
                            "%(team)s tar tillbaka sitt nej; rätta först %(other)s svar."
                        ),
                        params={"other": t.name, "team": choice.team.name},
                    )
                )
    raise_on_errors(problems)

    choice.state = SemifinalChoice.State.DECLINED if decline else SemifinalChoice.State.CHOSEN
    choice.venue = None if decline else venue
    choice.reason = reason.strip()
    choice.recorded_by = user
    choice.recorded_at = clock.now()
    choice.save()
    after = semifinal_board(competition)
    record_decision(
        "teams.semifinal_choice.corrected",
        choice,
        user=user,
        reason=reason.strip(),
        clause=CLAUSE,
        season=competition.season,
        before=old,
        after=str(choice),
        moved_up=_moved_up(board, after),
    )
    if decline or was_declined:
        request_recompute(competition.pk)
    return choice


# ---------------------------------------------------------------------------------------------
# The list for SBF
# ---------------------------------------------------------------------------------------------


def _header() -> list[str]:
    return [
        _("Ordning"),
        _("Lag"),
        _("Semifinalort"),
        _("Speldagar"),
        _("Status"),
        _("Spelare"),
        _("MID"),
        _("Klubb"),
        _("Lagkapten"),
        _("Kaptenens telefon"),
        _("Kaptenens e-post"),
        _("Kaptenens adress"),
    ]


def _days(venue: SemifinalVenue | None) -> str:
    if venue is None or venue.first_date is None:
        return ""
    if venue.last_date and venue.last_date != venue.first_date:
        return f"{venue.first_date.isoformat()} – {venue.last_date.isoformat()}"
    return venue.first_date.isoformat()


def semifinal_list_rows(board: Board) -> list[list[str]]:
    """The list TK reports to SBF, one row per player of each team with a place, in choosing
    order: the order, the team, the venue chosen and its days, the state shown ("valt",
    "väljer nu", "väntar på sin tur"; "preliminär ordning" while the order may change), the
    player's name, MID and club this season, the captain's name and contact. Three queries
    (the rosters, the players' clubs)."""
    season = board.competition.season
    ids = [t.team_id for t in board.turns]
    roster: dict[int, list] = {i: [] for i in ids}
    for entry in RosterEntry.objects.filter(team_id__in=ids).select_related("player"):
        roster[entry.team_id].append(entry.player)
    infos = player_infos_for(season, [p for players in roster.values() for p in players])
    out = []
    for t in board.turns:
        team = t.team
        state = _(STATE_WORDS["provisional"] if board.provisional else STATE_WORDS[t.state])
        captain = team.captain.full_name if team else ""
        for player in roster.get(t.team_id) or [None]:
            out.append(
                [
                    str(t.number),
                    t.name,
                    t.venue.name if t.venue else "",
                    _days(t.venue),
                    state,
                    player.full_name if player else "",
                    player.mid if player else "",
                    infos[player.mid].club if player else "",
                    captain,
                    team.phone if team else "",
                    team.email if team else "",
                    team.address if team else "",
                ]
            )
    return out


def semifinal_list_csv(board: Board) -> str:
    """The list as CSV for Excel (semicolon, UTF-8 with a byte order mark), formula-safe."""
    buf = io.StringIO()
    buf.write("\ufeff")
    writer = csv.writer(buf, delimiter=";", lineterminator="\r\n")
    writer.writerow([safe_cell(h) for h in _header()])
    for row in semifinal_list_rows(board):
        writer.writerow([safe_cell(v) for v in row])
    return buf.getvalue()


def semifinal_list_xlsx(board: Board) -> bytes:
    """The list as an Excel workbook: a bold header, every text cell a string, never a
    formula (``clubs.spreadsheets.text_cells``)."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = _("SM-semifinal")
    wb.properties.title = f"{board.competition}: {_('SM-semifinal')}"
    ws.append(_header())
    text_cells(ws[1])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in semifinal_list_rows(board):
        ws.append(row)
        text_cells(ws[ws.max_row])
    ws.freeze_panes = "A2"
    for col, width in zip("ABCDEFGHIJKL", (8, 24, 18, 24, 18, 26, 10, 24, 24, 16, 26, 30)):
        ws.column_dimensions[col].width = width
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def state_message(turn: Turn | None, board: Board) -> Message | None:
    """The team's state in words for its pages ("valt: Örebro", "väljer nu", …)."""
    if turn is None:
        return None
    if board.provisional:
        return Message(
            gettext_noop("SM-semifinal: nummer %(number)s att välja ort (preliminär ordning)."),
            {"number": turn.number},
        )
    if turn.state == CHOSEN:
        return Message(
            gettext_noop("SM-semifinal: har valt %(venue)s (nummer %(number)s att välja)."),
            {"venue": turn.venue.name if turn.venue else "", "number": turn.number},
        )
    if turn.state == TURN:
        return Message(
            gettext_noop("SM-semifinal: laget väljer ort nu (nummer %(number)s)."),
            {"number": turn.number},
        )
    return Message(
        gettext_noop("SM-semifinal: nummer %(number)s att välja ort; väntar på sin tur."),
        {"number": turn.number},
    )

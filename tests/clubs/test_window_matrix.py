"""The season's clock, enforced: every action × window × role, as the regulations say.

The table below is the expectation, worked out by hand from the regulations and the dates of
the test season (the factories' 2016-2017 dates, SPEC R-PAIR-CAL-1 style):

* team heat "Lagkval" 5-6 Nov 2016, its last entry day 29 Oct (R-TEAM-REG-2), arranged by
  the club whose official is "klubbfunktionär"; DM Lag heat registration deadline 15 Sep 2016,
  final 4-5 Mar 2017; protest deadline for SM semifinal places 31 Mar 2017 (R-TEAM-RES-5);
* pair heat (Open) 10 Feb 2017 by the same club; heat registration deadline 1 Dec 2016
  (R-PAIR-KVAL-1); no new pair after the first session's day (R-PAIR-KVAL-6); final 22 Apr
  2017, answers to a seat offer up to that day (R-REPL-5).

A captain or club official asks TK for a roster change or line-up once its window has closed
(``begära ... hos TK``, a change request): refused while the window is open (the change is
made directly) and for TK (who makes it directly, with a reason).

Cells: ``ok`` saved; ``ok+beslut`` saved by TK outside the window, with its reason recorded
as a TK decision (``*.outside_window``); ``nekad`` no permission; a clause: refused with that
clause in the message. Every refusal is checked to have saved nothing. For the upload the
test file is not a result file: ``fil granskad`` means the window let it through and the
file itself was then examined (and refused for its content).

The clock is moved with ``clock.frozen``; nothing sleeps.
"""

from datetime import date, datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from clubs import clock
from clubs.models import Decision, FinalSeat, SeatOffer
from clubs.services.base import ServiceError
from clubs.services.seats import answer_offer
from pairs.models import PairEntry, PairHeat
from pairs.services.entries import enter_pair
from pairs.services.heats import register_pair_heat
from results.models import ResultUpload
from results.services.uploads import UploadRejected, upload_team_results
from teams.models import Dispensation, Lineup, RosterChangeRequest, RosterEntry, Team
from teams.services.change_requests import request_roster_change
from teams.services.decisions import file_protest
from teams.services.entries import (
    enter_team,
    record_lineup,
    request_extra_player,
    update_roster,
)
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    MatchFactory,
    PairCompetitionFactory,
    PairEntryFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
    tk_group_member,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]

REASON = "TK-beslut efter stängning: anmälan kom in i tid per e-post."

ROLES = ("klubbfunktionär", "lagkapten", "TK")
WINDOWS = ("före", "öppet", "stängt", "efter spel")

# action: {window: (date, {role: expected})}
OK_ALL = {"klubbfunktionär": "ok", "lagkapten": "ok", "TK": "ok"}


def _club_and_tk(club_official, tk, captain="nekad"):
    return {"klubbfunktionär": club_official, "lagkapten": captain, "TK": tk}


MATRIX = {
    "anmäla kvalheat": {
        "före": ("2016-06-01", _club_and_tk("ok", "ok")),
        "öppet": ("2016-12-01", _club_and_tk("ok", "ok")),
        "stängt": ("2016-12-02", _club_and_tk("R-PAIR-KVAL-1", "ok+beslut")),
        "efter spel": ("2017-02-16", _club_and_tk("R-PAIR-KVAL-1", "ok+beslut")),
    },
    "anmäla par": {
        "före": ("2016-12-15", _club_and_tk("ok", "ok")),
        "öppet": ("2017-02-10", _club_and_tk("ok", "ok")),
        "stängt": ("2017-02-11", _club_and_tk("R-PAIR-KVAL-6", "ok+beslut")),
        "efter spel": ("2017-03-01", _club_and_tk("R-PAIR-KVAL-6", "ok+beslut")),
    },
    "anmäla lag": {
        "före": ("2016-09-01", _club_and_tk("ok", "ok")),
        "öppet": ("2016-10-29", _club_and_tk("ok", "ok")),
        "stängt": ("2016-10-30", _club_and_tk("R-TEAM-REG-2", "ok+beslut")),
        "efter spel": ("2016-12-02", _club_and_tk("R-TEAM-REG-2", "ok+beslut")),
    },
    "ändra laguppställning": {
        "före": ("2016-09-01", OK_ALL),
        "öppet": ("2016-11-06", OK_ALL),
        "stängt": (
            "2016-11-07",
            {"klubbfunktionär": "R-TEAM-2", "lagkapten": "R-TEAM-2", "TK": "ok+beslut"},
        ),
        "efter spel": (
            "2017-06-01",
            {"klubbfunktionär": "R-TEAM-2", "lagkapten": "R-TEAM-2", "TK": "ok+beslut"},
        ),
    },
    "registrera matchuppställning": {
        "före": ("2016-10-20", OK_ALL),
        "öppet": ("2016-11-05", OK_ALL),
        "stängt": (
            "2016-11-06",
            {"klubbfunktionär": "R-TEAM-2", "lagkapten": "R-TEAM-2", "TK": "ok+beslut"},
        ),
        "efter spel": (
            "2016-12-02",
            {"klubbfunktionär": "R-TEAM-2", "lagkapten": "R-TEAM-2", "TK": "ok+beslut"},
        ),
    },
    # Issue 11: what the windows no longer allow a captain asks TK for (a change request TK
    # decides); while the window is open the change is made directly, and TK never asks.
    "begära laguppställningsändring hos TK": {
        "före": (
            "2016-09-01",
            {"klubbfunktionär": "R-TEAM-2", "lagkapten": "R-TEAM-2", "TK": "R-GEN-3"},
        ),
        "öppet": (
            "2016-11-06",
            {"klubbfunktionär": "R-TEAM-2", "lagkapten": "R-TEAM-2", "TK": "R-GEN-3"},
        ),
        "stängt": ("2016-11-07", {"klubbfunktionär": "ok", "lagkapten": "ok", "TK": "R-GEN-3"}),
        "efter spel": ("2017-06-01", {"klubbfunktionär": "ok", "lagkapten": "ok", "TK": "R-GEN-3"}),
    },
    "begära matchuppställning hos TK": {
        "före": (
            "2016-10-20",
            {"klubbfunktionär": "R-TEAM-2", "lagkapten": "R-TEAM-2", "TK": "R-GEN-3"},
        ),
        "öppet": (
            "2016-11-05",
            {"klubbfunktionär": "R-TEAM-2", "lagkapten": "R-TEAM-2", "TK": "R-GEN-3"},
        ),
        "stängt": ("2016-11-06", {"klubbfunktionär": "ok", "lagkapten": "ok", "TK": "R-GEN-3"}),
        "efter spel": ("2016-12-02", {"klubbfunktionär": "ok", "lagkapten": "ok", "TK": "R-GEN-3"}),
    },
    # R-TEAM-5: sought before the occasion (6 Nov 2016), TK included: a dispensation after the
    # player played is not a dispensation.
    "söka dispens": {
        "före": ("2016-10-01", OK_ALL),
        "öppet": ("2016-11-06", OK_ALL),
        "stängt": ("2016-11-07", dict.fromkeys(ROLES, "R-TEAM-5")),
        "efter spel": ("2017-06-01", dict.fromkeys(ROLES, "R-TEAM-5")),
    },
    # No results before the first day of play (5 Nov 2016); no closing day.
    "ladda upp resultat": {
        "före": ("2016-11-04", _club_and_tk("R-TEAM-1", "R-TEAM-1")),
        "öppet": ("2016-11-05", _club_and_tk("fil granskad", "fil granskad")),
        "stängt": ("2016-11-06", _club_and_tk("fil granskad", "fil granskad")),
        "efter spel": ("2017-06-01", _club_and_tk("fil granskad", "fil granskad")),
    },
    # R-TEAM-RES-5: "Later protests are refused", whoever files them.
    "protestera": {
        "före": ("2016-10-01", OK_ALL),
        "öppet": ("2017-03-31", OK_ALL),
        "stängt": ("2017-04-01", dict.fromkeys(ROLES, "R-TEAM-RES-5")),
        "efter spel": ("2017-05-01", dict.fromkeys(ROLES, "R-TEAM-RES-5")),
    },
    "svara på erbjuden finalplats": {
        "före": ("2017-04-05", _club_and_tk("ok", "ok")),
        "öppet": ("2017-04-22", _club_and_tk("ok", "ok")),
        "stängt": ("2017-04-23", _club_and_tk("R-REPL-5", "ok+beslut")),
        "efter spel": ("2017-05-01", _club_and_tk("R-REPL-5", "ok+beslut")),
    },
}


@pytest.fixture
def world():
    season = SeasonFactory()
    club = ClubFactory(name="BK Enköping")
    team_comp = TeamCompetitionFactory(season=season)
    team_heat = TeamHeatFactory(
        competition=team_comp, organisers=[club], entries_close=date(2016, 10, 29)
    )
    pair_comp = PairCompetitionFactory(season=season)
    pair_heat = PairHeatFactory(competition=pair_comp, clubs=[club])
    official = ClubOfficialFactory(club=club).user
    captain = UserFactory()
    team = TeamFactory(heat=team_heat, players=6, name="Enköping 1")
    team.captain_user = captain
    team.save()
    opponent = TeamFactory(heat=team_heat, players=4, name="Enköping 2")
    match = MatchFactory(home=team, away=opponent, played_on=date(2016, 11, 5))
    # A vacated final seat offered on 1 Apr 2017 to a pair of the club.
    holder = PairEntryFactory(
        heat=pair_heat, player1=member(season, club), player2=member(season, club)
    )
    seat = FinalSeat.objects.create(
        competition=pair_comp,
        origin_heat=pair_heat,
        holder=holder,
        source=FinalSeat.Source.ALLOCATION,
        status=FinalSeat.Status.VACATED,
    )
    nxt = PairEntryFactory(
        heat=pair_heat, player1=member(season, club), player2=member(season, club)
    )
    offer = SeatOffer.objects.create(
        seat=seat, entry=nxt, offered_at=timezone.make_aware(datetime(2017, 4, 1, 10, 0))
    )
    return {
        "season": season,
        "club": club,
        "pair_comp": pair_comp,
        "pair_heat": pair_heat,
        "team_heat": team_heat,
        "team": team,
        "match": match,
        "offer": offer,
        "users": {"klubbfunktionär": official, "lagkapten": captain, "TK": tk_group_member()},
    }


def _do(action: str, w: dict, user):
    season, club = w["season"], w["club"]
    if action == "anmäla kvalheat":
        return register_pair_heat(
            user,
            w["pair_comp"],
            [club],
            name="Enköpingskvalet",
            heat_type="silver",
            first_date=date(2017, 2, 15),
            venue="Enköping",
            table_fee="40",
            reason=REASON,
        )
    if action == "anmäla par":
        return enter_pair(
            user, w["pair_heat"], member(season, club).mid, member(season, club).mid, reason=REASON
        )
    if action == "anmäla lag":
        mids = [member(season, club).mid for _ in range(4)]
        return enter_team(
            user,
            w["team_heat"],
            name="Enköping 6",
            captain_mid=mids[0],
            address="Storgatan 1, 745 30 Enköping",
            phone="0171-123 45",
            email="kapten@example.se",
            player_mids=mids,
            reason=REASON,
        )
    if action == "ändra laguppställning":
        team = w["team"]
        leaving = team.roster.exclude(player=team.captain).first().player.mid
        return update_roster(
            user, team, add_mids=[member(season, club).mid], remove_mids=[leaving], reason=REASON
        )
    if action == "registrera matchuppställning":
        team = w["team"]
        mids = list(team.roster.values_list("player__mid", flat=True))[:4]
        return record_lineup(
            user, w["match"], team, half1_mids=mids, half2_mids=mids, reason=REASON
        )
    if action == "begära laguppställningsändring hos TK":
        team = w["team"]
        leaving = team.roster.exclude(player=team.captain).first().player.mid
        return request_roster_change(
            user, team, add_mids=[member(season, club).mid], remove_mids=[leaving], reason=REASON
        )
    if action == "begära matchuppställning hos TK":
        team = w["team"]
        mids = list(team.roster.values_list("player__mid", flat=True))[:4]
        return request_roster_change(
            user, team, match=w["match"], half1_mids=mids, half2_mids=mids, reason=REASON
        )
    if action == "söka dispens":
        return request_extra_player(
            user, w["team"], member(season, club).mid, occasion="", occasion_date=date(2016, 11, 6)
        )
    if action == "ladda upp resultat":
        return upload_team_results(
            user, data=b"inte en resultatfil\n", filename="lagkval.txt", heat=w["team_heat"]
        )
    if action == "protestera":
        return file_protest(
            user,
            w["team"],
            concerning="sm_semifinal",
            text="Spelare 100123 spelade för ett annat lag i Västmanland.",
            filed_on=clock.today(),
        )
    if action == "svara på erbjuden finalplats":
        return answer_offer(user, w["offer"], SeatOffer.Answer.ACCEPTED, reason=REASON)
    raise AssertionError(action)


def _snapshot():
    return (
        PairHeat.objects.count(),
        PairEntry.objects.count(),
        Team.objects.count(),
        sorted(RosterEntry.objects.values_list("team_id", "player_id")),
        Lineup.objects.count(),
        RosterChangeRequest.objects.count(),
        Dispensation.objects.count(),
        ResultUpload.objects.count(),
        Decision.objects.count(),
        sorted(SeatOffer.objects.values_list("pk", "answer")),
    )


def _outcome(action: str, w: dict, user) -> str:
    before = _snapshot()
    decisions_before = set(Decision.objects.values_list("pk", flat=True))
    try:
        _do(action, w, user)
    except PermissionDenied:
        outcome = "nekad"
    except ServiceError as exc:
        clauses = [v.clause for v in exc.violations]
        outcome = clauses[0] if len(set(clauses)) == 1 else "/".join(clauses)
        text = " ".join(exc.messages("sv"))
        if f"({clauses[0]})" not in text:
            outcome += " (paragrafen saknas i meddelandet)"
    except UploadRejected as exc:
        codes = {p.code for p in exc.problems}
        outcome = exc.problems[0].clause if codes == {"before-play"} else "fil granskad"
    else:
        new = Decision.objects.exclude(pk__in=decisions_before)
        late = [d for d in new if d.action.endswith(".outside_window")]
        if late and late[0].reason != REASON:
            return "ok+beslut utan skäl"
        return "ok+beslut" if late else "ok"
    if _snapshot() != before:
        outcome += " (men något sparades!)"
    return outcome


@pytest.mark.parametrize("action", list(MATRIX))
def test_window_matrix(world, action):
    """R-PAIR-KVAL-1, R-PAIR-KVAL-6, R-TEAM-REG-2, R-TEAM-2, R-TEAM-5, R-TEAM-RES-5, R-REPL-5,
    R-GEN-3: each action in each window for each role."""
    rows = []
    for window in WINDOWS:
        day, expected = MATRIX[action][window]
        for role in ROLES:
            user = world["users"][role]
            with transaction.atomic():
                with clock.frozen(f"{day} 12:00"):
                    got = _outcome(action, world, user)
                transaction.set_rollback(True)
            rows.append((action, window, day, role, expected[role], got))
    wrong = [r for r in rows if r[4] != r[5]]
    table = "\n".join(
        f"{'!!' if r[4] != r[5] else '  '} {r[0]:<30} {r[1]:<10} {r[2]} {r[3]:<16} "
        f"väntat {r[4]:<14} fick {r[5]}"
        for r in rows
    )
    assert not wrong, "Fönstermatrisen stämmer inte:\n" + table

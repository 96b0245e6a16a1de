"""Who holds a seat in the DM Lag final after the places were set and something changed: a
team disqualified, a corrected heat file (issue 20). Through the real uploads, the real TK
decision and the real recompute (no mock): what a person sees is the seat rows, the final's
standings and the /lag/ page (R-TEAM-ADV-1, R-ALLOC-3, R-ALLOC-6, R-TEAM-RES-3, R-TEAM-RES-4).

Heats of 6 and 4 teams, every team beating every higher-numbered team of its heat (the ranking
follows the numbering): 10 qualifying teams, a final of 8 (R-TEAM-ADV-1: 8 below 20), shared
8 × 6/10 = 4.8 and 8 × 4/10 = 3.2: 4 + 3 whole seats, the remaining one to the larger fraction
(0.8): 5 and 3 (R-ALLOC-3)."""

from __future__ import annotations

import itertools

import pytest

from clubs import clock
from clubs.models import FinalSeat, SeatOffer
from clubs.services.seats import answer_offer, override_offer
from portal.selectors.lag import lag_page
from results.models import AllocationRun, StandingSnapshot
from results.services.uploads import upload_team_results
from teams.models import Lineup, Match, Team
from teams.services.decisions import disqualify_team
from tests.factories import (
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
)

pytestmark = pytest.mark.django_db

DAY = "2016-11-07"  # after both heats (5-6 Nov)


@pytest.fixture
def tk():
    return UserFactory(username="tk-seats", is_superuser=True, is_staff=True)


def heat_of(competition, n, prefix):
    heat = TeamHeatFactory(competition=competition, name=f"Lagkval {prefix}")
    teams = [
        TeamFactory(heat=heat, number=i + 1, name=f"{prefix}{i + 1}", players=6) for i in range(n)
    ]
    pairs = list(itertools.combinations(range(n), 2))
    for rnd, (a, b) in enumerate(pairs, start=1):
        Match.objects.create(
            competition=competition,
            heat=heat,
            stage="kval",
            round=rnd,
            home=teams[a],
            away=teams[b],
            boards=16,
        )
    return heat, teams


def heat_file(n: int, *, winner: int | None = None) -> bytes:
    """A heat's CSV (docs/result-formats.md): the lower number wins each match by (b - a) × 5
    IMPs, or team ``winner`` (a number) wins all its matches by 40."""
    lines = ["round;home;away;imps_home;imps_away"]
    for rnd, (a, b) in enumerate(itertools.combinations(range(1, n + 1), 2), start=1):
        home, away = 30 + (b - a) * 5, 30
        if winner == b:
            home, away = 10, 50
        elif winner == a:
            home, away = 50, 10
        lines.append(f"{rnd};{a};{b};{home};{away}")
    return ("\n".join(lines) + "\n").encode()


def upload(django_capture_on_commit_callbacks, user, heat, data):
    with clock.frozen(DAY), django_capture_on_commit_callbacks(execute=True):
        upload_team_results(user, heat=heat, data=data, filename="kval.csv")


def held(competition) -> set[str]:
    """The teams that hold a seat, as the seat rows say (not vacated, with a team)."""
    return set(
        FinalSeat.objects.filter(competition=competition, holder__isnull=False)
        .exclude(status="vacated")
        .values_list("holder__team__name", flat=True)
    )


def finalists_on_the_page(competition) -> set[str]:
    return {t.name for t in lag_page(competition.season).final_teams}


def final_standing_teams(competition) -> set[str]:
    snap = StandingSnapshot.objects.get(competition=competition, scope="team_final")
    names = dict(Team.objects.filter(competition=competition).values_list("id", "name"))
    return {names[r["team_id"]] for r in snap.data}


@pytest.fixture
def final_of_eight(django_capture_on_commit_callbacks, tk):
    competition = TeamCompetitionFactory()
    big, big_teams = heat_of(competition, 6, "A")
    small, small_teams = heat_of(competition, 4, "B")
    upload(django_capture_on_commit_callbacks, tk, big, heat_file(6))
    upload(django_capture_on_commit_callbacks, tk, small, heat_file(4))
    run = AllocationRun.objects.get(competition=competition)
    assert run.provisional is False and run.final_size == 8
    assert held(competition) == {"A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3"}
    # TK has drawn one match of the final between two seated teams: the final has standings.
    Match.objects.create(
        competition=competition,
        stage="final",
        round=1,
        home=small_teams[0],
        away=small_teams[1],
        boards=16,
    )
    return competition, big, big_teams, small, small_teams


def test_r_team_res_4_disqualified_winner_leaves_the_final_and_the_next_team_is_seated(
    final_of_eight, django_capture_on_commit_callbacks, tk, client
):
    competition, big, big_teams, _small, _small_teams = final_of_eight
    winner = big_teams[0]
    # R-TEAM-RES-3: A1 fielded a seventh player without a dispensation in its first match.
    seventh = member(season=competition.season)
    first = Match.objects.filter(heat=big, home=winner).order_by("round").first()
    for player in [e.player for e in winner.roster.all()][:3] + [seventh]:
        for half in (1, 2):
            Lineup.objects.create(match=first, team=winner, player=player, half=half)
    with clock.frozen(DAY), django_capture_on_commit_callbacks(execute=True):
        disqualify_team(tk, winner, clause="R-TEAM-RES-3", reason="Sjunde spelare utan dispens")

    run = AllocationRun.objects.get(competition=competition)
    # 9 teams took part (A1 disqualified counts neither in the size nor the share): still 8
    # seats; 8 × 5/9 = 4.44 and 8 × 4/9 = 3.56: 4 + 3, the remaining seat to B (0.56 > 0.44).
    assert run.qualifying_entries == 9 and run.final_size == 8
    assert {v["label"]: v["seats"] for v in run.explanation["venues"]} == {
        "Lagkval A": 4,
        "Lagkval B": 4,
    }
    expected = {"A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4"}
    assert held(competition) == expected
    assert finalists_on_the_page(competition) == expected
    assert final_standing_teams(competition) == expected  # read after the seats were set
    html = client.get("/lag/").content.decode()
    final = html[html.index('id="final"') :]
    final = final[: final.index("</section>")]
    assert ">B4</a>" in final and ">A1</a>" not in final


def test_r_alloc_6_corrected_heat_file_moves_a_provisional_seat_and_its_team_out(
    final_of_eight, django_capture_on_commit_callbacks, tk, client
):
    competition, big, _big_teams, _small, _small_teams = final_of_eight
    # The corrected file: A6 won all its matches; A5 is now sixth, below A's 5 seats.
    upload(django_capture_on_commit_callbacks, tk, big, heat_file(6, winner=6))
    expected = {"A6", "A1", "A2", "A3", "A4", "B1", "B2", "B3"}
    assert held(competition) == expected
    assert finalists_on_the_page(competition) == expected
    assert final_standing_teams(competition) == expected
    html = client.get("/lag/").content.decode()
    final = html[html.index('id="final"') :]
    final = final[: final.index("</section>")]
    assert ">A6</a>" in final and ">A5</a>" not in final


def test_r_repl_5_tk_offers_a_team_seat_out_of_the_chains_order_and_the_states_follow(
    final_of_eight, django_capture_on_commit_callbacks, tk, client
):
    """R-TEAM-REPL-1, R-REPL-1, R-REPL-5, R-REPL-6: A1 withdraws; the chain asks A6 (its heat's
    nearest eliminated team); A6 declines; TK offers the seat to B4 out of the chain's order,
    with a reason; B4 accepts and plays with A1's number."""
    from clubs.services.base import ServiceError
    from teams.services.entries import withdraw_team

    competition, _big, big_teams, _small, small_teams = final_of_eight
    a1, a6, b4 = big_teams[0], big_teams[5], small_teams[3]
    seat = FinalSeat.objects.get(competition=competition, holder=a1)
    assert seat.state == FinalSeat.State.PROVISIONAL
    number = seat.number
    with clock.frozen(DAY), django_capture_on_commit_callbacks(execute=True):
        withdraw_team(tk, a1, reason="Två spelare sjuka")
    seat.refresh_from_db()
    offer = SeatOffer.objects.get(seat=seat, answer="pending")
    assert offer.entry_id == a6.pk and seat.state == FinalSeat.State.OFFERED
    with clock.frozen(DAY), pytest.raises(ServiceError) as refused:
        override_offer(tk, seat, b4, reason="Styrelsens beslut")
    assert "väntar på svar" in str(refused.value)  # one offer at a time (R-REPL-5)

    with clock.frozen(DAY):  # the answer, before the recompute moves the chain on
        answer_offer(tk, offer, "declined")
    assert seat.state == FinalSeat.State.DECLINED
    with clock.frozen(DAY), pytest.raises(ServiceError) as refused:
        override_offer(tk, seat, small_teams[0], reason="Styrelsens beslut")
    assert "har redan en finalplats" in str(refused.value)
    with clock.frozen(DAY), pytest.raises(ServiceError):
        override_offer(tk, seat, b4, reason=" ")  # TK always gives a reason
    with clock.frozen(DAY), django_capture_on_commit_callbacks(execute=True):
        tk_offer = override_offer(tk, seat, b4, reason="B4 närmast enligt TK:s beslut")
    assert SeatOffer.objects.get(seat=seat, answer="pending") == tk_offer  # kept by the chain
    assert tk_offer.reason == "Erbjuden på TK:s beslut: B4 närmast enligt TK:s beslut (R-REPL-5)"

    with clock.frozen(DAY), django_capture_on_commit_callbacks(execute=True):
        answer_offer(tk, tk_offer, "accepted")
    seat.refresh_from_db()
    assert seat.state == FinalSeat.State.REPLACED
    own = FinalSeat.objects.get(competition=competition, holder=b4)
    assert own.state == FinalSeat.State.ACCEPTED and own.number == number
    expected = {"A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4"}
    assert held(competition) == expected
    assert finalists_on_the_page(competition) == expected
    assert final_standing_teams(competition) == expected


def test_r_team_repl_1_a_withdrawing_team_gives_its_seat_up_in_the_service(final_of_eight, tk):
    """R-TEAM-REPL-1, R-REPL-1: as a pair that declines its seat, a team that withdraws gives
    its seat up at once (vacated, saying why), before any recompute; the pages follow."""
    from teams.services.entries import withdraw_team

    competition, _big, big_teams, _small, _small_teams = final_of_eight
    with clock.frozen(DAY):  # no recompute runs: the decision alone
        withdraw_team(tk, big_teams[0], reason="Två spelare sjuka")
    seat = FinalSeat.objects.get(competition=competition, holder=big_teams[0])
    assert seat.status == "vacated" and seat.state == FinalSeat.State.DECLINED
    assert seat.reason == (
        "Lämnad: A1 har dragit sig ur (Två spelare sjuka); platsen erbjuds vidare (R-TEAM-REPL-1)"
    )
    assert "A1" not in held(competition) and "A1" not in finalists_on_the_page(competition)

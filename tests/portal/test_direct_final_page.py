"""R-PAIR-DF-1 on the club portal: a club official enters a pair straight into a direct final
(DM Par Dam, no heats) from /klubb/; the page lists the pairs that hold a seat, refuses what the
rules forbid with the clause and saves nothing, and says when entry closes."""

import pytest

from clubs import clock
from clubs.models import FinalSeat
from pairs.models import PairEntry
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    PairCompetitionFactory,
    SeasonFactory,
    member,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_recompute(recompute):
    return recompute


@pytest.fixture
def dam():
    season = SeasonFactory()
    competition = PairCompetitionFactory(
        season=season,
        discipline="dam",
        is_direct_final=True,
        qualifying_start=None,
        qualifying_end=None,
        heat_registration_deadline=None,
    )
    club = ClubFactory()
    official = ClubOfficialFactory(club=club).user
    return season, competition, club, official


def url(competition):
    return f"/klubb/direktfinal/{competition.pk}/anmal/"


def test_dashboard_links_to_the_direct_final(client, dam):
    season, competition, club, official = dam
    client.force_login(official)
    html = client.get("/klubb/").content.decode()
    assert "Direktfinaler" in html and url(competition) in html


def test_official_enters_two_women_of_the_club_and_sees_them_listed(client, dam):
    season, competition, club, official = dam
    a = member(season=season, club=club, gender="F", first_name="Britt", last_name="Ek")
    b = member(season=season, club=club, gender="F", first_name="Cecilia", last_name="Lind")
    client.force_login(official)
    with clock.frozen("2017-04-01"):
        page = client.get(url(competition)).content.decode()
        assert "Anmälan öppen till och med finaldagen 2017-04-22" in page
        response = client.post(url(competition), {"mid1": a.mid, "mid2": b.mid}, follow=True)
    html = response.content.decode()
    assert "Britt Ek – Cecilia Lind är anmälda" in html
    assert "Anmälda par (1)" in html
    seat = FinalSeat.objects.get(competition=competition)
    pair = seat.holder.pairentry  # R-PAIR-DF-1: a pair entry of its own, entered as such
    assert {pair.player1, pair.player2} == {a, b}
    assert pair.entered_as == PairEntry.EnteredAs.DIRECT_FINAL and pair.heat is None
    assert seat.source == FinalSeat.Source.DIRECT_FINAL


def test_a_man_is_refused_with_the_clause_and_nothing_is_saved(client, dam):
    season, competition, club, official = dam
    a = member(season=season, club=club, gender="F")
    man = member(season=season, club=club, gender="M")
    client.force_login(official)
    with clock.frozen("2017-04-01"):
        response = client.post(url(competition), {"mid1": a.mid, "mid2": man.mid})
    assert response.status_code == 400
    assert "R-PAIR-3" in response.content.decode()
    assert not FinalSeat.objects.exists()


def test_after_the_final_entry_is_closed(client, dam):
    season, competition, club, official = dam
    a, b = (member(season=season, club=club, gender="F") for _ in range(2))
    client.force_login(official)
    with clock.frozen("2017-04-23"):
        assert (
            "Stängt: finalen spelades 2017-04-22" in client.get(url(competition)).content.decode()
        )
        response = client.post(url(competition), {"mid1": a.mid, "mid2": b.mid})
    assert response.status_code == 400
    assert "R-PAIR-DF-1" in response.content.decode()
    assert not FinalSeat.objects.exists()


def test_an_official_of_neither_players_club_is_refused(client, dam):
    season, competition, club, official = dam
    a, b = (member(season=season, gender="F") for _ in range(2))  # another club's players
    client.force_login(official)
    with clock.frozen("2017-04-01"):
        response = client.post(url(competition), {"mid1": a.mid, "mid2": b.mid})
    assert response.status_code == 403
    assert not FinalSeat.objects.exists()


def test_a_competition_with_heats_is_not_entered_directly(client, dam):
    season, competition, club, official = dam
    open_ = PairCompetitionFactory(season=season, discipline="open")
    a, b = (member(season=season, club=club) for _ in range(2))
    client.force_login(official)
    with clock.frozen("2017-04-01"):
        response = client.post(url(open_), {"mid1": a.mid, "mid2": b.mid})
    assert response.status_code == 400
    assert "R-PAIR-DF-1" in response.content.decode()
    assert not FinalSeat.objects.exists()


def test_the_page_in_english(client, dam):
    season, competition, club, official = dam
    client.force_login(official)
    with clock.frozen("2017-04-01"):
        html = client.get(url(competition) + "?lang=en").content.decode()
    assert "Enter a pair for a direct final" in html
    assert "Entries open until the day of the final, 2017-04-22" in html

"""Public reads of every endpoint (issue 14), figures from the fixture by hand.

The world: the DM Lag final of tests/portal/test_lag_pages.py (teams A–D of one heat, three
rounds, two boards a match, each board 420 in room 1 and 170 in room 2 for 6 IMPs to the
home team) and a DM Par Open heat arranged by BK Enköping. After three rounds A has
13.75 + 15.00 + 15.00 = 43.75 VP (R-VP-*: 14, 20 and 20 IMPs over 16 boards)."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.utils import timezone

from clubs.models import FinalSeat, SeatOffer
from tests.factories import ClubFactory, PairHeatFactory, TeamFactory, TeamHeatFactory
from tests.portal.test_lag_pages import ROUNDS, _final
from ubf.rules.i18n import Message

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    heat = TeamHeatFactory(name="Lagkval Uppsala")
    teams, matches = _final(heat, "ABCD", ROUNDS, boards_per_match=2)
    enkoping = ClubFactory(name="BK Enköping")
    pair_heat = PairHeatFactory(
        name="Kval Enköping", clubs=[enkoping], competition__season=heat.competition.season
    )
    return heat, teams, matches, pair_heat


def results(response):
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_seasons_and_competitions(api, world):
    heat, *_ = world
    seasons = results(api.get("/api/v1/seasons/"))
    assert [s["name"] for s in seasons] == ["2016-2017"]
    teams = results(api.get("/api/v1/competitions/?kind=teams"))
    assert [(c["discipline"], c["name"]) for c in teams] == [("teams", "DM Lag 2016-2017")]
    pairs = results(api.get("/api/v1/competitions/?kind=pairs&season=2016-2017"))
    assert [c["discipline"] for c in pairs] == ["open"]
    assert results(api.get("/api/v1/competitions/?season=2015-2016")) == []


def test_heats_with_their_organisers(api, world):
    heat, _teams, _m, pair_heat = world
    rows = results(api.get(f"/api/v1/heats/?competition={pair_heat.competition_id}"))
    assert [(h["name"], h["kind"], h["organisers"]) for h in rows] == [
        ("Kval Enköping", "pairs", ["BK Enköping"])
    ]
    team_heat = api.get(f"/api/v1/heats/{heat.pk}/").json()
    assert (team_heat["kind"], team_heat["first_date"], team_heat["competition"]) == (
        "teams",
        "2016-11-05",
        heat.competition_id,
    )
    assert "responsible_email" not in team_heat


def test_teams_with_rosters_and_no_personal_data_for_a_visitor(api, world):
    rows = results(api.get("/api/v1/teams/?holds_final_seat=true"))
    assert [(t["name"], t["final_seat_number"], len(t["players"])) for t in rows] == [
        ("Lag A", 1, 5),
        ("Lag B", 2, 5),
        ("Lag C", 3, 5),
        ("Lag D", 4, 5),
    ]
    assert all(t["address"] is None and t["phone"] is None and t["email"] is None for t in rows)
    body = api.get(f"/api/v1/teams/{rows[0]['id']}/").content.decode()
    assert "kapten@example.se" not in body and "070-123 45 67" not in body


def test_matches_filtered_and_one_match_with_its_boards(api, world):
    _heat, teams, matches, _ = world
    first_round = results(api.get("/api/v1/matches/?stage=final&round=1"))
    assert sorted((m["home"]["name"], m["away"]["name"]) for m in first_round) == [
        ("Lag A", "Lag B"),
        ("Lag C", "Lag D"),
    ]
    of_a = results(api.get(f"/api/v1/matches/?team={teams['A'].pk}"))
    assert len(of_a) == 3  # A plays B, C and D
    match = api.get(f"/api/v1/matches/{matches[('A', 'B')].pk}/").json()
    assert (match["imps_home"], match["imps_away"]) == ("30.00", "16.00")
    assert [
        (b["board_number"], b["score_ns_room1"], b["score_ns_room2"], b["imps_home"])
        for b in match["board_results"]
    ] == [(1, 420, 170, "6.00"), (2, 420, 170, "6.00")]


def test_final_standings(api, world):
    _heat, teams, *_ = world
    (final,) = results(api.get("/api/v1/standings/?scope=team_final"))
    # the list links to each standing's rows (issue 21: no answer holds them all)
    assert final["rounds_played"] == 3 and "rows" not in final
    assert final["url"] == f"http://testserver/api/v1/standings/{final['id']}/"
    final = api.get(final["url"]).json()
    top = final["rows"][0]
    assert (top["name"], top["vp"], top["rank"]) == ("Lag A", "43.75", 1)


def test_allocation_with_its_explanation_in_both_languages(api, world):
    heat, *_ = world
    (run,) = results(api.get(f"/api/v1/allocations/?competition={heat.competition_id}"))
    # R-TEAM-ADV-1: four teams took part; all of them go to the final.
    assert run["qualifying_entries"] == 4
    assert [(v["label"], v["entries"], v["seats"]) for v in run["venues"]] == [
        ("Lagkval Uppsala", 4, 4)
    ]
    assert any(
        line["clause"] == "R-ALLOC-3" and "platser fördelas" in line["text"]
        for line in run["lines"]
    )
    (english,) = results(api.get(f"/api/v1/allocations/?competition={heat.competition_id}&lang=en"))
    assert not any("platser fördelas" in line["text"] for line in english["lines"])


def test_final_seats_holders_and_the_replacement_chain(api, world):
    heat, teams, *_ = world
    competition = heat.competition
    FinalSeat.objects.filter(competition=competition).delete()  # the world's own seats
    seat_a = FinalSeat(
        competition=competition,
        holder=teams["A"],
        source="allocation",
        status="confirmed",
        origin_heat=heat,
        number=1,
    )
    seat_a.explain(
        "R-TEAM-ADV-1",
        Message(
            "Kvalplats %(n)s av %(seats)s från %(heat)s", {"n": 1, "seats": 4, "heat": heat.name}
        ),
    )
    seat_a.save()
    seat_b = FinalSeat.objects.create(
        competition=competition, holder=teams["B"], source="allocation", status="vacated", number=2
    )
    reserve = TeamFactory(heat=heat, name="Lag E")
    SeatOffer.objects.create(
        seat=seat_b,
        entry=reserve,
        offered_at=timezone.make_aware(datetime(2017, 2, 20, 12)),
    )
    held = results(api.get(f"/api/v1/final-seats/teams/?competition={competition.pk}&held=true"))
    assert [(s["holder"], s["status"]) for s in held] == [("Lag A", "confirmed")]
    assert held[0]["reason"] == "Kvalplats 1 av 4 från Lagkval Uppsala (R-TEAM-ADV-1)"
    english = api.get(f"/api/v1/final-seats/teams/{seat_a.pk}/?lang=en").json()
    assert english["reason"] == "Qualifying seat 1 of 4 from Lagkval Uppsala (R-TEAM-ADV-1)"
    vacated = api.get(f"/api/v1/final-seats/teams/{seat_b.pk}/").json()
    assert vacated["held"] is False
    assert [(o["to"], o["answer"]) for o in vacated["offers"]] == [("Lag E", "pending")]
    assert results(api.get("/api/v1/final-seats/pairs/")) == []


def test_calendar_of_the_season(api, world):
    events = results(api.get("/api/v1/calendar/?season=2016-2017"))
    assert [(e["competition_label"], e["title"], e["first"]) for e in events] == [
        ("DM Lag", "Lagkval Uppsala", "2016-11-05"),
        ("DM Par Open", "Kval Enköping", "2017-02-10"),
        ("DM Lag", "Final", "2017-03-04"),
        ("DM Par Open", "Final", "2017-04-22"),
    ]
    assert api.get("/api/v1/calendar/?season=1999-2000").status_code == 404


def test_pages_and_unknown_paths(api, world):
    page = api.get("/api/v1/teams/?page_size=2").json()
    assert page["count"] == 4 and len(page["results"]) == 2 and page["next"]
    missing = api.get("/api/v1/no-such-thing/")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/problem+json"
    assert api.get("/api/docs/").status_code == 200
    schema = api.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/v1/heats/{id}/results/" in schema.content

"""One seat lifecycle for pairs and teams, and every seat and offer row says why (issue 9):
the team final's seat rows (teams.FinalSeat) after a withdrawal, an acceptance, a refusal
and recomputes (who holds each seat, who is asked), and the reasons written on each seat and
offer row with clause and figures, shown in the admin and on /lag/ and /par/ in both languages.

The figures are worked by hand in the comments (R-TEAM-ADV-1, R-ALLOC-1..6, R-REPL-1..7)."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.conf import settings

from clubs import clock
from clubs.models import FinalSeat, SeatOffer
from clubs.services.seats import answer_offer, give_up_seat, override_offer
from results.services.recompute import recompute_pair_competition, recompute_team_competition
from teams.services.entries import withdraw_team
from tests.factories import (
    PairCompetitionFactory,
    TeamCompetitionFactory,
    TeamFactory,
    final_teams,
)
from tests.results.test_allocation_teams import heat_with
from tests.results.test_final_places import direct_qualifier, named_heat

pytestmark = pytest.mark.django_db

TODAY = "2017-02-20"


@pytest.fixture(autouse=True)
def _in_the_season():
    """Before both finals: offers are answered inside their window (R-REPL-5)."""
    with clock.frozen(f"{TODAY} 10:00"):
        yield


def team_heat(comp, label, n):
    heat, teams = heat_with(comp, n, prefix=label)
    heat.name = label
    heat.save()
    return heat, teams


@pytest.fixture
def lag_season():
    """Heats of 8, 11 and 11 teams plus last season's champions: 30 qualifying teams give a
    10-team final (R-TEAM-ADV-1), 9 seats to the heats. Shares 9·8/30 = 2.40, 9·11/30 = 3.30
    and 3.30; whole 2 + 3 + 3 = 8, the last seat to the largest fraction (.40, A): 3 / 3 / 3."""
    comp = TeamCompetitionFactory()
    a = team_heat(comp, "A", 8)
    b = team_heat(comp, "B", 11)
    c = team_heat(comp, "C", 11)
    champions = TeamFactory(heat=None, competition=comp, name="Mästarna", is_direct_qualifier=True)
    recompute_team_competition(comp.id)
    return comp, a, b, c, champions


def seat_of(team) -> FinalSeat:
    return FinalSeat.objects.exclude(source="replacement").get(holder=team)


def held_by(comp) -> set[int]:
    """The teams holding a seat row that is not vacated."""
    return set(
        FinalSeat.objects.filter(competition=comp)
        .exclude(status="vacated")
        .values_list("holder_id", flat=True)
    )


def test_r_team_adv_1_every_team_seat_row_says_which_seat_of_its_heat_it_is(lag_season):
    comp, (_a, a_teams), (_b, b_teams), (_c, c_teams), champions = lag_season
    # 3 + 3 + 3 seats from the heats and the champions' seat: ten rows, ten finalists
    assert FinalSeat.objects.filter(competition=comp).count() == 10
    assert held_by(comp) == {t.id for t in a_teams[:3] + b_teams[:3] + c_teams[:3]} | {champions.id}
    assert seat_of(a_teams[0]).reason == "Kvalplats 1 av 3 från A (R-TEAM-ADV-1)"
    assert seat_of(a_teams[2]).reason == "Kvalplats 3 av 3 från A (R-TEAM-ADV-1)"
    assert seat_of(c_teams[1]).reason == "Kvalplats 2 av 3 från C (R-TEAM-ADV-1)"
    assert seat_of(champions).reason == (
        "Direktkvalificerad som förra säsongens mästare (R-TEAM-DIRECT-1)"
    )
    # the final's teams are the seats' holders: ten finalists with ten different numbers
    finalists = final_teams(comp)
    assert {t.id for t in finalists} == held_by(comp)
    assert sorted(t.final_seat_number for t in finalists) == list(range(1, 11))


def test_r_team_repl_1_seat_rows_after_a_withdrawal_an_acceptance_a_refusal_and_recomputes(
    lag_season, tk
):
    comp, (_a, a_teams), (_b, b_teams), (_c, c_teams), champions = lag_season
    leaver = a_teams[0]
    number = seat_of(leaver).number

    withdraw_team(tk, leaver, reason="Två spelare sjuka")
    recompute_team_competition(comp.id)
    vacated = seat_of(leaver)
    assert vacated.status == "vacated"
    assert vacated.reason == (
        f"Lämnad: {leaver.name} har dragit sig ur (Två spelare sjuka); platsen erbjuds vidare "
        "(R-TEAM-REPL-1)"
    )
    # R-REPL-1: A's nearest eliminated team, its 4th, is asked, for that very seat
    offer = SeatOffer.objects.get(seat__competition=comp, answer="pending")
    assert (offer.entry, offer.seat) == (a_teams[3], vacated)
    assert offer.reason == (
        f"Närmast utslagna laget i den egna kvalgruppen A: {a_teams[3].name}, plats 4 "
        "(A fick 3 platser). (R-REPL-1, R-REPL-5)"
    )

    answer_offer(tk, offer, "accepted")
    recompute_team_competition(comp.id)
    recompute_team_competition(comp.id)  # R-REPL-6: a second recompute moves nothing
    taken = FinalSeat.objects.get(competition=comp, holder=a_teams[3])
    assert (taken.source, taken.status, taken.replaces) == ("replacement", "confirmed", vacated)
    assert taken.number == number  # it plays as the team it replaces
    assert taken.reason == (
        f"Ersättare: tackade ja {TODAY} till platsen efter {leaver.name} (R-REPL-5, R-REPL-6)"
    )
    assert held_by(comp) == {t.id for t in a_teams[1:4] + b_teams[:3] + c_teams[:3]} | {
        champions.id
    }
    assert not SeatOffer.objects.filter(seat__competition=comp, answer="pending").exists()

    # B's winner withdraws; its 4th declines; then the other heats' nearest by closeness
    # (R-REPL-2): A's first not in the final is its 5th, 5 − 2.40 = 2.60; C's 4th, 4 − 3.30 =
    # 0.70: C's 4th is asked.
    withdraw_team(tk, b_teams[0], reason="Återbud")
    recompute_team_competition(comp.id)
    first = SeatOffer.objects.get(seat__competition=comp, answer="pending")
    assert first.entry == b_teams[3] and first.seat == seat_of(b_teams[0])
    answer_offer(tk, first, "declined")
    recompute_team_competition(comp.id)
    nxt = SeatOffer.objects.get(seat__competition=comp, answer="pending")
    assert (nxt.entry, nxt.seat) == (c_teams[3], seat_of(b_teams[0]))
    assert nxt.reason == (
        f"{b_teams[3].name} tackade nej eller lämnade återbud: platsen går vidare till närmast "
        "utslagna på övriga kvalplatser, efter avstånd till direkt finalplats: "
        f"{c_teams[3].name} (C, plats 4), avstånd 4 − 3,30 = 0,70. (R-REPL-2, R-REPL-5)"
    )
    # who holds each seat now: nine teams, and B's first seat waits for C's 4th
    assert held_by(comp) == {t.id for t in a_teams[1:4] + b_teams[1:3] + c_teams[:3]} | {
        champions.id
    }
    assert {t.id for t in final_teams(comp)} == held_by(comp)


@pytest.fixture
def season_of_three():
    """Heats of 4, 7 and 31 pairs plus last season's champions: 42 qualifying pairs give a
    28-pair final (R-ALLOC-1), 27 seats to the venues: shares 27·4/42 = 2.571, 27·7/42 = 4.50,
    27·31/42 = 19.929; 2 + 4 + 19 = 25, the two left to .929 (C) and .571 (A): 3 / 4 / 20."""
    comp = PairCompetitionFactory(discipline="open")
    a = named_heat(comp, "A", 4)
    b = named_heat(comp, "B", 7)
    c = named_heat(comp, "C", 31)
    dq = direct_qualifier(comp)
    recompute_pair_competition(comp.id)
    return comp, a, b, c, dq


def pair_name(entry) -> str:
    return f"{entry.player1.full_name} – {entry.player2.full_name}"


def test_r_repl_7_pair_seat_and_offer_rows_say_why_with_their_figures(season_of_three, tk):
    comp, (_a, a_entries), (_b, b_entries), (_c, c_entries), dq = season_of_three
    seat = FinalSeat.objects.get(competition=comp, holder=b_entries[3])
    assert seat.reason == "Kvalplats 4 av 4 från B (R-ALLOC-3, R-ALLOC-6)"
    assert FinalSeat.objects.get(competition=comp, holder=c_entries[19]).reason == (
        "Kvalplats 20 av 20 från C (R-ALLOC-3, R-ALLOC-6)"
    )
    dq_seat = FinalSeat.objects.get(competition=comp, holder=dq)
    assert dq_seat.reason == (
        "Direktkvalificerad som förra säsongens mästare (R-DIRECT-1, R-ALLOC-2)"
    )

    give_up_seat(tk, dq_seat, reason="Kan inte spela finalen")
    recompute_pair_competition(comp.id)
    dq_seat.refresh_from_db()
    assert dq_seat.reason == (
        f"Lämnad {TODAY}: Kan inte spela finalen; platsen erbjuds vidare (R-REPL-7)"
    )
    # R-REPL-7 by closeness: A's 4th 4 − 2.571 = 1.43, B's 5th 5 − 4.50 = 0.50, C's 21st
    # 21 − 19.929 = 1.07: B's 5th pair, 0.50
    offer = SeatOffer.objects.get(seat=dq_seat, answer="pending")
    assert offer.entry == b_entries[4]
    assert offer.reason == (
        "Direktkvalificerad plats utan egen kvalplats: närmast utslagna på kvalplatserna efter "
        f"avstånd till direkt finalplats: {pair_name(b_entries[4])} (B, plats 5), avstånd "
        "5 − 4,50 = 0,50. (R-REPL-7, R-REPL-5)"
    )


def _page(client, url, lang):
    """The page's text as a person reads it: tags dropped, spaces collapsed."""
    response = client.get(f"{url}?lang={lang}")
    assert response.status_code == 200
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html_lib.unescape(text).split())


def test_lag_page_shows_each_seat_and_offer_and_why_in_both_languages(client, lag_season, tk):
    comp, (_a, a_teams), _b, _c, _champions = lag_season
    withdraw_team(tk, a_teams[0], reason="Två spelare sjuka")
    recompute_team_competition(comp.id)
    sv = _page(client, "/lag/", "sv")
    assert "Platserna och varför" in sv
    assert "Kvalplats 2 av 3 från A R-TEAM-ADV-1" in sv
    assert f"Lämnad: {a_teams[0].name} har dragit sig ur (Två spelare sjuka)" in sv
    en = _page(client, "/lag/", "en")
    assert "The seats and why" in en
    assert "Qualifying seat 2 of 3 from A R-TEAM-ADV-1" in en
    assert "Directly qualified as last season's champions R-TEAM-DIRECT-1" in en
    # the withdrawal's own words stay as recorded (Swedish); the sentence around them is English
    assert (
        f"Given up: {a_teams[0].name} has withdrawn (Två spelare sjuka); the seat is offered on "
        "R-TEAM-REPL-1"
    ) in en
    assert "Kvalplats 2 av 3" not in en


def test_par_page_shows_the_seat_reasons_in_english(client, season_of_three):
    comp, _a, (_b, b_entries), _c, _dq = season_of_three
    en = _page(client, f"/par/{comp.id}/", "en")  # the competition's page, linked from /par/
    assert "Qualifying seat 4 of 4 from B R-ALLOC-3, R-ALLOC-6" in en
    assert pair_name(b_entries[3]) in en


def test_admin_change_lists_show_why_each_seat_and_offer_is_there(client, lag_season, tk):
    comp, (_a, a_teams), _b, _c, _champions = lag_season
    withdraw_team(tk, a_teams[0], reason="Två spelare sjuka")
    recompute_team_competition(comp.id)
    client.force_login(tk)
    seats = html_lib.unescape(client.get("/admin/clubs/finalseat/").content.decode())
    assert "Varför" in seats
    assert "Kvalplats 3 av 3 från A (R-TEAM-ADV-1)" in seats
    offers = html_lib.unescape(client.get("/admin/clubs/seatoffer/").content.decode())
    assert (
        f"Närmast utslagna laget i den egna kvalgruppen A: {a_teams[3].name}, plats 4 "
        "(A fick 3 platser). (R-REPL-1, R-REPL-5)"
    ) in offers
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    seats_en = html_lib.unescape(client.get("/admin/clubs/finalseat/").content.decode())
    assert "Qualifying seat 3 of 3 from A (R-TEAM-ADV-1)" in seats_en
    assert "Why" in seats_en


def test_pairs_admin_change_list_shows_why(client, season_of_three, tk):
    _comp, _a, (_b, b_entries), _c, _dq = season_of_three
    client.force_login(tk)
    page = html_lib.unescape(client.get("/admin/clubs/finalseat/").content.decode())
    assert "Kvalplats 4 av 4 från B (R-ALLOC-3, R-ALLOC-6)" in page


def test_r_repl_5_tk_offer_out_of_order_says_why_and_survives_a_recompute(season_of_three, tk):
    comp, (_a, a_entries), (_b, b_entries), (_c, c_entries), dq = season_of_three
    dq_seat = FinalSeat.objects.get(competition=comp, holder=dq)
    give_up_seat(tk, dq_seat, reason="Kan inte spela finalen")
    recompute_pair_competition(comp.id)
    chain_offer = SeatOffer.objects.get(seat=dq_seat, answer="pending")
    assert chain_offer.entry == b_entries[4]  # B's 5th, 0.50 (R-REPL-7)
    answer_offer(tk, chain_offer, "declined")
    # TK passes over the chain's next (C's 21st, 1.07) and asks A's 4th pair
    offer = override_offer(tk, dq_seat, a_entries[3], "Paret C21 har splittrats")
    recompute_pair_competition(comp.id)
    recompute_pair_competition(comp.id)
    (pending,) = SeatOffer.objects.filter(seat=dq_seat, answer="pending")
    assert pending == offer and pending.entry == a_entries[3]
    assert pending.reason == "Erbjuden på TK:s beslut: Paret C21 har splittrats (R-REPL-5)"


def test_tk_queue_says_why_the_waiting_offer_went_to_that_team(client, lag_season, tk):
    comp, (_a, a_teams), _b, _c, _champions = lag_season
    withdraw_team(tk, a_teams[0], reason="Två spelare sjuka")
    recompute_team_competition(comp.id)
    client.force_login(tk)
    page = _page(client, "/tk/", "sv")
    assert (
        f"Närmast utslagna laget i den egna kvalgruppen A: {a_teams[3].name}, plats 4 "
        "(A fick 3 platser). (R-REPL-1, R-REPL-5)"
    ) in page

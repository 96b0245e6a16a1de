"""R-REPL-3, R-REPL-5 in a browser, on a phone: every qualifying pair of a DM Par final holds a
seat (heats of 10 and 4 + 2 pairs: 14 qualify, all go on), and the winners of heat A give
theirs up, so nobody is left to ask. TK follows the queue's link to the final's seats, reads
"Ingen kvar att fråga: TK avgör.", offers the seat to heat B's 5th pair (not declared for the
qualifier) with a reason, records its yes, and the final's public page lists the pair."""

import pytest

from clubs import clock
from clubs.models import FinalSeat
from clubs.services.seats import give_up_seat
from results.services.recompute import recompute_pair_competition
from tests.browser.helpers import click_and_wait, fits_width, login
from tests.factories import PairCompetitionFactory, UserFactory
from tests.results.test_recompute_pairs import heat_with_results

pytestmark = pytest.mark.django_db(transaction=True)


def test_tk_gives_a_seat_nobody_is_left_for_to_a_pair_of_its_choice(phone, screens):
    tk = UserFactory(username="tk-browser", is_superuser=True, is_staff=True)
    comp = PairCompetitionFactory(discipline="open")
    _a, a_entries = heat_with_results(comp, 10)
    _b, b_entries = heat_with_results(comp, 6, heat_type="bronze", declared=4)
    chosen = b_entries[4]
    shot = screens(phone)
    with clock.frozen("2017-02-20 10:00"):
        recompute_pair_competition(comp.id)
        seat = FinalSeat.objects.get(competition=comp, holder=a_entries[0])
        give_up_seat(tk, seat, reason="Kan inte spela")  # the recompute runs on the commit
        login(phone, "tk-browser", "pw-test-123", next_url="/tk/")
        click_and_wait(phone, phone.locator("#tk-final-seats").get_by_role("link", name=str(comp)))
        card = phone.locator(f"#plats-{seat.pk}")
        assert "Ingen kvar att fråga: TK avgör." in card.inner_text()
        offer_form = card.locator("form").filter(
            has=phone.get_by_role("button", name="Erbjud platsen")
        )
        offer_form.get_by_label("Erbjud platsen till paret").select_option(str(chosen.pk))
        offer_form.get_by_label("Motivering").fill("Paret spelade heat B")
        click_and_wait(phone, offer_form.get_by_role("button", name="Erbjud platsen"))
        assert "Platsen är erbjuden" in phone.inner_text("main")
        assert fits_width(phone)
        shot("offered")
        card = phone.locator(f"#plats-{seat.pk}")
        assert "Erbjuden på TK:s beslut: Paret spelade heat B" in card.inner_text()
        click_and_wait(phone, card.get_by_role("button", name="Tackade ja"))
        assert "Svaret är registrerat" in phone.inner_text("main")
        shot("accepted")
        phone.goto(f"/par/final/{comp.pk}/")
        assert chosen.player1.full_name in phone.inner_text("main")
        assert fits_width(phone)

"""Issue 22's proof in a browser (R-PAIR-TIE-1): a tie inside a pairs heat's table that only a
lot can separate, at the heat's seat cut. The heat page says "lott ej dragen" and the seat
reads provisional; TK opens /tk/ on a phone, finds the tie under "Lottningar att dra", names
the witnesses and presses "Dra lott"; the heat page then says "lott dragen" with the seed and
the witnesses, and the seat has followed the lot: the winner is "I finalen: kvalificerat", the
other pair "Reserv 1".

The heat is ``tests/results/_bronze_heat.py``'s second file (``variant="lot"``), uploaded
through the upload service: A and B (declared) on 50.00 %, 5 boards won each against the
other, never meeting; bronze heat Z has 2 seats, pair 1's and one of A's and B's."""

import re

import pytest

from clubs import clock
from results.models import Lot
from tests.browser.helpers import click_and_wait, fits_width, login
from tests.factories import UserFactory
from tests.results._bronze_heat import bronze_season

pytestmark = pytest.mark.django_db(transaction=True)


def test_tk_draws_a_lot_inside_a_pairs_heat_and_the_seat_follows_it(phone, screens):
    tk = UserFactory(username="tk-lots", is_superuser=True, is_staff=True)
    comp, z, entries = bronze_season(tk, None, variant="lot")
    name = {n: f"{e.player1.full_name} – {e.player2.full_name}" for n, e in entries.items()}
    shot = screens(phone)
    with clock.frozen("2017-02-20 10:00"):
        phone.goto(f"/par/kval/{z.pk}/")
        results = phone.locator("#resultat").inner_text()
        assert (
            "lott ej dragen" in results
            and "Inom finalplatserna: preliminärt, lott ej dragen" in results
        )
        assert fits_width(phone)
        shot("undrawn")
        login(phone, "tk-lots", "pw-test-123", next_url="/tk/")
        item = phone.locator("#lots li.list-group-item").filter(has_text="Lika i tabellen")
        text = item.inner_text()
        assert name["2"] in text and name["3"] in text and "plats 4–5" in text
        assert "R-PAIR-TIE-1" in text and name["4"] not in text
        item.get_by_label("Vittnen").fill("Anna Berg och Bo Ek")
        shot("queue")
        click_and_wait(phone, item.get_by_role("button", name="Dra lott"))
        lot = Lot.objects.get()
        assert f"Lotten är dragen (seed {lot.seed}): ordningen blev" in phone.inner_text("main")
        assert "Lika i tabellen" not in phone.locator("#lots").inner_text()
        phone.goto(f"/par/kval/{z.pk}/")
        shot("drawn")
        results = phone.locator("#resultat").inner_text()
        assert "lott dragen" in results and f"med seed {lot.seed}" in results
        assert "Anna Berg och Bo Ek" in results and "lott ej dragen" not in results
        winner, loser = (
            entries["2"] if k == str(entries["2"].pk) else entries["3"] for k in lot.winners
        )
        rows = phone.locator("table.heat-results tbody tr")

        def row_of(entry) -> str:  # the row whose pair cell starts with the pair's name
            cell = phone.locator(
                "td", has_text=re.compile("^" + re.escape(name[entry.pair_number]))
            )
            return rows.filter(has=cell).inner_text()

        won, lost = row_of(winner), row_of(loser)
        assert "I finalen: kvalificerat" in won
        assert "Reserv 1" in lost and "I finalen" not in lost
        assert fits_width(phone)

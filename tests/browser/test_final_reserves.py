"""R-PAIR-RES-2 in a browser, on a phone: the pair's club official opens "Reserver i
DM-finalen" from /klubb/, first types a reserve who played a qualifier in the discipline (the
page refuses it in words and keeps what was typed), then one who has not; the page and the
final's page show who plays the final. The season is ``tests/results/_bronze_heat.py``'s,
uploaded for real: pair 1 of bronze heat Z holds Z's first seat (100 %); a player of silver
heat X played a qualifier in Open; a new member of pair 1's club played none."""

import pytest

from clubs import clock
from clubs.models import Representation
from pairs.models import ReserveNotice
from tests.browser.helpers import click_and_wait, fits_width, login
from tests.factories import ClubOfficialFactory, UserFactory, member
from tests.results._bronze_heat import bronze_season

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_pairs_club_notifies_a_reserve_for_the_final(phone, screens):
    tk = UserFactory(username="tk-reserves", is_superuser=True, is_staff=True)
    comp, z, entries = bronze_season(tk, None)
    ours = entries["1"]
    club = Representation.objects.get(player=ours.player1, season=comp.season).club
    official = ClubOfficialFactory(club=club, user=UserFactory(username="klubb-reserv")).user
    played = comp.heats.get(name="X").entries.order_by("pk").first().player1  # played X
    fresh = member(season=comp.season, club=club, first_name="Erik", last_name="Berg")
    pair = f"{ours.player1.full_name} – {ours.player2.full_name}"
    shot = screens(phone)
    with clock.frozen("2017-04-10 12:00"):
        login(phone, official.username, "pw-test-123", next_url="/klubb/")
        phone.locator("#final-reserve-links").get_by_role("link", name=str(comp)).click()
        phone.wait_for_url(f"**/klubb/parfinal/{comp.pk}/reserver/")
        assert "R-PAIR-RES-2" in phone.locator("#final-reserve-clauses").inner_text()
        row = phone.locator(".final-pair", has_text=pair)
        row.get_by_text("Anmäl reserv till finalen").click()
        row.get_by_label("Ordinarie spelare (MID)").select_option(ours.player2.mid)
        row.get_by_label("Reserv (MID)").fill(played.mid)
        click_and_wait(phone, row.get_by_role("button", name="Anmäl reserv"))
        errors = phone.locator("#action-errors").inner_text()
        assert "Inget har sparats" in errors and "R-PAIR-RES-2" in errors
        assert not ReserveNotice.objects.exists()
        row = phone.locator(".final-pair", has_text=pair)
        assert row.get_by_label("Reserv (MID)").input_value() == played.mid
        shot("refused")
        row.get_by_label("Reserv (MID)").fill(fresh.mid)
        click_and_wait(phone, row.get_by_role("button", name="Anmäl reserv"))
        main = phone.inner_text("main")
        assert f"Erik Berg spelar DM-finalen i stället för {ours.player2.full_name}" in main
        row = phone.locator(".final-pair", has_text=pair)
        assert f"ersätter {ours.player2.full_name}" in row.inner_text()
        assert fits_width(phone)
        shot("notified")
        phone.goto(f"/par/final/{comp.pk}/")
        assert f"spelar: {ours.player1.full_name} – Erik Berg" in phone.inner_text("main")

"""Issue 22's proof in a browser (R-RULING-1, R-RULING-2, R-RULING-3, R-VP-1): TK records the tournament director's
ruling on board 7 of a played match on /tk/domslut/, takes the appeal to the jury, draws the
jury from the teams not involved, records the jury's decision and the changed board; the
standings are recomputed and the heat page shows the new VP.

The match (``tests/portal/test_tk_rulings.py``'s): 16 boards, Fyris–Gävle 40–20 IMPs, 15.00–5.00
VP; board 7 went 0–10. The jury gives board 7 0–0: 40–10, a margin of 30 IMPs, which the WBF
scale for 16 boards (R-VP-2's table) makes 16.73–3.27 VP."""

from decimal import Decimal

import pytest

from teams.models import Match, Ruling
from tests.browser.helpers import click_and_wait, fits_width, login
from tests.factories import MatchFactory, TeamFactory, TeamHeatFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def played_match():
    from teams.models import BoardResult

    heat = TeamHeatFactory(name="Lagkval Uppsala")
    match = MatchFactory(
        home=TeamFactory(heat=heat, players=0, name="Fyris"),
        away=TeamFactory(heat=heat, players=0, name="Gävle"),
        heat=heat,
        competition=heat.competition,
        status=Match.Status.PLAYED,
        imps_home=Decimal("40"),
        imps_away=Decimal("20"),
        vp_home=Decimal("15.00"),
        vp_away=Decimal("5.00"),
    )
    for name in ("Enköping", "Sala", "Tierp"):
        TeamFactory(heat=heat, players=0, name=name)
    BoardResult.objects.create(
        match=match, board_number=7, imps_home=Decimal("0"), imps_away=Decimal("10")
    )
    return heat, match


def test_a_ruling_appealed_to_the_jury_changes_the_score_and_the_standings(phone, screens):
    heat, match = played_match()
    UserFactory(username="tk-rulings", is_superuser=True, is_staff=True)
    shot = screens(phone)
    login(phone, "tk-rulings", "pw-test-123", next_url="/tk/domslut/")
    form = phone.locator("#new-ruling form")
    form.get_by_label("Match", exact=True).select_option(str(match.pk))
    form.get_by_label("Bricka (tomt: hela matchen)").fill("7")
    form.get_by_label("Tävlingsledare (namn, kommaseparerade)").fill("Ryszard Sliwinski")
    # R-RULING-2: the write-up the jury gets: hands, auction, play, why the TD was called.
    form.get_by_label("Kortsits").fill("N ♠AK5 ♥KQ3 ♦J942 ♣Q87")
    form.get_by_label("Budgivning").fill("1NT – pass – 2♣ (paus) – pass – 2♦")
    form.get_by_label("Spelförlopp").fill("♠ utspel, 9 stick")
    form.get_by_label("Varför tävlingsledaren tillkallades").fill("Oklar paus efter 2♣")
    form.get_by_label("Domslut", exact=True).fill("Resultatet står sig")
    click_and_wait(phone, form.get_by_role("button", name="Registrera domslutet"))
    assert "Domslutet är registrerat" in phone.inner_text("main")
    score = phone.locator("#ruling-score").inner_text()
    assert score == "40,00–20,00 IMP, 15,00–5,00 VP; bricka 7: 0,00–10,00 IMP"
    appeal = phone.locator("#form-appeal")
    appeal.get_by_label("Anledning till överklagandet").fill("Pausen gav information")
    appeal.get_by_label("Andra sidans synpunkter").fill("Ingen paus")
    appeal.get_by_label("Samtliga inblandade (även tävlingsledaren)").fill(
        "N/S Ek–Al, Ö/V Berg–Dahl, TL Ryszard Sliwinski"
    )
    click_and_wait(phone, appeal.get_by_role("button", name="Överklaga till juryn"))
    assert "Överklagandet har gått till juryn." in phone.inner_text("main")
    draw = phone.locator("#form-draw-jury")
    assert "Enköping, Sala, Tierp" in draw.inner_text()  # not Fyris or Gävle (R-RULING-3)
    click_and_wait(phone, draw.get_by_role("button", name="Lotta juryn"))
    assert "Juryn är lottad: Enköping, Sala, Tierp." in phone.inner_text("main")
    jury = phone.locator("#form-jury")
    jury.get_by_label("Juryns beslut").fill("Bricka 7 ges 0–0")
    click_and_wait(phone, jury.get_by_role("button", name="Registrera juryns beslut"))
    assert "Juryns beslut är registrerat." in phone.inner_text("main")
    adjust = phone.locator("#form-adjust")
    adjust.get_by_label("Fyris").fill("0")
    adjust.get_by_label("Gävle").fill("0")
    adjust.get_by_label("Skäl").fill("Juryns beslut")
    shot("adjust")
    click_and_wait(phone, adjust.get_by_role("button", name="Ändra resultatet"))
    main = phone.inner_text("main")
    assert "Resultatet är ändrat: 40,00–10,00 IMP, 16,73–3,27 VP." in main
    score = phone.locator("#ruling-score").inner_text()
    assert score == "40,00–10,00 IMP, 16,73–3,27 VP; bricka 7: 0,00–0,00 IMP"
    ruling = Ruling.objects.get()
    assert ruling.stage == Ruling.Stage.JURY and ruling.jury_decision == "Bricka 7 ges 0–0"
    phone.goto(f"/lag/kval/{heat.pk}/")
    shot("standings")
    rows = phone.locator("table.heat-results tbody tr")
    assert "16,73" in rows.filter(has_text="Fyris").first.inner_text()
    assert "3,27" in rows.filter(has_text="Gävle").first.inner_text()
    phone.goto(f"/lag/match/{match.pk}/")
    assert "Bricka 7 ges 0–0" in phone.inner_text("main")
    assert fits_width(phone)

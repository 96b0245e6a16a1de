"""Issue 23 in a browser (R-GEN-2: members by MID, membership paid per season): TK uploads the
federation's member register on /tk/register/, reads the preview (the figures of
tests/fixtures/register/README.md, worked by hand; every problem by its row number, in
Swedish), nothing is saved until TK presses Spara; then the players,
the clubs and the memberships are there, and the same file again changes nothing."""

from pathlib import Path

import pytest

from clubs.models import Club, Membership, Player
from tests.browser.helpers import click_and_wait, login
from tests.clubs.test_register_import import federation  # noqa: F401 - the fixture
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

FILE = Path(__file__).resolve().parents[1] / "fixtures" / "register" / "federation_2016.csv"


def preview(page):
    page.goto("/tk/register/")
    page.get_by_label("Fil (CSV eller XLSX)").set_input_files(str(FILE))
    click_and_wait(page, page.get_by_role("button", name="Förhandsgranska"))
    return page.locator("#register-summary").inner_text()


def test_tk_uploads_previews_and_applies_the_register(phone, screens, federation):  # noqa: F811
    UserFactory(username="tk-browser", is_superuser=True, is_staff=True)
    shot = screens(phone)
    login(phone, "tk-browser", "pw-test-123", next_url="/tk/register/")
    summary = preview(phone)
    shot("preview")
    assert summary == "register: 2 new, 2 changed, 1 unchanged, 1 missing, 2 problems"
    problems = phone.locator("#register-problems li").all_inner_texts()
    assert [p[:6] for p in problems] == ["Rad 5:", "Rad 7:"]
    assert phone.locator("#register-unknown-clubs").inner_text().splitlines() == [
        "Sala BK (VBF)",
        "Märsta BK (UBF)",
    ]
    changed = phone.locator("#register-changed").inner_text()
    assert "klubb: Uppsala BK → Enköpings BS" in changed
    assert "betald: nej → ja" in changed
    assert "David Dahl (1004)" in phone.locator("#register-missing").inner_text()
    assert not Player.objects.filter(mid="1005").exists()  # nothing saved yet

    click_and_wait(phone, phone.get_by_role("button", name="Spara"))
    shot("applied")
    assert "Sparat: register: 2 new, 2 changed" in phone.inner_text("main")
    assert Player.objects.filter(mid__in=["1005", "1006"]).count() == 2
    assert Club.objects.get(name="Sala BK").district.code == "VBF"
    assert Membership.objects.get(player__mid="1002", season=federation).is_paid
    assert Player.objects.get(mid="1004").in_register is False

    assert preview(phone) == "register: 0 new, 0 changed, 5 unchanged, 1 missing, 2 problems"

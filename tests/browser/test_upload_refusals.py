"""Issue 10 in a browser: on the demo, the club official of Enköpings BK uploads files that are
not a DM result to the upload page of their heats. Each refusal is at most a handful of lines,
in Swedish, each saying what to do, and nothing is saved."""

from pathlib import Path

import pytest

from results.models import PairResult, PairTraveller, ResultUpload
from teams.models import BoardResult, Match
from tests.browser.helpers import click_and_wait, fits_width, load_demo, login
from ubf.demo.season import PASSWORDS

pytestmark = pytest.mark.django_db(transaction=True)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "results"


def saved() -> tuple:
    return (
        list(ResultUpload.objects.order_by("pk").values_list("pk", "status")),
        list(PairResult.objects.order_by("pk").values_list("pk", "percentage")),
        PairTraveller.objects.count(),
        list(Match.objects.order_by("pk").values_list("pk", "status", "imps_home", "imps_away")),
        BoardResult.objects.count(),
    )


# What each file is, read by hand from the file, and what the page must say about it.
CASES = {
    # BridgeComposer: 15 [Deal] tags with the cards, no ScoreTable, no TotalScoreTable.
    "hand-record": (
        "Mixedkval Enköping",
        "real/bridgecomposer_hand_record.pbn",
        "Filen är en handlista (15 givar med bara korten, inga resultat). Ladda upp "
        "PBN-exporten från Ruter",
    ),
    # Compscore Mitchell: 13 pairs numbered 1NS, 2NS, 2EW, ...; the demo heat numbers its 12
    # pairs 1..12, so not one of them is in the heat.
    "mitchell-unknown-pairs": (
        "Mixedkval Enköping",
        "real/compscore3_mp_pairs_mitchell_03.xml",
        "13 par i filen finns inte i heatet: 1NS, 2NS, 2EW, 3NS",
    ),
    # A matchpointed pairs file offered on a team heat's page.
    "pairs-file-as-teams": (
        "Lagkval Enköping",
        "pairs_howell_usebio.xml",
        "inte en lagtävling. Ladda upp den under par",
    ),
}
WHAT_TO_DO = ("Ladda upp", "ladda upp", "exportera", "Exportera", "ge paren", "Rätta")
ENGLISH = ("The file", "file is", "Upload", "upload", "Export", " the ", " pairs ")


@pytest.mark.parametrize("case", list(CASES))
def test_a_refused_file_gets_a_few_swedish_lines_that_say_what_to_do(
    settings, phone, screens, case
):
    heat, fixture, expected = CASES[case]
    load_demo(settings)
    before = saved()
    shot = screens(phone)
    login(phone, "klubb", PASSWORDS["klubb"], next_url="/klubb/")
    row = phone.locator("tr", has_text=heat).first
    links = row.locator("xpath=following-sibling::tr[.//a][1]")
    click_and_wait(phone, links.get_by_role("link", name="Ladda upp resultat"))
    assert heat in phone.inner_text("main")
    phone.get_by_label("Resultatfil").set_input_files(str(FIXTURES / fixture))
    click_and_wait(phone, phone.get_by_role("button", name="Ladda upp"))

    alert = phone.get_by_role("alert")
    assert alert.get_by_role("heading").inner_text() == "Filen lästes inte in. Inget har sparats."
    lines = alert.locator("li").all_inner_texts()
    shot("refused")
    assert 1 <= len(lines) <= 5, lines
    assert expected in lines[0], lines
    for line in lines:
        assert any(w in line for w in WHAT_TO_DO), line
        assert not any(w in line for w in ENGLISH), line
    assert phone.locator("html").get_attribute("lang") == "sv"
    assert fits_width(phone)  # a long EVENT_TYPE=... token once pushed the page sideways
    assert saved() == before

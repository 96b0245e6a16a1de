"""A problem names its line once and its clause once (issue 13): "rad 2: …", never
"rad 2, rad 2: …", and "… (R-TEAM-KVAL-5).", never "… (R-TEAM-KVAL-5). (R-TEAM-KVAL-5)"; the
notes on how a file was read are translated like the problems (docs/translation.md)."""

from __future__ import annotations

import html
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from clubs.i18n import render, with_clause
from results.importers import parse_upload
from results.importers.model import problem
from results.models import ResultUpload
from results.services.uploads import problem_dicts
from tests.factories import TeamHeatFactory, UserFactory
from ubf.rules.i18n import gettext_noop

#: A team CSV whose second line has "tio" where a number of IMPs belongs.
ONE_BAD_ROW = b"round;home;away;imps_home;imps_away\n1;1;2;tio;10\n"


def _problem_items(page: str) -> list[str]:
    block = page.split('class="alert alert-danger"', 1)[1].split("</div>", 1)[0]
    items = re.findall(r"<li>(.*?)</li>", block, re.S)
    return [html.unescape(" ".join(re.sub(r"<[^>]+>", "", i).split())) for i in items]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "expected", "line_word"),
    [
        ("sv", 'rad 2: Kolumnen imps_home har värdet "tio", som inte är ett tal.', "rad"),
        ("en", 'line 2: Column imps_home has the value "tio", which is not a number.', "line"),
    ],
)
def test_a_file_with_one_bad_row_names_the_row_once(client, lang, expected, line_word):
    heat = TeamHeatFactory()
    client.force_login(UserFactory(username="tk-loc", is_superuser=True, is_staff=True))
    response = client.post(
        f"/resultat/lag/{heat.pk}/?lang={lang}",
        {"file": SimpleUploadedFile("rond1.csv", ONE_BAD_ROW)},
    )
    assert response.status_code == 400
    items = _problem_items(response.content.decode())
    assert items == [expected]
    assert items[0].count(f"{line_word} 2") == 1
    assert ResultUpload.objects.count() == 0


def test_problem_dicts_keep_the_line_apart_from_the_text():
    (d,) = problem_dicts([problem(gettext_noop("Filen är tom."), line=2, code="x")], "sv")
    assert (d["where"], d["text"], d["shown"]) == ("rad 2", "Filen är tom.", "Filen är tom.")


def test_a_clause_the_message_does_not_name_is_shown_after_it():
    p = problem(gettext_noop("Filen är tom."), clause="R-GEN-3")
    (d,) = problem_dicts([p], "sv")
    assert (d["text"], d["shown"]) == ("Filen är tom.", "Filen är tom. (R-GEN-3)")


def test_a_clause_the_message_already_names_is_not_added_again():
    # The template of results/importers/validate.py, which names its clause itself.
    p = problem(
        gettext_noop(
            "Matchen %(match)s har %(boards_played)s brickor, men heatens matcher ska ha "
            "%(expected_boards)s brickor (R-TEAM-KVAL-5)."
        ),
        params={"match": "1-2", "boards_played": 12, "expected_boards": 16},
        clause="R-TEAM-KVAL-5",
        warning=True,
    )
    (sv,) = problem_dicts([p], "sv")
    (en,) = problem_dicts([p], "en")
    assert (
        sv["shown"]
        == sv["text"]
        == ("Matchen 1-2 har 12 brickor, men heatens matcher ska ha 16 brickor (R-TEAM-KVAL-5).")
    )
    assert (
        en["shown"]
        == en["text"]
        == (
            "The match 1-2 has 12 boards, but the heat's matches must have 16 boards (R-TEAM-KVAL-5)."
        )
    )


@pytest.mark.parametrize(
    ("text", "clause", "shown"),
    [
        ("Skriv en motivering (R-GEN-3).", "R-GEN-3", "Skriv en motivering (R-GEN-3)."),
        ("avstånd 0,50. (R-REPL-7, R-REPL-5)", "R-REPL-5", "avstånd 0,50. (R-REPL-7, R-REPL-5)"),
        ("Kvalplats 3 av 4", "R-TEAM-ADV-1", "Kvalplats 3 av 4 (R-TEAM-ADV-1)"),
        ("Se (R-GEN-3) nedan.", "R-GEN-4", "Se (R-GEN-3) nedan. (R-GEN-4)"),
        ("Utan regel.", "", "Utan regel."),
    ],
)
def test_with_clause_appends_the_clause_once(text, clause, shown):
    assert with_clause(text, clause) == shown


def test_a_note_on_how_a_file_was_read_is_translated():
    event = parse_upload(
        b"round;home;away;imps_home;imps_away;kommentar\n1;1;2;10;0;x\n", "rond1.csv", "teams"
    )
    (note,) = event.warnings
    assert note == "rad 1: Okänd kolumn 'kommentar' ignoreras."
    assert note.message_en == "line 1: Unknown column 'kommentar' ignored."
    assert render(note, "en") == "line 1: Unknown column 'kommentar' ignored."
    assert render(note, "sv") == "rad 1: Okänd kolumn 'kommentar' ignoreras."


def test_a_note_from_the_file_name_is_translated():
    event = parse_upload(ONE_BAD_ROW.replace(b"tio", b"10"), "rond1.pbn", "teams")
    (note,) = event.warnings
    assert (
        note == "Filnamnet (rond1.pbn) tyder på PBN, men innehållet är CSV; filen lästes som CSV."
    )
    assert note.message_en == (
        "The file name (rond1.pbn) suggests PBN, but the content is CSV; the file was read as CSV."
    )

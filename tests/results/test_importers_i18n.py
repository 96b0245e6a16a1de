"""Import problems in both languages from one catalogue (docs/translation.md): each problem is a
Swedish template plus params; ``message_en`` is the msgstr of that template in
locale/en/LC_MESSAGES/django.po, read without Django. The expected sentences below are written
out by hand from the Swedish and English texts the refusals had before the conversion."""

from __future__ import annotations

import pytest

from clubs.i18n import render
from results.importers import ImportFailed, parse_upload, validate_pairs, validate_teams
from results.importers.model import english, problem
from results.services.uploads import problem_dicts

from ._fixtures import broken


def refusal(name: str, kind: str = "pairs") -> ImportFailed:
    with pytest.raises(ImportFailed) as exc:
        parse_upload(broken(name), name, kind)
    return exc.value


def test_a_truncated_xml_file_is_refused_in_swedish_and_in_english():
    failed = refusal("truncated.xml")
    (p,) = failed.problems
    assert p.is_error
    assert p.message_sv == (
        "XML-filen är trasig på rad 950, kolumn 16: ett element eller en tagg avslutas aldrig. "
        "Filen kan vara avklippt eller ändrad för hand; exportera den på nytt från "
        "resultatprogrammet."
    )
    # expat's own words are the English of the Swedish reason
    assert p.message_en == (
        "The XML file is broken at line 950, column 16: unclosed token. The file may be "
        "truncated or edited by hand; export it again from the scoring program."
    )
    assert (p.where(), p.where("en")) == ("rad 950", "line 950")
    assert failed.message_en.startswith("line 950: The XML file is broken at line 950")
    assert str(p).startswith("rad 950: XML-filen är trasig")


def test_a_database_file_names_what_it_is_in_each_language():
    (p,) = refusal("bridgemate.bws").problems
    assert p.message_sv == (
        "Filen är en Bridgemate-/Access-databas (.bws/.mdb), inte en resultatfil. Exportera "
        "resultatet som PBN (eller USEBIO XML) från resultatprogrammet (t.ex. Ruter) och ladda "
        "upp den."
    )
    assert p.message_en == (
        "The file is a Bridgemate/Access database (.bws/.mdb), not a result file. Export the "
        "result as PBN (or USEBIO XML) from the scoring program (e.g. Ruter) and upload that."
    )


def test_a_team_event_offered_as_pairs_is_refused_with_translated_phrases():
    (p,) = refusal("imps_mismatch.xml", "pairs").problems
    attributes = (
        "EVENT_TYPE=TEAMS, PARTICIPANTS@EVENT_TYPE=TEAMS, BOARD@EVENT_TYPE=TEAMS, "
        "BOARD_SCORING_METHOD=IMPS"
    )
    assert p.message_sv == (
        f"Filen är en lagtävling ({attributes}), inte en matchpoängräknad partävling. "
        "Ladda upp den som lagresultat."
    )
    assert p.message_en == (
        f"The file is a team event ({attributes}), not a matchpointed pairs event. "
        "Upload it as a team result."
    )


def test_a_wrong_encoding_names_line_and_byte_in_both_languages():
    (p,) = refusal("wrong_encoding.xml").problems
    assert p.message_sv == (
        'Filen säger att den är kodad som UTF-8 (encoding="UTF-8"), men rad 28 innehåller ett '
        "tecken som inte är UTF-8 (byte 0xD6). Spara filen som UTF-8 i resultatprogrammet, "
        "eller rätta encoding i första raden (t.ex. ISO-8859-1)."
    )
    assert p.message_en == (
        'The file says it is encoded as UTF-8 (encoding="UTF-8"), but line 28 contains a '
        "character that is not UTF-8 (byte 0xD6). Save the file as UTF-8 or correct the "
        "encoding in the first line (e.g. ISO-8859-1)."
    )


def test_a_csv_value_that_is_not_a_number():
    (p,) = refusal("bad_number.csv", "teams").problems
    assert p.message_sv == 'Kolumnen imps_home har värdet "tio", som inte är ett tal.'
    assert p.message_en == 'Column imps_home has the value "tio", which is not a number.'


def test_a_validation_message_with_a_nested_phrase():
    """The traveller line ("par 10 (NS) mot 3 (ÖV)") is itself a translated message."""
    (p,) = validate_pairs(parse_upload(broken("mp_wrong.xml"), "mp_wrong.xml", "pairs"))
    assert p.message_sv == (
        "Bricka 7, par 10 (NS) mot 3 (ÖV): MP NS + MP ÖV = 10,00, men toppen är 8,00 "
        "(5 resultat på brickan)."
    )
    assert p.message_en == (
        "Board 7, pair 10 (NS) v 3 (EW): MP NS + MP EW = 10,00, but the top is 8,00 "
        "(5 results on the board)."
    )


def test_a_team_match_is_named_in_the_readers_language():
    event = parse_upload(broken("wrong_board_count.xml"), "wrong_board_count.xml", "teams")
    (p,) = validate_teams(event)
    assert p.clause == "R-TEAM-KVAL-5"
    assert p.message_sv == (
        "Matchen rond 2: 1-3 har 22 brickor, men de andra matcherna har 24; alla matcher i en "
        "heat ska ha lika många brickor (R-TEAM-KVAL-5)."
    )
    assert p.message_en == (
        "The match round 2: 1-3 has 22 boards, but the other matches have 24; every match of "
        "a heat must have the same number of boards (R-TEAM-KVAL-5)."
    )


def test_a_template_missing_from_the_catalogue_stays_swedish_in_english():
    """No English invented: an unknown msgid falls back to itself (gettext's fallback). (A
    plain string, not gettext_noop: makemessages reads tests/ too.)"""
    p = problem("Ingen sådan mall %(n)s.", params={"n": 3})
    assert p.message_sv == p.message_en == "Ingen sådan mall 3."


def test_the_standard_gettext_reader_and_django_render_agree():
    p = validate_pairs(parse_upload(broken("mp_wrong.xml"), "mp_wrong.xml", "pairs"))[0]
    assert render(p, "en") == p.message_en
    assert render(p, "sv") == p.message_sv
    nested = p.with_line  # "rad 551: …", the message inside a message
    assert render(nested, "en") == english(nested.template, nested.params)


def test_problem_dicts_render_text_and_place_in_the_language_asked_for():
    problems = refusal("truncated.xml").problems
    (sv,) = problem_dicts(problems)
    (en,) = problem_dicts(problems, "en")
    assert sv["text"].startswith("XML-filen är trasig på rad 950") and sv["where"] == "rad 950"
    assert en["text"].startswith("The XML file is broken at line 950")
    assert en["where"] == "line 950"
    assert sv["severity"] == en["severity"] == "error"

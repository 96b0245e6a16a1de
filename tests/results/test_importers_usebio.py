"""USEBIO 1.2/1.3 parsing: pairs and teams, layouts, quirks, safety and error locations."""

from __future__ import annotations

import codecs
from decimal import Decimal

import pytest

from results.importers.model import ImportFailed, ParsedPairEvent, ParsedTeamEvent
from results.importers.usebio import load_xml, parse_usebio, parse_usebio_pairs, parse_usebio_teams
from results.importers.validate import validate_pairs
from ubf.rules.scoring import imps

from ._fixtures import fixture

SMALL_PAIRS = """<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">
<USEBIO Version="1.3">
<EVENT EVENT_TYPE="PAIRS">
  <EVENT_DESCRIPTION>Kval</EVENT_DESCRIPTION>
  <DATE>2016-10-14</DATE>
  <SESSION SESSION_ID="1"><SECTION SECTION_ID="A">
  <PARTICIPANTS>
    <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION>NS</DIRECTION><PERCENTAGE>75.00</PERCENTAGE>
      <PLACE>1</PLACE>
      <PLAYER><PLAYER_NAME>ÅSA ÖBERG</PLAYER_NAME><NATIONAL_ID_NUMBER>012345</NATIONAL_ID_NUMBER></PLAYER>
      <PLAYER><PLAYER_NAME>MÄRTA ÄNGSTRÖM</PLAYER_NAME><NATIONAL_ID_NUMBER>23456</NATIONAL_ID_NUMBER></PLAYER>
    </PAIR>
    <PAIR><PAIR_NUMBER>2</PAIR_NUMBER><DIRECTION>NS</DIRECTION><PERCENTAGE>25.00</PERCENTAGE><PLACE>2</PLACE></PAIR>
    <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION>EW</DIRECTION><PERCENTAGE>25.00</PERCENTAGE><PLACE>2</PLACE></PAIR>
    <PAIR><PAIR_NUMBER>2</PAIR_NUMBER><DIRECTION>EW</DIRECTION><PERCENTAGE>75.00</PERCENTAGE><PLACE>1</PLACE></PAIR>
  </PARTICIPANTS>
  <BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
    <TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>
      <CONTRACT>4 H</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>420</SCORE>
      <NS_MATCH_POINTS>2</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS></TRAVELLER_LINE>
    <TRAVELLER_LINE><NS_PAIR_NUMBER>2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
      <CONTRACT>4H</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>9</TRICKS><SCORE>-50</SCORE>
      <NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>2</EW_MATCH_POINTS></TRAVELLER_LINE>
  </BOARD>
  <BOARD><BOARD_NUMBER>2</BOARD_NUMBER>
    <TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
      <CONTRACT>PASS</CONTRACT><SCORE>0</SCORE>
      <NS_MATCH_POINTS>1</NS_MATCH_POINTS><EW_MATCH_POINTS>1</EW_MATCH_POINTS></TRAVELLER_LINE>
    <TRAVELLER_LINE><NS_PAIR_NUMBER>2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>
      <SCORE>A5050</SCORE>
      <NS_MATCH_POINTS>1</NS_MATCH_POINTS><EW_MATCH_POINTS>1</EW_MATCH_POINTS></TRAVELLER_LINE>
  </BOARD>
  </SECTION></SESSION>
</EVENT>
<HANDSET><BOARD><BOARD_NUMBER>1</BOARD_NUMBER><HAND><DIRECTION>North</DIRECTION></HAND></BOARD></HANDSET>
</USEBIO>
"""


def test_howell_fixture():
    event = parse_usebio_pairs(fixture("pairs_howell_usebio.xml"))
    assert isinstance(event, ParsedPairEvent)
    assert event.source_format == "usebio"
    assert event.title == "DM-par kval Veteran, heat 3 (Uppsala)"
    assert event.date.isoformat() == "2016-11-05"
    assert len(event.pairs) == 10 and event.boards_in_session == 27
    assert sorted(p.number for p in event.pairs) == sorted(str(k) for k in range(1, 11))
    lines_per_board = {b.number: len(b.lines) for b in event.boards}
    assert lines_per_board[12] == 4  # one table did not play board 12
    assert all(n == 5 for b, n in lines_per_board.items() if b != 12)
    (art,) = [t for t in event.boards[19].lines if t.adjusted]
    assert event.boards[19].number == 20
    assert art.adjusted == "A6040" and art.score_ns is None
    assert art.mp_ns == Decimal("4.80") and art.mp_ew == Decimal("3.20")
    # The "4 H" quirk is normalised; every contract is canonical.
    contracts = {t.contract for b in event.boards for t in b.lines if t.contract}
    assert all(" " not in c for c in contracts)
    missed = sorted(p.number for p in event.pairs if p.boards_played == 26)
    assert len(missed) == 2
    names = [pl.name for p in event.pairs for pl in p.players]
    assert "ÅSA ÖBERG" in names and "MÄRTA ÄNGSTRÖM" in names
    assert all(pl.mid and pl.mid.isdigit() for p in event.pairs for pl in p.players)


def test_nested_session_section_mitchell_numbers_and_quirks():
    event = parse_usebio(SMALL_PAIRS.encode("iso-8859-1"))
    assert isinstance(event, ParsedPairEvent)
    # Duplicate PAIR_NUMBERs with DIRECTION NS/EW → "1NS"/"1EW", also on the travellers.
    assert [p.number for p in event.pairs] == ["1NS", "2NS", "1EW", "2EW"]
    assert event.boards[0].lines[0].ns == "1NS" and event.boards[0].lines[0].ew == "1EW"
    # MIDs are strings; the leading zero a scoring program pads with is dropped (issue 10).
    assert event.pairs[0].players[0].mid == "12345"
    assert event.boards[0].lines[0].contract == "4H"
    assert event.boards[1].lines[0].contract == "Pass" and event.boards[1].lines[0].score_ns == 0
    assert event.boards[1].lines[1].adjusted == "A5050"
    assert len(event.boards) == 2  # the HANDSET board is not a result board
    assert event.date.isoformat() == "2016-10-14"


def test_teams_fixture():
    event = parse_usebio_teams(fixture("teams_usebio.xml"))
    assert isinstance(event, ParsedTeamEvent)
    assert [t.id for t in event.teams] == ["1", "2", "3", "4"]
    assert event.team("3").name == "Uppsala BK Öberg"
    assert len(event.team("1").players) == 4 and all(p.mid for p in event.team("1").players)
    assert event.boards_per_match == 24 and len(event.matches) == 6
    for m in event.matches:
        assert len(m.boards) == 24
        for b in m.boards:
            assert b.imps_home == imps(b.score_ns_room1 - b.score_ns_room2)
        assert m.imps_home == sum(b.imps_home for b in m.boards if b.imps_home > 0)
        assert m.vp_home + m.vp_away == Decimal("20.00")
    b = event.matches[0].boards[0]
    # R-TEAM-TIE-1: points won on the board, both rooms: home NS in room 1, EW in room 2.
    assert b.points_home == max(b.score_ns_room1, 0) + max(-b.score_ns_room2, 0)
    assert b.points_away == max(-b.score_ns_room1, 0) + max(b.score_ns_room2, 0)


def _teams_xml(matches: str) -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<USEBIO Version="1.2"><EVENT EVENT_TYPE="TEAMS">
<MATCH_SCORING_METHOD>VPS</MATCH_SCORING_METHOD>
<PARTICIPANTS><TEAM TEAM_ID="1" TEAM_NAME="Ruter Ess"/><TEAM TEAM_ID="2" TEAM_NAME="Klöver Kung"/>
</PARTICIPANTS>
{matches}
</EVENT></USEBIO>""".encode()


def test_mirrored_match_is_dropped_with_warning():
    match = """<MATCH><ROUND_NUMBER>1</ROUND_NUMBER><TEAM>{a}</TEAM><OPPOSING_TEAM>{b}</OPPOSING_TEAM>
<TEAM_SCORE>{va}</TEAM_SCORE><OPPOSING_TEAM_SCORE>{vb}</OPPOSING_TEAM_SCORE>
<BOARD><BOARD_NUMBER>1</BOARD_NUMBER><IMPS>{i}</IMPS>
<TRAVELLER_LINE><DIRECTION>NS</DIRECTION><SCORE>{s1}</SCORE></TRAVELLER_LINE>
<TRAVELLER_LINE><DIRECTION>EW</DIRECTION><SCORE>{s2}</SCORE></TRAVELLER_LINE></BOARD></MATCH>"""
    xml = _teams_xml(
        match.format(a=1, b=2, va="10.36", vb="9.64", i=10, s1=420, s2=-50)
        + match.format(a=2, b=1, va="9.64", vb="10.36", i=-10, s1=50, s2=-420)
    )
    event = parse_usebio_teams(xml)
    (m,) = event.matches
    assert (m.home, m.away, m.imps_home, m.imps_away) == ("1", "2", 10, 0)
    assert any("andra lagets sida" in w for w in event.warnings)


def test_match_without_boards_uses_imp_extension_or_fails_naming_the_match():
    ok = _teams_xml(
        "<MATCH><ROUND_NUMBER>1</ROUND_NUMBER><TEAM>1</TEAM><OPPOSING_TEAM>2</OPPOSING_TEAM>"
        "<START_BOARD_NUMBER>1</START_BOARD_NUMBER><END_BOARD_NUMBER>16</END_BOARD_NUMBER>"
        "<TEAM_IMPS>40</TEAM_IMPS><OPPOSING_TEAM_IMPS>30</OPPOSING_TEAM_IMPS></MATCH>"
    )
    (m,) = parse_usebio_teams(ok).matches
    assert (m.imps_home, m.imps_away, m.board_count, m.boards_played) == (40, 30, 16, 16)
    bad = _teams_xml(
        "<MATCH><ROUND_NUMBER>1</ROUND_NUMBER><TEAM>1</TEAM><OPPOSING_TEAM>2</OPPOSING_TEAM>"
        "<TEAM_SCORE>12</TEAM_SCORE><OPPOSING_TEAM_SCORE>8</OPPOSING_TEAM_SCORE></MATCH>"
    )
    with pytest.raises(ImportFailed) as exc:
        parse_usebio_teams(bad)
    p = exc.value.problems[0]
    assert p.element == "USEBIO/EVENT/MATCH" and p.line == 6 and "IMP" in p.message_sv


def test_bad_value_names_element_path_and_line():
    xml = SMALL_PAIRS.replace("<SCORE>-50</SCORE>", "<SCORE>minus femtio</SCORE>")
    with pytest.raises(ImportFailed) as exc:
        parse_usebio_pairs(xml.encode("iso-8859-1"))
    (p,) = exc.value.problems
    assert p.element == "USEBIO/EVENT/SESSION/SECTION/BOARD[1]/TRAVELLER_LINE[2]/SCORE"
    assert p.line == 23
    assert '"minus femtio"' in p.message_sv and "poäng" in p.message_sv


def test_missing_pair_number_on_traveller_is_named():
    xml = SMALL_PAIRS.replace(
        "<EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>\n      <CONTRACT>4H", "\n      <CONTRACT>4H"
    )
    with pytest.raises(ImportFailed) as exc:
        parse_usebio_pairs(xml.encode("iso-8859-1"))
    p = exc.value.problems[0]
    assert "EW_PAIR_NUMBER" in p.message_sv and "TRAVELLER_LINE[2]" in p.element


def test_wrong_kind_and_unsupported_scoring_are_refused():
    with pytest.raises(ImportFailed) as exc:
        parse_usebio_pairs(fixture("teams_usebio.xml"))
    assert "lagtävling" in exc.value.problems[0].message_sv
    with pytest.raises(ImportFailed) as exc:
        parse_usebio_teams(fixture("pairs_howell_usebio.xml"))
    assert "partävling" in exc.value.problems[0].message_sv
    butler = SMALL_PAIRS.replace('EVENT_TYPE="PAIRS"', 'EVENT_TYPE="BUTLER_PAIRS"')
    with pytest.raises(ImportFailed) as exc:
        parse_usebio(butler.encode("iso-8859-1"))
    assert "Butler" in exc.value.problems[0].message_sv


def test_not_usebio_root():
    with pytest.raises(ImportFailed) as exc:
        parse_usebio(b"<?xml version='1.0'?><html><body>Resultat</body></html>")
    assert "<html>" in exc.value.problems[0].message_sv


def test_external_entity_is_refused():
    xml = b"""<?xml version="1.0"?>
<!DOCTYPE USEBIO [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<USEBIO><EVENT><EVENT_DESCRIPTION>&xxe;</EVENT_DESCRIPTION></EVENT></USEBIO>"""
    with pytest.raises(ImportFailed) as exc:
        load_xml(xml)
    p = exc.value.problems[0]
    assert p.line == 2 and "entiteter" in p.message_sv and "xxe" in p.message_sv


def test_bom_and_utf16_files_are_read():
    utf8 = SMALL_PAIRS.replace('encoding="ISO-8859-1"', 'encoding="UTF-8"').encode("utf-8")
    assert parse_usebio_pairs(codecs.BOM_UTF8 + utf8).pairs[0].players[0].name == "ÅSA ÖBERG"
    utf16 = SMALL_PAIRS.replace('encoding="ISO-8859-1"', 'encoding="UTF-16"').encode("utf-16")
    assert parse_usebio_pairs(utf16).pairs[0].players[1].name == "MÄRTA ÄNGSTRÖM"


def test_unknown_declared_encoding():
    with pytest.raises(ImportFailed) as exc:
        parse_usebio(b'<?xml version="1.0" encoding="klingon-8"?><USEBIO/>')
    assert "klingon-8" in exc.value.problems[0].message_sv


def test_small_file_validates():
    # NS 420 beats -50: 2/0 on board 1; board 2: one real result and an A5050.
    event = parse_usebio_pairs(SMALL_PAIRS.encode("iso-8859-1"))
    problems = validate_pairs(event)
    assert [p for p in problems if p.is_error] == [], [str(p) for p in problems]


def test_traveller_line_without_any_result_is_skipped_with_a_warning():
    xml = SMALL_PAIRS.replace(
        "<CONTRACT>4H</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>9</TRICKS><SCORE>-50</SCORE>\n"
        "      <NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>2</EW_MATCH_POINTS>",
        "",
    )
    event = parse_usebio_pairs(xml.encode("iso-8859-1"))
    assert len(event.boards[0].lines) == 1
    assert any("räknas som ej spelad" in w and "TRAVELLER_LINE[2]" in w for w in event.warnings)
    # With a contract but no score it is an error naming the element.
    xml = SMALL_PAIRS.replace("<SCORE>-50</SCORE>", "")
    with pytest.raises(ImportFailed) as exc:
        parse_usebio_pairs(xml.encode("iso-8859-1"))
    assert "saknar elementet SCORE" in exc.value.problems[0].message_sv

"""Result files written by other programs (tests/fixtures/results/real/, see its README).

Valid files import with the number of pairs and boards they hold and with percentages that
equal the file's own: the expected percentages below were read by hand off the files'
``<PERCENTAGE>`` elements (not produced by the code under test). Invalid files are refused
with one short message that says what the file is.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from results.importers import ImportFailed, compute_pair_totals, parse_upload, validate_pairs
from results.importers.csv_teams import parse_csv_teams

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "results" / "real"


def real(name: str) -> bytes:
    return (REAL / name).read_bytes()


# Read off compscore3_mp_pairs_howell.xml, PAIR_NUMBER → PERCENTAGE.
HOWELL_PERCENT = {
    "1": "47.69", "2": "58.07", "3": "48.92", "4": "53.41", "5": "50.30", "6": "60.22",
    "7": "59.48", "8": "43.85", "9": "46.67", "10": "44.67", "11": "48.74", "12": "37.85",
}  # fmt: skip
# Read off compscore3_mp_pairs_mitchell_03.xml (PAIR_NUMBER already carries the direction).
MITCHELL_PERCENT = {
    "1NS": "53.89", "2NS": "50.56", "2EW": "51.90", "3NS": "62.78", "3EW": "47.62",
    "4NS": "24.44", "4EW": "43.33", "5NS": "49.44", "5EW": "50.00", "6NS": "55.00",
    "6EW": "55.71", "7NS": "53.89", "7EW": "51.43",
}  # fmt: skip


@pytest.mark.parametrize(
    ("name", "pairs", "boards", "percent"),
    [
        ("compscore3_mp_pairs_howell.xml", 12, 27, HOWELL_PERCENT),
        ("compscore3_mp_pairs_mitchell_03.xml", 13, 21, MITCHELL_PERCENT),
    ],
)
def test_valid_real_file_imports_with_the_files_own_figures(name, pairs, boards, percent):
    event = parse_upload(real(name), name, "pairs")
    assert len(event.pairs) == pairs
    assert len(event.boards) == boards
    assert [p for p in validate_pairs(event) if p.is_error] == []
    assert compute_pair_totals(event) == {k: Decimal(v) for k, v in percent.items()}


def refusal(name: str, kind: str = "pairs"):
    with pytest.raises(ImportFailed) as exc:
        parse_upload(real(name), name, kind)
    problems = exc.value.problems
    assert len(problems) == 1, [p.message_sv for p in problems]
    return problems[0]


@pytest.mark.parametrize(
    ("name", "code", "says"),
    [
        ("compscore3_cross_imp_howell.xml", "usebio-event-type", "cross-IMP"),
        # EVENT_TYPE is an unknown "NOTSUP", but PARTICIPANTS and BOARD say Butler: refused,
        # where it used to be read as matchpointed pairs.
        ("compscore3_notsupported.xml", "usebio-event-type", "Butler"),
        ("pbntools_kops_imp_sm0807.pbn", "pbn-imp-scoring", "IMP-räknad"),
        ("pbntools_jfr_barometer_wb120802.pbn", "pbn-no-pair-numbers", "inga parnummer"),
        ("pbntools_bbo_annamar_1538.pbn", "pbn-no-pair-numbers", "BBO"),
        ("bridgecomposer_hand_record.pbn", "pbn-hand-record", "handlista"),
    ],
)
def test_invalid_real_file_is_refused_with_one_message(name, code, says):
    p = refusal(name)
    assert p.code == code
    assert says in p.message_sv
    assert "Ladda upp" in p.message_sv or "exportera" in p.message_sv
    assert len(p.message_sv) < 400


def test_compscore_butler_message_names_the_program_and_what_to_do():
    p = refusal("compscore3_notsupported.xml")
    assert p.message_sv.startswith("Filen är en Butler-partävling")
    assert "Compscore3" in p.message_sv
    assert "räkna tävlingen i matchpoäng" in p.message_sv


def test_pairs_file_offered_as_teams_gets_one_message():
    usebio = refusal("compscore3_mp_pairs_howell.xml", "teams")
    assert usebio.code == "usebio-wrong-kind" and "Ladda upp den under par" in usebio.message_sv
    from .test_importers_magic import MAGIC

    with pytest.raises(ImportFailed) as exc:
        parse_upload(MAGIC.encode(), "heat.pbn", "teams")
    (p,) = exc.value.problems
    assert p.code == "pbn-pairs-as-teams" and "Ladda upp den under par" in p.message_sv


def test_hand_record_offered_as_teams_gets_one_message():
    p = refusal("bridgecomposer_hand_record.pbn", "teams")
    assert p.code == "pbn-no-team-tags"


def test_frequency_table_without_pair_numbers_gets_one_message():
    from .test_importers_magic import MAGIC

    freq = MAGIC.replace("PairId_NS\\2R;PairId_EW\\2R;", "")
    freq = "\n".join(
        " ".join(line.split()[:2] + line.split()[4:])
        if line.startswith((" 1  ", " 2  ")) and len(line.split()) > 9
        else line
        for line in freq.splitlines()
    )
    with pytest.raises(ImportFailed) as exc:
        parse_upload(freq.encode(), "freq.pbn", "pairs")
    (p,) = exc.value.problems
    assert p.code == "pbn-frequency-table" and "alla 3 brickor" in p.message_sv


def test_ranking_list_without_board_results_gets_one_message():
    from .test_importers_magic import MAGIC

    head = MAGIC.split('[Board "1"]')[0]
    with pytest.raises(ImportFailed) as exc:
        parse_upload(head.encode(), "bridgewebs.pbn", "pairs")
    (p,) = exc.value.problems
    assert p.code == "pbn-no-boards" and "ScoreTable" in p.message_sv


SWEDISH_CSV = """tävling;DM Lag kval Enköping;2016-11-12
lag;1;Ruter Ess;Åsa Öberg (12345);Märta Ängström (23456)
lag;2;Klöver Kung
rond;hemma;borta;imp_hemma;imp_borta;vp_hemma;vp_borta;brickor
1;1;2;45;32;13,78;6,22;16
"""


def test_team_csv_with_swedish_headers_is_the_same_as_with_english_ones():
    english = (
        SWEDISH_CSV.replace("tävling;", "event;")
        .replace("lag;", "team;")
        .replace("rond;hemma;borta;imp_hemma;imp_borta;vp_hemma;vp_borta;brickor",
                 "round;home;away;imps_home;imps_away;vp_home;vp_away;boards")
    )  # fmt: skip
    sv, en = parse_csv_teams(SWEDISH_CSV), parse_csv_teams(english)
    assert sv.matches == en.matches and sv.teams == en.teams
    (m,) = sv.matches
    # The values as written in the row: 45-32 IMPs, 13,78-6,22 VP (decimal comma), 16 boards.
    assert (m.imps_home, m.imps_away, m.vp_home, m.vp_away) == (
        Decimal(45), Decimal(32), Decimal("13.78"), Decimal("6.22"),
    )  # fmt: skip
    assert m.board_count == 16


def test_cross_imp_file_offered_as_teams_is_not_sent_to_pairs():
    p = refusal("compscore3_cross_imp_howell.xml", "teams")
    assert p.code == "usebio-event-type"
    assert "cross-IMP" in p.message_sv and "under par" not in p.message_sv
    assert "Exportera lagtävlingens resultat" in p.message_sv

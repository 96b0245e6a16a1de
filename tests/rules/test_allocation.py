"""Final size and the proportional allocation of final seats (SPEC: Final places, pairs;
R-TEAM-ADV-1 for teams)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ubf.rules.allocation import (
    allocate_seats,
    final_size_pairs,
    final_size_teams,
    fmt_fraction,
    seat_holders,
)
from ubf.rules.draw import seeded_draw
from ubf.rules.season import DEFAULT_RULES, SeasonRules


def first_k(candidates, k):
    """A deterministic 'draw' for tests: the first k candidates in the order given."""
    return list(candidates)[:k]


def no_draw(candidates, k):
    raise AssertionError(f"draw must not be called (asked {candidates!r}, {k})")


class RecordingDraw:
    def __init__(self, winners):
        self.winners = winners
        self.calls = []

    def __call__(self, candidates, k):
        self.calls.append((list(candidates), k))
        return self.winners


# --- R-ALLOC-1, R-TEAM-ADV-1: final size ------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "size"), [(0, 28), (20, 28), (60, 28), (61, 32), (80, 32), (81, 36), (200, 36)]
)
def test_r_alloc_1_pair_final_size_thresholds(pairs, size):
    # R-ALLOC-1: 28; 32 from 61 qualifying pairs; 36 from 81.
    assert final_size_pairs(pairs) == size


def test_r_alloc_1_final_size_comes_from_season_rules():
    # R-ALLOC-1 thresholds are season configuration, not code.
    rules = SeasonRules(pair_final_sizes=((0, 24), (50, 30)))
    assert final_size_pairs(49, rules=rules) == 24
    assert final_size_pairs(50, rules=rules) == 30
    assert final_size_pairs(61, rules=DEFAULT_RULES) == 32


@pytest.mark.parametrize(("teams", "size"), [(0, 8), (4, 8), (19, 8), (20, 10), (45, 10)])
def test_r_team_adv_1_team_final_size_thresholds(teams, size):
    # R-TEAM-ADV-1: 8 teams; 10 from 20 qualifying teams.
    assert final_size_teams(teams) == size


def test_r_team_adv_1_final_size_comes_from_season_rules():
    rules = SeasonRules(team_final_sizes=((0, 6), (12, 8)))
    assert final_size_teams(11, rules=rules) == 6
    assert final_size_teams(12, rules=rules) == 8


# --- R-ALLOC-3: proportional shares -------------------------------------------------------------


def test_r_alloc_3_exact_shares_whole_parts_then_largest_fractions():
    # 28 seats, 30 + 20 + 10 = 60 entries: shares 14, 28/3 (9.33) and 14/3 (4.67).
    alloc = allocate_seats(28, {"A": 30, "B": 20, "C": 10}, draw=no_draw)
    assert alloc.shares == {"A": Fraction(14), "B": Fraction(28, 3), "C": Fraction(14, 3)}
    assert all(isinstance(s, Fraction) for s in alloc.shares.values())
    # Whole parts 14 + 9 + 4 = 27; the one seat left goes to the largest fraction (C: 2/3).
    assert alloc.seats == {"A": 14, "B": 9, "C": 5}
    rows = {row.venue: row for row in alloc.rows}
    assert (rows["B"].whole, rows["B"].fraction, rows["B"].extra) == (9, Fraction(1, 3), False)
    assert (rows["C"].whole, rows["C"].fraction, rows["C"].extra) == (4, Fraction(2, 3), True)
    assert alloc.lots == []


def test_r_alloc_3_several_seats_left_go_one_each_in_fraction_order():
    # 10 seats over 7 + 7 + 6 + 4 + 3 = 27 entries: shares 70/27, 70/27, 60/27, 40/27, 30/27
    # whole 2, 2, 2, 1, 1 = 8; fractions 16/27, 16/27, 6/27, 13/27, 3/27: A and B get the two.
    alloc = allocate_seats(10, {"A": 7, "B": 7, "C": 6, "D": 4, "E": 3}, draw=no_draw)
    assert alloc.seats == {"A": 3, "B": 3, "C": 2, "D": 1, "E": 1}


def test_r_alloc_3_zero_entry_venue_gets_nothing():
    alloc = allocate_seats(28, {"A": 40, "Empty": 0, "B": 30}, draw=no_draw)
    assert alloc.seats["Empty"] == 0
    assert alloc.shares["Empty"] == 0
    assert sum(alloc.seats.values()) == 28


def test_r_alloc_3_negative_count_is_reported_not_raised():
    alloc = allocate_seats(10, {"A": 12, "B": -3}, draw=no_draw)
    assert alloc.seats == {"A": 10, "B": 0}
    assert [v.clause for v in alloc.violations] == ["R-ALLOC-3"]
    assert "negativt" in alloc.violations[0].message_sv


def test_r_alloc_1_everyone_goes_when_no_more_entries_than_seats():
    # R-ALLOC-1: fewer qualified than the size: all go on; a share above a venue's entries is
    # capped at its entries and the spare seats are left unallocated.
    alloc = allocate_seats(28, {"A": 12, "B": 7, "C": 0}, draw=no_draw)
    assert alloc.everyone_goes
    assert alloc.seats == {"A": 12, "B": 7, "C": 0}
    assert alloc.shares["A"] == Fraction(28 * 12, 19)  # the share itself stays R-ALLOC-3's
    assert "alla går vidare" in alloc.explain("sv")


# --- R-ALLOC-4: equal fractions ------------------------------------------------------------------


def test_r_alloc_4_equal_fractions_larger_share_first():
    # SPEC's example: 12.50 and 9.50 with one seat left -> 13 and 9.
    alloc = allocate_seats(22, {"A": 125, "B": 95}, draw=no_draw)
    assert alloc.shares == {"A": Fraction(25, 2), "B": Fraction(19, 2)}
    assert alloc.seats == {"A": 13, "B": 9}
    assert {row.venue: row.decided_by for row in alloc.rows} == {"A": "R-ALLOC-4", "B": "R-ALLOC-4"}


def test_r_alloc_4_does_not_depend_on_venue_order_or_name():
    # The smaller share listed first and named first still loses the equal-fraction tie.
    alloc = allocate_seats(22, {"a-small": 95, "z-large": 125}, draw=no_draw)
    assert alloc.seats == {"a-small": 9, "z-large": 13}
    assert alloc.lots == []  # different entry counts: no lot (R-ALLOC-5 is for equal venues)


# --- R-ALLOC-5: lots between equal venues -----------------------------------------------------


def test_r_alloc_5_lot_with_deterministic_draw():
    # 10 seats, A, B, C 5 entries each and D 3: shares 25/9 (2.78) x3 and 5/3; whole 2+2+2+1 = 7;
    # 3 left: A, B, C (7/9) all get one; no lot.
    assert allocate_seats(10, {"A": 5, "B": 5, "C": 5, "D": 3}, draw=no_draw).lots == []
    # 9 seats: shares 2.5 x3 and 1.5; whole 7; 2 left for A, B, C: one lot for 2 seats.
    draw = RecordingDraw(["C", "A"])
    alloc = allocate_seats(9, {"A": 5, "B": 5, "C": 5, "D": 3}, draw=draw)
    assert draw.calls == [(["A", "B", "C"], 2)]
    assert alloc.seats == {"A": 3, "B": 2, "C": 3, "D": 1}
    (lot,) = alloc.lots
    assert lot.among == ("A", "B", "C")
    assert lot.seats == 2
    assert lot.winners == ("C", "A")
    assert lot.drawn == ("C", "A")
    assert lot.by_precedence == ()
    assert lot.losers == ("B",)
    assert lot.seed is None  # TK's / the caller's draw, no system seed
    assert alloc.precedence_gained == ("B",)
    assert {row.venue: row.decided_by for row in alloc.rows}["B"] == "R-ALLOC-5"


def test_r_alloc_5_precedence_settles_the_lot_without_a_draw():
    alloc = allocate_seats(9, {"A": 5, "B": 5, "C": 5, "D": 3}, precedence=["B", "C"], draw=no_draw)
    (lot,) = alloc.lots  # still recorded as a lot
    assert lot.winners == ("B", "C")
    assert lot.by_precedence == ("B", "C")
    assert lot.drawn == ()
    assert lot.losers == ("A",)
    assert alloc.seats == {"A": 2, "B": 3, "C": 3, "D": 1}
    assert alloc.precedence_used == ("B", "C")


def test_r_alloc_5_oldest_precedence_first_when_holders_outnumber_seats():
    # One seat left among three equal venues; C's precedence is older than A's.
    alloc = allocate_seats(4, {"A": 3, "B": 3, "C": 3}, precedence=["C", "A"], draw=no_draw)
    (lot,) = alloc.lots
    assert lot.winners == ("C",)
    assert lot.losers == ("A", "B")
    assert alloc.seats == {"A": 1, "B": 1, "C": 2}


def test_r_alloc_5_precedence_first_then_draw_for_the_rest():
    # Two seats among A, B, C; B holds precedence; the draw is only among A and C for one.
    draw = RecordingDraw(["C"])
    alloc = allocate_seats(9, {"A": 5, "B": 5, "C": 5, "D": 3}, precedence=["X", "B"], draw=draw)
    assert draw.calls == [(["A", "C"], 1)]
    (lot,) = alloc.lots
    assert lot.by_precedence == ("B",)
    assert lot.drawn == ("C",)
    assert lot.winners == ("B", "C")
    assert lot.losers == ("A",)


def test_r_alloc_5_default_draw_records_a_reproducible_seed():
    alloc = allocate_seats(9, {"A": 5, "B": 5, "C": 5, "D": 3})
    (lot,) = alloc.lots
    assert lot.seed is not None
    assert len(lot.winners) == 2 and set(lot.winners) < {"A", "B", "C"}
    assert tuple(seeded_draw(lot.seed)(["A", "B", "C"], 2)) == lot.drawn
    assert str(lot.seed) in alloc.explain("en")


def test_r_alloc_5_equal_venues_that_all_get_the_seat_need_no_lot():
    alloc = allocate_seats(8, {"A": 5, "B": 5, "C": 3}, draw=no_draw)
    # shares 40/13 (3.08) x2, 24/13 (1.85): whole 3+3+1 = 7; C's 11/13 wins the one left.
    assert alloc.seats == {"A": 3, "B": 3, "C": 2}
    assert alloc.lots == []


def test_r_alloc_5_bad_draw_is_a_programming_error():
    with pytest.raises(ValueError):
        allocate_seats(9, {"A": 5, "B": 5, "C": 5, "D": 3}, draw=lambda c, k: ["A"])


# --- explanation -------------------------------------------------------------------------


def test_explanation_lists_every_venue_and_lot():
    alloc = allocate_seats(9, {"A": 5, "B": 5, "C": 5, "D": 3}, draw=first_k)
    venue_lines = [line for line in alloc.explanation if line["venue"] is not None]
    assert [line["venue"] for line in venue_lines] == ["A", "B", "C", "D"]
    d = next(line for line in venue_lines if line["venue"] == "D")
    assert d["data"] == {
        "entries": 3,
        "share": "3/2",
        "whole": 1,
        "fraction": "1/2",
        "extra": False,
        "seats": 1,
    }
    assert "fördelningstal 1,50" in d["message"].message_sv
    assert "share 1.50" in d["message"].message_en
    lot_lines = [line for line in alloc.explanation if line["clause"] == "R-ALLOC-5"]
    assert lot_lines[-1]["data"]["losers"] == ["C"]
    assert "Lottning mellan A, B, C" in alloc.explain("sv")


def test_fmt_fraction_shows_exact_value_when_two_decimals_hide_it():
    assert fmt_fraction(Fraction(25, 2)) == "12,50"
    assert fmt_fraction(Fraction(28, 3), "en") == "9.33 (28/3)"
    assert fmt_fraction(Fraction(2, 3)) == "0,67 (2/3)"


# --- R-ALLOC-2, R-ALLOC-6: who takes a venue's seats ------------------------------------------


def test_r_alloc_2_direct_qualifier_counts_but_is_passed_over():
    # R-ALLOC-2: final 28, one registered direct qualifier -> 27 seats for the venues. The
    # direct pair D played at A: it counts among A's 10 entries, but A's seats go past it.
    seats_for_venues = final_size_pairs(10 + 20) - 1
    alloc = allocate_seats(seats_for_venues, {"A": 10, "B": 20}, draw=no_draw)
    assert alloc.shares["A"] == Fraction(27 * 10, 30)  # D counted: 9 seats
    ranking_a = ["a1", "D", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"]
    ranking_b = [f"b{i}" for i in range(1, 21)]
    sh = seat_holders({"A": ranking_a, "B": ranking_b}, alloc.seats, direct={"D"})
    assert sh.holders["A"] == ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"]
    assert "D" not in sh.rankings["A"]
    assert sh.passed_over["A"] == [("D", "R-ALLOC-2")]
    assert sh.unfilled == {"A": 0, "B": 0}


def test_r_alloc_6_seats_in_ranking_order_skipping_struck_entries():
    sh = seat_holders(
        {"A": ["a1", "a2", "a3", "a4", "a5"], "B": ["b1", "b2"]},
        {"A": 3, "B": 2},
        struck={"a2"},
    )
    assert sh.holders == {"A": ["a1", "a3", "a4"], "B": ["b1", "b2"]}
    assert sh.rankings["A"] == ["a1", "a3", "a4", "a5"]
    assert sh.passed_over["A"] == [("a2", "R-ALLOC-6")]


def test_r_alloc_6_too_few_entries_leaves_seats_unfilled():
    sh = seat_holders({"A": ["a1", "a2", "a3"]}, {"A": 3, "B": 1}, struck={"a3"})
    assert sh.holders == {"A": ["a1", "a2"], "B": []}
    assert sh.unfilled == {"A": 1, "B": 1}
    assert any("kunde inte fyllas" in line["message"].message_sv for line in sh.explanation)


# --- properties -----------------------------------------------------------------------------

venue_counts = st.dictionaries(
    st.text(alphabet="ABCDEFGHIJ", min_size=1, max_size=2),
    st.integers(min_value=0, max_value=60),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(seats=st.integers(min_value=0, max_value=40), venues=venue_counts)
def test_allocation_properties(seats, venues):
    # R-ALLOC-3 / R-ALLOC-1: exactly min(seats, entries) seats, never more than a venue's
    # entries; the same answer for the same input with a deterministic draw.
    alloc = allocate_seats(seats, venues, draw=first_k)
    total = sum(venues.values())
    assert sum(alloc.seats.values()) == min(seats, total)
    for v, count in venues.items():
        assert 0 <= alloc.seats[v] <= count
        if not alloc.everyone_goes:
            # Quota: each venue gets its share's whole part or one more.
            share = alloc.shares[v]
            assert share.numerator // share.denominator <= alloc.seats[v] <= share + 1
    assert allocate_seats(seats, dict(venues), draw=first_k) == alloc
    # A venue with more entries never gets fewer seats than one with fewer entries.
    for a, ca in venues.items():
        for b, cb in venues.items():
            if ca > cb:
                assert alloc.seats[a] >= alloc.seats[b]
    # Every lot is between venues with equal entries, some of which lost.
    for lot in alloc.lots:
        assert len({venues[v] for v in lot.among}) == 1
        assert lot.losers and set(lot.winners) | set(lot.losers) == set(lot.among)

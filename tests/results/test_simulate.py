"""Simulated results (ubf.demo.simulate): files the validators accept, deterministic for a
seed, and stronger pairs/teams doing better on average."""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal
from statistics import mean

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from results.importers import (
    compute_pair_scores,
    parse_upload,
    validate_pairs,
    validate_teams,
)
from ubf.demo.simulate import board_plan, play, simulate_pair_heat, simulate_team_matches
from ubf.demo.writers import (
    write_csv_teams,
    write_pbn_pairs,
    write_pbn_teams,
    write_usebio_pairs,
    write_usebio_teams,
)
from ubf.rules.schedule import round_robin
from ubf.rules.scoring import imps
from ubf.rules.vp import victory_points


def field(n: int, strength=lambda i: i % 5) -> list[tuple]:
    return [
        (str(i + 1), (str(10001 + 2 * i), f"Åsa Öberg {i}"), (str(10002 + 2 * i), "Jöns Ek"),
         strength(i))
        for i in range(n)
    ]  # fmt: skip


def teams(n: int, strength=lambda i: i) -> list[tuple]:
    return [
        (i + 1, f"Lag {i + 1}", [(str(70001 + 6 * i + k), f"Spelare {k}") for k in range(4)],
         strength(i))
        for i in range(n)
    ]  # fmt: skip


def schedule(n: int) -> list[tuple[int, int, int]]:
    numbers = list(range(1, n + 1))
    return [
        (r + 1, home, away)
        for r, pairing in enumerate(round_robin(numbers))
        for home, away in pairing
        if home is not None and away is not None
    ]


# --------------------------------------------------------------------------- pairs


@pytest.mark.parametrize(
    "n, movement", [(21, "mitchell"), (24, "mitchell"), (12, "howell"), (17, "howell")]
)
def test_simulated_pair_heat_passes_validation_and_reads_back_from_its_files(n, movement):
    # R-PAIR-KVAL-5: matchpointed heats, MP1 top 2(n - 1), Neuberg for a missed board.
    event = simulate_pair_heat(field(n), 27, seed=7, movement=movement, title="DM-par kval")
    assert validate_pairs(event) == []
    assert event.boards_in_session == 27 and len(event.boards) == 27
    assert {p.number for p in event.pairs} == {str(i + 1) for i in range(n)}
    pbn = parse_upload(write_pbn_pairs(event).encode("latin-1"), "heat.pbn", "pairs")
    usebio = parse_upload(write_usebio_pairs(event), "heat.xml", "pairs")
    for parsed in (pbn, usebio):
        assert validate_pairs(parsed) == []
        assert [(p.number, p.percentage, p.rank) for p in parsed.pairs] == [
            (p.number, p.percentage, p.rank) for p in event.pairs
        ]
        assert parsed.pairs[0].players[0].mid == event.pairs[0].players[0].mid


def test_a_missed_board_is_neuberg_scaled_and_the_pairs_factored():
    event = simulate_pair_heat(field(20), 27, seed=3, movement="mitchell", unplayed=1)
    counts = Counter(len(b.lines) for b in event.boards)
    assert counts == {10: 26, 9: 1}
    short = next(b for b in event.boards if len(b.lines) == 9)
    for line in short.lines:  # the board's own top: 2 (9 - 1)
        assert line.mp_ns + line.mp_ew == 16
    scores = compute_pair_scores(event)
    missed = {p for p, s in scores.items() if s.boards_played == 26}
    assert len(missed) == 2
    for number in missed:
        s = scores[number]
        assert s.total != s.raw_total  # factored to 27 boards
        file_pair = event.pair(number)
        assert file_pair.boards_played == 26
        assert file_pair.total == (
            Decimal(s.total.numerator) / Decimal(s.total.denominator)
        ).quantize(Decimal("0.01"))
    assert validate_pairs(event) == []


def test_full_travellers_without_missed_boards():
    event = simulate_pair_heat(field(14), 26, seed=1, movement="howell", unplayed=0)
    assert {len(b.lines) for b in event.boards} == {7}
    assert all(p.boards_played == 26 for p in event.pairs)


@pytest.mark.parametrize("movement", ["mitchell", "howell"])
def test_no_pair_meets_the_same_pair_twice_or_plays_a_board_twice(movement):
    event = simulate_pair_heat(field(19), 27, seed=11, movement=movement, unplayed=0)
    meetings = Counter()
    for board in event.boards:
        played = [x for line in board.lines for x in (line.ns, line.ew)]
        assert len(played) == len(set(played))
        for line in board.lines:
            meetings[frozenset((line.ns, line.ew))] += 1
    rounds = len({line.round for b in event.boards for line in b.lines})
    per_round = 27 // rounds
    assert set(meetings.values()) == {per_round}
    # The odd field has a sit-out: one pair a round misses the round's boards, none twice.
    played = Counter(x for b in event.boards for line in b.lines for x in (line.ns, line.ew))
    assert Counter(played.values()) == {27: 19 - rounds, 27 - per_round: rounds}


@settings(max_examples=20, deadline=None)
@given(
    n=st.integers(min_value=4, max_value=30),
    boards=st.sampled_from([18, 24, 26, 27, 28]),
    movement=st.sampled_from(["mitchell", "howell"]),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_any_simulated_heat_validates(n, boards, movement, seed):
    event = simulate_pair_heat(field(n), boards, seed=seed, movement=movement)
    assert validate_pairs(event) == []
    assert event.boards_in_session == boards
    ranks = [p.rank for p in event.pairs]
    assert ranks == list(range(1, n + 1))
    percentages = [p.percentage for p in event.pairs]
    assert percentages == sorted(percentages, reverse=True)


def test_bronze_declarations_are_carried_into_the_files():
    event = simulate_pair_heat(field(12), 27, seed=2, movement="howell", declared={"1", "4"})
    declared = {p.number: p.declared_qualifier for p in event.pairs}
    assert declared["1"] is True and declared["4"] is True and declared["2"] is False
    parsed = parse_upload(write_pbn_pairs(event).encode("latin-1"), "bronze.pbn", "pairs")
    assert {p.number: p.declared_qualifier for p in parsed.pairs} == declared


def test_pair_simulation_is_deterministic_for_a_seed():
    a = simulate_pair_heat(field(16), 27, seed=42, movement="howell")
    b = simulate_pair_heat(field(16), 27, seed=42, movement="howell")
    c = simulate_pair_heat(field(16), 27, seed=43, movement="howell")
    assert a == b
    assert write_pbn_pairs(a) == write_pbn_pairs(b)
    assert write_usebio_pairs(a) == write_usebio_pairs(b)
    assert a.boards != c.boards


def test_stronger_pairs_score_better_on_average():
    strong = {str(i + 1) for i in range(0, 20, 2)}
    pcts: dict[bool, list[Decimal]] = {True: [], False: []}
    for seed in range(6):
        event = simulate_pair_heat(
            field(20, strength=lambda i: 6 if i % 2 == 0 else 1), 27, seed=seed
        )
        for p in event.pairs:
            pcts[p.number in strong].append(p.percentage)
    assert mean(pcts[True]) > mean(pcts[False]) + 3
    assert mean(pcts[True]) > 50 > mean(pcts[False])


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        simulate_pair_heat(field(10), 27, seed=1, movement="skip-mitchell")
    with pytest.raises(ValueError):
        simulate_pair_heat(field(2), 27, seed=1)
    with pytest.raises(ValueError):
        simulate_pair_heat(field(3) + field(1), 27, seed=1)  # pair number 1 twice


def test_play_with_no_edge_draws_like_the_fixtures_generator():
    # The fixtures script's files depend on this: no extra random numbers without an edge.
    a, b = random.Random(5), random.Random(5)
    plan = board_plan(random.Random(1), 7)
    for _ in range(50):
        play(a, 7, plan)
    for _ in range(50):
        play(b, 7, plan, 0.0)
    assert a.random() == b.random()


# --------------------------------------------------------------------------- teams


def test_simulated_team_heat_passes_validation_in_every_format():
    # R-TEAM-VP-1, R-TEAM-KVAL-5: IMPs per board, WBF VPs, the same boards in every match.
    event = simulate_team_matches(teams(5), schedule(5), 18, seed=9, title="DM Lag kval")
    assert validate_teams(event, expected_boards=18) == []
    assert len(event.matches) == 10
    for m in event.matches:
        assert len(m.boards) == 18
        for b in m.boards:
            assert b.imps_home == imps(b.score_ns_room1 - b.score_ns_room2)
        assert (m.vp_home, m.vp_away) == victory_points(m.imps_home, m.imps_away, 18)
        assert m.vp_home + m.vp_away == 20
    files = {
        "heat.csv": write_csv_teams(event).encode("utf-8"),
        "heat.pbn": write_pbn_teams(event).encode("latin-1"),
        "heat.xml": write_usebio_teams(event),
    }
    for name, data in files.items():
        parsed = parse_upload(data, name, "teams")
        assert validate_teams(parsed, expected_boards=18) == [], name
        assert [(m.round, m.home, m.away, m.imps_home, m.imps_away) for m in parsed.matches] == [
            (m.round, m.home, m.away, m.imps_home, m.imps_away) for m in event.matches
        ], name


def test_team_simulation_is_deterministic_and_a_round_is_simulated_as_in_the_whole():
    whole = simulate_team_matches(teams(10), schedule(10), 20, seed=2017)
    again = simulate_team_matches(teams(10), schedule(10), 20, seed=2017)
    assert whole == again
    round3 = [m for m in schedule(10) if m[0] == 3]
    part = simulate_team_matches(teams(10), round3, 20, seed=2017)
    assert part.matches == [m for m in whole.matches if m.round == 3]
    other = simulate_team_matches(teams(10), schedule(10), 20, seed=2018)
    assert other.matches != whole.matches


def test_stronger_teams_win_more_vp_on_average():
    vp_strong = []
    for seed in range(12):
        event = simulate_team_matches(
            teams(2, strength=lambda i: 6 if i == 0 else 1), [(1, 1, 2), (2, 2, 1)], 16, seed=seed
        )
        for m in event.matches:
            vp_strong.append(m.vp_home if m.home == "1" else m.vp_away)
    assert mean(vp_strong) > 12


def test_team_matches_with_unknown_teams_are_refused():
    with pytest.raises(ValueError):
        simulate_team_matches(teams(4), [(1, 1, 7)], 16, seed=1)


def test_the_simulator_is_pure_python():
    import ast
    from pathlib import Path

    import ubf.demo.simulate

    tree = ast.parse(Path(ubf.demo.simulate.__file__).read_text(encoding="utf-8"))
    modules = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    } | {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert not {m for m in modules if m.split(".")[0] in ("django", "clubs", "pairs", "teams")}
    assert "results.models" not in modules

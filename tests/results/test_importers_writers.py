"""Writers: every file they write reads back through the importers to the same data."""

from __future__ import annotations

import dataclasses
import random
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from results.importers.csv_teams import parse_csv_teams
from results.importers.detect import parse_upload
from results.importers.model import (
    ParsedBoard,
    ParsedPair,
    ParsedPairEvent,
    ParsedPlayer,
    TravellerLine,
)
from results.importers.pbn import parse_pbn_pairs, parse_pbn_teams
from results.importers.usebio import parse_usebio_pairs, parse_usebio_teams
from results.importers.validate import compute_pair_totals, validate_pairs, validate_teams
from ubf.demo.writers import (
    write_csv_teams,
    write_pbn_pairs,
    write_pbn_teams,
    write_usebio_pairs,
    write_usebio_teams,
)
from ubf.rules.scoring import matchpoints

from ._fixtures import fixture


def same_pairs_event(a: ParsedPairEvent, b: ParsedPairEvent) -> None:
    assert a.title == b.title and a.date == b.date
    assert a.boards_in_session == b.boards_in_session
    assert a.scoring_scale == b.scoring_scale
    assert a.pairs == b.pairs  # `line` fields do not take part in ==
    assert a.boards == b.boards


def same_team_event(a, b) -> None:
    assert a.title == b.title and a.date == b.date
    assert a.teams == b.teams
    assert a.matches == b.matches


def howell():
    return parse_usebio_pairs(fixture("pairs_howell_usebio.xml"))


def mitchell():
    return parse_pbn_pairs(fixture("pairs_ruter_mitchell.pbn").decode("latin-1"))


def test_pbn_pairs_round_trip_latin1_like_ruter():
    for event in (howell(), mitchell()):
        text = write_pbn_pairs(event)
        data = text.encode("latin-1")
        again = parse_upload(data, "heat.pbn", "pairs")
        same_pairs_event(event, again)
        assert validate_pairs(again) == []


def test_pbn_pairs_carries_mids_in_the_names_cell():
    text = write_pbn_pairs(mitchell())
    assert "Åsa Öberg (" in text and ") - Märta Ängström (" in text
    assert '[TotalScoreTable "Rank\\' in text and "[ScoreTable " in text
    assert '"N-S"' in text  # Mitchell numbers 1NS/1EW written as PairId + Direction


def test_usebio_pairs_round_trip():
    for event in (howell(), mitchell()):
        data = write_usebio_pairs(event)
        assert data.startswith(b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE USEBIO')
        same_pairs_event(event, parse_usebio_pairs(data))


def test_usebio_pairs_keeps_artificial_and_assigned_scores():
    event = howell()
    b = event.boards[0]
    assigned = dataclasses.replace(b.lines[0], adjusted="^")
    event = dataclasses.replace(
        event, boards=[dataclasses.replace(b, lines=[assigned, *b.lines[1:]]), *event.boards[1:]]
    )
    for again in (
        parse_usebio_pairs(write_usebio_pairs(event)),
        parse_pbn_pairs(write_pbn_pairs(event)),
    ):
        assert again.boards[0].lines[0].adjusted == "^"
        assert again.boards[0].lines[0].score_ns == assigned.score_ns
        assert again.boards[19].lines[1].adjusted == "A6040"


def test_team_writers_round_trip():
    sources = [
        parse_usebio_teams(fixture("teams_usebio.xml")),
        parse_pbn_teams(fixture("teams_ruter.pbn").decode("latin-1")),
    ]
    for event in sources:
        same_team_event(event, parse_usebio_teams(write_usebio_teams(event)))
        same_team_event(event, parse_pbn_teams(write_pbn_teams(event)))
        same_team_event(event, parse_csv_teams(write_csv_teams(event)))


def test_csv_only_matches_round_trip_through_usebio_with_imp_totals():
    event = parse_csv_teams(fixture("teams.csv").decode("utf-8-sig"))
    assert any(not m.boards for m in event.matches)
    data = write_usebio_teams(event)
    assert b"<TEAM_IMPS>" in data  # matches without boards keep their IMPs
    again = parse_usebio_teams(data)
    same_team_event(event, again)
    assert validate_teams(again, expected_boards=24) == []
    same_team_event(event, parse_upload(write_csv_teams(event).encode(), "x.csv", "teams"))
    from_pbn = parse_pbn_teams(write_pbn_teams(event))  # the MatchScoreTable keeps them
    same_team_event(event, from_pbn)
    assert validate_teams(from_pbn, expected_boards=24) == []


def test_csv_writer_uses_semicolons_and_decimal_comma():
    event = parse_usebio_teams(fixture("teams_usebio.xml"))
    text = write_csv_teams(event)
    assert "round;home;away;imps_home;imps_away;vp_home;vp_away;boards" in text
    m = event.matches[0]
    assert f"1;1;2;{m.imps_home};{m.imps_away};{str(m.vp_home).replace('.', ',')}" in text


# --------------------------------------------------------------------------- property

NAME_CHARS = "abcdefghijklmnopqrstuvwxyzåäöéüABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖ'"
names = st.builds(
    lambda first, last: f"{first} {last}",
    st.text(NAME_CHARS, min_size=1, max_size=8),
    st.text(NAME_CHARS + "-", min_size=1, max_size=10).filter(lambda s: not s.startswith("-")),
)
mids = st.one_of(st.none(), st.integers(1000, 999999).map(str))


@st.composite
def pair_events(draw):
    n_pairs = draw(st.integers(4, 10)) // 2 * 2
    numbers = [str(k) for k in range(1, n_pairs + 1)]
    n_boards = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    boards = []
    for b in range(1, n_boards + 1):
        order = numbers[:]
        rng.shuffle(order)
        tables = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        tables = tables[: rng.randint(1, len(tables))]
        scores = [rng.choice([-1430, -620, -100, -50, 0, 50, 110, 140, 420, 450, 990])
                  for _ in tables]  # fmt: skip
        mps = matchpoints(scores)
        top = 2 * (len(tables) - 1)
        lines = [
            TravellerLine(ns, ew, None, None, None, s, Decimal(int(mp)), Decimal(top - int(mp)))
            for (ns, ew), s, mp in zip(tables, scores, mps)
        ]
        boards.append(ParsedBoard(b, lines))
    players = {x: tuple(ParsedPlayer(draw(mids), draw(names)) for _ in range(2)) for x in numbers}
    skeleton = ParsedPairEvent("Heat", None, n_boards, [], boards)
    pct = compute_pair_totals(skeleton)
    order = sorted(numbers, key=lambda x: -pct.get(x, Decimal(0)))
    pairs = [
        ParsedPair(x, players[x], percentage=pct.get(x), rank=order.index(x) + 1) for x in numbers
    ]
    return dataclasses.replace(skeleton, pairs=pairs, title=draw(names))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair_events())
def test_random_pairs_events_round_trip_through_both_writers(event):
    pbn = parse_pbn_pairs(write_pbn_pairs(event))
    usebio = parse_usebio_pairs(write_usebio_pairs(event))
    for again in (pbn, usebio):
        same_pairs_event(event, again)
        assert compute_pair_totals(again) == compute_pair_totals(event)


def test_unique_mitchell_numbers_with_suffix_keep_their_numbers():
    event = mitchell()
    renumber = {f"{k}EW": f"{k + 7}EW" for k in range(1, 8)}

    def rn(x):
        return renumber.get(x, x)

    event = dataclasses.replace(
        event,
        pairs=[dataclasses.replace(p, number=rn(p.number)) for p in event.pairs],
        boards=[
            dataclasses.replace(
                b, lines=[dataclasses.replace(t, ns=rn(t.ns), ew=rn(t.ew)) for t in b.lines]
            )
            for b in event.boards
        ],
    )
    again = parse_pbn_pairs(write_pbn_pairs(event))
    assert {p.number for p in again.pairs} == {p.number for p in event.pairs}
    same_pairs_event(event, again)

"""A bronze heat (R-PAIR-KVAL-5) whose published order once contradicted its seats (issue 21),
uploaded for real: a Ruter-style PBN file written here, sent through
``results.services.uploads.upload_pair_heat`` and recomputed on commit, as a club's upload is.

The heat, "Bronskval Z", is a Mitchell of 5 tables, 5 rounds of 5 boards: 25 boards (at least
24, R-PAIR-KVAL-5), each played at every table. North-South are pairs 1-5, East-West 6-10.
Declared for the qualifier: pairs 1, 2 (A), 3 (B) and 5: four, the bronze minimum. Pair 4 (U)
and the East-West pairs did not declare.

Every board has 5 results, so the top is 2 × (5 − 1) = 8 matchpoints (MP1). On every board
North-South pair 1 scores best (8), pair 5 worst (0); A, B and U share the rest (6, 4 and 2,
or the mean of the places they share):

- boards 1-3: U 450, A 420, B 400 → A 4, B 2, U 6;
- boards 4-5: A 450, B and U 400 → A 6, B 3, U 3;
- boards 9-12: B 450, A and U 400 → A 3, B 6, U 3;
- boards 6-8 and 13-25: A, B and U 420 → 4 each.

Totals: A 3·4 + 2·6 + 4·3 + 16·4 = 100, B 3·2 + 2·3 + 4·6 + 64 = 100, U 3·6 + 2·3 + 4·3 + 64
= 100: 100 of 25 × 8 = 200, 50.00 % each. Pair 1 has 200 (100.00 %), pair 5 none (0.00 %).

Boards won (R-PAIR-TIE-1 (1)): A against B: boards 1-5, 5; B against A: boards 9-12, 4. So of
the declared pairs A goes first. Among all three: A 5 + 2 (boards 4-5 over U) = 7; B 4 + 4
(boards 9-12 over U) = 8; U 3 (boards 1-3 over A) + 3 (boards 1-3 over B) = 6: counted with
U, B would lead, then A, then U (the order the page showed before issue 21).

East-West (matchpoints 8 − North-South's at the table; round r, table t: boards 5·((t + r)
mod 5) + 1 …, East-West pair 6 + ((t + 2r) mod 5), so each East-West pair meets every
North-South pair once and plays every board once). None of them scores 50 %: their totals,
summed in :func:`east_west_totals`, are 96, 104, 92, 110 and 98 for pairs 6-10.

The second file, ``variant="lot"`` (R-PAIR-TIE-1 (3)), keeps boards 1-5 and changes the rest:
boards 9-10: B and U 450, A 400 → A 2, B 5, U 5; boards 11-13: B 450, A 420, U 400 → A 4, B 6,
U 2; the other 15 boards 420 each. Totals: A 12 + 12 + 2·2 + 3·4 + 15·4 = 100, B 6 + 6 + 2·5 +
3·6 + 60 = 100, U 18 + 6 + 2·5 + 3·2 + 60 = 100: 50.00 % each again. Boards won between A and
B: A 5 (boards 1-5), B 5 (boards 9-13); A and B never meet (both North-South), so head-to-head
is 0 against 0: only a lot can separate them. East-West: 98, 110, 90, 108 and 94.

With a silver heat "X" of 56 pairs: 56 + 4 = 60 qualifying pairs, a 28-pair final (R-ALLOC-1);
shares 28 · 56/60 = 26.133 and 28 · 4/60 = 1.867; whole seats 26 + 1, the last to Z (.867
against .133): Z has 2 seats (R-ALLOC-3), for its first two declared pairs: pair 1, then A.
"""

from __future__ import annotations

from contextlib import nullcontext
from decimal import Decimal

from clubs import clock
from pairs.models import PairEntry
from results.importers.model import (
    ParsedBoard,
    ParsedPair,
    ParsedPairEvent,
    ParsedPlayer,
    TravellerLine,
)
from results.services.uploads import upload_pair_heat
from tests.factories import PairCompetitionFactory, PairHeatFactory, member
from tests.results.test_recompute_pairs import heat_with_results
from ubf.demo.writers import write_pbn_pairs

TABLES = 5
BOARDS_PER_ROUND = 5
BOARDS = TABLES * BOARDS_PER_ROUND
TOP = 8
SCORE_OF_MP = {8: 620, 6: 450, 4: 420, 2: 400, 0: -100}

#: (A, B, U) matchpoints per board, as the module docstring lists them.
PATTERNS = {
    "issue21": {
        **dict.fromkeys(range(1, BOARDS + 1), (4, 4, 4)),
        **dict.fromkeys(range(1, 4), (4, 2, 6)),
        **dict.fromkeys(range(4, 6), (6, 3, 3)),
        **dict.fromkeys(range(9, 13), (3, 6, 3)),
    },
    "lot": {
        **dict.fromkeys(range(1, BOARDS + 1), (4, 4, 4)),
        **dict.fromkeys(range(1, 4), (4, 2, 6)),
        **dict.fromkeys(range(4, 6), (6, 3, 3)),
        **dict.fromkeys(range(9, 11), (2, 5, 5)),
        **dict.fromkeys(range(11, 14), (4, 6, 2)),
    },
}
PATTERN = PATTERNS["issue21"]
#: (A, B, U) scores giving those matchpoints (the shared places share a score).
SCORES = {
    (4, 2, 6): (420, 400, 450),
    (6, 3, 3): (450, 400, 400),
    (3, 6, 3): (400, 450, 400),
    (2, 5, 5): (400, 450, 450),
    (4, 6, 2): (420, 450, 400),
    (4, 4, 4): (420, 420, 420),
}
DECLARED = {"1", "2", "3", "5"}
NAMES = {"2": "A", "3": "B", "4": "U"}


def ns_matchpoints(board: int, variant: str = "issue21") -> dict[str, int]:
    """North-South matchpoints on ``board`` by pair number (the docstring's table)."""
    a, b, u = PATTERNS[variant][board]
    return {"1": TOP, "2": a, "3": b, "4": u, "5": 0}


def ns_scores(board: int, variant: str = "issue21") -> dict[str, int]:
    a, b, u = SCORES[PATTERNS[variant][board]]
    return {"1": SCORE_OF_MP[TOP], "2": a, "3": b, "4": u, "5": SCORE_OF_MP[0]}


def seating():
    """(round, table, north-south, east-west, first board) of the Mitchell."""
    for r in range(TABLES):
        for t in range(TABLES):
            yield r + 1, t + 1, str(t + 1), str(6 + (t + 2 * r) % TABLES), 1 + 5 * ((t + r) % 5)


def east_west_totals(variant: str = "issue21") -> dict[str, int]:
    totals = dict.fromkeys((str(n) for n in range(6, 11)), 0)
    for _r, _t, ns, ew, first in seating():
        for board in range(first, first + BOARDS_PER_ROUND):
            totals[ew] += TOP - ns_matchpoints(board, variant)[ns]
    return totals


def bronze_event(mids: dict[str, tuple[str, str]], variant: str = "issue21") -> ParsedPairEvent:
    """The heat as a parsed event (written to PBN by the demo's writer): ``mids`` maps a pair
    number to its players' MIDs."""
    totals = {
        ns: sum(ns_matchpoints(b, variant)[ns] for b in range(1, BOARDS + 1)) for ns in "12345"
    }
    totals.update(east_west_totals(variant))
    pct = {
        n: (Decimal(t) * 100 / (BOARDS * TOP)).quantize(Decimal("0.01")) for n, t in totals.items()
    }
    order = sorted(totals, key=lambda n: (-totals[n], int(n)))
    pairs = [
        ParsedPair(
            number=n,
            players=tuple(ParsedPlayer(mid=m, name=f"Spelare {m}") for m in mids[n]),
            total=Decimal(totals[n]),
            percentage=pct[n],
            rank=order.index(n) + 1,
            boards_played=BOARDS,
            declared_qualifier=n in DECLARED,
        )
        for n in sorted(totals, key=int)
    ]
    lines: dict[int, list[TravellerLine]] = {b: [] for b in range(1, BOARDS + 1)}
    for rnd, table, ns, ew, first in seating():
        for board in range(first, first + BOARDS_PER_ROUND):
            mp = ns_matchpoints(board, variant)[ns]
            lines[board].append(
                TravellerLine(
                    ns=ns,
                    ew=ew,
                    contract=None,
                    declarer=None,
                    tricks=None,
                    score_ns=ns_scores(board, variant)[ns],
                    mp_ns=Decimal(mp),
                    mp_ew=Decimal(TOP - mp),
                    round=rnd,
                    table=table,
                )
            )
    return ParsedPairEvent(
        title="Bronskval Z",
        date=None,
        boards_in_session=BOARDS,
        pairs=pairs,
        boards=[ParsedBoard(number=b, lines=lines[b]) for b in sorted(lines)],
        scoring_scale="MP1",
        source_format="pbn",
    )


def bronze_season(tk, capture, *, competition=None, variant: str = "issue21"):
    """The competition with silver heat X (56 pairs) and bronze heat Z uploaded by ``tk``
    through the upload service, the recompute run on commit (``capture``: pytest-django's
    ``django_capture_on_commit_callbacks``; None in a test whose transactions commit).
    Returns (competition, heat Z, entries of Z by pair number)."""
    comp = competition or PairCompetitionFactory(discipline="open")
    x, _ = heat_with_results(comp, 56)
    x.name = "X"
    x.save()
    z = PairHeatFactory(competition=comp, heat_type="bronze", name="Bronskval Z")
    season = comp.season
    entries, mids = {}, {}
    for n in range(1, 11):
        p1, p2 = member(season=season), member(season=season)
        entries[str(n)] = PairEntry.objects.create(
            heat=z,
            player1=p1,
            player2=p2,
            pair_number=str(n),
            takes_part_in_qualifier=str(n) in DECLARED,
        )
        mids[str(n)] = (p1.mid, p2.mid)
    data = write_pbn_pairs(bronze_event(mids, variant)).encode("latin-1")
    # capture: run the commit's recompute inside a test's transaction; None where the upload
    # commits for real (a live server's test), which runs it.
    with clock.frozen("2017-02-11 10:00"), capture(execute=True) if capture else nullcontext():
        outcome = upload_pair_heat(tk, z, data=data, filename="bronskval-z.pbn")
    assert outcome.upload.status == "accepted", outcome
    return comp, z, entries

"""Deterministic simulated results for the demo season and the benchmarks (pure Python).

The simulators return the importers' own dataclasses (:mod:`results.importers.model`), so a
simulated heat can be written with :mod:`ubf.demo.writers` and uploaded through the
same service as a club's file:

* :func:`simulate_pair_heat` → :class:`ParsedPairEvent`: a barometer movement (Mitchell or
  Howell; every table plays the same boards in a round), realistic contracts and scores
  (:func:`ubf.rules.scoring.contract_score`, the standard vulnerability cycle), Law 78A
  matchpoints on the MP1 scale, a board now and then missed by a slow table (so Neuberg and
  factoring are used, as R-PAIR-KVAL-5's heats are scored), and totals, percentages and ranks
  recomputed with :func:`results.importers.validate.compute_pair_scores`, so that
  :func:`~results.importers.validate.validate_pairs` finds nothing.
* :func:`simulate_team_matches` → :class:`ParsedTeamEvent`: two rooms per board, IMPs from the
  IMP table (Law 78B) and VPs on the WBF scale (R-TEAM-VP-1, R-VP-1..3), so that
  :func:`~results.importers.validate.validate_teams` with ``expected_boards`` finds nothing.

A pair's or team's ``strength`` (e.g. the players' average pin, 0-7) biases the play: the
stronger side takes an extra trick more often, both as declarer and on defence. The same seed
always gives the same event (string seeds are hashed with SHA-512 by :mod:`random`, so the
result does not depend on ``PYTHONHASHSEED``), and a team match's result depends only on the
seed, its round and its two teams, so a subset of the matches (one round of a final) is
simulated exactly as in the whole.

:func:`board_plan` and :func:`play` are also used by ``tests/fixtures/results/make_fixtures.py``.
"""

from __future__ import annotations

import datetime
import math
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from results.importers.model import (
    ParsedBoard,
    ParsedMatch,
    ParsedPair,
    ParsedPairEvent,
    ParsedPlayer,
    ParsedTeam,
    ParsedTeamBoard,
    ParsedTeamEvent,
    TravellerLine,
    board_points,
    match_imps,
)
from results.importers.validate import compute_pair_scores
from ubf.rules.schedule import round_robin
from ubf.rules.scoring import board_vulnerability, contract_score, imps, matchpoints
from ubf.rules.vp import victory_points

__all__ = [
    "Result",
    "board_plan",
    "edge",
    "play",
    "simulate_pair_heat",
    "simulate_team_matches",
]

_CENT = Decimal("0.01")
STRENGTH_SCALE = 3.0  # a strength difference of 3 (pins) gives an edge of tanh(1) ≈ 0.76
EXTRA_TRICK = 0.45  # chance of a trick more for the better side, times the edge


# --------------------------------------------------------------------------- card play


@dataclass
class Result:
    """One table's result on a board; ``score_ns`` is North-South's score."""

    contract: str  # "4S", "3NTX", "Pass"
    declarer: str | None
    tricks: int | None
    score_ns: int
    lead: str


def _vul(board: int, declarer: str) -> bool:
    v = board_vulnerability(board)
    return v == "All" or (v == "NS" and declarer in "NS") or (v == "EW" and declarer in "EW")


def board_plan(rng: random.Random, board: int) -> dict:
    """The deal's "par": strain, level, declarer and tricks most tables will reach."""
    strain = rng.choice(["S", "H", "NT", "NT", "D", "C", "S", "H"])
    level = {
        "NT": [1, 2, 3, 3, 3, 6],
        "S": [2, 3, 4, 4, 4, 6],
        "H": [2, 3, 4, 4, 4, 5],
        "D": [2, 3, 5, 3],
        "C": [2, 3, 5, 2],
    }[strain]
    lvl = rng.choice(level)
    return {
        "strain": strain,
        "level": lvl,
        "declarer": rng.choice("NESW"),
        "tricks": max(0, min(13, lvl + 6 + rng.choice([-1, 0, 0, 0, 1, 1, 2]))),
        "passout": rng.random() < 0.08,
    }


def play(rng: random.Random, board: int, plan: dict, edge: float = 0.0) -> Result:
    """One table's result on a board planned by :func:`board_plan`.

    ``edge`` (-1..1) is North-South's advantage over East-West (see :func:`edge`): the better
    side takes one trick more with probability ``EXTRA_TRICK × |edge|``. With ``edge == 0``
    the random numbers drawn are exactly those of the original fixtures generator.
    """
    lead = rng.choice("SHDC") + rng.choice("AKQJT98765432")
    if plan["passout"] and rng.random() < 0.5:
        return Result("Pass", None, None, 0, "-")
    strain, level, declarer = plan["strain"], plan["level"], plan["declarer"]
    tricks = plan["tricks"] + rng.choice([-1, 0, 0, 0, 0, 1])
    r = rng.random()
    if r < 0.2:
        level = max(1, min(7, level + rng.choice([-1, 1])))
    elif r < 0.3:
        strain = rng.choice(["S", "H", "D", "C", "NT"])
        level = rng.choice([1, 2, 3])
        tricks = level + 6 + rng.choice([-2, -1, 0, 0, 1, 2])
    if rng.random() < 0.5:
        declarer = {"N": "S", "S": "N", "E": "W", "W": "E"}[declarer]
    if edge:
        declaring = edge if declarer in "NS" else -edge
        if rng.random() < EXTRA_TRICK * abs(declaring):
            tricks += 1 if declaring > 0 else -1
    tricks = max(0, min(13, tricks))
    doubled = 0
    if (
        tricks < level + 6 - 1
        and rng.random() < 0.5
        or tricks >= level + 6
        and level >= 4
        and rng.random() < 0.05
    ):
        doubled = 1
    score = contract_score(level, strain, doubled, _vul(board, declarer), tricks)
    score_ns = score if declarer in "NS" else -score
    contract = f"{level}{strain}{'X' * doubled}"
    return Result(contract, declarer, tricks, score_ns, lead)


def edge(strength_ns: float, strength_ew: float) -> float:
    """North-South's advantage, -1..1, from the two sides' strengths."""
    return math.tanh((float(strength_ns) - float(strength_ew)) / STRENGTH_SCALE)


def _rng(*parts: object) -> random.Random:
    return random.Random("/".join(str(p) for p in parts))  # noqa: S311 (demo data, seeded)


def _cents(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(_CENT, ROUND_HALF_UP)


# --------------------------------------------------------------------------- pairs


def _movement(slots: list, movement: str) -> list[list[tuple]]:
    """All rounds of the movement as lists of (NS slot, EW slot), one per table."""
    if movement == "howell":
        return [list(r) for r in round_robin(slots)]
    if movement == "mitchell":
        tables = len(slots) // 2
        ns, ew = slots[:tables], slots[tables:]
        return [[(ns[t], ew[(t + r) % tables]) for t in range(tables)] for r in range(tables)]
    raise ValueError(f"movement must be 'mitchell' or 'howell', got {movement!r}")


def _boards_per_round(boards: int, available_rounds: int) -> int:
    """The fewest boards a round (2 or more when possible) that fit the movement's rounds."""
    for k in range(2, boards + 1):
        if boards % k == 0 and boards // k <= available_rounds:
            return k
    if boards <= available_rounds:
        return 1
    raise ValueError(f"{boards} boards do not fit {available_rounds} rounds")


def simulate_pair_heat(
    pairs: Sequence[tuple],
    boards: int,
    *,
    seed: int | str,
    movement: str = "mitchell",
    declared: Mapping[str, bool] | Collection[str] | None = None,
    title: str = "",
    date: datetime.date | None = None,
    unplayed: int = 1,
) -> ParsedPairEvent:
    """A simulated pairs heat (R-PAIR-KVAL-5 scoring: matchpoints, Neuberg, factoring).

    ``pairs``: ``(number, (mid1, name1), (mid2, name2), strength)`` per pair; the numbers are
    kept (Mitchell: the first half sits North-South, the rest East-West; an odd field gets a
    sit-out). ``boards`` is the number of boards in the session, played in rounds of 2 or more
    boards (``ValueError`` if they cannot be fitted). ``declared`` gives the bronze heats'
    declaration (a mapping number → bool, or the collection of declared numbers).
    ``unplayed`` lines are left out (a slow table missed a board), so those boards are
    Neuberg-scaled and the pairs factored.
    """
    if len(pairs) < 3:
        raise ValueError("a pairs heat needs at least three pairs")
    numbers = [str(p[0]) for p in pairs]
    if len(set(numbers)) != len(numbers):
        raise ValueError("pair numbers must be unique")
    strength = {str(p[0]): float(p[3]) for p in pairs}
    slots: list[str | None] = numbers + ([None] if len(numbers) % 2 else [])
    rounds = _movement(slots, movement)
    per_round = _boards_per_round(boards, len(rounds))
    rounds = rounds[: boards // per_round]

    # Who plays which board where: every table of a round plays the round's boards.
    seats: dict[int, list[tuple[int, int, str, str]]] = {}
    for r, tables in enumerate(rounds):
        for t, (ns, ew) in enumerate(tables, start=1):
            if ns is None or ew is None:
                continue  # the sit-out
            for b in range(r * per_round + 1, (r + 1) * per_round + 1):
                seats.setdefault(b, []).append((r + 1, t, ns, ew))
    skip_rng = _rng(seed, "slow")
    for _ in range(max(0, unplayed)):
        candidates = [b for b, lines in seats.items() if len(lines) >= 4]
        if not candidates:
            break
        b = skip_rng.choice(sorted(candidates))
        seats[b].pop(skip_rng.randrange(len(seats[b])))

    parsed_boards = []
    for b in sorted(seats):
        plan = board_plan(_rng(seed, "deal", b), b)
        rng = _rng(seed, "play", b)
        results = [
            (r, t, ns, ew, play(rng, b, plan, edge(strength[ns], strength[ew])))
            for r, t, ns, ew in seats[b]
        ]
        mps = matchpoints([x[4].score_ns for x in results])
        top = 2 * (len(results) - 1)
        lines = []
        for (r, t, ns, ew, res), mp in zip(results, mps):
            passed = res.contract == "Pass"
            lines.append(
                TravellerLine(
                    ns=ns,
                    ew=ew,
                    contract=res.contract,
                    declarer=None if passed else res.declarer,
                    tricks=None if passed else res.tricks,
                    score_ns=res.score_ns,
                    mp_ns=Decimal(int(mp)),
                    mp_ew=Decimal(top - int(mp)),
                    round=r,
                    table=t,
                )
            )
        parsed_boards.append(ParsedBoard(number=b, lines=lines))

    base = ParsedPairEvent(
        title=title,
        date=date,
        boards_in_session=len(rounds) * per_round,
        pairs=[ParsedPair(number=n) for n in numbers],
        boards=parsed_boards,
        scoring_scale="MP1",
    )
    scores = compute_pair_scores(base)
    if declared is None:
        declared_of: dict[str, bool] = {}
    elif isinstance(declared, Mapping):
        declared_of = {str(k): bool(v) for k, v in declared.items()}
    else:
        chosen = {str(x) for x in declared}
        declared_of = {n: n in chosen for n in numbers}

    def order(p: tuple) -> tuple:
        s = scores.get(str(p[0]))
        pct = s.percentage if s is not None and s.percentage is not None else Fraction(-1)
        n = str(p[0])
        return (-pct, int(n) if n.isdigit() else 0, n)

    ranked = []
    for rank, p in enumerate(sorted(pairs, key=order), start=1):
        n = str(p[0])
        s = scores.get(n)
        ranked.append(
            ParsedPair(
                number=n,
                players=(ParsedPlayer(str(p[1][0]), p[1][1]), ParsedPlayer(str(p[2][0]), p[2][1])),
                total=_cents(s.total) if s else None,
                percentage=_cents(s.percentage) if s and s.percentage is not None else None,
                rank=rank if s else None,
                boards_played=s.boards_played if s else None,
                declared_qualifier=declared_of.get(n),
            )
        )
    return ParsedPairEvent(
        title=title,
        date=date,
        boards_in_session=base.boards_in_session,
        pairs=ranked,
        boards=parsed_boards,
        scoring_scale="MP1",
        source_format="simulated",
    )


# --------------------------------------------------------------------------- teams


def _players(mids: Sequence) -> tuple[ParsedPlayer, ...]:
    out = []
    for m in mids:
        if isinstance(m, (tuple, list)):
            out.append(ParsedPlayer(str(m[0]), str(m[1])))
        else:
            out.append(ParsedPlayer(str(m), ""))
    return tuple(out)


def simulate_team_matches(
    teams: Sequence[tuple],
    matches: Sequence[tuple[int, int | str, int | str]],
    boards_per_match: int,
    *,
    seed: int | str,
    title: str = "",
    date: datetime.date | None = None,
) -> ParsedTeamEvent:
    """Simulated team matches (R-TEAM-VP-1: IMPs per board, VPs on the WBF scale).

    ``teams``: ``(number, name, mids, strength)``, where ``mids`` holds MIDs or
    ``(mid, name)`` pairs; ``matches``: ``(round, home number, away number)``. In room 1 the
    home team sits North-South, in room 2 East-West; both rooms play the same deal, and the
    matches of a round play the same deals (duplicated boards).
    """
    if not 1 <= boards_per_match <= 64:
        raise ValueError("boards_per_match must be 1..64")
    by_number = {str(t[0]): t for t in teams}
    parsed = []
    for rnd, home, away in matches:
        home, away = str(home), str(away)
        if home not in by_number or away not in by_number:
            raise ValueError(f"unknown team in match {rnd}: {home}-{away}")
        s_home, s_away = float(by_number[home][3]), float(by_number[away][3])
        rng = _rng(seed, "match", rnd, home, away)
        boards = []
        for b in range(1, boards_per_match + 1):
            plan = board_plan(_rng(seed, "deal", rnd, b), b)
            room1 = play(rng, b, plan, edge(s_home, s_away))
            room2 = play(rng, b, plan, edge(s_away, s_home))
            ph, pa = board_points(room1.score_ns, room2.score_ns)
            boards.append(
                ParsedTeamBoard(
                    number=b,
                    score_ns_room1=room1.score_ns,
                    score_ns_room2=room2.score_ns,
                    imps_home=Decimal(imps(room1.score_ns - room2.score_ns)),
                    points_home=ph,
                    points_away=pa,
                )
            )
        imps_home, imps_away = match_imps([x.imps_home for x in boards])
        vp_home, vp_away = victory_points(imps_home, imps_away, boards_per_match)
        parsed.append(
            ParsedMatch(
                round=int(rnd),
                home=home,
                away=away,
                imps_home=imps_home,
                imps_away=imps_away,
                vp_home=vp_home,
                vp_away=vp_away,
                boards=boards,
            )
        )
    return ParsedTeamEvent(
        title=title,
        date=date,
        boards_per_match=boards_per_match,
        teams=[ParsedTeam(str(t[0]), str(t[1]), _players(t[2])) for t in teams],
        matches=parsed,
        source_format="simulated",
    )

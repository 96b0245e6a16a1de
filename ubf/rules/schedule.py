"""Round-robin schedules: R-TEAM-KVAL-4, R-TEAM-FINAL-1, R-TEAM-DF-1, R-PAIR-DF-2.

A schedule is a list of rounds; a round is a list of ``(home, away)`` tuples. With an odd number
of entries one entry sits out each round: its tuple is ``(entry, None)`` (a bye).

Besides making schedules (:func:`round_robin`, :func:`seeded_schedule`), this module checks one
that a person entered or adjusted (:func:`schedule_violations`), spreads rounds over play days
(:func:`round_days`), and says how a match of N boards is played (:func:`match_halves`) and how
many boards a final's match has (:func:`final_board_violations`, R-TEAM-FINAL-1).
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Hashable, Sequence
from datetime import date

from .i18n import gettext_noop
from .season import DEFAULT_RULES, SeasonRules
from .violations import Severity, Violation

Round = list[tuple[Hashable, Hashable]]

# Above this many subsets of Berger rounds, seeded_schedule searches locally instead of trying
# them all (a speed limit, not a regulation number).
_EXHAUSTIVE_LIMIT = 3000
# Up to this many slots (entries, plus one for the bye when odd) seeded_schedule tries every
# schedule there is (at most 137,592 sets of rounds, for 7 or 8 entries in 5 rounds), so the
# most even one is found, not only a good one (a speed limit, not a regulation number).
_EXHAUSTIVE_SLOTS = 8


def full_round_robin_rounds(number_of_entries: int) -> int:
    """R-TEAM-KVAL-4: rounds needed for everyone to meet everyone (n − 1, or n when n is odd
    because of the bye)."""
    if number_of_entries < 2:
        return 0
    return number_of_entries - 1 if number_of_entries % 2 == 0 else number_of_entries


def round_robin(entries: Sequence[Hashable]) -> list[Round]:
    """R-TEAM-KVAL-4, R-TEAM-FINAL-1, R-TEAM-DF-1: a single round robin by Berger's circle
    method. Every two entries meet exactly once; with an odd number each entry has one bye
    ``(entry, None)``; every entry's home and away counts differ by at most one."""
    entries = list(entries)
    if len(entries) < 2:
        return []
    slots: list[Hashable | None] = entries + ([None] if len(entries) % 2 else [])
    n = len(slots)
    fixed = slots[-1]
    rotating = slots[:-1]
    schedule: list[Round] = []
    for r in range(n - 1):
        arranged = [rotating[(r + i) % (n - 1)] for i in range(n - 1)]
        round_: Round = []
        # The fixed slot meets position 0, alternating home and away by round.
        first = arranged[0]
        if fixed is None:
            round_.append((first, None))
        elif r % 2 == 0:
            round_.append((first, fixed))
        else:
            round_.append((fixed, first))
        # Position i (home) meets position n-1-i (away); each entry passes every position once.
        for i in range(1, n // 2):
            round_.append((arranged[i], arranged[n - 1 - i]))
        schedule.append(round_)
    return schedule


def _labelings(entries: list[Hashable]) -> list[list[Hashable]]:
    """Deterministic orders to feed the circle method: each gives another set of rounds."""
    n = len(entries)
    orders = [entries]
    snake = []
    lo, hi = 0, n - 1
    while lo <= hi:
        snake.append(entries[lo])
        if lo != hi:
            snake.append(entries[hi])
        lo, hi = lo + 1, hi - 1
    orders.append(snake)
    for step in range(2, n):
        if math.gcd(step, n) == 1:
            orders.append([entries[(i * step) % n] for i in range(n)])
        if len(orders) >= 4:
            break
    unique: list[list[Hashable]] = []
    for order in orders:
        if order not in unique:
            unique.append(order)
    return unique


def _score(totals: list[int], counts: list[int], scale: int) -> tuple[int, int]:
    """(spread, n·Σx² − (Σx)²) of the mean opponent seed, scaled to integers."""
    values = [t * (scale // c) for t, c in zip(totals, counts) if c]
    if not values:
        return (0, 0)
    return (
        max(values) - min(values),
        len(values) * sum(v * v for v in values) - sum(values) ** 2,
    )


def _choose_rounds(vectors: list[tuple[list[int], list[int]]], k: int, scale: int) -> list[int]:
    """Pick k of the rounds (each an (opponent-seed, matches) vector per entry) to minimise the
    score: all subsets when few, else greedy then pairwise swaps until nothing improves."""
    m = len(vectors)
    width = len(vectors[0][0])

    def add(
        base: tuple[list[int], list[int]], i: int, sign: int = 1
    ) -> tuple[list[int], list[int]]:
        return (
            [x + sign * y for x, y in zip(base[0], vectors[i][0])],
            [x + sign * y for x, y in zip(base[1], vectors[i][1])],
        )

    def score_of(chosen: Sequence[int]) -> tuple[int, int]:
        acc = ([0] * width, [0] * width)
        for i in chosen:
            acc = add(acc, i)
        return _score(acc[0], acc[1], scale)

    if math.comb(m, k) <= _EXHAUSTIVE_LIMIT:
        return list(min(itertools.combinations(range(m), k), key=score_of))

    chosen: list[int] = []
    acc = ([0] * width, [0] * width)
    for _ in range(k):
        best = min(
            (i for i in range(m) if i not in chosen), key=lambda i: _score(*add(acc, i), scale)
        )
        chosen.append(best)
        acc = add(acc, best)
    current = _score(acc[0], acc[1], scale)
    improved = True
    while improved:
        improved = False
        for pos in range(k):
            for candidate in range(m):
                if candidate in chosen:
                    continue
                trial = add(add(acc, chosen[pos], -1), candidate)
                s = _score(trial[0], trial[1], scale)
                if s < current:
                    chosen[pos], acc, current, improved = candidate, trial, s, True
    return sorted(chosen)


def seeded_schedule(entries_by_seed: Sequence[Hashable], rounds: int) -> list[Round]:
    """R-TEAM-KVAL-4, R-PAIR-DF-2: a schedule of ``rounds`` rounds when not everyone can meet
    everyone, seeded so that no entry is favoured or harmed.

    ``entries_by_seed`` lists the entries best first (seed 1 first). Nobody meets anyone twice,
    nobody sits out twice, and the average seed of each entry's opponents is as even as can be
    (smallest max − min, then smallest variance). Up to 8 entries every possible schedule is
    tried, so the most even one is found (4 entries in 2 rounds: 1–2, 3–4 and 1–3, 2–4, every
    entry's opponents averaging 2.5; 7 entries in 4 rounds: the even seeds meet the odd ones,
    every average 4). Above that the rounds are taken from round robins (circle method) of
    several deterministic orders of the entries; of each, the subset of ``rounds`` rounds with
    the most even averages is chosen, the best of those improved by re-pairing within rounds.
    With ``rounds`` at or above a full round robin, the full round robin is returned.
    """
    entries = list(entries_by_seed)
    n = len(entries)
    full = full_round_robin_rounds(n)
    if rounds <= 0 or n < 2:
        return []
    if rounds >= full:
        return round_robin(entries)
    index = {e: i for i, e in enumerate(entries)}
    scale = rounds * (rounds - 1) if rounds > 1 else 1
    if n + n % 2 <= _EXHAUSTIVE_SLOTS:
        return _orient(_exhaustive(entries, rounds, scale))
    best: tuple[tuple[int, int], list[Round]] | None = None
    for order in _labelings(entries):
        all_rounds = round_robin(order)
        vectors = []
        for round_ in all_rounds:
            opp = [0] * n
            played = [0] * n
            for home, away in round_:
                if home is None or away is None:
                    continue
                opp[index[home]] += index[away] + 1
                opp[index[away]] += index[home] + 1
                played[index[home]] += 1
                played[index[away]] += 1
            vectors.append((opp, played))
        chosen = _choose_rounds(vectors, rounds, scale)
        totals = [sum(vectors[i][0][j] for i in chosen) for j in range(n)]
        counts = [sum(vectors[i][1][j] for i in chosen) for j in range(n)]
        score = _score(totals, counts, scale)
        if best is None or score < best[0]:
            best = (score, [all_rounds[i] for i in chosen])
    if best is None:  # the loop above runs at least once
        raise ValueError("no rounds to schedule")
    improved = _improve_by_swaps(best[1], index, scale)
    iterations = max(12000, min(20000, 200 * n * rounds))
    return _orient(_anneal(improved, index, scale, iterations))


def _perfect_matchings(slots: int) -> list[tuple[tuple[int, int], ...]]:
    """Every way to pair ``slots`` (even) numbered slots, each pair (low, high), in a fixed
    order."""

    def pairings(rest: tuple[int, ...]):
        if not rest:
            yield ()
            return
        first = rest[0]
        for i in range(1, len(rest)):
            for more in pairings(rest[1:i] + rest[i + 1 :]):
                yield ((first, rest[i]), *more)

    return list(pairings(tuple(range(slots))))


def _exhaustive(entries: list[Hashable], rounds: int, scale: int) -> list[Round]:
    """Every set of ``rounds`` rounds in which nobody meets anyone twice (and, with an odd
    number, each round one entry sits out, nobody twice), scored by :func:`_score` of the
    opponents' seeds; the first best in a fixed order wins (deterministic)."""
    n = len(entries)
    slots = n + n % 2
    bye = n if n % 2 else None  # the extra slot: meeting it is sitting out
    matchings = _perfect_matchings(slots)
    edge = {pair: i for i, pair in enumerate(itertools.combinations(range(slots), 2))}
    masks = [sum(1 << edge[p] for p in m) for m in matchings]
    # later[m]: the matchings after m that share no pair with it, as a bit set, so the search
    # visits only rounds that can go together.
    later = [
        sum(1 << j for j in range(m + 1, len(masks)) if not masks[m] & masks[j])
        for m in range(len(masks))
    ]
    deltas = [[(a, b + 1, b, a + 1) for a, b in matching if b != bye] for matching in matchings]
    totals, counts = [0] * n, [0] * n
    best: list = [None, None]  # score, chosen matchings
    chosen: list[int] = []

    def shift(m: int, sign: int) -> None:
        for a, seed_b, b, seed_a in deltas[m]:
            totals[a] += sign * seed_b
            totals[b] += sign * seed_a
            counts[a] += sign
            counts[b] += sign

    def search(candidates: int) -> None:
        if len(chosen) == rounds:
            score = _score(totals, counts, scale)
            if best[0] is None or score < best[0]:
                best[0], best[1] = score, list(chosen)
            return
        while candidates and candidates.bit_count() >= rounds - len(chosen):
            if best[0] == (0, 0):
                return  # every average equal: nothing can be more even
            low = candidates & -candidates
            candidates ^= low
            m = low.bit_length() - 1
            chosen.append(m)
            shift(m, 1)
            search(candidates & later[m])
            shift(m, -1)
            chosen.pop()

    search((1 << len(matchings)) - 1)
    return [
        [(entries[a], None if b == bye else entries[b]) for a, b in matchings[m]] for m in best[1]
    ]


def _improve_by_swaps(
    schedule: list[Round], index: dict[Hashable, int], scale: int, max_passes: int = 50
) -> list[Round]:
    """Local search: within a round, re-pair two matches (a–b, c–d → a–d, c–b or a–c, b–d)
    when the new pairs have not met elsewhere and the balance score gets better."""
    n = len(index)
    rounds = [[(index[h], None if a is None else index[a]) for h, a in r] for r in schedule]
    totals = [0] * n
    counts = [0] * n
    met: set[frozenset[int]] = set()
    for round_ in rounds:
        for h, a in round_:
            if a is None:
                continue
            totals[h] += a + 1
            totals[a] += h + 1
            counts[h] += 1
            counts[a] += 1
            met.add(frozenset((h, a)))
    current = _score(totals, counts, scale)

    def shift(pairs: Sequence[tuple[int, int]], sign: int) -> None:
        for x, y in pairs:
            totals[x] += sign * (y + 1)
            totals[y] += sign * (x + 1)

    for _ in range(max_passes):
        improved = False
        for round_ in rounds:
            for i, j in itertools.combinations(range(len(round_)), 2):
                (a, b), (c, d) = round_[i], round_[j]
                if b is None or d is None:
                    continue
                for new in (((a, d), (c, b)), ((a, c), (d, b))):
                    keys = [frozenset(p) for p in new]
                    if any(k in met for k in keys):
                        continue
                    old = (round_[i], round_[j])
                    shift(old, -1)
                    shift(new, +1)
                    score = _score(totals, counts, scale)
                    if score < current:
                        current = score
                        met.difference_update(frozenset(p) for p in old)
                        met.update(keys)
                        round_[i], round_[j] = new
                        improved = True
                        break
                    shift(new, -1)
                    shift(old, +1)
                if improved:
                    break
        if not improved:
            break
    entries = list(index)
    return [[(entries[h], None if a is None else entries[a]) for h, a in r] for r in rounds]


def _anneal(
    schedule: list[Round], index: dict[Hashable, int], scale: int, iterations: int = 20000
) -> list[Round]:
    """Simulated annealing over the same re-pairing moves, with a fixed random seed (so the
    result is deterministic), to get out of the plateaus the plain local search stops on.
    The best schedule seen (by the exact balance score) is kept."""
    n = len(index)
    rng = random.Random(0)  # noqa: S311 (a fixed seed: a deterministic schedule, no secret)
    rounds = [[[index[h], None if a is None else index[a]] for h, a in r] for r in schedule]
    totals = [0] * n
    counts = [0] * n
    met: set[frozenset[int]] = set()
    for round_ in rounds:
        for h, a in round_:
            if a is None:
                continue
            totals[h] += a + 1
            totals[a] += h + 1
            counts[h] += 1
            counts[a] += 1
            met.add(frozenset((h, a)))
    active = [t for t in range(n) if counts[t]]
    playable = [r for r in rounds if sum(1 for _, a in r if a is not None) >= 2]
    if not active or not playable:
        return schedule

    def energy() -> float:
        means = [totals[t] / counts[t] for t in active]
        avg = sum(means) / len(means)
        return max(means) - min(means) + sum(abs(m - avg) for m in means) / len(means)

    best_key = _score(totals, counts, scale)
    best_rounds = [[tuple(p) for p in r] for r in rounds]
    current = energy()
    temperature, cooling = 1.0, (0.001 / 1.0) ** (1 / iterations)
    for _ in range(iterations):
        temperature *= cooling
        round_ = rng.choice(playable)
        real = [i for i, (_, a) in enumerate(round_) if a is not None]
        i, j = rng.sample(real, 2)
        (a, b), (c, d) = round_[i], round_[j]
        new = ((a, d), (c, b)) if rng.random() < 0.5 else ((a, c), (d, b))
        keys = [frozenset(p) for p in new]
        if any(k in met for k in keys):
            continue
        for (x, y), sign in (((a, b), -1), ((c, d), -1), (new[0], 1), (new[1], 1)):
            totals[x] += sign * (y + 1)
            totals[y] += sign * (x + 1)
        trial = energy()
        if trial <= current or rng.random() < math.exp((current - trial) / temperature):
            current = trial
            met.difference_update((frozenset((a, b)), frozenset((c, d))))
            met.update(keys)
            round_[i], round_[j] = list(new[0]), list(new[1])
            key = _score(totals, counts, scale)
            if key < best_key:
                best_key = key
                best_rounds = [[tuple(p) for p in r] for r in rounds]
        else:
            for (x, y), sign in (((a, b), 1), ((c, d), 1), (new[0], -1), (new[1], -1)):
                totals[x] += sign * (y + 1)
                totals[y] += sign * (x + 1)
    entries = list(index)
    return [[(entries[h], None if a is None else entries[a]) for h, a in r] for r in best_rounds]


def _orient(schedule: list[Round]) -> list[Round]:
    """Choose home and away so that every entry's counts differ by at most one: orient the
    matches along closed walks (an Euler orientation, odd-degree entries joined to a dummy)."""
    dummy = object()
    edges: list[list] = []  # [u, v, used]; matches first, then dummy edges
    adjacency: dict = {}
    for round_ in schedule:
        for h, a in round_:
            if a is None:
                continue
            adjacency.setdefault(h, []).append(len(edges))
            adjacency.setdefault(a, []).append(len(edges))
            edges.append([h, a, False])
    matches = len(edges)
    for entry in list(adjacency):
        if len(adjacency[entry]) % 2:
            adjacency[entry].append(len(edges))
            adjacency.setdefault(dummy, []).append(len(edges))
            edges.append([entry, dummy, False])
    oriented: dict[int, tuple] = {}
    cursor = dict.fromkeys(adjacency, 0)
    for start in list(adjacency):
        while True:
            # Walk unused edges from ``start`` until stuck: all degrees are even, so the walk
            # closes at ``start`` and every vertex on it gets as many homes as aways.
            at, moved = start, False
            while True:
                incident = adjacency[at]
                while cursor[at] < len(incident) and edges[incident[cursor[at]]][2]:
                    cursor[at] += 1
                if cursor[at] == len(incident):
                    break
                index = incident[cursor[at]]
                edge = edges[index]
                edge[2] = True
                other = edge[1] if edge[0] is at or edge[0] == at else edge[0]
                if index < matches:
                    oriented[index] = (at, other)
                at, moved = other, True
            if not moved:
                break
    out: list[Round] = []
    index = 0
    for round_ in schedule:
        new_round: Round = []
        for h, a in round_:
            if a is None:
                new_round.append((h, a))
            else:
                new_round.append(oriented[index])
                index += 1
        out.append(new_round)
    return out


# ---------------------------------------------------------------------------------------------
# A schedule a person entered or adjusted: days, boards, halves, and its checks
# ---------------------------------------------------------------------------------------------


def round_days(rounds: int, days: Sequence[date]) -> list[date]:
    """R-TEAM-KVAL-4, R-TEAM-FINAL-1: the rounds spread over the play days in order, as evenly
    as they go, an earlier day taking the extra round (7 rounds over two central days: 4 on the
    first, 3 on the second). Round r (from 0) is played on ``days[r * len(days) // rounds]``."""
    days = list(days)
    if rounds <= 0 or not days:
        return []
    return [days[(r * len(days)) // rounds] for r in range(rounds)]


def match_halves(boards: int, rules: SeasonRules = DEFAULT_RULES) -> int:
    """R-TEAM-KVAL-5, R-TEAM-KVAL-6: a match of 8–15 boards is one segment, of 16–24 two
    halves with a change at half time."""
    return 1 if boards <= rules.single_segment_max_boards else 2


def final_boards(number_of_teams: int, rules: SeasonRules = DEFAULT_RULES) -> int | None:
    """R-TEAM-FINAL-1: boards per match of a final of ``number_of_teams`` (8: 24, 10: 20);
    None for a number the regulations do not name."""
    return rules.final_boards_by_teams.get(number_of_teams)


def final_board_violations(
    number_of_teams: int,
    boards: int,
    *,
    direct_final: bool = False,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-TEAM-FINAL-1: the final's matches have 24 boards with 8 teams, 20 with 10 (the same
    in every match of a round: here in every match). R-TEAM-DF-1: in a direct final the boards
    may be set to fit the number of teams, within R-TEAM-KVAL-5's 8–24."""
    if direct_final:
        if rules.match_min_boards <= boards <= rules.match_max_boards:
            return []
        return [
            Violation(
                "R-TEAM-DF-1",
                gettext_noop(
                    "I en direktfinal får brickorna per match anpassas efter antalet lag, men "
                    "varje match ska ha %(match_min_boards)s–%(match_max_boards)s brickor "
                    "(inte %(boards)s)."
                ),
                data={"boards": boards},
                params={
                    "boards": boards,
                    "match_min_boards": rules.match_min_boards,
                    "match_max_boards": rules.match_max_boards,
                },
            )
        ]
    wanted = final_boards(number_of_teams, rules)
    if wanted is None:
        sizes = sorted(rules.final_boards_by_teams)
        return [
            Violation(
                "R-TEAM-FINAL-1",
                gettext_noop(
                    "Finalen har %(n)s lag; den spelas med %(sizes)s lag (brickorna per match "
                    "följer antalet lag)."
                ),
                data={"teams": number_of_teams},
                params={"n": number_of_teams, "sizes": " / ".join(map(str, sizes))},
            )
        ]
    if boards != wanted:
        return [
            Violation(
                "R-TEAM-FINAL-1",
                gettext_noop(
                    "En final med %(n)s lag spelas med %(wanted)s brickor per match (inte "
                    "%(boards)s)."
                ),
                data={"boards": boards, "wanted": wanted},
                params={"n": number_of_teams, "wanted": wanted, "boards": boards},
            )
        ]
    return []


_PAIRING = re.compile(r"^\s*(\d{1,3})\s*(?:-|–|—|:|mot|vs\.?)\s*(\d{1,3})\s*$", re.IGNORECASE)


def parse_pairings(text: str) -> tuple[list[tuple[int, int]], list[str]]:
    """A round's matches as a person types them, home first: ``"1-7, 2-6, 3-5"`` (also
    ``–``, ``:`` or ``mot`` between the numbers; commas, semicolons or new lines between the
    matches). Returns the (home, away) numbers and the pieces that could not be read."""
    pairs: list[tuple[int, int]] = []
    bad: list[str] = []
    for piece in re.split(r"[,;\n]+", text or ""):
        if not piece.strip():
            continue
        found = _PAIRING.match(piece)
        if found:
            pairs.append((int(found.group(1)), int(found.group(2))))
        else:
            bad.append(piece.strip()[:40])
    return pairs, bad


def schedule_violations(
    rounds: Sequence[Sequence[tuple[Hashable, Hashable]]],
    entries: Sequence[Hashable],
    *,
    clause: str = "R-TEAM-KVAL-4",
    full_required: bool = False,
) -> list[Violation]:
    """What is wrong with a schedule (``rounds`` of (home, away) matches; a bye, ``None``,
    may be left out) for ``entries``, each naming the round it was found in (from 1).

    Errors: a match of an entry not in ``entries`` or of an entry with itself, an entry twice
    in a round, two entries meeting twice, a round without a match, an entry with no match;
    with ``full_required`` (the final, R-TEAM-FINAL-1: a single round robin) two entries that
    never meet; otherwise (R-TEAM-KVAL-4) two entries that never meet although the schedule
    has the rounds a full round robin needs (everyone meets everyone where possible).
    Warnings (allowed, shown to the person): not everyone meets everyone (the schedule is a
    seeded part of a round robin), and entries playing fewer matches than others (with an odd
    number of entries and not a full round robin some sit out one round more)."""
    known = set(entries)
    out: list[Violation] = []
    met: Counter = Counter()
    played: Counter = Counter()
    for number, round_ in enumerate(rounds, start=1):
        seen: Counter = Counter()
        matches = [(h, a) for h, a in round_ if h is not None and a is not None]
        if not matches:
            out.append(
                Violation(
                    clause,
                    gettext_noop("Rond %(round)s har ingen match."),
                    data={"round": number},
                    params={"round": number},
                )
            )
        for home, away in matches:
            unknown = [x for x in (home, away) if x not in known]
            if unknown:
                out.append(
                    Violation(
                        clause,
                        gettext_noop("Rond %(round)s: lag %(teams)s finns inte i schemat."),
                        data={"round": number, "unknown": unknown},
                        params={"round": number, "teams": ", ".join(map(str, unknown))},
                    )
                )
                continue
            if home == away:
                out.append(
                    Violation(
                        clause,
                        gettext_noop("Rond %(round)s: lag %(team)s kan inte möta sig självt."),
                        data={"round": number, "team": home},
                        params={"round": number, "team": home},
                    )
                )
                continue
            seen.update((home, away))
            met[frozenset((home, away))] += 1
            played.update((home, away))
        for entry, times in sorted(seen.items(), key=lambda kv: str(kv[0])):
            if times > 1:
                out.append(
                    Violation(
                        clause,
                        gettext_noop("Rond %(round)s: lag %(team)s spelar %(times)s matcher."),
                        data={"round": number, "team": entry},
                        params={"round": number, "team": entry, "times": times},
                    )
                )
    for pair, times in sorted(met.items(), key=lambda kv: sorted(map(str, kv[0]))):
        if times > 1:
            a, b = sorted(pair, key=str)
            out.append(
                Violation(
                    clause,
                    gettext_noop("Lag %(a)s och %(b)s möts %(times)s gånger."),
                    data={"pair": [a, b]},
                    params={"a": a, "b": b, "times": times},
                )
            )
    idle = [e for e in entries if not played[e]]
    if idle and rounds:
        out.append(
            Violation(
                clause,
                gettext_noop("Lag %(teams)s har ingen match i schemat."),
                data={"teams": idle},
                params={"teams": ", ".join(map(str, idle))},
            )
        )
    n = len(entries)
    all_pairs = n * (n - 1) // 2
    missing = all_pairs - sum(1 for p in met if len(p) == 2)
    if missing > 0:
        full = full_round_robin_rounds(n)
        if full_required or len(rounds) >= full:
            out.append(
                Violation(
                    "R-TEAM-FINAL-1" if full_required else clause,
                    gettext_noop(
                        "Alla ska mötas: %(missing)s av %(all)s möten saknas (%(full)s ronder "
                        "räcker för att alla ska mötas)."
                    ),
                    data={"missing": missing},
                    params={"missing": missing, "all": all_pairs, "full": full},
                )
            )
        else:
            out.append(
                Violation(
                    clause,
                    gettext_noop(
                        "Alla möter inte alla: %(met)s av %(all)s möten på %(rounds)s ronder "
                        "(alla möter alla kräver %(full)s). Schemat ska då seedas så att inget "
                        "lag gynnas eller missgynnas."
                    ),
                    Severity.WARNING,
                    data={"missing": missing},
                    params={
                        "met": all_pairs - missing,
                        "all": all_pairs,
                        "rounds": len(rounds),
                        "full": full,
                    },
                )
            )
    if played and not idle:
        most = max(played[e] for e in entries)
        fewer = [e for e in entries if played[e] < most]
        if fewer:
            out.append(
                Violation(
                    clause,
                    gettext_noop(
                        "Lag %(teams)s spelar färre matcher än de andra (%(most)s): de står "
                        "över en rond mer."
                    ),
                    Severity.WARNING,
                    data={"teams": fewer},
                    params={"teams": ", ".join(map(str, fewer)), "most": most},
                )
            )
    return out

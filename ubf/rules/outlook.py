"""What each team of a team final needs before its last round(s) (R-TEAM-FINAL-2, R-VP-1..2).

:func:`final_outlook` answers, for every team and every place p in ``places``: is finishing
p-th or better already certain, still possible, or out of reach, and how many VP from its own
remaining match(es) make it possible (``needs``) or certain (``secures``).

The remaining results range over every whole IMP margin of each match, on the WBF continuous
scale for that match's boards (R-VP-1, R-VP-2, R-TEAM-VP-1): a match of N boards ends in one
of the VP pairs ``(v, 20 − v)`` with v a value of ``ubf.rules.vp.vp_table(N)`` or its
complement. The final is ranked by R-TEAM-TIE-1 (R-TEAM-FINAL-2): most VP first; the criteria
after VP (IMP quotient, head-to-head IMPs, boards, points, lot) depend on the IMPs of matches
not yet played, so a tie in VP counts as possible, never as certain. Hence, for team T with
final total F:

* p-th or better is *possible* in an outcome where fewer than p other teams have more than F;
* it is *certain* when, in every outcome, fewer than p other teams have F or more.

How it is computed, exactly and without enumerating the outcomes (a 10-team final has 121⁵
outcomes before its last round of 20 boards, 121¹⁰ before the last two). Fix T's own results.
Then each other team i has a fixed part (its VP so far, plus its side of its match against T)
and a free part t_i from its matches among the other teams. A team has at most two remaining
matches, so those matches form paths and cycles. "Fewest teams above F" is "most teams i kept
at t_i ≤ F − fixed_i": along a path, keeping every team that can be kept is best (a greedy,
proved in :func:`_path_keep`), each kept team taking the most of its next match that its
limit allows (so the next team gets the least), a team that is not kept taking all of it (the
next team gets 0.00). A cycle is a path once one team is not kept (try each), or all are kept
(try each value of one match).
"Most teams at F or more" is the same question with every match's result turned round
(t → 2·20·d − t for a team with d free matches, and the scale is symmetric). More VP for T in
one of its own matches can only help T (T gains, its opponent loses as much), so possibility
and certainty are monotone in each of T's own results: one remaining match is searched by
bisection, two by a staircase walk over the two results, and ``needs`` / ``secures`` are
exact. The tests compare every figure with a brute force over every IMP margin.

With two remaining rounds (each team at most two matches in ``remaining``), ``needs[p]`` is the
fewest total VP from the team's remaining matches in some outcome where p-th or better is
possible, and ``secures[p]`` the fewest total from which on every outcome (any total at least
that, however split between the matches) makes p-th or better certain. With one round both are
simply the fewest VP from its one match.

``ranked`` (default: every team) names the teams the order ranks; a team outside it still plays
(its results count for the others' totals) but takes no place: the DM order (title, medals,
R-TEAM-4) ranks only the teams that still compete for DM, the full order (SM semifinal places,
R-TEAM-SEMI-1) ranks them all.
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ubf.rules.standings import rank_teams
from ubf.rules.vp import vp_table

__all__ = ["TeamOutlook", "final_outlook", "match_vp_values"]

_TOTAL = 2000  # one match's 20.00 VP, in hundredths
_HUNDREDTH = Decimal("0.01")


@dataclass(frozen=True)
class TeamOutlook:
    """One team's outlook. ``vp`` is its total now (after penalties), ``rank`` its place now
    (R-TEAM-TIE-1 on the rounds played), ``remaining`` its matches left and ``most`` the most
    VP it can still win. For each p in ``places``: ``certain[p]`` / ``possible[p]``, and
    ``needs[p]`` / ``secures[p]`` (VP from its remaining matches, None when none is enough)."""

    team: Hashable
    vp: Decimal
    rank: int
    remaining: int
    most: Decimal
    certain: dict[int, bool]
    possible: dict[int, bool]
    needs: dict[int, Decimal | None]
    secures: dict[int, Decimal | None]


def match_vp_values(boards: int) -> tuple[int, ...]:
    """Every VP one side can get from a match of ``boards`` boards, in hundredths, ascending
    (R-VP-1, R-VP-2: the table's values for a win and their complements for a loss)."""
    won = [int(v * 100) for v in vp_table(boards)]
    return tuple(sorted(set(won) | {_TOTAL - v for v in won}))


def _dec(hundredths: int) -> Decimal:
    return (Decimal(hundredths) / 100).quantize(_HUNDREDTH)


# --------------------------------------------------------------------------------------------
# Most teams kept at or under their limits
# --------------------------------------------------------------------------------------------


def _largest_at_most(values: Sequence[int], limit: int) -> int:
    return values[bisect.bisect_right(values, limit) - 1]


def _path_keep(limits: Sequence[int | None], edges: Sequence[Sequence[int]]) -> int:
    """The most teams of a path that can be kept at t ≤ limit (None: never kept); ``edges[j]``
    are the values of the match between the j-th and (j+1)-th team (the scale is symmetric, so
    either side's values).

    Greedy, and exact: keep each team that can be kept, taking the most of its next match its
    limit allows. A team left out takes all of its next match (the next team gets 0.00). Of
    the two choices at a team that can be kept, keeping gains one now and at worst loses the
    next team, which leaving it out would gain back: leaving it out puts the next team at
    0.00 with the same count as keeping it and then leaving the next one out, so it never
    does better."""
    kept, incoming = 0, 0
    last = len(limits) - 1
    for j, limit in enumerate(limits):
        if limit is None or incoming > limit:
            incoming = 0  # not kept: it takes the whole next match
            continue
        kept += 1
        if j < last:
            values = edges[j]
            incoming = _TOTAL - values[bisect.bisect_right(values, limit - incoming) - 1]
    return kept


def _cycle_keep(limits: Sequence[int | None], edges: Sequence[Sequence[int]]) -> int:
    """As :func:`_path_keep` for a cycle: ``edges[j]`` joins team j and team j+1 (mod m)."""
    m = len(limits)
    best = 0
    for out in range(m):  # one team not kept: the rest is a path
        order = [(out + 1 + k) % m for k in range(m - 1)]
        path_edges = [edges[i] for i in order[:-1]]
        best = max(best, _path_keep([limits[i] for i in order], path_edges))
    if best == m - 1 and all(x is not None for x in limits) and sum(limits) >= _TOTAL * m:
        for w in edges[m - 1]:  # team 0's side of the match closing the cycle
            incoming, ok = w, True
            for j in range(m - 1):
                if incoming > limits[j]:
                    ok = False
                    break
                incoming = _TOTAL - _largest_at_most(edges[j], limits[j] - incoming)
            if ok and incoming + _TOTAL - w <= limits[m - 1]:
                return m
    return best


@dataclass(frozen=True)
class _Component:
    teams: tuple  # in path / cycle order
    edges: tuple  # value tuples, edges[j] between teams[j] and teams[j+1 (mod len)]
    cycle: bool


def _components(nodes: Iterable, links: Sequence[tuple]) -> list[_Component]:
    """Paths and cycles of a graph of degree ≤ 2; ``links`` are (a, b, values)."""
    adjacent: dict = {n: [] for n in nodes}
    for index, (a, b, _values) in enumerate(links):
        adjacent[a].append((index, b))
        adjacent[b].append((index, a))
    seen: set = set()
    out = []

    def walk(start):
        order, edge_list, used = [start], [], set()
        current = start
        while True:
            step = next(((e, o) for e, o in adjacent[current] if e not in used), None)
            if step is None:
                return order, edge_list, False
            e, other = step
            used.add(e)
            edge_list.append(links[e][2])
            if other == start:
                return order, edge_list, True
            order.append(other)
            current = other

    # Paths from their ends first, then what is left is cycles.
    for n in adjacent:
        if n not in seen and len(adjacent[n]) <= 1:
            order, edge_list, _ = walk(n)
            seen.update(order)
            out.append(_Component(tuple(order), tuple(edge_list), False))
    for n in adjacent:
        if n not in seen:
            order, edge_list, closed = walk(n)
            seen.update(order)
            out.append(_Component(tuple(order), tuple(edge_list), closed))
    return out


def _keep(component: _Component, limits: Sequence[int | None]) -> int:
    if component.cycle:
        return _cycle_keep(limits, component.edges)
    return _path_keep(limits, component.edges)


# --------------------------------------------------------------------------------------------
# The outlook
# --------------------------------------------------------------------------------------------


def final_outlook(
    teams: Iterable[Hashable],
    matches: Iterable[Mapping],
    remaining: Iterable[tuple],
    *,
    places: Sequence[int] = (1, 3),
    ranked: Iterable[Hashable] | None = None,
    penalties: Mapping[Hashable, Any] | None = None,
) -> dict[Hashable, TeamOutlook]:
    """Per team (of ``ranked``, default all): certain / possible / needs / secures for each p in
    ``places`` (R-TEAM-FINAL-2, R-TEAM-TIE-1, R-VP-1, R-VP-2; see the module docstring).

    ``teams``, ``matches`` (the rounds played) and ``penalties`` as for
    :func:`ubf.rules.standings.rank_teams`; ``remaining`` lists ``(home, away, boards)``, at
    most two per team (the last round, or the last two). Raises ValueError for an unknown team,
    a team meeting itself, a team with more than two remaining matches or boards outside 1..64.
    """
    team_list = list(dict.fromkeys(teams))
    known = set(team_list)
    standings = rank_teams(
        team_list, list(matches), penalties=penalties, draw=lambda candidates, k: candidates[:k]
    )
    base = {s.team: int(s.vp * 100) for s in standings}
    rank_now = {s.team: s.rank for s in standings}
    ranked_set = known if ranked is None else set(ranked)
    unknown = ranked_set - known
    if unknown:
        raise ValueError(f"ranked teams not among the teams: {sorted(map(repr, unknown))}")

    links: list[tuple] = []
    own: dict = {t: [] for t in team_list}  # team -> [(link index, opponent)]
    for home, away, boards in remaining:
        for side in (home, away):
            if side not in known:
                raise ValueError(f"remaining match team {side!r} is not among the teams")
        if home == away:
            raise ValueError(f"a team cannot meet itself: {home!r}")
        links.append((home, away, match_vp_values(boards)))
        own[home].append((len(links) - 1, away))
        own[away].append((len(links) - 1, home))
    for t, played in own.items():
        if len(played) > 2:
            raise ValueError(f"{t!r} has {len(played)} remaining matches; at most two are allowed")

    out = {}
    for team in team_list:
        if team not in ranked_set:
            continue
        out[team] = _team_outlook(team, team_list, base, links, own, ranked_set, places)
        out[team] = TeamOutlook(
            team=team,
            vp=_dec(base[team]),
            rank=rank_now[team],
            remaining=len(own[team]),
            most=_dec(_TOTAL * len(own[team])),
            **out[team],
        )
    return out


def _team_outlook(team, team_list, base, links, own, ranked, places) -> dict:
    mine = own[team]
    my_links = {index for index, _ in mine}
    others = [t for t in team_list if t != team]
    free_links = [link for i, link in enumerate(links) if i not in my_links]
    components = _components(others, free_links)
    degree = dict.fromkeys(others, 0)
    for a, b, _values in free_links:
        degree[a] += 1
        degree[b] += 1
    rivals = sum(1 for t in others if t in ranked)
    opponents = {opponent for _, opponent in mine}
    touched = [any(m in opponents for m in c.teams) for c in components]
    cache: dict = {}
    memo: dict = {}

    def count(results: tuple[int, ...], up: bool) -> int:
        """Given T's own results: the fewest rivals above T (``up`` False), or the most rivals
        level with or above T (``up`` True)."""
        key = (results, up)
        if key not in memo:
            memo[key] = _count(results, up)
        return memo[key]

    def _count(results: tuple[int, ...], up: bool) -> int:
        final = base[team] + sum(results)
        fixed = dict(base)
        for (_index, opponent), x in zip(mine, results, strict=True):
            fixed[opponent] += _TOTAL - x
        total = 0
        for number, component in enumerate(components):
            members = component.teams
            key = None
            if not touched[number]:
                key = (number, final, up)  # a component T's results do not touch: F only
                if key in cache:
                    total += cache[key]
                    continue
            if up:
                limits = [
                    _TOTAL * degree[m] - (final - fixed[m]) if m in ranked else None
                    for m in members
                ]
            else:
                limits = [final - fixed[m] if m in ranked else None for m in members]
            kept = _keep(component, limits)
            if key is not None:
                cache[key] = kept
            total += kept
        return total if up else rivals - total

    value_sets = [links[index][2] for index, _ in mine]
    result = {"certain": {}, "possible": {}, "needs": {}, "secures": {}}
    for p in places:

        def possible(xs, p=p):
            return count(xs, False) <= p - 1

        def safe(xs, p=p):
            return count(xs, True) <= p - 1

        least = _least_total(value_sets, possible)
        unsafe_most = _most_total(value_sets, lambda xs, safe=safe: not safe(xs))
        result["possible"][p] = least is not None
        result["needs"][p] = None if least is None else _dec(least)
        result["certain"][p] = unsafe_most is None
        secures = _next_total(value_sets, unsafe_most)
        result["secures"][p] = None if secures is None else _dec(secures)
    return result


def _least_total(value_sets: list, good) -> int | None:
    """The least sum of T's own results for which ``good`` holds, ``good`` being monotone
    (upwards) in each result; None if it never does."""
    if not value_sets:
        return 0 if good(()) else None
    if len(value_sets) == 1:
        values = value_sets[0]
        if not good((values[-1],)):
            return None
        low, high = 0, len(values) - 1  # good(values[high]) holds
        while low < high:
            mid = (low + high) // 2
            if good((values[mid],)):
                high = mid
            else:
                low = mid + 1
        return values[low]
    first, second = value_sets
    best = None
    j = len(second) - 1
    for x in first:  # the least good y for each x only falls as x grows
        if j < 0 or not good((x, second[j])):
            continue
        while j > 0 and good((x, second[j - 1])):
            j -= 1
        total = x + second[j]
        best = total if best is None else min(best, total)
    return best


def _most_total(value_sets: list, bad) -> int | None:
    """The greatest sum of T's own results for which ``bad`` holds, ``bad`` being monotone
    (downwards) in each result; None if it never does."""
    if not value_sets:
        return 0 if bad(()) else None
    if len(value_sets) == 1:
        values = value_sets[0]
        if not bad((values[0],)):
            return None
        low, high = 0, len(values) - 1  # bad(values[low]) holds
        while low < high:
            mid = (low + high + 1) // 2
            if bad((values[mid],)):
                low = mid
            else:
                high = mid - 1
        return values[low]
    first, second = value_sets
    best = None
    j = len(second) - 1
    for x in first:  # the greatest bad y for each x only falls as x grows
        while j >= 0 and not bad((x, second[j])):
            j -= 1
        if j < 0:
            break
        total = x + second[j]
        best = total if best is None else max(best, total)
    return best


def _next_total(value_sets: list, above: int | None) -> int | None:
    """The least achievable sum of T's own results greater than ``above`` (the least of all
    when ``above`` is None); None when there is none."""
    if not value_sets:
        return 0 if above is None else None
    totals: set[int] = {0}
    for values in value_sets:
        totals = {t + v for t in totals for v in values}
    candidates = [t for t in totals if above is None or t > above]
    return min(candidates) if candidates else None

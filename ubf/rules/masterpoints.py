"""Masterpoints and bonus: R-TEAM-MP-1..3, R-PAIR-MP-1..4.

Points are exact :class:`~fractions.Fraction` values (a draw over 9 boards gives 4½ each); a
page rounds them for display the way SBF's register wants.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from numbers import Number

from .i18n import Message, gettext_noop
from .i18n import Number as _Number
from .season import DEFAULT_RULES, SeasonRules
from .sm import Awards, title_and_plaques
from .types import Discipline


def _fraction(value: Number | Decimal | str) -> Fraction:
    if isinstance(value, float):
        return Fraction(str(value))
    return Fraction(value)


# ---------------------------------------------------------------------------------------------
# Teams
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchMasterpoints:
    """R-TEAM-MP-1: the silver points each team wins in one match, with the reason."""

    home: Fraction
    away: Fraction
    reason: Message


def team_match_masterpoints(
    vp_home: Decimal | Number | str,
    vp_away: Decimal | Number | str,
    boards: int,
    *,
    walkover: bool = False,
    rules: SeasonRules = DEFAULT_RULES,
) -> MatchMasterpoints:
    """R-TEAM-MP-1, R-TEAM-WO-2: silver points of a match from its VP (the match result, before
    penalties). The winner (``rules.team_mp_win_vp`` = 13 VP or more) gets as many points as the
    match had boards; in a draw (more than ``rules.team_mp_draw_above_vp`` = 7 and less than 13)
    each team gets half; the loser nothing. A W.O. gives no masterpoints."""
    zero = Fraction(0)
    if walkover:
        return MatchMasterpoints(
            zero, zero, Message(gettext_noop("R-TEAM-MP-1: inga mästarpoäng för en W.O."))
        )
    home, away = Decimal(str(vp_home)), Decimal(str(vp_away))
    win, draw_above = rules.team_mp_win_vp, rules.team_mp_draw_above_vp
    whole = Fraction(boards)

    def points(vp: Decimal) -> Fraction:
        if vp >= win:
            return whole
        if draw_above < vp < win:
            return whole / 2
        return zero

    h, a = points(home), points(away)
    if h == whole:
        reason = Message(
            gettext_noop(
                "R-TEAM-MP-1: hemmalaget vann (%(vp)s VP ≥ %(win)s): %(points)s silverpoäng"
            ),
            {"vp": _figure(home), "win": _figure(win), "points": boards},
        )
    elif a == whole:
        reason = Message(
            gettext_noop(
                "R-TEAM-MP-1: bortalaget vann (%(vp)s VP ≥ %(win)s): %(points)s silverpoäng"
            ),
            {"vp": _figure(away), "win": _figure(win), "points": boards},
        )
    elif h or a:
        reason = Message(
            gettext_noop(
                "R-TEAM-MP-1: oavgjort (%(draw_above)s < VP < %(win)s): %(points)s silverpoäng var"
            ),
            {
                "draw_above": _figure(draw_above),
                "win": _figure(win),
                "points": _figure(whole / 2),
            },
        )
    else:
        reason = Message(gettext_noop("R-TEAM-MP-1: inget lag nådde vinst eller oavgjort"))
    return MatchMasterpoints(h, a, reason)


def _figure(value: Decimal | Fraction | int) -> _Number:
    """A figure in a reason with the Swedish decimal comma (a ``Number`` shows a point in
    English): whole numbers as such, a fraction with a finite decimal as a decimal ("10,5"),
    any other fraction exactly ("8/3")."""
    if isinstance(value, Fraction):
        den = value.denominator
        while den % 2 == 0:
            den //= 2
        while den % 5 == 0:
            den //= 5
        if value.denominator == 1:
            value = value.numerator
        elif den == 1:
            value = Decimal(value.numerator) / Decimal(value.denominator)
        else:
            return _Number(str(value))
    return _Number(str(value).replace(".", ","))


def share_team_points(
    team_points: Fraction | int, halves_by_player: Mapping[Hashable, int]
) -> dict[Hashable, Fraction]:
    """R-TEAM-MP-2: the team's players divide its points of a match in proportion to the halves
    each played: team_points × halves_by_player / (sum of halves by all the team's players in
    that match). Four players of a whole 24-board win: 6 each; one half is half a whole match.
    A one-segment match (8–15 boards) counts as one half for everyone who played it."""
    total = sum(h for h in halves_by_player.values() if h > 0)
    points = _fraction(team_points)
    if not total:
        return dict.fromkeys(halves_by_player, Fraction(0))
    return {p: points * max(h, 0) / total for p, h in halves_by_player.items()}


@dataclass(frozen=True)
class TeamBonus:
    """R-TEAM-MP-3: bonus per player for the top teams of the DM final, with the reasons.

    ``places``: (place, team) in DM order; ``bonus``: player → silver points; ``plaque_players``:
    team → the players who get plaque and title; ``reasons``: player → why (or why not)."""

    places: tuple[tuple[int, Hashable], ...]
    bonus: dict = field(compare=False)
    plaque_players: dict = field(compare=False)
    reasons: dict = field(compare=False)


def team_bonus(
    dm_order: Sequence[Hashable],
    roster_all_ubf: Mapping[Hashable, bool],
    halves_by_player: Mapping[Hashable, Mapping[Hashable, int]],
    final_halves: int,
    rules: SeasonRules = DEFAULT_RULES,
    *,
    rosters: Mapping[Hashable, Sequence[Hashable]] | None = None,
) -> TeamBonus:
    """R-TEAM-MP-3, R-TEAM-4: the first teams of the DM order (``rules.team_bonus``: 42, 30, 21
    silver points per player) give bonus to each player who played at least
    ``rules.team_bonus_min_share_of_halves`` (one third) of ``final_halves``, the halves of the
    DM final; only such players get plaque and title. The bonus needs every roster member of the
    team (even one who never played) to represent a UBF club; a team that fails this keeps its
    place, plaques and title but gets no bonus (the bonus does not pass to the next team).

    ``rosters`` (team → its roster players): a roster player who played no half of the final
    is listed too, with 0 halves (no bonus, no plaque); without it only the players in
    ``halves_by_player`` are judged."""
    needed = rules.team_bonus_min_share_of_halves * final_halves
    places = tuple((i + 1, t) for i, t in enumerate(dm_order[: len(rules.team_bonus)]))
    bonus: dict = {}
    plaque_players: dict = {}
    reasons: dict = {}
    for place, team in places:
        amount = rules.team_bonus[place - 1]
        all_ubf = roster_all_ubf.get(team, False)
        plaque_players[team] = []
        played = dict(halves_by_player.get(team, {}))
        for player in (rosters or {}).get(team, ()):
            played.setdefault(player, 0)
        for player, halves in played.items():
            if halves < needed:
                bonus[player] = 0
                reasons[player] = Message(
                    gettext_noop(
                        "R-TEAM-MP-3: spelade %(halves)s av %(final_halves)s halvlekar, färre än "
                        "%(needed)s (en tredjedel): ingen bonus, plakett eller titel"
                    ),
                    {"halves": halves, "final_halves": final_halves, "needed": _figure(needed)},
                )
                continue
            plaque_players[team].append(player)
            if all_ubf:
                bonus[player] = amount
                reasons[player] = Message(
                    gettext_noop("R-TEAM-MP-3: plats %(place)s: %(amount)s silverpoäng"),
                    {"place": place, "amount": amount},
                )
            else:
                bonus[player] = 0
                reasons[player] = Message(
                    gettext_noop(
                        "R-TEAM-MP-3 / R-TEAM-4: inte alla i laget representerar en UBF-klubb: "
                        "ingen bonus"
                    )
                )
        plaque_players[team] = tuple(plaque_players[team])
    return TeamBonus(places, bonus, plaque_players, reasons)


# ---------------------------------------------------------------------------------------------
# Pairs
# ---------------------------------------------------------------------------------------------

MasterpointTable = Mapping[tuple[int, int], Number | Decimal] | Callable[[int, int], Number | None]


@dataclass(frozen=True)
class PairFinalMasterpoints:
    """R-PAIR-MP-1: silver points per pair (each player gets them) and how tied places shared."""

    points: dict = field(compare=False)
    reasons: dict = field(compare=False)  # pair -> Message


def pair_final_masterpoints(
    places: Mapping[Hashable, int],
    table: MasterpointTable,
    number_of_pairs: int | None = None,
) -> PairFinalMasterpoints:
    """R-PAIR-MP-1: silver masterpoints of a pairs final from SBF's table, which TK loads per
    season: ``table`` maps (number_of_pairs, place) to points, or is a callable of the same two.

    ``places`` maps each pair to its place; tied pairs have the same place number. Tied pairs
    share the places they cover: k pairs tied from position p get the average of the table's
    points for positions p..p+k−1 (positions are counted from the order of the places, so both
    1-2-2-4 and 1-2-2-3 numbering work). A position missing from the table gives 0."""
    n = number_of_pairs if number_of_pairs is not None else len(places)

    def lookup(position: int) -> Fraction:
        if callable(table):
            value = table(n, position)
        else:
            value = table.get((n, position))
        return Fraction(0) if value is None else _fraction(value)

    groups: dict[int, list[Hashable]] = defaultdict(list)
    for pair, place in places.items():
        groups[place].append(pair)
    points: dict = {}
    reasons: dict = {}
    position = 1
    for place in sorted(groups):
        members = groups[place]
        covered = range(position, position + len(members))
        share = sum((lookup(p) for p in covered), Fraction(0)) / len(members)
        for pair in members:
            points[pair] = share
            if len(members) > 1:
                reasons[pair] = Message(
                    gettext_noop(
                        "R-PAIR-MP-1: %(tied)s par lika på plats %(place)s delar poängen för "
                        "platserna %(first)s–%(last)s av %(n)s"
                    ),
                    {
                        "tied": len(members),
                        "place": place,
                        "first": covered[0],
                        "last": covered[-1],
                        "n": n,
                    },
                )
            else:
                reasons[pair] = Message(
                    gettext_noop("R-PAIR-MP-1: plats %(place)s av %(n)s"),
                    {"place": covered[0], "n": n},
                )
        position += len(members)
    return PairFinalMasterpoints(points, reasons)


@dataclass(frozen=True)
class PairBonus:
    """R-PAIR-MP-2, R-PAIR-MP-3: bonus silver points per player of each placed pair."""

    awards: Awards
    points: dict = field(compare=False)  # pair -> points per player


def pair_bonus(
    ranking: Sequence[Hashable],
    both_ubf: Mapping[Hashable, bool],
    discipline: Discipline | str,
    rules: SeasonRules = DEFAULT_RULES,
) -> PairBonus:
    """R-PAIR-MP-2, R-PAIR-MP-3: bonus per player from ``rules.pair_bonus`` (Dam, Mixed,
    Veteran 10/5/3; Open 60/40/30), only to pairs in which both players represent a UBF club;
    an ineligible pair's title, plaque and bonus pass to the next eligible pair."""
    amounts = rules.pair_bonus[Discipline(discipline)]
    awards = title_and_plaques(ranking, both_ubf, places=len(amounts))
    points = {pair: amounts[place - 1] for place, pair in awards.placed}
    return PairBonus(awards, points)

"""Rankings with their tie-breaks: teams (R-TEAM-TIE-1, R-TEAM-FINAL-2) and pairs
(R-PAIR-TIE-1..3).

Teams, in order (R-TEAM-TIE-1; the final ranks the same way, R-TEAM-FINAL-2):

1. ``vp`` — most VP, after penalties (R-VP-4);
2. ``imp_quotient`` — highest IMP quotient, IMPs won / IMPs lost over all matches. A team that
   lost no IMPs ranks highest (SPEC: "lost = 0 ranks highest"), whatever it won, also 0/0; two
   such teams are equal on this criterion;
3. ``h2h_imps`` — most IMPs won in the matches among the teams still tied;
4. ``h2h_boards`` — most boards won in those matches (the side with more IMPs on a board wins
   it; a 0-IMP board is won by nobody);
5. ``h2h_points`` — most total points won in those matches (``points_home``/``points_away``);
6. ``lot``.

A criterion that splits a tied group leaves subgroups; each subgroup of two or more is resolved
again from ``h2h_imps`` among its own members only. ``h2h_boards`` and ``h2h_points`` need the
board results of every match among the tied teams; if one of them has none (``boards`` missing or
empty), the criterion is skipped for that group and every member's explanation says so.

Pairs (R-PAIR-TIE-1): equal ``score``; (1) ``boards_won`` among the tied pairs; (2) ``h2h_mp``,
the matchpoints scored on boards against the other tied pairs; (3) ``lot``. Subgroups restart
from (1) (R-PAIR-TIE-3). For plaques only (1) is used and pairs still equal share the higher
place (R-PAIR-TIE-2, :func:`plaque_places`).

The criteria separate pairs "when their order matters for final places" (R-PAIR-TIE-1). Given
``qualifying`` (the pairs that take part in the qualifier: in a bronze heat those that declared,
R-PAIR-KVAL-5), a group on equal score is first split into ``qualifier`` pairs and the others:
the qualifier pairs come first and are separated among themselves only (a pair outside the
qualifier never counts in their boards won), the others follow, separated among themselves.
The order of a pair outside the qualifier against qualifier pairs on the same score changes no
final place, so it is not decided by the criteria; it is listed after them, and its explanation
says so. So the published order of the qualifier pairs is their own tie-break's, the one their
seats follow.

Arithmetic is exact (``Fraction``): a ranking does not depend on the order of the input. A lot
calls ``draw(candidates, k)``, which returns the k candidates that go first; it is called with
k = 1 once per place to fill, with the candidates in sorted order of their keys (or of their
``repr`` when keys do not compare), so a deterministic ``draw`` gives a deterministic ranking.
The default is :func:`ubf.rules.draw.random_draw` (seeded with ``seed`` when given).
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from typing import Any

from ubf.rules.draw import Draw, random_draw
from ubf.rules.i18n import Message, Number, as_data, gettext_noop

__all__ = [
    "PAIR_CRITERIA",
    "TEAM_CRITERIA",
    "PairStanding",
    "TeamStanding",
    "plaque_places",
    "random_draw",
    "rank_pairs",
    "rank_teams",
]


TEAM_CRITERIA: tuple[str, ...] = (
    "vp",
    "imp_quotient",
    "h2h_imps",
    "h2h_boards",
    "h2h_points",
    "lot",
)
PAIR_CRITERIA: tuple[str, ...] = ("score", "qualifier", "boards_won", "h2h_mp", "lot")

_TEAM_CLAUSE = "R-TEAM-TIE-1"
_PAIR_CLAUSE = "R-PAIR-TIE-1"
_INFINITY = Decimal("Infinity")


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamStanding:
    """One team's place (R-TEAM-TIE-1, R-TEAM-FINAL-2).

    ``vp`` is after penalties. ``imp_quotient`` is ``Decimal('Infinity')`` when the team lost no
    IMPs (it sorts above every finite quotient), otherwise won / lost to 28 significant digits;
    ``imp_quotient_exact`` is the exact ``Fraction`` (None for infinity), which the ranking uses.
    ``decided_by`` names the criterion that put the team below the one before it (None for the
    first). ``explanation`` is a tuple of dicts, one per criterion applied to the team, with
    ``criterion``, ``clause``, ``among`` (the teams compared), ``value`` (a string), ``skipped``
    and the wording ``sv`` / ``en``; it is JSON-serialisable when the team keys are.
    """

    team: Hashable
    rank: int
    vp: Decimal
    imp_quotient: Decimal
    imps_won: Decimal
    imps_lost: Decimal
    matches_played: int
    decided_by: str | None
    penalty: Decimal = Decimal("0.00")
    imp_quotient_exact: Fraction | None = None
    explanation: tuple[dict, ...] = field(default=(), compare=False, hash=False)


@dataclass(frozen=True)
class PairStanding:
    """One pair's place (R-PAIR-TIE-1, R-PAIR-TIE-3); fields as :class:`TeamStanding`."""

    pair: Hashable
    rank: int
    score: Fraction
    decided_by: str | None
    explanation: tuple[dict, ...] = field(default=(), compare=False, hash=False)


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def _frac(value: Any, name: str) -> Fraction:
    """An exact Fraction from int / Fraction / Decimal / float (shortest repr) / str."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if isinstance(value, Rational):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{name} must be finite, got {value!r}")
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
        return Fraction(repr(value))
    if isinstance(value, str):
        try:
            return Fraction(Decimal(value.strip().replace(",", ".")))
        except (decimal.InvalidOperation, ValueError) as exc:
            raise ValueError(f"{name} is not a number: {value!r}") from exc
    raise ValueError(f"{name} must be a number, got {value!r}")


def _dec(value: Fraction) -> Decimal:
    """A Fraction as a Decimal: exact when it has a finite decimal expansion, else 28 digits."""
    ctx = decimal.Context(prec=28)
    result = ctx.divide(Decimal(value.numerator), Decimal(value.denominator))
    return result


def _text(value: Fraction) -> str:
    """A figure for people: whole numbers as such, others with two decimals."""
    if value.denominator == 1:
        return str(value.numerator)
    return str(_dec(value).quantize(Decimal("0.01"), rounding=decimal.ROUND_HALF_UP))


def _sv(text: str) -> str:
    """Swedish decimal comma."""
    return text.replace(".", ",")


def _sorted(keys: Iterable[Hashable]) -> list:
    keys = list(keys)
    try:
        return sorted(keys)
    except TypeError:
        return sorted(keys, key=repr)


def _names(keys: Iterable[Hashable]) -> str:
    return ", ".join(str(k) for k in _sorted(keys))


# --------------------------------------------------------------------------------------------
# The generic tie-break engine
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Outcome:
    """What one criterion says about one group: values per member, or skipped with a reason."""

    values: dict | None  # member -> comparable value (higher is better); None = skipped
    shown: dict = field(default_factory=dict)  # member -> (figure text, Message)
    skip: Message | None = None  # why the criterion could not be used
    #: The criterion does not apply to this group at all (skipped without a note: the pairs'
    #: "qualifier" split when every member is on the same side).
    silent: bool = False


@dataclass
class _Engine:
    criteria: Sequence[tuple[str, Callable[[tuple], _Outcome]]]
    restart: int  # index of the criterion a split subgroup restarts from (and after)
    clause: str
    draw: Draw
    notes: dict = field(default_factory=dict)  # member -> list of explanation dicts

    def note(self, member, entry: dict) -> None:
        self.notes.setdefault(member, []).append(entry)

    def order(self, group: tuple, start: int) -> list[list]:
        """Order ``group`` from criterion ``start``; returns [member, decided_by] pairs."""
        if len(group) == 1:
            return [[group[0], None]]
        among = _sorted(group)
        for index in range(start, len(self.criteria)):
            name, evaluate = self.criteria[index]
            outcome = evaluate(group)
            if outcome.silent:
                continue
            if outcome.values is None:
                for member in group:
                    self.note(
                        member,
                        {
                            "criterion": name,
                            "clause": self.clause,
                            "among": among,
                            "value": None,
                            "skipped": True,
                            "message": as_data(outcome.skip),
                        },
                    )
                continue
            for member in group:
                figure, message = outcome.shown[member]
                self.note(
                    member,
                    {
                        "criterion": name,
                        "clause": self.clause,
                        "among": among,
                        "value": figure,
                        "skipped": False,
                        "message": as_data(message),
                    },
                )
            levels = sorted(set(outcome.values.values()), reverse=True)
            if len(levels) == 1:
                continue
            result: list[list] = []
            next_start = self.restart if index >= self.restart else index + 1
            for position, level in enumerate(levels):
                sub = tuple(_sorted(m for m in group if outcome.values[m] == level))
                part = self.order(sub, next_start)
                if position > 0:
                    part[0][1] = name
                result.extend(part)
            return result
        return self.lot(group)

    def lot(self, group: tuple) -> list[list]:
        remaining = _sorted(group)
        among = list(remaining)
        result: list[list] = []
        place = 0
        while remaining:
            if len(remaining) == 1:
                chosen = remaining[0]
            else:
                picked = list(self.draw(list(remaining), 1))
                if len(picked) != 1 or picked[0] not in remaining:
                    raise ValueError(f"draw must return 1 of {remaining!r}, got {picked!r}")
                chosen = picked[0]
            place += 1
            remaining = [m for m in remaining if m != chosen]
            result.append([chosen, "lot" if place > 1 else None])
            self.note(
                chosen,
                {
                    "criterion": "lot",
                    "clause": self.clause,
                    "among": among,
                    "value": str(place),
                    "skipped": False,
                    "message": as_data(
                        Message(
                            gettext_noop("Lottning mellan %(among)s: lottad som nummer %(place)s"),
                            {"among": _names(among), "place": place},
                        )
                    ),
                },
            )
        return result


# --------------------------------------------------------------------------------------------
# Teams
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Match:
    home: Hashable
    away: Hashable
    imps_home: Fraction
    imps_away: Fraction
    vp_home: Fraction
    vp_away: Fraction
    # Board-level data reduced to what the criteria need: (boards won by home, by away,
    # total points won by home, by away); None when no board results were uploaded.
    boards: tuple[int, int, Fraction, Fraction] | None


_PLAIN_NUMBERS = (int, Decimal, Fraction)


def _board_totals(boards: Iterable[Mapping]) -> tuple[int, int, Fraction, Fraction]:
    """Boards won by each side (more IMPs on the board) and total points won by each side."""
    won_home = won_away = 0
    points_home: Any = 0
    points_away: Any = 0
    for b in boards:
        values = (b["imps_home"], b["imps_away"], b["points_home"], b["points_away"])
        if not all(type(v) in _PLAIN_NUMBERS for v in values):  # strings, floats: convert
            values = (
                _frac(values[0], "board imps_home"),
                _frac(values[1], "board imps_away"),
                _frac(values[2], "board points_home"),
                _frac(values[3], "board points_away"),
            )
        ih, ia, ph, pa = values
        if ih > ia:
            won_home += 1
        elif ia > ih:
            won_away += 1
        points_home += ph
        points_away += pa
    return (
        won_home,
        won_away,
        _frac(points_home, "board points_home"),
        _frac(points_away, "board points_away"),
    )


def _parse_match(raw: Mapping, known: set) -> _Match:
    home, away = raw["home"], raw["away"]
    for side in (home, away):
        if side not in known:
            raise ValueError(f"match team {side!r} is not among the teams")
    if home == away:
        raise ValueError(f"a team cannot meet itself: {home!r}")
    boards = raw.get("boards")
    parsed_boards = _board_totals(boards) if boards else None
    return _Match(
        home=home,
        away=away,
        imps_home=_frac(raw["imps_home"], "imps_home"),
        imps_away=_frac(raw["imps_away"], "imps_away"),
        vp_home=_frac(raw["vp_home"], "vp_home"),
        vp_away=_frac(raw["vp_away"], "vp_away"),
        boards=parsed_boards,
    )


def _quotient_key(won: Fraction, lost: Fraction) -> tuple[int, Fraction]:
    # R-TEAM-TIE-1: lost = 0 ranks highest; otherwise the exact quotient.
    return (1, Fraction(0)) if lost == 0 else (0, won / lost)


def rank_teams(
    teams: Iterable[Hashable],
    matches: Iterable[Mapping],
    *,
    penalties: Mapping[Hashable, Any] | None = None,
    draw: Draw | None = None,
    seed: Any = None,
) -> list[TeamStanding]:
    """Rank teams in a heat or in the final (R-TEAM-TIE-1, R-TEAM-FINAL-2, R-VP-4).

    ``teams``: team keys. ``matches``: mappings with ``home``, ``away``, ``imps_home``,
    ``imps_away``, ``vp_home``, ``vp_away`` and optionally ``boards`` (mappings with
    ``imps_home``, ``imps_away``, ``points_home``, ``points_away``). ``penalties`` maps a team
    to the VP subtracted from its total. ``draw(candidates, k)`` decides lots (default: a fair
    random draw, seeded with ``seed`` when given). Returns one :class:`TeamStanding` per team,
    best first. Raises ValueError for a match with a team not in ``teams`` or a non-number.
    """
    team_list = list(dict.fromkeys(teams))
    known = set(team_list)
    parsed = [_parse_match(m, known) for m in matches]
    penalty_of: dict = {t: Fraction(0) for t in team_list}
    for team, amount in (penalties or {}).items():
        if team not in known:
            raise ValueError(f"penalty for unknown team {team!r}")
        penalty_of[team] = _frac(amount, "penalty")

    vp = {t: -penalty_of[t] for t in team_list}
    won = dict.fromkeys(team_list, Fraction(0))
    lost = dict.fromkeys(team_list, Fraction(0))
    played = dict.fromkeys(team_list, 0)
    for m in parsed:
        vp[m.home] += m.vp_home
        vp[m.away] += m.vp_away
        won[m.home] += m.imps_home
        lost[m.home] += m.imps_away
        won[m.away] += m.imps_away
        lost[m.away] += m.imps_home
        played[m.home] += 1
        played[m.away] += 1

    def by_vp(group: tuple) -> _Outcome:
        shown = {}
        for t in group:
            text = _text(vp[t])
            if penalty_of[t]:
                message = Message(
                    gettext_noop("Vinstpoäng: %(vp)s VP (efter avdrag med %(penalty)s VP)"),
                    {"vp": Number(_sv(text)), "penalty": Number(_sv(_text(penalty_of[t])))},
                )
            else:
                message = Message(gettext_noop("Vinstpoäng: %(vp)s VP"), {"vp": Number(_sv(text))})
            shown[t] = (text, message)
        return _Outcome({t: vp[t] for t in group}, shown)

    def by_quotient(group: tuple) -> _Outcome:
        shown = {}
        for t in group:
            w, lo = _text(won[t]), _text(lost[t])
            if lost[t] == 0:
                figure = "inf"
                message = Message(
                    gettext_noop("IMP-kvot: %(won)s/0 – inga förlorade IMP, rankas högst"),
                    {"won": Number(_sv(w))},
                )
            else:
                q = str(_dec(won[t] / lost[t]).quantize(Decimal("0.0001")))
                figure = q
                message = Message(
                    gettext_noop("IMP-kvot: %(won)s/%(lost)s = %(quotient)s"),
                    {"won": Number(_sv(w)), "lost": Number(_sv(lo)), "quotient": Number(_sv(q))},
                )
            shown[t] = (figure, message)
        return _Outcome({t: _quotient_key(won[t], lost[t]) for t in group}, shown)

    def among(group: tuple) -> list[_Match]:
        members = set(group)
        return [m for m in parsed if m.home in members and m.away in members]

    def by_h2h_imps(group: tuple) -> _Outcome:
        total = dict.fromkeys(group, Fraction(0))
        for m in among(group):
            total[m.home] += m.imps_home
            total[m.away] += m.imps_away
        shown = {}
        for t in group:
            others = _names(o for o in group if o != t)
            text = _text(total[t])
            shown[t] = (
                text,
                Message(
                    gettext_noop("Vunna IMP i inbördes möten med %(others)s: %(imps)s"),
                    {"others": others, "imps": Number(_sv(text))},
                ),
            )
        return _Outcome(total, shown)

    def board_criterion(skipped: str, counted: str, count: Callable) -> Callable:
        """``skipped`` and ``counted`` are whole templates (gettext_noop) for the note when
        board results are missing and for each team's figure."""

        def evaluate(group: tuple) -> _Outcome:
            relevant = among(group)
            missing = [m for m in relevant if m.boards is None]
            if missing:
                listed = ", ".join(f"{m.home}–{m.away}" for m in missing)
                return _Outcome(None, skip=Message(skipped, {"matches": listed}))
            total = dict.fromkeys(group, Fraction(0))
            for m in relevant:
                home, away = count(m)
                total[m.home] += home
                total[m.away] += away
            shown = {}
            for t in group:
                others = _names(o for o in group if o != t)
                text = _text(total[t])
                shown[t] = (
                    text,
                    Message(counted, {"others": others, "value": Number(_sv(text))}),
                )
            return _Outcome(total, shown)

        return evaluate

    def boards_won(m: _Match) -> tuple[int, int]:
        return m.boards[0], m.boards[1]

    def points_won(m: _Match) -> tuple[Fraction, Fraction]:
        return m.boards[2], m.boards[3]

    engine = _Engine(
        criteria=(
            ("vp", by_vp),
            ("imp_quotient", by_quotient),
            ("h2h_imps", by_h2h_imps),
            (
                "h2h_boards",
                board_criterion(
                    gettext_noop(
                        "Vunna brickor i inbördes möten kunde inte användas: brickresultat "
                        "saknas för %(matches)s"
                    ),
                    gettext_noop("Vunna brickor i inbördes möten med %(others)s: %(value)s"),
                    boards_won,
                ),
            ),
            (
                "h2h_points",
                board_criterion(
                    gettext_noop(
                        "Vunna totalpoäng i inbördes möten kunde inte användas: brickresultat "
                        "saknas för %(matches)s"
                    ),
                    gettext_noop("Vunna totalpoäng i inbördes möten med %(others)s: %(value)s"),
                    points_won,
                ),
            ),
        ),
        restart=2,
        clause=_TEAM_CLAUSE,
        draw=draw if draw is not None else random_draw(seed),
    )
    ordered = engine.order(tuple(_sorted(team_list)), 0) if team_list else []

    standings = []
    for position, (team, decided_by) in enumerate(ordered, start=1):
        exact = None if lost[team] == 0 else won[team] / lost[team]
        standings.append(
            TeamStanding(
                team=team,
                rank=position,
                vp=_dec(vp[team]).quantize(Decimal("0.01")),
                imp_quotient=_INFINITY if exact is None else _dec(exact),
                imps_won=_dec(won[team]),
                imps_lost=_dec(lost[team]),
                matches_played=played[team],
                decided_by=decided_by,
                penalty=_dec(penalty_of[team]).quantize(Decimal("0.01")),
                imp_quotient_exact=exact,
                explanation=tuple(engine.notes.get(team, ())),
            )
        )
    return standings


# --------------------------------------------------------------------------------------------
# Pairs
# --------------------------------------------------------------------------------------------


def _pair_board_data(boards: Iterable[Mapping]) -> tuple[dict, list]:
    """(mp[(pair, board)], lines as (board, ns, ew, mp_ns, mp_ew))."""
    mp: dict = {}
    lines = []
    for line in boards:
        board, ns, ew = line["board"], line["ns"], line["ew"]
        mp_ns = _frac(line["mp_ns"], "mp_ns")
        mp_ew = _frac(line["mp_ew"], "mp_ew")
        for pair, value in ((ns, mp_ns), (ew, mp_ew)):
            if (pair, board) in mp:
                raise ValueError(f"pair {pair!r} has two results on board {board!r}")
            mp[(pair, board)] = value
        lines.append((board, ns, ew, mp_ns, mp_ew))
    return mp, lines


def _boards_won_outcome(group: tuple, mp: dict, board_keys: list) -> _Outcome:
    """R-PAIR-TIE-1 (1): boards won against the other tied pairs, board by board."""
    won = dict.fromkeys(group, 0)
    for board in board_keys:
        present = [p for p in group if (p, board) in mp]
        for i, p in enumerate(present):
            for q in present[i + 1 :]:
                if mp[(p, board)] > mp[(q, board)]:
                    won[p] += 1
                elif mp[(q, board)] > mp[(p, board)]:
                    won[q] += 1
    shown = {}
    for p in group:
        others = _names(o for o in group if o != p)
        shown[p] = (
            str(won[p]),
            Message(
                gettext_noop("Vunna brickor mot %(others)s: %(won)s"),
                {"others": others, "won": won[p]},
            ),
        )
    return _Outcome({p: Fraction(won[p]) for p in group}, shown)


def _pair_engine(
    score: dict,
    mp: dict,
    lines: list,
    draw: Draw,
    *,
    plaques: bool,
    qualifying: frozenset | None = None,
) -> _Engine:
    board_keys = _sorted({board for (_, board) in mp})

    def by_qualifier(group: tuple) -> _Outcome:
        """R-PAIR-TIE-1 "when their order matters for final places": on equal score the
        qualifier's pairs go first, separated among themselves; the others follow them."""
        inside = [p for p in group if p in qualifying]
        if not inside or len(inside) == len(group):
            return _Outcome(None, silent=True)
        others = _names(p for p in group if p not in qualifying)
        mates = _names(inside)
        shown = {}
        for p in group:
            if p in qualifying:
                message = Message(
                    gettext_noop(
                        "Deltar i kvalet: går före %(others)s, som har samma resultat men inte "
                        "deltar i kvalet; skiljs bara mot de kvalande paren"
                    ),
                    {"others": others},
                )
            else:
                message = Message(
                    gettext_noop(
                        "Deltar inte i kvalet: står efter %(mates)s, som har samma resultat; "
                        "ordningen mot dem påverkar inga finalplatser och avgörs inte "
                        "(R-PAIR-TIE-1 skiljer par när ordningen har betydelse för finalplatser)"
                    ),
                    {"mates": mates},
                )
            shown[p] = ("1" if p in qualifying else "0", message)
        return _Outcome({p: Fraction(1 if p in qualifying else 0) for p in group}, shown)

    def by_score(group: tuple) -> _Outcome:
        shown = {}
        for p in group:
            text = _text(score[p])
            shown[p] = (
                text,
                Message(gettext_noop("Poäng: %(score)s"), {"score": Number(_sv(text))}),
            )
        return _Outcome({p: score[p] for p in group}, shown)

    def by_boards(group: tuple) -> _Outcome:
        return _boards_won_outcome(group, mp, board_keys)

    def by_h2h(group: tuple) -> _Outcome:
        members = set(group)
        total = dict.fromkeys(group, Fraction(0))
        met = dict.fromkeys(group, 0)
        for _board, ns, ew, mp_ns, mp_ew in lines:
            if ns in members and ew in members:
                total[ns] += mp_ns
                total[ew] += mp_ew
                met[ns] += 1
                met[ew] += 1
        shown = {}
        for p in group:
            others = _names(o for o in group if o != p)
            text = _text(total[p])
            shown[p] = (
                text,
                Message(
                    gettext_noop(
                        "Matchpoäng i inbördes möten med %(others)s (brickor: %(boards)s): %(mp)s"
                    ),
                    {"others": others, "boards": met[p], "mp": Number(_sv(text))},
                ),
            )
        return _Outcome(total, shown)

    criteria: list = [("score", by_score)]
    if qualifying is not None:
        criteria.append(("qualifier", by_qualifier))
    criteria.append(("boards_won", by_boards))
    if not plaques:
        criteria.append(("h2h_mp", by_h2h))
    # R-PAIR-TIE-3: a split subgroup restarts from (1), boards won among its own members.
    restart = next(i for i, (name, _) in enumerate(criteria) if name == "boards_won")
    return _Engine(criteria=criteria, restart=restart, clause=_PAIR_CLAUSE, draw=draw)


def _pair_inputs(pairs: Iterable, scores: Mapping, boards: Iterable[Mapping]):
    pair_list = list(dict.fromkeys(pairs))
    missing = [p for p in pair_list if p not in scores]
    if missing:
        raise ValueError(f"no score for {missing!r}")
    score = {p: _frac(scores[p], "score") for p in pair_list}
    mp, lines = _pair_board_data(boards)
    return pair_list, score, mp, lines


def rank_pairs(
    pairs: Iterable[Hashable],
    scores: Mapping[Hashable, Any],
    boards: Iterable[Mapping],
    *,
    draw: Draw | None = None,
    seed: Any = None,
    qualifying: Iterable[Hashable] | None = None,
) -> list[PairStanding]:
    """Rank pairs in a heat or final, breaking ties (R-PAIR-TIE-1, R-PAIR-TIE-3).

    ``scores`` maps a pair to its total; ``boards`` lists every traveller line as a mapping
    {board, ns, ew, mp_ns, mp_ew}. Pairs on equal score are separated by (1) boards won among
    them, (2) matchpoints scored against each other, (3) lot; a subgroup split off by a
    criterion restarts from (1) among its own members. Returns :class:`PairStanding`, best first.

    ``qualifying``: the pairs whose order matters for final places (a bronze heat's declared
    pairs, R-PAIR-KVAL-5). On equal score they come before the other pairs and are separated
    among themselves only (criterion ``qualifier``, see the module docstring); ``None``: every
    pair's order matters.
    """
    pair_list, score, mp, lines = _pair_inputs(pairs, scores, boards)
    draw = draw if draw is not None else random_draw(seed)
    engine = _pair_engine(
        score,
        mp,
        lines,
        draw,
        plaques=False,
        qualifying=None if qualifying is None else frozenset(qualifying),
    )
    ordered = engine.order(tuple(_sorted(pair_list)), 0) if pair_list else []
    return [
        PairStanding(
            pair=pair,
            rank=position,
            score=score[pair],
            decided_by=decided_by,
            explanation=tuple(engine.notes.get(pair, ())),
        )
        for position, (pair, decided_by) in enumerate(ordered, start=1)
    ]


def plaque_places(
    pairs: Iterable[Hashable], scores: Mapping[Hashable, Any], boards: Iterable[Mapping]
) -> dict[Hashable, int]:
    """Places for plaques (R-PAIR-TIE-2): equal scores are separated by boards won only
    (criterion (1) of R-PAIR-TIE-1, with subgroups re-resolved among themselves, R-PAIR-TIE-3);
    pairs still equal share the higher place: two pairs sharing 2nd both get 2, the next gets 4.
    """
    pair_list, score, mp, lines = _pair_inputs(pairs, scores, boards)

    def no_lot(candidates: list, k: int) -> list:
        raise AssertionError("plaques share places instead of drawing lots")

    # The engine's criteria (score, boards won), but where it would draw a lot the pairs share.
    engine = _pair_engine(score, mp, lines, no_lot, plaques=True)
    places: dict = {}

    def place(group: tuple, start: int, first_place: int) -> None:
        if len(group) == 1:
            places[group[0]] = first_place
            return
        for index in range(start, len(engine.criteria)):
            _name, evaluate = engine.criteria[index]
            values = evaluate(group).values
            levels = sorted(set(values.values()), reverse=True)
            if len(levels) == 1:
                continue
            next_place = first_place
            for level in levels:
                sub = tuple(_sorted(p for p in group if values[p] == level))
                place(sub, engine.restart, next_place)
                next_place += len(sub)
            return
        for p in group:
            places[p] = first_place

    if pair_list:
        place(tuple(_sorted(pair_list)), 0, 1)
    return places

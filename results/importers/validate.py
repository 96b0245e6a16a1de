"""Checks of a parsed result file's figures, and the figures the DB layer needs.

Pure functions; nothing raises on bad data: every finding is an
:class:`~.model.ImportProblem` (Swedish first; ``severity`` ERROR refuses the upload, WARNING
is shown to the heat responsible and TK). The checks are those listed in docs/result-formats.md
("Kontroller efter inläsningen"), reproduced exactly on real Compscore3 USEBIO files.

Pairs (:func:`validate_pairs`; the heats of R-PAIR-KVAL-5 and the final are matchpointed):

* every line: MP_NS + MP_EW = the board's top, 2(n − 1) on the MP1 scale (n − 1 on MP2),
  n = results on the board; artificial scores (A6040 ...) are checked against their
  percentages instead;
* every line: MP_NS recomputed from the NS scores with Law 78A (:func:`ubf.rules.scoring.
  matchpoints`); on a board with artificial scores the real results are matchpointed among
  themselves and scaled with Neuberg to the board's n (the unscaled value is accepted too);
* every pair number on a traveller is in the ranking list; no pair plays a board twice;
* percentages recomputed (:func:`compute_pair_scores`): Neuberg to the normal number of
  results N for boards played fewer times, and factoring for pairs who missed boards. The
  standings use these; the file's percentage is a check of the file (issue 24,
  :func:`pair_bounds`, derivation in :mod:`.rounding`): within what the program's rounding
  can produce (per board and at the end, for the pair's boards) it passes silently; beyond
  that but within what the pair's boards give with another program's scoring (Neuberg or
  proportional scaling, the file's own matchpoints, the pair's adjusted scores, tenths per
  board) it is one WARNING for the file ("percentage-adjusted" per pair when the pair has
  adjusted scores of its own); outside even that, or with a stated number of boards other
  than the pair's boards, one ERROR for the file: the ranking list was computed from other
  board results (boards missing, or of another event);
* rank order agrees with the percentages (ties may be split by R-PAIR-TIE-1, so only a
  better rank with a clearly lower percentage is an error); Mitchell files with two ranking
  lists (``1NS``/``1EW`` numbers, both with a rank 1) are checked per direction;
* warnings: the score does not match contract + result + vulnerability (standard cycle);
  the file's total matches neither the factored nor the unfactored sum within its rounding
  (Σ of the per-board matchpoint roundings plus half a unit of its last decimal); a listed
  pair has no results; a line has no score at all.

Teams (:func:`validate_teams`):

* per board: IMPs recomputed from the two rooms' scores with :func:`ubf.rules.scoring.imps`
  equal the file's IMPs;
* per match: the sum of the board IMPs equals the match's IMPs (won and lost);
* VPs, if present, equal :func:`ubf.rules.vp.victory_points` within 0.01 (R-TEAM-VP-1,
  R-VP-1..3);
* no duplicate match (the same two teams in the same round) and no team twice in a round;
* R-TEAM-KVAL-5: every match has ``expected_boards`` boards when given, and in any case the
  same number of boards as the other matches of the heat; an error names the match.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from ubf.rules.i18n import Message, gettext_noop
from ubf.rules.scoring import board_vulnerability, contract_score, imps, matchpoints, neuberg
from ubf.rules.vp import MAX_BOARDS, MIN_BOARDS, victory_points

from .model import (
    ImportProblem,
    ParsedBoard,
    ParsedMatch,
    ParsedPairEvent,
    ParsedTeamBoard,
    ParsedTeamEvent,
    TravellerLine,
    fmt_decimal,
    problem,
    split_contract,
)
from .rounding import (
    ASSUMED_MP_UNIT,
    COARSE_PERCENT_UNIT,
    half_unit,
    percent_rounding,
    rounding_distance,
    unit_of,
)

__all__ = [
    "BoardScore",
    "PairBounds",
    "PairScore",
    "board_net_imps",
    "compute_board_matchpoints",
    "compute_pair_scores",
    "compute_pair_totals",
    "normal_results",
    "pair_bounds",
    "td_corrected_boards",
    "team_match_summary",
    "validate_pairs",
    "validate_teams",
]

TOLERANCE = Decimal("0.01")
_HUNDREDTH = Decimal("0.01")


def _d(value: Fraction | int) -> Decimal:
    """A Fraction as a Decimal with 4 decimals (for messages and comparisons)."""
    f = Fraction(value)
    return (Decimal(f.numerator) / Decimal(f.denominator)).quantize(Decimal("0.0001"))


def _show(value: Fraction | Decimal | int | None, places: int = 2) -> str:
    if value is None:
        return "–"
    if isinstance(value, Fraction):
        value = _d(value)
    text = format(Decimal(value).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP), "f")
    return text.replace(".", ",")


def _value_tolerance(value: Decimal | None, tol: Fraction) -> Fraction:
    """``tol``, or half a unit of the last decimal for a value written with one decimal
    (Magic Contest writes ``42.0``, so a Neuberg 3.33 becomes ``3.3``). Whole numbers are
    taken as exact: unscaled matchpoints on the MP1 scale are whole."""
    if value is None:
        return tol
    exponent = value.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    if places == 0:
        return tol
    return max(tol, Fraction(1, 2 * 10**places) + Fraction(1, 10000))


def _pct_tolerance(value: Decimal) -> Fraction:
    """0.01, or half a unit of the last decimal when the file has fewer than two decimals."""
    exponent = value.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    if places >= 2:
        return Fraction(1, 100)
    return Fraction(1, 2 * 10**places) + Fraction(1, 10000)


# --------------------------------------------------------------------------- pairs: figures


@dataclass(frozen=True)
class BoardScore:
    """Recomputed matchpoints for one line, on the MP1 scale.

    ``mp_ns`` is on the board's own top (2(n − 1), n = results on the board, Neuberg-scaled
    from the real results when the board has artificial scores); ``mp_ns_unscaled`` is the
    plain Law 78A value among the real results (equal to ``mp_ns`` without artificial scores);
    ``mp_ns_session`` is scaled with Neuberg to the session's normal number of results N.
    """

    line: TravellerLine
    top: int
    mp_ns: Fraction
    mp_ew: Fraction
    mp_ns_unscaled: Fraction | None
    mp_ns_session: Fraction
    mp_ew_session: Fraction


def _played(board: ParsedBoard) -> list[TravellerLine]:
    return [t for t in board.lines if t.score_ns is not None or t.artificial_percentages]


def normal_results(event: ParsedPairEvent) -> int:
    """N: the most results any board has (the normal number in a complete movement)."""
    return max((len(_played(b)) for b in event.boards), default=0)


def compute_board_matchpoints(board: ParsedBoard, normal: int) -> list[BoardScore]:
    """Law 78A matchpoints for every played line of a board (MP1 scale), see BoardScore."""
    lines = _played(board)
    n = len(lines)
    if n == 0:
        return []
    real = [t for t in lines if t.artificial_percentages is None]
    raw = matchpoints([t.score_ns for t in real]) if real else []
    raw_by_index = {id(t): mp for t, mp in zip(real, raw)}
    top = 2 * (n - 1)
    out = []
    for t in lines:
        art = t.artificial_percentages
        if art is None:
            unscaled = raw_by_index[id(t)]
            mp_ns = neuberg(unscaled, len(real), n) if len(real) != n else unscaled
            mp_ew = top - mp_ns
        else:
            unscaled = None
            mp_ns = Fraction(art[0], 100) * top
            mp_ew = Fraction(art[1], 100) * top
        if normal and n != normal:
            if art is None:
                s_ns = neuberg(mp_ns, n, normal)
                s_ew = neuberg(mp_ew, n, normal)
            else:
                s_ns = Fraction(art[0], 100) * 2 * (normal - 1)
                s_ew = Fraction(art[1], 100) * 2 * (normal - 1)
        else:
            s_ns, s_ew = mp_ns, mp_ew
        out.append(BoardScore(t, top, mp_ns, mp_ew, unscaled, s_ns, s_ew))
    return out


@dataclass(frozen=True)
class PairScore:
    """A pair's recomputed session result.

    ``total`` is on the event's scale, Neuberg-adjusted and factored to all the session's
    boards; ``raw_total`` is the same without factoring; ``percentage`` is exact (Fraction).
    ``adjusted`` says whether the pair has an artificial adjusted score of its own (A6040 ...)
    and ``adjusted_lines`` how many; adjusted scores of other pairs on the same board do not
    count. ``maximum`` is the most the pair could have scored on the boards it played
    (boards played × the top, on the event's scale): ``raw_total / maximum`` is the
    percentage, and two sessions add both up (R-PAIR-KVAL-6, docs/result-formats.md).
    """

    number: str
    boards_played: int
    total: Fraction
    raw_total: Fraction
    percentage: Fraction | None
    adjusted: bool
    adjusted_lines: int = 0
    maximum: Fraction = Fraction(0)


def _file_session_mp(bs: BoardScore, n: int, normal: int, scale: Fraction):
    """The file's own matchpoints of a line on the MP1 scale, Neuberg-scaled to N like ours."""
    t = bs.line
    if t.artificial_percentages is not None or t.mp_ns is None or t.mp_ew is None:
        return bs.mp_ns_session, bs.mp_ew_session
    ns, ew = Fraction(t.mp_ns) / scale, Fraction(t.mp_ew) / scale
    if normal and n != normal:
        return neuberg(ns, n, normal), neuberg(ew, n, normal)
    return ns, ew


def compute_pair_scores(
    event: ParsedPairEvent, *, file_mp_boards: frozenset[int] | set[int] | None = None
) -> dict[str, PairScore]:
    """Every pair's total and percentage recomputed from the board results (reference §5.1).

    Per board: Law 78A matchpoints, Neuberg to the normal number of results N for boards with
    fewer (or artificial) results. Per pair: total = Σ MP′ × (boards in session / boards
    played); percentage = Σ MP′ / (boards played × 2(N − 1)) × 100. Pairs without results are
    left out.

    On boards the tournament director corrected (:func:`td_corrected_boards`: the file's
    matchpoints differ from the recomputation but add up and give the file's totals), the
    file's matchpoints are used; ``file_mp_boards`` overrides which boards those are.
    """
    if file_mp_boards is None:
        file_mp_boards = td_corrected_boards(event)
    normal = normal_results(event)
    scale = Fraction(1, 2) if event.scoring_scale == "MP2" else Fraction(1)
    sums: dict[str, Fraction] = defaultdict(Fraction)
    counts: Counter = Counter()
    adjusted: Counter = Counter()
    for board in event.boards:
        scores = compute_board_matchpoints(board, normal)
        for bs in scores:
            ns_value, ew_value = bs.mp_ns_session, bs.mp_ew_session
            if board.number in file_mp_boards:
                ns_value, ew_value = _file_session_mp(bs, len(scores), normal, scale)
            own_adjusted = bs.line.artificial_percentages is not None
            for pair, value in ((bs.line.ns, ns_value), (bs.line.ew, ew_value)):
                sums[pair] += value
                counts[pair] += 1
                if own_adjusted:
                    adjusted[pair] += 1
    sessions = event.boards_in_session or len(event.boards)
    top = 2 * (normal - 1)
    out = {}
    for pair, played in counts.items():
        raw = sums[pair]
        factored = raw * Fraction(sessions, played) if played else raw
        pct = raw / (played * top) * 100 if played and top else None
        out[pair] = PairScore(
            pair,
            played,
            factored * scale,
            raw * scale,
            pct,
            adjusted[pair] > 0,
            adjusted[pair],
            played * top * scale,
        )
    return out


def _recomputed_mismatch(bs: BoardScore, tol: Fraction, scale: Fraction) -> bool:
    """The file's MP_NS for a real (not artificial) line differs from the recomputation."""
    t = bs.line
    if t.artificial_percentages is not None or t.mp_ns is None:
        return False
    file_ns = Fraction(t.mp_ns) / scale
    tol_ns = _value_tolerance(t.mp_ns, tol) / scale
    candidates = [bs.mp_ns]
    if bs.mp_ns_unscaled is not None and bs.mp_ns_unscaled != bs.mp_ns:
        candidates.append(bs.mp_ns_unscaled)
    return all(abs(file_ns - c) > tol_ns for c in candidates)


def _sums_to_top(bs: BoardScore, tol: Fraction, scale: Fraction) -> bool:
    t = bs.line
    if t.artificial_percentages is not None:
        return True
    if t.mp_ns is None or t.mp_ew is None:
        return False
    both = (_value_tolerance(t.mp_ns, tol) + _value_tolerance(t.mp_ew, tol)) / scale
    return abs((Fraction(t.mp_ns) + Fraction(t.mp_ew)) / scale - bs.top) <= both


def td_corrected_boards(event: ParsedPairEvent, *, tolerance: Decimal = TOLERANCE) -> set[int]:
    """Boards whose matchpoints the tournament director corrected by hand (issue 10).

    A board counts when the file's matchpoints differ from the recomputation from the scores,
    every real line's two sides still add up to the board's top, and, with the file's
    matchpoints used on those boards, every pair's total and percentage in the ranking list
    match. Otherwise (or when no board differs) the set is empty and the differences stay
    errors.
    """
    tol = Fraction(tolerance)
    scale = Fraction(1, 2) if event.scoring_scale == "MP2" else Fraction(1)
    normal = normal_results(event)
    boards: set[int] = set()
    for board in event.boards:
        scores = compute_board_matchpoints(board, normal)
        if not any(_recomputed_mismatch(bs, tol, scale) for bs in scores):
            continue
        if not all(_sums_to_top(bs, tol, scale) for bs in scores):
            return set()
        boards.add(board.number)
    if not boards:
        return set()
    with_file = compute_pair_scores(event, file_mp_boards=boards)
    listed = [p for p in event.pairs if p.percentage is not None or p.total is not None]
    if not listed:
        return set()
    for p in listed:
        s = with_file.get(p.number)
        if s is None:
            return set()
        if p.percentage is not None and (
            s.percentage is None
            or abs(Fraction(p.percentage) - s.percentage) > _pct_tolerance(p.percentage)
        ):
            return set()
        if p.total is not None and all(
            abs(Fraction(p.total) - c) > _pct_tolerance(p.total) for c in (s.total, s.raw_total)
        ):
            return set()
    return boards


@dataclass(frozen=True)
class PairBounds:
    """How far a pair's stated figures may lie from ours (:mod:`.rounding`, issue 24).

    ``pct_rounding`` is the per-board part of a program's rounding of the percentage, in
    percentage points: (1/k)·Σ over the pair's k boards of (100/T · the matchpoint rounding +
    the per-board percentage rounding); the final rounding (half a unit of the file's last
    decimal) comes on top. ``mp_rounding`` is Σ of the matchpoint roundings, on the MP1 scale
    and unfactored, for a stated total. ``low``/``high`` are the lowest and highest percentage
    the pair's boards give with any program's method (Neuberg or proportional scaling, the
    file's own matchpoints, ±10 % of a top per own adjusted score, and the board's
    percentage rounded to tenths), without the final rounding; ``None`` without a top.
    """

    number: str
    boards_played: int
    pct_rounding: Fraction
    mp_rounding: Fraction
    low: Fraction | None
    high: Fraction | None


def _side_values(bs: BoardScore, n: int, normal: int, scale: Fraction, corrected: bool):
    """For the line's NS then EW side: (pair, value on the board's top, value on the session's
    top, the file's matchpoints as written, the file's value on the session's top), MP1 scale;
    on a board the tournament director corrected, the file's values are the pair's."""
    t = bs.line
    file_ns, file_ew = _file_session_mp(bs, n, normal, scale)
    for pair, v_board, v_sess, file_mp, file_sess in (
        (t.ns, bs.mp_ns, bs.mp_ns_session, t.mp_ns, file_ns),
        (t.ew, bs.mp_ew, bs.mp_ew_session, t.mp_ew, file_ew),
    ):
        if corrected and file_mp is not None and t.artificial_percentages is None:
            v_board, v_sess = Fraction(file_mp) / scale, file_sess
        yield pair, v_board, v_sess, file_mp, file_sess


def pair_bounds(
    event: ParsedPairEvent,
    *,
    file_mp_boards: frozenset[int] | set[int] | None = None,
    scores: dict[str, PairScore] | None = None,
    board_scores: dict[int, list[BoardScore]] | None = None,
) -> dict[str, PairBounds]:
    """Per pair: what a scoring program's rounding (and, wider, its scoring) can make of the
    pair's boards in the file. The derivation is in :mod:`.rounding` and
    docs/result-formats.md; the values per board are those :func:`compute_pair_scores` uses
    (the file's matchpoints on boards the tournament director corrected); ``scores`` is
    :func:`compute_pair_scores` of the same event and boards when the caller has it, and
    ``board_scores`` each board's :func:`compute_board_matchpoints` (by board number)."""
    if file_mp_boards is None:
        file_mp_boards = td_corrected_boards(event)
    normal = normal_results(event)
    scale = Fraction(1, 2) if event.scoring_scale == "MP2" else Fraction(1)
    top = 2 * (normal - 1)
    count: Counter = Counter()
    pct_err: dict[str, Fraction] = defaultdict(Fraction)
    mp_err: dict[str, Fraction] = defaultdict(Fraction)
    down: dict[str, Fraction] = defaultdict(Fraction)  # Σ how far below ours a board may go
    up: dict[str, Fraction] = defaultdict(Fraction)
    tenths: dict[str, Fraction] = defaultdict(Fraction)  # Σ each board's % to tenths
    zero = Fraction(0)
    for board in event.boards:
        lines = (board_scores or {}).get(board.number)
        if lines is None:
            lines = compute_board_matchpoints(board, normal)
        n = len(lines)
        real = sum(1 for bs in lines if bs.line.artificial_percentages is None)
        growth = Fraction(normal, n) if normal and n != normal else Fraction(1)
        plain_board = n == normal and real == n
        corrected = board.number in file_mp_boards
        for bs in lines:
            ns_unscaled = bs.mp_ns_unscaled
            art = bs.line.artificial_percentages is not None
            for index, (pair, v_board, v_sess, file_mp, file_sess) in enumerate(
                _side_values(bs, n, normal, scale, corrected)
            ):
                count[pair] += 1
                if not top:
                    continue
                # The program's rounding on this board (module rounding): its matchpoints to
                # the unit it writes them in, Neuberg-scaled; the scaled value to one decimal;
                # the board's percentage to two decimals.
                unit = unit_of(file_mp) / scale if file_mp is not None else ASSUMED_MP_UNIT
                mp = rounding_distance(v_board, unit)
                if not plain_board:
                    mp *= growth
                    if n != normal:
                        mp += rounding_distance(v_sess, ASSUMED_MP_UNIT)
                pct = percent_rounding(v_sess, top)
                tenths[pair] += percent_rounding(v_sess, top, COARSE_PERCENT_UNIT)
                if mp:
                    mp_err[pair] += mp
                    pct += mp * 100 / top
                pct_err[pair] += pct
                # What other programs' scoring of the same board gives the pair: Neuberg or
                # proportional scaling, the file's own value, ±10 % of a top when adjusted.
                low = high = zero
                if file_sess != v_sess:
                    low, high = min(low, file_sess - v_sess), max(high, file_sess - v_sess)
                if art:
                    low, high = low - Fraction(top, 10), high + Fraction(top, 10)
                elif not plain_board:
                    others = []
                    if bs.top:
                        others.append(v_board * top / bs.top)
                    if ns_unscaled is not None and real > 1:
                        real_top = 2 * (real - 1)
                        unscaled = ns_unscaled if index == 0 else real_top - ns_unscaled
                        others.append(Fraction(unscaled) * top / real_top)
                    for c in others:
                        low, high = min(low, c - v_sess), max(high, c - v_sess)
                down[pair] += mp - low
                up[pair] += mp + high
    out = {}
    if scores is None:
        scores = compute_pair_scores(event, file_mp_boards=file_mp_boards)
    for pair, played in count.items():
        rounding = pct_err[pair] / played if top else Fraction(0)
        low = high = None
        pct = scores[pair].percentage
        if top and pct is not None:
            per_point = Fraction(100, played * top)
            coarse = tenths[pair] / played
            low = min(pct - down[pair] * per_point - coarse, pct - rounding)
            high = max(pct + up[pair] * per_point + coarse, pct + rounding)
        out[pair] = PairBounds(pair, played, rounding, mp_err[pair], low, high)
    return out


def compute_pair_totals(event: ParsedPairEvent) -> dict[str, Decimal]:
    """Pair number → recomputed percentage, rounded half-up to two decimals (for the DB)."""
    out = {}
    for number, score in compute_pair_scores(event).items():
        if score.percentage is None:
            continue
        f = score.percentage
        value = Decimal(f.numerator) / Decimal(f.denominator)
        out[number] = value.quantize(_HUNDREDTH, rounding=ROUND_HALF_UP)
    return out


# --------------------------------------------------------------------------- pairs: checks


def _line_label(t: TravellerLine) -> Message:
    return Message(gettext_noop("par %(ns)s (NS) mot %(ew)s (ÖV)"), {"ns": t.ns, "ew": t.ew})


def _match(m: ParsedMatch) -> Message:
    """The match as messages name it ("rond 2: 1-4", ``ParsedMatch.label``)."""
    return Message(
        gettext_noop("rond %(round)s: %(home)s-%(away)s"),
        {"round": m.round, "home": m.home, "away": m.away},
    )


def validate_pairs(
    event: ParsedPairEvent, *, tolerance: Decimal = TOLERANCE
) -> list[ImportProblem]:
    """All checks of a pairs heat's file (see the module docstring; R-PAIR-KVAL-5 heats)."""
    out: list[ImportProblem] = []
    tol = Fraction(tolerance)
    scale = Fraction(1, 2) if event.scoring_scale == "MP2" else Fraction(1)
    known = {p.number for p in event.pairs}
    normal = normal_results(event)
    unlisted: dict[str, tuple[int, int | None]] = {}
    corrected = td_corrected_boards(event, tolerance=tolerance)
    by_board: dict[int, list[BoardScore]] = {}

    for board in event.boards:
        el = f"bricka {board.number}"
        seen: dict[str, TravellerLine] = {}
        for t in board.lines:
            if t.score_ns is None and not t.artificial_percentages:
                out.append(
                    problem(
                        gettext_noop(
                            "Bricka %(number)s, %(line)s: resultat saknas; raden räknas som ej spelad."
                        ),
                        params={"number": board.number, "line": _line_label(t)},
                        line=t.line,
                        element=el,
                        warning=True,
                        code="line-no-score",
                    )
                )
            if t.ns == t.ew:
                out.append(
                    problem(
                        gettext_noop("Bricka %(number)s: par %(ns)s står som både NS och ÖV."),
                        params={"number": board.number, "ns": t.ns},
                        line=t.line,
                        element=el,
                        code="pair-twice-on-line",
                    )
                )
            for pair in (t.ns, t.ew):
                if known and pair not in known:
                    unlisted.setdefault(pair, (board.number, t.line))
                if pair in seen and seen[pair] is not t:
                    out.append(
                        problem(
                            gettext_noop(
                                "Par %(pair)s har spelat bricka %(number)s två gånger (även rad %(line)s)."
                            ),
                            params={"pair": pair, "number": board.number, "line": seen[pair].line},
                            line=t.line,
                            element=el,
                            code="board-played-twice",
                        )
                    )
                seen.setdefault(pair, t)
            out.extend(_check_contract_score(board.number, t, el))

        scores = compute_board_matchpoints(board, normal)
        by_board.setdefault(board.number, scores)
        for bs in scores:
            t = bs.line
            if t.mp_ns is None and t.mp_ew is None:
                continue
            file_ns = Fraction(t.mp_ns) / scale if t.mp_ns is not None else None
            file_ew = Fraction(t.mp_ew) / scale if t.mp_ew is not None else None
            top_file = bs.top * scale
            art = t.artificial_percentages
            if art is not None:
                if file_ns is not None and abs(file_ns - bs.mp_ns) > tol + Fraction(5, 100):
                    out.append(
                        problem(
                            gettext_noop(
                                "Bricka %(number)s, %(line)s: den konstgjorda poängen %(adjusted)s ger %(computed)s "
                                "MP men filen har %(stated)s."
                            ),
                            params={
                                "number": board.number,
                                "line": _line_label(t),
                                "adjusted": t.adjusted,
                                "computed": _show(bs.mp_ns * scale),
                                "stated": _show(t.mp_ns),
                            },
                            line=t.line,
                            element=el,
                            warning=True,
                            code="mp-artificial",
                        )
                    )
                continue
            tol_ns = _value_tolerance(t.mp_ns, tol) / scale
            tol_ew = _value_tolerance(t.mp_ew, tol) / scale
            if (
                file_ns is not None
                and file_ew is not None
                and abs(file_ns + file_ew - bs.top) > tol_ns + tol_ew
            ):
                out.append(
                    problem(
                        gettext_noop(
                            "Bricka %(number)s, %(line)s: MP NS + MP ÖV = %(sum)s, men toppen är %(top)s "
                            "(%(results)s resultat på brickan)."
                        ),
                        params={
                            "number": board.number,
                            "line": _line_label(t),
                            "sum": _show(t.mp_ns + t.mp_ew),
                            "top": _show(top_file),
                            "results": len(scores),
                        },
                        line=t.line,
                        element=el,
                        code="mp-sum",
                    )
                )
                continue
            if file_ns is None or board.number in corrected:
                continue
            candidates = [bs.mp_ns]
            if bs.mp_ns_unscaled is not None and bs.mp_ns_unscaled != bs.mp_ns:
                candidates.append(bs.mp_ns_unscaled)
            if all(abs(file_ns - c) > tol_ns for c in candidates):
                out.append(
                    problem(
                        gettext_noop(
                            "Bricka %(number)s, %(line)s: filen ger NS %(stated)s MP, men poängen %(score_ns)s "
                            "ger %(computed)s MP jämfört med de andra resultaten på brickan."
                        ),
                        params={
                            "number": board.number,
                            "line": _line_label(t),
                            "stated": _show(t.mp_ns),
                            "score_ns": t.score_ns,
                            "computed": _show(bs.mp_ns * scale),
                        },
                        line=t.line,
                        element=el,
                        code="mp-recomputed",
                    )
                )

    out.extend(_unlisted_pairs(unlisted))
    if corrected:
        shown = ", ".join(str(b) for b in sorted(corrected))
        out.append(
            problem(
                gettext_noop(
                    "Brickor med ändrade matchpoäng: %(boards)s. Filens matchpoäng på %(which)s "
                    "skiljer sig från omräkningen ur poängen, men de summerar till toppen och ger "
                    "filens slutsummor, så det ser ut som en rättning av tävlingsledaren. Filens "
                    "matchpoäng används; TK ska bekräfta rättningen."
                ),
                params={
                    "boards": shown,
                    "which": gettext_noop("brickan")
                    if len(corrected) == 1
                    else gettext_noop("brickorna"),
                },
                element="bricka " + shown,
                warning=True,
                code="td-correction",
            )
        )
    out.extend(_check_pair_totals(event, corrected, by_board))
    out.extend(_check_ranks(event, tol))
    return out


def _unlisted_pairs(unlisted: dict[str, tuple[int, int | None]]) -> list[ImportProblem]:
    """Pairs on the travellers but not in the ranking list: one message, not one per line."""
    if not unlisted:
        return []
    if len(unlisted) == 1:
        ((pair, (board, line)),) = unlisted.items()
        return [
            problem(
                gettext_noop(
                    "Bricka %(board)s: par %(pair)s finns inte i resultatlistan. Exportera filen igen "
                    "från resultatprogrammet med hela resultatlistan."
                ),
                params={"board": board, "pair": pair},
                line=line,
                element=f"bricka {board}",
                code="unknown-pair",
            )
        ]
    names = list(unlisted)
    shown = ", ".join(names[:10]) + (", …" if len(names) > 10 else "")
    first_board, first_line = next(iter(unlisted.values()))
    return [
        problem(
            gettext_noop(
                "%(count)s par på brickorna finns inte i resultatlistan: %(pairs)s. Resultatlistan "
                "och brickresultaten hör inte ihop; exportera filen igen från resultatprogrammet med "
                "hela resultatlistan."
            ),
            params={"count": len(names), "pairs": shown},
            line=first_line,
            element=f"bricka {first_board}",
            code="unknown-pair",
        )
    ]


def _check_contract_score(board: int, t: TravellerLine, el: str) -> list[ImportProblem]:
    if (
        t.adjusted
        or t.score_ns is None
        or not t.contract
        or t.contract == "Pass"
        or t.declarer is None
        or t.tricks is None
    ):
        return []
    level, strain, doubled = split_contract(t.contract)
    vul = board_vulnerability(board)
    declarer_vul = (
        vul == "All" or (vul == "NS" and t.declarer in "NS") or (vul == "EW" and t.declarer in "EW")
    )
    expected = contract_score(level, strain, doubled, declarer_vul, t.tricks)
    if t.declarer in "EW":
        expected = -expected
    if expected == t.score_ns:
        return []
    return [
        problem(
            gettext_noop(
                "Bricka %(board)s, %(line)s: %(contract)s av %(declarer)s med %(tricks)s stick ger "
                "%(expected)s för NS (zon: %(vul)s), men filen har %(stated)s."
            ),
            params={
                "board": board,
                "line": _line_label(t),
                "contract": t.contract,
                "declarer": t.declarer,
                "tricks": t.tricks,
                "expected": expected,
                "vul": vul,
                "stated": t.score_ns,
            },
            line=t.line,
            element=el,
            warning=True,
            code="score-contract",
        )
    ]


ADJUSTED_POINTS_PER_LINE = Fraction(10)


def adjusted_bound(score: PairScore) -> Fraction:
    """How far (percentage points) a pair's stated percentage may differ from ours because of
    its own adjusted scores: 10 points of one board per adjusted line (60 % against the
    pair's own session average, Law 12C2), spread over the boards it played."""
    if not score.adjusted_lines or not score.boards_played:
        return Fraction(0)
    return ADJUSTED_POINTS_PER_LINE * score.adjusted_lines / score.boards_played


#: The final rounding the fits-the-boards range allows at least: a percentage to one decimal.
_COARSE_FINAL = COARSE_PERCENT_UNIT / 2


def _others(items: list) -> Message | str:
    """The sentence after the first pair's (" Likadant för 3 par till: 5, 9, 12."), or ""."""
    if not items:
        return ""
    names = [p.number for p, *_ in items]
    shown = ", ".join(names[:10]) + (", …" if len(names) > 10 else "")
    return Message(
        gettext_noop(" Likadant för %(count)s par till: %(pairs)s."),
        {"count": len(names), "pairs": shown},
    )


def _check_pair_totals(
    event: ParsedPairEvent,
    corrected: set[int],
    board_scores: dict[int, list[BoardScore]] | None = None,
) -> list[ImportProblem]:
    """The ranking list against the board results (issue 24; docs/result-formats.md).

    A stated percentage within a program's rounding of ours (:class:`PairBounds`) passes
    silently; outside it but within what the pair's boards give with any program's scoring,
    one warning for the file (or, for a pair with its own adjusted scores, the per-pair
    "percentage-adjusted" warning); outside even that, or with a stated number of boards
    other than the pair's boards in the file, one refusal for the file: the ranking list was
    computed from other board results (boards missing, or of another event). A stated total
    is checked within its rounding too, and its mismatch stays a warning."""
    out: list[ImportProblem] = []
    scores = compute_pair_scores(event, file_mp_boards=corrected)
    bounds = pair_bounds(event, file_mp_boards=corrected, scores=scores, board_scores=board_scores)
    scale = Fraction(1, 2) if event.scoring_scale == "MP2" else Fraction(1)
    sessions = event.boards_in_session or len(event.boards)
    refused: list[tuple] = []
    method: list[tuple] = []
    for p in event.pairs:
        s = scores.get(p.number)
        el = f"par {p.number}"
        if s is None:
            out.append(
                problem(
                    gettext_noop(
                        "Par %(number)s står i resultatlistan men har inga brickresultat."
                    ),
                    params={"number": p.number},
                    line=p.line,
                    element=el,
                    warning=True,
                    code="pair-no-results",
                )
            )
            continue
        b = bounds[p.number]
        boards_differ = p.boards_played is not None and p.boards_played != s.boards_played
        if boards_differ:
            out.append(
                problem(
                    gettext_noop(
                        "Par %(number)s: filen säger %(stated)s spelade brickor, men brickresultaten visar "
                        "%(counted)s."
                    ),
                    params={
                        "number": p.number,
                        "stated": p.boards_played,
                        "counted": s.boards_played,
                    },
                    line=p.line,
                    element=el,
                    warning=True,
                    code="boards-played",
                )
            )
        if p.percentage is not None and s.percentage is not None:
            final = half_unit(p.percentage)
            rounding = final + b.pct_rounding
            stated = Fraction(p.percentage)
            diff = abs(stated - s.percentage)
            if diff > rounding:
                slack = max(final, _COARSE_FINAL)
                fits = b.low is not None and b.low - slack <= stated <= b.high + slack
                adjusted = adjusted_bound(s)
                if boards_differ or not fits:
                    refused.append((p, s, b, boards_differ, slack))
                elif s.adjusted_lines and diff <= rounding + adjusted:
                    out.append(
                        problem(
                            gettext_noop(
                                "Par %(number)s: filens procent %(stated)s skiljer sig lite från den omräknade "
                                "%(computed)s; paret har %(adjusted_lines)s justerat resultat (A+/A-), som "
                                "programmen räknar olika (högst %(bound)s procentenheter tillåts)."
                            ),
                            params={
                                "number": p.number,
                                "stated": _show(p.percentage),
                                "computed": _show(s.percentage),
                                "adjusted_lines": s.adjusted_lines,
                                "bound": _show(adjusted),
                            },
                            line=p.line,
                            element=el,
                            warning=True,
                            code="percentage-adjusted",
                        )
                    )
                else:
                    method.append((p, s, b, rounding, slack))
        if p.total is not None:
            final = half_unit(p.total)
            raw_tol = final + b.mp_rounding * scale
            factored_tol = final + b.mp_rounding * scale * Fraction(sessions, s.boards_played)
            stated_total = Fraction(p.total)
            if (
                abs(stated_total - s.total) > factored_tol
                and abs(stated_total - s.raw_total) > raw_tol
            ):
                out.append(
                    problem(
                        gettext_noop(
                            "Par %(number)s: filens summa %(stated)s stämmer varken med den omräknade summan "
                            "%(factored)s (faktoriserad) eller %(unfactored)s (ofaktoriserad)."
                        ),
                        params={
                            "number": p.number,
                            "stated": _show(p.total),
                            "factored": _show(s.total),
                            "unfactored": _show(s.raw_total),
                        },
                        line=p.line,
                        element=el,
                        warning=True,
                        code="total",
                    )
                )
    if method:
        p, s, b, rounding, slack = method[0]
        out.append(
            problem(
                gettext_noop(
                    "Par %(number)s: filens procent %(stated)s skiljer sig %(diff)s procentenheter "
                    "från brickresultatens %(computed)s (%(boards_played)s spelade brickor). Det är "
                    "mer än resultatprogrammets avrundning kan ge (högst %(rounding)s), men ryms i "
                    "vad parets brickor ger med ett annat programs beräkningssätt (%(low)s–%(high)s). "
                    "Ställningen räknas på brickresultaten; kontrollera att filen är den "
                    "slutliga.%(others)s"
                ),
                params={
                    "number": p.number,
                    "stated": _show(p.percentage),
                    "diff": _show(abs(Fraction(p.percentage) - s.percentage), 3),
                    "computed": _show(s.percentage),
                    "boards_played": s.boards_played,
                    "rounding": _show(rounding, 3),
                    "low": _show(b.low - slack),
                    "high": _show(b.high + slack),
                    "others": _others(method[1:]),
                },
                line=p.line,
                element=f"par {p.number}",
                warning=True,
                code="percentage-method",
            )
        )
    if refused:
        p, s, b, boards_differ, slack = refused[0]
        params = {
            "number": p.number,
            "stated": _show(p.percentage),
            "computed": _show(s.percentage),
            "boards_played": s.boards_played,
            "others": _others(refused[1:]),
        }
        if boards_differ:
            template = gettext_noop(
                "Par %(number)s: resultatlistan räknar med %(stated_boards)s spelade brickor för "
                "paret, men filens brickresultat har %(boards_played)s (filens procent %(stated)s, "
                "brickresultaten ger %(computed)s). Brickor saknas i filen eller hör till en "
                "annan tävling; exportera filen igen från resultatprogrammet med alla "
                "brickor.%(others)s"
            )
            params["stated_boards"] = p.boards_played
        else:
            template = gettext_noop(
                "Par %(number)s: filens procent %(stated)s stämmer inte med brickresultaten, som ger "
                "%(computed)s (%(boards_played)s spelade brickor). Så stor skillnad kan inget "
                "resultatprograms avrundning eller beräkningssätt ge på parets brickor (de ger "
                "%(low)s–%(high)s): resultatlistan är räknad på andra brickresultat, så brickor "
                "saknas i filen eller hör till en annan tävling. Exportera filen igen från "
                "resultatprogrammet med alla brickor.%(others)s"
            )
            params["low"] = _show(b.low - slack if b.low is not None else None)
            params["high"] = _show(b.high + slack if b.high is not None else None)
        out.append(
            problem(
                template,
                params=params,
                line=p.line,
                element=f"par {p.number}",
                code="percentage",
            )
        )
    return out


def _rank_groups(event: ParsedPairEvent) -> list[list]:
    ranked = [p for p in event.pairs if p.rank is not None]
    ns = [p for p in ranked if p.number.upper().endswith("NS")]
    ew = [p for p in ranked if p.number.upper().endswith("EW")]
    if (
        ns
        and ew
        and len(ns) + len(ew) == len(ranked)
        and min(p.rank for p in ns) == 1
        and min(p.rank for p in ew) == 1
    ):
        return [ns, ew]
    return [ranked]


def _check_ranks(event: ParsedPairEvent, tol: Fraction) -> list[ImportProblem]:
    out: list[ImportProblem] = []
    for group in _rank_groups(event):
        use_pct = all(p.percentage is not None for p in group)
        key = (lambda p: p.percentage) if use_pct else (lambda p: p.total)
        if not all(key(p) is not None for p in group):
            continue
        ordered = sorted(group, key=lambda p: p.rank)
        what = gettext_noop("procent") if use_pct else gettext_noop("summa")
        for b in ordered:
            # One message per pair placed too low: name the best-placed pair it should beat.
            a = next(
                (
                    a
                    for a in ordered
                    if a.rank < b.rank and Fraction(key(b)) - Fraction(key(a)) > tol
                ),
                None,
            )
            if a is None:
                continue
            out.append(
                problem(
                    gettext_noop(
                        "Placeringarna stämmer inte: par %(above)s är %(above_rank)s:a med "
                        "%(what)s %(above_value)s, men par %(below)s är %(below_rank)s:a med "
                        "högre %(what)s %(below_value)s."
                    ),
                    params={
                        "above": a.number,
                        "above_rank": a.rank,
                        "what": what,
                        "above_value": _show(key(a)),
                        "below": b.number,
                        "below_rank": b.rank,
                        "below_value": _show(key(b)),
                    },
                    line=b.line,
                    element=f"par {b.number}",
                    code="rank-order",
                )
            )
    return out


# --------------------------------------------------------------------------- teams


def board_net_imps(board: ParsedTeamBoard) -> Decimal | None:
    """The home team's net IMPs on a board: recomputed from both rooms' scores when both are
    known, else the file's value, else ``None``."""
    if board.score_ns_room1 is not None and board.score_ns_room2 is not None:
        return Decimal(imps(board.score_ns_room1 - board.score_ns_room2))
    return board.imps_home


def _file_or_computed(board: ParsedTeamBoard) -> Decimal | None:
    if board.imps_home is not None:
        return board.imps_home
    return board_net_imps(board)


def _vp_boards(m: ParsedMatch, event: ParsedTeamEvent, expected: int | None) -> int | None:
    n = m.boards_played or expected or event.boards_per_match
    if n is None or not MIN_BOARDS <= n <= MAX_BOARDS:
        return None
    return n


def validate_teams(
    event: ParsedTeamEvent, *, expected_boards: int | None = None
) -> list[ImportProblem]:
    """All checks of a team file (module docstring; R-TEAM-KVAL-5, R-TEAM-VP-1, R-VP-1..3)."""
    out: list[ImportProblem] = []
    by_pairing: dict[tuple[int, frozenset], ParsedMatch] = {}
    by_team_round: dict[tuple[int, str], ParsedMatch] = {}
    for m in event.matches:
        el = f"match {m.label}"
        if m.home == m.away:
            out.append(
                problem(
                    gettext_noop("Matchen %(match)s: laget möter sig självt."),
                    params={"match": _match(m)},
                    line=m.line,
                    element=el,
                    code="match-self",
                )
            )
            continue
        key = (m.round, frozenset((m.home, m.away)))
        if key in by_pairing:
            first = by_pairing[key]
            out.append(
                problem(
                    gettext_noop("Matchen %(match)s finns två gånger i filen (även rad %(line)s)."),
                    params={"match": _match(m), "line": first.line},
                    line=m.line,
                    element=el,
                    code="duplicate-match",
                )
            )
            continue
        by_pairing[key] = m
        for team in (m.home, m.away):
            other = by_team_round.get((m.round, team))
            if other is not None:
                out.append(
                    problem(
                        gettext_noop(
                            "Lag %(team)s spelar två matcher i rond %(round)s (%(first)s och %(second)s)."
                        ),
                        params={
                            "team": team,
                            "round": m.round,
                            "first": _match(other),
                            "second": _match(m),
                        },
                        line=m.line,
                        element=el,
                        code="team-twice-in-round",
                    )
                )
            by_team_round.setdefault((m.round, team), m)
        out.extend(_check_match(m, event, expected_boards))

    # R-TEAM-KVAL-5: the same number of boards in every match of the heat.
    counts = Counter(m.boards_played for m in event.matches if m.boards_played)
    if expected_boards is None and len(counts) > 1:
        usual = counts.most_common(1)[0][0]
        for m in event.matches:
            if m.boards_played and m.boards_played != usual:
                out.append(
                    problem(
                        gettext_noop(
                            "Matchen %(match)s har %(boards_played)s brickor, men de andra matcherna har "
                            "%(usual)s; alla matcher i en heat ska ha lika många brickor (R-TEAM-KVAL-5)."
                        ),
                        params={
                            "match": _match(m),
                            "boards_played": m.boards_played,
                            "usual": usual,
                        },
                        line=m.line,
                        element=f"match {m.label}",
                        code="board-count",
                        clause="R-TEAM-KVAL-5",
                    )
                )
    return out


def _check_match(
    m: ParsedMatch, event: ParsedTeamEvent, expected_boards: int | None
) -> list[ImportProblem]:
    out: list[ImportProblem] = []
    el = f"match {m.label}"
    numbers: dict[int, ParsedTeamBoard] = {}
    nets: list[Decimal] = []
    complete = True
    for b in m.boards:
        if b.number in numbers:
            out.append(
                problem(
                    gettext_noop("Matchen %(match)s: bricka %(number)s finns två gånger."),
                    params={"match": _match(m), "number": b.number},
                    line=b.line,
                    element=el,
                    code="duplicate-board",
                )
            )
            continue
        numbers[b.number] = b
        if b.score_ns_room1 is None or b.score_ns_room2 is None:
            if b.imps_home is None:
                complete = False
                out.append(
                    problem(
                        gettext_noop(
                            "Matchen %(match)s, bricka %(number)s: resultat saknas från ett rum; brickans IMP "
                            "kan inte kontrolleras."
                        ),
                        params={"match": _match(m), "number": b.number},
                        line=b.line,
                        element=el,
                        warning=True,
                        code="board-one-room",
                    )
                )
        elif b.imps_home is not None:
            computed = imps(b.score_ns_room1 - b.score_ns_room2)
            if abs(b.imps_home - computed) > TOLERANCE:
                out.append(
                    problem(
                        gettext_noop(
                            "Matchen %(match)s, bricka %(number)s: filen ger hemmalaget %(stated)s IMP, men "
                            "poängen %(room1)s (rum 1) och %(room2)s (rum 2) ger %(computed)s IMP."
                        ),
                        params={
                            "match": _match(m),
                            "number": b.number,
                            "stated": fmt_decimal(b.imps_home),
                            "room1": b.score_ns_room1,
                            "room2": b.score_ns_room2,
                            "computed": computed,
                        },
                        line=b.line,
                        element=el,
                        code="board-imps",
                    )
                )
        value = _file_or_computed(b)
        if value is not None:
            nets.append(value)

    if m.boards and complete:
        home = sum((x for x in nets if x > 0), Decimal(0))
        away = sum((-x for x in nets if x < 0), Decimal(0))
        net_file = m.imps_home - m.imps_away
        gross_ok = abs(home - m.imps_home) <= TOLERANCE and abs(away - m.imps_away) <= TOLERANCE
        net_ok = abs((home - away) - net_file) <= TOLERANCE
        if not gross_ok:
            out.append(
                problem(
                    gettext_noop(
                        "Matchen %(match)s: brickornas IMP summerar till %(home)s-%(away)s, men "
                        "matchresultatet är %(file_home)s-%(file_away)s IMP."
                    ),
                    params={
                        "match": _match(m),
                        "home": fmt_decimal(home),
                        "away": fmt_decimal(away),
                        "file_home": fmt_decimal(m.imps_home),
                        "file_away": fmt_decimal(m.imps_away),
                    },
                    line=m.line,
                    element=el,
                    warning=net_ok,
                    code="match-imps",
                )
            )

    if expected_boards is not None:
        if m.boards_played is None:
            out.append(
                problem(
                    gettext_noop(
                        "Matchen %(match)s: filen visar inte hur många brickor som spelades (ska vara "
                        "%(expected_boards)s, R-TEAM-KVAL-5)."
                    ),
                    params={"match": _match(m), "expected_boards": expected_boards},
                    line=m.line,
                    element=el,
                    warning=True,
                    code="board-count-unknown",
                    clause="R-TEAM-KVAL-5",
                )
            )
        elif m.boards_played != expected_boards:
            out.append(
                problem(
                    gettext_noop(
                        "Matchen %(match)s har %(boards_played)s brickor, men heatens matcher ska ha "
                        "%(expected_boards)s brickor (R-TEAM-KVAL-5)."
                    ),
                    params={
                        "match": _match(m),
                        "boards_played": m.boards_played,
                        "expected_boards": expected_boards,
                    },
                    line=m.line,
                    element=el,
                    code="board-count",
                    clause="R-TEAM-KVAL-5",
                )
            )

    if m.vp_home is not None or m.vp_away is not None:
        boards = _vp_boards(m, event, expected_boards)
        if m.vp_home is None or m.vp_away is None:
            out.append(
                problem(
                    gettext_noop("Matchen %(match)s: VP finns bara för det ena laget."),
                    params={"match": _match(m)},
                    line=m.line,
                    element=el,
                    code="vp-missing",
                )
            )
        elif boards is None:
            out.append(
                problem(
                    gettext_noop(
                        "Matchen %(match)s: antalet brickor är okänt, så VP kan inte kontrolleras."
                    ),
                    params={"match": _match(m)},
                    line=m.line,
                    element=el,
                    warning=True,
                    code="vp-unchecked",
                )
            )
        else:
            exp_home, exp_away = victory_points(m.imps_home, m.imps_away, boards)
            if abs(exp_home - m.vp_home) > TOLERANCE or abs(exp_away - m.vp_away) > TOLERANCE:
                out.append(
                    problem(
                        gettext_noop(
                            "Matchen %(match)s: %(imps_home)s-%(imps_away)s IMP på %(boards)s "
                            "brickor ger %(vp_home)s-%(vp_away)s VP enligt WBF-skalan, men filen "
                            "har %(file_home)s-%(file_away)s. (Poängavdrag registreras separat, "
                            "inte i filen.)"
                        ),
                        params={
                            "match": _match(m),
                            "imps_home": fmt_decimal(m.imps_home),
                            "imps_away": fmt_decimal(m.imps_away),
                            "boards": boards,
                            "vp_home": _show(exp_home),
                            "vp_away": _show(exp_away),
                            "file_home": _show(m.vp_home),
                            "file_away": _show(m.vp_away),
                        },
                        line=m.line,
                        element=el,
                        code="vp",
                        clause="R-TEAM-VP-1",
                    )
                )
    return out


def team_match_summary(
    event: ParsedTeamEvent, *, boards_per_match: int | None = None
) -> list[dict]:
    """One mapping per match, in the shape ``ubf.rules.standings.rank_teams`` takes.

    Keys: ``round``, ``home``, ``away``, ``imps_home``, ``imps_away`` (Decimal, IMPs won by
    each side), ``vp_home``, ``vp_away`` (the file's VP, else computed with
    :func:`ubf.rules.vp.victory_points` over ``boards_per_match`` (the heat's number of boards,
    R-TEAM-KVAL-5) or, when not given, the match's own board count; ``None`` if unknown),
    ``vp_from_file`` (bool), ``board_count`` (int or None) and ``boards``: a list with one
    mapping per board: ``number``, ``imps_home``, ``imps_away`` (IMPs won on the board by each
    side, from the net), ``points_home``, ``points_away`` (score points, both rooms together;
    None when a room is missing), ``score_ns_room1``, ``score_ns_room2``, and each room's
    ``contract_room1``/``declarer_room1``, ``contract_room2``/``declarer_room2`` (None when the
    file has none).
    """
    out = []
    for m in event.matches:
        boards = []
        for b in m.boards:
            net = _file_or_computed(b)
            boards.append(
                {
                    "number": b.number,
                    "imps_home": max(net, Decimal(0)) if net is not None else None,
                    "imps_away": max(-net, Decimal(0)) if net is not None else None,
                    "points_home": b.points_home,
                    "points_away": b.points_away,
                    "score_ns_room1": b.score_ns_room1,
                    "score_ns_room2": b.score_ns_room2,
                    "contract_room1": b.contract_room1,
                    "declarer_room1": b.declarer_room1,
                    "contract_room2": b.contract_room2,
                    "declarer_room2": b.declarer_room2,
                }
            )
        vp_home, vp_away, from_file = m.vp_home, m.vp_away, True
        if vp_home is None or vp_away is None:
            from_file = False
            n = boards_per_match or _vp_boards(m, event, None)
            if n is not None and MIN_BOARDS <= n <= MAX_BOARDS:
                vp_home, vp_away = victory_points(m.imps_home, m.imps_away, n)
            else:
                vp_home = vp_away = None
        out.append(
            {
                "round": m.round,
                "home": m.home,
                "away": m.away,
                "imps_home": m.imps_home,
                "imps_away": m.imps_away,
                "vp_home": vp_home,
                "vp_away": vp_away,
                "vp_from_file": from_file,
                "board_count": m.boards_played,
                "boards": boards,
            }
        )
    return out

"""Bridge scoring a results importer needs (the Laws of Duplicate Bridge, not UBF-specific).

These check and recompute what an uploaded result file says (R-TEAM-VP-1 takes its IMPs from
here; the pairs heats and finals, R-PAIR-KVAL-5 and R-PAIR-MP-4, are scored in matchpoints):

* :func:`imps` — the IMP scale of Law 78B.
* :func:`matchpoints` — Law 78A matchpoints on the 2-point scale (PBN ``MP1``): 2 for every
  lower score on the board, 1 for every equal one; top = 2(n − 1).
* :func:`neuberg` — the Neuberg factor for a board with fewer (or more) results than normal.
* :func:`contract_score` — the duplicate score of a contract from declarer's side (Law 77).
* :func:`board_vulnerability`, :func:`board_dealer` — the standard 16-board cycle.

Values that cannot occur in bridge (level 8, 14 tricks, an unknown strain) raise ValueError:
an importer validates its file first and turns what fails into a violation for the uploader.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from fractions import Fraction

__all__ = [
    "IMP_UPPER_BOUNDS",
    "STRAINS",
    "board_dealer",
    "board_vulnerability",
    "contract_score",
    "imps",
    "matchpoints",
    "neuberg",
]

# Law 78B: the largest point difference for each IMP value (index = IMPs); 4000+ gives 24.
IMP_UPPER_BOUNDS: tuple[int, ...] = (
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590,
    740, 890, 1090, 1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
)  # fmt: skip
MAX_IMPS = 24

STRAINS: tuple[str, ...] = ("C", "D", "H", "S", "NT")

# The standard 16-board cycle (Law 2): vulnerability of boards 1..16.
_VULNERABILITY: tuple[str, ...] = (
    "None", "NS", "EW", "All",
    "NS", "EW", "All", "None",
    "EW", "All", "None", "NS",
    "All", "None", "NS", "EW",
)  # fmt: skip
_DEALERS: tuple[str, ...] = ("N", "E", "S", "W")


def imps(diff: int) -> int:
    """IMPs for a point difference, with its sign (Law 78B; used by R-TEAM-VP-1 results).

    0-10 → 0, 20-40 → 1, ..., 430-490 → 10, ..., 3500-3990 → 23, 4000 or more → 24.
    A difference that falls between two bands (e.g. 15, only possible with averaged scores)
    counts in the higher band: the first band whose upper bound it does not exceed.
    """
    if isinstance(diff, bool) or not isinstance(diff, int):
        raise ValueError(f"diff must be an int, got {diff!r}")
    size = abs(diff)
    result = next((i for i, upper in enumerate(IMP_UPPER_BOUNDS) if size <= upper), MAX_IMPS)
    return result if diff >= 0 else -result


def matchpoints(scores: list[int]) -> list[Fraction]:
    """Matchpoints for each score on one board, same order (Law 78A, 2-point scale ``MP1``).

    Each result gets 2 for every lower score and 1 for every equal one among the others, so the
    top is 2(n − 1) and a pair's opponents get top − its matchpoints. Used for the pairs heats
    and finals (R-PAIR-KVAL-5, R-PAIR-MP-4) and for criterion (1) of R-PAIR-TIE-1.
    """
    # Sorted once, each score's rank among the others is two binary searches: n log n, where
    # comparing every pair of scores was n² (issue 25: 3,000 lines of one board took 12 s).
    values = [s if isinstance(s, int) and not isinstance(s, bool) else Fraction(s) for s in scores]
    ordered = sorted(values)
    result = []
    for own in values:
        lower = bisect_left(ordered, own)
        equal = bisect_right(ordered, own, lower) - lower - 1  # the others with the same score
        result.append(Fraction(2 * lower + equal))
    return result


def neuberg(mp: int | Fraction, results_on_board: int, normal_results: int) -> Fraction:
    """Neuberg's formula on the 2-point scale: (MP + 1) · N / n − 1.

    ``results_on_board`` is n (the results actually scored on the board), ``normal_results``
    is N (how many there normally are). With n = N the matchpoints are unchanged.
    """
    for name, value in (("results_on_board", results_on_board), ("normal_results", normal_results)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    return (Fraction(mp) + 1) * normal_results / results_on_board - 1


def _strain(strain: str) -> str:
    s = str(strain).strip().upper()
    if s == "N":
        s = "NT"
    if s not in STRAINS:
        raise ValueError(f"strain must be one of {STRAINS}, got {strain!r}")
    return s


def contract_score(
    level: int, strain: str, doubled: int, declarer_vulnerable: bool, tricks: int
) -> int:
    """The duplicate score of a contract, from declarer's side (Law 77).

    ``level`` 1-7; ``strain`` 'C', 'D', 'H', 'S' or 'NT' ('N' is read as NT); ``doubled``
    0 (undoubled), 1 (doubled) or 2 (redoubled); ``tricks`` the tricks declarer took (0-13).
    Positive when the contract makes, negative when it goes down. Examples: 4S= non-vulnerable
    420; 3NT+1 vulnerable 630; 1NTX-2 vulnerable −500; 7NTXX= vulnerable 2980.
    """
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 7:
        raise ValueError(f"level must be 1..7, got {level!r}")
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ValueError(f"tricks must be 0..13, got {tricks!r}")
    if doubled not in (0, 1, 2) or isinstance(doubled, bool):
        raise ValueError(f"doubled must be 0, 1 or 2, got {doubled!r}")
    s = _strain(strain)
    vul = bool(declarer_vulnerable)
    needed = level + 6

    if tricks < needed:
        down = needed - tricks
        if doubled == 0:
            return -down * (100 if vul else 50)
        if vul:
            penalty = 200 + 300 * (down - 1)
        else:
            # 100 for the first, 200 each for the second and third, 300 each thereafter.
            penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
        return -penalty * (2 if doubled == 2 else 1)

    per_trick = 20 if s in ("C", "D") else 30
    trick_score = per_trick * level + (10 if s == "NT" else 0)
    trick_score *= (1, 2, 4)[doubled]
    score = trick_score
    if trick_score >= 100:
        score += 500 if vul else 300
    else:
        score += 50
    if level == 6:
        score += 750 if vul else 500
    elif level == 7:
        score += 1500 if vul else 1000
    if doubled:
        score += 50 * doubled  # the "insult": 50 doubled, 100 redoubled
    over = tricks - needed
    if doubled == 0:
        score += over * per_trick
    else:
        score += over * (200 if vul else 100) * doubled
    return score


def _board(board_number: int) -> int:
    if isinstance(board_number, bool) or not isinstance(board_number, int) or board_number < 1:
        raise ValueError(f"board_number must be a positive int, got {board_number!r}")
    return board_number


def board_vulnerability(board_number: int) -> str:
    """Vulnerability of a board in the standard 16-board cycle: "None", "NS", "EW" or "All"."""
    return _VULNERABILITY[(_board(board_number) - 1) % 16]


def board_dealer(board_number: int) -> str:
    """Dealer of a board in the standard cycle: "N", "E", "S" or "W" (board 1: North)."""
    return _DEALERS[(_board(board_number) - 1) % 4]

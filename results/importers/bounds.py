"""Structural bounds of a result file: how much a file may hold, checked before any arithmetic.

Issue 25: a 95 KB PBN of one heat with one ScoreTable row of board 1 repeated 2,000 times kept
a worker busy for 30 s. No file of a heat can hold more than its heat has: a board is played at
most once at every table, and a table seats two of the heat's pairs, so

* result lines on one board: no more than the heat's tables, half its entered pairs rounded
  up (two pairs a table, no pair twice on a board);
* boards: no more than the heat's (a pairs session :data:`MAX_SESSION_BOARDS`, the final
  its ``final_max_boards``; a team match twice its ``boards_per_match``, so that a match a
  board or two off still gets R-TEAM-KVAL-5's own message);
* pairs (teams): no more than twice the heat's entries (its teams, the final's seat
  holders): up to that, the upload's identity check names each pair that is not entered;
* team matches: no more than twice what its teams can play in the schedule's rounds.

The service (``results.services.uploads``) says what the target holds as :class:`Limits`;
the parsers count the file's rows, lines and elements as they split them (cheap: no number is
converted yet) and call :func:`check` with each count, so a file over a bound is refused in
one problem that names the bound, in Swedish (English in the catalogue), with the line of the
first row over it and its board, before any number of it is read (the PBN parser stops
splitting a table at the row after the bound). :func:`check_pairs_event` and :func:`check_teams_event`
check the same on a parsed event (whatever the format). Pure Python, like the importers.
"""

from __future__ import annotations

from dataclasses import dataclass

from ubf.rules.i18n import gettext_noop

from .model import ImportFailed, ParsedPairEvent, ParsedTeamEvent, fail

__all__ = ["MAX_SESSION_BOARDS", "Limits", "check", "check_pairs_event", "check_teams_event"]

#: The most boards a pairs heat's file of one session may hold. No DM pairs event plays more in
#: a session: the final, the longest, plays 42-70 boards over its day (R-PAIR-CAL-1), and a heat
#: at least 24 (R-PAIR-KVAL-3). A file of both sessions may hold twice as many.
MAX_SESSION_BOARDS = 70


@dataclass(frozen=True)
class Limits:
    """What the upload's target can hold; ``None``: no bound known (nothing is checked).

    ``pairs``: the most pairs (pairs files) or teams (team files) the file may list, twice
    the target's (see :meth:`for_pairs`); ``boards``: the boards of the file (pairs) or of one
    match (teams: twice the heat's boards a match); ``lines_per_board``: the result lines of
    one board (pairs: the tables); ``matches``: twice the matches its teams can play in the
    schedule's rounds (a USEBIO file may list a match from both teams' side)."""

    pairs: int | None = None
    boards: int | None = None
    lines_per_board: int | None = None
    matches: int | None = None
    #: Where the bounds come from, as the refusal names it ("heatet", "finalen").
    target: str = gettext_noop("heatet")

    @classmethod
    def for_pairs(cls, entries: int, boards: int, target: str = gettext_noop("heatet")) -> Limits:
        """A pairs heat or final of ``entries`` pairs and at most ``boards`` boards.

        A board has at most one line a table, and the heat has ``ceil(entries / 2)`` tables
        (two pairs a table; with an odd number one pair sits out each round). The file's
        ranking list may name at most twice the entries: a file with a pair or a few that are
        not entered (or of a neighbouring heat) still reaches the upload's identity check,
        which names each such pair; more is no heat's file."""
        return cls(
            pairs=2 * max(entries, 1),
            boards=boards,
            lines_per_board=max((entries + 1) // 2, 1),
            target=target,
        )

    def check(self, what: str, count: int, **where) -> None:
        """:func:`check` of ``count`` against this target's bound for ``what``."""
        limit = {
            "pairs": self.pairs,
            "teams": self.pairs,
            "boards": self.boards,
            "lines": self.lines_per_board,
            "match-boards": self.boards,
            "matches": self.matches,
        }[what]
        check(what, count, limit, target=self.target, **where)


_MESSAGES = {
    "pairs": gettext_noop(
        "Filen har fler än %(limit)s par, mer än dubbelt så många som %(target)s har. Filen "
        "lästes inte vidare: kontrollera att den är från rätt tävling och exportera den på nytt."
    ),
    "teams": gettext_noop(
        "Filen har fler än %(limit)s lag, mer än dubbelt så många som %(target)s har. Filen "
        "lästes inte vidare: kontrollera att den är från rätt tävling och exportera den på nytt."
    ),
    "boards": gettext_noop(
        "Filen har fler brickor än de högst %(limit)s som %(target)s kan ha. Filen lästes inte "
        "vidare: kontrollera att den är från rätt tävling och exportera den på nytt."
    ),
    "lines": gettext_noop(
        "Bricka %(board)s har fler resultatrader än de %(limit)s borden i %(target)s (en rad "
        "per bord: två par vid varje bord, inget par två gånger på en bricka). Filen lästes "
        "inte vidare: rader kan ha kopierats; exportera filen på nytt från resultatprogrammet."
    ),
    "match-boards": gettext_noop(
        "Matchen %(match)s har fler än %(limit)s brickor, mer än dubbelt så många som en match "
        "i %(target)s har. Filen lästes inte vidare: exportera filen på nytt från "
        "resultatprogrammet."
    ),
    "tables": gettext_noop(
        "Filen har fler än %(limit)s spel (ett för varje bord och bricka), fler än matcherna "
        "i %(target)s kan ha. Filen lästes inte vidare: kontrollera att den är från rätt "
        "tävling och exportera den på nytt."
    ),
    "matches": gettext_noop(
        "Filen har fler än %(limit)s matcher, mer än dubbelt så många som lagen i %(target)s "
        "kan spela i spelschemats ronder. Filen lästes inte vidare: kontrollera att den är från "
        "rätt tävling."
    ),
}


def check(
    what: str,
    count: int,
    limit: int | None,
    *,
    line: int | None = None,
    element: str | None = None,
    target: str = "",
    **params,
) -> None:
    """Refuse the file (``ImportFailed``) when ``count`` exceeds ``limit``: ``what`` is one of
    "pairs", "teams", "boards", "lines" (give ``board``), "match-boards" (give ``match``),
    "tables" (a team PBN's games) or "matches"; ``target`` names where the bound comes
    from (``Limits.target``)."""
    if limit is None or count <= limit:
        return
    raise fail(
        _MESSAGES[what],
        params={"count": count, "limit": limit, "target": target or Limits.target, **params},
        line=line,
        element=element,
        code=f"too-many-{what}",
    )


def check_pairs_event(event: ParsedPairEvent, limits: Limits | None) -> None:
    """The bounds on a parsed pairs file, whatever its format (raises ``ImportFailed``)."""
    if limits is None:
        return
    if limits.pairs is not None and len(event.pairs) > limits.pairs:
        first_over = event.pairs[limits.pairs].line
        check("pairs", len(event.pairs), limits.pairs, line=first_over, target=limits.target)
    check("boards", len(event.boards), limits.boards, target=limits.target)
    for board in event.boards:
        if limits.lines_per_board is not None and len(board.lines) > limits.lines_per_board:
            check(
                "lines",
                len(board.lines),
                limits.lines_per_board,
                line=board.lines[limits.lines_per_board].line,
                element=f"bricka {board.number}",
                board=board.number,
                target=limits.target,
            )


def check_teams_event(event: ParsedTeamEvent, limits: Limits | None) -> None:
    """The bounds on a parsed team file (raises ``ImportFailed``): teams, matches and boards
    per match."""
    if limits is None:
        return
    check("teams", len(event.teams), limits.pairs, target=limits.target)
    check("matches", len(event.matches), limits.matches, target=limits.target)
    for m in event.matches:
        check(
            "match-boards",
            len(m.boards),
            limits.boards,
            line=m.line,
            match=f"{m.round}: {m.home}-{m.away}",
            target=limits.target,
        )


def refused(exc: ImportFailed) -> bool:
    """Whether a refusal is one of these bounds (for the benchmark's counts)."""
    return any(p.code.startswith("too-many-") for p in exc.problems)

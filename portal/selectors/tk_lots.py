"""/tk/: ties inside a table (a team heat's or the final's standings) that matter and that no
lot settles yet (R-TEAM-TIE-1): TK draws them ("Dra lott", with witnesses) or enters the lot
drawn in the hall; the heat page and the final's standings say which (``standing_lot_notes``)."""

from __future__ import annotations

from results.services.lots import StandingTie, ties_of


def standing_lot_notes(competition, snapshot, *, lots, heat=None, run=None) -> list[StandingTie]:
    """The ties of one table (``snapshot``: a heat's, ``heat``, or the final's) that matter,
    drawn or not, for the page to say "lott dragen" (how, by whom, when) or "lott ej dragen".
    ``lots``: the competition's lots, read once by the page (so the page's queries do not
    depend on whether its table has a tie)."""
    if snapshot is None:
        return []
    return [
        tie for tie in ties_of(competition, snapshot, heat=heat, run=run, lots=lots) if tie.matters
    ]

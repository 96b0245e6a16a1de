"""/tk/: ties inside a table (a team heat's or the final's standings) that matter and that no
lot settles yet (R-TEAM-TIE-1): TK draws them ("Dra lott", with witnesses) or enters the lot
drawn in the hall; the heat page and the final's standings say which (``standing_lot_notes``)."""

from __future__ import annotations

from results.services.lots import StandingTie, standing_ties


def standing_lot_notes(competition, *, heat=None) -> list[StandingTie]:
    """The ties of one table (``heat``, or the final when None) that matter, drawn or not,
    for the page to say "lott dragen" (how, by whom, when) or "lott ej dragen"."""
    return [
        tie
        for tie in standing_ties(competition)
        if tie.matters
        and ((tie.heat is None) if heat is None else getattr(tie.heat, "pk", None) == heat.pk)
    ]

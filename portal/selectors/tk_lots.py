"""/tk/: ties inside a table (a team heat's or the final's standings) that matter and that no
lot settles yet (R-TEAM-TIE-1): TK draws them ("Dra lott", with witnesses) or enters the lot
drawn in the hall; the heat page and the final's standings say which (``standing_lot_notes``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from results.services.lots import StandingTie, standing_ties
from teams.models import TeamCompetition


def standing_lot_items(season) -> list:
    """One queue item per tie that matters, in a finished table, with no lot drawn."""
    from portal.selectors.tk_queue import Item  # the queue's own item (no cycle at import)

    items = []
    for competition in TeamCompetition.objects.filter(season=season).select_related("season"):
        for tie in standing_ties(competition):
            if tie.lot is not None or not tie.matters or tie.provisional:
                continue
            where = tie.heat.name if tie.heat is not None else _("finalen")
            items.append(
                Item(
                    title=f"{competition}: {where}",
                    clause="R-TEAM-TIE-1",
                    url=(
                        reverse("portal:lag_heat", args=[tie.heat.pk])
                        if tie.heat is not None
                        else reverse("portal:lag_final")
                    ),
                    facts=[
                        _("Lika i tabellen: %(among)s (plats %(first)s–%(last)s)")
                        % {"among": ", ".join(tie.names), "first": tie.first, "last": tie.last},
                        _("Lott ej dragen: tabellen visar ordningen preliminärt."),
                    ],
                    action="lot_draw",
                    pk=competition.pk,
                    extra={
                        "among": tie.key,
                        "standing": tie.standing,
                        "venues": list(zip(tie.among, tie.names, strict=False)),
                    },
                )
            )
    return items


def standing_lot_notes(competition, *, heat=None) -> list[StandingTie]:
    """The ties of one table (``heat``, or the final when None) that matter, drawn or not,
    for the page to say "lott dragen" (how, by whom, when) or "lott ej dragen"."""
    return [
        tie
        for tie in standing_ties(competition)
        if tie.matters
        and ((tie.heat is None) if heat is None else getattr(tie.heat, "pk", None) == heat.pk)
    ]

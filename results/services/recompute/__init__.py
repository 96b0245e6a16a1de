"""Recompute a competition from its raw inputs (uploaded results, line-ups and TK decisions)
and store the outcome as snapshots with their explanations.

One transaction per competition, holding a row lock on it (``clubs.locks.lock_competition``), so two
recomputes at once run one after the other and the last one to finish has read everything the
first one had. Computing twice gives the same snapshot (idempotent): lots are drawn once with a
recorded seed and their result is reused.
"""

from __future__ import annotations

from clubs import public_cache
from clubs.models import Competition
from results.services.recompute.pairs import recompute_pair_competition
from results.services.recompute.teams import recompute_team_competition

__all__ = ["recompute_competition", "recompute_pair_competition", "recompute_team_competition"]


def recompute_competition(competition_id: int, heat_ids=None) -> None:
    """Recompute a competition, teams or pairs, by its id (see the two halves)."""
    discipline = Competition.objects.values_list("discipline", flat=True).get(pk=competition_id)
    if discipline == Competition.Discipline.TEAMS:
        recompute_team_competition(competition_id, heat_ids)
    else:
        recompute_pair_competition(competition_id, heat_ids)
    # Snapshots and seats are partly written in bulk (no signals): the public pages' cache
    # learns of the new figures here (clubs.public_cache): the pages of this competition only.
    public_cache.changed(competitions=[competition_id])

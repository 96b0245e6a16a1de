"""Asking for a recompute: every change of results or of a TK decision that changes the outcome
calls :func:`request_recompute`; the task runs after the transaction commits (in-process when
there is no broker)."""

from __future__ import annotations

from django.db import transaction

from ubf import clock


def request_recompute(
    *,
    team_competition_id: int | None = None,
    pair_competition_id: int | None = None,
    heat_ids: list | None = None,
) -> None:
    """Mark the competition as pending and schedule its recompute once the transaction commits.

    ``heat_ids`` narrows the work to the heats whose results an upload changed (``"final"``
    for the team final); without it everything is recomputed."""
    from results.models import RecomputeStatus
    from results.tasks import recompute_pair_competition, recompute_team_competition

    now = clock.now()
    if team_competition_id is not None:
        RecomputeStatus.objects.update_or_create(
            team_competition_id=team_competition_id, defaults={"requested_at": now}
        )
        transaction.on_commit(
            lambda: recompute_team_competition.delay(team_competition_id, heat_ids)
        )
    if pair_competition_id is not None:
        RecomputeStatus.objects.update_or_create(
            pair_competition_id=pair_competition_id, defaults={"requested_at": now}
        )
        transaction.on_commit(
            lambda: recompute_pair_competition.delay(pair_competition_id, heat_ids)
        )

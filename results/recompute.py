"""The ``results`` side of :func:`clubs.recompute.request_recompute`: mark the competition as
pending (the pages say "räknas in just nu") and schedule its recompute task once the
transaction commits (in-process when there is no broker). Connected in ``ResultsConfig.ready``.
"""

from __future__ import annotations

from clubs import clock
from results.models import RecomputeStatus
from results.tasks import recompute_competition


def on_recompute_requested(
    sender=None, *, competition_id: int, heat_ids: list | None = None, **kwargs
) -> None:
    RecomputeStatus.objects.update_or_create(
        competition_id=competition_id, defaults={"requested_at": clock.now()}
    )
    recompute_competition.delay_on_commit(competition_id, heat_ids)

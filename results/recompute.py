"""The ``results`` side of :func:`clubs.recompute.request_recompute`: mark the competition as
pending (the pages say "räknas in just nu") and schedule its recompute task once the
transaction commits (in-process when there is no broker). Connected in ``ResultsConfig.ready``.
"""

from __future__ import annotations

from clubs import clock
from results.models import RecomputeStatus
from results.tasks import recompute_pair_competition, recompute_team_competition


def on_recompute_requested(
    sender=None,
    *,
    team_competition_id: int | None = None,
    pair_competition_id: int | None = None,
    heat_ids: list | None = None,
    **kwargs,
) -> None:
    now = clock.now()
    if team_competition_id is not None:
        RecomputeStatus.objects.update_or_create(
            team_competition_id=team_competition_id, defaults={"requested_at": now}
        )
        recompute_team_competition.delay_on_commit(team_competition_id, heat_ids)
    if pair_competition_id is not None:
        RecomputeStatus.objects.update_or_create(
            pair_competition_id=pair_competition_id, defaults={"requested_at": now}
        )
        recompute_pair_competition.delay_on_commit(pair_competition_id, heat_ids)

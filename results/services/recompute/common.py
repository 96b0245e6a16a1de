"""What the team and the pair recompute share: the competition's recompute status and the
bulk store of standings snapshots."""

from __future__ import annotations

import logging

from clubs import clock
from clubs.models import Competition
from results.models import (
    RecomputeStatus,
    StandingSnapshot,
)

log = logging.getLogger(__name__)


def lock_competition(competition_id: int) -> None:
    """Lock the competition's row (``clubs.Competition``) for this transaction: the first lock
    every upload and recompute of a competition takes, so they never wait on each other in
    opposite orders."""
    Competition.objects.select_for_update().get(pk=competition_id)


def recompute_status(**which) -> RecomputeStatus:
    status, _ = RecomputeStatus.objects.get_or_create(**which)
    return status


def save_snapshots(existing, snapshots: list[StandingSnapshot]) -> None:
    """Store the computed snapshots: one query reads the rows ``existing`` holds, then one bulk
    update and one bulk insert (not an update_or_create per heat). Runs under the
    competition's row lock, so no other recompute writes these rows meanwhile."""

    def key(s: StandingSnapshot) -> tuple:
        return (s.scope, s.competition_id, s.heat_id)

    stored = {key(s): s for s in existing}
    now = clock.now()  # the project's clock, also in the demo (a new row takes it by default)
    updates, creates = [], []
    for snap in snapshots:
        old = stored.get(key(snap))
        if old is None:
            creates.append(snap)
            continue
        old.data, old.provisional = snap.data, snap.provisional
        old.rounds_played, old.computed_at = snap.rounds_played, now
        old.upload_ids = snap.upload_ids
        updates.append(old)
    if updates:
        StandingSnapshot.objects.bulk_update(
            updates, ["data", "provisional", "rounds_played", "computed_at", "upload_ids"]
        )
    if creates:
        StandingSnapshot.objects.bulk_create(creates)

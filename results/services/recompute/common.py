"""What the team and the pair recompute share: the competition's recompute status and the
bulk store of standings snapshots."""

from __future__ import annotations

import logging

from clubs import clock
from clubs.locks import lock_competition  # noqa: F401  (re-exported: the first lock)
from clubs.models import Competition
from results.models import (
    RecomputeStatus,
    StandingSnapshot,
)

log = logging.getLogger(__name__)


def finish(competition: Competition, started_at) -> None:
    """Record a recompute as done: the status row is the last lock of the recompute's
    transaction (``clubs.locks``), so a TK decision that holds a row the recompute writes and
    then asks for a recompute never waits on it in the opposite order."""
    status, _ = RecomputeStatus.objects.get_or_create(competition=competition)
    status.started_at = started_at
    status.finished_at = clock.now()
    status.runs += 1
    status.last_error = ""
    status.save(update_fields=["started_at", "finished_at", "runs", "last_error"])


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

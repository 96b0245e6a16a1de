"""The one lock order of everything that changes a competition's results (docs/architecture.md,
"Locks").

1. the competition's row (``clubs.Competition``), always first;
2. its heats (``clubs.Heat``), in id order;
3. the rows the service changes (results, seats, teams, penalties ...);
4. the competition's recompute status (``results.RecomputeStatus``), always last: written by
   ``request_recompute`` at the end of a service and by the recompute when it is done.

Uploads, the recompute and TK's decisions take 1 (and 2) through this module inside their
``transaction.atomic()``, so they run one after the other per competition and never wait on
each other in opposite orders (PostgreSQL answered "deadlock detected" when an upload locked a
heat and then the status while the recompute held the status and key-share-locked the heat).
On SQLite ``select_for_update`` is a no-op; there the database's one writer serialises them.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from clubs.models import Competition, Heat


def lock_competition(competition_id: int, *, heat_ids: Iterable = ()) -> None:
    """Take locks 1 and 2: the competition's row, then ``heat_ids`` (ids of its heats; other
    values such as ``"final"`` are ignored) in id order."""
    Competition.objects.select_for_update().only("pk").get(pk=competition_id)
    ids = sorted({int(h) for h in heat_ids if isinstance(h, int) or str(h).isdigit()})
    if ids:
        list(Heat.objects.select_for_update().filter(pk__in=ids).order_by("pk").only("pk"))


def lock_row(queryset: QuerySet, pk: int, *, competition: str = "competition_id"):
    """A row of ``queryset`` re-read for update after its competition's lock (1 before 3):
    ``competition`` names the field (or lookup path) that holds the competition's id."""
    model = queryset.model
    competition_id = model.objects.filter(pk=pk).values_list(competition, flat=True).get()
    lock_competition(competition_id)
    return queryset.select_for_update(of=("self",)).get(pk=pk)

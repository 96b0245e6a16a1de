"""The one lock order of everything that changes a competition's results (docs/architecture.md,
"Locks"), and the only module that takes row locks (``tests/clubs/test_locks.py`` fails on a
``select_for_update`` anywhere else).

1. the competition's row (``clubs.Competition``), always first;
2. its heats (``clubs.Heat``, the parent row of a pair or team heat), in id order;
3. the rows the service changes (results, seats, teams, penalties ...), in id order per table;
4. the competition's recompute status (``results.RecomputeStatus``), always last: written by
   ``request_recompute`` at the end of a service and by the recompute when it is done.

Uploads, the recompute and TK's decisions take 1 (and 2) through this module inside their
``transaction.atomic()``, so they run one after the other per competition and never wait on
each other in opposite orders (PostgreSQL answered "deadlock detected" when an upload locked a
heat and then the status while the recompute held the status and key-share-locked the heat).
Within one step the keys are taken in one sorted order (ids ascending), as pretix's
``lock_objects`` sorts its keys, so two services locking the same rows cannot cross. A row
that belongs to no competition (a season, an API token, an invitation, an idempotency key) is
locked by :func:`lock_own_row`, before any competition's lock when a service takes both.

Every function refuses to run outside a transaction (:class:`LockOutsideTransaction`): there a
``SELECT ... FOR UPDATE`` would let go of its lock as soon as the statement ends. On SQLite
``select_for_update`` is a no-op; there the database's one writer serialises them.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import QuerySet

from clubs.models import Competition, Heat


class LockOutsideTransaction(RuntimeError):
    """A lock was asked for outside ``transaction.atomic()`` (a programming error)."""


def _require_transaction() -> None:
    if not transaction.get_connection().in_atomic_block:
        raise LockOutsideTransaction(
            "clubs.locks: a row lock outside transaction.atomic() would end with its statement; "
            "call it inside the service's transaction (Låset måste tas i en transaktion)."
        )


def _ids(values: Iterable) -> list[int]:
    """The integer ids among ``values`` (other values such as ``"final"`` are ignored), each
    once, ascending: the one order in which keys are taken."""
    return sorted({int(v) for v in values if isinstance(v, int) or str(v).isdigit()})


def lock_competition(competition_id: int, *, heat_ids: Iterable = ()) -> None:
    """Take locks 1 and 2: the competition's row, then ``heat_ids`` (ids of its heats; other
    values such as ``"final"`` are ignored) in id order."""
    lock_competitions([competition_id], heat_ids=heat_ids)


def lock_competitions(competition_ids: Iterable, *, heat_ids: Iterable = ()) -> None:
    """Locks 1 and 2 for several competitions: their rows in id order, then the heats."""
    _require_transaction()
    competitions = _ids(competition_ids)
    list(
        Competition.objects.select_for_update()
        .filter(pk__in=competitions)
        .order_by("pk")
        .only("pk")
    )
    heats = _ids(heat_ids)
    if heats:
        list(Heat.objects.select_for_update().filter(pk__in=heats).order_by("pk").only("pk"))


def lock_rows(queryset: QuerySet, pks: Iterable, *, competition: str = "competition_id") -> list:
    """Rows of ``queryset`` re-read for update after their competitions' locks (1 before 3):
    ``competition`` names the field (or lookup path) that holds the competition's id. The rows
    are locked ``FOR UPDATE OF`` themselves only, in id order, and returned in that order. A
    heat (a ``clubs.Heat`` or a child of it) is locked as step 2, on its ``clubs.Heat`` row, as
    the uploads lock it."""
    _require_transaction()
    model = queryset.model
    ids = _ids(pks)
    by_id = dict(model.objects.filter(pk__in=ids).values_list("pk", competition))
    if issubclass(model, Heat):
        lock_competitions(by_id.values(), heat_ids=ids)
        return list(queryset.filter(pk__in=ids).order_by("pk"))
    lock_competitions(by_id.values())
    return list(queryset.select_for_update(of=("self",)).filter(pk__in=ids).order_by("pk"))


def lock_row(queryset: QuerySet, pk: int, *, competition: str = "competition_id"):
    """One row of :func:`lock_rows`; ``DoesNotExist`` if there is none."""
    rows = lock_rows(queryset, [pk], competition=competition)
    if not rows:
        raise queryset.model.DoesNotExist(f"{queryset.model.__name__} {pk}")
    return rows[0]


def lock_own_rows(queryset: QuerySet) -> list:
    """Rows that belong to no competition (a season, an API token, an invitation, an
    idempotency key), locked ``FOR UPDATE OF`` themselves in id order; returned in that order."""
    _require_transaction()
    return list(queryset.select_for_update(of=("self",)).order_by("pk"))


def lock_own_row(queryset: QuerySet, pk: int | None = None):
    """One row of :func:`lock_own_rows` (``queryset``'s row ``pk``, or its only row); ``None``
    when ``pk`` is not given and there is no row, ``DoesNotExist`` when ``pk`` is not found."""
    rows = lock_own_rows(queryset if pk is None else queryset.filter(pk=pk))
    if pk is not None and not rows:
        raise queryset.model.DoesNotExist(f"{queryset.model.__name__} {pk}")
    return rows[0] if rows else None

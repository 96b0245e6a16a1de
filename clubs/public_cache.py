"""The version of what the public pages show, kept in the cache (Redis in production, local
memory in the demo and the tests).

Every public page is cached under a key that contains this version; any write to the
project's own models (a result, a recompute's snapshot, an entry, a TK decision, the demo
clock) bumps it once its transaction commits, so the next request renders afresh and the
cached pages of the old version simply expire. The version also makes the pages' ETag, so a
phone polling the standings gets "304 Not Modified" until something changed.

Bulk writes (``QuerySet.update``, ``bulk_create``) send no signal: code that changes what the
public sees that way calls :func:`bump` itself (the recompute does, when it finishes).

Several processes (gunicorn workers) must share one cache for this to hold: production uses
Redis (``ubf.settings``: ``CACHE_URL``, else the Redis broker).
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from clubs import cache_health

KEY = "ubf:public-version"


def _fresh_count() -> int:
    """Where a new count starts (the key missing: a cleared or restarted cache): a random
    number, so that a version of before never comes round again. A worker keeps pages in its
    own memory (portal.caching.local_pages) and trusts one whose version is the current one."""
    return secrets.randbelow(2**40) + 1


#: The apps whose models the public pages show (history rows included: they are saved with
#: their model).
APPS = frozenset({"clubs", "pairs", "teams", "results", "portal"})


def version() -> int | None:
    """The current version (one cache read); None when the cache cannot be reached (the pages
    are then rendered every time, uncached; ``clubs.cache_health`` logs the outage once)."""
    if not cache_health.available():
        return None
    try:
        value = cache.get(KEY)
        if value is None:
            cache.add(KEY, _fresh_count(), timeout=None)
            value = cache.get(KEY)
        value = int(value)
    except Exception as exc:  # the cache server is down: serve uncached, never fail a page
        cache_health.failed("public pages' version", exc)
        return None
    cache_health.succeeded()
    return value


def bump() -> None:
    """A new version now (atomic in Redis and in local memory). Never fails the write that
    asked for it: with the cache down there is nothing cached to invalidate, and the next
    successful read starts a new count; cached pages of the old version expire on their own.
    Tried even while reads skip the cache (``cache_health.available``): writes are few, and a
    bump lost to a cache that was already back would leave its old pages current."""
    try:
        try:
            cache.incr(KEY)
        except ValueError:  # not there yet (a cleared or restarted cache)
            cache.add(KEY, _fresh_count(), timeout=None)
    except Exception as exc:
        cache_health.failed("public pages' version bump", exc)
        return
    cache_health.succeeded()


def bump_on_commit() -> None:
    """Bump now and again once the transaction commits. The first bump keeps a reader inside
    this transaction (and a test, whose transaction never commits) from being served the page
    of before; the second drops what another request rendered from the old rows in between.
    One commit callback per transaction, however many rows it writes."""
    bump()
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return
    if not any(func is bump for _, func, _ in connection.run_on_commit):
        transaction.on_commit(bump)


def _changed(sender, **kwargs) -> None:
    if sender._meta.app_label in APPS and not kwargs.get("raw"):
        bump_on_commit()


def connect() -> None:
    """Called once from ``ClubsConfig.ready``."""
    post_save.connect(_changed, dispatch_uid="ubf-public-cache-save")
    post_delete.connect(_changed, dispatch_uid="ubf-public-cache-delete")

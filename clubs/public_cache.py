"""The versions of what the public pages show, kept in the cache (Redis in production, local
memory in the demo and the tests): tagged, so that a commit makes stale only the pages that
show what it changed (issue 21).

A page (``portal.caching``) declares what it shows; its versions are those of these keys:

* :data:`GLOBAL`, on every page: what every page may show whatever its competition (players'
  names, clubs, districts, the seasons themselves and their configuration, the demo clock);
* one key per competition (:func:`competition_key`): the competition and everything of it
  (its heats, entries, teams, rosters, matches, line-ups, uploads, snapshots, allocation,
  seats, offers, lots, W.O.s, penalties, the TK decisions about them, its recompute status);
* one key per season (:func:`season_key`): what belongs to a season but to none of its
  competitions (representation and membership, play outside UBF);
* one key per season for the pages that list everything of it, home and the calendar
  (:func:`season_all_key`): every write in the season bumps it;
* :data:`ANY`, which every write bumps: a page that declares nothing depends on it, so a page
  nobody declared is never stale (it is only invalidated more often than it needs).

A write to a row bumps the keys of its scope (:func:`scope_of`: the row's competition, found
through its foreign keys, else its season, else everything) now and once more when its
transaction commits. Bulk writes (``QuerySet.update``, ``bulk_create``) send no signal: code
that changes what the public sees that way calls :func:`changed` itself (the recompute does,
when it finishes; the member register does).

A key that is missing (a cleared or restarted cache) starts at a random number, so that a
version of before never comes round again: a worker keeps pages in its own memory
(``portal.caching.local_pages``) and trusts one whose versions are all current.

Several processes (gunicorn workers) must share one cache for this to hold: production uses
Redis (``ubf.settings``: ``CACHE_URL``, else the Redis broker).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.apps import apps
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from clubs import cache_health
from clubs.models import Competition, Decision, Heat, Season

PREFIX = "ubf:ver:"
#: On every page: what any page may show.
GLOBAL = PREFIX + "g"
#: Bumped by every write: the version of a page that declared nothing.
ANY = PREFIX + "any"


def competition_key(pk: int) -> str:
    return f"{PREFIX}c{pk}"


def season_key(pk: int) -> str:
    return f"{PREFIX}s{pk}"


def season_all_key(pk: int) -> str:
    return f"{PREFIX}a{pk}"


def _fresh_count() -> int:
    """Where a new count starts (the key missing: a cleared or restarted cache): a random
    number, so that a version of before never comes round again."""
    return secrets.randbelow(2**40) + 1


#: The apps whose models the public pages show.
APPS = frozenset({"clubs", "pairs", "teams", "results", "portal"})
#: Models of those apps that no public page shows: their writes change no page.
NOT_SHOWN = frozenset(
    {"clubs.invitation", "clubs.clubofficial", "portal.reminderlog", "portal.feestatus"}
)
#: Foreign keys followed, in this order, from a row without a competition of its own to one
#: that has it (a pair's entry → its heat; a line-up → its match; an offer → its seat; ...).
PARENTS = ("heat", "match", "team", "entry", "seat", "upload", "request", "competition")


@dataclass(frozen=True)
class Scope:
    """What a write changed: competitions, seasons (their own rows, not a competition's), or
    everything."""

    competitions: frozenset[int] = field(default_factory=frozenset)
    seasons: frozenset[int] = field(default_factory=frozenset)
    everything: bool = False


EVERYTHING = Scope(everything=True)

# --- Which competition or season a row belongs to ------------------------------------------

_lock = threading.Lock()
#: (model label, pk) → its Scope; competition id → its season id. A row never moves to
#: another competition, nor a competition to another season, so these never go stale.
_scopes: dict[tuple[str, int], Scope] = {}
_seasons: dict[int, int] = {}
_MEMO_MAX = 50_000


def _remember(memo: dict, key, value) -> None:
    with _lock:
        if len(memo) >= _MEMO_MAX:
            memo.clear()
        memo[key] = value


def forget() -> None:
    """Forget what this process remembered of rows' competitions and of versions (tests, whose
    rolled-back rows leave their ids to the next test's)."""
    with _lock:
        _scopes.clear()
        _seasons.clear()
        _recent.clear()


def seasons_of(competition_ids: Iterable[int]) -> dict[int, int]:
    """The seasons of several competitions, in at most one query."""
    ids = set(competition_ids)
    found = {c: _seasons[c] for c in ids if c in _seasons}
    missing = ids - set(found)
    if missing:
        for pk, season in Competition.objects.filter(pk__in=missing).values_list("id", "season_id"):
            _remember(_seasons, pk, season)
            found[pk] = season
    return found


def scope_of(instance, *, created: bool = False) -> Scope | None:
    """The scope of a written row: its competition (its own ``competition`` or one reached
    through :data:`PARENTS`), else its season, else everything; None for a row no public page
    shows. A new or deleted competition changes its season's lists too."""
    label = instance._meta.label_lower
    if instance._meta.app_label not in APPS or label in NOT_SHOWN:
        return None
    if isinstance(instance, Season):
        return EVERYTHING  # its configuration, its name and which season is current
    if isinstance(instance, Competition):
        _remember(_seasons, instance.pk, instance.season_id)
        seasons = frozenset({instance.season_id}) if created else frozenset()
        return Scope(competitions=frozenset({instance.pk}), seasons=seasons)
    if isinstance(instance, Decision):
        return _scope_of_decision(instance)
    return _scope_of_row(instance)


def _scope_of_row(instance) -> Scope:
    competition_id = getattr(instance, "competition_id", None)
    if competition_id:
        return Scope(competitions=frozenset({competition_id}))
    if type(instance) is Heat:  # the shared parent row of a pairs or team heat
        return _scope_of_pk(Heat, instance.pk)
    fields = {f.name: f for f in instance._meta.concrete_fields}
    for name in PARENTS:
        fk = fields.get(name)
        if fk is None or not fk.many_to_one:
            continue
        parent_id = getattr(instance, fk.attname, None)
        if parent_id:
            return _scope_of_pk(fk.related_model, parent_id)
    season_id = getattr(instance, "season_id", None)
    if season_id:
        return Scope(seasons=frozenset({season_id}))
    return EVERYTHING


def _scope_of_pk(model, pk) -> Scope:
    """The scope of the row ``pk`` of ``model`` (remembered: a row never changes parent)."""
    key = (model._meta.label_lower, pk)
    found = _scopes.get(key)
    if found is not None:
        return found
    if model is Heat:  # its competition is on its pairs or team heat
        row = Heat.objects.filter(pk=pk).values_list(
            "pairheat__competition_id", "teamheat__competition_id"
        )
        ids = {c for c in (row.first() or ()) if c}
        found = Scope(competitions=frozenset(ids)) if ids else EVERYTHING
    else:
        row = model._base_manager.filter(pk=pk).first()
        if row is None:  # gone already: say everything rather than miss a page
            return EVERYTHING
        found = scope_of(row) or EVERYTHING
    if found is not EVERYTHING:
        _remember(_scopes, key, found)
    return found


def _scope_of_decision(decision: Decision) -> Scope | None:
    """A TK decision is shown with what it decided: the scope of its object (a team, a W.O.,
    a seat...), else its season, else everything; none for an object no page shows (an API
    token)."""
    try:
        model = apps.get_model(decision.object_type)
    except (LookupError, ValueError):
        model = None
    if model is not None and model._meta.app_label not in APPS:
        return None  # an API token's: no public page shows it
    if model is not None:
        scope = _scope_of_pk(model, decision.object_id)
        if scope is not EVERYTHING:
            return scope
    if decision.season_id:
        return Scope(seasons=frozenset({decision.season_id}))
    return EVERYTHING


# --- The keys of a write and of a page -------------------------------------------------------


def write_keys(scope: Scope) -> set[str]:
    """The keys a write of ``scope`` bumps."""
    keys = {ANY}
    if scope.everything:
        keys.add(GLOBAL)
    by_season = seasons_of(scope.competitions)
    for competition in scope.competitions:
        keys.add(competition_key(competition))
        if competition in by_season:
            keys.add(season_all_key(by_season[competition]))
    for season in scope.seasons:
        keys.add(season_key(season))
        keys.add(season_all_key(season))
    return keys


def page_keys(*, competitions: Iterable = (), seasons: Iterable[int] = (), lists=()) -> list[str]:
    """The keys of a page that shows ``competitions`` (ids, or competitions with their
    ``season_id``: no query) with their seasons' own rows, the ``seasons``' own rows, and lists
    everything of the seasons ``lists``; GLOBAL always."""
    ids, season_ids = set(), set(seasons)
    for competition in competitions:
        if isinstance(competition, int):
            ids.add(competition)
        else:
            _remember(_seasons, competition.pk, competition.season_id)
            season_ids.add(competition.season_id)
            ids.add(competition.pk)
    season_ids |= set(seasons_of(i for i in ids if i not in _seasons).values())
    season_ids |= {_seasons[i] for i in ids if i in _seasons}
    keys = {GLOBAL}
    keys.update(competition_key(c) for c in ids)
    keys.update(season_key(s) for s in season_ids)
    keys.update(season_all_key(s) for s in lists)
    return sorted(keys)


#: The keys of a page that declared nothing: every write makes it stale.
UNDECLARED = (GLOBAL, ANY)


# --- Reading and bumping ---------------------------------------------------------------------


def versions(keys: Iterable[str]) -> dict[str, int] | None:
    """The current version of each key, in one cache round trip (a second only to start the
    count of a missing key); None when the cache cannot be reached (the pages are then
    rendered every time, uncached; ``clubs.cache_health`` logs the outage once)."""
    keys = list(keys)
    if not cache_health.available():
        return None
    try:
        found = cache.get_many(keys)
        missing = [k for k in keys if found.get(k) is None]
        if missing:
            found.update(start(missing))
        result = {k: int(found[k]) for k in keys}
        note(result)
    except Exception as exc:  # the cache server is down: serve uncached, never fail a page
        cache_health.failed("public pages' version", exc)
        return None
    cache_health.succeeded()
    return result


def start(keys: list[str]) -> dict[str, int]:
    """Start the count of missing keys at random numbers (another process may have started
    one first: its number wins)."""
    for key in keys:
        cache.add(key, _fresh_count(), timeout=None)
    return {k: int(v) for k, v in cache.get_many(keys).items()}


#: The versions this process read last, with when (``time.monotonic``): a hit of a page this
#: process holds is served on them for ``UBF_PAGE_VERSION_SECONDS`` without asking the shared
#: cache (issue 21: that round trip was half of a hit's cost). A bump in this process forgets
#: its keys at once; another process's bump is seen within that time.
_recent: dict[str, tuple[int, float]] = {}


def recent(keys: Iterable[str], within: float) -> dict[str, int] | None:
    """The versions of ``keys`` read in this process less than ``within`` seconds ago, or None
    when one of them is older or unknown."""
    now = time.monotonic()
    out = {}
    for key in keys:
        found = _recent.get(key)
        if found is None or now - found[1] > within:
            return None
        out[key] = found[0]
    return out


def note(found: dict[str, int]) -> None:
    """Versions just read from the shared cache (see :func:`recent`)."""
    now = time.monotonic()
    if len(_recent) > _MEMO_MAX:
        _recent.clear()
    for key, value in found.items():
        _recent[key] = (int(value), now)


def version() -> int | None:
    """The version of :data:`ANY` (every write bumps it)."""
    found = versions([ANY])
    return None if found is None else found[ANY]


def bump(keys: Iterable[str] = (ANY, GLOBAL)) -> None:
    """New versions of ``keys`` now (atomic in Redis and in local memory; in Redis one round
    trip for all). Never fails the write that asked for it: with the cache down there is
    nothing cached to invalidate, and the next successful read starts a new count. Tried even
    while reads skip the cache (``cache_health.available``): writes are few, and a bump lost
    to a cache that was already back would leave its old pages current."""
    keys = sorted(set(keys))
    for key in keys:  # this process sees its own writes at once
        _recent.pop(key, None)
    try:
        client = redis_client()
        if client is not None:
            pipe = client.pipeline(transaction=False)
            for key in keys:
                raw = cache.make_key(key)
                pipe.set(raw, _fresh_count(), nx=True)  # a missing key starts at random
                pipe.incr(raw)
            pipe.execute()
        else:
            for key in keys:
                try:
                    cache.incr(key)
                except ValueError:  # not there yet (a cleared or restarted cache)
                    cache.add(key, _fresh_count(), timeout=None)
    except Exception as exc:
        cache_health.failed("public pages' version bump", exc)
        return
    cache_health.succeeded()


def redis_client():
    """django-redis's client when the cache is Redis (for a pipeline), else None."""
    get_client = getattr(cache, "client", None)
    get_client = getattr(get_client, "get_client", None)
    return get_client(write=True) if get_client is not None else None


class _OnCommit:
    """The keys a transaction bumped, bumped once more when it commits (one callback per
    transaction however many rows it writes)."""

    def __init__(self):
        self.keys: set[str] = set()

    def __call__(self):
        bump(self.keys)


def changed(
    *,
    competitions: Iterable[int] = (),
    seasons: Iterable[int] = (),
    everything: bool = False,
) -> None:
    """Something of these competitions or seasons (or everything) changed: bump their keys
    now and again once the transaction commits. The first bump keeps a reader inside this
    transaction (and a test, whose transaction never commits) from being served the page of
    before; the second drops what another request rendered from the old rows in between."""
    scope = Scope(frozenset(competitions), frozenset(seasons), everything)
    bump_on_commit(write_keys(scope))


def bump_on_commit(keys: set[str]) -> None:
    bump(keys)
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return
    pending = next((f for _, f, _ in connection.run_on_commit if isinstance(f, _OnCommit)), None)
    if pending is None:
        pending = _OnCommit()
        transaction.on_commit(pending)
    pending.keys |= keys


def _changed(sender, instance=None, created=False, **kwargs) -> None:
    if kwargs.get("raw") or hasattr(sender, "instance_type"):  # fixtures; history rows
        return
    scope = scope_of(instance, created=created or kwargs.get("signal") is post_delete)
    if scope is not None:
        bump_on_commit(write_keys(scope))


def connect() -> None:
    """Called once from ``ClubsConfig.ready``."""
    post_save.connect(_changed, dispatch_uid="ubf-public-cache-save")
    post_delete.connect(_changed, dispatch_uid="ubf-public-cache-delete")

"""The hall's pages fetched by every web worker as soon as they are stored (issue 21, the first
request after an upload: ``portal.caching.announce``, ``prefetch`` and ``Listener``).

The Celery worker that recomputed the final renders /lag/final/ and /lag/ and stores them in
Redis; before this, the first phone to ask each web worker for /lag/ made that worker fetch the
versions and the copy's marks, then the copy (two round trips, 3-5x a warm request on the
national season). Now the store is announced on a Redis channel, and each worker's listener
fetches the new copy and the versions at once, so the phone is served from the worker's memory.

"This worker" is the test's process; "another process" stores a copy by writing Redis as
``portal.caching._store`` does. A real Redis (``CELERY_BROKER_URL``, set by ``.ci/run``)."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.test import Client

from clubs import public_cache
from portal import caching
from teams.models import Team
from tests.conftest import broker_url, requires_broker
from tests.factories import TeamFactory
from tests.portal.test_public_cache import counted

pytestmark = [pytest.mark.django_db, requires_broker]

LAG = caching.page_key("sv", "/lag/")


@pytest.fixture
def redis_cache(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": broker_url(),
            "KEY_PREFIX": f"ubf-test-prefetch-{time.monotonic_ns()}",
        }
    }
    settings.UBF_PAGE_PREFETCH = True
    caching.local_pages.clear()
    public_cache._recent.clear()
    yield
    caching.listener.stop()
    cache.delete_pattern("*")
    caching.local_pages.clear()
    public_cache._recent.clear()


def renamed_elsewhere(team) -> tuple:
    """The team renamed, and /lag/ rendered and stored anew by "another process": this
    worker keeps its copy of before and has not read the new versions. (This copy, and
    the new one as it stands in Redis.)"""
    old = caching.local_pages.get(LAG)
    Team.objects.filter(pk=team.pk).update(name="Fyris Ett")
    public_cache.bump([public_cache.competition_key(team.competition_id)])
    new = Client().get("/lag/")
    assert new["X-Cache"] == "miss" and "Fyris Ett" in new.content.decode()
    caching.local_pages.put(LAG, old)  # back to what this worker held
    public_cache._recent.clear()  # ... and read
    return old, new


def test_a_hall_page_stored_elsewhere_is_in_this_workers_memory_before_a_phone_asks(
    redis_cache, monkeypatch, settings
):
    settings.UBF_PAGE_VERSION_SECONDS = 5
    team = TeamFactory(name="Fyris 1")
    first = Client().get("/lag/")
    assert first["X-Cache"] == "miss"
    old, new = renamed_elsewhere(team)
    caching.listener.start()
    assert caching.listener.subscribed.wait(5)
    caching.announce(LAG)  # what the other process's _store says after storing it
    deadline = time.monotonic() + 5
    while caching.local_pages.get(LAG)[caching.MARKS] == old[caching.MARKS]:
        assert time.monotonic() < deadline, "the announced copy never reached this worker"
        time.sleep(0.01)
    # the phone's request: the new page from this worker's memory, Redis asked nothing
    counting = counted(monkeypatch)
    phone = Client().get("/lag/")
    assert (phone["X-Cache"], phone["ETag"]) == ("hit", new["ETag"])
    assert "Fyris Ett" in phone.content.decode()
    assert counting.asked == []


def test_without_the_announcement_the_first_request_fetches_the_copy(redis_cache, monkeypatch):
    """What the listener saves: the same request without it asks Redis twice, the second
    time for the page itself."""
    team = TeamFactory(name="Fyris 1")
    Client().get("/lag/")
    _old, new = renamed_elsewhere(team)
    counting = counted(monkeypatch)
    phone = Client().get("/lag/")
    assert (phone["X-Cache"], phone["ETag"]) == ("hit", new["ETag"])
    assert len(counting.asked) == 2 and counting.asked[1] == [LAG]


def test_storing_a_hall_page_announces_it_and_no_other_page(redis_cache):
    client = public_cache.redis_client()
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(caching._channel(client))
    try:
        TeamFactory(name="Fyris 1")
        assert Client().get("/par/")["X-Cache"] == "miss"
        assert Client().get("/lag/")["X-Cache"] == "miss"
        assert Client().get("/lag/")["X-Cache"] == "hit"  # nothing stored, nothing said
        heard = []
        deadline = time.monotonic() + 0.5  # published before each answer: long enough
        while time.monotonic() < deadline:
            message = pubsub.get_message(timeout=0.1)
            if message is not None:
                heard.append(message["data"].decode())
        assert heard == [LAG]
    finally:
        pubsub.close()


def test_a_page_this_worker_does_not_serve_is_not_fetched(redis_cache):
    TeamFactory(name="Fyris 1")
    Client().get("/lag/")
    caching.local_pages.clear()  # this worker never served /lag/
    assert caching.prefetch(LAG) is False
    assert caching.local_pages.get(LAG) is None


def test_a_copy_a_write_overtook_is_not_taken(redis_cache):
    team = TeamFactory(name="Fyris 1")
    Client().get("/lag/")
    old, _new = renamed_elsewhere(team)
    public_cache.bump([public_cache.competition_key(team.competition_id)])  # written again
    assert caching.prefetch(LAG) is False
    assert caching.local_pages.get(LAG) is old


def test_off_in_the_embedded_mode(settings):
    settings.UBF_PAGE_PREFETCH = False
    caching.listener.start()
    assert caching.listener.thread is None


def test_a_listener_that_cannot_reach_redis_says_so_once_and_listens_again(
    redis_cache, monkeypatch, caplog
):
    """Redis down (issue 25): the listener logs once for the outage, not every second, and is
    subscribed again once Redis answers."""
    import redis

    real = public_cache.redis_client
    tries = []

    def flaky():
        tries.append(1)
        if len(tries) <= 3:
            raise redis.ConnectionError("Connection refused")
        return real()

    monkeypatch.setattr(public_cache, "redis_client", flaky)
    caplog.set_level("WARNING", logger="portal.caching")
    caching.listener.start()
    assert caching.listener.subscribed.wait(10)
    said = [r.getMessage() for r in caplog.records if r.name == "portal.caching"]
    assert len(tries) == 4
    assert said == [
        "Public page announcements: not heard",
        "Public page announcements: listening again",
    ]

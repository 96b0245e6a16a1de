"""No stampede (issue 21, ``portal.caching``): when a page's version changes, one request
renders it again while the others get the previous copy, with the previous ETag and
``X-Cache: stale``; a renderer that dies leaves its lock to expire; a page with no copy at all
is rendered once while the others wait for it; a render that a write overtook is not stored.

Threads stand for the hall's phones: each its own test client (its own database connection),
released together; the view is slowed down (``SLOW`` s) so that they all arrive while it
renders, and every render is counted. The data is committed (``transaction=True``) so that
every thread's connection sees it. The same tests run against a real Redis with
``CELERY_BROKER_URL`` set (``.ci/run``): ``redis_cache``."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache
from django.test import Client

import portal.views.lag
from clubs import public_cache
from portal import caching
from tests.conftest import broker_url, requires_broker
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db(transaction=True)

SLOW = 0.5
PHONES = 8


@pytest.fixture
def renders(monkeypatch):
    """The number of times /lag/ was rendered (its selector called), each taking SLOW s."""
    count = []
    real = portal.views.lag.lag_page

    def slow(season):
        count.append(1)
        time.sleep(SLOW)
        return real(season)

    monkeypatch.setattr(portal.views.lag, "lag_page", slow)
    return count


@pytest.fixture(params=["local memory", pytest.param("redis", marks=requires_broker)])
def shared_cache(request, settings):
    """The tests' local-memory cache, and a real Redis (a database of the broker's server,
    keys under a prefix of their own) when one is configured."""
    if request.param == "redis":
        settings.CACHES = {
            "default": {
                "BACKEND": "django_redis.cache.RedisCache",
                "LOCATION": broker_url(),
                "KEY_PREFIX": f"ubf-test-stampede-{time.monotonic_ns()}",
            }
        }
    cache.clear()
    caching.local_pages.clear()
    yield request.param
    cache.clear()
    caching.local_pages.clear()


def together(n: int, path: str = "/lag/", **headers) -> list:
    """``n`` visitors asking for ``path`` at once; their responses."""
    start = threading.Barrier(n)
    out: list = [None] * n

    def phone(i: int) -> None:
        client = Client()
        start.wait()
        out[i] = client.get(path, headers=headers)

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def test_one_phone_renders_the_changed_page_and_the_others_get_the_previous_copy(
    shared_cache, renders
):
    team = TeamFactory(name="Fyris 1")
    first = Client().get("/lag/")
    assert renders == [1] and first["X-Cache"] == "miss"
    team.name = "Fyris Ett"
    team.save()  # committed: /lag/ is stale now
    answers = together(PHONES)
    assert len(renders) == 2  # one render for eight phones
    fresh = [r for r in answers if r["X-Cache"] == "miss"]
    stale = [r for r in answers if r["X-Cache"] == "stale"]
    assert len(fresh) == 1 and len(stale) == PHONES - 1
    # the previous copy says so only by its ETag and X-Cache: its own ETag, its own body
    assert all(r["ETag"] == first["ETag"] and r.content == first.content for r in stale)
    assert "Fyris Ett" in fresh[0].content.decode() and fresh[0]["ETag"] != first["ETag"]
    later = Client().get("/lag/")
    assert later["X-Cache"] == "hit" and later["ETag"] == fresh[0]["ETag"] and len(renders) == 2
    # a phone that holds the previous copy asks with its ETag: the new page, not a 304
    again = Client().get("/lag/", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and "Fyris Ett" in again.content.decode()


def test_in_production_the_page_is_rendered_in_the_background(shared_cache, renders, settings):
    settings.UBF_PAGE_RENDER_IN_BACKGROUND = True
    team = TeamFactory(name="Fyris 1")
    first = Client().get("/lag/")
    team.name = "Fyris Ett"
    team.save()
    began = time.monotonic()
    answers = together(PHONES)
    took = time.monotonic() - began
    # every phone, the one that took the lock included, got the previous copy at once
    assert [r["X-Cache"] for r in answers] == ["stale"] * PHONES
    assert all(r.content == first.content for r in answers) and took < SLOW
    assert caching.renderer.wait(30)
    assert len(renders) == 2  # the first render and one in the background
    now = Client().get("/lag/")
    assert now["X-Cache"] == "hit" and "Fyris Ett" in now.content.decode()


def test_a_renderer_that_dies_leaves_its_lock_to_expire(shared_cache, renders, settings):
    team = TeamFactory(name="Fyris 1")
    Client().get("/lag/")
    team.name = "Fyris Ett"
    team.save()
    plan = caching.lookup("sv", "/lag/")
    cache.add(plan.lock_key, "a worker killed while rendering", timeout=1)
    stale = Client().get("/lag/")
    assert stale["X-Cache"] == "stale" and len(renders) == 1  # someone renders, it seems
    time.sleep(1.2)  # the lock's timeout
    fresh = Client().get("/lag/")
    assert fresh["X-Cache"] == "miss" and "Fyris Ett" in fresh.content.decode()
    assert len(renders) == 2


def test_a_page_with_no_copy_is_rendered_once_while_the_others_wait(shared_cache, renders):
    TeamFactory(name="Fyris 1")
    answers = together(PHONES)
    assert len(renders) == 1
    assert all(r.status_code == 200 and "Fyris 1" in r.content.decode() for r in answers)
    assert sorted(r["X-Cache"] for r in answers) == ["hit"] * (PHONES - 1) + ["miss"]


def test_a_render_overtaken_by_a_write_is_served_but_not_stored(shared_cache, monkeypatch):
    team = TeamFactory(name="Fyris 1")
    real = portal.views.lag.lag_page

    def overtaken(season):
        page = real(season)  # read before the write below commits
        public_cache.changed(competitions=[team.competition_id])  # a commit meanwhile
        return page

    monkeypatch.setattr(portal.views.lag, "lag_page", overtaken)
    first = Client().get("/lag/")
    assert first.status_code == 200 and not first.has_header("ETag")
    monkeypatch.setattr(portal.views.lag, "lag_page", real)
    second = Client().get("/lag/")
    assert second["X-Cache"] == "miss" and second.has_header("ETag")  # rendered again
    assert Client().get("/lag/")["X-Cache"] == "hit"


def test_a_page_that_is_gone_is_not_served_from_its_stale_copy(shared_cache):
    team = TeamFactory(name="Fyris 1")
    path = f"/lag/lag/{team.pk}/"
    assert Client().get(path)["X-Cache"] == "miss"
    team.delete()
    assert Client().get(path).status_code == 404  # rendered: 404, and the copy dropped
    assert Client().get(path).status_code == 404

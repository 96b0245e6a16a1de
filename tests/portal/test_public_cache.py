"""The public pages' cache and ETag (portal.caching, clubs.public_cache): a visitor's second
request is served without a query, a phone that polls with the ETag gets 304, and anything
written to the project's models, or a recompute, shows at once."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from clubs import clock, public_cache
from results.models import StandingSnapshot
from results.services.recompute import recompute_competition
from teams.models import Team
from tests.conftest import requires_broker
from tests.factories import TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


def get(client, path="/lag/", **headers):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, headers=headers)
    return response, len(ctx.captured_queries)


def test_a_visitors_second_request_is_served_from_the_cache_without_a_query(client):
    TeamFactory(name="Fyris 1")
    first, n_first = get(client)
    second, n_second = get(client)
    assert n_first > 0 and n_second == 0
    assert second.content == first.content and "Fyris 1" in second.content.decode()


def test_the_etag_answers_304_without_rendering_or_a_query(client):
    TeamFactory()
    first, _ = get(client)
    etag = first["ETag"]
    assert etag and first["Cache-Control"] == "public, no-cache"
    again, queries = get(client, If_None_Match=etag)
    assert again.status_code == 304 and queries == 0 and again.content == b""


def test_a_write_shows_at_once_with_a_new_etag(client):
    team = TeamFactory(name="Fyris 1")
    first, _ = get(client)
    team.name = "Fyris Ett"
    team.save()
    after, _ = get(client, If_None_Match=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    html = after.content.decode()
    assert "Fyris Ett" in html and "Fyris 1" not in html


def test_a_recompute_written_in_bulk_still_shows(client):
    team = TeamFactory(final_seat=1)
    first, _ = get(client)
    before = public_cache.version()
    # a bulk write sends no signal: only the recompute's own bump makes it visible
    StandingSnapshot.objects.bulk_create(
        [StandingSnapshot(scope="team_final", competition=team.competition, data=[])]
    )
    assert public_cache.version() == before
    recompute_competition(team.competition_id)
    assert public_cache.version() > before
    assert get(client, If_None_Match=first["ETag"])[0].status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_committed_write_bumps_again_on_commit():
    TeamFactory()
    before = public_cache.version()
    with transaction.atomic():
        team = Team.objects.first()
        team.name = "Nytt namn"
        team.save()  # the team (its history row changes no page of its own)
        team.save()
        assert public_cache.version() == before + 2  # each save, now
    assert public_cache.version() == before + 2 + 1  # and once for the commit


def test_languages_and_days_are_cached_apart(client):
    TeamFactory()
    sv, _ = get(client)
    en, _ = get(client, "/lag/?lang=en")
    assert '<html lang="en">' in en.content.decode() and '<html lang="sv">' in sv.content.decode()
    assert sv["ETag"] != en["ETag"]
    with clock.frozen("2016-11-19"):
        day1 = client.get("/lag/?lang=sv")["ETag"]
    with clock.frozen("2016-11-20"):
        day2 = client.get("/lag/?lang=sv")["ETag"]
    assert day1 != day2


def test_a_logged_in_user_is_not_served_a_visitors_page(client):
    TeamFactory()
    get(client)  # a visitor's page is cached
    user = UserFactory(username="kalle")
    client.force_login(user)
    response, _ = get(client)
    assert "Logga ut" in response.content.decode()
    assert response["Cache-Control"] == "private, no-cache" and not response.has_header("ETag")


def test_head_is_answered_and_post_is_not(client):
    for path in ("/lag/", "/par/"):
        head = client.head(path)
        assert head.status_code == 200 and head.content == b""
        assert client.post(path).status_code == 405


class _DownCache:
    """A cache whose server is gone: every call fails as django's RedisCache does."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        return fail


def test_with_the_cache_down_pages_are_served_and_writes_succeed(client, monkeypatch):
    """Redis down: the page is rendered uncached (no ETag), and a save is not failed by the
    version it cannot bump."""
    import portal.caching

    monkeypatch.setattr(public_cache, "cache", _DownCache())
    monkeypatch.setattr(portal.caching, "cache", _DownCache())
    team = TeamFactory(name="Fyris 1")
    team.name = "Fyris Ett"
    team.save()
    response = client.get("/lag/")
    assert response.status_code == 200 and "Fyris Ett" in response.content.decode()
    assert not response.has_header("ETag")


def test_a_cached_english_page_still_remembers_the_choice(client):
    TeamFactory()
    client.get("/lag/?lang=en")  # rendered and stored
    fresh = type(client)()  # another visitor, no cookies
    response, queries = get(fresh, "/lag/?lang=en")
    assert queries == 0 and '<html lang="en">' in response.content.decode()
    assert response.cookies["django_language"].value == "en"


@requires_broker
def test_two_workers_share_the_version_through_redis(monkeypatch):
    """Production: two gunicorn workers, each with its own cache client, must agree on the
    version, or one would serve a page the other's write made stale."""
    import os

    from django_redis.cache import RedisCache

    url = os.environ["CELERY_BROKER_URL"]
    worker_a = RedisCache(url, {"KEY_PREFIX": "ubf-test-shared"})
    worker_b = RedisCache(url, {"KEY_PREFIX": "ubf-test-shared"})
    worker_a.delete(public_cache.ANY)
    monkeypatch.setattr(public_cache, "cache", worker_a)
    first = public_cache.version()
    public_cache.bump()
    monkeypatch.setattr(public_cache, "cache", worker_b)
    assert public_cache.version() == first + 1
    worker_b.delete(public_cache.ANY)


class CountingCache:
    """The cache as it is, recording what was asked: the keys of each ``get_many`` and
    ``get``, and ``["add", key]`` for each lock tried."""

    def __init__(self, real):
        self.real, self.asked = real, []

    def get_many(self, keys):
        self.asked.append(list(keys))
        return self.real.get_many(keys)

    def get(self, key, *args, **kwargs):
        self.asked.append([key])
        return self.real.get(key, *args, **kwargs)

    def add(self, key, *args, **kwargs):
        self.asked.append(["add", key])
        return self.real.add(key, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.real, name)


def counted(monkeypatch) -> CountingCache:
    """The pages' cache and the versions' counted from now on."""
    import portal.caching

    counting = CountingCache(portal.caching.cache)
    monkeypatch.setattr(portal.caching, "cache", counting)
    monkeypatch.setattr(public_cache, "cache", counting)
    return counting


def test_a_worker_serves_a_page_it_holds_fetching_only_the_version(client, monkeypatch, settings):
    """A national /lag/ is 100s of kB: a hit in the worker's own memory asks the shared cache
    for the versions alone, not for the page; and within UBF_PAGE_VERSION_SECONDS of reading
    them, for nothing at all."""
    import portal.caching

    settings.UBF_PAGE_VERSION_SECONDS = 0.25  # production's (the embedded mode's is 0)
    team = TeamFactory(name="Fyris 1")
    first, _ = get(client)
    counting = counted(monkeypatch)
    second, queries = get(client)
    assert queries == 0 and second.content == first.content
    assert counting.asked == []  # the versions read a moment ago
    settings.UBF_PAGE_VERSION_SECONDS = 0
    third, queries = get(client)
    assert queries == 0 and third.content == first.content
    # one round trip, for the versions of what /lag/ shows (and ANY) and the shared copy's
    # marks (a few bytes: is another worker's copy newer?), not for the page
    (asked,) = counting.asked
    page = portal.caching.page_key("sv", "/lag/")
    assert page not in asked and portal.caching.marks_key(page) in asked
    assert all(
        k.startswith(public_cache.PREFIX) for k in asked if k != portal.caching.marks_key(page)
    )
    assert public_cache.competition_key(team.competition_id) in asked


def test_while_another_renders_a_stale_page_a_worker_serves_its_copy_asking_nothing(
    client, monkeypatch, settings
):
    """Issue 21, the push: while the hall's page was rendered again elsewhere, every phone's
    request cost two round trips (the versions, then the render lock another held), which
    halved the web workers' rate for as long as the render took (benchmarks/standings_load.py).
    Having found the lock held, a worker serves its copy as it stands, asking nothing, for
    UBF_PAGE_VERSION_SECONDS; then it asks again."""
    from django.core.cache import cache

    import portal.caching

    settings.UBF_PAGE_VERSION_SECONDS = 5
    team = TeamFactory(name="Fyris 1")
    first, _ = get(client)
    Team.objects.filter(pk=team.pk).update(name="Fyris Ett")
    public_cache.bump([public_cache.competition_key(team.competition_id)])
    lock = portal.caching.page_key("sv", "/lag/") + ":render"
    assert cache.add(lock, "another worker", 10)  # rendering it
    counting = counted(monkeypatch)
    stale, queries = get(client)
    assert (stale["X-Cache"], stale["ETag"], queries) == ("stale", first["ETag"], 0)
    assert ["add", lock] in counting.asked  # found the lock held
    counting.asked.clear()
    again, queries = get(client)
    assert (again["X-Cache"], again["ETag"], queries) == ("stale", first["ETag"], 0)
    assert counting.asked == []  # nothing asked
    settings.UBF_PAGE_VERSION_SECONDS = 0
    cache.delete(lock)  # the other worker is done (without storing: it is rendered here)
    later, _ = get(client)
    assert counting.asked and later["X-Cache"] == "miss" and "Fyris Ett" in later.content.decode()


def test_another_workers_write_is_seen_within_the_version_seconds(client, settings):
    """Another process's bump reaches this one through the shared cache: at the latest
    UBF_PAGE_VERSION_SECONDS after it; this process's own writes at once (above)."""
    import time

    from django.core.cache import cache

    settings.UBF_PAGE_VERSION_SECONDS = 0.2
    team = TeamFactory(name="Fyris 1")
    first, _ = get(client)
    Team.objects.filter(pk=team.pk).update(name="Fyris Ett")
    cache.incr(public_cache.competition_key(team.competition_id))  # as another worker's bump
    soon, _ = get(client)
    assert soon["ETag"] == first["ETag"]  # within the 0.2 s
    time.sleep(0.25)
    later, _ = get(client)
    assert later["ETag"] != first["ETag"] and "Fyris Ett" in later.content.decode()


def test_a_page_a_worker_holds_is_not_served_once_something_changed(client):
    team = TeamFactory(name="Fyris 1")
    get(client)  # rendered, stored, and kept in this worker's memory
    team.name = "Fyris Ett"
    team.save()
    html = get(client)[0].content.decode()
    assert "Fyris Ett" in html and "Fyris 1" not in html


def test_after_the_cache_is_cleared_a_page_of_before_is_never_served(client):
    """Redis flushed or restarted, then a write before anyone asks: the new count must not
    meet the version a worker's page of before was stored under."""
    from django.core.cache import cache

    team = TeamFactory(name="Fyris 1")
    get(client)  # kept in this worker's memory at the version of now
    cache.clear()
    team.name = "Fyris Ett"
    team.save()  # starts a new count
    html = get(client)[0].content.decode()
    assert "Fyris Ett" in html and "Fyris 1" not in html


def test_a_phone_that_accepts_gzip_gets_the_page_compressed_once(client, monkeypatch):
    import gzip

    import portal.caching

    TeamFactory(name="Fyris 1")
    plain, _ = get(client)
    calls = []
    real = portal.caching.gzip.compress
    monkeypatch.setattr(
        portal.caching.gzip, "compress", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    packed, queries = get(client, Accept_Encoding="gzip, deflate, br")
    again, _ = get(client, Accept_Encoding="gzip")
    assert queries == 0 and calls == []  # compressed when it was stored, not per request
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert int(packed["Content-Length"]) == len(packed.content) < len(plain.content)
    assert again.content == packed.content
    # another representation, another ETag; each answers 304 for itself
    assert packed["ETag"] != plain["ETag"] and packed["ETag"].endswith('-gz"')
    assert get(client, Accept_Encoding="gzip", If_None_Match=packed["ETag"])[0].status_code == 304
    assert get(client, If_None_Match=plain["ETag"])[0].status_code == 304
    unpacked, _ = get(client, If_None_Match=packed["ETag"])  # no gzip: the plain page
    assert unpacked.status_code == 200 and unpacked.content == plain.content
    assert "Content-Encoding" not in unpacked


def test_a_pdf_is_not_compressed(client):
    from portal.caching import compressed

    assert compressed(b"%PDF-1.7" + b"x" * 5000, "application/pdf") == b""
    assert compressed(b"<p>" * 2000, "text/html; charset=utf-8") != b""
    assert compressed(b"<p>", "text/html; charset=utf-8") == b""  # too small to be worth it


def test_a_long_query_string_makes_a_key_every_cache_backend_accepts():
    from portal.caching import page_key

    short = page_key("sv", "/lag/?lang=en")
    assert short == "ubf:page:sv:/lag/?lang=en"
    long_key = page_key("sv", "/par/?" + "x=1&" * 200)
    # memcached's limit is 250 characters; the prefix and the lock's suffix add about 10
    assert len(long_key) < 200 and long_key.startswith("ubf:page:sv:sha256:")
    assert long_key != page_key("sv", "/par/?" + "x=2&" * 200)


def test_a_worker_whose_copy_is_stale_takes_another_workers_newer_copy(client):
    """Worker A holds the page of before; worker B rendered the new one: A serves B's copy
    (found by its marks beside it) without rendering."""
    from portal.caching import local_pages, page_key

    team = TeamFactory(name="Fyris 1")
    get(client)
    key = page_key("sv", "/lag/")
    old = local_pages.get(key)  # worker A's copy
    team.name = "Fyris Ett"
    team.save()
    b, _ = get(client)  # worker B renders and stores the new page
    assert b["X-Cache"] == "miss"
    local_pages.put(key, old)  # back in worker A
    a, queries = get(client)
    assert (a["X-Cache"], queries, a["ETag"]) == ("hit", 0, b["ETag"])
    assert "Fyris Ett" in a.content.decode()

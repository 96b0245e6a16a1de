"""ubf.middleware.PageCacheFront (issue 21, the push with 200 pollers): a public page a worker
holds fresh is answered before Django's handler, byte for byte and header for header what the
handler and its middleware answer; everything else reaches Django unchanged."""

import pytest
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory

import portal.caching
from clubs import public_cache
from teams.models import Team
from tests.factories import TeamFactory
from tests.portal.test_public_cache import counted
from ubf.middleware import PageCacheFront

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """A request through Django's handler sends request_started and request_finished, whose
    close_old_connections would close the test's transaction: disconnected as Django's test
    client does."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def started():
    """How many requests reached Django's handler (request_started)."""
    calls = []

    def count(**kwargs):
        calls.append(1)

    request_started.connect(count)
    yield calls
    request_started.disconnect(count)


def call(app, path="/lag/", method="GET", **headers):
    environ = RequestFactory().generic(method, path, headers=headers).environ
    got = {}

    def start_response(status, response_headers, exc_info=None):
        got["status"], got["headers"] = status, response_headers

    chunks = app(environ, start_response)
    try:
        body = b"".join(chunks)
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    return got["status"], got["headers"], body


def header(answer, name):
    return dict(answer[1]).get(name)


def site(settings):
    """Django's WSGI handler, and the front before it; the page stored, as a worker that
    served it once holds it, and the versions trusted for 5 s (production's 0.25 s)."""
    settings.UBF_PAGE_VERSION_SECONDS = 5
    django = WSGIHandler()
    return django, PageCacheFront(django)


def served_then_changed(settings):
    """:func:`site`, with /lag/ served once through the front (its answer) and then made stale
    (a team renamed, its competition's version bumped)."""
    team = TeamFactory(name="Fyris 1")
    django, front = site(settings)
    first = call(front)
    Team.objects.filter(pk=team.pk).update(name="Fyris Ett")
    public_cache.bump([public_cache.competition_key(team.competition_id)])
    return django, front, first


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("gzip", [False, True])
@pytest.mark.parametrize("revalidate", [False, True])
@pytest.mark.parametrize("secure", [False, True])
def test_a_page_held_fresh_is_answered_as_django_answers_it_without_reaching_django(
    settings, started, method, gzip, revalidate, secure
):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 3600  # only over HTTPS (SecurityMiddleware)
    TeamFactory(name="Fyris 1")
    django, front = site(settings)
    headers = {"X-Forwarded-Proto": "https" if secure else "http"}
    first = call(front, **headers)
    assert header(first, "X-Cache") == "miss" and len(started) == 1  # rendered by Django
    if gzip:
        headers["Accept-Encoding"] = "gzip, br"
    if revalidate:
        headers["If-None-Match"] = header(first, "ETag") if not gzip else '"other"'
    by_django = call(django, method=method, **headers)
    assert len(started) == 2 and header(by_django, "X-Cache") == "hit"
    by_front = call(front, method=method, **headers)
    assert len(started) == 2  # Django's handler never saw it
    assert by_front == by_django  # status, every header in its order, body
    status, answered, body = by_front
    names = [name for name, _ in answered]
    for name in ("X-Frame-Options", "Permissions-Policy", "Content-Security-Policy"):
        assert name in names
    assert ("Strict-Transport-Security" in names) == secure
    if revalidate and not gzip:
        assert status.startswith("304") and body == b""
    else:
        assert status == "200 OK"
        assert (header(by_front, "Content-Encoding") == "gzip") == gzip
        assert int(header(by_front, "Content-Length")) > 1000
        assert (body == b"") == (method == "HEAD")


def test_a_page_being_rendered_elsewhere_is_answered_stale_without_reaching_django(
    settings, started
):
    django, front, first = served_then_changed(settings)
    lock = portal.caching.page_key("sv", "/lag/") + ":render"
    assert cache.add(lock, "another worker", 10)
    found_busy = call(front)  # Django's middleware finds the lock held
    assert len(started) == 2 and header(found_busy, "X-Cache") == "stale"
    stale = call(front)
    assert len(started) == 2 and header(stale, "X-Cache") == "stale"
    assert stale[2] == first[2] and header(stale, "ETag") == header(first, "ETag")
    assert stale == call(django)


@pytest.mark.django_db(transaction=True)  # the renderer thread reads what was committed
def test_the_first_request_after_a_change_gets_the_copy_and_the_page_is_rendered_after(
    settings, started
):
    """Production: the request that takes the render lock is answered the copy by the front,
    and the page is rendered again through Django's stack once that answer is sent."""
    settings.UBF_PAGE_RENDER_IN_BACKGROUND = True
    _django, front, first = served_then_changed(settings)
    stale = call(front)
    assert len(started) == 1 and header(stale, "X-Cache") == "stale" and stale[2] == first[2]
    assert portal.caching.renderer.wait(30)
    fresh = call(front)
    assert len(started) == 1 and header(fresh, "X-Cache") == "hit"
    assert "Fyris Ett" in fresh[2].decode() and header(fresh, "ETag") != header(first, "ETag")
    lock = portal.caching.page_key("sv", "/lag/") + ":render"
    assert cache.get(lock) is None  # released


def answered_then_closed(app, counting, path="/lag/"):
    """What the cache was asked before the answer was ready, and the answer."""
    environ = RequestFactory().get(path).environ
    got = {}
    chunks = app(environ, lambda status, headers, exc_info=None: got.update(headers=headers))
    body = b"".join(chunks)
    before = list(counting.asked)
    chunks.close()  # the server is done sending it
    return before, dict(got["headers"]), body


@pytest.mark.django_db(transaction=True)  # the renderer thread reads what was committed
def test_the_first_request_after_a_change_waits_for_the_versions_not_the_lock(
    settings, started, monkeypatch
):
    """Issue 21, the first request after an upload: one round trip before the answer (the
    versions); the render lock is tried once the copy is sent."""
    settings.UBF_PAGE_RENDER_IN_BACKGROUND = True
    _django, front, first = served_then_changed(settings)
    counting = counted(monkeypatch)
    before, headers, body = answered_then_closed(front, counting)
    assert headers["X-Cache"] == "stale" and body == first[2]
    lock = portal.caching.page_key("sv", "/lag/") + ":render"
    assert len(before) == 1 and ["add", lock] not in before
    assert portal.caching.renderer.wait(30)
    assert ["add", lock] in counting.asked  # tried once the copy was sent, and taken
    fresh = call(front)
    assert header(fresh, "X-Cache") == "hit" and "Fyris Ett" in fresh[2].decode()


@pytest.mark.django_db(transaction=True)
def test_a_stale_page_whose_lock_another_holds_is_not_rendered_here(settings, started, monkeypatch):
    settings.UBF_PAGE_RENDER_IN_BACKGROUND = True
    _django, front, first = served_then_changed(settings)
    lock = portal.caching.page_key("sv", "/lag/") + ":render"
    assert cache.add(lock, "another worker", 10)
    counting = counted(monkeypatch)
    _before, headers, body = answered_then_closed(front, counting)
    assert headers["X-Cache"] == "stale" and body == first[2]
    assert portal.caching.renderer.wait(30)
    assert ["add", lock] in counting.asked  # tried
    counting.asked.clear()
    again = call(front)  # not rendered; the lock was found held a moment ago: nothing asked
    assert header(again, "X-Cache") == "stale" and again[2] == first[2]
    assert counting.asked == [] and len(started) == 1


def test_a_stale_page_goes_to_django_with_what_the_front_looked_up(settings, started, monkeypatch):
    """One round trip for the versions, not two: the middleware takes the front's plan."""
    _django, front, _first = served_then_changed(settings)
    counting = counted(monkeypatch)
    answer = call(front)
    assert len(started) == 2 and header(answer, "X-Cache") == "miss"
    assert "Fyris Ett" in answer[2].decode()
    page = portal.caching.page_key("sv", "/lag/")
    looked_up = [keys for keys in counting.asked if portal.caching.marks_key(page) in keys]
    assert len(looked_up) == 1


@pytest.mark.parametrize(
    "case",
    ["logged in", "messages", "post", "never stored here", "language to remember", "api token"],
)
def test_everything_else_reaches_django(settings, started, monkeypatch, case):
    TeamFactory(name="Fyris 1")
    _django, front = site(settings)
    call(front)
    call(front, "/lag/?lang=en", Cookie="django_language=en")
    call(front, "/api/v1/standings/")
    assert len(started) == 3
    lookups = []
    real_lookup = portal.caching.lookup

    def lookup(lang, path, day=None):
        lookups.append(path)
        return real_lookup(lang, path, day)

    monkeypatch.setattr(portal.caching, "lookup", lookup)
    path, method, headers = "/lag/", "GET", {}
    if case == "logged in":
        headers["Cookie"] = f"{settings.SESSION_COOKIE_NAME}=abc"
    elif case == "messages":
        headers["Cookie"] = "messages=abc"
    elif case == "post":
        method = "POST"
    elif case == "never stored here":
        path = "/kalender/"
    elif case == "language to remember":
        path = "/lag/?lang=en"  # stored, but the cookie must be set
    elif case == "api token":
        path, headers["Authorization"] = "/api/v1/standings/", "Token nothing"
    answer = call(front, path, method, **headers)
    assert len(started) == 4 and len(lookups) <= 1  # never looked up twice
    if case == "never stored here":  # looked up once, by Django's middleware, which renders it
        assert header(answer, "X-Cache") == "miss" and lookups == ["/kalender/"]
    if case == "language to remember":
        assert header(answer, "X-Cache") == "hit" and "django_language=en" in header(
            answer, "Set-Cookie"
        )


def test_a_path_this_worker_never_stored_costs_the_front_no_round_trip(settings, monkeypatch):
    """A static file (WhiteNoise, further down) or a page never served by this process."""
    _django, front = site(settings)

    def no_lookup(*args, **kwargs):
        raise AssertionError("looked up")

    monkeypatch.setattr(portal.caching, "lookup", no_lookup)
    environ = RequestFactory().get("/static/css/ubf.css").environ
    assert front.answer(environ) is None and "ubf.plan" not in environ


def test_an_http_request_is_redirected_to_https_not_answered_from_the_cache(settings, started):
    TeamFactory(name="Fyris 1")
    _django, front = site(settings)
    call(front)
    settings.SECURE_SSL_REDIRECT = True
    _django, front = site(settings)  # as a worker started with it
    first = call(front)
    assert first[0].startswith("301") and header(first, "Location").startswith("https://")
    again = call(front)
    assert again[0].startswith("301") and len(started) == 3


def test_a_fault_in_the_front_leaves_the_answer_to_django(settings, started, monkeypatch):
    TeamFactory(name="Fyris 1")
    _django, front = site(settings)
    call(front)

    def broken(request):
        raise RuntimeError("a bug")

    monkeypatch.setattr(front, "stamp", broken)
    answer = call(front)
    assert answer[0] == "200 OK" and header(answer, "X-Cache") == "hit" and len(started) == 2


def test_the_served_application_is_the_front_before_django():
    import ubf.wsgi

    assert isinstance(ubf.wsgi.application, PageCacheFront)
    assert ubf.wsgi.application.app is ubf.wsgi.django_application

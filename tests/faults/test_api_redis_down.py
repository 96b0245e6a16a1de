"""Issue 25: the API fails soft like the pages. With Redis (the cache) unreachable the throttles
let every request through and the page cache is skipped, logged once an outage; anonymous
reads answer 200; a token upload, with the broker down too, is stored and answered "saved,
recompute pending"; any error under /api/ is a problem detail (RFC 9457), never Django's HTML
500 page.

"Unreachable" is a cache URL to a closed port (nothing listens on 127.0.0.1:6390), as
production's settings build it from CELERY_BROKER_URL (``django_redis``). The last test stops
a real redis-server of its own, where the binary is installed."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper

import clubs.cache_health
from api.services import create_token
from clubs import cache_health
from results.models import PairResult, RecomputeStatus, ResultUpload
from tests.api.conftest import with_token
from tests.factories import ClubOfficialFactory
from tests.faults.test_broker_down import broker_down  # noqa: F401  (the fixture)
from tests.results.test_uploads import data, pair_heat_for

pytestmark = pytest.mark.django_db
DEAD = "redis://127.0.0.1:6390/0"
NAME = "pairs_howell_usebio.xml"
PROBLEM = "application/problem+json"


def redis_cache(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "ubf-test",
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5},
        }
    }


@pytest.fixture
def health():
    cache_health.reset()
    yield cache_health
    cache_health.reset()


@pytest.fixture
def warnings(monkeypatch):
    """The outage's log lines (another test may have reconfigured logging: not via caplog)."""
    lines = []
    monkeypatch.setattr(
        clubs.cache_health.log, "warning", lambda msg, *args, **kw: lines.append(msg % args)
    )
    return lines


@pytest.fixture
def use_cache(settings):
    """``use_cache(CACHES)``; the test's own cache is put back before the suite's autouse
    fixture clears the cache (which must not meet a dead server)."""
    saved = settings.CACHES

    def use(caches):
        settings.CACHES = caches

    yield use
    settings.CACHES = saved


@pytest.fixture
def three_a_minute(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "3/min", "token": "3/min"},
    }


@pytest.fixture
def cache_down(use_cache, three_a_minute, health, warnings):
    """The cache server unreachable; the anonymous limit 3 a minute, so a throttle that still
    counted would answer 429 from the fourth request."""
    use_cache(redis_cache(DEAD))
    return warnings


def test_anonymous_reads_answer_200_unthrottled_and_it_is_logged_once(api_client, cache_down):
    urls = ["/api/v1/seasons/", "/api/v1/standings/", "/api/v1/heats/", "/api/schema/"]
    started = time.monotonic()
    statuses = [api_client.get(url).status_code for url in urls for _ in range(3)]
    assert statuses == [200] * 12  # 12 > the limit of 3: no throttle without its counts
    assert time.monotonic() - started < 10  # no socket wait per request
    assert len(cache_down) == 1 and "Cache unreachable" in cache_down[0]
    assert cache_health.is_down()


def test_the_pages_keep_working_too(client, cache_down):
    assert client.get("/lag/").status_code == 200
    assert client.get("/par/").status_code == 200
    assert len(cache_down) == 1


def test_a_token_upload_is_stored_and_answered_with_its_status(
    api_client,
    cache_down,
    broker_down,  # noqa: F811
    tk,
    django_capture_on_commit_callbacks,
):
    heat, _ = pair_heat_for(NAME)
    own = ClubOfficialFactory(club=heat.clubs.first()).user
    _token, key = create_token(tk, owner=own, name="Ruter", heat=heat)

    with django_capture_on_commit_callbacks(execute=True):
        response = with_token(api_client, key).post(
            f"/api/v1/heats/{heat.pk}/results/",
            {"file": SimpleUploadedFile(NAME, data(NAME))},
            format="multipart",
        )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "accepted" and body["recompute_pending"] is True
    assert body["message"] == "Sparat, resultatlistan uppdateras snart."
    assert ResultUpload.objects.filter(pk=body["id"]).exists()
    assert PairResult.objects.filter(heat=heat).count() == 10  # the Howell's ten pairs
    assert RecomputeStatus.objects.get(competition_id=heat.competition_id).pending


def test_an_upload_answered_in_english(api_client, tk, django_capture_on_commit_callbacks):
    heat, _ = pair_heat_for(NAME)
    _token, key = create_token(tk, owner=tk, name="Ruter", heat=heat)

    with django_capture_on_commit_callbacks(execute=True):
        response = with_token(api_client, key).post(
            f"/api/v1/heats/{heat.pk}/results/?lang=en",
            {"file": SimpleUploadedFile(NAME, data(NAME))},
            format="multipart",
        )
    assert response.status_code == 201
    body = response.json()
    assert body["message"] == "Saved; the results list will be updated shortly."


# --- errors are problem details ----------------------------------------------------------------


def test_an_error_in_a_view_is_a_problem_detail(api_client):
    api_client.raise_request_exception = False
    with mock.patch("api.views.SeasonViewSet.get_queryset", side_effect=RuntimeError("boom")):
        response = api_client.get("/api/v1/seasons/")
    assert response.status_code == 500
    assert response["Content-Type"] == PROBLEM
    problem = response.json()
    assert problem["status"] == 500 and problem["type"].endswith("/server-error")
    assert "boom" not in response.content.decode() and "Traceback" not in problem["detail"]


def test_an_error_outside_the_views_under_api_is_a_problem_detail(api_client):
    api_client.raise_request_exception = False
    with mock.patch("portal.caching.lookup", side_effect=RuntimeError("boom")):
        response = api_client.get("/api/v1/seasons/")
        page = api_client.get("/lag/")
    assert response.status_code == 500 and response["Content-Type"] == PROBLEM
    assert response.json()["status"] == 500
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")


def unreachable(self):
    raise OperationalError('connection to server at "127.0.0.1", port 5433 failed')


def test_database_unreachable_is_503_problem_detail(api_client):
    api_client.raise_request_exception = False
    with mock.patch.object(BaseDatabaseWrapper, "ensure_connection", unreachable):
        response = api_client.get("/api/v1/seasons/?lang=en")
    assert response.status_code == 503 and response["Content-Type"] == PROBLEM
    assert response["Retry-After"] == "30"
    assert "Nothing you sent has been saved" in response.json()["detail"]


# --- a real Redis, stopped and started again ----------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server installed")
def test_a_real_redis_stopped_and_started_again(
    api_client, use_cache, three_a_minute, health, warnings
):
    port = free_port()
    cmd = ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"]

    def start():
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return proc
            time.sleep(0.1)
        proc.kill()
        pytest.skip("redis-server did not start")

    use_cache(redis_cache(f"redis://127.0.0.1:{port}/0"))
    server = start()
    try:
        # up: the limit holds (3 renders a minute, the fourth is refused; a new query string
        # each time, as a cached answer is not counted: issue 21)
        assert [
            api_client.get(f"/api/v1/seasons/?page_size={n}").status_code for n in range(1, 5)
        ] == [
            200,
            200,
            200,
            429,
        ]
        server.terminate()
        server.wait(10)
        # down: every read answers, unthrottled, one warning
        assert [api_client.get("/api/v1/seasons/").status_code for _ in range(5)] == [200] * 5
        assert len(warnings) == 1
        # back (an empty Redis, nothing saved): counted again once the retry pause is over
        server = start()
        with mock.patch.object(cache_health, "RETRY_SECONDS", 0):
            cache_health.reset()
            statuses = [
                api_client.get(f"/api/v1/seasons/?page_size={n}").status_code for n in range(5, 9)
            ]
        assert statuses == [200, 200, 200, 429]
        assert not cache_health.is_down()
    finally:
        server.kill()
        server.wait(10)


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()

"""Issue 14: fail-safe configuration. DEBUG off unless said; result files never public;
production refuses to start without its static manifest; a Content-Security-Policy without
inline script and a Permissions-Policy on every page; error pages never show the settings; an
unreachable database gives the Swedish 503 page and writes nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import RequestFactory
from django.views.debug import technical_500_response

from results.models import PairResult, PairTraveller, ResultUpload
from results.services.uploads import upload_pair_heat
from tests.factories import ClubOfficialFactory, UserFactory
from tests.results.test_uploads import data, pair_heat_for
from ubf.checks import static_manifest

ROOT = Path(__file__).resolve().parents[2]
NAME = "pairs_howell_usebio.xml"
PROD = {
    "DEBUG": "false",
    "SECRET_KEY": "x" * 20 + "-prod-secret-key-with-enough-entropy-" + "7q!Zr#9kLm2@",
    "ALLOWED_HOSTS": "dm.upplandsbridge.se",
}


def production_env(**extra) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DEBUG", "DEMO_DATE"}
    }
    env.update(PROD, DJANGO_SETTINGS_MODULE="ubf.settings", **extra)
    return env


# --- Static manifest ---------------------------------------------------------------------------


def test_production_collects_its_static_files_or_refuses_to_start(tmp_path):
    env = production_env(STATIC_ROOT=str(tmp_path / "empty"))
    # ``check --deploy`` names the missing manifest; a plain check (before migrate) does not
    check = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert check.returncode != 0
    assert "ubf.E001" in check.stderr and "collectstatic" in check.stderr
    plain = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert plain.returncode == 0, plain.stderr
    # gunicorn runs no system checks: importing the WSGI application collects the files once
    wsgi = subprocess.run(
        [sys.executable, "-c", "import ubf.wsgi"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert wsgi.returncode == 0, wsgi.stderr
    assert (tmp_path / "empty" / "staticfiles.json").is_file()
    # where it cannot collect them (the static root is a file), it stops with the message
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    env = production_env(STATIC_ROOT=str(blocked))
    wsgi = subprocess.run(
        [sys.executable, "-c", "import ubf.wsgi"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert wsgi.returncode != 0
    assert "kör collectstatic" in wsgi.stderr


def test_manifest_check_is_quiet_once_collected_and_outside_production(settings, tmp_path):
    settings.PRODUCTION = True
    settings.STATIC_ROOT = str(tmp_path)
    assert [e.id for e in static_manifest()] == ["ubf.E001"]
    (tmp_path / "staticfiles.json").write_text("{}")
    assert static_manifest() == []
    settings.PRODUCTION = False
    (tmp_path / "staticfiles.json").unlink()
    assert static_manifest() == []


# --- Result files ------------------------------------------------------------------------------


@pytest.fixture
def stored(django_capture_on_commit_callbacks):
    heat, _ = pair_heat_for(NAME)
    tk = UserFactory(username="tk-files", is_superuser=True, is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_pair_heat(tk, heat, data=data(NAME), filename=NAME).upload
    return heat, upload, tk


@pytest.mark.django_db
def test_result_files_are_not_served_from_media(client, stored, settings):
    _heat, upload, tk = stored
    assert Path(upload.file.path).is_file()
    settings.DEBUG = True
    client.force_login(tk)
    assert client.get(f"/media/{upload.file.name}").status_code == 404


@pytest.mark.django_db
def test_result_file_only_to_those_who_may_see_it(client, stored):
    heat, upload, tk = stored
    url = f"/resultat/fil/{upload.pk}/"
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(ClubOfficialFactory().user)  # another club
    assert client.get(url).status_code == 403
    client.force_login(ClubOfficialFactory(club=heat.clubs.first()).user)
    response = client.get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == data(NAME)
    assert "no-store" in response["Cache-Control"]
    client.force_login(tk)
    assert client.get(url).status_code == 200


# --- Headers -----------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/lag/", "/par/", "/kalender/", "/konto/login/"])
def test_csp_without_inline_script_and_permissions_policy(client, url):
    response = client.get(url)
    assert response.status_code == 200
    csp = dict(
        part.strip().split(" ", 1)
        for part in response["Content-Security-Policy"].split(";")
        if part.strip()
    )
    assert csp["script-src"] == "'self'"
    assert csp["default-src"] == "'self'" and csp["frame-ancestors"] == "'none'"
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]
    # the page itself has no inline script for the policy to block
    html = response.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert not re.search(r"\son[a-z]+=", html)


SECURITY_HEADERS = [
    "Content-Security-Policy",
    "Permissions-Policy",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/lag/", "/par/", "/kalender/", "/api/v1/seasons/"])
def test_cached_public_page_keeps_the_headers(client, url):
    """Issue 25: the cached /lag/ lacked X-Frame-Options (its middleware ran after the page
    cache's fast path). Every response has the same security headers, cached or not."""
    first = client.get(url)
    again = client.get(url)  # a public page: from the public pages' cache
    assert first.status_code == again.status_code == 200
    assert "script-src 'self'" in again["Content-Security-Policy"]
    assert "camera=()" in again["Permissions-Policy"]
    assert again["X-Frame-Options"] == "DENY"
    assert {h: first.get(h) for h in SECURITY_HEADERS} == {
        h: again.get(h) for h in SECURITY_HEADERS
    }
    assert all(first.get(h) for h in SECURITY_HEADERS), first.headers


def test_no_template_has_inline_script_or_handlers():
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text) or re.search(r"\son[a-z]+=\"", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


# --- Error pages -------------------------------------------------------------------------------


def debug_page_of_an_error():
    """The DEBUG page of an error raised here (its source and locals are on the page, so the
    secret is not written in this function)."""
    request = RequestFactory().get("/lag/")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        return technical_500_response(request, *sys.exc_info())


def test_debug_error_page_shows_no_settings(settings):
    settings.DEBUG = True
    settings.CELERY_BROKER_URL = "redis://:hunter2-secret@redis:6379/0"
    html = debug_page_of_an_error().content.decode()
    assert "boom" in html
    assert "hunter2-secret" not in html


# --- PostgreSQL (any database) unreachable ----------------------------------------------------


def unreachable(self):
    raise OperationalError('connection to server at "127.0.0.1", port 5433 failed')


@pytest.mark.django_db
def test_database_unreachable_gives_the_swedish_503_page(client):
    client.raise_request_exception = False
    with mock.patch.object(BaseDatabaseWrapper, "ensure_connection", unreachable):
        response = client.get("/lag/")
    html = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "Tillfälligt otillgänglig" in html and "Inget av det du skickade har sparats" in html
    assert '<html lang="sv">' in html
    assert "Traceback" not in html and "OperationalError" not in html


@pytest.mark.django_db
def test_database_lost_during_an_upload_writes_nothing(client):
    heat, _ = pair_heat_for(NAME)
    client.force_login(ClubOfficialFactory(club=heat.clubs.first()).user)
    client.raise_request_exception = False
    real = PairTraveller.objects.bulk_create

    def lost(*args, **kwargs):  # the results are written, then the connection goes
        raise OperationalError("server closed the connection unexpectedly")

    with mock.patch.object(PairTraveller.objects, "bulk_create", lost):
        response = client.post(
            f"/resultat/par/{heat.id}/", {"file": SimpleUploadedFile(NAME, data(NAME))}
        )
    assert real is not None
    assert response.status_code == 503
    assert "Inget av det du skickade har sparats" in response.content.decode()
    assert ResultUpload.objects.count() == 0
    assert PairResult.objects.count() == 0 and PairTraveller.objects.count() == 0

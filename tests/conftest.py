"""Shared fixtures. Ordinary tests run Celery tasks in-process (eager) even when a broker is
configured; tests marked ``celery_worker`` talk to the real broker and a real worker.

A test that runs longer than pytest-timeout's ``timeout`` (pyproject.toml) fails with every
thread's stack and the run goes on. When no Python code can run any more (a thread holding the
GIL waits on one that waits for it, as in issue 26), that timeout cannot fire either:
``pytest_runtest_protocol`` below then has faulthandler, which needs no GIL, write every
thread's stack to the terminal ``HARD_STOP_AFTER`` seconds later and end the run (exit 1), so
``make test`` fails instead of hanging."""

import faulthandler
import os
import sys

import pytest
from django.conf import settings

#: Seconds past pytest-timeout's timeout after which a test still running ends the whole run
#: (UBF_HARD_STOP_AFTER changes it: tests/ubf/test_timeouts.py).
HARD_STOP_AFTER = float(os.environ.get("UBF_HARD_STOP_AFTER", "60"))
_stderr_fd: int | None = None


def pytest_configure(config):
    global _stderr_fd
    # As pytest's own faulthandler plugin does: a copy of the terminal's stderr, taken before
    # output capture redirects it, so the stacks are seen even from inside a captured test.
    try:
        _stderr_fd = os.dup(sys.stderr.fileno())
    except (AttributeError, ValueError, OSError):  # stderr replaced by an object without a file
        _stderr_fd = None


def _timeout(config) -> float:
    try:
        value = config.getoption("timeout", None)
        if value is None:
            value = config.getini("timeout")
        return float(value or 0)
    except (ValueError, TypeError):  # pytest-timeout is not installed
        return 0.0


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    marker = item.get_closest_marker("timeout")  # @pytest.mark.timeout(N) of pytest-timeout
    timeout = float(marker.args[0]) if marker and marker.args else _timeout(item.config)
    if not timeout or _stderr_fd is None:
        yield
        return
    faulthandler.dump_traceback_later(timeout + HARD_STOP_AFTER, exit=True, file=_stderr_fd)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite the test database is a file, as the embedded mode's own database is, not
    Django's default of memory. With memory, pytest-django's ``live_server`` hands the test's
    one connection to every request thread of the live server, and two requests at once (the
    club form's player look-up answers while one types, beside a save) used that connection
    together: one thread inside SQLite's step, holding the connection's mutex, waited for the
    GIL to run Django's Python REGEXP function, while another held the GIL and waited for the
    mutex to bind a parameter. Every thread then stopped, the browser's timeouts and
    pytest-timeout with them (issue 26). With a file each thread opens its own connection and
    SQLite's locks (timeout 20 s, IMMEDIATE transactions: ubf.settings) make them wait their
    turn, as they do in production."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        test = db.setdefault("TEST", {})
        if test.get("NAME") in (None, "", ":memory:"):
            test["NAME"] = str(tmp_path_factory.mktemp("sqlite") / "test_ubf.sqlite3")


@pytest.fixture(autouse=True)
def _media_in_tmp(tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The public pages' cache (portal.caching) lives in local memory across tests, and each
    # process keeps the pages it served in its own memory too.
    # What a process remembered of rows' competitions goes too: a rolled-back row's id is
    # the next test's.
    from django.core.cache import cache

    from clubs import public_cache
    from portal.caching import local_pages

    cache.clear()
    local_pages.clear()
    public_cache.forget()
    yield
    cache.clear()
    local_pages.clear()
    public_cache.forget()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # One PBKDF2 hash takes about a second on the CI machine; tests make many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _site_language():
    # A request with ?lang=en activates English in the test's thread and Django leaves it
    # active; labels are lazy translations, so every test starts (and ends) in Swedish.
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _eager_celery(request):
    from celery._state import _set_task_join_will_block

    from ubf.celery import app

    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    # Settings come from Django with the CELERY_ namespace, so set the namespaced key.
    old = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    yield
    app.conf.CELERY_TASK_ALWAYS_EAGER = old
    # Eager tasks run in several threads at once (the concurrency tests) can leave Celery's
    # process-global "inside a task" flag set; reset it so a later result.get() is allowed.
    _set_task_join_will_block(False)


def broker_url() -> str:
    return os.environ.get("CELERY_BROKER_URL", "")


requires_broker = pytest.mark.skipif(
    not broker_url(),
    reason="needs CELERY_BROKER_URL (a real Redis broker); .ci/run sets it",
)

requires_postgres = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="needs DATABASE_URL=postgres://...; .ci/run sets it",
)


@pytest.fixture
def celery_worker_queue():
    """A real ``celery -A ubf worker`` process on its own queue, using the test database
    (tests using it must be ``django_db(transaction=True)`` so the worker sees their rows)."""
    import subprocess
    import sys
    import uuid
    from pathlib import Path

    from django.db import connection

    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = dict(os.environ)
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.postgresql":
        user = db.get("USER") or "postgres"
        host = db.get("HOST") or "127.0.0.1"
        port = db.get("PORT") or 5432
        env["DATABASE_URL"] = f"postgres://{user}@{host}:{port}/{db['NAME']}"
    else:
        env["DATABASE_URL"] = f"sqlite:///{db['NAME']}"
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "ubf",
            "worker",
            "-P",
            "solo",
            "-Q",
            queue,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-l",
            "WARNING",
        ],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield queue
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


# --- Shared by the service tests (heats, entries, decisions, lots, reminders) ----------------


@pytest.fixture
def recompute():
    """A mock called with what ``clubs.recompute.request_recompute`` was asked (its keywords
    that are set), in place of the ``results`` receiver: the tests check that a recompute was
    asked for, not its effect. A module uses it for every test with
    ``pytestmark = [..., pytest.mark.usefixtures("recompute")]``."""
    from unittest.mock import MagicMock

    from clubs.recompute import recompute_requested
    from results.recompute import on_recompute_requested

    mock = MagicMock()

    def listener(sender=None, signal=None, **kwargs):
        mock(**{k: v for k, v in kwargs.items() if v is not None})

    recompute_requested.disconnect(dispatch_uid="results.recompute")
    recompute_requested.connect(listener, dispatch_uid="tests.recompute", weak=False)
    try:
        yield mock
    finally:
        recompute_requested.disconnect(dispatch_uid="tests.recompute")
        recompute_requested.connect(on_recompute_requested, dispatch_uid="results.recompute")


@pytest.fixture
def recompute_calls(recompute):
    """The same mock, by the name the entry tests use."""
    return recompute


@pytest.fixture
def tk():
    """A TK user: superuser and staff."""
    from tests.factories import UserFactory

    return UserFactory(username="tk", is_superuser=True, is_staff=True)


@pytest.fixture
def club_a():
    """A UBF club, "BK Uppsala"."""
    from tests.factories import ClubFactory

    return ClubFactory(name="BK Uppsala")


@pytest.fixture
def club_b():
    """Another UBF club, "Enköpings BK"."""
    from tests.factories import ClubFactory

    return ClubFactory(name="Enköpings BK")


@pytest.fixture
def decide(django_capture_on_commit_callbacks):
    """``decide(service, *args, **kwargs)``: calls a service and then runs what its transaction
    left for the commit, the real recompute in-process (Celery eager), as after a real commit.
    For the tests of decisions that change standings (no mock of the recompute)."""

    def run(service, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return service(*args, **kwargs)

    return run

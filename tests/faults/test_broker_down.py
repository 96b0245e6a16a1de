"""Issue 14: Redis down. The upload is saved and the club is told "Sparat, resultatlistan
uppdateras snart" (no 500, no 19 s wait); the recompute stays pending; the sweep
(``manage.py requeue_pending``, the beat task) sends it again once it has waited N seconds,
and an identical re-upload while pending asks again.

"Down" is a broker URL to a closed port (nothing listens on 127.0.0.1:6390), set on the Celery
app as the settings would (``CELERY_BROKER_URL``), with tasks no longer run in-process."""

from __future__ import annotations

import time
from datetime import timedelta
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

import results.recompute
from clubs import clock
from results.models import PairResult, RecomputeStatus, StandingSnapshot
from results.recompute import requeue_pending
from results.services.uploads import upload_pair_heat
from results.tasks import recompute_competition
from tests.factories import ClubOfficialFactory, UserFactory
from tests.results.test_uploads import data, pair_heat_for
from ubf.celery import app

pytestmark = pytest.mark.django_db
NAME = "pairs_howell_usebio.xml"
DEAD = "redis://127.0.0.1:6390/0"


@pytest.fixture
def broker_down(settings, monkeypatch):
    """The broker unreachable until ``up()`` is called (then tasks run in-process again)."""
    saved = {k: app.conf.get(k) for k in ("CELERY_TASK_ALWAYS_EAGER", "broker_url")}
    settings.CELERY_BROKER_URL = DEAD
    # Celery reads the environment's CELERY_BROKER_URL before its own setting (.ci/run sets
    # it to the real Redis), so the dead URL must be the environment's too.
    monkeypatch.setenv("CELERY_BROKER_URL", DEAD)

    def down():
        app.conf.CELERY_TASK_ALWAYS_EAGER = False
        app.conf.broker_url = DEAD
        app._pool = None  # no connection or producer kept from an earlier broker
        app.amqp._producer_pool = None

    def up():
        app.conf.CELERY_TASK_ALWAYS_EAGER = True

    down()
    yield up
    app.conf.CELERY_TASK_ALWAYS_EAGER = saved["CELERY_TASK_ALWAYS_EAGER"]
    app.conf.broker_url = saved["broker_url"]
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def tk():
    return UserFactory(username="tk-broker", is_superuser=True, is_staff=True)


def upload(tk, heat, raw, capture, name=NAME):
    with capture(execute=True):
        return upload_pair_heat(tk, heat, data=raw, filename=name)


def test_upload_is_saved_and_stays_pending_when_the_broker_is_down(
    broker_down, tk, django_capture_on_commit_callbacks, monkeypatch
):
    heat, _ = pair_heat_for(NAME)
    warned = []
    # the log line itself (another test may have reconfigured logging, so not via caplog)
    monkeypatch.setattr(
        results.recompute.log, "warning", lambda msg, *args, **kw: warned.append(msg % args)
    )
    started = time.monotonic()
    outcome = upload(tk, heat, data(NAME), django_capture_on_commit_callbacks)
    assert time.monotonic() - started < 5  # not kombu's default 19 s of retries
    assert outcome.upload.status == "accepted"
    assert PairResult.objects.filter(heat=heat).count() == 10  # the Howell's 10 pairs
    assert RecomputeStatus.objects.get(competition_id=heat.competition_id).pending
    assert not StandingSnapshot.objects.filter(heat=heat).exists()
    assert warned and "not queued (broker unreachable)" in warned[0]


def test_club_is_told_saved_not_an_error(broker_down, client, django_capture_on_commit_callbacks):
    heat, _ = pair_heat_for(NAME)
    client.force_login(ClubOfficialFactory(club=heat.clubs.first()).user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/resultat/par/{heat.id}/", {"file": SimpleUploadedFile(NAME, data(NAME))}, follow=True
        )
    assert response.status_code == 200
    assert "Sparat, resultatlistan uppdateras snart." in response.content.decode()
    assert PairResult.objects.filter(heat=heat).count() == 10
    # the public heat page says it is being counted in
    assert RecomputeStatus.objects.get(competition_id=heat.competition_id).pending


def test_sweep_requeues_what_waited_longer_than_n_seconds(
    broker_down, tk, django_capture_on_commit_callbacks, settings
):
    settings.UBF_REQUEUE_AFTER_SECONDS = 30
    heat, _ = pair_heat_for(NAME)
    done = upload(tk, heat, data(NAME), django_capture_on_commit_callbacks).upload
    # broker still down: nothing is sent, the competition stays pending for the next sweep
    RecomputeStatus.objects.update(requested_at=clock.now() - timedelta(seconds=40))
    assert requeue_pending() == []
    assert RecomputeStatus.objects.get(competition_id=heat.competition_id).pending

    broker_down()  # Redis is back (tasks run in-process from here)
    cache.clear()  # the failed sweep's note: it sent nothing
    # pending for 20 seconds only: not yet
    RecomputeStatus.objects.update(requested_at=clock.now() - timedelta(seconds=20))
    out = StringIO()
    call_command("requeue_pending", stdout=out)
    assert out.getvalue().startswith("requeued: 0")
    assert not StandingSnapshot.objects.filter(heat=heat).exists()
    # pending for 40 seconds: the sweep sends it, and the standings are those of the upload
    RecomputeStatus.objects.update(requested_at=clock.now() - timedelta(seconds=40))
    call_command("requeue_pending", stdout=out)
    assert f"requeued: 1 [{heat.competition_id}]" in out.getvalue()
    snapshot = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    assert snapshot.upload_ids == [done.pk] and len(snapshot.data) == 10
    assert not RecomputeStatus.objects.get(competition_id=heat.competition_id).pending


def test_a_competition_is_sent_again_once_a_period_and_a_repeat_recomputes(
    broker_down, tk, django_capture_on_commit_callbacks, settings
):
    """The sweep runs every 15 s and sends what waited 30 s: a busy queue would otherwise get a
    repeat of the same competition every sweep (issue 25)."""
    settings.UBF_REQUEUE_AFTER_SECONDS = 30
    heat, _ = pair_heat_for(NAME)
    upload(tk, heat, data(NAME), django_capture_on_commit_callbacks)
    broker_down()  # back, in-process
    old = clock.now() - timedelta(seconds=40)
    RecomputeStatus.objects.update(requested_at=old, finished_at=None)
    assert requeue_pending() == [heat.competition_id]
    status = RecomputeStatus.objects.get(competition_id=heat.competition_id)
    assert not status.pending and status.runs == 1
    # pending again (as if that task were lost): within the period it is not sent again
    RecomputeStatus.objects.update(requested_at=old, finished_at=None)
    assert requeue_pending() == []
    # a repeat (a redelivery) recomputes again, whatever the status's times say: two uploads
    # at one instant of a frozen or moved-back clock must both count
    RecomputeStatus.objects.update(finished_at=clock.now())
    recompute_competition.delay(heat.competition_id, None)
    assert RecomputeStatus.objects.get(competition_id=heat.competition_id).runs == 2


def test_identical_reupload_while_pending_asks_again(
    broker_down, tk, django_capture_on_commit_callbacks
):
    heat, _ = pair_heat_for(NAME)
    first = upload(tk, heat, data(NAME), django_capture_on_commit_callbacks).upload
    assert not StandingSnapshot.objects.filter(heat=heat).exists()
    broker_down()  # back
    again = upload(tk, heat, data(NAME), django_capture_on_commit_callbacks, name="igen.xml")
    assert again.unchanged and again.upload.pk == first.pk
    snapshot = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    assert snapshot.upload_ids == [first.pk]
    assert not RecomputeStatus.objects.get(competition_id=heat.competition_id).pending


def test_identical_reupload_when_done_sends_nothing(tk, django_capture_on_commit_callbacks):
    heat, _ = pair_heat_for(NAME)
    upload(tk, heat, data(NAME), django_capture_on_commit_callbacks)
    runs = RecomputeStatus.objects.get(competition_id=heat.competition_id).runs
    upload(tk, heat, data(NAME), django_capture_on_commit_callbacks, name="igen.xml")
    assert RecomputeStatus.objects.get(competition_id=heat.competition_id).runs == runs


def test_recovery_settings_fit_within_a_minute(settings):
    """Issue 25: with the default settings a lost recompute is sent again within a minute: it
    waits UBF_REQUEUE_AFTER_SECONDS (30) and the sweep runs every UBF_REQUEUE_SWEEP_SECONDS
    (15), 45 s at the worst before it is sent; the visibility timeout (a killed worker's task
    back from Redis) is longer than the longest recompute (one competition of the national
    season: 4.2 s in README's benchmark) and kombu's default of an hour is not used."""
    assert settings.UBF_REQUEUE_AFTER_SECONDS + settings.UBF_REQUEUE_SWEEP_SECONDS <= 45
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert 60 <= visibility <= 300
    assert settings.CELERY_TASK_ACKS_LATE is True
    sweep = settings.CELERY_BEAT_SCHEDULE["requeue-pending-recomputes"]
    assert sweep["task"] == "results.recompute.requeue_pending"
    assert sweep["schedule"] == settings.UBF_REQUEUE_SWEEP_SECONDS
    assert sweep["task"] in app.tasks

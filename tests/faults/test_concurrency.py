"""Issue 14: 20 uploads and corrections of one heat at once, and 20 TK decisions on one
competition at once, on PostgreSQL: no deadlock, no error, and afterwards exactly the last
committed upload with standings computed from it (the lock order of ``clubs.locks``).

Each thread runs the real service with the recompute scheduled on commit (in-process here, as
without a broker), so uploads, decisions and recomputes of one competition all interleave."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection

from results.models import PairResult, RecomputeStatus, ResultUpload, StandingSnapshot
from results.services.uploads import upload_pair_heat, upload_team_results
from teams.models import Penalty
from teams.services.decisions.sanctions import impose_penalty
from tests.conftest import requires_postgres
from tests.factories import UserFactory
from tests.results.test_uploads import data, pair_heat_for, team_heat_for

pytestmark = [requires_postgres, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 20


def run_at_once(jobs) -> list[BaseException]:
    """Start every job at the same moment (a barrier) in its own thread and connection."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job):
        try:
            barrier.wait(timeout=30)
            job()
        except BaseException as exc:  # reported by the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread is still waiting (deadlock?)"
    return errors


def test_twenty_uploads_and_corrections_of_one_heat_at_once():
    tk = UserFactory(username="tk-20", is_superuser=True, is_staff=True)
    name = "pairs_howell_usebio.xml"
    heat, _ = pair_heat_for(name)
    raw = data(name)
    # 20 files: the same results under 10 different descriptions (each a correction of
    # whatever was stored), each sent twice (an identical re-upload or another correction).
    files = [
        raw.replace(b"<EVENT_DESCRIPTION>", f"<EVENT_DESCRIPTION>v{i % 10} ".encode())
        for i in range(THREADS)
    ]
    jobs = [
        (lambda f=f, i=i: upload_pair_heat(tk, heat, data=f, filename=f"heat-{i}.xml"))
        for i, f in enumerate(files)
    ]
    errors = run_at_once(jobs)
    assert errors == []

    accepted = list(ResultUpload.objects.filter(heat=heat, status="accepted"))
    assert len(accepted) == 1
    last = accepted[0]
    # the last committed upload is the newest row (ids are taken under the heat's lock)
    assert last.pk == ResultUpload.objects.filter(heat=heat).latest("pk").pk
    assert set(ResultUpload.objects.filter(heat=heat).values_list("status", flat=True)) <= {
        "accepted",
        "superseded",
    }
    # the Howell file's 10 pairs, all from the last upload, none left from earlier ones
    assert PairResult.objects.filter(heat=heat).count() == 10
    assert set(PairResult.objects.filter(heat=heat).values_list("upload", flat=True)) == {last.pk}
    snapshot = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    assert snapshot.upload_ids == [last.pk]
    assert len(snapshot.data) == 10
    status = RecomputeStatus.objects.get(competition_id=heat.competition_id)
    assert not status.pending


def test_twenty_tk_decisions_on_one_competition_at_once():
    tk = UserFactory(username="tk-20b", is_superuser=True, is_staff=True)
    name = "teams_usebio.xml"
    heat, teams, _ = team_heat_for(name, 24)
    upload_team_results(tk, heat=heat, data=data(name), filename=name)
    before = {
        row["name"]: Decimal(row["vp"])
        for row in StandingSnapshot.objects.get(scope="team_heat", heat=heat).data
    }
    ordered = sorted(teams.values(), key=lambda t: t.number)
    # 20 penalties of 1 VP, 5 on each of the 4 teams, while a correction of the heat's file
    # is uploaded in between: every one is a recompute of the same competition.
    jobs = [
        (
            lambda team=ordered[i % 4], i=i: impose_penalty(
                tk, team, None, vp=Decimal(1), clause="R-TEAM-RES-1", reason=f"Test {i}"
            )
        )
        for i in range(THREADS)
    ]
    corrected = data(name).replace(b"<EVENT_DESCRIPTION>", b"<EVENT_DESCRIPTION>Rattad ")
    jobs.append(lambda: upload_team_results(tk, heat=heat, data=corrected, filename="r.xml"))
    errors = run_at_once(jobs)
    assert errors == []

    assert Penalty.objects.filter(team__competition=heat.competition).count() == 20
    after = {
        row["name"]: Decimal(row["vp"])
        for row in StandingSnapshot.objects.get(scope="team_heat", heat=heat).data
    }
    # each team 5 VP less than before (R-VP-4: penalties subtracted after conversion)
    assert after == {team: vp - 5 for team, vp in before.items()}
    assert not RecomputeStatus.objects.get(competition_id=heat.competition_id).pending

"""Issue 14: 20 uploads and corrections of one heat at once, and 20 TK decisions on one
competition at once, on PostgreSQL: no deadlock, no error, and afterwards exactly the last
committed upload with standings computed from it (the lock order of ``clubs.locks``). Issue
25: the 20 files have 20 different results, so the standings show that it is the last one.

Each thread runs the real service with the recompute scheduled on commit (in-process here, as
without a broker), so uploads, decisions and recomputes of one competition all interleave."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection

from results.importers import parse_upload
from results.models import PairResult, RecomputeStatus, ResultUpload, StandingSnapshot
from results.services.uploads import upload_pair_heat, upload_team_results
from teams.models import Penalty
from teams.services.decisions.sanctions import impose_penalty
from tests.conftest import requires_postgres
from tests.factories import UserFactory
from tests.results.test_uploads import data, pair_heat_for, team_heat_for
from ubf.demo.simulate import simulate_pair_heat
from ubf.demo.writers import write_usebio_pairs

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


def twenty_different_files(event) -> list[bytes]:
    """20 USEBIO files of the fixture's heat (its 10 pairs, numbers and MIDs, 27 boards), each
    played with another seed: 20 different results of the same heat."""
    pairs = [
        (p.number, (p.players[0].mid, p.players[0].name), (p.players[1].mid, p.players[1].name), 3)
        for p in event.pairs
    ]
    return [
        write_usebio_pairs(simulate_pair_heat(pairs, 27, seed=f"race-{i}", movement="howell"))
        for i in range(THREADS)
    ]


def stated_percentages(raw: bytes) -> dict[str, Decimal]:
    """The percentages a file states for its pairs (its own figures, as the club sent them)."""
    return {p.number: p.percentage for p in parse_upload(raw, "heat.xml", "pairs").pairs}


def test_twenty_uploads_and_corrections_of_one_heat_at_once():
    # Issue 25: 20 files of DIFFERENT results at once, each a correction of whatever was
    # stored when it committed: afterwards the stored results and the heat's standings are
    # exactly those of the last committed file (R-PAIR-KVAL-5: the heat ranked on its file).
    tk = UserFactory(username="tk-20", is_superuser=True, is_staff=True)
    heat, event = pair_heat_for("pairs_howell_usebio.xml")
    files = twenty_different_files(event)
    expected = [stated_percentages(f) for f in files]
    assert len({tuple(sorted(e.items())) for e in expected}) == THREADS  # all different
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
    assert ResultUpload.objects.filter(heat=heat).count() == THREADS  # none unchanged
    assert set(ResultUpload.objects.filter(heat=heat).values_list("status", flat=True)) == {
        "accepted",
        "superseded",
    }
    winner = expected[int(last.original_name.removeprefix("heat-").removesuffix(".xml"))]
    # the Howell file's 10 pairs, all from the last upload, with that file's percentages
    results = PairResult.objects.filter(heat=heat).select_related("entry")
    assert set(results.values_list("upload", flat=True)) == {last.pk}
    assert {r.entry.pair_number: r.percentage for r in results} == winner
    snapshot = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    assert snapshot.upload_ids == [last.pk]
    assert {row["pair_number"]: Decimal(row["percentage"]) for row in snapshot.data} == winner
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

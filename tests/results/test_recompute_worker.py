"""The recompute in a real Celery worker against Redis, and two recomputes at once (CI)."""

import threading

import pytest
from django.db import connection

from results.models import RecomputeStatus, StandingSnapshot
from results.services.recompute import recompute_team_competition
from results.tasks import recompute_competition as recompute_task
from teams.models import Match
from tests.conftest import requires_broker, requires_postgres
from tests.factories import TeamFactory, TeamHeatFactory
from ubf.celery import app


def played_heat():
    heat = TeamHeatFactory()
    a, b, c = (TeamFactory(heat=heat, name=n) for n in ("Klöver", "Ruter", "Hjärter"))
    for rnd, (h, w, ih, ia) in enumerate([(a, b, 31, 12), (b, c, 20, 20), (c, a, 5, 44)], 1):
        Match.objects.create(
            competition=heat.competition,
            heat=heat,
            stage="kval",
            round=rnd,
            home=h,
            away=w,
            boards=16,
            status="played",
            imps_home=ih,
            imps_away=ia,
        )
    return heat


@requires_broker
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_recompute_runs_in_a_real_worker(celery_worker_queue):
    assert app.conf.task_always_eager is False
    heat = played_heat()
    result = recompute_task.apply_async(args=[heat.competition_id], queue=celery_worker_queue)
    result.get(timeout=90)
    snap = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
    assert [r["name"] for r in snap.data] == ["Klöver", "Ruter", "Hjärter"]
    assert RecomputeStatus.objects.get(competition_id=heat.competition_id).runs == 1


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_two_recomputes_at_once_end_consistent():
    heat = played_heat()
    errors = []

    def run():
        try:
            recompute_team_competition(heat.competition_id)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert StandingSnapshot.objects.filter(heat=heat).count() == 1
    status = RecomputeStatus.objects.get(competition_id=heat.competition_id)
    assert status.runs == 2
    assert [r["name"] for r in StandingSnapshot.objects.get(heat=heat).data] == [
        "Klöver",
        "Ruter",
        "Hjärter",
    ]


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_two_uploads_at_once_end_consistent():
    """Two heat responsibles upload at the same moment: both files are accepted, each
    recompute sees a consistent state, and the end state has both heats' results."""
    from pathlib import Path

    from results.importers import parse_upload
    from results.services.uploads import upload_team_results
    from teams.models import RosterEntry, Team, TeamCompetition
    from tests.factories import TeamCompetitionFactory, UserFactory, member

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "results"
    tk = UserFactory(username="tk-concurrent", is_superuser=True, is_staff=True)
    competition = TeamCompetitionFactory()
    uploads = []
    for name in ("teams_usebio.xml", "teams.csv"):
        raw = (fixtures / name).read_bytes()
        event = parse_upload(raw, name, "teams")
        heat = TeamHeatFactory(competition=competition, boards_per_match=24)
        teams = {}
        for t in event.teams:
            players = [member(season=competition.season, mid=p.mid) for p in t.players]
            team = Team.objects.create(
                competition=competition,
                heat=heat,
                number=int(t.id),
                name=f"{t.name} ({name})",
                captain=players[0],
                address="Gatan 1",
                phone="018-10",
                email="k@example.se",
            )
            RosterEntry.objects.bulk_create(RosterEntry(team=team, player=p) for p in players)
            teams[t.id] = team
        for m in event.matches:
            Match.objects.create(
                competition=competition,
                heat=heat,
                stage="kval",
                round=m.round,
                home=teams[m.home],
                away=teams[m.away],
                boards=24,
            )
        uploads.append((heat, raw, name))

    errors = []

    def run(heat, raw, name):
        try:
            upload_team_results(tk, heat=heat, data=raw, filename=name)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=u) for u in uploads]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    for heat, _, _ in uploads:
        assert not Match.objects.filter(heat=heat, status="scheduled").exists()
        snap = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
        assert snap.provisional is False and len(snap.data) == 4
    status = RecomputeStatus.objects.get(competition=competition)
    assert status.runs == 2 and not status.pending
    assert TeamCompetition.objects.filter(pk=competition.pk).exists()

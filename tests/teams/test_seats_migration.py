"""The migration that drops ``Team.in_final``/``final_number`` (issue 20) keeps what only they
said on seat rows: a held seat without a number takes its team's number, a team marked for the
final without a held seat gets a provisional seat of its own (R-TEAM-ADV-1)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from teams.models import TeamFinalSeat
from tests.factories import TeamFactory, TeamHeatFactory

BEFORE = [("teams", "0004_seat_basics_walkover_score")]
AFTER = [("teams", "0005_seats_team_final_from_seat_rows")]


def _apps_at(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_flags_become_seat_rows_before_they_go():
    heat = TeamHeatFactory()
    seated = TeamFactory(heat=heat, name="Med plats")
    TeamFinalSeat.objects.create(
        competition=heat.competition, team=seated, key=str(seated.pk), source="allocation"
    )
    by_hand = TeamFactory(heat=heat, name="Bara markerat")
    TeamFactory(heat=heat, name="Utanför")

    old = _apps_at(BEFORE)  # the flags are back, as the teams had them before issue 20
    old.get_model("teams", "Team").objects.filter(pk=seated.pk).update(
        in_final=True, final_number=4
    )
    old.get_model("teams", "Team").objects.filter(pk=by_hand.pk).update(
        in_final=True, final_number=2
    )

    new = _apps_at(AFTER)
    rows = new.get_model("teams", "TeamFinalSeat").objects.order_by("id")
    assert [(s.team.name, s.number, s.status, s.source, s.key) for s in rows] == [
        ("Med plats", 4, "provisional", "allocation", str(seated.pk)),
        ("Bara markerat", 2, "provisional", "allocation", str(by_hand.pk)),
    ]
    assert "in_final" not in {f.name for f in new.get_model("teams", "Team")._meta.fields}
    _apps_at(_leaves())  # back to the latest state for the other tests


def _leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()

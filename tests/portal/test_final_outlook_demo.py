"""The demo at DEMO_DATE=2017-03-05 (issue 21): the final after round 7 of 9, as
``DEMO_DATE=2017-03-05 make demo`` shows it. Round 8 is the one round "pågår", /lag/ says what
each team needs before the last two rounds, and "preliminär" stands only where a missing
line-up can change an outcome. The season is loaded once for the module, as the command runs
it (outside a test transaction, as tests/results/test_demo_results.py does); the module's
teardown flushes the database again."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings

from results.models import StandingSnapshot
from teams.models import TeamCompetition
from tests.portal.test_lag_pages import _text

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    from ubf.celery import app

    old_eager = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    with (
        django_db_blocker.unblock(),
        override_settings(
            MEDIA_ROOT=str(tmp_path_factory.mktemp("demo-media")),
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
            UBF_DEMO_DATE="2017-03-05",
        ),
    ):
        call_command("load_demo", stdout=StringIO())
        try:
            yield
        finally:
            call_command("flush", interactive=False, verbosity=0)
            app.conf.CELERY_TASK_ALWAYS_EAGER = old_eager


@pytest.fixture
def demo_client(demo, client, settings):
    settings.UBF_DEMO_DATE = "2017-03-05"
    cache.clear()
    return client


def test_demo_final_round_8_in_play_and_what_each_team_needs(demo_client):
    html = demo_client.get("/lag/final/").content.decode()
    assert "Efter rond 7." in _text(html)
    assert html.count(">pågår<") == 1
    assert re.search(r'id="rond-8">\s*<h4[^>]*>Rond 8.*?pågår', html, re.S)
    assert "inför de två sista ronderna (från rond 8)" in html
    finalists = StandingSnapshot.objects.get(scope="team_final").data
    assert html.count('class="mb-2 needs-team"') == len(finalists) == 10


def test_demo_final_preliminary_only_where_a_line_up_can_change_the_dm_order(demo_client):
    """R-TEAM-4: the demo records no line-ups. Only a team with a roster player outside UBF
    can have its DM status changed by one; the note names that player and counts the final's
    rounds (1–7) apart from the qualifier's matches. No bonus badge while no team's DM
    top-three place is settled (R-TEAM-MP-3)."""
    html = demo_client.get("/lag/final/").content.decode()
    rows = StandingSnapshot.objects.get(scope="team_final").data
    outside = [r for r in rows if r["lineup_outside"]]
    notes = re.findall(r'<div class="explain lineup-missing">(.*?)</div>', html, re.S)
    assert len(notes) == len(outside) >= 1
    for row, note in zip(outside, notes, strict=True):
        assert "preliminär – laguppställning saknas för rond 1, 2, 3, 4, 5, 6, 7" in note
        assert row["lineup_outside"][0] in note
        assert "representerar en klubb utanför UBF" in note
    assert "spelade matcher" not in _text(html)
    assert "bonus och halvlekar per spelare" not in html
    competition = TeamCompetition.objects.get(season__name="2016-2017")
    all_ubf = [r for r in rows if not r["lineup_outside"]]
    assert all(r["dm_eligible"] for r in all_ubf)
    assert competition.sm_semifinal_places == 3

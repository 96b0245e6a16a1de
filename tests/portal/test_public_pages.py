"""/par/: the public DM Par page with heat standings and final places."""

from decimal import Decimal

import pytest

from pairs.models import PairEntry
from results.models import PairResult
from results.services.recompute import recompute_pair_competition
from tests.factories import PairCompetitionFactory, PairHeatFactory, accepted_upload, member

pytestmark = pytest.mark.django_db


def test_par_page_shows_heats_standings_and_final_places(client):
    comp = PairCompetitionFactory()
    heat = PairHeatFactory(competition=comp, name="Tierps kval")
    upload = accepted_upload(comp, heat)
    for k in range(1, 9):
        e = PairEntry.objects.create(
            heat=heat,
            player1=member(season=comp.season, first_name="Åsa"),
            player2=member(season=comp.season),
            pair_number=str(k),
        )
        PairResult.objects.create(
            upload=upload,
            heat=heat,
            entry=e,
            total=10,
            percentage=Decimal(60 - k),
            boards_played=27,
        )
    recompute_pair_competition(comp.id)
    html = client.get("/par/").content.decode()
    assert "Tierps kval" in html
    assert "Finalplatser" in html
    assert "Finalen spelas med 8 par" in html  # R-ALLOC-1: fewer pairs than seats: all go on
    assert "59,00" in html  # a Swedish page writes a decimal comma


def test_par_page_query_count_is_constant(client, django_assert_max_num_queries):
    comp = PairCompetitionFactory()
    for _ in range(5):
        PairHeatFactory(competition=comp)
    with django_assert_max_num_queries(12):
        assert client.get("/par/").status_code == 200


def test_r_pair_sys_1_par_page_shows_system_category_and_alert_rules(client):
    # R-PAIR-SYS-1: category C in every DM pairs stage; double and redouble never alerted.
    PairCompetitionFactory()
    html = client.get("/par/").content.decode()
    assert "C-system." in html and "Dubbelt och redubbelt alerteras aldrig" in html
    english = client.get("/par/?lang=en").content.decode()
    assert "About DM Pairs" in english and "C system." in english
    assert "Double and redouble are never alerted" in english

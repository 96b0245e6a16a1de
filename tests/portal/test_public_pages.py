"""/par/: the public DM Par overview (each heat a row: pairs, final seats, status, linked to
its page) and /par/<id>/, one competition with its final places."""

from decimal import Decimal

import pytest

from pairs.models import PairEntry
from results.models import PairResult
from results.services.recompute import recompute_pair_competition
from tests.factories import PairCompetitionFactory, PairHeatFactory, accepted_upload, member

pytestmark = pytest.mark.django_db


def test_par_page_shows_heats_and_the_competition_page_the_final_places(client):
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
    row = html.split(f'id="heat-{heat.id}"')[1].split("</tr>")[0]
    assert f'<a href="/par/kval/{heat.id}/">Tierps kval</a>' in row
    # 8 pairs entered, and all 8 go on (R-ALLOC-1: fewer pairs than seats)
    cells = [c.split(">")[-1] for c in row.split("</td>")[1:3]]
    assert cells == ["8", "8"]
    assert "Resultat klara" in row
    assert "Finalen spelas med 8 par" in html
    assert "59,00" not in html  # the standings are on the heat's page, not inlined
    assert "59,00" in client.get(f"/par/kval/{heat.id}/").content.decode()  # a decimal comma
    competition = client.get(f"/par/{comp.id}/").content.decode()
    assert (
        "Finalplatser" in competition
        and "Finalen spelas med 8 par (8 kvalande par)." in competition
    )
    assert f'<a href="/par/kval/{heat.id}/">Tierps kval</a>' in competition


def test_competition_page_is_404_for_an_unknown_competition(client):
    assert client.get("/par/999999/").status_code == 404


def _heat_with_results(comp, pairs: int):
    heat = PairHeatFactory(competition=comp)
    upload = accepted_upload(comp, heat, name=f"{heat.pk}.pbn")
    for k in range(pairs):
        e = PairEntry.objects.create(
            heat=heat,
            player1=member(season=comp.season),
            player2=member(season=comp.season),
            pair_number=str(k + 1),
        )
        PairResult.objects.create(
            upload=upload,
            heat=heat,
            entry=e,
            total=10,
            percentage=Decimal(60 - k),
            boards_played=27,
        )
    return heat


def _queries(client, url) -> int:
    """The queries of rendering the page (the public pages' cache emptied first: a cached
    page takes none)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_par_pages_queries_do_not_grow_with_heats_and_pairs(client):
    comp = PairCompetitionFactory()
    first = _heat_with_results(comp, 4)
    recompute_pair_competition(comp.id)
    client.get("/par/")  # warm up (the session of the first request, the clock)
    few = {"par": _queries(client, "/par/"), "competition": _queries(client, f"/par/{comp.id}/")}
    # six times the heats, three times the pairs in each, a second competition
    for _ in range(5):
        _heat_with_results(comp, 12)
    other = PairCompetitionFactory(season=comp.season, discipline="mixed")
    _heat_with_results(other, 6)
    recompute_pair_competition(comp.id)
    recompute_pair_competition(other.id)
    many = {"par": _queries(client, "/par/"), "competition": _queries(client, f"/par/{comp.id}/")}
    html = client.get("/par/").content.decode()
    assert html.count('href="/par/kval/') == 7 and f'href="/par/kval/{first.id}/"' in html
    assert many == few
    assert max(many.values()) <= 10, many


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

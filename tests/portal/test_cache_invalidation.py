"""A commit makes stale only the pages that show what it changed (issue 21,
``clubs.public_cache``, ``portal.caching``): an upload to a pairs heat leaves the DM Lag pages
cached, a round of the DM Lag final pushed through the API leaves the DM Par pages cached, and
every page that shows what changed is rendered again, with a new ETag, after an upload, a
recompute, a TK decision, the season's configuration and the demo clock.

The world: one season with the DM Lag final of tests/portal/test_lag_pages.py after round 2
(A 13.75 + 15.00 = 28.75 VP, round 3 to come: A–D 35–15, 15.00–5.00 over 16 boards, R-VP-*)
and a DM Par Open heat whose pairs are those of the Howell fixture file (10 pairs, not yet
uploaded). "Cached" below is what a visitor sees of it: the same ETag, ``X-Cache: hit`` and
not one SQL query."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from api.services import create_token
from clubs import public_cache
from clubs.models import Decision, DemoClock, Heat, Membership
from clubs.services.season import configure_season
from pairs.models import PairEntry
from portal import caching
from results.importers import parse_upload
from results.services.recompute import recompute_competition
from results.services.uploads import upload_pair_heat
from teams.models import Lineup, Match
from teams.services.decisions.sanctions import impose_penalty
from tests.api.conftest import with_token
from tests.factories import PairHeatFactory, TeamHeatFactory, member
from tests.portal.test_lag_pages import ROUNDS, _final, _text
from tests.portal.test_live_standings import _unplay_last_round
from tests.results.test_uploads import data

pytestmark = pytest.mark.django_db

HOWELL = "pairs_howell_usebio.xml"
ROUND_3 = (
    b"round;home;away;imps_home;imps_away;vp_home;vp_away;boards\n"
    b"3;1;4;35;15;15,00;5,00;16\n"
    b"3;2;3;40;26;13,75;6,25;16\n"
)


@pytest.fixture
def world(settings):
    settings.UBF_CLOCK_OVERRIDE = "2017-03-05T15:30:00+01:00"
    heat = TeamHeatFactory()
    teams, _ = _final(heat, "ABCD", ROUNDS)
    _unplay_last_round(heat.competition_id)
    season = heat.competition.season
    pair_heat = PairHeatFactory(competition__season=season, heat_type="silver")
    for pair in parse_upload(data(HOWELL), HOWELL, "pairs").pairs:
        players = [member(season=season, mid=p.mid) for p in pair.players]
        PairEntry.objects.create(
            heat=pair_heat, player1=players[0], player2=players[1], pair_number=pair.number
        )
    recompute_competition(pair_heat.competition_id)
    return heat.competition, teams, pair_heat


def lag_pages(world) -> list[str]:
    competition, teams, _ = world
    return ["/lag/", "/lag/final/", f"/lag/lag/{teams['A'].pk}/"]


def par_pages(world) -> list[str]:
    _, _, heat = world
    c = heat.competition_id
    return ["/par/", f"/par/{c}/", f"/par/kval/{heat.pk}/", f"/par/final/{c}/"]


LISTS = ["/", "/kalender/"]


def visit(client, paths) -> dict[str, tuple]:
    """Each page as a visitor gets it: (ETag, X-Cache, queries, text)."""
    seen = {}
    for path in paths:
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(path)
        assert response.status_code == 200, path
        seen[path] = (
            response["ETag"],
            response["X-Cache"],
            len(ctx.captured_queries),
            _text(response.content.decode()),
        )
    return seen


def assert_cached(before, after) -> None:
    for path, (etag, how, queries, _) in after.items():
        assert (how, queries, etag) == ("hit", 0, before[path][0]), path


def assert_new(before, after) -> None:
    for path, (etag, how, _queries, _) in after.items():
        assert how == "miss" and etag != before[path][0], path


def test_an_upload_to_a_pairs_heat_leaves_the_dm_lag_pages_cached(
    client, world, tk, django_capture_on_commit_callbacks
):
    _competition, _teams, heat = world
    pages = lag_pages(world) + par_pages(world) + LISTS
    before = visit(client, pages)
    assert "Inga resultat" in before[f"/par/kval/{heat.pk}/"][3]
    with django_capture_on_commit_callbacks(execute=True):  # the recompute, as after a commit
        upload_pair_heat(tk, heat, data=data(HOWELL), filename=HOWELL)
    after = visit(client, pages)
    assert_cached(before, {p: after[p] for p in lag_pages(world)})
    assert_new(before, {p: after[p] for p in par_pages(world) + LISTS})
    assert "Inga resultat" not in after[f"/par/kval/{heat.pk}/"][3]


def test_a_final_round_pushed_through_the_api_leaves_the_dm_par_pages_cached(
    client, world, tk, django_capture_on_commit_callbacks
):
    competition, _teams, _heat = world
    _token, key = create_token(tk, owner=tk, name="Ruter", final_of=competition)
    pusher = with_token(APIClient(), key)
    pages = lag_pages(world) + par_pages(world) + LISTS
    before = visit(client, pages)
    assert "Efter rond 2." in before["/lag/final/"][3] and "28,75" in before["/lag/final/"][3]
    with django_capture_on_commit_callbacks(execute=True):
        response = pusher.post(
            f"/api/v1/competitions/{competition.pk}/final-results/",
            {"file": SimpleUploadedFile("rond3.csv", ROUND_3), "round": 3},
            format="multipart",
        )
    assert response.status_code == 201, response.content
    after = visit(client, pages)
    assert_cached(before, {p: after[p] for p in par_pages(world)})
    assert_new(before, {p: after[p] for p in lag_pages(world) + LISTS})
    final = after["/lag/final/"][3]
    assert "Efter rond 3." in final and "43,75" in final  # 28.75 + 15.00


def test_the_recompute_of_one_competition_renders_its_pages_only(client, world):
    competition, _teams, _heat = world
    before = visit(client, lag_pages(world) + par_pages(world))
    # bulk writes send no signal: only the recompute's own bump shows its figures
    Match.objects.filter(competition=competition, round=3).update(
        status="played", imps_home=Decimal(35), imps_away=Decimal(15)
    )
    assert_cached(before, visit(client, lag_pages(world)))
    recompute_competition(competition.pk)
    after = visit(client, lag_pages(world) + par_pages(world))
    assert_new(before, {p: after[p] for p in lag_pages(world)})
    assert_cached(before, {p: after[p] for p in par_pages(world)})


def test_a_tk_decision_in_dm_lag_renders_its_pages_and_leaves_dm_par_cached(
    client, world, tk, decide
):
    _competition, teams, _heat = world
    before = visit(client, lag_pages(world) + par_pages(world))
    match = Match.objects.get(stage="final", round=1, home=teams["A"])
    # R-TEAM-RES-1, R-VP-4: 5 VP off A after conversion, through the real recompute.
    decide(impose_penalty, tk, teams["A"], match, reason="Obetald spelare i rond 1")
    after = visit(client, lag_pages(world) + par_pages(world))
    assert_cached(before, {p: after[p] for p in par_pages(world)})
    assert_new(before, {p: after[p] for p in lag_pages(world)})
    assert "23,75" in after["/lag/final/"][3]  # 28.75 − 5.00


def test_the_seasons_configuration_renders_every_page_of_the_season(client, world, tk, decide):
    pages = lag_pages(world) + par_pages(world) + LISTS
    before = visit(client, pages)
    decide(configure_season, tk, world[0].season, {"wo_winner_vp": Decimal("13.00")}, reason="SBF")
    assert_new(before, visit(client, pages))


def test_the_demo_clock_renders_every_page(client, world, settings):
    settings.UBF_CLOCK_OVERRIDE = None
    settings.UBF_DEMO_DATE = "2017-03-05"
    pages = lag_pages(world) + par_pages(world) + LISTS
    before = visit(client, pages)
    assert all(etag.endswith('-2017-03-05"') for etag, *_ in before.values())
    DemoClock.objects.create(on="2017-03-06")  # TK moves it in the admin
    after = visit(client, pages)
    assert_new(before, after)
    assert all(etag.endswith('-2017-03-06"') for etag, *_ in after.values())


def test_a_season_row_of_no_competition_renders_that_seasons_pages(client, world):
    """Membership and representation belong to a season, not to a competition: every page of
    the season shows them (a player's club, R-GEN-2's paid fee)."""
    _competition, teams, _heat = world
    pages = lag_pages(world) + par_pages(world)
    before = visit(client, pages)
    player = teams["A"].roster.first().player
    Membership.objects.filter(player=player).update(paid_on=None)  # bulk: no signal
    assert_cached(before, visit(client, pages))
    Membership.objects.get(player=player).save()  # a saved row: its season's pages
    assert_new(before, visit(client, pages))


# --- which keys a write bumps (clubs.public_cache.scope_of) -----------------------------------


def test_a_row_is_traced_to_its_competition_through_its_parents(world):
    competition, teams, heat = world
    match = Match.objects.filter(competition=competition).first()
    lineup = Lineup(match=match, team=teams["A"], player=teams["A"].captain, half=1)
    entry = PairEntry.objects.filter(heat=heat).first()
    scope = public_cache.scope_of
    assert scope(lineup).competitions == {competition.pk}  # a line-up → its match
    assert scope(entry).competitions == {heat.competition_id}  # an entry → its heat
    assert scope(teams["A"].roster.first()).competitions == {competition.pk}  # → its team
    assert scope(teams["A"].captain).everything  # a player shows on any page
    assert scope(Heat.objects.get(pk=heat.pk)).competitions == {heat.competition_id}
    season = competition.season
    assert scope(Membership.objects.filter(season=season).first()).seasons == {season.pk}
    assert scope(season).everything


def test_a_decision_is_traced_to_what_it_decided(world, tk):
    competition, teams, _heat = world
    match = Match.objects.get(stage="final", round=1, home=teams["A"])
    penalty = impose_penalty(tk, teams["A"], match, reason="Obetald spelare")
    decision = Decision.objects.get(object_type=penalty._meta.label_lower, object_id=penalty.pk)
    assert public_cache.scope_of(decision).competitions == {competition.pk}
    keys = public_cache.write_keys(public_cache.scope_of(decision))
    season = competition.season_id
    assert keys == {
        public_cache.ANY,
        public_cache.competition_key(competition.pk),
        public_cache.season_all_key(season),  # home and the calendar list everything
    }


def test_a_new_competition_changes_its_seasons_lists_and_own_pages(world):
    competition, _teams, _heat = world
    created = public_cache.scope_of(competition, created=True)
    updated = public_cache.scope_of(competition)
    assert created.seasons == {competition.season_id} and updated.seasons == frozenset()
    assert created.competitions == updated.competitions == {competition.pk}


# --- the hall's pages rendered again where the recompute ran (portal.caching.warm) ------------


def test_after_a_recompute_in_a_worker_the_halls_pages_are_rendered_there(client, world, settings):
    settings.UBF_PAGE_WARM = True
    competition, _teams, _heat = world
    english = Client()
    english.cookies["django_language"] = "en"  # a phone that chose English
    hall = ["/lag/final/", "/lag/"]
    before = {**visit(client, hall), **{"en": visit(english, ["/lag/final/"])["/lag/final/"]}}
    Match.objects.filter(competition=competition, round=3).update(
        status="played", imps_home=Decimal(35), imps_away=Decimal(15)
    )
    recompute_competition(competition.pk)
    caching.warm(competition_id=competition.pk, eager=False)  # as the Celery task's signal
    after = {**visit(client, hall), **{"en": visit(english, ["/lag/final/"])["/lag/final/"]}}
    for path, (etag, how, queries, _) in after.items():
        # rendered by warm(): the phones get the new page as a hit, no render of their own
        assert (how, queries) == ("hit", 0) and etag != before[path][0], path
    assert "Efter rond 3." in after["/lag/final/"][3] and "After round 3." in after["en"][3]


def test_in_process_or_for_dm_par_nothing_is_rendered_ahead(client, world, settings):
    settings.UBF_PAGE_WARM = True
    competition, _teams, heat = world
    before = visit(client, ["/lag/final/"])
    recompute_competition(competition.pk)
    caching.warm(competition_id=competition.pk, eager=True)  # the request waits: no
    caching.warm(competition_id=heat.competition_id, eager=False)  # DM Par: no hall pages
    after = visit(client, ["/lag/final/"])
    assert after["/lag/final/"][1] == "miss" and after["/lag/final/"][0] != before["/lag/final/"][0]


def test_the_hall_pages_are_held_through_the_recompute_and_rendered_by_its_worker(
    client, world, settings
):
    """The worker takes the hall pages' render locks before it recomputes: a phone that comes
    while the recompute is stored gets the previous copy, never a render of its own."""
    settings.UBF_PAGE_WARM = True
    competition, _teams, _heat = world
    before = visit(client, ["/lag/final/"])
    caching.hold(competition_id=competition.pk, eager=False)  # recompute_starting
    Match.objects.filter(competition=competition, round=3).update(
        status="played", imps_home=Decimal(35), imps_away=Decimal(15)
    )
    recompute_competition(competition.pk)
    meanwhile = client.get("/lag/final/")
    assert meanwhile["X-Cache"] == "stale" and meanwhile["ETag"] == before["/lag/final/"][0]
    caching.warm(competition_id=competition.pk, eager=False)  # recompute_finished
    after = visit(client, ["/lag/final/"])["/lag/final/"]
    assert after[1] == "hit" and "Efter rond 3." in after[3]
    plan = caching.lookup("sv", "/lag/final/")
    assert plan.lock()  # released
    plan.unlock()


def _push_round_3(competition, tk):
    _token, key = create_token(tk, owner=tk, name="Ruter", final_of=competition)
    response = with_token(APIClient(), key).post(
        f"/api/v1/competitions/{competition.pk}/final-results/",
        {"file": SimpleUploadedFile("rond3.csv", ROUND_3), "round": 3},
        format="multipart",
    )
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("worker", [True, False], ids=["celery-worker", "in-process"])
def test_a_pushed_round_leaves_the_hall_pages_to_the_recompute_worker(
    client, world, tk, settings, worker
):
    """The round's rows make /lag/final/ stale as they are written, before the recompute
    that changes it again: with a Celery worker, nobody renders it in between (the phones get
    the previous copy, ``caching.reserve``); the worker takes the locks over and renders it
    with the new round (``hold``, ``warm``). In-process nothing is reserved: the next visitor
    renders it, as before."""
    settings.UBF_PAGE_WARM = True
    settings.CELERY_TASK_ALWAYS_EAGER = not worker
    competition, _teams, _heat = world
    from clubs.recompute import recompute_expected
    from results.models import ResultUpload

    uploads_then = []

    def expected(sender=None, competition_id=None, **kwargs):
        uploads_then.append(ResultUpload.objects.filter(competition_id=competition_id).count())

    recompute_expected.connect(expected)
    try:
        before = visit(client, ["/lag/final/", "/lag/"])["/lag/final/"]
        uploads = ResultUpload.objects.filter(competition=competition).count()
        _push_round_3(competition, tk)  # its commit's recompute not sent (no on_commit here)
    finally:
        recompute_expected.disconnect(expected)
    assert uploads_then[0] == uploads  # announced before the file's rows were written
    meanwhile = client.get("/lag/final/")
    if not worker:
        assert meanwhile["X-Cache"] == "miss" and meanwhile["ETag"] != before[0]
        return
    assert meanwhile["X-Cache"] == "stale" and meanwhile["ETag"] == before[0]
    caching.hold(competition_id=competition.pk, eager=False)  # recompute_starting
    assert len(caching._held[competition.pk]) == 4  # both pages, both languages
    recompute_competition(competition.pk)
    caching.warm(competition_id=competition.pk, eager=False)  # recompute_finished
    after = visit(client, ["/lag/final/", "/lag/"])
    assert after["/lag/final/"][1] == after["/lag/"][1] == "hit"
    assert "Efter rond 3." in after["/lag/final/"][3]


@pytest.mark.django_db(transaction=True)
def test_after_the_halls_own_page_the_others_are_rendered_at_a_lower_cpu_priority(
    client, world, settings, monkeypatch
):
    """``UBF_PAGE_WARM_NICE`` (production: 5): /lag/final/ in Swedish is rendered in the
    worker's own thread; the English one and /lag/ after it, in a thread whose niceness is
    raised, so that it gives way to the web workers the phones keep busy."""
    import os
    import threading

    settings.UBF_PAGE_WARM = True
    settings.UBF_PAGE_WARM_NICE = 5
    competition, _teams, _heat = world
    english = Client()
    english.cookies["django_language"] = "en"
    before = {**visit(client, ["/lag/final/", "/lag/"]), "en": visit(english, ["/lag/final/"])}
    rendered = []
    render = caching._warm_page

    def recorded(path, lang, token):
        nice = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        rendered.append((path, lang, nice))
        render(path, lang, token)

    monkeypatch.setattr(caching, "_warm_page", recorded)
    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    Match.objects.filter(competition=competition, round=3).update(
        status="played", imps_home=Decimal(35), imps_away=Decimal(15)
    )
    caching.hold(competition_id=competition.pk, eager=False)
    recompute_competition(competition.pk)
    caching.warm(competition_id=competition.pk, eager=False)
    assert rendered[0] == ("/lag/final/", "sv", base)  # at once, in this thread
    assert "Efter rond 3." in visit(client, ["/lag/final/"])["/lag/final/"][3]
    caching.warming_thread.join(30)
    lower = min(base + 5, 19)
    assert rendered[1:] == [
        ("/lag/final/", "en", lower),
        ("/lag/", "sv", lower),
        ("/lag/", "en", lower),
    ]
    after = {**visit(client, ["/lag/final/", "/lag/"]), "en": visit(english, ["/lag/final/"])}
    assert after["/lag/"][1] == "hit" and after["/lag/"][0] != before["/lag/"][0]
    assert (
        after["en"]["/lag/final/"][1] == "hit" and "After round 3." in after["en"]["/lag/final/"][3]
    )

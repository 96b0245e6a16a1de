"""The API's public reads are served from the pages' cache (issue 21, ``api.views.CachedReads``,
``portal.caching.public_read``): the same versions, the same per-worker copies and gzip, an
ETag answered 304, ``Cache-Control`` as the pages; only for an anonymous reader of JSON.

Throttling (``api.throttling``, ``UBF_API_RATE_ANON`` 120 a minute per client address) counts
renders only: a cached answer or a 304 is given before the REST framework runs, as cheap as a
static file, so a hall of phones behind one address polling the final is never refused,
while a client that makes the site render (a new query string each time) still is."""

from __future__ import annotations

import gzip

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from results.models import StandingSnapshot
from results.services.recompute import recompute_competition
from tests.api.conftest import with_token
from tests.factories import PairHeatFactory, TeamHeatFactory, UserFactory
from tests.portal.test_lag_pages import ROUNDS, _final

pytestmark = pytest.mark.django_db


@pytest.fixture
def final():
    heat = TeamHeatFactory()
    teams, _ = _final(heat, "ABCD", ROUNDS)
    snapshot = StandingSnapshot.objects.get(competition=heat.competition, scope="team_final")
    return heat.competition, teams, snapshot


def get(client, path, **headers):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, headers=headers)
    return response, len(ctx.captured_queries)


def test_an_anonymous_read_is_served_from_the_cache_and_answered_304(api, final):
    _competition, _teams, snapshot = final
    path = f"/api/v1/standings/{snapshot.pk}/"
    first, rendered = get(api, path)
    second, queries = get(api, path)
    assert rendered > 0 and (second["X-Cache"], queries) == ("hit", 0)
    assert second.json() == first.json() and second.json()["rows"][0]["vp"] == "43.75"
    assert second["Content-Type"] == "application/json"
    assert second["ETag"] == first["ETag"] and second["Cache-Control"] == "public, no-cache"
    assert "Accept" in second["Vary"]  # as the REST framework said (its renderers)
    not_modified, queries = get(api, path, If_None_Match=first["ETag"])
    assert not_modified.status_code == 304 and queries == 0 and not_modified.content == b""


def test_gzip_once_for_a_phone_that_accepts_it(api, final):
    path = "/api/v1/teams/?holds_final_seat=true"
    plain, _ = get(api, path)
    packed, queries = get(api, path, Accept_Encoding="gzip")
    assert queries == 0 and packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content and packed["ETag"].endswith('-gz"')


def test_languages_are_cached_apart_and_a_header_or_a_parameter_is_one_language(api, final):
    competition, *_ = final
    path = f"/api/v1/allocations/?competition={competition.pk}"
    sv, _ = get(api, path)
    en, _ = get(api, path + "&lang=en")
    by_header, queries = get(api, path + "&lang=en", Accept_Language="sv")
    assert sv["ETag"] != en["ETag"] and en.json() != sv.json()
    assert (by_header["X-Cache"], queries) == ("hit", 0)
    header_en, _ = get(api, path, Accept_Language="en")
    assert header_en.json() == en.json()


def test_what_a_reader_sees_of_their_own_is_never_stored(api, final, tk, make_token):
    _competition, teams, _ = final
    path = f"/api/v1/teams/{teams['A'].pk}/"
    public, _ = get(api, path)
    assert public.json()["phone"] is None
    with_token(api, make_token(tk, final_of=teams["A"].competition))
    own, queries = get(api, path)
    assert own.json()["phone"] is not None and queries > 0  # TK sees the contact details
    assert own["Cache-Control"].startswith("private") and "X-Cache" not in own
    api.credentials()
    api.force_login(UserFactory())
    logged_in, queries = get(api, path)
    assert queries > 0 and "X-Cache" not in logged_in
    api.logout()
    browsable, queries = get(api, path, Accept="text/html")
    assert browsable["Content-Type"].startswith("text/html") and queries > 0


def test_a_write_in_another_competition_leaves_a_read_cached(api, final):
    competition, teams, snapshot = final
    reads = [
        f"/api/v1/standings/{snapshot.pk}/",
        f"/api/v1/standings/?competition={competition.pk}",
        f"/api/v1/matches/?team={teams['A'].pk}",
        f"/api/v1/competitions/{competition.pk}/outlook/",
    ]
    other = PairHeatFactory(competition__season=competition.season)  # DM Par, same season
    before = {path: get(api, path)[0]["ETag"] for path in reads}
    other.venue = "Enköping"
    other.save()
    recompute_competition(other.competition_id)
    for path in reads:
        response, queries = get(api, path)
        assert (response["X-Cache"], queries, response["ETag"]) == ("hit", 0, before[path])
    teams["B"].name = "Lag Bee"
    teams["B"].save()
    for path in reads:
        response, _ = get(api, path)
        assert response["X-Cache"] == "miss" and response["ETag"] != before[path], path


def test_a_hall_of_phones_behind_one_address_is_never_refused(api, final, settings):
    """200 phones behind the hall's NAT (one address) each poll the final's standings and
    what each team needs three times within the minute: 1,200 reads from one address, ten
    times the anonymous limit of 120 a minute, all answered."""
    competition, _teams, snapshot = final
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["anon"] == "120/min"
    polled = [
        f"/api/v1/standings/{snapshot.pk}/",
        f"/api/v1/competitions/{competition.pk}/outlook/",
    ]
    etags = {path: get(api, path)[0]["ETag"] for path in polled}
    answers = []
    for phone in range(200):
        for _poll in range(3):
            for path in polled:
                tag = {"If-None-Match": etags[path]} if phone % 2 else {}
                answers.append(api.get(path, headers=tag).status_code)
    assert len(answers) == 1200 and set(answers) == {200, 304}


def test_renders_are_throttled(api, final, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "5/min", "user": "5/min", "token": "5/min"},
    }
    # a new query string each time makes the site render: the sixth render is refused
    statuses = [api.get(f"/api/v1/seasons/?page_size={n}").status_code for n in range(1, 7)]
    assert statuses == [200] * 5 + [429]
    # the reads already rendered are still answered from the cache
    assert api.get("/api/v1/seasons/?page_size=1").status_code == 200

"""The API's rows of the permission matrix (issue 14): every endpoint × role, answered as on
the pages. Reads are public; a write without login is 401; with login the service decides
(the same object-level permissions as the pages). Roles from ``tests.factories.users_by_role``:
``club_official`` is an official of an unrelated club, ``heat_responsible`` the team heat's
responsible and an official of the pair heat's arranging club, ``captain`` the team's captain.

Expected codes for writes, by the rules the services apply:

* a heat's results: TK and whoever manages the heat get past the permission (the file, not
  this heat's pairs, is then refused: 400); others 403;
* a final's results: TK only (403 for the rest; TK's empty file is refused, 400);
* a roster: TK, the captain, the heat's responsible (here: no change asked, refused 400, or
  200 within the window); others 403;
* a line-up: the team's captain, the heat's responsible, TK; others 403;
* a pairs offer: TK, the heat's organiser, the players' clubs; a teams offer: TK only.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import get_resolver
from django.utils import timezone

from clubs.models import FinalSeat, SeatOffer
from pairs.models import PairEntry
from tests.factories import MatchFactory, PairHeatFactory, TeamFactory, member, users_by_role
from tests.results.test_uploads import data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]

ROLES = ["anonymous", "club_official", "heat_responsible", "captain", "tk"]
READS = [
    "/api/v1/",
    "/api/v1/seasons/",
    "/api/v1/seasons/{season}/",
    "/api/v1/competitions/",
    "/api/v1/competitions/{team_competition}/",
    "/api/v1/competitions/{team_competition}/outlook/",
    "/api/v1/heats/",
    "/api/v1/heats/{team_heat}/",
    "/api/v1/teams/",
    "/api/v1/teams/{team}/",
    "/api/v1/matches/",
    "/api/v1/matches/{match}/",
    "/api/v1/standings/",
    "/api/v1/allocations/",
    "/api/v1/final-seats/pairs/",
    "/api/v1/final-seats/pairs/{pair_seat}/",
    "/api/v1/final-seats/teams/",
    "/api/v1/final-seats/teams/{team_seat}/",
    "/api/v1/calendar/",
]
#: (path, body kind) → expected status per role, in the order of ROLES.
WRITES = {
    ("/api/v1/heats/{pair_heat}/results/", "pairs_file"): [401, 403, 400, 403, 400],
    ("/api/v1/competitions/{pair_competition}/final-results/", "empty_file"): [
        401,
        403,
        403,
        403,
        400,
    ],
    ("/api/v1/teams/", "team"): [401, 403, 400, 403, 400],
    ("/api/v1/teams/{team}/roster/", "roster"): [401, 403, 400, 400, 400],
    ("/api/v1/matches/{match}/lineups/", "lineup"): [401, 403, 400, 400, 400],
    ("/api/v1/pair-entries/", "pair"): [401, 403, 400, 403, 400],
    ("/api/v1/offers/pairs/{pair_offer}/answer/", "answer"): [401, 403, 200, 403, 200],
    ("/api/v1/offers/teams/{team_offer}/answer/", "answer"): [401, 403, 403, 403, 200],
}


@pytest.fixture
def world():
    team = TeamFactory(players=4)
    rival = TeamFactory(heat=team.heat)
    match = MatchFactory(home=team, away=rival)
    pair_heat = PairHeatFactory(competition__season=team.competition.season)
    users = users_by_role(team=team, pair_heat=pair_heat)
    season = team.competition.season
    entries = [
        PairEntry.objects.create(
            heat=pair_heat, player1=member(season), player2=member(season), pair_number=str(n)
        )
        for n in (1, 2)
    ]
    when = timezone.make_aware(datetime(2017, 3, 1, 12))
    pair_seat = FinalSeat.objects.create(
        competition=pair_heat.competition, holder=entries[0], source="allocation", status="vacated"
    )
    pair_offer = SeatOffer.objects.create(seat=pair_seat, entry=entries[1], offered_at=when)
    team_seat = FinalSeat.objects.create(
        competition=team.competition, holder=rival, source="allocation", status="vacated"
    )
    team_offer = SeatOffer.objects.create(seat=team_seat, entry=team, offered_at=when)
    ids = {
        "season": season.pk,
        "team_competition": team.competition_id,
        "pair_competition": pair_heat.competition_id,
        "team_heat": team.heat_id,
        "pair_heat": pair_heat.pk,
        "team": team.pk,
        "match": match.pk,
        "pair_seat": pair_seat.pk,
        "team_seat": team_seat.pk,
        "pair_offer": pair_offer.pk,
        "team_offer": team_offer.pk,
    }
    return users, ids


def body(kind, ids):
    if kind == "pairs_file":
        # Not this heat's pairs: the permission is decided first (403), then the file (400).
        name = "pairs_howell_usebio.xml"
        return {"file": SimpleUploadedFile(name, data(name))}, "multipart"
    if kind == "empty_file":
        return {"file": SimpleUploadedFile("final.xml", b"<x/>")}, "multipart"
    if kind == "team":
        return {
            "heat": ids["team_heat"],
            "name": "Nytt lag",
            "captain_mid": "999999",
            "address": "x",
            "phone": "x",
            "email": "x@example.se",
            "player_mids": ["999999"],
        }, "json"
    if kind == "roster":
        return {"add_mids": ["999999"]}, "json"
    if kind == "lineup":
        return {"team": ids["team"], "half1_mids": ["999999"]}, "json"
    if kind == "pair":
        return {"heat": ids["pair_heat"], "mid1": "999998", "mid2": "999999"}, "json"
    return {"answer": "declined"}, "json"


def client_for(api, users, role):
    if role != "anonymous":
        api.force_login(users[role])
    return api


@pytest.mark.parametrize("role", ROLES)
def test_every_read_is_public(api, world, role):
    users, ids = world
    client = client_for(api, users, role)
    for path in READS:
        response = client.get(path.format(**ids))
        assert response.status_code == 200, (path, role, response.content[:200])


@pytest.mark.parametrize("role", ROLES)
def test_every_write_as_the_pages_allow(api, world, role, settings):
    settings.UBF_CLOCK_OVERRIDE = "2017-03-02T10:00:00+01:00"
    users, ids = world
    client = client_for(api, users, role)
    got = {}
    for (path, kind), expected in WRITES.items():
        payload, fmt = body(kind, ids)
        response = client.post(path.format(**ids), payload, format=fmt)
        got[path] = (response.status_code, expected[ROLES.index(role)])
    assert {p: g for p, (g, _e) in got.items()} == {p: e for p, (_g, e) in got.items()}, got


def test_every_api_url_has_a_row():
    """A new endpoint needs its row here (and the i18n matrix reads the URL configuration)."""
    api_patterns = [
        str(p.pattern) for p in get_resolver().url_patterns if str(p.pattern) == "api/v1/"
    ]
    assert api_patterns
    (api_include,) = [p for p in get_resolver().url_patterns if str(p.pattern) == "api/v1/"]
    names = {p.name for p in api_include.url_patterns if getattr(p, "name", None)}
    covered = {
        "api-root",
        "season-list",
        "season-detail",
        "competition-list",
        "competition-detail",
        "competition-final-results",
        "competition-outlook",
        "heat-list",
        "heat-detail",
        "heat-results",
        "team-list",
        "team-detail",
        "team-roster",
        "match-list",
        "match-detail",
        "match-lineups",
        "standing-list",
        "standing-detail",
        "allocation-list",
        "allocation-detail",
        "pair-seat-list",
        "pair-seat-detail",
        "team-seat-list",
        "team-seat-detail",
        "pair-entry-list",
        "pair-offer-answer",
        "team-offer-answer",
        "calendar",
    }
    assert names == covered

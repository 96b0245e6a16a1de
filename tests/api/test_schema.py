"""schemathesis against the API's own OpenAPI schema (issues 14 and 25), in-process through the
WSGI app (no network), with the throttles out of its way (they would answer 429 to most of it).

* Fuzzing: generated requests to every operation, as a visitor and with TK's token, never get
  a server error, a response the schema does not describe (status, content type, body), and
  for the reads the schema's constraints are the API's: data the schema allows is accepted,
  data it forbids is refused (issue 25's 14 disagreements: ``page=0``, ``page=``, a doubled
  ``page_size``, ``lang=AAA``, an unknown ``held``, ``/api/schema/?format=`` ...).
* Reach: every operation of the schema answers 2xx to at least one request, checked the same
  way; generated data rarely names an existing object or a valid result file, so each
  operation also gets one request made from the world below (a new operation without one
  fails the test).

Few examples per operation, so the whole module stays well under a minute."""

from __future__ import annotations

from datetime import datetime

import pytest
import schemathesis
from django.utils import timezone
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from api.services import create_token
from clubs import clock
from clubs.models import FinalSeat, SeatOffer
from pairs.models import PairEntry
from results.models import AllocationRun, StandingSnapshot
from teams.models import Team
from tests.api.test_final_push import ROUND_3
from tests.api.test_reads import world  # noqa: F401  (the fixture's data to read)
from tests.factories import (
    ClubOfficialFactory,
    MatchFactory,
    TeamHeatFactory,
    UserFactory,
    member,
)
from tests.results.test_uploads import data, pair_heat_for

CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    content_type_conformance,
    status_code_conformance,
]
#: The reads (anonymous GETs, issue 25): the schema's constraints are the API's.
READ_CHECKS = [*CHECKS, negative_data_rejection, positive_data_acceptance]
HOWELL = "pairs_howell_usebio.xml"


@pytest.fixture
def api_schema(db, tk, settings):
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from ubf.wsgi import application

    # As Django's test client does: a request must not close the test's connection, which
    # holds the test's transaction (PostgreSQL would close it: autocommit differs).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)

    # Throttling is tested on its own (tests/api, tests/faults); here it would answer 429.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "token": None},
    }
    config = SchemathesisConfig.from_dict(
        {"phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}}}
    )
    loaded = schemathesis.openapi.from_wsgi("/api/schema/", application, config=config)
    yield loaded
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def tk_key(tk, world):  # noqa: F811
    _token, key = create_token(tk, owner=tk, name="schemathesis", final_of=world[0].competition)
    return key


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_and_no_schema_violation(case, api_schema, tk_key):
    checks = READ_CHECKS if case.method == "GET" else CHECKS
    case.call_and_validate(checks=checks)
    case.call_and_validate(headers={"Authorization": f"Token {tk_key}"}, checks=CHECKS)


# --- reach: every operation answers 2xx -------------------------------------------------------


@pytest.fixture
def reach(world, tk):  # noqa: F811
    """What each operation needs to answer 2xx, around the read tests' world (a DM Lag final
    of four teams, a pairs heat): a pairs heat with the Howell file's entries, a team heat for
    a new team, final seats with an offer each, and the tokens."""
    final_heat, teams, matches, pair_heat = world
    season = final_heat.competition.season
    howell_heat, _ = pair_heat_for(HOWELL)
    entries = list(PairEntry.objects.filter(heat=howell_heat).order_by("pk")[:2])
    when = timezone.make_aware(datetime(2017, 3, 1, 12))
    pair_seat = FinalSeat.objects.create(
        competition=howell_heat.competition,
        holder=entries[0],
        source="allocation",
        status="vacated",
    )
    pair_offer = SeatOffer.objects.create(seat=pair_seat, entry=entries[1], offered_at=when)
    team_a, team_b = teams["A"], teams["B"]
    team_seat = FinalSeat.objects.create(
        competition=final_heat.competition, holder=team_b, source="allocation", status="vacated"
    )
    team_offer = SeatOffer.objects.create(seat=team_seat, entry=team_a, offered_at=when)
    # a team heat with a responsible user, and a team of it with a match, for the entries
    responsible = UserFactory()
    entry_heat = TeamHeatFactory(competition=final_heat.competition, responsible_user=responsible)
    club = pair_heat.clubs.first()
    players = [member(season, club=club).mid for _ in range(10)]
    official = ClubOfficialFactory(club=club).user
    home = Team.objects.create(
        competition=entry_heat.competition,
        heat=entry_heat,
        number=1,
        name="Hemma",
        captain=member(season),
        address="x",
        phone="x",
        email="h@example.se",
    )
    away = Team.objects.create(
        competition=entry_heat.competition,
        heat=entry_heat,
        number=2,
        name="Borta",
        captain=member(season),
        address="x",
        phone="x",
        email="b@example.se",
    )
    match = MatchFactory(home=home, away=away, competition=entry_heat.competition, heat=entry_heat)

    def key(owner, **scope):
        return create_token(tk, owner=owner, name="reach", **scope)[1]

    return {
        "final": final_heat.competition,
        "howell_heat": howell_heat,
        "pair_heat": pair_heat,
        "entry_heat": entry_heat,
        "home": home,
        "match": match,
        "players": players,
        "pair_seat": pair_seat,
        "team_seat": team_seat,
        "pair_offer": pair_offer,
        "team_offer": team_offer,
        "season": season,
        "team": team_a,
        "final_match": next(iter(matches.values())),
        "keys": {
            "tk_final": key(tk, final_of=final_heat.competition),
            "tk_final_teams": key(tk, heat=final_heat),
            "tk_howell": key(tk, heat=howell_heat),
            "tk_pairs": key(tk, heat=pair_heat),
            "responsible": key(responsible, heat=entry_heat),
            "official": key(official, club=club),
            "tk_club": key(tk, club=club),
        },
    }


def known_requests(r) -> list[tuple[str, dict, str | None]]:
    """(operation, the request's parts, the clock) for each operation; writes first, so the
    reads after them find the upload's standings. ``id`` may be a callable (looked up late)."""
    auth = {k: {"Authorization": f"Token {v}"} for k, v in r["keys"].items()}
    players = r["players"]
    return [
        (
            "POST /api/v1/heats/{id}/results/",
            {
                "path_parameters": {"id": r["howell_heat"].pk},
                "body": {"file": data(HOWELL)},
                "media_type": "multipart/form-data",
                "headers": auth["tk_howell"],
            },
            None,
        ),
        (
            "POST /api/v1/competitions/{id}/final-results/",
            {
                "path_parameters": {"id": r["final"].pk},
                "body": {"file": ROUND_3, "round": 3},
                "media_type": "multipart/form-data",
                "headers": auth["tk_final"],
            },
            "2017-03-05 15:30",
        ),
        (
            "POST /api/v1/pair-entries/",
            {
                "body": {"heat": r["pair_heat"].pk, "mid1": players[0], "mid2": players[1]},
                "media_type": "application/json",
                "headers": auth["official"],
            },
            "2017-01-10 10:00",
        ),
        (
            "POST /api/v1/teams/",
            {
                "body": {
                    "heat": r["entry_heat"].pk,
                    "name": "Uppsala 1",
                    "captain_mid": players[2],
                    "address": "Storgatan 1, 753 20 Uppsala",
                    "phone": "070-123 45 67",
                    "email": "kapten@example.se",
                    "player_mids": players[2:6],
                },
                "media_type": "application/json",
                "headers": auth["responsible"],
            },
            "2016-10-20 10:00",
        ),
        (
            "POST /api/v1/teams/{id}/roster/",
            {
                "path_parameters": {"id": r["home"].pk},
                "body": {"add_mids": players[6:10]},
                "media_type": "application/json",
                "headers": auth["responsible"],
            },
            "2016-10-20 10:00",
        ),
        (
            "POST /api/v1/matches/{id}/lineups/",
            {
                "path_parameters": {"id": r["match"].pk},
                "body": {
                    "team": r["home"].pk,
                    "half1_mids": players[6:10],
                    "half2_mids": players[6:10],
                },
                "media_type": "application/json",
                "headers": auth["responsible"],
            },
            "2016-11-05 18:00",
        ),
        (
            "POST /api/v1/offers/pairs/{id}/answer/",
            {
                "path_parameters": {"id": r["pair_offer"].pk},
                "body": {"answer": "declined"},
                "media_type": "application/json",
                "headers": auth["tk_howell"],
            },
            "2017-03-02 10:00",
        ),
        (
            "POST /api/v1/offers/teams/{id}/answer/",
            {
                "path_parameters": {"id": r["team_offer"].pk},
                "body": {"answer": "declined"},
                "media_type": "application/json",
                "headers": auth["tk_final_teams"],
            },
            "2017-03-02 10:00",
        ),
        ("GET /api/schema/", {}, None),
        ("GET /api/v1/seasons/", {"query": {"is_current": "true", "page_size": 1}}, None),
        ("GET /api/v1/seasons/{id}/", {"path_parameters": {"id": r["season"].pk}}, None),
        ("GET /api/v1/competitions/", {"query": {"kind": "teams"}}, None),
        ("GET /api/v1/competitions/{id}/", {"path_parameters": {"id": r["final"].pk}}, None),
        (
            "GET /api/v1/competitions/{id}/outlook/",
            {"path_parameters": {"id": r["final"].pk}},
            None,
        ),
        ("GET /api/v1/heats/", {"query": {"kind": "pairs"}}, None),
        ("GET /api/v1/heats/{id}/", {"path_parameters": {"id": r["pair_heat"].pk}}, None),
        ("GET /api/v1/teams/", {"query": {"holds_final_seat": "true"}}, None),
        ("GET /api/v1/teams/{id}/", {"path_parameters": {"id": r["team"].pk}}, None),
        ("GET /api/v1/matches/", {"query": {"stage": "final"}}, None),
        ("GET /api/v1/matches/{id}/", {"path_parameters": {"id": r["final_match"].pk}}, None),
        ("GET /api/v1/standings/", {"query": {"page": 1}}, None),
        (
            "GET /api/v1/standings/{id}/",
            {"path_parameters": {"id": lambda: StandingSnapshot.objects.first().pk}},
            None,
        ),
        ("GET /api/v1/allocations/", {}, None),
        (
            "GET /api/v1/allocations/{id}/",
            {"path_parameters": {"id": lambda: allocation(r).pk}},
            None,
        ),
        ("GET /api/v1/final-seats/pairs/", {"query": {"held": "false"}}, None),
        (
            "GET /api/v1/final-seats/pairs/{id}/",
            {"path_parameters": {"id": r["pair_seat"].pk}},
            None,
        ),
        ("GET /api/v1/final-seats/teams/", {"query": {"lang": "en"}}, None),
        (
            "GET /api/v1/final-seats/teams/{id}/",
            {"path_parameters": {"id": r["team_seat"].pk}},
            None,
        ),
        ("GET /api/v1/calendar/", {"query": {"season": "2016-2017"}}, None),
    ]


def allocation(r) -> AllocationRun:
    """The Howell heat's competition's allocation (the upload's recompute writes one; else a
    bare one)."""
    found = AllocationRun.objects.first()
    if found is not None:
        return found
    return AllocationRun.objects.create(
        competition=r["howell_heat"].competition, final_size=24, seats=20, qualifying_entries=10
    )


@pytest.mark.django_db
def test_every_operation_answers_2xx(api_schema, reach, django_capture_on_commit_callbacks):
    operations = {op.label: op for op in (r.ok() for r in api_schema.get_all_operations())}
    requests = known_requests(reach)
    # none left out (schemathesis leaves the schema's own operation out of its list)
    assert set(operations) <= {label for label, _, _ in requests}
    answered = {}
    for label, parts, at in requests:
        if label not in operations:
            continue
        parts = {**parts}
        if "path_parameters" in parts:
            parts["path_parameters"] = {
                k: v() if callable(v) else v for k, v in parts["path_parameters"].items()
            }
        case = operations[label].Case(**parts)
        with django_capture_on_commit_callbacks(execute=True):
            if at is None:
                response = case.call_and_validate(checks=CHECKS)
            else:
                with clock.frozen(at):
                    response = case.call_and_validate(checks=CHECKS)
        answered[label] = (response.status_code, response.text[:300])
    refused = {k: v for k, v in answered.items() if not 200 <= v[0] < 300}
    assert refused == {}, "\n".join(f"{k}: {v}" for k, v in refused.items())
    assert set(answered) == set(operations)


# --- issue 25's disagreements, one by one ------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/seasons/?page=0",
        "/api/v1/seasons/?page_size=0",
        "/api/v1/seasons/?page_size=501",
        "/api/v1/seasons/?page=",
        "/api/v1/seasons/?page=last",
        "/api/v1/seasons/?page_size=5&page_size=6",
        "/api/v1/seasons/?lang=AAA",
        "/api/schema/?lang=AAA",
        "/api/v1/final-seats/pairs/?held=maybe",
        "/api/v1/final-seats/teams/?held=",
        "/api/v1/teams/?holds_final_seat=ja",
        "/api/v1/heats/?competition=0",
    ],
)
def test_what_the_schema_forbids_is_refused_as_a_problem(client, url):
    response = client.get(url)
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["errors"]


@pytest.mark.django_db
def test_the_schema_states_the_bounds_and_lists_the_schemas_refusals(client):
    spec = client.get("/api/schema/?format=json").json()
    seasons = {p["name"]: p for p in spec["paths"]["/api/v1/seasons/"]["get"]["parameters"]}
    assert seasons["page"]["schema"] | {} == {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
    assert (
        seasons["page_size"]["schema"]["minimum"],
        seasons["page_size"]["schema"]["maximum"],
    ) == (
        1,
        500,
    )
    assert seasons["lang"]["schema"]["enum"] == ["sv", "en"]
    heats = {p["name"]: p for p in spec["paths"]["/api/v1/heats/"]["get"]["parameters"]}
    assert heats["competition"]["schema"]["type"] == "integer"
    own = spec["paths"]["/api/schema/"]["get"]["responses"]
    assert {"200", "400", "404"} <= set(own)
    # a format it cannot answer: 404, listed, as a problem detail (not YAML)
    response = client.get("/api/schema/?format=%C3%A9")
    assert response.status_code == 404 and response["Content-Type"] == "application/problem+json"

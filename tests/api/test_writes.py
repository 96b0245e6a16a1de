"""Authenticated writes (issue 14): a scoring program's token writes only the heats of its
scope, through the same services as the pages; a refusal writes nothing and is a problem
detail (RFC 9457) in the request's language with the clause; the same request twice changes
nothing and answers the first result."""

from __future__ import annotations

import hashlib
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from api.models import ApiToken, IdempotentRequest
from api.services import revoke_token
from clubs import clock
from pairs.models import PairEntry
from results.models import PairResult, ResultUpload
from teams.models import Lineup, RosterEntry, Team
from tests.api.conftest import with_token
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    MatchFactory,
    PairCompetitionFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamHeatFactory,
    UserFactory,
    entry_world,
)
from tests.factories import world_member as p
from tests.results.test_uploads import data, pair_heat_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]
HOWELL = "pairs_howell_usebio.xml"  # ten pairs


def written():
    return (
        ResultUpload.objects.count(),
        PairResult.objects.count(),
        PairEntry.objects.count(),
        Team.objects.count(),
        RosterEntry.objects.count(),
        Lineup.objects.count(),
        IdempotentRequest.objects.count(),
    )


@pytest.fixture
def heat():
    heat, _event = pair_heat_for(HOWELL)
    return heat


@pytest.fixture
def own(heat):
    """An official of the heat's arranging club."""
    return ClubOfficialFactory(club=heat.clubs.first()).user


def upload(client, heat, name=HOWELL, content=None, **fields):
    body = {"file": SimpleUploadedFile(name, content or data(name)), **fields}
    headers = fields.pop("headers", {})
    body.pop("headers", None)
    return client.post(f"/api/v1/heats/{heat.pk}/results/", body, format="multipart", **headers)


# --- scope ---------------------------------------------------------------------------------


def test_a_club_token_uploads_its_clubs_heat(api, heat, own, make_token):
    key = make_token(own, club=heat.clubs.first())
    response = upload(with_token(api, key), heat)
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["heat"], body["status"], body["format"]) == (heat.pk, "accepted", "usebio")
    assert body["checksum"] == hashlib.sha256(data(HOWELL)).hexdigest()
    assert PairResult.objects.filter(upload_id=body["id"]).count() == 10
    token = ApiToken.objects.get()
    assert token.last_used is not None
    assert ResultUpload.objects.get().uploaded_by == own


def test_a_heat_token_uploads_its_heat(api, heat, own, make_token):
    response = upload(with_token(api, make_token(own, heat=heat)), heat)
    assert response.status_code == 201


def test_a_token_of_another_club_writes_nothing(api, heat, own, make_token):
    # The owner may manage the heat on the pages, but the token is for another club's heats.
    key = make_token(own, club=ClubFactory())
    before = written()
    response = upload(with_token(api, key), heat)
    assert response.status_code == 403
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == 403 and problem["type"].endswith("/forbidden")
    assert "gäller inte detta heat" in problem["detail"]
    assert written() == before


def test_a_token_of_another_heat_writes_nothing(api, heat, own, make_token):
    other = PairHeatFactory(clubs=list(heat.clubs.all()))
    before = written()
    response = upload(with_token(api, make_token(own, heat=other)), heat)
    assert response.status_code == 403
    assert written() == before


def test_the_owners_own_permission_still_counts(api, heat, make_token):
    # A token scoped to the heat, owned by someone who may not manage it: the upload
    # service refuses, as the upload page would.
    stranger = ClubOfficialFactory().user
    before = written()
    response = upload(with_token(api, make_token(stranger, heat=heat)), heat)
    assert response.status_code == 403
    assert response.json()["detail"] == "Du har inte behörighet för detta."
    assert written() == before


def test_revoked_and_unknown_tokens_are_401(api, heat, own, make_token, tk):
    key = make_token(own, heat=heat)
    revoke_token(tk, ApiToken.objects.get())
    response = upload(with_token(api, key), heat)
    assert response.status_code == 401
    assert response.json()["detail"] == "Okänd eller återkallad API-nyckel."
    assert response["WWW-Authenticate"] == "Token"
    assert upload(with_token(api, "ubf_nonsense"), heat).status_code == 401
    api.credentials()
    anonymous = upload(api, heat)
    assert anonymous.status_code == 401 and anonymous.json()["type"].endswith("/not-authenticated")
    assert not ResultUpload.objects.exists()


def test_session_login_writes_as_on_the_pages(api, heat, own):
    api.force_login(own)
    assert upload(api, heat).status_code == 201


# --- checksums and idempotency -------------------------------------------------------------


def test_a_checksum_that_is_not_the_files_is_refused(api, heat, own, make_token):
    client = with_token(api, make_token(own, heat=heat))
    before = written()
    response = upload(client, heat, checksum="0" * 64)
    assert response.status_code == 400
    assert "Kontrollsumman stämmer inte" in response.json()["errors"]["checksum"][0]
    assert written() == before
    right = hashlib.sha256(data(HOWELL)).hexdigest()
    assert upload(client, heat, checksum=right).status_code == 201


def test_the_same_file_twice_answers_the_first_upload(api, heat, own, make_token):
    client = with_token(api, make_token(own, heat=heat))
    first = upload(client, heat).json()
    rows = written()
    again = upload(client, heat)
    assert again.status_code == 200
    assert again.json()["id"] == first["id"] and again.json()["unchanged"] is True
    assert written() == rows


def test_an_idempotency_key_repeat_answers_the_first_response(api, heat, own, make_token):
    client = with_token(api, make_token(own, heat=heat))
    key = {"HTTP_IDEMPOTENCY_KEY": "ruter-2017-02-10-1"}
    first = upload(client, heat, headers=key)
    assert first.status_code == 201
    rows = written()
    again = upload(client, heat, headers=key)
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert written() == rows
    # The same key with another file is another request: refused, nothing written.
    other = upload(client, heat, name="other.xml", content=data(HOWELL) + b"\n", headers=key)
    assert other.status_code == 422
    assert other.json()["type"].endswith("/idempotency-key-reused")
    assert written() == rows


# --- problem details in the request's language ---------------------------------------------


def test_a_refused_upload_is_a_problem_detail_in_swedish_and_english(api, heat, own, make_token):
    # R-PAIR-KVAL-6: the heat has one session, so there is no session 2 to upload.
    client = with_token(api, make_token(own, heat=heat))
    before = written()
    sv = upload(client, heat, session=2)
    assert sv.status_code == 400 and sv["Content-Type"] == "application/problem+json"
    problem = sv.json()
    assert problem["type"].endswith("/upload-rejected")
    assert problem["title"] == "Filen togs inte emot"
    assert problem["clause"] == "R-PAIR-KVAL-6"
    assert "har bara ett speltillfälle" in problem["detail"]
    assert [x["clause"] for x in problem["problems"]] == ["R-PAIR-KVAL-6"]
    en = upload(client, heat, session=2, headers={"HTTP_ACCEPT_LANGUAGE": "en"}).json()
    assert en["title"] == "The file was not accepted"
    assert "has only one session" in en["detail"] and en["clause"] == "R-PAIR-KVAL-6"
    query = client.post(
        f"/api/v1/heats/{heat.pk}/results/?lang=en",
        {"file": SimpleUploadedFile(HOWELL, data(HOWELL)), "session": 2},
        format="multipart",
    ).json()
    assert "has only one session" in query["detail"]
    assert written() == before


def test_a_broken_file_lists_its_problems(api, heat, own, make_token):
    client = with_token(api, make_token(own, heat=heat))
    response = upload(client, heat, name="x.pbn", content=b'% PBN 2.1\n[Event "x"]\n')
    assert response.status_code == 400
    assert response.json()["problems"], response.json()
    assert not ResultUpload.objects.exists()


def test_a_missing_file_names_the_field(api, heat, own, make_token):
    client = with_token(api, make_token(own, heat=heat))
    response = client.post(f"/api/v1/heats/{heat.pk}/results/", {}, format="multipart")
    assert response.status_code == 400
    assert response.json()["type"].endswith("/invalid") and "file" in response.json()["errors"]


# --- entries, rosters, line-ups ------------------------------------------------------------


@pytest.fixture
def pairs_world():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = PairCompetitionFactory(season=season, discipline="open")
    heat = PairHeatFactory(
        competition=comp, clubs=[club], name="Kval Uppsala", first_date=date(2017, 2, 10)
    )
    return entry_world(season, club, comp=comp, heat=heat)


def test_a_pair_entry_through_a_club_token_and_its_idempotent_repeat(api, pairs_world, make_token):
    w = pairs_world
    a, b = p(w), p(w)
    client = with_token(api, make_token(w.official, club=w.club))
    body = {"heat": w.heat.pk, "mid1": a.mid, "mid2": b.mid}
    with clock.frozen("2017-01-10 10:00"):
        first = client.post(
            "/api/v1/pair-entries/", body, format="json", HTTP_IDEMPOTENCY_KEY="entry-1"
        )
        again = client.post(
            "/api/v1/pair-entries/", body, format="json", HTTP_IDEMPOTENCY_KEY="entry-1"
        )
    assert first.status_code == 201, first.content
    assert first.json()["pair_number"] == "1"
    assert [x["mid"] for x in first.json()["players"]] == [a.mid, b.mid]
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert PairEntry.objects.count() == 1


def test_a_refused_pair_entry_names_the_mid_and_the_clause(api, pairs_world, make_token):
    w = pairs_world
    a = p(w)
    client = with_token(api, make_token(w.official, club=w.club))
    with clock.frozen("2017-01-10 10:00"):
        response = client.post(
            "/api/v1/pair-entries/",
            {"heat": w.heat.pk, "mid1": a.mid, "mid2": "999999"},
            format="json",
        )
    assert response.status_code == 400
    problem = response.json()
    assert problem["type"].endswith("/refused") and problem["clause"] == "R-GEN-2"
    assert "999999" in problem["detail"]
    assert not PairEntry.objects.exists()


@pytest.fixture
def teams_world():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = TeamCompetitionFactory(season=season)
    responsible = UserFactory()
    heat = TeamHeatFactory(competition=comp, organisers=[club], responsible_user=responsible)
    return entry_world(season, club, comp=comp, heat=heat, responsible=responsible)


def test_a_team_entry_roster_change_and_line_up_through_a_heat_token(api, teams_world, make_token):
    w = teams_world
    players = [p(w).mid for _ in range(5)]
    client = with_token(api, make_token(w.responsible, heat=w.heat))
    with clock.frozen("2016-10-20 10:00"):
        entered = client.post(
            "/api/v1/teams/",
            {
                "heat": w.heat.pk,
                "name": "Uppsala 1",
                "captain_mid": players[0],
                "address": "Storgatan 1, 753 20 Uppsala",
                "phone": "070-123 45 67",
                "email": "kapten@example.se",
                "player_mids": players[:4],
            },
            format="json",
        )
        assert entered.status_code == 201, entered.content
        team = entered.json()
        assert [x["mid"] for x in team["players"]] == players[:4]
        # The token's owner is not TK and not the team: no personal data in the answer.
        assert team["email"] is None
        roster = client.post(
            f"/api/v1/teams/{team['id']}/roster/", {"add_mids": [players[4]]}, format="json"
        )
        assert roster.status_code == 200, roster.content
        assert len(roster.json()["players"]) == 5
    other = Team.objects.get(pk=team["id"])
    rival = Team.objects.create(
        competition=w.comp,
        heat=w.heat,
        number=2,
        name="Rival",
        captain=p(w),
        address="x",
        phone="x",
        email="r@example.se",
    )
    match = MatchFactory(home=other, away=rival, competition=w.comp, heat=w.heat)
    with clock.frozen("2016-11-05 18:00"):
        lineup = client.post(
            f"/api/v1/matches/{match.pk}/lineups/",
            {"team": other.pk, "half1_mids": players[:4], "half2_mids": players[1:5]},
            format="json",
        )
    assert lineup.status_code == 200, lineup.content
    assert lineup.json()["halves"] == {"1": sorted(players[:4]), "2": sorted(players[1:5])}
    assert Lineup.objects.filter(match=match, team=other).count() == 8


def test_a_token_for_another_heat_cannot_enter_a_team(api, teams_world, make_token):
    w = teams_world
    other_heat = TeamHeatFactory(competition=w.comp)
    client = with_token(api, make_token(w.responsible, heat=other_heat))
    players = [p(w).mid for _ in range(4)]
    with clock.frozen("2016-10-20 10:00"):
        response = client.post(
            "/api/v1/teams/",
            {
                "heat": w.heat.pk,
                "name": "Uppsala 1",
                "captain_mid": players[0],
                "address": "Storgatan 1",
                "phone": "070",
                "email": "k@example.se",
                "player_mids": players,
            },
            format="json",
        )
    assert response.status_code == 403
    assert not Team.objects.exists()

"""Personal data only to TK and the team itself (issue 14); TK creates and revokes tokens in
the admin (the key shown once) and with ``manage.py api_token``; throttling answers 429 as a
problem detail."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from api.models import ApiToken, hash_key
from clubs.models import Decision
from tests.factories import ClubFactory, ClubOfficialFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_teams():
    captain = UserFactory()
    own = TeamFactory(name="Uppsala 1", captain_user=captain, email="kapten1@example.se")
    other = TeamFactory(heat=own.heat, name="Uppsala 2", email="kapten2@example.se")
    return captain, own, other


def contact(client, team):
    body = client.get(f"/api/v1/teams/{team.pk}/").json()
    return body["address"], body["phone"], body["email"]


def test_the_team_sees_its_own_contact_and_no_one_elses(api, two_teams):
    captain, own, other = two_teams
    assert contact(api, own) == (None, None, None)  # a visitor
    api.force_login(captain)
    assert contact(api, own) == (
        "Storgatan 1, 753 20 Uppsala",
        "070-123 45 67",
        "kapten1@example.se",
    )
    assert contact(api, other) == (None, None, None)
    listed = api.get(f"/api/v1/teams/?heat={own.heat_id}").json()["results"]
    assert {t["name"]: t["email"] for t in listed} == {
        "Uppsala 1": "kapten1@example.se",
        "Uppsala 2": None,
    }


def test_tk_sees_every_teams_contact_and_a_club_official_none(api, two_teams, tk):
    _captain, own, other = two_teams
    official = ClubOfficialFactory().user
    api.force_login(official)
    assert contact(api, own)[2] is None and contact(api, other)[2] is None
    api.force_login(tk)
    assert contact(api, other)[2] == "kapten2@example.se"


def test_tk_creates_a_token_in_the_admin_and_sees_the_key_once(tk):
    club = ClubFactory(name="BK Enköping")
    owner = ClubOfficialFactory(club=club).user
    client = APIClient()
    client.force_login(tk)
    response = client.post(
        "/admin/api/apitoken/add/",
        {"name": "Ruter Enköping", "owner": owner.pk, "club": club.pk},
        follow=True,
    )
    assert response.status_code == 200
    token = ApiToken.objects.get()
    (message,) = [str(m) for m in response.context["messages"] if "ubf_" in str(m)]
    key = message.rsplit(" ", 1)[-1]
    assert token.key_hash == hash_key(key) and key.startswith(token.key_prefix)
    assert (token.owner, token.club, token.created_by) == (owner, club, tk)
    assert Decision.objects.filter(action="api.token.created", object_id=token.pk).exists()
    # Revoked with the admin action: the key authenticates nothing any more.
    client.post(
        "/admin/api/apitoken/",
        {"action": "action", "_selected_action": [token.pk], "reason": "ny dator"},
    )
    token.refresh_from_db()
    assert token.revoked_at is not None
    anonymous = APIClient()
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert anonymous.get("/api/v1/seasons/").status_code == 401


def test_only_tk_opens_the_token_admin():
    client = APIClient()
    client.force_login(ClubOfficialFactory(user__is_staff=True).user)
    assert client.get("/admin/api/apitoken/").status_code == 403


def test_the_management_command_creates_lists_and_revokes(tk, capsys):
    club = ClubFactory()
    owner = ClubOfficialFactory(club=club).user
    call_command(
        "api_token",
        "create",
        "--by",
        tk.username,
        "--owner",
        owner.username,
        "--club",
        str(club.pk),
        "--name",
        "Ruter",
    )
    token_id, key = capsys.readouterr().out.strip().split("\t")
    token = ApiToken.objects.get(pk=int(token_id))
    assert token.key_hash == hash_key(key)
    call_command("api_token", "list")
    assert "aktiv" in capsys.readouterr().out
    call_command("api_token", "revoke", "--by", tk.username, token_id)
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_a_club_official_cannot_create_tokens(capsys):
    from django.core.management.base import CommandError

    official = ClubOfficialFactory().user
    with pytest.raises(CommandError, match="Bara TK"):
        call_command(
            "api_token",
            "create",
            "--by",
            official.username,
            "--owner",
            official.username,
            "--club",
            str(ClubFactory().pk),
            "--name",
            "x",
        )
    assert not ApiToken.objects.exists()


def test_throttling_answers_429_as_a_problem(api, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": "2/min", "token": "2/min"},
    }
    # Only renders count (issue 21): the same read again is a cached answer, not counted.
    assert [api.get("/api/v1/seasons/").status_code for _ in range(5)] == [200] * 5
    assert api.get("/api/v1/seasons/?page_size=5").status_code == 200  # a second render
    third = api.get("/api/v1/seasons/?lang=en")  # a third
    assert third.status_code == 429 and third["Content-Type"] == "application/problem+json"
    assert third.json()["title"] == "Too many requests" and int(third["Retry-After"]) > 0

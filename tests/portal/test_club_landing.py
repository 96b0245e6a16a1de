"""After logging in each user lands on their workplace (clubs.permissions.workplace): TK on
/tk/, a club official on /klubb/, a captain on their team's page, others on /; ?next= wins."""

import pytest

from tests.factories import ClubOfficialFactory, SeasonFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


def login(client, user, next_url=None):
    data = {"username": user.username, "password": "pw-test-123"}
    url = "/konto/login/" + (f"?next={next_url}" if next_url else "")
    if next_url:
        data["next"] = next_url
    response = client.post(url, data, follow=True)
    return response.redirect_chain[-1][0], response


def test_club_official_lands_on_club_page(client):
    user = ClubOfficialFactory().user
    where, response = login(client, user)
    assert where == "/klubb/"
    assert "Min klubb" in response.content.decode()


def test_tk_lands_on_tk_queue(client):
    user = UserFactory(is_superuser=True, is_staff=True)
    where, _ = login(client, user)
    assert where == "/tk/"


def test_captain_of_one_team_lands_on_its_roster_page(client):
    SeasonFactory()
    user = UserFactory()
    team = TeamFactory(captain_user=user)
    where, _ = login(client, user)
    assert where == f"/mitt-lag/{team.pk}/laguppstallning/"


def test_someone_without_a_role_lands_on_home(client):
    where, _ = login(client, UserFactory())
    assert where == "/"


def test_next_wins_over_the_role(client):
    user = ClubOfficialFactory().user
    where, _ = login(client, user, next_url="/par/")
    assert where == "/par/"

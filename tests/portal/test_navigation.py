"""The navigation shows each user the workplaces they have (issue 13: a captain saw "Min
klubb" although no club official)."""

import pytest

from tests.factories import ClubOfficialFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


def nav(client) -> str:
    html = client.get("/lag/").content.decode()
    return html.split("<nav", 1)[1].split("</nav>", 1)[0]


def test_a_captain_sees_my_team_but_not_my_club(client):
    captain = UserFactory()
    TeamFactory(captain_user=captain)
    client.force_login(captain)
    links = nav(client)
    assert "Mitt lag" in links and "Min klubb" not in links and ">TK<" not in links


def test_a_club_official_sees_my_club(client):
    client.force_login(ClubOfficialFactory().user)
    links = nav(client)
    assert "Min klubb" in links and ">TK<" not in links


def test_tk_sees_the_queue(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert ">TK<" in nav(client)


def test_a_user_with_no_workplace_sees_only_the_public_links(client):
    client.force_login(UserFactory())
    links = nav(client)
    assert "Min klubb" not in links and "Mitt lag" not in links and "Logga ut" in links

"""Issue 14: a team's address, phone and e-mail are shown only to TK and the team itself
(the API's side is tests/api/test_personal_data_and_tokens.py). The public pages of the team
and its heat, and the heat's fee list and its exports for the arranging club, carry none of
them."""

import pytest
from django.core.cache import cache

from tests.factories import (
    ClubOfficialFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
)

pytestmark = pytest.mark.django_db

CONTACT = ("Storgatan 1, 753 20 Uppsala", "070-123 45 67", "kapten@example.se")


def test_no_contact_of_a_team_on_public_pages_or_the_clubs_fee_list(client):
    cache.clear()
    heat = TeamHeatFactory(competition=TeamCompetitionFactory())
    team = TeamFactory(heat=heat, players=4)
    assert (team.address, team.phone, team.email) == CONTACT
    pages = [f"/lag/lag/{team.pk}/", f"/lag/kval/{heat.pk}/", "/lag/"]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        if path.startswith("/lag/lag/"):
            assert team.name in body
        for value in CONTACT:
            assert value not in body, (path, value)
    official = ClubOfficialFactory(club=heat.organisers.first().club).user
    client.force_login(official)
    for path in (
        f"/avgifter/heat/lagkval/{heat.pk}/",
        f"/avgifter/heat/lagkval/{heat.pk}.csv",
        f"/avgifter/heat/lagkval/{heat.pk}.xlsx",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode("utf-8", "replace") if path.endswith(("/", "csv")) else ""
        for value in CONTACT:
            assert value not in body, (path, value)

"""TK's admin: every registered model's list, add and change pages answer 200."""

import pytest
from django.contrib import admin
from django.urls import reverse

from clubs.models import Decision
from tests.factories import MatchFactory, PairEntryFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk_client(client):
    user = UserFactory(username="tk", is_staff=True, is_superuser=True)
    client.force_login(user)
    return client


@pytest.fixture
def season_data():
    PairEntryFactory()
    team = TeamFactory(players=4)
    MatchFactory(home=team, away=TeamFactory(heat=team.heat, players=4))
    Decision.objects.create(action="x", object_type="y", object_id=1, object_repr="z")


def test_every_admin_page_answers_200_for_tk(tk_client, season_data):
    checked = 0
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        response = tk_client.get(url)
        assert response.status_code == 200, url
        if model_admin.has_add_permission(response.wsgi_request):
            add = tk_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
            assert add.status_code == 200, meta.label
        obj = model.objects.first()
        if obj is not None:
            change_url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
            assert tk_client.get(change_url).status_code == 200, change_url
            if hasattr(model, "history"):
                history_url = reverse(
                    f"admin:{meta.app_label}_{meta.model_name}_history", args=[obj.pk]
                )
                assert tk_client.get(history_url).status_code == 200, history_url
        checked += 1
    assert checked >= 25


def test_player_search_by_mid(tk_client, season_data):
    entry = PairEntryFactory()
    url = reverse("admin:clubs_player_changelist")
    response = tk_client.get(url, {"q": entry.player1.mid})
    assert response.status_code == 200
    assert entry.player1.last_name in response.content.decode()
    assert entry.player2.last_name not in response.content.decode()


def test_anonymous_is_sent_to_login(client):
    response = client.get(reverse("admin:teams_team_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]

"""The admin stays for corrections (R-GEN-3: decisions go through the services that record them): a field a TK decision sets is read-only on the change form,
so posting a changed status (or a W.O.'s VP, a season's W.O. score) through the admin changes
nothing; the decisions go through the services (/tk/, the admin's actions)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django import forms

from clubs.models import HeatStatus, Season
from teams.models import Match, Team, TeamHeat
from tests.factories import MatchFactory, SeasonFactory, TeamFactory, TeamHeatFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def change_form_post(client, url: str, changes: dict):
    """Post the change form back as the admin renders it, with ``changes`` applied."""
    response = client.get(url)
    assert response.status_code == 200
    data = {}

    def add(form):
        for name, field in form.fields.items():
            if isinstance(field, forms.FileField):
                continue
            value = form[name].value()
            key = form.add_prefix(name)
            if value is None or value is False:
                continue
            data[key] = "on" if value is True else value

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        add(inline.formset.management_form)
        for form in inline.formset.forms:
            add(form)
    data.update(changes)
    return client.post(url, data)


def test_a_heat_status_posted_through_the_admin_does_not_change(admin_client):
    heat = TeamHeatFactory(status=HeatStatus.APPLIED)
    url = f"/admin/teams/teamheat/{heat.pk}/change/"
    assert 'name="status"' not in admin_client.get(url).content.decode()
    response = change_form_post(admin_client, url, {"status": HeatStatus.APPROVED, "venue": "Ny"})
    assert response.status_code == 302
    heat = TeamHeat.objects.get()
    assert heat.status == HeatStatus.APPLIED and heat.venue == "Ny"  # corrections still work


def test_a_team_status_and_final_seat_posted_through_the_admin_do_not_change(admin_client):
    team = TeamFactory(name="Fyris 1")
    url = f"/admin/teams/team/{team.pk}/change/"
    change_form_post(
        admin_client, url, {"status": Team.Status.DISQUALIFIED, "in_final": "on", "phone": "1"}
    )
    team = Team.objects.get()
    assert team.status == Team.Status.ENTERED and not team.is_finalist and team.phone == "1"


def test_a_wo_status_and_vp_posted_through_the_admin_do_not_change(admin_client):
    match = MatchFactory()
    url = f"/admin/teams/match/{match.pk}/change/"
    change_form_post(
        admin_client, url, {"status": Match.Status.WALKOVER, "vp_home": "12", "vp_away": "0"}
    )
    match = Match.objects.get()
    assert match.status == Match.Status.SCHEDULED and match.vp_home is None


def test_the_seasons_wo_score_is_edited_on_tk_sasong_not_in_the_admin(admin_client):
    season = SeasonFactory()
    url = f"/admin/clubs/season/{season.pk}/change/"
    change_form_post(admin_client, url, {"wo_winner_vp": "15.00"})
    assert Season.objects.get().wo_winner_vp == Decimal("12.00")

"""R-TEAM-REG-2 "Anmälan görs till heatansvarig": a captain who may not enter a team asks the
heat responsible on /mitt-lag/anmal/<heat>/; the heat responsible sees the request on /klubb/
and confirms it with one click, which enters the team through enter_team and all its checks
(refusals shown, nothing saved), or says no with a reason the captain reads."""

# R-TEAM-REG-2
import pytest
from django.urls import reverse

from clubs.models import ClubOfficial, Decision
from teams.models import Team, TeamEntryRequest
from tests.factories import UserFactory
from tests.teams.test_portal import _today, entry_post, mids, snapshot  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


def _ask(client, w, players, **over):
    return client.post(
        reverse("teams:enter", args=[w.heat.pk]), entry_post(players, **over), follow=True
    )


def test_a_captain_gets_the_page_to_ask_not_a_403(w, client):
    client.force_login(w.captain)
    response = client.get(reverse("teams:enter", args=[w.heat.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Anmäl lag till heatansvarig" in html and "Heat Ansvarig" in html
    assert "403" not in html and "Forbidden" not in html


def test_the_captain_asks_and_the_heat_responsible_confirms_with_one_click(w, client):
    players = mids(w, 4)
    client.force_login(w.captain)
    response = _ask(client, w, players)
    assert "Anmälan av Uppsala 3 är skickad till heatansvarig" in response.content.decode()
    assert not Team.objects.filter(name="Uppsala 3").exists()
    asked = TeamEntryRequest.objects.get()
    assert asked.player_mids == players and asked.requested_by == w.captain
    mine = client.get(reverse("teams:index")).content.decode()
    assert "väntar på heatansvarig" in mine

    client.force_login(w.responsible)
    club_page = client.get("/klubb/").content.decode()
    assert "Laganmälningar att bekräfta" in club_page and "Uppsala 3" in club_page
    done = client.post(
        reverse("teams:answer_entry_request", args=[asked.pk]),
        {"action": "confirm", "next": "/klubb/"},
        follow=True,
    )
    html = done.content.decode()
    assert done.redirect_chain[-1][0] == "/klubb/"
    team = Team.objects.get(name="Uppsala 3")
    number = max(w.team.number, w.opponent.number) + 1
    assert f"Uppsala 3 är anmält till {w.heat.name} som lag nr {number}" in html
    assert list(team.roster.order_by("id").values_list("player__mid", flat=True)) == players
    assert team.captain_user == w.captain  # the captain now runs the team
    assert "Laganmälningar att bekräfta" not in html  # nothing left to answer
    asked.refresh_from_db()
    assert asked.status == "granted" and asked.team == team
    client.force_login(w.captain)
    assert "Uppsala 3" in client.get(reverse("teams:index")).content.decode()
    assert {"teams.entry_request.sent", "teams.entry_request.confirmed"} <= set(
        Decision.objects.values_list("action", flat=True)
    )


def test_a_refusal_at_confirmation_is_shown_and_saves_nothing(w, client):
    players = mids(w, 4)
    client.force_login(w.captain)
    _ask(client, w, players)
    asked = TeamEntryRequest.objects.get()
    # meanwhile another team took the name: enter_team refuses at the click
    Team.objects.filter(pk=w.opponent.pk).update(name="Uppsala 3")
    before = snapshot()
    client.force_login(w.responsible)
    done = client.post(
        reverse("teams:answer_entry_request", args=[asked.pk]),
        {"action": "confirm", "next": "/klubb/"},
        follow=True,
    )
    html = done.content.decode()
    assert "Anmälan av Uppsala 3 gick inte igenom. Inget har sparats." in html
    assert "Lagnamnet" in html and "R-TEAM-REG-2" in html
    assert snapshot() == before
    asked.refresh_from_db()
    assert asked.status == "requested" and asked.team is None


def test_the_heat_responsible_says_no_with_a_reason_the_captain_reads(w, client):
    client.force_login(w.captain)
    _ask(client, w, mids(w, 4))
    asked = TeamEntryRequest.objects.get()
    client.force_login(w.responsible)
    no_reason = client.post(
        reverse("teams:answer_entry_request", args=[asked.pk]), {"action": "refuse"}, follow=True
    )
    assert "Skriv en motivering" in no_reason.content.decode()
    client.post(
        reverse("teams:answer_entry_request", args=[asked.pk]),
        {"action": "refuse", "reason": "Heatet är fullt."},
    )
    asked.refresh_from_db()
    assert asked.status == "rejected"
    client.force_login(w.captain)
    html = client.get(reverse("teams:index")).content.decode()
    assert "avböjd" in html and "Heatet är fullt." in html
    assert not Team.objects.filter(name="Uppsala 3").exists()


def test_a_request_the_entry_would_refuse_is_refused_at_once(w, client):
    client.force_login(w.captain)
    before = snapshot()
    response = _ask(client, w, mids(w, 3), phone="")
    html = response.content.decode()
    assert response.status_code == 400
    assert "Anmälan skickades inte. Inget har sparats." in html and "telefon" in html
    assert not TeamEntryRequest.objects.exists() and snapshot() == before


def test_another_heats_official_may_not_answer(w, client):
    client.force_login(w.captain)
    _ask(client, w, mids(w, 4))
    asked = TeamEntryRequest.objects.get()
    stranger = UserFactory()
    ClubOfficial.objects.create(user=stranger, club=w.other_heat.clubs.get())
    client.force_login(stranger)
    assert "Laganmälningar att bekräfta" not in client.get("/klubb/").content.decode()
    response = client.post(
        reverse("teams:answer_entry_request", args=[asked.pk]), {"action": "confirm"}
    )
    assert response.status_code == 403
    assert "Ingen behörighet" in response.content.decode()
    asked.refresh_from_db()
    assert asked.status == "requested" and not Team.objects.filter(name="Uppsala 3").exists()

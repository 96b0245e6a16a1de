"""Accounts by invitation (issue 13, item 5): TK invites club officials, a club official
invites captains; the mailed link lets the invitee set a password, makes the account, links
it (club official of the club, captain of the player's team) and logs in. Expired, used and
unknown links give a clear page; refusals send nothing and save nothing."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from clubs import clock
from clubs.models import ClubOfficial, Decision, Invitation
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
)

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "Klöver-Dam-2016"


@pytest.fixture
def season():
    return SeasonFactory()


@pytest.fixture
def club(season):
    return ClubFactory(name="BK Uppsala")


def _link(message) -> str:
    return re.search(r"https?://[^/\s]+(/konto/inbjudan/\S+/)", message.body).group(1)


def _accept(client, link, username="nyanvandare", password=PASSWORD, again=None):
    return client.post(
        link,
        {"username": username, "password1": password, "password2": again or password},
        follow=True,
    )


def test_tk_invites_a_club_official_who_sets_a_password_and_is_logged_in(client, tk, club):
    client.force_login(tk)
    page = client.get("/tk/inbjudan/").content.decode()
    assert "Bjud in klubbfunktionär" in page and "BK Uppsala" in page
    response = client.post(
        "/tk/inbjudan/",
        {"email": "kassor@bku.se", "club": club.pk, "club_role": "treasurer"},
        follow=True,
    )
    assert "Inbjudan är skickad till kassor@bku.se" in response.content.decode()
    (message,) = mail.outbox
    assert message.to == ["kassor@bku.se"]
    assert message.subject == "UBF DM: inbjudan till konto för BK Uppsala"
    assert "kassör för BK Uppsala" in message.body
    link = _link(message)
    client.logout()
    form = client.get(link).content.decode()
    assert "Skapa ditt konto" in form and "kassor@bku.se" in form
    done = _accept(client, link, username="kassorn")
    assert "Välkommen! Ditt konto är klart och du är inloggad." in done.content.decode()
    assert done.redirect_chain[-1][0] == "/klubb/"
    user = User.objects.get(username="kassorn")
    assert user.email == "kassor@bku.se" and user.check_password(PASSWORD)
    assert ClubOfficial.objects.filter(user=user, club=club, role="treasurer").exists()
    assert client.session["_auth_user_id"] == str(user.pk)
    actions = list(Decision.objects.order_by("id").values_list("action", flat=True))
    assert actions == ["clubs.invitation.sent", "clubs.invitation.accepted"]


def test_the_token_is_stored_only_as_a_hash(client, tk, club):
    client.force_login(tk)
    client.post("/tk/inbjudan/", {"email": "a@bku.se", "club": club.pk, "club_role": "contact"})
    token = _link(mail.outbox[0]).split("/")[-2]
    invitation = Invitation.objects.get()
    assert token not in invitation.token_hash and len(invitation.token_hash) == 64


def test_a_club_official_invites_a_captain_linked_to_the_players_team(client, season, club):
    official = ClubOfficialFactory(club=club).user
    comp = TeamCompetitionFactory(season=season)
    captain = member(season, club, first_name="Bo", last_name="Ek", mid="734001")
    team = TeamFactory(heat=TeamHeatFactory(competition=comp), captain=captain, name="Ek-laget")
    client.force_login(official)
    page = client.get("/klubb/inbjudan/").content.decode()
    assert "Bjud in lagkapten" in page
    client.post("/klubb/inbjudan/", {"email": "bo@ek.se", "player_mid": "734001", "club": club.pk})
    (message,) = mail.outbox
    assert message.subject == "UBF DM: inbjudan till konto som lagkapten"
    assert "lagkapten (Bo Ek)" in message.body
    client.logout()
    done = _accept(client, _link(message), username="bo.ek")
    assert done.redirect_chain[-1][0] == "/mitt-lag/"
    assert "Ek-laget" in done.content.decode()  # the captain's page lists the team
    team.refresh_from_db()
    assert team.captain_user.username == "bo.ek"
    assert not ClubOfficial.objects.filter(user__username="bo.ek").exists()


def test_the_mail_is_in_english_when_the_inviter_reads_english(client, tk, club):
    client.force_login(tk)
    client.post(
        "/tk/inbjudan/?lang=en", {"email": "x@bku.se", "club": club.pk, "club_role": "chair"}
    )
    (message,) = mail.outbox
    assert message.subject == "UBF DM: invitation to an account for BK Uppsala"
    assert "Choose a username and a password here:" in message.body


def test_a_used_link_gives_a_clear_page(client, tk, club):
    client.force_login(tk)
    client.post("/tk/inbjudan/", {"email": "a@bku.se", "club": club.pk, "club_role": "contact"})
    link = _link(mail.outbox[0])
    client.logout()
    _accept(client, link, username="forsta")
    client.logout()
    again = client.get(link)
    assert again.status_code == 410
    assert "Länken är redan använd" in again.content.decode()
    second = _accept(client, link, username="andra")
    assert not User.objects.filter(username="andra").exists()
    assert "Länken är redan använd" in second.content.decode()


def test_an_expired_link_gives_a_clear_page_and_makes_no_account(client, tk, club):
    client.force_login(tk)
    client.post("/tk/inbjudan/", {"email": "a@bku.se", "club": club.pk, "club_role": "contact"})
    link = _link(mail.outbox[0])
    client.logout()
    with clock.frozen(clock.now() + timedelta(days=15)):
        response = _accept(client, link, username="sen")
    assert response.status_code == 410
    assert "Länken gick ut" in response.content.decode()
    assert not User.objects.filter(username="sen").exists()


def test_an_unknown_link_is_a_clear_404(client):
    response = client.get("/konto/inbjudan/inte-en-riktig-token/")
    assert response.status_code == 404
    assert "Länken är okänd" in response.content.decode()


def test_a_weak_or_mistyped_password_is_refused_next_to_the_field(client, tk, club):
    client.force_login(tk)
    client.post("/tk/inbjudan/", {"email": "a@bku.se", "club": club.pk, "club_role": "contact"})
    link = _link(mail.outbox[0])
    client.logout()
    weak = _accept(client, link, username="svag", password="12345678")
    html = weak.content.decode()
    assert weak.status_code == 400
    assert "Kontot skapades inte" in html and "bara siffror" in html
    spaced = _accept(client, link, username="två ord")
    assert "Användarnamnet får bara innehålla bokstäver" in spaced.content.decode()
    mistyped = _accept(client, link, username="svag", again="Klöver-Dam-2017")
    assert "De två lösenorden är inte lika." in mistyped.content.decode()
    assert not User.objects.filter(username="svag").exists()
    assert Invitation.objects.get().accepted_at is None


def test_a_club_official_may_not_invite_officials(client, club):
    official = ClubOfficialFactory(club=club).user
    client.force_login(official)
    response = client.post(
        "/tk/inbjudan/", {"email": "a@bku.se", "club": club.pk, "club_role": "chair"}
    )
    assert response.status_code == 403
    assert "Ingen behörighet" in response.content.decode()
    assert mail.outbox == [] and not Invitation.objects.exists()


def test_an_official_of_another_club_may_not_invite_for_this_club(client, season, club):
    other = ClubOfficialFactory(club=ClubFactory(name="Enköpings BK")).user
    member(season, club, mid="734002")
    client.force_login(other)
    response = client.post(
        "/klubb/inbjudan/", {"email": "a@bku.se", "player_mid": "734002", "club": club.pk}
    )
    assert response.status_code == 400  # BK Uppsala is not among this official's clubs
    assert mail.outbox == [] and not Invitation.objects.exists()


def test_a_captain_without_a_club_role_gets_the_403_page(client):
    client.force_login(UserFactory())
    response = client.get("/klubb/inbjudan/")
    assert response.status_code == 403 and "Ingen behörighet" in response.content.decode()


def test_refusals_send_nothing(client, season, club):
    official = ClubOfficialFactory(club=club).user
    UserFactory(username="finns", email="finns@bku.se")
    client.force_login(official)
    unknown = client.post(
        "/klubb/inbjudan/", {"email": "ny@bku.se", "player_mid": "999999", "club": club.pk}
    )
    assert unknown.status_code == 400 and "999999" in unknown.content.decode()
    taken = client.post(
        "/klubb/inbjudan/", {"email": "finns@bku.se", "player_mid": "999999", "club": club.pk}
    )
    assert "Det finns redan ett konto med e-postadressen finns@bku.se" in taken.content.decode()
    assert mail.outbox == [] and not Invitation.objects.exists()


def test_the_invitation_pages_are_linked_from_the_tk_queue_and_the_club_page(client, tk, club):
    client.force_login(tk)
    assert 'href="/tk/inbjudan/"' in client.get("/tk/").content.decode()
    official = UserFactory()
    ClubOfficialFactory(user=official, club=club)
    client.force_login(official)
    assert 'href="/klubb/inbjudan/"' in client.get("/klubb/").content.decode()

"""Password reset on the site's own pages, in Swedish (English with ?lang=en), linked from the
login page (issue 13, item 5): a member who forgot the password gets a mail with a link, sets
a new password and logs in with it."""

import re

import pytest
from django.core import mail

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_login_page_links_to_the_reset(client):
    html = client.get("/konto/login/").content.decode()
    assert "Glömt lösenordet?" in html and 'href="/konto/password_reset/"' in html


def test_a_member_resets_the_password_and_logs_in(client):
    user = UserFactory(username="anna", email="anna@example.se")
    page = client.get("/konto/password_reset/").content.decode()
    assert "Nytt lösenord" in page and "UBF DM" in page  # the site's layout, in Swedish
    response = client.post("/konto/password_reset/", {"email": "anna@example.se"}, follow=True)
    assert "Titta i din e-post" in response.content.decode()
    (message,) = mail.outbox
    assert message.subject == "UBF DM: nytt lösenord" and "anna" in message.body
    link = re.search(r"https?://[^/]+(/konto/reset/\S+)", message.body).group(1)
    form_page = client.get(link, follow=True)
    assert "Välj nytt lösenord" in form_page.content.decode()
    done = client.post(
        form_page.request["PATH_INFO"],
        {"new_password1": "Bricka-Spader-47", "new_password2": "Bricka-Spader-47"},
        follow=True,
    )
    assert "Lösenordet är bytt" in done.content.decode()
    user.refresh_from_db()
    assert user.check_password("Bricka-Spader-47")


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client):
    response = client.post("/konto/password_reset/", {"email": "ingen@example.se"}, follow=True)
    assert "Titta i din e-post" in response.content.decode()
    assert mail.outbox == []


def test_in_english(client):
    html = client.get("/konto/password_reset/?lang=en").content.decode()
    assert "New password" in html and "Send the link" in html

"""Login throttling (issue 14): django-axes locks a username from one address after 5 failed
attempts for 15 minutes, on the site's login and on /admin/; the password-reset form sends at
most 3 mails to one address an hour."""

import pytest
from django.core import mail

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RIGHT = "Ruter-Kung-83"


def _login(client, username, password, url="/konto/login/"):
    return client.post(url, {"username": username, "password": password})


def test_six_wrong_passwords_then_the_right_one_does_not_log_in(client):
    user = UserFactory(username="kapten")
    user.set_password(RIGHT)
    user.save()
    for _ in range(6):
        _login(client, "kapten", "fel-lösenord")
    response = _login(client, "kapten", RIGHT)
    assert response.status_code == 429
    html = response.content.decode()
    assert "För många inloggningsförsök" in html and "15 minuter" in html
    assert "UBF DM" in html  # the site's layout
    assert "_auth_user_id" not in client.session
    assert client.get("/mitt-lag/").status_code == 302  # still sent to the login page


def test_four_wrong_passwords_then_the_right_one_logs_in(client):
    user = UserFactory(username="kapten")
    user.set_password(RIGHT)
    user.save()
    for _ in range(4):
        assert _login(client, "kapten", "fel").status_code == 200
    response = _login(client, "kapten", RIGHT)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_the_lock_is_per_username(client):
    other = UserFactory(username="klubb2")
    other.set_password(RIGHT)
    other.save()
    for _ in range(5):
        _login(client, "kapten", "fel")
    assert _login(client, "klubb2", RIGHT).status_code == 302


def test_the_lockout_page_in_english(client):
    for _ in range(5):
        _login(client, "kapten", "fel")
    response = _login(client, "kapten", "fel", url="/konto/login/?lang=en")
    assert response.status_code == 429
    assert "Too many login attempts" in response.content.decode()


def test_the_admin_login_is_throttled_too(client):
    admin = UserFactory(username="tk", is_staff=True, is_superuser=True)
    admin.set_password(RIGHT)
    admin.save()
    for _ in range(5):
        _login(client, "tk", "fel", url="/admin/login/")
    response = _login(client, "tk", RIGHT, url="/admin/login/")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_reset_sends_at_most_three_mails_an_hour(client):
    UserFactory(username="anna", email="anna@example.se")
    for _ in range(5):
        response = client.post("/konto/password_reset/", {"email": "anna@example.se"}, follow=True)
        assert "Titta i din e-post" in response.content.decode()
    assert len(mail.outbox) == 3
    UserFactory(username="bo", email="bo@example.se")
    client.post("/konto/password_reset/", {"email": "bo@example.se"})
    assert len(mail.outbox) == 4  # another address has its own count

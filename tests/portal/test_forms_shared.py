"""The shared form style (issue 13, item 3) on the forms of accounts and uploads: every form is
rendered by crispy-forms (Bootstrap 5) inside the site's layout; a required field carries a
visible mark and ``required``; an error stands next to its field in the page's language; a
failed submit keeps what was typed; messages come from the one block of base.html."""

from __future__ import annotations

import re

import pytest

from tests.factories import TeamHeatFactory, UserFactory

pytestmark = pytest.mark.django_db


def _field(html: str, name: str) -> str:
    """The form group of the field ``name`` (its div with label, input and errors)."""
    m = re.search(rf'<div id="div_id_{name}".*?(?=<div id="div_id_|</form>)', html, re.S)
    assert m, name
    return m.group(0)


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/konto/login/", ["username", "password"]),
        ("/konto/password_reset/", ["email"]),
    ],
)
def test_required_fields_are_marked_and_required(client, path, fields):
    html = client.get(path).content.decode()
    assert 'class="navbar' in html  # the site's layout
    for name in fields:
        group = _field(html, name)
        assert 'class="asteriskField"' in group and "*" in group
        assert re.search(rf'<input[^>]*name="{name}"[^>]*required', group)


@pytest.mark.parametrize(
    ("lang", "error"),
    [
        ("sv", "Ange ett korrekt användarnamn och lösenord."),
        ("en", "Please enter a correct username and password."),
    ],
)
def test_a_failed_login_says_why_in_the_pages_language_and_keeps_the_username(client, lang, error):
    UserFactory(username="anna")
    html = client.post(
        f"/konto/login/?lang={lang}", {"username": "anna", "password": "fel"}
    ).content.decode()
    assert error in html
    assert re.search(r'<input[^>]*name="username"[^>]*value="anna"', html)


@pytest.mark.parametrize(
    ("lang", "error", "other"),
    [
        ("sv", "Det här fältet är obligatoriskt.", "This field is required."),
        ("en", "This field is required.", "Det här fältet är obligatoriskt."),
    ],
)
def test_an_upload_without_a_file_shows_the_error_at_the_field(client, lang, error, other):
    heat = TeamHeatFactory()
    client.force_login(UserFactory(username="tk-form", is_superuser=True, is_staff=True))
    response = client.post(f"/resultat/lag/{heat.pk}/?lang={lang}", {"round": "3"})
    html = response.content.decode()
    group = _field(html, "file")
    assert error in group and "invalid-feedback" in group
    assert other not in html
    # the round typed is kept
    assert re.search(r'<input[^>]*name="round"[^>]*value="3"', html)


def test_the_password_change_form_is_the_sites_own(client):
    client.force_login(UserFactory(username="bo"))
    html = client.get("/konto/password_change/").content.decode()
    assert 'class="navbar' in html and "Byt lösenord" in html
    for name in ("old_password", "new_password1", "new_password2"):
        assert 'class="asteriskField"' in _field(html, name)
    html = client.get("/konto/password_change/?lang=en").content.decode()
    assert "Change password" in html and "Byt lösenord" not in html

"""The 403, 404 and 500 pages are the site's own, in the visitor's language (404, 403) or in
both (500, which renders without the request's context), with a way back."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.utils import translation
from django.views import defaults

pytestmark = pytest.mark.django_db


def test_404_is_the_sites_page_in_swedish_with_a_way_back(client):
    response = client.get("/finns-inte/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Sidan finns inte" in html and 'href="/"' in html and "UBF DM" in html
    assert '<html lang="sv">' in html


def test_404_in_english(client):
    html = client.get("/finns-inte/?lang=en").content.decode()
    assert "Page not found" in html and '<html lang="en">' in html
    assert "Sidan finns inte" not in html


def test_403_says_what_to_do():
    request = RequestFactory().get("/klubb/")
    request.user = AnonymousUser()
    with translation.override("sv"):
        response = defaults.permission_denied(request, PermissionDenied())
    html = response.content.decode()
    assert response.status_code == 403
    assert "Ingen behörighet" in html and "Inget har ändrats." in html and "Logga in" in html
    assert "403 Forbidden" not in html


def test_500_renders_without_context_in_both_languages():
    response = defaults.server_error(RequestFactory().get("/lag/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert "Tekniskt fel" in html and "Server error" in html and 'href="/"' in html

"""Shared set-up of the API tests: a DRF test client, TK, and tokens made through the
service TK uses (``api.services.create_token``)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from api.services import create_token
from tests.factories import UserFactory


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def tk():
    return UserFactory(username="tk", is_superuser=True, is_staff=True)


@pytest.fixture
def make_token(tk):
    def make(owner, **scope):
        _token, key = create_token(tk, owner=owner, name="Ruter", **scope)
        return key

    return make


def with_token(client: APIClient, key: str) -> APIClient:
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client

"""Shared set-up of the API tests: a DRF test client and tokens made through the
service TK uses (``api.services.create_token``); ``tk`` is tests/conftest.py's."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from api.services import create_token


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def make_token(tk):
    def make(owner, **scope):
        _token, key = create_token(tk, owner=owner, name="Ruter", **scope)
        return key

    return make


def with_token(client: APIClient, key: str) -> APIClient:
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client

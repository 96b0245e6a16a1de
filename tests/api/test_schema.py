"""schemathesis against the API's own OpenAPI schema (issue 14), in-process through the WSGI
app (no network): generated requests to every operation, as a visitor and with TK's token,
must never get a server error or a response that breaks the schema. Few examples per
operation, so the whole run stays well under a minute."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from api.services import create_token
from tests.api.test_reads import world  # noqa: F401  (the fixture's data to read)

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture
def api_schema(db, world, tk, settings):  # noqa: F811
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from ubf.wsgi import application

    # As Django's test client does: a request must not close the test's connection, which
    # holds the test's transaction (PostgreSQL would close it: autocommit differs).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)

    # Throttling is tested on its own; here it would only answer 429 to the generator.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "token": None},
    }
    _token, key = create_token(tk, owner=tk, name="schemathesis", final_of=world[0].competition)
    config = SchemathesisConfig.from_dict(
        {"phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}}}
    )
    loaded = schemathesis.openapi.from_wsgi("/api/schema/", application, config=config)
    loaded.tk_key = key
    yield loaded
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_and_no_schema_violation(case, api_schema):
    case.call_and_validate(checks=CHECKS)
    case.call_and_validate(headers={"Authorization": f"Token {api_schema.tk_key}"}, checks=CHECKS)

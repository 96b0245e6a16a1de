"""Issue 25: the client's address from a configured number of trusted proxies
(``UBF_TRUSTED_PROXIES``, ``clubs.client_ip``), the same for the API's throttles and the login
lockout (django-axes).

* No proxy (0, the default): X-Forwarded-For is the client's own words and is ignored; a new
  header every request is not a new client, so it gets round neither the anonymous API limit
  nor the lockout.
* One proxy (the README's TLS proxy): the client is the address the proxy appended (the last
  one); everyone arrives from the proxy's address, and five wrong passwords from one client
  lock that client out, not everyone else.
"""

from __future__ import annotations

import itertools

import pytest
from axes.models import AccessAttempt
from django.test import RequestFactory
from rest_framework.test import APIClient

from clubs.client_ip import client_ip
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
PROXY = "10.0.0.1"
RIGHT = "Ruter-Kung-83"


@pytest.fixture
def two_a_minute(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": "2/min", "token": "2/min"},
    }


_reads = itertools.count(1)


def read(client, forwarded: str | None, remote: str = PROXY) -> int:
    """One read that the site renders (a new query string each time): only renders count
    against the anonymous limit, a cached answer does not (issue 21, api.views.CachedReads)."""
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client.get(f"/api/v1/seasons/?page_size={next(_reads)}", **extra).status_code


# --- the address itself ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, "192.0.2.9"),
        (0, "203.0.113.5", "192.0.2.9"),  # ignored without a trusted proxy
        (1, None, "192.0.2.9"),  # not through the proxy: the connection's address
        (1, "203.0.113.5", "203.0.113.5"),
        (1, "198.51.100.1, 203.0.113.5", "203.0.113.5"),  # the client wrote the first one
        (2, "198.51.100.1, 203.0.113.5, 10.1.1.1", "203.0.113.5"),
        (2, "203.0.113.5", "203.0.113.5"),  # fewer entries than proxies: the leftmost
        (1, "not-an-address", "192.0.2.9"),
    ],
)
def test_client_address(settings, proxies, forwarded, expected):
    settings.UBF_TRUSTED_PROXIES = proxies
    meta = {"REMOTE_ADDR": "192.0.2.9"}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    assert client_ip(RequestFactory().get("/", **meta)) == expected


def test_the_default_is_no_proxy(settings):
    assert settings.UBF_TRUSTED_PROXIES == 0
    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == 0
    assert settings.AXES_CLIENT_IP_CALLABLE == "clubs.client_ip.client_ip"


# --- the API's anonymous limit -----------------------------------------------------------------


def test_without_a_proxy_a_new_header_is_not_a_new_client(settings, two_a_minute):
    settings.UBF_TRUSTED_PROXIES = 0
    api = APIClient()
    statuses = [read(api, f"203.0.113.{i}", remote="192.0.2.9") for i in range(4)]
    assert statuses == [200, 200, 429, 429]


def test_without_a_proxy_and_without_a_header_the_limit_holds(settings, two_a_minute):
    settings.UBF_TRUSTED_PROXIES = 0
    api = APIClient()
    assert [read(api, None, remote="192.0.2.9") for _ in range(3)] == [200, 200, 429]


def test_behind_one_proxy_each_client_has_its_own_count(settings, two_a_minute):
    settings.UBF_TRUSTED_PROXIES = 1
    api = APIClient()
    # two clients through the same proxy: two each, then the third of each is refused
    assert [read(api, "203.0.113.1") for _ in range(2)] == [200, 200]
    assert [read(api, "203.0.113.2") for _ in range(2)] == [200, 200]
    assert read(api, "203.0.113.1") == 429
    # a client that writes its own header first cannot pick another address
    assert read(api, "198.51.100.77, 203.0.113.2") == 429


# --- the login lockout -------------------------------------------------------------------------


def login(client, password, forwarded=None, remote=PROXY):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client.post(
        "/konto/login/", {"username": "kapten", "password": password}, **extra
    ).status_code


@pytest.fixture
def kapten():
    user = UserFactory(username="kapten")
    user.set_password(RIGHT)
    user.save()
    return user


def test_without_a_proxy_a_forged_header_does_not_get_round_the_lockout(settings, client, kapten):
    settings.UBF_TRUSTED_PROXIES = 0
    for i in range(5):
        login(client, "fel", forwarded=f"203.0.113.{i}", remote="192.0.2.9")
    assert login(client, RIGHT, forwarded="198.51.100.1", remote="192.0.2.9") == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"192.0.2.9"}


def test_behind_one_proxy_the_lockout_counts_the_client_not_the_proxy(settings, client, kapten):
    settings.UBF_TRUSTED_PROXIES = 1
    statuses = [login(client, "fel", forwarded="203.0.113.66") for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]  # locked at the fifth (AXES_FAILURE_LIMIT)
    assert login(client, RIGHT, forwarded="203.0.113.66") == 429  # the guesser is locked
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.66"}
    # the account's owner, elsewhere, through the same proxy, still logs in
    assert login(client, RIGHT, forwarded="198.51.100.20") == 302


def test_behind_one_proxy_unconfigured_everyone_is_the_proxy(settings, client, kapten):
    """What the setting is for: left at 0 behind a proxy, five wrong passwords from anyone lock
    the account for everyone (all arrive from the proxy's address)."""
    settings.UBF_TRUSTED_PROXIES = 0
    for _ in range(5):
        login(client, "fel", forwarded="203.0.113.66")
    assert login(client, RIGHT, forwarded="198.51.100.20") == 429

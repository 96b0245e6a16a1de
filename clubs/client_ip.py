"""The client's address, the same for the API's throttles (``api.throttling``) and the login
lockout (django-axes, ``AXES_CLIENT_IP_CALLABLE``), from ``settings.UBF_TRUSTED_PROXIES``
(the environment's ``UBF_TRUSTED_PROXIES``, default 0: issue 25).

* 0 (no proxy in front of gunicorn): the connection's address, ``REMOTE_ADDR``; an
  ``X-Forwarded-For`` header is the client's own words and is ignored, so a new header is not
  a new client (no way round the anonymous API limit);
* N (N trusted proxies, e.g. 1 behind the README's TLS proxy): each proxy appends the address
  it saw to ``X-Forwarded-For``, so the client is the N-th address from the right; what the
  client wrote itself stands further left and is ignored. Without the header (a request that
  did not come through the proxy) the connection's address.

DRF's own rule for ``NUM_PROXIES`` is the same (``settings.REST_FRAMEWORK``), so the two agree.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def _valid(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


def client_ip(request) -> str:
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = int(getattr(settings, "UBF_TRUSTED_PROXIES", 0) or 0)
    if proxies <= 0:
        return remote
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    addresses = [a.strip() for a in header.split(",") if a.strip()]
    if not addresses:
        return remote
    chosen = addresses[-min(proxies, len(addresses))]
    return chosen if _valid(chosen) else remote

"""The shared cache (Redis in production) may be unreachable; nothing that uses it may fail a
request for that (issue 25). What reads or writes it (the public pages' cache and its version,
the API's throttles, the password-reset mail count) asks :func:`available` first and reports a
failure with :func:`failed`:

* after a failure the cache is left alone for ``RETRY_SECONDS`` (each process on its own), so
  an outage costs one refused connection (or one socket timeout, ``ubf.settings``' CACHES) per
  process every few seconds, not one a request;
* an outage is logged once, a warning when it starts (with what noticed it), and once more,
  at INFO, when the cache answers again: not a traceback per request.

The callers degrade as the pages always did: no page cache (rendered every time), no throttle
(every request allowed), no mail count (the reset mail is sent).
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger(__name__)

#: Seconds a process leaves the cache alone after a failure before it tries again.
RETRY_SECONDS = 5.0

_lock = threading.Lock()
_state = {"down_until": 0.0, "down": False}


def available() -> bool:
    """False for ``RETRY_SECONDS`` after a failure: the caller skips the cache."""
    return time.monotonic() >= _state["down_until"]


def failed(what: str, exc: BaseException | None = None) -> None:
    """The cache did not answer ``what`` (a short description of the caller). Logged once per
    outage."""
    with _lock:
        _state["down_until"] = time.monotonic() + RETRY_SECONDS
        first = not _state["down"]
        _state["down"] = True
    if first:
        log.warning(
            "Cache unreachable (%s: %s): serving without cache and without throttling; "
            "retrying every %.0f s, logged again when it answers.",
            what,
            exc.__class__.__name__ if exc is not None else "error",
            RETRY_SECONDS,
        )


def succeeded() -> None:
    """The cache answered: the end of an outage, if there was one (logged once)."""
    if not _state["down"]:
        return
    with _lock:
        was_down = _state["down"]
        _state["down"] = False
        _state["down_until"] = 0.0
    if was_down:
        log.info("Cache reachable again: page cache and throttling back on.")


def is_down() -> bool:
    """An outage was noticed and the cache has not answered since."""
    return _state["down"]


def reset() -> None:
    """Forget any outage (tests)."""
    with _lock:
        _state["down_until"] = 0.0
        _state["down"] = False

"""The one entry point that asks for a recompute of a competition.

Every change of results, or a TK decision that changes the outcome (a heat approved, a W.O.,
a seat declined, a lot drawn...), calls :func:`request_recompute` inside its transaction. The
core knows nothing of how a recompute is done: it sends :data:`recompute_requested`, and the
``results`` app (a higher layer) answers it in ``results.recompute`` by marking the
competition pending and sending the Celery task once the transaction commits. So no lower layer
imports the task module, and a test can listen to the signal.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``competition_id`` (a :class:`clubs.models.Competition`, pairs or teams) and
#: ``heat_ids`` (the heats whose results changed; ``None`` for everything).
recompute_requested = Signal()

#: Sent by the recompute's task before it recomputes a competition and once that is stored,
#: with ``competition_id`` and ``eager`` (True: it runs in the process that asked for it, not
#: in a worker). The public pages' cache holds the hall's pages' render locks, then renders
#: them again at once (``portal.caching.hold``, ``warm``).
recompute_starting = Signal()
recompute_finished = Signal()

#: Sent with ``competition_id`` just before a change that will ask for the competition's
#: recompute is written (a results file, before its transaction: its rows make the public
#: pages stale before :func:`request_recompute` is reached), and by :func:`request_recompute`
#: itself. The public pages' cache leaves the hall's pages to the recompute's worker from then
#: on (``portal.caching.reserve``), so that no web worker the phones are polling renders a
#: page the recompute is about to change again.
recompute_expected = Signal()


def expect_recompute(competition_id: int) -> None:
    """A change that will ask for the competition's recompute is about to be written."""
    recompute_expected.send(sender=None, competition_id=competition_id)


def request_recompute(competition_id: int, *, heat_ids: list | None = None) -> None:
    """Ask for the competition to be recomputed once the current transaction commits.

    ``heat_ids`` narrows the work to the heats whose results changed (``"final"`` for the team
    final); without it everything is recomputed."""
    recompute_requested.send(sender=None, competition_id=competition_id, heat_ids=heat_ids)
    recompute_expected.send(sender=None, competition_id=competition_id)

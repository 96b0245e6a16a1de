"""TK decisions in DM Lag, one module per area (R-GEN-3: every decision sets the ``Decided``
fields of its record where it has them and is appended to the audit trail with
:func:`clubs.services.base.record_decision`; each function checks permission first, then
validates everything, then writes, and a refusal writes nothing):

- :mod:`.dispensations`: R-TEAM-3, R-TEAM-5;
- :mod:`.walkovers`: R-TEAM-WO-1..3;
- :mod:`.sanctions`: penalties, disqualification and protests, R-TEAM-RES-1..5;
- :mod:`.rulings`: rulings and appeals, R-RULING-1..3;
- :mod:`.common`: what they share.

The final's seats (answers to offers, TK's overrides, a seat given up) are decided for both
disciplines in :mod:`clubs.services.seats`.
"""

from __future__ import annotations

from teams.services.decisions.common import (
    DISQUALIFYING_CLAUSES,
    GRANTED,
    REJECTED,
    REQUESTED,
)
from teams.services.decisions.dispensations import (
    decide_dispensation,
)
from teams.services.decisions.rulings import (
    adjust_score,
    appeal_to_jury,
    appeal_to_lagkommission,
    draw_jury,
    jury_candidates,
    record_jury_decision,
    record_lagkommission_decision,
    record_ruling,
    ruling_problems,
)
from teams.services.decisions.sanctions import (
    disqualify_team,
    file_protest,
    impose_penalty,
    lift_penalty,
    penalty_problems,
)
from teams.services.decisions.walkovers import (
    award_walkover,
    revoke_walkover,
    walkover_problems,
)

__all__ = [
    "adjust_score",
    "DISQUALIFYING_CLAUSES",
    "GRANTED",
    "REJECTED",
    "REQUESTED",
    "appeal_to_jury",
    "appeal_to_lagkommission",
    "award_walkover",
    "decide_dispensation",
    "disqualify_team",
    "draw_jury",
    "file_protest",
    "impose_penalty",
    "jury_candidates",
    "lift_penalty",
    "penalty_problems",
    "record_jury_decision",
    "record_lagkommission_decision",
    "record_ruling",
    "revoke_walkover",
    "ruling_problems",
    "walkover_problems",
]

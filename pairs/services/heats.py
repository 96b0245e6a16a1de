"""Pair qualifier heats: registration by the arranging club(s), TK's decision, moving and
cancelling before and after the registration deadline, the invitation, and the clubs counted
for the direct final (TK's decision itself is ``clubs.services.heats.decide_direct_final`` with
``PAIR_HEATS``).

Clauses: R-PAIR-KVAL-1 (period, deadline, Dam), R-PAIR-KVAL-2 (changes after the deadline),
R-PAIR-KVAL-3 (invitation), R-PAIR-KVAL-5 (heat type declared), R-PAIR-KVAL-6 (sessions),
R-PAIR-DF-1 (direct final), R-GEN-3 (TK decisions recorded with who, when, why).

The change requests (:func:`request_heat_change`, :func:`decide_heat_change`) call the shared
functions in ``clubs.services.heats`` with ``PAIR_HEATS``. What pairs and team heats share (TK's decision,
moving and cancelling, the direct-final decision, small helpers) is in ``clubs.services.heats``;
``PAIR_HEATS`` describes a pairs heat to it. Every service: permission first
(``clubs.permissions``), then every check (``ubf.rules``), then the writes, in one transaction; a
refusal raises before anything is written.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction

from clubs import clock, windows
from clubs.models import Club, HeatStatus
from clubs.permissions import can_manage_pair_heat, is_tk
from clubs.services.base import (
    error,
    raise_on_errors,
    require,
    require_open_season,
    text_required,
)
from clubs.services.heats import (
    ACTIVE,
    HeatKind,
    arranging_clubs,
    cancel_heat,
    decide_heat,
    direct_final_decided,
    get_obj,
    locked,
    move_heat,
    parse_fee,
    require_for_clubs,
    unknown_club_violations,
)
from clubs.services.heats import (
    decide_heat_change as shared_decide_heat_change,
)
from clubs.services.heats import (
    request_heat_change as shared_request_heat_change,
)
from pairs.models import PairCompetition, PairHeat, PairHeatChangeRequest
from ubf.rules.heats import (
    heat_registration_violations,
    heat_session_violations,
    invitation_violations,
)
from ubf.rules.i18n import gettext_noop
from ubf.rules.types import Discipline, HeatType
from ubf.rules.violations import Violation
from ubf.rules.windows import HEAT_REGISTRATION

__all__ = [
    "ACTIVE",
    "PAIR_HEATS",
    "arranging_club_count",
    "cancel_pair_heat",
    "decide_heat_change",
    "decide_pair_heat",
    "direct_final_decided",
    "invitation_problems",
    "move_pair_heat",
    "pair_schedule_violations",
    "record_invitation",
    "register_pair_heat",
    "request_heat_change",
]

# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def pair_schedule_violations(
    competition: PairCompetition,
    first_date: date | None,
    last_date: date | None = None,
    *,
    registered_on: date | None = None,
    rules=None,
) -> list[Violation]:
    """R-PAIR-KVAL-1: every play date inside the discipline's qualifying period, no heats in Dam
    and, when ``registered_on`` is given, registered by the deadline. R-PAIR-KVAL-6: at most
    ``rules.heat_max_sessions`` sessions, the second after the first. R-PAIR-DF-1: no heats
    once TK has decided on a direct final."""
    rules = rules or competition.season.rules()
    start = competition.qualifying_start
    end = competition.qualifying_end
    deadline = competition.heat_registration_deadline
    dates = [d for d in (first_date, last_date) if d is not None]
    out: list[Violation] = []
    if competition.discipline != Discipline.DAM and None in (start, end, deadline):
        out.append(
            error(
                "R-PAIR-KVAL-1",
                gettext_noop(
                    "UBF TK har inte fastställt kvalperiod och sista anmälningsdag för "
                    "%(competition)s; kvalheat kan inte anmälas ännu."
                ),
                params={"competition": competition},
            )
        )
    # Without a registration date only the play dates are checked (the deadline stands in).
    out += heat_registration_violations(
        dates,
        start or date.min,
        end or date.max,
        registered_on if registered_on is not None else (deadline or date.max),
        deadline or date.max,
        discipline=competition.discipline,
    )
    out += heat_session_violations([()] * len(dates), rules)
    if first_date is not None and last_date is not None and last_date <= first_date:
        out.append(
            error(
                "R-PAIR-KVAL-6",
                gettext_noop(
                    "Speltillfälle 2 (%(session2_date)s) måste ligga efter speltillfälle 1 "
                    "(%(session1_date)s)."
                ),
                params={"session2_date": last_date, "session1_date": first_date},
            )
        )
    if competition.is_direct_final:
        out.append(
            error(
                "R-PAIR-DF-1",
                gettext_noop(
                    "UBF TK har beslutat om direktfinal i %(competition)s; inga klubbkval spelas."
                ),
                params={"competition": competition},
            )
        )
    return out


def _invitation_field_violations(
    first_date: date | None,
    requires_preregistration: bool,
    last_registration_day: date | None,
    pair_limit: int | None,
) -> list[Violation]:
    """R-PAIR-KVAL-3: the last registration day where pre-registration is required (not after
    the start), and a pair limit, when there is one, of at least one pair."""
    out: list[Violation] = []
    if requires_preregistration and last_registration_day is None:
        out.append(
            error(
                "R-PAIR-KVAL-3",
                gettext_noop("Föranmälan krävs: ange sista anmälningsdag."),
            )
        )
    if last_registration_day and first_date and last_registration_day > first_date:
        out.append(
            error(
                "R-PAIR-KVAL-3",
                gettext_noop(
                    "Sista anmälningsdag (%(last_registration_day)s) ligger efter heatets start "
                    "(%(session1_date)s)."
                ),
                params={
                    "last_registration_day": last_registration_day,
                    "session1_date": first_date,
                },
            )
        )
    if pair_limit is not None and int(pair_limit) < 1:
        out.append(
            error(
                "R-PAIR-KVAL-3",
                gettext_noop(
                    "Högsta antal par måste vara minst 1 (lämna tomt om antalet inte är begränsat)."
                ),
            )
        )
    return out


def _approval_violations(heat: PairHeat) -> list[Violation]:
    """R-PAIR-KVAL-1: TK's approval checks the dates again, with the registration date."""
    return pair_schedule_violations(
        heat.competition, heat.first_date, heat.last_date, registered_on=heat.registered_on
    )


def _decision_figures(heat: PairHeat) -> dict:
    return {
        "first_date": heat.first_date,
        "last_date": heat.last_date,
        "registered_on": heat.registered_on,
        "clubs": list(heat.clubs.values_list("name", flat=True)),
    }


def arranging_club_count(competition: PairCompetition) -> int:
    """The clubs arranging an approved heat in the discipline (R-PAIR-DF-1)."""
    return (
        Club.objects.filter(
            pair_heats__competition=competition, pair_heats__status=HeatStatus.APPROVED
        )
        .distinct()
        .count()
    )


#: A pairs heat as ``clubs.services.heats`` sees it.
PAIR_HEATS = HeatKind(
    app="pairs",
    model=PairHeat,
    second_date_required=False,
    change_model=PairHeatChangeRequest,
    approval_clause="R-PAIR-KVAL-1",
    can_manage=can_manage_pair_heat,
    manage_denied=gettext_noop("Du kan bara ändra kvalheat som din klubb arrangerar."),
    schedule_violations=pair_schedule_violations,
    approval_violations=_approval_violations,
    decision_figures=_decision_figures,
    competition_model=PairCompetition,
    arranging_club_count=arranging_club_count,
)


# ---------------------------------------------------------------------------------------------
# Registration and TK's decision
# ---------------------------------------------------------------------------------------------


@transaction.atomic
def register_pair_heat(
    user,
    competition,
    clubs,
    *,
    name: str,
    heat_type: str,
    first_date: date,
    last_date: date | None = None,
    venue: str,
    table_fee,
    invitation_url: str = "",
    invitation_file=None,
    requires_preregistration: bool = False,
    last_registration_day: date | None = None,
    pair_limit: int | None = None,
    reason: str = "",
) -> PairHeat:
    """R-PAIR-KVAL-1, -3, -5, -6: a club official (of every arranging club; joint heats are
    allowed) or TK registers a qualifier heat with TK. It is saved as *applied*, registered
    today; an invitation given now counts as sent today (R-PAIR-KVAL-3)."""
    competition = get_obj(PairCompetition, competition)
    club_list, missing = arranging_clubs(clubs)
    require_for_clubs(user, club_list)

    today = clock.today()
    rules = competition.season.rules()
    require_open_season(competition.season)  # issue 23: a finished season is read-only
    # After the deadline only TK, with a reason that is recorded as a decision.
    outside = (
        windows.enforce(
            windows.competition_windows(competition)[HEAT_REGISTRATION],
            user,
            reason=reason,
            today=today,
        )
        if is_tk(user) and reason.strip()
        else None
    )
    violations = unknown_club_violations(missing, "R-PAIR-KVAL-1")
    if not club_list and not missing:
        violations.append(
            error(
                "R-PAIR-KVAL-1",
                gettext_noop("Ange vilken klubb (eller vilka klubbar) som arrangerar heatet."),
            )
        )
    violations += text_required(name, "R-PAIR-KVAL-3", gettext_noop("Ge kvalheatet ett namn."))
    violations += text_required(venue, "R-PAIR-KVAL-3", gettext_noop("Ange spelplats."))
    if heat_type not in HeatType._value2member_map_:
        violations.append(
            error(
                "R-PAIR-KVAL-5",
                gettext_noop("Ange i anmälan om heatet är silverkval eller bronskval."),
                heat_type=heat_type,
            )
        )
    violations += pair_schedule_violations(
        competition, first_date, last_date, registered_on=None if outside else today, rules=rules
    )
    violations += _invitation_field_violations(
        first_date, requires_preregistration, last_registration_day, pair_limit
    )
    fee, fee_violations = parse_fee(table_fee, "R-PAIR-FEE-1", gettext_noop("bordsavgiften"))
    violations += fee_violations
    raise_on_errors(violations)

    has_invitation = bool(invitation_url or invitation_file)
    heat = PairHeat(
        competition=competition,
        name=name.strip(),
        heat_type=heat_type,
        venue=venue.strip(),
        first_date=first_date,
        last_date=last_date,
        table_fee=fee,
        invitation_url=invitation_url or "",
        invitation_sent_on=today if has_invitation else None,
        requires_preregistration=requires_preregistration,
        last_registration_day=last_registration_day,
        pair_limit=pair_limit,
        status=HeatStatus.APPLIED,
        registered_on=today,
    )
    if invitation_file:
        heat.invitation_file = invitation_file
    heat.save()
    heat.clubs.set(club_list)
    windows.record_late(
        outside, "pairs.heat.registration", heat, user=user, season=competition.season
    )
    return heat


@transaction.atomic
def decide_pair_heat(user, heat, approve: bool, reason: str = "") -> PairHeat:
    """R-GEN-3, R-PAIR-KVAL-1: TK approves (the dates are checked again) or rejects (with a
    reason) a heat; the decision is recorded with who, when and why."""
    return decide_heat(PAIR_HEATS, user, heat, approve, reason)


# ---------------------------------------------------------------------------------------------
# Changes: directly before the deadline, by request after it (R-PAIR-KVAL-2)
# ---------------------------------------------------------------------------------------------


@transaction.atomic
def move_pair_heat(
    user, heat, *, first_date: date, last_date: date | None = None, reason: str = ""
) -> PairHeat:
    """R-PAIR-KVAL-2: the arranging club moves its heat up to the registration deadline (TK at
    any time, recorded as a decision); after it the club must use :func:`request_heat_change`.
    The new dates must satisfy R-PAIR-KVAL-1 and R-PAIR-KVAL-6."""
    return move_heat(PAIR_HEATS, user, heat, first_date, last_date, reason)


@transaction.atomic
def cancel_pair_heat(user, heat, reason: str = "") -> PairHeat:
    """R-PAIR-KVAL-2: the arranging club cancels its heat up to the registration deadline (TK
    at any time, recorded as a decision); after it the club must use
    :func:`request_heat_change`."""
    return cancel_heat(PAIR_HEATS, user, heat, reason)


@transaction.atomic
def request_heat_change(
    user,
    heat,
    kind: str,
    new_first_date: date | None = None,
    new_second_date: date | None = None,
    reason: str = "",
) -> PairHeatChangeRequest:
    """R-PAIR-KVAL-2: the arranging club asks UBF TK to move or cancel its pair heat
    (:func:`clubs.services.heats.request_heat_change`)."""
    return shared_request_heat_change(
        PAIR_HEATS, user, heat, kind, new_first_date, new_second_date, reason
    )


@transaction.atomic
def decide_heat_change(user, request, approve: bool, reason: str = "") -> PairHeatChangeRequest:
    """R-PAIR-KVAL-2, R-GEN-3: TK approves or rejects a pair heat's change request."""
    return shared_decide_heat_change(PAIR_HEATS, user, request, approve, reason)


# ---------------------------------------------------------------------------------------------
# Invitation (R-PAIR-KVAL-3)
# ---------------------------------------------------------------------------------------------


@transaction.atomic
def record_invitation(
    user,
    heat,
    *,
    sent_on: date | None = None,
    url: str = "",
    file=None,
    last_registration_day: date | None = None,
    pair_limit: int | None = None,
) -> PairHeat:
    """R-PAIR-KVAL-3: the arranging club records the electronic invitation (a link or a file)
    sent to TK's chair on ``sent_on`` (default today), with the last registration day and the
    pair limit it states (``None`` keeps what the heat already has). A late or incomplete
    invitation is saved; :func:`invitation_problems` then flags it."""
    heat = get_obj(PairHeat, heat)
    require(
        can_manage_pair_heat(user, heat),
        gettext_noop("Du kan bara registrera inbjudan för kvalheat som din klubb arrangerar."),
    )
    heat = locked(PairHeat, heat, "competition__season")
    today = clock.today()
    sent_on = sent_on or today
    last_day = last_registration_day or heat.last_registration_day
    limit = pair_limit if pair_limit is not None else heat.pair_limit
    violations: list[Violation] = []
    if heat.status not in ACTIVE:
        violations.append(
            error(
                "R-PAIR-KVAL-3",
                gettext_noop("Heatet är %(heat_status)s."),
                params={"heat_status": heat.get_status_display()},
            )
        )
    if sent_on > today:
        violations.append(
            error(
                "R-PAIR-KVAL-3",
                gettext_noop("Inbjudan kan inte ha skickats %(sent_on)s: det är i framtiden."),
                params={"sent_on": sent_on},
            )
        )
    if not (url or file or heat.invitation_url or heat.invitation_file):
        violations.append(
            error(
                "R-PAIR-KVAL-3",
                gettext_noop(
                    "Inbjudan ska skickas elektroniskt: bifoga en fil eller ange en länk."
                ),
            )
        )
    violations += _invitation_field_violations(heat.first_date, False, last_day, limit)
    raise_on_errors(violations)

    if url:
        heat.invitation_url = url
    if file:
        heat.invitation_file = file
    heat.invitation_sent_on = sent_on
    heat.last_registration_day = last_day
    heat.pair_limit = limit
    heat.save()
    return heat


def invitation_problems(heat: PairHeat, today: date | None = None) -> list[Violation]:
    """R-PAIR-KVAL-3: the invitation's flags for TK and the club (WARNING violations): not sent
    although ``invitation_days_before`` (season configuration, 28) days before the start have
    come, sent late, or no last registration day where pre-registration is required. A heat
    that is not (yet) late has no flag; a rejected or cancelled heat none."""
    if heat.status not in ACTIVE:
        return []
    today = today or clock.today()
    found = invitation_violations(
        heat.first_date,
        heat.invitation_sent_on,
        heat.last_registration_day is not None,
        heat.requires_preregistration,
        rules=heat.competition.season.rules(),
    )
    not_yet_due = [
        x
        for x in found
        if heat.invitation_sent_on is None and "due_by" in x.data and today <= x.data["due_by"]
    ]
    return [x for x in found if x not in not_yet_due]

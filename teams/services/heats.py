"""Team qualifier heats: registration by the arranging club(s), TK's decision, moving and
cancelling, the check when entries close, moving a team to another heat, and the clubs counted
for the direct final (TK's decision itself is ``clubs.services.heats.decide_direct_final`` with
``TEAM_HEATS``).

Clauses: R-TEAM-REG-1 (registration with the invitation), R-TEAM-KVAL-1 (period, one heat per
club and season, joint heats), R-TEAM-KVAL-2 (fewer than four teams at close), R-TEAM-KVAL-3
(a named heat responsible), R-TEAM-KVAL-5 (8–24 boards per match), R-TEAM-FEE-1/-2 (fees),
R-TEAM-DF-1 (direct final), R-GEN-3 (TK decisions recorded). Moving or cancelling a team heat
after the registration deadline follows R-PAIR-KVAL-2 by analogy (the regulations say nothing
of team heats here): a change request TK decides (:func:`request_heat_change`,
:func:`decide_heat_change`, the shared ``clubs.services.heats`` functions for a team heat). What pairs and team
heats share (TK's decision, moving and cancelling, the direct-final decision, small helpers) is
in ``clubs.services.heats``; ``TEAM_HEATS`` describes a team heat to it.
"""

from __future__ import annotations

import dataclasses
from datetime import date

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max, Q

from clubs import clock, windows
from clubs.models import HeatStatus
from clubs.permissions import can_manage_team_heat, is_tk
from clubs.recompute import request_recompute
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
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
from teams.models import (
    HeatPlaceOffer,
    Match,
    Team,
    TeamCompetition,
    TeamHeat,
    TeamHeatChangeRequest,
    TeamHeatOrganiser,
)
from ubf.rules.heats import (
    heat_registration_violations,
    team_heat_board_violations,
    team_heat_club_violations,
    too_few_teams_at_close,
)
from ubf.rules.i18n import gettext_noop
from ubf.rules.violations import Violation
from ubf.rules.windows import HEAT_REGISTRATION

__all__ = [
    "TEAM_HEATS",
    "cancel_team_heat",
    "decide_heat_change",
    "decide_team_heat",
    "move_team_heat",
    "answer_heat_offer",
    "cancel_short_heat",
    "heats_with_room",
    "move_team_to_heat",
    "offer_other_heat",
    "short_heat_problems",
    "register_team_heat",
    "request_heat_change",
    "team_heat_entry_check",
    "team_schedule_violations",
]


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def team_schedule_violations(
    competition: TeamCompetition,
    first_date: date | None,
    last_date: date | None,
    *,
    registered_on: date | None = None,
    entries_close: date | None = None,
) -> list[Violation]:
    """R-TEAM-KVAL-1: the play days inside the period TK set (first day not after the last);
    R-TEAM-REG-1: registered by the date UBF set, when ``registered_on`` is given;
    R-TEAM-KVAL-2: entries close no later than the first play day; R-TEAM-DF-1: no heats once
    TK has decided on a direct final. (The date checks are the rulebook's R-PAIR-KVAL-1 check,
    which reads the same for team heats, re-labelled with the team clauses.)"""
    out: list[Violation] = []
    dates = sorted({d for d in (first_date, last_date) if d is not None})
    if first_date and last_date and first_date > last_date:
        out.append(
            error(
                "R-TEAM-KVAL-1",
                gettext_noop(
                    "Första speldagen (%(first_date)s) ligger efter sista speldagen "
                    "(%(last_date)s)."
                ),
                params={"first_date": first_date, "last_date": last_date},
            )
        )
    deadline = competition.heat_registration_deadline
    for found in heat_registration_violations(
        dates,
        competition.qualifying_start,
        competition.qualifying_end,
        registered_on if registered_on is not None else deadline,
        deadline,
    ):
        registration = "registered_on" in found.data or "deadline" in found.data
        out.append(
            dataclasses.replace(found, clause="R-TEAM-REG-1" if registration else "R-TEAM-KVAL-1")
        )
    if entries_close and first_date and entries_close > first_date:
        out.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop(
                    "Sista anmälningsdag för lag (%(entries_close)s) måste ligga senast första "
                    "speldagen (%(first_date)s)."
                ),
                params={"entries_close": entries_close, "first_date": first_date},
            )
        )
    if competition.is_direct_final:
        out.append(
            error(
                "R-TEAM-DF-1",
                gettext_noop("UBF TK har beslutat om direktfinal i DM Lag; inga klubbkval spelas."),
            )
        )
    return out


def _board_violations(boards_per_match, rules) -> list[Violation]:
    """R-TEAM-KVAL-5: 8–24 boards in every match (the 70-board total per team depends on the
    number of teams and is checked on the schedule, not here)."""
    if not isinstance(boards_per_match, int) or boards_per_match < 1:
        return [
            error(
                "R-TEAM-KVAL-5",
                gettext_noop("Ange antal brickor per match."),
            )
        ]
    return [
        x
        for x in team_heat_board_violations([("A", "B", boards_per_match)], rules)
        if "boards_by_team" not in x.data
    ]


def _club_violations(competition, clubs, *, exclude_heat=None) -> list[Violation]:
    """R-TEAM-KVAL-1: each club arranges at most one heat a season (joint heats allowed). A
    club still listed on a rejected or cancelled heat is refused too, with its own message
    (the database keeps one organiser row per club and season)."""
    organisers = TeamHeatOrganiser.objects.filter(competition=competition).select_related(
        "heat", "club"
    )
    if exclude_heat is not None:
        organisers = organisers.exclude(heat=exclude_heat)
    active: dict[int, list[str]] = {}
    out: list[Violation] = []
    ours = {c.pk for c in clubs}
    for org in organisers:
        if org.heat.status in ACTIVE:
            active.setdefault(org.heat_id, []).append(org.club.name)
        elif org.club_id in ours:
            out.append(
                error(
                    "R-TEAM-KVAL-1",
                    gettext_noop(
                        "Klubben %(club)s står redan som arrangör av heatet %(heat)s "
                        "(%(heat_status)s) denna säsong. Be UBF TK ta bort det heatet innan "
                        "klubben anmäler ett nytt."
                    ),
                    club=org.club.name,
                    heat=org.heat.name,
                    params={
                        "club": org.club.name,
                        "heat": org.heat.name,
                        "heat_status": org.heat.get_status_display(),
                    },
                )
            )
    out += team_heat_club_violations(
        [c.name for c in clubs], active.values(), joint_heat_stated=True
    )
    return out


def _approval_violations(heat: TeamHeat) -> list[Violation]:
    """TK's approval checks the dates, boards and clubs again (R-TEAM-REG-1, R-TEAM-KVAL-1,
    -2, -5); a club's rejected earlier heat does not block it."""
    competition = heat.competition
    violations = team_schedule_violations(
        competition,
        heat.first_date,
        heat.last_date,
        registered_on=heat.registered_on,
        entries_close=heat.entries_close,
    )
    violations += _board_violations(heat.boards_per_match, competition.season.rules())
    clubs = [o.club for o in heat.organisers.select_related("club")]
    violations += [
        x
        for x in _club_violations(competition, clubs, exclude_heat=heat)
        if x.data.get("heat") is None  # a rejected earlier heat does not block approval
    ]
    return violations


def _decision_figures(heat: TeamHeat) -> dict:
    return {
        "first_date": heat.first_date,
        "last_date": heat.last_date,
        "boards_per_match": heat.boards_per_match,
        "registered_on": heat.registered_on,
        "clubs": list(heat.organisers.values_list("club__name", flat=True)),
    }


def arranging_club_count(competition: TeamCompetition) -> int:
    """The clubs arranging an approved team heat (R-TEAM-DF-1)."""
    return (
        TeamHeatOrganiser.objects.filter(competition=competition, heat__status=HeatStatus.APPROVED)
        .values("club")
        .distinct()
        .count()
    )


#: A team heat as ``clubs.services.heats`` sees it. Moving or cancelling it follows R-PAIR-KVAL-2
#: by analogy; the heat responsible may do it too.
TEAM_HEATS = HeatKind(
    app="teams",
    model=TeamHeat,
    second_date_required=True,
    change_model=TeamHeatChangeRequest,
    approval_clause="R-TEAM-REG-1",
    can_manage=can_manage_team_heat,
    manage_denied=gettext_noop("Du kan bara ändra kvalheat som du eller din klubb ansvarar för."),
    schedule_violations=team_schedule_violations,
    approval_violations=_approval_violations,
    decision_figures=_decision_figures,
    competition_model=TeamCompetition,
    arranging_club_count=arranging_club_count,
)


# ---------------------------------------------------------------------------------------------
# Registration and TK's decision
# ---------------------------------------------------------------------------------------------


@transaction.atomic
def register_team_heat(
    user,
    competition,
    clubs,
    *,
    name: str,
    venue: str,
    responsible_name: str,
    responsible_email: str,
    responsible_phone: str = "",
    boards_per_match: int,
    dealt_at_table: bool = False,
    first_date: date,
    last_date: date,
    entries_close: date,
    start_fee,
    table_fee_per_match=0,
    invitation_url: str = "",
    invitation_file=None,
    responsible_user=None,
    reason: str = "",
) -> TeamHeat:
    """R-TEAM-REG-1: a club official (of every arranging club: a joint, regional heat is
    registered once with all its clubs) or TK registers a team heat with TK by the date UBF
    set, with the invitation (a link or a file) and its play days, venue, heat responsible
    (R-TEAM-KVAL-3: named, with an e-mail), start and table fees (R-TEAM-FEE-1/-2). Checked:
    R-TEAM-KVAL-1 (period; one heat per club and season, before the database would refuse),
    R-TEAM-KVAL-5 (8–24 boards a match), R-TEAM-KVAL-2 (entries close by the first day).
    Saved as *applied*, registered today."""
    competition = get_obj(TeamCompetition, competition)
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
    violations = unknown_club_violations(missing, "R-TEAM-KVAL-1")
    violations += _club_violations(competition, club_list)
    violations += text_required(name, "R-TEAM-REG-1", gettext_noop("Ge kvalheatet ett namn."))
    violations += text_required(venue, "R-TEAM-REG-1", gettext_noop("Ange spelplats och lokal."))
    violations += text_required(
        responsible_name,
        "R-TEAM-KVAL-3",
        gettext_noop("Arrangören ska utse en heatansvarig: ange namnet."),
    )
    try:
        validate_email(responsible_email or "")
    except ValidationError:
        violations.append(
            error(
                "R-TEAM-KVAL-3",
                gettext_noop(
                    "Ange heatansvarigs e-postadress; den är kontakten mellan heatet och UBF."
                ),
            )
        )
    violations += _board_violations(boards_per_match, rules)
    violations += team_schedule_violations(
        competition,
        first_date,
        last_date,
        registered_on=None if outside else today,
        entries_close=entries_close,
    )
    if entries_close is None:
        violations.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop("Ange sista anmälningsdag för lag."),
            )
        )
    fee, fee_violations = parse_fee(start_fee, "R-TEAM-FEE-1", gettext_noop("startavgiften"))
    violations += fee_violations
    if fee is not None and fee != rules.team_start_fee:
        violations.append(
            error(
                "R-TEAM-FEE-1",
                gettext_noop("Startavgiften är %(team_start_fee)s kr per lag (inte %(fee)s kr)."),
                params={"team_start_fee": rules.team_start_fee, "fee": fee},
            )
        )
    table_fee, table_violations = parse_fee(
        table_fee_per_match, "R-TEAM-FEE-2", gettext_noop("bordsavgiften per match")
    )
    violations += table_violations
    if not (invitation_url or invitation_file):
        violations.append(
            error(
                "R-TEAM-REG-1",
                gettext_noop("Bifoga inbjudan till anmälan (fil eller länk)."),
            )
        )
    raise_on_errors(violations)

    heat = TeamHeat(
        competition=competition,
        name=name.strip(),
        venue=venue.strip(),
        responsible_name=responsible_name.strip(),
        responsible_email=responsible_email.strip(),
        responsible_phone=(responsible_phone or "").strip(),
        responsible_user=responsible_user,
        boards_per_match=boards_per_match,
        dealt_at_table=bool(dealt_at_table),
        first_date=first_date,
        last_date=last_date,
        entries_close=entries_close,
        start_fee=fee,
        table_fee_per_match=table_fee,
        invitation_url=invitation_url or "",
        status=HeatStatus.APPLIED,
        registered_on=today,
    )
    if invitation_file:
        heat.invitation_file = invitation_file
    heat.save()
    for club in club_list:
        TeamHeatOrganiser.objects.create(heat=heat, club=club)
    windows.record_late(
        outside, "teams.heat.registration", heat, user=user, season=competition.season
    )
    return heat


@transaction.atomic
def decide_team_heat(user, heat, approve: bool, reason: str = "") -> TeamHeat:
    """R-GEN-3, R-TEAM-REG-1: TK approves (dates, boards and clubs are checked again) or
    rejects (with a reason) a team heat; recorded with who, when and why."""
    return decide_heat(TEAM_HEATS, user, heat, approve, reason)


# ---------------------------------------------------------------------------------------------
# Changes (R-PAIR-KVAL-2 by analogy) and teams moving between heats (R-TEAM-KVAL-2)
# ---------------------------------------------------------------------------------------------


@transaction.atomic
def move_team_heat(
    user, heat, *, first_date: date, last_date: date | None = None, reason: str = ""
) -> TeamHeat:
    """The arranging club or heat responsible moves the heat up to the registration deadline
    (TK at any time, recorded); after it, a change request (R-PAIR-KVAL-2 by analogy). Without
    ``last_date`` the heat keeps its length. The new days must lie in the period
    (R-TEAM-KVAL-1)."""
    return move_heat(TEAM_HEATS, user, heat, first_date, last_date, reason, keep_length=True)


@transaction.atomic
def cancel_team_heat(user, heat, reason: str = "") -> TeamHeat:
    """The arranging club or heat responsible cancels the heat up to the registration deadline
    (TK at any time, recorded); after it, a change request (R-PAIR-KVAL-2 by analogy)."""
    return cancel_heat(TEAM_HEATS, user, heat, reason)


def team_heat_entry_check(heat: TeamHeat, today: date | None = None) -> list[Violation]:
    """R-TEAM-KVAL-2: once entries have closed (the day after ``entries_close``), a heat with
    fewer than ``heat_min_teams`` (4) entered teams gives a WARNING for TK and the organiser;
    its ``data["offer_heats"]`` lists the other heats (approved or applied, not yet started)
    the teams can move to. Before the close, or for a heat not going ahead: nothing."""
    today = today or clock.today()
    if heat.status not in ACTIVE or heat.entries_close is None or today <= heat.entries_close:
        return []
    entered = heat.teams.filter(status=Team.Status.ENTERED).count()
    others = (
        TeamHeat.objects.filter(
            competition_id=heat.competition_id, status__in=ACTIVE, first_date__gt=today
        )
        .exclude(pk=heat.pk)
        .order_by("first_date", "name")
    )
    return too_few_teams_at_close(
        entered, [o.name for o in others], heat.competition.season.rules()
    )


def _move_problems(team: Team, new_heat: TeamHeat, *, not_started: bool = False) -> list[Violation]:
    """R-TEAM-KVAL-2: why ``team`` cannot be given a place in ``new_heat``: another DM Lag, a
    heat not going ahead (or, for an offer, ``not_started``, already started: TK's own move
    may still put a team into a heat on its first day), its own heat, a team no longer
    entered, or one with matches in its heat already (take them away first)."""
    today = clock.today()
    violations: list[Violation] = []
    if new_heat.competition_id != team.competition_id:
        violations.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop("Laget kan bara flyttas till ett kvalheat i samma DM Lag."),
            )
        )
    if new_heat.status not in ACTIVE:
        violations.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop("Heatet %(new_heat)s är %(new_heat_status)s."),
                params={
                    "new_heat": new_heat.name,
                    "new_heat_status": new_heat.get_status_display(),
                },
            )
        )
    elif not_started and new_heat.first_date <= today:
        violations.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop(
                    "Heatet %(new_heat)s har redan börjat (%(first_date)s); laget kan bara "
                    "erbjudas ett heat som inte har börjat."
                ),
                params={"new_heat": new_heat.name, "first_date": new_heat.first_date.isoformat()},
            )
        )
    if team.heat_id == new_heat.pk:
        violations.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop("Laget spelar redan i %(new_heat)s."),
                params={"new_heat": new_heat.name},
            )
        )
    if team.status != Team.Status.ENTERED:
        violations.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop("Laget är %(team_status)s."),
                params={"team_status": team.get_status_display()},
            )
        )
    has_matches = Match.objects.filter(stage=Match.Stage.KVAL).filter(Q(home=team) | Q(away=team))
    if has_matches.exists():
        violations.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop(
                    "Laget har redan matcher i sitt kvalheat; ta bort dem innan laget flyttas."
                ),
            )
        )
    return violations


def _move(user, team: Team, new_heat: TeamHeat, reason: str, **data) -> Team:
    """Move ``team`` (its roster goes with it: the rows are the team's) to ``new_heat`` with the
    next free number there; recorded as ``teams.team.heat_moved`` (from, to, why)."""
    old_heat, old_number = team.heat, team.number
    highest = new_heat.teams.aggregate(n=Max("number"))["n"] or 0
    team.heat = new_heat
    team.number = highest + 1
    team.save(update_fields=["heat", "number"])
    record_decision(
        "teams.team.heat_moved",
        team,
        user=user,
        reason=(reason or "").strip(),
        clause="R-TEAM-KVAL-2",
        season=team.competition.season,
        from_heat=str(old_heat) if old_heat else None,
        from_number=old_number,
        to_heat=str(new_heat),
        to_number=team.number,
        **data,
    )
    request_recompute(team.competition_id)
    return team


@transaction.atomic
def move_team_to_heat(user, team, new_heat, reason: str = "") -> Team:
    """R-TEAM-KVAL-2: a team is given a place in another heat (usually because its own had too
    few teams at close). TK, or someone who manages both heats, moves it before it has played;
    it gets the next free number in the new heat. Recorded (who, when, why, from, to)."""
    team = get_obj(Team, team)
    new_heat = get_obj(TeamHeat, new_heat)
    allowed = is_tk(user) or (
        team.heat is not None
        and can_manage_team_heat(user, team.heat)
        and can_manage_team_heat(user, new_heat)
    )
    require(
        allowed,
        gettext_noop("Bara UBF TK, eller den som ansvarar för båda heaten, kan flytta ett lag."),
    )
    team = locked(Team, team, "competition__season", "heat")
    new_heat = locked(TeamHeat, new_heat)
    raise_on_errors(_move_problems(team, new_heat))
    return _move(user, team, new_heat, reason)


# ---------------------------------------------------------------------------------------------
# Too few teams at close: offers of places in other heats, the empty heat cancelled
# (R-TEAM-KVAL-2)
# ---------------------------------------------------------------------------------------------


def short_heat_problems(heat: TeamHeat, today: date | None = None) -> list[Violation]:
    """Why TK cannot act under R-TEAM-KVAL-2 for ``heat`` (empty when it can): the heat is not
    going ahead, its entries have not closed, or it has enough teams."""
    today = today or clock.today()
    if heat.status not in ACTIVE:
        return [
            error(
                "R-TEAM-KVAL-2",
                gettext_noop("Heatet %(heat)s är %(heat_status)s."),
                params={"heat": heat.name, "heat_status": heat.get_status_display()},
            )
        ]
    if heat.entries_close is None or today <= heat.entries_close:
        return [
            error(
                "R-TEAM-KVAL-2",
                gettext_noop(
                    "Anmälan till %(heat)s har inte stängt än: lagen erbjuds plats i andra heat "
                    "först när anmälningstiden gått ut med för få lag."
                ),
                params={"heat": heat.name},
            )
        ]
    if not team_heat_entry_check(heat, today):
        return [
            error(
                "R-TEAM-KVAL-2",
                gettext_noop("%(heat)s har minst %(minimum)s anmälda lag och spelas som det är."),
                params={
                    "heat": heat.name,
                    "minimum": heat.competition.season.rules().heat_min_teams,
                },
            )
        ]
    return []


def heats_with_room(heat: TeamHeat, today: date | None = None) -> list[TeamHeat]:
    """The other heats of the DM Lag a team of ``heat`` can be offered (approved or applied,
    not yet started), in date order."""
    today = today or clock.today()
    return list(
        TeamHeat.objects.filter(
            competition_id=heat.competition_id, status__in=ACTIVE, first_date__gt=today
        )
        .exclude(pk=heat.pk)
        .order_by("first_date", "name")
    )


def _require_tk(user) -> None:
    require(
        is_tk(user),
        gettext_noop("Bara UBF TK erbjuder lag plats i andra kvalheat (R-TEAM-KVAL-2)."),
    )


@transaction.atomic
def offer_other_heat(user, team, to_heat, reason: str = "") -> HeatPlaceOffer:
    """R-TEAM-KVAL-2: TK offers a team of a heat that had too few teams when entries closed a
    place in another heat that has not started. Refused (nothing saved): not TK, a heat that
    is not short (entries still open, enough teams), a team with an offer waiting for its
    answer, or any reason the team could not be moved there (``_move_problems``). Recorded as
    ``teams.heat_offer.offered``."""
    _require_tk(user)
    team = locked(Team, get_obj(Team, team), "competition__season", "heat")
    to_heat = locked(TeamHeat, get_obj(TeamHeat, to_heat))
    require_open_season(team.competition.season)
    problems: list[Violation] = []
    if team.heat is None:
        problems.append(error("R-TEAM-KVAL-2", gettext_noop("Laget spelar inget kvalheat.")))
    else:
        problems += short_heat_problems(team.heat)
    if HeatPlaceOffer.objects.filter(team=team, answer=HeatPlaceOffer.Answer.PENDING).exists():
        problems.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop("%(team)s har redan ett erbjudande som väntar på svar."),
                params={"team": team.name},
            )
        )
    problems += _move_problems(team, to_heat, not_started=True)
    raise_on_errors(problems)
    offer = HeatPlaceOffer.objects.create(
        competition=team.competition,
        team=team,
        from_heat=team.heat,
        to_heat=to_heat,
        offered_at=clock.now(),
        offered_by=user,
        reason=(reason or "").strip(),
    )
    record_decision(
        "teams.heat_offer.offered",
        offer,
        user=user,
        reason=(reason or "").strip(),
        clause="R-TEAM-KVAL-2",
        season=team.competition.season,
        team=team.name,
        from_heat=team.heat.name,
        to_heat=to_heat.name,
    )
    return offer


@transaction.atomic
def answer_heat_offer(user, offer, accept: bool, reason: str = "") -> HeatPlaceOffer:
    """R-TEAM-KVAL-2: the team's answer to an offered place: its captain on the captain's page,
    or TK recording the answer the team gave (then with how it came: a reason). Yes moves the
    team, with its roster, to the offered heat (checked again: it must not have started); no
    leaves it where it is. Refused (nothing saved): anyone else, an offer answered before.
    Recorded as ``teams.heat_offer.accepted`` / ``.declined`` (and the move as
    ``teams.team.heat_moved``)."""
    offer = get_obj(HeatPlaceOffer, offer)
    team = offer.team
    tk = is_tk(user)
    require(
        tk or (user is not None and user.is_authenticated and team.captain_user_id == user.id),
        gettext_noop(
            "Bara lagets kapten, eller UBF TK som registrerar lagets svar, svarar på ett "
            "erbjudande om plats i annat kvalheat (R-TEAM-KVAL-2)."
        ),
    )
    team = locked(Team, team, "competition__season", "heat")
    offer = locked(HeatPlaceOffer, offer, "to_heat", "from_heat")
    to_heat = locked(TeamHeat, offer.to_heat)
    require_open_season(team.competition.season)
    problems: list[Violation] = []
    if offer.answer != HeatPlaceOffer.Answer.PENDING:
        problems.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop("Erbjudandet är redan besvarat (%(answer)s)."),
                params={"answer": offer.get_answer_display()},
            )
        )
    if tk and team.captain_user_id != user.id:
        problems += reason_required(reason, "R-TEAM-KVAL-2")
    if accept:
        problems += _move_problems(team, to_heat, not_started=True)
    raise_on_errors(problems)
    offer.answer = HeatPlaceOffer.Answer.ACCEPTED if accept else HeatPlaceOffer.Answer.DECLINED
    offer.answered_at = clock.now()
    offer.recorded_by = user
    offer.answer_note = (reason or "").strip()
    offer.save()
    record_decision(
        f"teams.heat_offer.{'accepted' if accept else 'declined'}",
        offer,
        user=user,
        reason=(reason or "").strip(),
        clause="R-TEAM-KVAL-2",
        season=team.competition.season,
        team=team.name,
        from_heat=offer.from_heat.name,
        to_heat=to_heat.name,
    )
    if accept:
        _move(user, team, to_heat, reason or offer.reason, offer=offer.pk)
    return offer


@transaction.atomic
def cancel_short_heat(user, heat, reason: str) -> TeamHeat:
    """R-TEAM-KVAL-2: TK cancels a heat that had too few teams at close once no team is left
    in it (each moved to another heat or withdrawn), with a reason; recorded with the clause
    (``teams.heat.cancelled``) and the competition recomputed. Refused while a team is still
    entered in it, or an offer to one of its teams waits for an answer."""
    _require_tk(user)
    heat = get_obj(TeamHeat, heat)
    problems = reason_required(reason, "R-TEAM-KVAL-2") + short_heat_problems(heat)
    left = list(heat.teams.filter(status=Team.Status.ENTERED).values_list("name", flat=True))
    if left:
        problems.append(
            error(
                "R-TEAM-KVAL-2",
                gettext_noop(
                    "%(heat)s har kvar %(teams)s: ställ in heatet först när inget lag är kvar "
                    "(flyttat till ett annat heat eller återtaget)."
                ),
                params={"heat": heat.name, "teams": ", ".join(left)},
            )
        )
    raise_on_errors(problems)
    return cancel_heat(TEAM_HEATS, user, heat, reason, clause="R-TEAM-KVAL-2")


@transaction.atomic
def request_heat_change(
    user,
    heat,
    kind: str,
    new_first_date: date | None = None,
    new_second_date: date | None = None,
    reason: str = "",
) -> TeamHeatChangeRequest:
    """The heat responsible (or an official of an arranging club) asks UBF TK to move or cancel
    a team heat after the registration deadline (as R-PAIR-KVAL-2)."""
    return shared_request_heat_change(
        TEAM_HEATS, user, heat, kind, new_first_date, new_second_date, reason
    )


@transaction.atomic
def decide_heat_change(user, request, approve: bool, reason: str = "") -> TeamHeatChangeRequest:
    """R-GEN-3: TK approves or rejects a team heat's change request."""
    return shared_decide_heat_change(TEAM_HEATS, user, request, approve, reason)

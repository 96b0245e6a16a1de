"""R-TEAM-REG-2: "Anmälan görs till heatansvarig". A captain who may not enter a team directly
asks the heat responsible to enter it (:func:`request_team_entry`); the heat responsible
confirms with one click (:func:`confirm_team_entry`), which calls
:func:`teams.services.entries.enter_team` with every one of its checks, or refuses with a
reason (:func:`refuse_team_entry`). Each in one transaction; a refusal saves nothing. All three
are written to the decision log (``teams.entry_request.sent`` / ``.confirmed`` /
``.refused``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from clubs import clock, windows
from clubs.locks import lock_row
from clubs.models import Decided
from clubs.permissions import can_manage_team_heat
from clubs.selectors import normalise_mid
from clubs.services.base import (
    acting_user_id,
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
)
from teams.models import TeamEntryRequest, TeamHeat
from teams.services.entries import (
    _CLOSED_HEAT,
    TeamOutcome,
    _check_team_data,
    enter_team,
    other_team_check,
)
from ubf.rules.i18n import gettext_noop
from ubf.rules.windows import ENTRIES

REQUESTED = Decided.Status.REQUESTED


@transaction.atomic
def request_team_entry(
    user,
    heat: TeamHeat,
    *,
    name: str,
    captain_mid,
    address: str,
    phone: str,
    email: str,
    player_mids: Iterable,
    reason: str = "",
) -> TeamEntryRequest:
    """Ask the heat responsible of ``heat`` to enter a team (who: any logged-in user; the
    heat responsible then decides). Refused, nothing saved: what :func:`enter_team` would refuse
    in the entry's data (R-TEAM-REG-2: name, captain's MID, address, phone, e-mail; unknown
    MIDs; R-TEAM-2: 4–6 players with a representation club; R-TEAM-RES-2: a player on or who
    played for another team this season), a closed heat, a closed entries
    window, an open request for the same team name in the heat. The district balance
    (R-TEAM-3) is the heat responsible's to meet at confirmation (a dispensation is then
    asked of TK)."""
    require(acting_user_id(user) is not None)
    heat = TeamHeat.objects.select_related("competition__season").get(pk=heat.pk)
    competition = heat.competition
    windows.enforce(
        windows.heat_windows(heat)[ENTRIES], user, season=competition.season, reason=reason
    )
    player_mids = list(player_mids)
    data = _check_team_data(
        competition,
        name=name,
        captain_mid=captain_mid,
        address=address,
        phone=phone,
        email=email,
        player_mids=player_mids,
        rules=competition.season.rules(),
    )
    violations = list(data.violations)
    # R-TEAM-RES-2: a player of another team is refused here too (only TK, entering or
    # confirming with a reason, may let such a player in).
    violations += other_team_check(
        user, competition.season, data.players, data.infos, exclude_team=None
    )[0]
    if heat.status in _CLOSED_HEAT:
        violations.append(
            error(
                "R-TEAM-REG-2",
                gettext_noop("Heatet %(heat)s är %(heat_status)s och tar inte emot lag."),
                params={"heat": heat.name, "heat_status": heat.get_status_display()},
            )
        )
    if (
        data.name
        and TeamEntryRequest.objects.filter(
            heat=heat, name__iexact=data.name, status=REQUESTED
        ).exists()
    ):
        violations.append(
            error(
                "R-TEAM-REG-2",
                gettext_noop(
                    "%(name)s är redan anmält till %(heat)s och väntar på heatansvarigs besked."
                ),
                params={"name": data.name, "heat": heat.name},
            )
        )
    raise_on_errors(violations)
    request = TeamEntryRequest.objects.create(
        heat=heat,
        name=data.name,
        captain_mid=normalise_mid(captain_mid),
        address=data.address,
        phone=data.phone,
        email=data.email,
        player_mids=[p.mid for p in data.players],
        requested_by=user,
    )
    record_decision(
        "teams.entry_request.sent",
        request,
        user=user,
        clause="R-TEAM-REG-2",
        season=competition.season,
        heat=heat.name,
        team=data.name,
        mids=request.player_mids,
    )
    return request


def _open_request(user, request: TeamEntryRequest) -> TeamEntryRequest:
    request = lock_row(
        TeamEntryRequest.objects.select_related("heat__competition__season", "requested_by"),
        request.pk,
        competition="heat__competition_id",
    )
    require(
        can_manage_team_heat(user, request.heat),
        gettext_noop("Bara heatets heatansvarig, arrangörsklubben och TK besvarar laganmälningar."),
    )
    if request.status != REQUESTED:
        raise_on_errors(
            [
                error(
                    "R-TEAM-REG-2",
                    gettext_noop("Anmälan av %(name)s är redan %(status)s."),
                    params={"name": request.name, "status": request.get_status_display()},
                )
            ]
        )
    return request


@transaction.atomic
def confirm_team_entry(user, request: TeamEntryRequest, *, reason: str = "") -> TeamOutcome:
    """The heat responsible's one click: the team is entered by :func:`enter_team` (its
    permission and every check; a refusal there saves nothing here either), the request is
    granted and linked to the team, and the captain who asked becomes the team's
    ``captain_user``. A player of another team (R-TEAM-RES-2) is refused unless TK confirms
    with a ``reason``."""
    request = _open_request(user, request)
    outcome = enter_team(
        user,
        request.heat,
        name=request.name,
        captain_mid=request.captain_mid,
        address=request.address,
        phone=request.phone,
        email=request.email,
        player_mids=request.player_mids,
        reason=reason,
    )
    team = outcome.team
    if request.requested_by_id and team.captain_user_id is None:
        team.captain_user_id = request.requested_by_id
        team.save(update_fields=["captain_user"])
    request.status = Decided.Status.GRANTED
    request.decided_by = user
    request.decided_at = clock.now()
    request.team = team
    request.save()
    record_decision(
        "teams.entry_request.confirmed",
        request,
        user=user,
        clause="R-TEAM-REG-2",
        season=request.heat.competition.season,
        heat=request.heat.name,
        team=team.name,
        number=team.number,
    )
    return outcome


@transaction.atomic
def refuse_team_entry(user, request: TeamEntryRequest, reason: str) -> TeamEntryRequest:
    """The heat responsible says no, with a reason the captain reads (R-GEN-3)."""
    request = _open_request(user, request)
    raise_on_errors(reason_required(reason))
    request.status = Decided.Status.REJECTED
    request.decided_by = user
    request.decided_at = clock.now()
    request.reason = reason.strip()
    request.save()
    record_decision(
        "teams.entry_request.refused",
        request,
        user=user,
        reason=request.reason,
        clause="R-TEAM-REG-2",
        season=request.heat.competition.season,
        heat=request.heat.name,
        team=request.name,
    )
    return request

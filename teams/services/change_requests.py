"""Late roster changes and line-ups as requests that TK decides (issue 11; R-TEAM-2, R-GEN-3).

A roster changes only for matches not yet played and a line-up is recorded up to its match day
(``clubs.windows.roster_window`` / ``lineup_window``). After that a captain (or whoever manages
the team's heat) cannot make the change, but can ask TK for it with a reason:
:func:`request_roster_change`. The request is checked at once by the same functions as the
direct change (``teams.services.entries.check_roster_change`` / ``check_lineup``: roster size,
eligibility, a player who played for another team this season, ...) and refused, with nothing
saved, if the direct change would be refused for anything but its window; while the window is
open there is nothing to ask: the change is made directly.

TK decides with :func:`decide_roster_change`, always with a reason: approving makes the change
through the direct change's own service (``update_roster`` / ``record_lineup``), as TK acting
after the window, which checks everything again and records the late change as a decision;
rejecting changes nothing. Either way the request keeps TK's reason and the decision is
appended to the audit trail.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from clubs import clock, windows
from clubs.locks import lock_row
from clubs.models import Decided
from clubs.permissions import can_manage_team, is_tk
from clubs.selectors import normalise_mid
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
    text_required,
)
from teams.models import (
    Match,
    RosterChangeRequest,
    RosterChangeRequestPlayer,
    Team,
)
from teams.services.entries import (
    can_record_lineup,
    check_lineup,
    check_roster_change,
    lineup_players,
    locked_team,
    record_lineup,
    update_roster,
)
from ubf.rules.i18n import gettext_noop
from ubf.rules.violations import Violation

Role = RosterChangeRequestPlayer.Role
Kind = RosterChangeRequest.Kind

_OPEN_TEMPLATE = gettext_noop(
    "%(what)s är öppen till och med %(day)s: gör ändringen direkt, det behövs ingen begäran hos TK."
)
_OPEN_UNDATED_TEMPLATE = gettext_noop(
    "%(what)s är öppen: gör ändringen direkt, det behövs ingen begäran hos TK."
)
_TK_TEMPLATE = gettext_noop(
    "TK behöver inte begära ändringar: gör ändringen direkt och ange ett skäl, så sparas den "
    "som ett TK-beslut."
)
_NO_REASON = gettext_noop("Skriv varför ändringen behövs; TK beslutar utifrån motiveringen.")
_PENDING = gettext_noop(
    "Det finns redan en obesvarad ändringsbegäran för %(what)s; vänta på TK:s beslut."
)


def _mids(values: Iterable) -> list[str]:
    return list(dict.fromkeys(m for m in (normalise_mid(x) for x in values) if m))


def _asking(user, window, today) -> list[Violation]:
    """A request is for what the window no longer allows: refused while it is open (make the
    change directly) and for TK (who makes it directly, with a reason)."""
    if is_tk(user):
        return [error("R-GEN-3", _TK_TEMPLATE)]
    if not window.is_open(today):
        return []
    if window.closes is None:
        return [error(window.clause, _OPEN_UNDATED_TEMPLATE, params={"what": window.name_sv})]
    return [
        error(
            window.clause,
            _OPEN_TEMPLATE,
            params={"what": window.name_sv, "day": window.closes.isoformat()},
            window=window.key,
        )
    ]


@transaction.atomic
def request_roster_change(
    user,
    team: Team,
    *,
    reason: str,
    add_mids: Iterable = (),
    remove_mids: Iterable = (),
    match: Match | None = None,
    half1_mids: Iterable = (),
    half2_mids: Iterable = (),
) -> RosterChangeRequest:
    """Ask TK for a change the window no longer allows (who: the team's captain, whoever
    manages its heat; for a line-up also the match's heat responsible or arranging club).

    Without ``match``: players to add to and remove from the roster once the team has no match
    left to play (``clubs.windows.roster_window``). With ``match``: the team's line-up of that
    match (``half1_mids``, ``half2_mids``) after its match day (``lineup_window``).

    Refused (nothing saved): while the window is open ("gör ändringen direkt"), by TK (who
    changes it directly with a reason), without the asker's ``reason``, while another request
    of the same kind is waiting for TK, and for everything the direct change would refuse
    (``check_roster_change`` / ``check_lineup``: unknown MIDs, a roster outside 4–6 players,
    a player who played for another team this season, R-TEAM-RES-2, naming that team, ...)."""
    today = clock.today()
    adds, removes = _mids(add_mids), _mids(remove_mids)
    halves = [_mids(half1_mids), _mids(half2_mids)]
    if match is None:
        require(
            can_manage_team(user, team),
            gettext_noop("Bara lagets kapten eller den som sköter lagets heat kan begära ändring."),
        )
        team = locked_team(team)
        violations = _asking(user, windows.roster_window(team), today)
        pending = RosterChangeRequest.objects.filter(
            team=team, kind=Kind.ROSTER, status=Decided.Status.REQUESTED
        )
        what = gettext_noop("spelartruppen")
        if not adds and not removes:
            violations.append(
                error(
                    "R-TEAM-2", gettext_noop("Ange minst en spelare att lägga till eller ta bort.")
                )
            )
        change = check_roster_change(team, adds, removes)
        violations += change.violations
        rows = [(p, Role.ADD) for p in change.added] + [(p, Role.REMOVE) for p in change.removed]
    else:
        match, team = lineup_players(match, team)
        require(
            can_record_lineup(user, match, team),
            gettext_noop(
                "Bara lagets kapten eller den som sköter matchens heat kan begära ändring."
            ),
        )
        team = locked_team(team)
        violations = _asking(user, windows.lineup_window(match), today)
        if adds or removes:
            violations.append(
                error(
                    "R-TEAM-2",
                    gettext_noop(
                        "En begäran gäller antingen spelartruppen eller en match, inte båda."
                    ),
                )
            )
        pending = RosterChangeRequest.objects.filter(
            team=team, kind=Kind.LINEUP, match=match, status=Decided.Status.REQUESTED
        )
        what = gettext_noop("matchens laguppställning")
        check = check_lineup(match, team, *halves, today=today)
        violations += check.violations
        rows = [
            (check.found[m], role)
            for role, mids in zip((Role.HALF1, Role.HALF2), halves[: match.halves], strict=False)
            for m in mids
            if m in check.found
        ]
    violations += text_required(reason, "R-TEAM-2", _NO_REASON)
    if pending.exists():
        violations.append(error("R-TEAM-2", _PENDING, params={"what": what}))
    raise_on_errors(violations)

    request = RosterChangeRequest.objects.create(
        team=team,
        kind=Kind.ROSTER if match is None else Kind.LINEUP,
        match=match,
        request_reason=reason.strip(),
        requested_by=user,
    )
    # Asked "now" by the one clock (the demo's date, a test's), not the machine's.
    RosterChangeRequest.objects.filter(pk=request.pk).update(requested_at=clock.now())
    request.requested_at = clock.now()
    RosterChangeRequestPlayer.objects.bulk_create(
        RosterChangeRequestPlayer(request=request, player=player, role=role)
        for player, role in rows
    )
    return request


def requested_mids(request: RosterChangeRequest) -> dict[str, list[str]]:
    """The MIDs asked for, by role ("add", "remove", "half1", "half2"), in the order given."""
    out: dict[str, list[str]] = {role: [] for role in Role.values}
    for row in request.players.select_related("player").order_by("id"):
        out[row.role].append(row.player.mid)
    return out


@transaction.atomic
def decide_roster_change(
    user, request: RosterChangeRequest, approve: bool, reason: str = ""
) -> RosterChangeRequest:
    """R-GEN-3: TK approves or rejects a roster change request, always with a reason.

    Approving makes the change through the direct change's service (``update_roster`` for the
    roster, ``record_lineup`` for a match's line-up) as TK acting after its window: every
    check is made again (a refusal there refuses the approval, nothing saved, the request
    still waiting) and the late change is recorded as a decision with the reason. Rejecting
    changes nothing. The request keeps who decided, when and why; the decision is appended to
    the audit trail (``teams.roster_change.granted`` / ``.rejected``)."""
    require(
        is_tk(user),
        gettext_noop("Bara UBF TK kan godkänna eller avslå en ändringsbegäran (R-GEN-3)."),
    )
    request = lock_row(
        RosterChangeRequest.objects.select_related("team__competition__season", "match"),
        request.pk,
        competition="team__competition_id",
    )
    violations = reason_required(reason)
    if request.status != Decided.Status.REQUESTED:
        violations.append(
            error(
                "R-GEN-3",
                gettext_noop("Begäran är redan %(request_status)s."),
                params={"request_status": request.get_status_display()},
            )
        )
    raise_on_errors(violations)
    reason = reason.strip()
    mids = requested_mids(request)
    team = request.team
    if approve and request.kind == Kind.LINEUP:
        record_lineup(
            user,
            request.match,
            team,
            half1_mids=mids[Role.HALF1],
            half2_mids=mids[Role.HALF2],
            reason=reason,
        )
    elif approve:
        # TK's reason here is for the late change: letting in a player of another team
        # (R-TEAM-RES-2) is a decision of its own, taken on the roster itself.
        update_roster(
            user,
            team,
            add_mids=mids[Role.ADD],
            remove_mids=mids[Role.REMOVE],
            reason=reason,
            allow_other_team=False,
        )
    request.status = Decided.Status.GRANTED if approve else Decided.Status.REJECTED
    request.decided_by = user
    request.decided_at = clock.now()
    request.reason = reason
    request.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    record_decision(
        f"teams.roster_change.{'granted' if approve else 'rejected'}",
        request,
        user=user,
        reason=reason,
        clause="R-TEAM-2",
        season=team.competition.season,
        kind=request.kind,
        team=team.name,
        match_id=request.match_id,
        request_reason=request.request_reason,
        requested_by=request.requested_by_id,
        **mids,
    )
    return request

"""The captain's team page (/mitt-lag/<team_id>/, issue 13 item 4): where the team stands
(entered, in the final, reserve, out, and why: the public page's status, ``portal.selectors.lag``),
what it still needs (roster, the next match's line-up, fees, open requests), each linked to the
page that fixes it, its dispensations with TK's answers, and the request for a 7th/8th player
with a pick of the team's matches (``teams.services.entries.request_extra_player``). Here in
the portal because the status and the fees are read from ``results`` and ``portal``."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import clock, windows
from clubs.permissions import can_manage_team
from clubs.services.base import ServiceError
from clubs.templatetags.formats_i18n import day, num
from portal.selectors.lag import team_page
from portal.services.fees import team_final_fee_list, team_heat_fee_list
from results.services.semifinal import semifinal_board, state_message
from teams.forms import ExtraPlayerForm
from teams.models import (
    Dispensation,
    HeatPlaceOffer,
    Lineup,
    Match,
    RosterChangeRequest,
    Team,
)
from teams.selectors import team_rows
from teams.services.entries import request_balance_dispensation, team_occasions
from teams.views import ask_for_extra_player


@dataclass
class Need:
    """One thing the team still needs: the sentence and the page that fixes it."""

    text: str
    url: str
    link: str


def _fee_rows(team):
    rows = []
    if team.heat_id:
        rows += [r for r in team_heat_fee_list(team.heat).rows if r.obj.pk == team.pk]
    if team.is_finalist:
        rows += [r for r in team_final_fee_list(team.competition).rows if r.obj.pk == team.pk]
    return rows


def _upcoming(matches) -> list:
    """The team's matches still to play: not played, on today or later (or undated), in
    date order."""
    today = clock.today()
    out = []
    for m in matches:
        on = windows.match_date(m)
        if m.status == Match.Status.SCHEDULED and (on is None or on >= today):
            out.append((on or today, m.round, m.pk, m))
    return [m for *_, m in sorted(out)]


@dataclass
class Semifinal:
    """R-TEAM-SEMI-1 on the captain's page: the team's place in the choosing (``turn``, None
    without a place), its state in words, and the board (venues with room, open or not)."""

    board: object
    turn: object
    message: object
    declined: object


def _semifinal(team, page) -> Semifinal | None:
    """Only for a team in the final's table (its snapshot row): four queries more."""
    if page.final_row is None:
        return None
    board = semifinal_board(team.competition)
    turn = board.turn_of(team.pk)
    declined = next((c for c in board.declined if c.team_id == team.pk), None)
    return Semifinal(board, turn, state_message(turn, board), declined)


def _needs(team, row, fees, dispensations, change_requests) -> list[Need]:
    roster_url = reverse("teams:roster", args=[team.pk])
    needs = [Need(text, roster_url, _("Ändra spelartruppen")) for text in row.reason_texts]
    needs += [Need(text, roster_url, _("Se spelartruppen")) for text in row.risk_texts]
    with_lineup = set(
        Lineup.objects.filter(team=team, match__in=row.matches).values_list("match_id", flat=True)
    )
    upcoming = _upcoming(row.matches)
    if upcoming and upcoming[0].pk not in with_lineup:
        m = upcoming[0]
        needs.append(
            Need(
                _(
                    "Laguppställningen saknas för nästa match: rond %(round)s mot %(opponent)s%(day)s."
                )
                % {
                    "round": m.round,
                    "opponent": m.away if m.home_id == team.pk else m.home,
                    "day": f" ({day(m.played_on)})" if m.played_on else "",
                },
                reverse("teams:lineup", args=[team.pk, m.pk]),
                _("Lämna laguppställning"),
            )
        )
    for fee in fees:
        if fee.total and fee.collected_on is None:
            needs.append(
                Need(
                    _("Avgiften %(total)s kr är inte markerad som betald till arrangören.")
                    % {"total": num(fee.total, "2")},
                    "#avgifter",
                    _("Se avgifterna"),
                )
            )
    waiting = [d for d in dispensations if d.status == Dispensation.Status.REQUESTED]
    waiting_changes = [
        r for r in change_requests if r.status == RosterChangeRequest.Status.REQUESTED
    ]
    if waiting or waiting_changes:
        needs.append(
            Need(
                _("%(n)s begäran väntar på TK:s beslut.")
                % {"n": len(waiting) + len(waiting_changes)},
                "#dispenser",
                _("Se begäran"),
            )
        )
    return needs


@login_required
def captain_team(request, team_id: int):
    page = team_page(team_id)
    team = page.team
    if not can_manage_team(request.user, team):
        raise PermissionDenied
    form = ExtraPlayerForm(
        request.POST or None, occasions=team_occasions(team), today=clock.today()
    )
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        errors = ask_for_extra_player(request, team, form)
        if not errors:
            return redirect(reverse("portal:captain_team", args=[team.pk]) + "#dispenser")
    (row,) = team_rows(type(team).objects.filter(pk=team.pk), team.competition.season)
    dispensations = list(
        Dispensation.objects.filter(team=team).select_related("player").order_by("-id")
    )
    change_requests = list(
        RosterChangeRequest.objects.filter(team=team).select_related("match__home", "match__away")
    )
    fees = _fee_rows(team)
    return render(
        request,
        "portal/captain_team.html",
        {
            "page": page,
            "team": team,
            "row": row,
            "needs": _needs(team, row, fees, dispensations, change_requests),
            "fees": fees,
            "dispensations": dispensations,
            "change_requests": change_requests,
            "form": form,
            "errors": errors,
            "semifinal": _semifinal(team, page),
            # R-TEAM-KVAL-2: places offered in other heats, and the team's answers
            "heat_offers": list(
                HeatPlaceOffer.objects.filter(team=team).select_related("to_heat", "from_heat")
            ),
            "balance_window": (
                windows.label(windows.balance_dispensation_window(team)) if row.balance else ""
            ),
        },
        status=400 if errors or form.errors else 200,
    )


@login_required
@require_POST
def ask_balance_dispensation(request, team_id: int):
    """R-TEAM-3: the captain asks TK for the district-balance dispensation, with the team's
    reason (``teams.services.entries.request_balance_dispensation`` checks who and when)."""
    team = get_object_or_404(Team.objects.select_related("competition__season", "heat"), pk=team_id)
    try:
        request_balance_dispensation(request.user, team, request.POST.get("reason", ""))
    except ServiceError as exc:
        for text in exc.messages(get_language() or "sv"):
            messages.error(request, text)
    else:
        messages.success(
            request,
            _("Dispensen är begärd hos TK (R-TEAM-3); TK:s svar visas här på lagets sida."),
        )
    return redirect(reverse("portal:captain_team", args=[team.pk]) + "#distriktsbalans")

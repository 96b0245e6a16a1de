"""TK's work queue (/tk/): everything in the current season that waits for a TK decision,
grouped by kind and sorted by deadline, each with the facts needed to decide and a link to
where the decision is taken. A fixed number of queries however long the queue.

Read side only: the decisions themselves go through the services (the admin's actions call
them); this module never changes anything."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.db.models import Count, F, Q
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs import clock, seats, windows
from clubs.i18n import render
from clubs.models import Decided, FinalSeat, HeatStatus, Membership, Season, SeatOffer
from clubs.services.flags import open_flags
from pairs.models import PairCompetition, PairHeat, PairHeatChangeRequest
from portal.selectors.direct_finals import direct_final_rows
from results.models import AllocationRun, StandingSnapshot
from results.services.lots import standing_ties
from results.services.semifinal import semifinal_board
from teams.models import (
    Dispensation,
    HeatPlaceOffer,
    Lineup,
    Match,
    Penalty,
    RosterChangeRequest,
    Team,
    TeamCompetition,
    TeamHeat,
    TeamHeatChangeRequest,
    WalkOver,
)
from ubf.rules import replacement
from ubf.rules.eligibility import unpaid_deadline
from ubf.rules.heats import too_few_teams_at_close


@dataclass
class Item:
    title: str
    clause: str
    url: str
    deadline: date | None = None
    facts: list[str] = field(default_factory=list)
    #: The decision taken on /tk/ itself (``portal.views.tk.DECISIONS``), or "" when it is
    #: taken on the item's page.
    action: str = ""
    pk: int | None = None
    #: Set by the view: the labels of the two answers.
    decision: object = None
    #: What a decision other than yes/no needs (a W.O.'s two teams, a lot's venue keys).
    extra: dict = field(default_factory=dict)


@dataclass
class Group:
    key: str
    title: str
    items: list[Item]
    #: False for a group of decisions in force that TK may undo (not counted as waiting).
    waiting: bool = True
    #: A form of the group's own (the W.O. group's pick of any match).
    extra: dict = field(default_factory=dict)


def _admin_url(obj) -> str:
    meta = obj._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])


def _by_deadline(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (i.deadline is None, i.deadline or date.max, i.title))


def _d(day: date | None) -> str:
    return day.isoformat() if day else ""


def _heats(season) -> list[Item]:
    items = []
    for model, clause in ((PairHeat, "R-PAIR-KVAL-1"), (TeamHeat, "R-TEAM-REG-1")):
        for heat in (
            model.objects.filter(competition__season=season, status=HeatStatus.APPLIED)
            .select_related("competition__season")
            .prefetch_related("clubs")
        ):
            days = _d(heat.first_date)
            if heat.last_date and heat.last_date != heat.first_date:
                days += f" – {_d(heat.last_date)}"
            items.append(
                Item(
                    title=f"{heat.competition}: {heat.name}",
                    clause=clause,
                    url=_admin_url(heat),
                    action="pair_heat" if model is PairHeat else "team_heat",
                    pk=heat.pk,
                    deadline=heat.first_date,
                    facts=[
                        _("Arrangör: %(clubs)s")
                        % {"clubs": ", ".join(c.name for c in heat.clubs.all())},
                        _("Speldag: %(days)s") % {"days": days},
                    ],
                )
            )
    return _by_deadline(items)


def _heat_changes(season) -> list[Item]:
    items = []
    for model in (PairHeatChangeRequest, TeamHeatChangeRequest):
        for req in model.objects.filter(
            heat__competition__season=season, status=Decided.Status.REQUESTED
        ).select_related("heat__competition__season"):
            facts = [req.get_kind_display()]
            if req.new_first_date:
                facts.append(_("Nytt datum: %(day)s") % {"day": _d(req.new_first_date)})
            if req.request_reason:
                facts.append(_("Klubbens motivering: %(reason)s") % {"reason": req.request_reason})
            items.append(
                Item(
                    title=f"{req.heat.competition}: {req.heat.name}",
                    clause="R-PAIR-KVAL-2",
                    url=_admin_url(req),
                    action="pair_change" if model is PairHeatChangeRequest else "team_change",
                    pk=req.pk,
                    deadline=req.heat.first_date,
                    facts=facts,
                )
            )
    return _by_deadline(items)


def _roster_changes(season) -> list[Item]:
    """R-TEAM-2: roster changes and line-ups a captain asked for after their window; no
    deadline of their own (oldest first)."""
    items = []
    for req in (
        RosterChangeRequest.objects.filter(
            team__competition__season=season, status=Decided.Status.REQUESTED
        )
        .select_related("team", "match__home", "match__away")
        .prefetch_related("players__player")
        .order_by("requested_at", "id")
    ):
        asked: dict[str, list[str]] = {}
        for row in req.players.all():
            asked.setdefault(row.get_role_display(), []).append(row.player.full_name)
        facts = [str(req.match) if req.match_id else req.get_kind_display()]
        facts += [f"{role}: {', '.join(names)}" for role, names in asked.items()]
        facts.append(_("Lagets motivering: %(reason)s") % {"reason": req.request_reason})
        items.append(
            Item(
                title=str(req.team),
                clause="R-TEAM-2",
                url=_admin_url(req),
                facts=facts,
                action="roster_change",
                pk=req.pk,
            )
        )
    return items


def _dispensations(season) -> list[Item]:
    """R-TEAM-5 and R-TEAM-3: the dispensations asked; a district-balance one by the team's
    heat's first day (it must be granted before the team starts), with the team's reason."""
    items = []
    for disp in Dispensation.objects.filter(
        team__competition__season=season, status=Decided.Status.REQUESTED
    ).select_related("team__heat", "team__competition", "player"):
        facts = [disp.get_kind_display()]
        if disp.player_id:
            facts.append(_("Spelare: %(name)s") % {"name": disp.player.full_name})
        if disp.occasion:
            facts.append(_("Tillfälle: %(occasion)s") % {"occasion": disp.occasion})
        balance = disp.kind == Dispensation.Kind.DISTRICT_BALANCE
        if balance:
            facts.append(_("Laget saknar UBF-majoritet och får inte starta utan dispensen."))
        if disp.request_reason:
            facts.append(_("Lagets motivering: %(reason)s") % {"reason": disp.request_reason})
        team = disp.team
        deadline = disp.occasion_date
        if balance:
            deadline = team.heat.first_date if team.heat_id else team.competition.final_day1
        items.append(
            Item(
                title=str(team),
                clause="R-TEAM-3" if balance else "R-TEAM-5",
                url=reverse("portal:captain_team", args=[team.pk]) + "#dispenser",
                action="dispensation",
                pk=disp.pk,
                deadline=deadline,
                facts=facts,
            )
        )
    return _by_deadline(items)


def _sanctions(season) -> list[Item]:
    items = []
    for pen in Penalty.objects.filter(
        team__competition__season=season, status=Decided.Status.REQUESTED
    ).select_related("team"):
        items.append(
            Item(
                title=str(pen.team),
                clause=pen.clause,
                url=_admin_url(pen),
                facts=[_("VP-avdrag: %(vp)s") % {"vp": pen.vp}],
            )
        )
    return _by_deadline(items)


def _match_day(match: Match) -> date | None:
    """The day a match is (or was) to be played: its own day, else its heat's last day or
    the final's second central day."""
    if match.played_on:
        return match.played_on
    if match.heat_id:
        return match.heat.last_date or match.heat.first_date
    return match.competition.final_day2


def _match_label(match: Match) -> str:
    stage = match.heat.name if match.heat_id else match.get_stage_display()
    day = _match_day(match)
    return f"{stage}, r{match.round}, {_d(day)}: {match.home} – {match.away}"


def _wo_item(match: Match, clause: str, facts: list[str], offender_id=None) -> Item:
    return Item(
        title=_match_label(match),
        clause=clause,
        url=_admin_url(match),
        deadline=_match_day(match),
        facts=facts,
        action="wo_award",
        pk=match.pk,
        extra={
            "teams": [("home", match.home.name), ("away", match.away.name)],
            "offender": ("home" if offender_id == match.home_id else "away" if offender_id else ""),
        },
    )


def _season_matches(season):
    return (
        Match.objects.filter(competition__season=season)
        .select_related("home", "away", "heat", "competition")
        .order_by("stage", "heat__first_date", "heat_id", "round", "id")
    )


def _walkovers(season, matches: list[Match], walkovers: list[WalkOver]) -> list[Item]:
    """R-TEAM-WO-1: W.O.s asked of TK, and matches whose day has passed unplayed (a match
    played late, or never): TK awards a W.O. or lets it be."""
    today = clock.today()
    items = []
    asked = set()
    for wo in walkovers:
        if wo.status == Decided.Status.REQUESTED:
            asked.add(wo.match_id)
            items.append(
                _wo_item(
                    wo.match,
                    "R-TEAM-WO-1",
                    [_("Begärd W.O.: %(team)s kom inte") % {"team": wo.offender}]
                    + ([wo.reason] if wo.reason else []),
                    offender_id=wo.offender_id,
                )
            )
    for match in matches:
        day = _match_day(match)
        if (
            match.status == Match.Status.SCHEDULED
            and match.pk not in asked
            and day is not None
            and day < today
        ):
            items.append(
                _wo_item(
                    match,
                    "R-TEAM-WO-1",
                    [
                        _("Inget resultat: matchen skulle ha spelats senast %(day)s.")
                        % {"day": _d(day)}
                    ],
                )
            )
    return _by_deadline(items)


def _walkovers_given(walkovers: list[WalkOver]) -> list[Item]:
    return [
        Item(
            title=_match_label(wo.match),
            clause="R-TEAM-WO-1",
            url=_admin_url(wo),
            facts=[
                _("Lämnad av %(team)s: %(vp_home)s–%(vp_away)s VP")
                % {"team": wo.offender, "vp_home": wo.match.vp_home, "vp_away": wo.match.vp_away},
                *([wo.rule_text] if wo.rule_text else []),
                *([_("Motivering: %(reason)s") % {"reason": wo.reason}] if wo.reason else []),
            ],
            action="wo_revoke",
            pk=wo.pk,
        )
        for wo in walkovers
        if wo.status == Decided.Status.GRANTED
    ]


def _penalties_in_force(season) -> list[Item]:
    """R-TEAM-RES-1, R-VP-4: VP penalties that count; TK may lift one, with a reason."""
    return [
        Item(
            title=str(pen.team),
            clause=pen.clause,
            url=_admin_url(pen),
            facts=[
                _("VP-avdrag: %(vp)s") % {"vp": pen.vp},
                *([str(pen.match)] if pen.match_id else []),
                *([_("Motivering: %(reason)s") % {"reason": pen.reason}] if pen.reason else []),
            ],
            action="penalty_lift",
            pk=pen.pk,
        )
        for pen in Penalty.objects.filter(
            team__competition__season=season, status=Decided.Status.GRANTED
        ).select_related("team", "match__home", "match__away")
    ]


def _lots(season) -> list[Item]:
    """R-ALLOC-5: ties between equal venues that the allocation shows but no lot settles yet;
    TK presses "Dra lott" (``results.services.lots.draw_lot``)."""
    items = []
    for run in AllocationRun.objects.filter(competition__season=season).select_related(
        "competition__season"
    ):
        for lot in (run.explanation or {}).get("lots", []):
            if lot.get("recorded") or not lot.get("keys"):
                continue
            facts = [
                _("Lika många kvalande: %(among)s") % {"among": ", ".join(lot["among"])},
                _("Platser att lotta: %(seats)s") % {"seats": lot["seats"]},
            ]
            if lot.get("by_precedence"):
                facts.append(
                    _("Företräde (R-ALLOC-5): %(venues)s")
                    % {"venues": ", ".join(lot["by_precedence"])}
                )
            items.append(
                Item(
                    title=f"{run.competition}",
                    clause="R-ALLOC-5",
                    url=_admin_url(run),
                    facts=facts,
                    action="lot_draw",
                    pk=run.competition_id,
                    extra={
                        "among": ",".join(lot["keys"]),
                        "venues": list(zip(lot["keys"], lot["among"], strict=False)),
                    },
                )
            )
    return items


def _offers(season) -> list[Item]:
    """R-REPL-5, R-TEAM-REPL-1: the offers of final seats waiting for the answer, pairs and
    teams alike (one ``clubs.SeatOffer``), answered here (``clubs.services.seats``)."""
    items = []
    for offer in SeatOffer.objects.filter(
        seat__competition__season=season, answer=SeatOffer.Answer.PENDING
    ).select_related(
        "seat__competition__season",
        "seat__competition__paircompetition",
        "seat__competition__teamcompetition",
        "entry__pairentry__heat",
        *seats.ENTRY_NAMES,
    ):
        competition = offer.seat.competition
        pair = competition.kind == competition.Kind.PAIRS
        heat = offer.entry.pairentry.heat if pair else None
        items.append(
            Item(
                title=f"{competition}: {offer.entry}",
                clause="R-REPL-5" if pair else "R-TEAM-REPL-1",
                url=_admin_url(offer),
                action="seat_offer",
                pk=offer.pk,
                deadline=windows.seat_answer_window(competition.specific).closes,
                facts=[
                    *([_("Kvalheat: %(heat)s") % {"heat": heat.name}] if heat else []),
                    _("Erbjuden %(day)s") % {"day": _d(offer.offered_at.date())},
                    *([offer.reason_text()] if offer.reason else []),  # why this pair or team
                ],
            )
        )
    return _by_deadline(items)


def _seats_tk_decides(season) -> list[Item]:
    """R-REPL-3: the seats of the season's finals that the chain has nobody left to ask for
    (the allocation's stored chain), none of them left empty yet: TK decides on the final's
    seat page. Two queries."""
    runs = {
        r.competition_id: r
        for r in AllocationRun.objects.filter(competition__season=season).select_related(
            "competition__season"
        )
    }
    waiting = {
        (run_id, c["seat"]): c
        for run_id, run in runs.items()
        for c in (run.explanation or {}).get("chain", [])
        if c.get("status") == replacement.TK_DECIDES
    }
    if not waiting:
        return []
    items = []
    for seat in FinalSeat.objects.filter(
        competition_id__in={k[0] for k in waiting}, closed_reason=""
    ).order_by("id"):
        chain = waiting.get((seat.competition_id, seat.chain_key))
        if chain is None:
            continue
        competition = runs[seat.competition_id].competition
        url = reverse("portal:tk_final_seats", args=[seat.competition_id])
        steps = chain.get("steps") or []
        items.append(
            Item(
                title=f"{competition}: {seat}",
                clause="R-REPL-3",
                url=f"{url}#plats-{seat.pk}",
                facts=[render(steps[-1]["message"])] if steps else [],
            )
        )
    return items


def _missing_lineups(season) -> list[Item]:
    """R-TEAM-4: a played match without a recorded line-up counts the whole roster as fielded;
    TK settles it by having the line-up recorded."""
    matches = (
        Match.objects.filter(competition__season=season, status=Match.Status.PLAYED)
        .annotate(
            home_rows=Count("lineups", filter=Q(lineups__team=F("home"))),
            away_rows=Count("lineups", filter=Q(lineups__team=F("away"))),
        )
        .filter(Q(home_rows=0) | Q(away_rows=0))
        .select_related("home", "away", "heat")
        .order_by("played_on", "round", "id")
    )
    items = []
    for m in matches:
        teams = [t for t, n in ((m.home, m.home_rows), (m.away, m.away_rows)) if n == 0]
        items.append(
            Item(
                title=str(m),
                clause="R-TEAM-4",
                url=_admin_url(m),
                deadline=m.played_on,
                facts=[
                    _(
                        "Laguppställning saknas för %(teams)s: hela laglistan räknas tills den är registrerad."
                    )
                    % {"teams": ", ".join(t.name for t in teams)}
                ],
            )
        )
    return items


def _direct_final_play(season) -> list[Item]:
    """R-TEAM-DIRECT-1: what the final's recompute found about the champions' players."""
    items = []
    for snap in StandingSnapshot.objects.filter(
        scope=StandingSnapshot.Scope.TEAM_FINAL, competition__season=season
    ).select_related("competition__season"):
        for row in snap.data:
            for finding in row.get("direct_warnings", ()):
                items.append(
                    Item(
                        title=f"{snap.competition}: {row.get('name', '')}",
                        clause=finding.get("clause", "R-TEAM-DIRECT-1"),
                        url=reverse("admin:teams_team_change", args=[row["team_id"]]),
                        facts=[render(finding)],
                    )
                )
    return items


def _flags(season) -> list[Item]:
    """Every flag a service raised for TK (an unpaid member, a player of another team, a
    player outside UBF, an out-of-district pair: ``clubs.services.base.flag_warnings``), one
    item each until TK has handled it with a reason (``clubs.services.flags.decide_flag``)."""
    english = (get_language() or "sv").startswith("en")
    items = []
    for flag in open_flags(season):
        lines = flag.data.get("messages_en") if english else None
        facts = list(lines or [line for line in flag.reason.splitlines() if line])
        items.append(
            Item(
                title=flag.object_repr,
                clause=flag.clause,
                url=reverse("portal:tk_log") + "?" + urlencode({"q": flag.object_repr}),
                facts=facts,
                action="flag",
                pk=flag.pk,
            )
        )
    return items


def _unpaid_fielded(season) -> list[Item]:
    """R-TEAM-RES-1: one item per (team, fielded player) whose SBF fee had not been paid when
    he played, until the team is disqualified: the matches played unpaid, the VP they cost
    (``rules.unpaid_player_penalty_vp`` each), and the day the fee must reach SBF by
    (:func:`ubf.rules.eligibility.unpaid_deadline`); after it, disqualification, one click
    away on /tk/sanktioner/. A fee received by the deadline ends the item. Three queries."""
    rules = season.rules()
    paid = dict(Membership.objects.filter(season=season).values_list("player_id", "paid_on"))
    played: dict[tuple[int, int], set] = {}
    names: dict[tuple[int, int], tuple] = {}
    for lu in (
        Lineup.objects.filter(match__competition__season=season)
        .exclude(team__status=Team.Status.DISQUALIFIED)
        .select_related("team", "player", "match__heat", "match__competition")
    ):
        m = lu.match  # the day as disqualify_team counts it (its heat's first day, if unset)
        on = m.played_on or (m.heat.first_date if m.heat_id else m.competition.final_day1)
        paid_on = paid.get(lu.player_id)
        if on is None or (paid_on is not None and paid_on <= on):
            continue
        key = (lu.team_id, lu.player_id)
        played.setdefault(key, {})[lu.match_id] = on
        names[key] = (lu.team, lu.player)
    penalised = set(
        Penalty.objects.filter(
            team__competition__season=season,
            clause="R-TEAM-RES-1",
            status=Decided.Status.GRANTED,
        ).values_list("team_id", "match_id")
    )
    items = []
    for key, matches in played.items():
        team, player = names[key]
        first = min(matches.values())
        deadline = unpaid_deadline(first, rules)
        paid_on = paid.get(player.pk)
        if paid_on is not None and paid_on <= deadline:
            continue  # paid in time: only the VP penalties remain (R-TEAM-RES-1)
        due = len(matches) * rules.unpaid_player_penalty_vp
        decided = sum(1 for m in matches if (team.pk, m) in penalised)
        items.append(
            Item(
                title=f"{team}: {player.full_name} ({player.mid})",
                clause="R-TEAM-RES-1",
                url=reverse("portal:tk_sanctions")
                + "?"
                + urlencode({"team": team.pk, "clause": "R-TEAM-RES-1"})
                + "#diskvalificera",
                deadline=deadline,
                facts=[
                    _(
                        "Spelade utan betald medlemsavgift i %(n)s match(er), första gången "
                        "%(first)s: %(vp)s VP avdrag (%(decided)s av %(n)s beslutade)."
                    )
                    % {
                        "n": len(matches),
                        "first": _d(first),
                        "vp": number_format(due, 2),
                        "decided": decided,
                    },
                    _(
                        "Avgiften ska ha nått SBF senast %(deadline)s; annars diskvalificeras "
                        "laget (R-TEAM-RES-1, R-TEAM-RES-4)."
                    )
                    % {"deadline": _d(deadline)},
                ],
                action="unpaid_disqualify",
                pk=team.pk,
            )
        )
    return _by_deadline(items)


def _direct_finals(season) -> list[Item]:
    """R-PAIR-DF-1, R-TEAM-DF-1: a competition where fewer than two clubs arrange approved
    heats and TK has not decided, by the end of its qualifying period; decided on
    /tk/direktfinal/. Shown once the heats' registration deadline has passed (before it
    clubs may still register)."""
    items = []
    today = clock.today()
    for row in direct_final_rows(season):
        if row.is_dam or row.notice is None or row.decision is not None:
            continue
        registration = row.competition.heat_registration_deadline
        if row.competition.is_direct_final or (registration and today <= registration):
            continue
        items.append(
            Item(
                title=str(row.competition),
                clause=row.clause,
                url=reverse("portal:tk_direct_final") + f"#tavling-{row.competition.pk}",
                deadline=row.deadline,
                facts=[render(row.notice)],
            )
        )
    return _by_deadline(items)


def _short_heats(season) -> list[Item]:
    """R-TEAM-KVAL-2: every team heat still going ahead whose entries closed with fewer than
    ``heat_min_teams`` teams, until it is cancelled: how many teams, the offers of places in
    other heats waiting for an answer, and when no team is left, that it is to be cancelled;
    each links TK's page for the heat. Two queries."""
    rules = season.rules()
    today = clock.today()
    waiting: dict[int, int] = {}
    for heat_id in HeatPlaceOffer.objects.filter(
        competition__season=season, answer=HeatPlaceOffer.Answer.PENDING
    ).values_list("from_heat_id", flat=True):
        waiting[heat_id] = waiting.get(heat_id, 0) + 1
    items = []
    for heat in TeamHeat.objects.filter(
        competition__season=season,
        status__in=(HeatStatus.APPLIED, HeatStatus.APPROVED),
        entries_close__lt=today,
    ).annotate(entered=Count("teams", filter=Q(teams__status=Team.Status.ENTERED))):
        finding = too_few_teams_at_close(heat.entered, (), rules)
        if not finding:
            continue
        facts = [
            _("%(n)s anmälda lag när anmälan stängt (minst %(minimum)s).")
            % {"n": heat.entered, "minimum": rules.heat_min_teams}
        ]
        if waiting.get(heat.pk):
            facts.append(
                _("%(n)s erbjudande(n) om plats i annat heat väntar på svar.")
                % {"n": waiting[heat.pk]}
            )
        if heat.entered == 0:
            facts.append(_("Inga lag kvar: heatet kan ställas in."))
        items.append(
            Item(
                title=heat.name,
                clause="R-TEAM-KVAL-2",
                url=reverse("portal:tk_short_heat", args=[heat.pk]),
                deadline=heat.first_date,
                facts=facts,
            )
        )
    return _by_deadline(items)


def _semifinal(season) -> list[Item]:
    """R-TEAM-SEMI-1: once the DM Lag final is complete, the team whose turn it is to choose
    an SM semifinal venue (TK records the answers on /tk/sm-semifinal/ or the captain on the
    captain's page), by the final's last central day; or why the choosing cannot start (SBF's
    places or venues missing, a lot not drawn). Four queries a team competition."""
    items = []
    for competition in TeamCompetition.objects.filter(season=season).select_related("season"):
        board = semifinal_board(competition)
        if board.done or not board.complete:
            continue  # all chosen, or the final is still being played: nothing to choose yet
        current = board.current
        facts = [render(v) for v in board.closed]
        if current is not None and board.is_open:
            facts.insert(
                0,
                _("Nu väljer %(team)s (nummer %(n)s av %(places)s).")
                % {"team": current.name, "n": current.number, "places": board.places},
            )
        items.append(
            Item(
                title=f"{competition}: {_('val av SM-semifinalort')}",
                clause="R-TEAM-SEMI-1",
                url=reverse("portal:tk_semifinal"),
                deadline=competition.final_day2,
                facts=facts,
            )
        )
    return items


def tk_queue(season: Season | None = None) -> list[Group]:
    """The groups of TK's queue for ``season`` (the current one by default), empty groups
    included so the page can say "nothing waits"."""
    season = season or Season.current()
    if season is None:
        return []
    matches = list(_season_matches(season))
    walkovers = list(
        WalkOver.objects.filter(match__competition__season=season)
        .exclude(status=Decided.Status.REJECTED)
        .select_related(
            "match__home", "match__away", "match__heat", "match__competition", "offender"
        )
    )
    return [
        Group("flags", _("Flaggor till TK"), _flags(season)),
        Group("heats", _("Kvalheat att godkänna"), _heats(season)),
        Group("direct_finals", _("Direktfinal att besluta"), _direct_finals(season)),
        Group("short_heats", _("Kvalheat med för få lag"), _short_heats(season)),
        Group("heat_changes", _("Begärda ändringar av kvalheat"), _heat_changes(season)),
        Group(
            "roster_changes",
            _("Begärda ändringar av laguppställning"),
            _roster_changes(season),
        ),
        Group("dispensations", _("Dispensansökningar"), _dispensations(season)),
        Group(
            "walkovers",
            _("W.O. att avgöra"),
            _walkovers(season, matches, walkovers),
            extra={
                "matches": [
                    (m.pk, _match_label(m)) for m in matches if m.status != Match.Status.WALKOVER
                ]
            },
        ),
        Group("lots", _("Lottningar att dra"), _lots(season) + standing_lot_items(season)),
        Group("sanctions", _("Begärda bestraffningar"), _sanctions(season)),
        Group("unpaid", _("Obetalda spelare som spelat (14 dagar)"), _unpaid_fielded(season)),
        Group("offers", _("Erbjudna finalplatser utan svar"), _offers(season)),
        Group("final_seats", _("Finalplatser där TK avgör"), _seats_tk_decides(season)),
        Group("semifinal", _("Val av SM-semifinalort"), _semifinal(season)),
        Group("lineups", _("Spelade matcher utan laguppställning"), _missing_lineups(season)),
        Group(
            "direct_final",
            _("Mästarlagets spel i finalen"),
            _direct_final_play(season),
        ),
        Group(
            "walkovers_given",
            _("Utdömda W.O."),
            _walkovers_given(walkovers),
            waiting=False,
        ),
        Group(
            "penalties",
            _("Gällande VP-avdrag"),
            _penalties_in_force(season),
            waiting=False,
        ),
    ]


def _table_url(tie) -> str:
    """The page of the table a tie is in: the heat's page, or the final's."""
    if tie.pairs:
        if tie.heat is not None:
            return reverse("portal:par_heat", args=[tie.heat.pk])
        return reverse("portal:par_final", args=[tie.competition.pk])
    if tie.heat is not None:
        return reverse("portal:lag_heat", args=[tie.heat.pk])
    return reverse("portal:lag_final")


def standing_lot_items(season) -> list:
    """One queue item per tie that matters, in a finished table, with no lot drawn: a team
    heat's or the team final's (R-TEAM-TIE-1), a pairs heat's or the pairs final's
    (R-PAIR-TIE-1)."""
    items = []
    competitions = list(PairCompetition.objects.filter(season=season).select_related("season"))
    competitions += TeamCompetition.objects.filter(season=season).select_related("season")
    for competition in competitions:
        for tie in standing_ties(competition):
            if not tie.undrawn:
                continue
            where = tie.heat.name if tie.heat is not None else _("finalen")
            items.append(
                Item(
                    title=f"{competition}: {where}",
                    clause=tie.clause,
                    url=_table_url(tie),
                    facts=[
                        _("Lika i tabellen: %(among)s (plats %(first)s–%(last)s)")
                        % {"among": ", ".join(tie.names), "first": tie.first, "last": tie.last},
                        _("Lott ej dragen: tabellen visar ordningen preliminärt."),
                    ],
                    action="lot_draw",
                    pk=competition.pk,
                    extra={
                        "among": tie.key,
                        "standing": tie.standing,
                        "venues": list(zip(tie.among, tie.names, strict=False)),
                    },
                )
            )
    return items

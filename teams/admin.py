from django.contrib import admin
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from simple_history.admin import SimpleHistoryAdmin

from clubs import seats
from clubs.admin_actions import (
    DecidedColumnsMixin,
    DecisionFieldsMixin,
    DecisionLogMixin,
    HeatChangeRequestAdmin,
    ReasonActionsMixin,
    change_request_actions,
    service_action,
)
from clubs.i18n import render_with_clause
from clubs.models import Season
from teams.services.change_requests import decide_roster_change
from teams.services.decisions import (
    award_walkover,
    decide_dispensation,
    draw_jury,
    impose_penalty,
    penalty_problems,
    record_ruling,
    revoke_walkover,
    ruling_problems,
    walkover_problems,
)
from teams.services.entries import with_roster_and_dm_columns
from teams.services.heats import decide_heat_change, decide_team_heat

from .models import (
    BoardResult,
    Dispensation,
    ExternalTeamPlay,
    HeatPlaceOffer,
    Lineup,
    Match,
    Penalty,
    RosterChangeRequest,
    RosterChangeRequestPlayer,
    RosterEntry,
    Ruling,
    SemifinalChoice,
    SemifinalVenue,
    Team,
    TeamCompetition,
    TeamEntryRequest,
    TeamHeat,
    TeamHeatChangeRequest,
    TeamHeatOrganiser,
    WalkOver,
)


class TeamHeatInline(admin.TabularInline):
    model = TeamHeat
    fields = ["name", "first_date", "last_date", "boards_per_match", "status"]
    extra = 0
    show_change_link = True


@admin.register(TeamCompetition)
class TeamCompetitionAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "qualifying_start", "qualifying_end", "final_day1", "final_venue"]
    exclude = ["discipline"]  # always "teams"
    inlines = [TeamHeatInline]


class OrganiserInline(admin.TabularInline):
    model = TeamHeatOrganiser
    extra = 0
    autocomplete_fields = ["club"]


class TeamInline(admin.TabularInline):
    model = Team
    fields = ["number", "name", "captain", "status"]
    autocomplete_fields = ["captain"]
    extra = 0
    show_change_link = True


@admin.register(TeamHeat)
class TeamHeatAdmin(DecisionFieldsMixin, ReasonActionsMixin, SimpleHistoryAdmin):
    decision_fields = ("status",)  # approve/reject: the actions

    """TK approves or rejects team heats through teams.services.heats (the reason goes in the
    action bar's "Motivering" field)."""

    list_display = [
        "name",
        "competition",
        "first_date",
        "last_date",
        "boards_per_match",
        "responsible_name",
        "entries_close",
        "status",
    ]
    list_filter = ["competition__season", "status"]
    search_fields = ["name", "venue", "responsible_name", "organisers__club__name"]
    inlines = [OrganiserInline, TeamInline]
    actions = ["approve_heats", "reject_heats"]

    approve_heats = service_action(
        decide_team_heat,
        True,
        description=_("Godkänn valda heat"),
        summary=ngettext_lazy("%(done)d heat godkänt.", "%(done)d heat godkända.", "done"),
    )
    reject_heats = service_action(
        decide_team_heat,
        False,
        description=_("Avslå valda heat (ange motivering)"),
        summary=ngettext_lazy("%(done)d heat avslaget.", "%(done)d heat avslagna.", "done"),
    )


class RosterInline(admin.TabularInline):
    model = RosterEntry
    fields = ["player", "is_extra"]
    autocomplete_fields = ["player"]
    extra = 0


class DispensationInline(admin.TabularInline):
    """Shown on the team; requested and decided through the services (the actions on
    Dispensationer), so every decision is logged."""

    model = Dispensation
    fields = ["kind", "player", "occasion", "status", "decided_by", "decided_at", "reason"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Team)
class TeamAdmin(DecisionFieldsMixin, SimpleHistoryAdmin):
    # withdrawn/excluded/disqualified by the services; who is in the final by the seat rows
    decision_fields = ("status", "status_reason")

    list_display = [
        "name",
        "heat",
        "number",
        "captain",
        "roster_size",
        "dm_sm",
        "finalist",
        "status",
    ]
    list_filter = ["competition__season", "heat", "status", "is_direct_qualifier"]
    search_fields = [
        "name",
        "captain__mid",
        "captain__last_name",
        "roster__player__mid",
        "roster__player__last_name",
    ]
    autocomplete_fields = ["captain"]
    inlines = [RosterInline, DispensationInline]
    list_select_related = ["heat", "captain"]

    def get_queryset(self, request):
        return seats.with_seats(with_roster_and_dm_columns(super().get_queryset(request)))

    @admin.display(description=_("i finalen"), boolean=True, ordering="holds_final_seat")
    def finalist(self, obj):
        """R-TEAM-ADV-1: the team holds a seat in the final (its seat row, not vacated)."""
        return obj.holds_final_seat

    @admin.display(description=RosterEntry._meta.verbose_name_plural, ordering="roster_size")
    def roster_size(self, obj):
        """R-TEAM-2: regular players on the roster."""
        return obj.roster_size

    @admin.display(description="DM/SM", ordering="fielded_outside_ubf")
    def dm_sm(self, obj):
        """R-TEAM-4: "SM" once a player from outside UBF has played (see team_dm_status)."""
        return "SM" if obj.fielded_outside_ubf else "DM/SM"


@admin.register(RosterEntry)
class RosterEntryAdmin(SimpleHistoryAdmin):
    list_display = ["player", "team", "is_extra", "added_on"]
    list_filter = ["is_extra", "team__heat"]
    search_fields = ["player__mid", "player__last_name", "team__name"]
    autocomplete_fields = ["player", "team"]
    list_select_related = ["player", "team"]


@admin.register(Dispensation)
class DispensationAdmin(ReasonActionsMixin, DecidedColumnsMixin, SimpleHistoryAdmin):
    """R-TEAM-3, R-TEAM-5: TK grants ("Bevilja") or rejects ("Avslå") dispensations through
    teams.services.decisions.decide_dispensation; the reason goes in the action bar's
    "Motivering" field. The decision fields are read-only (R-GEN-3)."""

    list_display = [
        "kind",
        "team",
        "player",
        "occasion",
        "occasion_date",
        "status",
        "decided_by",
        "decided_at",
        "reason_short",
    ]
    list_filter = ["kind", "status"]
    search_fields = ["team__name", "player__mid", "player__last_name"]
    autocomplete_fields = ["team", "player"]
    readonly_fields = [
        "status",
        "requested_by",
        "requested_at",
        "decided_by",
        "decided_at",
        "reason",
        "decision_log",
    ]
    actions = ["grant_dispensations", "reject_dispensations"]

    grant_dispensations = service_action(
        decide_dispensation,
        True,
        description=_("Bevilja valda dispenser (ange motivering)"),
        summary=ngettext_lazy(
            "%(done)d dispens beviljad.", "%(done)d dispenser beviljade.", "done"
        ),
    )
    reject_dispensations = service_action(
        decide_dispensation,
        False,
        description=_("Avslå valda dispenser (ange motivering)"),
        summary=ngettext_lazy("%(done)d dispens avslagen.", "%(done)d dispenser avslagna.", "done"),
    )

    def save_model(self, request, obj, form, change):
        if not change and obj.requested_by_id is None:
            obj.requested_by = request.user
        super().save_model(request, obj, form, change)


class LineupInline(admin.TabularInline):
    model = Lineup
    extra = 0
    autocomplete_fields = ["player"]


class BoardResultInline(admin.TabularInline):
    model = BoardResult
    extra = 0


@admin.register(Match)
class MatchAdmin(DecisionFieldsMixin, SimpleHistoryAdmin):
    decision_fields = ("status", "vp_home", "vp_away")  # the upload and award_walkover set them

    list_display = [
        "__str__",
        "heat",
        "round",
        "imps_home",
        "imps_away",
        "vp_home",
        "vp_away",
        "status",
    ]
    list_filter = ["stage", "heat", "status", "round"]
    search_fields = ["home__name", "away__name"]
    raw_id_fields = ["home", "away"]
    inlines = [LineupInline, BoardResultInline]
    list_select_related = ["home", "away", "heat"]


@admin.register(Penalty)
class PenaltyAdmin(DecidedColumnsMixin, SimpleHistoryAdmin):
    """R-TEAM-RES-1: a new penalty is imposed through teams.services.decisions.impose_penalty
    (validated in the form, recorded in the audit trail); existing ones are read-only."""

    list_display = [
        "team",
        "match",
        "vp",
        "clause",
        "status",
        "decided_by",
        "decided_at",
        "reason_short",
    ]
    list_filter = ["clause", "status"]
    raw_id_fields = ["team", "match"]
    DECIDED = ["status", "requested_by", "requested_at", "decided_by", "decided_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return self.DECIDED
        return ["team", "match", "vp", "clause", "reason", *self.DECIDED, "decision_log"]

    def get_changeform_initial_data(self, request):
        season = Season.current()
        rules = season.rules() if season else None
        initial = {"clause": "R-TEAM-RES-1"}
        if rules:
            initial["vp"] = rules.unpaid_player_penalty_vp
        return {**initial, **super().get_changeform_initial_data(request)}

    def get_form(self, request, obj=None, **kwargs):
        base = super().get_form(request, obj, **kwargs)
        if obj is not None:
            return base

        class PenaltyForm(base):
            def clean(self):
                data = super().clean()
                if not (data.get("reason") or "").strip():
                    self.add_error("reason", "Skriv en motivering (R-GEN-3).")
                if data.get("team"):
                    for v in penalty_problems(
                        data["team"], data.get("match"), data.get("vp"), data.get("clause")
                    ):
                        self.add_error(None, render_with_clause(v))
                return data

        return PenaltyForm

    def save_model(self, request, obj, form, change):
        if change:
            return
        created = impose_penalty(
            request.user, obj.team, obj.match, vp=obj.vp, clause=obj.clause, reason=obj.reason
        )
        obj.pk = created.pk
        obj.refresh_from_db()


@admin.register(WalkOver)
class WalkOverAdmin(ReasonActionsMixin, DecidedColumnsMixin, SimpleHistoryAdmin):
    """R-TEAM-WO-1..3: only TK awards a W.O. A new W.O. goes through
    teams.services.decisions.award_walkover (score by the season's rule, exclusion after a
    second W.O. in the stage); "Återkalla" revokes with the reason from the action bar."""

    list_display = [
        "match",
        "offender",
        "force_majeure",
        "rule_text",
        "status",
        "decided_by",
        "decided_at",
        "reason_short",
    ]
    list_filter = ["status", "force_majeure"]
    raw_id_fields = ["match", "offender"]
    actions = ["revoke_walkovers"]
    DECIDED = [
        "status",
        "requested_by",
        "requested_at",
        "decided_by",
        "decided_at",
        "rule_text",
        "vp_non_offender",
        "vp_offender",
    ]

    revoke_walkovers = service_action(
        revoke_walkover,
        description=_("Återkalla valda W.O. (ange motivering)"),
        label=lambda wo: wo.match,
        each=lambda wo: _("W.O. i %(match)s återkallat.") % {"match": wo.match},
    )

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return self.DECIDED
        return ["match", "offender", "force_majeure", "reason", *self.DECIDED, "decision_log"]

    def get_form(self, request, obj=None, **kwargs):
        base = super().get_form(request, obj, **kwargs)
        if obj is not None:
            return base

        class WalkOverForm(base):
            def clean(self):
                data = super().clean()
                if data.get("match") and data.get("offender"):
                    for v in walkover_problems(
                        data["match"], data["offender"], data.get("reason") or ""
                    ):
                        self.add_error(None, render_with_clause(v))
                return data

        return WalkOverForm

    def save_model(self, request, obj, form, change):
        if change:
            return
        created = award_walkover(
            request.user,
            obj.match,
            obj.offender,
            reason=obj.reason,
            force_majeure=obj.force_majeure,
        )
        obj.pk = created.pk
        obj.refresh_from_db()


@admin.register(ExternalTeamPlay)
class ExternalTeamPlayAdmin(SimpleHistoryAdmin):
    list_display = ["player", "season", "district", "team_name", "played_on"]
    search_fields = ["player__mid", "player__last_name", "team_name"]
    autocomplete_fields = ["player"]


@admin.register(Ruling)
class RulingAdmin(DecisionLogMixin, SimpleHistoryAdmin):
    """R-RULING-1..3: a new ruling goes through teams.services.decisions.record_ruling; the
    appeal steps (jury, Lagkommission) are services that record each step; "Lotta jury" draws
    the jury with a recorded seed. The stage and the jury are read-only here."""

    list_display = [
        "match",
        "board_number",
        "td_names",
        "td_category",
        "stage",
        "recorded_by",
        "recorded_at",
        "current_decision",
    ]
    list_filter = ["stage", "td_category"]
    raw_id_fields = ["match", "playing_td_team"]
    readonly_fields = ["stage", "jury_teams", "recorded_by", "recorded_at", "decision_log"]
    actions = ["draw_juries"]

    draw_juries = service_action(
        draw_jury,
        description=_("Lotta jury (3 lag som inte är inblandade)"),
        with_reason=False,
        label=lambda ruling: ruling.match,
        each=lambda ruling: (
            _("Jury lottad för %(match)s: %(teams)s.")
            % {"match": ruling.match, "teams": ", ".join(t.name for t in ruling.jury_teams.all())}
        ),
    )

    def get_form(self, request, obj=None, **kwargs):
        base = super().get_form(request, obj, **kwargs)
        if obj is not None:
            return base

        class RulingForm(base):
            def clean(self):
                data = super().clean()
                if data.get("match"):
                    for v in ruling_problems(
                        data["match"],
                        td_names=data.get("td_names") or "",
                        td_category=data.get("td_category") or "",
                        ruling=data.get("ruling") or "",
                    ):
                        self.add_error(None, render_with_clause(v))
                return data

        return RulingForm

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        created = record_ruling(
            request.user,
            obj.match,
            td_names=obj.td_names,
            td_category=obj.td_category,
            board_number=obj.board_number,
            hands=obj.hands,
            auction=obj.auction,
            play=obj.play,
            why_called=obj.why_called,
            ruling=obj.ruling,
            involved=obj.involved,
        )
        if obj.playing_td_team_id:
            created.playing_td_team_id = obj.playing_td_team_id
            created.save(update_fields=["playing_td_team"])
        obj.pk = created.pk
        obj.refresh_from_db()

    @admin.display(description=_("senaste beslut"))
    def current_decision(self, obj):
        text = obj.lagkommission_decision or obj.jury_decision or obj.ruling
        return Truncator(text).chars(60)


@admin.register(TeamHeatChangeRequest)
class TeamHeatChangeRequestAdmin(HeatChangeRequestAdmin):
    """TK approves (the change is applied) or rejects team heat change requests through
    teams.services.heats."""

    approve_requests, reject_requests = change_request_actions(decide_heat_change)


class RosterChangeRequestPlayerInline(admin.TabularInline):
    model = RosterChangeRequestPlayer
    fields = ["player", "role"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(RosterChangeRequest)
class RosterChangeRequestAdmin(ReasonActionsMixin, DecidedColumnsMixin, SimpleHistoryAdmin):
    """R-TEAM-2, R-GEN-3: TK approves (the change is made through update_roster /
    record_lineup, checked again) or rejects a captain's late roster change or line-up through
    teams.services.change_requests.decide_roster_change; the reason goes in the action bar's
    "Motivering" field. Requests are made by the captains; what was asked and every decision
    field is read-only."""

    list_display = [
        "team",
        "kind",
        "match",
        "status",
        "requested_by",
        "requested_at",
        "decided_by",
        "reason_short",
    ]
    list_filter = ["kind", "status", "team__competition__season"]
    search_fields = ["team__name", "players__player__mid", "players__player__last_name"]
    fields = [
        "team",
        "kind",
        "match",
        "request_reason",
        "status",
        "requested_by",
        "requested_at",
        "decided_by",
        "decided_at",
        "reason",
        "decision_log",
    ]
    readonly_fields = fields
    inlines = [RosterChangeRequestPlayerInline]
    actions = ["approve_requests", "reject_requests"]

    approve_requests, reject_requests = change_request_actions(
        decide_roster_change, label=lambda req: req.team, reason_always=True
    )

    def has_add_permission(self, request):
        return False


@admin.register(TeamEntryRequest)
class TeamEntryRequestAdmin(SimpleHistoryAdmin):
    """R-TEAM-REG-2: captains' requests to the heat responsible (teams.services.entry_requests),
    read only: the heat responsible answers on /klubb/."""

    list_display = ["name", "heat", "status", "requested_by", "requested_at", "decided_by", "team"]
    list_filter = ["status", "heat"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(SemifinalVenue)
class SemifinalVenueAdmin(SimpleHistoryAdmin):
    """R-TEAM-SEMI-1: SBF's semifinal venues; TK enters them on /tk/sm-semifinal/orter/."""

    list_display = ["name", "competition", "first_date", "last_date", "places"]
    list_filter = ["competition"]


@admin.register(SemifinalChoice)
class SemifinalChoiceAdmin(DecisionLogMixin, SimpleHistoryAdmin):
    """R-TEAM-SEMI-1: the teams' answers, read only: TK records and corrects them on
    /tk/sm-semifinal/, the captain on the captain's page."""

    list_display = ["team", "state", "venue", "recorded_at", "recorded_by"]
    list_filter = ["competition", "state"]
    readonly_fields = [
        "competition",
        "team",
        "state",
        "venue",
        "recorded_at",
        "recorded_by",
        "reason",
        "decision_log",
    ]

    def has_add_permission(self, request):
        return False


@admin.register(HeatPlaceOffer)
class HeatPlaceOfferAdmin(DecisionLogMixin, SimpleHistoryAdmin):
    """R-TEAM-KVAL-2: places offered in other heats, read only: TK offers and records answers
    on /tk/kvalheat/<id>/, the captain answers on the captain's page."""

    list_display = ["team", "from_heat", "to_heat", "answer", "offered_at", "answered_at"]
    list_filter = ["competition", "answer"]
    readonly_fields = [
        "competition",
        "team",
        "from_heat",
        "to_heat",
        "offered_at",
        "offered_by",
        "reason",
        "answer",
        "answered_at",
        "recorded_by",
        "answer_note",
        "decision_log",
    ]

    def has_add_permission(self, request):
        return False

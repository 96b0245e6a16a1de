from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import (
    DirectQualifier,
    ExternalQualifier,
    FinalSeat,
    HeatChangeRequest,
    Offer,
    PairCompetition,
    PairEntry,
    PairHeat,
    ReserveNotice,
    SmPartnerDeclaration,
)

PLAYER_SEARCH = [
    "player1__mid",
    "player1__last_name",
    "player1__first_name",
    "player2__mid",
    "player2__last_name",
    "player2__first_name",
]


class PairHeatInline(admin.TabularInline):
    model = PairHeat
    fields = ["name", "heat_type", "session1_date", "session2_date", "status"]
    extra = 0
    show_change_link = True


@admin.register(PairCompetition)
class PairCompetitionAdmin(SimpleHistoryAdmin):
    list_display = [
        "__str__",
        "qualifying_start",
        "qualifying_end",
        "final_date",
        "final_venue",
        "is_direct_final",
    ]
    list_filter = ["season", "discipline", "is_direct_final"]
    inlines = [PairHeatInline]


class PairEntryInline(admin.TabularInline):
    model = PairEntry
    fields = ["pair_number", "player1", "player2", "takes_part_in_qualifier", "status"]
    autocomplete_fields = ["player1", "player2"]
    extra = 0


@admin.register(PairHeat)
class PairHeatAdmin(SimpleHistoryAdmin):
    """TK approves or rejects heats through pairs.services.heats (the reason goes in the
    action bar's "Motivering" field); the "Inbjudan" column flags R-PAIR-KVAL-3 problems."""

    list_display = [
        "name",
        "competition",
        "heat_type",
        "session1_date",
        "session2_date",
        "invitation_sent_on",
        "invitation_flag",
        "status",
    ]
    list_filter = ["competition__season", "competition__discipline", "heat_type", "status"]
    search_fields = ["name", "clubs__name", "venue"]
    filter_horizontal = ["clubs"]
    inlines = [PairEntryInline]
    list_select_related = ["competition__season"]
    actions = ["approve_heats", "reject_heats"]

    @property
    def action_form(self):
        from django import forms
        from django.contrib.admin.helpers import ActionForm

        class ReasonActionForm(ActionForm):
            reason = forms.CharField(label="Motivering", required=False)

        return ReasonActionForm

    @admin.display(description="Inbjudan")
    def invitation_flag(self, obj):
        from pairs.services.heats import invitation_problems

        problems = invitation_problems(obj)
        return "⚠ " + " ".join(p.message_sv for p in problems) if problems else "OK"

    def _decide(self, request, queryset, approve: bool) -> None:
        from django.contrib import messages
        from django.core.exceptions import PermissionDenied

        from pairs.services.heats import decide_pair_heat
        from ubf.services import ServiceError

        done = 0
        for heat in queryset:
            try:
                decide_pair_heat(request.user, heat, approve, request.POST.get("reason", ""))
                done += 1
            except ServiceError as exc:
                for text in exc.messages():
                    messages.error(request, f"{heat}: {text}")
            except PermissionDenied as exc:
                messages.error(request, str(exc))
                return
        if done:
            verb = "godkända" if approve else "avslagna"
            messages.success(request, f"{done} heat {verb}.")

    @admin.action(description="Godkänn valda heat")
    def approve_heats(self, request, queryset):
        self._decide(request, queryset, True)

    @admin.action(description="Avslå valda heat (ange motivering)")
    def reject_heats(self, request, queryset):
        self._decide(request, queryset, False)


@admin.register(PairEntry)
class PairEntryAdmin(SimpleHistoryAdmin):
    list_display = [
        "__str__",
        "heat",
        "pair_number",
        "takes_part_in_qualifier",
        "status",
        "struck_reason",
    ]
    list_filter = ["heat__competition__discipline", "status", "takes_part_in_qualifier"]
    search_fields = PLAYER_SEARCH
    autocomplete_fields = ["player1", "player2"]
    list_select_related = ["player1", "player2", "heat"]

    @admin.display(description=PairEntry._meta.get_field("status_reason").verbose_name)
    def struck_reason(self, obj):
        """R-PAIR-KVAL-7: why the entry is struck (names the earlier heat)."""
        if obj.status != PairEntry.Status.STRUCK:
            return ""
        text = obj.status_reason
        return text if len(text) <= 160 else text[:157] + "..."


@admin.register(ReserveNotice)
class ReserveNoticeAdmin(SimpleHistoryAdmin):
    list_display = ["entry", "session", "replaced_player", "reserve", "notified_at"]
    autocomplete_fields = ["replaced_player", "reserve"]
    search_fields = ["reserve__mid", "replaced_player__mid"]


@admin.register(DirectQualifier)
class DirectQualifierAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "registered_on", "status", "status_reason"]
    list_filter = ["competition__season", "status"]
    search_fields = PLAYER_SEARCH
    autocomplete_fields = ["player1", "player2"]


class OfferInline(admin.TabularInline):
    """The chain's offers, read-only here: answers are recorded with the actions on Offers
    (R-REPL-5: who recorded it, when)."""

    model = Offer
    extra = 0
    fields = ["entry", "offered_at", "answer", "answered_at", "recorded_by", "override_reason"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(FinalSeat)
class FinalSeatAdmin(SimpleHistoryAdmin):
    """R-REPL-1..7: "Lämna platsen" gives a seat up through pairs.services.decisions (reason in
    the action bar's "Motivering" field); the recompute then offers it down the chain."""

    list_display = ["competition", "origin_heat", "entry", "source", "status", "reason"]
    list_filter = ["competition", "source", "status"]
    raw_id_fields = ["entry", "direct_qualifier"]
    inlines = [OfferInline]
    readonly_fields = ["status", "decision_log"]
    actions = ["decline_seats"]

    @property
    def action_form(self):
        from django import forms
        from django.contrib.admin.helpers import ActionForm

        class ReasonActionForm(ActionForm):
            reason = forms.CharField(label="Motivering", required=False)

        return ReasonActionForm

    @admin.action(description="Lämna valda platser (paret avstår; ange motivering)")
    def decline_seats(self, request, queryset):
        from django.contrib import messages
        from django.core.exceptions import PermissionDenied

        from pairs.services.decisions import decline_final_seat
        from ubf.services import ServiceError

        for seat in queryset:
            try:
                decline_final_seat(request.user, seat, reason=request.POST.get("reason", ""))
                messages.success(
                    request, f"Platsen för {seat.entry or seat.direct_qualifier} lämnad."
                )
            except ServiceError as exc:
                for text in exc.messages():
                    messages.error(request, f"{seat.entry or seat.direct_qualifier}: {text}")
            except PermissionDenied as exc:
                messages.error(request, str(exc))
                return

    @admin.display(description="beslutslogg (R-GEN-3)")
    def decision_log(self, obj):
        from teams.services.decisions import render_decision_log

        return render_decision_log(obj)


@admin.register(Offer)
class OfferAdmin(SimpleHistoryAdmin):
    """R-REPL-5: every offer with its answer, when, and who recorded it. Answers are recorded
    with the actions "Tackat ja"/"Tackat nej" (pairs.services.decisions.record_offer_answer)."""

    list_display = [
        "seat",
        "entry",
        "offered_at",
        "answer",
        "answered_at",
        "recorded_by",
        "override_reason",
    ]
    list_filter = ["answer"]
    raw_id_fields = ["seat", "entry"]
    readonly_fields = ["answer", "answered_at", "recorded_by", "override_reason", "decision_log"]
    actions = ["record_accepted", "record_declined"]

    def _answer(self, request, queryset, answer):
        from django.contrib import messages
        from django.core.exceptions import PermissionDenied

        from pairs.services.decisions import record_offer_answer
        from ubf.services import ServiceError

        for offer in queryset:
            try:
                record_offer_answer(request.user, offer, answer)
                messages.success(request, f"Svar registrerat för {offer.entry}.")
            except ServiceError as exc:
                for text in exc.messages():
                    messages.error(request, f"{offer.entry}: {text}")
            except PermissionDenied as exc:
                messages.error(request, str(exc))
                return

    @admin.action(description="Registrera svar: tackat ja")
    def record_accepted(self, request, queryset):
        self._answer(request, queryset, Offer.Answer.ACCEPTED)

    @admin.action(description="Registrera svar: tackat nej")
    def record_declined(self, request, queryset):
        self._answer(request, queryset, Offer.Answer.DECLINED)

    @admin.display(description="beslutslogg (R-GEN-3)")
    def decision_log(self, obj):
        from teams.services.decisions import render_decision_log

        return render_decision_log(obj)


@admin.register(HeatChangeRequest)
class HeatChangeRequestAdmin(SimpleHistoryAdmin):
    """TK approves (the change is applied) or rejects change requests (R-PAIR-KVAL-2) through
    pairs.services.heats; the reason goes in the action bar's "Motivering" field."""

    list_display = [
        "kind",
        "pair_heat",
        "team_heat",
        "new_first_date",
        "new_second_date",
        "status",
        "requested_at",
        "decided_by",
    ]
    list_filter = ["kind", "status"]
    raw_id_fields = ["pair_heat", "team_heat"]
    actions = ["approve_requests", "reject_requests"]

    @property
    def action_form(self):
        from django import forms
        from django.contrib.admin.helpers import ActionForm

        class ReasonActionForm(ActionForm):
            reason = forms.CharField(label="Motivering", required=False)

        return ReasonActionForm

    def _decide(self, request, queryset, approve: bool) -> None:
        from django.contrib import messages
        from django.core.exceptions import PermissionDenied

        from pairs.services.heats import decide_heat_change
        from ubf.services import ServiceError

        done = 0
        for change in queryset:
            heat = change.pair_heat or change.team_heat
            try:
                decide_heat_change(request.user, change, approve, request.POST.get("reason", ""))
                done += 1
            except ServiceError as exc:
                for text in exc.messages():
                    messages.error(request, f"{heat}: {text}")
            except PermissionDenied as exc:
                messages.error(request, str(exc))
                return
        if done:
            verb = "godkända" if approve else "avslagna"
            messages.success(request, f"{done} ändringar {verb}.")

    @admin.action(description="Godkänn valda ändringar")
    def approve_requests(self, request, queryset):
        self._decide(request, queryset, True)

    @admin.action(description="Avslå valda ändringar (ange motivering)")
    def reject_requests(self, request, queryset):
        self._decide(request, queryset, False)


@admin.register(ExternalQualifier)
class ExternalQualifierAdmin(SimpleHistoryAdmin):
    list_display = ["player", "season", "discipline", "district", "played_on"]
    list_filter = ["season", "discipline", "district"]
    search_fields = ["player__mid", "player__last_name"]
    autocomplete_fields = ["player"]


@admin.register(SmPartnerDeclaration)
class SmPartnerDeclarationAdmin(SimpleHistoryAdmin):
    list_display = ["competition", "player", "partner", "declared_at"]
    autocomplete_fields = ["player", "partner"]

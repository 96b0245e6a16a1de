from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from simple_history.admin import SimpleHistoryAdmin

from clubs.admin_actions import (
    DecisionFieldsMixin,
    HeatChangeRequestAdmin,
    ReasonActionsMixin,
    change_request_actions,
    service_action,
)
from clubs.i18n import render
from pairs.services.heats import decide_heat_change, decide_pair_heat, invitation_problems

from .models import (
    ExternalQualifier,
    PairCompetition,
    PairEntry,
    PairHeat,
    PairHeatChangeRequest,
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
    fields = ["name", "heat_type", "first_date", "last_date", "status"]
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

    def formfield_for_choice_field(self, db_field, request, **kwargs):
        if db_field.name == "discipline":  # the four DM Par disciplines, not DM Lag
            kwargs["choices"] = PairCompetition.DISCIPLINE_CHOICES
        return super().formfield_for_choice_field(db_field, request, **kwargs)


class PairEntryInline(admin.TabularInline):
    model = PairEntry
    fields = ["pair_number", "player1", "player2", "takes_part_in_qualifier", "status"]
    autocomplete_fields = ["player1", "player2"]
    extra = 0


@admin.register(PairHeat)
class PairHeatAdmin(DecisionFieldsMixin, ReasonActionsMixin, SimpleHistoryAdmin):
    decision_fields = ("status",)  # approve/reject: the actions

    """TK approves or rejects heats through pairs.services.heats (the reason goes in the
    action bar's "Motivering" field); the "Inbjudan" column flags R-PAIR-KVAL-3 problems."""

    list_display = [
        "name",
        "competition",
        "heat_type",
        "first_date",
        "last_date",
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

    approve_heats = service_action(
        decide_pair_heat,
        True,
        description=_("Godkänn valda heat"),
        summary=ngettext_lazy("%(done)d heat godkänt.", "%(done)d heat godkända.", "done"),
    )
    reject_heats = service_action(
        decide_pair_heat,
        False,
        description=_("Avslå valda heat (ange motivering)"),
        summary=ngettext_lazy("%(done)d heat avslaget.", "%(done)d heat avslagna.", "done"),
    )

    @admin.display(description=_("Inbjudan"))
    def invitation_flag(self, obj):
        problems = invitation_problems(obj)
        return "⚠ " + " ".join(render(p) for p in problems) if problems else "OK"


@admin.register(PairEntry)
class PairEntryAdmin(DecisionFieldsMixin, SimpleHistoryAdmin):
    decision_fields = ("status", "status_reason")  # struck by the recompute (R-PAIR-KVAL-7)

    list_display = [
        "__str__",
        "competition",
        "entered_as",
        "heat",
        "pair_number",
        "takes_part_in_qualifier",
        "registered_on",
        "status",
        "struck_reason",
    ]
    list_filter = [
        "competition__season",
        "competition__discipline",
        "entered_as",
        "status",
        "takes_part_in_qualifier",
    ]
    search_fields = PLAYER_SEARCH
    autocomplete_fields = ["player1", "player2"]
    list_select_related = ["player1", "player2", "heat", "competition__season"]

    @admin.display(description=PairEntry._meta.get_field("status_reason").verbose_name)
    def struck_reason(self, obj):
        """R-PAIR-KVAL-7: why the entry is struck (names the earlier heat); R-DIRECT-2, R-REPL-7:
        why a direct qualifier forfeited or gave up its place."""
        if obj.status not in (
            PairEntry.Status.STRUCK,
            PairEntry.Status.FORFEITED,
            PairEntry.Status.DECLINED,
        ):
            return ""
        text = obj.status_reason
        return text if len(text) <= 160 else text[:157] + "..."


@admin.register(ReserveNotice)
class ReserveNoticeAdmin(SimpleHistoryAdmin):
    list_display = ["entry", "session", "replaced_player", "reserve", "notified_at"]
    autocomplete_fields = ["replaced_player", "reserve"]
    search_fields = ["reserve__mid", "replaced_player__mid"]


@admin.register(PairHeatChangeRequest)
class PairHeatChangeRequestAdmin(HeatChangeRequestAdmin):
    """TK approves (the change is applied) or rejects pair heat change requests
    (R-PAIR-KVAL-2) through pairs.services.heats."""

    approve_requests, reject_requests = change_request_actions(decide_heat_change)


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

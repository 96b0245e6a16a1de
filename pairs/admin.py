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
    list_display = [
        "name",
        "competition",
        "heat_type",
        "session1_date",
        "session2_date",
        "invitation_sent_on",
        "status",
    ]
    list_filter = ["competition__season", "competition__discipline", "heat_type", "status"]
    search_fields = ["name", "clubs__name", "venue"]
    filter_horizontal = ["clubs"]
    inlines = [PairEntryInline]
    list_select_related = ["competition__season"]


@admin.register(PairEntry)
class PairEntryAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "heat", "pair_number", "takes_part_in_qualifier", "status"]
    list_filter = ["heat__competition__discipline", "status", "takes_part_in_qualifier"]
    search_fields = PLAYER_SEARCH
    autocomplete_fields = ["player1", "player2"]
    list_select_related = ["player1", "player2", "heat"]


@admin.register(ReserveNotice)
class ReserveNoticeAdmin(SimpleHistoryAdmin):
    list_display = ["entry", "session", "replaced_player", "reserve", "notified_at"]
    autocomplete_fields = ["replaced_player", "reserve"]
    search_fields = ["reserve__mid", "replaced_player__mid"]


@admin.register(DirectQualifier)
class DirectQualifierAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "registered_on", "status"]
    list_filter = ["competition__season", "status"]
    search_fields = PLAYER_SEARCH
    autocomplete_fields = ["player1", "player2"]


class OfferInline(admin.TabularInline):
    model = Offer
    extra = 0
    fields = ["entry", "offered_at", "answer", "answered_at", "recorded_by", "override_reason"]
    raw_id_fields = ["entry"]


@admin.register(FinalSeat)
class FinalSeatAdmin(SimpleHistoryAdmin):
    list_display = ["competition", "origin_heat", "entry", "source", "status"]
    list_filter = ["competition", "source", "status"]
    raw_id_fields = ["entry", "direct_qualifier"]
    inlines = [OfferInline]


@admin.register(Offer)
class OfferAdmin(SimpleHistoryAdmin):
    list_display = ["seat", "entry", "offered_at", "answer", "answered_at", "recorded_by"]
    list_filter = ["answer"]
    raw_id_fields = ["seat", "entry"]


@admin.register(HeatChangeRequest)
class HeatChangeRequestAdmin(SimpleHistoryAdmin):
    list_display = ["kind", "pair_heat", "team_heat", "status", "requested_at", "decided_by"]
    list_filter = ["kind", "status"]
    raw_id_fields = ["pair_heat", "team_heat"]


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

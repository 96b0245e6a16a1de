from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import AllocationRun, Lot, PairResult, ResultUpload, StandingSnapshot


@admin.register(ResultUpload)
class ResultUploadAdmin(SimpleHistoryAdmin):
    list_display = [
        "original_name",
        "format",
        "pair_heat",
        "team_heat",
        "round",
        "status",
        "uploaded_by",
        "uploaded_at",
    ]
    list_filter = ["format", "status"]
    search_fields = ["original_name", "checksum"]
    readonly_fields = ["checksum", "size", "uploaded_at", "errors", "warnings"]


@admin.register(PairResult)
class PairResultAdmin(admin.ModelAdmin):
    list_display = ["entry", "heat", "total", "percentage", "boards_played"]
    list_filter = ["heat"]
    raw_id_fields = ["upload", "entry"]


@admin.register(StandingSnapshot)
class StandingSnapshotAdmin(admin.ModelAdmin):
    list_display = [
        "scope",
        "pair_heat",
        "team_heat",
        "team_competition",
        "provisional",
        "computed_at",
    ]
    list_filter = ["scope", "provisional"]


@admin.register(AllocationRun)
class AllocationRunAdmin(admin.ModelAdmin):
    list_display = [
        "pair_competition",
        "team_competition",
        "final_size",
        "seats",
        "provisional",
        "computed_at",
    ]


@admin.register(Lot)
class LotAdmin(SimpleHistoryAdmin):
    list_display = ["kind", "season", "seats", "drawn_by_hand", "drawn_at", "seed"]
    list_filter = ["kind", "season", "drawn_by_hand"]

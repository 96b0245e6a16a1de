from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from clubs.admin_actions import DecisionLogMixin
from clubs.i18n import render_with_clause
from results.services.lots import manual_lot_problems, record_manual_lot

from .models import (
    AllocationRun,
    Lot,
    PairFinalResult,
    PairResult,
    ResultUpload,
    StandingSnapshot,
)


@admin.register(ResultUpload)
class ResultUploadAdmin(SimpleHistoryAdmin):
    list_display = [
        "original_name",
        "format",
        "competition",
        "heat",
        "round",
        "session",
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
        "competition",
        "heat",
        "provisional",
        "computed_at",
    ]
    list_filter = ["scope", "provisional"]


@admin.register(AllocationRun)
class AllocationRunAdmin(admin.ModelAdmin):
    list_display = [
        "competition",
        "final_size",
        "seats",
        "provisional",
        "computed_at",
    ]


@admin.register(Lot)
class LotAdmin(DecisionLogMixin, SimpleHistoryAdmin):
    """R-ALLOC-5: lots drawn by the system (seed and result recorded) are read-only; TK enters a
    lot drawn by hand here, validated and recorded by results.services.lots.record_manual_lot.
    Venue keys are the arranging clubs' ids, sorted and joined with "+" (JSON lists)."""

    list_display = [
        "kind",
        "season",
        "among",
        "winners",
        "losers",
        "seats",
        "drawn_by_hand",
        "drawn_by",
        "drawn_at",
        "seed",
        "precedence_used_by",
    ]
    list_filter = ["kind", "season", "drawn_by_hand"]
    ADD_FIELDS = [
        "kind",
        "season",
        "competition",
        "among",
        "winners",
        "seats",
        "labels",
        "explanation",
    ]

    def get_fields(self, request, obj=None):
        if obj is None:
            return self.ADD_FIELDS
        return [f.name for f in Lot._meta.fields if f.name != "id"] + ["decision_log"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return self.get_fields(request, obj)

    def get_form(self, request, obj=None, **kwargs):
        base = super().get_form(request, obj, **kwargs)
        if obj is not None:
            return base

        class ManualLotForm(base):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.fields["labels"].required = False

            def clean(self):
                data = super().clean()
                if data.get("season") and data.get("kind"):
                    for v in manual_lot_problems(
                        kind=data["kind"],
                        season=data["season"],
                        competition=data.get("competition"),
                        among=data.get("among") or [],
                        winners=data.get("winners") or [],
                        seats=data.get("seats") or 0,
                        explanation=data.get("explanation") or "",
                    ):
                        self.add_error(None, render_with_clause(v))
                return data

        return ManualLotForm

    def save_model(self, request, obj, form, change):
        if change:
            return

        created = record_manual_lot(
            request.user,
            kind=obj.kind,
            season=obj.season,
            competition=obj.competition,
            among=obj.among,
            winners=obj.winners,
            seats=obj.seats,
            labels=obj.labels,
            explanation=obj.explanation,
        )
        obj.pk = created.pk
        obj.refresh_from_db()


@admin.register(PairFinalResult)
class PairFinalResultAdmin(admin.ModelAdmin):
    """The DM Par final's results as uploaded (read-only; a corrected file replaces them)."""

    list_display = ["competition", "player1", "player2", "percentage", "out_of_district"]
    list_filter = ["competition"]
    search_fields = ["player1__mid", "player2__mid", "player1__last_name", "player2__last_name"]
    readonly_fields = [f.name for f in PairFinalResult._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

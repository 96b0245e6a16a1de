from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from clubs import clock, seats
from clubs.admin_actions import (
    DecisionFieldsMixin,
    DecisionLogMixin,
    ReasonActionsMixin,
    WhyColumnMixin,
    service_action,
)
from clubs.permissions import is_tk
from clubs.services.season import CLAUSES
from clubs.services.seats import answer_offer, give_up_seat

from .models import (
    Club,
    ClubOfficial,
    Decision,
    DemoClock,
    District,
    FinalSeat,
    Invitation,
    Membership,
    Player,
    ReigningChampion,
    Representation,
    Season,
    SeatOffer,
)


@admin.register(District)
class DistrictAdmin(admin.ModelAdmin):
    list_display = ["code", "name"]
    search_fields = ["code", "name"]


class ClubOfficialInline(admin.TabularInline):
    model = ClubOfficial
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "short_name", "town", "district"]
    list_filter = ["district"]
    search_fields = ["name", "short_name", "town"]
    inlines = [ClubOfficialInline]


class RepresentationInline(admin.TabularInline):
    model = Representation
    extra = 0
    autocomplete_fields = ["club"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    """The history (issue 23) shows every change the member register made to the player."""

    list_display = [
        "mid",
        "last_name",
        "first_name",
        "gender",
        "birth_year",
        "max_pin",
        "in_register",
    ]
    list_filter = ["gender", "max_pin", "in_register"]
    search_fields = ["mid", "first_name", "last_name"]
    inlines = [RepresentationInline, MembershipInline]


@admin.register(Season)
class SeasonAdmin(DecisionFieldsMixin, SimpleHistoryAdmin):
    #: the configuration TK edits on /tk/sasong/ (logged, recomputed): read-only here
    decision_fields = tuple(f for f in CLAUSES if f in Season.SCALAR_FIELDS)

    list_display = ["name", "start_year", "is_current"]
    fieldsets = [
        (None, {"fields": ["name", "start_year", "is_current"]}),
        (_("Spelare"), {"fields": ["veteran_born_on_or_before", "junior_max_age"]}),
        (
            _("Avgifter"),
            {
                "fields": [
                    "pair_kval_fee_per_player",
                    "pair_final_fee_per_player",
                    "team_start_fee",
                    "team_final_table_fee_per_round",
                    "team_junior_kval_discount",
                    "team_final_junior_reduction_per_round",
                ]
            },
        ),
        (
            _("W.O., bestraffningar och protester"),
            {
                "fields": [
                    "wo_winner_vp",
                    "wo_loser_vp",
                    "wo_winner_average_if_higher",
                    "unpaid_player_penalty_vp",
                    "unpaid_fee_grace_days",
                    "protest_deadline_sm_semifinal",
                    "protest_deadline_sm_final",
                    "invitation_days_before",
                ]
            },
        ),
        ("Tabeller", {"fields": ["tables"], "classes": ["collapse"]}),
    ]


@admin.register(Representation)
class RepresentationAdmin(SimpleHistoryAdmin):
    list_display = ["player", "club", "season"]
    list_filter = ["season", "club__district"]
    search_fields = ["player__mid", "player__last_name", "player__first_name", "club__name"]
    autocomplete_fields = ["player", "club"]
    list_select_related = ["player", "club", "season"]


@admin.register(Membership)
class MembershipAdmin(SimpleHistoryAdmin):
    list_display = ["player", "season", "paid_on"]
    list_filter = ["season", ("paid_on", admin.EmptyFieldListFilter)]
    search_fields = ["player__mid", "player__last_name", "player__first_name"]
    autocomplete_fields = ["player"]
    list_select_related = ["player", "season"]


@admin.register(ClubOfficial)
class ClubOfficialAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin):
    """The audit trail: read-only, append-only."""

    list_display = ["decided_at", "action", "object_repr", "clause", "decided_by"]
    list_filter = ["action", "clause", "season"]
    search_fields = ["object_repr", "reason", "action"]
    date_hierarchy = "decided_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(DemoClock)
class DemoClockAdmin(admin.ModelAdmin):
    """TK moves the demo's date here (only in the demo: ``DEMO_DATE`` set, never in
    production); every page, deadline and reminder follows it (``clubs.clock``)."""

    list_display = ("on",)

    def has_module_permission(self, request):
        return is_tk(request.user)

    def has_view_permission(self, request, obj=None):
        return is_tk(request.user)

    def has_add_permission(self, request):
        # Only in the demo: outside it (and always in production) the clock is the real date.
        return is_tk(request.user) and clock.demo_date() is not None

    def has_change_permission(self, request, obj=None):
        return self.has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations to accounts (portal.services.invitations), read only: they are sent from
    /tk/inbjudan/ and /klubb/inbjudan/; the token is never shown (only its hash is stored)."""

    list_display = ["email", "role", "club", "club_role", "player", "created_at", "expires_at"]
    list_filter = ["role", "club"]
    search_fields = ["email", "player__mid"]
    exclude = ["token_hash"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ReigningChampion)
class ReigningChampionAdmin(admin.ModelAdmin):
    """Last season's DM gold listed for this season (issue 23, R-DIRECT-1, R-TEAM-DIRECT-1);
    written by ``results.services.next_season``, editable here."""

    list_display = ["competition", "name", "won_in"]
    list_filter = ["competition__season"]


class SeatOfferInline(WhyColumnMixin, admin.TabularInline):
    """The chain's offers of a seat, read-only here: answers are recorded with the actions on
    the offers (R-REPL-5: who recorded it, when)."""

    model = SeatOffer
    extra = 0
    fields = [
        "entry",
        "offered_at",
        "answer",
        "answered_at",
        "recorded_by",
        "why",
        "override_reason",
    ]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(FinalSeat)
class FinalSeatAdmin(WhyColumnMixin, ReasonActionsMixin, DecisionLogMixin, SimpleHistoryAdmin):
    """R-ALLOC-*, R-TEAM-ADV-1, R-REPL-1..7, R-TEAM-REPL-1: the seats of both finals, kept by
    the recompute and the decisions of ``clubs.services.seats``. "Lämna platsen" gives a seat
    up (reason in the action bar's "Motivering" field); the recompute then offers it down the
    chain. TK's other decisions on seats are taken on /tk/finalplatser/<competition>/."""

    list_display = [
        "competition",
        "number",
        "holder",
        "origin_heat",
        "source",
        "status",
        "why",
    ]
    list_filter = ["competition__season", "competition", "source", "status"]
    list_select_related = ["competition__season", "origin_heat", *seats.HOLDER_NAMES]
    fields = [
        "competition",
        "number",
        "holder",
        "origin_heat",
        "source",
        "status",
        "key",
        "replaces",
        "closed_reason",
        "why",
        "decision_log",
    ]
    readonly_fields = fields
    inlines = [SeatOfferInline]
    actions = ["give_up_seats"]

    give_up_seats = service_action(
        give_up_seat,
        description=_("Lämna valda platser (innehavaren avstår; ange motivering)"),
        label=lambda seat: seat.holder_name,
        each=lambda seat: _("Platsen för %(holder)s lämnad.") % {"holder": seat.holder_name},
    )

    def has_add_permission(self, request):
        return False


def _record_answer(answer, description):
    """An action recording the answer to the selected offers (R-REPL-5)."""
    return service_action(
        answer_offer,
        answer,
        description=description,
        with_reason=False,
        label=lambda offer: offer.entry,
        each=lambda offer: _("Svar registrerat för %(entry)s.") % {"entry": offer.entry},
    )


@admin.register(SeatOffer)
class SeatOfferAdmin(WhyColumnMixin, DecisionLogMixin, SimpleHistoryAdmin):
    """R-REPL-5, R-TEAM-REPL-1: every offer of a final seat with its answer, when, and who
    recorded it. Answers are recorded with the actions "Tackat ja"/"Tackat nej"
    (``clubs.services.seats.answer_offer``), as on /tk/."""

    list_display = [
        "seat",
        "entry",
        "offered_at",
        "answer",
        "answered_at",
        "recorded_by",
        "why",
        "override_reason",
    ]
    list_filter = ["answer", "seat__competition"]
    list_select_related = ["recorded_by", *seats.ENTRY_NAMES]
    readonly_fields = [
        "seat",
        "entry",
        "offered_at",
        "answer",
        "answered_at",
        "recorded_by",
        "why",
        "override_reason",
        "decision_log",
    ]
    exclude = ["reason", "reason_data"]
    actions = ["record_accepted", "record_declined"]

    record_accepted = _record_answer(SeatOffer.Answer.ACCEPTED, _("Registrera svar: tackat ja"))
    record_declined = _record_answer(SeatOffer.Answer.DECLINED, _("Registrera svar: tackat nej"))

    def has_add_permission(self, request):
        return False

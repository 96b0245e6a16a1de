from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import (
    BoardResult,
    Dispensation,
    ExternalTeamPlay,
    Lineup,
    Match,
    Penalty,
    RosterEntry,
    Ruling,
    Team,
    TeamCompetition,
    TeamHeat,
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
class TeamHeatAdmin(SimpleHistoryAdmin):
    list_display = [
        "name",
        "competition",
        "first_date",
        "last_date",
        "boards_per_match",
        "responsible_name",
        "status",
    ]
    list_filter = ["competition__season", "status"]
    search_fields = ["name", "venue", "responsible_name", "organisers__club__name"]
    inlines = [OrganiserInline, TeamInline]


class RosterInline(admin.TabularInline):
    model = RosterEntry
    fields = ["player", "is_extra"]
    autocomplete_fields = ["player"]
    extra = 0


class DispensationInline(admin.TabularInline):
    model = Dispensation
    fields = ["kind", "player", "occasion", "status", "decided_by", "decided_at", "reason"]
    autocomplete_fields = ["player"]
    extra = 0


@admin.register(Team)
class TeamAdmin(SimpleHistoryAdmin):
    list_display = ["name", "heat", "number", "captain", "in_final", "status"]
    list_filter = ["competition__season", "heat", "status", "in_final", "is_direct_qualifier"]
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


@admin.register(RosterEntry)
class RosterEntryAdmin(SimpleHistoryAdmin):
    list_display = ["player", "team", "is_extra", "added_on"]
    list_filter = ["is_extra", "team__heat"]
    search_fields = ["player__mid", "player__last_name", "team__name"]
    autocomplete_fields = ["player", "team"]
    list_select_related = ["player", "team"]


@admin.register(Dispensation)
class DispensationAdmin(SimpleHistoryAdmin):
    list_display = ["kind", "team", "player", "occasion", "status", "decided_by", "decided_at"]
    list_filter = ["kind", "status"]
    search_fields = ["team__name", "player__mid", "player__last_name"]
    autocomplete_fields = ["team", "player"]


class LineupInline(admin.TabularInline):
    model = Lineup
    extra = 0
    autocomplete_fields = ["player"]


class BoardResultInline(admin.TabularInline):
    model = BoardResult
    extra = 0


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
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
    raw_id_fields = ["home", "away", "upload"]
    inlines = [LineupInline, BoardResultInline]
    list_select_related = ["home", "away", "heat"]


@admin.register(Penalty)
class PenaltyAdmin(SimpleHistoryAdmin):
    list_display = ["team", "match", "vp", "clause", "status", "decided_by", "decided_at"]
    list_filter = ["clause", "status"]
    raw_id_fields = ["team", "match"]


@admin.register(WalkOver)
class WalkOverAdmin(SimpleHistoryAdmin):
    list_display = ["match", "offender", "force_majeure", "status", "decided_by", "decided_at"]
    list_filter = ["status"]
    raw_id_fields = ["match", "offender"]


@admin.register(ExternalTeamPlay)
class ExternalTeamPlayAdmin(SimpleHistoryAdmin):
    list_display = ["player", "season", "district", "team_name", "played_on"]
    search_fields = ["player__mid", "player__last_name", "team_name"]
    autocomplete_fields = ["player"]


@admin.register(Ruling)
class RulingAdmin(SimpleHistoryAdmin):
    list_display = ["match", "board_number", "td_names", "stage", "recorded_at"]
    list_filter = ["stage", "td_category"]
    raw_id_fields = ["match", "playing_td_team"]
    filter_horizontal = ["jury_teams"]

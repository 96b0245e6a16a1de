"""Filters of the list endpoints (django-filter): ``?competition=``, ``?season=2016-2017``, …"""

from __future__ import annotations

import django_filters as df
from django import forms
from django.db.models import Q

from clubs.models import Competition, Heat, HeatStatus, Season
from pairs.models import FinalSeat
from results.models import AllocationRun, StandingSnapshot
from teams.models import Match, Team, TeamFinalSeat

KINDS = [(k.value, k.label) for k in Competition.Kind]
#: The largest id a filter takes (PostgreSQL's integer): beyond it the database cannot compare.
MAX_ID = 2**31 - 1


class IdFilter(df.NumberFilter):
    """An object's id: a whole number from 1 to MAX_ID (else 400, not a database error)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class CountFilter(IdFilter):
    """A round's number and the like: 0 to 999."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 999)
        super().__init__(*args, **kwargs)


class SeasonFilter(df.FilterSet):
    class Meta:
        model = Season
        fields = ["name", "is_current"]


class CompetitionFilter(df.FilterSet):
    season = df.CharFilter(field_name="season__name")
    kind = df.ChoiceFilter(choices=KINDS, method="by_kind")

    class Meta:
        model = Competition
        fields = ["season", "discipline", "kind"]

    def by_kind(self, queryset, name, value):
        teams = Q(discipline=Competition.Discipline.TEAMS)
        return queryset.filter(teams) if value == "teams" else queryset.exclude(teams)


class HeatFilter(df.FilterSet):
    competition = IdFilter(method="by_competition")
    season = df.CharFilter(method="by_season")
    kind = df.ChoiceFilter(choices=KINDS)
    status = df.ChoiceFilter(choices=HeatStatus.choices)

    class Meta:
        model = Heat
        fields = ["competition", "season", "kind", "status"]

    def by_competition(self, queryset, name, value):
        return queryset.filter(Q(pairheat__competition=value) | Q(teamheat__competition=value))

    def by_season(self, queryset, name, value):
        return queryset.filter(
            Q(pairheat__competition__season__name=value)
            | Q(teamheat__competition__season__name=value)
        )


class TeamFilter(df.FilterSet):
    competition = IdFilter()
    heat = IdFilter()
    #: R-TEAM-ADV-1: teams holding a seat in the final (the seat rows).
    holds_final_seat = df.BooleanFilter()

    class Meta:
        model = Team
        fields = ["competition", "heat", "holds_final_seat", "status"]


class MatchFilter(df.FilterSet):
    competition = IdFilter()
    heat = IdFilter()
    round = CountFilter()
    team = IdFilter(method="by_team")

    class Meta:
        model = Match
        fields = ["competition", "heat", "stage", "round", "status", "team"]

    def by_team(self, queryset, name, value):
        return queryset.filter(Q(home=value) | Q(away=value))


class StandingFilter(df.FilterSet):
    competition = IdFilter()
    heat = IdFilter()

    class Meta:
        model = StandingSnapshot
        fields = ["competition", "heat", "scope"]


class AllocationFilter(df.FilterSet):
    competition = IdFilter()

    class Meta:
        model = AllocationRun
        fields = ["competition"]


class _SeatFilter(df.FilterSet):
    """``?held=true``: the final's seat holders now (a seat not vacated, with a holder)."""

    competition = IdFilter()
    held = df.BooleanFilter(method="by_held", label="held")
    HOLDER = Q()

    def by_held(self, queryset, name, value):
        held = ~Q(status=FinalSeat.Status.VACATED) & self.HOLDER
        return queryset.filter(held) if value else queryset.exclude(held)


class PairSeatFilter(_SeatFilter):
    HOLDER = Q(entry__isnull=False) | Q(direct_qualifier__isnull=False) | Q(player1__isnull=False)

    class Meta:
        model = FinalSeat
        fields = ["competition", "status", "source", "held"]


class TeamSeatFilter(_SeatFilter):
    HOLDER = Q(team__isnull=False)

    class Meta:
        model = TeamFinalSeat
        fields = ["competition", "status", "source", "held"]

"""Filters of the list endpoints (django-filter): ``?competition=``, ``?season=2016-2017``, …"""

from __future__ import annotations

import django_filters as df
from django import forms
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_filters.filterset import FILTER_FOR_DBFIELD_DEFAULTS
from drf_spectacular.utils import extend_schema_field

from clubs import seats
from clubs.models import Competition, FinalSeat, Heat, HeatStatus, Season
from results.models import AllocationRun, StandingSnapshot
from teams.models import Match, Team

KINDS = [(k.value, k.label) for k in Competition.Kind]
#: The largest id a filter takes (PostgreSQL's integer): beyond it the database cannot compare.
MAX_ID = 2**31 - 1


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class IdFilter(df.NumberFilter):
    """An object's id: a whole number from 1 to MAX_ID (else 400, not a database error)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": 999})
class CountFilter(IdFilter):
    """A round's number and the like: 0 to 999."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 999)
        super().__init__(*args, **kwargs)


class StrictBooleanField(forms.Field):
    """``true`` or ``false`` (also ``True``/``False``, ``1``/``0``); anything else is refused
    (400), not taken as "no filter" as django-filter's NullBooleanField does (issue 25: an
    unknown ``held`` value answered the whole list)."""

    VALUES = {"true": True, "True": True, "1": True, "false": False, "False": False, "0": False}
    default_error_messages = {"invalid": _("Ange true eller false.")}

    def to_python(self, value):
        if value is None:  # not given (given empty is refused)
            return None
        if isinstance(value, bool):
            return value
        if value not in self.VALUES:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return self.VALUES[value]


class StrictBooleanFilter(df.BooleanFilter):
    field_class = StrictBooleanField


class FilterSet(df.FilterSet):
    """The API's filter sets: a model's boolean field filters strictly (StrictBooleanFilter)."""

    FILTER_DEFAULTS = {
        **FILTER_FOR_DBFIELD_DEFAULTS,
        models.BooleanField: {"filter_class": StrictBooleanFilter},
    }


class SeasonFilter(FilterSet):
    class Meta:
        model = Season
        fields = ["name", "is_current"]


class CompetitionFilter(FilterSet):
    season = df.CharFilter(field_name="season__name")
    kind = df.ChoiceFilter(choices=KINDS, method="by_kind")

    class Meta:
        model = Competition
        fields = ["season", "discipline", "kind"]

    def by_kind(self, queryset, name, value):
        teams = Q(discipline=Competition.Discipline.TEAMS)
        return queryset.filter(teams) if value == "teams" else queryset.exclude(teams)


class HeatFilter(FilterSet):
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


class TeamFilter(FilterSet):
    competition = IdFilter()
    heat = IdFilter()
    #: R-TEAM-ADV-1: teams holding a seat in the final (the seat rows).
    holds_final_seat = StrictBooleanFilter()

    class Meta:
        model = Team
        fields = ["competition", "heat", "holds_final_seat", "status"]


class MatchFilter(FilterSet):
    competition = IdFilter()
    heat = IdFilter()
    round = CountFilter()
    team = IdFilter(method="by_team")

    class Meta:
        model = Match
        fields = ["competition", "heat", "stage", "round", "status", "team"]

    def by_team(self, queryset, name, value):
        return queryset.filter(Q(home=value) | Q(away=value))


class StandingFilter(FilterSet):
    competition = IdFilter()
    heat = IdFilter()

    class Meta:
        model = StandingSnapshot
        fields = ["competition", "heat", "scope"]


class AllocationFilter(FilterSet):
    competition = IdFilter()

    class Meta:
        model = AllocationRun
        fields = ["competition"]


class SeatFilter(FilterSet):
    """A final's seats, pairs or teams. ``?held=true``: the final's seat holders now (a seat not
    vacated, with a holder: ``clubs.seats.held``)."""

    competition = IdFilter()
    held = StrictBooleanFilter(method="by_held", label="held")

    class Meta:
        model = FinalSeat
        fields = ["competition", "status", "source", "held"]

    def by_held(self, queryset, name, value):
        return queryset.filter(seats.HELD) if value else queryset.exclude(seats.HELD)

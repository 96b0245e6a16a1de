"""/api/v1/: the REST API (docs/architecture.md, "The API")."""

from django.urls import path, re_path
from rest_framework.routers import DefaultRouter

from . import problems, views

app_name = "api"

router = DefaultRouter()
router.register("seasons", views.SeasonViewSet, basename="season")
router.register("competitions", views.CompetitionViewSet, basename="competition")
router.register("heats", views.HeatViewSet, basename="heat")
router.register("teams", views.TeamViewSet, basename="team")
router.register("matches", views.MatchViewSet, basename="match")
router.register("standings", views.StandingViewSet, basename="standing")
router.register("allocations", views.AllocationViewSet, basename="allocation")
router.register("final-seats/pairs", views.PairSeatViewSet, basename="pair-seat")
router.register("final-seats/teams", views.TeamSeatViewSet, basename="team-seat")
router.register("pair-entries", views.PairEntryViewSet, basename="pair-entry")
router.register("offers/pairs", views.PairOfferViewSet, basename="pair-offer")
router.register("offers/teams", views.TeamOfferViewSet, basename="team-offer")

urlpatterns = [
    path("calendar/", views.CalendarView.as_view(), name="calendar"),
    *router.urls,
    re_path(r"^.*$", problems.not_found),
]

"""The club portal under /klubb/ (see :mod:`clubs.portal`)."""

from django.urls import path

from . import portal

app_name = "portal"

urlpatterns = [
    path("", portal.dashboard, name="dashboard"),
    path("parkval/ny/", portal.register_pair_heat_view, name="register_pair_heat"),
    path("lagkval/ny/", portal.register_team_heat_view, name="register_team_heat"),
    path("parkval/<int:heat_id>/anmal/", portal.enter_pair_view, name="enter_pair"),
]

from django.urls import path

from . import portal

app_name = "lagportal"

urlpatterns = [
    path("", portal.index, name="index"),
    path("anmal/<int:heat_id>/", portal.enter, name="enter"),
    path("<int:team_id>/laguppstallning/", portal.roster, name="roster"),
    path("<int:team_id>/match/<int:match_id>/", portal.lineup, name="lineup"),
]

from django.urls import path

from . import views

app_name = "teams"

urlpatterns = [
    path("", views.index, name="index"),
    path("anmal/<int:heat_id>/", views.enter, name="enter"),
    path("anmalan/<int:request_id>/svar/", views.answer_entry_request, name="answer_entry_request"),
    path("<int:team_id>/laguppstallning/", views.roster, name="roster"),
    path("<int:team_id>/match/<int:match_id>/", views.lineup, name="lineup"),
]

from django.urls import path

from . import views

app_name = "results"

urlpatterns = [
    path("par/<int:heat_id>/", views.upload_pair_heat_view, name="upload_pair_heat"),
    path("lag/<int:heat_id>/", views.upload_team_heat_view, name="upload_team_heat"),
    path("lagfinal/<int:competition_id>/", views.upload_team_final_view, name="upload_team_final"),
    path("parfinal/<int:competition_id>/", views.upload_pair_final_view, name="upload_pair_final"),
    path("fil/<int:upload_id>/", views.upload_file_view, name="upload_file"),
]

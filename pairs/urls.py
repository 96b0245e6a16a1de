from django.urls import path

from . import views

app_name = "pairs"

urlpatterns = [path("par/", views.competitions, name="competitions")]

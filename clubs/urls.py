from django.urls import re_path

from . import views

app_name = "clubs"

_LIST = r"^(?P<scope>heat|final)/(?P<kind>parkval|lagkval|parfinal|lagfinal)/(?P<pk>\d+)"

urlpatterns = [
    re_path(_LIST + r"/$", views.fee_list_page, name="fee_list"),
    re_path(_LIST + r"\.(?P<fmt>csv|xlsx)$", views.fee_list_download, name="fee_list_download"),
]

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularSwaggerSplitView

from api.views import SchemaView
from portal.accounts import ThrottledPasswordResetForm

handler500 = "ubf.views.server_error"

admin.site.site_header = _("UBF DM – tävlingskommittén")
admin.site.site_title = "UBF DM"
admin.site.index_title = _("Administration")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    # The reset form sends at most UBF_PASSWORD_RESET_MAILS_PER_HOUR mails to one address.
    path(
        "konto/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=ThrottledPasswordResetForm),
        name="password_reset",
    ),
    # The split view serves its start script as a file: the CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("api.urls")),
    path("konto/", include("django.contrib.auth.urls")),
    path("resultat/", include("results.urls")),
    path("", include("portal.urls")),
    path("mitt-lag/", include("teams.urls")),
]
# Uploaded result files (players' names and MIDs) are never served from MEDIA_URL, not even
# with DEBUG: ``results:upload_file`` hands them to those who may see them.

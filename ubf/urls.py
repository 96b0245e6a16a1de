from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

admin.site.site_header = _("UBF DM – tävlingskommittén")
admin.site.site_title = "UBF DM"
admin.site.index_title = _("Administration")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("api.urls")),
    path("konto/", include("django.contrib.auth.urls")),
    path("resultat/", include("results.urls")),
    path("", include("portal.urls")),
    path("mitt-lag/", include("teams.urls")),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

"""TK's tool for API tokens: create one (the key is shown once, in the message after
saving), revoke the selected ones (an action). Both go through ``api.services``."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.admin_actions import DecisionLogMixin, ReasonActionsMixin, service_action
from clubs.permissions import is_tk
from clubs.services.base import ServiceError

from .models import ApiToken
from .services import create_token, revoke_token


class ApiTokenForm(forms.ModelForm):
    class Meta:
        model = ApiToken
        fields = ["name", "owner", "club", "heat", "final_of"]


@admin.register(ApiToken)
class ApiTokenAdmin(ReasonActionsMixin, DecisionLogMixin, admin.ModelAdmin):
    form = ApiTokenForm
    list_display = ["name", "key_prefix", "owner", "scope", "created_by", "last_used", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "key_prefix", "owner__username"]
    autocomplete_fields = []
    actions = [
        service_action(
            revoke_token,
            description=gettext_lazy("Återkalla valda API-nycklar"),
            summary="{done} API-nycklar återkallade.",
        )
    ]

    @admin.display(description=gettext_lazy("gäller"))
    def scope(self, obj):
        if obj.club_id:
            return _("heat som %(club)s arrangerar") % {"club": obj.club}
        if obj.heat_id:
            return _("heatet %(heat)s") % {"heat": obj.heat}
        return _("finalen i %(competition)s") % {"competition": obj.final_of}

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return [
            "name",
            "owner",
            "club",
            "heat",
            "final_of",
            "key_prefix",
            "created_by",
            "created_at",
            "last_used",
            "revoked_at",
            "decision_log",
        ]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["name", "owner", "club", "heat", "final_of"]
        return self.get_readonly_fields(request, obj)

    def save_model(self, request, obj, form, change):
        if change:
            return
        d = form.cleaned_data
        try:
            token, key = create_token(
                request.user,
                owner=d["owner"],
                name=d["name"],
                club=d.get("club"),
                heat=d.get("heat"),
                final_of=d.get("final_of"),
            )
        except ServiceError as exc:
            for text in exc.messages():
                messages.error(request, text)
            return
        obj.pk = token.pk
        messages.warning(
            request,
            _("API-nyckeln (visas bara nu, spara den i resultatprogrammet): %(key)s")
            % {"key": key},
        )

    def has_module_permission(self, request):
        return is_tk(request.user)

    def has_view_permission(self, request, obj=None):
        return is_tk(request.user)

    def has_add_permission(self, request):
        return is_tk(request.user)

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

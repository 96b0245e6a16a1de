"""What TK's admin pages share around decisions (R-GEN-3): actions that call a service for
each selected row with the reason from the action bar's "Motivering" field, and the columns
that show a decision's reason and audit trail.

An action built by :func:`service_action` never writes itself: the service checks permission,
validates and records the decision. A refusal (:class:`~clubs.services.base.ServiceError`) is
reported for its row and the next row is tried; a :class:`PermissionDenied` is reported once
and stops the action (the user may not do it for any row).
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.core.exceptions import PermissionDenied
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from simple_history.admin import SimpleHistoryAdmin

from clubs.decision_log import render_decision_log
from clubs.services.base import ServiceError


class ReasonActionForm(ActionForm):
    """The action bar with a "Motivering" field: the reason passed to the service."""

    reason = forms.CharField(label=_("Motivering"), required=False)


def action_reason(request) -> str:
    """The reason typed in the action bar (empty if none)."""
    return request.POST.get("reason", "")


def service_action(
    service: Callable,
    *args,
    description: str,
    with_reason: bool = True,
    label: Callable = str,
    each: Callable | None = None,
    summary: str | None = None,
):
    """An admin action calling ``service(request.user, obj, *args, reason=...)`` for every
    selected ``obj`` (without ``reason`` when ``with_reason`` is false).

    A ServiceError is shown per row as ``"{label(obj)}: {message} ({clause})"``; a
    PermissionDenied is shown once and ends the action. After each success ``each(obj)``, if
    given, is shown; at the end ``summary`` when any row was done: an ``ngettext_lazy`` with a
    ``%(done)d`` placeholder (the number of rows done), or a plain ``{done}`` format string."""

    @admin.action(description=description)
    def action(modeladmin, request, queryset):
        kwargs = {"reason": action_reason(request)} if with_reason else {}
        done = 0
        for obj in queryset:
            try:
                service(request.user, obj, *args, **kwargs)
            except ServiceError as exc:
                for text in exc.messages():
                    messages.error(request, f"{label(obj)}: {text}")
                continue
            except PermissionDenied as exc:
                messages.error(request, str(exc))
                return
            done += 1
            if each is not None:
                messages.success(request, each(obj))
        if done and summary:
            text = (
                summary.format(done=done) if isinstance(summary, str) else summary % {"done": done}
            )
            messages.success(request, text)

    return action


class ReasonActionsMixin:
    """For a ModelAdmin whose actions take a reason: the action bar gets "Motivering"."""

    action_form = ReasonActionForm


class DecisionFieldsMixin:
    """Fields a TK decision sets (a status, a result of a W.O., a seat's cache) are read-only
    on the change form: the admin stays for corrections, and the decisions go through the
    services (the actions, /tk/). ``decision_fields`` names them; a posted value is ignored."""

    decision_fields: tuple[str, ...] = ()

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        return fields + [f for f in self.decision_fields if f not in fields]


class DecisionLogMixin:
    """The read-only "beslutslogg" column: the audit trail about the object (R-GEN-3)."""

    @admin.display(description=_("beslutslogg (R-GEN-3)"))
    def decision_log(self, obj):
        return render_decision_log(obj) if obj and obj.pk else "–"


class WhyColumnMixin:
    """The "why" of a seat or an offer (``clubs.models.Explained``) as a column and a read-only
    field, in the reader's language with its clause (issue 9: every seat and offer row says
    why)."""

    @admin.display(description=_("Varför"))
    def why(self, obj):
        return obj.reason_text()


class DecidedColumnsMixin(DecisionLogMixin):
    """The columns of a ``Decided`` record: its reason, shortened, and its audit trail."""

    @admin.display(description=_("motivering"))
    def reason_short(self, obj):
        return Truncator(obj.reason).chars(60)


def change_request_actions(decide, *, label=lambda change: change.heat, reason_always=False):
    """The approve and reject actions of a change request admin: a heat's (R-PAIR-KVAL-2,
    the discipline's ``decide_heat_change``) or a team's roster (``decide_roster_change``,
    ``reason_always``: approving needs a reason too). The reason goes in "Motivering"."""
    approve = service_action(
        decide,
        True,
        description=(
            _("Godkänn valda ändringar (ange motivering)")
            if reason_always
            else _("Godkänn valda ändringar")
        ),
        label=label,
        summary=ngettext_lazy("%(done)d ändring godkänd.", "%(done)d ändringar godkända.", "done"),
    )
    reject = service_action(
        decide,
        False,
        description=_("Avslå valda ändringar (ange motivering)"),
        label=label,
        summary=ngettext_lazy("%(done)d ändring avslagen.", "%(done)d ändringar avslagna.", "done"),
    )
    return approve, reject


class HeatChangeRequestAdmin(ReasonActionsMixin, SimpleHistoryAdmin):
    """The admin of a heat change request, pairs or teams; the subclass adds the actions."""

    list_display = [
        "kind",
        "heat",
        "new_first_date",
        "new_second_date",
        "status",
        "requested_at",
        "decided_by",
    ]
    list_filter = ["kind", "status"]
    raw_id_fields = ["heat"]
    actions = ["approve_requests", "reject_requests"]

"""Reading the audit trail of TK decisions (R-GEN-3): the entries about one object, and the
same as an HTML list for TK's admin pages."""

from __future__ import annotations

from django.utils import timezone
from django.utils.html import format_html, format_html_join

from clubs.models import Decision


def decision_log(obj):
    """The audit-trail entries (:class:`clubs.models.Decision`) about ``obj``, newest first."""
    return Decision.objects.filter(object_type=obj._meta.label_lower, object_id=obj.pk)


def render_decision_log(obj) -> str:
    """The audit trail about ``obj`` as an HTML list, for the admin pages (R-GEN-3)."""
    rows = [
        (
            timezone.localtime(d.decided_at).strftime("%Y-%m-%d %H:%M"),
            d.decided_by or "system",
            d.action,
            d.clause,
            d.reason,
        )
        for d in decision_log(obj).select_related("decided_by")
    ]
    if not rows:
        return "–"
    return format_html(
        "<ul>{}</ul>",
        format_html_join("", "<li>{} · {} · {} ({}): {}</li>", rows),
    )

"""Standings texts put into the reader's language when the page is shown: a snapshot row keeps
the criterion key (``decided_by``) and a Swedish status word, both msgids (docs/translation.md)."""

from django import template
from django.utils.translation import gettext

from results.services.recompute.teams import CRITERION_SV

register = template.Library()


@register.filter
def decided_by_text(row) -> str:
    """ "Särskilt på <criterion>" for a rank decided by a tie-break (not by VP itself)."""
    key = row.get("decided_by") or ""
    criterion = CRITERION_SV.get(key)
    if not criterion or key == "vp":
        return ""
    return gettext("Särskilt på %(criterion)s") % {"criterion": gettext(criterion)}

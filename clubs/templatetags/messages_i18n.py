"""``{{ violation|rendered }}``: a rule message (a Violation, Message or FeeLine) in the active
language, through :func:`clubs.i18n.render` (docs/translation.md)."""

from django import template

from clubs.i18n import render

register = template.Library()


@register.filter
def rendered(message) -> str:
    return render(message)

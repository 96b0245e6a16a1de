"""``{% tk_rulings_summary as s %}``: the open appeals (R-RULING-2/3) and the protests with their
last day (R-TEAM-RES-5) for TK's queue, without touching the queue's view."""

from django import template

from clubs.models import Season
from portal.views.tk_rulings import protest_summary

register = template.Library()


@register.simple_tag
def tk_rulings_summary() -> dict:
    return protest_summary(Season.current())

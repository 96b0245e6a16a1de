"""``{% entry_requests_to_answer as requests %}``: the open team entry requests the logged-in
user answers (R-TEAM-REG-2), for the club page's small list
(``templates/portal/_team_entry_requests.html``)."""

from django import template

from teams.selectors import entry_requests_to_answer as _to_answer

register = template.Library()


@register.simple_tag(takes_context=True)
def entry_requests_to_answer(context):
    request = context.get("request")
    return _to_answer(getattr(request, "user", None))

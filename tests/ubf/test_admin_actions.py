"""clubs.admin_actions: an admin action calls the service for every selected row with the reason
from the action bar, reports refusals per row and stops at the first PermissionDenied."""

from types import SimpleNamespace

from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory

from clubs.admin_actions import ReasonActionForm, service_action
from clubs.services.base import ServiceError
from ubf.rules.violations import Violation


def post(data):
    request = RequestFactory().post("/admin/x/", data)
    request.user = SimpleNamespace(pk=1, is_authenticated=True)
    request.session = {}
    request._messages = FallbackStorage(request)
    return request


def texts(request):
    return [(m.level_tag, m.message) for m in get_messages(request)]


def service_refusing(*names, denied=()):
    calls = []

    def service(user, obj, *args, **kwargs):
        calls.append((obj, args, kwargs))
        if obj in denied:
            raise PermissionDenied("Bara UBF TK.")
        if obj in names:
            raise ServiceError([Violation("R-GEN-3", "Ange skälet.", "Give the reason.")])

    return service, calls


def test_reason_and_arguments_reach_the_service_and_refusals_are_reported_per_row():
    service, calls = service_refusing("b")
    action = service_action(service, True, description="Godkänn", summary="{done} godkända.")
    request = post({"reason": "Dubblett"})
    action(None, request, ["a", "b", "c"])
    assert calls == [(x, (True,), {"reason": "Dubblett"}) for x in "abc"]
    assert texts(request) == [("error", "b: Ange skälet. (R-GEN-3)"), ("success", "2 godkända.")]
    assert action.short_description == "Godkänn"


def test_permission_denied_stops_the_action_without_a_summary():
    service, calls = service_refusing(denied=("b",))
    action = service_action(service, description="x", summary="{done} klara.")
    request = post({})
    action(None, request, ["a", "b", "c"])
    assert [c[0] for c in calls] == ["a", "b"]
    assert texts(request) == [("error", "Bara UBF TK.")]


def test_without_reason_with_labels_and_a_message_per_row():
    service, calls = service_refusing("b")
    action = service_action(
        service,
        with_reason=False,
        description="x",
        label=str.upper,
        each=lambda obj: f"{obj} klar.",
    )
    request = post({"reason": "ignored"})
    action(None, request, ["a", "b"])
    assert calls == [("a", (), {}), ("b", (), {})]
    assert texts(request) == [("success", "a klar."), ("error", "B: Ange skälet. (R-GEN-3)")]


def test_the_action_bar_has_the_reason_field():
    form = ReasonActionForm({"action": "x", "reason": "Sjukdom"})
    assert str(form.fields["reason"].label) == "Motivering"
    assert not form.fields["reason"].required

"""TK's page of a final's seats (/tk/finalplatser/<competition>/, R-REPL-3, R-REPL-5): the seats
and every offer made for them, and TK's decisions on them, with the clause beside each: record
an answer (R-REPL-5), record that a holder gives its seat up (R-REPL-1, R-TEAM-REPL-1), offer a
seat to an entry of TK's choice with a reason (R-REPL-5; R-REPL-3 when nobody is left to ask),
or leave it empty with a reason (R-REPL-3). Thin: each POST names its ``action`` and calls the
one service of ``clubs.services.seats``; a refusal lists every reason with its clause (status
400) and nothing is saved; the recompute follows on commit."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.models import Entry, FinalSeat, SeatOffer
from clubs.permissions import is_tk
from clubs.services.base import ServiceError
from clubs.services.seats import answer_offer, give_up_seat, leave_seat_empty, override_offer
from portal.selectors.tk_seats import final_seats_page


def _denied(request):
    return render(request, "portal/denied.html", {"message": ""}, status=403)


def _pick(model, request, name: str, competition_id: int):
    """The row ``request.POST[name]`` of ``model`` in this competition's final, or None."""
    pk = request.POST.get(name, "")
    if not pk.isdigit():
        return None
    if model is SeatOffer:
        return model.objects.filter(pk=pk, seat__competition_id=competition_id).first()
    return model.objects.filter(pk=pk, competition_id=competition_id).first()


def _decide(request, competition_id: int):
    """The decision the POST names; returns the message that says what changed."""
    action = request.POST.get("action", "")
    reason = request.POST.get("reason", "")
    if action == "answer":
        offer = _pick(SeatOffer, request, "offer", competition_id)
        decision = request.POST.get("decision")
        if offer is None or decision not in ("yes", "no"):
            return None
        answer = SeatOffer.Answer.ACCEPTED if decision == "yes" else SeatOffer.Answer.DECLINED
        answer_offer(request.user, offer, answer, reason=reason)
        return _("Svaret är registrerat: %(entry)s %(answer)s (R-REPL-5).") % {
            "entry": offer.entry,
            "answer": offer.get_answer_display(),
        }
    seat = _pick(FinalSeat, request, "seat", competition_id)
    if seat is None:
        return None
    if action == "give_up":
        give_up_seat(request.user, seat, reason=reason)
        return _("Platsen är lämnad; den erbjuds vidare i ersättarkedjan (R-REPL-1).")
    if action == "offer":
        pk = request.POST.get("entry", "")
        entry = Entry.objects.filter(pk=pk).first() if pk.isdigit() else None
        if entry is None:
            return None
        override_offer(request.user, seat, entry, reason)
        return _("Platsen är erbjuden %(entry)s på TK:s beslut (R-REPL-5).") % {"entry": entry}
    if action == "leave_empty":
        leave_seat_empty(request.user, seat, reason)
        return _("Platsen lämnas tom på TK:s beslut (R-REPL-3).")
    return None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def final_seats_view(request, competition_id: int):
    """GET: the final's seats and offers and what TK may decide; POST: one decision."""
    if not is_tk(request.user):
        return _denied(request)
    errors: list[str] = []
    if request.method == "POST":
        try:
            done = _decide(request, competition_id)
        except PermissionDenied:
            return _denied(request)
        except ServiceError as exc:
            errors = exc.messages(get_language() or "sv")
        else:
            if done is None:
                errors = [_("Välj en plats, ett erbjudande eller ett par/lag: inget har sparats.")]
            else:
                messages.success(request, done)
                url = reverse("portal:tk_final_seats", args=[competition_id])
                return redirect(f"{url}#plats-{request.POST.get('seat') or ''}")
    page = final_seats_page(competition_id)
    return render(
        request,
        "portal/tk_final_seats.html",
        {"page": page, "errors": errors, "typed": request.POST},
        status=400 if errors else 200,
    )

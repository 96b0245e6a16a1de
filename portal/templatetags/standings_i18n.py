"""Standings texts put into the reader's language when the page is shown: a snapshot row keeps
the criterion key (``decided_by``) and a Swedish status word, both msgids (docs/translation.md).
Numbers stored as text in the snapshots ("105.44") are shown the reader's way (``|num``:
"105,44" on Swedish pages, "105.44" on English ones)."""

from django import template
from django.utils.translation import get_language, gettext

from clubs.i18n import render
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


@register.filter
def tie_lines(row) -> list[str]:
    """R-TEAM-TIE-1, R-PAIR-TIE-1 written out: the criteria after VP (a team) or the score (a
    pair) that were applied to the row (it was level with another), each in the reader's
    language with its figures; a criterion that could not be used says why."""
    return [
        render(entry["message"])
        for entry in row.get("explanation") or ()
        if entry.get("criterion") not in ("vp", "score") and entry.get("message")
    ]


_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SEATS_SV = {"N": "N", "E": "Ö", "S": "S", "W": "V"}


@register.filter
def contract(text, declarer=""):
    """A stored contract ("4SX") with its declarer as a player reads it: "4♠X S"; the seat in
    the reader's language (Swedish Ö/V for E/W)."""
    if not text:
        return ""
    if text == "Pass":
        return gettext("pass")
    shown = text[0] + (
        text[1:] if text[1:].startswith("NT") else _SUITS.get(text[1:2], text[1:2]) + text[2:]
    )
    if declarer:
        seat = _SEATS_SV.get(declarer, declarer) if get_language() == "sv" else declarer
        shown = f"{shown} {seat}"
    return shown

"""TK's decision log in words (/tk/logg/, issue 13): who, when (local time), what in a
sentence, the reason and the clause, the object linked; filtered by kind and by a text (a team,
a club, a player), newest first. Read only: clubs.Decision rows are append-only.

An action is named "<app>.<kind>.<what>" ("teams.dispensation.granted"); the sentence is
made of the verb of <what> and the noun of <kind>, both in the catalogue, with the object's
own name ("TK beviljade dispens: Fyris 1"). An action without words of its own is shown by its
name, so nothing recorded is hidden."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from clubs.models import Decision
from ubf.rules.i18n import gettext_noop

NOUNS = {
    "heat": gettext_noop("kvalheat"),
    "heat_change": gettext_noop("ändring av kvalheat"),
    "dispensation": gettext_noop("dispens"),
    "roster_change": gettext_noop("ändring av laguppställning"),
    "offer": gettext_noop("svar på erbjuden finalplats"),
    "final_offer": gettext_noop("svar på erbjuden finalplats"),
    "team": gettext_noop("lag"),
    "entry": gettext_noop("par"),
    "walkover": gettext_noop("W.O."),
    "penalty": gettext_noop("VP-avdrag"),
    "ruling": gettext_noop("domslut"),
    "lot": gettext_noop("lottning"),
    "direct_qualifier": gettext_noop("direktkvalificerade"),
    "direct_final": gettext_noop("direktfinal"),
    "seat": gettext_noop("finalplats"),
    "sm_partner": gettext_noop("SM-partner"),
    "protest": gettext_noop("protest"),
    "lineup": gettext_noop("laguppställning"),
    "season": gettext_noop("säsongens inställningar"),
    "invitation": gettext_noop("inbjudan till klubbfunktionär"),
    "entry_request": gettext_noop("laganmälan"),
    "other_team": gettext_noop("spelare från ett annat lag"),
    "flag": gettext_noop("flagga"),
    "fee": gettext_noop("avgift"),
    "schedule": gettext_noop("spelschema"),
    "mp_table": gettext_noop("mästarpoängtabell"),
    "semifinal_choice": gettext_noop("val av SM-semifinalort"),
    "semifinal_venues": gettext_noop("SM-semifinalorter"),
    "heat_offer": gettext_noop("plats i annat kvalheat"),
}

VERBS = {
    "approved": gettext_noop("godkände"),
    "granted": gettext_noop("beviljade"),
    "rejected": gettext_noop("avslog"),
    "cancelled": gettext_noop("ställde in"),
    "moved": gettext_noop("flyttade"),
    "accepted": gettext_noop("registrerade ja, %(noun)s"),
    "declined": gettext_noop("registrerade nej, %(noun)s"),
    "override": gettext_noop("gjorde avsteg från kedjan, %(noun)s"),
    "awarded": gettext_noop("dömde"),
    "revoked": gettext_noop("återkallade"),
    "imposed": gettext_noop("beslutade"),
    "recorded": gettext_noop("registrerade"),
    "registered": gettext_noop("registrerade"),
    "registration": gettext_noop("tog emot anmälan av"),
    "withdrawn": gettext_noop("drog tillbaka"),
    "excluded": gettext_noop("uteslöt"),
    "exclusion_lifted": gettext_noop("hävde uteslutningen, %(noun)s"),
    "disqualified": gettext_noop("diskvalificerade"),
    "struck": gettext_noop("strök"),
    "reinstated": gettext_noop("återinsatte"),
    "forfeited": gettext_noop("registrerade avstående, %(noun)s"),
    "drawn_by_hand": gettext_noop("registrerade handlottning, %(noun)s"),
    "precedence_used": gettext_noop("använde företräde, %(noun)s"),
    "jury_drawn": gettext_noop("lottade jury, %(noun)s"),
    "jury_decided": gettext_noop("registrerade juryns beslut, %(noun)s"),
    "appealed": gettext_noop("registrerade överklagande, %(noun)s"),
    "decided": gettext_noop("beslutade om"),
    "heat_moved": gettext_noop("flyttade till ett annat heat:"),
    "filed": gettext_noop("registrerade"),
    "declared": gettext_noop("registrerade"),
    "flagged": gettext_noop("flaggade"),
    "entered": gettext_noop("anmälde till"),
    "entry": gettext_noop("anmälde"),
    "lifted": gettext_noop("hävde"),
    "drawn": gettext_noop("drog"),
    "configured": gettext_noop("ändrade"),
    "sent": gettext_noop("skickade"),
    "confirmed": gettext_noop("bekräftade"),
    "refused": gettext_noop("avslog"),
    "allowed": gettext_noop("godkände"),
    "handled": gettext_noop("hanterade"),
    "violation_recorded": gettext_noop("registrerade en överträdelse, %(noun)s"),
    "collected": gettext_noop("registrerade %(noun)s som inkasserad"),
    "passed": gettext_noop("registrerade %(noun)s som vidarebefordrad till UBF"),
    "saved": gettext_noop("sparade"),
    "loaded": gettext_noop("lade in"),
    "chosen": gettext_noop("registrerade"),
    "corrected": gettext_noop("rättade"),
    "offered": gettext_noop("erbjöd"),
    "request": gettext_noop("tog emot begäran om"),
}


@dataclass
class LogRow:
    at: datetime
    who: str
    sentence: str
    reason: str
    clause: str
    url: str
    kind: str


def _parts(action: str) -> tuple[str, str, bool]:
    """(kind, what, late) of "<app>.<kind>.<what>[.outside_window]"."""
    bits = action.split(".")
    late = bits[-1] == "outside_window"
    if late:
        bits = bits[:-1]
    kind = bits[1] if len(bits) > 2 else (bits[0] if bits else "")
    what = bits[-1] if len(bits) > 1 else ""
    return kind, what, late


def sentence(decision: Decision) -> str:
    """ "TK beviljade dispens: Fyris 1" in the active language; the action's name when it has
    no words of its own."""
    kind, what, late = _parts(decision.action)
    who = _("TK") if decision.decided_by_id else _("Systemet")
    noun, verb = NOUNS.get(kind), VERBS.get(what)
    if noun is None or verb is None:
        text = f"{decision.action}: {decision.object_repr}"
    else:
        noun_text = _(noun)
        verb_text = _(verb)
        if "%(noun)s" in verb:
            phrase = verb_text % {"noun": noun_text}
        else:
            phrase = f"{verb_text} {noun_text}"
        text = f"{who} {phrase}: {decision.object_repr}"
    if late:
        text += " " + _("(efter tidsfristen)")
    return text


def _object_url(decision: Decision) -> str:
    app, _dot, model = decision.object_type.partition(".")
    try:
        return reverse(f"admin:{app}_{model}_change", args=[decision.object_id])
    except NoReverseMatch:
        return ""


def decision_rows(*, kind: str = "", text: str = "", limit: int = 500) -> list[LogRow]:
    """The newest ``limit`` decisions, of one ``kind`` ("dispensation", "heat", ...) and/or
    whose object's name contains ``text``; one query."""
    qs = Decision.objects.select_related("decided_by").order_by("-decided_at", "-id")
    if kind:
        names = "|".join(re.escape(k) for k in _same_kinds(kind))
        qs = qs.filter(action__regex=rf"^[a-z_]+\.({names})\.")
    if text:
        qs = qs.filter(object_repr__icontains=text)
    rows = []
    for d in qs[:limit]:
        user = d.decided_by
        who = (user.get_full_name() or user.username) if user else _("systemet")
        rows.append(
            LogRow(
                at=d.decided_at,
                who=who,
                sentence=sentence(d),
                reason=d.reason,
                clause=d.clause,
                url=_object_url(d),
                kind=_parts(d.action)[0],
            )
        )
    return rows


def kinds() -> list[tuple[str, str]]:
    """The kinds to filter on, with their names in the active language: one entry per name
    (kinds that share a name, such as the pairs' and the teams' answers to a final seat, are
    one filter; see :func:`_same_kinds`)."""
    seen: dict[str, str] = {}
    for key, noun in NOUNS.items():
        if noun not in seen.values():
            seen.setdefault(key, noun)
    return sorted(((k, _(n)) for k, n in seen.items()), key=lambda kv: kv[1])


def _same_kinds(kind: str) -> list[str]:
    """``kind`` and every kind shown under the same name."""
    noun = NOUNS.get(kind)
    return [k for k, n in NOUNS.items() if n == noun] if noun else [kind]

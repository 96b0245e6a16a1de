"""The calendar as an ICS feed (RFC 5545) a phone can subscribe to, written with the
``icalendar`` library: one all-day event (``DTSTART;VALUE=DATE``) per day or span of play, with
the heat's or final's name, its competition, venue and a link to its page; UIDs are stable (the
heat's or competition's id and the session), so a changed date moves the event in the phone
instead of adding a second one. Applied heats are TENTATIVE, cancelled ones CANCELLED."""

from __future__ import annotations

from datetime import timedelta

from icalendar import Calendar
from icalendar import Event as IcsEvent

from clubs import clock
from portal.selectors.calendar import Event

UID_DOMAIN = "dm.upplandsbridge.se"
CONTENT_TYPE = "text/calendar; charset=utf-8"

_STATUS = {"applied": "TENTATIVE", "cancelled": "CANCELLED"}


def feed(events: list[Event], *, name: str, absolute) -> bytes:
    """The ICS text of ``events``; ``absolute(path)`` turns a page path into a full URL."""
    cal = Calendar()
    cal.add("prodid", "-//Upplands Bridgeförbund//UBF DM//SV")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", "Europe/Stockholm")
    stamp = clock.now()
    for e in events:
        many = len(e.sessions) > 1
        for n, (first, last) in enumerate(e.sessions, start=1):
            ev = IcsEvent()
            ev.add("uid", f"{e.uid}-{n}@{UID_DOMAIN}")
            ev.add("dtstamp", stamp)
            ev.add("dtstart", first)
            ev.add("dtend", last + timedelta(days=1))  # all-day: the day after, exclusive
            summary = f"{e.competition_label}: {e.title}"
            if many:
                summary += f" ({n}/{len(e.sessions)})"
            ev.add("summary", summary)
            if e.venue:
                ev.add("location", e.venue)
            url = absolute(e.path)
            ev.add("url", url)
            ev.add("description", url)
            ev.add("status", _STATUS.get(e.status, "CONFIRMED"))
            ev.add("transp", "TRANSPARENT")
            cal.add_component(ev)
    return cal.to_ical()

"""The one place that knows the season's dates: for a competition, heat, team, match or final
seat offer, which window is open on a given day (heat registration, invitation, entries,
reserves, roster changes, line-ups, dispensations, results upload, protests, final seat
answers), each with its first and last day and the clause that sets it.

The date arithmetic is ``ubf.rules.windows`` (pure); this module reads the dates from the
models (pairs and teams alike, by their field names: the core does not import the apps) and
gives the services one check, :func:`enforce`: every role but TK is refused outside the window
with the clause in the message and nothing saved; TK may act outside it with a reason, and the
service then records that decision (:meth:`Late.record`). Pages show :func:`label`
("Anmälan stänger 5 nov", "Stängt sedan 5 nov"); reminders take their dates from here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Max, Q
from django.utils.translation import gettext

from clubs import clock
from clubs.permissions import is_tk
from clubs.services.base import ServiceError, record_decision, require_open_season
from clubs.templatetags.formats_i18n import day_short
from ubf.rules import windows as w
from ubf.rules.i18n import gettext_noop
from ubf.rules.violations import Violation
from ubf.rules.windows import BEFORE, CLOSED, OPEN, Window

__all__ = [
    "BEFORE",
    "CLOSED",
    "OPEN",
    "Late",
    "Window",
    "balance_dispensation_window",
    "competition_windows",
    "direct_final_window",
    "enforce",
    "heat_windows",
    "label",
    "lineup_window",
    "match_date",
    "refusal",
    "roster_window",
    "seat_answer_window",
]


def _is_teams(obj) -> bool:
    return getattr(obj, "kind", None) == "teams" or getattr(obj, "discipline", None) == "teams"


def _season_rules(competition):
    return competition.season.rules()


# ------------------------------------------------------------------------------------------
# Which windows an object has
# ------------------------------------------------------------------------------------------


def competition_windows(competition) -> dict[str, Window]:
    """Heat registration (R-PAIR-KVAL-1 / R-TEAM-REG-1), protests (teams, R-TEAM-RES-5) and the
    answers to final seat offers (R-REPL-5)."""
    teams = _is_teams(competition)
    out = {
        w.HEAT_REGISTRATION: w.heat_registration(
            competition.heat_registration_deadline,
            clause="R-TEAM-REG-1" if teams else "R-PAIR-KVAL-1",
        ),
        w.SEAT_ANSWERS: seat_answer_window(competition),
    }
    if teams:
        out[w.PROTESTS] = w.protests("sm_semifinal", _season_rules(competition))
    return out


def protest_window(competition, concerning: str) -> Window:
    """R-TEAM-RES-5: ``"sm_semifinal"`` or ``"sm_final"``."""
    return w.protests(concerning, _season_rules(competition))


def direct_final_window(competition) -> Window:
    """R-PAIR-DF-1: entries into a direct final, up to the final's day."""
    return w.direct_final_entries(competition.final_date)


def seat_answer_window(competition) -> Window:
    first_day = competition.final_day1 if _is_teams(competition) else competition.final_date
    return w.seat_answers(first_day)


def heat_windows(heat) -> dict[str, Window]:
    """Everything dated about a qualifier heat: registration with TK, the invitation (pairs,
    R-PAIR-KVAL-3), entries (R-PAIR-KVAL-6 / R-TEAM-REG-2), reserves (pairs, R-PAIR-RES-1,
    for its first session) and the results upload (from the first day of play)."""
    competition = heat.competition
    teams = _is_teams(heat)
    out = {w.HEAT_REGISTRATION: competition_windows(competition)[w.HEAT_REGISTRATION]}
    if teams:
        out[w.ENTRIES] = w.team_entries(heat.first_date, heat.entries_close)
        out[w.RESULTS_UPLOAD] = w.results_upload(heat.first_date, clause="R-TEAM-1")
    else:
        out[w.INVITATION] = w.invitation(heat.first_date, _season_rules(competition))
        out[w.ENTRIES] = w.pair_entries(heat.first_date)
        out[w.RESERVES] = w.reserves(heat.first_date)
        out[w.RESULTS_UPLOAD] = w.results_upload(heat.first_date, clause="R-PAIR-KVAL-5")
    return out


def pair_final_upload_window(competition) -> Window:
    return w.results_upload(competition.final_date, clause="R-PAIR-MP-1")


def team_final_upload_window(competition) -> Window:
    return w.results_upload(competition.final_day1, clause="R-TEAM-FINAL-1")


def match_date(match) -> date | None:
    """The day a team match is (or was) played: its own date, else its heat's last day, else the
    final's second central day."""
    if match.played_on:
        return match.played_on
    if match.heat_id:
        return match.heat.last_date or match.heat.first_date
    return match.competition.final_day2


def reserve_window(session_date: date) -> Window:
    """R-PAIR-RES-1: a reserve for a heat session is notified by the day before it."""
    return w.reserves(session_date)


def dispensation_window(occasion_date: date) -> Window:
    return w.dispensation(occasion_date)


def balance_dispensation_window(team) -> Window:
    """R-TEAM-3: open up to the team's first match day (its earliest match, else its heat's
    first day, else the final's first central day for a team entered straight into it)."""
    matches = team.home_matches.model.objects.filter(Q(home=team) | Q(away=team)).select_related(
        "heat", "competition"
    )
    days = [d for d in (match_date(m) for m in matches) if d]
    if not days and team.heat_id:
        days = [team.heat.first_date]
    if not days:
        days = [team.competition.final_day1]
    return w.balance_dispensation(min(days))


def lineup_window(match) -> Window:
    return w.lineup(match_date(match))


def roster_window(team) -> Window:
    """R-TEAM-2: open until the team's last match day (its heat's last day, or the final's
    second day once it is in the final, when no match is scheduled yet)."""
    matches = team.home_matches.model.objects.filter(Q(home=team) | Q(away=team))
    last = matches.aggregate(last=Max("played_on"))["last"]
    candidates = [d for d in (last,) if d]
    if team.heat_id:
        candidates.append(team.heat.last_date or team.heat.first_date)
    if team.is_direct_qualifier or team.is_finalist:
        candidates.append(team.competition.final_day2)
    return w.roster(max(candidates) if candidates else None)


# ------------------------------------------------------------------------------------------
# Showing and enforcing
# ------------------------------------------------------------------------------------------


def label(window: Window, today: date | None = None) -> str:
    """ "Anmälan stänger 5 nov", "Stängt sedan 5 nov", "Öppnar 6 nov" (in the reader's
    language: "Entry closes 5 Nov" on an English page)."""
    today = today or clock.today()
    state = window.state(today)
    if state == BEFORE:
        return gettext("Öppnar %(day)s") % {"day": day_short(window.opens)}
    if state == CLOSED:
        return gettext("Stängt sedan %(day)s") % {"day": day_short(window.closes)}
    if window.closes is None:
        return gettext("Öppet")
    return gettext("%(what)s stänger %(day)s") % {
        "what": gettext(window.name_sv),
        "day": day_short(window.closes),
    }


def refusal(window: Window, today: date) -> Violation:
    """The refusal of an action outside its window, naming the window's dates and clause."""
    state = window.state(today)
    day = window.opens if state == BEFORE else window.closes
    return Violation(
        window.clause,
        _BEFORE_TEMPLATE if state == BEFORE else _CLOSED_TEMPLATE,
        data={
            "window": window.key,
            "state": state,
            "opens": window.opens,
            "closes": window.closes,
            "today": today,
        },
        params={"what": window.name_sv, "day": day.isoformat(), "today": today.isoformat()},
    )


_BEFORE_TEMPLATE = gettext_noop("%(what)s öppnar först %(day)s (i dag är det %(today)s).")
_CLOSED_TEMPLATE = gettext_noop(
    "%(what)s stängde %(day)s (i dag är det %(today)s); efter det kan bara TK göra det."
)
_TK_BEFORE_TEMPLATE = gettext_noop(
    "%(what)s öppnar först %(day)s (i dag är det %(today)s). TK kan göra det ändå, men måste "
    "ange ett skäl (det blir ett TK-beslut)."
)
_TK_CLOSED_TEMPLATE = gettext_noop(
    "%(what)s stängde %(day)s (i dag är det %(today)s). TK kan göra det ändå, men måste ange "
    "ett skäl (det blir ett TK-beslut)."
)


@dataclass(frozen=True)
class Late:
    """TK acting outside a window: recorded as a decision with its reason (R-GEN-3)."""

    window: Window
    reason: str
    today: date

    def record(self, action: str, obj, *, user, season=None):
        return record_decision(
            f"{action}.outside_window",
            obj,
            user=user,
            reason=self.reason,
            clause=self.window.clause,
            season=season,
            window=self.window.key,
            state=self.window.state(self.today),
            opens=self.window.opens,
            closes=self.window.closes,
            today=self.today,
        )


def enforce(
    window: Window, user, *, season=None, reason: str = "", today: date | None = None
) -> Late | None:
    """Check ``window`` for ``user`` today. Inside it: ``None``. Outside it: every role but TK
    is refused (:class:`ServiceError`, the clause in the message); TK needs a reason and gets a
    :class:`Late` to record once the change is saved. A window of a finished ``season`` (issue
    23: the next season was made from it) is closed to everyone, TK too, whatever the date:
    the season is read-only (``clubs.services.base.require_open_season``)."""
    require_open_season(season)
    today = today or clock.today()
    if window.is_open(today):
        return None
    if not is_tk(user):
        raise ServiceError([refusal(window, today)])
    reason = (reason or "").strip()
    if not reason:
        v = refusal(window, today)
        template = _TK_BEFORE_TEMPLATE if v.data["state"] == BEFORE else _TK_CLOSED_TEMPLATE
        raise ServiceError([Violation("R-GEN-3", template, data=v.data, params=v.params)])
    return Late(window, reason, today)


def record_late(late: Late | None, action: str, obj, *, user, season=None) -> None:
    if late is not None:
        late.record(action, obj, user=user, season=season)

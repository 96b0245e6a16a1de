"""The season's windows: on which days an action is open, derived from the season's dates and
the regulations, each with the clause that sets it. Pure date arithmetic (no Django);
``clubs.windows`` builds them from the models and the services ask it.

A window is open from ``opens`` to ``closes``, both days included; ``None`` means no limit on
that side. ``state(today)`` is ``"before"``, ``"open"`` or ``"closed"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from .i18n import gettext_noop
from .season import DEFAULT_RULES, SeasonRules

BEFORE = "before"
OPEN = "open"
CLOSED = "closed"

# The windows the system knows, with their Swedish names (shown on pages and in refusals).
HEAT_REGISTRATION = "heat_registration"
INVITATION = "invitation"
ENTRIES = "entries"
RESERVES = "reserves"
ROSTER = "roster"
LINEUP = "lineup"
DISPENSATION = "dispensation"
BALANCE_DISPENSATION = "balance_dispensation"
RESULTS_UPLOAD = "results_upload"
PROTESTS = "protests"
SEAT_ANSWERS = "seat_answers"

NAMES_SV = {
    HEAT_REGISTRATION: gettext_noop("Anmälan av kvalheat"),
    INVITATION: gettext_noop("Inbjudan till TK"),
    ENTRIES: gettext_noop("Anmälan"),
    RESERVES: gettext_noop("Anmälan av reserv"),
    ROSTER: gettext_noop("Ändring av spelartruppen"),
    LINEUP: gettext_noop("Laguppställning i matchen"),
    DISPENSATION: gettext_noop("Dispensansökan"),
    BALANCE_DISPENSATION: gettext_noop("Ansökan om dispens för distriktsbalansen"),
    RESULTS_UPLOAD: gettext_noop("Uppladdning av resultat"),
    PROTESTS: gettext_noop("Protest mot otillåten spelare"),
    SEAT_ANSWERS: gettext_noop("Svar på erbjuden finalplats"),
}


@dataclass(frozen=True)
class Window:
    key: str
    clause: str
    opens: date | None = None
    closes: date | None = None

    def state(self, today: date) -> str:
        if self.opens is not None and today < self.opens:
            return BEFORE
        if self.closes is not None and today > self.closes:
            return CLOSED
        return OPEN

    def is_open(self, today: date) -> bool:
        return self.state(today) == OPEN

    @property
    def name_sv(self) -> str:
        return NAMES_SV.get(self.key, self.key)


def heat_registration(deadline: date | None, *, clause: str) -> Window:
    """R-PAIR-KVAL-1 / R-TEAM-REG-1: a heat is registered with TK by the deadline UBF sets
    (that day included)."""
    return Window(HEAT_REGISTRATION, clause, None, deadline)


def invitation(first_date: date, rules: SeasonRules = DEFAULT_RULES) -> Window:
    """R-PAIR-KVAL-3: the invitation reaches TK's chair at least ``invitation_days_before``
    (28) days before the heat starts: 2016-11-06 → by 2016-10-09."""
    return Window(
        INVITATION, "R-PAIR-KVAL-3", None, first_date - timedelta(days=rules.invitation_days_before)
    )


def pair_entries(first_date: date) -> Window:
    """R-PAIR-KVAL-6: a pair joins a heat at the latest at its first session (on its day, at
    the venue); from the day after, the heat has started and no new pair may join, not at a
    second session either."""
    return Window(ENTRIES, "R-PAIR-KVAL-6", None, first_date)


def team_entries(first_date: date, entries_close: date | None) -> Window:
    """R-TEAM-REG-2, R-TEAM-KVAL-2: a team enters by the heat's last entry day (set in the
    invitation), and never once the heat has started (the day before its first day at the
    latest)."""
    last = first_date - timedelta(days=1)
    if entries_close is not None and entries_close < last:
        last = entries_close
    return Window(ENTRIES, "R-TEAM-REG-2", None, last)


def reserves(session_date: date) -> Window:
    """R-PAIR-RES-1: a reserve is notified in advance, i.e. by the day before the session."""
    return Window(RESERVES, "R-PAIR-RES-1", None, session_date - timedelta(days=1))


def roster(last_match_date: date | None) -> Window:
    """R-TEAM-2, R-TEAM-RES-2: the roster changes only for matches not yet played; once the
    team's last match day has passed there is nothing left to change it for."""
    return Window(ROSTER, "R-TEAM-2", None, last_match_date)


def lineup(match_date: date | None) -> Window:
    """R-TEAM-2, R-TEAM-RES-2/3: a team's line-up for a match is recorded up to the match day;
    after it, changing who played is TK's decision."""
    return Window(LINEUP, "R-TEAM-2", None, match_date)


def dispensation(occasion_date: date) -> Window:
    """R-TEAM-5: a dispensation is sought before the occasion the player plays (that day at the
    latest)."""
    return Window(DISPENSATION, "R-TEAM-5", None, occasion_date)


def balance_dispensation(first_match_date: date | None) -> Window:
    """R-TEAM-3: a team without a UBF majority needs TK's dispensation "before it starts": the
    captain asks up to the day of the team's first match (that day included, before play);
    once a match of the team has been played the service refuses as well."""
    return Window(BALANCE_DISPENSATION, "R-TEAM-3", None, first_match_date)


def results_upload(first_date: date, *, clause: str) -> Window:
    """Results exist once play has begun: an upload opens on the first day of play."""
    return Window(RESULTS_UPLOAD, clause, first_date, None)


def protests(concerning: str, rules: SeasonRules = DEFAULT_RULES) -> Window:
    """R-TEAM-RES-5: 31 March 2017 for SM semifinal places, 30 April 2017 for SM final places."""
    closes = (
        rules.protest_deadline_sm_final
        if concerning == "sm_final"
        else rules.protest_deadline_sm_semifinal
    )
    return Window(PROTESTS, "R-TEAM-RES-5", None, closes)


def direct_final_entries(final_day: date) -> Window:
    """R-PAIR-DF-1: pairs enter a direct final (a discipline without heats) up to and
    including the final's day."""
    return Window(ENTRIES, "R-PAIR-DF-1", None, final_day)


def seat_answers(final_first_day: date) -> Window:
    """R-REPL-5: a seat given up is offered along the chain "as far as time allows"; an answer
    counts up to the final's (first) day."""
    return Window(SEAT_ANSWERS, "R-REPL-5", None, final_first_day)

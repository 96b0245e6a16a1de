""" "Vad behöver laget?": before each of the last two rounds of the DM Lag final, for every
team, whether the title, a medal and an SM semifinal place are certain, possible or out of
reach, and the VP it needs from its remaining match(es) (issue 21).

The figures are :func:`ubf.rules.outlook.final_outlook`'s (exact on the WBF scale, R-VP-1,
R-VP-2, and the tie-break chain of R-TEAM-TIE-1, R-TEAM-FINAL-2). This module only feeds it
what the final's standings already hold and words the answers:

* the teams and their totals are the final's standing snapshot rows (the teams the final's
  standings rank: results.services.recompute.teams, after W.O.s, struck results and
  penalties), so the outlook never disagrees with the table beside it;
* the remaining matches are the final's matches not yet played or W.O.;
* the title (place 1) and a medal (top 3) are questions of the DM order, which ranks only the
  teams still competing for DM (R-TEAM-4: ``dm_eligible``, not excluded or disqualified); an
  SM semifinal place is a question of the full order (R-TEAM-SEMI-1: SBF's number of places,
  ``TeamCompetition.sm_semifinal_places``; an excluded or disqualified team does not count,
  R-TEAM-RES-2).

It runs no query: the pages and the API pass in the snapshot and the matches they have read
anyway. The computation (a quarter to half a second before the last two rounds of a 10-team
final, benchmarks/outlook.py) is kept in the cache under a key made of its inputs, so a page
that is rendered again with the same standings does not compute it again.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import suppress
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.cache import cache

from results.models import StandingSnapshot
from teams.models import Match
from ubf.rules.i18n import Message, Number, gettext_noop
from ubf.rules.outlook import final_outlook

#: The final's matches still to be played (a W.O. is decided, R-TEAM-WO-2).
OPEN = (Match.Status.SCHEDULED,)
MEDAL = 3
_CACHE_SECONDS = 24 * 3600

TITLE = gettext_noop("DM-titeln")
MEDALS = gettext_noop("DM-medalj (topp 3)")
SEMIFINAL = gettext_noop("SM-semifinalplats (topp %(n)s)")
LAST_MATCH = gettext_noop("sista matchen")
LAST_TWO = gettext_noop("de två sista matcherna")


@dataclass(frozen=True)
class Chance:
    """One goal of one team: ``key`` is ``title``, ``medal`` or ``semifinal``; ``state`` is
    ``certain``, ``possible`` or ``out``; ``needs`` / ``secures`` are the VP from its
    remaining match(es) that make the goal possible / certain (None: no result is enough)."""

    key: str
    place: int
    order: str  # "dm" or "full"
    state: str
    needs: Decimal | None
    secures: Decimal | None
    message: Message


@dataclass(frozen=True)
class TeamNeeds:
    team_id: int
    name: str
    remaining: int
    chances: tuple[Chance, ...]
    #: R-TEAM-4: the team plays only for SM semifinal places (no title, no medal).
    sm_only: bool = False

    def as_dict(self, render) -> dict:
        """The API's form: figures as strings with two decimals, the sentences rendered."""
        return {
            "team": self.team_id,
            "name": self.name,
            "remaining_matches": self.remaining,
            "sm_only": self.sm_only,
            "chances": [
                {
                    "goal": c.key,
                    "place": c.place,
                    "order": c.order,
                    "state": c.state,
                    "needs_vp": None if c.needs is None else f"{c.needs:.2f}",
                    "secures_vp": None if c.secures is None else f"{c.secures:.2f}",
                    "text": render(c.message),
                }
                for c in self.chances
            ],
        }


@dataclass
class FinalNeeds:
    """Before round ``before_round`` (``rounds_left`` rounds to go, 1 or 2): one
    :class:`TeamNeeds` per team, in the order of the standings."""

    before_round: int
    rounds_left: int
    teams: list[TeamNeeds] = field(default_factory=list)

    @property
    def by_team(self) -> dict[int, TeamNeeds]:
        return {t.team_id: t for t in self.teams}


def final_needs(competition, snapshot, final_matches) -> FinalNeeds | None:
    """What each team needs, or None when it is not the time: the final has not started, is
    over, or has more than two matches left for some team (the last two rounds only)."""
    rows = list(snapshot.data) if snapshot and snapshot.data else []
    if not rows or not all(r.get("team_id") and "results" in r for r in rows):
        return None  # no standings yet, or a snapshot from before the rows kept their results
    open_matches = [m for m in final_matches if m.status in OPEN]
    if not open_matches or len(open_matches) == len(final_matches):
        return None
    ids = {r["team_id"] for r in rows}
    left: dict[int, int] = dict.fromkeys(ids, 0)
    for m in open_matches:
        if m.home_id not in ids or m.away_id not in ids:
            return None  # a match with a team the standings do not rank: nothing to say
        left[m.home_id] += 1
        left[m.away_id] += 1
    if max(left.values()) > 2:
        return None
    rounds = sorted({m.round for m in open_matches})
    quota = competition.sm_semifinal_places or 0
    remaining = sorted((m.home_id, m.away_id, m.boards) for m in open_matches)
    dm = [r["team_id"] for r in rows if r.get("dm_eligible", True) and not r.get("status_label")]
    full = [r["team_id"] for r in rows if not r.get("status_label")]
    dm_outlook, full_outlook = _outlooks(rows, remaining, dm, full, quota)
    totals = {r["team_id"]: Decimal(r["vp"]) for r in rows}
    for outlook in (dm_outlook, full_outlook):
        if any(o.vp != totals[t] for t, o in outlook.items()):
            return None  # the totals must be the table's, or the page would contradict itself
    several = max(left.values()) == 2
    out = FinalNeeds(before_round=rounds[0], rounds_left=len(rounds))
    for row in rows:
        team = row["team_id"]
        chances = []
        if team in dm_outlook:
            o = dm_outlook[team]
            chances += [
                _chance("title", 1, "dm", o, TITLE, several),
                _chance("medal", MEDAL, "dm", o, MEDALS, several),
            ]
        if quota and team in full_outlook:
            goal = Message(SEMIFINAL, {"n": quota})
            chances.append(_chance("semifinal", quota, "full", full_outlook[team], goal, several))
        if not chances:
            continue  # excluded or disqualified: it competes for nothing (R-TEAM-RES-4)
        out.teams.append(
            TeamNeeds(
                team_id=team,
                name=row.get("name", ""),
                remaining=left[team],
                chances=tuple(chances),
                sm_only=team in full_outlook and team not in dm_outlook,
            )
        )
    return out


def _outlooks(rows, remaining, dm, full, quota):
    """The two orders' outlooks, from the cache when the same inputs were computed before."""
    teams = [r["team_id"] for r in rows]
    played, seen = [], set()
    penalties = {}
    for r in rows:
        if Decimal(r.get("penalty") or "0"):
            penalties[r["team_id"]] = Decimal(r["penalty"])
        for x in r.get("results") or ():
            if x["match_id"] in seen:
                continue
            seen.add(x["match_id"])
            played.append(
                {
                    "home": r["team_id"],
                    "away": x["opponent_id"],
                    "imps_home": x.get("imps_for") or 0,
                    "imps_away": x.get("imps_against") or 0,
                    "vp_home": x["vp_for"],
                    "vp_away": x["vp_against"],
                }
            )
    key_data = json.dumps(
        [
            teams,
            sorted((m["home"], m["away"], m["vp_home"], m["vp_away"]) for m in played),
            sorted((str(k), str(v)) for k, v in penalties.items()),
            remaining,
            dm,
            full,
            quota,
        ],
        default=str,
    )
    key = "final-outlook:" + hashlib.sha256(key_data.encode()).hexdigest()
    try:
        cached = cache.get(key)
    except Exception:  # the cache server is down: compute it, as the pages render uncached
        cached = None
    if cached is not None:
        return cached
    dm_outlook = (
        final_outlook(teams, played, remaining, places=(1, MEDAL), ranked=dm, penalties=penalties)
        if dm
        else {}
    )
    full_outlook = (
        final_outlook(teams, played, remaining, places=(quota,), ranked=full, penalties=penalties)
        if quota and full
        else {}
    )
    with suppress(Exception):  # not kept: the next page computes it again
        cache.set(key, (dm_outlook, full_outlook), _CACHE_SECONDS)
    return dm_outlook, full_outlook


def _vp(value: Decimal) -> Number:
    return Number(f"{value:.2f}".replace(".", ","))


def _chance(key, place, order, outlook, goal, several) -> Chance:
    matches = LAST_TWO if several and outlook.remaining == 2 else LAST_MATCH
    needs, secures = outlook.needs[place], outlook.secures[place]
    if outlook.certain[place]:
        state = "certain"
        message = Message(gettext_noop("%(goal)s: klart, vad som än händer."), {"goal": goal})
    elif not outlook.possible[place]:
        state = "out"
        message = Message(gettext_noop("%(goal)s: utom räckhåll."), {"goal": goal})
    elif outlook.remaining == 0:
        state = "possible"
        message = Message(
            gettext_noop("%(goal)s: möjligt, men det avgörs av de andra lagens resultat."),
            {"goal": goal},
        )
    elif secures is None:
        state = "possible"
        message = Message(
            gettext_noop(
                "%(goal)s: möjligt. Laget behöver minst %(needs)s VP av %(most)s från "
                "%(matches)s och dessutom hjälp av andra resultat; det kan inte säkras på "
                "egen hand."
            ),
            {"goal": goal, "needs": _vp(needs), "most": _vp(outlook.most), "matches": matches},
        )
    elif needs == 0:
        state = "possible"
        message = Message(
            gettext_noop(
                "%(goal)s: möjligt även utan en enda VP från %(matches)s om andra resultat "
                "går lagets väg; säkert med %(secures)s VP."
            ),
            {"goal": goal, "secures": _vp(secures), "matches": matches},
        )
    else:
        state = "possible"
        message = Message(
            gettext_noop(
                "%(goal)s: möjligt. Laget behöver minst %(needs)s VP från %(matches)s om "
                "andra resultat går dess väg, och är säkert med %(secures)s VP."
            ),
            {"goal": goal, "needs": _vp(needs), "secures": _vp(secures), "matches": matches},
        )
    return Chance(
        key=key,
        place=place,
        order=order,
        state=state,
        needs=needs,
        secures=secures,
        message=message,
    )


def competition_needs(competition) -> FinalNeeds | None:
    """:func:`final_needs` for a DM Lag competition read here (the API's read): its final's
    snapshot and matches, two queries."""
    snapshot = StandingSnapshot.objects.filter(
        competition=competition, scope=StandingSnapshot.Scope.TEAM_FINAL, heat__isnull=True
    ).first()
    matches = list(
        Match.objects.filter(competition=competition, stage=Match.Stage.FINAL).only(
            "id", "home_id", "away_id", "boards", "status", "round"
        )
    )
    return final_needs(competition, snapshot, matches)

"""The next season made from this one (issue 23; CONTRACT.md ``manage.py next_season``).

:func:`plan_next_season` shows, without saving, every value the new season would get: the
season's numbers and tables copied (the veteran age limit moved on a year, R-PAIR-3; dates
moved to the same weekday of the next year, ``ubf.rules.dates``), with the reason TK gave for
each number it changed last season (R-GEN-3); each competition with its dates moved the same
way and its other settings copied; and last season's champions (DM gold in Par Mixed, Par
Veteran and Par Open, R-DIRECT-1, and in DM Lag, R-TEAM-DIRECT-1), listed as the new season's
direct qualifiers awaiting registration. :func:`create_next_season` saves that plan in one
transaction: the new season becomes the current one, every player in the register keeps his or
her representation club with an unpaid membership (R-GEN-2: paid per season), and the finished
season becomes read-only (``clubs.services.register.require_open_season``) and stays on the
public archive (``?season=``). A venue's lot precedence needs nothing copied: it is read from
the lots of the seasons before (``results.services.lots.lot_precedence``, R-ALLOC-5) for as many
seasons as the new season's ``lot_precedence_seasons`` says (copied: five).

The champions are kept as ``clubs.ReigningChampion`` rows (the pair's MIDs, the team's roster
MIDs); the registration is made with the existing services, which check the conditions when
the champions register (an intact pair, ``pairs.services.entries.register_direct_qualifier``
with ``champion_mids``; two thirds of the team, ``teams.services.entries.register_direct_team``
with ``last_season_roster_mids``). Every value is editable after: the season's numbers and the
competitions' dates on /tk/sasong/, the rest in the admin."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import transaction
from django.utils.translation import gettext, gettext_lazy
from simple_history.utils import bulk_create_with_history

from clubs.locks import lock_own_row
from clubs.models import (
    Competition,
    Decision,
    Membership,
    Player,
    ReigningChampion,
    Representation,
    Season,
)
from clubs.permissions import is_tk
from clubs.services.base import (
    raise_on_errors,
    reason_required,
    record_decision,
    refuse,
    require,
    require_open_season,
)
from clubs.services.season import CLAUSES
from pairs.models import PairCompetition, PairEntry
from results.models import StandingSnapshot
from teams.models import RosterEntry, Team, TeamCompetition
from ubf.rules.dates import next_season_name, same_weekday_next_year
from ubf.rules.i18n import gettext_noop

#: Disciplines whose champions are directly qualified next season (R-DIRECT-1: not Dam).
DIRECT_DISCIPLINES = ("mixed", "veteran", "open")

PAIR_DATES = ("qualifying_start", "qualifying_end", "heat_registration_deadline", "final_date")
PAIR_COPIED = (
    "final_venue",
    "final_min_boards",
    "final_max_boards",
    "is_direct_final",
    "sm_places",
)
TEAM_DATES = (
    "qualifying_start",
    "qualifying_end",
    "heat_registration_deadline",
    "final_day1",
    "final_day2",
)
TEAM_COPIED = ("final_venue", "is_direct_final", "sm_semifinal_places")

#: Season numbers that are a year (an age limit as a birth year): moved on by one.
YEAR_FIELDS = ("veteran_born_on_or_before",)


def _moved(value: Any) -> Any:
    if isinstance(value, date):
        return same_weekday_next_year(value)
    return value


@dataclass
class Value:
    """One value of the new season: the old one, the new one, its clause and, for a number TK
    changed last season, the reason given then."""

    key: str
    label: str
    old: Any
    new: Any
    clause: str = ""
    reason: str = ""

    @property
    def moved(self) -> bool:
        return self.old != self.new

    @property
    def old_text(self) -> str:
        return _shown(self.old)

    @property
    def new_text(self) -> str:
        return _shown(self.new)


def _shown(value: Any) -> str:
    """A value as the review page shows it, in the reader's language."""
    if value is True or value is False:
        return gettext("ja") if value else gettext("nej")
    if value is None or value == "":
        return "—"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "; ".join(
            _shown(v) if not isinstance(v, list) else "=".join(map(str, v)) for v in value
        )
    return str(value)


#: The tables' names on the review page (msgids).
TABLE_LABELS = {
    "pair_final_sizes": gettext_lazy("Parfinal: storlek efter antal kvalande"),
    "team_final_sizes": gettext_lazy("Lagfinal: storlek efter antal kvalande lag"),
    "lot_precedence_seasons": gettext_lazy("Lottning: företräde i antal säsonger"),
    "team_bonus": gettext_lazy("Lagfinal: bonus per spelare, plats 1, 2, 3"),
}


@dataclass
class CompetitionPlan:
    source: Competition
    values: list[Value]

    @property
    def label(self) -> str:
        return str(self.source)


@dataclass
class ChampionPlan:
    discipline: str
    won_in: Competition
    name: str
    mids: list[str]


@dataclass
class NextSeasonPlan:
    source: Season
    name: str
    start_year: int
    season_values: list[Value] = field(default_factory=list)
    tables: dict = field(default_factory=dict)
    competitions: list[CompetitionPlan] = field(default_factory=list)
    champions: list[ChampionPlan] = field(default_factory=list)
    members: int = 0

    def summary(self) -> str:
        """The command's last line (CONTRACT.md)."""
        return (
            f"next season {self.name}: {len(self.competitions)} competitions, "
            f"{len(self.champions)} direct qualifiers"
        )


def _label(model, key: str) -> str:
    return str(model._meta.get_field(key).verbose_name)


def _last_reasons(season: Season) -> dict[str, str]:
    """For each season number TK changed during ``season``: the reason of the latest change."""
    reasons: dict[str, str] = {}
    for d in Decision.objects.filter(action="clubs.season.configured", season=season).order_by(
        "decided_at", "id"
    ):
        for key in (d.data or {}).get("changes", {}):
            reasons[key] = d.reason
    return reasons


def _champions(season: Season) -> list[ChampionPlan]:
    """R-DIRECT-1, R-TEAM-DIRECT-1: last season's DM gold, from the finals' final standings
    (a final still in progress has no champion yet)."""
    out: list[ChampionPlan] = []
    snapshots = StandingSnapshot.objects.filter(
        competition__season=season,
        heat__isnull=True,
        provisional=False,
        scope__in=[StandingSnapshot.Scope.PAIR_FINAL, StandingSnapshot.Scope.TEAM_FINAL],
    ).select_related("competition")
    by_competition = {s.competition_id: s for s in snapshots}
    player_ids: set[int] = set()
    pair_rows = {}
    team_ids = {}
    for comp_id, snap in by_competition.items():
        comp = snap.competition
        if (
            snap.scope == StandingSnapshot.Scope.PAIR_FINAL
            and comp.discipline in DIRECT_DISCIPLINES
        ):
            rows = (snap.data or {}).get("rows", []) if isinstance(snap.data, dict) else []
            gold = next((r for r in rows if r.get("title")), None)
            if gold and len(gold.get("player_ids") or []) == 2:
                pair_rows[comp_id] = gold
                player_ids.update(gold["player_ids"])
        elif snap.scope == StandingSnapshot.Scope.TEAM_FINAL:
            rows = snap.data if isinstance(snap.data, list) else []
            gold = next((r for r in rows if r.get("dm_rank") == 1), None)
            if gold:
                team_ids[comp_id] = gold["team_id"]
    mids = dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "mid"))
    rosters: dict[int, list[str]] = {}
    for team_id, mid in RosterEntry.objects.filter(team_id__in=list(team_ids.values())).values_list(
        "team_id", "player__mid"
    ):
        rosters.setdefault(team_id, []).append(mid)
    names = dict(Team.objects.filter(pk__in=list(team_ids.values())).values_list("pk", "name"))
    for comp_id, row in pair_rows.items():
        comp = by_competition[comp_id].competition
        out.append(
            ChampionPlan(
                comp.discipline, comp, row.get("name", ""), [mids[p] for p in row["player_ids"]]
            )
        )
    for comp_id, team_id in team_ids.items():
        comp = by_competition[comp_id].competition
        out.append(
            ChampionPlan(
                comp.discipline, comp, names.get(team_id, ""), sorted(rosters.get(team_id, []))
            )
        )
    order = {d: i for i, d in enumerate((*DIRECT_DISCIPLINES, "teams"))}
    out.sort(key=lambda c: order.get(c.discipline, 9))
    return out


def plan_next_season(season: Season) -> NextSeasonPlan:
    """Every value the season after ``season`` would get; nothing is saved."""
    name, start_year = next_season_name(season.name)
    plan = NextSeasonPlan(source=season, name=name, start_year=start_year)
    reasons = _last_reasons(season)
    for key in Season.SCALAR_FIELDS:
        old = getattr(season, key)
        new = old + 1 if key in YEAR_FIELDS else _moved(old)
        plan.season_values.append(
            Value(key, _label(Season, key), old, new, CLAUSES.get(key, ""), reasons.get(key, ""))
        )
    plan.tables = dict(season.tables or {})
    for key in ("pair_final_sizes", "team_final_sizes", "lot_precedence_seasons", "team_bonus"):
        if key in plan.tables or key in reasons:
            plan.season_values.append(
                Value(
                    key,
                    TABLE_LABELS[key],
                    plan.tables.get(key, "—"),
                    plan.tables.get(key, "—"),
                    CLAUSES[key],
                    reasons.get(key, ""),
                )
            )
    for comp in PairCompetition.objects.filter(season=season).order_by("final_date"):
        values = [
            Value(k, _label(PairCompetition, k), getattr(comp, k), _moved(getattr(comp, k)))
            for k in PAIR_DATES
        ]
        values += [
            Value(k, _label(PairCompetition, k), getattr(comp, k), getattr(comp, k))
            for k in PAIR_COPIED
        ]
        plan.competitions.append(CompetitionPlan(comp, values))
    for comp in TeamCompetition.objects.filter(season=season):
        values = [
            Value(k, _label(TeamCompetition, k), getattr(comp, k), _moved(getattr(comp, k)))
            for k in TEAM_DATES
        ]
        values += [
            Value(k, _label(TeamCompetition, k), getattr(comp, k), getattr(comp, k))
            for k in TEAM_COPIED
        ]
        plan.competitions.append(CompetitionPlan(comp, values))
    plan.champions = _champions(season)
    plan.members = Player.objects.filter(in_register=True).count()
    return plan


@transaction.atomic
def create_next_season(user, season: Season, *, reason: str = "") -> tuple[Season, NextSeasonPlan]:
    """Make the season after ``season`` from it (TK; ``user`` None is the operator at the
    command line, ``manage.py next_season --apply``). Refused when it exists already or
    ``season`` is finished."""
    if user is not None:
        require(is_tk(user), gettext_noop("Endast UBF TK kan skapa nästa säsong."))
        raise_on_errors(reason_required(reason))
    season = lock_own_row(Season.objects.all(), season.pk)
    require_open_season(season)
    plan = plan_next_season(season)
    if Season.objects.filter(name=plan.name).exists():
        raise refuse(
            "R-GEN-3",
            gettext_noop("Säsongen %(season)s finns redan."),
            params={"season": plan.name},
        )
    new = Season(name=plan.name, start_year=plan.start_year, tables=plan.tables)
    for value in plan.season_values:
        if value.key in Season.SCALAR_FIELDS:
            setattr(new, value.key, value.new)
    make_current = season.is_current or not Season.objects.filter(is_current=True).exists()
    if make_current:
        Season.objects.filter(is_current=True).update(is_current=False)
    new.is_current = make_current
    new.save()
    season.is_finished = True
    season.is_current = False
    season.save(update_fields=["is_finished", "is_current"])

    competitions: dict[str, Competition] = {}
    for cp in plan.competitions:
        values = {v.key: v.new for v in cp.values}
        if cp.source.kind == Competition.Kind.TEAMS:
            comp = TeamCompetition.objects.create(season=new, **values)
        else:
            comp = PairCompetition.objects.create(
                season=new, discipline=cp.source.discipline, **values
            )
        competitions[cp.source.discipline] = comp
    ReigningChampion.objects.bulk_create(
        [
            ReigningChampion(
                competition=competitions[c.discipline],
                won_in=c.won_in,
                name=c.name[:200],
                mids=c.mids,
            )
            for c in plan.champions
            if c.discipline in competitions
        ]
    )
    # R-GEN-2: the membership fee is paid per season: every member starts unpaid, in the club
    # he or she represented (the next register upload changes what it says).
    history = {"default_change_reason": "next_season"}
    members = list(Player.objects.filter(in_register=True).values_list("pk", flat=True))
    bulk_create_with_history(
        [Membership(player_id=p, season=new, paid_on=None) for p in members], Membership, **history
    )
    bulk_create_with_history(
        [
            Representation(player_id=p, season=new, club_id=c)
            for p, c in Representation.objects.filter(
                season=season, player__in_register=True
            ).values_list("player_id", "club_id")
        ],
        Representation,
        **history,
    )
    record_decision(
        "clubs.season.created",
        new,
        user=user,
        reason=(reason or "").strip() or plan.summary(),
        clause="R-GEN-3",
        season=new,
        source=season.name,
        values={v.key: [str(v.old), str(v.new)] for v in plan.season_values},
        reasons={v.key: v.reason for v in plan.season_values if v.reason},
        competitions={
            cp.source.discipline: {v.key: [str(v.old), str(v.new)] for v in cp.values}
            for cp in plan.competitions
        },
        champions={c.discipline: c.mids for c in plan.champions},
    )
    return new, plan


@dataclass
class AwaitingChampion:
    champion: ReigningChampion
    registered: bool


def awaiting_champions(season: Season) -> list[AwaitingChampion]:
    """The season's reigning champions and whether TK has registered them yet (R-DIRECT-1,
    R-TEAM-DIRECT-1: before the qualifying period ends)."""
    champions = list(
        ReigningChampion.objects.filter(competition__season=season).select_related(
            "competition", "won_in"
        )
    )
    pair_done = set(
        PairEntry.objects.filter(
            competition__season=season, entered_as=PairEntry.EnteredAs.DIRECT
        ).values_list("competition_id", flat=True)
    )
    team_done = set(
        Team.objects.filter(competition__season=season, is_direct_qualifier=True)
        .exclude(status=Team.Status.WITHDRAWN)
        .values_list("competition_id", flat=True)
    )
    return [AwaitingChampion(c, c.competition_id in (pair_done | team_done)) for c in champions]


__all__ = [
    "NextSeasonPlan",
    "awaiting_champions",
    "create_next_season",
    "plan_next_season",
]

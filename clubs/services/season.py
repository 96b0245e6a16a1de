"""TK edits the season's configuration (docs/rulebook.md: "season configuration, editable by
the TK without code changes"): the scalar fields of :class:`clubs.models.Season` and the
tables kept in ``Season.tables`` (final sizes, the team bonus, precedence and W.O. limits), and
SBF's masterpoint table for the pairs finals (:func:`load_mp_table`, R-PAIR-MP-1).

One function, one transaction: TK only, a reason (R-GEN-3), every value checked against the
clause it serves, then saved, logged as ``clubs.season.configured`` with each change (old →
new), and the competitions whose standings depend on a changed number recomputed."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from clubs.locks import lock_own_row
from clubs.models import Season
from clubs.permissions import is_tk
from clubs.recompute import request_recompute
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
    require_open_season,
)
from ubf.rules.i18n import gettext_noop
from ubf.rules.mp_table import from_stored, to_stored
from ubf.rules.violations import Violation

#: Every number TK edits on /tk/sasong/, with the clause it serves (docs/rulebook.md, SPEC).
CLAUSES: dict[str, str] = {
    "veteran_born_on_or_before": "R-PAIR-3",
    "junior_max_age": "R-TEAM-FEE-3",
    "pair_kval_fee_per_player": "R-PAIR-FEE-1",
    "pair_final_fee_per_player": "R-PAIR-FEE-1",
    "team_start_fee": "R-TEAM-FEE-1",
    "team_final_table_fee_per_round": "R-TEAM-FEE-2",
    "team_junior_kval_discount": "R-TEAM-FEE-3",
    "team_final_junior_reduction_per_round": "R-TEAM-FEE-3",
    "invitation_days_before": "R-PAIR-KVAL-3",
    "wo_winner_vp": "R-TEAM-WO-2",
    "wo_loser_vp": "R-TEAM-WO-2",
    "wo_winner_average_if_higher": "R-TEAM-WO-2",
    "wo_max_per_stage": "R-TEAM-WO-3",
    "unpaid_player_penalty_vp": "R-TEAM-RES-1",
    "unpaid_fee_grace_days": "R-TEAM-RES-1",
    "protest_deadline_sm_semifinal": "R-TEAM-RES-5",
    "protest_deadline_sm_final": "R-TEAM-RES-5",
    "pair_final_sizes": "R-ALLOC-1",
    "team_final_sizes": "R-TEAM-ADV-1",
    "lot_precedence_seasons": "R-ALLOC-5",
    "team_bonus": "R-TEAM-MP-3",
}

#: The entries of ``Season.tables`` that TK edits here (keys as in ``SeasonRules``).
TABLE_KEYS = (
    "pair_final_sizes",
    "team_final_sizes",
    "lot_precedence_seasons",
    "team_bonus",
    "wo_max_per_stage",
)

#: Numbers the stored standings and allocations are computed from: a change recomputes the
#: season's competitions (fees, deadlines and ages are read when they are used).
#: Sent by :func:`configure_season` inside its transaction, after the season is saved and
#: before the recomputes are asked for, with ``season`` and ``changes`` (``{key: [old, new]}``):
#: a higher layer whose stored figures follow the configuration updates them here (the DM Lag
#: W.O. scores, ``teams.services.decisions.walkovers.rescore_walkovers``).
season_configured = Signal()

RECOMPUTE_KEYS = frozenset(
    {
        "wo_winner_vp",
        "wo_loser_vp",
        "wo_winner_average_if_higher",
        "wo_max_per_stage",
        "pair_final_sizes",
        "team_final_sizes",
        "lot_precedence_seasons",
        "team_bonus",
    }
)


def current_values(season: Season) -> dict[str, Any]:
    """The season's value of every number in :data:`CLAUSES` (a table entry not stored yet
    is the 2016-2017 default)."""
    rules = season.rules()
    out: dict[str, Any] = {}
    for key in CLAUSES:
        value = getattr(rules, key)
        if key in ("pair_final_sizes", "team_final_sizes"):
            value = [[int(a), int(b)] for a, b in value]
        elif key == "team_bonus":
            value = [int(v) for v in value]
        out[key] = value
    return out


def _v(key: str, template: str, **params) -> Violation:
    return error(CLAUSES[key], template, params=params, field=key)


def configuration_problems(values: dict[str, Any]) -> list[Violation]:
    """What is wrong with a configuration, each with the clause of the number it names."""
    problems = []
    for key in (
        "pair_kval_fee_per_player",
        "pair_final_fee_per_player",
        "team_start_fee",
        "team_final_table_fee_per_round",
        "team_junior_kval_discount",
        "team_final_junior_reduction_per_round",
    ):
        if Decimal(values[key]) < 0:
            problems.append(_v(key, gettext_noop("En avgift kan inte vara negativ.")))
    for key in ("wo_winner_vp", "wo_loser_vp"):
        if not Decimal(0) <= Decimal(values[key]) <= Decimal(20):
            problems.append(
                _v(key, gettext_noop("VP vid W.O. ligger mellan 0 och 20 (skalan 20–0)."))
            )
    if Decimal(values["wo_loser_vp"]) > Decimal(values["wo_winner_vp"]):
        problems.append(
            _v(
                "wo_loser_vp",
                gettext_noop("Laget som lämnade W.O. kan inte få fler VP än motståndaren."),
            )
        )
    if Decimal(values["unpaid_player_penalty_vp"]) <= 0:
        problems.append(
            _v("unpaid_player_penalty_vp", gettext_noop("Avdraget måste vara större än 0 VP."))
        )
    semifinal, final = values["protest_deadline_sm_semifinal"], values["protest_deadline_sm_final"]
    if isinstance(semifinal, date) and isinstance(final, date) and semifinal > final:
        problems.append(
            _v(
                "protest_deadline_sm_semifinal",
                gettext_noop(
                    "Protesttiden inför SM-semifinal kan inte sluta efter protesttiden inför "
                    "SM-final."
                ),
            )
        )
    for key in ("pair_final_sizes", "team_final_sizes"):
        rows = values[key]
        thresholds = [a for a, _b in rows]
        sizes = [b for _a, b in rows]
        if (
            not rows
            or thresholds[0] != 0
            or thresholds != sorted(set(thresholds))
            or sizes != sorted(set(sizes))
            or sizes[0] < 2
        ):
            problems.append(
                _v(
                    key,
                    gettext_noop(
                        "Finalstorlekarna börjar vid 0 deltagare, och både gränserna och "
                        "storlekarna ska öka (t.ex. 0=28; 61=32; 81=36)."
                    ),
                )
            )
    if values["lot_precedence_seasons"] < 1:
        problems.append(
            _v("lot_precedence_seasons", gettext_noop("Företrädet gäller minst en säsong."))
        )
    bonus = values["team_bonus"]
    if len(bonus) != 3 or any(b < 0 for b in bonus) or list(bonus) != sorted(bonus, reverse=True):
        problems.append(
            _v(
                "team_bonus",
                gettext_noop(
                    "Bonus för plats 1, 2 och 3: tre tal, inte ökande (t.ex. 42, 30, 21)."
                ),
            )
        )
    return problems


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@transaction.atomic
def configure_season(user, season: Season, values: dict[str, Any], *, reason: str):
    """TK sets the season's configuration to ``values`` (every key of :data:`CLAUSES`; what
    equals the stored value is no change). Returns the changes ``{key: [old, new]}`` (empty:
    nothing was saved or logged). Refused, with every problem, before anything is written."""
    require(
        is_tk(user),
        gettext_noop("Endast UBF TK kan ändra säsongens inställningar (R-GEN-3)."),
    )
    season = lock_own_row(Season.objects.all(), season.pk)
    require_open_season(season)
    old = current_values(season)
    new = {key: values.get(key, old[key]) for key in CLAUSES}
    changes = {
        key: [_plain(old[key]), _plain(new[key])]
        for key in CLAUSES
        if _plain(old[key]) != _plain(new[key])
    }
    if not changes:
        return {}
    raise_on_errors(reason_required(reason) + configuration_problems(new))
    tables = dict(season.tables or {})
    for key in CLAUSES:
        if key in TABLE_KEYS:
            if key in changes or key in tables:
                tables[key] = _plain(new[key])
        else:
            setattr(season, key, new[key])
    season.tables = tables
    season.save()
    record_decision(
        "clubs.season.configured",
        season,
        user=user,
        reason=reason.strip(),
        clause="R-GEN-3",
        season=season,
        changes=changes,
        clauses={key: CLAUSES[key] for key in changes},
    )
    season_configured.send(sender=None, season=season, changes=changes)
    if RECOMPUTE_KEYS & set(changes):
        for competition_id in season.competitions.values_list("pk", flat=True):
            request_recompute(competition_id)
    return changes


# ---------------------------------------------------------------------------------------------
# SBF's masterpoint table for the pairs finals (R-PAIR-MP-1, R-GEN-1)
# ---------------------------------------------------------------------------------------------

#: Where the season keeps SBF's table: ``Season.tables[MP_TABLE_KEY]``, "pairs:place" → points
#: (``ubf.rules.mp_table.to_stored``); the pairs final's recompute applies it.
MP_TABLE_KEY = "pair_final_mp_table"


def mp_table(season: Season) -> dict[tuple[int, int], Decimal]:
    """The season's masterpoint table, (number of pairs, place) → points; empty when TK has
    not loaded one."""
    return from_stored((season.tables or {}).get(MP_TABLE_KEY))


@transaction.atomic
def load_mp_table(
    user, season: Season, points: dict[tuple[int, int], Decimal], *, reason: str, source=""
) -> dict[str, list]:
    """R-PAIR-MP-1, R-GEN-1, R-GEN-3: TK replaces the season's masterpoint table for the pairs
    finals with ``points`` (read and checked row by row by ``ubf.rules.mp_table``), with a
    reason; ``source`` names the file (or "inklistrad"). Returns the changes ("pairs:place" →
    [old, new], None where a table has no entry): empty when the table is the same, and then
    nothing is saved or logged. Logged as ``clubs.mp_table.loaded`` with the whole old and new
    table, and the season's pairs competitions recomputed (their finals' masterpoints)."""
    require(is_tk(user), gettext_noop("Endast UBF TK kan lägga in mästarpoängtabellen (R-GEN-3)."))
    season = lock_own_row(Season.objects.all(), season.pk)
    require_open_season(season)
    if not points:
        raise_on_errors(
            [error("R-PAIR-MP-1", gettext_noop("Tabellen har inga poäng."), field="table")]
        )
    old, new = to_stored(mp_table(season)), to_stored(points)
    changes = {
        key: [old.get(key), new.get(key)]
        for key in sorted(set(old) | set(new), key=lambda k: tuple(map(int, k.split(":"))))
        if old.get(key) != new.get(key)
    }
    if not changes:
        return {}
    raise_on_errors(reason_required(reason))
    tables = dict(season.tables or {})
    tables[MP_TABLE_KEY] = new
    season.tables = tables
    season.save(update_fields=["tables"])
    record_decision(
        "clubs.mp_table.loaded",
        season,
        user=user,
        reason=reason.strip(),
        clause="R-PAIR-MP-1",
        season=season,
        source=str(source)[:100],
        changed=len(changes),
        old=old,
        new=new,
    )
    for competition_id in season.competitions.exclude(discipline="teams").values_list(
        "pk", flat=True
    ):
        request_recompute(competition_id)
    return changes


__all__ = [
    "CLAUSES",
    "MP_TABLE_KEY",
    "configuration_problems",
    "configure_season",
    "current_values",
    "load_mp_table",
    "mp_table",
    "season_configured",
]

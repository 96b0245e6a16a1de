"""Fee lists for heats and finals, their payment status, and exports for the treasurer.

The amounts come from :mod:`ubf.rules.fees` (R-PAIR-FEE-1/2, R-TEAM-FEE-1..3) with the season's
configuration; this module only gathers the facts from the models (who played, birth years,
pins, matches, rounds) and keeps the status of each row (:class:`portal.models.FeeStatus`:
collected by the heat responsible, passed to UBF).

A fee list is a :class:`FeeList` of :class:`FeeRow` (one per payer: a pair, a team, a directly
qualified pair), each with its lines (reason and clause), total and status. Exports:
:func:`fee_list_csv` (semicolon-separated, UTF-8 with BOM) and :func:`fee_list_xlsx`.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.apps import apps
from django.core.exceptions import ObjectDoesNotExist
from django.db import models, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs import clock, seats
from clubs.i18n import render
from clubs.models import Player, Season
from clubs.permissions import can_manage_pair_heat, can_manage_team_heat, is_tk
from clubs.selectors import player_infos_for
from clubs.services.base import ServiceError, raise_on_errors, record_decision, require
from clubs.spreadsheets import safe_cell, text_cells
from pairs.models import PairEntry
from pairs.selectors import final_seat_holders
from portal.models import FeeStatus
from teams.models import Lineup, Match, Team, WalkOver
from ubf.rules import fees as fee_rules
from ubf.rules.fees import FeeLine, kr
from ubf.rules.i18n import gettext_noop
from ubf.rules.people import PlayerInfo
from ubf.rules.types import HeatType
from ubf.rules.violations import Violation

# FeeStatus.kind of each list.
PAIR_HEAT = "pair_heat"
TEAM_HEAT = "team_heat"
PAIR_FINAL = "pair_final"
TEAM_FINAL = "team_final"
KINDS = (PAIR_HEAT, TEAM_HEAT, PAIR_FINAL, TEAM_FINAL)

# URL / file name word of each list (Swedish, as the treasurer says it).
LIST_WORDS = {
    "parkval": PAIR_HEAT,
    "lagkval": TEAM_HEAT,
    "parfinal": PAIR_FINAL,
    "lagfinal": TEAM_FINAL,
}
_WORD_OF = {v: k for k, v in LIST_WORDS.items()}

_PAYEE = {"UBF": "UBF", "organiser": gettext_lazy("arrangören"), "": ""}

HEADER = [
    gettext_lazy("Betalare"),
    gettext_lazy("Avgift"),
    gettext_lazy("Regel"),
    gettext_lazy("Mottagare"),
    gettext_lazy("Belopp (kr)"),
    gettext_lazy("Inbetald till arrangören"),
    gettext_lazy("Vidarebefordrad till UBF"),
]


# ---------------------------------------------------------------------------------------------
# Players as the rules see them
# ---------------------------------------------------------------------------------------------


def player_infos(season: Season, players: Iterable[Player]) -> dict[int, PlayerInfo]:
    """Player id → :class:`PlayerInfo` for ``season``, from the one adapter
    (:func:`clubs.selectors.player_infos_for`), keyed by id because line-ups and rosters
    here carry player ids."""
    by_pk = {p.pk: p for p in players}
    by_mid = player_infos_for(season, by_pk.values())
    return {pk: by_mid[p.mid] for pk, p in by_pk.items()}


# ---------------------------------------------------------------------------------------------
# Fee lists
# ---------------------------------------------------------------------------------------------


@dataclass
class FeeRow:
    """One payer's fees: ``lines`` from the rules (reason and clause each), the ``status`` row
    (None until someone marks it), and notes explaining how the figures were found."""

    payer: str
    obj: models.Model
    kind: str
    lines: list[FeeLine]
    status: FeeStatus | None = None
    notes: list[str] = field(default_factory=list)
    #: The payer's players as a person reads them ("Anna Berg (12345)"): a pair's two, a
    #: team's roster.
    players: list[str] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return fee_rules.total(self.lines)

    @property
    def key(self) -> str:
        """The row's payer as a form names it: ``"pairs.pairentry:12"``."""
        return f"{self.obj._meta.label_lower}:{self.obj.pk}"

    @property
    def collected_on(self) -> date | None:
        return self.status.collected_on if self.status else None

    @property
    def passed_to_ubf_on(self) -> date | None:
        return self.status.passed_to_ubf_on if self.status else None


@dataclass
class FeeList:
    """The fees of one heat or final, row by row."""

    word: str  # "parkval", "lagkval", "parfinal", "lagfinal"
    title: str
    scope: models.Model
    season: Season
    rows: list[FeeRow]
    notes: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return LIST_WORDS[self.word]

    @property
    def total(self) -> Decimal:
        return sum((r.total for r in self.rows), Decimal(0))

    @property
    def slug(self) -> str:
        name = getattr(self.scope, "name", "") or str(self.scope)
        return slugify(name) or str(self.scope.pk)

    def filename(self, extension: str) -> str:
        """``avgifter-lagkval-<slug>.xlsx``"""
        return f"avgifter-{self.word}-{self.slug}.{extension}"


def _statuses(objs: Sequence[models.Model], kind: str) -> dict[tuple[str, int], FeeStatus]:
    by_type: dict[str, list[int]] = defaultdict(list)
    for o in objs:
        by_type[o._meta.label_lower].append(o.pk)
    out = {}
    for object_type, ids in by_type.items():
        for s in FeeStatus.objects.filter(object_type=object_type, object_id__in=ids, kind=kind):
            out[(object_type, s.object_id)] = s
    return out


def _attach_statuses(rows: list[FeeRow], kind: str) -> list[FeeRow]:
    statuses = _statuses([r.obj for r in rows], kind)
    for r in rows:
        r.status = statuses.get((r.obj._meta.label_lower, r.obj.pk))
    return rows


def _names(*players: Player) -> list[str]:
    return [f"{p.full_name} ({p.mid})" for p in players]


def _pair_label(p1: Player, p2: Player, number: str = "") -> str:
    label = f"{p1.full_name} – {p2.full_name}"
    return f"{number}. {label}" if number else label


def pair_heat_fee_list(heat) -> FeeList:
    """R-PAIR-FEE-1: each pair of a qualifier heat pays the DM qualifier fee per player plus
    the organiser's table fee per player (``heat.table_fee``). In a bronze heat
    (R-PAIR-KVAL-5) a pair that did not declare for the qualifier pays only the organiser's
    table fee. Withdrawn entries are left out; struck (hors concours) pairs played and pay."""

    season = heat.competition.season
    rules = season.rules()
    entries = list(
        heat.entries.exclude(status=PairEntry.Status.WITHDRAWN).select_related("player1", "player2")
    )
    infos = player_infos(season, [p for e in entries for p in (e.player1, e.player2)])
    rows = []
    for e in entries:
        pair = [infos[e.player1_id], infos[e.player2_id]]
        lines = fee_rules.pair_heat_fees(pair, table_fee_per_player=heat.table_fee, rules=rules)
        notes = []
        if heat.heat_type == HeatType.BRONZE and not e.takes_part_in_qualifier:
            lines = [x for x in lines if x.payee == "organiser"]
            notes.append(
                _(
                    "Deltar inte i DM-kvalet (bronskval): bara arrangörens bordsavgift "
                    "(R-PAIR-KVAL-5)."
                )
            )
        if e.status == PairEntry.Status.STRUCK:
            notes.append(_("Spelade utom tävlan (R-PAIR-KVAL-7) men betalar som övriga."))
        rows.append(
            FeeRow(
                _pair_label(e.player1, e.player2, e.pair_number),
                e,
                PAIR_HEAT,
                lines,
                None,
                notes,
                players=_names(e.player1, e.player2),
            )
        )
    return FeeList(
        "parkval",
        _("Avgifter %(heat)s (%(competition)s)")
        % {"heat": heat.name, "competition": heat.competition},
        heat,
        season,
        _attach_statuses(rows, PAIR_HEAT),
    )


def _walkover_match_ids(matches) -> set[int]:
    return set(
        WalkOver.objects.filter(match__in=matches, status=WalkOver.Status.GRANTED).values_list(
            "match_id", flat=True
        )
    )


def _roster_players(team) -> list[Player]:
    return [r.player for r in team.roster.select_related("player")]


def team_heat_fee_list(heat) -> FeeList:
    """R-TEAM-FEE-1..3 for a team qualifier heat: each team's start fee (season configuration,
    collected by the heat responsible and passed to UBF), the junior discount for each junior
    who takes part (from the line-ups where uploaded, else the roster), and the organiser's
    table fee per match (``heat.table_fee_per_match``) for the team's matches that were not
    W.O.s (before the schedule exists: one match against each other team, R-TEAM-KVAL-4).
    Disqualified and excluded teams stay on the list: fees are not refunded (R-TEAM-RES-4)."""

    season = heat.competition.season
    rules = season.rules()
    teams = list(heat.teams.exclude(status=Team.Status.WITHDRAWN).order_by("number", "name"))
    matches = list(Match.objects.filter(heat=heat, stage=Match.Stage.KVAL))
    walkovers = _walkover_match_ids(matches)
    lineups = defaultdict(set)
    lineup_players: dict[int, Player] = {}
    for lu in Lineup.objects.filter(match__in=matches).select_related("player"):
        lineups[lu.team_id].add(lu.player_id)
        lineup_players[lu.player_id] = lu.player
    rosters = {t.pk: _roster_players(t) for t in teams}
    everyone = list(lineup_players.values()) + [p for ps in rosters.values() for p in ps]
    infos = player_infos(season, everyone)
    notes = []
    if heat.start_fee is not None and Decimal(heat.start_fee) != rules.team_start_fee:
        notes.append(
            _(
                "Heatets inbjudan anger startavgiften %(heat_fee)s kr; listan följer säsongens "
                "DM-startavgift %(season_fee)s kr (R-TEAM-FEE-1)."
            )
            % {"heat_fee": kr(Decimal(heat.start_fee)), "season_fee": kr(rules.team_start_fee)}
        )
    rows = []
    for t in teams:
        row_notes = []
        if lineups.get(t.pk):
            taking_part = [infos[pid] for pid in sorted(lineups[t.pk])]
        else:
            taking_part = [infos[p.pk] for p in rosters[t.pk]]
            row_notes.append(_("Inga laguppställningar inlästa: juniorer räknade från laglistan."))
        own = [m for m in matches if t.pk in (m.home_id, m.away_id)]
        if own:
            n_matches = sum(1 for m in own if m.pk not in walkovers)
        else:
            n_matches = max(len(teams) - 1, 0)
            if n_matches:
                row_notes.append(
                    ngettext(
                        "Spelschemat saknas: %(n)d match antagen (alla möter alla).",
                        "Spelschemat saknas: %(n)d matcher antagna (alla möter alla).",
                        n_matches,
                    )
                    % {"n": n_matches}
                )
        if t.status in (Team.Status.DISQUALIFIED, Team.Status.EXCLUDED):
            row_notes.append(_("Avgifterna återbetalas inte (R-TEAM-RES-4)."))
        lines = fee_rules.team_heat_fees(
            t.name,
            taking_part,
            matches=n_matches,
            table_fee_per_match=heat.table_fee_per_match,
            rules=rules,
        )
        rows.append(
            FeeRow(t.name, t, TEAM_HEAT, lines, None, row_notes, players=_names(*rosters[t.pk]))
        )
    return FeeList(
        "lagkval",
        _("Avgifter %(heat)s (%(competition)s)")
        % {"heat": heat.name, "competition": heat.competition},
        heat,
        season,
        _attach_statuses(rows, TEAM_HEAT),
        notes,
    )


def team_final_fee_list(competition) -> FeeList:
    """R-TEAM-FEE-2, R-TEAM-FEE-3 for the DM team final: for each round a team plays, the
    table fee per team and round, reduced for each junior who played that round (from the
    line-ups where uploaded, else the roster). Before the schedule exists: one round against
    each other finalist (R-TEAM-FINAL-1). Disqualified teams keep their fees (R-TEAM-RES-4)."""

    season = competition.season
    rules = season.rules()
    teams = list(
        seats.holding(competition.teams.all())
        .exclude(status=Team.Status.WITHDRAWN)
        .order_by("final_seat_number", "name")
    )
    matches = list(
        Match.objects.filter(competition=competition, stage=Match.Stage.FINAL).order_by("round")
    )
    walkovers = _walkover_match_ids(matches)
    lineups: dict[tuple[int, int], set[int]] = defaultdict(set)
    lineup_players: dict[int, Player] = {}
    for lu in Lineup.objects.filter(match__in=matches).select_related("player"):
        lineups[(lu.match_id, lu.team_id)].add(lu.player_id)
        lineup_players[lu.player_id] = lu.player
    rosters = {t.pk: _roster_players(t) for t in teams}
    infos = player_infos(
        season, list(lineup_players.values()) + [p for ps in rosters.values() for p in ps]
    )
    rows = []
    for t in teams:
        row_notes = []
        own = [m for m in matches if t.pk in (m.home_id, m.away_id) and m.pk not in walkovers]
        players_by_round = []
        from_roster = False
        if own:
            for m in own:
                played = lineups.get((m.pk, t.pk))
                if played:
                    players_by_round.append([infos[pid] for pid in sorted(played)])
                else:
                    from_roster = True
                    players_by_round.append([infos[p.pk] for p in rosters[t.pk]])
        elif not any(t.pk in (m.home_id, m.away_id) for m in matches):
            rounds = max(len(teams) - 1, 0)
            players_by_round = [[infos[p.pk] for p in rosters[t.pk]] for _ in range(rounds)]
            from_roster = bool(rounds)
            if rounds:
                row_notes.append(
                    ngettext(
                        "Spelschemat saknas: %(n)d rond antagen (enkelserie).",
                        "Spelschemat saknas: %(n)d ronder antagna (enkelserie).",
                        rounds,
                    )
                    % {"n": rounds}
                )
        if from_roster:
            row_notes.append(
                _(
                    "Laguppställning saknas för någon rond: juniorer räknade från laglistan "
                    "(preliminärt)."
                )
            )
        if t.status in (Team.Status.DISQUALIFIED, Team.Status.EXCLUDED):
            row_notes.append(_("Avgifterna återbetalas inte (R-TEAM-RES-4)."))
        lines = fee_rules.team_final_fees(t.name, players_by_round, rules=rules)
        rows.append(
            FeeRow(t.name, t, TEAM_FINAL, lines, None, row_notes, players=_names(*rosters[t.pk]))
        )
    return FeeList(
        "lagfinal",
        _("Avgifter DM-final %(competition)s") % {"competition": competition},
        competition,
        season,
        _attach_statuses(rows, TEAM_FINAL),
    )


def pair_final_fee_list(competition) -> FeeList:
    """R-PAIR-FEE-1, R-PAIR-FEE-2 for a pairs final: every pair holding a seat (not vacated),
    including directly qualified pairs, pays the final fee per player; in Dam UBF pays part of
    it by each player's highest pin. In a direct final without seats (R-PAIR-DF-1, Dam) the
    entries of the competition are listed."""

    season = competition.season
    rules = season.rules()
    payers: list[tuple[models.Model, Player, Player, str]] = [
        (h.holder, *h.registered, "") for h in final_seat_holders(competition)
    ]
    notes = []
    if not payers and competition.is_direct_final:
        for e in (
            PairEntry.objects.filter(heat__competition=competition)
            .exclude(status=PairEntry.Status.WITHDRAWN)
            .select_related("player1", "player2")
        ):
            payers.append((e, e.player1, e.player2, e.pair_number))
        notes.append(_("Direktfinal: alla anmälda par."))
    infos = player_infos(season, [p for _, p1, p2, _ in payers for p in (p1, p2)])
    rows = []
    for obj, p1, p2, number in payers:
        lines = fee_rules.pair_final_fees(
            [infos[p1.pk], infos[p2.pk]], competition.discipline, rules=rules
        )
        rows.append(
            FeeRow(_pair_label(p1, p2, number), obj, PAIR_FINAL, lines, players=_names(p1, p2))
        )
    return FeeList(
        "parfinal",
        _("Avgifter final %(competition)s") % {"competition": competition},
        competition,
        season,
        _attach_statuses(rows, PAIR_FINAL),
        notes,
    )


# ---------------------------------------------------------------------------------------------
# Who may see and mark fees
# ---------------------------------------------------------------------------------------------


def can_handle_fee(user, obj, kind: str) -> bool:
    """Heat fees: the heat's responsible / arranging club officials, and TK. Final fees: TK
    (UBF arranges the finals)."""
    if kind == PAIR_HEAT:
        return can_manage_pair_heat(user, obj.heat)
    if kind == TEAM_HEAT:
        return obj.heat is not None and can_manage_team_heat(user, obj.heat)
    return is_tk(user)


def can_see_fee_list(user, word: str, scope) -> bool:
    kind = LIST_WORDS.get(word)
    if kind == PAIR_HEAT:
        return can_manage_pair_heat(user, scope)
    if kind == TEAM_HEAT:
        return can_manage_team_heat(user, scope)
    return is_tk(user)


_BUILDERS = {
    "parkval": ("pairs", "PairHeat", pair_heat_fee_list),
    "lagkval": ("teams", "TeamHeat", team_heat_fee_list),
    "parfinal": ("pairs", "PairCompetition", pair_final_fee_list),
    "lagfinal": ("teams", "TeamCompetition", team_final_fee_list),
}


def fee_list_for(user, word: str, pk: int) -> FeeList:
    """The fee list ``word`` ("parkval", "lagkval", "parfinal", "lagfinal") of object ``pk``,
    if ``user`` may see it (PermissionDenied otherwise; ObjectDoesNotExist for an unknown one).
    """

    if word not in _BUILDERS:
        raise ObjectDoesNotExist(word)
    app, model_name, build = _BUILDERS[word]
    scope = apps.get_model(app, model_name).objects.get(pk=pk)
    require(can_see_fee_list(user, word, scope))
    return build(scope)


def _fee_clause(kind: str) -> str:
    return "R-PAIR-FEE-1" if kind in (PAIR_HEAT, PAIR_FINAL) else "R-TEAM-FEE-1"


@transaction.atomic
def mark_fee(
    user,
    obj,
    kind: str,
    *,
    collected_on: date | None = None,
    passed_to_ubf_on: date | None = None,
) -> FeeStatus:
    """R-TEAM-FEE-1 (collected by the heat responsible and passed to UBF), R-PAIR-FEE-1: mark
    a payer's fee as collected and/or passed to UBF. ``obj`` is the payer of a fee row (a
    pair entry, in a heat, directly qualified or in a direct final, or a team); dates left None keep what was marked before. The heat
    responsible marks their own heat, TK any list. Dates may not lie in the future, and a fee
    is passed to UBF no earlier than it was collected."""
    if kind not in KINDS:
        raise ServiceError(
            [
                Violation(
                    "R-GEN-3",
                    gettext_noop("Okänd avgiftstyp: %(kind)r."),
                    params={"kind": kind},
                )
            ]
        )
    require(user is not None and user.is_authenticated and can_handle_fee(user, obj, kind))
    clause = _fee_clause(kind)
    object_type = obj._meta.label_lower
    existing = FeeStatus.objects.filter(
        object_type=object_type, object_id=obj.pk, kind=kind
    ).first()
    new_collected = collected_on or (existing.collected_on if existing else None)
    new_passed = passed_to_ubf_on or (existing.passed_to_ubf_on if existing else None)
    today = clock.today()
    problems = []
    if collected_on is None and passed_to_ubf_on is None:
        problems.append(
            Violation(
                clause,
                gettext_noop("Ange datum då avgiften togs upp eller lämnades till UBF."),
            )
        )
    for label, d in (
        (gettext_noop("inbetald"), collected_on),
        (gettext_noop("vidarebefordrad till UBF"), passed_to_ubf_on),
    ):
        if d is not None and d > today:
            problems.append(
                Violation(
                    clause,
                    gettext_noop("Datumet %(label)s (%(date)s) ligger i framtiden."),
                    params={"label": label, "date": d.isoformat()},
                )
            )
    if new_passed is not None and new_collected is None:
        problems.append(
            Violation(
                clause,
                gettext_noop(
                    "Avgiften måste vara upptagen innan den lämnas till UBF: ange när den togs upp."
                ),
            )
        )
    elif new_passed is not None and new_collected is not None and new_passed < new_collected:
        problems.append(
            Violation(
                clause,
                gettext_noop(
                    "Avgiften kan inte ha lämnats till UBF (%(new_passed_isoformat)s) innan den "
                    "togs upp (%(new_collected_isoformat)s)."
                ),
                params={
                    "new_passed_isoformat": new_passed.isoformat(),
                    "new_collected_isoformat": new_collected.isoformat(),
                },
            )
        )
    raise_on_errors(problems)
    status, _ = FeeStatus.objects.update_or_create(
        object_type=object_type,
        object_id=obj.pk,
        kind=kind,
        defaults={
            "collected_on": new_collected,
            "passed_to_ubf_on": new_passed,
            "marked_by": user,
        },
    )
    return status


#: What a club official marks on a fee list: the step and the FeeStatus field it dates.
COLLECTED, PASSED = "collected", "passed"
_STEP_FIELDS = {COLLECTED: "collected_on", PASSED: "passed_to_ubf_on"}


@transaction.atomic
def mark_fee_rows(
    user, fee_list: FeeList, step: str, *, keys: Iterable[str] | None = None, on: date | None = None
) -> list[FeeRow]:
    """R-TEAM-FEE-1, R-PAIR-FEE-1: mark rows of a fee list (one per pair or team) as
    collected (``step`` "collected", "inbetald") or passed to UBF ("passed", "vidarebefordrad
    till UBF") on ``on`` (default today). ``keys`` names the rows (:attr:`FeeRow.key`); None is
    every row not marked for that step yet ("all at once"). Each row goes through
    :func:`mark_fee` (permission and dates checked there); all rows or none are saved, and
    each marked row is recorded in the audit trail (``portal.fee.collected`` /
    ``portal.fee.passed``, with the amount)."""
    if step not in _STEP_FIELDS:
        raise ServiceError(
            [Violation("R-GEN-3", gettext_noop("Okänt steg: %(step)r."), params={"step": step})]
        )
    on = on or clock.today()
    if keys is None:
        # Passing on is for what has been collected; the rest waits (and is not refused).
        rows = [
            r
            for r in fee_list.rows
            if getattr(r, _STEP_FIELDS[step]) is None
            and (step == COLLECTED or r.collected_on is not None)
        ]
    else:
        wanted = set(keys)
        rows = [r for r in fee_list.rows if r.key in wanted]
        missing = wanted - {r.key for r in rows}
        if missing:
            raise ServiceError(
                [
                    Violation(
                        _fee_clause(fee_list.kind),
                        gettext_noop("Raden finns inte på avgiftslistan: %(rows)s."),
                        params={"rows": ", ".join(sorted(missing))},
                    )
                ]
            )
    if not rows:
        raise ServiceError(
            [
                Violation(
                    _fee_clause(fee_list.kind),
                    gettext_noop(
                        "Inga rader att markera: alla är redan markerade (eller inte inbetalda)."
                    ),
                )
            ]
        )
    for row in rows:
        row.status = mark_fee(user, row.obj, row.kind, **{_STEP_FIELDS[step]: on})
        record_decision(
            f"portal.fee.{step}",
            row.obj,
            user=user,
            clause=_fee_clause(row.kind),
            season=fee_list.season,
            fee_list=fee_list.word,
            list_id=fee_list.scope.pk,
            payer=row.payer,
            amount=row.total,
            on=on,
        )
    return rows


# ---------------------------------------------------------------------------------------------
# Exports
# ---------------------------------------------------------------------------------------------


def _rows_for_export(fee_list: FeeList) -> list[list]:
    """The table both exports share: each line, then the payer's sum with its status, then
    the grand total. Amounts are Decimals; dates are dates or None."""
    out: list[list] = []
    for row in fee_list.rows:
        for line in row.lines:
            out.append(
                [
                    row.payer,
                    render(line),
                    line.clause,
                    str(_PAYEE.get(line.payee, line.payee)),
                    line.amount,
                    None,
                    None,
                ]
            )
        out.append(
            [
                row.payer,
                _("Summa") + (f" ({' '.join(row.notes)})" if row.notes else ""),
                "",
                "",
                row.total,
                row.collected_on,
                row.passed_to_ubf_on,
            ]
        )
    out.append([_("Totalt"), "", "", "", fee_list.total, None, None])
    return out


def fee_list_csv(fee_list: FeeList) -> str:
    """The list as CSV for Excel: semicolon-separated, UTF-8 with a byte order mark (so Excel
    opens å, ä, ö correctly), amounts with a decimal comma, dates ISO."""
    buf = io.StringIO()
    buf.write("\ufeff")
    writer = csv.writer(buf, delimiter=";", lineterminator="\r\n")
    writer.writerow([safe_cell(h) for h in HEADER])
    for r in _rows_for_export(fee_list):
        writer.writerow(
            [
                safe_cell(v)
                for v in (
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    kr(r[4]),
                    r[5].isoformat() if r[5] else "",
                    r[6].isoformat() if r[6] else "",
                )
            ]
        )
    return buf.getvalue()


KR_FORMAT = '#,##0.00 "kr"'


def fee_list_xlsx(fee_list: FeeList) -> bytes:
    """The list as an Excel workbook: bold header row, amounts as numbers in kronor format,
    dates as dates, a bold total row last."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = _("Avgifter")
    wb.properties.title = fee_list.title
    ws.append([str(h) for h in HEADER])
    text_cells(ws[1])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    rows = _rows_for_export(fee_list)
    for r in rows:
        ws.append([r[0], r[1], r[2], r[3], float(r[4]), r[5], r[6]])
        n = ws.max_row
        text_cells(ws[n])  # a team named "=HYPERLINK(...)" stays text
        ws.cell(n, 5).number_format = KR_FORMAT
        for col in (6, 7):
            if r[col - 1] is not None:
                ws.cell(n, col).number_format = "yyyy-mm-dd"
        if r[1].startswith(_("Summa")):
            ws.cell(n, 5).font = Font(bold=True)
    for cell in ws[ws.max_row]:
        cell.font = Font(bold=True)
    ws.freeze_panes = "A2"
    for col, width in zip("ABCDEFG", (30, 60, 14, 12, 14, 22, 24)):
        ws.column_dimensions[col].width = width
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()

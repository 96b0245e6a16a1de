"""Lots between equal venues (R-ALLOC-5): lots TK draws by hand, and the five-season precedence
a venue that lost a lot holds in the next lot of the same kind (pairs or teams).

A venue is known by its key: the arranging clubs' ids sorted and joined ("12" or "12+15"), so
that it is recognised in a later season. The system's own draws are recorded by the allocation
(with their seed); this module records hand-drawn lots and answers "who holds precedence".

Precedence is per losing venue. ``Lot.precedence_used_by`` marks a lot whose precedence is
used up; for a lot with several losers, a loser's use is also recorded in the audit trail
(``results.lot.precedence_used``) and the lot counts as used up once every loser has used it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction

from clubs.locks import lock_competition, lock_row
from clubs.models import Decision, Season
from clubs.permissions import is_tk
from clubs.recompute import request_recompute
from clubs.services.base import ServiceError, raise_on_errors, record_decision, require
from ubf.rules.draw import Draw, fresh_seed, random_draw, seeded_draw
from ubf.rules.i18n import gettext_noop
from ubf.rules.violations import Violation

from ..models import AllocationRun, Lot, StandingSnapshot

USED_ACTION = "results.lot.precedence_used"


def _v(template: str, *, params: dict | None = None, **data) -> Violation:
    return Violation("R-ALLOC-5", template, data=data, params=params or {})


def manual_lot_problems(
    *,
    kind: str,
    season: Season,
    competition,
    among: Sequence[str],
    winners: Sequence[str],
    seats: int,
    explanation: str,
) -> list[Violation]:
    """R-ALLOC-5: what is wrong with a hand-drawn lot: an unknown kind, a competition of
    another kind or season, fewer than two venues, winners not among the venues or repeated,
    a number of winners other than the seats drawn, no loser, no explanation."""

    problems = []
    if kind not in Lot.Kind.values:
        problems.append(
            _v(gettext_noop("Okänt slag av lottning: %(kind)r."), params={"kind": kind})
        )
    elif competition is None or competition.kind != kind:
        problems.append(
            _v(
                gettext_noop("En lottning om %(label)s-platser gäller en tävling för %(label)s."),
                params={"label": gettext_noop(str(Lot.Kind(kind).label))},
            )
        )
    elif competition.season_id != season.pk:
        problems.append(
            _v(
                gettext_noop("Tävlingen %(competition)s hör till en annan säsong än %(season)s."),
                params={"competition": competition, "season": season},
            )
        )
    among_keys = [str(k) for k in among]
    winner_keys = [str(k) for k in winners]
    if len(set(among_keys)) < 2 or len(set(among_keys)) != len(among_keys):
        problems.append(
            _v(
                gettext_noop("En lottning gäller minst två olika kvalplatser."),
                among=among_keys,
            )
        )
    outside = [w for w in winner_keys if w not in among_keys]
    if outside:
        problems.append(
            _v(
                gettext_noop("Vinnarna måste vara bland de kvalplatser som lottades: %(outside)s"),
                params={"outside": outside},
                outside=outside,
            )
        )
    if len(set(winner_keys)) != len(winner_keys):
        problems.append(_v(gettext_noop("En kvalplats står två gånger bland vinnarna.")))
    if seats < 1 or seats >= len(set(among_keys)):
        problems.append(
            _v(
                gettext_noop(
                    "Antalet platser som lottades (%(seats)s) måste vara minst 1 och färre än "
                    "kvalplatserna (%(n_set)s)."
                ),
                params={"seats": seats, "n_set": len(set(among_keys))},
            )
        )
    if len(winner_keys) != seats:
        problems.append(
            _v(
                gettext_noop(
                    "Antalet vinnare (%(n_winner_keys)s) ska vara lika med antalet platser som "
                    "lottades (%(seats)s)."
                ),
                params={"n_winner_keys": len(winner_keys), "seats": seats},
            )
        )
    if not (explanation and explanation.strip()):
        problems.append(
            _v(
                gettext_noop("Beskriv lottningen: hur och när den drogs och vilka som var med."),
            )
        )
    return problems


@transaction.atomic
def record_manual_lot(
    user,
    *,
    kind: str,
    season: Season,
    competition,
    among: Sequence[str],
    winners: Sequence[str],
    seats: int,
    labels: Mapping[str, str] | None = None,
    explanation: str,
) -> Lot:
    """R-ALLOC-5: TK enters a lot drawn by hand (``drawn_by_hand``, ``drawn_by`` = TK user):
    ``winners`` ⊆ ``among`` and exactly ``seats`` of them; the others are the losers, who
    hold precedence in the next lot of the same kind within ``rules.lot_precedence_seasons``.
    The allocation is recomputed."""
    require(is_tk(user), gettext_noop("Endast UBF TK kan registrera lottning (R-ALLOC-5)."))
    problems = manual_lot_problems(
        kind=kind,
        season=season,
        competition=competition,
        among=among,
        winners=winners,
        seats=seats,
        explanation=explanation,
    )
    raise_on_errors(problems)
    among_keys = [str(k) for k in among]
    winner_keys = [str(k) for k in winners]
    lot = Lot.objects.create(
        kind=kind,
        season=season,
        competition=competition,
        among=among_keys,
        winners=winner_keys,
        losers=[k for k in among_keys if k not in winner_keys],
        labels={str(k): v for k, v in (labels or {}).items()},
        seats=seats,
        seed="",
        drawn_by_hand=True,
        drawn_by=user,
        explanation=explanation.strip(),
    )
    record_decision(
        "results.lot.drawn_by_hand",
        lot,
        user=user,
        reason=explanation.strip(),
        clause="R-ALLOC-5",
        season=season,
        among=lot.among,
        winners=lot.winners,
        losers=lot.losers,
        seats=seats,
    )

    request_recompute(competition.pk)
    return lot


def _used_by_venue(lot_ids: Iterable[int]) -> set[tuple[int, str]]:
    return {
        (d.object_id, str((d.data or {}).get("venue")))
        for d in Decision.objects.filter(
            action=USED_ACTION, object_type=Lot._meta.label_lower, object_id__in=list(lot_ids)
        )
    }


def _open_precedence_lots(kind: str, season: Season, *, before: Lot | None = None):
    """Lots of ``kind`` from ``season`` and the seasons before it, within the season's
    ``lot_precedence_seasons``, whose precedence is not used up; oldest first (by season, then
    in the order they were recorded: ids, not ``drawn_at``, which follows the demo clock and
    goes back when TK moves it back)."""
    window = season.rules().lot_precedence_seasons
    qs = Lot.objects.filter(
        kind=kind,
        standing="",
        precedence_used_by__isnull=True,
        season__start_year__lte=season.start_year,
        season__start_year__gt=season.start_year - window,
    ).select_related("season")
    if before is not None:
        qs = qs.filter(pk__lt=before.pk)
    return list(qs.order_by("season__start_year", "id"))


def lot_precedence(
    kind: str,
    season: Season,
    venue_keys: Iterable[str],
    *,
    exclude_competition=None,
    drawn_before: int | None = None,
) -> list[str]:
    """R-ALLOC-5: of ``venue_keys``, the venues holding precedence in a lot of ``kind``
    ("pairs" or "teams", any discipline) in ``season``: they lost such a lot within
    ``rules.lot_precedence_seasons`` seasons (this one included) and have not used the
    precedence yet. Oldest lot first, as ``allocate_seats(precedence=...)`` takes them.
    ``exclude_competition`` leaves out the lots of that competition (a recompute of an
    allocation must not give precedence from its own earlier lot); ``drawn_before`` (a lot's
    id) leaves out the lots recorded with or after that lot (a lot recorded earlier is not
    overturned by precedence from a later one)."""
    wanted = {str(k) for k in venue_keys}
    lots = _open_precedence_lots(kind, season)
    if drawn_before is not None:  # precedence counts from lots drawn before, never after
        lots = [lot for lot in lots if lot.pk < drawn_before]
    if exclude_competition is not None:
        lots = [lot for lot in lots if lot.competition_id != exclude_competition.pk]
    used = _used_by_venue(lot.pk for lot in lots)
    out: list[str] = []
    for lot in lots:
        for venue in lot.losers:
            venue = str(venue)
            if venue in wanted and venue not in out and (lot.pk, venue) not in used:
                out.append(venue)
    return out


@transaction.atomic
def use_precedence(lot_that_used_it: Lot, venue_key: str) -> Lot:
    """R-ALLOC-5: ``venue_key`` won ``lot_that_used_it`` on its precedence, which is then used
    up: the oldest open lot of the same kind it lost is marked (``precedence_used_by`` once
    every loser of that lot has used it; the use itself is recorded in the audit trail).
    Returns the lot whose precedence was used."""
    venue = str(venue_key)
    if venue not in [str(k) for k in lot_that_used_it.among]:
        raise ServiceError(
            [
                _v(
                    gettext_noop("Kvalplatsen %(venue)s var inte med i lottningen."),
                    params={"venue": venue},
                )
            ]
        )
    lots = _open_precedence_lots(
        lot_that_used_it.kind, lot_that_used_it.season, before=lot_that_used_it
    )
    used = _used_by_venue(lot.pk for lot in lots)
    source = next(
        (
            lot
            for lot in lots
            if venue in [str(k) for k in lot.losers] and (lot.pk, venue) not in used
        ),
        None,
    )
    if source is None:
        raise ServiceError(
            [
                _v(
                    gettext_noop(
                        "Kvalplatsen %(venue)s har inget företräde från en tidigare lottning."
                    ),
                    params={"venue": venue},
                )
            ]
        )
    source = lock_row(Lot.objects.all(), source.pk)
    record_decision(
        USED_ACTION,
        source,
        reason=f"Företrädet användes i lottningen {lot_that_used_it.pk}.",
        clause="R-ALLOC-5",
        season=lot_that_used_it.season,
        venue=venue,
        used_in=lot_that_used_it.pk,
    )
    used.add((source.pk, venue))
    if all((source.pk, str(v)) in used for v in source.losers):
        source.precedence_used_by = lot_that_used_it
        source.save(update_fields=["precedence_used_by"])
    return source


def undecided_lot(competition, among: Sequence[str]) -> dict | None:
    """R-ALLOC-5: the lot among the venues ``among`` (their keys) that the competition's
    allocation shows and no recorded lot settles yet, as the allocation stored it (``keys``,
    ``seats``, ``precedence_keys``, the names); None when there is none (any more)."""
    run = AllocationRun.objects.filter(competition=competition).first()
    wanted = sorted(str(k) for k in among)
    for lot in (run.explanation or {}).get("lots", []) if run else []:
        if not lot.get("recorded") and sorted(lot.get("keys") or []) == wanted and wanted:
            return lot
    return None


@transaction.atomic
def draw_lot(user, competition, *, among: Sequence[str], witnesses: str, standing: str = "") -> Lot:
    """R-ALLOC-5: TK presses "Dra lott" for a tie the allocation shows undecided: the system
    draws with a fresh seed (``secrets``, :func:`ubf.rules.draw.fresh_seed`) among the tied
    venues without precedence, the precedence holders winning first as the allocation does;
    the lot is stored with its seed, the witnesses, who and when, the decision logged, and the
    recompute then takes the recorded winners (``allocate_final`` reuses a recorded lot).
    Refused without witnesses, or when the tie is no longer undecided.

    With ``standing`` (R-TEAM-TIE-1) the lot is for a tie inside that table (a team heat's or
    the final's, :func:`standing_ties`) that matters: the whole tied group is ordered with a
    fresh seed, and the recompute takes that order instead of its fixed seed."""
    require(is_tk(user), gettext_noop("Endast UBF TK kan dra lott (R-ALLOC-5)."))
    lock_competition(competition.pk)
    if standing:
        return _draw_standing_lot(user, competition, standing, among, witnesses)
    lot = undecided_lot(competition, among)
    problems = []
    if lot is None:
        problems.append(
            _v(
                gettext_noop(
                    "Det finns ingen oavgjord lottning mellan dessa kvalplatser (fördelningen "
                    "kan ha ändrats eller lotten redan dragits)."
                )
            )
        )
    if not (witnesses or "").strip():
        problems.append(_v(gettext_noop("Ange vittnena: vilka som såg lotten dras.")))
    raise_on_errors(problems)
    keys = [str(k) for k in lot["keys"]]
    first = [str(k) for k in lot.get("precedence_keys") or []]
    candidates = [k for k in keys if k not in first]
    seed = fresh_seed()
    drawn = list(seeded_draw(seed)(candidates, lot["seats"] - len(first)))
    winners = first + drawn
    labels = dict(zip(keys, lot.get("among") or keys, strict=False))
    row = Lot.objects.create(
        kind=competition.kind,
        season=competition.season,
        competition=competition,
        among=keys,
        winners=winners,
        losers=[k for k in keys if k not in winners],
        labels=labels,
        seats=lot["seats"],
        seed=str(seed),
        drawn_by=user,
        witnesses=witnesses.strip(),
        explanation=(
            f"Lottning mellan {', '.join(labels[k] for k in keys)} om {lot['seats']} "
            f"plats(er) (R-ALLOC-5), dragen av systemet med seed {seed}; vinnare: "
            f"{', '.join(labels[k] for k in winners)}"
        ),
    )
    for venue in first:
        use_precedence(row, venue)
    record_decision(
        "results.lot.drawn",
        row,
        user=user,
        reason=witnesses.strip(),
        clause="R-ALLOC-5",
        season=competition.season,
        among=keys,
        winners=winners,
        losers=row.losers,
        seats=row.seats,
        seed=row.seed,
        by_precedence=first,
    )
    request_recompute(competition.pk)
    return row


def record_hand_drawn_lot(
    user,
    competition,
    *,
    among: Sequence[str],
    winners: Sequence[str],
    explanation: str,
    standing: str = "",
) -> Lot:
    """R-ALLOC-5: TK enters, from /tk/, a lot drawn by hand for a tie the allocation shows
    undecided, by ticking the winners among the tied venues (nothing typed but the
    explanation): :func:`record_manual_lot` with the tie's venues, seats and names.

    With ``standing`` (R-TEAM-TIE-1): a lot drawn in the hall for a tie inside that table;
    ``winners`` is then the whole tied group in the order the lot gave."""
    if standing:
        with transaction.atomic():
            return _hand_standing_lot(user, competition, standing, among, winners, explanation)
    lot = undecided_lot(competition, among)
    if lot is None:
        require(is_tk(user), gettext_noop("Endast UBF TK kan registrera lottning (R-ALLOC-5)."))
        raise ServiceError(
            [
                _v(
                    gettext_noop(
                        "Det finns ingen oavgjord lottning mellan dessa kvalplatser (fördelningen "
                        "kan ha ändrats eller lotten redan dragits)."
                    )
                )
            ]
        )
    keys = [str(k) for k in lot["keys"]]
    return record_manual_lot(
        user,
        kind=competition.kind,
        season=competition.season,
        competition=competition,
        among=keys,
        winners=[str(w) for w in winners],
        seats=lot["seats"],
        labels=dict(zip(keys, lot.get("among") or keys, strict=False)),
        explanation=explanation,
    )


# --------------------------------------------------------------------------------------------
# Ties inside standings (R-TEAM-TIE-1, R-PAIR-TIE-1): the same Lot, ``standing`` naming the
# table, for a team heat, the team final, a pairs heat and the pairs final alike
# --------------------------------------------------------------------------------------------

TEAM_FINAL = "team_final"
PAIR_FINAL = "pair_final"
#: Places whose order matters in the team final besides the SM places: the title and the
#: plaques. (The pairs final's plaques are shared instead, R-PAIR-TIE-2: only its SM places.)
FINAL_PLACES = (1, 2, 3)


def team_heat_standing(heat_id: int) -> str:
    """The ``Lot.standing`` of a team heat's table."""
    return f"team_heat:{heat_id}"


def pair_heat_standing(heat_id: int) -> str:
    """The ``Lot.standing`` of a pairs heat's table."""
    return f"pair_heat:{heat_id}"


def tie_clause(competition) -> str:
    """The clause of a lot inside a table: the pairs' R-PAIR-TIE-1 or the teams' R-TEAM-TIE-1."""
    return "R-PAIR-TIE-1" if competition.kind == Lot.Kind.PAIRS else "R-TEAM-TIE-1"


def standing_draw(
    competition, standing: str, seed, *, recorded: Iterable[Lot] | None = None
) -> tuple[Draw, list[dict]]:
    """R-TEAM-TIE-1, R-PAIR-TIE-1: the ``draw`` a recompute passes to ``rank_teams`` or
    ``rank_pairs`` for the table ``standing``: a tie that a recorded lot of that table covers
    takes the lot's order; any other tie falls back to the fixed ``seed`` (steady pages,
    nothing recorded) and is listed as undrawn. Returns the draw and the list it fills: one
    ``{"among", "lot"}`` per tie (the tied keys, the settling lot's id or None).
    ``recorded``: the competition's lots inside tables, when the caller read them already (a
    recompute of many heats reads them once); else they are read here."""
    if recorded is None:
        recorded = Lot.objects.filter(competition=competition, standing=standing)
    recorded = sorted(
        (lot for lot in recorded if lot.standing == standing), key=lambda lot: -lot.pk
    )
    ties: list[dict] = []
    fallback = random_draw(seed)

    def draw(candidates: list, k: int) -> list:
        keys = {str(c) for c in candidates}
        known = next((t for t in ties if keys <= {str(x) for x in t["among"]}), None)
        for lot in recorded:
            if keys <= {str(x) for x in lot.among}:
                if known is None:
                    ties.append({"among": sorted(candidates, key=str), "lot": lot.pk})
                by_key = {str(c): c for c in candidates}
                return [by_key[w] for w in lot.winners if w in by_key][:k]
        if known is None:
            ties.append({"among": sorted(candidates, key=str), "lot": None})
        return fallback(candidates, k)

    return draw, ties


def mark_ties(rows: list[dict], ties: list[dict], key_field: str) -> None:
    """Each stored row in a tie settled by lot carries it (``row["lot"]``: the tied keys and
    the settling lot's id, None while undrawn), for the pages and /tk/ (:func:`ties_of`)."""
    for tie in ties:
        among = {str(x) for x in tie["among"]}
        for row in rows:
            if str(row.get(key_field)) in among:
                row["lot"] = {"among": [str(x) for x in tie["among"]], "lot": tie["lot"]}


@dataclass
class StandingTie:
    """A tie the recompute settled by lot in one table, and whether it matters."""

    competition: object
    standing: str
    heat: object | None  # the heat, or None for the final
    among: list[str]
    names: list[str]
    first: int  # the tied places, 1-based
    last: int
    cuts: list[int]  # a cut after place c: seats, plaques, SM places (the team tables)
    provisional: bool
    lot: Lot | None
    #: The pairs' tables: what the order decides for each tied pair ("seat", "asked",
    #: "reserve", "sm", "out"; None for a pair it decides nothing for: a direct qualifier
    #: passed over, a pair outside the qualifier, an out-of-district pair over the cap). The
    #: order matters when two tied pairs fare differently.
    fates: dict[str, str | None] | None = None

    @property
    def matters(self) -> bool:
        if self.fates is not None:
            return len({self.fates.get(k) for k in self.among} - {None}) > 1
        return any(self.first <= c < self.last for c in self.cuts)

    @property
    def key(self) -> str:
        return ",".join(self.among)

    @property
    def clause(self) -> str:
        return tie_clause(self.competition)

    @property
    def pairs(self) -> bool:
        return self.competition.kind == Lot.Kind.PAIRS

    @property
    def undrawn(self) -> bool:
        """A tie that matters, in a finished table, with no lot drawn: TK's to draw, and what
        it decides reads provisional ("lott ej dragen")."""
        return self.lot is None and self.matters and not self.provisional


def _heat_cut(run, heat) -> list[int]:
    explanation = (run.explanation or {}) if run else {}
    venue = next((v for v in explanation.get("venues", ()) if v.get("label") == heat.name), None)
    if venue is None:
        return []
    direct = [d for d in explanation.get("direct", ()) if d.get("venue") == venue.get("key")]
    return [int(venue.get("seats") or 0) + len(direct)]


def _pair_heat_fates(run, heat, rows) -> dict[str, str | None]:
    """What the order decides for each pair of a pairs heat's table: a seat from the heat
    (``seat``, R-ALLOC-6), an offer down the replacement chain (``asked``, R-REPL-1..5), a
    place among the reserves not reached yet (``reserve``), or nothing (None: a pair outside
    the qualifier, or a direct qualifier, who is passed over, R-ALLOC-2). Read from the
    allocation run alone (its holders, direct qualifiers and the chain's asked entries)."""
    explanation = (run.explanation or {}) if run else {}
    venue = next((v for v in explanation.get("venues", ()) if v.get("label") == heat.name), None)
    holders = {str(h.get("entry")) for h in (venue or {}).get("holders", ())}
    direct = {str(d.get("entry")) for d in explanation.get("direct", ())}
    asked = {str(k) for c in explanation.get("chain", ()) for k in c.get("asked_keys", ())}
    fates: dict[str, str | None] = {}
    for r in rows:
        key = str(r.get("entry_id"))
        if not r.get("qualifier_rank") or key in direct or venue is None:
            fates[key] = None
        elif key in holders:
            fates[key] = "seat"
        else:
            fates[key] = "asked" if key in asked else "reserve"
    return fates


def _pair_final_fates(rows) -> dict[str, str | None]:
    """The pairs final: an SM place or not (R-PAIR-TIE-1's last sentence); an out-of-district
    pair passed over for the cap (R-PAIR-2) gets none whatever its order."""
    return {
        str(r.get("key")): None
        if r.get("sm_passed_over")
        else ("sm" if r.get("sm_place") else "out")
        for r in rows
    }


_TABLE_SCOPES = {
    Lot.Kind.PAIRS: [StandingSnapshot.Scope.PAIR_HEAT, StandingSnapshot.Scope.PAIR_FINAL],
    Lot.Kind.TEAMS: [StandingSnapshot.Scope.TEAM_HEAT, StandingSnapshot.Scope.TEAM_FINAL],
}


def standing_ties(competition) -> list[StandingTie]:
    """R-TEAM-TIE-1, R-PAIR-TIE-1: every tie a competition's stored tables (heats and final)
    settled by lot, with the lot that settled it (None: settled by the recompute's fixed seed,
    "lott ej dragen") and what it is measured against: a team heat's seats in the final, the
    team final's title, plaques and SM places; a pairs heat's seats and the reserves the
    replacement chain has reached, the pairs final's SM places."""
    run = AllocationRun.objects.filter(competition=competition).first()
    snapshots = StandingSnapshot.objects.filter(
        competition=competition, scope__in=_TABLE_SCOPES[competition.kind]
    ).select_related("heat")
    lots = list(Lot.objects.filter(competition=competition).exclude(standing=""))
    out = []
    for snap in snapshots:
        out += ties_of(
            competition, snap, heat=snap.heat if snap.heat_id else None, run=run, lots=lots
        )
    return out


def ties_of(competition, snap, *, heat, run, lots) -> list[StandingTie]:
    """The ties of one stored table (a heat's, ``heat``, or the final's, None) settled by lot,
    with ``lots`` (the competition's lots, read once by the caller) and ``run`` (for a heat's
    seats): what :func:`standing_ties` gives for that table, without a query of its own, so a
    page that already has the snapshot pays nothing for it."""
    by_pk = {lot.pk: lot for lot in lots if lot.standing}
    pairs = competition.kind == Lot.Kind.PAIRS
    data = snap.data or []
    rows = data.get("rows", []) if isinstance(data, dict) else data
    cuts: list[int] = []
    fates = None
    if pairs and heat is not None:
        standing, key_field = pair_heat_standing(heat.pk), "entry_id"
        fates = _pair_heat_fates(run, heat, rows)
    elif pairs:
        standing, key_field = PAIR_FINAL, "key"
        fates = _pair_final_fates(rows)
    elif heat is not None:
        standing, key_field, cuts = team_heat_standing(heat.pk), "team_id", _heat_cut(run, heat)
    else:
        standing, key_field = TEAM_FINAL, "team_id"
        sm = sum(1 for r in rows if r.get("sm_choice"))
        cuts = sorted(set(FINAL_PLACES) | ({sm} if sm else set()))
    out, seen = [], set()
    for row in rows:
        tie = row.get("lot")
        if not tie or tuple(tie["among"]) in seen:
            continue
        seen.add(tuple(tie["among"]))
        among = [str(x) for x in tie["among"]]
        here = [(i, r) for i, r in enumerate(rows, start=1) if str(r.get(key_field)) in among]
        # The places a person reads: the table's own ranks (a pairs heat's rank column).
        places = [r.get("rank") or i for i, r in here]
        names = {str(r.get(key_field)): r.get("name", "") for _, r in here}
        out.append(
            StandingTie(
                competition=competition,
                standing=standing,
                heat=heat,
                among=among,
                names=[names.get(k, k) for k in among],
                first=min(places),
                last=max(places),
                cuts=cuts,
                provisional=snap.provisional,
                lot=by_pk.get(tie.get("lot")),
                fates=fates,
            )
        )
    return out


def undrawn_keys(ties: Iterable[StandingTie]) -> set[str]:
    """The entries whose place waits on a lot TK has not drawn (:attr:`StandingTie.undrawn`):
    a seat or an SM place they hold reads provisional until it is drawn."""
    return {k for tie in ties if tie.undrawn for k in tie.among}


def undrawn_standing_tie(competition, standing: str, among: Sequence[str]) -> StandingTie | None:
    """The tie among ``among`` in the table ``standing`` that matters, is complete and has no
    lot drawn yet; None when there is none (any more)."""
    wanted = sorted(str(k) for k in among)
    for tie in standing_ties(competition):
        if tie.standing == standing and sorted(tie.among) == wanted and tie.undrawn:
            return tie
    return None


def _no_standing_tie(competition) -> Violation:
    if competition.kind == Lot.Kind.PAIRS:
        return Violation(
            "R-PAIR-TIE-1",
            gettext_noop(
                "Det finns ingen oavgjord lottning mellan dessa par i tabellen (tabellen kan ha "
                "ändrats eller lotten redan dragits)."
            ),
        )
    return Violation(
        "R-TEAM-TIE-1",
        gettext_noop(
            "Det finns ingen oavgjord lottning mellan dessa lag i tabellen (tabellen kan ha "
            "ändrats eller lotten redan dragits)."
        ),
    )


def _record_standing_lot(
    user, competition, tie: StandingTie, order: list[str], *, seed: str, by_hand: bool, text: str
) -> Lot:
    labels = dict(zip(tie.among, tie.names, strict=False))
    row = Lot.objects.create(
        kind=competition.kind,
        season=competition.season,
        competition=competition,
        standing=tie.standing,
        among=tie.among,
        winners=order,
        losers=[],
        labels=labels,
        seats=len(order),
        seed=seed,
        drawn_by_hand=by_hand,
        drawn_by=user,
        witnesses="" if by_hand else text,
        explanation=(
            f"Lottning mellan {', '.join(labels[k] for k in tie.among)} om plats "
            f"{tie.first}–{tie.last} ({tie.clause}), "
            + (f"dragen i hallen: {text}" if by_hand else f"dragen av systemet med seed {seed}")
            + f"; ordning: {', '.join(labels[k] for k in order)}"
        ),
    )
    record_decision(
        "results.lot.drawn_by_hand" if by_hand else "results.lot.drawn",
        row,
        user=user,
        reason=text,
        clause=tie.clause,
        season=competition.season,
        standing=tie.standing,
        among=tie.among,
        winners=order,
        seed=seed,
    )
    request_recompute(competition.pk)
    return row


def _draw_standing_lot(user, competition, standing, among, witnesses) -> Lot:
    tie = undrawn_standing_tie(competition, standing, among)
    problems = [] if tie is not None else [_no_standing_tie(competition)]
    if not (witnesses or "").strip():
        problems.append(_v(gettext_noop("Ange vittnena: vilka som såg lotten dras.")))
    raise_on_errors(problems)
    seed = fresh_seed()
    order = [str(k) for k in seeded_draw(seed)(list(tie.among), len(tie.among))]
    return _record_standing_lot(
        user, competition, tie, order, seed=str(seed), by_hand=False, text=witnesses.strip()
    )


def _hand_standing_lot(user, competition, standing, among, order, explanation) -> Lot:
    require(is_tk(user), gettext_noop("Endast UBF TK kan registrera lottning (R-ALLOC-5)."))
    lock_competition(competition.pk)
    tie = undrawn_standing_tie(competition, standing, among)
    order = [str(k) for k in order if str(k)]
    problems = [] if tie is not None else [_no_standing_tie(competition)]
    if tie is not None and sorted(order) != sorted(tie.among):
        problems.append(
            Violation(
                tie.clause,
                gettext_noop("Ange varje lottat par en gång, i den ordning lotten gav.")
                if tie.pairs
                else gettext_noop("Ange varje lottat lag en gång, i den ordning lotten gav."),
            )
        )
    if not (explanation and explanation.strip()):
        problems.append(
            _v(gettext_noop("Beskriv lottningen: hur och när den drogs och vilka som var med."))
        )
    raise_on_errors(problems)
    return _record_standing_lot(
        user, competition, tie, order, seed="", by_hand=True, text=explanation.strip()
    )

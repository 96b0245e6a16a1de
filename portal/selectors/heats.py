"""Read side of the public heat pages (/par/kval/<id>/, /lag/kval/<id>/) and the DM Par final
page (/par/final/<id>/): who qualified from a heat and why, the reserves in order, the
replacement chain, and the final's ranking. Everything is read from what the recompute stored
(the heat's snapshot, the :class:`results.models.AllocationRun` and its explanation, the seat
and offer rows, the recorded lots); nothing is computed here but the order the page shows.

One function per page, the same for pairs and teams where the idea is shared
(:func:`_heat_page`): a pairs heat page in 7 queries, a team heat page in 7, the final page
in 7, whatever the number of entries, seats and offers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.http import Http404

from clubs import seats
from clubs.models import FinalSeat, SeatOffer
from pairs.models import PairCompetition, PairHeat
from pairs.selectors import SeatHolder, final_seat_holders
from portal.selectors.par import HeatView, _heat_view
from portal.selectors.tk_lots import standing_lot_notes
from results.models import AllocationRun, Lot, StandingSnapshot
from results.seat_states import DECLINED, OFFERED, SeatWords, heats_left, seat_words
from results.services.lots import PAIR_FINAL, undrawn_keys
from teams.models import Match, TeamHeat, TeamHeatOrganiser

Status = FinalSeat.Status


@dataclass
class SeatLine:
    """A final seat that concerns the heat: it comes from the heat, or an entry of the heat
    holds it or was offered it. ``offers`` in the order they were made (who was asked, when,
    the answer); ``now`` the name of whoever holds the seat today ("" when nobody yet)."""

    seat: FinalSeat
    holder: str
    offers: list
    now: str = ""
    from_here: bool = True


@dataclass
class Reserve:
    """An entry of the heat that qualified but holds no seat: its place in the heat's queue
    (R-REPL-1: the nearest eliminated of the heat is asked first)."""

    position: int
    rank: int | None
    name: str
    entry_id: int
    asked: bool = False


@dataclass
class LotLine:
    """A recorded lot (R-ALLOC-5) as the page says it: among which heats, for how many seats,
    who won, and who drew it (TK by hand, or the system with a seed anyone can replay)."""

    lot: Lot

    def _labels(self, keys) -> list[str]:
        labels = self.lot.labels or {}
        return [labels.get(k, k) for k in keys]

    @property
    def among(self) -> str:
        return ", ".join(self._labels(self.lot.among))

    @property
    def winners(self) -> str:
        return ", ".join(self._labels(self.lot.winners))

    @property
    def losers(self) -> str:
        return ", ".join(self._labels(self.lot.losers))

    @property
    def drawn_by(self) -> str:
        user = self.lot.drawn_by
        if user is None:
            return ""
        return user.get_full_name() or user.get_username()


@dataclass
class RowView:
    """A row of the heat's standing with what it means for the final: the seat the entry
    holds from the heat, or its place among the reserves."""

    row: dict
    key: int | None
    seat: FinalSeat | None = None
    reserve: Reserve | None = None
    gave_up: FinalSeat | None = None
    #: the entry's final place in words (``results.seat_states``): "preliminärt, X heat kvar",
    #: "kvalificerat", "direktkvalificerat", "tillfrågat som ersättare", "tackat nej"
    words: SeatWords | None = None


@dataclass
class HeatPage:
    kind: str  # "pairs" or "teams"
    heat: PairHeat | TeamHeat
    competition: object
    snapshot: StandingSnapshot | None
    run: AllocationRun | None
    organisers: list[str] = field(default_factory=list)
    #: the heat's row of the allocation (``AllocationRun.explanation["venues"]``)
    venue: dict | None = None
    #: entry id → the seat it holds from this heat
    qualified: dict[int, FinalSeat] = field(default_factory=dict)
    #: entry id → the seat it gave up (R-REPL-1, R-TEAM-REPL-1)
    gave_up: dict[int, FinalSeat] = field(default_factory=dict)
    reserves: list[Reserve] = field(default_factory=list)
    seats: list[SeatLine] = field(default_factory=list)
    lots: list = field(default_factory=list)
    #: a lot shown while the heats are still being played: not drawn, not recorded
    provisional_lots: list[dict] = field(default_factory=list)
    #: the allocation's lines that name this heat (sentences kept as data, |rendered)
    lines: list[dict] = field(default_factory=list)
    table: list[RowView] = field(default_factory=list)
    #: pairs only: the heat's sessions as the /par/ page shows them
    sessions: HeatView | None = None
    #: the competition's heats not yet played and in (``results.seat_states.heats_left``)
    heats_left: int = 0
    #: the ties in the heat's table that matter (R-TEAM-TIE-1, R-PAIR-TIE-1), drawn or not
    standing_lots: list = field(default_factory=list)
    #: teams: the heat's schedule, round by round (R-TEAM-KVAL-4): each {"number",
    #: "played_on", "matches"} with the Match rows (played or not)
    schedule: list[dict] = field(default_factory=list)

    @property
    def rows(self) -> list[dict]:
        return self.snapshot.data if self.snapshot and self.snapshot.data else []

    @property
    def heat_count(self) -> int:
        return len((self.run.explanation or {}).get("venues", [])) if self.run else 0

    @property
    def direct_count(self) -> int:
        return len((self.run.explanation or {}).get("direct", [])) if self.run else 0


def _heat_page(page: HeatPage, seat_rows: list[FinalSeat], row_key: str) -> HeatPage:
    """What the pairs and the team heat page share: the heat's seats, its reserves in order,
    the chain's offers and the allocation's sentences about the heat, from the stored rows."""
    heat = page.heat
    rows = page.rows
    here = {r[row_key] for r in rows if r.get(row_key)}
    explanation = page.run.explanation if page.run else {}
    page.venue = next(
        (v for v in explanation.get("venues", ()) if v.get("label") == heat.name), None
    )
    by_id = {s.id: s for s in seat_rows}
    for seat in seat_rows:
        holder = seat.holder_id
        offers = sorted(seat.offers.all(), key=lambda o: (o.offered_at, o.id))
        from_here = seat.origin_heat_id == heat.id
        concerns = from_here or holder in here or any(o.entry_id in here for o in offers)
        if seat.is_held and holder in here:
            page.qualified[holder] = seat
        elif seat.status == Status.VACATED and holder in here:
            page.gave_up[holder] = seat
        if not concerns:
            continue
        if seat.source == FinalSeat.Source.REPLACEMENT and seat.replaces_id in by_id:
            continue  # shown with the seat it replaces
        now = ""
        if seat.is_held:
            now = seat.holder_name
        else:
            taker = next(
                (s for s in seat_rows if s.replaces_id == seat.id and s.is_held),
                None,
            )
            now = taker.holder_name if taker else ""
        page.seats.append(
            SeatLine(
                seat=seat,
                holder=seat.holder_name if seat.holder_key else "",
                offers=offers,
                now=now,
                from_here=from_here,
            )
        )
    asked = {o.entry_id for s in seat_rows for o in s.offers.all()}
    if page.run and not page.run.provisional:
        queue = sorted(
            (
                r
                for r in rows
                if _in_queue(r)
                and r[row_key] not in page.qualified
                and r[row_key] not in page.gave_up
            ),
            key=lambda r: (r.get("qualifier_rank") or r.get("rank") or 0),
        )
        page.reserves = [
            Reserve(
                position=n,
                rank=r.get("rank"),
                name=r["name"],
                entry_id=r[row_key],
                asked=r[row_key] in asked,
            )
            for n, r in enumerate(queue, start=1)
        ]
    reserve_of = {r.entry_id: r for r in page.reserves}
    page.heats_left = heats_left(page.competition, page.run)
    # A seat that an undrawn lot in this table decides reads provisional (R-PAIR-TIE-1).
    pending = frozenset(undrawn_keys(page.standing_lots))
    offered: dict[int, SeatWords] = {}
    for o in (o for seat in seat_rows for o in seat.offers.all()):
        if o.answer == o.Answer.PENDING:
            offered[o.entry_id] = SeatWords(OFFERED)
        elif o.answer == o.Answer.DECLINED:
            offered.setdefault(o.entry_id, SeatWords(DECLINED))
    page.table = [
        RowView(
            row=r,
            key=r.get(row_key),
            seat=page.qualified.get(r.get(row_key)),
            reserve=reserve_of.get(r.get(row_key)),
            gave_up=page.gave_up.get(r.get(row_key)),
            words=_words(page, r.get(row_key), offered, pending),
        )
        for r in rows
    ]
    page.lots = [LotLine(lot) for lot in page.lots if heat.name in (lot.labels or {}).values()]
    page.provisional_lots = [
        lot
        for lot in explanation.get("lots", ())
        if not lot.get("recorded") and heat.name in lot.get("among", ())
    ]
    page.lines = [
        line
        for line in explanation.get("lines", ())
        if _names(line.get("message") or {}, heat.name)
    ]
    return page


def _words(page: HeatPage, key, offered: dict, pending: frozenset) -> SeatWords | None:
    """The row's final place in words: the seat it holds (provisional while a lot that decides
    it is not drawn, ``pending``), an offer waiting for its answer or declined, or the seat it
    gave up."""
    if key in page.qualified:
        return seat_words(page.qualified[key], page.heats_left, pending)
    if key in offered:
        return offered[key]
    if key in page.gave_up:
        return SeatWords(DECLINED)
    return None


def _in_queue(row: dict) -> bool:
    """A row that takes part in the qualifier: a pair that counts (``qualifier``), a team
    that is ranked and has not withdrawn."""
    if "qualifier" in row:
        return bool(row["qualifier"])
    return row.get("rank") is not None and not row.get("status_label")


def _names(message: dict, label: str) -> bool:
    """A stored sentence names the heat (its venue parameters hold the heat's label)."""
    for value in (message.get("params") or {}).values():
        if value == label or (isinstance(value, list) and label in value):
            return True
    return False


def competition_seats(competition) -> list[FinalSeat]:
    """The competition's seats with their holders' and their offers' names, in two queries."""
    return list(
        FinalSeat.objects.filter(competition=competition)
        .select_related(*seats.HOLDER_NAMES)
        .prefetch_related(
            Prefetch("offers", queryset=SeatOffer.objects.select_related(*seats.ENTRY_NAMES))
        )
        .order_by("id")
    )


def pair_heat_page(heat_id: int) -> HeatPage:
    """/par/kval/<id>/: a pairs heat's standing (both sessions of a two-session heat), who
    holds a seat from it, its reserves, its share of the final and the chain (7 queries)."""
    heat = (
        PairHeat.objects.select_related("competition__season")
        .prefetch_related("clubs")
        .filter(pk=heat_id)
        .first()
    )
    if heat is None:
        raise Http404("Okänt heat")
    competition = heat.competition
    snapshot = StandingSnapshot.objects.filter(
        scope=StandingSnapshot.Scope.PAIR_HEAT, heat=heat
    ).first()
    run = AllocationRun.objects.filter(competition=competition).first()
    seat_rows = competition_seats(competition)
    # The venue lots (R-ALLOC-5) and the lots inside tables (R-PAIR-TIE-1) in one read.
    all_lots = list(
        Lot.objects.filter(kind=Lot.Kind.PAIRS, competition=competition)
        .select_related("drawn_by")
        .order_by("drawn_at", "id")
    )
    page = HeatPage(
        kind="pairs",
        heat=heat,
        competition=competition,
        snapshot=snapshot,
        run=run,
        organisers=sorted(c.name for c in heat.clubs.all()),
        lots=[lot for lot in all_lots if not lot.standing],
        sessions=_heat_view(heat, snapshot),
        standing_lots=standing_lot_notes(competition, snapshot, lots=all_lots, heat=heat, run=run),
    )
    return _heat_page(page, seat_rows, "entry_id")


def team_heat_page(heat_id: int) -> HeatPage:
    """/lag/kval/<id>/: a team heat's standing, the teams that went to the final, its
    reserves, its share of the final, the chain and its schedule (8 queries)."""
    heat = TeamHeat.objects.select_related("competition__season").filter(pk=heat_id).first()
    if heat is None:
        raise Http404("Okänt heat")
    competition = heat.competition
    organisers = sorted(
        o.club.name for o in TeamHeatOrganiser.objects.filter(heat=heat).select_related("club")
    )
    snapshot = StandingSnapshot.objects.filter(
        scope=StandingSnapshot.Scope.TEAM_HEAT, heat=heat
    ).first()
    run = AllocationRun.objects.filter(competition=competition).first()
    seat_rows = competition_seats(competition)
    # The venue lots (R-ALLOC-5) and the lots inside tables (R-TEAM-TIE-1) in one read.
    all_lots = list(
        Lot.objects.filter(kind=Lot.Kind.TEAMS, competition=competition)
        .select_related("drawn_by")
        .order_by("drawn_at", "id")
    )
    lots = [lot for lot in all_lots if not lot.standing]
    page = HeatPage(
        kind="teams",
        heat=heat,
        competition=competition,
        snapshot=snapshot,
        run=run,
        organisers=organisers,
        lots=lots,
        standing_lots=standing_lot_notes(competition, snapshot, lots=all_lots, heat=heat, run=run),
        schedule=_schedule(heat),
    )
    return _heat_page(page, seat_rows, "team_id")


def _schedule(heat: TeamHeat) -> list[dict]:
    """The heat's matches round by round, as its schedule was saved (one query)."""
    rounds: dict[int, dict] = {}
    matches = (
        Match.objects.filter(heat=heat, stage=Match.Stage.KVAL)
        .select_related("home", "away")
        .order_by("round", "id")
    )
    for m in matches:
        r = rounds.setdefault(m.round, {"number": m.round, "played_on": m.played_on, "matches": []})
        if m.played_on and (r["played_on"] is None or m.played_on < r["played_on"]):
            r["played_on"] = m.played_on
        r["matches"].append(m)
    return [rounds[k] for k in sorted(rounds)]


@dataclass
class FinalGroup:
    """The pairs holding a seat in the final that came from one heat (``heat`` None: the
    direct qualifiers and the pairs entered straight into a direct final)."""

    heat: PairHeat | None
    holders: list[SeatHolder]


@dataclass
class FinalPage:
    competition: PairCompetition
    groups: list[FinalGroup]
    snapshot: StandingSnapshot | None
    run: AllocationRun | None
    #: the ties in the final's table that cross the SM places (R-PAIR-TIE-1), drawn or not
    final_lots: list = field(default_factory=list)

    @property
    def lot_pending(self) -> frozenset[str]:
        """The pairs whose SM place waits on a lot TK has not drawn: it reads provisional."""
        return frozenset(undrawn_keys(self.final_lots))

    @property
    def data(self) -> dict:
        return self.snapshot.data if self.snapshot and self.snapshot.data else {}

    @property
    def champions(self) -> list[dict]:
        return [r for r in self.data.get("rows", ()) if r.get("title")]

    @property
    def sm_rows(self) -> list[dict]:
        return sorted(
            (r for r in self.data.get("rows", ()) if r.get("sm_place")),
            key=lambda r: r["sm_place"],
        )

    @property
    def passed_over(self) -> list[dict]:
        return [r for r in self.data.get("rows", ()) if r.get("sm_passed_over")]

    @property
    def out_of_district(self) -> int:
        return sum(1 for r in self.data.get("rows", ()) if r.get("out_of_district"))

    @property
    def holders_count(self) -> int:
        return sum(len(g.holders) for g in self.groups)


def pair_final_page(competition_id: int) -> FinalPage:
    """/par/final/<id>/: the qualified pairs by heat (:func:`pairs.selectors.final_seat_holders`),
    the final's ranking when played with champions, plaques, bonus and SM places (the
    PAIR_FINAL snapshot, R-PAIR-MP-*, R-PAIR-2, R-PAIR-4), in 7 queries."""
    competition = PairCompetition.objects.select_related("season").filter(pk=competition_id).first()
    if competition is None:
        raise Http404("Okänd tävling")
    heats = {
        h.id: h for h in PairHeat.objects.filter(competition=competition).order_by("first_date")
    }
    holders = final_seat_holders(competition)
    by_heat: dict[int | None, list[SeatHolder]] = {}
    for h in holders:
        heat_id = h.seat.origin_heat_id or h.holder.heat_id
        by_heat.setdefault(heat_id if heat_id in heats else None, []).append(h)
    groups = [FinalGroup(heats[i], by_heat[i]) for i in heats if i in by_heat]
    if None in by_heat:
        groups.append(FinalGroup(None, by_heat[None]))
    snapshot = StandingSnapshot.objects.filter(
        scope=StandingSnapshot.Scope.PAIR_FINAL, competition=competition
    ).first()
    run = AllocationRun.objects.filter(competition=competition).first()
    lots = (
        list(
            Lot.objects.filter(competition=competition, standing=PAIR_FINAL).select_related(
                "drawn_by"
            )
        )
        if snapshot is not None
        else []
    )
    return FinalPage(
        competition=competition,
        groups=groups,
        snapshot=snapshot,
        run=run,
        final_lots=standing_lot_notes(competition, snapshot, lots=lots),
    )

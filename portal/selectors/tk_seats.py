"""TK's page of a final's seats (/tk/finalplatser/<competition>/, R-REPL-3, R-REPL-5): every seat
of the final with its holder, its state in words and why, every offer made for it (to whom,
when, the answer and when, who recorded it, why), the chain's next step as the recompute stored
it, and for a seat nobody holds and no offer waits for, what TK may decide: offer it to an entry
of TK's choice (R-REPL-5, and R-REPL-3 when nobody is left to ask) or leave it empty (R-REPL-3).
The same for DM Par and DM Lag: one ``clubs.FinalSeat``, one ``clubs.SeatOffer``.

Read side only, a fixed number of queries whatever the size of the final; the decisions are
``clubs.services.seats``'s."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.http import Http404

from clubs import seats
from clubs.models import Competition, FinalSeat, SeatOffer
from pairs.models import PairEntry
from results.models import AllocationRun
from results.seat_states import SeatWords, heats_left, seat_words
from teams.models import Team
from ubf.rules import replacement


@dataclass
class SeatView:
    seat: FinalSeat
    words: SeatWords
    offers: list[SeatOffer]
    #: the chain's stored view of the seat (``AllocationRun.explanation["chain"]``), if any
    chain: dict | None = None

    @property
    def pending(self) -> SeatOffer | None:
        return next((o for o in self.offers if o.answer == SeatOffer.Answer.PENDING), None)

    @property
    def nobody_left(self) -> bool:
        """R-REPL-3: the chain has nobody left to ask for the seat."""
        return bool(self.chain) and self.chain.get("status") == replacement.TK_DECIDES

    @property
    def open(self) -> bool:
        """TK may decide on it (R-REPL-5): given up, or never filled, and no offer waiting."""
        return self.seat.status == FinalSeat.Status.VACATED and self.pending is None

    @property
    def next_step(self) -> dict | None:
        steps = (self.chain or {}).get("steps") or []
        return steps[-1] if steps else None


@dataclass
class FinalSeatsPage:
    competition: object  # the pair or team competition
    seats: list[SeatView]
    #: (entry id, name) of the entries TK may offer a seat to: entered, holding no seat, not
    #: waiting for an answer
    candidates: list[tuple[int, str]] = field(default_factory=list)
    run: AllocationRun | None = None

    @property
    def teams(self) -> bool:
        return self.competition.kind == Competition.Kind.TEAMS

    @property
    def to_decide(self) -> list[SeatView]:
        return [s for s in self.seats if s.open]


def final_seats_page(competition_id: int) -> FinalSeatsPage:
    """The page of ``competition_id``'s final (Http404 for an unknown competition): five
    queries (six while the allocation run does not yet store its heats left)."""
    parent = (
        Competition.objects.select_related("season", "paircompetition", "teamcompetition")
        .filter(pk=competition_id)
        .first()
    )
    if parent is None:
        raise Http404("Okänd tävling")
    competition = parent.specific
    rows = list(
        FinalSeat.objects.filter(competition_id=competition.pk)
        .select_related(*seats.HOLDER_NAMES)
        .prefetch_related(
            Prefetch(
                "offers",
                queryset=SeatOffer.objects.select_related(
                    "recorded_by", *seats.ENTRY_NAMES
                ).order_by("offered_at", "id"),
            ),
        )
        .order_by("id")
    )
    run = AllocationRun.objects.filter(competition_id=competition.pk).first()
    chain = {c["seat"]: c for c in (run.explanation or {}).get("chain", [])} if run else {}
    left = heats_left(competition, run)
    views = [
        SeatView(
            seat=s,
            words=seat_words(s, left),
            offers=list(s.offers.all()),
            chain=chain.get(s.chain_key),
        )
        for s in rows
    ]
    busy = {s.holder_id for s in rows if s.is_held} | {
        o.entry_id for s in rows for o in s.offers.all() if o.answer == SeatOffer.Answer.PENDING
    }
    if competition.kind == Competition.Kind.TEAMS:
        entries = Team.objects.filter(competition=competition, status=Team.Status.ENTERED)
        candidates = [
            (t.pk, f"{t.name} ({t.heat.name})" if t.heat_id else t.name)
            for t in entries.select_related("heat").order_by("heat__name", "number", "name")
            if t.pk not in busy
        ]
    else:
        entries = PairEntry.objects.filter(
            competition=competition, status=PairEntry.Status.ENTERED
        ).select_related("heat", "player1", "player2")
        candidates = [
            (e.pk, f"{e} ({e.heat.name}, {e.pair_number})" if e.heat_id else str(e))
            for e in entries.order_by("heat__first_date", "heat__name", "pk")
            if e.pk not in busy
        ]
    return FinalSeatsPage(competition=competition, seats=views, candidates=candidates, run=run)

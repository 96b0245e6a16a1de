"""What a final place is, in words, for every public page and API field that shows one (issue 21):
one reading of the seat rows (:class:`clubs.models.FinalSeat`, its :attr:`state`) and of the
competition's heats, shared by DM Par and DM Lag.

- "preliminärt, X heat kvar": the seat follows the standings and X heats of the competition are
  not yet played and in (R-ALLOC-5: the allocation is provisional until every heat is in);
- "kvalificerat": the allocation is final (every heat in), the seat is decided, or a
  replacement accepted it (R-REPL-5, R-REPL-6);
- "direktkvalificerat": a direct qualifier's seat (R-DIRECT-1, R-TEAM-DIRECT-1);
- "tillfrågat som ersättare": an offer of a seat given up waits for the answer (R-REPL-5);
- "tackat nej": the seat was given up, or the entry said no to an offer (R-REPL-1, R-REPL-5).

A seat whose holder is settled by a lot inside a heat's table that TK has not drawn yet reads
"preliminärt, lott ej dragen" (R-PAIR-TIE-1, R-TEAM-TIE-1): the recompute stores those holders
with the allocation (``AllocationRun.explanation["lot_pending"]``, :func:`lot_pending`).

A provisional allocation never reads as a decided one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, Subquery
from django.utils.translation import gettext, ngettext

from clubs import seats
from clubs.models import FinalSeat, HeatStatus, SeatOffer
from pairs.models import PairHeat
from results.models import AllocationRun, StandingSnapshot
from teams.models import TeamHeat

PROVISIONAL = "provisional"
QUALIFIED = "qualified"
DIRECT = "direct"
OFFERED = "offered"
DECLINED = "declined"


@dataclass(frozen=True)
class SeatWords:
    """A final place as the public pages say it: ``state`` (one of the module's five) and, while
    provisional, the competition's heats still to be played and in."""

    state: str
    heats_left: int = 0
    #: provisional because a lot inside the heat's table is not drawn yet (R-PAIR-TIE-1)
    lot_pending: bool = False

    @property
    def provisional(self) -> bool:
        return self.state == PROVISIONAL

    @property
    def text(self) -> str:
        """The words, in the reader's language."""
        if self.state == PROVISIONAL:
            if self.lot_pending and not self.heats_left:
                return gettext("preliminärt, lott ej dragen")
            if self.heats_left:
                return ngettext(
                    "preliminärt, %(n)s heat kvar", "preliminärt, %(n)s heat kvar", self.heats_left
                ) % {"n": self.heats_left}
            return gettext("preliminärt")
        if self.state == DIRECT:
            return gettext("direktkvalificerat")
        if self.state == OFFERED:
            return gettext("tillfrågat som ersättare")
        if self.state == DECLINED:
            return gettext("tackat nej")
        return gettext("kvalificerat")

    def __str__(self) -> str:
        return self.text


def _heats(competition):
    if competition.kind == competition.Kind.PAIRS:
        return PairHeat, StandingSnapshot.Scope.PAIR_HEAT
    return TeamHeat, StandingSnapshot.Scope.TEAM_HEAT


def heats_left(competition, run=None) -> int:
    """The competition's heats (not rejected or cancelled) whose standing is not yet complete:
    not played, or not every result uploaded (a heat's standing is provisional until then).
    ``run``: the competition's :class:`results.models.AllocationRun`, which stores the figure
    when it is computed (no query); else one query."""
    stored = (run.explanation or {}).get("heats_left") if run else None
    if stored is not None:
        return int(stored)
    heat_model, scope = _heats(competition)
    done = StandingSnapshot.objects.filter(scope=scope, heat_id=OuterRef("pk"), provisional=False)
    return (
        heat_model.objects.filter(competition_id=competition.pk)
        .exclude(status__in=[HeatStatus.REJECTED, HeatStatus.CANCELLED])
        .exclude(Exists(done))
        .count()
    )


def held_words(status: str, source: str, left: int) -> SeatWords:
    """A held seat's words from its status and source alone (a page that annotated them on
    the holder, no query): a replacement's or a confirmed seat is decided (R-REPL-6)."""
    if source == FinalSeat.Source.DIRECT:
        return SeatWords(DIRECT)
    if status == FinalSeat.Status.PROVISIONAL and source != FinalSeat.Source.REPLACEMENT:
        return SeatWords(PROVISIONAL, left) if left else SeatWords(QUALIFIED)
    return SeatWords(QUALIFIED)


def annotate_held(holders):
    """``holders`` (pair entries or teams) with their held seat's ``final_seat_status`` and
    ``final_seat_source`` (in the same query), for :func:`held_words`."""
    seat = seats.held_by(OuterRef("pk")).order_by("-id")
    return holders.annotate(
        final_seat_status=Subquery(seat.values("status")[:1]),
        final_seat_source=Subquery(seat.values("source")[:1]),
    )


def lot_pending(run) -> frozenset[str]:
    """The entries (their keys) whose seat waits on a lot inside a table that TK has not drawn,
    as the recompute stored them with the allocation ``run`` (no query)."""
    return frozenset((run.explanation or {}).get("lot_pending", ())) if run else frozenset()


def pending_words(words: SeatWords, left: int) -> SeatWords:
    """A held seat's words while a lot that decides it is not drawn: provisional (a decided
    seat or a replacement's own seat never waits on a lot: it does not follow the table)."""
    if words.state in (PROVISIONAL, QUALIFIED):
        return SeatWords(PROVISIONAL, left, lot_pending=True)
    return words


def seat_words(seat: FinalSeat, left: int, pending: frozenset = frozenset()) -> SeatWords:
    """One seat's words (:attr:`clubs.models.FinalSeat.state` said in five words), ``left``
    the competition's heats still to come (:func:`heats_left`), ``pending`` the holders waiting
    on a lot (:func:`lot_pending`). Reads ``offers`` (prefetch them for a list)."""
    if seat.status == FinalSeat.Status.VACATED or seat.holder_key is None:
        # State.OFFERED; State.DECLINED and State.REPLACED both read "tackat nej" (its holder
        # gave it up or the last asked said no), so ``replaced_by`` need not be read
        pending_offer = any(o.answer == SeatOffer.Answer.PENDING for o in seat.offers.all())
        return SeatWords(OFFERED if pending_offer else DECLINED)
    words = held_words(seat.status, seat.source, left)
    if pending and seat.holder_key in pending and not seat.is_decided:
        return pending_words(words, left)
    return words


def seat_reading(competition) -> tuple[int, frozenset]:
    """The competition's heats still to come and the holders waiting on a lot, from its
    allocation run (one query; two for a run stored before ``heats_left`` was)."""
    run = AllocationRun.objects.filter(competition=competition).first()
    return heats_left(competition, run), lot_pending(run)


def _seats(competition):
    return list(
        FinalSeat.objects.filter(competition=competition)
        .prefetch_related(
            Prefetch("offers", queryset=SeatOffer.objects.order_by("offered_at", "id"))
        )
        .order_by("id")
    )


def seat_states(competition, run=None) -> dict[str, SeatWords]:
    """Every seat of the competition (by its chain key, as the allocation's stored seats name
    it) with its words: three queries for the seats (and one for the heats without ``run``)."""
    left, pending = heats_left(competition, run), lot_pending(run)
    return {s.chain_key: seat_words(s, left, pending) for s in _seats(competition)}


def seat_words_by_id(competition) -> dict[int, SeatWords]:
    """As :func:`seat_states`, by the seat rows' ids (the API's seat endpoints)."""
    left, pending = seat_reading(competition)
    return {s.pk: seat_words(s, left, pending) for s in _seats(competition)}


def entry_states(competition) -> dict[int, SeatWords]:
    """Each entry (pair entry id, team id) that holds, was offered or gave up a final place,
    with its words: the seat it holds first, else a pending offer ("tillfrågat som ersättare"),
    else a seat given up or an offer declined ("tackat nej")."""
    left, pending = seat_reading(competition)
    rows = _seats(competition)
    out: dict[int, SeatWords] = {}
    for seat in rows:
        if seat.is_held:
            out[seat.holder_id] = seat_words(seat, left, pending)
    for seat in rows:
        for offer in seat.offers.all():
            if offer.answer == offer.Answer.PENDING:
                out.setdefault(offer.entry_id, SeatWords(OFFERED))
    for seat in rows:
        if seat.holder_id and seat.status == FinalSeat.Status.VACATED:
            out.setdefault(seat.holder_id, SeatWords(DECLINED))
        for offer in seat.offers.all():
            if offer.answer == offer.Answer.DECLINED:
                out.setdefault(offer.entry_id, SeatWords(DECLINED))
    return out


def annotate_explanation(run, competition) -> None:
    """Give each seat the allocation's stored explanation lists (``run.explanation["seats"]``,
    keyed by the chain's key) its words as ``state`` (in memory, for the page)."""
    if not run or not run.explanation.get("seats"):
        return
    words = seat_states(competition, run)
    for seat in run.explanation["seats"]:
        if seat.get("key") in words:
            seat["state"] = words[seat["key"]]

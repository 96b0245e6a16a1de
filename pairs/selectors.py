"""Read side of DM Par: questions about stored pairs that several layers ask, answered once.

``final_seat_holders`` is the one answer to "who holds a seat in the final, and who plays
it": the entries side (R-PAIR-RES-4 partner), the final's upload, the final's fee list and
the pages all use it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from clubs import seats as seat_rows
from clubs.models import FinalSeat, Player, Representation
from pairs.models import (
    FINAL_SESSION,
    PairCompetition,
    PairEntry,
    ReserveNotice,
    pair_key,
)


@dataclass(frozen=True)
class SeatHolder:
    """A pair holding a seat in a pairs final.

    ``registered`` is the pair that holds the seat (it pays the final fee); ``playing`` is the
    pair that sits down at the final: the same, unless a final reserve has been notified
    (R-PAIR-RES-1, a ``ReserveNotice`` for ``FINAL_SESSION``), which takes the replaced
    player's place."""

    seat: FinalSeat
    holder: PairEntry
    registered: tuple[Player, Player]
    playing: tuple[Player, Player]

    @property
    def key(self) -> str:
        """The playing pair's key ("mid1-mid2", sorted), as the final's result file has it."""
        return pair_key(self.playing[0].mid, self.playing[1].mid)

    def partner_of(self, mid: str) -> str | None:
        """The MID ``mid`` plays the final with, or None when ``mid`` does not play it."""
        mids = [p.mid for p in self.playing]
        return next((m for m in mids if m != mid), None) if mid in mids else None


def final_seat_holders(competition: PairCompetition) -> list[SeatHolder]:
    """Every pair holding a seat (not vacated) in ``competition``'s final, in seat order, each
    once; in three queries whatever the size of the final."""
    final_notices = Prefetch(
        "holder__pairentry__reserve_notices",
        queryset=ReserveNotice.objects.filter(session=FINAL_SESSION)
        .select_related("replaced_player", "reserve")
        .order_by("notified_at", "id"),
        to_attr="final_notices",
    )
    seats = (
        seat_rows.held(competition)
        .select_related("holder__pairentry__player1", "holder__pairentry__player2")
        .prefetch_related(final_notices)
        .order_by("id")
    )
    out: list[SeatHolder] = []
    seen: set[int] = set()
    for seat in seats:
        # a heat entry, a direct qualifier, or a pair entered straight into a direct final
        holder = seat.holder.pairentry
        if holder.pk in seen:
            continue
        seen.add(holder.pk)
        registered = (holder.player1, holder.player2)
        swap = {n.replaced_player_id: n.reserve for n in getattr(holder, "final_notices", [])}
        playing = tuple(swap.get(p.pk, p) for p in registered)
        out.append(SeatHolder(seat, holder, registered, playing))
    return out


def final_reserve_rows(competition: PairCompetition, club_ids=None) -> list[SeatHolder]:
    """R-PAIR-RES-2: the pairs holding a seat in the final for which a reserve can be notified
    (:func:`final_seat_holders`, with their final reserves), of the clubs ``club_ids`` (a pair
    is its club's when one of its regulars represents the club this season; ``None``: every
    pair, for TK). One query more than :func:`final_seat_holders`."""
    holders = final_seat_holders(competition)
    if club_ids is None:
        return holders
    wanted = set(club_ids)
    clubs_of: dict[int, set[int]] = {}
    for player_id, club_id in Representation.objects.filter(
        season_id=competition.season_id,
        player_id__in=[p.pk for h in holders for p in h.registered],
    ).values_list("player_id", "club_id"):
        clubs_of.setdefault(player_id, set()).add(club_id)
    return [h for h in holders if any(clubs_of.get(p.pk, set()) & wanted for p in h.registered)]

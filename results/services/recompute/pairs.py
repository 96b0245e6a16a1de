"""DM Par recompute: heat standings (R-PAIR-TIE-1..3), qualifying counts, the allocation of
final seats (R-ALLOC-*), seat holders and the replacement chain (R-REPL-*), and the final's
ranking with SM places, plaques and masterpoints."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction
from django.db.models import Prefetch

from clubs import clock, seats
from clubs.models import FinalSeat, HeatStatus, Representation, SeatOffer
from clubs.services.season import mp_table
from pairs.models import PairCompetition, PairEntry, PairHeat
from results.models import (
    Lot,
    PairFinalResult,
    PairFinalTraveller,
    PairResult,
    PairTraveller,
    ResultUpload,
    StandingSnapshot,
)
from results.services.allocation import Venue, allocate_final, step_reasons, venue_key
from results.services.lots import (
    PAIR_FINAL,
    mark_ties,
    pair_heat_standing,
    standing_draw,
    ties_of,
    undrawn_keys,
)
from results.services.recompute.common import finish, lock_competition, save_snapshots
from ubf.rules.allocation import final_size_pairs
from ubf.rules.heats import PairHeatEntries, qualifying_pairs
from ubf.rules.i18n import Message, as_data, gettext_noop
from ubf.rules.masterpoints import (
    pair_bonus,
    pair_final_masterpoints,
)
from ubf.rules.people import UBF
from ubf.rules.sm import sm_places as sm_places_rule
from ubf.rules.sm import sm_quota_basis
from ubf.rules.standings import plaque_places, rank_pairs
from ubf.rules.types import Discipline

log = logging.getLogger(__name__)

CENT = Decimal("0.01")


def recompute_pair_competition(pair_competition_id: int, heat_ids=None) -> None:
    """Heat standings (R-PAIR-TIE-1..3), qualifying counts (R-ALLOC-1, R-PAIR-KVAL-5/7), the
    allocation of final seats (R-ALLOC-2..6), the seat holders and the replacement chain
    (R-REPL-*), with the final seats and offers kept in step (accepted seats never move).

    ``heat_ids``: only these heats' results changed (an upload). Their standings are computed
    again; every other heat's ranking is read from its stored snapshot, which is what the last
    full recompute computed from the same data. ``None`` recomputes every heat (TK decisions
    such as a struck entry or a declared pair change more than one heat's inputs)."""
    with transaction.atomic():
        lock_competition(pair_competition_id)
        competition = PairCompetition.objects.select_related("season").get(pk=pair_competition_id)
        started_at = clock.now()
        rules = competition.season.rules()

        heats = list(
            PairHeat.objects.filter(competition=competition, status=HeatStatus.APPROVED)
            .prefetch_related("clubs")
            .order_by("first_date", "id")
        )
        # A heat's accepted files: one for the whole heat, or one per session (R-PAIR-KVAL-6).
        uploads: dict[int, list[ResultUpload]] = defaultdict(list)
        for u in ResultUpload.objects.filter(
            heat__in=heats, status=ResultUpload.Status.ACCEPTED
        ).order_by("session", "id"):
            uploads[u.heat_id].append(u)
        stored = {
            s.heat_id: s
            for s in StandingSnapshot.objects.filter(
                scope=StandingSnapshot.Scope.PAIR_HEAT, heat__in=heats
            )
        }
        changed = None if heat_ids is None else {int(h) for h in heat_ids}
        reused = {
            h.id
            for h in heats
            if changed is not None
            and h.id not in changed
            and h.id in uploads
            and h.id in stored
            and not stored[h.id].provisional
            # computed from exactly the heat's accepted files: a corrected file has a new id
            # (its time may be earlier than the standing's once TK moved the demo clock back)
            and stored[h.id].upload_ids == sorted(u.id for u in uploads[h.id])
        }
        fresh_uploads = [u for h, us in uploads.items() if h not in reused for u in us]
        session_of = {u.id: u.session for u in fresh_uploads}
        results_by_upload = defaultdict(list)
        for r in PairResult.objects.filter(upload__in=fresh_uploads):
            results_by_upload[r.upload_id].append(r)
        lines_by_upload = defaultdict(list)
        for t in PairTraveller.objects.filter(upload__in=fresh_uploads).values_list(
            "upload_id", "board_number", "ns_id", "ew_id", "mp_ns", "mp_ew"
        ):
            # R-PAIR-TIE-1 over both sessions: a board is (session, number) when the heat
            # came in one file per session (both sessions may number their boards from 1).
            board = t[1] if session_of[t[0]] is None else (session_of[t[0]], t[1])
            lines_by_upload[t[0]].append(
                {"board": board, "ns": str(t[2]), "ew": str(t[3]), "mp_ns": t[4], "mp_ew": t[5]}
            )
        entries = {
            e.id: e
            for e in PairEntry.objects.filter(
                heat__in=[h for h in heats if h.id not in reused]
            ).select_related("player1", "player2")
        }
        names = {
            str(e.id): f"{e.player1.full_name} – {e.player2.full_name}" for e in entries.values()
        }
        # R-REPL-7: a direct qualifier that gave its seat up keeps the seat reserved; the
        # chain fills it. One that forfeited its place (R-DIRECT-2) has none.
        directs = list(
            PairEntry.objects.filter(
                competition=competition,
                entered_as=PairEntry.EnteredAs.DIRECT,
                status__in=[PairEntry.Status.ENTERED, PairEntry.Status.DECLINED],
            ).select_related("player1", "player2")
        )
        direct_pairs = {frozenset((d.player1_id, d.player2_id)): d for d in directs}
        # R-ALLOC-2: a direct qualifier that played a heat together counts there.
        played_together = {
            (e_heat, e_id): direct_pairs[frozenset((p1, p2))]
            for e_id, e_heat, p1, p2 in PairEntry.objects.filter(
                heat__in=heats, player1_id__in=[p for pair in direct_pairs for p in pair]
            ).values_list("id", "heat_id", "player1_id", "player2_id")
            if frozenset((p1, p2)) in direct_pairs
        }
        direct: dict[str, str | None] = {}

        # R-PAIR-TIE-1: the lots TK drew for ties inside the tables, read once.
        table_lots = list(Lot.objects.filter(competition=competition).exclude(standing=""))
        venues, snapshots = [], []
        for heat in heats:
            key = venue_key(c.id for c in heat.clubs.all())
            for (heat_id, entry_id), _dq in played_together.items():
                if heat_id == heat.id:
                    direct[str(entry_id)] = key
            if heat.id in reused:
                venues.append(_venue_from_snapshot(heat, key, stored[heat.id], names))
                continue
            venue, snapshot = _rank_pair_heat(
                heat,
                key,
                competition,
                rules,
                [e for e in entries.values() if e.heat_id == heat.id],
                uploads.get(heat.id, []),
                results_by_upload,
                lines_by_upload,
                names,
                table_lots,
            )
            venues.append(venue)
            snapshots.append(snapshot)
        save_snapshots(stored.values(), snapshots)
        for d in directs:
            if d not in played_together.values():
                direct[str(d.id)] = None
                names[str(d.id)] = f"{d.player1.full_name} – {d.player2.full_name}"
        qualifying_total = sum(v.entries for v in venues)
        size = final_size_pairs(qualifying_total, rules=rules)
        # R-ALLOC-1: if fewer pairs qualified than the size, all of them go on.
        size = min(size, qualifying_total + sum(1 for v in direct.values() if v is None))
        run, allocation, holders, chain = allocate_final(
            kind=Lot.Kind.PAIRS,
            season=competition.season,
            competition=competition,
            final_size=size,
            direct=direct,
            venues=venues,
            names=names,
            **_pair_chain_inputs(competition),
        )
        _sync_final_seats(competition, heats, venues, allocation, holders, chain, run, direct)
        # R-PAIR-TIE-1: the pairs whose seat (or place in the chain) waits on a lot TK has not
        # drawn; their seats read provisional ("lott ej dragen") wherever a seat is shown.
        fresh = {snap.heat_id: snap for snap in snapshots}
        run.explanation["lot_pending"] = sorted(
            undrawn_keys(
                tie
                for heat in heats
                if (snap := fresh.get(heat.id) or stored.get(heat.id)) is not None
                for tie in ties_of(competition, snap, heat=heat, run=run, lots=table_lots)
            )
        )
        # Each seat and offer says why (clause and figures), shown with the allocation.
        run.explanation["seats"] = seats.seat_rows_data(
            FinalSeat.objects.filter(competition=competition)
            .select_related(*seats.HOLDER_NAMES)
            .prefetch_related(
                Prefetch("offers", queryset=SeatOffer.objects.select_related(*seats.ENTRY_NAMES))
            )
            .order_by("id")
        )
        _rank_pair_final(competition, rules)
        # R-PAIR-4: the pairs that started in DM kval (the heats' qualifying pairs, counted
        # above) or in a direct final, plus the reigning champions' free place.
        champion_entry = next((str(e) for (_h, e), _dq in played_together.items()), None)
        basis = sm_quota_basis(
            counted_heats=[(v.label, v.ranking) for v in venues],
            direct_final_pairs=PairFinalResult.objects.filter(competition=competition).count()
            if competition.is_direct_final
            else 0,
            reigning_champion_free_place=bool(directs),
            champion_pair=champion_entry,
        )
        run.explanation["sm_quota_basis"] = {
            "total": basis.total,
            "from_heats": basis.from_heats,
            "from_direct_final": basis.from_direct_final,
            "champion_free_place": basis.champion_free_place,
        }
        run.save(update_fields=["explanation"])

        finish(competition, started_at)


#: The parameters of ``rank_pairs``' explanations that hold pair keys ("12, 15").
_KEY_PARAMS = ("others", "mates", "among")


def named_explanation(explanation, names: dict[str, str]) -> list[dict]:
    """R-PAIR-TIE-1 as a person reads it: the tie-break notes of ``rank_pairs`` with the pair
    keys in their sentences ("Vunna brickor mot 12, 15") replaced by the pairs' names."""
    out = []
    for entry in explanation:
        message = entry.get("message") or {}
        params = message.get("params") or {}
        if any(isinstance(params.get(k), str) for k in _KEY_PARAMS):
            params = {
                k: ", ".join(names.get(x, x) for x in v.split(", "))
                if k in _KEY_PARAMS and isinstance(v, str)
                else v
                for k, v in params.items()
            }
            entry = {**entry, "message": {**message, "params": params}}
        out.append(entry)
    return out


def _venue_from_snapshot(heat, key: str, snapshot: StandingSnapshot, names: dict) -> Venue:
    """A heat whose results did not change: its ranking as the stored snapshot has it."""
    rows = snapshot.data
    for r in rows:
        names[str(r["entry_id"])] = r["name"]
    return Venue(
        key=key,
        label=heat.name,
        entries=sum(1 for r in rows if r.get("qualifier")),
        ranking=[
            str(r["entry_id"])
            for r in sorted(
                (r for r in rows if r.get("qualifier")),
                key=lambda r: r.get("qualifier_rank") or 0,
            )
        ],
        struck={str(r["entry_id"]) for r in rows if r.get("rank") is None},
        complete=True,
    )


@dataclass
class HeatResult:
    """A pair's result in a heat, from one file or from both session files together."""

    total: Decimal
    percentage: Decimal
    boards_played: int
    #: Per session of a heat uploaded one file per session: {"total", "percentage",
    #: "boards_played"} or None where the pair has no result in that session.
    sessions: list[dict | None] = field(default_factory=list)


@dataclass
class HeatResults:
    results: dict[str, HeatResult]  # entry id -> result, the pairs that are ranked
    partial: dict[str, HeatResult]  # entry id -> result, pairs missing from a session
    complete: bool  # every session of the heat is in
    sessions_in: list[int]  # the sessions in, of a heat uploaded one file per session


def combine_sessions(session_count: int, uploads, results_by_upload) -> HeatResults:
    """A heat's result from its accepted files (R-PAIR-KVAL-6: at most two sessions).

    One file of the whole heat (``session`` empty) is the result as it stands. Two session
    files are added up: a pair's total is the sum of its two session totals, its boards
    played the sum of both, and its percentage its matchpoints over both sessions divided by
    the most it could have scored on the boards it played in both (each session's boards
    played × that session's top): Σ MP / Σ max × 100, rounded to hundredths. That is the
    cumulative ``TotalPercentage`` Magic Contest writes beside the session columns
    (``TotalScoreMP`` over ``NrBoards`` × top), i.e. the heat as one event over all its boards;
    it is the boards-weighted mean of the two session percentages when both sessions have the
    same top, and it differs from the plain mean of the two percentages when a pair played a
    different number of boards in the two sessions (a sit-out in a Howell), where the mean
    would give the boards of the shorter session more weight (docs/result-formats.md).

    A pair in one session but not in the other (both in) did not play every session
    (R-PAIR-RES-1) and goes to ``partial``. While one session of two is missing the heat is
    not ``complete``: its standing is provisional, over the session(s) in."""
    session_files = [u for u in uploads if u.session is not None]
    whole = [u for u in uploads if u.session is None]
    if whole or not session_files:
        rows = results_by_upload.get(whole[0].id, []) if whole else []
        return HeatResults(
            results={
                str(r.entry_id): HeatResult(r.total, r.percentage, r.boards_played) for r in rows
            },
            partial={},
            complete=bool(whole),
            sessions_in=[],
        )
    by_session = {u.session: results_by_upload.get(u.id, []) for u in session_files}
    sessions_in = sorted(by_session)
    per_pair: dict[str, dict[int, object]] = defaultdict(dict)
    for n, rows in by_session.items():
        for r in rows:
            per_pair[str(r.entry_id)][n] = r
    results, partial = {}, {}
    for pair, got in per_pair.items():
        rows = list(got.values())
        maximum = sum((r.maximum for r in rows), Decimal(0))
        if len(rows) == 1:
            percentage = rows[0].percentage
        else:
            mp = sum((r.matchpoints for r in rows), Decimal(0))
            percentage = (mp / maximum * 100).quantize(CENT, ROUND_HALF_UP) if maximum else CENT * 0
        result = HeatResult(
            total=sum((r.total for r in rows), Decimal(0)),
            percentage=percentage,
            boards_played=sum(r.boards_played for r in rows),
            sessions=[
                {
                    "total": f"{got[n].total:.2f}",
                    "percentage": f"{got[n].percentage:.2f}",
                    "boards_played": got[n].boards_played,
                }
                if n in got
                else None
                for n in range(1, session_count + 1)
            ],
        )
        if len(got) == len(sessions_in):
            results[pair] = result
        else:
            partial[pair] = result
    return HeatResults(
        results=results,
        partial=partial,
        complete=len(sessions_in) == session_count,
        sessions_in=sessions_in,
    )


def _rank_pair_heat(
    heat,
    key,
    competition,
    rules,
    heat_entries,
    uploads,
    results_by_upload,
    lines_by_upload,
    names,
    table_lots=(),
) -> tuple[Venue, StandingSnapshot]:
    """One heat's ranking (R-PAIR-TIE-1..3) and qualifying pairs (R-PAIR-KVAL-5/7, R-ALLOC-1).

    ``uploads``: the heat's accepted files (:func:`combine_sessions`). A heat of two sessions
    with one session in is shown provisionally ("efter speltillfälle 1 av 2") and counts for
    the allocation as not yet played: its registered pairs are counted, none of them holds a
    seat yet, and the allocation stays provisional until both sessions are in.

    R-PAIR-TIE-1 "when their order matters for final places": the pairs that take part in the
    qualifier (in a bronze heat, those that declared, R-PAIR-KVAL-5) are separated among
    themselves, and a pair outside the qualifier on the same score follows them
    (``ubf.rules.standings.rank_pairs(qualifying=...)``): one order, published and followed by
    the seats alike (issue 21). A tie the criteria leave is settled by a lot TK drew for this
    table (``results.services.lots.standing_draw``), else by the fixed seed and marked on the
    rows as undrawn ("lott ej dragen"), which /tk/ queues where it matters."""
    by_id = {e.id: e for e in heat_entries}
    combined = combine_sessions(len(heat.session_dates), uploads, results_by_upload)
    results = combined.results
    played, final = bool(results or combined.partial), combined.complete
    lines = [line for u in uploads for line in lines_by_upload.get(u.id, [])]
    struck = {str(e.id) for e in heat_entries if e.status != PairEntry.Status.ENTERED}
    ranked_ids = [p for p in results if p not in struck]
    counted = qualifying_pairs(
        PairHeatEntries(
            heat_type=heat.heat_type,
            pairs=tuple(str(e.id) for e in heat_entries if not final or str(e.id) in results),
            declared=frozenset(str(e.id) for e in heat_entries if e.takes_part_in_qualifier),
            struck=frozenset(struck),
            boards_played_max=max((r.boards_played for r in results.values()), default=0)
            if final
            else None,
        ),
        rules,
    )
    qualifying = set(counted.pairs)
    draw, ties = standing_draw(
        competition,
        pair_heat_standing(heat.id),
        f"{competition.season.name}/{competition.discipline}/{heat.id}",
        recorded=table_lots,
    )
    standings = (
        rank_pairs(
            ranked_ids,
            {p: results[p].percentage for p in ranked_ids},
            lines,
            draw=draw,
            qualifying=qualifying,
        )
        if played
        else []
    )
    qualifier_order = [st.pair for st in standings if st.pair in qualifying]
    qualifier_rank = {pair: i for i, pair in enumerate(qualifier_order, start=1)}

    def figures(result: HeatResult) -> dict:
        row = {
            "percentage": f"{result.percentage:.2f}",
            "total": f"{result.total:.2f}",
            "boards_played": result.boards_played,
        }
        if combined.sessions_in:
            row["sessions"] = result.sessions
        return row

    rows = (
        [
            {
                "rank": st.rank,
                "entry_id": int(st.pair),
                "pair_number": by_id[int(st.pair)].pair_number,
                "name": names[st.pair],
                **figures(results[st.pair]),
                "qualifier": st.pair in qualifying,
                "qualifier_rank": qualifier_rank.get(st.pair),
                "decided_by": st.decided_by,
                "explanation": named_explanation(st.explanation, names),
            }
            for st in standings
        ]
        + [
            {
                "rank": None,
                "entry_id": int(p),
                "pair_number": by_id[int(p)].pair_number,
                "name": names[p],
                **figures(results[p]),
                "qualifier": False,
                "struck_reason": _struck_reason(by_id[int(p)].status_reason),
            }
            for p in results
            if p in struck
        ]
        + [
            {
                "rank": None,
                "entry_id": int(p),
                "pair_number": by_id[int(p)].pair_number,
                "name": names[p],
                **figures(result),
                "qualifier": False,
                "incomplete": True,
                "struck_reason": as_data(
                    Message(
                        gettext_noop(
                            "Spelade inte båda speltillfällena och rankas inte i heatet "
                            "(R-PAIR-RES-1)."
                        )
                    )
                ),
            }
            for p, result in combined.partial.items()
        ]
    )
    mark_ties(rows, ties, "entry_id")
    snapshot = StandingSnapshot(
        scope=StandingSnapshot.Scope.PAIR_HEAT,
        competition_id=heat.competition_id,
        heat=heat,
        data=rows,
        provisional=not final,
        # A pair heat has no rounds: the field holds the sessions in, for a heat uploaded one
        # file per session (the page says "efter speltillfälle 1 av 2").
        rounds_played=len(combined.sessions_in),
        upload_ids=sorted(u.id for u in uploads),
    )
    venue = Venue(
        key=key,
        label=heat.name,
        entries=len(qualifying),
        ranking=qualifier_order if final else [],
        struck=struck | set(combined.partial),
        complete=final,
    )
    return venue, snapshot


def _pair_chain_inputs(competition: PairCompetition) -> dict:
    """The recorded withdrawals, offers and TK's offers out of the chain's order (R-REPL-5)
    as the chain runner takes them (:func:`clubs.seats.chain_inputs`): an offer TK made by
    hand stays and does not move the seat's place in the chain."""
    return seats.chain_inputs(
        FinalSeat.objects.filter(competition=competition)
        .exclude(source=FinalSeat.Source.DIRECT_FINAL)  # no chain in a direct final
        .prefetch_related("offers")
    )


def _sync_final_seats(competition, heats, venues, allocation, holders, chain, run, direct) -> None:
    """The pairs final's seat rows and offers in step with the chain
    (:func:`clubs.seats.sync_seats`); a direct qualifier that played a heat holds its direct
    seat through that heat's entry (R-ALLOC-2)."""
    seats.sync_seats(
        competition=competition,
        venue_heats={v.key: h for v, h in zip(venues, heats, strict=True)},
        heat_labels={v.key: v.label for v in venues},
        allocation=allocation,
        holders=holders,
        chain=chain,
        step_reasons=step_reasons(run),
        provisional=run.provisional,
        direct=direct,
        clauses={"allocation": "R-ALLOC-3, R-ALLOC-6", "direct": "R-DIRECT-1, R-ALLOC-2"},
    )


# --------------------------------------------------------------------------------------------
# Pairs final
# --------------------------------------------------------------------------------------------

#: Plaque labels as msgids: the snapshot keeps the Swedish word, the page shows it |rendered.
PLAQUE_SV = {1: gettext_noop("guld"), 2: gettext_noop("silver"), 3: gettext_noop("brons")}


def _struck_reason(record: str) -> dict:
    """Why a pair is struck, as data the page renders (as_data): the entry's reason is a
    record kept in Swedish (docs/translation.md), named as such on an English page."""
    if not record:
        return as_data(Message(gettext_noop("Struken enligt R-PAIR-KVAL-7.")))
    return as_data(
        Message(gettext_noop("Skäl (sparat på svenska): %(reason)s"), {"reason": record})
    )


def _mp_table(season) -> dict | None:
    """R-PAIR-MP-1: SBF's masterpoint table as TK loaded it for the season on
    /tk/sasong/mastarpoang/ (``clubs.services.season.mp_table``); None when missing."""
    return mp_table(season) or None


def _fmt_points(value) -> str:
    return f"{float(value):.2f}"


def _rank_pair_final(competition: PairCompetition, rules) -> None:
    """The DM pairs final from its accepted upload: ranking (R-PAIR-TIE-1), plaque places
    (R-PAIR-TIE-2, among the pairs that may win plaques), title, plaques and bonus only to
    pairs with both players in UBF, passing to the next such pair (R-PAIR-MP-2/3), SM places
    with the out-of-district cap (R-PAIR-2) and masterpoints from TK's table (R-PAIR-MP-1).
    Without an accepted final upload any stored final snapshot is removed."""
    upload = (
        competition.uploads.filter(heat=None, status=ResultUpload.Status.ACCEPTED)
        .order_by("-id")  # the latest recorded (ids: the demo clock can go back)
        .first()
    )
    if upload is None:
        StandingSnapshot.objects.filter(
            scope=StandingSnapshot.Scope.PAIR_FINAL, competition=competition
        ).delete()
        return
    results = {
        r.key: r
        for r in PairFinalResult.objects.filter(upload=upload).select_related("player1", "player2")
    }
    lines = [
        {"board": b, "ns": ns, "ew": ew, "mp_ns": mp_ns, "mp_ew": mp_ew}
        for b, ns, ew, mp_ns, mp_ew in PairFinalTraveller.objects.filter(upload=upload).values_list(
            "board_number", "ns_key", "ew_key", "mp_ns", "mp_ew"
        )
    ]
    player_ids = [p for r in results.values() for p in (r.player1_id, r.player2_id)]
    in_ubf = set(
        Representation.objects.filter(
            season_id=competition.season_id, player_id__in=player_ids, club__district__code=UBF
        ).values_list("player_id", flat=True)
    )
    both_ubf = {k: r.player1_id in in_ubf and r.player2_id in in_ubf for k, r in results.items()}
    outside = {
        k for k, r in results.items() if r.player1_id not in in_ubf and r.player2_id not in in_ubf
    }
    scores = {k: r.percentage for k, r in results.items()}
    # R-PAIR-TIE-1 "the same applies in the DM final for SM places": a tie the criteria leave
    # is settled by the lot TK drew for the final's table, else by the fixed seed and marked
    # undrawn (/tk/ queues it where it crosses the SM places).
    draw, ties = standing_draw(
        competition, PAIR_FINAL, f"{competition.season.name}/{competition.discipline}/final"
    )
    standings = rank_pairs(list(results), scores, lines, draw=draw)
    ranking = [st.pair for st in standings]
    eligible = [k for k in ranking if both_ubf[k]]
    plaques = plaque_places(eligible, {k: scores[k] for k in eligible}, lines)
    # R-PAIR-TIE-1 "berörda par", R-PAIR-MP-3: title, plaques and bonus are for UBF pairs, so UBF
    # pairs on equal score are separated among themselves (as the plaques are), not with the
    # out-of-district pairs in the group; the out-of-district pairs keep their places and pass
    # their awards on.
    ubf_order = iter(
        st.pair
        for st in rank_pairs(
            eligible,
            {k: scores[k] for k in eligible},
            lines,
            seed=f"{competition.season.name}/{competition.discipline}/final/ubf",
        )
    )
    award_ranking = [next(ubf_order) if both_ubf[k] else k for k in ranking]
    bonus = pair_bonus(award_ranking, both_ubf, competition.discipline, rules)
    passed_awards = dict(bonus.awards.passed_over)
    n_plaques = len(rules.pair_bonus[Discipline(competition.discipline)])

    places = competition.sm_places or 0
    sm = sm_places_rule(ranking, outside, places, rules)
    sm_passed = dict(sm.passed_over)

    table = _mp_table(competition.season)
    mp = None
    if table is not None:
        # Pairs on equal percentage share the places they cover.
        mp_places = {k: 1 + sum(1 for x in scores.values() if x > scores[k]) for k in ranking}
        mp = pair_final_masterpoints(mp_places, table, len(ranking))

    final_names = {k: f"{r.player1.full_name} – {r.player2.full_name}" for k, r in results.items()}
    rows = []
    for st in standings:
        k, r = st.pair, results[st.pair]
        award = bonus.awards.place_of(k)
        plaque = plaques.get(k)
        rows.append(
            {
                "rank": st.rank,
                "key": k,
                "player_ids": [r.player1_id, r.player2_id],
                "name": final_names[k],
                "percentage": f"{r.percentage:.2f}",
                "decided_by": st.decided_by,
                "explanation": named_explanation(st.explanation, final_names),
                "ubf_pair": both_ubf[k],
                "out_of_district": k in outside,
                "plaque_place": plaque if plaque is not None and plaque <= n_plaques else None,
                "plaque_label": PLAQUE_SV.get(plaque, "") if plaque else "",
                "title": award == 1,
                "award_place": award,
                "bonus_per_player": bonus.points.get(k, 0),
                "award_passed_reason": (
                    as_data(passed_awards[k]) if award is None and k in passed_awards else ""
                ),
                "sm_place": sm.qualified.index(k) + 1 if k in sm.qualified else None,
                "sm_reason": as_data(sm.reasons.get(k) or sm_passed[k])
                if k in sm.reasons or k in sm_passed
                else "",
                "sm_passed_over": k in sm_passed,
                "masterpoints": _fmt_points(mp.points[k]) if mp else None,
                "masterpoints_reason": as_data(mp.reasons[k]) if mp else "",
            }
        )
    mark_ties(rows, ties, "key")
    data = {
        "rows": rows,
        "pairs": len(rows),
        "sm_places": competition.sm_places,
        "sm_cap": sm.cap,
        "sm_unfilled": sm.unfilled,
        "mp_table_missing": table is None,
        "upload_id": upload.id,
    }
    StandingSnapshot.objects.update_or_create(
        scope=StandingSnapshot.Scope.PAIR_FINAL,
        competition=competition,
        heat=None,
        defaults={
            "data": data,
            "provisional": False,
            "rounds_played": 0,
            "computed_at": clock.now(),
        },
    )

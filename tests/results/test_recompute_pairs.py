"""Recompute of DM Par: heat standings, final size, allocation, seats and the replacement chain."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from clubs.models import FinalSeat, SeatOffer
from pairs.models import PairEntry
from results.models import AllocationRun, PairResult, ResultUpload, StandingSnapshot
from results.services.recompute import recompute_pair_competition
from tests.factories import PairCompetitionFactory, PairHeatFactory, accepted_upload, member

pytestmark = pytest.mark.django_db


def heat_with_results(competition, n, *, heat_type="silver", declared=None, boards=27):
    """A heat of n pairs whose pair k scored 70 - k %: the ranking is the pair numbering."""
    heat = PairHeatFactory(competition=competition, heat_type=heat_type)
    season = competition.season
    upload = accepted_upload(competition, heat)
    entries = []
    for k in range(1, n + 1):
        e = PairEntry.objects.create(
            heat=heat,
            player1=member(season=season),
            player2=member(season=season),
            pair_number=str(k),
            takes_part_in_qualifier=True if declared is None else k <= declared,
        )
        PairResult.objects.create(
            upload=upload,
            heat=heat,
            entry=e,
            total=Decimal(100 - k),
            percentage=Decimal(70 - k * Decimal("0.5")),
            boards_played=boards,
        )
        entries.append(e)
    return heat, entries


def seats_by_heat(competition):
    run = AllocationRun.objects.get(competition=competition)
    return {v["label"]: v["seats"] for v in run.explanation["venues"]}, run


def test_r_alloc_1_and_3_final_size_and_shares():
    comp = PairCompetitionFactory()
    a, a_entries = heat_with_results(comp, 40)
    b, _ = heat_with_results(comp, 30)
    recompute_pair_competition(comp.id)
    seats, run = seats_by_heat(comp)
    assert run.final_size == 32  # 70 qualifying pairs: at least 61 -> 32 (R-ALLOC-1)
    assert seats == {a.name: 18, b.name: 14}  # 18.29 and 13.71 -> 18 + 14 (R-ALLOC-3)
    assert FinalSeat.objects.filter(competition=comp).count() == 32
    holders = set(
        FinalSeat.objects.filter(competition=comp, origin_heat=a).values_list("holder", flat=True)
    )
    assert holders == {e.id for e in a_entries[:18]}  # R-ALLOC-6: heat ranking order
    snap = StandingSnapshot.objects.get(scope="pair_heat", heat=a)
    assert [r["pair_number"] for r in snap.data[:3]] == ["1", "2", "3"]


def test_fewer_pairs_than_the_size_all_go_on():
    # R-ALLOC-1: if fewer pairs qualified than the size, all of them go on
    comp = PairCompetitionFactory()
    heat_with_results(comp, 12)
    heat_with_results(comp, 8)
    recompute_pair_competition(comp.id)
    _, run = seats_by_heat(comp)
    assert run.final_size == 20
    assert FinalSeat.objects.filter(competition=comp).count() == 20


def test_struck_pairs_and_undeclared_bronze_pairs_do_not_count():
    # R-PAIR-KVAL-7 (struck) and R-PAIR-KVAL-5 (bronze: only declared pairs) in R-ALLOC-1
    comp = PairCompetitionFactory()
    silver, s_entries = heat_with_results(comp, 40)
    bronze, b_entries = heat_with_results(comp, 30, heat_type="bronze", declared=20)
    PairEntry.objects.filter(pk=s_entries[0].pk).update(
        status="struck", status_reason="R-PAIR-KVAL-7"
    )
    recompute_pair_competition(comp.id)
    _, run = seats_by_heat(comp)
    assert run.qualifying_entries == 39 + 20
    assert run.final_size == 28  # 59 < 61
    held = set(FinalSeat.objects.filter(competition=comp).values_list("holder", flat=True))
    assert s_entries[0].id not in held  # struck, passed over
    assert not held & {e.id for e in b_entries[20:]}  # undeclared bronze pairs never qualify
    snap = StandingSnapshot.objects.get(scope="pair_heat", heat=silver)
    assert snap.data[-1]["entry_id"] == s_entries[0].id and snap.data[-1]["rank"] is None


def test_r_alloc_2_direct_qualifier_takes_a_seat_first():
    comp = PairCompetitionFactory(discipline="mixed")
    heat_with_results(comp, 40)
    heat_with_results(comp, 30)
    season = comp.season
    PairEntry.objects.create(
        entered_as="direct",
        competition=comp,
        player1=member(season=season),
        player2=member(season=season),
        registered_on=date(2016, 12, 1),
    )
    recompute_pair_competition(comp.id)
    _, run = seats_by_heat(comp)
    assert run.seats == 31
    assert FinalSeat.objects.filter(competition=comp, source="direct").count() == 1
    assert FinalSeat.objects.filter(competition=comp).count() == 32


def test_r_repl_1_and_2_declined_seat_offered_down_the_chain():
    comp = PairCompetitionFactory()
    a, a_entries = heat_with_results(comp, 40)
    b, b_entries = heat_with_results(comp, 30)
    recompute_pair_competition(comp.id)
    seat = FinalSeat.objects.get(competition=comp, holder=a_entries[0])
    seat.status = "vacated"
    seat.save()
    recompute_pair_competition(comp.id)
    offer = SeatOffer.objects.get(seat=seat)
    assert offer.entry == a_entries[18]  # R-REPL-1: the nearest eliminated pair of its own heat
    offer.answer = "declined"
    offer.answered_at = timezone.now()
    offer.save()
    recompute_pair_competition(comp.id)
    pending = SeatOffer.objects.get(seat=seat, answer="pending")
    assert pending.entry == b_entries[14]  # R-REPL-2: then the other venue's nearest
    pending.answer = "accepted"
    pending.save()
    recompute_pair_competition(comp.id)
    assert not SeatOffer.objects.filter(seat=seat, answer="pending").exists()


def test_r_repl_6_accepted_seat_never_moves_when_results_change():
    comp = PairCompetitionFactory()
    a, a_entries = heat_with_results(comp, 40)
    heat_with_results(comp, 30)
    recompute_pair_competition(comp.id)
    seat = FinalSeat.objects.get(competition=comp, holder=a_entries[17])
    FinalSeat.objects.filter(pk=seat.pk).update(status="confirmed")
    # a correction moves pair 18 below the cut
    PairResult.objects.filter(entry=a_entries[17]).update(percentage=Decimal("1"))
    recompute_pair_competition(comp.id)
    assert FinalSeat.objects.filter(pk=seat.pk, holder=a_entries[17], status="confirmed").exists()
    assert FinalSeat.objects.filter(competition=comp).count() == 32  # the final keeps its size
    assert not FinalSeat.objects.filter(holder=a_entries[18]).exists()


def test_provisional_while_a_heat_has_no_results():
    comp = PairCompetitionFactory()
    heat_with_results(comp, 20)
    PairHeatFactory(competition=comp)
    recompute_pair_competition(comp.id)
    _, run = seats_by_heat(comp)
    assert run.provisional is True
    assert not SeatOffer.objects.exists()


def test_incremental_recompute_of_one_heat_equals_the_full_recompute():
    comp = PairCompetitionFactory()
    a, a_entries = heat_with_results(comp, 40)
    heat_with_results(comp, 30)
    recompute_pair_competition(comp.id)
    # a corrected file for heat a: its last pair now wins the heat
    upload = ResultUpload.objects.get(heat=a)
    ResultUpload.objects.filter(pk=upload.pk).update(uploaded_at=timezone.now())
    PairResult.objects.filter(entry=a_entries[-1]).update(percentage=Decimal("99"))
    recompute_pair_competition(comp.id, heat_ids=[a.id])
    incremental = AllocationRun.objects.get(competition=comp).explanation
    snap_a = StandingSnapshot.objects.get(heat=a).data
    assert snap_a[0]["entry_id"] == a_entries[-1].id
    recompute_pair_competition(comp.id)
    assert AllocationRun.objects.get(competition=comp).explanation == incremental
    assert StandingSnapshot.objects.get(heat=a).data == snap_a


def test_r_pair_4_sm_quota_basis_is_computed_and_shown_on_the_par_page(client):
    # Silver heat of 10 pairs, one struck (R-PAIR-KVAL-7): 9 count; bronze heat of 8 pairs,
    # 5 declared for the qualifier: 5 count; the reigning champions hold a free place and
    # played no heat: +1. Basis 9 + 5 + 1 = 15.
    comp = PairCompetitionFactory(discipline="mixed")
    _, silver_entries = heat_with_results(comp, 10)
    heat_with_results(comp, 8, heat_type="bronze", declared=5)
    PairEntry.objects.filter(pk=silver_entries[3].pk).update(
        status="struck", status_reason="R-PAIR-KVAL-7"
    )
    season = comp.season
    PairEntry.objects.create(
        entered_as="direct",
        competition=comp,
        player1=member(season=season),
        player2=member(season=season),
        registered_on=date(2016, 12, 1),
    )
    recompute_pair_competition(comp.id)
    run = AllocationRun.objects.get(competition=comp)
    assert run.explanation["sm_quota_basis"] == {
        "total": 15,
        "from_heats": 14,
        "from_direct_final": 0,
        "champion_free_place": 1,
    }
    # the allocation is on the competition's page, which /par/ links
    assert f'href="/par/{comp.id}/"' in client.get("/par/").content.decode()
    page = client.get(f"/par/{comp.id}/").content.decode()
    assert "Underlag för SM-kvoten: 15 par (R-PAIR-4)." in page
    english = client.get(f"/par/{comp.id}/?lang=en").content.decode()
    assert "Basis of the SM quota: 15 pairs (R-PAIR-4)." in english


def test_r_pair_4_champions_who_played_a_heat_are_counted_once():
    # 6 pairs in a silver heat, the first of them the reigning champions: 6, not 7.
    comp = PairCompetitionFactory(discipline="mixed")
    _, entries = heat_with_results(comp, 6)
    PairEntry.objects.create(
        entered_as="direct",
        competition=comp,
        player1=entries[0].player1,
        player2=entries[0].player2,
        registered_on=date(2016, 12, 1),
    )
    recompute_pair_competition(comp.id)
    basis = AllocationRun.objects.get(competition=comp).explanation["sm_quota_basis"]
    assert (basis["total"], basis["champion_free_place"]) == (6, 0)

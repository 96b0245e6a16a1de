"""The DM pairs final: upload by MID against the seat holders, ranking, SM places with the
out-of-district cap, title/plaques/bonus to UBF pairs only, masterpoints from TK's table."""

from __future__ import annotations

import dataclasses
from datetime import date
from unittest.mock import patch

import pytest
from django.core.exceptions import PermissionDenied

from clubs import clock
from clubs.models import FinalSeat
from pairs.models import FINAL_SESSION, PairEntry
from pairs.selectors import final_seat_holders
from pairs.services.entries import notify_reserve
from portal.services.fees import pair_final_fee_list
from results.models import (
    PairFinalResult,
    PairFinalTraveller,
    ResultUpload,
    StandingSnapshot,
    pair_key,
)
from results.services.recompute import recompute_pair_competition
from results.services.uploads import UploadRejected, upload_pair_final
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    DistrictFactory,
    PairCompetitionFactory,
    PairHeatFactory,
    UserFactory,
    member,
)
from ubf.demo.simulate import simulate_pair_heat
from ubf.demo.writers import write_usebio_pairs

pytestmark = pytest.mark.django_db

N_PAIRS = 12


def counts():
    return (
        ResultUpload.objects.count(),
        PairFinalResult.objects.count(),
        PairFinalTraveller.objects.count(),
        StandingSnapshot.objects.filter(scope=StandingSnapshot.Scope.PAIR_FINAL).count(),
    )


@pytest.fixture
def tk():
    return UserFactory(username="tk", is_superuser=True, is_staff=True)


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """Run the recompute scheduled on commit, as the real app does."""

    def upload(*args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return upload_pair_final(*args, **kwargs)

    return upload


def simulated_final(seed: int = 1):
    """A 12-pair barometer-like final with MIDs 900001.. (pair k: 9000(2k-1), 9000(2k))."""
    pairs = [
        (
            str(k),
            (str(900000 + 2 * k - 1), f"Spelare {2 * k - 1}"),
            (str(900000 + 2 * k), f"Spelare {2 * k}"),
            (N_PAIRS - k) / N_PAIRS,
        )
        for k in range(1, N_PAIRS + 1)
    ]
    return simulate_pair_heat(pairs, 22, seed=seed, movement="howell", unplayed=0)


def build_final(event, *, outside_ranks=(), mixed_ranks=(), sm_places=2, tables=None):
    """A competition whose final seats are held by the pairs of ``event`` (11 heat entries and
    one direct qualifier). Pairs at the given 1-based ranks of the file are out of district
    (neither player in UBF) or mixed (one UBF player, one not)."""
    comp = PairCompetitionFactory(sm_places=sm_places)
    if tables is not None:
        comp.season.tables = tables
        comp.season.save()
    season = comp.season
    heat = PairHeatFactory(competition=comp)
    other = ClubFactory(district=DistrictFactory(code="SBD", name="Stockholms BF"))
    by_rank = {p.rank: p for p in event.pairs}
    for rank, pair in sorted(by_rank.items()):
        clubs = [None, None]
        if rank in outside_ranks:
            clubs = [other, other]
        elif rank in mixed_ranks:
            clubs = [None, other]
        p1, p2 = (
            member(season=season, club=club, mid=pl.mid, first_name=pl.name, last_name="F")
            for pl, club in zip(pair.players, clubs, strict=True)
        )
        if pair.number == str(N_PAIRS):
            dq = PairEntry.objects.create(
                entered_as="direct",
                competition=comp,
                player1=p1,
                player2=p2,
                registered_on=date(2017, 1, 5),
            )
            FinalSeat.objects.create(
                competition=comp,
                holder=dq,
                source=FinalSeat.Source.DIRECT,
                status=FinalSeat.Status.CONFIRMED,
            )
            continue
        entry = PairEntry.objects.create(heat=heat, player1=p1, player2=p2, pair_number=pair.number)
        FinalSeat.objects.create(
            competition=comp,
            holder=entry,
            source=FinalSeat.Source.ALLOCATION,
            status=FinalSeat.Status.CONFIRMED,
        )
    return comp


def key_at(event, rank: int) -> str:
    pair = next(p for p in event.pairs if p.rank == rank)
    return pair_key(*(pl.mid for pl in pair.players))


def final_rows(comp) -> dict:
    return StandingSnapshot.objects.get(
        scope=StandingSnapshot.Scope.PAIR_FINAL, competition=comp
    ).data


def test_final_upload_identifies_pairs_by_mid_and_ranks_them(tk, run_on_commit):
    event = simulated_final()
    comp = build_final(event)
    outcome = run_on_commit(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    assert outcome.upload.competition_id == comp.pk and outcome.upload.heat_id is None
    assert PairFinalResult.objects.filter(competition=comp).count() == N_PAIRS
    stored_keys = set(PairFinalTraveller.objects.values_list("ns_key", flat=True))
    assert stored_keys <= {key_at(event, r) for r in range(1, N_PAIRS + 1)}
    data = final_rows(comp)
    rows = data["rows"]
    assert [r["rank"] for r in rows] == list(range(1, N_PAIRS + 1))
    # The file's order (the simulated percentages) is the final ranking (R-PAIR-TIE-1).
    assert [r["key"] for r in rows] == [key_at(event, r) for r in range(1, N_PAIRS + 1)]
    pcts = [float(r["percentage"]) for r in rows]
    assert pcts == sorted(pcts, reverse=True)
    # All pairs in UBF: title, plaques and bonus to the first three (R-PAIR-MP-2, Open).
    assert rows[0]["title"] and rows[0]["bonus_per_player"] == 60
    assert [r["plaque_place"] for r in rows[:4]] == [1, 2, 3, None]
    assert [r["bonus_per_player"] for r in rows[:4]] == [60, 40, 30, 0]
    # R-PAIR-MP-1: no table loaded, so no invented numbers.
    assert data["mp_table_missing"] is True
    assert all(r["masterpoints"] is None for r in rows)


def test_identical_reupload_unchanged_and_corrected_one_supersedes(tk, run_on_commit):
    event = simulated_final()
    comp = build_final(event)
    first = run_on_commit(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    again = run_on_commit(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    assert again.unchanged and again.upload == first.upload
    assert ResultUpload.objects.count() == 1
    corrected = dataclasses.replace(event, title="DM-parfinal, rättad")
    second = run_on_commit(tk, comp, data=write_usebio_pairs(corrected), filename="final2.xml")
    first.upload.refresh_from_db()
    assert first.upload.status == ResultUpload.Status.SUPERSEDED
    assert second.upload.supersedes == first.upload
    assert PairFinalResult.objects.count() == N_PAIRS
    assert set(PairFinalResult.objects.values_list("upload", flat=True)) == {second.upload.id}
    assert final_rows(comp)["upload_id"] == second.upload.id


def test_r_pair_2_sm_cap_passes_over_second_out_of_district_pair(tk, run_on_commit):
    # R-PAIR-2 worked example: 2 SM places -> cap 1 out-of-district pair.
    event = simulated_final()
    comp = build_final(event, outside_ranks=(1, 2), mixed_ranks=(3,), sm_places=2)
    run_on_commit(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    data = final_rows(comp)
    rows = data["rows"]
    assert data["sm_cap"] == 1
    assert [r["out_of_district"] for r in rows[:4]] == [True, True, False, False]
    assert rows[0]["sm_place"] == 1
    assert rows[1]["sm_place"] is None and rows[1]["sm_passed_over"]
    assert "R-PAIR-2" in rows[1]["sm_reason"]["template"]  # rendered when the page shows it
    # The mixed pair (one UBF player) is not out of district: it takes the second place.
    assert rows[2]["sm_place"] == 2
    assert [r["rank"] for r in rows if r["sm_place"]] == [1, 3]
    assert PairFinalResult.objects.filter(out_of_district=True).count() == 2


def test_r_pair_mp_3_title_plaques_bonus_pass_to_next_ubf_pair(tk, run_on_commit):
    event = simulated_final()
    comp = build_final(event, outside_ranks=(1, 2), mixed_ranks=(3,), sm_places=2)
    run_on_commit(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    rows = final_rows(comp)["rows"]
    assert [r["ubf_pair"] for r in rows[:4]] == [False, False, False, True]
    assert not any(r["title"] or r["plaque_place"] or r["bonus_per_player"] for r in rows[:3])
    assert "R-PAIR-MP-3" in rows[2]["award_passed_reason"]["template"]
    assert rows[3]["title"] and rows[3]["award_place"] == 1
    # R-PAIR-MP-2 (Open 60/40/30) to the 4th, 5th and 6th of the final.
    assert [r["bonus_per_player"] for r in rows[3:7]] == [60, 40, 30, 0]
    assert [r["plaque_place"] for r in rows[3:7]] == [1, 2, 3, None]
    assert [r["plaque_label"] for r in rows[3:6]] == ["guld", "silver", "brons"]


def test_r_pair_mp_1_masterpoints_from_tk_table(tk, run_on_commit):
    event = simulated_final()
    table = {f"{N_PAIRS}:{p}": 40 - 3 * p for p in range(1, 8)}
    comp = build_final(event, tables={"pair_final_mp_table": table})
    run_on_commit(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    data = final_rows(comp)
    assert data["mp_table_missing"] is False
    assert [r["masterpoints"] for r in data["rows"][:2]] == ["37.00", "34.00"]
    assert data["rows"][-1]["masterpoints"] == "0.00"  # place 12 is not in the table


def test_file_without_mids_is_refused_with_nothing_saved(tk, run_on_commit):
    event = simulated_final()
    comp = build_final(event)
    no_mids = dataclasses.replace(
        event,
        pairs=[
            dataclasses.replace(
                p, players=tuple(dataclasses.replace(pl, mid=None) for pl in p.players)
            )
            for p in event.pairs
        ],
    )
    before = counts()
    with (
        patch("results.services.uploads.request_recompute") as recompute,
        pytest.raises(UploadRejected) as exc,
    ):
        upload_pair_final(tk, comp, data=write_usebio_pairs(no_mids), filename="final.xml")
    assert counts() == before
    recompute.assert_not_called()
    text = str(exc.value)
    assert "saknar spelarnas MID" in text
    assert "parnumren i finalen inte finns i systemet" in text


def test_unknown_mid_is_refused_naming_the_mids(tk):
    event = simulated_final()
    comp = build_final(event)
    first = event.pairs[0]
    stranger = dataclasses.replace(
        first,
        players=(first.players[0], dataclasses.replace(first.players[1], mid="777777")),
    )
    bad = dataclasses.replace(event, pairs=[stranger, *event.pairs[1:]])
    before = counts()
    with (
        patch("results.services.uploads.request_recompute") as recompute,
        pytest.raises(UploadRejected) as exc,
    ):
        upload_pair_final(tk, comp, data=write_usebio_pairs(bad), filename="final.xml")
    assert counts() == before
    recompute.assert_not_called()
    assert "777777" in str(exc.value) and "ingen plats i finalen" in str(exc.value)


def test_vacated_seat_holder_is_not_in_the_final(tk):
    event = simulated_final()
    comp = build_final(event)
    seat = FinalSeat.objects.get(competition=comp, holder__pairentry__pair_number="1")
    seat.status = FinalSeat.Status.VACATED
    seat.save()
    before = counts()
    with patch("results.services.uploads.request_recompute"), pytest.raises(UploadRejected):
        upload_pair_final(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    assert counts() == before


@pytest.mark.parametrize("role", ["anonymous", "plain", "club_official", "staff"])
def test_only_tk_may_upload_the_final(role):
    from django.contrib.auth.models import AnonymousUser

    event = simulated_final()
    comp = build_final(event)
    if role == "anonymous":
        user = AnonymousUser()
    elif role == "plain":
        user = UserFactory()
    elif role == "club_official":
        user = ClubOfficialFactory().user
    else:
        user = UserFactory(is_staff=True)
    before = counts()
    with (
        patch("results.services.uploads.request_recompute") as recompute,
        pytest.raises(PermissionDenied),
    ):
        upload_pair_final(user, comp, data=write_usebio_pairs(event), filename="final.xml")
    assert counts() == before
    recompute.assert_not_called()


def test_upload_schedules_the_recompute(tk):
    event = simulated_final()
    comp = build_final(event)
    with patch("results.services.uploads.request_recompute") as recompute:
        upload_pair_final(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    recompute.assert_called_once()
    assert recompute.call_args.args == (comp.id,)


def test_par_page_shows_the_final(tk, run_on_commit, client):
    event = simulated_final()
    comp = build_final(event, outside_ranks=(1, 2), sm_places=2)
    run_on_commit(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    overview = client.get("/par/").content.decode()
    rows = final_rows(comp)["rows"]
    # /par/ names the champions and links the competition's page, which has the standings
    champion = next(r for r in rows if r.get("title"))
    assert f"DM-mästare: {champion['name']}" in overview
    assert f'href="/par/{comp.id}/"' in overview
    html = client.get(f"/par/{comp.id}/").content.decode()
    assert "Finalen" in html
    assert rows[0]["name"] in html
    assert "DM-mästare" in html
    assert "MP-tabell saknas" in html
    assert "passeras (R-PAIR-2)" in html


def test_recompute_without_final_upload_has_no_final_snapshot():
    event = simulated_final()
    comp = build_final(event)
    recompute_pair_competition(comp.id)
    assert not StandingSnapshot.objects.filter(scope=StandingSnapshot.Scope.PAIR_FINAL).exists()


def test_r_pair_tie_1_tied_pairs_in_the_final_are_separated(tk, run_on_commit):
    event = simulated_final(seed=5)  # the two best pairs both score 64.55 %
    assert event.pairs[0].percentage == event.pairs[1].percentage
    comp = build_final(event)
    run_on_commit(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    rows = final_rows(comp)["rows"]
    assert {r["key"] for r in rows[:2]} == {key_at(event, 1), key_at(event, 2)}
    # Boards won among them are equal, so the head-to-head boards decide the SM order.
    assert rows[1]["decided_by"] == "h2h_mp"
    assert [e["criterion"] for e in rows[0]["explanation"]] == ["score", "boards_won", "h2h_mp"]
    assert rows[0]["sm_place"] == 1 and rows[1]["sm_place"] == 2


def test_r_pair_tie_2_plaques_shared_when_boards_won_are_equal(tk, run_on_commit):
    event = simulated_final(seed=5)
    comp = build_final(event)
    run_on_commit(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    rows = final_rows(comp)["rows"]
    # Only criterion (1) for plaques: both share the higher place, the next pair gets 3rd.
    assert [r["plaque_place"] for r in rows[:4]] == [1, 1, 3, None]
    assert [r["plaque_label"] for r in rows[:3]] == ["guld", "guld", "brons"]
    assert rows[0]["title"] and not rows[1]["title"]


def test_a_final_reserve_plays_the_seat_in_the_upload_the_fee_list_and_the_sm_partner(
    tk, run_on_commit
):
    """R-PAIR-RES-2: a final reserve notified to TK takes the replaced player's place. The one
    answer to "who plays the final" (pairs.selectors.final_seat_holders) is what the final's
    upload accepts, while the fee list still charges the pair that holds the seat."""
    event = simulated_final()
    comp = build_final(event)
    seat_pair = next(p for p in event.pairs if p.number == "1")  # MIDs 900001 and 900002
    regular, replaced = seat_pair.players
    member(season=comp.season, mid="900099", first_name="Rut", last_name="Reserv")
    entry = PairEntry.objects.get(heat__competition=comp, pair_number="1")
    with clock.frozen("2017-04-01"):  # before the final's day
        notify_reserve(
            tk, entry, session=FINAL_SESSION, replaced_mid=replaced.mid, reserve_mid="900099"
        )

    # the file written by the scoring program has the reserve at the table
    with_reserve = dataclasses.replace(
        seat_pair, players=(regular, dataclasses.replace(replaced, mid="900099", name="Rut R"))
    )
    played = dataclasses.replace(
        event, pairs=[with_reserve if p.number == "1" else p for p in event.pairs]
    )
    run_on_commit(tk, comp, data=write_usebio_pairs(played), filename="final.xml")
    result = PairFinalResult.objects.get(competition=comp, player1__mid__in=["900001", "900099"])
    assert {result.player1.mid, result.player2.mid} == {"900001", "900099"}
    assert PairFinalResult.objects.filter(competition=comp).count() == N_PAIRS

    # the fee list charges the seat's pair (12 pairs: 11 heat entries and the direct qualifier)
    fees = pair_final_fee_list(comp)
    labels = [row.payer for row in fees.rows]
    assert len(labels) == N_PAIRS
    assert any("Spelare 1" in label and "Spelare 2" in label for label in labels)
    assert not any("Rut" in label for label in labels)

    # the reserve plays the final with the regular player, the replaced player does not play
    (holder,) = [h for h in final_seat_holders(comp) if h.holder == entry]
    assert holder.partner_of("900099") == "900001"
    assert holder.partner_of("900002") is None


def test_the_pair_a_final_reserve_replaced_is_refused_by_the_final_upload(tk):
    event = simulated_final()
    comp = build_final(event)
    entry = PairEntry.objects.get(heat__competition=comp, pair_number="1")
    member(season=comp.season, mid="900099", first_name="Rut", last_name="Reserv")
    with clock.frozen("2017-04-01"):
        notify_reserve(
            tk, entry, session=FINAL_SESSION, replaced_mid="900002", reserve_mid="900099"
        )
    before = counts()
    with patch("results.services.uploads.request_recompute"), pytest.raises(UploadRejected) as exc:
        upload_pair_final(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    assert counts() == before
    assert "900001, 900002" in str(exc.value) and "ingen plats i finalen" in str(exc.value)

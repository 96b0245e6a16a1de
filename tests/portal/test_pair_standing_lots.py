"""Lots inside a DM Par table (R-PAIR-TIE-1 criterion 3, issue 22: "no lot is settled silently"),
on the same ``results.Lot`` and services as the teams' (R-TEAM-TIE-1): a tie that crosses a
pairs heat's seat cut goes to TK's queue on /tk/ as soon as the recompute finds it; until TK
draws, the heat page says "lott ej dragen" and the seat reads provisional everywhere a seat is
shown; TK draws it (seed, witnesses) or enters the hall's draw, the real recompute takes it and
the seat follows. The pairs final's SM places the same way (plaques are shared, R-PAIR-TIE-2).

The heat: ``tests/results/_bronze_heat.py``'s second file (``variant="lot"``), uploaded for
real. A and B (declared) and U (not declared) score 50.00 %; A and B win 5 boards each against
each other and never meet: only a lot separates them. Bronze heat Z has 2 seats (28 · 4/60 =
1.867 → 2, R-ALLOC-3) for its declared pairs in order: pair 1 (100 %), then A or B. Heat ranks:
pair 1 (200 matchpoints), East-West pairs 7 (110) and 9 (108), then A and B on places 4-5,
then U (6th: outside the qualifier it follows them)."""

from __future__ import annotations

import pytest

from clubs import clock
from clubs.models import Decision, FinalSeat
from results.models import Lot, StandingSnapshot
from results.services.lots import pair_heat_standing, standing_ties
from tests.factories import UserFactory
from tests.portal.test_tk_decisions import section
from tests.results._bronze_heat import bronze_season
from ubf.rules.draw import seeded_draw

pytestmark = pytest.mark.django_db

DAY = "2017-02-20 10:00"  # after the heat, both heats in: the allocation is final


@pytest.fixture
def tk_user():
    return UserFactory(username="tk", is_superuser=True, is_staff=True)


@pytest.fixture
def tk(client, tk_user):
    client.force_login(tk_user)
    return client


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def lot_heat(tk_user, django_capture_on_commit_callbacks):
    comp, z, entries = bronze_season(tk_user, django_capture_on_commit_callbacks, variant="lot")
    names = {n: f"{e.player1.full_name} – {e.player2.full_name}" for n, e in entries.items()}
    return comp, z, entries, names


def z_holders(comp, z) -> set[int]:
    return set(
        FinalSeat.objects.filter(competition=comp, origin_heat=z)
        .exclude(status=FinalSeat.Status.VACATED)
        .values_list("holder", flat=True)
    )


def order(z) -> list[int]:
    return [r["entry_id"] for r in StandingSnapshot.objects.get(scope="pair_heat", heat=z).data]


def test_r_pair_tie_1_a_tie_at_the_seat_cut_is_queued_and_the_seat_reads_provisional(lot_heat, tk):
    comp, z, entries, names = lot_heat
    a, b, u = (str(entries[n].pk) for n in ("2", "3", "4"))
    (tie,) = [t for t in standing_ties(comp) if t.heat is not None and t.heat.pk == z.pk]
    assert sorted(tie.among) == sorted([a, b]) and tie.lot is None  # U is not in the lot
    assert (tie.first, tie.last) == (4, 5) and tie.matters and tie.undrawn
    assert tie.clause == "R-PAIR-TIE-1"
    # One of A and B holds Z's second seat (by the fixed seed, until TK draws); U follows them.
    assert order(z).index(entries["4"].pk) == 5
    held = z_holders(comp, z) - {entries["1"].pk}
    assert len(held) == 1 and held <= {entries["2"].pk, entries["3"].pk}
    with clock.frozen(DAY):
        lots = section(tk.get("/tk/").content.decode(), "lots")
        heat_page = tk.get(f"/par/kval/{z.pk}/").content.decode()
        competition_page = tk.get(f"/par/{comp.pk}/").content.decode()
        api = tk.get(f"/api/v1/final-seats/pairs/?competition={comp.pk}").json()
    assert "Lika i tabellen" in lots and "plats 4–5" in lots and "Dra lott" in lots
    assert names["2"] in lots and names["3"] in lots and names["4"] not in lots
    assert "R-PAIR-TIE-1" in lots and f"/par/kval/{z.pk}/" in lots
    assert (
        "lott ej dragen" in heat_page
        and "Ordningen är preliminär tills TK drar lotten." in heat_page
    )
    assert "Inom finalplatserna: preliminärt, lott ej dragen" in heat_page
    assert "preliminärt, lott ej dragen" in competition_page
    states = {s["holder"]: s["state_display"] for s in api["results"]}
    (holder,) = [names[n] for n in ("2", "3") if entries[n].pk in held]
    assert states[holder] == "preliminärt, lott ej dragen"
    assert states[names["1"]] == "kvalificerat"  # pair 1's seat waits on no lot


def test_r_pair_tie_1_tk_draws_the_lot_and_the_seat_follows_it(lot_heat, tk, commit):
    comp, z, entries, names = lot_heat
    among = sorted([str(entries["2"].pk), str(entries["3"].pk)])
    post = {"among": ",".join(among), "standing": pair_heat_standing(z.pk)}
    with clock.frozen(DAY):
        refused = tk.post(f"/tk/lott/{comp.pk}/", {**post, "witnesses": " "}, follow=True)
        assert "Ange vittnena" in refused.content.decode() and not Lot.objects.exists()
        with commit():
            done = tk.post(
                f"/tk/lott/{comp.pk}/", {**post, "witnesses": "Anna Berg, Bo Ek"}, follow=True
            )
        queue = section(tk.get("/tk/").content.decode(), "lots")
        page = tk.get(f"/par/kval/{z.pk}/").content.decode()
    lot = Lot.objects.get()
    assert lot.kind == "pairs" and lot.standing == pair_heat_standing(z.pk) and lot.seed
    assert lot.witnesses == "Anna Berg, Bo Ek" and not lot.drawn_by_hand and lot.losers == []
    assert lot.winners == seeded_draw(int(lot.seed))(lot.among, 2)  # anyone can replay it
    assert "ordningen blev" in done.content.decode()
    assert Decision.objects.get(action="results.lot.drawn").clause == "R-PAIR-TIE-1"
    first, second = (int(k) for k in lot.winners)
    # The real recompute took the lot: the winner is 4th and holds Z's second seat.
    assert order(z)[3:6] == [first, second, entries["4"].pk]
    assert z_holders(comp, z) == {entries["1"].pk, first}
    assert "Lika i tabellen" not in queue  # drawn: no longer waiting
    assert "lott dragen" in page and f"med seed {lot.seed}" in page and "Anna Berg" in page
    assert "lott ej dragen" not in page and "Lottning mellan" in page
    assert "preliminärt, lott ej dragen" not in page and "I finalen: kvalificerat" in page
    again = tk.post(f"/tk/lott/{comp.pk}/", {**post, "witnesses": "X"}, follow=True)
    assert "ingen oavgjord lottning mellan dessa par" in again.content.decode()
    assert Lot.objects.count() == 1


def test_r_pair_tie_1_a_lot_drawn_in_the_hall_decides_the_seat(lot_heat, tk, commit):
    comp, z, entries, names = lot_heat
    a, b = entries["2"].pk, entries["3"].pk
    before = order(z)
    wanted = [b, a] if before.index(a) < before.index(b) else [a, b]  # the other order
    post = {
        "among": ",".join(sorted([str(a), str(b)])),
        "standing": pair_heat_standing(z.pk),
        "explanation": "Dragen ur en hatt vid prisutdelningen, vittnen Anna Berg och Bo Ek",
    }
    with clock.frozen(DAY):
        bad = tk.post(f"/tk/lott/{comp.pk}/hand/", {**post, "winners": [str(a)] * 2}, follow=True)
        assert "varje lottat par en gång" in bad.content.decode() and not Lot.objects.exists()
        with commit():
            tk.post(f"/tk/lott/{comp.pk}/hand/", {**post, "winners": [str(k) for k in wanted]})
        page = tk.get(f"/par/kval/{z.pk}/").content.decode()
    lot = Lot.objects.get()
    assert lot.drawn_by_hand and lot.seed == "" and lot.winners == [str(k) for k in wanted]
    assert order(z)[3:5] == wanted
    assert z_holders(comp, z) == {entries["1"].pk, wanted[0]}
    assert "lott dragen" in page and "dragen i hallen" in page


def test_r_pair_tie_1_only_tk_draws(lot_heat, client):
    comp, z, entries, _names = lot_heat
    client.force_login(UserFactory())
    among = ",".join(sorted([str(entries["2"].pk), str(entries["3"].pk)]))
    response = client.post(
        f"/tk/lott/{comp.pk}/",
        {"among": among, "standing": pair_heat_standing(z.pk), "witnesses": "X"},
    )
    assert response.status_code == 403 and not Lot.objects.exists()


def final_with_tie(sm_places: int):
    """A DM Par final of five UBF pairs from its accepted file: P1 65 %, X and Y 60 %, Q1 and
    Q2 40 %. X and Y play the same four boards against different opponents and score 3 of 4
    matchpoints on each: boards won 0 against 0, they never meet (head-to-head 0 against 0):
    only a lot separates them (R-PAIR-TIE-1 (3))."""
    from decimal import Decimal

    from results.models import PairFinalResult, PairFinalTraveller
    from tests.factories import PairCompetitionFactory, accepted_upload, member

    comp = PairCompetitionFactory(discipline="open", sm_places=sm_places)
    upload = accepted_upload(comp, None, "final.xml")
    keys, names = {}, {}
    for label, pct in (("P1", 65), ("X", 60), ("Y", 60), ("Q1", 40), ("Q2", 40)):
        p1, p2 = member(season=comp.season), member(season=comp.season)
        PairFinalResult.objects.create(
            upload=upload,
            competition=comp,
            player1=p1,
            player2=p2,
            total=Decimal(pct),
            percentage=Decimal(pct),
            boards_played=4,
        )
        keys[label] = "-".join(sorted((p1.mid, p2.mid)))
        names[label] = f"{p1.full_name} – {p2.full_name}"
    for board in range(1, 5):
        for pair, opponent in (("X", "Q1"), ("Y", "Q2")):
            PairFinalTraveller.objects.create(
                upload=upload,
                board_number=board,
                ns_key=keys[pair],
                ew_key=keys[opponent],
                mp_ns=Decimal(3),
                mp_ew=Decimal(1),
            )
    return comp, keys, names


def sm_rows(comp) -> dict[str, int | None]:
    snap = StandingSnapshot.objects.get(scope="pair_final", competition=comp)
    return {r["key"]: r["sm_place"] for r in snap.data["rows"]}


def test_r_pair_tie_1_the_finals_sm_places_wait_on_tks_lot(tk, commit):
    """R-PAIR-TIE-1's last sentence: with 2 SM places, P1 has the first and X or Y the second:
    the lot between X and Y decides it, so it is queued and the SM place reads provisional
    until TK draws; then the place follows the lot."""
    from results.services.lots import PAIR_FINAL
    from results.services.recompute import recompute_pair_competition

    comp, keys, names = final_with_tie(sm_places=2)
    recompute_pair_competition(comp.id)
    places = sm_rows(comp)
    assert places[keys["P1"]] == 1 and {places[keys["X"]], places[keys["Y"]]} == {2, None}
    with clock.frozen("2017-04-22 20:00"):
        lots = section(tk.get("/tk/").content.decode(), "lots")
        page = tk.get(f"/par/final/{comp.pk}/").content.decode()
    assert "finalen" in lots and "plats 2–3" in lots and names["X"] in lots
    assert f"/par/final/{comp.pk}/" in lots and "R-PAIR-TIE-1" in lots
    assert "lott ej dragen" in page and "preliminärt, lott ej dragen" in page
    among = ",".join(sorted([keys["X"], keys["Y"]]))
    with clock.frozen("2017-04-22 20:00"), commit():
        tk.post(
            f"/tk/lott/{comp.pk}/",
            {"among": among, "standing": PAIR_FINAL, "witnesses": "Anna Berg"},
        )
    lot = Lot.objects.get()
    assert lot.standing == PAIR_FINAL and lot.winners == seeded_draw(int(lot.seed))(lot.among, 2)
    places = sm_rows(comp)
    assert places[lot.winners[0]] == 2 and places[lot.winners[1]] is None
    with clock.frozen("2017-04-22 20:00"):
        page = tk.get(f"/par/final/{comp.pk}/").content.decode()
    assert "lott dragen" in page and "preliminärt, lott ej dragen" not in page


def test_r_pair_tie_2_a_tie_the_sm_places_do_not_cut_needs_no_lot(tk):
    """With 3 SM places X and Y both have one: their order decides no SM place, and the
    plaques are shared (R-PAIR-TIE-2: X and Y both silver), so nothing is queued."""
    from results.services.recompute import recompute_pair_competition

    comp, keys, names = final_with_tie(sm_places=3)
    recompute_pair_competition(comp.id)
    assert {sm_rows(comp)[keys[k]] for k in ("X", "Y")} == {2, 3}
    rows = StandingSnapshot.objects.get(scope="pair_final", competition=comp).data["rows"]
    plaques = {r["key"]: r["plaque_place"] for r in rows}
    assert plaques[keys["X"]] == plaques[keys["Y"]] == 2
    with clock.frozen("2017-04-22 20:00"):
        lots = section(tk.get("/tk/").content.decode(), "lots")
        page = tk.get(f"/par/final/{comp.pk}/").content.decode()
    assert names["X"] not in lots and "lott ej dragen" not in page


def test_the_final_page_reads_its_lots_in_a_fixed_number_of_queries(client):
    """/par/final/<id>/ with a tie across the SM places (and its lot undrawn) costs the same
    queries as one whose tie changes nothing: the lots are read in one query either way."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from results.services.recompute import recompute_pair_competition

    counts = []
    for sm_places in (2, 3):
        comp, _keys, _names = final_with_tie(sm_places=sm_places)
        recompute_pair_competition(comp.id)
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/par/final/{comp.pk}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 8

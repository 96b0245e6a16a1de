"""Ties inside a DM Par heat's table (R-PAIR-TIE-1..3), from a real upload of a bronze heat
(``tests/results/_bronze_heat.py`` has the file and works out every figure by hand).

Issue 21: the heat's stored standing broke the tie of A, B and U (50 % each) among all three
(B 8 boards won, A 7, U 6: B above A), while the seat went by the declared pairs' own
tie-break (A 5 boards won against B's 4: A's seat), so the page listed B above A and gave A
the seat. The order of the qualifier's pairs is now their own tie-break everywhere, and U, who
did not declare, follows them: its order against them matters for no final place."""

from __future__ import annotations

import pytest

from clubs.models import FinalSeat
from results.models import AllocationRun, StandingSnapshot
from tests.factories import UserFactory
from tests.results._bronze_heat import bronze_season, east_west_totals

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk():
    return UserFactory(username="tk", is_superuser=True, is_staff=True)


@pytest.fixture
def bronze(tk, django_capture_on_commit_callbacks):
    return bronze_season(tk, django_capture_on_commit_callbacks)


def test_the_east_west_pairs_are_not_in_the_tie():
    # The arithmetic of the file: no East-West pair lands on A, B and U's 100 matchpoints.
    assert east_west_totals() == {"6": 96, "7": 104, "8": 92, "9": 110, "10": 98}
    assert sum(east_west_totals().values()) == 25 * 5 * 8 - (200 + 3 * 100 + 0)


def test_r_pair_tie_1_a_bronze_heats_published_order_is_the_one_its_seats_follow(bronze):
    comp, z, entries = bronze
    a, b, u = entries["2"].pk, entries["3"].pk, entries["4"].pk
    rows = StandingSnapshot.objects.get(scope="pair_heat", heat=z).data
    order = [r["entry_id"] for r in rows]
    # R-PAIR-TIE-1 among the declared pairs: A (5 boards won against B) before B (4); U, on the
    # same 50.00 %, after them: it does not take part in the qualifier.
    assert order.index(a) + 1 == order.index(b) == order.index(u) - 1
    by_id = {r["entry_id"]: r for r in rows}
    assert [by_id[k]["percentage"] for k in (a, b, u)] == ["50.00"] * 3
    assert by_id[a]["qualifier_rank"] == 2 and by_id[b]["qualifier_rank"] == 3
    assert by_id[u]["qualifier_rank"] is None and not by_id[u]["qualifier"]
    assert by_id[b]["decided_by"] == "boards_won" and by_id[u]["decided_by"] == "qualifier"
    assert by_id[a]["rank"] < by_id[b]["rank"] < by_id[u]["rank"]
    # Z's 2 seats (R-ALLOC-3: 1.867 → 2) go to pair 1 and A, in the published order.
    venues = {
        v["label"]: v for v in AllocationRun.objects.get(competition=comp).explanation["venues"]
    }
    assert venues["Bronskval Z"]["seats"] == 2 and venues["X"]["seats"] == 26
    seated = set(
        FinalSeat.objects.filter(competition=comp, origin_heat=z).values_list("holder", flat=True)
    )
    assert seated == {entries["1"].pk, a}
    assert [h["entry"] for h in venues["Bronskval Z"]["next"]][:2] == [str(b), str(entries["5"].pk)]


def test_r_pair_tie_1_each_tie_says_how_it_was_broken(bronze):
    _comp, z, entries = bronze
    by_id = {r["entry_id"]: r for r in StandingSnapshot.objects.get(heat=z).data}
    a, b, u = (by_id[entries[n].pk] for n in ("2", "3", "4"))

    def notes(row, criterion):
        return [e for e in row["explanation"] if e["criterion"] == criterion]

    # Boards won between A and B only: 5 and 4 (U never counted), named with the pairs' names.
    assert [e["value"] for e in notes(a, "boards_won")] == ["5"]
    assert [e["value"] for e in notes(b, "boards_won")] == ["4"]
    names = {n: f"{e.player1.full_name} – {e.player2.full_name}" for n, e in entries.items()}
    assert names["3"] in notes(a, "boards_won")[0]["message"]["params"]["others"]
    (why,) = notes(u, "qualifier")
    assert why["message"]["params"]["mates"] == f"{names['2']}, {names['3']}"
    assert not notes(u, "boards_won")


def _reserve_tie(asked: list[str]):
    """A pairs heat of 2 seats whose allocation gave them to pairs "1" and "2" (qualifier ranks
    1-2); "3" and "4" tie for the first reserve place (3-4), "5" (outside the qualifier) ties
    with them on score. ``asked``: the entries the replacement chain has asked so far."""
    from types import SimpleNamespace

    from results.services.lots import ties_of

    lot = {"among": ["3", "4"], "lot": None}
    rows = [
        {"entry_id": 1, "rank": 1, "qualifier_rank": 1},
        {"entry_id": 2, "rank": 2, "qualifier_rank": 2},
        {"entry_id": 3, "rank": 3, "qualifier_rank": 3, "lot": lot},
        {"entry_id": 4, "rank": 4, "qualifier_rank": 4, "lot": lot},
        {"entry_id": 5, "rank": 5, "qualifier_rank": None},
    ]
    run = SimpleNamespace(
        explanation={
            "venues": [
                {"key": "9", "label": "Z", "seats": 2, "holders": [{"entry": "1"}, {"entry": "2"}]}
            ],
            "direct": [],
            "chain": [{"seat": "1", "asked_keys": asked}],
        }
    )
    (tie,) = ties_of(
        SimpleNamespace(kind="pairs", pk=1),
        SimpleNamespace(data=rows, provisional=False),
        heat=SimpleNamespace(pk=7, name="Z"),
        run=run,
        lots=[],
    )
    return tie


def test_r_pair_tie_1_a_tie_among_reserves_matters_once_the_chain_reaches_it():
    # R-REPL-1: the heat's nearest eliminated is asked first when a seat is given up. Before
    # that, who of "3" and "4" is first reserve decides nothing yet: no lot is queued.
    quiet = _reserve_tie(asked=[])
    assert (quiet.first, quiet.last) == (3, 4) and not quiet.matters and not quiet.undrawn
    asked = _reserve_tie(asked=["3"])  # a seat was given up and "3" is asked (the fixed seed)
    assert asked.fates == {"1": "seat", "2": "seat", "3": "asked", "4": "reserve", "5": None}
    assert asked.matters and asked.undrawn and asked.clause == "R-PAIR-TIE-1"


def test_r_pair_tie_1_every_page_reads_the_one_order(bronze, client):
    """The heat page, its PDF, the API's standings and the competition page all list A above
    B above U, and give A (not B) the seat from Z, with how the tie was broken."""
    from tests.portal.test_result_pdfs import pdf_text

    comp, z, entries = bronze
    names = {n: f"{e.player1.full_name} – {e.player2.full_name}" for n, e in entries.items()}
    a, b, u = names["2"], names["3"], names["4"]
    page = client.get(f"/par/kval/{z.pk}/").content.decode()
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("<tr")
    row_of = {n: next(r for r in rows if f"<td>{names[n]}" in r) for n in ("2", "3", "4")}
    assert rows.index(row_of["2"]) < rows.index(row_of["3"]) < rows.index(row_of["4"])
    assert "I finalen" in row_of["2"] and "Reserv 1" in row_of["3"]
    assert f"Vunna brickor mot {b}: 5" in row_of["2"]
    assert f"Vunna brickor mot {a}: 4" in row_of["3"]
    assert f"Deltar inte i kvalet: står efter {a}, {b}" in row_of["4"]
    pdf = pdf_text(client, f"/par/kval/{z.pk}/resultat.pdf")
    in_pdf = [pdf.index(name.replace("–", "-")) for name in (a, b, u)]  # Latin-1 stand-in
    assert in_pdf == sorted(in_pdf) and "Lika resultat" in pdf
    summary = client.get(f"/api/v1/standings/?heat={z.pk}").json()["results"][0]
    api = client.get(summary["url"]).json()
    listed = [r["entry_id"] for r in api["rows"]]
    assert (
        listed.index(entries["2"].pk)
        < listed.index(entries["3"].pk)
        < listed.index(entries["4"].pk)
    )
    competition = client.get(f"/par/{comp.pk}/").content.decode()
    seats = competition.split("Platserna och varför")[1]
    assert a in seats and b not in seats.split("Bronskval Z")[0]

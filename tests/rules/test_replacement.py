"""The replacement chain (SPEC: Replacement chain, R-REPL-1..7; R-TEAM-REPL-1)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ubf.rules.allocation import allocate_seats, seat_holders
from ubf.rules.replacement import (
    ACCEPTED,
    DECLINED,
    PENDING,
    Offer,
    Override,
    Withdrawal,
    replacement_order,
    run_chain,
)


def first_k(candidates, k):
    return list(candidates)[:k]


def ranking(venue, n):
    return [f"{venue}{i}" for i in range(1, n + 1)]


# SPEC's example: 10 pairs go on from A. 20 seats over A 25, B 13, C 11 entries:
# shares 500/49 (10.20), 260/49 (5.31), 220/49 (4.49) -> 10, 5, 5 seats.
# Closeness: A11 = 11 - 10.20 = 0.80, B6 = 6 - 5.31 = 0.69, C6 = 6 - 4.49 = 1.51,
# B7 = 1.69, A12 = 1.80, C7 = 2.51, B8 = 2.69, A13 = 2.80 ...
VENUES = {"A": 25, "B": 13, "C": 11}
ALLOC = allocate_seats(20, VENUES, draw=first_k)
RANKINGS = {v: ranking(v, n) for v, n in VENUES.items()}


def chain(**kwargs):
    return run_chain(ALLOC.seats, ALLOC.shares, RANKINGS, **kwargs)


def test_example_allocation_is_what_the_comments_say():
    assert ALLOC.seats == {"A": 10, "B": 5, "C": 5}
    assert ALLOC.shares["B"] == Fraction(260, 49)


# --- replacement_order --------------------------------------------------------------------------


def test_r_repl_1_2_3_order_for_a_seat_from_a():
    order = replacement_order("A", ALLOC.shares, ALLOC.seats, RANKINGS)
    # R-REPL-1: A's 11th; R-REPL-2: B6 (0.69) before C6 (1.51); R-REPL-3: A12..A25 in rank
    # order, then the others by closeness: B7 1.69, C7 2.51, B8 2.69, C8 3.51 ...
    assert order[:3] == ["A11", "B6", "C6"]
    assert order[3:17] == ranking("A", 25)[11:]
    assert order[17:] == [
        "B7",
        "C7",
        "B8",
        "C8",
        "B9",
        "C9",
        "B10",
        "C10",
        "B11",
        "C11",
        "B12",
        "B13",
    ]


def test_r_repl_2_closeness_not_venue_order_decides():
    # For a seat from B: A11 (0.80) before C6 (1.51), although C is "nearer" to B in no way.
    order = replacement_order("B", ALLOC.shares, ALLOC.seats, RANKINGS)
    assert order[:3] == ["B6", "A11", "C6"]


def test_r_repl_7_no_origin_every_venue_by_closeness():
    order = replacement_order(None, ALLOC.shares, ALLOC.seats, RANKINGS)
    # Firsts: B6 0.69, A11 0.80, C6 1.51; then B7 1.69, A12 1.80, C7 2.51, B8 2.69, A13 2.80.
    assert order[:8] == ["B6", "A11", "C6", "B7", "A12", "C7", "B8", "A13"]


def test_r_repl_unavailable_entries_are_left_out_and_ranks_kept():
    # A11 declined and B6 holds a seat elsewhere: A12 is A's first; B7 is B's first with its own
    # closeness 1.69, behind C6 1.51.
    order = replacement_order("A", ALLOC.shares, ALLOC.seats, RANKINGS, {"A11", "B6"})
    assert order[:3] == ["A12", "C6", "B7"]
    assert "A11" not in order and "B6" not in order


def test_r_repl_2_ties_larger_share_then_venue_key():
    # 10 seats over X 10, Y 10, Z 5: shares 4, 4, 2, seats 4, 4, 2. X5, Y5 and Z3 are all
    # 1.00 away: the larger share goes first (X, Y before Z), then the venue key (X before Y).
    alloc = allocate_seats(10, {"Y": 10, "X": 10, "Z": 5})
    rankings = {"Y": ranking("Y", 10), "X": ranking("X", 10), "Z": ranking("Z", 5)}
    order = replacement_order(None, alloc.shares, alloc.seats, rankings)
    assert order[:6] == ["X5", "Y5", "Z3", "X6", "Y6", "Z4"]


def test_replacement_order_seat_holders_are_never_candidates():
    order = replacement_order("A", ALLOC.shares, ALLOC.seats, RANKINGS)
    holders = {e for v, r in RANKINGS.items() for e in r[: ALLOC.seats[v]]}
    assert not holders & set(order)


# --- run_chain: the SPEC's worked example -----------------------------------------------------


def test_r_repl_1_one_declines_the_11th_is_asked():
    result = chain(withdrawals=[Withdrawal("A4", reason="sjukdom")])
    assert result.to_ask == {"A4": "A11"}
    step = result.state("A4").next_step
    assert step.clause == "R-REPL-1"
    assert step.data["rank"] == 11
    assert "A11" in step.sv and "plats 11" in step.sv
    assert result.holders["A1"] == "A1"  # other seats untouched


def test_r_repl_2_if_the_11th_declines_the_other_venues_follow():
    result = chain(withdrawals=[Withdrawal("A4")], offers=[Offer("A11", "A4", DECLINED)])
    assert result.to_ask == {"A4": "B6"}
    step = result.state("A4").next_step
    assert step.clause == "R-REPL-2"
    assert step.data["closeness"] == Fraction(34, 49)  # 6 - 260/49
    assert "6 − 5,31 (260/49) = 0,69 (34/49)" in step.sv
    assert [c["entry"] for c in step.data["next_in_line"]] == ["C6"]
    # B6 declines too: C6, the next venue by closeness.
    result = chain(
        withdrawals=[Withdrawal("A4")],
        offers=[Offer("A11", "A4", DECLINED), Offer("B6", "A4", DECLINED)],
    )
    assert result.to_ask == {"A4": "C6"}
    assert result.state("A4").next_step.clause == "R-REPL-2"


def test_r_repl_3_back_to_the_origin_then_the_others_then_tk():
    offers = [Offer(e, "A4", DECLINED) for e in ["A11", "B6", "C6"]]
    result = chain(withdrawals=[Withdrawal("A4")], offers=offers)
    # R-REPL-3: every other venue's nearest declined: back to A, next in rank A12.
    assert result.to_ask == {"A4": "A12"}
    assert result.state("A4").next_step.clause == "R-REPL-3"
    # A's list runs out: the other venues' next entries by closeness (B7 1.69, C7 2.51).
    offers += [Offer(e, "A4", DECLINED) for e in ranking("A", 25)[11:]]
    result = chain(withdrawals=[Withdrawal("A4")], offers=offers)
    assert result.to_ask == {"A4": "B7"}
    offers.append(Offer("B7", "A4", DECLINED))
    assert chain(withdrawals=[Withdrawal("A4")], offers=offers).to_ask == {"A4": "C7"}


def test_r_repl_3_nobody_left_tk_decides():
    alloc = allocate_seats(2, {"P": 2, "Q": 2})
    rankings = {"P": ["P1", "P2"], "Q": ["Q1", "Q2"]}
    result = run_chain(
        alloc.seats,
        alloc.shares,
        rankings,
        withdrawals=[Withdrawal("P1")],
        offers=[Offer("P2", "P1", DECLINED), Offer("Q2", "P1", DECLINED)],
    )
    assert result.tk_decides == ("P1",)
    assert result.to_ask == {}
    step = result.state("P1").next_step
    assert step.clause == "R-REPL-3" and "TK" in step.sv and step.entry is None


def test_r_repl_4_two_decliners_the_11th_and_12th_are_asked():
    result = chain(withdrawals=[Withdrawal("A4"), Withdrawal("A9")])
    assert result.to_ask == {"A4": "A11", "A9": "A12"}
    assert {result.state(s).next_step.clause for s in ("A4", "A9")} == {"R-REPL-4"}


def test_r_repl_4_one_of_them_declines_that_seat_moves_to_the_other_venues():
    # A11 declines A4's seat while A12 still considers A9's: A4's seat goes on as R-REPL-2,
    # not to A13.
    result = chain(
        withdrawals=[Withdrawal("A4"), Withdrawal("A9")],
        offers=[Offer("A11", "A4", DECLINED), Offer("A12", "A9", PENDING)],
    )
    assert result.to_ask == {"A4": "B6"}
    assert result.pending == {"A9": "A12"}
    assert result.state("A4").next_step.clause == "R-REPL-2"
    # Both decline: the two seats take B6 and then the next by closeness (C6; B's B7 is 1.69).
    result = chain(
        withdrawals=[Withdrawal("A4"), Withdrawal("A9")],
        offers=[Offer("A11", "A4", DECLINED), Offer("A12", "A9", DECLINED)],
    )
    assert result.to_ask == {"A4": "B6", "A9": "C6"}


def test_r_repl_declined_entry_is_never_asked_again():
    # A11 declined A4's seat; when A7 withdraws later, A11 is not asked for it: A12 is.
    result = chain(
        withdrawals=[Withdrawal("A4"), Withdrawal("A7")],
        offers=[Offer("A11", "A4", DECLINED), Offer("B6", "A4", ACCEPTED)],
    )
    assert result.holders["A4"] == "B6"
    assert result.to_ask == {"A7": "A12"}


def test_r_repl_1_pending_offer_is_waited_for():
    result = chain(withdrawals=[Withdrawal("A4")], offers=[Offer("A11", "A4", PENDING)])
    assert result.to_ask == {}
    assert result.pending == {"A4": "A11"}
    assert result.state("A4").status == "pending"


# --- R-REPL-5: records and TK overrides -------------------------------------------------------


def test_r_repl_5_offer_records_are_shown():
    offer = Offer("A11", "A4", DECLINED, asked_at="2017-04-01 10:00", recorded_by="tk-ordf")
    result = chain(withdrawals=[Withdrawal("A4", at="2017-03-31")], offers=[offer])
    steps = result.state("A4").steps
    offer_step = next(s for s in steps if s.kind == "offer")
    assert offer_step.answer == DECLINED
    assert offer_step.data["asked_at"] == "2017-04-01 10:00"
    assert offer_step.data["recorded_by"] == "tk-ordf"
    assert offer_step.clause == "R-REPL-5"
    assert [s.kind for s in steps] == ["held", "withdrawn", "offer", "ask"]


def test_r_repl_5_tk_override_names_the_next_entry_with_its_reason():
    override = Override("A4", "C9", "Sent återbud; C9 finns på plats", decided_by="tk-ordf")
    result = chain(withdrawals=[Withdrawal("A4")], overrides=[override])
    assert result.to_ask == {"A4": "C9"}
    step = result.state("A4").steps[-1]
    assert step.kind == "override" and step.clause == "R-REPL-5"
    assert "Sent återbud" in step.sv and step.data["decided_by"] == "tk-ordf"
    # C9 declines: the chain carries on where it was (the own venue's 11th first).
    result = chain(
        withdrawals=[Withdrawal("A4")],
        overrides=[override],
        offers=[Offer("C9", "A4", DECLINED)],
    )
    assert result.to_ask == {"A4": "A11"}
    assert result.state("A4").next_step.clause == "R-REPL-1"


def test_r_repl_5_tk_may_leave_the_seat_empty_or_be_refused_an_impossible_step():
    result = chain(withdrawals=[Withdrawal("A4")], overrides=[Override("A4", None, "För sent")])
    assert result.state("A4").status == "closed"
    assert result.to_ask == {}
    # Naming a seat holder is refused with a violation, and the chain goes on normally.
    result = chain(withdrawals=[Withdrawal("A4")], overrides=[Override("A4", "B1", "fel")])
    assert result.to_ask == {"A4": "A11"}
    assert [v.clause for v in result.violations] == ["R-REPL-5"]


# --- R-REPL-6: recomputed; accepted offers never move ---------------------------------------


def test_r_repl_6_accepted_seat_stays_when_results_change():
    offers = [Offer("A11", "A4", ACCEPTED)]
    before = chain(withdrawals=[Withdrawal("A4")], offers=offers)
    assert before.holders["A4"] == "A11" and before.state("A4").status == "filled"
    # A results correction moves A11 down to 15th: the seat stays with A11, and a new vacancy
    # goes to the new 11th (A12 now), never to A11 again.
    new_a = ranking("A", 25)
    new_a.remove("A11")
    new_a.insert(14, "A11")
    rankings = {**RANKINGS, "A": new_a}
    after = run_chain(
        ALLOC.seats,
        ALLOC.shares,
        rankings,
        withdrawals=[Withdrawal("A4"), Withdrawal("A2")],
        offers=offers,
    )
    assert after.holders["A4"] == "A11"
    assert after.to_ask == {"A2": "A12"}


def test_r_repl_6_late_withdrawal_of_a_replacement_continues_the_same_chain():
    # R-REPL-5: late withdrawals follow the same chain: A11 took A4's seat and then withdrew;
    # the seat goes on to the other venues (B6), not back to A's 12th.
    result = chain(
        withdrawals=[Withdrawal("A4"), Withdrawal("A11", reason="sjuk")],
        offers=[Offer("A11", "A4", ACCEPTED)],
    )
    assert result.holders["A4"] is None
    assert result.to_ask == {"A4": "B6"}
    assert "A11 tackade nej eller lämnade återbud" in result.state("A4").next_step.sv


def test_r_repl_6_offer_for_a_held_seat_is_reported():
    result = chain(offers=[Offer("A11", "A4", ACCEPTED)])
    assert result.holders["A4"] == "A4"
    assert [v.clause for v in result.violations] == ["R-REPL-6"]


# --- R-REPL-7: direct qualifiers ----------------------------------------------------------------


def test_r_repl_7_direct_qualifier_without_heat_goes_by_closeness():
    direct = {"DQ": None}
    result = chain(direct=direct, withdrawals=[Withdrawal("DQ")])
    assert result.to_ask == {"DQ": "B6"}
    assert result.state("DQ").next_step.clause == "R-REPL-7"
    # Each venue's nearest once (B6, A11, C6), then on by closeness (B7 1.69).
    offers = [Offer("B6", "DQ", DECLINED)]
    assert chain(direct=direct, withdrawals=[Withdrawal("DQ")], offers=offers).to_ask == {
        "DQ": "A11"
    }
    offers += [Offer("A11", "DQ", DECLINED), Offer("C6", "DQ", DECLINED)]
    result = chain(direct=direct, withdrawals=[Withdrawal("DQ")], offers=offers)
    assert result.to_ask == {"DQ": "B7"}
    assert result.state("DQ").next_step.clause == "R-REPL-7"


def test_r_repl_7_direct_qualifier_that_played_a_heat_uses_that_venue():
    result = chain(direct={"DQ": "C"}, withdrawals=[Withdrawal("DQ")])
    assert result.to_ask == {"DQ": "C6"}
    assert result.state("DQ").next_step.clause == "R-REPL-1"
    assert result.state("DQ").steps[0].clause == "R-ALLOC-2"


def test_r_repl_2_tie_on_closeness_and_share_is_flagged_for_tk():
    alloc = allocate_seats(10, {"X": 10, "Y": 10, "Z": 5})
    rankings = {v: ranking(v, n) for v, n in {"X": 10, "Y": 10, "Z": 5}.items()}
    result = run_chain(
        alloc.seats, alloc.shares, rankings, direct={"DQ": None}, withdrawals=[Withdrawal("DQ")]
    )
    step = result.state("DQ").next_step
    assert step.entry == "X5"
    assert step.data["tied_with"] == ["Y"]  # Z3 is as close but has the smaller share
    assert "TK kan besluta annat" in step.sv


# --- vacant seats (R-ALLOC-6) and teams (R-TEAM-REPL-1) -------------------------------------------


def test_r_alloc_6_unfilled_seat_is_offered_through_the_chain():
    alloc = allocate_seats(4, {"A": 4, "B": 4})  # 2 + 2
    sh = seat_holders(
        {"A": ["a1", "a2", "a3"], "B": ["b1", "b2", "b3", "b4"]}, alloc.seats, struck={"a2", "a3"}
    )
    assert sh.unfilled == {"A": 1, "B": 0}
    result = run_chain(alloc.seats, alloc.shares, sh.rankings, sh.holders)
    assert result.to_ask == {"A#1": "b3"}
    assert result.state("A#1").steps[0].kind == "vacant"


def test_r_team_repl_1_teams_use_the_same_chain():
    # R-TEAM-ADV-1 / R-TEAM-REPL-1: an 8-team final from two heats of 9 and 7 teams:
    # shares 4.50 and 3.50 -> equal fractions, larger share first: 5 and 3.
    heats = {"Heat Nord": 9, "Heat Syd": 7}
    alloc = allocate_seats(8, heats)
    assert alloc.seats == {"Heat Nord": 5, "Heat Syd": 3}
    rankings = {
        "Heat Nord": [f"team-n{i}" for i in range(1, 10)],
        "Heat Syd": [f"team-s{i}" for i in range(1, 8)],
    }
    result = run_chain(
        alloc.seats,
        alloc.shares,
        rankings,
        withdrawals=[Withdrawal("team-s2")],
        offers=[Offer("team-s4", "team-s2", DECLINED)],
        team=True,
    )
    # Syd's 4th declined; Nord's 6th (6 - 4.5 = 1.5) is asked.
    assert result.to_ask == {"team-s2": "team-n6"}
    assert result.state("team-s2").next_step.data["closeness"] == Fraction(3, 2)
    tk = run_chain(
        alloc.seats,
        alloc.shares,
        {"Heat Nord": rankings["Heat Nord"][:5], "Heat Syd": rankings["Heat Syd"][:3]},
        withdrawals=[Withdrawal("team-s2")],
        team=True,
    )
    assert "Inget lag kvar" in tk.state("team-s2").next_step.sv


# --- properties ---------------------------------------------------------------------------------

venue_sizes = st.dictionaries(
    st.sampled_from(["A", "B", "C", "D", "E", "F"]),
    st.integers(min_value=0, max_value=12),
    min_size=1,
)


def _reference_order(origin, shares, seats, rankings, unavailable):
    """The contract's order written the slow, obvious way (exact Fractions, one sort)."""

    def key(v, k):
        return (seats[v] + k - shares[v], -shares[v], v)

    own = [e for e in rankings.get(origin, [])[seats.get(origin, 0) :] if e not in unavailable]
    own = own if origin is not None else []
    firsts, rest = [], []
    for v, r in rankings.items():
        if v == origin:
            continue
        avail = [(k, e) for k, e in enumerate(r[seats[v] :], 1) if e not in unavailable]
        if avail:
            firsts.append((key(v, avail[0][0]), avail[0][1]))
            rest += [(key(v, k), e) for k, e in avail[1:]]
    return own[:1] + [e for _k, e in sorted(firsts)] + own[1:] + [e for _k, e in sorted(rest)]


@settings(max_examples=300, deadline=None)
@given(
    sizes=venue_sizes,
    seats=st.integers(min_value=0, max_value=20),
    data=st.data(),
)
def test_replacement_order_properties(sizes, seats, data):
    alloc = allocate_seats(seats, sizes, draw=first_k)
    rankings = {v: ranking(v, n) for v, n in sizes.items()}
    non_seat = [e for v, r in rankings.items() for e in r[alloc.seats[v] :]]
    unavailable = frozenset(data.draw(st.sets(st.sampled_from(non_seat))) if non_seat else ())
    origin = data.draw(st.sampled_from([None, *sizes]))
    order = replacement_order(origin, alloc.shares, alloc.seats, rankings, unavailable)
    # Every available non-seat entry exactly once.
    assert sorted(order) == sorted(e for e in non_seat if e not in unavailable)
    assert order == _reference_order(origin, alloc.shares, alloc.seats, rankings, unavailable)


@settings(max_examples=150, deadline=None)
@given(sizes=venue_sizes, seats=st.integers(min_value=1, max_value=12), data=st.data())
def test_run_chain_simulation_properties(sizes, seats, data):
    # R-REPL-3/6: play the chain out with random answers: nobody is asked twice, accepted seats
    # never move, nobody holds two seats, and TK decides only when nobody is left.
    alloc = allocate_seats(seats, sizes, draw=first_k)
    rankings = {v: ranking(v, n) for v, n in sizes.items()}
    holders = [e for v, r in rankings.items() for e in r[: alloc.seats[v]]]
    if not holders:
        return
    gone = data.draw(st.lists(st.sampled_from(holders), unique=True, min_size=1))
    withdrawals = [Withdrawal(e) for e in gone]
    offers: list[Offer] = []
    accepted: dict[str, str] = {}
    for _round in range(60):
        result = run_chain(
            alloc.seats, alloc.shares, rankings, withdrawals=withdrawals, offers=offers
        )
        assert not result.violations
        for seat, entry in accepted.items():
            assert result.holders[seat] == entry
        current = [h for h in result.holders.values() if h is not None]
        assert len(current) == len(set(current))
        if not result.to_ask:
            break
        asked_before = {o.entry for o in offers}
        for seat, entry in result.to_ask.items():
            assert entry not in asked_before and entry not in gone
            answer = data.draw(st.sampled_from([ACCEPTED, DECLINED]))
            offers.append(Offer(entry, seat, answer))
            if answer == ACCEPTED:
                accepted[seat] = entry
    non_seat = {e for v, r in rankings.items() for e in r[alloc.seats[v] :]}
    if result.tk_decides:
        assert non_seat <= {o.entry for o in offers}
    assert len(result.tk_decides) + len(accepted) == len(gone)


def test_r_alloc_6_entry_listed_twice_is_reported():
    alloc = allocate_seats(2, {"A": 3, "B": 3})
    result = run_chain(alloc.seats, alloc.shares, {"A": ["a1", "x", "a3"], "B": ["b1", "x", "b3"]})
    assert [v.clause for v in result.violations] == ["R-ALLOC-6"]
    assert "två gånger" in result.violations[0].message_sv

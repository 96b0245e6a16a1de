"""A pair heat of two sessions (issue 10, item 4; R-PAIR-KVAL-6): each session's file is
uploaded as that session of the same heat, and the heat's result is both together.

The heat below, worked by hand. Four pairs at two tables, MP1 (2 per result beaten, top 2
per board). Session 1 (12 February's heat starts 5 February) has two boards, session 2 three
boards, numbered 1-3 again (so a board is known by its session and number).

Session 1 (top 4 per pair):
* board 1: table 1 pair 1 (NS) v 3 (EW) 4S= 420; table 2 pair 4 v 2 4S= 420. Equal: 1 each.
* board 2: table 1 pair 1 v 2 2S= 110; table 2 pair 3 v 4 2S+1 140. NS 3 2, NS 1 0; EW 2 2,
  EW 4 0.
Totals: 1: 1 + 0 = 1 (25 %); 2: 1 + 2 = 3 (75 %); 3: 1 + 2 = 3 (75 %); 4: 1 + 0 = 1 (25 %).

Session 2 (top 6 per pair):
* board 1: table 1 pair 1 v 2 3NT-1 -50; table 2 pair 3 v 4 2S= 110. NS 3 2, NS 1 0; EW 2 2,
  EW 4 0.
* board 2 (NS vulnerable): table 1 pair 1 v 4 4S= 620; table 2 pair 2 v 3 3S= 140. NS 1 2,
  NS 2 0; EW 3 2, EW 4 0.
* board 3: table 1 pair 1 v 3 3NT= 400; table 2 pair 2 v 4 3NT-1 -50. NS 1 2, NS 2 0; EW 4 2,
  EW 3 0.
Totals: 1: 0 + 2 + 2 = 4 (66.67 %); 2: 2 + 0 + 0 = 2 (33.33 %); 3: 2 + 2 + 0 = 4 (66.67 %);
4: 0 + 0 + 2 = 2 (33.33 %).

The heat (Σ MP / Σ max over the boards played, max 4 + 6 = 10): 1: 5 (50.00 %); 2: 5
(50.00 %); 3: 7 (70.00 %); 4: 3 (30.00 %). The mean of the two percentages would give 3
70.83 %, 2 54.17 %, 1 45.83 %, 4 29.17 %, so these figures tell the two methods apart.

Ranking: 3 first. 1 and 2 on 50.00 %: R-PAIR-TIE-1 (1) boards won between them over both
sessions: s1 b1 1-1 (none), s1 b2 0-2 (2), s2 b1 0-2 (2), s2 b2 2-0 (1), s2 b3 2-0 (1): 2-2.
(2) head to head: they met on s1 b2 (1 scored 0, 2 scored 2) and s2 b1 (0 and 2): 0 v 4, so 2
goes first. (Session 1's boards alone would decide it by boards won, 1-0 for 2; session 2's
alone would put 1 first, 2-1.) Then 1, then 4.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from clubs import clock
from clubs.models import FinalSeat
from pairs.models import PairEntry
from results.importers.model import ParsedBoard, ParsedPair, ParsedPairEvent, ParsedPlayer
from results.importers.model import TravellerLine as T
from results.models import AllocationRun, PairResult, ResultUpload, StandingSnapshot
from results.services.uploads import UploadRejected, problem_dicts, upload_pair_heat
from tests.factories import PairHeatFactory, UserFactory, member
from tests.results.test_importers_magic import TWO_SESSIONS
from ubf.demo.writers import write_pbn_pairs, write_usebio_pairs

pytestmark = pytest.mark.django_db

SESSION_1, SESSION_2 = date(2017, 2, 5), date(2017, 2, 12)


@pytest.fixture(autouse=True)
def _commit(django_capture_on_commit_callbacks, monkeypatch):
    """Run the recompute scheduled on commit right after each upload, as the real app does."""
    real = upload_pair_heat

    def wrapped(*args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return real(*args, **kwargs)

    monkeypatch.setitem(globals(), "upload_pair_heat", wrapped)


@pytest.fixture
def tk():
    return UserFactory(username="tk", is_superuser=True, is_staff=True)


def two_session_heat(pairs=("1", "2", "3", "4"), **kwargs):
    heat = PairHeatFactory(first_date=SESSION_1, last_date=SESSION_2, **kwargs)
    season = heat.competition.season
    entries = {}
    for n in pairs:
        entries[n] = PairEntry.objects.create(
            heat=heat,
            player1=member(season=season, mid=f"7{n}001", first_name=f"Ann{n}"),
            player2=member(season=season, mid=f"7{n}002", first_name=f"Bo{n}"),
            pair_number=n,
        )
    return heat, entries


def _pairs(figures: dict[str, tuple[str, str]], boards: int) -> list[ParsedPair]:
    order = sorted(figures, key=lambda n: -Decimal(figures[n][1]))
    return [
        ParsedPair(
            number=n,
            players=(
                ParsedPlayer(f"7{n}001", f"Ann{n} Test"),
                ParsedPlayer(f"7{n}002", f"Bo{n} Test"),
            ),
            total=Decimal(figures[n][0]),
            percentage=Decimal(figures[n][1]),
            rank=order.index(n) + 1,
            boards_played=boards,
        )
        for n in figures
    ]


def line(ns, ew, contract, tricks, score, mp_ns, table, rnd):
    return T(
        ns=ns,
        ew=ew,
        contract=contract,
        declarer="N",
        tricks=tricks,
        score_ns=score,
        mp_ns=Decimal(mp_ns),
        mp_ew=Decimal(2 - mp_ns),
        table=table,
        round=rnd,
    )


def session_1(**figures_override) -> ParsedPairEvent:
    figures = {"1": ("1", "25.00"), "2": ("3", "75.00"), "3": ("3", "75.00"), "4": ("1", "25.00")}
    figures.update(figures_override)
    return ParsedPairEvent(
        title="DM-par kval, speltillfälle 1",
        date=SESSION_1,
        boards_in_session=2,
        pairs=_pairs(figures, 2),
        boards=[
            ParsedBoard(1, [line("1", "3", "4S", 10, 420, 1, 1, 1), line("4", "2", "4S", 10, 420, 1, 2, 1)]),
            ParsedBoard(2, [line("1", "2", "2S", 8, 110, 0, 1, 2), line("3", "4", "2S", 9, 140, 2, 2, 2)]),
        ],
    )  # fmt: skip


def session_2() -> ParsedPairEvent:
    figures = {"1": ("4", "66.67"), "2": ("2", "33.33"), "3": ("4", "66.67"), "4": ("2", "33.33")}
    return ParsedPairEvent(
        title="DM-par kval, speltillfälle 2",
        date=SESSION_2,
        boards_in_session=3,
        pairs=_pairs(figures, 3),
        boards=[
            ParsedBoard(1, [line("1", "2", "3NT", 8, -50, 0, 1, 1), line("3", "4", "2S", 8, 110, 2, 2, 1)]),
            ParsedBoard(2, [line("1", "4", "4S", 10, 620, 2, 1, 2), line("2", "3", "3S", 9, 140, 0, 2, 2)]),
            ParsedBoard(3, [line("1", "3", "3NT", 9, 400, 2, 1, 3), line("2", "4", "3NT", 8, -50, 0, 2, 3)]),
        ],
    )  # fmt: skip


def pbn(event) -> bytes:
    return write_pbn_pairs(event).encode("latin-1")


def heat_rows(heat) -> list[dict]:
    return StandingSnapshot.objects.get(scope="pair_heat", heat=heat).data


def test_r_pair_kval_6_two_session_files_make_one_heat_result(tk):
    heat, entries = two_session_heat()
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(session_1()), filename="s1.pbn", session=1)
        upload_pair_heat(
            tk, heat, data=write_usebio_pairs(session_2()), filename="s2.xml", session=2
        )
    assert set(heat.uploads.filter(status="accepted").values_list("session", flat=True)) == {1, 2}
    rows = heat_rows(heat)
    # The hand-worked heat in the module docstring: 3, then 2 before 1 on head to head, then 4.
    assert [(r["rank"], r["pair_number"], r["percentage"], r["total"], r["boards_played"]) for r in rows] == [
        (1, "3", "70.00", "7.00", 5),
        (2, "2", "50.00", "5.00", 5),
        (3, "1", "50.00", "5.00", 5),
        (4, "4", "30.00", "3.00", 5),
    ]  # fmt: skip
    # R-PAIR-TIE-1 over both sessions' travellers: boards won are level (2-2), the head-to-head
    # meetings (0 v 4 matchpoints) put 2 above 1; either session alone would not say so.
    assert rows[2]["decided_by"] == "h2h_mp"
    pair_1 = {r["pair_number"]: r for r in rows}["1"]
    assert pair_1["sessions"] == [
        {"total": "1.00", "percentage": "25.00", "boards_played": 2},
        {"total": "4.00", "percentage": "66.67", "boards_played": 3},
    ]
    snap = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    assert snap.provisional is False and snap.rounds_played == 2


def test_session_2_before_session_1_gives_the_same_heat(tk):
    heat, _ = two_session_heat()
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(session_2()), filename="s2.pbn", session=2)
        snap = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
        assert snap.provisional and snap.rounds_played == 1
        # Session 2 alone: 1 and 3 on 66.67 %.
        assert sorted(r["percentage"] for r in snap.data) == ["33.33", "33.33", "66.67", "66.67"]
        upload_pair_heat(tk, heat, data=pbn(session_1()), filename="s1.pbn", session=1)
    assert [(r["pair_number"], r["percentage"]) for r in heat_rows(heat)] == [
        ("3", "70.00"), ("2", "50.00"), ("1", "50.00"), ("4", "30.00"),
    ]  # fmt: skip


def test_a_corrected_session_1_does_not_drop_session_2(tk):
    heat, entries = two_session_heat()
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(session_1()), filename="s1.pbn", session=1)
        s2 = upload_pair_heat(tk, heat, data=pbn(session_2()), filename="s2.pbn", session=2)
        # The corrected session 1: board 2 at table 2 was 2S= 110, level with table 1 (1 each).
        corrected = session_1(
            **{"1": ("2", "50.00"), "2": ("2", "50.00"), "3": ("2", "50.00"), "4": ("2", "50.00")}
        )
        board_2 = ParsedBoard(
            2,
            [
                line("1", "2", "2S", 8, 110, 1, 1, 2),
                line("3", "4", "2S", 8, 110, 1, 2, 2),
            ],
        )
        corrected = dataclasses.replace(corrected, boards=[corrected.boards[0], board_2])
        fix = upload_pair_heat(tk, heat, data=pbn(corrected), filename="s1-rättad.pbn", session=1)
    uploads = {u.original_name: u.status for u in heat.uploads.all()}
    assert uploads == {"s1.pbn": "superseded", "s2.pbn": "accepted", "s1-rättad.pbn": "accepted"}
    assert fix.upload.supersedes.original_name == "s1.pbn"
    assert PairResult.objects.filter(upload=s2.upload).count() == 4
    # Now 1: 2 + 4 = 6 (60 %), 3: 2 + 4 = 6 (60 %), 2: 2 + 2 = 4 (40 %), 4: 2 + 2 = 4 (40 %).
    percentages = {r["pair_number"]: r["percentage"] for r in heat_rows(heat)}
    assert percentages == {"1": "60.00", "3": "60.00", "2": "40.00", "4": "40.00"}


def test_r_pair_kval_6_a_pair_new_at_session_2_is_refused_in_one_message(tk):
    heat, entries = two_session_heat(pairs=("1", "2", "3", "4", "5"))
    five = session_2()
    # Session 2 names pair 5 (entered in the heat, absent from session 1) in pair 4's place.
    renamed = dataclasses.replace(
        five,
        pairs=[
            dataclasses.replace(
                p,
                number="5",
                players=(ParsedPlayer("75001", "Ann5 Test"), ParsedPlayer("75002", "Bo5 Test")),
            )
            if p.number == "4"
            else p
            for p in five.pairs
        ],
        boards=[
            dataclasses.replace(
                b,
                lines=[
                    dataclasses.replace(t, ns="5" if t.ns == "4" else t.ns, ew="5" if t.ew == "4" else t.ew)
                    for t in b.lines
                ],
            )
            for b in five.boards
        ],
    )  # fmt: skip
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(session_1()), filename="s1.pbn", session=1)
        with pytest.raises(UploadRejected) as exc:
            upload_pair_heat(tk, heat, data=pbn(renamed), filename="s2.pbn", session=2)
    (p,) = [p for p in exc.value.problems if p.is_error]
    assert p.clause == "R-PAIR-KVAL-6"
    assert p.message_sv.startswith("1 par i speltillfälle 2 spelade inte speltillfälle 1: 5.")
    assert heat.uploads.filter(session=2).count() == 0


def test_session_1_s_file_again_as_session_2_is_refused(tk):
    heat, _ = two_session_heat()
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(session_1()), filename="s1.pbn", session=1)
        with pytest.raises(UploadRejected) as exc:
            upload_pair_heat(tk, heat, data=pbn(session_1()), filename="kopia.pbn", session=2)
    (p,) = exc.value.problems
    assert p.message_sv == (
        "Filen är densamma som den inlästa filen för speltillfälle 1 (s1.pbn). Ladda upp filen "
        "för speltillfälle 2."
    )
    assert heat.uploads.count() == 1


def test_a_session_2_file_with_pairs_not_in_the_heat_is_refused_in_one_summary(tk):
    heat, _ = two_session_heat(pairs=("1", "2", "3"))
    with clock.frozen(SESSION_2), pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=pbn(session_2()), filename="s2.pbn", session=2)
    errors = [p for p in exc.value.problems if p.is_error]
    assert [p.code for p in errors] == ["unknown-pair"]
    assert errors[0].message_sv.startswith("1 par i filen finns inte i heatet: 4.")
    assert ResultUpload.objects.count() == 0


def test_r_pair_kval_6_a_single_session_heat_refuses_session_2(tk):
    heat = PairHeatFactory(first_date=SESSION_1)
    with pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=pbn(session_2()), filename="s2.pbn", session=2)
    (p,) = exc.value.problems
    assert p.clause == "R-PAIR-KVAL-6"
    assert p.message_sv == (
        f"Heatet {heat.name} har bara ett speltillfälle (2017-02-05), så det finns inget "
        "speltillfälle 2. Ladda upp filen som hela heatets resultat."
    )
    (en,) = problem_dicts(exc.value.problems, "en")
    assert en["text"] == (
        f"The heat {heat.name} has only one session (2017-02-05), so there is no session 2. "
        "Upload the file as the whole heat's result."
    )
    assert ResultUpload.objects.count() == 0


def test_session_2_cannot_come_before_its_day(tk):
    heat, _ = two_session_heat()
    with clock.frozen(date(2017, 2, 11)), pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=pbn(session_2()), filename="s2.pbn", session=2)
    (p,) = exc.value.problems
    assert "2017-02-12" in p.message_sv and p.clause == "R-PAIR-KVAL-6"


def test_r_pair_res_1_a_pair_missing_from_session_2_is_not_ranked(tk):
    heat, entries = two_session_heat(pairs=("1", "2", "3", "4", "5", "6"))
    # Session 1 again with pairs 5 and 6 at a third table; they did not come back.
    extra = session_1()
    extra = dataclasses.replace(
        extra,
        pairs=[],
        boards=[
            dataclasses.replace(b, lines=[*b.lines, line("5", "6", "1NT", 7, 90, 1, 3, b.number)])
            for b in extra.boards
        ],
    )
    # Three results per board (top 4): board 1 420, 420, 90: 1 and 4 NS 3 each, 5 NS 0; EW 2 and
    # 3 1 each, 6 4. Board 2 110 (pair 1), 140 (3), 90 (5): NS 3 4, 1 2, 5 0; EW 4 0, 2 2, 6 4.
    # Totals of 8: 1: 3 + 2 = 5 (62.50); 2: 1 + 2 = 3 (37.50); 3: 1 + 4 = 5 (62.50);
    # 4: 3 + 0 = 3 (37.50); 5: 0 (0.00); 6: 8 (100.00).
    figures = {"1": ("5", "62.50"), "2": ("3", "37.50"), "3": ("5", "62.50"),
               "4": ("3", "37.50"), "5": ("0", "0.00"), "6": ("8", "100.00")}  # fmt: skip
    boards = []
    for b in extra.boards:
        mps = {1: {"1": 3, "4": 3, "5": 0}, 2: {"1": 2, "3": 4, "5": 0}}[b.number]
        boards.append(
            dataclasses.replace(
                b,
                lines=[
                    dataclasses.replace(t, mp_ns=Decimal(mps[t.ns]), mp_ew=Decimal(4 - mps[t.ns]))
                    for t in b.lines
                ],
            )
        )
    extra = dataclasses.replace(extra, pairs=_pairs(figures, 2), boards=boards)
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(extra), filename="s1.pbn", session=1)
        outcome = upload_pair_heat(tk, heat, data=pbn(session_2()), filename="s2.pbn", session=2)
    assert any("5, 6" in w["text"] and w["clause"] == "R-PAIR-RES-1" for w in outcome.warnings)
    rows = {r["pair_number"]: r for r in heat_rows(heat)}
    assert rows["6"]["rank"] is None and rows["6"]["incomplete"] is True
    assert rows["6"]["sessions"][1] is None and rows["5"]["rank"] is None
    # The four that played both: 1 and 3 5 + 4 = 9 of 8 + 6 = 14 (64.29 %), 2 and 4 3 + 2 = 5
    # (35.71 %). 1 v 3: boards won 2-2 (s1 b1 1, s1 b2 3, s2 b1 3, s2 b3 1), head to head
    # (s1 b1, s2 b3) 3 + 2 v 1 + 0: 1 first. 2 v 4: boards won 2-2 (s1 b1 4, s1 b2 2, s2 b1 2,
    # s2 b3 4), head to head (s1 b1, s2 b3) 1 + 0 v 3 + 2: 4 first.
    assert [(r["pair_number"], r["percentage"]) for r in heat_rows(heat) if r["rank"]] == [
        ("1", "64.29"), ("3", "64.29"), ("4", "35.71"), ("2", "35.71"),
    ]  # fmt: skip


def flat_session(day: date, boards: int = 12) -> ParsedPairEvent:
    """A session of ``boards`` boards, 1 v 2 and 3 v 4, every board 4S= 420 at both tables:
    every pair 1 matchpoint a board, ``boards`` of 2 × ``boards`` (50 %)."""
    return ParsedPairEvent(
        title="DM-par kval",
        date=day,
        boards_in_session=boards,
        pairs=_pairs(dict.fromkeys("1234", (str(boards), "50.00")), boards),
        boards=[
            ParsedBoard(n, [line("1", "2", "4S", 10, 420, 1, 1, 1), line("3", "4", "4S", 10, 420, 1, 2, 1)])
            for n in range(1, boards + 1)
        ],
    )  # fmt: skip


def test_r_alloc_1_the_allocation_waits_for_both_sessions(tk):
    # Two sessions of 12 boards: the heat has 24 boards, the least a qualifier may have
    # (R-PAIR-KVAL-5), so it counts only with both sessions' boards.
    heat, entries = two_session_heat()
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(flat_session(SESSION_1)), filename="s1.pbn", session=1)
        run = AllocationRun.objects.get(competition=heat.competition)
        # One session of two: the heat counts as not yet played: its four entered pairs are
        # counted, nobody holds a seat from it, and the allocation is provisional.
        assert run.provisional is True and run.qualifying_entries == 4
        assert not FinalSeat.objects.filter(
            competition=heat.competition, holder__isnull=False
        ).exists()
        snap = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
        assert snap.provisional and len(snap.data) == 4
        upload_pair_heat(tk, heat, data=pbn(flat_session(SESSION_2)), filename="s2.pbn", session=2)
    run = AllocationRun.objects.get(competition=heat.competition)
    assert run.provisional is False and run.qualifying_entries == 4
    # Four pairs qualified, fewer than 28: all go on (R-ALLOC-1).
    holders = FinalSeat.objects.filter(competition=heat.competition)
    assert sorted(holders.values_list("holder__pairentry__pair_number", flat=True)) == [
        "1",
        "2",
        "3",
        "4",
    ]
    assert {r["boards_played"] for r in heat_rows(heat)} == {24}


def test_whole_heat_file_still_accepted_for_a_two_session_heat(tk):
    """A file of both sessions together (all boards in one file) is the whole heat."""
    heat, _ = two_session_heat()
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(session_1()), filename="allt.pbn")
        assert StandingSnapshot.objects.get(scope="pair_heat", heat=heat).provisional is False
        # A session file replaces the whole-heat file, with a warning that the heat now waits.
        out = upload_pair_heat(tk, heat, data=pbn(session_2()), filename="s2.pbn", session=2)
    assert any(w["clause"] == "R-PAIR-KVAL-6" and "allt.pbn" in w["text"] for w in out.warnings)
    assert heat.uploads.get(original_name="allt.pbn").status == "superseded"
    assert StandingSnapshot.objects.get(scope="pair_heat", heat=heat).provisional is True
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=write_usebio_pairs(session_1()), filename="allt.xml")
    # A whole-heat file replaces the session files in turn.
    assert dict(heat.uploads.values_list("original_name", "status")) == {
        "allt.pbn": "superseded", "s2.pbn": "superseded", "allt.xml": "accepted",
    }  # fmt: skip
    snap = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    assert snap.provisional is False and "sessions" not in snap.data[0]


# ---------------------------------------------------------------------------- Magic Contest

# TWO_SESSIONS (tests/results/test_importers_magic.py) is session 2 of two as Magic Contest
# writes it: Session* are this file's three boards, Total* add a made-up session 1 of three
# boards (pair 1 2.4, pair 2 3.2, pair 3 3.0, pair 4 3.0 MP: TotalScoreMP minus
# SessionScoreMP). Its pairs' MIDs: 1 56789/67890, 2 00203787/00214321 (read as 203787,
# 214321), 3 00312345/00323456, 4 (director "0") and 45678.


def magic_heat():
    heat = PairHeatFactory(first_date=SESSION_1, last_date=SESSION_2)
    season = heat.competition.season
    mids = {"1": ("56789", "67890"), "2": ("203787", "214321"), "3": ("312345", "323456"),
            "4": ("45679", "45678")}  # fmt: skip
    for n, (a, b) in mids.items():
        PairEntry.objects.create(
            heat=heat,
            player1=member(season=season, mid=a),
            player2=member(season=season, mid=b),
            pair_number=n,
        )
    return heat


def magic_session_1() -> ParsedPairEvent:
    """A session 1 of three boards at two tables (1 v 2, 3 v 4), every board 4S= 420 at both:
    every pair 3.0 of 6 (50 %). The made-up session 1 inside TWO_SESSIONS differs for pairs 1
    (2.4) and 2 (3.2) and agrees for pairs 3 and 4 (3.0)."""
    boards = [
        ParsedBoard(n, [line("1", "2", "4S", 10, 420, 1, 1, 1), line("3", "4", "4S", 10, 420, 1, 2, 1)])
        for n in (1, 2, 3)
    ]  # fmt: skip
    pairs = [
        ParsedPair(number=n, total=Decimal(3), percentage=Decimal("50.00"), boards_played=3)
        for n in ("1", "2", "3", "4")
    ]
    return ParsedPairEvent(
        title="Klubbtävling, session 1", date=SESSION_1, boards_in_session=3, pairs=pairs,
        boards=boards,
    )  # fmt: skip


# Ours: 3.0 in session 1 for everyone plus the session columns of TWO_SESSIONS (1 2.0, 2 4.0,
# 3 4.2, 4 2.2 of 6): 1 5.0 of 12 (41.67 %), 2 7.0 (58.33 %), 3 7.2 (60.00 %), 4 5.2 (43.33 %).
# The file's cumulative columns: 1 4.4/36.67, 2 7.2/60.00, 3 7.2/60.00, 4 5.2/43.33: pairs 1
# and 2 differ, 3 and 4 agree.
MISMATCH_START = (
    "Speltillfälle 1 och 2 tillsammans ger inte filens sammanlagda resultat "
    "(TotalScoreMP/TotalPercentage) för 2 par: "
)


def test_magic_contest_session_2_checks_its_cumulative_totals_against_our_sum(tk):
    heat = magic_heat()
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(magic_session_1()), filename="s1.pbn", session=1)
        out = upload_pair_heat(
            tk, heat, data=TWO_SESSIONS.encode("latin-1"), filename="magic-s2.pbn", session=2
        )
    (w,) = [w for w in out.warnings if "TotalScoreMP" in w["text"]]
    assert w["text"].startswith(MISMATCH_START)
    assert "1 (5.00/41.67 % – 4.4/36.67 %); 2 (7.00/58.33 % – 7.2/60.00 %) (vår" in w["text"]
    # The heat is ranked on the session columns (ours), the warning is for TK.
    rows = {r["pair_number"]: r["percentage"] for r in heat_rows(heat)}
    assert rows == {"1": "41.67", "2": "58.33", "3": "60.00", "4": "43.33"}


def test_magic_contest_session_1_after_session_2_is_checked_against_the_stored_file(tk):
    heat = magic_heat()
    with clock.frozen(SESSION_2):
        first = upload_pair_heat(
            tk, heat, data=TWO_SESSIONS.encode("latin-1"), filename="magic-s2.pbn", session=2
        )
        assert not [w for w in first.warnings if "TotalScoreMP" in w["text"]]  # nothing to add up
        out = upload_pair_heat(tk, heat, data=pbn(magic_session_1()), filename="s1.pbn", session=1)
    (w,) = [w for w in out.warnings if "TotalScoreMP" in w["text"]]
    assert w["text"].startswith(MISMATCH_START)
    assert "3 (" not in w["text"] and "4 (" not in w["text"]


def test_upload_page_asks_for_the_session_only_for_a_two_session_heat(client, tk):
    heat, _ = two_session_heat()
    single = PairHeatFactory(first_date=SESSION_1)
    client.force_login(tk)
    page = client.get(reverse("results:upload_pair_heat", args=[heat.id]))
    html = page.content.decode()
    assert 'name="session"' in html
    assert (
        "Speltillfälle 1 (5 februari 2017)" in html and "Speltillfälle 2 (12 februari 2017)" in html
    )
    assert "Hela heatet" in html
    assert (
        'name="session"'
        not in client.get(reverse("results:upload_pair_heat", args=[single.id])).content.decode()
    )
    with clock.frozen(SESSION_2):
        from django.core.files.uploadedfile import SimpleUploadedFile

        response = client.post(
            reverse("results:upload_pair_heat", args=[heat.id]),
            {"file": SimpleUploadedFile("s1.pbn", pbn(session_1())), "session": "1"},
        )
    assert response.status_code == 302
    assert heat.uploads.get(status="accepted").session == 1


def test_par_page_shows_each_session_and_says_when_only_one_is_in(client, tk):
    heat, _ = two_session_heat()
    with clock.frozen(SESSION_2):
        upload_pair_heat(tk, heat, data=pbn(session_1()), filename="s1.pbn", session=1)
        overview = client.get("/par/").content.decode()
        html = client.get(f"/par/kval/{heat.id}/").content.decode()
        assert "efter speltillfälle 1 av 2" in overview  # the heat's row on /par/
        assert "efter speltillfälle 1 av 2" in html
        assert (
            "Heatet räknas i platsfördelningen först när båda speltillfällena är inlästa." in html
        )
        upload_pair_heat(tk, heat, data=pbn(session_2()), filename="s2.pbn", session=2)
        overview = client.get("/par/").content.decode()
        html = client.get(f"/par/kval/{heat.id}/").content.decode()
        english = client.get(f"/par/kval/{heat.id}/?lang=en").content.decode()
    assert "efter speltillfälle" not in html and "efter speltillfälle" not in overview
    assert "Sp. 1 %" in html and "Sp. 2 %" in html and "Totalt %" in html
    # Pair 1's row: 25,00 in session 1, 66,67 in session 2, 50,00 in all (a Swedish page).
    row = html[html.index("<td>Ann1 ") :]  # the pair's own row (tie notes name it elsewhere)
    row = row[: row.index("</tr>")]
    assert [c.split(">")[-1] for c in row.split("</td>")[1:4]] == ["25,00", "66,67", "50,00"]
    assert "S. 1 %" in english and "Total %" in english

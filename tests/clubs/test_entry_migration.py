"""Issue 20's migrations (``clubs/0005``, ``teams/0010``, ``pairs/0003``) on a database made by
the migrations before them, holding what a season can hold: teams with final seats, a vacated
seat with a declined and an accepted offer; pair entries with results, travellers and a
reserve; a direct qualifier that gave its seat up with an offer waiting; a pair entered straight
into a direct final; TK's decisions, fee marks and history rows about all of them; the stored
standings and allocation that name entries by id. After them every row is there, once, with
every reference where it belongs (tools/check_entry_migration.py does the same on the demo
season, comparing the pages too).

The ids, worked out by hand: the teams keep 1, 2, 3 (their entries too); the largest team id,
3, is the pair entries' offset: heat entries 1, 2, 3 become 4, 5, 6; then the direct qualifier
7 and the direct final's pair 8. The team seats keep 1, 2 and the team offers 1, 2; the pairs
seats 1..4 become 3..6 and the pairs offer 1 becomes 3."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.db import connections
from django.test import Client

from pairs.models import PairEntry as LivePairEntry
from teams.models import Team as LiveTeam
from tests.scratch_db import latest, migrate, scratch_database

BEFORE = [
    ("clubs", "0004_register_player_history_season_finished_champions"),
    ("teams", "0009_heat_place_offers"),
    ("pairs", "0002_verbose_names"),
    ("results", "0004_lots_standing_lot"),
    ("portal", "0002_verbose_names"),
]
WHEN = datetime(2017, 2, 20, 10, 0, tzinfo=UTC)


def _season_before(apps):
    """The rows before issue 20, made with the models of that state."""
    get = apps.get_model
    user = get("auth", "User").objects.create(username="tk", is_superuser=True)
    season = get("clubs", "Season").objects.create(name="2016-2017", start_year=2016)
    district = get("clubs", "District").objects.create(code="UBF", name="UBF")
    club = get("clubs", "Club").objects.create(district=district, name="BK", short_name="BK")
    p = {
        i: get("clubs", "Player").objects.create(
            mid=str(i), first_name=f"F{i}", last_name=f"E{i}", gender="F"
        )
        for i in range(1, 13)
    }
    tc = get("teams", "TeamCompetition").objects.create(
        season=season,
        discipline="teams",
        qualifying_start=date(2016, 10, 1),
        qualifying_end=date(2017, 1, 31),
        heat_registration_deadline=date(2016, 9, 15),
        final_day1=date(2017, 3, 4),
        final_day2=date(2017, 3, 5),
        final_venue="Uppsala",
    )
    th = get("teams", "TeamHeat").objects.create(
        competition=tc,
        kind="teams",
        name="Lagkval",
        first_date=date(2016, 11, 5),
        last_date=date(2016, 11, 6),
        responsible_name="R",
        responsible_email="r@example.se",
        boards_per_match=16,
        start_fee=500,
        status="approved",
    )
    get("teams", "TeamHeatOrganiser").objects.create(heat=th, club=club, competition=tc)
    t1, t2, t3 = (
        get("teams", "Team").objects.create(
            competition=tc, heat=th, number=n, name=name, captain=p[n], address="", phone=""
        )
        for n, name in ((1, "Alfa"), (2, "Beta"), (3, "Gamma"))
    )
    get("teams", "HistoricalTeam").objects.create(
        id=t1.id,
        competition=tc,
        heat=th,
        number=1,
        name="Alfa",
        captain=p[1],
        address="",
        phone="",
        email="",
        is_direct_qualifier=False,
        status="entered",
        status_reason="",
        history_date=WHEN,
        history_type="+",
    )
    match = get("teams", "Match").objects.create(
        competition=tc, stage="final", round=1, home=t1, away=t2, boards=24
    )
    get("teams", "Lineup").objects.create(match=match, team=t1, player=p[1], half=1)
    other_heat = get("teams", "TeamHeat").objects.create(
        competition=tc,
        kind="teams",
        name="Lagkval 2",
        first_date=date(2016, 11, 12),
        last_date=date(2016, 11, 13),
        responsible_name="R",
        responsible_email="r@example.se",
        boards_per_match=16,
        start_fee=500,
    )
    get("teams", "HeatPlaceOffer").objects.create(
        competition=tc,
        team=t2,
        from_heat=th,
        to_heat=other_heat,
        offered_at=WHEN,
        answer="declined",
    )
    Seat, Offer = get("teams", "TeamFinalSeat"), get("teams", "TeamFinalOffer")
    s1 = Seat.objects.create(
        competition=tc, team=t1, key="1", source="allocation", status="vacated", number=1
    )
    Seat.objects.create(
        competition=tc,
        team=t3,
        key="3",
        source="replacement",
        status="confirmed",
        replaces=s1,
        number=1,
    )
    Offer.objects.create(competition=tc, seat=s1, team=t2, offered_at=WHEN, answer="declined")
    o2 = Offer.objects.create(
        competition=tc, seat=s1, team=t3, offered_at=WHEN, answer="accepted", recorded_by=user
    )
    get("teams", "HistoricalTeamFinalSeat").objects.create(
        id=s1.id,
        competition=tc,
        team=t1,
        key="1",
        source="allocation",
        status="provisional",
        reason="Kvalplats 1 av 1 från Lagkval (R-TEAM-ADV-1)",
        reason_data={},
        history_date=WHEN,
        history_type="+",
    )

    pc = get("pairs", "PairCompetition").objects.create(
        season=season,
        discipline="open",
        final_date=date(2017, 4, 22),
        final_venue="Uppsala",
    )
    ph = get("pairs", "PairHeat").objects.create(
        competition=pc,
        kind="pairs",
        name="Parkval",
        first_date=date(2017, 2, 10),
        heat_type="silver",
        table_fee=50,
        status="approved",
    )
    ph.clubs.add(club)
    e1, e2, e3 = (
        get("pairs", "PairEntry").objects.create(
            heat=ph, player1=p[a], player2=p[a + 1], pair_number=str(n)
        )
        for n, a in ((1, 1), (2, 3), (3, 5))
    )
    get("pairs", "HistoricalPairEntry").objects.create(
        id=e1.id,
        heat=ph,
        player1=p[1],
        player2=p[2],
        pair_number="1",
        takes_part_in_qualifier=True,
        status="entered",
        status_reason="",
        history_date=WHEN,
        history_type="+",
    )
    get("pairs", "ReserveNotice").objects.create(
        entry=e2, session=1, replaced_player=p[3], reserve=p[11], notified_at=WHEN
    )
    upload = get("results", "ResultUpload").objects.create(
        competition_id=pc.pk,
        heat_id=ph.pk,
        original_name="x.pbn",
        format="pbn",
        checksum="x",
        size=1,
        status="accepted",
        file="results/x.pbn",
        uploaded_at=WHEN,
    )
    for entry in (e1, e2):
        get("results", "PairResult").objects.create(
            upload=upload, heat=ph, entry=entry, total=50, percentage=50, boards_played=24
        )
    get("results", "PairTraveller").objects.create(
        upload=upload, board_number=1, ns=e1, ew=e2, mp_ns=1, mp_ew=1
    )
    dq = get("pairs", "DirectQualifier").objects.create(
        competition=pc,
        player1=p[7],
        player2=p[8],
        registered_on=date(2016, 12, 1),
        status="declined",
        status_reason="Splittrat",
    )
    get("pairs", "HistoricalDirectQualifier").objects.create(
        id=dq.id,
        competition=pc,
        player1=p[7],
        player2=p[8],
        registered_on=date(2016, 12, 1),
        status="registered",
        status_reason="",
        history_date=WHEN,
        history_type="+",
    )
    dam = get("pairs", "PairCompetition").objects.create(
        season=season,
        discipline="dam",
        final_date=date(2016, 10, 2),
        final_venue="Enköping",
        is_direct_final=True,
    )
    PSeat, POffer = get("pairs", "FinalSeat"), get("pairs", "Offer")
    PSeat.objects.create(
        competition=pc, origin_heat=ph, entry=e1, key="1", source="allocation", status="confirmed"
    )
    f2 = PSeat.objects.create(
        competition=pc, direct_qualifier=dq, key="dq:1", source="direct", status="vacated"
    )
    f3 = PSeat.objects.create(
        competition=dam,
        player1=p[9],
        player2=p[10],
        key="df:10-9",
        source="direct_final",
        status="confirmed",
        reason_data={
            "template": "Anmält till direktfinalen %(date)s",
            "params": {"date": "2016-09-20"},
        },
    )
    PSeat.objects.create(
        competition=pc, origin_heat=ph, key="7+8#1", source="allocation", status="vacated"
    )
    po1 = POffer.objects.create(seat=f2, entry=e3, offered_at=WHEN)
    get("pairs", "HistoricalFinalSeat").objects.create(
        id=f2.id,
        competition=pc,
        direct_qualifier=dq,
        key="dq:1",
        source="direct",
        status="provisional",
        reason="",
        reason_data={},
        history_date=WHEN,
        history_type="+",
    )
    get("pairs", "HistoricalOffer").objects.create(
        id=po1.id,
        seat=f2,
        entry=e3,
        offered_at=WHEN,
        answer="pending",
        override_reason="",
        reason="",
        reason_data={},
        history_date=WHEN,
        history_type="+",
    )

    def named(object_type, object_id):
        get("clubs", "Decision").objects.create(
            action="x.y.z", object_type=object_type, object_id=object_id, object_repr="r"
        )

    for object_type, obj in (
        ("pairs.pairentry", e2),
        ("pairs.finalseat", f2),
        ("pairs.offer", po1),
        ("pairs.directqualifier", dq),
        ("teams.teamfinalseat", s1),
        ("teams.teamfinaloffer", o2),
        ("teams.team", t2),
    ):
        named(object_type, obj.pk)
    for object_type, obj in (
        ("pairs.pairentry", e1),
        ("pairs.directqualifier", dq),
        ("pairs.finalseat", f3),
        ("teams.team", t1),
    ):
        get("portal", "FeeStatus").objects.create(
            object_type=object_type, object_id=obj.pk, kind="final", collected_on=date(2017, 3, 1)
        )
    lot = {"template": "Lottning mellan %(among)s: lottad som nummer %(place)s"}
    get("results", "StandingSnapshot").objects.create(
        scope="pair_heat",
        competition_id=pc.pk,
        heat_id=ph.pk,
        data=[
            {
                "entry_id": e.id,
                "name": "x",
                "explanation": [
                    {
                        "criterion": "lot",
                        "among": [str(e1.id), str(e2.id)],
                        "message": {**lot, "params": {"among": f"{e1.id}, {e2.id}", "place": n}},
                    }
                ],
            }
            for n, e in enumerate((e1, e2), start=1)
        ],
    )
    Run = get("results", "AllocationRun")
    Run.objects.create(
        competition_id=pc.pk,
        final_size=28,
        seats=27,
        qualifying_entries=3,
        explanation={
            "direct": [{"entry": "dq:1", "name": "Mästarna", "venue": None}],
            "venues": [
                {"key": "7", "holders": [{"entry": "1", "name": "A"}], "next": [{"entry": "3"}]}
            ],
            "chain": [{"seat": "dq:1", "ask_key": "3", "steps": []}],
            "seats": [{"key": "1"}, {"key": "dq:1"}, {"key": "7+8#1"}],
        },
    )
    Run.objects.create(
        competition_id=tc.pk,
        final_size=8,
        seats=8,
        qualifying_entries=3,
        explanation={"chain": [{"seat": "1", "ask_key": "2", "steps": []}]},
    )
    return {"tc": tc.pk, "pc": pc.pk, "dam": dam.pk, "ph": ph.pk, "th": th.pk}


@pytest.mark.timeout(900)  # a database made from the first migration up, twice over
@pytest.mark.django_db(transaction=True)
def test_every_row_is_there_once_with_its_references(tmp_path):
    with scratch_database(tmp_path) as db:
        ids = _season_before(migrate(db, BEFORE))
        get = migrate(db, latest(db)).get_model

        entries = get("clubs", "Entry").objects.order_by("id")
        assert [(e.id, e.kind) for e in entries] == [
            (1, "teams"),
            (2, "teams"),
            (3, "teams"),
            (4, "pairs"),
            (5, "pairs"),
            (6, "pairs"),
            (7, "pairs"),
            (8, "pairs"),
        ]
        # The teams keep their ids (the public /lag/lag/<id>/), and every key to them.
        Team = get("teams", "Team")
        assert list(Team.objects.order_by("pk").values_list("pk", "name")) == [
            (1, "Alfa"),
            (2, "Beta"),
            (3, "Gamma"),
        ]
        assert get("teams", "Match").objects.values_list("home_id", "away_id").get() == (1, 2)
        assert get("teams", "Lineup").objects.get().team_id == 1
        assert get("teams", "HeatPlaceOffer").objects.get().team_id == 2
        history = get("teams", "HistoricalTeam").objects.get()
        assert (history.id, history.entry_ptr_id, history.kind) == (1, 1, "teams")

        # The pair entries: renumbered after the teams, their kinds, their competition.
        PairEntry = get("pairs", "PairEntry")
        rows = PairEntry.objects.order_by("pk").values_list(
            "pk", "entered_as", "competition_id", "heat_id", "player1__mid", "status"
        )
        assert list(rows) == [
            (4, "heat", ids["pc"], ids["ph"], "1", "entered"),
            (5, "heat", ids["pc"], ids["ph"], "3", "entered"),
            (6, "heat", ids["pc"], ids["ph"], "5", "entered"),
            (7, "direct", ids["pc"], None, "7", "declined"),
            (8, "direct_final", ids["dam"], None, "9", "entered"),
        ]
        assert PairEntry.objects.get(pk=7).registered_on == date(2016, 12, 1)
        assert PairEntry.objects.get(pk=8).registered_on == date(2016, 9, 20)
        assert get("pairs", "ReserveNotice").objects.get().entry_id == 5
        assert sorted(get("results", "PairResult").objects.values_list("entry_id", flat=True)) == [
            4,
            5,
        ]
        assert get("results", "PairTraveller").objects.values_list("ns_id", "ew_id").get() == (
            4,
            5,
        )
        histories = get("pairs", "HistoricalPairEntry").objects.order_by("history_id")
        assert [
            (h.id, h.entry_ptr_id, h.entered_as, h.competition_id, h.status) for h in histories
        ] == [
            (4, 4, "heat", ids["pc"], "entered"),
            (7, 7, "direct", ids["pc"], "entered"),
        ]

        # One seat table, one offer table, for both finals.
        seats = get("clubs", "FinalSeat").objects.order_by("pk")
        assert [
            (
                s.pk,
                s.competition_id,
                s.holder_id,
                s.key,
                s.source,
                s.status,
                s.replaces_id,
                s.number,
            )
            for s in seats
        ] == [
            (1, ids["tc"], 1, "1", "allocation", "vacated", None, 1),
            (2, ids["tc"], 3, "3", "replacement", "confirmed", 1, 1),
            (3, ids["pc"], 4, "4", "allocation", "confirmed", None, None),
            (4, ids["pc"], 7, "7", "direct", "vacated", None, None),
            (5, ids["dam"], 8, "", "direct_final", "confirmed", None, None),
            (6, ids["pc"], None, "7+8#1", "allocation", "vacated", None, None),
        ]
        offers = get("clubs", "SeatOffer").objects.order_by("pk")
        assert [(o.pk, o.seat_id, o.entry_id, o.answer, o.recorded_by_id) for o in offers] == [
            (1, 1, 2, "declined", None),
            (2, 1, 3, "accepted", 1),
            (3, 4, 6, "pending", None),
        ]
        seat_history = get("clubs", "HistoricalFinalSeat").objects.order_by("history_id")
        assert [(h.id, h.holder_id, h.key) for h in seat_history] == [(1, 1, "1"), (4, 7, "7")]
        offer_history = get("clubs", "HistoricalSeatOffer").objects.get()
        assert (offer_history.id, offer_history.seat_id, offer_history.entry_id) == (3, 4, 6)

        # Rows named by type and id follow what they name.
        assert sorted(get("clubs", "Decision").objects.values_list("object_type", "object_id")) == [
            ("clubs.finalseat", 1),
            ("clubs.finalseat", 4),
            ("clubs.seatoffer", 2),
            ("clubs.seatoffer", 3),
            ("pairs.pairentry", 5),
            ("pairs.pairentry", 7),
            ("teams.team", 2),
        ]
        assert sorted(
            get("portal", "FeeStatus").objects.values_list("object_type", "object_id")
        ) == [
            ("pairs.pairentry", 4),
            ("pairs.pairentry", 7),
            ("pairs.pairentry", 8),
            ("teams.team", 1),
        ]

        # What the recompute stored by an entry's id.
        snapshot = get("results", "StandingSnapshot").objects.get()
        assert [r["entry_id"] for r in snapshot.data] == [4, 5]
        note = snapshot.data[0]["explanation"][0]
        assert note["among"] == ["4", "5"] and note["message"]["params"]["among"] == "4, 5"
        run = get("results", "AllocationRun").objects.get(competition_id=ids["pc"]).explanation
        assert run["direct"][0]["entry"] == "7"
        assert run["venues"][0]["holders"][0]["entry"] == "4"
        assert run["venues"][0]["next"][0]["entry"] == "6"
        assert (run["chain"][0]["seat"], run["chain"][0]["ask_key"]) == ("7", "6")
        assert [s["key"] for s in run["seats"]] == ["4", "7", "7+8#1"]
        team_run = get("results", "AllocationRun").objects.get(competition_id=ids["tc"])
        assert team_run.explanation == {"chain": [{"seat": "1", "ask_key": "2", "steps": []}]}

        # The next entry, seat and offer take the next ids (PostgreSQL's sequences follow).
        team = LiveTeam.objects.create(
            competition_id=ids["tc"], heat_id=ids["th"], name="Delta", captain_id=1
        )
        pair = LivePairEntry.objects.create(heat_id=ids["ph"], player1_id=11, player2_id=12)
        assert (team.pk, pair.pk, pair.competition_id) == (9, 10, ids["pc"])
        assert (
            get("clubs", "FinalSeat")
            .objects.create(competition_id=ids["pc"], holder_id=pair.pk, source="allocation")
            .pk
            == 7
        )
        if connections["default"].vendor == "sqlite":
            with connections["default"].cursor() as cursor:
                cursor.execute("PRAGMA foreign_key_check")
                assert cursor.fetchall() == []

        # The pages read the migrated rows.
        client = Client()
        assert "Alfa" in client.get("/lag/lag/1/").content.decode()
        page = client.get(f"/par/kval/{ids['ph']}/").content.decode()
        assert "F1 E1 – F2 E2" in page

"""Decisions TK takes on /tk/ beyond yes/no: a W.O. picked from the list of matches (and its
revocation), a lot drawn with a button, a penalty lifted. Each is checked by what TK sees
afterwards (the message, the queue, the log's sentence, the VP and the standings), a refusal
changes nothing, and nobody but TK may take them."""

from __future__ import annotations

import itertools
from datetime import date
from decimal import Decimal

import pytest

from clubs import clock
from clubs.models import Decided, Decision
from results.models import AllocationRun, Lot, StandingSnapshot
from results.services.recompute import recompute_team_competition
from teams.models import Match, Penalty, WalkOver
from tests.factories import (
    ClubOfficialFactory,
    MatchFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
)
from ubf.rules.vp import victory_points

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run what waits for the commit (the recompute) at the end of the block."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def section(html: str, key: str) -> str:
    return html.split(f'id="{key}"')[1].split("</section>")[0]


def two_team_heat():
    """A heat of two teams and their one match, not played; the heat's days have passed on
    2016-11-20 (5-6 Nov)."""
    heat = TeamHeatFactory(competition=TeamCompetitionFactory(season=SeasonFactory()))
    home = TeamFactory(heat=heat, name="Fyris 1")
    away = TeamFactory(heat=heat, name="Enköping 2")
    match = MatchFactory(home=home, away=away, heat=heat, competition=heat.competition)
    return heat, match


# --- W.O. (R-TEAM-WO-1, R-TEAM-WO-2) ---------------------------------------------------------


def test_r_team_wo_1_an_unplayed_match_waits_and_tk_awards_a_wo_picked_from_it(tk, commit):
    heat, match = two_team_heat()
    with clock.frozen("2016-11-20"):
        queue = tk.get("/tk/").content.decode()
        wo = section(queue, "walkovers")
        assert "Fyris 1 – Enköping 2" in wo and "skulle ha spelats senast 2016-11-06" in wo
        with commit():
            tk.post(
                "/tk/wo/",
                {"match": match.pk, "offender": "away", "reason": "Enköping 2 kom inte"},
            )
        page = tk.get("/tk/").content.decode()
    match.refresh_from_db()
    # R-TEAM-WO-2, SPEC's note: the season's default score, 12.00 to the team that came, 0.00
    assert match.status == Match.Status.WALKOVER
    assert (match.vp_home, match.vp_away) == (Decimal("12.00"), Decimal("0.00"))
    assert "W.O. utdömd" in page and "12,00–0,00 VP (lämnad av Enköping 2)" in page
    assert "Fyris 1 – Enköping 2" not in section(page, "walkovers")  # no longer waits
    assert "Fyris 1 – Enköping 2" in section(page, "walkovers_given")
    # the standings the recompute wrote: the home team has the 12 VP
    rows = StandingSnapshot.objects.get(heat=heat).data
    vp = {r["name"]: r["vp"] for r in rows}
    assert Decimal(vp["Fyris 1"]) == Decimal("12.00") and Decimal(vp["Enköping 2"]) == 0
    log = tk.get("/tk/logg/").content.decode()
    assert "TK dömde W.O.: W.O. kval r1: Fyris 1 – Enköping 2 (Enköping 2)" in log


def test_r_team_wo_1_a_requested_wo_is_awarded_with_its_offender_preselected(tk):
    _heat, match = two_team_heat()
    WalkOver.objects.create(match=match, offender=match.home, reason="Fyris 1 lämnade återbud")
    with clock.frozen("2016-11-03"):  # before the heat: asked for, not yet overdue
        wo = section(tk.get("/tk/").content.decode(), "walkovers")
        assert "Begärd W.O.: Fyris 1 kom inte" in wo
        assert 'value="home" required checked' in wo
        tk.post("/tk/wo/", {"match": match.pk, "offender": "home", "reason": "Återbud"})
    wo = WalkOver.objects.get()
    assert wo.status == Decided.Status.GRANTED and wo.offender == match.home
    match.refresh_from_db()
    assert (match.vp_home, match.vp_away) == (Decimal("0.00"), Decimal("12.00"))


def test_a_wo_without_a_reason_or_without_a_match_is_refused_and_changes_nothing(tk):
    _heat, match = two_team_heat()
    with clock.frozen("2016-11-20"):
        page = tk.post(
            "/tk/wo/", {"match": match.pk, "offender": "away", "reason": ""}, follow=True
        ).content.decode()
        assert "R-TEAM-WO-1" in page and "Skriv en motivering" in page
        page = tk.post("/tk/wo/", {"match": "", "offender": "away", "reason": "x"}, follow=True)
        assert "Välj en match" in page.content.decode()
        page = tk.post("/tk/wo/", {"match": "abc", "offender": "x", "reason": "x"}, follow=True)
        assert page.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not WalkOver.objects.exists()
    assert not Decision.objects.exists()


def test_r_team_wo_1_tk_revokes_a_wo_and_the_match_waits_again(tk):
    _heat, match = two_team_heat()
    with clock.frozen("2016-11-20"):
        tk.post("/tk/wo/", {"match": match.pk, "offender": "away", "reason": "Kom inte"})
        wo = WalkOver.objects.get()
        refused = tk.post(f"/tk/wo/{wo.pk}/aterkalla/", {"reason": ""}, follow=True)
        assert "Skriv en motivering" in refused.content.decode()
        assert WalkOver.objects.get().status == Decided.Status.GRANTED
        page = tk.post(
            f"/tk/wo/{wo.pk}/aterkalla/", {"reason": "Matchen spelades"}, follow=True
        ).content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.vp_home is None
    assert "W.O. återkallat" in page
    assert "Fyris 1 – Enköping 2" in section(page, "walkovers")
    assert "Inget väntar." in section(page, "walkovers_given")


# --- Penalties (R-TEAM-RES-1, R-VP-4) -------------------------------------------------------


def played_heat():
    heat = TeamHeatFactory(competition=TeamCompetitionFactory(season=SeasonFactory()))
    home = TeamFactory(heat=heat, name="Fyris 1")
    away = TeamFactory(heat=heat, name="Enköping 2")
    vh, va = victory_points(40, 30, 16)
    match = MatchFactory(
        home=home,
        away=away,
        heat=heat,
        competition=heat.competition,
        status="played",
        imps_home=40,
        imps_away=30,
        vp_home=vh,
        vp_away=va,
    )
    return heat, match, vh


def test_r_team_res_1_tk_lifts_a_penalty_and_the_vp_come_back(tk, commit):
    heat, match, vh = played_heat()
    admin = UserFactory(is_superuser=True, is_staff=True)
    pen = Penalty.objects.create(
        team=match.home, match=match, vp=Decimal("5"), status="granted", decided_by=admin
    )
    recompute_team_competition(heat.competition_id)
    vp = {r["name"]: Decimal(r["vp"]) for r in StandingSnapshot.objects.get(heat=heat).data}
    assert vp["Fyris 1"] == vh - 5  # R-VP-4: after conversion
    page = tk.get("/tk/").content.decode()
    assert "Fyris 1" in section(page, "penalties")
    refused = tk.post(f"/tk/avdrag/{pen.pk}/hav/", {"reason": " "}, follow=True)
    assert "Skriv en motivering" in refused.content.decode()
    assert Penalty.objects.get().status == Decided.Status.GRANTED
    with commit():
        tk.post(f"/tk/avdrag/{pen.pk}/hav/", {"reason": "Avgiften var betald"})
    page = tk.get("/tk/").content.decode()
    assert "VP-avdraget hävt" in page and "Inget väntar." in section(page, "penalties")
    pen.refresh_from_db()
    assert pen.status == Decided.Status.REJECTED and pen.reason == "Avgiften var betald"
    vp = {r["name"]: Decimal(r["vp"]) for r in StandingSnapshot.objects.get(heat=heat).data}
    assert vp["Fyris 1"] == vh  # 10 IMPs in 16 boards: the VP of the match, nothing taken
    assert "TK hävde VP-avdrag" in tk.get("/tk/logg/").content.decode()
    again = tk.post(f"/tk/avdrag/{pen.pk}/hav/", {"reason": "igen"}, follow=True)
    assert "redan hävt" in again.content.decode()


# --- Lots (R-ALLOC-5) -----------------------------------------------------------------------


def heat_with(competition, n, *, played=True, prefix="H"):
    heat = TeamHeatFactory(competition=competition)
    teams = [TeamFactory(heat=heat, name=f"{prefix}-{i}") for i in range(n)]
    for rnd, (a, b) in enumerate(itertools.combinations(range(n), 2), start=1):
        imps = (30 + (b - a) * 5, 30)
        vh, va = victory_points(*imps, 16)
        Match.objects.create(
            competition=competition,
            heat=heat,
            stage="kval",
            round=rnd,
            home=teams[a],
            away=teams[b],
            boards=16,
            played_on=date(2016, 11, 5),
            **(
                {
                    "status": "played",
                    "imps_home": imps[0],
                    "imps_away": imps[1],
                    "vp_home": vh,
                    "vp_away": va,
                }
                if played
                else {}
            ),
        )
    return heat


def test_r_alloc_5_tk_draws_the_lot_with_a_button_and_the_allocation_follows_it(tk, commit):
    comp = TeamCompetitionFactory(season=SeasonFactory())
    heats = [heat_with(comp, 4, prefix=f"L{i}", played=i < 2) for i in range(3)]
    recompute_team_competition(comp.id)
    # 12 teams, 8 seats: each heat's share 8 × 4/12 = 2.67, 2 whole seats each, and the two
    # seats left go by lot among the three equal heats (R-ALLOC-3, R-ALLOC-5)
    with clock.frozen("2016-11-20"):
        lots = section(tk.get("/tk/").content.decode(), "lots")
    assert "Platser att lotta: 2" in lots and "Dra lott" in lots
    assert all(h.name in lots for h in heats)
    among = AllocationRun.objects.get(competition=comp).explanation["lots"][0]["keys"]
    with clock.frozen("2016-11-20"):
        refused = tk.post(
            f"/tk/lott/{comp.pk}/", {"among": ",".join(among), "witnesses": ""}, follow=True
        )
    assert "Ange vittnena" in refused.content.decode() and not Lot.objects.exists()
    with clock.frozen("2016-11-20"):
        with commit():
            tk.post(
                f"/tk/lott/{comp.pk}/", {"among": ",".join(among), "witnesses": "Anna Berg, Bo Ek"}
            )
        page = tk.get("/tk/").content.decode()
    lot = Lot.objects.get()
    assert lot.seed and lot.witnesses == "Anna Berg, Bo Ek" and not lot.drawn_by_hand
    assert lot.drawn_by.is_superuser and len(lot.winners) == 2 and len(lot.losers) == 1
    assert f"Lotten är dragen (seed {lot.seed})" in page
    assert "Inget väntar." in section(page, "lots")  # the recompute took the recorded lot
    seats = {
        v["key"]: v["seats"]
        for v in AllocationRun.objects.get(competition=comp).explanation["venues"]
    }
    assert seats[lot.losers[0]] == 2 and all(seats[w] == 3 for w in lot.winners)
    assert Decision.objects.get(action="results.lot.drawn").data["seed"] == lot.seed
    # the same tie cannot be drawn twice
    again = tk.post(
        f"/tk/lott/{comp.pk}/", {"among": ",".join(among), "witnesses": "X"}, follow=True
    )
    assert "ingen oavgjord lottning" in again.content.decode()
    assert Lot.objects.count() == 1


# --- Who may ---------------------------------------------------------------------------------


def test_only_tk_takes_these_decisions(client):
    _heat, match = two_team_heat()
    comp = match.competition
    pen = Penalty.objects.create(team=match.home, match=match, vp=Decimal("5"), status="granted")
    posts = [
        ("/tk/wo/", {"match": match.pk, "offender": "away", "reason": "x"}),
        (f"/tk/avdrag/{pen.pk}/hav/", {"reason": "x"}),
        (f"/tk/lott/{comp.pk}/", {"among": "1,2", "witnesses": "x"}),
        ("/tk/sasong/", {"reason": "x"}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 302  # anonymous: to the login
    client.force_login(ClubOfficialFactory().user)
    for url, data in posts:
        assert client.post(url, data).status_code == 403
    assert client.get("/tk/sasong/").status_code == 403
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert Penalty.objects.get().status == Decided.Status.GRANTED


def test_r_alloc_5_a_lot_drawn_by_hand_is_entered_by_ticking_its_winners(tk, commit):
    comp = TeamCompetitionFactory(season=SeasonFactory())
    heats = [heat_with(comp, 4, prefix=f"H{i}", played=i < 2) for i in range(3)]
    recompute_team_competition(comp.id)
    among = AllocationRun.objects.get(competition=comp).explanation["lots"][0]["keys"]
    lots = section(tk.get("/tk/").content.decode(), "lots")
    assert "Lotten drogs för hand" in lots and f'value="{among[0]}"' in lots
    url = f"/tk/lott/{comp.pk}/hand/"
    # two seats were drawn: one winner is refused, nothing recorded
    refused = tk.post(
        url,
        {"among": ",".join(among), "winners": [among[0]], "explanation": "Dragen"},
        follow=True,
    ).content.decode()
    assert "Antalet vinnare (1) ska vara lika med antalet platser som lottades (2)" in refused
    assert not Lot.objects.exists()
    with commit():
        tk.post(
            url,
            {
                "among": ",".join(among),
                "winners": among[1:],
                "explanation": "Lappar i en hatt på TK-mötet 20 nov, Anna Berg och Bo Ek",
            },
        )
    page = tk.get("/tk/").content.decode()
    lot = Lot.objects.get()
    assert lot.drawn_by_hand and sorted(lot.winners) == sorted(among[1:])
    assert lot.losers == [among[0]]
    assert "Handlottningen är registrerad" in page and "Inget väntar." in section(page, "lots")
    seats = {
        v["key"]: v["seats"]
        for v in AllocationRun.objects.get(competition=comp).explanation["venues"]
    }
    assert seats[among[0]] == 2 and seats[among[1]] == 3 and seats[among[2]] == 3
    assert {h.name for h in heats} <= set(lot.labels.values())

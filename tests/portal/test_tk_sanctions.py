"""TK's sanctions on /tk/sanktioner/ and in the queue (R-TEAM-RES-1..4, R-VP-4): a VP penalty
per match with an unpaid player, picked from a list, the 14-day deadline in the queue and the
disqualification it leads to, each with a reason; what the heat, team, match and fee pages
then say. Figures worked by hand from the regulations and SPEC R-VP-2's known values, the
standings through the real recompute."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.conf import settings

from clubs import clock
from clubs.models import Decision
from results.models import StandingSnapshot
from teams.models import Lineup, Penalty, RosterEntry, Team
from tests.factories import (
    MatchFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def section(html: str, key: str) -> str:
    return html.split(f'id="{key}"')[1].split("</section>")[0]


def heat_with_unpaid_player():
    """Fyris 1 beat Enköping 2 by 20 IMPs (16 boards: 15.00–5.00) and lost to Sala 3 by 14
    (6.25–13.75), both on 2016-11-05, with Nils Obetald (fee not paid) in both halves of both
    matches (R-VP-2's known values)."""
    season = SeasonFactory()
    heat = TeamHeatFactory(competition=TeamCompetitionFactory(season=season))
    fyris = TeamFactory(heat=heat, name="Fyris 1", players=4)
    enk = TeamFactory(heat=heat, name="Enköping 2", players=4)
    sala = TeamFactory(heat=heat, name="Sala 3", players=4)
    unpaid = member(season=season, paid=False, first_name="Nils", last_name="Obetald")
    RosterEntry.objects.create(team=fyris, player=unpaid)
    figures = [(fyris, enk, 50, 30, "15.00", "5.00"), (fyris, sala, 30, 44, "6.25", "13.75")]
    matches = []
    for rnd, (home, away, ih, ia, vh, va) in enumerate(figures, start=1):
        m = MatchFactory(
            home=home,
            away=away,
            heat=heat,
            competition=heat.competition,
            round=rnd,
            status="played",
            played_on=date(2016, 11, 5),
            imps_home=ih,
            imps_away=ia,
            vp_home=Decimal(vh),
            vp_away=Decimal(va),
        )
        players = [e.player for e in fyris.roster.exclude(player=unpaid)][:3] + [unpaid]
        for p in players:
            for half in (1, 2):
                Lineup.objects.create(match=m, team=fyris, player=p, half=half)
        matches.append(m)
    return heat, fyris, matches, unpaid


def standings(heat) -> dict[str, dict]:
    snap = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
    return {row["name"]: row for row in snap.data}


def test_r_team_res_1_two_matches_with_an_unpaid_player_cost_ten_vp(tk, commit):
    heat, fyris, matches, unpaid = heat_with_unpaid_player()
    page = tk.get("/tk/sanktioner/").content.decode()
    for m in matches:  # picked from the list, not typed
        assert f'value="{m.pk}:{fyris.pk}"' in section(page, "avdrag")
    assert "R-TEAM-RES-1" in section(page, "avdrag")
    for m in matches:
        with commit():
            r = tk.post(
                "/tk/sanktioner/avdrag/",
                {"pick": f"{m.pk}:{fyris.pk}", "vp": "", "reason": "Nils Obetald har inte betalt"},
                follow=True,
            )
        assert "Avdrag beslutat" in r.content.decode()
    assert sorted(Penalty.objects.values_list("vp", flat=True)) == [Decimal("5")] * 2
    # R-VP-4: 15.00 + 6.25 = 21.25 VP, minus 2 × 5 VP = 11.25 VP
    rows = standings(heat)
    assert Decimal(rows["Fyris 1"]["vp"]) == Decimal("11.25")
    assert Decimal(rows["Enköping 2"]["vp"]) == Decimal("5.00")
    # the public pages say it
    for url in (f"/lag/kval/{heat.pk}/", f"/lag/lag/{fyris.pk}/"):
        html = section(tk.get(url).content.decode(), "sanktioner")
        assert "Fyris 1: avdrag 10,00 VP" in html and "R-VP-4" in html
    html = section(tk.get(f"/lag/match/{matches[0].pk}/").content.decode(), "sanktioner")
    assert "−5,00 VP i matchen Fyris 1 – Enköping 2 (R-TEAM-RES-1)" in html
    # Enköping 2, which fielded no unpaid player, has no sanction on its page
    assert 'id="sanktioner"' not in tk.get(f"/lag/lag/{matches[0].away_id}/").content.decode()
    # a second penalty for the same match is refused, nothing saved
    r = tk.post(
        "/tk/sanktioner/avdrag/",
        {"pick": f"{matches[0].pk}:{fyris.pk}", "reason": "igen"},
        follow=True,
    )
    assert "högst ett avdrag per match och regel" in r.content.decode()
    assert Penalty.objects.count() == 2


def test_r_team_res_1_a_penalty_needs_a_reason_and_an_unpaid_player(tk):
    heat, fyris, matches, unpaid = heat_with_unpaid_player()
    other = matches[0].away  # its line-up: four players who have paid
    for p in [e.player for e in other.roster.all()][:4]:
        Lineup.objects.create(match=matches[0], team=other, player=p, half=1)
    r = tk.post("/tk/sanktioner/avdrag/", {"pick": f"{matches[0].pk}:{fyris.pk}", "reason": " "})
    r = tk.get("/tk/sanktioner/")
    assert "Skriv en motivering" in r.content.decode()
    r = tk.post(
        "/tk/sanktioner/avdrag/",
        {"pick": f"{matches[0].pk}:{other.pk}", "reason": "fel lag"},
        follow=True,
    )
    assert "ingen spelare utan betald medlemsavgift" in r.content.decode()
    r = tk.post("/tk/sanktioner/avdrag/", {"pick": "x", "reason": "?"}, follow=True)
    assert "Välj en match och ett lag" in r.content.decode()
    assert not Penalty.objects.exists()


def test_r_team_res_1_the_queue_shows_the_fourteen_days_and_disqualification_follows(tk, commit):
    heat, fyris, matches, unpaid = heat_with_unpaid_player()
    with clock.frozen("2016-11-19"):
        page = tk.get("/tk/").content.decode()
    item = section(page, "unpaid")
    # first offence 2016-11-05 + 14 days = 2016-11-19, the last day the fee may reach SBF
    assert "Fyris 1: Nils Obetald" in item and "2016-11-19" in item
    assert "2 match(er)" in item and "10,00 VP avdrag (0 av 2 beslutade)" in item
    assert f'name="team" value="{fyris.pk}"' in item and 'value="R-TEAM-RES-1"' in item
    # on the deadline itself the fee is still in time: refused, nothing changes
    with clock.frozen("2016-11-19"):
        r = tk.post(
            "/tk/sanktioner/diskvalificera/",
            {"team": fyris.pk, "clause": "R-TEAM-RES-1", "reason": "Obetalt"},
            follow=True,
        )
    assert "2016-11-19" in r.content.decode()
    assert Team.objects.get(pk=fyris.pk).status == Team.Status.ENTERED
    with clock.frozen("2016-11-20"), commit():
        r = tk.post(
            "/tk/sanktioner/diskvalificera/",
            {"team": fyris.pk, "clause": "R-TEAM-RES-1", "reason": "Avgiften kom aldrig"},
            follow=True,
        )
    assert "Fyris 1 är diskvalificerat enligt R-TEAM-RES-1" in r.content.decode()
    assert Team.objects.get(pk=fyris.pk).status == Team.Status.DISQUALIFIED
    d = Decision.objects.get(action="teams.team.disqualified")
    assert d.clause == "R-TEAM-RES-1" and d.reason == "Avgiften kom aldrig"
    # R-TEAM-RES-4: both results struck; Enköping 2 (lost 5.00) and Sala 3 (won 13.75) are
    # deemed to have won by W.O.: 12.00 each (R-TEAM-WO-2, the season's default)
    rows = standings(heat)
    assert rows["Enköping 2"]["vp"] == "12.00" and rows["Sala 3"]["vp"] == "12.00"
    assert rows["Fyris 1"]["dm_rank"] is None
    with clock.frozen("2016-11-20"):
        assert "Inget väntar." in section(tk.get("/tk/").content.decode(), "unpaid")
    for url in (f"/lag/kval/{heat.pk}/", f"/lag/lag/{fyris.pk}/", f"/lag/match/{matches[1].pk}/"):
        html = section(tk.get(url).content.decode(), "sanktioner")
        assert "Fyris 1 är diskvalificerat enligt R-TEAM-RES-1." in html
        assert "Motståndarna vinner på W.O.: Enköping 2, Sala 3" in html
        assert "Avgifterna återbetalas inte" in html and "Mästarpoäng för spelade matcher" in html
    fees = tk.get(f"/avgifter/heat/lagkval/{heat.pk}/").content.decode()
    payer = fees.split("Fyris 1")[1].split("</div>")[0]
    assert "Diskvalificerat: avgifterna återbetalas inte (R-TEAM-RES-4)" in payer
    # a disqualified team is no longer offered for disqualification
    page = section(tk.get("/tk/sanktioner/").content.decode(), "diskvalificera")
    assert f'value="{fyris.pk}"' not in page


def test_r_team_res_1_a_fee_received_in_time_ends_the_queue_item(tk):
    heat, fyris, matches, unpaid = heat_with_unpaid_player()
    unpaid.memberships.update(paid_on=date(2016, 11, 19))
    with clock.frozen("2016-11-25"):
        assert "Inget väntar." in section(tk.get("/tk/").content.decode(), "unpaid")


def test_r_team_res_2_and_3_without_grounds_are_refused_with_the_clause(tk):
    heat, fyris, matches, unpaid = heat_with_unpaid_player()
    page = section(
        tk.get(f"/tk/sanktioner/?team={fyris.pk}&clause=R-TEAM-RES-3").content.decode(),
        "diskvalificera",
    )
    assert f'value="{fyris.pk}" selected' in page
    assert 'value="R-TEAM-RES-3" required checked' in page
    for clause in ("R-TEAM-RES-2", "R-TEAM-RES-3"):
        assert clause in page
        r = tk.post(
            "/tk/sanktioner/diskvalificera/",
            {"team": fyris.pk, "clause": clause, "reason": "Misstanke"},
            follow=True,
        )
        assert "Inget i systemet visar skäl att diskvalificera Fyris 1" in r.content.decode()
    r = tk.post(
        "/tk/sanktioner/diskvalificera/",
        {"team": fyris.pk, "clause": "R-TEAM-WO-3", "reason": "?"},
        follow=True,
    )
    assert "Välj ett lag och en grund" in r.content.decode()
    assert Team.objects.get(pk=fyris.pk).status == Team.Status.ENTERED


def test_the_sanctions_page_in_english(tk):
    heat, fyris, matches, unpaid = heat_with_unpaid_player()
    Penalty.objects.create(
        team=fyris, match=matches[0], vp=Decimal("5"), status="granted", reason="unpaid"
    )
    tk.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = tk.get("/tk/sanktioner/").content.decode()
    assert "Disqualify a team" in html and "Unpaid membership fee" in html
    assert "Fyris 1: 5.00 VP deducted" in html


@pytest.mark.parametrize(
    "url", ["/tk/sanktioner/", "/tk/sanktioner/avdrag/", "/tk/sanktioner/diskvalificera/"]
)
def test_only_tk_imposes_sanctions(client, url):
    heat, fyris, matches, unpaid = heat_with_unpaid_player()
    client.force_login(
        fyris.captain.user if getattr(fyris.captain, "user", None) else UserFactory()
    )
    data = {
        "pick": f"{matches[0].pk}:{fyris.pk}",
        "team": fyris.pk,
        "clause": "R-TEAM-RES-1",
        "reason": "x",
    }
    r = client.post(url, data) if url != "/tk/sanktioner/" else client.get(url)
    assert r.status_code == 403
    assert not Penalty.objects.exists()
    assert Team.objects.get(pk=fyris.pk).status == Team.Status.ENTERED

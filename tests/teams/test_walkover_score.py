"""The W.O. score is computed once (R-TEAM-WO-2): TK awards it through ``award_walkover``, it
is stored on the W.O., and the real recompute (no mock) reads it, so the match's page and the
heat's standings show the same figure also when the season's "winner's average if higher" is on
(issue 20: the match said 16.40 and the standings 12.00).

A heat of four teams, 16 boards a match; VP from the WBF 20-0 scale's known values for 16
boards (R-VP-2, SPEC): margin 0 → 10.00–10.00, 1 → 10.31–9.69, 14 → 13.75–6.25,
20 → 15.00–5.00, 60 → 20.00–0.00.

  round 1: A–C 20–0 (15.00–5.00)   B–D 14–0 (13.75–6.25)
  round 2: A–D 60–0 (20.00–0.00)   B–C 0–0 (10.00–10.00)
  round 3: A–B W.O. given by B     C–D 1–0 (10.31–9.69)

With the average on: A's other matches 15.00 and 20.00, average 17.50, higher than 12.00, so
A gets 17.50 and B 0.00 for the W.O. (R-TEAM-WO-2). Standings: A 15.00 + 20.00 + 17.50 =
52.50; C 5.00 + 10.00 + 10.31 = 25.31; B 13.75 + 10.00 + 0.00 = 23.75; D 6.25 + 0.00 + 9.69 =
15.94. Without the average: A gets 12.00, A 47.00.
"""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from results.models import StandingSnapshot
from results.services.recompute import recompute_team_competition
from teams.models import Match, WalkOver
from teams.services import decisions
from tests.factories import TeamFactory, TeamHeatFactory

pytestmark = pytest.mark.django_db


def play(home, away, imps_home, imps_away, rnd):
    return Match.objects.create(
        competition=home.competition,
        heat=home.heat,
        stage="kval",
        round=rnd,
        home=home,
        away=away,
        boards=16,
        status="played",
        imps_home=Decimal(imps_home),
        imps_away=Decimal(imps_away),
    )


@pytest.fixture
def heat():
    heat = TeamHeatFactory()
    teams = {n: TeamFactory(heat=heat, name=f"Lag {n}", players=4) for n in "ABCD"}
    play(teams["A"], teams["C"], 20, 0, 1)
    play(teams["B"], teams["D"], 14, 0, 1)
    play(teams["A"], teams["D"], 60, 0, 2)
    play(teams["B"], teams["C"], 0, 0, 2)
    play(teams["C"], teams["D"], 1, 0, 3)
    wo_match = Match.objects.create(
        competition=heat.competition,
        heat=heat,
        stage="kval",
        round=3,
        home=teams["A"],
        away=teams["B"],
        boards=16,
    )
    return heat, teams, wo_match


def standings(heat) -> dict[str, str]:
    snap = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
    return {row["name"]: row["vp"] for row in snap.data}


def vp_cells(html: str) -> list[str]:
    """The bold VP cells of the match page's score table, in order (home, away)."""
    return re.findall(r'<td class="num"><strong>([^<]*)</strong></td>', html)


def with_average(heat, on: bool) -> None:
    season = heat.competition.season
    season.wo_winner_average_if_higher = on
    season.save()


def test_r_team_wo_2_average_stored_on_the_walkover_and_read_by_the_recompute(
    heat, tk, decide, client
):
    heat, teams, match = heat
    with_average(heat, True)
    wo = decide(decisions.award_walkover, tk, match, teams["B"], reason="Uteblev")

    wo.refresh_from_db()
    assert (wo.vp_non_offender, wo.vp_offender) == (Decimal("17.50"), Decimal("0.00"))
    match.refresh_from_db()
    assert (match.vp_home, match.vp_away) == (Decimal("17.50"), Decimal("0.00"))
    assert standings(heat) == {
        "Lag A": "52.50",
        "Lag C": "25.31",
        "Lag B": "23.75",
        "Lag D": "15.94",
    }
    page = client.get(reverse("portal:lag_match", args=[match.pk]))
    assert page.status_code == 200
    assert vp_cells(page.content.decode()) == ["17,50", "0,00"]
    heat_page = client.get(reverse("portal:lag_heat", args=[heat.pk])).content.decode()
    assert "52,50" in heat_page
    assert "47,00" not in heat_page  # the fixed 12.00 would have given A 47.00


def test_r_team_wo_2_without_the_average_the_fixed_score(heat, tk, decide, client):
    heat, teams, match = heat
    with_average(heat, False)
    decide(decisions.award_walkover, tk, match, teams["B"], reason="Uteblev")
    # 12.00–0.00 (R-TEAM-WO-2): A 15.00 + 20.00 + 12.00 = 47.00
    assert standings(heat)["Lag A"] == "47.00"
    page = client.get(reverse("portal:lag_match", args=[match.pk]))
    assert vp_cells(page.content.decode()) == ["12,00", "0,00"]


def test_r_team_wo_2_the_stored_score_stays_when_later_results_change_the_average(heat, tk, decide):
    # The score is TK's decision, taken once, and its rule text names the average it used
    # ("lagets snitt 17.50"): a result played after it does not rescore it.
    heat, teams, match = heat
    with_average(heat, True)
    decide(decisions.award_walkover, tk, match, teams["B"], reason="Uteblev")
    play(teams["C"], teams["A"], 60, 0, 4)  # A 0.00: its average would now be 11.67
    recompute_team_competition(heat.competition_id)
    assert WalkOver.objects.get(match=match).vp_non_offender == Decimal("17.50")
    # A 52.50 + 0.00 from round 4
    assert standings(heat)["Lag A"] == "52.50"

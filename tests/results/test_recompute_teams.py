"""Recompute of DM Lag: heat and final standings as snapshots, from matches and TK decisions."""

from datetime import date
from decimal import Decimal

import pytest

from clubs.models import Club, District
from results.models import RecomputeStatus, StandingSnapshot
from results.services.recompute import recompute_team_competition
from teams.models import Match, Penalty, Team, WalkOver
from tests.factories import TeamFactory, TeamHeatFactory, member

pytestmark = pytest.mark.django_db


def play(home, away, imps_home, imps_away, rnd=1, boards=16):
    """A played match with its IMPs only: the recompute converts them to VP itself."""
    return Match.objects.create(
        competition=home.competition,
        heat=home.heat,
        stage="kval",
        round=rnd,
        home=home,
        away=away,
        boards=boards,
        status="played",
        imps_home=imps_home,
        imps_away=imps_away,
    )


@pytest.fixture
def heat4():
    heat = TeamHeatFactory()
    teams = [TeamFactory(heat=heat, name=n, players=4) for n in ("Alfa", "Beta", "Gamma", "Delta")]
    return heat, teams


def snapshot(heat):
    return StandingSnapshot.objects.get(scope="team_heat", heat=heat)


def test_heat_standings_by_vp_and_marked_provisional_until_all_played(heat4):
    # R-TEAM-TIE-1 (most VP first), R-VP-1
    heat, (a, b, c, d) = heat4
    play(a, b, 40, 10)
    play(c, d, 20, 18)
    Match.objects.create(
        competition=a.competition, heat=heat, stage="kval", round=2, home=a, away=c, boards=16
    )
    recompute_team_competition(heat.competition_id)
    snap = snapshot(heat)
    assert [r["name"] for r in snap.data] == ["Alfa", "Gamma", "Delta", "Beta"]
    # R-VP-1, 16 boards: X = 15·√16 = 60, margin 30, τ = (√5 − 1)/2 = 0.618034:
    # τ^(3·30/60) = τ^1.5 = 0.485868; 10 + 10·(1 − 0.485868)/(1 − τ³ = 0.763932) = 16.7301
    # → 16.73 (the WBF 16-board table: 30 IMPs = 16.73–3.27)
    assert snap.data[0]["vp"] == "16.73"
    assert snap.provisional is True
    assert snap.rounds_played == 1
    status = RecomputeStatus.objects.get(competition=heat.competition)
    assert status.runs == 1 and not status.pending


def test_recompute_is_idempotent(heat4):
    heat, (a, b, c, d) = heat4
    play(a, b, 30, 30)
    play(c, d, 5, 25)
    recompute_team_competition(heat.competition_id)
    first = snapshot(heat).data
    recompute_team_competition(heat.competition_id)
    assert snapshot(heat).data == first
    assert StandingSnapshot.objects.filter(heat=heat).count() == 1


def test_penalty_is_subtracted_after_conversion(heat4):
    # R-VP-4 / R-TEAM-RES-1: 5 VP off, after conversion
    heat, (a, b, c, d) = heat4
    m = play(a, b, 12, 10)
    Penalty.objects.create(team=a, match=m, vp=Decimal("5"), status="granted")
    recompute_team_competition(heat.competition_id)
    row = next(r for r in snapshot(heat).data if r["name"] == "Alfa")
    # 16 boards, margin 2: τ^(3·2/60) = τ^0.1 = 0.953018;
    # 10 + 10·(1 − 0.953018)/0.763932 = 10.61499… → 10.61 (WBF table: 2 IMPs = 10.61), minus 5
    assert row["vp"] == "5.61"
    assert row["penalty"] == "5.00"


def test_walkover_scored_by_season_configuration(heat4):
    # R-TEAM-WO-2: 12.00-0.00 by default
    heat, (a, b, c, d) = heat4
    m = Match.objects.create(
        competition=a.competition,
        heat=heat,
        stage="kval",
        round=1,
        home=a,
        away=b,
        boards=16,
        status="walkover",
    )
    WalkOver.objects.create(match=m, offender=b, status="granted", reason="uteblev")
    recompute_team_competition(heat.competition_id)
    rows = {r["name"]: r for r in snapshot(heat).data}
    assert rows["Alfa"]["vp"] == "12.00"
    assert rows["Beta"]["vp"] == "0.00"


def test_second_walkover_excludes_the_team_and_opponents_win(heat4):
    # R-TEAM-WO-3
    heat, (a, b, c, d) = heat4
    play(b, c, 30, 0)
    for opp, rnd in ((a, 2), (d, 3)):
        m = Match.objects.create(
            competition=a.competition,
            heat=heat,
            stage="kval",
            round=rnd,
            home=opp,
            away=b,
            boards=16,
            status="walkover",
        )
        WalkOver.objects.create(match=m, offender=b, status="granted")
    recompute_team_competition(heat.competition_id)
    rows = {r["name"]: r for r in snapshot(heat).data}
    assert rows["Beta"]["status_label"] == "uteslutet"
    assert rows["Gamma"]["vp"] == "12.00"  # its lost match became a W.O. win


def test_disqualified_team_matches_become_walkovers(heat4):
    # R-TEAM-RES-4
    heat, (a, b, c, d) = heat4
    play(a, b, 0, 50)
    Team.objects.filter(pk=b.pk).update(status="disqualified", status_reason="R-TEAM-RES-3")
    recompute_team_competition(heat.competition_id)
    rows = {r["name"]: r for r in snapshot(heat).data}
    assert rows["Alfa"]["vp"] == "12.00"
    assert rows["Beta"]["status_label"] == "diskvalificerat"
    assert rows["Beta"]["dm_rank"] is None


def test_team_with_non_ubf_player_only_plays_for_sm(heat4):
    # R-TEAM-4: shown in the full order, left out of the DM order
    heat, (a, b, c, d) = heat4
    other = District.objects.create(code="SBDF", name="Stockholms Bridgeförbund")
    club = Club.objects.create(district=other, name="BK Stockholm", short_name="BKS")
    from teams.models import RosterEntry

    RosterEntry.objects.create(team=a, player=member(season=a.competition.season, club=club))
    play(a, b, 40, 0)
    recompute_team_competition(heat.competition_id)
    data = snapshot(heat).data
    assert data[0]["name"] == "Alfa" and data[0]["dm_eligible"] is False
    assert data[0]["dm_rank"] is None
    # Beta lost 0-40 but still took the loser's VP (16 boards, margin 40: τ^(3·40/60) = τ² =
    # 0.381966; 10 + 10·(1 − 0.381966)/0.763932 = 18.09, so 20 − 18.09 = 1.91), ahead of the two
    # teams yet to play (0 VP); so Beta is first in the DM order.
    assert (data[1]["name"], data[1]["vp"], data[1]["dm_rank"]) == ("Beta", "1.91", 1)
    # Gamma and Delta are equal on every criterion of R-TEAM-TIE-1 (0 VP, 0/0 IMPs, no match
    # between them): the rules give a lot, recorded in the explanation; its order is the order.
    lots = {r["name"]: r["explanation"][-1] for r in data[2:]}
    assert set(lots) == {"Gamma", "Delta"}
    assert [step["criterion"] for step in lots.values()] == ["lot", "lot"]
    assert [r["explanation"][-1]["value"] for r in data[2:]] == ["1", "2"]
    assert [r["dm_rank"] for r in data[2:]] == [2, 3]
    assert [r["rank"] for r in data] == [1, 2, 3, 4]


def test_final_snapshot_counts_rounds_played():
    # R-TEAM-FINAL-2: the final is ranked like a heat
    heat = TeamHeatFactory()
    teams = [TeamFactory(heat=heat, final_seat=i + 1) for i in range(4)]
    comp = heat.competition
    for rnd, (h, a) in enumerate([(0, 1), (2, 3)], start=1):
        Match.objects.create(
            competition=comp,
            stage="final",
            round=rnd,
            home=teams[h],
            away=teams[a],
            boards=20,
            status="played",
            imps_home=30,
            imps_away=20,
            played_on=date(2017, 3, 4),
        )
    Match.objects.create(
        competition=comp, stage="final", round=3, home=teams[0], away=teams[2], boards=20
    )
    recompute_team_competition(comp.id)
    snap = StandingSnapshot.objects.get(scope="team_final", competition=comp)
    assert snap.rounds_played == 2
    assert snap.provisional is True
    assert len(snap.data) == 4


def test_r_team_mp_1_and_2_masterpoints_from_played_matches_shared_by_halves(heat4):
    from teams.models import Lineup

    heat, (a, b, c, d) = heat4
    m = play(a, b, 40, 10)  # a wins: 16 silver points for a 16-board match
    play(c, d, 11, 10)  # a draw on VP (> 7, < 13): 8 each
    players = [e.player for e in a.roster.all()]
    for half in (1, 2):
        for p in players:
            Lineup.objects.create(match=m, team=a, player=p, half=half)
    recompute_team_competition(heat.competition_id)
    rows = {r["name"]: r for r in snapshot(heat).data}
    assert rows["Alfa"]["masterpoints"] == "16.00"
    assert rows["Beta"]["masterpoints"] == "0.00"
    assert rows["Gamma"]["masterpoints"] == rows["Delta"]["masterpoints"] == "8.00"
    assert [p["points"] for p in rows["Alfa"]["player_masterpoints"]] == ["4.00"] * 4


def test_r_gen_1_wo_score_is_season_configuration(heat4):
    # R-GEN-1: what the system takes from SBF (the W.O. score) is season configuration
    heat, (a, b, c, d) = heat4
    season = heat.competition.season
    season.wo_winner_vp = Decimal("15.00")
    season.save()
    m = Match.objects.create(
        competition=a.competition,
        heat=heat,
        stage="kval",
        round=1,
        home=a,
        away=b,
        boards=16,
        status="walkover",
    )
    WalkOver.objects.create(match=m, offender=b, status="granted")
    recompute_team_competition(heat.competition_id)
    rows = {r["name"]: r for r in snapshot(heat).data}
    assert rows["Alfa"]["vp"] == "15.00"
    assert rows["Alfa"]["masterpoints"] == "0.00"  # R-TEAM-WO-2: no masterpoints for a W.O.


def test_r_team_semi_1_and_mp_3_final_choice_order_and_bonus():
    heat = TeamHeatFactory()
    comp = heat.competition
    comp.sm_semifinal_places = 2
    comp.save()
    teams = [TeamFactory(heat=heat, final_seat=i + 1, name=f"F{i}", players=4) for i in range(4)]
    other = District.objects.create(code="VBF", name="Västmanlands BF")
    club = Club.objects.create(district=other, name="BK Sala", short_name="Sala")
    from teams.models import RosterEntry

    RosterEntry.objects.create(team=teams[0], player=member(season=comp.season, club=club))
    for rnd, (h, a, ih, ia) in enumerate(
        [(0, 1, 50, 0), (2, 3, 10, 0), (0, 2, 30, 0), (1, 3, 40, 0), (0, 3, 30, 0), (1, 2, 30, 0)],
        1,
    ):
        Match.objects.create(
            competition=comp,
            stage="final",
            round=rnd,
            home=teams[h],
            away=teams[a],
            boards=20,
            status="played",
            imps_home=ih,
            imps_away=ia,
        )
    recompute_team_competition(comp.id)
    rows = StandingSnapshot.objects.get(scope="team_final", competition=comp).data
    assert [r["name"] for r in rows] == ["F0", "F1", "F2", "F3"]
    # R-TEAM-SEMI-1: the full order chooses (F0 although it is not in the DM order)
    assert [r["sm_choice"] for r in rows] == [1, 2, None, None]
    # R-TEAM-4 / R-TEAM-MP-3: F0 has a non-UBF player: no DM place, no bonus; F1 is champion
    assert rows[0]["dm_rank"] is None and "bonus_per_player" not in rows[0]
    assert rows[1]["dm_rank"] == 1 and rows[1]["bonus_per_player"] == 42
    assert rows[2]["bonus_per_player"] == 30 and rows[3]["bonus_per_player"] == 21


def test_incremental_team_recompute_touches_only_the_changed_heat(heat4):
    heat, (a, b, c, d) = heat4
    other = TeamHeatFactory(competition=heat.competition)
    x, y = TeamFactory(heat=other), TeamFactory(heat=other)
    play(a, b, 20, 10)
    Match.objects.create(
        competition=x.competition,
        heat=other,
        stage="kval",
        round=1,
        home=x,
        away=y,
        boards=16,
        status="played",
        imps_home=5,
        imps_away=30,
    )
    recompute_team_competition(heat.competition_id)
    before_other = StandingSnapshot.objects.get(heat=other)
    play(c, d, 44, 0, rnd=2)
    recompute_team_competition(heat.competition_id, heat_ids=[heat.id])
    after_other = StandingSnapshot.objects.get(heat=other)
    assert after_other.computed_at == before_other.computed_at  # not recomputed
    assert [r["name"] for r in snapshot(heat).data][0] == "Gamma"
    incremental = snapshot(heat).data
    recompute_team_competition(heat.competition_id)
    assert snapshot(heat).data == incremental


def test_imps_shown_as_plain_numbers_not_exponents(heat4):
    heat, (a, b, c, d) = heat4
    play(a, b, 260, 250)
    play(c, d, Decimal("12.50"), 3)
    recompute_team_competition(heat.competition_id)
    rows = {r["name"]: r for r in snapshot(heat).data}
    assert (rows["Alfa"]["imps_won"], rows["Alfa"]["imps_lost"]) == ("260", "250")
    assert rows["Gamma"]["imps_won"] == "12.5"


def test_r_team_4_one_reading_for_the_standings_and_the_team_page(heat4, client):
    """R-TEAM-4: a team fields a non-UBF player when a recorded line-up says so; a played match
    without a line-up counts the roster. Alfa has a Stockholm player on its roster and has
    played Beta without a recorded line-up: the standings and the team's own status agree that
    Alfa plays only for SM places, and the table says the status is preliminary. Once the
    line-up shows four UBF players, both say Alfa competes for DM again."""
    from teams.models import Lineup, RosterEntry
    from teams.selectors import team_dm_status

    heat, (a, b, _c, _d) = heat4
    other = District.objects.create(code="SBDF", name="Stockholms Bridgeförbund")
    club = Club.objects.create(district=other, name="BK Stockholm", short_name="BKS")
    RosterEntry.objects.create(team=a, player=member(season=a.competition.season, club=club))
    match = play(a, b, 40, 0)
    recompute_team_competition(heat.competition_id)
    row = next(r for r in snapshot(heat).data if r["name"] == "Alfa")
    assert row["dm_eligible"] is False and row["lineup_missing"] == 1
    assert team_dm_status(a).competes_for_dm is False
    assert team_dm_status(a).without_lineup == 1
    html = client.get("/lag/").content.decode()
    assert "preliminär – laguppställning saknas för 1 spelad match" in html

    ubf_players = [e.player for e in a.roster.select_related("player") if e.player.mid][:4]
    ubf_players = [p for p in ubf_players if p.representations.first().club_id != club.id]
    for half in (1, 2):
        for player in ubf_players:
            Lineup.objects.create(match=match, team=a, player=player, half=half)
    recompute_team_competition(heat.competition_id)
    row = next(r for r in snapshot(heat).data if r["name"] == "Alfa")
    assert row["dm_eligible"] is True and row["lineup_missing"] == 0
    assert team_dm_status(a).competes_for_dm is True


def test_a_round_of_the_final_leaves_the_allocation_as_it_was(settings):
    """R-TEAM-ADV-1: the allocation reads the heats' standings, the teams and the seats, none
    of which a round of the final changes; recomputing it at each round was half of the
    round's recompute on the national season (benchmarks/standings_load.py). The final's
    standing counts the round; the allocation is computed again when a heat changes."""
    from results.models import AllocationRun

    heat = TeamHeatFactory()
    a, b, c, d = (TeamFactory(heat=heat, final_seat=n) for n in range(1, 5))
    play(a, b, 20, 10)
    play(c, d, 10, 20)
    final = Match.objects.create(
        competition=heat.competition, stage="final", round=1, home=a, away=d, boards=16
    )
    settings.UBF_CLOCK_OVERRIDE = "2017-03-04T10:00:00+01:00"
    recompute_team_competition(heat.competition_id)
    computed = AllocationRun.objects.get(competition=heat.competition).computed_at
    settings.UBF_CLOCK_OVERRIDE = "2017-03-04T12:00:00+01:00"
    Match.objects.filter(pk=final.pk).update(status="played", imps_home=30, imps_away=10)
    recompute_team_competition(heat.competition_id, heat_ids=["final"])
    final_standing = StandingSnapshot.objects.get(scope="team_final", competition=heat.competition)
    assert final_standing.rounds_played == 1
    assert AllocationRun.objects.get(competition=heat.competition).computed_at == computed
    recompute_team_competition(heat.competition_id, heat_ids=[heat.id])
    assert AllocationRun.objects.get(competition=heat.competition).computed_at != computed

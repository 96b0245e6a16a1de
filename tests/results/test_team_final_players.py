"""The DM Lag final per player, from the recorded line-ups: the bonus of the top three
(R-TEAM-MP-3) and whether the direct qualifier's remaining champions played (R-TEAM-DIRECT-1),
as the final snapshot row and /lag/ show them."""

import pytest

from clubs import clock
from results.models import StandingSnapshot
from results.services.recompute import recompute_team_competition
from teams.models import Lineup, Match
from teams.services.entries import register_direct_team
from tests.factories import (
    ClubFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    entry_world,
)
from tests.factories import world_member as member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture(autouse=True)
def _today():
    with clock.frozen("2016-10-20 10:00"):
        yield


@pytest.fixture
def final():
    """A four-team final, three rounds (6 halves a team; a third is 2). "Mästarna" are last
    season's six champions c0-c5 less c5, plus n1: 5 of 6 remain (ceil(2/3 × 6) = 4 needed).
    Mästarna win every match, B beats C and D, C beats D: DM order M, B, C, D.

    Mästarna's halves (4 players each): c0 and c1 all 6, c2 5 (not r3 h2), n1 5 (not r1 h1),
    c3 2 (r1 h1, r3 h2), c4 none. B and D record full line-ups; C none in round 3."""
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = TeamCompetitionFactory(season=season)
    heat = TeamHeatFactory(competition=comp, organisers=[club], responsible_user=UserFactory())
    w = entry_world(season, club, comp=comp, heat=heat)
    names = ["Cecilia", "Calle", "Carin", "Conny", "Cilla", "Claes"]
    champions = [member(w, first_name=n, last_name="Ek") for n in names]
    newcomer = member(w, first_name="Nils", last_name="Ny")
    c = champions
    roster = [p.mid for p in c[:5]] + [newcomer.mid]
    direct = register_direct_team(
        w.tk,
        comp,
        name="Mästarna",
        captain_mid=roster[0],
        address="Storgatan 1, 753 20 Uppsala",
        phone="070-123 45 67",
        email="kapten@example.se",
        player_mids=roster,
        last_season_roster_mids=[p.mid for p in champions],
    ).team
    b, cc, d = (
        TeamFactory(heat=heat, final_seat=i + 2, name=n, players=4)
        for i, n in enumerate(["B", "C", "D"])
    )
    fours = {t: [e.player for e in t.roster.all()] for t in (b, cc, d)}
    halves_m = {
        (1, 1): [c[0], c[1], c[2], c[3]],
        (1, 2): [c[0], c[1], c[2], newcomer],
        (2, 1): [c[0], c[1], c[2], newcomer],
        (2, 2): [c[0], c[1], c[2], newcomer],
        (3, 1): [c[0], c[1], c[2], newcomer],
        (3, 2): [c[0], c[1], newcomer, c[3]],
    }
    schedule = {1: [(direct, b), (cc, d)], 2: [(direct, cc), (b, d)], 3: [(direct, d), (b, cc)]}
    for rnd, pairings in schedule.items():
        for home, away in pairings:
            m = Match.objects.create(
                competition=comp,
                stage="final",
                round=rnd,
                home=home,
                away=away,
                boards=24,
                status="played",
                imps_home=50,
                imps_away=0,
            )
            for half in (1, 2):
                for p in halves_m[(rnd, half)] if home == direct else fours[home]:
                    Lineup.objects.create(match=m, team=home, player=p, half=half)
                if away == cc and rnd == 3:
                    continue
                for p in fours[away]:
                    Lineup.objects.create(match=m, team=away, player=p, half=half)
    recompute_team_competition(comp.id)
    rows = StandingSnapshot.objects.get(scope="team_final", competition=comp).data
    return {r["name"]: r for r in rows}


def test_r_team_mp_3_bonus_per_player_who_played_a_third_of_the_final(final):
    m = final["Mästarna"]
    assert m["dm_rank"] == 1
    got = {p["name"]: (p["halves"], p["bonus"], p["plaque"]) for p in m["bonus_players"]}
    # a third of 6 halves is 2: Conny's 2 are enough, Cilla's 0 are not.
    assert got == {
        "Cecilia Ek": (6, 42, True),
        "Calle Ek": (6, 42, True),
        "Carin Ek": (5, 42, True),
        "Nils Ny": (5, 42, True),
        "Conny Ek": (2, 42, True),
        "Cilla Ek": (0, 0, False),
    }
    assert [p["bonus"] for p in final["B"]["bonus_players"]] == [30] * 4
    assert "bonus_lineup_missing" not in m and "bonus_players" not in final["D"]  # 4th: no bonus


def test_r_team_mp_3_a_played_match_without_line_up_makes_the_row_preliminary(final):
    row = final["C"]
    assert row["dm_rank"] == 3 and "bonus_players" not in row
    assert row["bonus_lineup_missing"]["params"] == {"rounds": "3"}


def test_r_team_direct_1_warns_tk_of_a_remaining_champion_who_played_no_half(final):
    (warning,) = final["Mästarna"]["direct_warnings"]
    assert warning["clause"] == "R-TEAM-DIRECT-1" and warning["severity"] == "warning"
    assert warning["params"]["players"] == "Cilla Ek"
    assert "direct_warnings" not in final["B"]


def test_lag_page_shows_the_bonus_per_player_and_tk_queue_the_findings(final, client):
    html = client.get("/lag/").content.decode()
    assert "Conny Ek: 2 av 6 halvlekar – bonus 42 silverpoäng, plakett" in html
    assert "Cilla Ek: 0 av 6 halvlekar – ingen bonus" in html
    assert "preliminär – laguppställning saknas (rond 3)" in html
    finding = (
        "1 av mästarlagets kvarvarande spelare spelade ingen halvlek i finalen "
        "(Cilla Ek); 4 gjorde det, minst 4 krävs."
    )
    assert finding not in html  # a matter for TK, not for the public page
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    queue = client.get("/tk/").content.decode()
    section = queue.split('id="direct_final"')[1].split("</section>")[0]
    assert "Mästarna" in section and finding in section and "R-TEAM-DIRECT-1" in section
    # R-TEAM-4: C recorded no line-up in round 3 (against B); TK's list says so.
    lineups = queue.split('id="lineups"')[1].split("</section>")[0]
    assert "r3: B – C" in lineups and "Laguppställning saknas för C:" in lineups
    assert lineups.count("list-group-item") == 1
    english = client.get("/lag/?lang=en").content.decode()
    assert "Conny Ek: 2 of 6 halves – bonus 42 silver points, plaque" in english
    assert "preliminary – line-up missing (round 3)" in english


def test_r_team_direct_1_fewer_than_two_thirds_played_is_an_error_in_the_row(final):
    # Without Conny's two halves only Cecilia, Calle and Carin played: 3 < 4 needed.
    Lineup.objects.filter(player__first_name="Conny").delete()
    snap = StandingSnapshot.objects.get(scope="team_final")
    recompute_team_competition(snap.competition_id)
    snap.refresh_from_db()
    row = next(r for r in snap.data if r["name"] == "Mästarna")
    (finding,) = row["direct_warnings"]
    assert finding["severity"] == "error"
    assert finding["params"] == {"n_played": 3, "needed": 4}

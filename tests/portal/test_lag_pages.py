"""The public DM Lag pages (issue 12): the final's standings with ties written out, the cross
table, round by round, DM and SM order, the semifinal choice order; a team's page; a match's page
with its boards. Numbers Swedish on Swedish pages, English on ?lang=en; HEAD answered; a fixed
number of queries whatever the number of teams, rounds and boards.

The hand-built final: four teams, three rounds, 16 boards a match. VP from the WBF 20-0 scale's
known values for 16 boards (R-VP-2, SPEC): margin 0 → 10.00–10.00, 14 → 13.75–6.25,
20 → 15.00–5.00.

  round 1: A–B 30–16 (13.75–6.25)   C–D 20–20 (10.00–10.00)
  round 2: A–C 30–10 (15.00–5.00)   B–D 30–16 (13.75–6.25)
  round 3: A–D 35–15 (15.00–5.00)   B–C 40–26 (13.75–6.25)

VP: A 13.75 + 15.00 + 15.00 = 43.75; B 6.25 + 13.75 + 13.75 = 33.75;
C 10.00 + 5.00 + 6.25 = 21.25; D 10.00 + 6.25 + 5.00 = 21.25: C and D level on VP, split by the
IMP quotient (R-TEAM-TIE-1): C won 20 + 10 + 26 = 56, lost 20 + 30 + 40 = 90 → 0.622;
D won 20 + 16 + 15 = 51, lost 20 + 30 + 35 = 85 → 0.600. So: A, B, C, D.
"""

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import FinalSeat
from results.services.recompute import recompute_team_competition
from teams.models import BoardResult, Lineup, Match
from tests.factories import ClubFactory, DistrictFactory, TeamFactory, TeamHeatFactory, member

pytestmark = pytest.mark.django_db

ROUNDS = [
    [("A", "B", 30, 16), ("C", "D", 20, 20)],
    [("A", "C", 30, 10), ("B", "D", 30, 16)],
    [("A", "D", 35, 15), ("B", "C", 40, 26)],
]


def _final(heat, names, rounds, *, boards_per_match=0, lineups=False, prefix="Lag "):
    """Teams ``names`` in the final of ``heat``'s competition and the final's played matches
    ``rounds`` (home, away, IMPs); ``boards_per_match`` board rows on every match."""
    teams = {
        n: TeamFactory(heat=heat, name=f"{prefix}{n}", final_seat=i, players=5)
        for i, n in enumerate(names, start=1)
    }
    matches = {}
    for number, pairings in enumerate(rounds, start=1):
        for home, away, ih, ia in pairings:
            m = Match.objects.create(
                competition=heat.competition,
                stage="final",
                round=number,
                home=teams[home],
                away=teams[away],
                boards=16,
                status="played",
                imps_home=Decimal(ih),
                imps_away=Decimal(ia),
                played_on=f"2017-03-0{4 if number < 3 else 5}",
            )
            matches[(home, away)] = m
            BoardResult.objects.bulk_create(
                BoardResult(
                    match=m,
                    board_number=b,
                    score_ns_room1=420,
                    score_ns_room2=170,
                    imps_home=6,
                    imps_away=0,
                    points_home=590,
                    points_away=0,
                )
                for b in range(1, boards_per_match + 1)
            )
            if lineups:
                for team in (m.home, m.away):
                    for half in (1, 2):
                        for entry in list(team.roster.all())[:4]:
                            Lineup.objects.create(
                                match=m, team=team, player=entry.player, half=half
                            )
    recompute_team_competition(heat.competition_id)
    return teams, matches


@pytest.fixture
def final():
    heat = TeamHeatFactory()
    teams, matches = _final(heat, "ABCD", ROUNDS)
    return teams, matches


def _section(html: str, id_: str) -> str:
    start = html.index(f'id="{id_}"')
    return html[start : html.index("</section>", start)]


def _text(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment))


# ---------------------------------------------------------------------------------------------
# /lag/: standings, ties, cross table, round by round, DM and SM order
# ---------------------------------------------------------------------------------------------


def test_final_standings_in_vp_order_with_the_tie_written_out(client, final):
    # R-TEAM-TIE-1: C and D level on 21.25 VP, C ahead on the IMP quotient.
    html = client.get("/lag/").content.decode()
    standings = _text(_section(html, "final").split('id="final-spelare"')[0])
    order = [standings.index(f"Lag {n}") for n in "ABCD"]
    assert order == sorted(order)
    assert "43,75" in standings and "33,75" in standings and "21,25" in standings
    assert "0,622" in standings and "0,600" in standings  # 56/90, 51/85
    row_d = _text(html.split(f'id="rad-{final[0]["D"].pk}"')[1].split("</tr>")[0])
    assert "Särskilt på IMP-kvot (R-TEAM-TIE-1)" in row_d
    assert "IMP-kvot: 51/85 = 0,600" in row_d  # written in the page, not in a tooltip
    row_c = _text(html.split(f'id="rad-{final[0]["C"].pk}"')[1].split("</tr>")[0])
    assert "IMP-kvot: 56/90 = 0,622" in row_c
    # team names link to the team pages
    assert f'href="/lag/lag/{final[0]["A"].pk}/">Lag A</a>' in html


def test_cross_table_holds_each_teams_vp_against_each_opponent(client, final):
    # R-VP-1, R-VP-2 (16 boards): the VP by hand, in the module docstring.
    teams, _ = final
    html = client.get("/lag/").content.decode()
    table = _section(html, "korstabell")
    rows = {}
    for tr in table.split("<tr>")[2:]:
        cells = [_text(td).strip() for td in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
        rows[cells[1]] = cells[2:]
    # columns in ranking order A, B, C, D, then the total
    assert rows["Lag A"] == ["–", "13,75", "15,00", "15,00", "43,75"]
    assert rows["Lag B"] == ["6,25", "–", "13,75", "13,75", "33,75"]
    assert rows["Lag C"] == ["5,00", "6,25", "–", "10,00", "21,25"]
    assert rows["Lag D"] == ["5,00", "6,25", "10,00", "–", "21,25"]
    assert 'class="table-responsive"' in html.split('id="korstabell"')[1][:600]
    english = _section(client.get("/lag/?lang=en").content.decode(), "korstabell")
    assert "Cross table" in english and "13.75" in english and "13,75" not in english


def test_r_team_1_round_by_round_lists_each_rounds_matches_with_imps_vp_and_a_link(client, final):
    teams, matches = final
    html = client.get("/lag/").content.decode()
    second = html.split('id="rond-2"')[1].split('id="rond-3"')[0]
    assert "Rond 2" in second
    ac = matches[("A", "C")]
    assert f'href="/lag/match/{ac.pk}/">30–10</a>' in second
    assert "15,00–5,00" in second and "13,75–6,25" in second  # A–C, B–D
    assert "Lag B</a> – <a" in second and "Lag D" in second
    assert "Lag A</a> – <a" not in html.split('id="rond-3"')[0].split('id="rond-1"')[0]
    assert 'class="num text-nowrap"' in second  # scores never wrap on a phone


def test_r_team_4_and_r_team_semi_1_dm_and_sm_order_side_by_side(client):
    # Team B fields a player from a club outside UBF: out of the DM order (A, C, D), still
    # second in the full order, which gives the two semifinal places: A chooses first, then B.
    heat = TeamHeatFactory()
    heat.competition.sm_semifinal_places = 2
    heat.competition.save()
    outside = ClubFactory(district=DistrictFactory(code="GBF", name="Gästrikland"))
    teams, matches = _final(heat, "ABCD", ROUNDS)
    stranger = member(season=heat.competition.season, club=outside, first_name="Gösta")
    teams["B"].roster.create(player=stranger)
    for m in Match.objects.filter(home=teams["B"]) | Match.objects.filter(away=teams["B"]):
        Lineup.objects.create(match=m, team=teams["B"], player=stranger, half=1)
    recompute_team_competition(heat.competition_id)
    html = client.get("/lag/").content.decode()
    orders = html.split('id="orders"')[1].split("</table>")[0]
    rows = [
        [_text(td).strip() for td in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
        for tr in orders.split("<tr>")[2:]
    ]
    assert rows[0] == ["1", "Lag A", "Lag A"]
    assert rows[1] == ["2", "Lag C", "Lag B endast SM"]
    assert rows[2] == ["3", "Lag D", "Lag C"]
    assert rows[3] == ["4", "", "Lag D"]
    semi = _text(html.split('id="sm-semifinal"')[1].split("</ol>")[0])
    assert "UBF har 2 platser i SM Lags semifinal" in semi
    assert semi.index("Lag A") < semi.index("Lag B") and "Lag C" not in semi
    # the words explained in visible text, not in a tooltip
    legend = _text(html.split('class="explain mb-2 standings-legend"')[1].split("</p>")[0])
    assert "MP: mästarpoäng i silver" in legend
    assert "„endast SM“: laget har ställt upp med en spelare" in legend
    assert "„SM 1“, „SM 2“ …: laget väljer SM-semifinalort som nummer 1, 2" in legend
    assert 'title="' not in html.split('id="final"')[1].split("</section>")[0]
    team_html = client.get(f"/lag/lag/{teams['B'].pk}/").content.decode()
    assert "Endast SM" in team_html and stranger.full_name in team_html  # R-TEAM-4


def test_heat_standings_on_lag_link_to_the_team_pages_in_swedish_numbers(client):
    heat = TeamHeatFactory(boards_per_match=16)
    a, b = TeamFactory(heat=heat, name="Hjärter"), TeamFactory(heat=heat, name="Spader")
    Match.objects.create(
        competition=heat.competition,
        heat=heat,
        stage="kval",
        round=1,
        home=a,
        away=b,
        boards=16,
        status="played",
        imps_home=30,
        imps_away=16,
    )
    recompute_team_competition(heat.competition_id)
    card = _text(client.get("/lag/").content.decode().split(f'id="heat-{heat.pk}"')[1])
    assert "13,75" in card and "6,25" in card  # 16 boards, margin 14 (R-VP-2)
    html = client.get("/lag/").content.decode().split(f'id="heat-{heat.pk}"')[1]
    assert f'href="/lag/lag/{a.pk}/">Hjärter</a>' in html


# ---------------------------------------------------------------------------------------------
# The team page
# ---------------------------------------------------------------------------------------------


def test_team_page_shows_roster_with_clubs_matches_results_and_status(client, final):
    teams, matches = final
    a = teams["A"]
    player = a.roster.select_related("player").first().player
    club = player.representations.get().club
    html = client.get(f"/lag/lag/{a.pk}/").content.decode()
    roster = _text(_section(html, "laguppstallning"))
    assert player.full_name in roster and club.name in roster and player.mid in roster
    # issue 21: the final is under way, so every heat is in and the seat reads "kvalificerat"
    assert "I finalen (R-TEAM-ADV-1). kvalificerat" in _text(html)
    played = _text(_section(html, "matcher"))
    # round 1 against B: 30–16 and 13.75–6.25; round 3 against D: 35–15, 15.00–5.00
    assert re.search(r"Final, 1 4 mar 2017 Lag B 30–16 13,75–6,25", played)
    assert re.search(r"Final, 3 5 mar 2017 Lag D 35–15 15,00–5,00", played)
    assert f'href="/lag/match/{matches[("A", "B")].pk}/"' in html
    # the team's side first also when it played away: D lost 15–35 to A
    d_page = _text(client.get(f"/lag/lag/{teams['D'].pk}/").content.decode())
    assert re.search(r"Final, 3 5 mar 2017 Lag A 15–35 5,00–15,00", d_page)
    assert "Mästarpoäng i silver" in d_page


def test_team_page_shows_the_line_ups_per_half(client):
    heat = TeamHeatFactory()
    teams, matches = _final(heat, "AB", [[("A", "B", 30, 16)]], lineups=True)
    a = teams["A"]
    roster = [e.player for e in a.roster.select_related("player").order_by("id")]
    reserve = roster[4]  # the fifth player played no half
    html = client.get(f"/lag/lag/{a.pk}/").content.decode()
    match_row = _text(html.split(f'id="match-{matches[("A", "B")].pk}"')[1].split("</tr>")[0])
    assert "Halvlek 1:" in match_row and "Halvlek 2:" in match_row
    for p in roster[:4]:
        assert match_row.count(p.full_name) == 2
    assert reserve.full_name not in match_row
    roster_text = _text(_section(html, "laguppstallning"))
    assert re.search(re.escape(roster[0].full_name) + r" \(lagkapten\) \d+ .*? 2 ", roster_text)


def test_team_page_of_a_team_out_after_its_heat_says_why(client):
    # R-TEAM-WO-3: an excluded team's page says so, with TK's reason.
    team = TeamFactory(status="excluded", status_reason="R-TEAM-WO-3: två W.O.")
    html = _text(client.get(f"/lag/lag/{team.pk}/").content.decode())
    assert "Laget är uteslutet efter W.O. (R-TEAM-WO-3)." in html
    assert "R-TEAM-WO-3: två W.O." in html


# ---------------------------------------------------------------------------------------------
# The match page
# ---------------------------------------------------------------------------------------------


def test_match_page_shows_both_teams_imps_vp_and_every_boards_two_rooms(client):
    heat = TeamHeatFactory()
    teams, matches = _final(heat, "AB", [[("A", "B", 30, 16)]], boards_per_match=0)
    m = matches[("A", "B")]
    BoardResult.objects.create(
        match=m, board_number=1, score_ns_room1=420, score_ns_room2=170, imps_home=6, imps_away=0
    )
    BoardResult.objects.create(
        match=m, board_number=2, score_ns_room1=-620, score_ns_room2=-100, imps_home=0, imps_away=11
    )
    html = client.get(f"/lag/match/{m.pk}/").content.decode()
    result = _text(html.split('id="resultat"')[1].split("</table>")[0])
    assert "Lag A 30 13,75" in result and "Lag B 16 6,25" in result  # 16 boards, margin 14
    boards = html.split('id="brickor"')[1].split("</section>")[0]
    rows = [
        [_text(td).strip() for td in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
        for tr in boards.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    ]
    # 420 − 170 = 250 → 6 IMPs to the home team; −620 − (−100) = −520 → 11 to the away team
    assert rows == [["1", "420", "170", "6", ""], ["2", "-620", "-100", "", "11"]]
    assert "table-responsive" in boards
    english = client.get(f"/lag/match/{m.pk}/?lang=en").content.decode()
    assert "Boards" in english and "13.75" in english


def test_match_page_shows_the_line_ups_and_a_walkover(client):
    heat = TeamHeatFactory()
    teams, matches = _final(heat, "AB", [[("A", "B", 30, 16)]], lineups=True)
    m = matches[("A", "B")]
    html = _text(client.get(f"/lag/match/{m.pk}/").content.decode())
    first = teams["A"].roster.select_related("player").first().player
    assert "Laguppställningar" in html and "Halvlek 1: " in html and first.full_name in html

    from teams.models import WalkOver

    WalkOver.objects.create(match=m, offender=teams["B"], status="granted", rule_text="12–0 VP")
    Match.objects.filter(pk=m.pk).update(status="walkover", vp_home="12.00", vp_away="0.00")
    html = _text(client.get(f"/lag/match/{m.pk}/").content.decode())
    assert "W.O.: Lag B lämnade walk-over (R-TEAM-WO-1)." in html
    assert "Poängregel: 12–0 VP (R-TEAM-WO-2)." in html


# ---------------------------------------------------------------------------------------------
# Every page: 404, HEAD, queries
# ---------------------------------------------------------------------------------------------


def test_unknown_team_or_match_is_404(client, final):
    assert client.get("/lag/lag/999999/").status_code == 404
    assert client.get("/lag/match/999999/").status_code == 404


def test_head_is_answered_on_every_page_and_post_is_not(client, final):
    teams, matches = final
    m = matches[("A", "B")]
    for url in ("/lag/", f"/lag/lag/{teams['A'].pk}/", f"/lag/match/{m.pk}/"):
        assert client.head(url).status_code == 200, url
        assert client.post(url).status_code == 405, url


def _queries(client, url) -> int:
    """The queries of rendering the page (the public pages' cache emptied first: a cached
    page takes none)."""
    from django.core.cache import cache

    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def _round_robin(names):
    """A round robin's rounds (circle method), IMPs 30–16 in every match."""
    names = list(names)
    rounds = []
    for _ in range(len(names) - 1):
        rounds.append([(names[i], names[-1 - i], 30, 16) for i in range(len(names) // 2)])
        names = [names[0], names[-1], *names[1:-1]]
    return rounds


def test_query_count_stays_fixed_as_teams_rounds_and_boards_grow(client):
    small_heat = TeamHeatFactory()
    small, small_matches = _final(small_heat, "ABCD", _round_robin("ABCD"), boards_per_match=2)
    client.get("/lag/")  # warm up
    counts_small = {
        "lag": _queries(client, "/lag/"),
        "team": _queries(client, f"/lag/lag/{small['A'].pk}/"),
        "match": _queries(client, f"/lag/match/{small_matches[('A', 'D')].pk}/"),
    }
    # Twice the teams, more than twice the rounds, ten times the boards, and line-ups.

    FinalSeat.objects.all().delete()
    Match.objects.all().delete()
    big_heat = TeamHeatFactory(competition=small_heat.competition)
    big, big_matches = _final(
        big_heat,
        "ABCDEFGH",
        _round_robin("ABCDEFGH"),
        boards_per_match=20,
        lineups=True,
        prefix="Stor ",
    )
    counts_big = {
        "lag": _queries(client, "/lag/"),
        "team": _queries(client, f"/lag/lag/{big['A'].pk}/"),
        "match": _queries(client, f"/lag/match/{big_matches[('A', 'H')].pk}/"),
    }
    html = client.get("/lag/").content.decode()
    assert "Rond 7" in html and "Stor H" in html  # the big final is the one shown
    assert counts_big == counts_small
    # A fixed number each (the equality above is the guard against growth): the team page
    # went from 8 to 9 with issue 22's sanctions block, /lag/ from 8 to 9 and a finalist's
    # team page to 10 with the SM semifinal's answers (R-TEAM-SEMI-1, one query each).
    assert counts_big["lag"] <= 9 and counts_big["team"] <= 10, counts_big


def test_lag_before_the_final_stays_within_eight_queries(client):
    # Heats with teams, snapshots and the allocation of final places, no final match yet.
    first = TeamHeatFactory()
    for _ in range(4):
        TeamFactory(heat=first)
    recompute_team_competition(first.competition_id)
    client.get("/lag/")
    few = _queries(client, "/lag/")
    for _ in range(3):
        heat = TeamHeatFactory(competition=first.competition)
        for _ in range(5):
            TeamFactory(heat=heat)
    recompute_team_competition(first.competition_id)
    html = client.get("/lag/").content.decode()
    assert "Finalplatser" in html
    assert _queries(client, "/lag/") == few <= 8


def test_match_page_shows_both_rooms_contracts_from_the_uploaded_file(client, tk):
    # tests/fixtures/results/teams_ruter.pbn, round 1, BK Norrtälje – Enköpings BS, board 1:
    # open room 1NT by East, NS −120; closed room 1NT by West, NS −120: 0 IMPs.
    from results.services.uploads import upload_team_results
    from tests.results.test_uploads import data, team_heat_for

    heat, teams, _ = team_heat_for("teams_ruter.pbn", 16)
    upload_team_results(tk, heat=heat, data=data("teams_ruter.pbn"), filename="t.pbn")
    m = Match.objects.get(heat=heat, round=1, home__name="BK Norrtälje")
    html = client.get(f"/lag/match/{m.pk}/").content.decode()
    boards = html.split('id="brickor"')[1].split("</section>")[0]
    first = boards.split("<tbody>")[1].split("</tr>")[0]
    cells = [_text(td).strip() for td in re.findall(r"<td[^>]*>(.*?)</td>", first, re.S)]
    assert cells == ["1", "1NT Ö", "-120", "1NT V", "-120", "", ""]
    assert "Kontrakt rum 1" in boards
    english = client.get(f"/lag/match/{m.pk}/?lang=en").content.decode()
    assert "1NT E" in english and "1NT W" in english


def test_team_page_says_in_the_final_reserve_or_out_and_why(client):
    # R-TEAM-ADV-1: 16 teams took part (two heats of 8): the final has 8 teams, shared
    # 8 × 8/16 = 4 seats per heat. Ranks 1–4 go to the final; the allocation names the next
    # three of each heat as its reserves (R-TEAM-REPL-1); rank 8 is out.
    from results.models import StandingSnapshot

    heats = [TeamHeatFactory(), None]
    heats[1] = TeamHeatFactory(competition=heats[0].competition)
    for h, heat in enumerate(heats):
        names = "ABCDEFGH"
        teams = {
            n: TeamFactory(heat=heat, name=f"Heat {h} {n}", number=i + 1)
            for i, n in enumerate(names)
        }
        for number, pairings in enumerate(_round_robin(names), start=1):
            for home, away, _ih, _ia in pairings:
                # the team earlier in the alphabet wins by 14 (distinct VP totals, no lots)
                win, lose = sorted((home, away))
                Match.objects.create(
                    competition=heat.competition,
                    heat=heat,
                    stage="kval",
                    round=number,
                    home=teams[win],
                    away=teams[lose],
                    boards=16,
                    status="played",
                    imps_home=30,
                    imps_away=16,
                )
    recompute_team_competition(heats[0].competition_id)
    rows = StandingSnapshot.objects.get(scope="team_heat", heat=heats[0]).data
    by_rank = {r["rank"]: r["team_id"] for r in rows}
    assert [r["name"] for r in rows] == [f"Heat 0 {n}" for n in "ABCDEFGH"]

    def status(rank):
        html = client.get(f"/lag/lag/{by_rank[rank]}/").content.decode()
        return _text(html.split('id="status"')[1].split("</p>")[0])

    assert "I finalen (R-TEAM-ADV-1)." in status(1) and "I finalen" in status(4)
    assert "Reserv nummer 1 i heatet (plats 5)" in status(5)
    assert "Reserv nummer 3 i heatet (plats 7)" in status(7)
    assert "Inte i finalen: plats 8 i heatet, som fick 4 finalplatser (R-TEAM-ADV-1)." in status(8)


def test_r_team_wo_2_a_walkover_in_the_cross_table_round_by_round_and_match_page(client, final):
    # TK awards C a W.O. against D in round 1: 12.00–0.00 by the season's default W.O. score
    # (SPEC: the non-offender 12.00 VP, the offender 0.00).
    from teams.models import WalkOver

    teams, matches = final
    m = matches[("C", "D")]
    WalkOver.objects.create(match=m, offender=teams["D"], status="granted", rule_text="12–0 VP")
    Match.objects.filter(pk=m.pk).update(
        status="walkover", imps_home=0, imps_away=0, vp_home="12.00", vp_away="0.00"
    )
    recompute_team_competition(m.competition_id)
    html = client.get("/lag/").content.decode()
    table = _section(html, "korstabell")
    rows = {}
    for tr in table.split("<tr>")[2:]:
        cells = [_text(td).strip() for td in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
        rows[cells[1]] = cells[2:]
    # C: 12.00 + 5.00 + 6.25 = 23.25; D: 0.00 + 6.25 + 5.00 = 11.25; order A, B, C, D
    assert rows["Lag C"] == ["5,00", "6,25", "–", "12,00 W.O.", "23,25"]
    assert rows["Lag D"] == ["5,00", "6,25", "0,00 W.O.", "–", "11,25"]
    first = _text(html.split('id="rond-1"')[1].split('id="rond-2"')[0])
    assert "Lag C – Lag D W.O. 12,00–0,00" in first
    page = _text(client.get(f"/lag/match/{m.pk}/").content.decode())
    assert "W.O.: Lag D lämnade walk-over (R-TEAM-WO-1)." in page
    d_page = _text(client.get(f"/lag/lag/{teams['D'].pk}/").content.decode())
    assert "Lag C lämnade W.O. 0,00–12,00" in d_page

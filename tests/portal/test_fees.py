"""Fee lists, fee status and exports (R-PAIR-FEE-1, R-PAIR-FEE-2, R-TEAM-FEE-1..3,
R-TEAM-RES-4)."""

import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from openpyxl import load_workbook

from clubs import clock
from clubs.models import FinalSeat
from clubs.selectors import player_info
from clubs.services.base import ServiceError
from pairs.models import PairEntry
from portal.models import FeeStatus
from portal.services import fees
from teams.models import Lineup, Team
from tests.factories import (
    MatchFactory,
    PairCompetitionFactory,
    PairEntryFactory,
    PairHeatFactory,
    PlayerFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
    seat_in_final,
    users_by_role,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk():
    return UserFactory(is_superuser=True, is_staff=True)


def by_payer(fee_list):
    return {r.payer: r for r in fee_list.rows}


def clauses(row):
    return {line.clause for line in row.lines}


# ---------------------------------------------------------------------------------------------
# Pairs
# ---------------------------------------------------------------------------------------------


def test_r_pair_fee_1_heat_fee_per_player_plus_table_fee():
    heat = PairHeatFactory(table_fee=Decimal("40"))
    a = PairEntryFactory(heat=heat)
    PairEntryFactory(heat=heat)
    PairEntryFactory(heat=heat, status=PairEntry.Status.WITHDRAWN)
    result = fees.pair_heat_fee_list(heat)
    assert len(result.rows) == 2
    row = next(r for r in result.rows if r.obj == a)
    assert row.total == Decimal("180")  # 2 × (50 + 40)
    assert clauses(row) == {"R-PAIR-FEE-1"}
    assert result.total == Decimal("360")
    assert row.status is None


def test_r_pair_fee_1_heat_fee_is_season_configuration():
    heat = PairHeatFactory(table_fee=Decimal("0"))
    season = heat.competition.season
    season.pair_kval_fee_per_player = Decimal("60")
    season.save()
    PairEntryFactory(heat=heat)
    assert fees.pair_heat_fee_list(heat).total == Decimal("120")


def test_r_pair_fee_1_bronze_heat_pair_outside_the_qualifier_pays_table_fee_only():
    heat = PairHeatFactory(heat_type="bronze", table_fee=Decimal("40"))
    inside = PairEntryFactory(heat=heat)
    outside = PairEntryFactory(heat=heat, takes_part_in_qualifier=False)
    rows = {r.obj: r for r in fees.pair_heat_fee_list(heat).rows}
    assert rows[inside].total == Decimal("180")
    assert rows[outside].total == Decimal("80")
    assert "R-PAIR-KVAL-5" in rows[outside].notes[0]


def test_r_pair_fee_2_dam_final_ubf_pays_part_by_pin(tk):
    dam = PairCompetitionFactory(discipline="dam", is_direct_final=True)
    season = dam.season
    heat = PairHeatFactory(competition=dam)
    klover = member(season=season, max_pin=1)
    ruter = member(season=season, max_pin=2)
    hjarter = member(season=season, max_pin=3)
    none = member(season=season, max_pin=0)
    PairEntry.objects.create(heat=heat, player1=klover, player2=ruter, pair_number="1")
    PairEntry.objects.create(heat=heat, player1=hjarter, player2=none, pair_number="2")
    result = fees.pair_final_fee_list(dam)  # direct final without seats: the entries
    totals = sorted(r.total for r in result.rows)
    assert totals == [Decimal("250"), Decimal("300")]  # 400-100-50 and 400-0-100
    assert all("R-PAIR-FEE-2" in clauses(r) for r in result.rows)
    assert result.notes == ["Direktfinal: alla anmälda par."]


def test_r_pair_fee_1_final_fee_for_seat_holders_and_direct_qualifiers():
    competition = PairCompetitionFactory(discipline="open")
    season = competition.season
    heat = PairHeatFactory(competition=competition)
    seated = PairEntryFactory(heat=heat)
    gone = PairEntryFactory(heat=heat)
    FinalSeat.objects.create(competition=competition, holder=seated, source="allocation")
    FinalSeat.objects.create(
        competition=competition, holder=gone, source="allocation", status="vacated"
    )
    dq = PairEntry.objects.create(
        entered_as="direct",
        competition=competition,
        player1=member(season=season, max_pin=1),
        player2=member(season=season),
        registered_on=date(2017, 2, 1),
    )
    FinalSeat.objects.create(competition=competition, holder=dq, source="direct")
    result = fees.pair_final_fee_list(competition)
    assert {r.obj for r in result.rows} == {seated, dq}
    assert result.total == Decimal("800")  # no subsidy outside Dam
    assert all(clauses(r) == {"R-PAIR-FEE-1"} for r in result.rows)


# ---------------------------------------------------------------------------------------------
# Teams
# ---------------------------------------------------------------------------------------------


def junior(season):
    return member(season=season, birth_year=1995)


def team_with(heat, juniors=0, players=4):
    team = TeamFactory(heat=heat, players=players - juniors)
    for _ in range(juniors):
        team.roster.create(player=junior(team.competition.season))
    return team


def test_r_team_fee_1_r_team_fee_2_r_team_fee_3_heat_fees_before_schedule():
    heat = TeamHeatFactory(table_fee_per_match=Decimal("100"))
    one = team_with(heat, juniors=1)
    team_with(heat)
    team_with(heat)
    TeamFactory(heat=heat, players=4, status=Team.Status.WITHDRAWN)
    result = fees.team_heat_fee_list(heat)
    rows = by_payer(result)
    assert len(rows) == 3
    # 500 start fee − 100 junior discount + 2 matches × 100 table fee (no schedule yet).
    assert rows[one.name].total == Decimal("600")
    assert clauses(rows[one.name]) == {"R-TEAM-FEE-1", "R-TEAM-FEE-2", "R-TEAM-FEE-3"}
    assert any("Spelschemat saknas" in n for n in rows[one.name].notes)
    assert result.total == Decimal("600") + 2 * Decimal("700")


def test_r_team_fee_3_junior_discount_never_below_zero():
    heat = TeamHeatFactory()
    team = team_with(heat, juniors=6, players=6)
    row = fees.team_heat_fee_list(heat).rows[0]
    assert row.obj == team
    assert row.total == Decimal("0")


def test_r_team_fee_3_juniors_who_took_part_from_the_lineups():
    heat = TeamHeatFactory(table_fee_per_match=Decimal("50"))
    team = team_with(heat, juniors=1, players=5)
    opponent = team_with(heat)
    match = MatchFactory(home=team, away=opponent, status="played")
    seniors = [e.player for e in team.roster.all() if e.player.birth_year < 1991][:4]
    for p in seniors:
        Lineup.objects.create(match=match, team=team, player=p, half=1)
    rows = by_payer(fees.team_heat_fee_list(heat))
    assert rows[team.name].total == Decimal("550")  # junior did not play: no discount
    assert not any(line.clause == "R-TEAM-FEE-3" for line in rows[team.name].lines)
    # The opponent has no line-up: its roster counts (no juniors) and one match is played.
    assert rows[opponent.name].total == Decimal("550")


def test_r_team_fee_1_heat_start_fee_differing_from_season_is_noted():
    heat = TeamHeatFactory(start_fee=Decimal("600"))
    team_with(heat)
    result = fees.team_heat_fee_list(heat)
    assert result.rows[0].total == Decimal("500")
    assert "600" in result.notes[0] and "R-TEAM-FEE-1" in result.notes[0]


def test_r_team_res_4_disqualified_team_keeps_its_fees():
    heat = TeamHeatFactory()
    team = team_with(heat)
    team.status = Team.Status.DISQUALIFIED
    team.save()
    row = fees.team_heat_fee_list(heat).rows[0]
    assert row.total == Decimal("500")
    assert any("R-TEAM-RES-4" in n for n in row.notes)


def test_r_team_fee_2_final_table_fee_per_round_without_schedule():
    heat = TeamHeatFactory()
    teams = [team_with(heat) for _ in range(8)]
    for i, t in enumerate(teams, start=1):
        seat_in_final(t, i)
    result = fees.team_final_fee_list(heat.competition)
    assert len(result.rows) == 8
    assert result.rows[0].total == Decimal("1400")  # 7 rounds × 200


def test_r_team_fee_3_juniors_play_the_final_free_round_by_round():
    heat = TeamHeatFactory()
    a = team_with(heat, juniors=2, players=6)
    b = team_with(heat)
    for t in (a, b):
        seat_in_final(t)
    m1 = MatchFactory(home=a, away=b, stage="final", heat=None, round=1, status="played")
    players = list(a.roster.select_related("player"))
    juniors = [e.player for e in players if e.player.birth_year >= 1991]
    seniors = [e.player for e in players if e.player.birth_year < 1991]
    for p in juniors + seniors[:2]:
        Lineup.objects.create(match=m1, team=a, player=p, half=1)
    rows = by_payer(fees.team_final_fee_list(heat.competition))
    # One round, two juniors played: 200 − 2 × 50.
    assert rows[a.name].total == Decimal("100")
    assert "R-TEAM-FEE-3" in clauses(rows[a.name])
    assert rows[b.name].total == Decimal("200")


# ---------------------------------------------------------------------------------------------
# Marking fees
# ---------------------------------------------------------------------------------------------


def test_r_team_fee_1_heat_responsible_marks_collected_and_passed():
    heat = TeamHeatFactory()
    team = team_with(heat)
    users = users_by_role(team=team)
    with clock.frozen("2016-11-10"):
        fees.mark_fee(
            users["heat_responsible"], team, fees.TEAM_HEAT, collected_on=date(2016, 11, 5)
        )
        status = fees.mark_fee(
            users["heat_responsible"], team, fees.TEAM_HEAT, passed_to_ubf_on=date(2016, 11, 9)
        )
    assert status.collected_on == date(2016, 11, 5)
    assert status.passed_to_ubf_on == date(2016, 11, 9)
    assert status.marked_by == users["heat_responsible"]
    row = fees.team_heat_fee_list(heat).rows[0]
    assert row.collected_on == date(2016, 11, 5) and row.passed_to_ubf_on == date(2016, 11, 9)


def test_r_team_fee_1_mark_fee_refusals_write_nothing():
    heat = TeamHeatFactory()
    team = team_with(heat)
    users = users_by_role(team=team)
    user = users["heat_responsible"]
    with clock.frozen("2016-11-10"):
        for kwargs in (
            {"passed_to_ubf_on": date(2016, 11, 9)},  # never collected
            {"collected_on": date(2016, 11, 12)},  # in the future
            {"collected_on": date(2016, 11, 9), "passed_to_ubf_on": date(2016, 11, 8)},
            {},
        ):
            with pytest.raises(ServiceError) as exc:
                fees.mark_fee(user, team, fees.TEAM_HEAT, **kwargs)
            assert "R-TEAM-FEE-1" in str(exc.value)
    assert FeeStatus.objects.count() == 0


def test_r_pair_fee_1_final_fees_are_marked_by_tk_only(tk):
    competition = PairCompetitionFactory()
    heat = PairHeatFactory(competition=competition)
    entry = PairEntryFactory(heat=heat)
    users = users_by_role(pair_heat=heat)
    with clock.frozen("2017-04-22"):
        with pytest.raises(PermissionDenied):
            fees.mark_fee(
                users["heat_responsible"], entry, fees.PAIR_FINAL, collected_on=date(2017, 4, 22)
            )
        fees.mark_fee(tk, entry, fees.PAIR_FINAL, collected_on=date(2017, 4, 22))
        # The heat's organiser marks the heat fee.
        fees.mark_fee(
            users["heat_responsible"], entry, fees.PAIR_HEAT, collected_on=date(2017, 2, 10)
        )
    assert FeeStatus.objects.filter(object_id=entry.pk).count() == 2


ROLES = ["anonymous", "club_official", "heat_responsible", "captain", "tk"]
MAY_HANDLE_HEAT_FEES = {"heat_responsible", "tk"}


@pytest.mark.parametrize("role", ROLES)
def test_r_team_fee_1_permission_matrix_mark_fee(role):
    heat = TeamHeatFactory()
    team = team_with(heat)
    users = users_by_role(team=team)
    with clock.frozen("2016-11-10"):
        if role in MAY_HANDLE_HEAT_FEES:
            fees.mark_fee(users[role], team, fees.TEAM_HEAT, collected_on=date(2016, 11, 5))
            assert FeeStatus.objects.count() == 1
        else:
            with pytest.raises(PermissionDenied):
                fees.mark_fee(users[role], team, fees.TEAM_HEAT, collected_on=date(2016, 11, 5))
            assert FeeStatus.objects.count() == 0


# ---------------------------------------------------------------------------------------------
# Exports and views
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def heat_list():
    heat = TeamHeatFactory(name="Lagkval Östhammar", table_fee_per_match=Decimal("75"))
    teams = [team_with(heat, juniors=1), team_with(heat), team_with(heat)]
    teams[0].name = "Åkerby Öst"
    teams[0].save()
    return heat, teams


def test_r_team_fee_1_csv_semicolons_bom_and_swedish_letters(heat_list):
    heat, teams = heat_list
    text = fees.fee_list_csv(fees.team_heat_fee_list(heat))
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert rows[0][:5] == ["Betalare", "Avgift", "Regel", "Mottagare", "Belopp (kr)"]
    assert any(r[0] == "Åkerby Öst" and r[2] == "R-TEAM-FEE-3" and r[4] == "-100" for r in rows)
    assert rows[-1][0] == "Totalt"
    # 3 × 500 − 100 + 3 × 2 × 75
    assert rows[-1][4] == "1850"
    assert text.encode("utf-8").startswith(b"\xef\xbb\xbf")


def test_r_team_fee_2_xlsx_bold_header_numbers_in_kronor_and_total(heat_list):
    heat, teams = heat_list
    data = fees.fee_list_xlsx(fees.team_heat_fee_list(heat))
    ws = load_workbook(io.BytesIO(data)).active
    header = [c.value for c in ws[1]]
    assert header[0] == "Betalare" and header[4] == "Belopp (kr)"
    assert all(c.font.bold for c in ws[1])
    values = list(ws.iter_rows(min_row=2, values_only=True))
    lines = [v for v in values if v[1] not in ("",) and v[0] != "Totalt" and v[1] is not None]
    assert all(isinstance(v[4], int | float) for v in lines)
    sums = [v for v in values if v[1] and str(v[1]).startswith("Summa")]
    assert len(sums) == 3
    last = ws[ws.max_row]
    assert last[0].value == "Totalt" and last[4].value == 1850
    assert last[0].font.bold
    assert "kr" in ws.cell(2, 5).number_format
    assert sum(v[4] for v in sums) == 1850


def test_r_team_fee_1_xlsx_shows_fee_status_dates(heat_list):
    heat, teams = heat_list
    with clock.frozen("2016-11-10"):
        fees.mark_fee(
            UserFactory(is_superuser=True), teams[1], fees.TEAM_HEAT, collected_on=date(2016, 11, 6)
        )
    ws = load_workbook(io.BytesIO(fees.fee_list_xlsx(fees.team_heat_fee_list(heat)))).active
    sums = {
        r[0]: r
        for r in ws.iter_rows(min_row=2, values_only=True)
        if r[1] and str(r[1]).startswith("Summa")
    }
    assert sums[teams[1].name][5].date() == date(2016, 11, 6)
    assert sums[teams[2].name][5] is None


def url(kind, pk, fmt, scope="heat"):
    return reverse(
        "portal:fee_list_download", kwargs={"scope": scope, "kind": kind, "pk": pk, "fmt": fmt}
    )


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
@pytest.mark.parametrize("role", ROLES)
def test_r_team_fee_1_permission_matrix_fee_export_views(client, heat_list, role, fmt):
    heat, teams = heat_list
    users = users_by_role(team=teams[0])
    if role != "anonymous":
        client.force_login(users[role])
    response = client.get(url("lagkval", heat.pk, fmt))
    if role == "anonymous":
        assert response.status_code == 302 and "login" in response["Location"]
    elif role in MAY_HANDLE_HEAT_FEES:
        assert response.status_code == 200
        assert (
            response["Content-Disposition"]
            == f'attachment; filename="avgifter-lagkval-lagkval-osthammar.{fmt}"'
        )
    else:
        assert response.status_code == 403


def test_r_pair_fee_1_pair_heat_export_for_the_arranging_club(client):
    heat = PairHeatFactory(name="Parkval Enköping")
    PairEntryFactory(heat=heat)
    users = users_by_role(pair_heat=heat)
    client.force_login(users["heat_responsible"])
    response = client.get(url("parkval", heat.pk, "csv"))
    assert response.status_code == 200
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff") and "R-PAIR-FEE-1" in body
    client.force_login(users["club_official"])
    assert client.get(url("parkval", heat.pk, "csv")).status_code == 403


def test_r_team_fee_2_final_list_page_and_export_for_tk_only(client, tk, heat_list):
    heat, teams = heat_list
    for t in teams:
        seat_in_final(t)
    competition = heat.competition
    users = users_by_role(team=teams[0])
    client.force_login(users["heat_responsible"])
    assert client.get(url("lagfinal", competition.pk, "xlsx", scope="final")).status_code == 403
    client.force_login(tk)
    response = client.get(url("lagfinal", competition.pk, "xlsx", scope="final"))
    assert response.status_code == 200
    assert 'filename="avgifter-lagfinal-dm-lag-2016-2017.xlsx"' in response["Content-Disposition"]
    page = client.get(
        reverse(
            "portal:fee_list", kwargs={"scope": "final", "kind": "lagfinal", "pk": competition.pk}
        )
    )
    assert page.status_code == 200
    assert "Åkerby Öst" in page.content.decode() and "R-TEAM-FEE-2" in page.content.decode()


def test_fee_views_unknown_list_is_404(client, tk, heat_list):
    heat, _ = heat_list
    client.force_login(tk)
    assert client.get(url("lagkval", 99999, "csv")).status_code == 404
    assert client.get(url("lagfinal", heat.pk, "csv", scope="heat")).status_code == 404
    assert client.get("/avgifter/heat/lagkval/1.pdf").status_code == 404


def test_player_info_from_season_data():
    heat = TeamHeatFactory()
    season = heat.competition.season
    p = member(season=season, paid=False, birth_year=1995, max_pin=2, gender="M")
    info = player_info(season, p)
    assert info.mid == p.mid and info.district == "UBF" and not info.membership_paid
    assert info.is_junior(season.rules()) and int(info.max_pin) == 2
    nobody = player_info(season, PlayerFactory())
    assert nobody.district is None and not nobody.membership_paid

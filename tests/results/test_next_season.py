"""The next season made from this one (issue 23; CONTRACT.md ``next_season``): competitions
and dates moved to the same weekday a year on, the veteran limit a year on (R-PAIR-3), tables
and TK's reasons copied (R-GEN-3), last season's DM gold as direct qualifiers awaiting
registration (R-DIRECT-1: Mixed, Veteran, Open, never Dam; R-TEAM-DIRECT-1: the team's
roster), a venue's lot precedence kept (R-ALLOC-5), memberships unpaid (R-GEN-2), the finished
season read-only and on the archive. Expected dates worked by hand on the 2017/2018 calendars."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from clubs.models import Membership, ReigningChampion, Representation, Season
from clubs.services.base import ServiceError
from clubs.services.season import configure_season
from pairs.models import PairCompetition, PairEntry
from results.models import Lot, StandingSnapshot
from results.services.lots import lot_precedence
from results.services.next_season import awaiting_champions, create_next_season, plan_next_season
from teams.models import RosterEntry, TeamCompetition
from tests.factories import (
    PairCompetitionFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    member,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(tk):
    season = SeasonFactory()
    configure_season(tk, season, {"team_start_fee": Decimal("600")}, reason="SBF:s nya avgift")
    season.refresh_from_db()
    open_ = PairCompetitionFactory(season=season, discipline="open")  # final Sat 22 April 2017
    PairCompetitionFactory(season=season, discipline="mixed", final_date=date(2017, 5, 6))
    dam = PairCompetitionFactory(season=season, discipline="dam", final_date=date(2017, 5, 13))
    teams = TeamCompetitionFactory(season=season)  # final days Sat 4 – Sun 5 March 2017
    a, b, c, d = (member(season=season) for _ in range(4))
    StandingSnapshot.objects.create(
        scope=StandingSnapshot.Scope.PAIR_FINAL,
        competition=open_,
        provisional=False,
        data={
            "rows": [
                {"player_ids": [a.pk, b.pk], "name": "A – B", "title": True},
                {"player_ids": [c.pk, d.pk], "name": "C – D", "title": False},
            ]
        },
    )
    # Dam's champions are not directly qualified (R-DIRECT-1 names Mixed, Veteran, Open).
    StandingSnapshot.objects.create(
        scope=StandingSnapshot.Scope.PAIR_FINAL,
        competition=dam,
        provisional=False,
        data={"rows": [{"player_ids": [c.pk, d.pk], "name": "C – D", "title": True}]},
    )
    champions = TeamFactory(competition=teams, heat=None, number=None, name="Fyris", captain=a)
    for p in (a, b, c):
        RosterEntry.objects.create(team=champions, player=p)
    runner_up = TeamFactory(competition=teams, heat=None, number=None, name="Tierp")
    StandingSnapshot.objects.create(
        scope=StandingSnapshot.Scope.TEAM_FINAL,
        competition=teams,
        provisional=False,
        data=[{"team_id": champions.pk, "dm_rank": 1}, {"team_id": runner_up.pk, "dm_rank": 2}],
    )
    Lot.objects.create(
        kind="pairs",
        season=season,
        competition=open_,
        among=["Enköping", "Tierp"],
        winners=["Tierp"],
        losers=["Enköping"],
        seats=1,
        seed="s",
    )
    return season


def test_the_plan_saves_nothing(season):
    plan = plan_next_season(season)
    assert plan.summary() == "next season 2017-2018: 4 competitions, 2 direct qualifiers"
    assert Season.objects.count() == 1
    values = {v.key: v for v in plan.season_values}
    assert (values["veteran_born_on_or_before"].old, values["veteran_born_on_or_before"].new) == (
        1957,
        1958,
    )
    assert values["team_start_fee"].new == Decimal("600")
    assert values["team_start_fee"].reason == "SBF:s nya avgift"
    assert [c.discipline for c in plan.champions] == ["open", "teams"]


def test_next_season_from_2016_2017(season, tk):
    new, plan = create_next_season(tk, season, reason="Ny säsong")
    assert (new.name, new.start_year, new.is_current) == ("2017-2018", 2017, True)
    assert new.team_start_fee == Decimal("600")
    assert new.veteran_born_on_or_before == 1958
    assert new.rules().lot_precedence_seasons == 5
    open_ = PairCompetition.objects.get(season=new, discipline="open")
    # Saturday 22 April 2017 → Saturday 21 April 2018; 1 Jan 2017 (Sun) → 31 Dec 2017 (Sun);
    # 31 March 2017 (Fri) → 30 March 2018 (Fri); 1 Dec 2016 (Thu) → 30 Nov 2017 (Thu).
    assert open_.final_date == date(2018, 4, 21)
    assert (open_.qualifying_start, open_.qualifying_end) == (date(2017, 12, 31), date(2018, 3, 30))
    assert open_.heat_registration_deadline == date(2017, 11, 30)
    assert open_.final_venue == "Bridgens hus, Uppsala"
    teams = TeamCompetition.objects.get(season=new)
    assert (teams.final_day1, teams.final_day2) == (date(2018, 3, 3), date(2018, 3, 4))
    assert PairCompetition.objects.filter(season=new).count() == 3
    # R-DIRECT-1, R-TEAM-DIRECT-1: the champions are listed, awaiting registration.
    champions = {c.competition.discipline: c for c in ReigningChampion.objects.all()}
    assert set(champions) == {"open", "teams"}
    assert champions["open"].name == "A – B" and len(champions["open"].mids) == 2
    assert len(champions["teams"].mids) == 3
    assert [a.registered for a in awaiting_champions(new)] == [False, False]
    PairEntry.objects.create(
        entered_as="direct",
        competition=open_,
        player1_id=RosterEntry.objects.filter(team__name="Fyris").first().player_id,
        player2_id=RosterEntry.objects.filter(team__name="Fyris").last().player_id,
        registered_on=date(2018, 1, 10),
    )
    assert sorted(a.registered for a in awaiting_champions(new)) == [False, True]
    # R-ALLOC-5: Enköping lost a lot in 2016-2017 and holds precedence in 2017-2018 too.
    assert lot_precedence("pairs", new, ["Enköping", "Tierp"]) == ["Enköping"]
    # R-GEN-2: every member starts the new season unpaid, in the same club.
    # The 4 above and Tierp's captain (Fyris' captain is A).
    assert Membership.objects.filter(season=new).count() == 5
    assert not Membership.objects.filter(season=new, paid_on__isnull=False).exists()
    assert Representation.objects.filter(season=new).count() == 5
    # The finished season is read-only and stays on the archive.
    season.refresh_from_db()
    assert season.is_finished and not season.is_current
    with pytest.raises(ServiceError) as caught:
        configure_season(tk, season, {"team_start_fee": Decimal("700")}, reason="x")
    assert "avslutad" in str(caught.value)
    with pytest.raises(ServiceError):
        create_next_season(tk, season, reason="igen")


def test_the_archive_still_shows_the_finished_season(season, tk, client):
    create_next_season(tk, season, reason="Ny säsong")
    assert client.get("/lag/?season=2016-2017").status_code == 200


def test_the_command_plans_then_applies(season):
    out = StringIO()
    call_command("next_season", "2016-2017", stdout=out)
    assert out.getvalue().strip().splitlines()[-1] == (
        "next season 2017-2018: 4 competitions, 2 direct qualifiers"
    )
    assert not Season.objects.filter(name="2017-2018").exists()
    out = StringIO()
    call_command("next_season", "2016-2017", "--apply", stdout=out)
    assert out.getvalue().strip().splitlines()[-1] == (
        "next season 2017-2018: 4 competitions, 2 direct qualifiers"
    )
    assert Season.objects.get(name="2017-2018").competitions.count() == 4


def test_the_page_shows_the_plan_then_makes_the_season(season, tk, client):
    client.force_login(tk)
    page = client.get("/tk/nasta-sasong/").content.decode()
    assert "next season 2017-2018: 4 competitions, 2 direct qualifiers" in page
    assert "2018-04-21" in page and "SBF:s nya avgift" in page
    refused = client.post("/tk/nasta-sasong/", {"reason": ""})
    assert refused.status_code == 400 and not Season.objects.filter(name="2017-2018").exists()
    client.post("/tk/nasta-sasong/", {"reason": "Ny säsong"})
    assert Season.objects.get(name="2017-2018").is_current
    page = client.get("/tk/nasta-sasong/").content.decode()
    assert "A – B" in page and "Fyris" in page  # awaiting registration in 2017-2018


def test_tk_registers_the_reigning_pair_through_the_direct_qualifier_service(season, tk, client):
    """R-DIRECT-1 via the existing service: the listed MIDs are the champions; the players
    must have paid the new season's fee (R-GEN-2), which starts unpaid."""
    from clubs import clock

    new, _plan = create_next_season(tk, season, reason="Ny säsong")
    champion = ReigningChampion.objects.get(competition__discipline="open")
    client.force_login(tk)
    with clock.frozen("2018-01-10 10:00"):
        refused = client.post("/tk/nasta-sasong/", {"register_champion": champion.pk})
        assert refused.status_code == 400
        assert not PairEntry.objects.filter(entered_as="direct").exists()
        Membership.objects.filter(season=new, player__mid__in=champion.mids).update(
            paid_on=date(2017, 9, 1)
        )
        done = client.post("/tk/nasta-sasong/", {"register_champion": champion.pk}, follow=True)
    assert "De regerande mästarna är anmälda." in done.content.decode()
    dq = PairEntry.objects.filter(entered_as="direct").get()
    assert dq.competition_id == champion.competition_id
    assert sorted([dq.player1.mid, dq.player2.mid]) == sorted(champion.mids)
    assert [a.registered for a in awaiting_champions(new) if a.champion == champion] == [True]


def test_r_alloc_5_precedence_lasts_five_seasons_then_lapses(season, tk):
    """The lot of 2016-2017 gives precedence in 2016-2017 and the four seasons after it (five,
    the copied setting), not in the sixth, 2021-2022."""
    held = {}
    current = season
    for _ in range(5):
        current, _plan = create_next_season(tk, current, reason="Ny säsong")
        assert current.rules().lot_precedence_seasons == 5
        held[current.name] = lot_precedence("pairs", current, ["Enköping", "Tierp"])
    assert held == {
        "2017-2018": ["Enköping"],
        "2018-2019": ["Enköping"],
        "2019-2020": ["Enköping"],
        "2020-2021": ["Enköping"],
        "2021-2022": [],
    }


def test_a_finished_season_takes_no_result_file(tk):
    from results.services.uploads import UploadRejected, upload_pair_heat
    from tests.results.test_uploads import data, pair_heat_for

    name = "pairs_ruter_mitchell.pbn"
    heat, _ = pair_heat_for(name)
    heat.competition.season.is_finished = True
    heat.competition.season.save()
    with pytest.raises(UploadRejected) as caught:
        upload_pair_heat(tk, heat, data=data(name), filename=name)
    assert [p.code for p in caught.value.problems] == ["season-finished"]
    assert not heat.uploads.exists()


def test_tk_registers_the_reigning_team_on_the_page_with_two_thirds_of_its_players(
    season, tk, client
):
    """R-TEAM-DIRECT-1 from /tk/nasta-sasong/ through register_direct_team: last season's
    roster was A, B and C (the champions of the fixture), so ceil(2/3 × 3) = 2 of them must be
    on the new roster; with one it is refused and nothing is saved, with two it is entered
    directly in the final."""
    from clubs import clock
    from teams.models import Team

    new, _plan = create_next_season(tk, season, reason="Ny säsong")
    champion = ReigningChampion.objects.get(competition__discipline="teams")
    a, b, _c = champion.mids
    others = [member(season=new).mid for _ in range(3)]
    form = {
        "register_team_champion": champion.pk,
        "name": "Fyris",
        "captain_mid": a,
        "address": "Storgatan 1, Uppsala",
        "phone": "018-123456",
        "email": "fyris@example.org",
    }
    client.force_login(tk)
    with clock.frozen("2017-10-10 10:00"):
        page = client.get("/tk/nasta-sasong/").content.decode()
        assert f"register-team-champion-{champion.pk}" in page
        refused = client.post("/tk/nasta-sasong/", {**form, "player_mids": "\n".join([a, *others])})
        assert refused.status_code == 400 and "R-TEAM-DIRECT-1" in refused.content.decode()
        assert not Team.objects.filter(competition__season=new).exists()
        done = client.post(
            "/tk/nasta-sasong/",
            {**form, "player_mids": ", ".join([a, b, *others[:2]])},
            follow=True,
        )
    assert "De regerande mästarna är anmälda." in done.content.decode()
    team = Team.objects.get(competition__season=new)
    assert team.is_direct_qualifier and team.roster.count() == 4
    assert [x.registered for x in awaiting_champions(new) if x.champion == champion] == [True]

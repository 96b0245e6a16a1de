"""Lots between equal venues: hand-drawn lots and the five-season precedence (R-ALLOC-5).

A lot entered by hand for a team competition runs the real recompute on commit (the ``decide``
fixture, no mock) and the test reads the allocation it wrote. The pairs lot below only checks
that the recompute was asked for (its venues are not heats of the competition)."""

import pytest
from django.core.exceptions import PermissionDenied

from clubs.models import Decision
from clubs.services.base import ServiceError
from results.models import AllocationRun, Lot
from results.services.lots import lot_precedence, record_manual_lot, use_precedence
from results.services.recompute import recompute_team_competition
from tests.factories import (
    PairCompetitionFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    users_by_role,
)
from tests.portal.test_tk_decisions import heat_with

pytestmark = [pytest.mark.django_db]


def season(start_year):
    return SeasonFactory(
        name=f"{start_year}-{start_year + 1}", start_year=start_year, is_current=False
    )


def lot(kind, season_, losers, winners=("1",), **kw):
    among = list(winners) + list(losers)
    return Lot.objects.create(
        kind=kind,
        season=season_,
        among=among,
        winners=list(winners),
        losers=list(losers),
        seats=len(winners),
        seed="s",
        **kw,
    )


def manual(tk, competition, **kw):
    args = dict(
        kind="pairs",
        season=competition.season,
        competition=competition,
        among=["12", "15"],
        winners=["15"],
        seats=1,
        labels={"12": "BK Skäggetorp", "15": "Enköpings BK"},
        explanation="Lottat av TK:s ordförande 2017-04-01 inför båda klubbarna",
    )
    args.update(kw)
    return record_manual_lot(tk, **args)


def test_r_alloc_5_manual_lot_recorded_with_who_and_why(tk, recompute):
    competition = PairCompetitionFactory()
    result = manual(tk, competition)
    assert result.drawn_by_hand and result.drawn_by == tk and result.seed == ""
    assert result.losers == ["12"] and result.winners == ["15"]
    assert result.competition == competition
    d = Decision.objects.get(action="results.lot.drawn_by_hand", object_id=result.pk)
    assert d.decided_by == tk and d.clause == "R-ALLOC-5"
    assert d.reason.startswith("Lottat av TK")
    recompute.assert_called_with(competition_id=competition.pk)


def test_r_alloc_5_manual_team_lot_decides_the_allocation(tk, decide):
    competition = TeamCompetitionFactory(season=SeasonFactory())
    for i in range(3):
        heat_with(competition, 4, prefix=f"M{i}", played=i < 2)
    recompute_team_competition(competition.id)
    # 12 teams, 8 seats (R-TEAM-ADV-1): each heat's share 8 × 4/12 = 2.67, 2 whole seats each
    # (R-ALLOC-3), and the 2 seats left go by lot among the three equal heats (R-ALLOC-5)
    run = AllocationRun.objects.get(competition=competition)
    among = run.explanation["lots"][0]["keys"]
    assert len(among) == 3
    winners, loser = among[1:], among[0]
    result = decide(
        manual,
        tk,
        competition,
        kind="teams",
        among=among,
        winners=winners,
        seats=2,
        labels={key: key for key in among},
    )
    assert result.competition == competition and result.losers == [loser]
    # the recompute took the recorded lot: the winners 2 + 1 seats, the loser 2
    run = AllocationRun.objects.get(competition=competition)
    seats = {v["key"]: v["seats"] for v in run.explanation["venues"]}
    assert seats == {loser: 2, winners[0]: 3, winners[1]: 3}
    assert run.explanation["lots"][0]["keys"] == among


@pytest.mark.parametrize(
    "changes",
    [
        {"winners": ["99"]},  # not among the venues
        {"winners": ["12", "15"]},  # more winners than seats
        {"seats": 2, "winners": ["12", "15"]},  # nobody loses
        {"among": ["12"], "winners": ["12"]},  # one venue is no lot
        {"winners": ["15", "15"], "among": ["12", "15", "17"], "seats": 2},  # repeated winner
        {"explanation": " "},
        {"kind": "teams"},  # a pairs competition in a teams lot
    ],
)
def test_r_alloc_5_manual_lot_refusals_write_nothing(tk, changes):
    competition = PairCompetitionFactory()
    with pytest.raises(ServiceError) as exc:
        manual(tk, competition, **changes)
    assert "R-ALLOC-5" in str(exc.value)
    assert Lot.objects.count() == 0 and Decision.objects.count() == 0


def test_r_alloc_5_competition_of_another_season_is_refused(tk):
    competition = PairCompetitionFactory()
    with pytest.raises(ServiceError) as exc:
        manual(tk, competition, season=season(2017))
    assert "R-ALLOC-5" in str(exc.value)
    assert Lot.objects.count() == 0


@pytest.mark.parametrize(
    "role", ["anonymous", "club_official", "heat_responsible", "captain", "tk"]
)
def test_r_alloc_5_permission_matrix_manual_lot(role):
    team = TeamFactory()
    users = users_by_role(team=team)
    competition = team.competition
    kwargs = dict(kind="teams", among=["1", "2"], winners=["1"])
    if role == "tk":
        manual(users[role], competition, **kwargs)
        assert Lot.objects.count() == 1
    else:
        with pytest.raises(PermissionDenied):
            manual(users[role], competition, **kwargs)
        assert Lot.objects.count() == 0 and Decision.objects.count() == 0


def test_r_alloc_5_loser_holds_precedence_for_five_seasons_in_same_kind():
    s2016 = SeasonFactory()
    lot("pairs", s2016, losers=["12"], winners=["15"])
    assert lot_precedence("pairs", s2016, ["12", "15", "20"]) == ["12"]
    assert lot_precedence("pairs", season(2020), ["12"]) == ["12"]
    assert lot_precedence("pairs", season(2021), ["12"]) == []
    # Not before the lot, not in the other kind, not for a venue not in the tie.
    assert lot_precedence("pairs", season(2015), ["12"]) == []
    assert lot_precedence("teams", s2016, ["12"]) == []
    assert lot_precedence("pairs", s2016, ["15", "20"]) == []


def test_r_alloc_5_precedence_window_is_season_configuration():
    s2016 = SeasonFactory()
    lot("teams", s2016, losers=["7"])
    s2018 = season(2018)
    assert lot_precedence("teams", s2018, ["7"]) == ["7"]
    s2018.tables = {"lot_precedence_seasons": 2}
    s2018.save()
    assert lot_precedence("teams", s2018, ["7"]) == []


def test_r_alloc_5_oldest_precedence_first_and_used_up():
    s2016 = SeasonFactory()
    s2017 = season(2017)
    older = lot("pairs", s2016, losers=["B"], winners=["X"])
    lot("pairs", s2017, losers=["A"], winners=["Y"])
    s2018 = season(2018)
    assert lot_precedence("pairs", s2018, ["A", "B", "C"]) == ["B", "A"]
    now = lot("pairs", s2018, losers=["A"], winners=["B"])
    used = use_precedence(now, "B")
    assert used == older
    older.refresh_from_db()
    assert older.precedence_used_by == now
    assert lot_precedence("pairs", s2018, ["A", "B", "C"]) == ["A"]
    d = Decision.objects.get(action="results.lot.precedence_used", object_id=older.pk)
    assert d.data["venue"] == "B" and d.clause == "R-ALLOC-5"


def test_r_alloc_5_each_loser_of_a_three_way_lot_keeps_its_own_precedence():
    s2016 = SeasonFactory()
    three = lot("pairs", s2016, losers=["A", "B"], winners=["C"])
    s2017 = season(2017)
    later = lot("pairs", s2017, losers=["D"], winners=["A"])
    use_precedence(later, "A")
    three.refresh_from_db()
    assert three.precedence_used_by is None
    assert lot_precedence("pairs", s2017, ["A", "B"]) == ["B"]
    last = lot("pairs", s2017, losers=["E"], winners=["B"])
    use_precedence(last, "B")
    three.refresh_from_db()
    assert three.precedence_used_by == last
    assert lot_precedence("pairs", s2017, ["A", "B"]) == []


def test_r_alloc_5_use_precedence_refusals():
    s2016 = SeasonFactory()
    current = lot("teams", s2016, losers=["A"], winners=["B"])
    with pytest.raises(ServiceError) as exc:
        use_precedence(current, "B")  # B never lost a lot
    assert "R-ALLOC-5" in str(exc.value)
    with pytest.raises(ServiceError):
        use_precedence(current, "Z")  # Z was not in the lot
    assert not Decision.objects.exists()


def test_r_alloc_5_own_competition_lot_can_be_left_out():
    competition = PairCompetitionFactory()
    lot("pairs", competition.season, losers=["12"], competition=competition)
    assert lot_precedence("pairs", competition.season, ["12"]) == ["12"]
    assert (
        lot_precedence("pairs", competition.season, ["12"], exclude_competition=competition) == []
    )


def test_r_alloc_5_admin_enters_hand_lot_and_system_lots_are_read_only(client, tk):
    competition = PairCompetitionFactory()
    client.force_login(tk)
    response = client.post(
        "/admin/results/lot/add/",
        {
            "kind": "pairs",
            "season": competition.season.pk,
            "competition": competition.pk,
            "among": '["12", "15"]',
            "winners": '["99"]',
            "seats": 1,
            "labels": "{}",
            "explanation": "Dragen på TK-mötet",
        },
    )
    assert response.status_code == 200 and "R-ALLOC-5" in response.content.decode()
    assert not Lot.objects.exists()
    client.post(
        "/admin/results/lot/add/",
        {
            "kind": "pairs",
            "season": competition.season.pk,
            "competition": competition.pk,
            "among": '["12", "15"]',
            "winners": '["15"]',
            "seats": 1,
            "labels": "{}",
            "explanation": "Dragen på TK-mötet",
        },
    )
    hand = Lot.objects.get()
    assert hand.drawn_by_hand and hand.drawn_by == tk and hand.losers == ["12"]
    system = lot("pairs", competition.season, losers=["3"], winners=["4"])
    page = client.get(f"/admin/results/lot/{system.pk}/change/").content.decode()
    assert 'name="winners"' not in page  # read-only
    client.post(f"/admin/results/lot/{system.pk}/change/", {"winners": '["3"]'})
    system.refresh_from_db()
    assert system.winners == ["4"]

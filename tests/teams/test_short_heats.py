"""R-TEAM-KVAL-2: "If fewer than four teams have entered when entries close, the organiser
tells TK at once and the teams are offered places in other heats" (teams.services.heats:
``offer_other_heat``, ``answer_heat_offer``, ``cancel_short_heat``).

Lilla kvalet (5–6 Nov 2016) has three teams and Stora kvalet (19–20 Nov) five when entries
closed on 29 Oct; Redan igång started on 1 Oct. Today is 31 Oct 2016 unless a test says otherwise."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied

from clubs import clock
from clubs.models import Decision
from clubs.services.base import ServiceError
from results.models import AllocationRun
from teams.models import HeatPlaceOffer, RosterEntry, Team, TeamHeat
from teams.services.heats import answer_heat_offer, cancel_short_heat, offer_other_heat
from tests.factories import (
    ClubFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def short_and_big_heats():
    """Lilla kvalet (three teams, each with four players and a captain's account), Stora
    kvalet (five teams), Redan igång (started), in one DM Lag."""
    competition = TeamCompetitionFactory(season=SeasonFactory())
    small = TeamHeatFactory(
        competition=competition,
        organisers=[ClubFactory()],
        name="Lilla kvalet",
        entries_close=date(2016, 10, 29),
    )
    big = TeamHeatFactory(
        competition=competition,
        organisers=[ClubFactory()],
        name="Stora kvalet",
        first_date=date(2016, 11, 19),
        last_date=date(2016, 11, 20),
        entries_close=date(2016, 10, 29),
    )
    started = TeamHeatFactory(
        competition=competition,
        organisers=[ClubFactory()],
        name="Redan igång",
        first_date=date(2016, 10, 1),
        last_date=date(2016, 10, 2),
    )
    for n, name in enumerate(("Alfa", "Beta", "Gamma"), start=1):
        TeamFactory(heat=small, number=n, name=name, players=4, captain_user=UserFactory())
    for n in range(1, 6):
        TeamFactory(heat=big, number=n, name=f"Stor {n}", players=4)
    return small, big, started


@pytest.fixture
def heats():
    with clock.frozen("2016-10-31 10:00"):
        yield short_and_big_heats()


@pytest.fixture
def tk():
    return UserFactory(is_superuser=True, is_staff=True)


def refused(call) -> str:
    with pytest.raises(ServiceError) as exc:
        call()
    return " ".join(exc.value.messages("sv"))


def test_r_team_kval_2_offered_accepted_moved_with_its_roster(heats, tk, decide):
    small, big, _started = heats
    alfa = small.teams.get(name="Alfa")
    roster = set(alfa.roster.values_list("player_id", flat=True))
    offer = offer_other_heat(tk, alfa, big, "Lilla kvalet fick tre lag")
    assert (offer.answer, offer.from_heat, offer.to_heat) == ("pending", small, big)
    assert "Alfa har redan ett erbjudande som väntar på svar" in refused(
        lambda: offer_other_heat(tk, alfa, big)
    )
    decide(answer_heat_offer, alfa.captain_user, offer, True)
    alfa.refresh_from_db()
    # Moved with its roster, numbered after the five teams of Stora kvalet.
    assert (alfa.heat, alfa.number) == (big, 6)
    assert set(RosterEntry.objects.filter(team=alfa).values_list("player_id", flat=True)) == roster
    offer.refresh_from_db()
    assert (offer.answer, offer.recorded_by) == ("accepted", alfa.captain_user)
    actions = list(Decision.objects.order_by("id").values_list("action", "clause"))
    assert actions == [
        ("teams.heat_offer.offered", "R-TEAM-KVAL-2"),
        ("teams.heat_offer.accepted", "R-TEAM-KVAL-2"),
        ("teams.team.heat_moved", "R-TEAM-KVAL-2"),
    ]
    # The real recompute: the allocation counts 5 + 1 = 6 teams in Stora kvalet, 3 − 1 = 2
    # (and none in Redan igång).
    run = AllocationRun.objects.get(competition=alfa.competition)
    assert {v["label"]: v["entries"] for v in run.explanation["venues"]} == {
        "Stora kvalet": 6,
        "Lilla kvalet": 2,
        "Redan igång": 0,
    }
    assert "Erbjudandet är redan besvarat (tackat ja)" in refused(
        lambda: answer_heat_offer(tk, offer, False, "fel")
    )


def test_r_team_kval_2_only_a_heat_not_started_and_only_once_entries_closed(heats, tk):
    small, big, started = heats
    beta = small.teams.get(name="Beta")
    assert "Redan igång har redan börjat" in refused(lambda: offer_other_heat(tk, beta, started))
    with clock.frozen("2016-10-29 10:00"):
        assert "Anmälan till Lilla kvalet har inte stängt än" in refused(
            lambda: offer_other_heat(tk, beta, big)
        )
    with pytest.raises(PermissionDenied):
        offer_other_heat(beta.captain_user, beta, big)
    # Stora kvalet has five teams: nothing to offer its teams.
    assert "Stora kvalet har minst 4 anmälda lag" in refused(
        lambda: offer_other_heat(tk, big.teams.first(), small)
    )
    assert not HeatPlaceOffer.objects.exists()


def test_r_team_kval_2_tk_records_a_no_with_how_it_came_others_may_not_answer(heats, tk):
    small, big, _started = heats
    gamma = small.teams.get(name="Gamma")
    offer = offer_other_heat(tk, gamma, big)
    with pytest.raises(PermissionDenied):
        answer_heat_offer(small.teams.get(name="Alfa").captain_user, offer, True)
    assert "Skriv en motivering" in refused(lambda: answer_heat_offer(tk, offer, False, ""))
    answer_heat_offer(tk, offer, False, "Kaptenen i telefon 31/10")
    offer.refresh_from_db()
    gamma.refresh_from_db()
    assert (offer.answer, offer.answer_note, gamma.heat) == (
        "declined",
        "Kaptenen i telefon 31/10",
        small,
    )
    # A new offer after a no is allowed (to another heat, or later).
    assert offer_other_heat(tk, gamma, big).answer == "pending"


def test_r_team_kval_2_the_heat_is_cancelled_once_no_team_is_left(heats, tk):
    small, big, _started = heats
    text = refused(lambda: cancel_short_heat(tk, small, "Inga lag"))
    assert "Lilla kvalet har kvar Alfa, Beta, Gamma" in text
    for team in small.teams.all():
        answer_heat_offer(team.captain_user, offer_other_heat(tk, team, big), True)
    assert "Skriv en motivering" in refused(lambda: cancel_short_heat(tk, small, ""))
    with pytest.raises(PermissionDenied):
        cancel_short_heat(UserFactory(), small, "x")
    cancel_short_heat(tk, small, "Alla tre lagen flyttade till Stora kvalet")
    small.refresh_from_db()
    assert small.status == "cancelled"
    decision = Decision.objects.get(action="teams.heat.cancelled")
    assert decision.clause == "R-TEAM-KVAL-2"
    assert decision.reason == "Alla tre lagen flyttade till Stora kvalet"
    assert Team.objects.filter(heat=big).count() == 8
    assert TeamHeat.objects.get(pk=big.pk).status == "approved"

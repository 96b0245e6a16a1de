"""Final seats in DM Par: giving up a seat, answers to offers, TK overrides (R-REPL-1, R-REPL-5,
R-REPL-6, R-REPL-7, R-GEN-3)."""

from datetime import date, datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from clubs import clock
from clubs.models import ClubOfficial, Decision, FinalSeat, Representation, SeatOffer
from clubs.services import seats as decisions
from clubs.services.base import ServiceError
from pairs.models import PairEntry
from tests.factories import (
    PairCompetitionFactory,
    PairEntryFactory,
    PairHeatFactory,
    UserFactory,
    member,
    users_by_role,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture
def heat():
    return PairHeatFactory()


def seat_for(entry):
    return FinalSeat.objects.create(
        competition=entry.heat.competition,
        origin_heat=entry.heat,
        holder=entry,
        source=FinalSeat.Source.ALLOCATION,
    )


def rep_club_official(entry):
    club = Representation.objects.get(player=entry.player1, season=entry.heat.competition.season)
    user = UserFactory()
    ClubOfficial.objects.create(user=user, club=club.club, role=ClubOfficial.Role.CHAIR)
    return user


def counts():
    return {
        "decisions": Decision.objects.count(),
        "offers": SeatOffer.objects.count(),
        "vacated": FinalSeat.objects.filter(status="vacated").count(),
    }


def at(text):
    return timezone.make_aware(datetime.fromisoformat(text))


def test_r_repl_1_pair_gives_up_its_seat_through_its_club(heat, recompute):
    entry = PairEntryFactory(heat=heat)
    seat = seat_for(entry)
    official = rep_club_official(entry)
    with clock.frozen("2017-04-10 12:00"):
        decisions.give_up_seat(official, seat, reason="Sjukdom")
    seat.refresh_from_db()
    assert seat.status == FinalSeat.Status.VACATED
    assert "Sjukdom" in seat.reason
    d = Decision.objects.get(action="pairs.seat.declined", object_id=seat.pk)
    assert d.decided_by == official and d.reason == "Sjukdom" and d.clause == "R-REPL-1"
    assert d.decided_at is not None
    recompute.assert_called_with(competition_id=seat.competition_id)

    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.give_up_seat(official, seat, reason="igen")
    assert "R-REPL-1" in str(exc.value)
    assert counts() == before


@pytest.mark.parametrize("role", ["anonymous", "club_official", "captain"])
def test_r_repl_1_others_cannot_give_up_a_seat(heat, role):
    entry = PairEntryFactory(heat=heat)
    seat = seat_for(entry)
    users = users_by_role(pair_heat=heat)
    before = counts()
    with pytest.raises(PermissionDenied):
        decisions.give_up_seat(users[role], seat, reason="?")
    assert counts() == before


@pytest.mark.parametrize("role", ["heat_responsible", "tk"])
def test_r_repl_1_heat_organiser_or_tk_may_report_it(heat, role):
    seat = seat_for(PairEntryFactory(heat=heat))
    users = users_by_role(pair_heat=heat)
    decisions.give_up_seat(users[role], seat, reason="Meddelat per telefon")
    seat.refresh_from_db()
    assert seat.status == FinalSeat.Status.VACATED


def test_r_repl_7_direct_qualifier_gives_up_its_place(tk):
    """One heat of 40 pairs and the champions: 40 qualify, a 28-pair final, 27 seats to the
    heat (its first 27 pairs). The champions' seat has no venue of its own (R-REPL-7): the
    nearest eliminated pair of every venue by closeness is asked, here the heat's 28th."""
    from results.services.recompute import recompute_pair_competition
    from tests.results.test_recompute_pairs import heat_with_results

    competition = PairCompetitionFactory()
    season = competition.season
    _heat, entries = heat_with_results(competition, 40)
    dq = PairEntry.objects.create(
        competition=competition,
        entered_as=PairEntry.EnteredAs.DIRECT,
        player1=member(season=season),
        player2=member(season=season),
        registered_on=date(2017, 2, 1),
    )
    recompute_pair_competition(competition.id)
    seat = FinalSeat.objects.get(competition=competition, holder=dq)
    decisions.give_up_seat(tk, seat, reason="Paret har splittrats")
    dq.refresh_from_db()
    assert dq.status == PairEntry.Status.DECLINED
    d = Decision.objects.get(action="pairs.seat.declined")
    assert d.clause == "R-REPL-7" and d.decided_by == tk
    recompute_pair_competition(competition.id)
    offer = SeatOffer.objects.get(seat=seat, answer=SeatOffer.Answer.PENDING)
    assert offer.entry_id == entries[27].pk


def offer_for(heat, offered_at="2017-04-11 10:00"):
    holder = PairEntryFactory(heat=heat)
    seat = seat_for(holder)
    seat.status = FinalSeat.Status.VACATED
    seat.save()
    nxt = PairEntryFactory(heat=heat)
    return SeatOffer.objects.create(seat=seat, entry=nxt, offered_at=at(offered_at))


def test_r_repl_5_answer_recorded_with_who_and_when(heat, tk, recompute):
    offer = offer_for(heat)
    with clock.frozen("2017-04-12 09:30") as now:
        decisions.answer_offer(tk, offer, SeatOffer.Answer.DECLINED)
    offer.refresh_from_db()
    assert offer.answer == "declined" and offer.answered_at == now and offer.recorded_by == tk
    d = Decision.objects.get(action="pairs.offer.declined", object_id=offer.pk)
    assert d.decided_by == tk and d.clause == "R-REPL-5"
    recompute.assert_called_with(competition_id=offer.seat.competition_id)


def test_r_repl_5_answer_given_earlier_by_telephone(heat):
    offer = offer_for(heat)
    official = rep_club_official(offer.entry)
    with clock.frozen("2017-04-13 08:00"):
        decisions.answer_offer(
            official, offer, SeatOffer.Answer.ACCEPTED, answered_at=at("2017-04-12 20:15")
        )
    offer.refresh_from_db()
    assert offer.answered_at == at("2017-04-12 20:15")
    assert offer.recorded_by == official


def test_r_repl_6_answered_offer_does_not_change(heat, tk):
    offer = offer_for(heat)
    with clock.frozen("2017-04-12 09:30"):
        decisions.answer_offer(tk, offer, SeatOffer.Answer.ACCEPTED)
        before = counts()
        with pytest.raises(ServiceError) as exc:
            decisions.answer_offer(tk, offer, SeatOffer.Answer.DECLINED)
    assert "R-REPL-6" in str(exc.value)
    assert counts() == before
    offer.refresh_from_db()
    assert offer.answer == "accepted"


def test_r_repl_5_bad_answers_are_refused(heat, tk):
    offer = offer_for(heat, offered_at="2017-04-11 10:00")
    before = counts()
    with clock.frozen("2017-04-12 09:30"):
        with pytest.raises(ServiceError) as exc:
            decisions.answer_offer(tk, offer, "maybe")
        assert "R-REPL-5" in str(exc.value)
        with pytest.raises(ServiceError) as exc:
            decisions.answer_offer(
                tk, offer, SeatOffer.Answer.ACCEPTED, answered_at=at("2017-04-10 10:00")
            )
        assert "R-REPL-5" in str(exc.value)
    assert counts() == before
    offer.refresh_from_db()
    assert offer.answer == "pending" and offer.recorded_by is None


def test_r_repl_5_tk_override_with_reason(heat, tk, recompute):
    seat = seat_for(PairEntryFactory(heat=heat))
    seat.status = FinalSeat.Status.VACATED
    seat.save()
    chosen = PairEntryFactory(heat=heat)
    with clock.frozen("2017-04-14 10:00") as now:
        offer = decisions.override_offer(tk, seat, chosen, "Sent återbud, nästa par nås inte")
    assert offer.override_reason == "Sent återbud, nästa par nås inte"
    assert offer.offered_at == now and offer.recorded_by == tk and offer.answer == "pending"
    d = Decision.objects.get(action="pairs.offer.override", object_id=offer.pk)
    assert d.decided_by == tk and d.reason == offer.override_reason and d.clause == "R-REPL-5"
    recompute.assert_called_with(competition_id=seat.competition_id)


def test_r_repl_5_override_refusals(heat, tk):
    seat = seat_for(PairEntryFactory(heat=heat))
    seat.status = FinalSeat.Status.VACATED
    seat.save()
    holder = PairEntryFactory(heat=heat)
    seat_for(holder)
    other_competition_entry = PairEntryFactory(
        heat=PairHeatFactory(competition=PairCompetitionFactory(discipline="mixed"))
    )
    users = users_by_role(pair_heat=heat)
    before = counts()
    with pytest.raises(PermissionDenied):
        decisions.override_offer(users["heat_responsible"], seat, holder, "vill")
    for entry, reason in ((holder, "har plats"), (other_competition_entry, "fel tävling")):
        with pytest.raises(ServiceError) as exc:
            decisions.override_offer(tk, seat, entry, reason)
        assert "R-REPL-5" in str(exc.value)
    with pytest.raises(ServiceError) as exc:
        decisions.override_offer(tk, seat, PairEntryFactory(heat=heat), "")
    assert "R-REPL-5" in str(exc.value)
    assert counts() == before


def test_r_repl_5_admin_records_answers_and_shows_who(client, heat, tk):
    offer = offer_for(heat)
    client.force_login(tk)
    with clock.frozen("2017-04-12 09:30"):
        client.post(
            "/admin/clubs/seatoffer/",
            {"action": "record_accepted", "_selected_action": [offer.pk]},
        )
    offer.refresh_from_db()
    assert offer.answer == "accepted" and offer.recorded_by == tk
    page = client.get(f"/admin/clubs/seatoffer/{offer.pk}/change/").content.decode()
    assert "pairs.offer.accepted" in page
    seat = offer.seat
    assert client.get(f"/admin/clubs/finalseat/{seat.pk}/change/").status_code == 200

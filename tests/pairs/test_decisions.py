"""Final seats in DM Par, decided through ``clubs.services.seats`` and followed through the real
recompute (``decide``): a pair gives up its seat, the chain asks the next pair, answers are
recorded, TK departs from the chain with a reason (R-REPL-1, R-REPL-5, R-REPL-6, R-REPL-7,
R-GEN-3). What a person sees is read from the heat's page and the final's holders.

The season, by hand: one heat of 30 pairs whose pair k scored 70 − k/2 % (the ranking is the
numbering): 30 qualifying pairs give a 28-pair final (R-ALLOC-1), all 28 seats to the heat, its
first 28 pairs. A seat given up goes to the heat's 29th, then its 30th (R-REPL-1); after them
nobody is left (R-REPL-3)."""

import re
from datetime import date, datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from clubs import clock
from clubs.models import ClubOfficial, Decision, FinalSeat, Representation, SeatOffer
from clubs.services import seats as decisions
from clubs.services.base import ServiceError
from pairs.models import PairEntry
from pairs.selectors import final_seat_holders
from results.services.recompute import recompute_pair_competition
from tests.factories import (
    PairCompetitionFactory,
    PairEntryFactory,
    PairHeatFactory,
    UserFactory,
    member,
    users_by_role,
)
from tests.results.test_recompute_pairs import heat_with_results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _before_the_final():
    with clock.frozen("2017-04-10 12:00"):  # the final is 22 Apr 2017 (R-REPL-5: answers)
        yield


@pytest.fixture
def season():
    competition = PairCompetitionFactory(discipline="open")
    heat, entries = heat_with_results(competition, 30)
    recompute_pair_competition(competition.id)
    return heat, entries


def seat_of(entry) -> FinalSeat:
    return FinalSeat.objects.get(holder=entry)


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


def row(client, heat, entry) -> str:
    """The heat page's row of ``entry`` (its name and what the final means for it), as text."""
    page = client.get(f"/par/kval/{heat.pk}/").content.decode()
    for tr in re.findall(r"<tr\b.*?</tr>", page, re.S):
        text = " ".join(re.sub(r"<[^>]+>", " ", tr).split())
        if str(entry) in text:
            return text
    raise AssertionError(f"{entry} is not on the heat page")


def pending(heat) -> SeatOffer:
    return SeatOffer.objects.get(seat__competition_id=heat.competition_id, answer="pending")


def test_r_repl_1_pair_gives_up_its_seat_through_its_club(client, season, decide):
    heat, entries = season
    first, nearest = entries[0], entries[28]
    seat = seat_of(first)
    official = rep_club_official(first)
    decide(decisions.give_up_seat, official, seat, reason="Sjukdom")
    seat.refresh_from_db()
    assert seat.status == FinalSeat.Status.VACATED and "Sjukdom" in seat.reason
    d = Decision.objects.get(action="pairs.seat.declined", object_id=seat.pk)
    assert d.decided_by == official and d.reason == "Sjukdom" and d.clause == "R-REPL-1"
    # The recompute asked the heat's 29th, the nearest eliminated pair (R-REPL-1).
    assert pending(heat).entry == nearest
    assert "lämnade sin plats" in row(client, heat, first)
    assert "tillfrågat som ersättare" in row(client, heat, nearest)
    assert first not in {h.holder for h in final_seat_holders(heat.competition)}

    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.give_up_seat(official, seat, reason="igen")
    assert "R-REPL-1" in str(exc.value)
    assert counts() == before


@pytest.mark.parametrize("role", ["anonymous", "club_official", "captain"])
def test_r_repl_1_others_cannot_give_up_a_seat(season, role):
    heat, entries = season
    users = users_by_role(pair_heat=heat)
    before = counts()
    with pytest.raises(PermissionDenied):
        decisions.give_up_seat(users[role], seat_of(entries[0]), reason="?")
    assert counts() == before


@pytest.mark.parametrize("role", ["heat_responsible", "tk"])
def test_r_repl_1_heat_organiser_or_tk_may_report_it(season, role, decide):
    heat, entries = season
    users = users_by_role(pair_heat=heat)
    decide(decisions.give_up_seat, users[role], seat_of(entries[0]), reason="Meddelat per telefon")
    assert seat_of(entries[0]).status == FinalSeat.Status.VACATED
    assert pending(heat).entry == entries[28]


def test_r_repl_7_direct_qualifier_gives_up_its_place(tk, decide):
    """One heat of 40 pairs and the champions: 40 qualify, a 28-pair final, 27 seats to the
    heat (its first 27 pairs). The champions' seat has no venue of its own (R-REPL-7): the
    nearest eliminated pair of every venue by closeness is asked, here the heat's 28th."""
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
    decide(decisions.give_up_seat, tk, seat, reason="Paret har splittrats")
    dq.refresh_from_db()
    assert dq.status == PairEntry.Status.DECLINED
    d = Decision.objects.get(action="pairs.seat.declined")
    assert d.clause == "R-REPL-7" and d.decided_by == tk
    offer = SeatOffer.objects.get(seat=seat, answer=SeatOffer.Answer.PENDING)
    assert offer.entry == entries[27]


@pytest.fixture
def offered(season, tk, decide):
    """The heat's winners give their seat up; the recompute offers it to the 29th pair."""
    heat, entries = season
    with clock.frozen("2017-04-11 10:00"):
        decide(decisions.give_up_seat, tk, seat_of(entries[0]), reason="Återbud")
    return heat, entries, pending(heat)


def test_r_repl_5_an_accepted_offer_puts_the_pair_in_the_final(client, offered, tk, decide):
    heat, entries, offer = offered
    with clock.frozen("2017-04-12 09:30") as now:
        decide(decisions.answer_offer, tk, offer, SeatOffer.Answer.ACCEPTED)
    offer.refresh_from_db()
    assert offer.answer == "accepted" and offer.answered_at == now and offer.recorded_by == tk
    d = Decision.objects.get(action="pairs.offer.accepted", object_id=offer.pk)
    assert d.decided_by == tk and d.clause == "R-REPL-5"
    # R-REPL-6: the 29th holds a seat of its own, confirmed; the final has its 28 again.
    own = seat_of(entries[28])
    assert own.source == FinalSeat.Source.REPLACEMENT and own.status == "confirmed"
    assert len(final_seat_holders(heat.competition)) == 28
    assert "kvalificerat" in row(client, heat, entries[28])
    assert not SeatOffer.objects.filter(answer="pending").exists()


def test_r_repl_5_a_declined_offer_moves_on_to_the_next_pair(client, offered, tk, decide):
    heat, entries, offer = offered
    official = rep_club_official(offer.entry.pairentry)
    with clock.frozen("2017-04-13 08:00"):
        decide(
            decisions.answer_offer,
            official,
            offer,
            SeatOffer.Answer.DECLINED,
            answered_at=at("2017-04-12 20:15"),  # given earlier, by telephone
        )
    offer.refresh_from_db()
    assert offer.answered_at == at("2017-04-12 20:15") and offer.recorded_by == official
    assert pending(heat).entry == entries[29]  # R-REPL-1: the heat's 30th next
    assert "tackat nej" in row(client, heat, entries[28])
    assert "tillfrågat som ersättare" in row(client, heat, entries[29])


def test_r_repl_6_answered_offer_does_not_change(offered, tk, decide):
    _heat, _entries, offer = offered
    with clock.frozen("2017-04-12 09:30"):
        decide(decisions.answer_offer, tk, offer, SeatOffer.Answer.ACCEPTED)
        before = counts()
        with pytest.raises(ServiceError) as exc:
            decisions.answer_offer(tk, offer, SeatOffer.Answer.DECLINED)
    assert "R-REPL-6" in str(exc.value)
    assert counts() == before
    offer.refresh_from_db()
    assert offer.answer == "accepted"


def test_r_repl_5_bad_answers_are_refused(offered, tk):
    _heat, _entries, offer = offered
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


def test_r_repl_5_tk_override_with_reason(offered, tk, decide):
    """The 29th and the 30th decline: nobody is left (R-REPL-3). TK asks the 29th again, with a
    reason (R-REPL-5: a pair that declined may be asked again on TK's decision)."""
    heat, entries, offer = offered
    seat = offer.seat
    with clock.frozen("2017-04-12 09:00"):
        decide(decisions.answer_offer, tk, offer, SeatOffer.Answer.DECLINED)
    with clock.frozen("2017-04-13 09:00"):
        decide(decisions.answer_offer, tk, pending(heat), SeatOffer.Answer.DECLINED)
    assert not SeatOffer.objects.filter(answer="pending").exists()
    with clock.frozen("2017-04-14 10:00") as now:
        tk_offer = decide(
            decisions.override_offer, tk, seat, entries[28], "Paret kan ändå spela finalen"
        )
    assert tk_offer.override_reason == "Paret kan ändå spela finalen"
    assert tk_offer.offered_at == now and tk_offer.recorded_by == tk
    d = Decision.objects.get(action="pairs.offer.override", object_id=tk_offer.pk)
    assert d.decided_by == tk and d.reason == tk_offer.override_reason and d.clause == "R-REPL-5"
    assert pending(heat) == tk_offer  # the recompute keeps TK's offer (R-REPL-5)


def test_r_repl_5_override_refusals(offered, tk):
    heat, entries, offer = offered
    seat = offer.seat
    other_competition_entry = PairEntryFactory(
        heat=PairHeatFactory(competition=PairCompetitionFactory(discipline="mixed"))
    )
    users = users_by_role(pair_heat=heat)
    before = counts()
    with pytest.raises(PermissionDenied):
        decisions.override_offer(users["heat_responsible"], seat, entries[29], "vill")
    for entry, reason in (
        (entries[29], "ett erbjudande väntar"),  # one offer at a time (R-REPL-5)
        (entries[1], "har plats"),
        (other_competition_entry, "fel tävling"),
    ):
        with pytest.raises(ServiceError) as exc:
            decisions.override_offer(tk, seat, entry, reason)
        assert "R-REPL-5" in str(exc.value)
    assert counts() == before


def test_r_repl_5_admin_records_answers_and_shows_who(client, offered, tk):
    _heat, _entries, offer = offered
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
    assert client.get(f"/admin/clubs/finalseat/{offer.seat_id}/change/").status_code == 200

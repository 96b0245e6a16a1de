"""/klubb/parfinal/<id>/reserver/: a pair holding a seat in the DM Par final plays it with a
reserve (R-PAIR-RES-2, R-PAIR-RES-3), notified by the pair's club official (for TK's chair,
R-GEN-3) or by TK, through the heat page's reserve notice (``notify_reserve``) for the final's
one session. What a person sees: the pairs of the official's club with the clauses beside
them, the notice saved and shown (also on the final's page, "spelar: …"), and every refusal in
words with nothing saved."""

from __future__ import annotations

from datetime import date

import pytest

from clubs import clock
from clubs.models import FinalSeat
from pairs.models import FINAL_SESSION, PairEntry, ReserveNotice
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    PairCompetitionFactory,
    PairHeatFactory,
    UserFactory,
    member,
)

pytestmark = pytest.mark.django_db

BEFORE_FINAL = "2017-04-10 12:00"  # the Open final is on 22 April 2017


@pytest.fixture
def final():
    return final_world()


def final_world():
    """An Open final with two pairs from heat "Kval A": Fyris's pair (Anna Ek – Bo Ek) holds a
    seat, so does Sala's (Cia Lund – Dan Lund). Erik Berg (Fyris) has played no qualifier;
    Gun Ås (Fyris) played heat "Kval B" in Open this season."""
    comp = PairCompetitionFactory(discipline="open")
    season = comp.season
    fyris, sala = ClubFactory(name="Fyris BK"), ClubFactory(name="Sala BK")
    heat = PairHeatFactory(competition=comp, name="Kval A", clubs=[fyris])
    other_heat = PairHeatFactory(competition=comp, name="Kval B", clubs=[sala])

    def pair(heat, club, first, second, number):
        p1 = member(season=season, club=club, first_name=first[0], last_name=first[1])
        p2 = member(season=season, club=club, first_name=second[0], last_name=second[1])
        return PairEntry.objects.create(heat=heat, player1=p1, player2=p2, pair_number=number)

    ours = pair(heat, fyris, ("Anna", "Ek"), ("Bo", "Ek"), "1")
    theirs = pair(heat, sala, ("Cia", "Lund"), ("Dan", "Lund"), "2")
    played = pair(other_heat, fyris, ("Gun", "Ås"), ("Hans", "Ås"), "1")
    for entry in (ours, theirs):
        FinalSeat.objects.create(competition=comp, holder=entry, source="allocation")
    fresh = member(season=season, club=fyris, first_name="Erik", last_name="Berg")
    official = ClubOfficialFactory(club=fyris).user
    return comp, ours, theirs, played, fresh, official


def url(comp) -> str:
    return f"/klubb/parfinal/{comp.pk}/reserver/"


def post(client, comp, entry, replaced, reserve_mid):
    return client.post(
        url(comp),
        {
            "entry": entry.pk,
            "reserve-replaced_mid": replaced.mid,
            "reserve-reserve_mid": reserve_mid,
        },
        follow=True,
    )


def test_r_pair_res_2_the_pairs_club_notifies_a_reserve_for_the_final(client, final):
    comp, ours, theirs, _played, fresh, official = final
    client.force_login(official)
    with clock.frozen(BEFORE_FINAL):
        page = client.get(url(comp)).content.decode()
        assert "R-PAIR-RES-2" in page and "R-PAIR-RES-3" in page
        assert "Anna Ek – Bo Ek" in page and "Cia Lund" not in page  # only Fyris's pair
        done = post(client, comp, ours, ours.player2, fresh.mid).content.decode()
        final_page = client.get(f"/par/final/{comp.pk}/").content.decode()
    assert "Erik Berg spelar DM-finalen i stället för Bo Ek" in done
    assert "Erik Berg (" in done and "ersätter Bo Ek, anmäld 2017-04-10" in done
    notice = ReserveNotice.objects.get()
    assert (notice.entry, notice.session, notice.reserve, notice.replaced_player) == (
        ours,
        FINAL_SESSION,
        fresh,
        ours.player2,
    )
    assert notice.notified_by == official
    assert "spelar" in final_page and "Anna Ek – Erik Berg" in final_page


def test_r_pair_res_2_a_reserve_who_played_a_qualifier_is_refused_in_words(client, final):
    comp, ours, _theirs, played, _fresh, official = final
    client.force_login(official)
    with clock.frozen(BEFORE_FINAL):
        response = post(client, comp, ours, ours.player2, played.player1.mid)
    text = response.content.decode()
    assert response.status_code == 400 and not ReserveNotice.objects.exists()
    assert "Reserven anmäldes inte. Inget har sparats." in text
    assert "har redan kvalspelat till SM i disciplinen" in text and "R-PAIR-RES-2" in text
    assert f'value="{played.player1.mid}"' in text  # what was typed is kept
    english = client.post(
        url(comp) + "?lang=en",
        {
            "entry": ours.pk,
            "reserve-replaced_mid": ours.player2.mid,
            "reserve-reserve_mid": played.player1.mid,
        },
    ).content.decode()
    assert "Nothing has been saved" in english and "R-PAIR-RES-2" in english


def test_r_pair_res_3_a_regular_of_another_pair_is_refused(client, final):
    comp, ours, theirs, _played, _fresh, _official = final
    client.force_login(UserFactory(is_superuser=True, is_staff=True))  # TK sees every pair
    with clock.frozen(BEFORE_FINAL):
        assert "Cia Lund – Dan Lund" in client.get(url(comp)).content.decode()
        response = post(client, comp, ours, ours.player2, theirs.player1.mid)
    text = response.content.decode()
    assert response.status_code == 400 and not ReserveNotice.objects.exists()
    assert "är ordinarie spelare i olika par och får inte spela tillsammans" in text
    assert "R-PAIR-RES-3" in text


def test_another_clubs_official_may_not_and_the_final_day_closes_it(client, final):
    comp, ours, _theirs, _played, fresh, official = final
    client.force_login(ClubOfficialFactory(club=ClubFactory(name="Enköping BK")).user)
    with clock.frozen(BEFORE_FINAL):
        assert "Anna Ek" not in client.get(url(comp)).content.decode()
        assert post(client, comp, ours, ours.player2, fresh.mid).status_code == 403
        empty = client.post(url(comp), {})
    assert empty.status_code == 400 and "Välj ett par" in empty.content.decode()
    assert not ReserveNotice.objects.exists()
    client.force_login(official)
    with clock.frozen(date(2017, 4, 23)):
        closed = client.get(url(comp)).content.decode()
        late = post(client, comp, ours, ours.player2, fresh.mid)
    assert "DM-finalen är spelad" in closed and "Anmäl reserv" not in closed
    assert late.status_code == 400 and "i förväg" in late.content.decode()
    assert not ReserveNotice.objects.exists()


def test_r_pair_res_2_a_direct_qualifier_notifies_its_reserve_on_the_same_page(client, final):
    """Last season's champions (Fyris's Ivar Holm – Jon Holm, R-DIRECT-1) play no heat but hold
    a seat: their club notifies a final reserve on the same page as a heat pair does, and a
    heat session is refused in words (they play only the final)."""
    from clubs.models import Representation
    from clubs.services.base import ServiceError
    from pairs.services.entries import notify_reserve

    comp, ours, _theirs, _played, fresh, official = final
    fyris = Representation.objects.get(player=ours.player1).club
    ivar = member(season=comp.season, club=fyris, first_name="Ivar", last_name="Holm")
    jon = member(season=comp.season, club=fyris, first_name="Jon", last_name="Holm")
    champions = PairEntry.objects.create(
        competition=comp, entered_as="direct", player1=ivar, player2=jon
    )
    FinalSeat.objects.create(competition=comp, holder=champions, source="direct")
    client.force_login(official)
    with clock.frozen(BEFORE_FINAL):
        page = client.get(url(comp)).content.decode()
        assert "Ivar Holm – Jon Holm" in page
        assert f'id="reserve-form-{champions.pk}"' in page
        # R-PAIR-RES-3: in the final, a champion is another seated pair's regular.
        crossed = post(client, comp, ours, ours.player2, ivar.mid)
        assert crossed.status_code == 400 and "R-PAIR-RES-3" in crossed.content.decode()
        done = post(client, comp, champions, jon, fresh.mid).content.decode()
        with pytest.raises(ServiceError) as refused:
            notify_reserve(
                official, champions, session=1, replaced_mid=jon.mid, reserve_mid=fresh.mid
            )
    assert "Erik Berg spelar DM-finalen i stället för Jon Holm" in done
    notice = ReserveNotice.objects.get()
    assert (notice.entry_id, notice.session, notice.reserve) == (champions.pk, FINAL_SESSION, fresh)
    assert "Paret spelar inget kvalheat: bara finalen." in str(refused.value)

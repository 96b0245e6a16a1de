"""/klubb/sm-partner/<competition>/: R-PAIR-RES-4, a player who played the DM qualifiers with
several partners declares (through his club's official, or TK) the partner he plays SM with,
by the end of the DM final's day (the factories' final: 22 Apr 2017). A refusal names the clause
and saves nothing; an official of another club sees none of the club's players and may not
declare for them."""

from datetime import date

import pytest

from clubs import clock
from clubs.models import Decision
from pairs.models import SmPartnerDeclaration
from pairs.services.entries import enter_pair
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    PairCompetitionFactory,
    PairHeatFactory,
    SeasonFactory,
    entry_world,
)
from tests.factories import world_member as p

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture
def w():
    with clock.frozen("2017-01-10 10:00"):
        season = SeasonFactory()
        club = ClubFactory(name="BK Uppsala")
        comp = PairCompetitionFactory(season=season, discipline="open")
        heat = PairHeatFactory(competition=comp, clubs=[club], first_date=date(2017, 2, 10))
        early = PairHeatFactory(competition=comp, clubs=[club], first_date=date(2017, 1, 20))
        w = entry_world(season, club, comp=comp, heat=heat, early=early)
        w.a, w.b, w.c = p(w), p(w), p(w)
        enter_pair(w.official, w.early, w.a.mid, w.b.mid)
        enter_pair(w.official, w.heat, w.a.mid, w.c.mid)
    w.url = f"/klubb/sm-partner/{comp.pk}/"
    return w


def test_r_pair_res_4_the_clubs_official_chooses_the_sm_partner(client, w):
    client.force_login(w.official)
    with clock.frozen("2017-04-22 18:00"):  # the final's last day: still in time
        html = client.get(w.url).content.decode()
        assert f'id="player-{w.a.mid}"' in html and "R-PAIR-RES-4" in html
        assert f'value="{w.b.mid}"' in html and f'value="{w.c.mid}"' in html
        response = client.post(w.url, {"player": w.a.mid, "partner": w.c.mid}, follow=True)
    assert f"{w.a.full_name} spelar SM med {w.c.full_name}." in response.content.decode()
    decl = SmPartnerDeclaration.objects.get(player=w.a)
    assert decl.partner == w.c and decl.recorded_by == w.official


def test_r_pair_res_4_after_the_final_the_choice_is_refused_and_nothing_saved(client, w):
    client.force_login(w.official)
    with clock.frozen("2017-04-23 09:00"):
        assert "DM-finalen är avslutad" in client.get(w.url).content.decode()
        response = client.post(w.url, {"player": w.a.mid, "partner": w.c.mid})
    assert response.status_code == 400 and "R-PAIR-RES-4" in response.content.decode()
    assert not SmPartnerDeclaration.objects.exists()
    assert not Decision.objects.filter(action="pairs.sm_partner.declared").exists()


def test_r_pair_res_4_a_partner_not_played_with_is_refused(client, w):
    stranger = p(w)
    client.force_login(w.official)
    with clock.frozen("2017-03-01"):
        response = client.post(w.url, {"player": w.a.mid, "partner": stranger.mid})
    assert response.status_code == 400 and "R-PAIR-RES-4" in response.content.decode()
    assert not SmPartnerDeclaration.objects.exists()


def test_r_pair_res_4_another_clubs_official_sees_nobody_and_cannot_declare(client, w):
    client.force_login(ClubOfficialFactory().user)
    with clock.frozen("2017-03-01"):
        html = client.get(w.url).content.decode()
        assert f'id="player-{w.a.mid}"' not in html and 'id="sm-partners-none"' in html
        response = client.post(w.url, {"player": w.a.mid, "partner": w.c.mid})
    assert response.status_code == 403 and not SmPartnerDeclaration.objects.exists()


def test_r_pair_res_4_tk_sees_every_player(client, w):
    client.force_login(w.tk)
    with clock.frozen("2017-03-01"):
        html = client.get(w.url).content.decode()
    assert f'id="player-{w.a.mid}"' in html


def test_r_pair_res_4_page_in_english(client, w):
    client.force_login(w.official)
    with clock.frozen("2017-03-01"):
        html = client.get(w.url + "?lang=en").content.decode()
    assert "SM partner" in html and "Choose the SM partner" in html


def test_r_pair_res_4_an_empty_choice_is_refused(client, w):
    client.force_login(w.official)
    with clock.frozen("2017-03-01"):
        response = client.post(w.url, {"player": "", "partner": ""})
    assert response.status_code == 400 and "R-PAIR-RES-4" in response.content.decode()
    assert not SmPartnerDeclaration.objects.exists()


def test_r_pair_res_4_the_club_dashboard_links_the_sm_partner_page(client, w):
    client.force_login(w.official)
    with clock.frozen("2017-03-01"):
        html = client.get("/klubb/").content.decode()
    assert 'id="sm-partner-links"' in html and f'href="{w.url}"' in html

"""A double click on "Anmäl paret" (issue 22): one pair saved and no warning about a strike that
did not happen to it. R-PAIR-KVAL-7: a player's first qualifier in the discipline is the one he
plays first; entering him in an EARLIER heat strikes his entry in the later one, and that
consequence is reported as about the other pair, never as if the pair just entered were struck.
"""

from datetime import date

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from clubs import clock
from pairs.models import PairEntry
from pairs.services.entries import enter_pair
from tests.factories import (
    ClubFactory,
    PairCompetitionFactory,
    PairHeatFactory,
    SeasonFactory,
    entry_world,
)
from tests.factories import world_member as p

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture(autouse=True)
def _today():
    with clock.frozen("2017-01-10 10:00"):
        yield


@pytest.fixture
def w():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = PairCompetitionFactory(season=season, discipline="open")
    heat = PairHeatFactory(
        competition=comp, clubs=[club], name="Kval Uppsala", first_date=date(2017, 2, 10)
    )
    early = PairHeatFactory(
        competition=comp, clubs=[club], name="Kval Enköping", first_date=date(2017, 1, 20)
    )
    return entry_world(season, club, comp=comp, heat=heat, early=early)


def test_r_pair_kval_7_entering_the_earlier_heat_names_the_other_pair_struck(w):
    a, b, c = p(w), p(w), p(w)
    later = enter_pair(w.official, w.heat, a.mid, b.mid).entry
    out = enter_pair(w.official, w.early, a.mid, c.mid)
    later.refresh_from_db()
    assert not out.struck and out.entry.status == PairEntry.Status.ENTERED
    assert later.status == PairEntry.Status.STRUCK  # the later heat's entry is struck
    texts = [v.message_sv for v in out.warnings]
    # Never "har redan kvalspelat" about the heat just entered: that reads as this pair struck.
    assert not any("har redan kvalspelat" in t for t in texts), texts
    assert len(texts) == 1 and "Kval Uppsala" in texts[0] and "stryks" in texts[0], texts
    assert [v.clause for v in out.warnings] == ["R-PAIR-KVAL-7"]


def test_r_pair_kval_7_a_struck_pair_still_gets_its_own_warning(w):
    a, b, c = p(w), p(w), p(w)
    enter_pair(w.official, w.early, a.mid, b.mid)
    out = enter_pair(w.official, w.heat, a.mid, c.mid)
    assert out.struck
    assert [v.clause for v in out.warnings] == ["R-PAIR-KVAL-7"]
    assert "har redan kvalspelat" in out.warnings[0].message_sv


def test_r_pair_1_double_submit_saves_one_pair_and_no_false_warning(w, client):
    a, b, c = p(w), p(w), p(w)
    enter_pair(w.official, w.heat, a.mid, c.mid)  # a plays the later heat too
    client.force_login(w.official)
    url = reverse("portal:enter_pair", args=[w.early.pk])
    data = {"mid1": a.mid, "mid2": b.mid, "pair_number": "", "takes_part_in_qualifier": "on"}
    first = client.post(url, data)
    second = client.post(url, data)  # the double click: the same POST again
    assert first.status_code == 302
    assert PairEntry.objects.filter(heat=w.early).count() == 1
    shown = [str(m) for m in get_messages(second.wsgi_request)]
    assert not any("har redan kvalspelat" in m for m in shown), shown
    body = second.content.decode()
    assert "R-PAIR-1" in body  # the second click is refused: the player is already entered

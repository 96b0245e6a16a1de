"""The schedule pages (issue 22): a team heat's (/klubb/lagkval/<id>/spelschema/, whoever
manages the heat) and the DM Lag final's (/tk/lagfinal/<id>/spelschema/, TK): the clause beside
the action, a proposal, the rounds adjusted and saved, refusals in Swedish and English with
nothing saved, and the saved schedule on the public heat page and /lag/.

R-TEAM-KVAL-4, R-TEAM-KVAL-5, R-TEAM-FINAL-1."""

from __future__ import annotations

import html as html_lib
import re
from datetime import date

import pytest

from clubs.models import Decision
from teams.models import Match
from tests.factories import (
    ClubFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    official,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


def plain(response) -> str:
    body = response.content.decode()
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.fixture
def heat():
    responsible = UserFactory(username="heatansvarig")
    heat = TeamHeatFactory(
        name="Lagkval Sala",
        boards_per_match=24,
        first_date=date(2016, 11, 5),
        last_date=date(2016, 11, 6),
        responsible_user=responsible,
    )
    for i in range(1, 5):
        TeamFactory(heat=heat, number=i, name=f"Sala {i}")
    return heat


def rounds_post(response) -> dict:
    """What the page's rounds form posts as shown (its initial values)."""
    form = response.context["rounds_form"]
    data = {"save": "1"}
    for name, field in form.fields.items():
        value = form[name].value()
        data[name] = "" if value is None else str(field.prepare_value(value))
    return data


def test_r_team_kval_4_the_heat_responsible_proposes_and_saves(client, heat):
    client.force_login(heat.responsible_user)
    url = f"/klubb/lagkval/{heat.pk}/spelschema/"
    page = client.get(url)
    text = plain(page)
    assert page.status_code == 200
    assert "R-TEAM-KVAL-4: alla lag möter alla där det går" in text
    assert "Förslag inte sparat" in text and "Alla möter alla." in text
    assert "24 brickor per match, 2 halvlekar om 90 minuter." in text
    assert "Rond 1 5 nov 2016 1. Sala 1 – 4. Sala 4" in text  # Berger round 1: 1–4, 2–3
    assert not Match.objects.exists()
    data = rounds_post(page)
    assert data["date_3"] == "2016-11-06" and data["matches_1"] == "1-4, 2-3"
    data["matches_3"] = "3-4, 1-2"  # adjusted: home and away of round 3 swapped
    done = client.post(url, data, follow=True)
    assert "Spelschemat är sparat: 3 ronder, 6 matcher." in plain(done)
    assert Match.objects.filter(heat=heat).count() == 6
    assert Match.objects.get(round=3, home__number=3).away.number == 4
    assert Decision.objects.get(action="teams.schedule.saved").decided_by == heat.responsible_user
    # The public heat page shows the schedule, every match "ej spelad".
    public = plain(client.get(f"/lag/kval/{heat.pk}/"))
    assert "Spelschema" in public and "Rond 3 6 nov 2016 Sala 3 – Sala 4 ej spelad" in public
    # The page now shows the saved schedule; the same again changes nothing.
    again = client.get(url)
    assert "Sparat schema" in plain(again)
    assert "Inget ändrades." in plain(client.post(url, rounds_post(again), follow=True))


def test_r_team_kval_4_a_seeded_proposal_when_the_days_are_too_few(client, heat):
    client.force_login(heat.responsible_user)
    url = f"/klubb/lagkval/{heat.pk}/spelschema/"
    data = {"propose": "1", "rounds": "2", "boards": "24"}
    data.update({f"seed_{n}": str(n) for n in range(1, 5)})
    page = client.post(url, data)
    text = plain(page)
    assert page.status_code == 200
    # Worked by hand (tests/rules/test_schedule.py): 1–2, 3–4 and 1–3, 2–4.
    assert "Seedat schema: 2 av 3 ronder." in text
    rounds = page.context["shown"].rounds
    assert {frozenset(m) for r in rounds for m in r.matches} == {
        frozenset(p) for p in ((1, 2), (3, 4), (1, 3), (2, 4))
    }
    # R-TEAM-KVAL-5: 2 × 24 = 48 boards a team: said before anything is saved.
    assert "4 lag spelar färre än 70 brickor totalt i heatet." in text
    refused = client.post(url, rounds_post(page))
    assert refused.status_code == 400 and not Match.objects.exists()
    assert "R-TEAM-KVAL-5" in plain(refused)


def test_a_refusal_lists_every_reason_keeps_the_form_and_saves_nothing(client, heat):
    client.force_login(heat.responsible_user)
    url = f"/klubb/lagkval/{heat.pk}/spelschema/"
    data = rounds_post(client.get(url))
    data["date_2"] = "2016-11-12"
    data["matches_3"] = "1-4, tre-två"
    refused = client.post(url, data)
    assert refused.status_code == 400
    assert "Kan inte läsa ”tre-två”" in plain(refused)
    assert not Match.objects.exists()
    data["matches_3"] = "1-4, 2-3"  # round 1 again
    refused = client.post(url, data)
    text = plain(refused)
    assert refused.status_code == 400 and not Match.objects.exists()
    assert "Rond 2 spelas 2016-11-12, utanför speldagarna 2016-11-05–2016-11-06." in text
    assert "Lag 1 och 4 möts 2 gånger." in text and "Lag 2 och 3 möts 2 gånger." in text
    assert "Alla ska mötas: 2 av 6 möten saknas" in text
    assert 'value="2016-11-12"' in refused.content.decode()  # the form keeps what was typed
    english = client.post(url + "?lang=en", data)
    assert "Teams 1 and 4 meet 2 times." in plain(english)


def test_the_schedule_page_is_for_whoever_manages_the_heat(client, heat):
    client.force_login(official(ClubFactory()))
    url = f"/klubb/lagkval/{heat.pk}/spelschema/"
    assert client.get(url).status_code == 403
    assert client.post(url, {"save": "1", "round_count": "1"}).status_code == 403
    assert not Match.objects.exists()


def test_a_schedule_with_results_is_shown_locked(client, heat, tk):
    client.force_login(tk)
    url = f"/klubb/lagkval/{heat.pk}/spelschema/"
    client.post(url, rounds_post(client.get(url)))
    Match.objects.filter(round=1).update(status="played", imps_home=10, imps_away=3)
    text = plain(client.get(url))
    assert "Spelschemat kan inte ändras: matchen" in text and "Spara schemat" not in text


# --- The final (R-TEAM-FINAL-1) -------------------------------------------------------------


def test_r_team_final_1_tk_saves_the_final_and_lag_shows_it_before_it_starts(client, tk):
    competition = TeamCompetitionFactory()
    heat = TeamHeatFactory(competition=competition)
    for n in range(1, 9):
        TeamFactory(heat=heat, name=f"Finallag {n}", final_seat=n)
    client.force_login(tk)
    url = f"/tk/lagfinal/{competition.pk}/spelschema/"
    page = client.get(url)
    text = plain(page)
    assert "R-TEAM-FINAL-1: finalen är en enkelserie" in text
    assert "24 brickor per match, 2 halvlekar om 90 minuter." in text
    assert "Lagen (finalplatsens nummer)" in text
    done = client.post(url, rounds_post(page), follow=True)
    assert "Spelschemat är sparat: 7 ronder, 28 matcher." in plain(done)
    assert Match.objects.filter(stage="final", played_on=date(2017, 3, 4)).count() == 16
    assert Match.objects.filter(stage="final", played_on=date(2017, 3, 5)).count() == 12
    lag = plain(client.get("/lag/"))
    assert "Rond för rond" in lag and "Rond 7 5 mar 2017" in lag and "inte spelad än" in lag
    # Only TK: the heat's responsible is refused.
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403


def test_the_schedule_pages_in_english(client, heat):
    client.force_login(heat.responsible_user)
    text = plain(client.get(f"/klubb/lagkval/{heat.pk}/spelschema/?lang=en"))
    assert "Schedule: Lagkval Sala" in text and "Everyone meets everyone." in text
    assert "Proposal not saved" in text

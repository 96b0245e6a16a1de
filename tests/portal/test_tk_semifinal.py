"""R-TEAM-SEMI-1 on the pages: TK records the SM semifinal venue choices in turn on
/tk/sm-semifinal/ (in the hall, on a phone), enters SBF's venues on /tk/sm-semifinal/orter/,
downloads the list for SBF; the captain of the team whose turn it is answers on the captain's
page; /lag/, the team page and TK's queue say where each team stands (chosen, choosing now,
waiting, declined; "preliminär ordning" before the final is complete).

The final is tests/results/test_semifinal.py's: F0..F4 in that full order, three places,
Örebro (one place for UBF) and Umeå."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Decision
from teams.models import SemifinalChoice, SemifinalVenue
from tests.factories import UserFactory
from tests.results.test_semifinal import build_final

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def text(response) -> str:
    return response.content.decode()


def test_r_team_semi_1_tk_records_the_choices_in_turn_on_the_page(tk):
    comp, (f0, f1, f2, f3, f4), orebro, umea = build_final()
    page = text(tk.get("/tk/sm-semifinal/"))
    assert "UBF har 3 platser i SM Lags semifinal" in page
    turn1 = page.split('id="tur-1"')[1].split("</li>")[0]
    assert "F0" in turn1 and "väljer nu" in turn1 and "Registrera valet" in turn1
    assert "väntar på sin tur" in page.split('id="tur-2"')[1].split("</li>")[0]
    # Out of turn: refused with the clause, nothing saved.
    response = tk.post(
        "/tk/sm-semifinal/", {"action": "choose", "team": f1.pk, "venue": umea.pk}, follow=True
    )
    assert "Det är inte F1 tur att välja: nu väljer F0 (nummer 1)" in text(response)
    assert not SemifinalChoice.objects.exists()
    tk.post("/tk/sm-semifinal/", {"action": "choose", "team": f0.pk, "venue": orebro.pk})
    response = tk.post(
        "/tk/sm-semifinal/",
        {"action": "decline", "team": f1.pk, "reason": "Laget kan inte resa"},
        follow=True,
    )
    page = text(response)
    assert "F1 tackade nej till sin plats (R-TEAM-SEMI-1)." in page
    # F3 moved up: F2 chooses now, F3 waits as number 3; Örebro (full) is not offered.
    turns = [page.split(f'id="tur-{n}"')[1].split("</li>")[0] for n in (1, 2, 3)]
    assert "valt: Örebro" in turns[0] and "F2" in turns[1] and "F3" in turns[2]
    form = page.split('id="valj"')[1].split("</form>")[0]
    assert "Umeå" in form and "Örebro" not in form
    assert "Laget kan inte resa" in page.split('id="nej"')[1]
    # TK corrects F0's choice with a reason.
    choice = SemifinalChoice.objects.get(team=f0)
    response = tk.post(
        "/tk/sm-semifinal/",
        {"action": "correct", "choice": choice.pk, "venue": umea.pk, "reason": ""},
        follow=True,
    )
    assert "Skriv en motivering" in text(response)
    tk.post(
        "/tk/sm-semifinal/",
        {"action": "correct", "choice": choice.pk, "venue": umea.pk, "reason": "Fel ort"},
    )
    choice.refresh_from_db()
    assert choice.venue == umea
    assert Decision.objects.filter(action="teams.semifinal_choice.corrected").count() == 1


def test_r_team_semi_1_pages_say_provisional_before_the_final_is_complete(tk, client):
    comp, (f0, *_), orebro, _umea = build_final(play_all=False)
    page = text(tk.get("/tk/sm-semifinal/"))
    assert "Valen kan inte registreras än" in page and "DM-finalen är inte färdigspelad" in page
    assert "Ordningen nedan är preliminär." in page and "Registrera valet" not in page
    response = tk.post("/tk/sm-semifinal/", {"action": "choose", "team": f0.pk, "venue": orebro.pk})
    assert response.status_code == 302 and not SemifinalChoice.objects.exists()
    public = text(client.get("/lag/"))
    block = public.split('id="semifinal-val"')[1].split("</ol>")[0]
    assert block.count("preliminär ordning") == 3 and "valt" not in block
    assert "SM-semifinal: nummer 1 att välja ort (preliminär ordning)." in text(
        client.get(f"/lag/lag/{f0.pk}/")
    )
    # Not in the queue while the final is played.
    assert "val av SM-semifinalort" not in text(tk.get("/tk/")).split('id="semifinal"')[1]


def test_r_team_semi_1_the_captain_answers_on_the_captain_s_page_in_the_team_s_turn(client):
    comp, (f0, f1, *_), orebro, umea = build_final()
    captain = UserFactory()
    f1.captain_user = captain
    f1.save()
    client.force_login(captain)
    page = text(client.get(f"/mitt-lag/{f1.pk}/"))
    section = page.split('id="sm-semifinal"')[1].split("</section>")[0]
    assert "väntar på sin tur" in section and "Nu väljer F0 (nummer 1)." in section
    assert "Välj semifinalort" not in section
    response = client.post(f"/mitt-lag/{f1.pk}/sm-semifinal/", {"venue": umea.pk}, follow=True)
    assert "Det är inte F1 tur att välja" in text(response)
    # Another team's page: not this captain's.
    assert client.post(f"/mitt-lag/{f0.pk}/sm-semifinal/", {"venue": umea.pk}).status_code == 403
    SemifinalChoice.objects.create(competition=comp, team=f0, state="chosen", venue=orebro)
    section = text(client.get(f"/mitt-lag/{f1.pk}/")).split('id="sm-semifinal"')[1]
    assert "Välj semifinalort" in section and "Örebro" not in section.split("</form>")[0]
    response = client.post(f"/mitt-lag/{f1.pk}/sm-semifinal/", {"venue": umea.pk}, follow=True)
    assert "Laget har valt Umeå som SM-semifinalort." in text(response)
    choice = SemifinalChoice.objects.get(team=f1)
    assert choice.venue == umea and choice.recorded_by == captain
    # The public pages say it.
    public = text(client.get("/lag/"))
    block = public.split('id="semifinal-val"')[1].split("</ol>")[0]
    assert "valt: Örebro" in block and "valt: Umeå" in block and "väljer nu" in block
    assert "SM-semifinal: har valt Umeå (nummer 2 att välja)." in text(
        client.get(f"/lag/lag/{f1.pk}/")
    )


def test_r_team_semi_1_the_queue_names_the_team_choosing_now(tk):
    comp, (f0, *_), orebro, _umea = build_final()
    group = text(tk.get("/tk/")).split('id="semifinal"')[1].split("</section>")[0]
    assert "Nu väljer F0 (nummer 1 av 3)." in group and "sista dag 5 mar 2017" in group
    for team in comp.teams.order_by("id")[:3]:
        venue = SemifinalVenue.objects.get(name="Umeå" if team != f0 else "Örebro")
        SemifinalChoice.objects.create(competition=comp, team=team, state="chosen", venue=venue)
    group = text(tk.get("/tk/")).split('id="semifinal"')[1].split("</section>")[0]
    assert "Inget väntar." in group


def test_r_team_semi_1_tk_enters_sbf_s_venues_on_a_page(tk):
    comp, _teams, orebro, umea = build_final()
    form = {
        "form-TOTAL_FORMS": "3",
        "form-INITIAL_FORMS": "2",
        "form-0-pk": orebro.pk,
        "form-0-name": "Örebro",
        "form-0-first_date": "2017-04-01",
        "form-0-places": "2",
        "form-1-pk": umea.pk,
        "form-1-name": "Umeå",
        "form-1-first_date": "2017-04-01",
        "form-1-delete": "on",
        "form-2-name": "Gävle",
        "form-2-first_date": "2017-04-01",
        "form-2-last_date": "2017-04-02",
        "places": "3",
        "reason": "",
    }
    response = tk.post("/tk/sm-semifinal/orter/", form)
    assert response.status_code == 400
    assert "Det här fältet är obligatoriskt." in text(response)
    assert SemifinalVenue.objects.filter(competition=comp).count() == 2
    response = tk.post("/tk/sm-semifinal/orter/", {**form, "reason": "SBF 10 feb"}, follow=True)
    page = text(response)
    assert "Sparat:" in page and "Umeå: borttagen" in page and "Gävle: ny" in page
    assert sorted(SemifinalVenue.objects.values_list("name", "places")) == [
        ("Gävle", None),
        ("Örebro", 2),
    ]


def test_r_team_semi_1_the_list_for_sbf_downloads(tk, client):
    comp, (f0, *_), orebro, _umea = build_final()
    SemifinalChoice.objects.create(competition=comp, team=f0, state="chosen", venue=orebro)
    response = tk.get("/tk/sm-semifinal/lista.csv")
    assert response["Content-Disposition"] == 'attachment; filename="sm-semifinal-2016-2017.csv"'
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[1].startswith("1;F0;Örebro;2017-04-01;valt;")
    response = tk.get("/tk/sm-semifinal/lista.xlsx")
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    client.logout()
    assert client.get("/tk/sm-semifinal/lista.csv").status_code == 302  # to the login


def test_r_team_semi_1_lag_page_queries_stay_fixed_with_answers(client):
    comp, teams, orebro, umea = build_final()

    def count(path) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(path).status_code == 200
        return len(ctx.captured_queries)

    before = count("/lag/"), count(f"/lag/lag/{teams[2].pk}/")
    SemifinalChoice.objects.create(competition=comp, team=teams[0], state="chosen", venue=orebro)
    SemifinalChoice.objects.create(competition=comp, team=teams[1], state="declined")
    after = count("/lag/"), count(f"/lag/lag/{teams[2].pk}/")
    assert before == after
    assert after[0] <= 9  # tests/portal/test_lag_pages.py's cap

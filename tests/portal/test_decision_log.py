"""R-GEN-3, TK's decision log in words (/tk/logg/, issue 13 item 2): who, when in local
time, what in a sentence, the reason, the object linked; filtered by kind and text; a CSV a
spreadsheet opens without running a formula."""

import csv
import io

import pytest

from clubs import clock
from clubs.services.base import record_decision
from tests.factories import ClubOfficialFactory, PairHeatFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk(client):
    user = UserFactory(is_staff=True, is_superuser=True, first_name="Tora", last_name="Kask")
    client.force_login(user)
    client.user = user
    return client


def test_a_dispensation_in_words_with_reason_time_and_link(tk):
    team = TeamFactory(name="Fyris 1")
    with clock.frozen("2016-11-18 14:05"):
        d = record_decision(
            "teams.dispensation.granted",
            team,
            user=tk.user,
            reason="Sjukdom i laget",
            clause="R-TEAM-5",
        )
    html = tk.get("/tk/logg/").content.decode()
    assert "TK beviljade dispens: Fyris 1" in html
    assert "Motivering: Sjukdom i laget" in html and "R-TEAM-5" in html
    assert "18 nov 14:05" in html and "Tora Kask" in html
    assert f"/admin/teams/team/{team.pk}/change/" in html
    assert d.pk


def test_filter_by_kind_and_by_text(tk):
    heat = PairHeatFactory(name="Kval Fyris")
    team = TeamFactory(name="Enköping 2")
    record_decision("pairs.heat.approved", heat, user=tk.user)
    record_decision("teams.dispensation.rejected", team, user=tk.user, reason="För sent")
    only_disp = tk.get("/tk/logg/?kind=dispensation").content.decode()
    assert "TK avslog dispens: Enköping 2" in only_disp and "Kval Fyris" not in only_disp
    only_heat = tk.get("/tk/logg/?kind=heat").content.decode()
    assert "TK godkände kvalheat: Kval Fyris" in only_heat and "Enköping 2" not in only_heat
    by_text = tk.get("/tk/logg/?q=enköping").content.decode()
    assert "Enköping 2" in by_text and "Kval Fyris" not in by_text


def test_late_decisions_and_unknown_actions_are_shown(tk):
    team = TeamFactory(name="Tierp")
    record_decision("teams.roster_change.granted.outside_window", team, user=tk.user)
    record_decision("results.tasks.recompute_competition", team)
    html = tk.get("/tk/logg/").content.decode()
    assert "TK beviljade ändring av laguppställning: Tierp (efter tidsfristen)" in html
    assert "results.tasks.recompute_competition: Tierp" in html and "systemet" in html


def test_csv_export_escapes_formulas(tk):
    team = TeamFactory(name='=HYPERLINK("http://x","klick")')
    record_decision("teams.penalty.imposed", team, user=tk.user, reason="-5 VP")
    response = tk.get("/tk/logg.csv")
    text = response.content.decode("utf-8-sig")
    assert response["Content-Type"].startswith("text/csv")
    header, cells = list(csv.reader(io.StringIO(text), delimiter=";"))[:2]
    assert header == ["Tid", "Vem", "Beslut", "Motivering", "Regel"]
    assert cells[2].startswith("TK beslutade VP-avdrag: =HYPERLINK")  # not at the cell's start
    assert cells[3] == "'-5 VP"


def test_in_english(tk):
    record_decision("teams.dispensation.granted", TeamFactory(name="Fyris 1"), user=tk.user)
    html = tk.get("/tk/logg/?lang=en").content.decode()
    assert "TK granted dispensation: Fyris 1" in html


def test_only_tk(client):
    client.force_login(ClubOfficialFactory().user)
    assert client.get("/tk/logg/").status_code == 403
    assert client.get("/tk/logg.csv").status_code == 403


def test_every_recorded_action_in_words_and_each_filter_once(tk):
    # Issue 22: no raw codes ("clubs.invitation.sent:") and one filter per name.
    team = TeamFactory(name="Fyris 2")
    record_decision("clubs.invitation.sent", team, user=tk.user)
    record_decision("teams.other_team.allowed", team, user=tk.user, reason="Flyttad")
    record_decision("teams.final_offer.accepted", team, user=tk.user)
    record_decision("pairs.offer.declined", PairHeatFactory(name="Kval Tierp"), user=tk.user)
    html = tk.get("/tk/logg/").content.decode()
    assert "clubs.invitation.sent" not in html and "teams.other_team.allowed" not in html
    assert "TK skickade inbjudan till klubbfunktionär: Fyris 2" in html
    assert "TK godkände spelare från ett annat lag: Fyris 2" in html
    assert html.count(">svar på erbjuden finalplats<") == 1
    answers = tk.get("/tk/logg/?kind=offer").content.decode()
    assert "Fyris 2" in answers and "Kval Tierp" in answers

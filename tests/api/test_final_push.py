"""A scoring program pushes each round of the DM Lag final as it ends (issue 14): a TK
token scoped to the final uploads round 3 as CSV, and /lag/ (and its live block
/lag/final/) shows the new round at once.

The final of tests/portal/test_lag_pages.py (four teams, 16 boards a match) with round 3 not
played: after two rounds A has 13.75 + 15.00 = 28.75 VP. Round 3: A–D 35–15 (a 20 IMP win
over 16 boards: 15.00–5.00, R-VP-*) and B–C 40–26 (14 IMPs: 13.75–6.25); A ends on
28.75 + 15.00 = 43.75."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from results.models import ResultUpload
from teams.models import Match
from tests.api.conftest import with_token
from tests.factories import ClubOfficialFactory, TeamHeatFactory
from tests.portal.test_lag_pages import ROUNDS, _final, _text
from tests.portal.test_live_standings import _unplay_last_round

pytestmark = pytest.mark.django_db

ROUND_3 = (
    b"round;home;away;imps_home;imps_away;vp_home;vp_away;boards\n"
    b"3;1;4;35;15;15,00;5,00;16\n"
    b"3;2;3;40;26;13,75;6,25;16\n"
)


@pytest.fixture
def live(settings, django_capture_on_commit_callbacks):
    settings.UBF_CLOCK_OVERRIDE = "2017-03-05T15:30:00+01:00"
    heat = TeamHeatFactory()
    teams, _ = _final(heat, "ABCD", ROUNDS)
    _unplay_last_round(heat.competition_id)
    return heat.competition, teams


def _push(client, competition, captured, **extra):
    with captured(execute=True):
        return client.post(
            f"/api/v1/competitions/{competition.pk}/final-results/",
            {"file": SimpleUploadedFile("rond3.csv", ROUND_3), "round": 3},
            format="multipart",
            **extra,
        )


def test_a_pushed_round_is_on_lag_at_once(
    api, live, tk, make_token, django_capture_on_commit_callbacks
):
    competition, teams = live
    before = _text(api.get("/lag/final/").content.decode())
    assert "Efter rond 2." in before and "28,75" in before
    key = make_token(tk, final_of=competition)
    response = _push(with_token(api, key), competition, django_capture_on_commit_callbacks)
    assert response.status_code == 201, response.content
    assert response.json()["round"] == 3 and response.json()["unchanged"] is False
    m = Match.objects.get(stage="final", round=3, home=teams["A"])
    assert (m.status, m.imps_home, m.imps_away) == ("played", 35, 15)
    assert str(m.vp_home) == "15.00"
    api.credentials()
    text = _text(api.get("/lag/final/").content.decode())
    assert "Efter rond 3." in text and "43,75" in text
    assert "43,75" in _text(api.get("/lag/").content.decode())


def test_the_same_round_twice_changes_nothing_and_answers_the_first_upload(
    api, live, tk, make_token, django_capture_on_commit_callbacks
):
    competition, _teams = live
    client = with_token(api, make_token(tk, final_of=competition))
    first = _push(client, competition, django_capture_on_commit_callbacks)
    again = _push(client, competition, django_capture_on_commit_callbacks)
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"] and again.json()["unchanged"] is True
    assert ResultUpload.objects.filter(competition=competition).count() == 1


def test_a_heat_token_cannot_push_the_final(
    api, live, make_token, django_capture_on_commit_callbacks
):
    competition, teams = live
    official = ClubOfficialFactory().user
    key = make_token(official, heat=teams["A"].heat)
    response = _push(with_token(api, key), competition, django_capture_on_commit_callbacks)
    assert response.status_code == 403
    assert response["Content-Type"] == "application/problem+json"
    assert not ResultUpload.objects.exists()
    assert not Match.objects.filter(stage="final", round=3, status="played").exists()

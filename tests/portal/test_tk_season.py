"""/tk/sasong/ (R-GEN-3, every TK decision recorded with who, when, why): TK edits the season's configuration with the clause beside each number; a
change is checked, saved, logged with old → new, and the standings that depend on it are
recomputed; a refusal changes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from clubs.models import Decision, Season
from tests.factories import ClubOfficialFactory, SeasonFactory, TeamCompetitionFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def form_data(client) -> dict:
    """What the page's form posts when TK changes nothing (its initial values)."""
    form = client.get("/tk/sasong/").context["form"]
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = field.prepare_value(value) if value is not None else ""
    return data


def test_the_page_shows_each_number_with_its_clause(tk):
    SeasonFactory()
    html = tk.get("/tk/sasong/").content.decode()
    assert "Säsongens inställningar 2016-2017" in html
    for clause in ("R-TEAM-WO-2", "R-TEAM-FEE-1", "R-ALLOC-1", "R-TEAM-RES-5", "R-PAIR-3"):
        assert clause in html
    # the 2016-2017 values (SPEC): 500 kr a team, W.O. 12-0, pairs final 28/32/36
    assert 'value="500.00"' in html and 'value="12.00"' in html
    assert 'value="0=28; 61=32; 81=36"' in html


def test_r_team_wo_2_tk_changes_the_wo_score_it_is_logged_and_recomputed(tk, recompute):
    season = SeasonFactory()
    comp = TeamCompetitionFactory(season=season)
    data = form_data(tk)
    data.update(wo_winner_vp="15.00", team_start_fee="600", reason="SBF:s nya regler")
    page = tk.post("/tk/sasong/", data, follow=True).content.decode()
    season.refresh_from_db()
    assert season.wo_winner_vp == Decimal("15.00") and season.team_start_fee == 600
    assert season.rules().wo_winner_vp == Decimal("15.00")
    assert "12 → 15" in page and "500 → 600" in page
    entry = Decision.objects.get(action="clubs.season.configured")
    assert entry.data["changes"] == {"wo_winner_vp": ["12", "15"], "team_start_fee": ["500", "600"]}
    assert entry.data["clauses"]["wo_winner_vp"] == "R-TEAM-WO-2"
    assert "TK ändrade säsongens inställningar: 2016-2017" in tk.get("/tk/logg/").content.decode()
    recompute.assert_any_call(competition_id=comp.pk)


def test_r_alloc_1_a_table_is_edited_as_text_and_stored_in_the_season(tk, recompute):
    season = SeasonFactory()
    data = form_data(tk)
    data.update(pair_final_sizes="0=28; 50=32; 81=36", reason="Nytt beslut")
    tk.post("/tk/sasong/", data)
    season.refresh_from_db()
    assert season.rules().pair_final_sizes == ((0, 28), (50, 32), (81, 36))


def test_a_fee_change_alone_asks_for_no_recompute(tk, recompute):
    season = SeasonFactory()
    TeamCompetitionFactory(season=season)
    data = form_data(tk)
    data.update(pair_final_fee_per_player="250", reason="Höjd avgift")
    tk.post("/tk/sasong/", data)
    assert Season.objects.get().pair_final_fee_per_player == 250
    recompute.assert_not_called()


@pytest.mark.parametrize(
    "change, text",
    [
        ({"wo_loser_vp": "13"}, "Laget som lämnade W.O. kan inte få fler VP"),
        ({"wo_winner_vp": "21"}, "mellan 0 och 20"),
        ({"team_start_fee": "-1"}, "En avgift kan inte vara negativ"),
        ({"pair_final_sizes": "10=28; 61=32"}, "Finalstorlekarna börjar vid 0"),
        ({"pair_final_sizes": "noll"}, "gräns=storlek"),
        ({"protest_deadline_sm_semifinal": "2017-05-01"}, "Protesttiden inför SM-semifinal"),
        ({"team_bonus": "21, 30, 42"}, "tre tal, inte ökande"),
    ],
)
def test_bad_values_are_refused_beside_their_field_and_change_nothing(tk, change, text):
    season = SeasonFactory()
    data = form_data(tk)
    data.update(change, reason="Prov")
    response = tk.post("/tk/sasong/", data)
    assert response.status_code == 400
    assert text in response.content.decode()
    after = Season.objects.get()
    assert after.rules() == season.rules() and after.tables == season.tables
    assert not Decision.objects.exists()


def test_a_change_without_a_reason_is_refused_and_nothing_changed_says_so(tk):
    SeasonFactory()
    data = form_data(tk)
    data.update(reason="")
    assert "Inget ändrades" in tk.post("/tk/sasong/", data, follow=True).content.decode()
    data.update(wo_winner_vp="14", reason="")
    assert tk.post("/tk/sasong/", data).status_code == 400
    assert Season.objects.get().wo_winner_vp == 12


def test_the_page_in_english(tk):
    SeasonFactory()
    html = tk.get("/tk/sasong/?lang=en").content.decode()
    assert "Season configuration 2016-2017" in html


def test_only_tk(client):
    SeasonFactory()
    assert client.get("/tk/sasong/").status_code == 302
    client.force_login(ClubOfficialFactory().user)
    assert client.get("/tk/sasong/").status_code == 403


def test_r_team_wo_2_a_new_wo_score_reaches_the_standings(tk, django_capture_on_commit_callbacks):
    from results.models import StandingSnapshot
    from teams.services.decisions import award_walkover
    from tests.factories import MatchFactory, TeamFactory, TeamHeatFactory

    season = SeasonFactory()
    heat = TeamHeatFactory(competition=TeamCompetitionFactory(season=season))
    home, away = TeamFactory(heat=heat, name="Fyris 1"), TeamFactory(heat=heat, name="Knivsta")
    match = MatchFactory(home=home, away=away, heat=heat, competition=heat.competition)
    user = UserFactory(is_superuser=True, is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        award_walkover(user, match, away, reason="Kom inte")

    def vp():
        return {r["name"]: Decimal(r["vp"]) for r in StandingSnapshot.objects.get(heat=heat).data}

    assert vp()["Fyris 1"] == Decimal("12.00")  # the 2016-2017 default (SPEC's note)
    data = form_data(tk)
    data.update(wo_winner_vp="15.00", wo_loser_vp="3.00", reason="SBF:s nya regler")
    with django_capture_on_commit_callbacks(execute=True):
        tk.post("/tk/sasong/", data)
    assert vp() == {"Fyris 1": Decimal("15.00"), "Knivsta": Decimal("3.00")}

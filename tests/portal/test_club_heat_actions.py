"""A club's heat page (/klubb/parkval/<id>/, /klubb/lagkval/<id>/): before the registration
deadline the club moves and cancels its heat itself; after it the page offers the change
request to TK instead (R-PAIR-KVAL-2); the invitation (R-PAIR-KVAL-3); withdrawing a pair
(R-PAIR-KVAL-6) and a team (R-TEAM-REPL-1). A refusal names its clause and changes nothing;
another club's official gets 403 and writes nothing."""

from datetime import date, timedelta

import pytest

from clubs import clock
from clubs.models import Decision, HeatStatus, SeatOffer
from pairs.models import PairEntry, PairHeat, PairHeatChangeRequest
from results.services.recompute import recompute_team_competition
from teams.models import Team, TeamHeat
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    PairCompetitionFactory,
    PairEntryFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    final_teams,
)
from tests.results.test_allocation_teams import heat_with

pytestmark = pytest.mark.django_db

# The pair competition's heat registration deadline is 1 Dec 2016 (tests.factories), its
# qualifying period 1 Jan – 31 Mar 2017; the heat is on 10 Feb 2017.
BEFORE, AFTER = "2016-11-20", "2016-12-05"


@pytest.fixture
def s():
    season = SeasonFactory()
    club = ClubFactory()
    heat = PairHeatFactory(competition=PairCompetitionFactory(season=season), clubs=[club])
    team_heat = TeamHeatFactory(
        competition=TeamCompetitionFactory(season=season), organisers=[club]
    )
    return {
        "club": club,
        "heat": heat,
        "team_heat": team_heat,
        "official": ClubOfficialFactory(club=club).user,
        "other": ClubOfficialFactory().user,
    }


def page(heat):
    kind = "parkval" if isinstance(heat, PairHeat) else "lagkval"
    return f"/klubb/{kind}/{heat.pk}/"


def test_dashboard_links_each_heat_to_its_page(client, s):
    client.force_login(s["official"])
    html = client.get("/klubb/").content.decode()
    assert page(s["heat"]) in html and page(s["team_heat"]) in html


def test_r_pair_kval_2_club_moves_its_heat_before_the_deadline(client, s):
    client.force_login(s["official"])
    with clock.frozen(BEFORE):
        response = client.post(
            page(s["heat"]), {"action": "move", "move-first_date": "2017-02-17"}, follow=True
        )
    html = response.content.decode()
    assert "Heatet är flyttat: 2017-02-17." in html
    assert 'id="heat-dates" class="text-nowrap">2017-02-17' in html
    assert PairHeat.objects.get(pk=s["heat"].pk).first_date == date(2017, 2, 17)


def test_r_pair_kval_1_move_outside_the_qualifying_period_is_refused(client, s):
    client.force_login(s["official"])
    with clock.frozen(BEFORE):
        response = client.post(page(s["heat"]), {"action": "move", "move-first_date": "2017-05-01"})
    html = response.content.decode()
    assert response.status_code == 400 and "R-PAIR-KVAL-1" in html
    assert 'value="2017-05-01"' in html  # what was typed is kept
    assert PairHeat.objects.get(pk=s["heat"].pk).first_date == date(2017, 2, 10)


def test_r_pair_kval_2_club_cancels_its_heat_before_the_deadline(client, s):
    client.force_login(s["official"])
    with clock.frozen(BEFORE):
        response = client.post(page(s["heat"]), {"action": "cancel"}, follow=True)
    assert "är inställt" in response.content.decode()
    assert PairHeat.objects.get(pk=s["heat"].pk).status == HeatStatus.CANCELLED


def test_r_pair_kval_2_after_the_deadline_the_page_offers_the_change_request(client, s):
    client.force_login(s["official"])
    with clock.frozen(AFTER):
        html = client.get(page(s["heat"])).content.decode()
        assert 'id="request-form"' in html and 'id="move-form"' not in html
        assert "Skicka ändringsbegäran" in html and "R-PAIR-KVAL-2" in html
        response = client.post(
            page(s["heat"]),
            {
                "action": "request",
                "request-kind": "move",
                "request-new_first_date": "2017-02-24",
                "request-reason": "Lokalen är upptagen.",
            },
            follow=True,
        )
    assert "Ändringsbegäran är skickad" in response.content.decode()
    request = PairHeatChangeRequest.objects.get(heat=s["heat"])
    assert request.new_first_date == date(2017, 2, 24)
    assert PairHeat.objects.get(pk=s["heat"].pk).first_date == date(2017, 2, 10)


def test_r_pair_kval_2_a_move_posted_after_the_deadline_is_refused(client, s):
    client.force_login(s["official"])
    with clock.frozen(AFTER):
        response = client.post(page(s["heat"]), {"action": "move", "move-first_date": "2017-02-17"})
    html = response.content.decode()
    assert response.status_code == 400 and "R-PAIR-KVAL-2" in html and "ändringsbegäran" in html
    assert PairHeat.objects.get(pk=s["heat"].pk).first_date == date(2017, 2, 10)


def test_r_pair_kval_3_club_records_the_invitation(client, s):
    client.force_login(s["official"])
    with clock.frozen(BEFORE):
        response = client.post(
            page(s["heat"]),
            {
                "action": "invitation",
                "invitation-url": "https://bk.example.se/kval.pdf",
                "invitation-sent_on": "2016-11-19",
            },
            follow=True,
        )
    assert "Inbjudan är registrerad." in response.content.decode()
    assert "Inbjudan skickad 2016-11-19." in response.content.decode()
    heat = PairHeat.objects.get(pk=s["heat"].pk)
    assert heat.invitation_sent_on == date(2016, 11, 19)


def test_r_pair_kval_3_invitation_in_the_future_is_refused(client, s):
    client.force_login(s["official"])
    with clock.frozen(BEFORE):
        response = client.post(
            page(s["heat"]),
            {
                "action": "invitation",
                "invitation-url": "https://bk.example.se/kval.pdf",
                "invitation-sent_on": "2016-11-25",
            },
        )
    assert response.status_code == 400 and "R-PAIR-KVAL-3" in response.content.decode()
    assert PairHeat.objects.get(pk=s["heat"].pk).invitation_sent_on is None


def test_r_pair_kval_6_club_withdraws_a_pair(client, s):
    entry = PairEntryFactory(heat=s["heat"])
    client.force_login(s["official"])
    with clock.frozen(BEFORE):
        response = client.post(
            page(s["heat"]),
            {"action": "withdraw", "entry": entry.pk, "withdraw-reason": "Sjukdom"},
            follow=True,
        )
    html = response.content.decode()
    assert "är återtaget" in html and "återtaget" in html
    entry.refresh_from_db()
    assert entry.status == PairEntry.Status.WITHDRAWN and entry.status_reason == "Sjukdom"
    assert Decision.objects.filter(action="pairs.entry.withdrawn", object_id=entry.pk).exists()


def test_r_pair_kval_6_withdrawal_after_the_heat_started_is_refused(client, s):
    entry = PairEntryFactory(heat=s["heat"])
    client.force_login(s["official"])
    with clock.frozen("2017-02-11"):
        response = client.post(page(s["heat"]), {"action": "withdraw", "entry": entry.pk})
    assert response.status_code == 400 and "R-PAIR-KVAL-6" in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == PairEntry.Status.ENTERED
    assert not Decision.objects.filter(action="pairs.entry.withdrawn").exists()


def test_r_team_repl_1_withdrawing_a_team_needs_a_reason(client, s):
    team = TeamFactory(heat=s["team_heat"])
    client.force_login(s["official"])
    with clock.frozen("2016-10-01"):
        refused = client.post(page(s["team_heat"]), {"action": "withdraw", "entry": team.pk})
        assert refused.status_code == 400 and "R-TEAM-REPL-1" in refused.content.decode()
        assert Team.objects.get(pk=team.pk).status == Team.Status.ENTERED
        done = client.post(
            page(s["team_heat"]),
            {"action": "withdraw", "entry": team.pk, "withdraw-reason": "För få spelare"},
            follow=True,
        )
    assert f"Laget {team.name} är återtaget." in done.content.decode()
    assert Team.objects.get(pk=team.pk).status == Team.Status.WITHDRAWN


def test_r_team_repl_1_a_finalist_withdrawn_on_the_page_is_replaced_by_the_next_team(
    client, tk, django_capture_on_commit_callbacks
):
    """Heats of 6 and 4 teams, all played: 10 qualifying teams, an 8-team final, 8·6/10 = 4.8
    and 8·4/10 = 3.2, whole 4 + 3, the last seat to the larger fraction: 5 / 3 (R-TEAM-ADV-1).
    The big heat's winners withdraw on the heat's page; the real recompute offers their seat
    to the big heat's 6th, its nearest eliminated team (R-TEAM-REPL-1, R-REPL-1), and the public
    heat page says so."""
    comp = TeamCompetitionFactory()
    big, big_teams = heat_with(comp, 6)
    _small, _small_teams = heat_with(comp, 4)
    recompute_team_competition(comp.id)
    assert big_teams[0] in final_teams(comp) and big_teams[5] not in final_teams(comp)
    client.force_login(tk)
    with clock.frozen("2016-12-01"), django_capture_on_commit_callbacks(execute=True):
        client.post(
            page(big),
            {"action": "withdraw", "entry": big_teams[0].pk, "withdraw-reason": "Två sjuka"},
        )
    assert SeatOffer.objects.get(answer="pending").entry == big_teams[5]
    assert big_teams[0] not in final_teams(comp)
    heat_page = client.get(f"/lag/kval/{big.pk}/").content.decode()
    assert "lämnade sin plats" in heat_page and "tillfrågat som ersättare" in heat_page


def test_team_heat_moved_before_its_deadline_keeps_its_length(client, s):
    client.force_login(s["official"])
    # The team competition's deadline is 15 Sep 2016; its period 1 Oct 2016 – 31 Jan 2017.
    with clock.frozen("2016-09-10"):
        client.post(page(s["team_heat"]), {"action": "move", "move-first_date": "2016-11-12"})
    heat = TeamHeat.objects.get(pk=s["team_heat"].pk)
    assert (heat.first_date, heat.last_date) == (date(2016, 11, 12), date(2016, 11, 13))


@pytest.mark.parametrize(
    "data",
    [
        {"action": "move", "move-first_date": "2017-02-17"},
        {"action": "cancel"},
        {"action": "invitation", "invitation-url": "https://x.example.se/i.pdf"},
        {"action": "withdraw", "entry": "ENTRY", "withdraw-reason": "x"},
    ],
)
def test_another_clubs_official_gets_403_and_nothing_changes(client, s, data):
    entry = PairEntryFactory(heat=s["heat"])
    data = {k: (entry.pk if v == "ENTRY" else v) for k, v in data.items()}
    client.force_login(s["other"])
    decisions = Decision.objects.count()
    with clock.frozen(BEFORE):
        assert client.get(page(s["heat"])).status_code == 403
        assert client.post(page(s["heat"]), data).status_code == 403
    heat = PairHeat.objects.get(pk=s["heat"].pk)
    assert heat.first_date == date(2017, 2, 10) and heat.status == HeatStatus.APPROVED
    assert heat.invitation_url == "" and heat.invitation_sent_on is None
    assert PairEntry.objects.get(pk=entry.pk).status == PairEntry.Status.ENTERED
    assert Decision.objects.count() == decisions


def test_unknown_heat_is_404(client, s):
    client.force_login(s["official"])
    assert client.get("/klubb/parkval/999999/").status_code == 404


def test_pair_upload_pages_do_not_ask_for_a_team_final_round(client, s, tk):
    client.force_login(s["official"])
    html = client.get(f"/resultat/par/{s['heat'].pk}/").content.decode()
    assert "Resultatfil" in html and "Rond" not in html
    client.force_login(tk)
    competition = s["heat"].competition
    assert "Rond" not in client.get(f"/resultat/parfinal/{competition.pk}/").content.decode()
    team_competition = s["team_heat"].competition
    assert "Rond" in client.get(f"/resultat/lagfinal/{team_competition.pk}/").content.decode()


def test_heat_page_in_english(client, s):
    PairEntryFactory(heat=s["heat"])
    client.force_login(s["official"])
    with clock.frozen(BEFORE):
        html = client.get(page(s["heat"]) + "?lang=en").content.decode()
    assert "Move the heat" in html and "Record the invitation" in html and "Withdraw" in html


def test_an_unknown_action_is_refused_and_changes_nothing(client, s):
    client.force_login(s["official"])
    before = PairHeat.objects.get(pk=s["heat"].pk).first_date
    for action in ("explode", ""):
        response = client.post(page(s["heat"]), {"action": action})
        assert response.status_code == 400
        assert "Okänd åtgärd: inget har sparats." in response.content.decode()
    # a team heat has no invitation form of its own
    assert client.post(page(s["team_heat"]), {"action": "invitation"}).status_code == 400
    assert PairHeat.objects.get(pk=s["heat"].pk).first_date == before


def test_r_pair_kval_2_tk_after_the_deadline_is_not_told_the_club_changes_it_itself(client, s, tk):
    # Issue 22: on a heat page after the registration deadline TK read "Fram till sista
    # anmälningsdag ... ändrar klubben själv", a passed date as if it were still open.
    client.force_login(tk)
    for heat in (s["heat"], s["team_heat"]):
        deadline = heat.competition.heat_registration_deadline
        with clock.frozen((deadline + timedelta(days=4)).isoformat()):
            html = client.get(page(heat)).content.decode()
        assert "ändrar klubben själv" not in html
        assert f"Sista anmälningsdag för kvalheat ({deadline.isoformat()}) har passerat" in html
        assert "TK ändrar här med en motivering" in html


# --- R-PAIR-RES-1: a pair starts with a reserve, notified by the club before the heat -------


@pytest.fixture
def pair(s):
    from tests.factories import member

    season = s["heat"].competition.season
    a, b, r = (member(season, s["club"]) for _ in range(3))
    return {"entry": PairEntryFactory(heat=s["heat"], player1=a, player2=b), "b": b, "r": r}


def _reserve(client, s, pair, *, replaced, reserve, session=1):
    return client.post(
        page(s["heat"]),
        {
            "action": "reserve",
            "entry": pair["entry"].pk,
            "reserve-session": session,
            "reserve-replaced_mid": replaced,
            "reserve-reserve_mid": reserve,
        },
        follow=True,
    )


def test_r_pair_res_1_club_notifies_a_reserve_before_the_heat(client, s, pair):
    from pairs.models import ReserveNotice

    client.force_login(s["official"])
    with clock.frozen("2017-02-09 12:00"):  # the day before the heat of 10 Feb
        assert (
            f'id="reserve-form-{pair["entry"].pk}"' in client.get(page(s["heat"])).content.decode()
        )
        response = _reserve(client, s, pair, replaced=pair["b"].mid, reserve=pair["r"].mid)
    html = response.content.decode()
    assert response.status_code == 200
    assert f"Reserven {pair['r'].mid} är anmäld för {pair['b'].mid}" in html
    assert f"Speltillfälle 1: {pair['r'].mid} ersätter {pair['b'].mid}" in html
    notice = ReserveNotice.objects.get(entry=pair["entry"])
    assert notice.reserve == pair["r"] and notice.notified_by == s["official"]


def test_r_pair_res_1_a_reserve_on_the_heat_day_is_refused_and_nothing_saved(client, s, pair):
    from pairs.models import ReserveNotice

    client.force_login(s["official"])
    with clock.frozen("2017-02-10 08:00"):  # the heat's own day: not in advance
        response = _reserve(client, s, pair, replaced=pair["b"].mid, reserve=pair["r"].mid)
    html = response.content.decode()
    assert response.status_code == 400 and "R-PAIR-RES-1" in html and "i förväg" in html
    assert f'value="{pair["r"].mid}"' in html  # what was typed is kept
    assert not ReserveNotice.objects.exists()


def test_r_pair_res_1_a_reserve_without_a_mid_is_refused(client, s, pair):
    from pairs.models import ReserveNotice

    client.force_login(s["official"])
    with clock.frozen("2017-02-01"):
        response = _reserve(client, s, pair, replaced=pair["b"].mid, reserve="")
    assert response.status_code == 400 and "R-PAIR-RES-1" in response.content.decode()
    assert not ReserveNotice.objects.exists()


def test_r_pair_res_1_another_clubs_official_cannot_notify_a_reserve(client, s, pair):
    from pairs.models import ReserveNotice

    client.force_login(s["other"])
    with clock.frozen("2017-02-01"):
        response = _reserve(client, s, pair, replaced=pair["b"].mid, reserve=pair["r"].mid)
    assert response.status_code == 403 and not ReserveNotice.objects.exists()


def test_r_pair_res_1_reserve_form_in_english(client, s, pair):
    client.force_login(s["official"])
    with clock.frozen("2017-02-01"):
        html = client.get(page(s["heat"]) + "?lang=en").content.decode()
    assert "Notify a reserve" in html and "Reserve (MID)" in html

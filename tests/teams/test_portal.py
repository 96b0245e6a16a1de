"""Lagportalen (teams/portal.py): pages for captains and heat responsibles around the entry
services. Permissions: the services decide (403); refusals list the services' reasons with
their clause (400) and save nothing; warnings come back as messages."""

from datetime import date
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs import clock
from clubs.models import Decision
from teams.models import Dispensation, Lineup, RosterEntry, Team
from teams.selectors import team_dm_status, team_may_start, team_rows
from teams.services.entries import record_lineup
from tests.factories import (
    MatchFactory,
    TeamFactory,
    UserFactory,
    member,
)
from tests.factories import world_member as p

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture(autouse=True)
def _today():
    with clock.frozen("2016-10-20 10:00"):
        yield


# The world ``w`` (a heat, its responsible, two captains' teams, a match) is the fixture of
# tests/teams/conftest.py, shared with test_entry_requests.py.


def mids(w, n, **kw):
    return [p(w, **kw).mid for _ in range(n)]


def roster_mids(team):
    return list(team.roster.order_by("id").values_list("player__mid", flat=True))


def snapshot():
    return (
        Team.objects.count(),
        sorted(RosterEntry.objects.values_list("team_id", "player_id", "is_extra")),
        Dispensation.objects.count(),
        sorted(Lineup.objects.values_list("match_id", "team_id", "player_id", "half")),
        Decision.objects.count(),
    )


def urls(w):
    return {
        "index": reverse("teams:index"),
        "enter": reverse("teams:enter", args=[w.heat.pk]),
        "roster": reverse("teams:roster", args=[w.team.pk]),
        "lineup": reverse("teams:lineup", args=[w.team.pk, w.match.pk]),
    }


def entry_post(players, **over):
    data = {
        "name": "Uppsala 3",
        "captain_mid": players[0],
        "address": "Storgatan 1, 753 20 Uppsala",
        "phone": "070-123 45 67",
        "email": "kapten@example.se",
        "player_mids": "\n".join(players),
    }
    data.update(over)
    return data


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --- permissions -----------------------------------------------------------------------------

EXPECTED = {
    # role: statuses for (index, enter, roster, lineup)
    # a captain's "enter" is the page to ask the heat responsible (R-TEAM-REG-2)
    "captain": (200, 200, 200, 200),
    "heat_responsible": (200, 200, 200, 200),
    "club_official": (200, 200, 200, 200),  # an official of the arranging club
    "other_captain": (200, 200, 403, 403),
    "tk": (200, 200, 200, 200),
}


def user_for(role, w):
    return {
        "captain": w.captain,
        "heat_responsible": w.responsible,
        "club_official": w.official,
        "other_captain": w.other_captain,
        "tk": w.tk,
    }[role]


@pytest.mark.parametrize("role", sorted(EXPECTED))
def test_permission_matrix(w, client, role):
    client.force_login(user_for(role, w))
    got = tuple(client.get(u).status_code for u in urls(w).values())
    assert got == EXPECTED[role]


@pytest.mark.parametrize("page", ["index", "enter", "roster", "lineup"])
def test_anonymous_is_sent_to_login(w, client, page):
    url = urls(w)[page]
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login")) and "next=" in response.url


def test_other_captain_cannot_post_and_nothing_is_saved(w, client):
    client.force_login(w.other_captain)
    new = mids(w, 1)
    before = snapshot()
    assert client.post(urls(w)["roster"], {"action": "roster", "add_mids": new[0]}).status_code == (
        403
    )
    four = roster_mids(w.team)[:4]
    response = client.post(urls(w)["lineup"], {"half1": four, "half2": four})
    assert response.status_code == 403
    assert snapshot() == before


def test_index_lists_own_teams_only_for_a_captain(w, client):
    client.force_login(w.captain)
    html = client.get(urls(w)["index"]).content.decode()
    assert "Uppsala 1" in html and "Enköping 1" not in html
    assert reverse("teams:roster", args=[w.team.pk]) in html
    assert reverse("teams:lineup", args=[w.team.pk, w.match.pk]) in html
    # the roster with name, MID and club
    captain = w.team.captain
    assert captain.mid in html and captain.full_name in html
    club = captain.representations.get().club.name
    assert club in html
    # a captain may not enter teams: the heats open for entry are offered to ask the heat
    # responsible instead (R-TEAM-REG-2, teams/test_entry_requests.py)
    assert "Anmäl lag till heatansvarig" in html


def test_index_for_heat_responsible_and_tk(w, client):
    client.force_login(w.responsible)
    html = client.get(urls(w)["index"]).content.decode()
    assert "Uppsala 1" in html and "Uppsala 2" in html and "Enköping 1" not in html
    assert reverse("teams:enter", args=[w.heat.pk]) in html
    client.force_login(w.tk)
    html = client.get(urls(w)["index"]).content.decode()
    assert "Enköping 1" in html and reverse("teams:enter", args=[w.other_heat.pk]) in html


# --- entering a team -----------------------------------------------------------------------


def test_enter_team_writes_the_team_and_its_roster(w, client):
    client.force_login(w.responsible)
    players = mids(w, 5)
    number = max(w.team.number, w.opponent.number) + 1
    response = client.post(urls(w)["enter"], entry_post(players), follow=True)
    assert response.status_code == 200
    team = Team.objects.get(name="Uppsala 3")
    assert team.heat == w.heat and team.number == number
    assert roster_mids(team) == players
    assert any(
        f"Uppsala 3 är anmält till {w.heat.name} som lag nr {number}" in m
        for m in messages_of(response)
    )


def test_enter_team_shows_the_warnings(w, client):
    # R-GEN-2 unpaid member, R-TEAM-3 district balance (dispensation requested)
    client.force_login(w.official)
    players = mids(w, 2) + mids(w, 2, club=w.sth) + mids(w, 1, club=w.sth, paid=False)
    response = client.post(urls(w)["enter"], entry_post(players), follow=True)
    shown = " ".join(messages_of(response))
    assert "(R-GEN-2)" in shown and "(R-TEAM-3)" in shown and "dispens" in shown
    team = Team.objects.get(name="Uppsala 3")
    assert team.dispensations.get().status == Dispensation.Status.REQUESTED
    # the index says the team may not start until TK grants the dispensation
    html = response.content.decode()
    assert "Får inte starta" in html and "Dispens: begärd" in html


def test_enter_team_refuses_a_player_on_another_team(w, client):
    # R-TEAM-RES-2: refused for the heat responsible (only TK, with a reason, may allow it)
    client.force_login(w.responsible)
    players = mids(w, 3) + roster_mids(w.other_team)[:1]
    response = client.post(urls(w)["enter"], entry_post(players), follow=True)
    shown = " ".join(response.context["errors"])
    assert "(R-TEAM-RES-2)" in shown and "Enköping 1" in shown
    assert not Team.objects.filter(name="Uppsala 3").exists()


@pytest.mark.parametrize(
    "case, clause, words",
    [
        ("three_players", "R-TEAM-2", None),
        ("unknown_mid", "R-TEAM-REG-2", "Okänt MID"),
        ("no_address", "R-TEAM-REG-2", "saknar adress"),
    ],
)
def test_refused_entry_shows_the_clause_and_saves_nothing(w, client, case, clause, words):
    client.force_login(w.responsible)
    players = mids(w, 3) if case == "three_players" else mids(w, 3) + ["999999"]
    data = entry_post(players, **({"address": ""} if case == "no_address" else {}))
    if case == "no_address":
        data["player_mids"] = "\n".join(mids(w, 4))
    before = snapshot()
    response = client.post(urls(w)["enter"], data)
    assert response.status_code == 400
    errors = response.context["errors"]
    assert any(e.endswith(f"({clause})") for e in errors), errors
    if words:
        assert words in " ".join(errors)
    assert "Inget har ändrats" in response.content.decode()
    assert snapshot() == before


# --- roster ----------------------------------------------------------------------------------


def test_roster_change_adds_and_removes(w, client):
    client.force_login(w.captain)
    old = roster_mids(w.team)
    new = mids(w, 1)
    response = client.post(
        urls(w)["roster"], {"action": "roster", "add_mids": new[0], "remove_mids": old[-2:]}
    )
    assert response.status_code == 302
    assert roster_mids(w.team) == old[:-2] + new


def test_roster_change_refused_below_four_players(w, client):
    client.force_login(w.responsible)
    before = snapshot()
    team = w.opponent  # 4 players
    url = reverse("teams:roster", args=[team.pk])
    response = client.post(url, {"action": "roster", "remove_mids": roster_mids(team)[:1]})
    assert response.status_code == 400
    assert any(e.endswith("(R-TEAM-2)") for e in response.context["errors"])
    assert snapshot() == before


def test_roster_change_refused_unknown_mid(w, client):
    client.force_login(w.captain)
    w.team.roster.order_by("-id").first().delete()
    before = snapshot()
    response = client.post(urls(w)["roster"], {"action": "roster", "add_mids": "999999"})
    assert response.status_code == 400
    assert "Okänt MID" in response.content.decode() and "999999" in response.content.decode()
    assert snapshot() == before


def test_roster_form_needs_something_to_change(w, client):
    client.force_login(w.captain)
    before = snapshot()
    response = client.post(urls(w)["roster"], {"action": "roster"})
    assert response.status_code == 400
    assert "minst en spelare" in response.content.decode()
    assert snapshot() == before


def test_request_extra_player(w, client):
    # R-TEAM-5: a 7th player asked for one occasion
    client.force_login(w.captain)
    seventh = mids(w, 1)[0]
    data = {
        "action": "extra",
        "mid": seventh,
        "occasion_date": "2016-11-05",
    }
    response = client.post(urls(w)["roster"], data, follow=True)
    d = Dispensation.objects.get(kind=Dispensation.Kind.EXTRA_PLAYER)
    assert (d.team, d.player.mid, d.occasion_date) == (w.team, seventh, date(2016, 11, 5))
    assert d.status == Dispensation.Status.REQUESTED
    assert "Rond 1: Uppsala 1 – Uppsala 2" in response.content.decode()
    # the same request twice is refused (R-TEAM-5) and nothing more is saved
    before = snapshot()
    response = client.post(urls(w)["roster"], data)
    assert response.status_code == 400
    assert any(e.endswith("(R-TEAM-5)") for e in response.context["errors"])
    assert snapshot() == before


def test_request_extra_player_refused_after_the_date(w, client):
    client.force_login(w.captain)
    before = snapshot()
    data = {
        "action": "extra",
        "mid": mids(w, 1)[0],
        "occasion_date": "2016-11-05",
    }
    with clock.frozen("2016-11-06"):
        response = client.post(urls(w)["roster"], data)
    assert response.status_code == 400
    assert "har redan varit" in " ".join(response.context["errors"])
    assert snapshot() == before


# --- line-ups --------------------------------------------------------------------------------


def test_record_lineup_writes_both_halves_and_shows_it(w, client):
    client.force_login(w.captain)
    r = roster_mids(w.team)
    response = client.post(urls(w)["lineup"], {"half1": r[:4], "half2": r[2:]}, follow=True)
    assert response.status_code == 200
    rows = set(Lineup.objects.filter(match=w.match, team=w.team).values_list("player__mid", "half"))
    assert rows == {(m, 1) for m in r[:4]} | {(m, 2) for m in r[2:]}
    assert "sparad" in " ".join(messages_of(response))
    html = response.content.decode()
    assert "Halvlek 2" in html and w.team.captain.full_name in html


def test_lineup_warnings_are_shown(w, client):
    # R-TEAM-RES-1: an unpaid player fielded is flagged, not refused
    client.force_login(w.responsible)
    unpaid = member(w.season, w.club, paid=False)
    team = TeamFactory(heat=w.heat, players=4, name="Uppsala 4")
    RosterEntry.objects.create(team=team, player=unpaid)
    match = MatchFactory(home=team, away=w.opponent, played_on=date(2016, 11, 5))
    four = roster_mids(team)[1:]
    url = reverse("teams:lineup", args=[team.pk, match.pk])
    response = client.post(url, {"half1": four, "half2": four}, follow=True)
    assert "(R-TEAM-RES-1)" in " ".join(messages_of(response))
    assert Lineup.objects.filter(match=match, team=team).count() == 8


def test_lineup_with_a_fifth_player_is_refused(w, client):
    client.force_login(w.captain)
    r = roster_mids(w.team)
    record_lineup(w.captain, w.match, w.team, half1_mids=r[:4], half2_mids=r[:4])
    before = snapshot()
    response = client.post(urls(w)["lineup"], {"half1": r[:5], "half2": r[:4]})
    assert response.status_code == 400
    errors = response.context["errors"]
    assert any(
        "Halvlek 1" in e and "fyra olika spelare" in e and e.endswith("(R-TEAM-2)") for e in errors
    )
    assert snapshot() == before


def test_one_segment_match_has_one_line_up(w, client):
    w.match.halves, w.match.boards = 1, 12
    w.match.save()
    client.force_login(w.captain)
    response = client.get(urls(w)["lineup"])
    assert "half1" in response.context["form"].fields
    assert "half2" not in response.context["form"].fields
    r = roster_mids(w.team)
    assert client.post(urls(w)["lineup"], {"half1": r[:4]}).status_code == 302
    assert set(Lineup.objects.filter(team=w.team).values_list("half", flat=True)) == {1}


def test_lineup_of_a_match_the_team_does_not_play_is_404(w, client):
    client.force_login(w.tk)
    url = reverse("teams:lineup", args=[w.other_team.pk, w.match.pk])
    assert client.get(url).status_code == 404


# --- the index: same status as the services, in a constant number of queries ---------------


def _varied_teams(w):
    """Teams whose status differs: a failing district balance (pending, then granted), a
    player outside UBF fielded (R-TEAM-4), an unpaid member, a withdrawn team."""
    balance = TeamFactory(heat=w.heat, players=1, name="Balans", captain=p(w, club=w.sth))
    for _ in range(2):
        RosterEntry.objects.create(team=balance, player=p(w, club=w.sth))
    RosterEntry.objects.create(team=balance, player=p(w))
    Dispensation.objects.create(
        kind=Dispensation.Kind.DISTRICT_BALANCE, team=balance, status="granted"
    )
    Dispensation.objects.create(
        kind=Dispensation.Kind.DISTRICT_BALANCE, team=balance, status="requested"
    )
    mixed = TeamFactory(heat=w.heat, players=4, name="Blandat")
    outsider = p(w, club=w.sth)
    RosterEntry.objects.create(team=mixed, player=outsider)
    match = MatchFactory(home=mixed, away=w.opponent, played_on=date(2016, 11, 5))
    four = roster_mids(mixed)[1:]
    record_lineup(w.tk, match, mixed, half1_mids=four, half2_mids=four)
    unpaid = TeamFactory(heat=w.heat, players=3, name="Obetalt")
    RosterEntry.objects.create(team=unpaid, player=p(w, paid=False))
    withdrawn = TeamFactory(heat=w.heat, players=4, name="Återtaget", status="withdrawn")
    return [balance, mixed, unpaid, withdrawn]


def test_index_status_follows_the_rules(w):
    # Expected by hand from the rosters built in _varied_teams (R-TEAM-2, R-TEAM-3, R-TEAM-4):
    # - "Balans": 3 STH players (captain + 2) against 1 UBF player, so the district balance
    #   fails (R-TEAM-3); its latest dispensation (the one created last) is only requested, so
    #   it may not start. Nobody fielded yet: still DM/SM, but no bonus (roster outside UBF).
    # - "Blandat": 4 UBF + 1 STH on the roster (balance 4 >= 1); the STH player was fielded,
    #   so the team competes for SM places only (R-TEAM-4) and may start.
    # - "Obetalt": 4 UBF players, one unpaid (a penalty matter, R-TEAM-RES-1, not a start
    #   refusal): may start, DM/SM, bonus.
    # - "Återtaget": withdrawn, so it may not start (R-TEAM-2 reason).
    # - "Uppsala 1" (6 UBF), "Uppsala 2" (4 UBF): may start, DM/SM, bonus.
    balance, mixed, unpaid, withdrawn = _varied_teams(w)
    rows = {r.team.pk: r for r in team_rows(Team.objects.all(), w.season)}
    expected = {
        # team: (may_start, clauses of the reasons, DM label, bonus eligible)
        balance: (False, ["R-TEAM-3"], "DM/SM", False),
        mixed: (True, [], "SM", False),
        unpaid: (True, [], "DM/SM", True),
        withdrawn: (False, ["R-TEAM-2"], "DM/SM", True),
        w.team: (True, [], "DM/SM", True),
        w.opponent: (True, [], "DM/SM", True),
    }
    for team, (may_start, clauses, label, bonus) in expected.items():
        row = rows[team.pk]
        got = (row.may_start, [v.clause for v in row.reasons], row.dm.label)
        assert got == (may_start, clauses, label), team.name
        assert row.dm.bonus_eligible is bonus, team.name
    assert "Dispens: begärd" in rows[balance.pk].reasons[0].message_sv
    # the single-team services give the same answer for one team
    assert team_may_start(balance) == (False, rows[balance.pk].reasons)
    assert team_dm_status(mixed).label == "SM"


def _count_index_queries(client, user) -> int:
    client.force_login(user)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("teams:index"))
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_index_query_count_does_not_grow_with_the_teams(w, client):
    one = _count_index_queries(client, w.other_captain)  # one team
    responsible = UserFactory()
    w.other_heat.responsible_user = responsible
    w.other_heat.save()
    _varied_teams(SimpleNamespace(**{**vars(w), "heat": w.other_heat}))
    many = _count_index_queries(client, responsible)  # five teams, with matches and line-ups
    assert len(team_rows(Team.objects.filter(heat=w.other_heat), w.season)) == 5
    assert many == one

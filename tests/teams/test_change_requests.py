"""Late roster changes and line-ups as change requests that TK decides (issue 11, item 2;
R-TEAM-2, R-TEAM-RES-2, R-GEN-3).

The dates, by hand: the heat "Lagkval" is played 5-6 Nov 2016 and "Uppsala 1" plays its one
match on 5 Nov, so its roster can change up to 6 Nov (the heat's last day) and the match's
line-up up to 5 Nov (``clubs.windows``). On 10 Nov both windows are closed: the captain is
refused and asks TK instead; on 20 Oct they are open and there is nothing to ask.

The clock is moved with ``clock.frozen``; nothing sleeps."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs import clock
from clubs.models import Decided, Decision
from clubs.services.base import ServiceError
from teams.models import Lineup, RosterChangeRequest, RosterEntry
from teams.services.change_requests import decide_roster_change, request_roster_change
from teams.services.entries import record_lineup, update_roster
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    MatchFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    entry_world,
)
from tests.factories import world_member as p

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]

LATE = "2016-11-10 10:00"
EARLY = "2016-10-20 10:00"
WHY = "Karin Ek är sjuk; Per Ås ersätter henne i finalen."
TK_WHY = "Sjukintyg inkom till TK 9 nov; Per Ås har inte spelat för något annat lag."


@pytest.fixture(autouse=True)
def _late():
    with clock.frozen(LATE):
        yield


@pytest.fixture
def w():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = TeamCompetitionFactory(season=season)
    heat = TeamHeatFactory(competition=comp, organisers=[club], name="Lagkval Uppsala")
    other_club = ClubFactory(name="Enköpings BK")
    other_heat = TeamHeatFactory(competition=comp, organisers=[other_club], name="Lagkval E")
    w = entry_world(season, club, comp=comp, heat=heat, other_heat=other_heat)
    w.other_official = ClubOfficialFactory(club=other_club).user
    w.captain = UserFactory()
    w.team = TeamFactory(heat=heat, players=5, captain_user=w.captain, name="Uppsala 1")
    w.opponent = TeamFactory(heat=heat, players=4, name="Uppsala 2")
    w.match = MatchFactory(home=w.team, away=w.opponent, played_on=date(2016, 11, 5))
    w.other_team = TeamFactory(heat=other_heat, players=4, name="Enköping 1")
    w.other_match = MatchFactory(
        home=w.other_team,
        away=TeamFactory(heat=other_heat, players=4, name="Enköping 2"),
        played_on=date(2016, 11, 5),
    )
    return w


def roster(team) -> list[str]:
    return list(team.roster.order_by("id").values_list("player__mid", flat=True))


def snapshot():
    return (
        sorted(RosterEntry.objects.values_list("team_id", "player_id", "is_extra")),
        sorted(Lineup.objects.values_list("match_id", "team_id", "player_id", "half")),
        RosterChangeRequest.objects.count(),
        sorted(RosterChangeRequest.objects.values_list("pk", "status")),
        Decision.objects.count(),
    )


def refusal(call) -> ServiceError:
    before = snapshot()
    with pytest.raises(ServiceError) as exc:
        call()
    assert snapshot() == before, "a refusal saved something"
    return exc.value


def text(exc: ServiceError) -> str:
    return " ".join(exc.messages("sv"))


def ask_swap(w, user=None, **kw):
    """The captain asks to replace the team's last player with a new member."""
    old = roster(w.team)
    new = p(w).mid
    req = request_roster_change(
        user or w.captain, w.team, add_mids=[new], remove_mids=[old[-1]], reason=WHY, **kw
    )
    return req, old, new


# --- asking ----------------------------------------------------------------------------------


def test_late_roster_change_is_refused_and_asked_of_tk_instead(w):
    old = roster(w.team)
    new = p(w).mid
    exc = refusal(lambda: update_roster(w.captain, w.team, add_mids=[new], remove_mids=[old[-1]]))
    assert "(R-TEAM-2)" in text(exc) and "2016-11-06" in text(exc)

    req = request_roster_change(
        w.captain, w.team, add_mids=[new], remove_mids=[old[-1]], reason=f"  {WHY} "
    )
    req.refresh_from_db()
    assert (req.team, req.kind, req.status) == (w.team, "roster", Decided.Status.REQUESTED)
    assert req.request_reason == WHY
    assert req.requested_by == w.captain
    assert req.requested_at.date() == date(2016, 11, 10)  # the one clock, not the machine's
    asked = sorted(req.players.values_list("player__mid", "role"))
    assert asked == sorted([(new, "add"), (old[-1], "remove")])
    assert roster(w.team) == old  # nothing changes until TK decides
    assert not Decision.objects.filter(action__startswith="teams.roster").exists()
    assert str(req) == "Uppsala 1: ändring av spelartruppen (begärd)"


def test_the_heat_responsible_club_official_may_ask(w):
    req, _, _ = ask_swap(w, user=w.official)
    assert req.requested_by == w.official


def test_request_while_the_window_is_open_says_make_the_change_directly(w):
    with clock.frozen(EARLY):
        exc = refusal(lambda: ask_swap(w))
    assert "gör ändringen direkt" in text(exc)
    assert "2016-11-06" in text(exc) and "(R-TEAM-2)" in text(exc)


def test_request_needs_the_askers_reason(w):
    old = roster(w.team)
    exc = refusal(
        lambda: request_roster_change(
            w.captain, w.team, add_mids=[p(w).mid], remove_mids=[old[-1]], reason="  "
        )
    )
    assert "Skriv varför ändringen behövs" in text(exc)


def test_request_for_a_player_who_played_for_another_team_is_refused(w):
    # R-TEAM-RES-2: he played for Enköping 1 on 5 Nov; a team that fields him is disqualified
    played = p(w)
    Lineup.objects.create(match=w.other_match, team=w.other_team, player=played, half=1)
    exc = refusal(
        lambda: request_roster_change(w.captain, w.team, add_mids=[played.mid], reason=WHY)
    )
    assert "har redan spelat för Enköping 1" in text(exc)
    assert "(R-TEAM-RES-2)" in text(exc)


def test_request_checks_the_roster_size_as_a_direct_change_does(w):
    # R-TEAM-2: 5 players less 2 is 3, below the 4 a team must have
    two = roster(w.team)[-2:]
    exc = refusal(lambda: request_roster_change(w.captain, w.team, remove_mids=two, reason=WHY))
    assert "(R-TEAM-2)" in text(exc)


def test_another_clubs_official_cannot_ask(w):
    before = snapshot()
    with pytest.raises(PermissionDenied):
        ask_swap(w, user=w.other_official)
    assert snapshot() == before


def test_tk_does_not_ask_but_changes_directly(w):
    exc = refusal(lambda: ask_swap(w, user=w.tk))
    assert "gör ändringen direkt" in text(exc)


def test_a_second_request_waits_for_the_first(w):
    ask_swap(w)
    exc = refusal(lambda: ask_swap(w))
    assert "redan en obesvarad ändringsbegäran" in text(exc)


# --- TK decides ------------------------------------------------------------------------------


def test_tk_approves_and_the_roster_changes_with_the_decision_recorded(w):
    req, old, new = ask_swap(w)
    decide_roster_change(w.tk, req, True, TK_WHY)

    assert roster(w.team) == old[:-1] + [new]
    req.refresh_from_db()
    assert (req.status, req.decided_by, req.reason) == (Decided.Status.GRANTED, w.tk, TK_WHY)
    assert req.decided_at.date() == date(2016, 11, 10)
    granted = Decision.objects.get(action="teams.roster_change.granted")
    assert (granted.reason, granted.clause, granted.decided_by) == (TK_WHY, "R-TEAM-2", w.tk)
    assert granted.data["add"] == [new] and granted.data["remove"] == [old[-1]]
    # made by the direct change's service as TK after the window, which records that too
    late = Decision.objects.get(action="teams.roster.outside_window")
    assert (late.reason, late.object_id) == (TK_WHY, w.team.pk)


def test_tk_rejects_and_nothing_changes_but_the_decision_is_recorded(w):
    req, old, _ = ask_swap(w)
    decide_roster_change(w.tk, req, False, "Laget har spelat klart; ingen match kvar.")

    assert roster(w.team) == old
    req.refresh_from_db()
    assert req.status == Decided.Status.REJECTED
    assert req.reason == "Laget har spelat klart; ingen match kvar."
    rejected = Decision.objects.get(action="teams.roster_change.rejected")
    assert rejected.reason == "Laget har spelat klart; ingen match kvar."
    assert not Decision.objects.filter(action="teams.roster.outside_window").exists()


@pytest.mark.parametrize("approve", [True, False])
def test_tk_decides_with_a_reason(w, approve):
    req, _, _ = ask_swap(w)
    exc = refusal(lambda: decide_roster_change(w.tk, req, approve, " "))
    assert "(R-GEN-3)" in text(exc)


@pytest.mark.parametrize("who", ["captain", "official", "other_official"])
def test_only_tk_decides(w, who):
    req, old, _ = ask_swap(w)
    before = snapshot()
    with pytest.raises(PermissionDenied):
        decide_roster_change(getattr(w, who), req, True, TK_WHY)
    assert snapshot() == before
    req.refresh_from_db()
    assert req.status == Decided.Status.REQUESTED


def test_a_decided_request_is_not_decided_again(w):
    req, _, _ = ask_swap(w)
    decide_roster_change(w.tk, req, False, "Nej.")
    exc = refusal(lambda: decide_roster_change(w.tk, req, True, TK_WHY))
    assert "redan avslagen" in text(exc)


def test_approval_checks_everything_again(w):
    # Between the request and TK's decision the new player plays for Enköping 1 (R-TEAM-RES-2):
    # the approval is refused, nothing changes and the request still waits.
    req, old, new = ask_swap(w)
    Lineup.objects.create(
        match=w.other_match, team=w.other_team, player=req.players.get(role="add").player, half=1
    )
    exc = refusal(lambda: decide_roster_change(w.tk, req, True, TK_WHY))
    assert "har redan spelat för Enköping 1" in text(exc)
    assert roster(w.team) == old
    req.refresh_from_db()
    assert req.status == Decided.Status.REQUESTED


# --- line-ups of a match already played --------------------------------------------------------


def test_late_line_up_is_asked_of_tk_and_recorded_when_approved(w):
    r = roster(w.team)
    exc = refusal(lambda: record_lineup(w.captain, w.match, w.team, half1_mids=r[:4]))
    assert "(R-TEAM-2)" in text(exc) and "2016-11-05" in text(exc)

    req = request_roster_change(
        w.captain, w.team, match=w.match, half1_mids=r[:4], half2_mids=r[1:5], reason=WHY
    )
    assert (req.kind, req.match) == ("lineup", w.match)
    assert str(req) == "Uppsala 1: laguppställning i kval r1: Uppsala 1 – Uppsala 2 (begärd)"
    assert not Lineup.objects.exists()

    decide_roster_change(w.tk, req, True, TK_WHY)
    rows = set(Lineup.objects.filter(match=w.match, team=w.team).values_list("player__mid", "half"))
    assert rows == {(m, 1) for m in r[:4]} | {(m, 2) for m in r[1:5]}
    late = Decision.objects.get(action="teams.lineup.outside_window")
    assert (late.reason, late.object_id) == (TK_WHY, w.match.pk)
    assert Decision.objects.get(action="teams.roster_change.granted").data["half1"] == r[:4]


def test_line_up_request_checks_four_players_a_half(w):
    r = roster(w.team)
    exc = refusal(
        lambda: request_roster_change(
            w.captain, w.team, match=w.match, half1_mids=r[:3], half2_mids=r[:4], reason=WHY
        )
    )
    assert "fyra olika spelare" in text(exc) and "(R-TEAM-2)" in text(exc)


def test_line_up_request_while_the_match_is_ahead_says_record_it_directly(w):
    r = roster(w.team)
    with clock.frozen("2016-11-05 09:00"):
        exc = refusal(
            lambda: request_roster_change(
                w.captain, w.team, match=w.match, half1_mids=r[:4], half2_mids=r[:4], reason=WHY
            )
        )
    assert "gör ändringen direkt" in text(exc)


def test_another_clubs_official_cannot_ask_for_a_line_up(w):
    r = roster(w.team)
    with pytest.raises(PermissionDenied):
        request_roster_change(w.other_official, w.team, match=w.match, half1_mids=r[:4], reason=WHY)
    assert not RosterChangeRequest.objects.exists()


# --- pages -----------------------------------------------------------------------------------


def roster_url(w):
    return reverse("teams:roster", args=[w.team.pk])


def lineup_url(w):
    return reverse("teams:lineup", args=[w.team.pk, w.match.pk])


@pytest.mark.parametrize("url", [roster_url, lineup_url])
def test_the_page_offers_the_request_only_once_the_window_has_closed(w, client, url):
    client.force_login(w.captain)
    with clock.frozen(EARLY):
        html = client.get(url(w)).content.decode()
    assert "Begär ändring hos TK" not in html
    assert "Stängt sedan" not in html
    html = client.get(url(w)).content.decode()
    assert "Stängt sedan" in html
    assert "Begär ändring hos TK" in html


def test_tk_sees_no_request_form_but_the_direct_one(w, client):
    client.force_login(w.tk)
    html = client.get(roster_url(w)).content.decode()
    assert "Begär ändring hos TK" not in html and "TK:s skäl" in html


def test_captain_asks_from_the_roster_page_and_sees_the_answer(w, client):
    client.force_login(w.captain)
    old = roster(w.team)
    new = p(w).mid
    data = {"action": "request", "add_mids": new, "remove_mids": [old[-1]], "request_reason": WHY}
    response = client.post(roster_url(w), data, follow=True)
    assert response.status_code == 200
    req = RosterChangeRequest.objects.get()
    assert sorted(req.players.values_list("player__mid", "role")) == sorted(
        [(new, "add"), (old[-1], "remove")]
    )
    html = response.content.decode()
    assert "begärd hos TK" in html and "begärd" in html and WHY in html

    decide_roster_change(w.tk, req, False, "Inga matcher kvar att spela.")
    html = client.get(roster_url(w)).content.decode()
    assert "avslagen" in html and "Inga matcher kvar att spela." in html


def test_a_refused_request_from_the_page_shows_why_and_saves_nothing(w, client):
    client.force_login(w.captain)
    played = p(w)
    Lineup.objects.create(match=w.other_match, team=w.other_team, player=played, half=1)
    before = snapshot()
    response = client.post(
        roster_url(w), {"action": "request", "add_mids": played.mid, "request_reason": WHY}
    )
    assert response.status_code == 400
    assert any(
        "Enköping 1" in e and e.endswith("(R-TEAM-RES-2)") for e in response.context["errors"]
    )
    assert snapshot() == before


def test_captain_asks_for_a_line_up_from_the_match_page(w, client):
    client.force_login(w.captain)
    r = roster(w.team)
    data = {"action": "request", "half1": r[:4], "half2": r[:4], "request_reason": WHY}
    response = client.post(lineup_url(w), data, follow=True)
    assert response.status_code == 200
    req = RosterChangeRequest.objects.get()
    assert (req.kind, req.match) == ("lineup", w.match)
    assert not Lineup.objects.exists()
    assert WHY in response.content.decode()


def test_the_request_form_in_english(w, client):
    client.force_login(w.captain)
    html = client.get(roster_url(w) + "?lang=en").content.decode()
    assert "Ask TK for a change" in html


# --- the admin: TK decides there through the service -------------------------------------------


def test_tk_approves_in_the_admin_with_a_reason(w, client):
    req, old, new = ask_swap(w)
    client.force_login(w.tk)
    url = reverse("admin:teams_rosterchangerequest_changelist")
    data = {"action": "approve_requests", "_selected_action": [req.pk], "reason": TK_WHY}
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    assert roster(w.team) == old[:-1] + [new]
    assert Decision.objects.get(action="teams.roster_change.granted").reason == TK_WHY


def test_admin_reject_without_a_reason_changes_nothing(w, client):
    req, old, _ = ask_swap(w)
    client.force_login(w.tk)
    url = reverse("admin:teams_rosterchangerequest_changelist")
    data = {"action": "reject_requests", "_selected_action": [req.pk], "reason": ""}
    response = client.post(url, data, follow=True)
    assert "(R-GEN-3)" in response.content.decode()
    req.refresh_from_db()
    assert req.status == Decided.Status.REQUESTED


def test_the_decision_fields_are_read_only_in_the_admin(w, client):
    req, _, _ = ask_swap(w)
    client.force_login(w.tk)
    url = reverse("admin:teams_rosterchangerequest_change", args=[req.pk])
    form = client.get(url).context["adminform"].form
    for name in ("status", "reason", "decided_by", "decided_at", "request_reason", "team"):
        assert name not in form.fields, name


def test_refusals_in_english(w):
    with clock.frozen(EARLY):
        exc = refusal(lambda: ask_swap(w))
    assert "make the change directly" in " ".join(exc.messages("en"))
    assert "(R-TEAM-2)" in " ".join(exc.messages("en"))


# --- TK's work queue (/tk/) ------------------------------------------------------------------


def _queue_section(client) -> str:
    html = client.get("/tk/").content.decode()
    return html.split('id="roster_changes"')[1].split("</section>")[0]


def test_a_waiting_request_is_on_tks_queue_until_decided(w, client):
    req, old, new = ask_swap(w)
    client.force_login(w.tk)
    html = _queue_section(client)
    assert "Uppsala 1" in html and "R-TEAM-2" in html
    assert f"Lagets motivering: {WHY}" in html
    added = req.players.get(role="add").player.full_name
    assert f"läggs till: {added}" in html
    assert f"/admin/teams/rosterchangerequest/{req.pk}/change/" in html
    decide_roster_change(w.tk, req, False, "Nej.")
    assert "Inget väntar." in _queue_section(client)


def test_the_queue_reads_the_requests_in_a_fixed_number_of_queries(w, client):
    client.force_login(w.tk)
    ask_swap(w)

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/tk/").status_code == 200
        return len(ctx.captured_queries)

    one = count()
    r = roster(w.opponent)
    request_roster_change(
        w.official, w.opponent, match=w.match, half1_mids=r, half2_mids=r, reason=WHY
    )
    assert count() == one


def test_tk_approves_from_the_queue_and_the_roster_changes(w, client):
    """R-TEAM-2, R-GEN-3: the request decided from /tk/ goes through decide_roster_change:
    approved, the asked-for player is on the roster; the reason is recorded."""
    req, old, new = ask_swap(w)
    client.force_login(w.tk)
    added = req.players.get(role="add").player
    page = client.post(
        "/tk/beslut/",
        {"action": "roster_change", "pk": req.pk, "decision": "yes", "reason": "Styrkt flytt."},
        follow=True,
    ).content.decode()
    req.refresh_from_db()
    assert req.status == RosterChangeRequest.Status.GRANTED and req.reason == "Styrkt flytt."
    assert req.team.roster.filter(player=added).exists()
    assert "godkänd och genomförd" in page

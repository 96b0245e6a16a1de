"""Issue 11 in a browser: on the demo as ``make demo`` starts it (the Makefile's DEMO_DATE, the
demo's users), a club official registers a pair heat and a captain changes a roster for a
match not yet played; both see the deadline that applies (clubs.windows.label), on a phone.
A change the window forbids is refused in Swedish with its clause, and nothing is saved: the
line-up of a match already played, and the roster once TK has moved the demo clock (in the
admin) past the heat's last day."""

from datetime import date

import pytest

from clubs import clock
from pairs.models import PairHeat
from teams.models import Lineup, Match, RosterChangeRequest, Team
from tests.browser.helpers import click_and_wait, fits_width, load_demo, login
from ubf.demo.season import PASSWORDS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(settings):
    load_demo(settings)
    assert clock.today() == date(2016, 11, 18)


def test_club_official_registers_a_pair_heat_on_a_phone(demo, phone, screens):
    shot = screens(phone)
    login(phone, "klubb", PASSWORDS["klubb"], next_url="/klubb/")
    assert "Demo: datum 18 november 2016" in phone.inner_text("#demo-clock")
    assert "Enköpings BK" in phone.inner_text("main")
    shot("dashboard")
    click_and_wait(phone, phone.get_by_role("link", name="Anmäl kvalheat (par)"))
    # The deadline that applies, per competition: Open is open until 1 Dec 2016
    # (R-PAIR-KVAL-1); Mixed closed on 15 Sep.
    deadlines = phone.inner_text("#deadlines")
    assert "DM Par Open 2016-2017: Anmälan av kvalheat stänger 1 dec" in deadlines
    assert "DM Par Mixed 2016-2017: Stängt sedan 15 sep" in deadlines
    shot("form")
    assert fits_width(phone)

    phone.get_by_label("Tävling").select_option(label="DM Par Open 2016-2017")
    assert phone.get_by_label("Enköpings BK").is_checked()  # the official's only club
    phone.get_by_label("Heatets namn").fill("Enköpings vårkval")
    phone.get_by_label("Typ av kval").select_option(label="silverkval")
    phone.get_by_label("Spelplats").fill("Enköpings bridgelokal")
    phone.get_by_label("Speltillfälle 1").fill("2017-02-26")
    phone.get_by_label("Bordsavgift per spelare (kr)").fill("40")
    phone.get_by_label("Inbjudan (länk)").fill("https://example.se/inbjudan.pdf")
    shot("filled")
    click_and_wait(phone, phone.get_by_role("button", name="Skicka anmälan"))

    assert phone.url.endswith("/klubb/")
    main = phone.inner_text("main")
    assert "Kvalheatet Enköpings vårkval är anmält till UBF TK och väntar på beslut." in main
    row = phone.get_by_role("row").filter(has_text="Enköpings vårkval")
    assert "2017-02-26" in row.inner_text()
    shot("registered")
    assert fits_width(phone)

    heat = PairHeat.objects.get(name="Enköpings vårkval")
    assert heat.competition.discipline == "open"
    assert [c.name for c in heat.clubs.all()] == ["Enköpings BK"]
    assert heat.first_date == date(2017, 2, 26)
    assert heat.registered_on == date(2016, 11, 18)  # the demo's "today"
    assert str(heat.table_fee) == "40.00"


def test_captain_changes_the_roster_before_the_last_matches_on_a_phone(demo, phone, screens):
    shot = screens(phone)
    team = Team.objects.get(name="Fyris", captain_user__username="kapten")
    regulars = set(team.roster.filter(is_extra=False).values_list("player__mid", flat=True))
    assert len(regulars) == 6  # the demo's Fyris
    login(phone, "kapten", PASSWORDS["kapten"], next_url="/mitt-lag/")
    shot("my-team")
    click_and_wait(phone, phone.get_by_role("link", name="Ändra spelartruppen"))
    # R-TEAM-2: open until the team's last match day. Lagkval Uppsala BK's last day is 19 Nov
    # 2016: Fyris plays rounds 4 and 5 then (the final's teams are set once the heats are in).
    assert phone.inner_text("#deadline") == "Ändring av spelartruppen stänger 19 nov"
    assert fits_width(phone)
    shot("roster")

    leaving = team.roster.exclude(player=team.captain).filter(is_extra=False).first().player
    phone.get_by_label(f"{leaving.full_name} ({leaving.mid})").check()
    click_and_wait(phone, phone.get_by_role("button", name="Spara ändringen"))

    assert "Spelartruppen är ändrad." in phone.inner_text("main")
    assert leaving.mid not in phone.inner_text("table")
    shot("removed")
    assert set(team.roster.filter(is_extra=False).values_list("player__mid", flat=True)) == (
        regulars - {leaving.mid}
    )

    # And back again, typed by MID, as the form asks.
    phone.get_by_label("Lägg till spelare").fill(leaving.mid)
    click_and_wait(phone, phone.get_by_role("button", name="Spara ändringen"))
    assert "Spelartruppen är ändrad." in phone.inner_text("main")
    assert f"{leaving.full_name}\t{leaving.mid}" in phone.inner_text("table")
    shot("added")
    assert fits_width(phone)
    assert set(team.roster.filter(is_extra=False).values_list("player__mid", flat=True)) == (
        regulars
    )


def test_captain_asks_tk_for_a_lineup_of_a_match_already_played(demo, page, screens):
    """R-TEAM-2: the line-up of a played match can no longer be saved by the captain; the page
    says since when, and offers to ask TK instead. The request waits for TK; nothing changes."""
    shot = screens(page)
    team = Team.objects.get(name="Fyris", captain_user__username="kapten")
    played = Match.objects.get(home=team, played_on=date(2016, 10, 22))  # round 1, vs BK Ess
    before = list(Lineup.objects.filter(match=played, team=team).values_list("player_id", "half"))
    login(page, "kapten", PASSWORDS["kapten"], next_url="/mitt-lag/")
    click_and_wait(page, page.get_by_role("link", name="kval r1: Fyris – BK Ess"))
    assert page.inner_text("#deadline") == "Stängt sedan 22 okt"
    assert page.get_by_role("button", name="Spara laguppställningen").count() == 0
    shot("lineup")
    # The demo recorded no line-up for it: ask for the first four regulars in both halves.
    for half in ("half1", "half2"):
        boxes = page.locator(f"input[name={half}]")
        for i in range(boxes.count()):
            boxes.nth(i).set_checked(i < 4)
    page.get_by_label("Varför behövs ändringen?").fill("Laguppställningen lämnades aldrig in.")
    click_and_wait(page, page.get_by_role("button", name="Begär ändring hos TK"))

    requests = page.inner_text("#change-requests")
    assert "begärd" in requests and "Laguppställningen lämnades aldrig in." in requests
    shot("asked")
    asked = RosterChangeRequest.objects.get(team=team, match=played)
    assert asked.status == RosterChangeRequest.Status.REQUESTED
    after = list(Lineup.objects.filter(match=played, team=team).values_list("player_id", "half"))
    assert after == before


def test_tk_moves_the_demo_clock_and_the_captain_finds_the_roster_closed(
    demo, page, phone, screens
):
    # TK, in the admin: the demo's date moves to the day after Lagkval Uppsala BK (19 Nov).
    login(page, "tk", PASSWORDS["tk"], next_url="/admin/clubs/democlock/1/change/")
    page.get_by_label("Demodatum").fill("2016-11-20")
    click_and_wait(page, page.get_by_role("button", name="Spara", exact=True))
    assert "Demo: datum 20 november 2016" in page.inner_text("#demo-clock")
    assert clock.today() == date(2016, 11, 20)

    # The captain, on a phone: the roster is closed; the change can only be asked of TK.
    shot = screens(phone)
    team = Team.objects.get(name="Fyris", captain_user__username="kapten")
    before = sorted(team.roster.values_list("player__mid", flat=True))
    login(phone, "kapten", PASSWORDS["kapten"], next_url=f"/mitt-lag/{team.pk}/laguppstallning/")
    assert phone.inner_text("#deadline") == "Stängt sedan 19 nov"
    assert phone.get_by_role("button", name="Spara ändringen").count() == 0
    leaving = team.roster.exclude(player=team.captain).filter(is_extra=False).first().player
    phone.get_by_label(f"{leaving.full_name} ({leaving.mid})").check()
    phone.get_by_label("Varför behövs ändringen?").fill("Flyttar till Göteborg.")
    click_and_wait(phone, phone.get_by_role("button", name="Begär ändring hos TK"))

    requests = phone.inner_text("#change-requests")
    assert "begärd" in requests and leaving.full_name in requests
    assert "Flyttar till Göteborg." in requests
    shot("asked")
    assert fits_width(phone)
    assert RosterChangeRequest.objects.get(team=team).status == "requested"
    assert sorted(team.roster.values_list("player__mid", flat=True)) == before

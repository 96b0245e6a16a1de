"""The public home page (/), the calendar (/kalender/) and its ICS feeds, the archive by
season (?season=), HEAD on every public page, and figures and days in the reader's language."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from icalendar import Calendar

from clubs import clock
from clubs.models import HeatStatus
from results.models import StandingSnapshot
from tests.factories import (
    PairCompetitionFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    accepted_upload,
)

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return response.content.decode()


# --- Home ------------------------------------------------------------------------------------


def test_home_shows_a_team_heat_open_for_entry_with_its_closing_day(client):
    # R-TEAM-REG-2: a team enters by the heat's last entry day, 29 Oct here.
    TeamHeatFactory(
        name="Lagkval Tierp", first_date=date(2016, 11, 5), entries_close=date(2016, 10, 29)
    )
    with clock.frozen("2016-10-20"):
        html = _text(client.get("/"))
    assert "Öppet för anmälan" in html
    assert "Lagkval Tierp" in html
    assert "Anmälan stänger 29 okt" in html


def test_home_lists_eight_open_heats_the_soonest_first_and_counts_the_rest(client):
    # A national season has many heats open at once: the home page lists the first 8 played
    # and links the calendar for the other 3.
    for day in range(11, 0, -1):
        TeamHeatFactory(
            name=f"Lagkval {day:02d}",
            first_date=date(2016, 11, day),
            last_date=date(2016, 11, day),
            entries_close=date(2016, 10, 29),
        )
    with clock.frozen("2016-10-20"):
        html = _text(client.get("/"))
        english = _text(client.get("/?lang=en"))
    section = html.split('id="oppet"')[1].split("</section>")[0]
    assert [f"Lagkval {d:02d}" in section for d in range(1, 12)] == [True] * 8 + [False] * 3
    assert '<a href="/kalender/">3 heat till tar emot anmälningar – se kalendern</a>' in section
    assert "3 more heats take entries – see the calendar" in english


def test_home_does_not_show_the_heat_once_entries_have_closed(client):
    TeamHeatFactory(
        name="Lagkval Tierp", first_date=date(2016, 11, 5), entries_close=date(2016, 10, 29)
    )
    with clock.frozen("2016-10-30"):
        html = _text(client.get("/"))
    section = html.split('id="oppet"')[1].split("</section>")[0]
    assert "Lagkval Tierp" not in section
    assert "Inget heat tar emot anmälningar i dag." in section


def test_home_does_not_offer_entry_to_a_heat_tk_has_not_approved(client):
    PairHeatFactory(name="Kval Östhammar", status=HeatStatus.APPLIED)
    with clock.frozen("2017-01-10"):
        html = _text(client.get("/"))
    section = html.split('id="oppet"')[1].split("</section>")[0]
    assert "Kval Östhammar" not in section


def test_home_lists_the_next_heats_and_finals_in_date_order(client):
    comp = TeamCompetitionFactory(final_day1=date(2017, 3, 4), final_day2=date(2017, 3, 5))
    TeamHeatFactory(competition=comp, name="Kval B", first_date=date(2016, 12, 3), last_date=None)
    TeamHeatFactory(competition=comp, name="Kval A", first_date=date(2016, 11, 12), last_date=None)
    TeamHeatFactory(
        competition=comp, name="Kval spelat", first_date=date(2016, 10, 1), last_date=None
    )
    with clock.frozen("2016-11-01"):
        html = _text(client.get("/"))
    section = html.split('id="kommande"')[1].split("</section>")[0]
    assert "Kval spelat" not in section  # played before today
    assert section.index("Kval A") < section.index("Kval B") < section.index("Final, DM Lag")
    assert "12 nov 2016" in section and "4 mar–5 mar 2017" in section


def test_home_shows_the_latest_results_with_a_link_to_the_heat(client):
    heat = TeamHeatFactory(name="Lagkval Enköping")
    accepted_upload(heat.competition, heat)
    html = _text(client.get("/"))
    section = html.split('id="resultat"')[1].split("</section>")[0]
    assert "Lagkval Enköping" in section
    assert f"/lag/kval/{heat.pk}/" in section  # the heat's own page
    assert "spelat 6 nov 2016" in section


def test_home_page_in_english(client):
    TeamHeatFactory(first_date=date(2016, 11, 5), entries_close=date(2016, 10, 29))
    with clock.frozen("2016-10-20"):
        html = _text(client.get("/?lang=en"))
    assert "Open for entries" in html
    assert "Entry closes 29 Oct" in html  # clubs.windows.label, in English with its month
    assert "Upcoming heats and finals" in html


def test_nav_has_home_and_calendar(client):
    html = _text(client.get("/lag/"))
    assert '<a class="nav-link text-white" href="/">Hem</a>' in html
    assert '<a class="nav-link text-white" href="/kalender/">Kalender</a>' in html


# --- Calendar --------------------------------------------------------------------------------


def _season_with_events():
    season = SeasonFactory()
    team = TeamCompetitionFactory(season=season)
    TeamHeatFactory(
        competition=team,
        name="Lagkval Knivsta",
        venue="Centrumhuset, Knivsta",
        first_date=date(2017, 1, 21),
        last_date=date(2017, 1, 22),
    )
    mixed = PairCompetitionFactory(
        season=season,
        discipline="mixed",
        qualifying_start=date(2016, 10, 1),
        qualifying_end=date(2016, 11, 15),
        final_date=date(2016, 11, 26),
    )
    PairHeatFactory(
        competition=mixed,
        name="Mixedkval Enköping",
        venue="Enköpings bridgelokal",
        first_date=date(2016, 11, 6),
    )
    PairHeatFactory(
        competition=mixed,
        name="Mixedkval två dagar",
        first_date=date(2016, 10, 16),
        last_date=date(2016, 10, 23),
    )
    PairHeatFactory(
        competition=mixed, name="Mixedkval anmält", first_date=date(2016, 11, 1), status="applied"
    )
    PairHeatFactory(
        competition=mixed,
        name="Mixedkval inställt",
        first_date=date(2016, 11, 2),
        status="cancelled",
    )
    PairHeatFactory(
        competition=mixed,
        name="Mixedkval avslaget",
        first_date=date(2016, 11, 3),
        status="rejected",
    )
    return season, team, mixed


def test_calendar_lists_heats_and_finals_in_date_order(client):
    _season_with_events()
    html = _text(client.get("/kalender/"))
    table = html.split('id="kalender"')[1]
    order = [
        "Mixedkval två dagar",  # 16 Oct
        "Mixedkval anmält",  # 1 Nov
        "Mixedkval inställt",  # 2 Nov
        "Mixedkval Enköping",  # 6 Nov
        "Final",  # the Mixed final, 26 Nov
        "Lagkval Knivsta",  # 21 Jan
    ]
    positions = [table.index(name) for name in order]
    assert positions == sorted(positions)
    assert table.index("4 mar–5 mar 2017") > table.index("Lagkval Knivsta")  # the team final
    assert "16 okt 2016 och 23 okt 2016" in table  # a pair heat's two sessions
    assert "Mixedkval avslaget" not in table  # rejected heats are not shown
    assert "<del>Mixedkval inställt</del>" in table
    row = table.split("Mixedkval anmält")[1].split("</tr>")[0]
    assert "preliminärt, inte godkänt av TK" in row


def test_calendar_feed_parses_with_the_seasons_events_as_all_day_dates(client):
    _season_with_events()
    response = client.get("/kalender.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert b"DTSTART;VALUE=DATE:20161106" in response.content
    cal = Calendar.from_ical(response.content)
    events = {str(e["SUMMARY"]): e for e in cal.walk("VEVENT")}
    assert set(events) == {
        "DM Par Mixed: Mixedkval två dagar (1/2)",
        "DM Par Mixed: Mixedkval två dagar (2/2)",
        "DM Par Mixed: Mixedkval anmält",
        "DM Par Mixed: Mixedkval inställt",
        "DM Par Mixed: Mixedkval Enköping",
        "DM Par Mixed: Final",
        "DM Lag: Lagkval Knivsta",
        "DM Lag: Final",
    }
    enk = events["DM Par Mixed: Mixedkval Enköping"]
    assert enk.decoded("DTSTART") == date(2016, 11, 6)
    assert enk.decoded("DTEND") == date(2016, 11, 7)  # all-day: the next day, exclusive
    assert str(enk["LOCATION"]) == "Enköpings bridgelokal"
    assert str(enk["URL"]).startswith("http://testserver/par/kval/")
    final = events["DM Lag: Final"]
    assert (final.decoded("DTSTART"), final.decoded("DTEND")) == (
        date(2017, 3, 4),
        date(2017, 3, 6),
    )
    assert str(events["DM Par Mixed: Mixedkval anmält"]["STATUS"]) == "TENTATIVE"
    assert str(events["DM Par Mixed: Mixedkval inställt"]["STATUS"]) == "CANCELLED"
    assert str(enk["STATUS"]) == "CONFIRMED"
    second = events["DM Par Mixed: Mixedkval två dagar (2/2)"]
    assert second.decoded("DTSTART") == date(2016, 10, 23)


def test_calendar_feed_uids_are_stable_and_unique(client):
    _season_with_events()
    first = Calendar.from_ical(client.get("/kalender.ics").content)
    again = Calendar.from_ical(client.get("/kalender.ics").content)
    uids = [str(e["UID"]) for e in first.walk("VEVENT")]
    assert len(uids) == len(set(uids)) == 8
    assert uids == [str(e["UID"]) for e in again.walk("VEVENT")]


def test_competition_feed_has_only_that_competitions_events(client):
    season, team, mixed = _season_with_events()
    cal = Calendar.from_ical(client.get(f"/kalender/{team.pk}.ics").content)
    assert sorted(str(e["SUMMARY"]) for e in cal.walk("VEVENT")) == [
        "DM Lag: Final",
        "DM Lag: Lagkval Knivsta",
    ]
    assert str(cal["X-WR-CALNAME"]) == "DM Lag 2016-2017"
    assert client.get("/kalender/999999.ics").status_code == 404


def test_calendar_in_english(client):
    _season_with_events()
    html = _text(client.get("/kalender/?lang=en"))
    assert "Calendar" in html and "6 Nov 2016" in html
    assert "provisional, not yet approved by TK" in html


# --- Archive ---------------------------------------------------------------------------------


def test_an_earlier_season_stays_reachable_by_its_name(client):
    old = SeasonFactory(name="2015-2016", start_year=2015, is_current=False)
    TeamFactory(
        heat=TeamHeatFactory(
            competition=TeamCompetitionFactory(
                season=old,
                qualifying_start=date(2015, 10, 1),
                qualifying_end=date(2016, 1, 31),
                heat_registration_deadline=date(2015, 9, 15),
                final_day1=date(2016, 3, 5),
                final_day2=date(2016, 3, 6),
            ),
            name="Lagkval 2015",
            first_date=date(2015, 11, 7),
            last_date=date(2015, 11, 8),
        ),
        name="Gamla laget",
    )
    TeamHeatFactory(name="Lagkval 2016")  # the current season, 2016-2017
    current = _text(client.get("/lag/"))
    assert "Lagkval 2016" in current and "Lagkval 2015" not in current
    archived = _text(client.get("/lag/?season=2015-2016"))
    assert "DM Lag 2015-2016" in archived
    assert "Lagkval 2015" in archived and "Gamla laget" in archived
    assert "Lagkval 2016" not in archived
    assert "DM Par 2015-2016" in _text(client.get("/par/?season=2015-2016"))
    assert "7 nov–8 nov 2015" in _text(client.get("/kalender/?season=2015-2016"))
    home = _text(client.get("/"))
    assert '<a href="/lag/?season=2015-2016">DM Lag</a>' in home


def test_an_unknown_season_is_a_404_that_says_so(client):
    SeasonFactory()
    response = client.get("/lag/?season=1999-2000")
    assert response.status_code == 404
    assert "Det finns ingen säsong som heter ”1999-2000”" in _text(response)
    english = client.get("/par/?season=1999-2000&lang=en")
    assert english.status_code == 404
    assert "There is no season called “1999-2000”" in _text(english)


# --- HEAD on every public page ---------------------------------------------------------------


PUBLIC = [
    ("portal:home", {}),
    ("portal:lag", {}),
    ("portal:par", {}),
    ("portal:calendar", {}),
    ("portal:calendar_ics", {}),
    ("portal:competition_ics", None),  # filled in with a competition's id
    ("login", {}),
]


@pytest.mark.parametrize("name,kwargs", PUBLIC)
def test_every_public_page_answers_head_without_a_body_and_get(name, kwargs):
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections
    from django.test import RequestFactory

    _season_with_events()
    if kwargs is None:
        kwargs = {"competition_id": TeamCompetitionFactory().pk}
    url = reverse(name, kwargs=kwargs)

    # Through the real WSGI handler (the test client drops a HEAD body itself). As the test
    # client does, keep the test's database connection open when the request finishes (on
    # PostgreSQL with CONN_MAX_AGE the handler would close it under the test's transaction).
    def call(method):
        environ = RequestFactory().generic(method, url).environ
        status = []
        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
        try:
            body = b"".join(
                WSGIHandler()(
                    environ, lambda s, headers, exc_info=None: status.append((s, headers))
                )
            )
        finally:
            request_started.connect(close_old_connections)
            request_finished.connect(close_old_connections)
        return status[0][0], dict(status[0][1]), body

    get_status, get_headers, get_body = call("GET")
    head_status, head_headers, head_body = call("HEAD")
    assert get_status == "200 OK" and get_body
    assert head_status == "200 OK"
    assert head_body == b""
    assert head_headers["Content-Type"] == get_headers["Content-Type"]


# --- Figures and days in the reader's language -----------------------------------------------


def _team_final_snapshot():
    team = TeamFactory(final_seat=1, name="Spader Kung")
    StandingSnapshot.objects.create(
        scope=StandingSnapshot.Scope.TEAM_FINAL,
        competition=team.competition,
        provisional=False,
        rounds_played=7,
        data=[
            {
                "rank": 1,
                "name": team.name,
                "played": 7,
                "imps_won": "300.5",
                "imps_lost": "200",
                "imp_quotient": "1.503",
                "vp": "105.44",
                "penalty": "0.00",
            }
        ],
    )


def test_lag_figures_have_a_decimal_comma_in_swedish_and_a_point_in_english(client):
    _team_final_snapshot()
    sv = _text(client.get("/lag/"))
    assert "<strong>105,44</strong>" in sv and ">1,503<" in sv and ">300,5<" in sv
    assert "105.44" not in sv
    en = _text(client.get("/lag/?lang=en"))
    assert "<strong>105.44</strong>" in en and ">1.503<" in en
    assert "105,44" not in en
    assert "4 mar–5 mar 2017" in sv and "4 Mar–5 Mar 2017" in en


def test_par_figures_and_shares_in_the_readers_language(client):
    from decimal import Decimal

    from pairs.models import PairEntry
    from results.models import PairResult
    from results.services.recompute import recompute_pair_competition
    from tests.factories import member

    comp = PairCompetitionFactory()
    heats = [PairHeatFactory(competition=comp, name=f"Kval {n}") for n in (1, 2, 3)]
    for heat, pairs in zip(heats, (5, 4, 3)):
        upload = accepted_upload(comp, heat, name=f"{heat.pk}.pbn")
        for k in range(pairs):
            e = PairEntry.objects.create(
                heat=heat,
                player1=member(season=comp.season),
                player2=member(season=comp.season),
                pair_number=str(k + 1),
            )
            PairResult.objects.create(
                upload=upload,
                heat=heat,
                entry=e,
                total=10,
                percentage=Decimal("57.25") - k,
                boards_played=27,
            )
    recompute_pair_competition(comp.id)
    heat_sv = _text(client.get(f"/par/kval/{heats[0].pk}/"))
    heat_en = _text(client.get(f"/par/kval/{heats[0].pk}/?lang=en"))
    assert ">57,25</td>" in heat_sv and "57.25" not in heat_sv
    assert ">57.25</td>" in heat_en and "57,25" not in heat_en
    sv = _text(client.get(f"/par/{comp.pk}/?lang=sv"))
    en = _text(client.get(f"/par/{comp.pk}/?lang=en"))
    # 12 pairs, 12 seats (R-ALLOC-1: all go on): venue shares 5, 4, 3 exactly, "5,00".
    assert '<td class="num">5,00</td>' in sv
    assert '<td class="num">5.00</td>' in en
    assert "10 feb 2017" in sv and "10 Feb 2017" in en


def test_par_page_has_jump_links_to_every_competition_and_a_row_per_heat(client):
    comp = PairCompetitionFactory(discipline="mixed")
    heat = PairHeatFactory(competition=comp, name="Mixedkval Tierp")
    html = _text(client.get("/par/"))
    nav = html.split('id="innehall"')[1].split("</nav>")[0]
    assert '<a href="#mixed">Mixed</a>' in nav
    assert f'<a href="/par/{comp.pk}/">Finalplatser</a>' in nav
    assert 'id="mixed"' in html
    row = html.split(f'id="heat-{heat.pk}"')[1].split("</tr>")[0]
    assert f'<a href="/par/kval/{heat.pk}/">Mixedkval Tierp</a>' in row


def test_num_filter_reads_points_and_commas_and_leaves_fractions():
    from django.utils import translation

    from clubs.templatetags.formats_i18n import num

    with translation.override("sv"):
        assert num("105.44") == "105,44"
        assert num("2,08 (25/12)") == "2,08 (25/12)"
        assert num("−5.00") == "−5,00"
        assert num("∞") == "∞"
    with translation.override("en"):
        assert num("2,08 (25/12)") == "2.08 (25/12)"
        assert num("7,47") == "7.47"


# --- A fixed number of queries ---------------------------------------------------------------


def _grow(heats: int):
    season = SeasonFactory()
    comp = TeamCompetitionFactory(season=season)
    pairs = PairCompetitionFactory(season=season)
    for n in range(heats):
        heat = TeamHeatFactory(competition=comp, first_date=date(2016, 11, 5 + n), last_date=None)
        accepted_upload(comp, heat, name=f"t{heat.pk}.pbn")
        pheat = PairHeatFactory(competition=pairs, first_date=date(2017, 2, 1 + n))
        accepted_upload(pairs, pheat, name=f"p{pheat.pk}.pbn")


@pytest.mark.parametrize("url", ["/", "/kalender/", "/kalender.ics"])
def test_home_and_calendar_queries_do_not_grow_with_heats(client, url):
    _grow(1)
    with clock.frozen("2016-10-01"), CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    _grow(6)
    with clock.frozen("2016-10-01"), CaptureQueriesContext(connection) as many:
        assert client.get(url).status_code == 200
    assert len(many) == len(few) <= 8

"""Two languages, every page (issue 13, item 7): the list of pages is built from the URL
configuration, each page is rendered in Swedish and in English as the role that uses it, on
the demo season, and a Swedish page holds none of a list of English words, an English page
none of a list of Swedish words (names of clubs, players, venues, teams and heats removed
first). A new named URL without a page here (or a reason to skip it) fails the test."""

from __future__ import annotations

import html
import re
from io import StringIO

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

#: Named URLs that are not an HTML page of their own, each with why.
SKIPPED = {
    "set_language": "POST only, answers with a redirect",
    "api-schema": "the OpenAPI schema (YAML), not a page",
    "logout": "POST only, answers with a redirect",
    "password_reset_confirm": "needs a token from a mail: tests/ubf/test_password_reset.py",
    "portal:calendar_ics": "an ICS feed, not HTML: tests/portal/test_home_calendar.py",
    "portal:competition_ics": "an ICS feed, not HTML: tests/portal/test_home_calendar.py",
    "portal:lag_final_pdf": "a PDF: tests/portal/test_result_pdfs.py",
    "portal:par_heat_pdf": "a PDF: tests/portal/test_result_pdfs.py",
    "portal:par_final_pdf": "a PDF: tests/portal/test_result_pdfs.py",
    "portal:lag_heat_pdf": "a PDF: tests/portal/test_result_pdfs.py",
    "portal:tk_log_csv": "a CSV file: tests/portal/test_decision_log.py",
    "portal:fee_list_download": "a CSV or Excel file: tests/portal/test_fees.py",
    "portal:tk_decide": "POST only: tests/portal/test_tk_queue.py, the permission matrix",
    "portal:tk_award_walkover": "POST only: tests/portal/test_tk_decisions.py",
    "portal:tk_revoke_walkover": "POST only: tests/portal/test_tk_decisions.py",
    "portal:tk_lift_penalty": "POST only: tests/portal/test_tk_decisions.py",
    "portal:tk_impose_penalty": "POST only: tests/portal/test_tk_sanctions.py",
    "portal:tk_disqualify": "POST only: tests/portal/test_tk_sanctions.py",
    "portal:tk_draw_lot": "POST only: tests/portal/test_tk_decisions.py",
    "portal:tk_hand_lot": "POST only: tests/portal/test_tk_decisions.py",
    "teams:answer_entry_request": "POST only: tests/teams/test_entry_requests.py",
    "portal:tk_semifinal_list": "a CSV or Excel file: tests/portal/test_tk_semifinal.py",
    "portal:captain_semifinal": "POST only: tests/portal/test_tk_semifinal.py",
    "portal:captain_balance_dispensation": "POST only: tests/portal/test_captain_balance.py",
    "portal:captain_heat_offer": "POST only: tests/portal/test_tk_short_heat.py",
    "portal:landing": "a redirect by role: tests/portal/test_club_landing.py",
    "portal:fee_overview": "a redirect to /klubb/",
    "portal:accept_invitation": "needs a token from a mail: tests/clubs/test_invitations.py",
    "results:upload_file": "the uploaded result file itself, not a page",
    "api-docs": "drf-spectacular's Swagger UI for programmers (its own English interface)",
    # Django admin's own URLs besides the pages swept below (index, every registered model's
    # list and change form):
    "admin:login": "TK is logged in; the site's login is konto/login/",
    "admin:logout": "POST only",
    "admin:password_change": "the admin's password form, Django's own translated page",
    "admin:password_change_done": "Django's own translated page",
    "admin:autocomplete": "JSON",
    "admin:jsi18n": "JavaScript",
    "admin:view_on_site": "a redirect",
    "admin:app_list": "the index filtered to one app (the index is swept)",
    "admin:auth_user_password_change": "Django's own translated password form",
}
#: Per registered model, the admin's add, delete and history pages are Django's forms around
#: the same fields as the change form (swept); suffixes of those names.
ADMIN_SKIPPED_SUFFIXES = ("_add", "_delete", "_history", "_simple_history")

#: Registered models without a row in the demo season and without an add form (they are
#: written by services only): their change form is not swept, their list is.
NO_DEMO_ROW = {
    "clubs.decision",
    "clubs.democlock",
    "clubs.seatoffer",
    "teams.rosterchangerequest",
    "results.pairfinalresult",
    # django-axes' logs (no add form) and the API's tokens and stored answers
    "axes.accessattempt",
    "axes.accessfailurelog",
    "axes.accesslog",
    "api.apitoken",
    "api.idempotentrequest",
    # invitations and team entry requests are made on the site's pages, not in the admin
    "clubs.invitation",
    "teams.teamentryrequest",
    # the teams' SM semifinal answers are recorded on /tk/sm-semifinal/ and the captain's page,
    # places in other heats offered on /tk/kvalheat/<id>/
    "teams.semifinalchoice",
    "teams.heatplaceoffer",
}
#: The API answers JSON, not pages; its problem details in Swedish and English are
#: tests/api/test_writes.py's.
API_PREFIX = "api:"

#: English words that must not be on a Swedish page (case-sensitive, whole words).
ENGLISH = [
    "Save",
    "Delete",
    "Home",
    "Forbidden",
    "Offender",
    "Recorded by",
    "Seed",
    "Search",
    "Add",
    "Change",
    "Filter",
    "Action",
    "Yes",
    "No",
    "required",
    "Round",
    "Team",
    "Player",
    "Season",
    "Reason",
    "Created",
    "Updated",
    "Date",
    "Name",
    "Club",
    "Upload",
    "File",
    "Log in",
    "Password",
    "Submit",
    "This field",
    "and",
    "the",
    "of",
]

#: Swedish words that must not be on an English page (any case, whole words); none is
#: English, a name in the demo data or a clause ID.
SWEDISH = [
    "och",
    "för",
    "Spara",
    "lag",
    "lagen",
    "kval",
    "kvalet",
    "avgift",
    "avgifter",
    "rond",
    "inte",
    "matcher",
    "brickor",
    "spelare",
    "säsong",
    "anmäl",
    "anmälda",
    "platser",
    "senast",
    "ändra",
    "lägg",
    "lösenord",
    "klubb",
    "klubbar",
    "inga",
    "ingen",
    "motivering",
    "beslut",
    "förklaring",
    "datum",
    "namn",
    "ja",
    "nej",
    "av",
    "på",
    "med",
    "till",
    "från",
    "eller",
    "är",
    "har",
]


# ---------------------------------------------------------------------------------------------
# The URL configuration's named patterns
# ---------------------------------------------------------------------------------------------


def named_urls() -> list[str]:
    """Every named URL pattern as ``namespace:name``."""
    names = []

    def walk(patterns, namespace):
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = p.namespace
                walk(p.url_patterns, f"{namespace}:{ns}" if namespace and ns else ns or namespace)
            elif isinstance(p, URLPattern) and p.name:
                names.append(f"{namespace}:{p.name}" if namespace else p.name)

    walk(get_resolver().url_patterns, None)
    return names


def _admin_model_urls() -> set[str]:
    names = set()
    for model in admin.site._registry:
        info = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        names.add(f"{info}_changelist")
        if model._meta.label_lower not in NO_DEMO_ROW:
            names.add(f"{info}_change")
    return names


# ---------------------------------------------------------------------------------------------
# One page per URL name, with the user who sees it, on the demo season
# ---------------------------------------------------------------------------------------------


def _pages() -> dict[str, tuple[str | None, str]]:
    """URL name → (username or None for a visitor, path), from the demo's rows."""
    from pairs.models import PairCompetition, PairHeat
    from teams.models import Match, Team, TeamCompetition, TeamHeat

    User = get_user_model()
    from clubs.models import ClubOfficial

    kapten = User.objects.get(username="kapten")
    klubb = User.objects.get(username="klubb")
    team = Team.objects.filter(captain_user=kapten).order_by("id").first()
    match = (
        Match.objects.filter(status="played").order_by("id").first()
        or Match.objects.order_by("id").first()
    )
    own_match = (
        Match.objects.filter(home=team).order_by("id").first()
        or Match.objects.filter(away=team).order_by("id").first()
    )
    pair_heat = PairHeat.objects.order_by("id").first()
    klubb_team_heat = TeamHeat.objects.filter(responsible_user=klubb).order_by("id").first()
    pair_comp = PairCompetition.objects.order_by("id").first()
    klubb_clubs = ClubOfficial.objects.filter(user=klubb).values_list("club_id", flat=True)
    klubb_pair_heat = PairHeat.objects.filter(clubs__in=klubb_clubs).order_by("id").first()
    team_comp = TeamCompetition.objects.order_by("id").first()
    pages = {
        "login": (None, reverse("login")),
        "password_change": ("kapten", reverse("password_change")),
        "password_change_done": ("kapten", reverse("password_change_done")),
        "password_reset": (None, reverse("password_reset")),
        "password_reset_done": (None, reverse("password_reset_done")),
        "password_reset_complete": (None, reverse("password_reset_complete")),
        "results:upload_pair_heat": (
            "tk",
            reverse("results:upload_pair_heat", args=[pair_heat.pk]),
        ),
        "results:upload_team_heat": (
            "klubb",
            reverse("results:upload_team_heat", args=[klubb_team_heat.pk]),
        ),
        "results:upload_team_final": (
            "tk",
            reverse("results:upload_team_final", args=[team_comp.pk]),
        ),
        "results:upload_pair_final": (
            "tk",
            reverse("results:upload_pair_final", args=[pair_comp.pk]),
        ),
        "portal:home": (None, reverse("portal:home")),
        "portal:calendar": (None, reverse("portal:calendar")),
        "portal:lag": (None, reverse("portal:lag")),
        "portal:lag_final": (None, reverse("portal:lag_final")),
        "portal:lag_team": (None, reverse("portal:lag_team", args=[team.pk])),
        "portal:lag_match": (None, reverse("portal:lag_match", args=[match.pk])),
        "portal:par": (None, reverse("portal:par")),
        "portal:par_heat": (None, reverse("portal:par_heat", args=[pair_heat.pk])),
        "portal:par_final": (None, reverse("portal:par_final", args=[pair_comp.pk])),
        "portal:lag_heat": (None, reverse("portal:lag_heat", args=[klubb_team_heat.pk])),
        "portal:dashboard": ("klubb", reverse("portal:dashboard")),
        "portal:tk_queue": ("tk", reverse("portal:tk_queue")),
        "portal:tk_log": ("tk", reverse("portal:tk_log")),
        "portal:register_pair_heat": ("klubb", reverse("portal:register_pair_heat")),
        "portal:register_team_heat": ("klubb", reverse("portal:register_team_heat")),
        "portal:enter_pair": ("tk", reverse("portal:enter_pair", args=[pair_heat.pk])),
        "portal:enter_direct_final": (
            "tk",
            reverse("portal:enter_direct_final", args=[pair_comp.pk]),
        ),
        "portal:sm_partner": ("klubb", reverse("portal:sm_partner", args=[pair_comp.pk])),
        "portal:pair_final_reserves": (
            "klubb",
            reverse("portal:pair_final_reserves", args=[pair_comp.pk]),
        ),
        "portal:fee_list": (
            "klubb",
            reverse(
                "portal:fee_list",
                kwargs={"scope": "heat", "kind": "lagkval", "pk": klubb_team_heat.pk},
            ),
        ),
        "teams:index": ("kapten", reverse("teams:index")),
        "teams:enter": ("klubb", reverse("teams:enter", args=[klubb_team_heat.pk])),
        "teams:roster": ("kapten", reverse("teams:roster", args=[team.pk])),
        "teams:lineup": ("kapten", reverse("teams:lineup", args=[team.pk, own_match.pk])),
        "admin:index": ("tk", reverse("admin:index")),
        "portal:par_competition": (None, reverse("portal:par_competition", args=[pair_comp.pk])),
        "portal:player_lookup": ("klubb", reverse("portal:player_lookup") + "?q=an"),
        "portal:club_heat": (
            "klubb",
            reverse("portal:club_heat", args=["parkval", klubb_pair_heat.pk]),
        ),
        "portal:captain_team": ("kapten", reverse("portal:captain_team", args=[team.pk])),
        "portal:tk_season": ("tk", reverse("portal:tk_season")),
        "portal:heat_schedule": (
            "klubb",
            reverse("portal:heat_schedule", args=[klubb_team_heat.pk]),
        ),
        "portal:final_schedule": ("tk", reverse("portal:final_schedule", args=[team_comp.pk])),
        "portal:tk_direct_final": ("tk", reverse("portal:tk_direct_final")),
        "portal:tk_mp_table": ("tk", reverse("portal:tk_mp_table")),
        "portal:tk_register": ("tk", reverse("portal:tk_register")),
        "portal:tk_sanctions": ("tk", reverse("portal:tk_sanctions")),
        "portal:tk_final_seats": ("tk", reverse("portal:tk_final_seats", args=[pair_comp.pk])),
        "portal:tk_next_season": ("tk", reverse("portal:tk_next_season")),
        "portal:tk_invite": ("tk", reverse("portal:tk_invite")),
        "portal:tk_semifinal": ("tk", reverse("portal:tk_semifinal")),
        "portal:tk_semifinal_venues": ("tk", reverse("portal:tk_semifinal_venues")),
        "portal:tk_short_heat": ("tk", reverse("portal:tk_short_heat", args=[klubb_team_heat.pk])),
        "portal:club_invite": ("klubb", reverse("portal:club_invite")),
    }
    for model in admin.site._registry:
        info = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        pages[f"{info}_changelist"] = ("tk", reverse(f"{info}_changelist"))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            pages[f"{info}_change"] = ("tk", reverse(f"{info}_change", args=[first.pk]))
        elif model._meta.label_lower not in NO_DEMO_ROW:  # the add form: the same fields
            pages[f"{info}_change"] = ("tk", reverse(f"{info}_add"))
    from teams.models import Ruling

    ruling = Ruling.objects.order_by("id").first() or Ruling.objects.create(
        match=match, td_names="R. Sliwinski", td_category="non_playing", ruling="3NT= +400"
    )
    pages["portal:tk_rulings"] = ("tk", reverse("portal:tk_rulings"))
    pages["portal:tk_ruling"] = ("tk", reverse("portal:tk_ruling", args=[ruling.pk]))
    pages["portal:tk_protests"] = ("tk", reverse("portal:tk_protests"))
    return pages


def _names_in_demo() -> list[str]:
    """Proper names of the demo season, longest first: clubs, players, users, venues, teams,
    heats, competitions; removed from a page's text before its words are checked."""
    from clubs.models import Club, Competition, District, Heat, Player
    from teams.models import Team

    names: set[str] = set()
    for club in Club.objects.all():
        names |= {club.name, club.short_name, club.town}
    names |= set(District.objects.values_list("name", flat=True))
    for p in Player.objects.all():
        names |= {p.first_name, p.last_name, f"{p.first_name} {p.last_name}"}
    for u in get_user_model().objects.all():
        names |= {u.username, u.first_name, u.last_name, u.email}
    for heat in Heat.objects.all():
        names |= {heat.name, heat.venue or ""}
    names |= {str(c) for c in Competition.objects.all()}
    names |= set(Team.objects.values_list("name", flat=True))
    return sorted((n for n in names if n and len(n) > 1), key=len, reverse=True)


@pytest.fixture(scope="module")
def rendered(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo season, and every page's visible text in both languages."""
    from ubf.celery import app

    old_eager = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    with (
        django_db_blocker.unblock(),
        override_settings(
            MEDIA_ROOT=str(tmp_path_factory.mktemp("demo-media")),
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        ),
    ):
        call_command("load_demo", stdout=StringIO())
        try:
            names = _names_in_demo()
            users = {u.username: u for u in get_user_model().objects.all()}
            texts, statuses = {}, {}
            for name, (username, path) in _pages().items():
                client = Client()
                if username:
                    client.force_login(users[username])
                for lang in ("sv", "en"):
                    # The language cookie, as ?lang= leaves it: the admin's lists take
                    # unknown query parameters for filters.
                    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
                    response = client.get(path)
                    statuses[name, lang] = (path, response.status_code)
                    texts[name, lang] = _without_names(
                        _visible_text(response.content.decode()), names
                    )
            yield {"texts": texts, "statuses": statuses}
        finally:
            call_command("flush", interactive=False, verbosity=0)
            app.conf.CELERY_TASK_ALWAYS_EAGER = old_eager


def _visible_text(page: str) -> str:
    page = re.sub(r"<(script|style|textarea)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<select\b.*?</select>", " ", page, flags=re.S)  # choices are data (names)
    # The admin's password summary shows the hash's values (a random salt's first letters, once
    # "JA****" read as the Swedish "ja"): data, not words.
    page = re.sub(r"<bdi>.*?</bdi>", " ", page, flags=re.S)
    # What a reader or a screen reader meets besides the text: titles, labels, placeholders,
    # button values.
    attrs = " ".join(
        re.findall(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', page)
        + re.findall(r'<input[^>]*type="(?:submit|button)"[^>]*value="([^"]*)"', page)
    )
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + attrs)


def _without_names(text: str, names: list[str]) -> str:
    for name in names:
        text = text.replace(name, " ")
    return text


def english_words(text: str) -> list[str]:
    return [w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


def swedish_words(text: str) -> list[str]:
    return [w for w in SWEDISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text, re.I)]


def _context(text: str, word: str, flags=0) -> str:
    m = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, flags)
    return " ".join(text[max(0, m.start() - 40) : m.end() + 40].split()) if m else ""


# ---------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------


def test_every_named_url_has_a_page_in_the_sweep_or_a_reason_to_skip():
    swept = set(_page_names())
    missing = [
        name
        for name in named_urls()
        if name not in swept
        and name not in SKIPPED
        and not (name.startswith("admin:") and name.endswith(ADMIN_SKIPPED_SUFFIXES))
        and not _no_demo_row(name)
        and not name.startswith(API_PREFIX)
    ]
    assert missing == []
    # The skip list names only URLs that exist, so it cannot hide a renamed page.
    assert set(SKIPPED) <= set(named_urls())


def _no_demo_row(name: str) -> bool:
    return any(name == f"admin:{label.replace('.', '_')}_change" for label in NO_DEMO_ROW)


def _page_names() -> list[str]:
    """The names :func:`_pages` gives a page for (without the database)."""
    return [*PAGE_NAMES, *sorted(_admin_model_urls())]


PAGE_NAMES = [
    "login",
    "password_change",
    "password_change_done",
    "password_reset",
    "password_reset_done",
    "password_reset_complete",
    "results:upload_pair_heat",
    "results:upload_team_heat",
    "results:upload_team_final",
    "results:upload_pair_final",
    "portal:home",
    "portal:calendar",
    "portal:lag",
    "portal:lag_final",
    "portal:lag_team",
    "portal:lag_match",
    "portal:par",
    "portal:par_heat",
    "portal:par_final",
    "portal:lag_heat",
    "portal:dashboard",
    "portal:tk_queue",
    "portal:tk_log",
    "portal:register_pair_heat",
    "portal:register_team_heat",
    "portal:enter_pair",
    "portal:enter_direct_final",
    "portal:sm_partner",
    "portal:pair_final_reserves",
    "portal:fee_list",
    "teams:index",
    "teams:enter",
    "teams:roster",
    "teams:lineup",
    "admin:index",
    "portal:par_competition",
    "portal:player_lookup",
    "portal:club_heat",
    "portal:captain_team",
    "portal:tk_season",
    "portal:tk_register",
    "portal:tk_sanctions",
    "portal:tk_final_seats",
    "portal:tk_next_season",
    "portal:tk_invite",
    "portal:club_invite",
    "portal:tk_rulings",
    "portal:tk_ruling",
    "portal:tk_protests",
    "portal:heat_schedule",
    "portal:final_schedule",
    "portal:tk_direct_final",
    "portal:tk_mp_table",
    "portal:tk_semifinal",
    "portal:tk_semifinal_venues",
    "portal:tk_short_heat",
]


@pytest.mark.django_db
def test_every_page_of_the_sweep_is_shown(rendered):
    assert {n for n, _ in rendered["texts"]} == set(_page_names())
    not_ok = {k: v for k, v in rendered["statuses"].items() if v[1] != 200}
    assert not_ok == {}


@pytest.mark.django_db
def test_no_swedish_page_has_an_english_word(rendered):
    found = {
        name: {w: _context(text, w) for w in english_words(text)}
        for (name, lang), text in rendered["texts"].items()
        if lang == "sv" and english_words(text)
    }
    assert found == {}


@pytest.mark.django_db
def test_no_english_page_has_a_swedish_word(rendered):
    found = {
        name: {w: _context(text, w, re.I) for w in swedish_words(text)}
        for (name, lang), text in rendered["texts"].items()
        if lang == "en" and swedish_words(text)
    }
    assert found == {}


@pytest.mark.django_db
def test_the_words_are_there_in_the_other_language(rendered):
    """So both checks can fail: most listed Swedish words are on the Swedish pages and most
    English words on the English ones (over the whole sweep; some are listed only because
    they once leaked, such as "Offender" or "Forbidden")."""
    sv = " ".join(t for (_, lang), t in rendered["texts"].items() if lang == "sv")
    en = " ".join(t for (_, lang), t in rendered["texts"].items() if lang == "en")
    assert len(swedish_words(sv)) >= len(SWEDISH) * 3 // 4
    assert len(english_words(en)) >= len(ENGLISH) * 3 // 4
    # and on each public page in Swedish at least three
    for name in ("portal:home", "portal:lag", "portal:par", "portal:calendar"):
        assert len(swedish_words(rendered["texts"][name, "sv"])) >= 3, name

"""Who may do what, page by page (issue 13 proof, issue 14): a table built from the URL
configuration. For every workplace URL and method, eight roles: a visitor, a plain player
with a login, the captain of team A and of team B, an official of club X (which arranges
team A's heat and the pair heat) and of club Y (which arranges nothing here), the heat
responsible of team A's heat (no club role) and TK. The roles in a row's ``allowed`` get
their page (GET 200) or reach the form (POST: anything but 403/404 and the login); everyone
else gets 403, 404 or the login page **and nothing is written** (row counts of every model
before and after). Public pages: 200 for everyone. A named URL without a row (or a reason to
leave it out) fails the test.

The rule for the heat responsible (docs/architecture.md, "Permissions"): the heat
responsible of a team heat manages that heat, the rosters and line-ups of every team in it
included, whatever club the team comes from; like the arranging clubs' officials, and unlike
an official of another club or another team's captain.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse

from tests.portal.test_languages import named_urls

ROLES = (
    "anonymous",
    "player",
    "captain_a",
    "captain_b",
    "official_x",
    "official_y",
    "heat_responsible",
    "tk",
)
EVERYONE = frozenset(ROLES)
LOGGED_IN = EVERYONE - {"anonymous"}
TK = frozenset({"tk"})
#: Who manages team A's heat (clubs.permissions.can_manage_team_heat).
HEAT_A = frozenset({"tk", "official_x", "heat_responsible"})
#: Who manages team A (can_manage_team): its captain and whoever manages its heat.
TEAM_A = HEAT_A | {"captain_a"}
#: Club officials and TK (the club portal's forms).
OFFICIALS = frozenset({"tk", "official_x", "official_y"})


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    allowed: frozenset[str]


#: Public pages: GET, 200 for every role.
PUBLIC = [
    "portal:home",
    "portal:calendar",
    "portal:calendar_ics",
    "portal:competition_ics",
    "portal:lag",
    "portal:lag_final",
    "portal:lag_final_pdf",
    "portal:lag_team",
    "portal:lag_match",
    "portal:par",
    "portal:par_heat",
    "portal:par_heat_pdf",
    "portal:par_final",
    "portal:par_final_pdf",
    "portal:lag_heat",
    "portal:lag_heat_pdf",
    "portal:par_competition",
    "login",
    "password_reset",
    "password_reset_done",
    "password_reset_complete",
]

#: The workplace: each URL with GET and, where it has a form, POST.
WORKPLACE = [
    Row("results:upload_pair_heat", "get", frozenset({"tk", "official_x"})),
    Row("results:upload_pair_heat", "post", frozenset({"tk", "official_x"})),
    Row("results:upload_team_heat", "get", HEAT_A),
    Row("results:upload_team_heat", "post", HEAT_A),
    Row("results:upload_team_final", "get", TK),
    Row("results:upload_team_final", "post", TK),
    Row("results:upload_pair_final", "get", TK),
    Row("results:upload_pair_final", "post", TK),
    # The dashboard lists the clubs a user acts for; a user with none sees it empty.
    Row("portal:dashboard", "get", LOGGED_IN),
    Row("portal:tk_queue", "get", TK),
    Row("portal:tk_decide", "post", TK),
    Row("portal:tk_log", "get", TK),
    Row("portal:tk_log_csv", "get", TK),
    Row("portal:register_pair_heat", "get", OFFICIALS),
    Row("portal:register_pair_heat", "post", OFFICIALS),
    Row("portal:register_team_heat", "get", OFFICIALS),
    Row("portal:register_team_heat", "post", OFFICIALS),
    Row("portal:enter_pair", "get", frozenset({"tk", "official_x"})),
    Row("portal:enter_pair", "post", frozenset({"tk", "official_x"})),
    Row("portal:enter_direct_final", "get", OFFICIALS),
    Row("portal:enter_direct_final", "post", OFFICIALS),
    # R-PAIR-RES-4: the SM partner choice; an empty form is refused (400) and writes nothing.
    Row("portal:sm_partner", "get", OFFICIALS),
    Row("portal:sm_partner", "post", OFFICIALS),
    # R-PAIR-RES-2: a final's reserve, by the pair's club official or TK; an empty form is
    # refused in words (400) and writes nothing.
    Row("portal:pair_final_reserves", "get", OFFICIALS),
    Row("portal:pair_final_reserves", "post", OFFICIALS),
    Row("portal:fee_list", "get", HEAT_A),
    Row("portal:fee_list_download", "get", HEAT_A),
    # "Mitt lag" lists the user's teams and heats; a user with none sees it empty.
    Row("teams:index", "get", LOGGED_IN),
    # Whoever manages the heat enters the team; anyone else logged in gets the same form as a
    # request to the heat responsible (R-TEAM-REG-2); an empty form writes nothing.
    Row("teams:enter", "get", LOGGED_IN),
    Row("teams:enter", "post", LOGGED_IN),
    Row("teams:answer_entry_request", "post", HEAT_A),
    Row("portal:captain_team", "get", TEAM_A),
    Row("portal:club_heat", "get", frozenset({"tk", "official_x"})),
    Row("portal:club_heat", "post", frozenset({"tk", "official_x"})),
    Row(
        "portal:player_lookup",
        "get",
        frozenset({"tk", "official_x", "official_y", "captain_a", "captain_b"}),
    ),
    Row("portal:tk_award_walkover", "post", TK),
    Row("portal:tk_revoke_walkover", "post", TK),
    Row("portal:tk_lift_penalty", "post", TK),
    # R-REPL-3, R-REPL-5: a final's seats and TK's decisions on them (an empty POST is refused)
    Row("portal:tk_final_seats", "get", TK),
    Row("portal:tk_final_seats", "post", TK),
    Row("portal:tk_sanctions", "get", TK),
    Row("portal:tk_impose_penalty", "post", TK),
    Row("portal:tk_disqualify", "post", TK),
    Row("portal:tk_draw_lot", "post", TK),
    Row("portal:tk_hand_lot", "post", TK),
    Row("portal:tk_season", "get", TK),
    Row("portal:tk_season", "post", TK),
    # Issue 22: a heat's schedule (whoever manages the heat), the final's, the direct-final
    # decision and the masterpoint table (TK); an empty form is refused and writes nothing.
    Row("portal:heat_schedule", "get", HEAT_A),
    Row("portal:heat_schedule", "post", HEAT_A),
    Row("portal:final_schedule", "get", TK),
    Row("portal:final_schedule", "post", TK),
    Row("portal:tk_direct_final", "get", TK),
    Row("portal:tk_direct_final", "post", TK),
    Row("portal:tk_mp_table", "get", TK),
    Row("portal:tk_mp_table", "post", TK),
    Row("portal:tk_register", "get", TK),
    Row("portal:tk_register", "post", TK),
    Row("portal:tk_next_season", "get", TK),
    Row("portal:tk_next_season", "post", TK),
    Row("portal:tk_rulings", "get", TK),
    Row("portal:tk_rulings", "post", TK),
    Row("portal:tk_ruling", "get", TK),
    Row("portal:tk_ruling", "post", TK),
    Row("portal:tk_protests", "get", TK),
    Row("portal:tk_protests", "post", TK),
    # R-TEAM-SEMI-1: TK's page in the hall, SBF's venues, the list for SBF; the captain of the
    # team whose turn it is answers for it (not whoever manages its heat): an empty answer is
    # refused and writes nothing.
    Row("portal:tk_semifinal", "get", TK),
    Row("portal:tk_semifinal", "post", TK),
    Row("portal:tk_semifinal_venues", "get", TK),
    Row("portal:tk_semifinal_venues", "post", TK),
    Row("portal:tk_semifinal_list", "get", TK),
    Row("portal:captain_semifinal", "post", frozenset({"tk", "captain_a"})),
    # R-TEAM-3: the district-balance dispensation asked for the team (an empty reason writes
    # nothing).
    Row("portal:captain_balance_dispensation", "post", TEAM_A),
    # R-TEAM-KVAL-2: TK's page for a heat with too few teams; the captain answers an offered
    # place for the team (not whoever manages its heat); an empty answer writes nothing.
    Row("portal:tk_short_heat", "get", TK),
    Row("portal:tk_short_heat", "post", TK),
    Row("portal:captain_heat_offer", "post", frozenset({"tk", "captain_a"})),
    Row("portal:tk_invite", "get", TK),
    Row("portal:tk_invite", "post", TK),
    Row("portal:club_invite", "get", OFFICIALS),
    Row("portal:club_invite", "post", OFFICIALS),
    Row("results:upload_file", "get", HEAT_A),
    Row("teams:roster", "get", TEAM_A),
    Row("teams:roster", "post", TEAM_A),
    Row("teams:lineup", "get", TEAM_A),
    Row("teams:lineup", "post", TEAM_A),
    Row("password_change", "get", LOGGED_IN),
    Row("password_change_done", "get", LOGGED_IN),
    Row("admin:index", "get", TK),
]

#: Named URLs without a row, each with why.
LEFT_OUT = {
    "set_language": "anyone may choose a language (POST, a redirect)",
    "api-schema": "the OpenAPI schema, public",
    "logout": "anyone may log out",
    "password_reset_confirm": "needs a token from a mail: tests/ubf/test_password_reset.py",
    "portal:accept_invitation": "needs a token from a mail: tests/clubs/test_invitations.py",
    "portal:landing": "a redirect by role after login: tests/portal/test_club_landing.py",
    "portal:fee_overview": "a redirect to /klubb/, where the fee lists are linked",
    "api-docs": "the API's Swagger UI, public (tests/api/test_schema.py)",
}
#: The API's own matrix (every endpoint by role, reads and writes) is
#: tests/api/test_permission_matrix.py, which fails on an endpoint without a row.
#: The admin's own URLs: the admin lets only staff in (admin:index stands for them all),
#: and TK's model permissions are tests/ubf/test_admin.py's.


def _row_names() -> set[str]:
    return set(PUBLIC) | {r.name for r in WORKPLACE}


def test_every_named_url_has_a_row_or_a_reason():
    missing = [
        n
        for n in named_urls()
        if n not in _row_names() and n not in LEFT_OUT and not n.startswith(("admin:", "api:"))
    ]
    assert missing == []
    assert set(LEFT_OUT) <= set(named_urls())


# ---------------------------------------------------------------------------------------------
# The demo season and the eight roles
# ---------------------------------------------------------------------------------------------


def _setup_roles() -> tuple[dict, dict]:
    """The roles' users and each URL name's path, on the loaded demo season."""
    from clubs.models import Club, ClubOfficial
    from pairs.models import PairHeat
    from teams.models import Match, Team, TeamCompetition, TeamHeat

    User = get_user_model()
    captain_a = User.objects.get(username="kapten")
    team_a = Team.objects.filter(captain_user=captain_a).order_by("id").first()
    heat_a = team_a.heat
    team_b = Team.objects.exclude(heat=heat_a).exclude(captain_user=captain_a).order_by("id")[0]
    captain_b = User.objects.create_user("matrix-kapten-b")
    team_b.captain_user = captain_b
    team_b.save(update_fields=["captain_user"])

    heat_responsible = User.objects.create_user("matrix-heatansvarig")
    TeamHeat.objects.filter(pk=heat_a.pk).update(responsible_user=heat_responsible)

    club_x = heat_a.organisers.order_by("id").first().club
    pair_heat = PairHeat.objects.order_by("id").first()
    pair_heat.clubs.add(club_x)
    arranging = set(heat_a.organisers.values_list("club_id", flat=True)) | set(
        pair_heat.clubs.values_list("id", flat=True)
    )
    club_y = Club.objects.exclude(pk__in=arranging).order_by("id").first()
    official_x = User.objects.create_user("matrix-klubb-x")
    ClubOfficial.objects.create(user=official_x, club=club_x)
    official_y = User.objects.create_user("matrix-klubb-y")
    ClubOfficial.objects.create(user=official_y, club=club_y)
    users = {
        "anonymous": None,
        "player": User.objects.create_user("matrix-spelare"),
        "captain_a": captain_a,
        "captain_b": captain_b,
        "official_x": official_x,
        "official_y": official_y,
        "heat_responsible": heat_responsible,
        "tk": User.objects.get(username="tk"),
    }
    match = Match.objects.filter(status="played").order_by("id").first()
    own_match = (
        Match.objects.filter(home=team_a).order_by("id").first()
        or Match.objects.filter(away=team_a).order_by("id").first()
    )
    pair_comp = pair_heat.competition
    team_comp = TeamCompetition.objects.order_by("id").first()
    fee = {"scope": "heat", "kind": "lagkval", "pk": heat_a.pk}
    from results.models import ResultUpload
    from teams.models import Penalty, TeamEntryRequest, WalkOver

    upload = ResultUpload.objects.filter(heat_id=heat_a.pk).order_by("id").first()
    penalty = Penalty.objects.create(team=team_a, vp=1, status="granted", reason="matris")
    walkover_match = Match.objects.filter(heat=heat_a).exclude(pk=own_match.pk).order_by("id")[0]
    walkover = WalkOver.objects.create(
        match=walkover_match, offender=walkover_match.home, status="granted", reason="matris"
    )
    from teams.models import Ruling

    ruling = Ruling.objects.create(
        match=match, td_names="TL", td_category="non_playing", ruling="matris"
    )
    entry_request = TeamEntryRequest.objects.create(
        heat=heat_a,
        name="Matrislaget",
        captain_mid="1",
        address="Gatan 1",
        phone="070",
        email="m@example.se",
        requested_by=captain_b,
    )
    from teams.models import HeatPlaceOffer

    other_heat = TeamHeat.objects.exclude(pk=heat_a.pk).order_by("id").first()
    heat_offer = HeatPlaceOffer.objects.create(
        competition=team_a.competition, team=team_a, from_heat=heat_a, to_heat=other_heat
    )
    paths = {
        "portal:home": reverse("portal:home"),
        "portal:calendar": reverse("portal:calendar"),
        "portal:calendar_ics": reverse("portal:calendar_ics"),
        "portal:competition_ics": reverse("portal:competition_ics", args=[team_comp.pk]),
        "portal:lag": reverse("portal:lag"),
        "portal:lag_final": reverse("portal:lag_final"),
        "portal:lag_final_pdf": reverse("portal:lag_final_pdf"),
        "portal:lag_team": reverse("portal:lag_team", args=[team_a.pk]),
        "portal:lag_match": reverse("portal:lag_match", args=[match.pk]),
        "portal:par": reverse("portal:par"),
        "portal:par_heat": reverse("portal:par_heat", args=[pair_heat.pk]),
        "portal:par_heat_pdf": reverse("portal:par_heat_pdf", args=[pair_heat.pk]),
        "portal:par_final": reverse("portal:par_final", args=[pair_comp.pk]),
        "portal:par_final_pdf": reverse("portal:par_final_pdf", args=[pair_comp.pk]),
        "portal:lag_heat": reverse("portal:lag_heat", args=[heat_a.pk]),
        "portal:lag_heat_pdf": reverse("portal:lag_heat_pdf", args=[heat_a.pk]),
        "portal:par_competition": reverse("portal:par_competition", args=[pair_comp.pk]),
        "login": reverse("login"),
        "password_reset": reverse("password_reset"),
        "password_reset_done": reverse("password_reset_done"),
        "password_reset_complete": reverse("password_reset_complete"),
        "results:upload_pair_heat": reverse("results:upload_pair_heat", args=[pair_heat.pk]),
        "results:upload_team_heat": reverse("results:upload_team_heat", args=[heat_a.pk]),
        "results:upload_team_final": reverse("results:upload_team_final", args=[team_comp.pk]),
        "results:upload_pair_final": reverse("results:upload_pair_final", args=[pair_comp.pk]),
        "portal:dashboard": reverse("portal:dashboard"),
        "portal:tk_queue": reverse("portal:tk_queue"),
        "portal:tk_decide": reverse("portal:tk_decide"),
        "portal:tk_log": reverse("portal:tk_log"),
        "portal:tk_log_csv": reverse("portal:tk_log_csv"),
        "portal:register_pair_heat": reverse("portal:register_pair_heat"),
        "portal:register_team_heat": reverse("portal:register_team_heat"),
        "portal:enter_pair": reverse("portal:enter_pair", args=[pair_heat.pk]),
        "portal:enter_direct_final": reverse("portal:enter_direct_final", args=[pair_comp.pk]),
        "portal:sm_partner": reverse("portal:sm_partner", args=[pair_comp.pk]),
        "portal:pair_final_reserves": reverse("portal:pair_final_reserves", args=[pair_comp.pk]),
        "portal:fee_list": reverse("portal:fee_list", kwargs=fee),
        "portal:fee_list_download": reverse(
            "portal:fee_list_download", kwargs={**fee, "fmt": "csv"}
        ),
        "teams:index": reverse("teams:index"),
        "teams:enter": reverse("teams:enter", args=[heat_a.pk]),
        "teams:roster": reverse("teams:roster", args=[team_a.pk]),
        "teams:lineup": reverse("teams:lineup", args=[team_a.pk, own_match.pk]),
        "password_change": reverse("password_change"),
        "password_change_done": reverse("password_change_done"),
        "admin:index": reverse("admin:index"),
        "teams:answer_entry_request": reverse(
            "teams:answer_entry_request", args=[entry_request.pk]
        ),
        "portal:captain_team": reverse("portal:captain_team", args=[team_a.pk]),
        "portal:club_heat": reverse("portal:club_heat", args=["parkval", pair_heat.pk]),
        "portal:player_lookup": reverse("portal:player_lookup") + "?q=a",
        "portal:tk_award_walkover": reverse("portal:tk_award_walkover"),
        "portal:tk_revoke_walkover": reverse("portal:tk_revoke_walkover", args=[walkover.pk]),
        "portal:tk_lift_penalty": reverse("portal:tk_lift_penalty", args=[penalty.pk]),
        "portal:tk_final_seats": reverse("portal:tk_final_seats", args=[pair_comp.pk]),
        "portal:tk_sanctions": reverse("portal:tk_sanctions"),
        "portal:tk_impose_penalty": reverse("portal:tk_impose_penalty"),
        "portal:tk_disqualify": reverse("portal:tk_disqualify"),
        "portal:tk_draw_lot": reverse("portal:tk_draw_lot", args=[pair_comp.pk]),
        "portal:tk_hand_lot": reverse("portal:tk_hand_lot", args=[pair_comp.pk]),
        "portal:tk_season": reverse("portal:tk_season"),
        "portal:heat_schedule": reverse("portal:heat_schedule", args=[heat_a.pk]),
        "portal:final_schedule": reverse("portal:final_schedule", args=[team_comp.pk]),
        "portal:tk_direct_final": reverse("portal:tk_direct_final"),
        "portal:tk_mp_table": reverse("portal:tk_mp_table"),
        "portal:tk_register": reverse("portal:tk_register"),
        "portal:tk_next_season": reverse("portal:tk_next_season"),
        "portal:tk_rulings": reverse("portal:tk_rulings"),
        "portal:tk_ruling": reverse("portal:tk_ruling", args=[ruling.pk]),
        "portal:tk_protests": reverse("portal:tk_protests"),
        "portal:tk_semifinal": reverse("portal:tk_semifinal"),
        "portal:tk_semifinal_venues": reverse("portal:tk_semifinal_venues"),
        "portal:tk_semifinal_list": reverse("portal:tk_semifinal_list", args=["xlsx"]),
        "portal:captain_semifinal": reverse("portal:captain_semifinal", args=[team_a.pk]),
        "portal:captain_balance_dispensation": reverse(
            "portal:captain_balance_dispensation", args=[team_a.pk]
        ),
        "portal:tk_short_heat": reverse("portal:tk_short_heat", args=[heat_a.pk]),
        "portal:captain_heat_offer": reverse(
            "portal:captain_heat_offer", args=[team_a.pk, heat_offer.pk]
        ),
        "portal:tk_invite": reverse("portal:tk_invite"),
        "portal:club_invite": reverse("portal:club_invite"),
        "results:upload_file": reverse("results:upload_file", args=[upload.pk]),
    }
    return users, paths


def _row_counts() -> dict[str, int]:
    return {
        m._meta.label: m._default_manager.count()
        for m in apps.get_models()
        if m._meta.label != "sessions.Session"
    }


def _refused(response) -> bool:
    if response.status_code in (403, 404):
        return True
    location = response.get("Location", "") if response.status_code == 302 else ""
    return "/login/" in location


@pytest.fixture(scope="module")
def matrix(django_db_setup, django_db_blocker, tmp_path_factory):
    """Every row asked by every role: {(name, method, role): (status, refused)}, and under
    "written" what the refused roles of each row changed (model: (before, after))."""
    from ubf.celery import app

    old_eager = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    with (
        django_db_blocker.unblock(),
        override_settings(
            MEDIA_ROOT=str(tmp_path_factory.mktemp("matrix-media")),
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        ),
    ):
        call_command("load_demo", stdout=StringIO())
        try:
            users, paths = _setup_roles()
            clients = {}
            for role, user in users.items():
                clients[role] = Client()
                if user is not None:
                    clients[role].force_login(user)
            out, written = {}, {}
            for name in PUBLIC:
                for role in ROLES:
                    response = clients[role].get(paths[name])
                    out[name, "get", role] = (response.status_code, _refused(response))
            for row in WORKPLACE:
                # The refused roles first, with the row counts around them all.
                before = _row_counts()
                for role in [r for r in ROLES if r not in row.allowed] + sorted(row.allowed):
                    if role in row.allowed and (row.name, row.method) not in written:
                        after = _row_counts()
                        written[row.name, row.method] = {
                            k: (v, after[k]) for k, v in before.items() if after[k] != v
                        }
                    response = getattr(clients[role], row.method)(paths[row.name])
                    out[row.name, row.method, role] = (response.status_code, _refused(response))
                if (row.name, row.method) not in written:
                    after = _row_counts()
                    written[row.name, row.method] = {
                        k: (v, after[k]) for k, v in before.items() if after[k] != v
                    }
            out["written"] = written
            yield out
        finally:
            call_command("flush", interactive=False, verbosity=0)
            app.conf.CELERY_TASK_ALWAYS_EAGER = old_eager


@pytest.mark.django_db
def test_public_pages_answer_everyone(matrix):
    wrong = {
        (n, role): matrix[n, "get", role][0]
        for n in PUBLIC
        for role in ROLES
        if matrix[n, "get", role][0] != 200
    }
    assert wrong == {}


@pytest.mark.django_db
def test_the_allowed_roles_get_their_page_or_their_form(matrix):
    wrong = {}
    for row in WORKPLACE:
        for role in sorted(row.allowed):
            status, refused = matrix[row.name, row.method, role]
            ok = status == 200 if row.method == "get" else not refused
            if not ok:
                wrong[row.name, row.method, role] = status
    assert wrong == {}


@pytest.mark.django_db
def test_every_other_role_is_refused_and_nothing_is_written(matrix):
    wrong = {}
    for row in WORKPLACE:
        for role in sorted(EVERYONE - row.allowed):
            status, refused = matrix[row.name, row.method, role]
            if not refused:
                wrong[row.name, row.method, role] = status
    assert wrong == {}
    written = {k: v for k, v in matrix["written"].items() if v}
    assert written == {}


@pytest.mark.django_db
def test_a_heat_responsible_manages_the_rosters_of_every_team_in_the_heat(matrix):
    """The chosen rule: team A is not of the heat responsible's club (they have none), and
    its roster and line-up are theirs to change; another club's official and team B's
    captain are refused."""
    for name in ("teams:roster", "teams:lineup"):
        assert matrix[name, "get", "heat_responsible"][0] == 200
        assert not matrix[name, "post", "heat_responsible"][1]
        for role in ("official_y", "captain_b", "player"):
            assert matrix[name, "get", role][0] == 403, (name, role)
            assert matrix[name, "post", role][0] == 403, (name, role)

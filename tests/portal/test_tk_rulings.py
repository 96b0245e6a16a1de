"""/tk/domslut/ (issue 22): every step of a ruling's case on TK's pages (R-RULING-1..3), in
Swedish and English; a refused step saves nothing; a decision that changes a board runs the
real recompute (no mock) and the match page and the standings show it. Figures by hand from
the WBF scale for 16 boards (R-VP-2): margin 20 → 15.00–5.00, margin 30 → 16.73–3.27."""

from decimal import Decimal

import pytest
from django.urls import reverse

from clubs.models import Decision
from results.models import StandingSnapshot
from teams.models import BoardResult, Match, Ruling
from tests.factories import MatchFactory, TeamFactory, TeamHeatFactory, UserFactory

pytestmark = pytest.mark.django_db

RULING = {
    "td_names": "Ryszard Sliwinski",
    "td_category": "non_playing",
    "board_number": "7",
    "hands": "♠AK5 …",
    "auction": "1NT - pass - 2♣ (paus) - pass",
    "play": "♠ utspel",
    "why_called": "Oklar paus",
    "ruling": "Resultatet står sig",
}
APPEAL = {
    "step": "appeal",
    "appeal_grounds": "Pausen gav information",
    "other_side_view": "Ingen paus",
    "involved": "N/S Ek–Al, Ö/V Berg–Dahl, TL Ryszard Sliwinski",
}


@pytest.fixture
def tk(client):
    user = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


@pytest.fixture
def match():
    """A played 16-board match, 40–20 IMPs (15.00–5.00 VP), board 7 at 0–10 IMPs, in a heat
    with three more teams (the jury's candidates)."""
    heat = TeamHeatFactory()
    home = TeamFactory(heat=heat, players=0, name="Fyris")
    m = MatchFactory(
        home=home,
        away=TeamFactory(heat=heat, players=0, name="Gävle"),
        status=Match.Status.PLAYED,
        imps_home=Decimal("40"),
        imps_away=Decimal("20"),
        vp_home=Decimal("15.00"),
        vp_away=Decimal("5.00"),
    )
    for name in ("Enköping", "Sala", "Tierp"):
        TeamFactory(heat=heat, players=0, name=name)
    BoardResult.objects.create(
        match=m, board_number=7, imps_home=Decimal("0"), imps_away=Decimal("10")
    )
    return m


def record(client, match, **kw):
    return client.post(reverse("portal:tk_rulings"), {"match": match.pk, **RULING, **kw})


def step(client, ruling, **data):
    return client.post(reverse("portal:tk_ruling", args=[ruling.pk]), data, follow=True)


def test_r_ruling_1_tk_records_a_ruling_from_the_page(client, tk, match):
    page = client.get(reverse("portal:tk_rulings"))
    assert page.status_code == 200 and str(match) in page.content.decode()
    response = record(client, match)
    ruling = Ruling.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("portal:tk_ruling", args=[ruling.pk])
    assert ruling.board_number == 7 and ruling.stage == Ruling.Stage.RULED
    assert ruling.recorded_by == tk


def test_r_ruling_1_refused_without_a_ruling_text_saves_nothing(client, tk, match):
    response = client.post(
        reverse("portal:tk_rulings"), {"match": match.pk, **RULING, "ruling": ""}, follow=True
    )
    assert "Skriv domslutet." in response.content.decode()
    assert not Ruling.objects.exists()


def test_r_ruling_2_appeal_from_the_page_and_refusal_lists_what_is_missing(client, tk, match):
    record(client, match)
    ruling = Ruling.objects.get()
    text = step(client, ruling, **{**APPEAL, "other_side_view": ""}).content.decode()
    assert "Överklagandet saknar" in text and "andra sidans synpunkter" in text
    ruling.refresh_from_db()
    assert ruling.stage == Ruling.Stage.RULED
    text = step(client, ruling, **APPEAL).content.decode()
    ruling.refresh_from_db()
    assert ruling.stage == Ruling.Stage.APPEALED
    assert "Enköping" in text and "Fyris, Gävle" not in text  # the candidates shown


def test_r_ruling_3_jury_drawn_from_uninvolved_teams_and_decides(client, tk, match):
    record(client, match)
    ruling = Ruling.objects.get()
    step(client, ruling, **APPEAL)
    text = step(client, ruling, step="draw_jury", seed="abc").content.decode()
    jury = set(ruling.jury_teams.values_list("name", flat=True))
    assert jury == {"Enköping", "Sala", "Tierp"}  # 3 of the 3 not in the match
    assert "Juryn är lottad" in text
    step(client, ruling, step="jury", decision="Justerat resultat på bricka 7")
    ruling.refresh_from_db()
    assert ruling.stage == Ruling.Stage.JURY and ruling.jury_decision.startswith("Justerat")


def test_r_ruling_3_jury_board_adjustment_recomputes_standings(
    client, tk, match, django_capture_on_commit_callbacks
):
    """R-RULING-3, R-VP-1: the jury's 0–0 on board 7 makes the match 40–10 (margin 30):
    16.73–3.27 VP on the match, its public page and the heat's standings."""
    record(client, match)
    ruling = Ruling.objects.get()
    step(client, ruling, **APPEAL)
    step(client, ruling, step="draw_jury", seed="abc")
    step(client, ruling, step="jury", decision="Bricka 7 ges 0–0")
    with django_capture_on_commit_callbacks(execute=True):
        text = step(
            client, ruling, step="adjust", imps_home="0", imps_away="0", reason="Juryn"
        ).content.decode()
    assert "Resultatet är ändrat" in text
    match.refresh_from_db()
    assert (match.imps_home, match.imps_away) == (Decimal("40.00"), Decimal("10.00"))
    assert (match.vp_home, match.vp_away) == (Decimal("16.73"), Decimal("3.27"))
    snap = StandingSnapshot.objects.get(scope="team_heat", heat=match.heat)
    vp = {row["name"]: row["vp"] for row in snap.data}
    assert (vp["Fyris"], vp["Gävle"]) == ("16.73", "3.27")
    public = client.get(reverse("portal:lag_match", args=[match.pk])).content.decode()
    assert "Bricka 7 ges 0–0" in public and "juryn (R-RULING-3)" in public


def test_r_ruling_3_lagkommission_steps_and_final(client, tk, match):
    record(client, match)
    ruling = Ruling.objects.get()
    step(client, ruling, **APPEAL)
    step(client, ruling, step="draw_jury", seed="abc")
    step(client, ruling, step="jury", decision="Bricka 7 ges 0–0")
    step(client, ruling, step="lagkommission", grounds="Fel tolkning")
    ruling.refresh_from_db()
    assert ruling.stage == Ruling.Stage.LAGKOMMISSION
    # pending at the Lagkommission: neither the jury's decision nor the case shows publicly
    public = client.get(reverse("portal:lag_match", args=[match.pk])).content.decode()
    assert "Bricka 7 ges 0–0" not in public
    text = step(
        client, ruling, step="adjust", imps_home="0", imps_away="0", reason="x"
    ).content.decode()
    assert "kan inte göras nu" in text
    step(client, ruling, step="lagkommission_decision", decision="TL:s domslut står sig")
    ruling.refresh_from_db()
    assert ruling.stage == Ruling.Stage.FINAL
    public = client.get(reverse("portal:lag_match", args=[match.pk])).content.decode()
    assert "TL:s domslut står sig" in public
    actions = list(Decision.objects.order_by("pk").values_list("action", flat=True))
    assert actions[-1] == "teams.ruling.lagkommission_decided"


def test_pages_in_english(client, tk, match):
    record(client, match)
    ruling = Ruling.objects.get()
    text = client.get(reverse("portal:tk_ruling", args=[ruling.pk]) + "?lang=en").content
    assert b"Appeal to the jury" in text
    text = client.get(reverse("portal:tk_rulings") + "?lang=en").content
    assert b"Rulings and appeals" in text


def test_not_tk_is_refused(client, match):
    client.force_login(UserFactory())
    assert client.get(reverse("portal:tk_rulings")).status_code == 403
    assert record(client, match).status_code == 403
    assert not Ruling.objects.exists()


# ---------------------------------------------------------------------------------------------
# Protests against an illegal player (R-TEAM-RES-5): 31 March 2017 for the SM semifinal
# places, 30 April 2017 for the SM final places; later protests refused, TK included.
# ---------------------------------------------------------------------------------------------


def protest(client, team, concerning, filed_on):
    return client.post(
        reverse("portal:tk_protests"),
        {
            "team": team.pk,
            "concerning": concerning,
            "filed_on": filed_on,
            "text": "Spelare X spelade för Sala i rond 2",
        },
        follow=True,
    )


@pytest.mark.parametrize(
    "today,concerning,accepted",
    [
        ("2017-03-31", "sm_semifinal", True),
        ("2017-04-01", "sm_semifinal", False),
        ("2017-04-30", "sm_final", True),
        ("2017-05-01", "sm_final", False),
    ],
)
def test_r_team_res_5_protest_deadlines_for_everyone_tk_included(
    client, tk, match, today, concerning, accepted
):
    from clubs import clock

    with clock.frozen(f"{today} 12:00"):
        text = protest(client, match.home, concerning, today).content.decode()
    filed = Decision.objects.filter(action="teams.protest.filed")
    assert filed.exists() is accepted
    if accepted:
        assert "Protesten är registrerad." in text
        assert str(filed.get().data["deadline"]) in {"2017-03-31", "2017-04-30"}
    else:
        assert "R-TEAM-RES-5" in text or "protest" in text.lower()


def test_r_team_res_5_protests_and_deadlines_shown_in_the_queue(client, tk, match):
    from clubs import clock

    with clock.frozen("2017-03-20 12:00"):
        protest(client, match.home, "sm_semifinal", "2017-03-20")
        queue = client.get(reverse("portal:tk_queue")).content.decode()
        page = client.get(reverse("portal:tk_protests")).content.decode()
    assert "2017-03-31" in queue and "2017-04-30" in queue
    assert "Protester mot otillåten spelare" in queue
    assert "Spelare X spelade för Sala" in page and "2017-03-31" in page
    english = client.get(reverse("portal:tk_protests") + "?lang=en").content.decode()
    assert "Protests against an illegal player" in english


def test_r_ruling_3_open_appeal_counted_in_the_queue(client, tk, match):
    record(client, match)
    step(client, Ruling.objects.get(), **APPEAL)
    queue = client.get(reverse("portal:tk_queue")).content.decode()
    assert "1 öppet överklagande" in queue

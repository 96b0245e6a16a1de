"""A ruling's outcome that changes the score (R-RULING-1..3, R-VP-1): the real recompute runs
(the ``decide`` fixture, no mock) and the heat's standings it wrote are read back. Figures by
hand from the WBF 20-0 scale's values for 16 boards (SPEC R-VP-2): margin 20 → 15.00–5.00,
margin 30 → 16.73–3.27, margin 0 → 10.00–10.00."""

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied

from clubs.models import Decision
from clubs.services.base import ServiceError
from results.models import StandingSnapshot
from teams.models import BoardResult, Match, Ruling
from teams.services import decisions
from tests.factories import MatchFactory, TeamFactory, TeamHeatFactory, UserFactory

pytestmark = pytest.mark.django_db


def played_match(heat=None):
    """A played 16-board match, 40–20 IMPs (15.00–5.00 VP), board 7 at 0–10 IMPs."""
    home = TeamFactory(heat=heat or TeamHeatFactory(), players=0)
    match = MatchFactory(
        home=home,
        status=Match.Status.PLAYED,
        imps_home=Decimal("40"),
        imps_away=Decimal("20"),
        vp_home=Decimal("15.00"),
        vp_away=Decimal("5.00"),
    )
    BoardResult.objects.create(
        match=match, board_number=7, imps_home=Decimal("0"), imps_away=Decimal("10")
    )
    return match


def ruled(match, tk, board=7):
    return decisions.record_ruling(
        tk,
        match,
        td_names="Ryszard Sliwinski",
        td_category="non_playing",
        board_number=board,
        hands="♠AK5 …",
        auction="1NT - pass - 2♣ (paus) - pass",
        play="♠ utspel",
        why_called="Oklar paus",
        ruling="Resultatet står sig",
    )


def to_jury(tk, ruling):
    return decisions.appeal_to_jury(
        tk,
        ruling,
        appeal_grounds="Pausen gav information",
        other_side_view="Ingen paus",
        involved="N/S Ek–Al, Ö/V Berg–Dahl, TL Ryszard Sliwinski",
    )


def heat_vp(heat) -> dict[str, str]:
    snap = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
    return {row["name"]: row["vp"] for row in snap.data}


def test_r_ruling_3_jury_adjusts_a_board_and_the_standings_follow(tk, decide):
    """R-RULING-3, R-VP-1: the jury gives board 7 as 0–0 instead of 0–10: the match goes from
    40–20 to 40–10 IMPs, margin 30 → 16.73–3.27 VP, in the match and in the standings."""
    match = played_match()
    ruling = to_jury(tk, ruled(match, tk))
    for _ in range(3):
        TeamFactory(heat=match.heat, players=0)
    decisions.draw_jury(tk, ruling, seed="s")
    decisions.record_jury_decision(tk, ruling, decision="Justerat resultat 3NT= på bricka 7")
    decide(decisions.adjust_score, tk, ruling, imps_home="0", imps_away="0", reason="Juryns beslut")
    match.refresh_from_db()
    assert (match.imps_home, match.imps_away) == (Decimal("40.00"), Decimal("10.00"))
    assert (match.vp_home, match.vp_away) == (Decimal("16.73"), Decimal("3.27"))
    board = BoardResult.objects.get(match=match, board_number=7)
    assert (board.imps_home, board.imps_away) == (0, 0)
    vp = heat_vp(match.heat)
    assert (vp[match.home.name], vp[match.away.name]) == ("16.73", "3.27")
    d = Decision.objects.get(action="teams.ruling.score_adjusted")
    assert d.clause == "R-RULING-3" and d.data["before"]["imps_away"] == "20.00"


def test_r_ruling_1_td_adjusts_the_match_imps(tk, decide):
    """R-RULING-1, R-VP-1: a ruling on the match (no board) sets its IMPs: 30–30 → 10.00–10.00."""
    match = played_match()
    ruling = ruled(match, tk, board=None)
    decide(decisions.adjust_score, tk, ruling, imps_home="30", imps_away="30", reason="TL")
    match.refresh_from_db()
    assert (match.vp_home, match.vp_away) == (Decimal("10.00"), Decimal("10.00"))
    vp = heat_vp(match.heat)
    assert vp[match.home.name] == "10.00"


def test_r_ruling_2_no_score_change_while_the_appeal_is_pending(tk):
    """R-RULING-2/3: an appealed ruling waits for the jury: nothing changes."""
    match = played_match()
    ruling = to_jury(tk, ruled(match, tk))
    with pytest.raises(ServiceError):
        decisions.adjust_score(tk, ruling, imps_home="0", imps_away="0", reason="För tidigt")
    match.refresh_from_db()
    assert match.imps_away == Decimal("20.00")
    assert not Decision.objects.filter(action="teams.ruling.score_adjusted").exists()


@pytest.mark.parametrize(
    "home,away,reason", [("-1", "0", "x"), ("abc", "0", "x"), ("1.234", "0", "x"), ("0", "0", "")]
)
def test_r_ruling_1_bad_input_refused(tk, home, away, reason):
    match = played_match()
    ruling = ruled(match, tk)
    with pytest.raises(ServiceError):
        decisions.adjust_score(tk, ruling, imps_home=home, imps_away=away, reason=reason)
    assert BoardResult.objects.get(match=match).imps_away == 10


def test_r_ruling_1_a_board_without_result_is_refused(tk):
    match = played_match()
    ruling = ruled(match, tk, board=12)
    with pytest.raises(ServiceError):
        decisions.adjust_score(tk, ruling, imps_home="1", imps_away="0", reason="x")


def test_r_ruling_1_only_tk_adjusts(tk):
    match = played_match()
    ruling = ruled(match, tk)
    with pytest.raises(PermissionDenied):
        decisions.adjust_score(UserFactory(), ruling, imps_home="1", imps_away="0", reason="x")
    assert Ruling.objects.get().stage == Ruling.Stage.RULED


def test_r_ruling_3_lagkommission_final_decision_restores_the_board(tk, decide):
    """R-RULING-3: the jury's 0–0 is appealed; the Lagkommission (final) gives back 0–10, so
    the match is 40–20 again, margin 20 → 15.00–5.00."""
    match = played_match()
    for _ in range(3):
        TeamFactory(heat=match.heat, players=0)
    ruling = to_jury(tk, ruled(match, tk))
    decisions.draw_jury(tk, ruling, seed="s")
    decisions.record_jury_decision(tk, ruling, decision="0–0")
    decide(decisions.adjust_score, tk, ruling, imps_home="0", imps_away="0", reason="Juryn")
    decisions.appeal_to_lagkommission(tk, ruling, grounds="Fel tolkning")
    with pytest.raises(ServiceError):  # pending at the Lagkommission
        decisions.adjust_score(tk, ruling, imps_home="0", imps_away="10", reason="För tidigt")
    decisions.record_lagkommission_decision(tk, ruling, decision="TL:s domslut står sig")
    decide(decisions.adjust_score, tk, ruling, imps_home="0", imps_away="10", reason="LK")
    match.refresh_from_db()
    assert (match.imps_home, match.imps_away) == (Decimal("40.00"), Decimal("20.00"))
    assert heat_vp(match.heat)[match.home.name] == "15.00"

"""R-TEAM-SEMI-1: the SM Lag semifinal venues chosen one team at a time in the final's full
order, from the winners down, once the final is complete; a team that declines lets the next
team of the full order up; TK corrects with a reason; the list for SBF (CSV, Excel).

The final here: five teams F0..F4, a single round robin of 20 boards in which the team with
the lower number always wins by 20 IMPs, so the full order is F0, F1, F2, F3, F4 (4, 3, 2, 1
and 0 wins). UBF has three places (SBF's number)."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from openpyxl import load_workbook

from clubs.models import Decision
from clubs.services.base import ServiceError
from results.models import StandingSnapshot
from results.services.recompute import recompute_team_competition
from results.services.semifinal import (
    correct_semifinal_choice,
    record_semifinal_choice,
    semifinal_board,
    semifinal_list_csv,
    semifinal_list_xlsx,
)
from teams.models import Match, SemifinalChoice, SemifinalVenue
from teams.services.semifinal import VenueRow, save_semifinal_venues
from tests.factories import TeamFactory, TeamHeatFactory, UserFactory

pytestmark = pytest.mark.django_db


def build_final(places: int = 3, *, play_all: bool = True, names=None):
    """Five teams in the final, every match played (or the last one not, ``play_all=False``),
    recomputed; SBF's ``places``; two venues, Örebro (1 place for UBF) and Umeå (no limit)."""
    heat = TeamHeatFactory()
    comp = heat.competition
    comp.sm_semifinal_places = places
    comp.save()
    names = names or [f"F{i}" for i in range(5)]
    teams = [
        TeamFactory(heat=heat, final_seat=i + 1, name=n, players=4) for i, n in enumerate(names)
    ]
    pairs = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    for rnd, (i, j) in enumerate(pairs, start=1):
        last = rnd == len(pairs)
        Match.objects.create(
            competition=comp,
            stage="final",
            round=rnd,
            home=teams[i],
            away=teams[j],
            boards=20,
            status="scheduled" if last and not play_all else "played",
            imps_home=None if last and not play_all else 30,
            imps_away=None if last and not play_all else 10,
        )
    recompute_team_competition(comp.id)
    orebro = SemifinalVenue.objects.create(
        competition=comp, name="Örebro", first_date=date(2017, 4, 1), places=1
    )
    umea = SemifinalVenue.objects.create(competition=comp, name="Umeå", first_date=date(2017, 4, 1))
    return comp, teams, orebro, umea


@pytest.fixture
def tk():
    return UserFactory(is_superuser=True, is_staff=True)


def refusal(call) -> str:
    with pytest.raises(ServiceError) as exc:
        call()
    return " ".join(exc.value.messages("sv"))


def test_r_team_semi_1_no_choice_before_the_final_is_complete(tk):
    comp, (f0, *_), orebro, _umea = build_final(play_all=False)
    text = refusal(lambda: record_semifinal_choice(tk, f0, venue=orebro))
    assert "DM-finalen är inte färdigspelad" in text and "R-TEAM-SEMI-1" in text
    assert not SemifinalChoice.objects.exists()
    board = semifinal_board(comp)
    assert board.provisional and [t.name for t in board.turns] == ["F0", "F1", "F2"]


def test_r_team_semi_1_teams_choose_in_the_full_order_one_at_a_time(tk):
    comp, (f0, f1, f2, f3, f4), orebro, umea = build_final()
    board = semifinal_board(comp)
    assert not board.provisional and board.is_open
    assert [(t.name, t.number, t.state) for t in board.turns] == [
        ("F0", 1, "turn"),
        ("F1", 2, "waiting"),
        ("F2", 3, "waiting"),
    ]
    # Only the team whose turn it is: F1 before F0 is refused and names who chooses now.
    text = refusal(lambda: record_semifinal_choice(tk, f1, venue=umea))
    assert "Det är inte F1 tur att välja: nu väljer F0 (nummer 1)" in text
    # F3 has no place (three places: F0, F1, F2).
    assert "F3 har ingen av UBF:s 3 platser" in refusal(
        lambda: record_semifinal_choice(tk, f3, venue=umea)
    )
    choice = record_semifinal_choice(tk, f0, venue=orebro)
    assert choice.recorded_by == tk and choice.recorded_at is not None
    # Örebro had one place for UBF: F0 took it.
    assert "Örebro är full" in refusal(lambda: record_semifinal_choice(tk, f1, venue=orebro))
    # A team answers once; TK corrects.
    assert "F0 har redan svarat" in refusal(lambda: record_semifinal_choice(tk, f0, venue=umea))
    record_semifinal_choice(tk, f1, venue=umea)
    record_semifinal_choice(tk, f2, venue=umea)
    board = semifinal_board(comp)
    assert board.done and board.current is None
    assert [(t.name, t.venue.name) for t in board.turns] == [
        ("F0", "Örebro"),
        ("F1", "Umeå"),
        ("F2", "Umeå"),
    ]
    logged = Decision.objects.filter(action="teams.semifinal_choice.chosen").order_by("id")
    assert [(d.data["team"], d.data["venue"], d.data["number"]) for d in logged] == [
        ("F0", "Örebro", 1),
        ("F1", "Umeå", 2),
        ("F2", "Umeå", 3),
    ]


def test_r_team_semi_1_a_declined_place_goes_to_the_next_team_of_the_full_order(tk, decide):
    comp, (f0, f1, f2, f3, f4), orebro, umea = build_final()
    record_semifinal_choice(tk, f0, venue=orebro)
    # A decline says why.
    assert "Skriv en motivering" in refusal(lambda: record_semifinal_choice(tk, f1, decline=True))
    decide(record_semifinal_choice, tk, f1, decline=True, reason="Två spelare kan inte resa")
    board = semifinal_board(comp)
    # F3 (4th in the full order) moves up and chooses last, as number 3; F2 chooses now.
    assert [(t.name, t.number, t.state) for t in board.turns] == [
        ("F0", 1, "chosen"),
        ("F2", 2, "turn"),
        ("F3", 3, "waiting"),
    ]
    assert [c.team.name for c in board.declined] == ["F1"]
    logged = Decision.objects.get(action="teams.semifinal_choice.declined")
    assert logged.data["moved_up"] == ["F3"] and logged.reason == "Två spelare kan inte resa"
    # The recompute that followed: the standings' "SM n" follow the places.
    rows = StandingSnapshot.objects.get(scope="team_final", competition=comp).data
    assert [(r["name"], r["sm_choice"]) for r in rows] == [
        ("F0", 1),
        ("F1", None),
        ("F2", 2),
        ("F3", 3),
        ("F4", None),
    ]


def test_r_team_semi_1_the_captain_records_only_the_own_team_s_choice_in_its_turn(tk):
    comp, (f0, f1, *_), orebro, umea = build_final()
    captain0, captain1 = UserFactory(), UserFactory()
    f0.captain_user, f1.captain_user = captain0, captain1
    f0.save()
    f1.save()
    with pytest.raises(PermissionDenied):
        record_semifinal_choice(captain1, f0, venue=umea)
    assert "nu väljer F0" in refusal(lambda: record_semifinal_choice(captain1, f1, venue=umea))
    choice = record_semifinal_choice(captain0, f0, venue=umea)
    assert choice.recorded_by == captain0
    assert not SemifinalChoice.objects.filter(team=f1).exists()


def test_r_team_semi_1_tk_corrects_a_choice_with_a_reason(tk, decide):
    comp, (f0, f1, f2, f3, f4), orebro, umea = build_final()
    choice = record_semifinal_choice(tk, f0, venue=orebro)
    captain = UserFactory()
    with pytest.raises(PermissionDenied):
        correct_semifinal_choice(captain, choice, venue=umea, reason="fel")
    assert "Skriv en motivering" in refusal(
        lambda: correct_semifinal_choice(tk, choice, venue=umea)
    )
    correct_semifinal_choice(tk, choice, venue=umea, reason="Kaptenen sa Umeå, inte Örebro")
    choice.refresh_from_db()
    assert choice.venue == umea and choice.reason == "Kaptenen sa Umeå, inte Örebro"
    logged = Decision.objects.get(action="teams.semifinal_choice.corrected")
    assert logged.data["before"] == "F0: SM-semifinal i Örebro"
    assert logged.data["after"] == "F0: SM-semifinal i Umeå"
    # Örebro is free again: F1 may take it.
    record_semifinal_choice(tk, f1, venue=orebro)
    # F2 declines; F3 moves up and chooses. Taking F2's no back would push F3 out: refused.
    declined = decide(record_semifinal_choice, tk, f2, decline=True, reason="Avstår")
    record_semifinal_choice(tk, f3, venue=umea)
    text = refusal(lambda: correct_semifinal_choice(tk, declined, venue=umea, reason="Ångrat"))
    assert "F3 har redan svarat och skulle förlora sin plats" in text
    declined.refresh_from_db()
    assert declined.state == "declined"


def test_r_team_semi_1_an_undrawn_lot_in_the_choosing_order_closes_it(tk):
    comp, (f0, f1, *_), orebro, _umea = build_final()
    snap = StandingSnapshot.objects.get(scope="team_final", competition=comp)
    # As the recompute marks a tie its fixed seed settled (results.services.lots.standing_draw)
    for row in snap.data[1:3]:
        row["lot"] = {"among": [f1.pk, snap.data[2]["team_id"]], "lot": None}
    snap.save()
    text = refusal(lambda: record_semifinal_choice(tk, f0, venue=orebro))
    assert "Lotten mellan F1, F2 om plats 2–3 i finalen är inte dragen" in text
    assert "R-TEAM-TIE-1" in text


def test_r_team_semi_1_the_list_for_sbf_in_order_formula_safe(tk):
    names = ['=HYPERLINK("http://x","y")', "F1", "F2", "F3", "F4"]
    comp, (f0, f1, f2, *_), orebro, umea = build_final(names=names)
    record_semifinal_choice(tk, f0, venue=orebro)
    board = semifinal_board(comp, with_teams=True)
    rows = list(csv.reader(io.StringIO(semifinal_list_csv(board).lstrip("\ufeff")), delimiter=";"))
    assert rows[0][:6] == ["Ordning", "Lag", "Semifinalort", "Speldagar", "Status", "Spelare"]
    # Four players a team, three teams with a place: 12 rows; the first team's name as text.
    assert len(rows) == 1 + 12
    first = rows[1]
    assert first[0] == "1" and first[1] == '\'=HYPERLINK("http://x","y")'
    assert first[2:5] == ["Örebro", "2017-04-01", "valt"]
    assert first[6] == f0.captain.mid and first[9:11] == [f0.phone, f0.email]
    assert [r[0] for r in rows[1:]] == ["1"] * 4 + ["2"] * 4 + ["3"] * 4
    assert rows[5][4] == "väljer nu" and rows[9][4] == "väntar på sin tur"
    sheet = load_workbook(io.BytesIO(semifinal_list_xlsx(board))).active
    assert sheet["B2"].value == '=HYPERLINK("http://x","y")'
    assert sheet["B2"].data_type == "s"
    assert sheet.max_row == 13


def test_r_team_semi_1_sbf_venues_entered_by_tk_checked_before_saving(tk):
    comp, (f0, *_), orebro, umea = build_final()
    record_semifinal_choice(tk, f0, venue=orebro)
    keep = [
        VenueRow(orebro.pk, "Örebro", date(2017, 4, 1), None, 1),
        VenueRow(umea.pk, "Umeå", date(2017, 4, 1), None, None),
    ]
    # Refused, and nothing saved: a duplicate name, days out of order, the chosen venue
    # removed, UBF's places below the one team that has chosen, no reason.
    text = refusal(
        lambda: save_semifinal_venues(
            tk,
            comp,
            [
                VenueRow(orebro.pk, "Örebro", delete=True),
                VenueRow(None, "umeå", date(2017, 4, 2), date(2017, 4, 1)),
                keep[1],
            ],
            places=0,
            reason="",
        )
    )
    for part in (
        "Örebro kan inte tas bort: 1 lag har valt orten",
        "umeå: första speldagen ligger efter den sista",
        "Umeå står två gånger",
        "1 lag har redan valt semifinalort; UBF:s platser kan inte bli färre än så",
        "Skriv en motivering",
    ):
        assert part in text
    assert SemifinalVenue.objects.filter(competition=comp).count() == 2
    comp.refresh_from_db()
    assert comp.sm_semifinal_places == 3
    changes = save_semifinal_venues(
        tk,
        comp,
        [*keep, VenueRow(None, "Sundsvall", date(2017, 4, 1), date(2017, 4, 2), 2)],
        places=4,
        reason="SBF:s utskick 10 februari",
    )
    assert [c.message_sv for c in changes] == ["UBF:s platser: 3 → 4", "Sundsvall: ny"]
    assert list(
        SemifinalVenue.objects.filter(competition=comp).order_by("id").values_list("name", "places")
    ) == [
        ("Örebro", 1),
        ("Umeå", None),
        ("Sundsvall", 2),
    ]
    logged = Decision.objects.get(action="teams.semifinal_venues.configured")
    assert logged.reason == "SBF:s utskick 10 februari" and logged.clause == "R-TEAM-SEMI-1"
    # Four places now: F3 gets a turn as number 4.
    comp.refresh_from_db()
    assert [t.name for t in semifinal_board(comp).turns] == ["F0", "F1", "F2", "F3"]

"""The member register brought in (issue 23; CONTRACT.md "Season data"): preview, apply in one
transaction, the same file twice, a missing member kept, history, clubs and districts, the
command's last line. The file is tests/fixtures/register/federation_2016.csv; its figures are
worked by hand in tests/fixtures/register/README.md. R-GEN-2 (players by MID, membership paid
per season), R-TEAM-3 / R-PAIR-1 (a club's district)."""

from __future__ import annotations

from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubs.models import Club, Decision, District, Membership, Player, Representation
from clubs.services import register as service
from clubs.services.base import ServiceError
from tests.factories import (
    ClubFactory,
    DistrictFactory,
    PairEntryFactory,
    PairHeatFactory,
    SeasonFactory,
    member,
)

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "register"
FILE = FIXTURES / "federation_2016.csv"


@pytest.fixture
def federation():
    """The database the README's figures are worked against."""
    season = SeasonFactory()
    ubf = DistrictFactory()
    uppsala = ClubFactory(name="Uppsala BK", district=ubf)
    ClubFactory(name="Enköpings BS", district=ubf)
    kw = {"season": season, "club": uppsala}
    anna = member(
        mid="1001", first_name="Anna", last_name="Andersson", gender="F", birth_year=1950, **kw
    )
    member(
        mid="1002", first_name="Bo", last_name="Berg", gender="M", birth_year=1960, paid=False, **kw
    )
    member(mid="1003", first_name="Cecilia", last_name="Ceder", gender="F", birth_year=1970, **kw)
    david = member(
        mid="1004", first_name="David", last_name="Dahl", gender="M", birth_year=1980, **kw
    )
    # David has played: he has an entry, so he must never be deleted.
    heat = PairHeatFactory(competition__season=season, clubs=[uppsala])
    PairEntryFactory(heat=heat, player1=david, player2=anna)
    return season


def register():
    return service.read_file(FILE.read_bytes(), FILE.name)


def test_preview_saves_nothing_and_names_every_kind(federation):
    players = Player.objects.count()
    preview = service.preview_register(federation, register())
    assert preview.summary() == ("register: 2 new, 2 changed, 1 unchanged, 1 missing, 2 problems")
    assert [r.mid for r in preview.new] == ["1005", "1006"]
    changed = {c.row.mid: c.fields for c in preview.changed}
    assert changed == {
        "1002": {"paid": (False, True)},
        "1003": {"club": ("Uppsala BK", "Enköpings BS")},
    }
    assert [m.mid for m in preview.missing] == ["1004"]
    assert preview.unknown_clubs == [("Sala BK", "VBF"), ("Märsta BK", "UBF")]
    assert [p.row for p in preview.problems] == [5, 7]
    assert Player.objects.count() == players
    assert not Club.objects.filter(name="Sala BK").exists()


def test_apply_saves_it_and_the_same_file_twice_changes_nothing(federation, tk):
    first = service.apply_register(tk, federation, register())
    assert first.summary() == "register: 2 new, 2 changed, 1 unchanged, 1 missing, 2 problems"
    frida = Player.objects.get(mid="1005")
    assert (frida.first_name, frida.gender, frida.birth_year) == ("Frida", "F", 1990)
    sala = Club.objects.get(name="Sala BK")
    assert sala.district.code == "VBF"  # a new district, for the out-of-district rules
    assert District.objects.get(code="VBF").clubs.count() == 1
    assert Representation.objects.get(player=frida, season=federation).club == sala
    assert not Membership.objects.get(player=frida, season=federation).is_paid
    assert Membership.objects.get(player__mid="1002", season=federation).is_paid
    assert Representation.objects.get(player__mid="1003").club.name == "Enköpings BS"
    # Row 5 (no MID) and row 7 (Anna's MID again, another surname) are never saved.
    assert not Player.objects.filter(first_name="Erik").exists()
    assert Player.objects.get(mid="1001").last_name == "Andersson"
    # David is missing from the register: kept (he has an entry), marked.
    david = Player.objects.get(mid="1004")
    assert david.in_register is False
    # Every change is in the player's history.
    assert david.history.first().history_change_reason == "register"
    assert frida.history.count() == 1
    assert Representation.history.filter(player_id=Player.objects.get(mid="1003").pk).count() == 2
    assert Decision.objects.filter(action="clubs.register.imported").count() == 1

    counts = {m: m.objects.count() for m in (Player, Club, Representation, Membership)}
    history = Player.history.count()
    second = service.apply_register(tk, federation, register())
    assert second.summary() == "register: 0 new, 0 changed, 5 unchanged, 1 missing, 2 problems"
    assert {m: m.objects.count() for m in counts} == counts
    assert Player.history.count() == history
    assert Decision.objects.filter(action="clubs.register.imported").count() == 1


def test_a_missing_member_listed_again_is_back_in_the_register(federation, tk):
    service.apply_register(tk, federation, register())
    again = FILE.read_bytes() + "1004;David;Dahl;1980;M;Uppsala BK;UBF;ja;\r\n".encode("cp1252")
    preview = service.apply_register(tk, federation, service.read_file(again, "r.csv"))
    assert {c.row.mid: c.fields for c in preview.changed} == {
        "1004": {"in_register": (False, True)}
    }
    assert Player.objects.get(mid="1004").in_register is True


def test_only_tk_and_not_a_finished_season(federation, client):
    from django.core.exceptions import PermissionDenied

    from tests.factories import UserFactory

    with pytest.raises(PermissionDenied):
        service.apply_register(UserFactory(), federation, register())
    federation.is_finished = True
    federation.save()
    with pytest.raises(ServiceError) as caught:
        service.apply_register(None, federation, register())
    assert "avslutad" in str(caught.value)
    assert not Player.objects.filter(mid="1005").exists()


def test_the_command_previews_then_applies(federation):
    out = StringIO()
    call_command("import_register", str(FILE), "--season", "2016-2017", stdout=out)
    lines = out.getvalue().strip().splitlines()
    assert lines[-1] == "register: 2 new, 2 changed, 1 unchanged, 1 missing, 2 problems"
    assert any(line.startswith("Rad 5:") for line in lines)
    assert not Player.objects.filter(mid="1005").exists()
    out = StringIO()
    call_command("import_register", str(FILE), "--apply", stdout=out)
    assert out.getvalue().strip().splitlines()[-1] == lines[-1]
    assert Player.objects.filter(mid="1005").exists()
    out = StringIO()
    call_command("import_register", str(FILE), "--season", "2016-2017", "--apply", stdout=out)
    assert out.getvalue().strip().splitlines()[-1] == (
        "register: 0 new, 0 changed, 5 unchanged, 1 missing, 2 problems"
    )
    with pytest.raises(CommandError):
        call_command("import_register", str(FILE), "--season", "1999-2000")


def test_the_club_list(federation, tk):
    clubs = service.read_club_file((FIXTURES / "clubs.csv").read_bytes(), "clubs.csv")
    preview = service.apply_clubs(tk, clubs)
    # Uppsala BK and Enköpings BS get their numbers (changed); Sala BK is new, in VBF.
    assert preview.summary() == "clubs: 1 new, 2 changed, 0 unchanged, 0 problems"
    assert Club.objects.get(name="Uppsala BK").sbf_number == "101"
    assert Club.objects.get(name="Sala BK").district.code == "VBF"
    assert (
        service.preview_clubs(clubs).summary() == "clubs: 0 new, 0 changed, 3 unchanged, 0 problems"
    )


def test_paid_date_is_kept_when_the_register_still_says_paid(federation, tk):
    service.apply_register(tk, federation, register())
    assert Membership.objects.get(player__mid="1001").paid_on == date(2016, 8, 1)

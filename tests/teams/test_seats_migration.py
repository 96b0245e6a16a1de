"""The migration that drops ``Team.in_final``/``final_number`` (issue 20) keeps what only they
said on seat rows: a held seat without a number takes its team's number, a team marked for the
final without a held seat gets a provisional seat of its own (R-TEAM-ADV-1).

On a database of its own made by the migrations before it (``tests.scratch_db``): the later
migrations of issue 20 do not go back, so the test database cannot be taken back to 0004."""

from __future__ import annotations

from datetime import date

import pytest

from tests.scratch_db import migrate, scratch_database

BEFORE = [("teams", "0004_seat_basics_walkover_score")]
AFTER = [("teams", "0005_seats_team_final_from_seat_rows")]


@pytest.mark.timeout(900)  # a database made from the first migration up, twice over
@pytest.mark.django_db(transaction=True)
def test_flags_become_seat_rows_before_they_go(tmp_path):
    with scratch_database(tmp_path) as db:
        old = migrate(db, BEFORE)  # the flags, as the teams had them before issue 20
        get = old.get_model
        season = get("clubs", "Season").objects.create(name="2016-2017", start_year=2016)
        district = get("clubs", "District").objects.create(code="UBF", name="UBF")
        club = get("clubs", "Club").objects.create(district=district, name="BK", short_name="BK")
        captain = get("clubs", "Player").objects.create(
            mid="1", first_name="A", last_name="B", gender="F"
        )
        comp = get("teams", "TeamCompetition").objects.create(
            season=season,
            discipline="teams",
            qualifying_start=date(2016, 10, 1),
            qualifying_end=date(2017, 1, 31),
            heat_registration_deadline=date(2016, 9, 15),
            final_day1=date(2017, 3, 4),
            final_day2=date(2017, 3, 5),
            final_venue="Uppsala",
        )
        heat = get("teams", "TeamHeat").objects.create(
            competition=comp,
            kind="teams",
            name="Kval",
            first_date=date(2016, 11, 5),
            last_date=date(2016, 11, 5),
            responsible_name="R",
            responsible_email="r@example.se",
            boards_per_match=16,
            start_fee=500,
        )
        get("teams", "TeamHeatOrganiser").objects.create(heat=heat, club=club, competition=comp)

        def team(name, **flags):
            return get("teams", "Team").objects.create(
                competition=comp, heat=heat, name=name, captain=captain, **flags
            )

        seated = team("Med plats", in_final=True, final_number=4)
        get("teams", "TeamFinalSeat").objects.create(
            competition=comp, team=seated, key=str(seated.pk), source="allocation"
        )
        by_hand = team("Bara markerat", in_final=True, final_number=2)
        team("Utanför")

        new = migrate(db, AFTER)
        rows = new.get_model("teams", "TeamFinalSeat").objects.order_by("id")
        assert [(s.team.name, s.number, s.status, s.source, s.key) for s in rows] == [
            ("Med plats", 4, "provisional", "allocation", str(seated.pk)),
            ("Bara markerat", 2, "provisional", "allocation", str(by_hand.pk)),
        ]
        assert "in_final" not in {f.name for f in new.get_model("teams", "Team")._meta.fields}

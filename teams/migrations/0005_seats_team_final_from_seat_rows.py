"""Issue 20: who is in the DM Lag final is read from the seat rows alone; ``Team.in_final`` and
``Team.final_number`` (a cache of them that drifted) go. Before the columns go, what only they
said is moved onto seat rows: a held seat without a number takes its team's final number, and a
team marked for the final by hand without any held seat (a final set up before the allocation)
gets a provisional seat of its own with its number."""

from django.db import migrations

VACATED = "vacated"


def move_flags_to_seats(apps, schema_editor):
    Team = apps.get_model("teams", "Team")
    TeamFinalSeat = apps.get_model("teams", "TeamFinalSeat")
    for team in Team.objects.filter(in_final=True).order_by("id"):
        held = (
            TeamFinalSeat.objects.filter(team=team).exclude(status=VACATED).order_by("-id").first()
        )
        if held is not None:
            if held.number is None and team.final_number is not None:
                held.number = team.final_number
                held.save(update_fields=["number"])
            continue
        TeamFinalSeat.objects.create(
            competition_id=team.competition_id,
            key=str(team.id),
            team=team,
            origin_heat_id=team.heat_id,
            source="direct" if team.is_direct_qualifier else "allocation",
            status="provisional",
            number=team.final_number,
            reason="I finalen enligt lagets markering före issue 20 (R-TEAM-ADV-1)",
            reason_data={
                "template": "I finalen enligt lagets markering före issue 20",
                "params": {},
                "clause": "R-TEAM-ADV-1",
            },
        )


class Migration(migrations.Migration):
    dependencies = [
        ("teams", "0004_seat_basics_walkover_score"),
    ]

    operations = [
        migrations.RunPython(move_flags_to_seats, migrations.RunPython.noop),
        migrations.RemoveField(model_name="historicalteam", name="final_number"),
        migrations.RemoveField(model_name="historicalteam", name="in_final"),
        migrations.RemoveField(model_name="team", name="final_number"),
        migrations.RemoveField(model_name="team", name="in_final"),
    ]

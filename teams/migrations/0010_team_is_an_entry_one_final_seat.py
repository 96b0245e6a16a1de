"""Issue 20, "one entry, one seat, one offer": a team is a kind of ``clubs.Entry`` (multi-table
inheritance, as a team heat is a ``clubs.Heat``), and the team final's seats and offers move to
the one ``clubs.FinalSeat`` and ``clubs.SeatOffer`` of both finals.

- every team gets its parent entry row with the team's own id, so ``/lag/lag/<id>/``, the API
  and every foreign key to a team keep their ids; the team's primary key becomes the link to
  it (``entry_ptr``, the column renamed from ``id``), and its history rows get the link too;
- every ``TeamFinalSeat`` and ``TeamFinalOffer`` row (and its history) is copied to the core's
  tables with its id, its holder or entry being the team; TK's decisions about them point at
  the new rows; then the twins go.

Forwards only (``clubs.migrations._operations``: Django has no operation to change a model's
bases; the state is told with ``AlterModelBases``). ``tests/clubs/test_entry_migration.py``
applies it to a database made with the migrations before it."""

import django.db.models.deletion
from django.db import migrations, models

from clubs.migrations._operations import (
    AlterModelBases,
    RemakeReferencingTables,
    check_constraints_now,
    copy_rows,
    named_rows,
    reset_sequences,
)


def entries_for_teams(apps, schema_editor):
    db = schema_editor.connection.alias
    Entry = apps.get_model("clubs", "Entry")
    Team = apps.get_model("teams", "Team")
    ids = list(Team.objects.using(db).order_by("id").values_list("id", flat=True))
    Entry.objects.using(db).bulk_create([Entry(id=i, kind="teams") for i in ids], batch_size=500)
    reset_sequences(schema_editor, Entry)


def history_links(apps, schema_editor):
    db = schema_editor.connection.alias
    HistoricalTeam = apps.get_model("teams", "HistoricalTeam")
    HistoricalTeam.objects.using(db).update(entry_ptr_id=models.F("id"))


def seats_to_core(apps, schema_editor):
    db = schema_editor.connection.alias
    get = apps.get_model
    copy_rows(
        get("teams", "TeamFinalSeat").objects.order_by("id"),
        get("clubs", "FinalSeat"),
        db,
        rename={"holder_id": "team_id"},
        values={"closed_reason": ""},
    )
    copy_rows(
        get("teams", "TeamFinalOffer").objects.order_by("id"),
        get("clubs", "SeatOffer"),
        db,
        rename={"entry_id": "team_id"},
    )
    copy_rows(
        get("teams", "HistoricalTeamFinalSeat").objects.order_by("history_id"),
        get("clubs", "HistoricalFinalSeat"),
        db,
        rename={"holder_id": "team_id"},
        values={"closed_reason": ""},
    )
    copy_rows(
        get("teams", "HistoricalTeamFinalOffer").objects.order_by("history_id"),
        get("clubs", "HistoricalSeatOffer"),
        db,
        rename={"entry_id": "team_id"},
    )
    reset_sequences(schema_editor, get("clubs", "FinalSeat"), get("clubs", "SeatOffer"))
    # TK's decisions (and any reminder or fee mark) name the rows by type and id: the ids are
    # kept, the type is the core's now.
    for model in named_rows(get):
        for old, new in (
            ("teams.teamfinalseat", "clubs.finalseat"),
            ("teams.teamfinaloffer", "clubs.seatoffer"),
        ):
            model.objects.using(db).filter(object_type=old).update(object_type=new)
    check_constraints_now(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0005_entry_final_seat_offer"),
        ("portal", "0002_verbose_names"),
        ("teams", "0009_heat_place_offers"),
    ]

    operations = [
        # The parent rows first: the link to them is checked when it is made.
        migrations.RunPython(entries_for_teams, elidable=False),
        migrations.RenameField(model_name="team", old_name="id", new_name="entry_ptr"),
        migrations.AlterField(
            model_name="team",
            name="entry_ptr",
            field=models.OneToOneField(
                auto_created=True,
                on_delete=django.db.models.deletion.CASCADE,
                parent_link=True,
                primary_key=True,
                serialize=False,
                to="clubs.entry",
            ),
        ),
        AlterModelBases("team", ("clubs.entry",)),
        RemakeReferencingTables("team"),
        migrations.AddField(
            model_name="historicalteam",
            name="entry_ptr",
            field=models.ForeignKey(
                auto_created=True,
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                parent_link=True,
                related_name="+",
                to="clubs.entry",
            ),
        ),
        migrations.AddField(
            model_name="historicalteam",
            name="kind",
            field=models.CharField(
                choices=[("pairs", "par"), ("teams", "lag")],
                default="teams",
                editable=False,
                max_length=5,
                verbose_name="slag",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(history_links, elidable=False),
        migrations.RunPython(seats_to_core, elidable=False),
        migrations.DeleteModel(name="HistoricalTeamFinalOffer"),
        migrations.DeleteModel(name="HistoricalTeamFinalSeat"),
        migrations.DeleteModel(name="TeamFinalOffer"),
        migrations.DeleteModel(name="TeamFinalSeat"),
    ]

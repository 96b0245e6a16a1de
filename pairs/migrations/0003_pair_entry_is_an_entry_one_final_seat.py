"""Issue 20, "one entry, one seat, one offer": a pair entry is a kind of ``clubs.Entry``, and so
are the pairs that held a final seat without a heat entry: a direct qualifier (``DirectQualifier``)
and a pair entered straight into a direct final (``FinalSeat.player1/player2``) become pair
entries ``entered_as`` "direct" and "direct_final". The pairs final's seats and offers move to
the one ``clubs.FinalSeat`` and ``clubs.SeatOffer`` of both finals.

Teams kept their ids as entries (``teams/0010``); pair entries are renumbered after them: the
new id is the old one plus the largest team id (``OFFSET``), and every reference follows: the
foreign keys (reserve notices, results, travellers, seats, offers), the history rows, TK's
decisions, reminders and fee marks (by type and id), the stored standings' ``entry_id``, the
allocation's stored keys. Direct qualifiers and direct-final pairs get the ids after those. The
pairs final's seats and offers keep their ids plus the largest team seat's (offer's) id. A
direct qualifier's chain key "dq:<id>" becomes its entry's id like every other pair's.

Forwards only; ``tests/clubs/test_entry_migration.py`` applies it to a database made with the
migrations before it."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import F, Max

from clubs.migrations._operations import (
    AlterModelBases,
    RemakeReferencingTables,
    check_constraints_now,
    copy_rows,
    named_rows,
    reset_sequences,
)

DQ_STATUS = {"registered": "entered", "forfeited": "forfeited", "declined": "declined"}


def _offset(apps, db) -> int:
    """OFFSET: the largest team id (the teams' entries, ``teams/0010``)."""
    entries = apps.get_model("clubs", "Entry").objects.using(db).filter(kind="teams")
    return entries.aggregate(m=Max("id"))["m"] or 0


def renumber_pair_entries(apps, schema_editor):
    """Every pair entry's id (and every reference to it) moves up by OFFSET, and gets its parent
    entry row; what the chain and the pages stored by an entry's id follows."""
    db = schema_editor.connection.alias
    get = apps.get_model
    offset = _offset(apps, db)
    if offset:
        PairEntry = get("pairs", "PairEntry")
        # Twice through the negatives: an id never meets another one on the way up.
        PairEntry.objects.using(db).update(id=-F("id"))
        PairEntry.objects.using(db).update(id=-F("id") + offset)
        for app, model, fields in (
            ("pairs", "ReserveNotice", ["entry_id"]),
            ("pairs", "FinalSeat", ["entry_id"]),
            ("pairs", "Offer", ["entry_id"]),
            ("results", "PairResult", ["entry_id"]),
            ("results", "PairTraveller", ["ns_id", "ew_id"]),
            ("pairs", "HistoricalPairEntry", ["id"]),
            ("pairs", "HistoricalReserveNotice", ["entry_id"]),
            ("pairs", "HistoricalFinalSeat", ["entry_id"]),
            ("pairs", "HistoricalOffer", ["entry_id"]),
        ):
            qs = get(app, model).objects.using(db)
            for name in fields:
                qs.exclude(**{f"{name}__isnull": True}).update(**{name: F(name) + offset})
        for model in named_rows(get):
            model.objects.using(db).filter(object_type="pairs.pairentry").update(
                object_id=F("object_id") + offset
            )
    Entry = get("clubs", "Entry")
    ids = get("pairs", "PairEntry").objects.using(db).order_by("id").values_list("id", flat=True)
    Entry.objects.using(db).bulk_create([Entry(id=i, kind="pairs") for i in ids], batch_size=500)
    reset_sequences(schema_editor, Entry)
    check_constraints_now(schema_editor)


def kinds_of_pair_entry(apps, schema_editor):
    """Heat entries take their heat's competition; direct qualifiers and the pairs of a direct
    final become pair entries (new ids after the others); the seats and offers of the pairs
    finals move to the core's tables; the stored keys follow."""
    db = schema_editor.connection.alias
    get = apps.get_model
    PairEntry = get("pairs", "PairEntry")
    HistoricalPairEntry = get("pairs", "HistoricalPairEntry")
    PairHeat = get("pairs", "PairHeat")
    competition_of = dict(PairHeat.objects.using(db).values_list("heat_ptr_id", "competition_id"))
    for heat_id, competition_id in competition_of.items():
        PairEntry.objects.using(db).filter(heat_id=heat_id).update(competition_id=competition_id)
        HistoricalPairEntry.objects.using(db).filter(heat_id=heat_id).update(
            competition_id=competition_id
        )
    HistoricalPairEntry.objects.using(db).update(entry_ptr_id=F("id"), kind="pairs")
    offset = _offset(apps, db)

    # Direct qualifiers: pair entries entered as "direct", with their history.
    dq_entry: dict[int, int] = {}
    for dq in get("pairs", "DirectQualifier").objects.using(db).order_by("id"):
        entry = PairEntry.objects.using(db).create(
            kind="pairs",
            competition_id=dq.competition_id,
            entered_as="direct",
            player1_id=dq.player1_id,
            player2_id=dq.player2_id,
            registered_on=dq.registered_on,
            status=DQ_STATUS.get(dq.status, dq.status),
            status_reason=dq.status_reason,
        )
        dq_entry[dq.id] = entry.pk
    copy_rows(
        get("pairs", "HistoricalDirectQualifier").objects.order_by("history_id"),
        HistoricalPairEntry,
        db,
        rename={
            "id": lambda r: dq_entry.get(r["id"], r["id"]),
            "entry_ptr_id": lambda r: dq_entry.get(r["id"]),
            "status": lambda r: DQ_STATUS.get(r["status"], r["status"]),
        },
        values={
            "kind": "pairs",
            "entered_as": "direct",
            "heat_id": None,
            "pair_number": "",
            "takes_part_in_qualifier": True,
        },
    )

    # The pairs entered straight into a direct final: pair entries entered as "direct_final".
    OldSeat = get("pairs", "FinalSeat")
    final_entry: dict[int, int] = {}
    for seat in OldSeat.objects.using(db).filter(player1__isnull=False).order_by("id"):
        entry = PairEntry.objects.using(db).create(
            kind="pairs",
            competition_id=seat.competition_id,
            entered_as="direct_final",
            player1_id=seat.player1_id,
            player2_id=seat.player2_id,
            registered_on=((seat.reason_data or {}).get("params") or {}).get("date"),
        )
        final_entry[seat.id] = entry.pk

    # The seats and offers of the pairs finals, after the team final's (teams/0010).
    Seat, Offer = get("clubs", "FinalSeat"), get("clubs", "SeatOffer")
    seat_shift = Seat.objects.using(db).aggregate(m=Max("id"))["m"] or 0
    offer_shift = Offer.objects.using(db).aggregate(m=Max("id"))["m"] or 0

    def entry_key(value):
        """A key the chain stored: an entry's id (renumbered), "dq:<id>" (now its entry's id),
        "df:<MIDs>" (a direct final's seat, now named by its holder as every other seat)."""
        if not isinstance(value, str):
            return value
        if value.isdigit():
            return str(int(value) + offset)
        if value.startswith("dq:") and value[3:].isdigit():
            return str(dq_entry.get(int(value[3:]), value))
        if value.startswith("df:"):
            return ""
        return value

    def holder(row) -> int | None:
        if row["entry_id"]:
            return row["entry_id"]
        if row["direct_qualifier_id"]:
            return dq_entry.get(row["direct_qualifier_id"])
        return final_entry.get(row["id"])

    seat_fields = {
        "id": lambda r: r["id"] + seat_shift,
        "holder_id": holder,
        "key": lambda r: entry_key(r["key"]),
        "replaces_id": lambda r: r["replaces_id"] + seat_shift if r["replaces_id"] else None,
    }
    copy_rows(
        OldSeat.objects.order_by("id"),
        Seat,
        db,
        rename=seat_fields,
        values={"number": None, "closed_reason": ""},
    )
    copy_rows(
        get("pairs", "HistoricalFinalSeat").objects.order_by("history_id"),
        get("clubs", "HistoricalFinalSeat"),
        db,
        rename=seat_fields,
        values={"number": None, "closed_reason": ""},
    )
    offer_fields = {
        "id": lambda r: r["id"] + offer_shift,
        "seat_id": lambda r: r["seat_id"] + seat_shift if r["seat_id"] else None,
    }
    copy_rows(get("pairs", "Offer").objects.order_by("id"), Offer, db, rename=offer_fields)
    copy_rows(
        get("pairs", "HistoricalOffer").objects.order_by("history_id"),
        get("clubs", "HistoricalSeatOffer"),
        db,
        rename=offer_fields,
    )
    reset_sequences(schema_editor, get("clubs", "Entry"), Seat, Offer)

    # Rows named by type and id (TK's decisions, reminders, fee marks) follow their objects.
    moved = {
        "pairs.finalseat": ("clubs.finalseat", lambda i: i + seat_shift),
        "pairs.offer": ("clubs.seatoffer", lambda i: i + offer_shift),
        "pairs.directqualifier": ("pairs.pairentry", lambda i: dq_entry.get(i, i)),
    }
    for model in named_rows(get):
        for row in model.objects.using(db).filter(object_type__in=list(moved)):
            new_type, new_id = moved[row.object_type]
            if row.object_type == "pairs.finalseat" and row.object_id in final_entry:
                # a direct final's pair paid (and was reminded) as its seat: now as its entry
                new_type, new_id = "pairs.pairentry", final_entry.get
            model.objects.using(db).filter(pk=row.pk).update(
                object_type=new_type, object_id=new_id(row.object_id)
            )

    # What the recompute stored by an entry's id: the heats' standings and the allocation.
    Snapshot = get("results", "StandingSnapshot")
    for snap in Snapshot.objects.using(db).filter(scope="pair_heat"):
        for row in snap.data or []:
            if isinstance(row.get("entry_id"), int):
                row["entry_id"] += offset
            if isinstance(row.get("lot"), dict):  # a tie of the table settled by lot
                row["lot"]["among"] = [entry_key(str(k)) for k in row["lot"].get("among", [])]
            for note in row.get("explanation") or []:
                if isinstance(note.get("among"), list):
                    note["among"] = [entry_key(k) for k in note["among"]]
                params = (note.get("message") or {}).get("params") or {}
                if isinstance(params.get("among"), str):
                    params["among"] = ", ".join(entry_key(k) for k in params["among"].split(", "))
        Snapshot.objects.using(db).filter(pk=snap.pk).update(data=snap.data)
    Run = get("results", "AllocationRun")
    for run in Run.objects.using(db).exclude(competition__discipline="teams"):
        data = run.explanation or {}
        for d in data.get("direct", []):
            d["entry"] = entry_key(d.get("entry"))
        for venue in data.get("venues", []):
            for listed in (*venue.get("holders", []), *venue.get("next", [])):
                listed["entry"] = entry_key(listed.get("entry"))
        for step in data.get("chain", []):
            step["seat"] = entry_key(step.get("seat"))
            step["ask_key"] = entry_key(step.get("ask_key"))
        for seat in data.get("seats", []):
            seat["key"] = entry_key(seat.get("key"))
        if "lot_pending" in data:
            data["lot_pending"] = [entry_key(str(k)) for k in data["lot_pending"]]
        Run.objects.using(db).filter(pk=run.pk).update(explanation=data)
    # Lots inside a pairs heat's table (R-PAIR-TIE-1) name the tied pairs by their entries.
    for model in (get("results", "Lot"), get("results", "HistoricalLot")):
        for lot in model.objects.using(db).filter(standing__startswith="pair_heat:"):
            model.objects.using(db).filter(pk=lot.pk).update(
                among=[entry_key(str(k)) for k in lot.among or []],
                winners=[entry_key(str(k)) for k in lot.winners or []],
                losers=[entry_key(str(k)) for k in lot.losers or []],
                labels={entry_key(str(k)): v for k, v in (lot.labels or {}).items()},
            )
    check_constraints_now(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0005_entry_final_seat_offer"),
        ("pairs", "0002_verbose_names"),
        ("portal", "0002_verbose_names"),
        ("results", "0004_lots_standing_lot"),
        ("teams", "0010_team_is_an_entry_one_final_seat"),
    ]

    operations = [
        migrations.RunPython(renumber_pair_entries, elidable=False),
        migrations.RenameField(model_name="pairentry", old_name="id", new_name="entry_ptr"),
        migrations.AlterField(
            model_name="pairentry",
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
        AlterModelBases("pairentry", ("clubs.entry",)),
        RemakeReferencingTables("pairentry"),
        migrations.AddField(
            model_name="pairentry",
            name="competition",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="entries",
                to="pairs.paircompetition",
                verbose_name="tävling",
            ),
        ),
        migrations.AddField(
            model_name="pairentry",
            name="entered_as",
            field=models.CharField(
                choices=[
                    ("heat", "i kvalheat"),
                    ("direct", "direktkvalificerat"),
                    ("direct_final", "till direktfinalen"),
                ],
                default="heat",
                max_length=12,
                verbose_name="anmält som",
            ),
        ),
        migrations.AddField(
            model_name="pairentry",
            name="registered_on",
            field=models.DateField(blank=True, null=True, verbose_name="anmäld till TK"),
        ),
        migrations.AlterField(
            model_name="pairentry",
            name="heat",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="entries",
                to="pairs.pairheat",
                verbose_name="heat",
            ),
        ),
        migrations.AlterField(
            model_name="pairentry",
            name="status",
            field=models.CharField(
                choices=[
                    ("entered", "anmält"),
                    ("struck", "struket (utom tävlan)"),
                    ("withdrawn", "återtaget"),
                    ("forfeited", "förverkad"),
                    ("declined", "avstår"),
                ],
                default="entered",
                max_length=10,
                verbose_name="status",
            ),
        ),
        migrations.AddField(
            model_name="historicalpairentry",
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
            model_name="historicalpairentry",
            name="kind",
            field=models.CharField(
                choices=[("pairs", "par"), ("teams", "lag")],
                default="pairs",
                editable=False,
                max_length=5,
                verbose_name="slag",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="historicalpairentry",
            name="competition",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="pairs.paircompetition",
                verbose_name="tävling",
            ),
        ),
        migrations.AddField(
            model_name="historicalpairentry",
            name="entered_as",
            field=models.CharField(
                choices=[
                    ("heat", "i kvalheat"),
                    ("direct", "direktkvalificerat"),
                    ("direct_final", "till direktfinalen"),
                ],
                default="heat",
                max_length=12,
                verbose_name="anmält som",
            ),
        ),
        migrations.AddField(
            model_name="historicalpairentry",
            name="registered_on",
            field=models.DateField(blank=True, null=True, verbose_name="anmäld till TK"),
        ),
        migrations.AlterField(
            model_name="historicalpairentry",
            name="status",
            field=models.CharField(
                choices=[
                    ("entered", "anmält"),
                    ("struck", "struket (utom tävlan)"),
                    ("withdrawn", "återtaget"),
                    ("forfeited", "förverkad"),
                    ("declined", "avstår"),
                ],
                default="entered",
                max_length=10,
                verbose_name="status",
            ),
        ),
        migrations.RunPython(kinds_of_pair_entry, elidable=False),
        # The twins go before the constraints come: a direct qualifier's one-per-competition
        # constraint keeps its name on the pair entry (PostgreSQL names are per schema).
        migrations.DeleteModel(name="HistoricalOffer"),
        migrations.DeleteModel(name="Offer"),
        migrations.DeleteModel(name="HistoricalFinalSeat"),
        migrations.DeleteModel(name="FinalSeat"),
        migrations.DeleteModel(name="HistoricalDirectQualifier"),
        migrations.DeleteModel(name="DirectQualifier"),
        migrations.AlterField(
            model_name="pairentry",
            name="competition",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="entries",
                to="pairs.paircompetition",
                verbose_name="tävling",
            ),
        ),
        migrations.AddConstraint(
            model_name="pairentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("entered_as", "heat"), ("heat__isnull", False)),
                    models.Q(
                        models.Q(("entered_as", "heat"), _negated=True), ("heat__isnull", True)
                    ),
                    _connector="OR",
                ),
                name="pair_entry_heat_iff_entered_in_heat",
            ),
        ),
        migrations.AddConstraint(
            model_name="pairentry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("entered_as", "direct")),
                fields=("competition",),
                name="one_direct_qualifier_per_pair_competition",
            ),
        ),
    ]

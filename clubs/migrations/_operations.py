"""What the migrations of issue 20 ("one entry, one seat, one offer") share: the state
operation that makes an existing model a child of ``clubs.Entry`` (Django has no operation to
change a model's bases), and the data helpers that move rows between tables on SQLite and
PostgreSQL alike. Not a migration itself (the loader skips modules starting with "_")."""

from __future__ import annotations

from django.core.management.color import no_style
from django.db import migrations


class AlterModelBases(migrations.operations.base.Operation):
    """The model ``name`` of this app inherits from ``bases`` from now on (state only: the
    database change, the child's primary key becoming a link to the parent row, is made by the
    field operations around it)."""

    reversible = False

    def __init__(self, name: str, bases: tuple):
        self.name = name
        self.bases = tuple(bases)

    def deconstruct(self):
        return self.__class__.__name__, [], {"name": self.name, "bases": self.bases}

    def state_forwards(self, app_label, state):
        model = state.models[app_label, self.name.lower()]
        model.bases = self.bases
        state.reload_model(app_label, self.name.lower(), delay=False)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        pass

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        raise NotImplementedError("issue 20's migration does not go back")

    def describe(self):
        return f"Make {self.name} a child of {', '.join(map(str, self.bases))}"

    @property
    def migration_name_fragment(self):
        return f"{self.name.lower()}_bases"


def copy_rows(source, target, db: str, *, rename=None, values=None) -> None:
    """Copy every row of the queryset ``source`` (in its order) into the model ``target`` (both
    models of the migration's state): each field of ``target`` read from ``source``'s column of
    the same name, or as ``rename`` says (target attname → source attname, or a function of the
    source row), or set to ``values``' fixed value. Ids are kept (a seat keeps its id, an offer
    its seat's); a history table's ``history_id`` is given anew, in the source's order."""
    rename = rename or {}
    values = values or {}
    fields = [f.attname for f in target._meta.concrete_fields if f.attname != "history_id"]
    rows = []
    for row in source.using(db).values():
        data = {}
        for name in fields:
            if name in values:
                data[name] = values[name]
            elif name in rename:
                how = rename[name]
                data[name] = how(row) if callable(how) else row[how]
            else:
                data[name] = row[name]
        rows.append(target(**data))
    target.objects.using(db).bulk_create(rows, batch_size=500)


def named_rows(get) -> list:
    """The models that name a row by its type and id (``object_type``, ``object_id``): TK's
    decisions, the reminders sent, the fee marks and their history."""
    return [
        get("clubs", "Decision"),
        get("portal", "ReminderLog"),
        get("portal", "FeeStatus"),
        get("portal", "HistoricalFeeStatus"),
    ]


def reset_sequences(schema_editor, *models) -> None:
    """After rows were inserted with their ids (PostgreSQL's sequences do not follow explicit
    ids; SQLite's AUTOINCREMENT does): the next id of each of ``models`` comes after the
    largest."""
    connection = schema_editor.connection
    for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
        schema_editor.execute(sql)


def check_constraints_now(schema_editor) -> None:
    """PostgreSQL checks Django's foreign keys at the commit (DEFERRABLE INITIALLY DEFERRED):
    checked now, after rows were renumbered, no trigger event waits when a table is altered
    next ("cannot ALTER TABLE because it has pending trigger events"). SQLite checks them when
    the migration ends."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        schema_editor.execute("SET CONSTRAINTS ALL DEFERRED")


class RemakeReferencingTables(migrations.operations.base.Operation):
    """SQLite only: rebuild every table whose foreign keys point at the model ``name`` after
    its primary key column changed (``id`` → ``entry_ptr_id``). Django rebuilds the tables of
    the keys with a reverse accessor; a key with ``related_name="+"`` (a line-up's team, a
    traveller's pair) would go on naming the old column, which SQLite refuses ("foreign key
    mismatch"). PostgreSQL's constraints follow a renamed column by themselves."""

    reversible = False

    def __init__(self, name: str):
        self.name = name

    def deconstruct(self):
        return self.__class__.__name__, [], {"name": self.name}

    def state_forwards(self, app_label, state):
        pass

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "sqlite":
            return
        target = to_state.apps.get_model(app_label, self.name)
        for model in to_state.apps.get_models(include_auto_created=True):
            if model is target:
                continue
            if any(
                f.remote_field is not None
                and getattr(f, "db_constraint", False)
                and f.remote_field.model is target
                for f in model._meta.local_fields
            ):
                schema_editor._remake_table(model)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        raise NotImplementedError("issue 20's migration does not go back")

    def describe(self):
        return f"Rebuild the tables that refer to {self.name} (SQLite)"

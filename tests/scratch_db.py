"""A database of a migration test's own, made by the migrations up to a given state and then
migrated forward, as a deployed database is; the test database is left as it is (it is at the
latest state, and the migrations of issue 20 do not go back).

For the duration of :func:`scratch_database` the connection named "default" of this thread is
the scratch database's, so that the migrations' own code (which reads and writes through the
default connection) and the models of the test all use it. SQLite: a file under pytest's
temporary folder; PostgreSQL: a database created beside the test database and dropped after.
Use it in a ``django_db(transaction=True)`` test (creating a database needs autocommit)."""

from __future__ import annotations

import copy
from contextlib import contextmanager

from django.db import connections
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import load_backend


@contextmanager
def scratch_database(tmp_path):
    real = connections["default"]
    settings_dict = copy.deepcopy(real.settings_dict)
    postgres = real.vendor == "postgresql"
    if postgres:
        settings_dict["NAME"] = f"{real.settings_dict['NAME']}_scratch"[:63]
        with real.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{settings_dict["NAME"]}"')
            cursor.execute(f'CREATE DATABASE "{settings_dict["NAME"]}"')
    else:
        settings_dict["NAME"] = str(tmp_path / "scratch.sqlite3")
    scratch = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, "default")
    connections["default"] = scratch
    try:
        yield scratch
    finally:
        scratch.close()
        connections["default"] = real
        if postgres:
            with real.cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{settings_dict["NAME"]}"')


def migrate(connection, targets):
    """Apply the migrations up to ``targets`` (forwards); returns the models of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def latest(connection):
    return MigrationExecutor(connection).loader.graph.leaf_nodes()

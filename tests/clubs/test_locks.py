"""clubs.locks is the one place that takes row locks (docs/architecture.md, "Locks"): it
refuses to run outside a transaction, takes its keys in one sorted order (competitions, then
heats, then the rows, ids ascending), and no other module calls ``select_for_update``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from clubs import locks
from clubs.models import Competition, Heat
from teams.models import Team
from tests.factories import TeamFactory, TeamHeatFactory

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "tests", "migrations", "node_modules", "var", ".git"}


def lock_calls(source: str) -> list[int]:
    """The lines of ``source`` that call ``select_for_update`` (as an attribute or a name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name == "select_for_update":
                found.append(node.lineno)
    return found


def test_the_probe_finds_a_lock_call():
    assert lock_calls("x = Team.objects.select_for_update().get(pk=1)\n") == [1]
    assert lock_calls("q = qs.filter(a=1).select_for_update(of=('self',))\n") == [1]
    assert lock_calls("# select_for_update() in a comment\ns = 'select_for_update'\n") == []


def test_no_select_for_update_outside_clubs_locks():
    offenders = []
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if SKIP & set(rel.parts) or rel == Path("clubs/locks.py"):
            continue
        for line in lock_calls(path.read_text(encoding="utf-8")):
            offenders.append(f"{rel}:{line}")
    assert offenders == [], "row locks go through clubs.locks: " + ", ".join(offenders)


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused():
    team = TeamFactory()  # autocommit: this test is not wrapped in a transaction
    assert not connection.in_atomic_block
    for call in (
        lambda: locks.lock_competition(team.competition_id),
        lambda: locks.lock_row(Team.objects.all(), team.pk),
        lambda: locks.lock_own_row(Team.objects.all(), team.pk),
    ):
        with pytest.raises(locks.LockOutsideTransaction, match="transaction"):
            call()
    with transaction.atomic():
        assert locks.lock_row(Team.objects.all(), team.pk) == team


@pytest.mark.django_db
def test_inside_a_transaction_the_row_comes_back():
    team = TeamFactory()
    with transaction.atomic():
        assert locks.lock_row(Team.objects.all(), team.pk) == team
        assert locks.lock_own_row(Team.objects.filter(pk=team.pk)) == team
        assert locks.lock_own_row(Team.objects.none()) is None
        with pytest.raises(Team.DoesNotExist):
            locks.lock_row(Team.objects.all(), team.pk + 1000)


def selects(queries) -> list[tuple[str, list[int], bool]]:
    """(table, ids, locks) of each SELECT sent, in order: ``locks`` when it says FOR UPDATE
    (PostgreSQL; SQLite has no row locks and Django leaves the clause out there)."""
    out = []
    for q in queries:
        sql = q["sql"]
        if not sql.upper().startswith("SELECT"):
            continue
        table = re.search(r'FROM "(\w+)"', sql).group(1)
        where = sql.split("WHERE", 1)[1].split("ORDER")[0] if "WHERE" in sql else ""
        out.append(
            (
                table,
                sorted(int(i) for i in re.findall(r"\b(\d+)\b", where)),
                "FOR UPDATE" in sql.upper(),
            )
        )
    return out


@pytest.mark.django_db
def test_keys_are_taken_competitions_then_heats_then_rows_in_id_order():
    h1, h2 = TeamHeatFactory(), TeamHeatFactory()
    teams = [TeamFactory(heat=h) for h in (h2, h1, h2, h1)]
    ids = [t.pk for t in teams]
    with CaptureQueriesContext(connection) as ctx, transaction.atomic():
        locks.lock_competition(h2.competition_id, heat_ids=[h2.pk, "final", h1.pk, h2.pk])
        rows = locks.lock_rows(Team.objects.all(), list(reversed(ids)))
    assert [t.pk for t in rows] == sorted(ids)
    competition, heat, team = (
        Competition._meta.db_table,
        Heat._meta.db_table,
        Team._meta.db_table,
    )
    sent = selects(ctx.captured_queries)
    both = sorted({h1.competition_id, h2.competition_id})
    assert [(t, i) for t, i, _ in sent] == [
        (competition, [h2.competition_id]),  # 1
        (heat, sorted([h1.pk, h2.pk])),  # 2, each heat once, "final" ignored
        (team, sorted(ids)),  # reading the rows' competitions (no lock)
        (competition, both),  # 1 for the rows' competitions, ids ascending
        (team, sorted(ids)),  # 3
    ]
    sql = [q["sql"] for q in ctx.captured_queries if q["sql"].upper().startswith("SELECT")]
    assert all("ORDER BY" in sql[k] for k in (0, 1, 3, 4))  # keys taken in id order
    if connection.features.has_select_for_update:
        assert [locked for _, _, locked in sent] == [True, True, False, True, True]

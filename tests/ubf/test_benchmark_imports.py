"""The benchmarks under ``benchmarks/`` are not run by the suite (they serve a site and load it
for minutes), so a name a change removes from an app would break one unseen until somebody
measures: ``push_round.py`` still imported ``teams.TeamFinalSeat`` after issue 20 removed it
and the load benchmark died at its push. Every ``from app import name`` of every benchmark
must resolve."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[2] / "benchmarks").glob("*.py"))


def _imports(path: Path) -> list[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
        for alias in node.names
    ]


def test_there_are_benchmarks():
    assert len(BENCHMARKS) >= 10


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.name)
def test_every_name_a_benchmark_imports_exists(path):
    missing = []
    for module, name in _imports(path):
        imported = importlib.import_module(module)
        if hasattr(imported, name):
            continue
        try:
            importlib.import_module(f"{module}.{name}")
        except ImportError:
            missing.append(f"{module}.{name}")
    assert not missing, f"{path.name} imports what no longer exists: {missing}"


def test_a_removed_name_is_caught(tmp_path):
    """The check itself: a benchmark that imports a removed model is reported."""
    stale = tmp_path / "stale.py"
    stale.write_text("from teams.models import Team, TeamFinalSeat\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=r"teams\.models\.TeamFinalSeat"):
        test_every_name_a_benchmark_imports_exists(stale)

"""The house's layers (docs/architecture.md) hold: `lint-imports` (run by `make lint`) passes on
the tree as it is and fails as soon as a lower layer imports a higher one."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["ubf", "clubs", "pairs", "teams", "results", "portal", "api"]
LINT = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed")


def _copy_tree(dest: Path) -> None:
    for name in PACKAGES:
        shutil.copytree(
            ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "migrations")
        )
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")


def _lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT), "--no-cache"],
        cwd=cwd,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "lower, upward",
    [
        ("clubs", "from results.models import ResultUpload"),  # core -> results
        ("pairs", "from teams.models import TeamHeat"),  # pairs and teams are independent
        ("teams", "def f():\n    from portal.services import fees\n"),  # even inside a function
        ("results", "from portal.models import FeeStatus"),  # results -> portal
        ("portal", "from api.models import ApiToken"),  # portal -> api
    ],
)
def test_an_upward_import_breaks_the_layers_contract(tmp_path, lower, upward):
    _copy_tree(tmp_path)
    assert _lint(tmp_path).returncode == 0
    (tmp_path / lower / "_upward_probe.py").write_text(upward + "\n")
    result = _lint(tmp_path)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout and f"{lower}._upward_probe" in result.stdout


def test_the_rulebook_may_not_import_django(tmp_path):
    _copy_tree(tmp_path)
    (tmp_path / "ubf" / "rules" / "_probe.py").write_text("import django.db\n")
    result = _lint(tmp_path)
    assert result.returncode != 0 and "ubf.rules._probe" in result.stdout

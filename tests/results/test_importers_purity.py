"""results/importers is pure Python: no Django, no app models (like ubf/rules)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "results" / "importers"
FORBIDDEN = ("django", "rest_framework", "clubs", "pairs", "teams", "results.models")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_importers_import_no_django_and_no_app_models():
    files = sorted(PACKAGE.glob("*.py"))
    assert {f.name for f in files} >= {
        "__init__.py", "model.py", "pbn.py", "usebio.py", "csv_teams.py", "validate.py",
        "bounds.py", "detect.py",
    }  # fmt: skip
    for f in files:
        for name in imported_modules(f):
            top = name.split(".")[0]
            assert top not in FORBIDDEN and name not in FORBIDDEN, f"{f.name} imports {name}"


def test_xml_is_parsed_only_through_defusedxml():
    for f in PACKAGE.glob("*.py"):
        text = f.read_text(encoding="utf-8")
        assert "ET.fromstring(" not in text and "ET.parse(" not in text, f.name
        assert "minidom" not in text and "lxml" not in text, f.name

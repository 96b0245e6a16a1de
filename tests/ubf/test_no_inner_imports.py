"""No first-party import inside a function: a module's dependencies stand at its top, where
import-linter (``make lint``) checks them against the layers. The one place allowed is
``AppConfig.ready``, where Django wants signal receivers connected."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = {"clubs", "pairs", "teams", "results", "portal", "ubf"}
SKIP = {".venv", "migrations", "tests", "node_modules"}


def inner_imports(source: str) -> list[tuple[int, str, str]]:
    found = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or fn.name == "ready":
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module or ""]
            elif isinstance(node, ast.ImportFrom):
                modules = ["." * node.level + (node.module or "")]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            else:
                continue
            for module in modules:
                if module.startswith(".") or module.split(".")[0] in FIRST_PARTY:
                    found.append((node.lineno, fn.name, module))
    return found


def test_the_probe_finds_an_import_inside_a_function():
    source = "import os\n\ndef f():\n    from clubs.models import Club\n    return Club\n"
    assert inner_imports(source) == [(4, "f", "clubs.models")]
    assert inner_imports("class C:\n    def ready(self):\n        from results import x\n") == []


def test_no_first_party_import_inside_a_function():
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        if SKIP & set(path.relative_to(ROOT).parts):
            continue
        for line, function, module in inner_imports(path.read_text()):
            offenders.append(f"{path.relative_to(ROOT)}:{line} in {function}(): {module}")
    assert offenders == []

"""docs/rulebook.md stays true: every clause ID of the rules spec has an entry; each entry names
functions that exist and are called outside the tests, and test files that exist and name the
clause (a comment ``# R-ALLOC-3`` or a test name with ``r_alloc_3``); and "who acts, where" for
each clause: the role and page of everyone the clause asks to act (paths that resolve, never only
the admin, which is for repairs), "—" where nobody acts, or a page still missing (KNOWN_GAPS)."""

import ast
import importlib
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "docs" / "rulebook.md"
APPS = ["ubf", "clubs", "pairs", "teams", "results", "portal"]
CLAUSE = re.compile(r"R-[A-Z0-9-]*[0-9]")
ROW = re.compile(r"^\|\s*(R-[A-Z0-9-]*[0-9])\s*\|(.*)\|\s*$")
NO_FUNCTION = "no function"

# The clause IDs of the rules spec (outside this repository; docs/rulebook.md restates it), so
# that the test also runs where the spec is not at hand; where it is, the lists must agree.
# A new clause is added here and in docs/rulebook.md.
SPEC_IDS = CLAUSE.findall("""
R-ALLOC-1 R-ALLOC-2 R-ALLOC-3 R-ALLOC-4 R-ALLOC-5 R-ALLOC-6 R-DIRECT-1 R-DIRECT-2 R-GEN-1
R-GEN-2 R-GEN-3 R-PAIR-1 R-PAIR-2 R-PAIR-3 R-PAIR-4 R-PAIR-CAL-1 R-PAIR-DF-1 R-PAIR-DF-2
R-PAIR-FEE-1 R-PAIR-FEE-2 R-PAIR-KVAL-1 R-PAIR-KVAL-2 R-PAIR-KVAL-3 R-PAIR-KVAL-4
R-PAIR-KVAL-5 R-PAIR-KVAL-6 R-PAIR-KVAL-7 R-PAIR-MP-1 R-PAIR-MP-2 R-PAIR-MP-3 R-PAIR-MP-4
R-PAIR-RES-1 R-PAIR-RES-2 R-PAIR-RES-3 R-PAIR-RES-4 R-PAIR-RES-5 R-PAIR-SYS-1 R-PAIR-TIE-1
R-PAIR-TIE-2 R-PAIR-TIE-3 R-REPL-1 R-REPL-2 R-REPL-3 R-REPL-4 R-REPL-5 R-REPL-6 R-REPL-7
R-RULING-1 R-RULING-2 R-RULING-3 R-TEAM-1 R-TEAM-2 R-TEAM-3 R-TEAM-4 R-TEAM-5 R-TEAM-ADV-1
R-TEAM-DF-1 R-TEAM-DIRECT-1 R-TEAM-FEE-1 R-TEAM-FEE-2 R-TEAM-FEE-3 R-TEAM-FINAL-1
R-TEAM-FINAL-2 R-TEAM-KVAL-1 R-TEAM-KVAL-2 R-TEAM-KVAL-3 R-TEAM-KVAL-4 R-TEAM-KVAL-5
R-TEAM-KVAL-6 R-TEAM-MP-1 R-TEAM-MP-2 R-TEAM-MP-3 R-TEAM-REG-1 R-TEAM-REG-2 R-TEAM-REPL-1
R-TEAM-RES-1 R-TEAM-RES-2 R-TEAM-RES-3 R-TEAM-RES-4 R-TEAM-RES-5 R-TEAM-SEMI-1 R-TEAM-SYS-1
R-TEAM-TIE-1 R-TEAM-VP-1 R-TEAM-WO-1 R-TEAM-WO-2 R-TEAM-WO-3 R-VP-1 R-VP-2 R-VP-3 R-VP-4
""")
SPEC_FILE = Path("/work/shared/SPEC.md")


def entries(text: str) -> dict[str, tuple[str, str, str, str]]:
    """clause -> (what it says, applied by, tested in, who acts where), from the table rows of
    the rulebook."""
    out = {}
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            cells = [c.strip() for c in m.group(2).split("|")]
            assert len(cells) == 4, f"{m.group(1)}: expected 5 columns, got {len(cells) + 1}"
            assert m.group(1) not in out, f"{m.group(1)} has two entries"
            out[m.group(1)] = tuple(cells)
    return out


def names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def resolve(dotted: str):
    """Import the longest module prefix of ``dotted`` and getattr the rest."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


@cache
def references() -> Counter:
    """How often each name is used in the apps' code (not the tests): names read, attributes,
    names imported. A name only in a docstring or in its own ``def`` does not count."""
    used: Counter = Counter()
    for app in APPS:
        for p in (ROOT / app).rglob("*.py"):
            if "migrations" in p.parts:
                continue
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Name):
                    used[node.id] += 1
                elif isinstance(node, ast.Attribute):
                    used[node.attr] += 1
                elif isinstance(node, ast.ImportFrom):
                    used.update(a.name for a in node.names)
    return used


def mentions(text: str, clause: str) -> bool:
    as_name = clause.lower().replace("-", "_")
    return bool(
        re.search(re.escape(clause) + r"(?![0-9])", text)
        or re.search(re.escape(as_name) + r"(?![0-9])", text)
    )


ENTRIES = entries(RULEBOOK.read_text(encoding="utf-8"))


def test_every_clause_of_the_spec_has_one_entry():
    assert sorted(ENTRIES) == sorted(SPEC_IDS)


@pytest.mark.skipif(not SPEC_FILE.exists(), reason="the shared rules spec is not here")
def test_the_clause_list_is_the_spec_s():
    assert sorted(set(CLAUSE.findall(SPEC_FILE.read_text(encoding="utf-8")))) == sorted(SPEC_IDS)


@pytest.mark.parametrize("clause", sorted(ENTRIES))
def test_entry_names_a_function_that_exists_and_has_a_caller(clause):
    says, applied_by, _, _ = ENTRIES[clause]
    assert says, f"{clause}: say what the clause says"
    if applied_by.startswith(NO_FUNCTION):
        assert len(applied_by) > len(NO_FUNCTION) + 5, f"{clause}: say why no function applies it"
        return
    dotted = names(applied_by)
    assert dotted, f"{clause}: name the function that applies it"
    for name in dotted:
        assert callable(resolve(name)), f"{clause}: {name} is not a function"
        if name.startswith("ubf.rules."):  # a rule must be called; services are entry points
            bare = name.rsplit(".", 1)[-1]
            assert references()[bare] > 0, f"{clause}: {name} has no caller outside the tests"


@pytest.mark.parametrize("clause", sorted(ENTRIES))
def test_entry_names_a_test_file_that_names_the_clause(clause):
    _, applied_by, tested_in, _ = ENTRIES[clause]
    files = [n.split("::")[0] for n in names(tested_in)]
    if not files:  # only a clause that nothing applies may have no test
        assert applied_by.startswith(NO_FUNCTION), f"{clause}: name a test"
        return
    for f in files:
        path = ROOT / f
        assert path.is_file() and f.startswith("tests/"), f"{clause}: {f} is not a test file"
        assert mentions(path.read_text(encoding="utf-8"), clause), f"{clause}: {f} does not name it"


def test_the_checks_can_fail():
    # A made-up clause, a function that is not there, a test file that does not name the clause.
    bad = entries(
        "| R-X-1 | says | `ubf.rules.vp.no_such_function` | `tests/ubf/test_layers.py` | — |"
    )
    with pytest.raises(AttributeError):
        resolve(names(bad["R-X-1"][1])[0])
    assert not mentions((ROOT / "tests/ubf/test_layers.py").read_text(), "R-X-1")
    assert "R-X-1" not in SPEC_IDS


# --- who acts, where (issue 22: every clause that asks a person to act names its page) ---------

NOBODY = "—"
GAP = "(sida saknas: issue 22)"
ROLES = ("TK", "klubb", "heatansvarig", "kapten", "lag", "spelare")
#: Clauses that ask someone to act on a page not built yet (the entry says GAP). A page added
#: later takes its clause off this list; the test fails when an entry here no longer says GAP.
KNOWN_GAPS = frozenset(
    CLAUSE.findall("""
""")
)


def pages(cell: str) -> list[str]:
    """The paths a "who acts, where" cell names (backquoted, starting with a slash)."""
    return [n for n in names(cell) if n.startswith("/")]


def sample(page: str) -> str:
    """A path that can be resolved: each ``<id>`` (or any ``<...>``) becomes 1."""
    return re.sub(r"<[^>]*>", "1", page)


def who_acts_problems(clause: str, cell: str) -> list[str]:
    """Why the "who acts, where" cell of ``clause`` is wrong (empty when it is right)."""
    from django.urls import Resolver404, resolve

    problems = []
    if not cell:
        return [f"{clause}: say who acts and where, or {NOBODY}"]
    for page in pages(cell):
        try:
            resolve(sample(page))
        except Resolver404:
            problems.append(f"{clause}: {page} is not a page of the site")
    gap = GAP in cell
    if gap != (clause in KNOWN_GAPS):
        problems.append(
            f"{clause}: says {GAP!r} but is not in KNOWN_GAPS"
            if gap
            else f"{clause}: in KNOWN_GAPS but its page is named now: take it off the list"
        )
    if cell.startswith(NOBODY):
        return problems
    for part in re.split(r";(?![^(]*\))", cell):  # each "role: page (what)", split at ; outside ()
        if not part.strip().startswith(ROLES):
            problems.append(f"{clause}: {part.strip()!r} names no role ({', '.join(ROLES)})")
    named = pages(cell)
    if named and all(p.startswith("/admin/") for p in named):
        problems.append(f"{clause}: only the admin is named; it is for data repair, name a page")
    if not named and not gap:
        problems.append(f"{clause}: name the page (a path in backquotes) or mark it {GAP!r}")
    return problems


@pytest.mark.parametrize("clause", sorted(ENTRIES))
def test_entry_says_who_acts_and_on_which_page(clause):
    assert who_acts_problems(clause, ENTRIES[clause][3]) == []


def test_the_who_acts_checks_can_fail():
    # R-TEAM-WO-1: W.O. on /tk/ is fine; the admin alone, a page that is not there, no role, an
    # unmarked missing page and a gap not on the list are each refused.
    assert who_acts_problems("R-TEAM-WO-1", "TK: `/tk/` (W.O.), `/tk/wo/<id>/aterkalla/`") == []
    assert who_acts_problems("R-TEAM-WO-3", NOBODY) == []
    assert "only the admin" in " ".join(
        who_acts_problems("R-TEAM-WO-1", "TK: `/admin/teams/walkover/add/`")
    )
    assert "not a page" in " ".join(who_acts_problems("R-TEAM-WO-1", "TK: `/tk/ingen-sida/`"))
    assert "names no role" in " ".join(who_acts_problems("R-TEAM-WO-1", "någon: `/tk/`"))
    assert "name the page" in " ".join(who_acts_problems("R-TEAM-WO-1", "TK: i hallen"))
    assert "not in KNOWN_GAPS" in " ".join(who_acts_problems("R-TEAM-WO-1", "TK: x " + GAP))
    if KNOWN_GAPS:  # a clause still on the list, named with a page, must come off it
        gap = min(KNOWN_GAPS)
        assert "take it off" in " ".join(who_acts_problems(gap, "TK: `/tk/`"))
    assert who_acts_problems("R-TEAM-SEMI-1", "") != []


def test_known_gaps_are_clauses_of_the_spec():
    assert KNOWN_GAPS.issubset(SPEC_IDS)

"""One translation catalogue (docs/translation.md): every English msgstr is filled, every rule
message template of the rulebook and of the result-file importers is a msgid, rule violations
render in the reader's language, and the public pages and the admin index show no Swedish with
``?lang=en``."""

from __future__ import annotations

import ast
import html
import json
import re
from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.utils import translation

from clubs.i18n import render
from portal.templatetags.standings_i18n import decided_by_text
from ubf.rules.eligibility import check_discipline, check_pair_district, check_pair_shape
from ubf.rules.heats import direct_final_notice
from ubf.rules.i18n import as_data
from ubf.rules.info import system_rules
from ubf.rules.people import PlayerInfo
from ubf.rules.sm import sm_places
from ubf.rules.types import Gender

ROOT = Path(__file__).resolve().parents[2]
EN_PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"
RULES = ROOT / "ubf" / "rules"
IMPORTERS = ROOT / "results" / "importers"
UPLOADS = ROOT / "results" / "services" / "uploads.py"
#: Services that store rule texts in snapshots and allocation runs (issue 8, item 5).
SNAPSHOT_SERVICES = [
    ROOT / "results" / "services" / "allocation.py",
    ROOT / "results" / "services" / "recompute" / "pairs.py",
]


# ---------------------------------------------------------------------------------------------
# A small .po reader (GNU gettext format: comments, flags, msgctxt, msgid[_plural], msgstr[n])
# ---------------------------------------------------------------------------------------------


def _unquote(line: str) -> str:
    # PO strings are C strings in double quotes; the escapes used are those of JSON.
    return json.loads(line)


def read_po(path: Path) -> list[dict]:
    """The catalogue's entries (obsolete ``#~`` entries left out), each with ``flags``,
    ``msgid``, ``msgid_plural`` and ``msgstr`` (a list: one string, or one per plural form)."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry = {"flags": set(), "msgid": None, "msgid_plural": None, "msgstr": []}
        field = None
        for line in block.splitlines():
            if line.startswith("#~"):
                field = None
                continue
            if line.startswith("#,"):
                entry["flags"] |= {f.strip() for f in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"') and field is not None:
                if field == "msgstr":
                    entry["msgstr"][-1] += _unquote(line)
                else:
                    entry[field] += _unquote(line)
            else:
                key, _, value = line.partition(" ")
                if key.startswith("msgstr"):
                    field = "msgstr"
                    entry["msgstr"].append(_unquote(value))
                elif key in ("msgid", "msgid_plural", "msgctxt"):
                    field = key
                    entry[key] = _unquote(value)
        if entry["msgid"] is not None:
            entries.append(entry)
    return entries


def test_the_po_reader_sees_empty_fuzzy_and_plural_entries(tmp_path):
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr "Language: en\\n"\n\n'
        '#, fuzzy, python-format\nmsgid "a %(n)s"\nmsgstr "b"\n\n'
        'msgid ""\n"lång "\n"rad"\nmsgstr ""\n\n'
        'msgid "en"\nmsgid_plural "flera"\nmsgstr[0] "one"\nmsgstr[1] ""\n\n'
        '#~ msgid "gammal"\n#~ msgstr ""\n',
        encoding="utf-8",
    )
    entries = read_po(po)
    assert [e["msgid"] for e in entries] == ["", "a %(n)s", "lång rad", "en"]
    assert "fuzzy" in entries[1]["flags"]
    assert entries[2]["msgstr"] == [""]
    assert entries[3]["msgid_plural"] == "flera" and entries[3]["msgstr"] == ["one", ""]


# ---------------------------------------------------------------------------------------------
# (a) The English catalogue is complete
# ---------------------------------------------------------------------------------------------


def test_every_english_msgstr_is_filled_and_none_is_fuzzy():
    entries = [e for e in read_po(EN_PO) if e["msgid"]]  # the header has msgid ""
    assert len(entries) > 500  # the whole site's catalogue, not an empty file
    empty = [e["msgid"] for e in entries if not all(s.strip() for s in e["msgstr"])]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert empty == []
    assert fuzzy == []
    plurals = [e for e in entries if e["msgid_plural"]]
    assert plurals and all(len(e["msgstr"]) == 2 for e in plurals)


# ---------------------------------------------------------------------------------------------
# (b) Every rule message template of the rulebook is in the catalogue
# ---------------------------------------------------------------------------------------------


def _marked_in_rulebook(paths=None) -> dict[str, str]:
    """Every string literal passed to ``gettext_noop`` in ubf/rules (or in ``paths``), with
    where it is."""
    found = {}
    for path in paths if paths is not None else sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found[node.args[0].value] = f"{path.name}:{node.lineno}"
    return found


def test_every_rule_message_template_is_a_translated_msgid():
    marked = _marked_in_rulebook()
    assert len(marked) > 100  # eligibility, heats, replacement, allocation, sanctions, fees
    catalogue = {e["msgid"]: e["msgstr"] for e in read_po(EN_PO)}
    missing = {t: where for t, where in marked.items() if t not in catalogue}
    untranslated = {
        t: where for t, where in marked.items() if t in catalogue and not catalogue[t][0]
    }
    assert missing == {}
    assert untranslated == {}


def test_every_snapshot_service_template_is_a_translated_msgid():
    """The plaque labels and the struck reason the pairs recompute stores are msgids too."""
    marked = _marked_in_rulebook(SNAPSHOT_SERVICES)
    assert {"guld", "silver", "brons"} <= set(marked)
    catalogue = {e["msgid"]: e["msgstr"] for e in read_po(EN_PO)}
    assert {t: w for t, w in marked.items() if not (catalogue.get(t) or [""])[0]} == {}
    assert catalogue["guld"] == ["gold"] and catalogue["brons"] == ["bronze"]


def test_every_import_problem_template_is_a_translated_msgid():
    """The result-file parsers and the upload service mark their messages the same way; the
    English that ``ImportProblem.message_en`` reads without Django is the msgstr."""
    marked = _marked_in_rulebook([*sorted(IMPORTERS.glob("*.py")), UPLOADS])
    assert len(marked) > 100  # detect, csv_teams, pbn, usebio, validate, the upload service
    assert "rad %(line)s" in marked  # ImportProblem.where
    catalogue = {e["msgid"]: e["msgstr"] for e in read_po(EN_PO)}
    missing = {t: where for t, where in marked.items() if t not in catalogue}
    untranslated = {
        t: where for t, where in marked.items() if t in catalogue and not catalogue[t][0]
    }
    assert missing == {}
    assert untranslated == {}


def test_no_import_problem_is_built_from_a_literal():
    """``problem()`` / ``fail()`` / ``ImportProblem()`` take a ``gettext_noop`` template (or a
    name bound to one), never an f-string or a bare literal, and no second (English) text."""
    builders = {"problem", "fail", "ImportProblem", "note"}
    literal = []
    for path in [*sorted(IMPORTERS.glob("*.py")), UPLOADS]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # an event's notes (``warnings.append(...)``) are ``note(...)``s, not literals
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "append"
                and "warnings" in ast.unparse(node.func.value)
                and node.args
                and isinstance(node.args[0], ast.JoinedStr | ast.Constant | ast.BinOp)
            ):
                literal.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in builders:
                first = node.args[0] if node.args else None
                if isinstance(first, ast.JoinedStr | ast.Constant | ast.BinOp) or (
                    len(node.args) > 1 and isinstance(node.args[1], ast.JoinedStr | ast.Constant)
                ):
                    literal.append(f"{path.name}:{node.lineno}")
    assert literal == []


def test_no_explanation_line_or_chain_step_is_a_literal():
    """The allocation lines (``_line``), the chain steps (``ChainStep``) and every ``Message``
    of the rulebook take a ``gettext_noop`` template (or a name bound to one), never an
    f-string, a bare literal or a Swedish and an English text side by side."""
    template_arg = {"Message": 0, "_line": 2, "ChainStep": 3}
    literal = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if name not in template_arg:
                continue
            index = template_arg[name]
            template = node.args[index] if len(node.args) > index else None
            nxt = node.args[index + 1] if len(node.args) > index + 1 else None
            if isinstance(template, ast.JoinedStr | ast.Constant | ast.BinOp) or (
                name != "Message" and isinstance(nxt, ast.JoinedStr | ast.Constant)
            ):
                literal.append(f"{path.name}:{node.lineno}")
    assert literal == []


def test_no_rule_message_is_a_literal_outside_the_catalogue():
    """A Violation's template is a ``gettext_noop(...)`` call (or a name bound to one), never
    an f-string or a bare literal the catalogue cannot hold."""
    builders = {"Violation", "_v", "_violation"}
    literal = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in builders:
                template = node.args[1] if len(node.args) > 1 else None
                for kw in node.keywords:
                    if kw.arg == "template":
                        template = kw.value
                if isinstance(template, ast.JoinedStr | ast.Constant):
                    literal.append(f"{path.name}:{node.lineno}")
    assert literal == []


# ---------------------------------------------------------------------------------------------
# (c) Real violations render in the active language
# ---------------------------------------------------------------------------------------------

ANNA = PlayerInfo("1001", "Anna Ek", Gender.WOMAN, 1960, district="SDF")
BO = PlayerInfo("1002", "Bo Lind", Gender.MAN, 1958, district="SDF")
CARL = PlayerInfo("1003", "Carl Berg", None, 1970, district="UBF")


def _both(violation) -> tuple[str, str]:
    with translation.override("sv"):
        sv = render(violation)
    with translation.override("en"):
        en = render(violation)
    return sv, en


def test_a_pair_of_three_players_reads_in_both_languages():
    (v,) = check_pair_shape([ANNA, BO, CARL])
    assert _both(v) == (
        "Ett par består av två spelare, inte 3.",
        "A pair is two players, not 3.",
    )
    assert v.message_sv == "Ett par består av två spelare, inte 3."


def test_an_out_of_district_pair_names_both_players_with_the_languages_and():
    (v,) = check_pair_district([ANNA, BO])
    sv, en = _both(v)
    assert sv.startswith(
        "Ingen av spelarna (Anna Ek (1001) och Bo Lind (1002)) har en klubb i UBF som "
        "representationsklubb."
    )
    assert en.startswith(
        "Neither player (Anna Ek (1001) and Bo Lind (1002)) represents a UBF club."
    )


def test_a_discipline_named_in_a_message_is_translated_too():
    (v,) = check_discipline([CARL, ANNA], "dam")
    assert _both(v) == (
        "Kön saknas för Carl Berg (1003); det behövs för Dam.",
        "Gender missing for Carl Berg (1003); Women needs it.",
    )


@pytest.mark.parametrize(
    ("decide_by", "sv_when", "en_when"),
    [
        (None, "senast när kvalperioden går ut", "at the latest when the qualifying period ends"),
        (date(2017, 1, 31), "senast 2017-01-31", "by 2017-01-31"),
    ],
)
def test_the_direct_final_notice_reads_in_both_languages(decide_by, sv_when, en_when):
    v = direct_final_notice(1, decide_by=decide_by)
    assert _both(v) == (
        f"Bara 1 klubb(ar) vill arrangera kval. TK ska {sv_when} besluta om en direkt "
        "DM-final på finalens datum.",
        "Only 1 club(s) want to arrange qualifiers. TK must decide on a direct DM final on "
        f"the final's date, {en_when}.",
    )


def test_the_system_rules_shown_on_the_team_page_read_in_english():
    text = system_rules("teams", "final").text
    with translation.override("en"):
        assert render(text) == (
            "B system. Alert and stop apply in every stage. Double and redouble are never "
            "alerted whatever they mean, and bids from the four level up must not be alerted."
        )
    with translation.override("sv"):
        assert render(text).startswith("B-system. Alert och stopp tillämpas i alla etapper.")


@pytest.mark.parametrize(
    ("decided_by", "sv", "en"),
    [
        ("imp_quotient", "Särskilt på IMP-kvot", "Tie broken on IMP quotient"),
        ("lot", "Särskilt på lottning", "Tie broken on draw of lots"),
        ("vp", "", ""),
        (None, "", ""),
    ],
)
def test_a_tie_break_on_the_standings_is_named_in_the_readers_language(decided_by, sv, en):
    row = {"decided_by": decided_by}
    with translation.override("sv"):
        assert decided_by_text(row) == sv
    with translation.override("en"):
        assert decided_by_text(row) == en


def test_an_sm_place_reason_kept_in_a_snapshot_renders_in_the_readers_language():
    result = sm_places(["A", "B", "C"], out_of_district={"A"}, sm_places=2)
    stored = json.loads(json.dumps(as_data(result.reasons["A"])))  # as the snapshot keeps it
    with translation.override("en"):
        assert (
            render(stored)
            == "R-PAIR-2: place 1 in the DM final; out-of-district pair 1 of at most 1"
        )
    with translation.override("sv"):
        assert render(stored) == "R-PAIR-2: plats 1 i DM-finalen; utomdistriktspar 1 av högst 1"
        assert render("") == ""


def test_a_reminder_mail_body_goes_through_the_catalogue():
    context = {
        "what": "SM-finalplatser",
        "deadline": date(2017, 4, 9),
        "days_left": 1,
        "teams": [{"name": "Fyris"}],
    }
    with translation.override("en"):
        body = render_to_string("portal/email/protest_deadline.txt", context)
    assert "To the captains of the DM Teams final" in body
    assert (
        "The last day to protest against an illegal player before the SM final places is "
        "9 April 2017 (in 1 day). Later protests are rejected."
    ) in body
    assert "Rule: R-TEAM-RES-5." in body
    with translation.override("sv"):
        body = render_to_string("portal/email/protest_deadline.txt", {**context, "days_left": 2})
    assert "inför SM-finalplatser är 9 april 2017 (om 2 dagar). Senare protester avvisas." in body


# ---------------------------------------------------------------------------------------------
# (d) ?lang=en shows no Swedish on the public pages and the admin index
# ---------------------------------------------------------------------------------------------

#: Words only Swedish text has: none is English, a name in the demo data or a clause ID.
SWEDISH_ONLY = [
    "och",
    "inte",
    "matcher",
    "brickor",
    "kvalet",
    "spelare",
    "säsong",
    "säsonger",
    "avgift",
    "avgifter",
    "anmäl",
    "anmälda",
    "deltar",
    "platser",
    "finalplatser",
    "senast",
    "ändra",
    "lägg",
    "välkommen",
    "lösenord",
    "klubbar",
    "inga",
]
# "team" and "match": a demo team's page and a played match's page (ids found after loading).
PAGES = ["/lag/", "/par/", "/admin/", "team", "match"]


def _page_url(name: str) -> str:
    from teams.models import Match

    played = Match.objects.filter(status="played").order_by("id").first()
    if name == "team":
        return f"/lag/lag/{played.home_id}/"
    if name == "match":
        return f"/lag/match/{played.pk}/"
    return name


@pytest.fixture(scope="module")
def demo_pages(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo season with its results, and each page's visible text in both languages."""
    from ubf.celery import app

    old_eager = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    with (
        django_db_blocker.unblock(),
        override_settings(
            MEDIA_ROOT=str(tmp_path_factory.mktemp("demo-media")),
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        ),
    ):
        call_command("load_demo", stdout=StringIO())
        try:
            client = Client()
            client.force_login(get_user_model().objects.get(username="tk"))
            texts = {}
            for url in PAGES:
                for lang in ("sv", "en"):
                    response = client.get(_page_url(url), {"lang": lang})
                    assert response.status_code == 200, (url, lang)
                    texts[url, lang] = _visible_text(response.content.decode())
            yield texts
        finally:
            call_command("flush", interactive=False, verbosity=0)
            app.conf.CELERY_TASK_ALWAYS_EAGER = old_eager


def _visible_text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    # title attributes are read too (hover texts on the standings)
    titles = " ".join(re.findall(r'title="([^"]*)"', page))
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + titles)


def _swedish_words(text: str) -> list[str]:
    return [w for w in SWEDISH_ONLY if re.search(rf"(?<!\w){w}(?!\w)", text, re.I)]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_the_page_in_english_has_no_swedish_word(demo_pages, url):
    assert _swedish_words(demo_pages[url, "en"]) == []


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_the_same_page_in_swedish_has_them(demo_pages, url):
    # So the English test can fail: the words are on the page when it is Swedish.
    # (A match page is mostly figures: "brickor" is the one listed word it holds.)
    assert len(_swedish_words(demo_pages[url, "sv"])) >= (1 if url == "match" else 3)

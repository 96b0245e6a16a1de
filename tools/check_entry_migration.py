"""Issue 20's migrations on a real database: what a deployed site has before them is there after
them (``clubs/0005``, ``teams/0010``, ``pairs/0003``: one entry parent, one seat, one offer).

1. A scratch checkout of the code before them (``--before``, e.g. ``git worktree add --detach
   /tmp/before main``) loads the demo season into the database ``--database-url`` (``migrate``
   and ``load_demo`` with ``DEMO_DATE``), unless ``--no-load``.
2. That code counts the rows (teams, pair entries of every kind, seats, offers, results,
   matches, history, decisions) and renders the public pages: ``/lag/``, ``/lag/final/``,
   ``/par/``, every ``/par/<id>/`` and ``/par/final/<id>/``, every heat page and every team page.
3. This checkout's ``manage.py migrate`` runs on the same database.
4. This checkout counts and renders the same again, and the two are compared: every count the
   same, every page the same text and the same links (times of day masked: the demo clock keeps
   the real time of day).

    .venv/bin/python tools/check_entry_migration.py --before /tmp/before \\
        --database-url sqlite:////tmp/mig.sqlite3 [--demo-date 2017-03-05]
    .venv/bin/python tools/check_entry_migration.py --before /tmp/before \\
        --database-url postgres://postgres@127.0.0.1:5432/ubf_mig

Prints one line per count and a line per page that differs; exits 1 when anything differs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Run in the checkout being measured (before: the old schema, after: the new one).
SNAPSHOT = r"""
import json, re, django
django.setup()
from django.apps import apps
from django.test import Client

def count(label, **filters):
    try:
        model = apps.get_model(label)
    except LookupError:
        return 0
    return model.objects.filter(**filters).count()

def held(label):
    # a seat row not vacated (a seat nobody could take is created vacated)
    return apps.get_model(label).objects.exclude(status="vacated").count()

new = apps.all_models["clubs"].get("entry") is not None
c = {}
c["teams"] = count("teams.Team")
if new:
    c["pair entries in heats"] = count("pairs.PairEntry", entered_as="heat")
    c["direct qualifiers"] = count("pairs.PairEntry", entered_as="direct")
    c["direct final pairs"] = count("pairs.PairEntry", entered_as="direct_final")
    c["pair seats"] = count("clubs.FinalSeat", competition__discipline__in=["open", "mixed", "veteran", "dam"])
    c["team seats"] = count("clubs.FinalSeat", competition__discipline="teams")
    c["held seats"] = held("clubs.FinalSeat")
    c["pair offers"] = count("clubs.SeatOffer", seat__competition__discipline__in=["open", "mixed", "veteran", "dam"])
    c["team offers"] = count("clubs.SeatOffer", seat__competition__discipline="teams")
    c["pair entry history"] = count("pairs.HistoricalPairEntry")
    c["seat history"] = count("clubs.HistoricalFinalSeat")
    c["offer history"] = count("clubs.HistoricalSeatOffer")
else:
    c["pair entries in heats"] = count("pairs.PairEntry")
    c["direct qualifiers"] = count("pairs.DirectQualifier")
    c["direct final pairs"] = count("pairs.FinalSeat", player1__isnull=False)
    c["pair seats"] = count("pairs.FinalSeat")
    c["team seats"] = count("teams.TeamFinalSeat")
    c["held seats"] = held("pairs.FinalSeat") + held("teams.TeamFinalSeat")
    c["pair offers"] = count("pairs.Offer")
    c["team offers"] = count("teams.TeamFinalOffer")
    c["pair entry history"] = count("pairs.HistoricalPairEntry") + count("pairs.HistoricalDirectQualifier")
    c["seat history"] = count("pairs.HistoricalFinalSeat") + count("teams.HistoricalTeamFinalSeat")
    c["offer history"] = count("pairs.HistoricalOffer") + count("teams.HistoricalTeamFinalOffer")
for label in ("teams.HistoricalTeam", "teams.RosterEntry", "teams.Match", "teams.Lineup",
              "teams.BoardResult", "teams.WalkOver", "teams.Penalty", "pairs.ReserveNotice",
              "results.ResultUpload", "results.PairResult", "results.PairTraveller",
              "results.PairFinalResult", "results.StandingSnapshot", "results.AllocationRun",
              "results.Lot", "clubs.Decision", "portal.FeeStatus", "portal.ReminderLog"):
    c[label] = count(label)

pages = json.loads(PAGES) if PAGES else None
if pages is None:
    pages = ["/", "/lag/", "/lag/final/", "/par/", "/kalender/"]
    for pc in apps.get_model("pairs.PairCompetition").objects.order_by("id"):
        pages += [f"/par/{pc.id}/", f"/par/final/{pc.id}/"]
    pages += [f"/par/kval/{h}/" for h in apps.get_model("pairs.PairHeat").objects.order_by("id").values_list("id", flat=True)]
    pages += [f"/lag/kval/{h}/" for h in apps.get_model("teams.TeamHeat").objects.order_by("id").values_list("id", flat=True)]
    pages += [f"/lag/lag/{t}/" for t in apps.get_model("teams.Team").objects.order_by("id").values_list("id", flat=True)]
client = Client(HTTP_HOST="127.0.0.1")
out = {}
for path in pages:
    response = client.get(path)
    html = response.content.decode()
    links = sorted(set(re.findall(r'href="([^"]+)"', html)))
    text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\b\d{1,2}[:.]\d{2}\b", "HH:MM", text)  # the time of day the page is made
    text = " ".join(text.split())
    out[path] = {"status": response.status_code, "text": text, "links": links}
print("@@SNAPSHOT@@" + json.dumps({"counts": c, "pages": out}))
"""


def _env(database_url: str, demo_date: str) -> dict:
    env = dict(os.environ)
    env.update(
        DEBUG="true",
        DATABASE_URL=database_url,
        DEMO_DATE=demo_date,
        DJANGO_SETTINGS_MODULE="ubf.settings",
        CELERY_BROKER_URL="",
    )
    return env


def _run(tree: Path, args: list[str], env: dict) -> str:
    result = subprocess.run(
        [sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit(f"failed in {tree}: {' '.join(args[:3])}")
    return result.stdout


def snapshot(tree: Path, env: dict, pages: list[str] | None) -> dict:
    code = f"PAGES = {json.dumps(json.dumps(pages) if pages else '')}\n" + SNAPSHOT
    out = _run(tree, ["-c", code], env)
    return json.loads(out.split("@@SNAPSHOT@@", 1)[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, type=Path, help="a checkout before issue 20")
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--demo-date", default="2017-03-05")
    parser.add_argument("--no-load", action="store_true", help="the database is loaded already")
    options = parser.parse_args()
    env = _env(options.database_url, options.demo_date)
    if not options.no_load:
        _run(options.before, ["manage.py", "migrate", "--noinput", "-v0"], env)
        _run(options.before, ["manage.py", "load_demo"], env)
    before = snapshot(options.before.resolve(), env, None)
    _run(ROOT, ["manage.py", "migrate", "--noinput", "-v0"], env)
    after = snapshot(ROOT, env, list(before["pages"]))

    differs = 0
    print(f"{'count':34} {'before':>8} {'after':>8}")
    for name, value in before["counts"].items():
        now = after["counts"].get(name)
        mark = "" if now == value else "  <-- differs"
        differs += bool(mark)
        print(f"{name:34} {value:>8} {now:>8}{mark}")
    same = 0
    for path, page in before["pages"].items():
        new = after["pages"][path]
        if page == new:
            same += 1
            continue
        differs += 1
        print(f"page {path}: status {page['status']} -> {new['status']}")
        if page["links"] != new["links"]:
            print(f"  links only before: {sorted(set(page['links']) - set(new['links']))[:5]}")
            print(f"  links only after: {sorted(set(new['links']) - set(page['links']))[:5]}")
        old_words, new_words = page["text"].split(), new["text"].split()
        at = next(
            (i for i, (a, b) in enumerate(zip(old_words, new_words, strict=False)) if a != b),
            min(len(old_words), len(new_words)),
        )
        print(f"  before: …{' '.join(old_words[max(0, at - 8) : at + 12])}…")
        print(f"  after:  …{' '.join(new_words[max(0, at - 8) : at + 12])}…")
    print(f"pages: {same} of {len(before['pages'])} the same")
    return 1 if differs else 0


if __name__ == "__main__":
    raise SystemExit(main())

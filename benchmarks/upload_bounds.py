"""Benchmark: the CPU one result file costs the upload service, the largest a club could send
and the worst shapes under the size cap (issue 25).

Issue 25 found a 95 KB PBN (a heat's own file with one ScoreTable row of board 1 repeated
2,000 times) that cost a worker 30 s: the matchpoints were compared pairwise, and nothing
bounded the lines of a board before them. Every file here goes through the real upload
service (``results.services.uploads``: checksum, parse bounded by the heat's Limits, validate,
identify, store) into a throwaway SQLite database, the recompute switched off (it runs in the
worker, benchmarked by benchmarks/recompute.py), and its CPU seconds are printed
(``time.process_time``, this process: parsing, validation and SQLite alike), with whether it
was stored or refused and why, then the maximum. Target: every file within 2 s of CPU.

The files:

* legitimate: a heat of 20 pairs and 27 boards (the size of the demo's heats) as PBN and
  USEBIO; the largest heat a club could send, 60 pairs over 70 boards (30 tables, 2,100
  lines), PBN and USEBIO; a team heat of 6 teams, 24 boards a match, in USEBIO, PBN and CSV;
* the issue's shape: the 20-pair PBN with its first row of board 1 repeated 100, 1,000, 3,000
  and 120,000 times (the last 4 MB, under the 5 MB cap), and the USEBIO with its first
  TRAVELLER_LINE repeated to the cap;
* worst shapes under the cap: the PBN's boards repeated (as many boards as fit), the ranking
  list's rows repeated (many pairs), one row 5 MB wide, an XML nested as deep as fits inside
  the event, as many empty XML elements as fit, and team files with a match's boards, or its
  matches, or a table's game repeated to the cap (USEBIO, CSV, PBN).

Run from the repository root:   .venv/bin/python benchmarks/upload_bounds.py
Without DATABASE_URL it uses a throwaway SQLite database under /tmp (migrated, then deleted).
Exits 1 if any file took more than --limit CPU seconds (default 2) or a legitimate file was
refused.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TMP_DB: Path | None = None
if not os.environ.get("DATABASE_URL"):
    TMP_DB = Path(tempfile.gettempdir()) / f"ubf-bounds-{os.getpid()}.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{TMP_DB}"
MEDIA = Path(tempfile.mkdtemp(prefix="ubf-bounds-media-"))
os.environ["MEDIA_ROOT"] = str(MEDIA)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ubf.settings")
os.environ.setdefault("DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from results.importers import DEFAULT_MAX_BYTES  # noqa: E402
from results.services.uploads import (  # noqa: E402
    UploadRejected,
    upload_pair_heat,
    upload_team_results,
)
from teams.models import Match, RosterEntry, Team  # noqa: E402
from tests.factories import PairHeatFactory, TeamHeatFactory, UserFactory, member  # noqa: E402
from ubf.demo.simulate import simulate_pair_heat, simulate_team_matches  # noqa: E402
from ubf.demo.writers import (  # noqa: E402
    write_csv_teams,
    write_pbn_pairs,
    write_pbn_teams,
    write_usebio_pairs,
    write_usebio_teams,
)
from ubf.rules.schedule import round_robin  # noqa: E402

CAP = DEFAULT_MAX_BYTES - 4096  # just under the upload size cap (5 MiB)


# --------------------------------------------------------------------------------------------
# Heats and their files
# --------------------------------------------------------------------------------------------


def pairs_field(n: int, first_mid: int) -> list:
    return [
        (str(i), (str(first_mid + 2 * i), f"Anna{i} Test"), (str(first_mid + 2 * i + 1), f"Bo{i} Test"), 3.0)
        for i in range(1, n + 1)
    ]  # fmt: skip


def pair_heat(n: int, boards: int, first_mid: int):
    """A pairs heat of ``n`` entered pairs and its simulated event (``boards`` boards)."""
    field = pairs_field(n, first_mid)
    event = simulate_pair_heat(field, boards, seed=f"bounds/{n}/{boards}", movement="mitchell")
    heat = PairHeatFactory()
    season = heat.competition.season
    for number, (mid1, name1), (mid2, name2), _ in field:
        p1 = member(season=season, mid=mid1, first_name=name1.split()[0])
        p2 = member(season=season, mid=mid2, first_name=name2.split()[0])
        heat.entries.create(player1=p1, player2=p2, pair_number=number)
    return heat, event


def team_heat(teams: int, boards: int, first_mid: int):
    """A team heat of ``teams`` teams (4 players each), a single round robin scheduled."""
    heat = TeamHeatFactory(boards_per_match=boards)
    season = heat.competition.season
    spec, made = [], {}
    for t in range(1, teams + 1):
        mids = [str(first_mid + 10 * t + k) for k in range(4)]
        players = [member(season=season, mid=m) for m in mids]
        team = Team.objects.create(
            competition=heat.competition,
            heat=heat,
            number=t,
            name=f"Lag {t}",
            captain=players[0],
            address="Gatan 1",
            phone="018-10 00 00",
            email="k@example.se",
        )
        for p in players:
            RosterEntry.objects.create(team=team, player=p)
        made[t] = team
        spec.append((str(t), f"Lag {t}", [(m, f"Spelare {m}") for m in mids], 3.0))
    schedule = [
        (r, h, a)
        for r, pairing in enumerate(round_robin(list(range(1, teams + 1))), 1)
        for h, a in pairing
        if h is not None and a is not None
    ]
    for r, h, a in schedule:
        Match.objects.create(
            competition=heat.competition,
            heat=heat,
            stage="kval",
            round=r,
            home=made[h],
            away=made[a],
            boards=boards,
        )
    event = simulate_team_matches(spec, schedule, boards, seed=f"bounds/teams/{teams}")
    return heat, event


def repeat_line(text: str, pattern: str, copies: int | None, *, block: int = 1) -> str:
    """``text`` with the ``block`` lines starting at the first line matching ``pattern``
    repeated ``copies`` times right after themselves (None: as many as fit under the cap)."""
    lines = text.split("\n")
    start = next(i for i, x in enumerate(lines) if re.search(pattern, x))
    piece = lines[start : start + block]
    if copies is None:
        room = CAP - len(text.encode("latin-1", "replace"))
        copies = max(room // (len("\n".join(piece).encode("latin-1", "replace")) + 1), 0)
    return "\n".join(lines[: start + block] + piece * copies + lines[start + block :])


def pbn_boards_to_cap(text: str) -> str:
    """The PBN with its board games repeated, renumbered, until the cap: many boards."""
    head, first, *rest = re.split(r"(?=\n\[Event \"#\"\])", text, maxsplit=2)
    game = first
    out, number = [text], 1000
    size = len(text)
    while size + len(game) < CAP:
        number += 1
        copy = re.sub(r'\[Board "\d+"\]', f'[Board "{number % 999 + 1}"]', game)
        out.append(copy)
        size += len(copy)
    return "".join(out)


def deep_xml(data: bytes, depth: int | None) -> bytes:
    """The USEBIO with ``depth`` nested elements inside its EVENT (deep nesting; None: as
    deep as fits under the cap)."""
    text = data.decode("latin-1")
    if depth is None:
        depth = (CAP - len(data)) // len("<X></X>")
    i = text.index("<PARTICIPANTS")
    nest = "<X>" * depth + "</X>" * depth
    return (text[:i] + nest + text[i:]).encode("latin-1")


def wide_row(text: str) -> str:
    """One ScoreTable row of board 1 made one cell of several megabytes (a long quoted cell)."""
    lines = text.split("\n")
    i = next(k for k, x in enumerate(lines) if x.startswith("[ScoreTable")) + 1
    room = CAP - len(text) - 10
    lines[i] = lines[i] + ' "' + "x" * room + '"'
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------------------------


def measure(upload) -> tuple[float, str]:
    """CPU seconds of one upload and its outcome ("stored", or the refusal's first words)."""
    start = time.process_time()
    try:
        outcome = upload()
        result = "stored" + (" (unchanged)" if outcome.unchanged else "")
    except UploadRejected as exc:
        first = exc.problems[0]
        code = getattr(first, "code", "") or ""
        result = f"refused [{code}] {str(first)[:70]}"
    return time.process_time() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=2.0, help="CPU seconds a file may take")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    tk = UserFactory(username="tk-bounds", is_superuser=True, is_staff=True)
    rows: list[tuple[str, int, float, str, bool]] = []

    def run(name: str, upload_fn, data: bytes, legit: bool = False) -> None:
        seconds, result = measure(lambda: upload_fn(data))
        rows.append((name, len(data), seconds, result, legit))
        print(f"{seconds:8.3f} s  {len(data):>9,} B  {name}: {result}", flush=True)

    def pairs_upload(heat, name):
        return lambda data: upload_pair_heat(tk, heat, data=data, filename=name)

    def team_upload(heat, name):
        return lambda data: upload_team_results(tk, heat=heat, data=data, filename=name)

    with mock.patch("results.services.uploads.request_recompute"):
        # Legitimate files: a demo-sized heat, the largest heat a club could send.
        heat20, event20 = pair_heat(20, 27, 400000)
        pbn20 = write_pbn_pairs(event20)
        xml20 = write_usebio_pairs(event20)
        run(
            "20 pairs, 27 boards (PBN)",
            pairs_upload(heat20, "kval.pbn"),
            pbn20.encode("latin-1"),
            True,
        )
        run("20 pairs, 27 boards (USEBIO)", pairs_upload(heat20, "kval.xml"), xml20, True)
        heat60, event60 = pair_heat(60, 70, 500000)
        run(
            "60 pairs, 70 boards (PBN)",
            pairs_upload(heat60, "stor.pbn"),
            write_pbn_pairs(event60).encode("latin-1"),
            True,
        )
        run(
            "60 pairs, 70 boards (USEBIO)",
            pairs_upload(heat60, "stor.xml"),
            write_usebio_pairs(event60),
            True,
        )

        # The shape: one row of board 1 repeated.
        row = r"^\s*\d+\s+\d+\s+\d+\s+\d+\s"  # the first ScoreTable row
        for copies in (100, 1000, 3000, 120000):
            text = repeat_line(pbn20, row, copies)
            run(
                f"PBN, a row of board 1 repeated {copies:,} times",
                pairs_upload(heat20, "r.pbn"),
                text.encode("latin-1"),
            )
        xml_text = xml20.decode("latin-1")
        block = xml_text.split("\n")
        first = next(i for i, x in enumerate(block) if "<TRAVELLER_LINE>" in x)
        size = (
            next(i for i in range(first, len(block)) if "</TRAVELLER_LINE>" in block[i]) - first + 1
        )
        run(
            "USEBIO, a TRAVELLER_LINE repeated to the cap",
            pairs_upload(heat20, "r.xml"),
            repeat_line(xml_text, "<TRAVELLER_LINE>", None, block=size).encode("latin-1"),
        )

        # Worst shapes under the cap.
        run(
            "PBN, its boards repeated to the cap (many boards)",
            pairs_upload(heat20, "b.pbn"),
            pbn_boards_to_cap(pbn20).encode("latin-1"),
        )
        run(
            "PBN, a ranking row repeated to the cap (many pairs)",
            pairs_upload(heat20, "p.pbn"),
            repeat_line(pbn20, r'^\s*1\s+\d+\s+[\d.]+\s+[\d.]+\s+"', None).encode("latin-1"),
        )
        run(
            "PBN, one ScoreTable row 5 MB wide",
            pairs_upload(heat20, "w.pbn"),
            wide_row(pbn20).encode("latin-1"),
        )
        run(
            "USEBIO, elements nested in the event to the cap",
            pairs_upload(heat20, "d.xml"),
            deep_xml(xml20, None),
        )
        flat = xml20.decode("latin-1")
        at = flat.index("<PARTICIPANTS")
        run(
            "USEBIO, empty elements in the event to the cap",
            pairs_upload(heat20, "e.xml"),
            (flat[:at] + "<X/>" * ((CAP - len(xml20)) // 4) + flat[at:]).encode("latin-1"),
        )

        # Team files: legitimate, then a match's boards and the matches repeated to the cap.
        theat, tevent = team_heat(6, 24, 600000)
        txml, tcsv, tpbn = (write_usebio_teams(tevent), write_csv_teams(tevent),
                            write_pbn_teams(tevent))  # fmt: skip
        run(
            "team heat, 6 teams, 24 boards a match (USEBIO)",
            team_upload(theat, "lag.xml"),
            txml,
            True,
        )
        run("team heat (CSV)", team_upload(theat, "lag.csv"), tcsv.encode("utf-8"), True)
        run("team heat (PBN)", team_upload(theat, "lag.pbn"), tpbn.encode("latin-1"), True)
        tlines = txml.decode("latin-1").split("\n")
        bstart = next(i for i, x in enumerate(tlines) if re.match(r"\s*<BOARD\b", x))
        bsize = (
            next(i for i in range(bstart, len(tlines)) if tlines[i].strip() == "</BOARD>")
            - bstart
            + 1
        )
        run(
            "team USEBIO, a BOARD repeated to the cap",
            team_upload(theat, "b.xml"),
            repeat_line(txml.decode("latin-1"), r"^\s*<BOARD\b", None, block=bsize).encode(
                "latin-1"
            ),
        )
        mstart = next(i for i, x in enumerate(tlines) if re.match(r"\s*<MATCH>", x))
        msize = (
            next(i for i in range(mstart, len(tlines)) if tlines[i].strip() == "</MATCH>")
            - mstart
            + 1
        )
        run(
            "team USEBIO, a MATCH repeated to the cap",
            team_upload(theat, "m.xml"),
            repeat_line(txml.decode("latin-1"), r"^\s*<MATCH>\s*$", None, block=msize).encode(
                "latin-1"
            ),
        )
        csv_lines = tcsv.split("\n")
        board_row = next(x for x in csv_lines if x.lower().startswith(("board", "bricka")))
        run(
            "team CSV, a board row repeated to the cap",
            team_upload(theat, "b.csv"),
            repeat_line(tcsv, "^" + re.escape(board_row) + "$", None).encode("utf-8"),
        )
        pbn_lines = tpbn.split("\n")
        gstart = next(i for i, x in enumerate(pbn_lines) if x.startswith("[Room "))
        gstart = max(i for i in range(gstart) if pbn_lines[i].startswith("[Event"))
        gsize = (
            next(i for i in range(gstart, len(pbn_lines)) if not pbn_lines[i].strip()) - gstart + 1
        )
        run(
            "team PBN, a table's game repeated to the cap",
            team_upload(theat, "g.pbn"),
            repeat_line(tpbn, "^" + re.escape(pbn_lines[gstart]) + "$", None, block=gsize).encode(
                "latin-1"
            ),
        )

    worst = max(rows, key=lambda r: r[2])
    print()
    print(f"files: {len(rows)}; maximum {worst[2]:.3f} s CPU ({worst[0]}); limit {args.limit} s")
    over = [r for r in rows if r[2] > args.limit]
    refused_legit = [r for r in rows if r[4] and not r[3].startswith("stored")]
    for r in over:
        print(f"OVER THE LIMIT: {r[0]} {r[2]:.3f} s")
    for r in refused_legit:
        print(f"A LEGITIMATE FILE WAS REFUSED: {r[0]}: {r[3]}")
    return 1 if over or refused_legit else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        shutil.rmtree(MEDIA, ignore_errors=True)
        if TMP_DB is not None:
            TMP_DB.unlink(missing_ok=True)

"""Benchmark: the member register brought in (issue 23, clubs.services.register).

A register of N rows (default 5,000, in 20 clubs of four districts) is written as the
federation's CSV (Windows-1252, ``;``), read, previewed and applied into an empty season; then
a second file of the same size with 10% changed clubs, 5% newly paid and 2% gone is previewed
and applied; then the same file again (nothing changes). Each step prints its time and SQL
query count; the same steps at N/10 rows show that the query count does not grow with the rows.

On PostgreSQL the query count of every step is the same at N/10 and N rows; on SQLite the
bulk writes are batched by Django (999 variables a query), one more query per batch.

Run from the repository root:   .venv/bin/python benchmarks/register_import.py [--rows 5000]
Without DATABASE_URL it uses a throwaway SQLite database under /tmp (migrated, then deleted);
with DATABASE_URL set it migrates and writes into THAT database, so point it at a throwaway one.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TMP_DB: Path | None = None
if not os.environ.get("DATABASE_URL"):
    TMP_DB = Path(tempfile.gettempdir()) / f"ubf-bench-register-{os.getpid()}.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{TMP_DB}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ubf.settings")
os.environ.setdefault("DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from clubs.models import Club, District, Membership, Player, Representation, Season  # noqa: E402
from clubs.services import register as service  # noqa: E402

HEADER = "MID;Förnamn;Efternamn;Födelseår;Kön;Klubb;Distrikt;Betald;E-post"
DISTRICTS = ["UBF"] * 14 + ["SBDF"] * 3 + ["VBF"] * 2 + ["GBF"]
CLUBS = [(f"Bridgeklubben {i:02d}", DISTRICTS[i]) for i in range(20)]


def members(n: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        club, district = CLUBS[i % len(CLUBS)]
        rows.append(
            [
                str(200000 + i * 7),
                rng.choice(["Anna", "Åsa", "Örjan", "Bo", "Märta", "Per"]),
                f"Efternamn{i}",
                str(rng.randint(1930, 2005)),
                rng.choice("KM"),
                club,
                district,
                rng.choice(["ja", "ja", "ja", "nej"]),
                "",
            ]
        )
    return rows


def as_csv(rows) -> bytes:
    return "\r\n".join([HEADER] + [";".join(r) for r in rows]).encode("cp1252")


def measured(fn):
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        result = fn()
        seconds = time.perf_counter() - start
    return seconds, len(ctx.captured_queries), result


def run(n: int, season: Season, seed: int) -> list[tuple[str, float, int, str]]:
    out = []
    rows = members(n, seed)
    data = as_csv(rows)
    s, q, register = measured(lambda: service.read_file(data, "register.csv"))
    out.append((f"{n} rows: read the file", s, q, f"{len(register.rows)} rows"))
    s, q, p = measured(lambda: service.preview_register(season, register))
    out.append((f"{n} rows: preview (empty season)", s, q, p.summary()))
    s, q, p = measured(lambda: service.apply_register(None, season, register))
    out.append((f"{n} rows: apply (empty season)", s, q, p.summary()))
    rng = random.Random(seed + 1)
    changed = []
    for r in rows:
        if rng.random() < 0.02:
            continue  # gone from the register
        r = list(r)
        if rng.random() < 0.10:
            r[5], r[6] = CLUBS[(CLUBS.index((r[5], r[6])) + 1) % len(CLUBS)]
        if r[7] == "nej" and rng.random() < 0.2:
            r[7] = "ja"
        changed.append(r)
    register = service.read_file(as_csv(changed), "register.csv")
    s, q, p = measured(lambda: service.preview_register(season, register))
    out.append((f"{n} rows: preview (changes)", s, q, p.summary()))
    s, q, p = measured(lambda: service.apply_register(None, season, register))
    out.append((f"{n} rows: apply (changes)", s, q, p.summary()))
    s, q, p = measured(lambda: service.apply_register(None, season, register))
    out.append((f"{n} rows: apply the same file again", s, q, p.summary()))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=5000)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    results = []
    for n, name in ((args.rows // 10, "2014-2015"), (args.rows, "2015-2016")):
        # The same start for both sizes: no players, clubs or districts yet.
        Player.objects.all().delete()
        Club.objects.all().delete()
        District.objects.all().delete()
        season, _ = Season.objects.get_or_create(name=name, defaults={"start_year": int(name[:4])})
        results.append(run(n, season, seed=n))
    print(f"database: {connection.vendor}")
    print(f"{'step':<42} {'seconds':>8} {'queries':>8}  result")
    for rows in results:
        for label, s, q, note in rows:
            print(f"{label:<42} {s:8.3f} {q:8d}  {note}")
    small, large = results
    same = all(a[2] == b[2] for a, b in zip(small[1:], large[1:]))
    print(
        "query count does not grow with the rows: "
        + ("OK" if same else "GROWS: " + str([(a[2], b[2]) for a, b in zip(small, large)]))
    )
    if connection.vendor == "sqlite":
        print(
            "(SQLite: Django splits a bulk write into batches of 999 variables, so there the "
            "writes grow by one query per batch; PostgreSQL writes each table in one query)"
        )
    print(
        "rows: "
        f"{Player.objects.count()} players, {Representation.objects.count()} representations, "
        f"{Membership.objects.count()} memberships"
    )


if __name__ == "__main__":
    try:
        main()
    finally:
        connection.close()
        if TMP_DB is not None:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{TMP_DB}{suffix}").unlink(missing_ok=True)

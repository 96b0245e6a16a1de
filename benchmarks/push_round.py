"""The DM Lag final's next round for benchmarks/standings_load.py, on the site's database (its
environment: ``DATABASE_URL``, ``CACHE_URL``; DEBUG on, as when the site was built).

    .venv/bin/python benchmarks/push_round.py prepare DIR
        The file of the current season's DM Lag final's next round (taking the last round back
        first when every round is in: the national season), simulated as the demo does and
        written as USEBIO into DIR; the final's days moved into the past when they are still
        to come (a round is taken once its final has begun, by the real clock the production
        server reads); a TK token for the final. Prints what the push needs as JSON.

    .venv/bin/python benchmarks/push_round.py watch COMPETITION ROUND
        Prints "ready", then the wall time (``time.time()``) at which the final's stored
        standing counts ROUND (the recompute is done), or nothing after 60 s.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ubf.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.utils import timezone  # noqa: E402

from api.services import create_token  # noqa: E402
from clubs import seats  # noqa: E402
from clubs.models import Season  # noqa: E402
from results.models import ResultUpload, StandingSnapshot  # noqa: E402
from results.services.recompute import recompute_team_competition  # noqa: E402
from teams.models import Match, Team, TeamCompetition  # noqa: E402
from ubf.demo.simulate import simulate_team_matches  # noqa: E402
from ubf.demo.writers import write_usebio_teams  # noqa: E402


def prepare(out_dir: str) -> None:
    season = Season.current()
    tc = TeamCompetition.objects.get(season=season)
    finals = Match.objects.filter(competition=tc, stage=Match.Stage.FINAL)
    scheduled = finals.filter(status=Match.Status.SCHEDULED).order_by("round")
    if not scheduled.exists():  # every round is in: take the last one back
        last = finals.order_by("-round").first().round
        ResultUpload.objects.filter(competition=tc, heat=None, round=last).delete()
        for m in finals.filter(round=last):
            m.board_results.all().delete()
        finals.filter(round=last).update(
            status=Match.Status.SCHEDULED,
            imps_home=None,
            imps_away=None,
            vp_home=None,
            vp_away=None,
        )
    today = timezone.localdate()
    if tc.final_day1 and tc.final_day1 > today:
        TeamCompetition.objects.filter(pk=tc.pk).update(
            final_day1=today - timedelta(days=1), final_day2=today
        )
    recompute_team_competition(tc.pk)
    r = scheduled.first().round
    teams = sorted(
        seats.holding(Team.objects.filter(competition=tc)).prefetch_related("roster__player"),
        key=lambda t: t.final_seat_number or 0,
    )
    teams = [t for t in teams if t.final_seat_number]
    specs = []
    for t in teams:
        roster = [e.player for e in t.roster.all()]
        strength = sum(p.max_pin for p in roster) / len(roster) if roster else 0
        specs.append(
            (t.final_seat_number, t.name, [(p.mid, p.full_name) for p in roster], strength)
        )
    number = {t.id: t.final_seat_number for t in teams}
    matches = list(finals.filter(round=r).select_related("home", "away"))
    event = simulate_team_matches(
        specs,
        [(m.round, number[m.home_id], number[m.away_id]) for m in matches],
        matches[0].boards,
        seed="bench/push",
        title=f"DM Lag final, rond {r}",
    )
    path = Path(out_dir) / f"final-rond-{r}.xml"
    path.write_bytes(write_usebio_teams(event))
    tk = get_user_model().objects.filter(is_superuser=True).order_by("id").first()
    _token, key = create_token(tk, owner=tk, name="benchmark push", final_of=tc)
    print(json.dumps({"competition": tc.pk, "round": r, "file": str(path), "key": key}))


def watch(competition: int, round_: int) -> None:
    """One plain query every 10 ms (not the ORM's: this process shares the 2 cores with the
    server it measures)."""
    from django.db import connection

    table = StandingSnapshot._meta.db_table
    sql = f"SELECT rounds_played FROM {table} WHERE competition_id = %s AND scope = %s"  # noqa: S608 (the model's own table)
    print("ready", flush=True)
    began = time.monotonic()
    with connection.cursor() as cursor:
        while time.monotonic() - began < 60:
            cursor.execute(sql, [competition, "team_final"])
            row = cursor.fetchone()
            if row and (row[0] or 0) >= round_:
                print(time.time(), flush=True)
                return
            time.sleep(0.01)


if __name__ == "__main__":
    if sys.argv[1:2] == ["prepare"]:
        prepare(sys.argv[2])
    elif sys.argv[1:2] == ["watch"]:
        watch(int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(__doc__)

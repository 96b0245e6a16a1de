"""Results for the demo season: every heat's file simulated, written and uploaded as a club
would, then the team final's first rounds (``manage.py load_demo`` calls
:func:`load_demo_results` after :func:`ubf.demo.load_demo_season`).

* Pairs: each approved pairs heat is simulated (:func:`ubf.demo.simulate.simulate_pair_heat`,
  27 boards, Howell for small fields, Mitchell for larger; bronze heats carry their
  declarations), written alternately as Ruter-style PBN (Latin-1) and USEBIO, and uploaded
  with :func:`results.services.uploads.upload_pair_heat` as TK, so the files are kept as
  ``ResultUpload`` rows and the recompute runs as after a club's upload.
* Teams: each approved team heat's scheduled matches are simulated and uploaded in one file
  (USEBIO, "CSV för lag" or PBN by turns) with :func:`upload_team_results`.
* The final: once the heats are in, the allocation's seat holders (R-TEAM-ADV-1, the
  ``AllocationRun``) become the final's teams if the demo had guessed others and no final
  result exists yet (the round robin of R-TEAM-FINAL-1 is then scheduled again); rounds
  1..``final_rounds`` (7 of 9) are uploaded one file per round, so ``/lag/`` shows a final
  in progress.

Idempotent: the simulation is deterministic (seeded by the season's seed and each heat's
name), so a rerun writes byte-identical files and the upload service answers "unchanged";
a heat whose accepted file differs from the demo's (a correction uploaded by the club or TK)
is left alone, and matches TK has already decided by hand are not in the demo's file.

Every upload is its own transaction, so each recompute runs when its upload commits (or is
sent to the worker). When the caller holds a transaction open (a test), the recomputes are
run here explicitly instead.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify

from clubs import clock, seats
from clubs.models import HeatStatus, Season
from pairs.models import PairEntry, PairHeat
from results.models import AllocationRun, ResultUpload
from results.services import recompute
from results.services.uploads import UploadRejected, upload_pair_heat, upload_team_results
from teams.models import Match, Team, TeamCompetition, TeamHeat
from ubf.demo.simulate import simulate_pair_heat, simulate_team_matches
from ubf.demo.writers import (
    write_csv_teams,
    write_pbn_pairs,
    write_pbn_teams,
    write_usebio_pairs,
    write_usebio_teams,
)
from ubf.rules.schedule import round_robin
from ubf.rules.types import HeatType

from .season import DEMO_SEED, SEASON_NAME

PAIR_BOARDS = 27
HOWELL_MAX_PAIRS = 17  # larger fields play a Mitchell
FINAL_ROUNDS_PLAYED = 7

__all__ = ["DemoResults", "allocation_holders", "load_demo_results", "pair_heat_file"]


@dataclass
class DemoResults:
    """What :func:`load_demo_results` did: one line per file, and counts."""

    lines: list[str] = field(default_factory=list)
    imported: int = 0
    unchanged: int = 0
    kept: int = 0
    rejected: int = 0
    final_reseeded: bool = False


def _checksum(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _not_yet_played(run: _Run, name: str, day) -> bool:
    """The demo as of its date (``clubs.clock``): no results for what is played after it."""
    if day is not None and day > clock.today():
        run.say(f"  {name}: spelas {day:%Y-%m-%d}, efter demodatumet; inga resultat")
        return True
    return False


def _tk_user():
    User = get_user_model()
    user = User.objects.filter(username="tk", is_active=True, is_superuser=True).first()
    return user or User.objects.filter(is_active=True, is_superuser=True).order_by("id").first()


def _in_transaction() -> bool:
    return transaction.get_connection().in_atomic_block


class _Run:
    def __init__(self, log: Callable[[str], None] | None):
        self.result = DemoResults()
        self._log = log
        self.touched_pairs: set[int] = set()
        self.touched_teams: set[int] = set()

    def say(self, line: str) -> None:
        self.result.lines.append(line)
        if self._log is not None:
            self._log(line)

    def upload(self, what: str, current, data: bytes, filename: str, call) -> bool:
        """Upload ``data`` unless another file has replaced the demo's; True if imported."""
        if current is not None and current.checksum != _checksum(data):
            self.result.kept += 1
            self.say(f"  {what}: behålls ({current.original_name} är ändrad efter demon)")
            return False
        try:
            outcome = call()
        except UploadRejected as exc:
            self.result.rejected += 1
            first = "; ".join(p.message_sv for p in exc.problems[:3])
            self.say(f"  {what}: {filename} AVVISAD: {first}")
            return False
        if outcome.unchanged:
            self.result.unchanged += 1
            self.say(f"  {what}: {filename} oförändrad")
            return False
        self.result.imported += 1
        notes = f", {len(outcome.warnings)} varningar" if outcome.warnings else ""
        self.say(f"  {what}: {filename} inläst{notes}")
        return True


# --------------------------------------------------------------------------------------------
# Pairs
# --------------------------------------------------------------------------------------------


def pair_heat_file(heat: PairHeat, index: int) -> tuple[bytes, str, int]:
    """The demo club's file for a pairs heat: (data, file name, number of pairs)."""
    entries = list(
        heat.entries.exclude(pair_number="")
        .exclude(status=PairEntry.Status.WITHDRAWN)
        .select_related("player1", "player2")
    )
    entries.sort(key=lambda e: (len(e.pair_number), e.pair_number))
    pairs = [
        (
            e.pair_number,
            (e.player1.mid, e.player1.full_name),
            (e.player2.mid, e.player2.full_name),
            (e.player1.max_pin + e.player2.max_pin) / 2,
        )
        for e in entries
    ]
    declared = None
    if heat.heat_type == HeatType.BRONZE:
        declared = {e.pair_number: e.takes_part_in_qualifier for e in entries}
    event = simulate_pair_heat(
        pairs,
        PAIR_BOARDS,
        seed=f"{DEMO_SEED}/pairs/{heat.name}",
        movement="howell" if len(pairs) <= HOWELL_MAX_PAIRS else "mitchell",
        declared=declared,
        title=f"DM-par kval: {heat.name}",
        date=heat.first_date,
    )
    slug = slugify(heat.name)
    if index % 2 == 0:
        try:
            return write_pbn_pairs(event).encode("latin-1"), f"{slug}.pbn", len(pairs)
        except UnicodeEncodeError:
            pass  # a name outside Latin-1: USEBIO writes character references
    return write_usebio_pairs(event), f"{slug}.xml", len(pairs)


def _pair_heats(run: _Run, season: Season, user) -> None:
    # The format goes by the heat's place among all the season's heats, so a heat approved
    # later does not change the other heats' files (their checksums stay the same).
    heats = list(
        PairHeat.objects.filter(competition__season=season)
        .select_related("competition")
        .order_by("first_date", "name")
    )
    for index, heat in enumerate(heats):
        if heat.status != HeatStatus.APPROVED:
            continue
        if _not_yet_played(run, heat.name, heat.first_date):
            continue
        data, filename, n = pair_heat_file(heat, index)
        if n < 3:
            run.say(f"  {heat.name}: för få par för ett resultat")
            continue
        current = heat.uploads.filter(status=ResultUpload.Status.ACCEPTED).first()
        if run.upload(
            f"{heat.name} ({n} par)",
            current,
            data,
            filename,
            lambda heat=heat, data=data, filename=filename: upload_pair_heat(
                user, heat, data=data, filename=filename
            ),
        ):
            run.touched_pairs.add(heat.competition_id)


# --------------------------------------------------------------------------------------------
# Teams
# --------------------------------------------------------------------------------------------


def _team_spec(team: Team, number: int) -> tuple:
    roster = [e.player for e in team.roster.all()]
    strength = sum(p.max_pin for p in roster) / len(roster) if roster else 0
    return (number, team.name, [(p.mid, p.full_name) for p in roster], strength)


def _write_teams(event, slug: str, kind: str) -> tuple[bytes, str]:
    if kind == "csv":
        return write_csv_teams(event).encode("utf-8"), f"{slug}.csv"
    if kind == "pbn":
        try:
            return write_pbn_teams(event).encode("latin-1"), f"{slug}.pbn"
        except UnicodeEncodeError:
            pass
    return write_usebio_teams(event), f"{slug}.xml"


TEAM_FORMATS = ("usebio", "csv", "pbn")


def _team_heats(run: _Run, competition: TeamCompetition, user) -> None:
    heats = list(TeamHeat.objects.filter(competition=competition).order_by("first_date", "name"))
    for index, heat in enumerate(heats):
        if heat.status != HeatStatus.APPROVED:
            continue
        # One file per heat, uploaded once its last day is played.
        if _not_yet_played(run, heat.name, heat.last_date or heat.first_date):
            continue
        teams = list(heat.teams.filter(number__isnull=False).prefetch_related("roster__player"))
        matches = list(
            Match.objects.filter(heat=heat, stage=Match.Stage.KVAL).select_related("home", "away")
        )
        current = ResultUpload.objects.filter(
            heat=heat, round=None, status=ResultUpload.Status.ACCEPTED
        ).first()
        if current is None:  # results TK entered by hand (W.O. ...) stay as they are
            matches = [m for m in matches if m.status == Match.Status.SCHEDULED]
        if not matches:
            continue
        event = simulate_team_matches(
            [_team_spec(t, t.number) for t in sorted(teams, key=lambda t: t.number)],
            [(m.round, m.home.number, m.away.number) for m in matches],
            heat.boards_per_match,
            seed=f"{DEMO_SEED}/teams/{heat.name}",
            title=f"DM Lag kval: {heat.name}",
            date=heat.first_date,
        )
        data, filename = _write_teams(event, slugify(heat.name), TEAM_FORMATS[index % 3])
        if run.upload(
            f"{heat.name} ({len(matches)} matcher)",
            current,
            data,
            filename,
            lambda heat=heat, data=data, filename=filename: upload_team_results(
                user, data=data, filename=filename, heat=heat
            ),
        ):
            run.touched_teams.add(competition.id)


def allocation_holders(competition: TeamCompetition) -> list[int] | None:
    """The team ids holding final seats in the competition's AllocationRun (R-TEAM-ADV-1):
    direct qualifiers first, then each venue's holders in heat order; None before any run and
    while the run is provisional (heats still to play: their standings, and any lot between
    tied teams, may still change, so the demo's final keeps its guess until the heats are in)."""
    run = AllocationRun.objects.filter(competition=competition).first()
    if run is None or run.provisional:
        return None
    ex = run.explanation or {}
    keys = [d["entry"] for d in ex.get("direct", [])]
    for venue in ex.get("venues", []):
        keys += [h["entry"] for h in venue.get("holders", [])]
    return [int(k) for k in dict.fromkeys(keys) if str(k).isdigit()]


def _reseed_final(run: _Run, competition: TeamCompetition, holders: list[int]) -> None:
    """Make the allocation's holders the final's teams and schedule the round robin again
    (R-TEAM-FINAL-1: boards by the number of teams, two central days)."""
    rules = competition.season.rules()
    boards = rules.final_boards_by_teams.get(len(holders))
    if boards is None:
        run.say(f"  Finalen: {len(holders)} platsinnehavare, ingen finalstorlek; lämnas")
        return
    with transaction.atomic():
        by_id = {t.id: t for t in Team.objects.filter(competition=competition)}
        Match.objects.filter(competition=competition, stage=Match.Stage.FINAL).delete()
        # The numbers go on the seats: a team's number in the final is its seat's.
        seats.number_seats(competition, holders)
        rounds = round_robin(holders)
        day1_rounds = math.ceil(len(rounds) / rules.team_final_central_days)
        halves = 1 if boards <= rules.single_segment_max_boards else 2
        for r, pairing in enumerate(rounds, start=1):
            for home, away in pairing:
                if home is None or away is None:
                    continue
                Match.objects.create(
                    competition=competition,
                    stage=Match.Stage.FINAL,
                    round=r,
                    home_id=home,
                    away_id=away,
                    boards=boards,
                    halves=halves,
                    played_on=competition.final_day1
                    if r <= day1_rounds
                    else competition.final_day2,
                )
    run.result.final_reseeded = True
    names = ", ".join(by_id[t].name for t in holders)
    run.say(f"  Finalen: lagen enligt platsfördelningen (R-TEAM-ADV-1): {names}")


def _final(run: _Run, competition: TeamCompetition, user, final_rounds: int) -> None:
    finals = Match.objects.filter(competition=competition, stage=Match.Stage.FINAL)
    untouched = not finals.exclude(status=Match.Status.SCHEDULED).exists() and not (
        ResultUpload.objects.filter(competition=competition, heat=None).exists()
    )
    if untouched:
        holders = allocation_holders(competition)
        # The final's schedule was drawn for the demo's first guess: drawn again once the
        # allocation's holders (whose seats the recompute set) are other teams.
        current = {x for m in finals for x in (m.home_id, m.away_id)}
        if holders and set(holders) != current:
            _reseed_final(run, competition, holders)
    teams = list(
        seats.holding(Team.objects.filter(competition=competition))
        .filter(final_seat_number__isnull=False)
        .order_by("final_seat_number")
        .prefetch_related("roster__player")
    )
    matches = list(finals.select_related("home", "away").order_by("round", "id"))
    if not teams or not matches:
        return
    seated = {t.id for t in teams}
    if any(m.home_id not in seated or m.away_id not in seated for m in matches):
        # A team of the final's matches lost its seat (a result changed after the final was
        # played): the final's file cannot name it; TK sorts the final out.
        run.say("  Finalen: ett lag i finalens matcher har ingen finalplats längre; lämnas")
        return
    boards = matches[0].boards
    specs = [_team_spec(t, t.final_seat_number) for t in teams]
    number = {t.id: t.final_seat_number for t in teams}
    for r in range(1, final_rounds + 1):
        round_matches = [m for m in matches if m.round == r]
        current = ResultUpload.objects.filter(
            competition=competition, heat=None, round=r, status=ResultUpload.Status.ACCEPTED
        ).first()
        if current is None:
            round_matches = [m for m in round_matches if m.status == Match.Status.SCHEDULED]
        if not round_matches:
            continue
        if _not_yet_played(run, f"Finalen rond {r}", round_matches[0].played_on):
            continue
        event = simulate_team_matches(
            specs,
            [(m.round, number[m.home_id], number[m.away_id]) for m in round_matches],
            boards,
            seed=f"{DEMO_SEED}/final",
            title=f"DM Lag final, rond {r}",
            date=round_matches[0].played_on,
        )
        data, filename = _write_teams(event, f"dm-lag-final-rond-{r}", "usebio")
        if run.upload(
            f"Finalen rond {r}",
            current,
            data,
            filename,
            lambda data=data, filename=filename, r=r: upload_team_results(
                user, data=data, filename=filename, competition=competition, round=r
            ),
        ):
            run.touched_teams.add(competition.id)


# --------------------------------------------------------------------------------------------


def load_demo_results(
    *, log: Callable[[str], None] | None = None, final_rounds: int = FINAL_ROUNDS_PLAYED
) -> DemoResults:
    """Upload the demo season's results (see the module docstring); idempotent. ``log`` gets
    one Swedish line per file."""
    run = _Run(log)
    season = Season.objects.filter(name=SEASON_NAME).first()
    user = _tk_user()
    if season is None or user is None:
        run.say("  Resultat: demosäsongen eller TK-kontot saknas; inga resultat inlästa")
        return run.result
    deferred = _in_transaction()  # on_commit waits for the caller: recompute here instead

    _pair_heats(run, season, user)
    competition = TeamCompetition.objects.filter(season=season).first()
    if competition is not None:
        _team_heats(run, competition, user)
        # The allocation must be current before the final's teams are read from it; with a
        # broker the upload's recompute runs in the worker, so compute it here as well.
        if (
            competition.id in run.touched_teams
            or deferred
            or not (AllocationRun.objects.filter(competition=competition).exists())
        ):
            recompute.recompute_team_competition(competition.id)
            run.touched_teams.discard(competition.id)
        _final(run, competition, user, final_rounds)
    if deferred:
        for pair_competition_id in sorted(run.touched_pairs):
            recompute.recompute_pair_competition(pair_competition_id)
        for team_competition_id in sorted(run.touched_teams):
            recompute.recompute_team_competition(team_competition_id)
    return run.result

"""Recompute a competition from its raw inputs (uploaded results, line-ups and TK decisions)
and store the outcome as snapshots with their explanations.

One transaction per competition, holding a row lock on it (``select_for_update``), so two
recomputes at once run one after the other and the last one to finish has read everything the
first one had. Computing twice gives the same snapshot (idempotent): lots are drawn once with a
recorded seed and their result is reused.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.db.models import Prefetch, Q, prefetch_related_objects
from django.utils import timezone

from clubs import clock
from clubs.models import Representation
from pairs.models import (
    DirectQualifier,
    FinalSeat,
    HeatStatus,
    Offer,
    PairCompetition,
    PairEntry,
    PairHeat,
)
from results.models import (
    Lot,
    PairFinalResult,
    PairFinalTraveller,
    PairResult,
    PairTraveller,
    RecomputeStatus,
    ResultUpload,
    StandingSnapshot,
)
from results.services.allocation import Venue, allocate_final, venue_key
from teams.models import (
    Lineup,
    Match,
    Penalty,
    RosterEntry,
    Team,
    TeamCompetition,
    TeamFinalOffer,
    TeamHeat,
    WalkOver,
)
from ubf.rules import replacement, sanctions
from ubf.rules.allocation import final_size_pairs, final_size_teams
from ubf.rules.eligibility import team_competes_for_dm
from ubf.rules.heats import PairHeatEntries, qualifying_pairs
from ubf.rules.masterpoints import (
    pair_bonus,
    pair_final_masterpoints,
    share_team_points,
    team_match_masterpoints,
)
from ubf.rules.people import UBF, PlayerInfo
from ubf.rules.sm import dm_and_sm_order, semifinal_choice_order, sm_quota_basis
from ubf.rules.sm import sm_places as sm_places_rule
from ubf.rules.standings import TeamStanding, plaque_places, rank_pairs, rank_teams
from ubf.rules.types import Discipline
from ubf.rules.vp import victory_points

log = logging.getLogger(__name__)

CRITERION_SV = {
    "vp": "VP",
    "imp_quotient": "IMP-kvot",
    "h2h_imps": "vunna IMP i inbördes möten",
    "h2h_boards": "vunna brickor i inbördes möten",
    "h2h_points": "vunna totalpoäng i inbördes möten",
    "lot": "lottning",
}


def _status(**which) -> RecomputeStatus:
    status, _ = RecomputeStatus.objects.get_or_create(**which)
    return status


def _save_snapshots(existing, snapshots: list[StandingSnapshot]) -> None:
    """Store the computed snapshots: one query reads the rows ``existing`` holds, then one bulk
    update and one bulk insert (not an update_or_create per heat). Runs under the
    competition's row lock, so no other recompute writes these rows meanwhile."""

    def key(s: StandingSnapshot) -> tuple:
        return (s.scope, s.pair_heat_id, s.team_heat_id, s.team_competition_id)

    stored = {key(s): s for s in existing}
    now = timezone.now()  # what auto_now sets on save()
    updates, creates = [], []
    for snap in snapshots:
        old = stored.get(key(snap))
        if old is None:
            creates.append(snap)
            continue
        old.data, old.provisional = snap.data, snap.provisional
        old.rounds_played, old.computed_at = snap.rounds_played, now
        updates.append(old)
    if updates:
        StandingSnapshot.objects.bulk_update(
            updates, ["data", "provisional", "rounds_played", "computed_at"]
        )
    if creates:
        StandingSnapshot.objects.bulk_create(creates)


# --------------------------------------------------------------------------------------------
# Teams
# --------------------------------------------------------------------------------------------


FINAL = "final"


def recompute_team_competition(team_competition_id: int, heat_ids=None) -> None:
    """Heat standings, final standings (DM and full order), and the allocation of final places.

    ``heat_ids``: only these heats' matches changed (an upload; ``"final"`` for the final);
    the other heats keep their stored snapshots. ``None`` recomputes everything (TK decisions:
    W.O.s, penalties, line-ups and team status can change several heats at once)."""
    with transaction.atomic():
        competition = (
            TeamCompetition.objects.select_for_update()
            .select_related("season")
            .get(pk=team_competition_id)
        )
        status = _status(team_competition=competition)
        status.started_at = clock.now()
        status.save(update_fields=["started_at"])

        rules = competition.season.rules()
        teams = {t.id: t for t in Team.objects.filter(competition=competition)}
        matches = list(Match.objects.filter(competition=competition))
        changed = (
            None
            if heat_ids is None
            else {FINAL if h in (None, FINAL) else int(h) for h in heat_ids}
        )
        stored_snapshots = list(
            StandingSnapshot.objects.filter(
                Q(scope=StandingSnapshot.Scope.TEAM_HEAT, team_heat__competition=competition)
                | Q(scope=StandingSnapshot.Scope.TEAM_FINAL, team_competition=competition)
            )
        )
        has_snapshot = {s.team_heat_id or FINAL for s in stored_snapshots}

        def heat_key(m: Match):
            return m.heat_id if m.stage == Match.Stage.KVAL else FINAL

        def to_rank(key) -> bool:
            return changed is None or key in changed or key not in has_snapshot

        # Board results and line-ups only for the heats ranked again.
        prefetch_related_objects(
            [m for m in matches if to_rank(heat_key(m))],
            "board_results",
            Prefetch("lineups", queryset=Lineup.objects.select_related("player")),
        )
        walkovers = {
            w.match_id: w
            for w in WalkOver.objects.filter(
                match__competition=competition, status=WalkOver.Status.GRANTED
            )
        }
        penalties = defaultdict(lambda: defaultdict(Decimal))  # stage -> team -> vp
        for p in Penalty.objects.filter(
            team__competition=competition, status=Penalty.Status.GRANTED
        ).select_related("match"):
            stage = p.match.stage if p.match_id else Match.Stage.KVAL
            penalties[stage][p.team_id] += p.vp
        # Rosters (for R-TEAM-4 and the bonus) only for the teams of the heats ranked again.
        ranked_teams = [
            t for t in teams.values() if to_rank(t.heat_id) or (t.in_final and to_rank(FINAL))
        ]
        prefetch_related_objects(
            ranked_teams,
            # Players joined, not prefetched by id: on SQLite Django 5.2 prefetches a
            # forward FK with one OR term per id, which fails beyond ~1000 players.
            Prefetch("roster", queryset=RosterEntry.objects.select_related("player")),
            Prefetch(
                "roster__player__representations",
                queryset=Representation.objects.select_related("club__district"),
            ),
        )
        dm_status, roster_ubf = _dm_status({t.id: t for t in ranked_teams}, competition)

        by_heat: dict[int | None, list[Match]] = defaultdict(list)
        for m in matches:
            by_heat[m.heat_id if m.stage == Match.Stage.KVAL else None].append(m)

        snapshots = []
        for heat_id, heat_matches in by_heat.items():
            if not to_rank(heat_id if heat_id is not None else FINAL):
                continue
            stage = Match.Stage.KVAL if heat_id is not None else Match.Stage.FINAL
            if heat_id is not None:
                members = [t for t in teams.values() if t.heat_id == heat_id]
            else:
                members = [t for t in teams.values() if t.in_final]
            member_ids = {t.id for t in members} | {
                x for m in heat_matches for x in (m.home_id, m.away_id)
            }
            rows, provisional, rounds_played = _team_standings(
                [teams[t] for t in sorted(member_ids)],
                heat_matches,
                walkovers,
                penalties[stage],
                rules,
                dm_status,
                seed=f"{competition.season.name}/{stage}/{heat_id or 'final'}",
            )
            if heat_id is None:
                _final_extras(rows, competition, rules, roster_ubf)
            scope = (
                StandingSnapshot.Scope.TEAM_HEAT if heat_id else StandingSnapshot.Scope.TEAM_FINAL
            )
            snapshots.append(
                StandingSnapshot(
                    scope=scope,
                    team_heat_id=heat_id,
                    team_competition=None if heat_id else competition,
                    data=rows,
                    provisional=provisional,
                    rounds_played=rounds_played,
                )
            )
        _save_snapshots(stored_snapshots, snapshots)

        _allocate_team_final(competition, teams, by_heat)

        status.finished_at = clock.now()
        status.runs += 1
        status.last_error = ""
        status.save(update_fields=["finished_at", "runs", "last_error"])


def _allocate_team_final(competition: TeamCompetition, teams: dict[int, Team], by_heat) -> None:
    """R-TEAM-ADV-1 (with R-ALLOC-2..6) and R-TEAM-REPL-1 over the approved heats.

    A team "took part" in the qualifiers when it is entered in an approved heat and has not
    been excluded (R-TEAM-WO-3) or disqualified (R-TEAM-RES-*): those count neither in the final
    size nor in the heat's share and are passed over when seats are filled. A team that withdrew
    before playing does not count either; one that withdrew after qualifying keeps its heat's
    count and its seat is offered down the replacement chain (R-TEAM-REPL-1).
    """
    heats = list(
        TeamHeat.objects.filter(competition=competition, status=HeatStatus.APPROVED)
        .prefetch_related("organisers")
        .order_by("first_date", "id")
    )
    snapshots = {
        s.team_heat_id: s.data
        for s in StandingSnapshot.objects.filter(scope="team_heat", team_heat__in=heats)
    }
    venues, heat_venue = [], {}
    for heat in heats:
        key = venue_key(o.club_id for o in heat.organisers.all())
        heat_venue[heat.id] = key
        members = [t for t in teams.values() if t.heat_id == heat.id]
        matches = by_heat.get(heat.id, [])
        played = {
            x for m in matches if m.status != Match.Status.SCHEDULED for x in (m.home_id, m.away_id)
        }
        took_part = [
            t
            for t in members
            if t.status == Team.Status.ENTERED
            or (t.status == Team.Status.WITHDRAWN and t.id in played)
        ]
        ranked = [str(r["team_id"]) for r in snapshots.get(heat.id, [])]
        ranked += [
            str(t.id)
            for t in sorted(members, key=lambda t: t.number or 0)
            if str(t.id) not in ranked
        ]
        venues.append(
            Venue(
                key=key,
                label=heat.name,
                # A direct qualifier that played the heat counts here too (R-ALLOC-2).
                entries=len(took_part),
                ranking=ranked,
                struck={str(t.id) for t in members if t not in took_part},
                complete=bool(matches) and all(m.status != Match.Status.SCHEDULED for m in matches),
            )
        )
    direct = {
        str(t.id): heat_venue.get(t.heat_id)
        for t in teams.values()
        if t.is_direct_qualifier and t.status == Team.Status.ENTERED
    }
    qualifying = sum(v.entries for v in venues)
    withdrawals = tuple(
        replacement.Withdrawal(entry=str(t.id), reason=t.status_reason)
        for t in teams.values()
        if t.in_final and t.status == Team.Status.WITHDRAWN
    )
    recorded = list(TeamFinalOffer.objects.filter(competition=competition))
    run, _allocation, _holders, chain = allocate_final(
        kind=Lot.Kind.TEAMS,
        season=competition.season,
        competition_field="team_competition",
        competition=competition,
        final_size=final_size_teams(qualifying, rules=competition.season.rules()),
        direct=direct,
        venues=venues,
        names={str(t.id): t.name for t in teams.values()},
        withdrawals=withdrawals,
        offers=tuple(
            replacement.Offer(entry=str(o.team_id), seat=o.seat, answer=o.answer) for o in recorded
        ),
    )
    if run.provisional:
        return
    # R-TEAM-REPL-1 / R-REPL-5: once the allocation is final, each seat to fill gets its
    # pending offer to the team the chain names (TK records the answer).
    pending = {o.seat for o in recorded if o.answer == TeamFinalOffer.Answer.PENDING}
    TeamFinalOffer.objects.bulk_create(
        TeamFinalOffer(
            competition=competition, seat=state.seat, team_id=int(state.ask), offered_at=clock.now()
        )
        for state in chain.seat_states
        if state.ask and state.ask.isdigit() and state.seat not in pending
    )


def _dm_status(teams: dict[int, Team], competition: TeamCompetition):
    """R-TEAM-4: a team that has fielded a player representing a club outside UBF plays only for
    SM semifinal places. Fielded = the recorded line-ups; before any line-up is recorded the
    roster stands in for them (a team entered with a non-UBF player is shown as such)."""
    district_of: dict[int, str] = {}
    for team in teams.values():
        for entry in team.roster.all():
            rep = next(
                (
                    r
                    for r in entry.player.representations.all()
                    if r.season_id == competition.season_id
                ),
                None,
            )
            district_of[entry.player_id] = rep.club.district.code if rep else ""
    fielded: dict[int, set[int]] = defaultdict(set)
    for team_id, player_id in Lineup.objects.filter(
        match__competition=competition, team_id__in=list(teams)
    ).values_list("team_id", "player_id"):
        fielded[team_id].add(player_id)
    out, roster_ubf = {}, {}
    for team in teams.values():
        roster = {e.player_id for e in team.roster.all()}
        players = fielded.get(team.id) or roster
        infos = [PlayerInfo(mid=str(p), name="", district=district_of.get(p, "")) for p in players]
        out[team.id] = team_competes_for_dm(infos)
        roster_ubf[team.id] = all(district_of.get(p) == UBF for p in roster)
    return out, roster_ubf


def _rule_match(m: Match, walkovers: dict[int, WalkOver], rules) -> sanctions.Match | None:
    """A stored match as the rulebook's value; None when it has not been played."""
    if m.status == Match.Status.WALKOVER and m.id in walkovers:
        wo = walkovers[m.id]
        score = sanctions.wo_score(rules)
        home_offends = wo.offender_id == m.home_id
        return sanctions.Match(
            home=m.home_id,
            away=m.away_id,
            vp_home=score.offender_vp if home_offends else score.non_offender_vp,
            vp_away=score.non_offender_vp if home_offends else score.offender_vp,
            boards=m.boards,
            walkover_by=wo.offender_id,
            wo_score=score,
        )
    if m.status != Match.Status.PLAYED or m.imps_home is None or m.imps_away is None:
        return None
    vp_home, vp_away = victory_points(m.imps_home, m.imps_away, m.boards)
    return sanctions.Match(
        home=m.home_id,
        away=m.away_id,
        imps_home=m.imps_home,
        imps_away=m.imps_away,
        vp_home=vp_home,
        vp_away=vp_away,
        boards=m.boards,
    )


def _team_standings(members, matches, walkovers, penalties, rules, dm_status, *, seed):
    """Rank one heat (or the final): W.O. exclusions and disqualifications applied first."""
    rule_matches, boards_of = [], {}
    for m in matches:
        rm = _rule_match(m, walkovers, rules)
        if rm is not None:
            rule_matches.append(rm)
            boards_of[(m.home_id, m.away_id)] = [
                {
                    "imps_home": b.imps_home,
                    "imps_away": b.imps_away,
                    "points_home": b.points_home,
                    "points_away": b.points_away,
                }
                for b in m.board_results.all()
            ]
    excluded = sanctions.apply_wo_exclusions(rule_matches, rules)
    stage_matches = list(excluded.matches)
    reasons = dict(excluded.excluded)
    for team in members:
        if team.status == Team.Status.DISQUALIFIED:
            dq = sanctions.apply_disqualification(
                stage_matches, team.id, rules, reason=team.status_reason or "R-TEAM-RES-4"
            )
            stage_matches = list(dq.matches)
            reasons[team.id] = team.status_reason or "R-TEAM-RES-4"
    ranked = rank_teams(
        [t.id for t in members],
        [
            {
                "home": rm.home,
                "away": rm.away,
                "imps_home": rm.imps_home,
                "imps_away": rm.imps_away,
                "vp_home": rm.vp_home,
                "vp_away": rm.vp_away,
                **(
                    {"boards": boards_of[(rm.home, rm.away)]}
                    if not rm.is_walkover and boards_of.get((rm.home, rm.away))
                    else {}
                ),
            }
            for rm in stage_matches
        ],
        penalties={k: v for k, v in penalties.items() if k in {t.id for t in members}},
        seed=seed,
    )
    by_id = {t.id: t for t in members}
    rows = [_row(s, by_id[s.team], dm_status, reasons) for s in ranked]
    _add_dm_order(rows)
    _add_masterpoints(rows, matches, walkovers, rules)
    scheduled = list(matches)
    done = [m for m in scheduled if m.status != Match.Status.SCHEDULED]
    provisional = len(done) < len(scheduled) or not scheduled
    rounds = sorted({m.round for m in scheduled})
    rounds_played = 0
    for r in rounds:
        if all(m.status != Match.Status.SCHEDULED for m in scheduled if m.round == r):
            rounds_played = r
        else:
            break
    return rows, provisional, rounds_played


def _final_extras(rows: list[dict], competition: TeamCompetition, rules, roster_ubf) -> None:
    """The DM final: the order of choosing SM semifinal venues (R-TEAM-SEMI-1: the full order,
    not the DM order; disqualified or excluded teams do not count) and the bonus per player of
    the top three in the DM order (R-TEAM-MP-3: only if every roster member represents a UBF
    club; who played a third of the halves is decided from the line-ups)."""
    places = competition.sm_semifinal_places or 0
    excluded = {
        r["team_id"]: r["excluded_reason"] or r["status_label"] for r in rows if r["status_label"]
    }
    order = semifinal_choice_order([r["team_id"] for r in rows], places, excluded)
    choice = {team: i for i, team in enumerate(order.order, start=1)}
    for row in rows:
        row["sm_choice"] = choice.get(row["team_id"])
        dm_rank = row.get("dm_rank")
        if dm_rank and dm_rank <= len(rules.team_bonus):
            eligible = roster_ubf.get(row["team_id"], False)
            row["bonus_per_player"] = rules.team_bonus[dm_rank - 1] if eligible else 0
            row["bonus_reason"] = (
                f"R-TEAM-MP-3: DM-plats {dm_rank}"
                if eligible
                else "R-TEAM-MP-3 / R-TEAM-4: inte alla i laget representerar en UBF-klubb"
            )


def _add_masterpoints(rows: list[dict], matches, walkovers, rules) -> None:
    """R-TEAM-MP-1/2 (R-TEAM-RES-4, R-TEAM-WO-2): silver points by the results actually played
    (a W.O. gives none; a disqualified team's played matches still give them), shared between a
    team's players in proportion to the halves each played, where line-ups were recorded."""
    team_points: dict[int, Fraction] = defaultdict(Fraction)
    player_points: dict[int, dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    names: dict[int, str] = {}
    for m in matches:
        rm = _rule_match(m, walkovers, rules)
        if rm is None or rm.is_walkover:
            continue
        mp = team_match_masterpoints(rm.vp_home, rm.vp_away, m.boards, rules=rules)
        for team_id, points in ((m.home_id, mp.home), (m.away_id, mp.away)):
            team_points[team_id] += points
            halves: dict[int, int] = defaultdict(int)
            for lineup in m.lineups.all():
                if lineup.team_id == team_id:
                    halves[lineup.player_id] += 1
                    names[lineup.player_id] = lineup.player.full_name
            for player_id, share in share_team_points(points, halves).items():
                player_points[team_id][player_id] += share
    for row in rows:
        tid = row["team_id"]
        row["masterpoints"] = f"{float(team_points.get(tid, 0)):.2f}"
        row["player_masterpoints"] = [
            {"player_id": pid, "name": names[pid], "points": f"{float(points):.2f}"}
            for pid, points in sorted(player_points[tid].items(), key=lambda kv: -kv[1])
        ]


def _fmt_quotient(s: TeamStanding) -> str:
    if s.imp_quotient_exact is None:
        return "∞"
    return f"{float(s.imp_quotient_exact):.3f}"


def _row(s: TeamStanding, team: Team, dm_status, reasons) -> dict:
    reason = reasons.get(team.id)
    label = ""
    if team.status == Team.Status.DISQUALIFIED:
        label = "diskvalificerat"
    elif team.status == Team.Status.EXCLUDED or reason:
        label = "uteslutet"
    decided = CRITERION_SV.get(s.decided_by or "", "")
    return {
        "rank": s.rank,
        "team_id": team.id,
        "name": team.name,
        "played": s.matches_played,
        "imps_won": f"{s.imps_won.quantize(Decimal('0.01')).normalize():f}",
        "imps_lost": f"{s.imps_lost.quantize(Decimal('0.01')).normalize():f}",
        "imp_quotient": _fmt_quotient(s),
        "vp": f"{s.vp:.2f}",
        "penalty": f"{s.penalty:.2f}",
        "decided_by": s.decided_by,
        "decided_by_label": f"Särskilt på {decided}" if decided and s.decided_by != "vp" else "",
        "dm_eligible": dm_status.get(team.id, True),
        "status_label": label,
        "excluded_reason": reason or "",
        "explanation": list(s.explanation),
    }


def _add_dm_order(rows: list[dict]) -> None:
    """R-TEAM-4: the DM order (title, plaques) counts only teams that compete for DM (an
    excluded or disqualified team competes for nothing)."""
    order = dm_and_sm_order(
        [r["team_id"] for r in rows],
        {r["team_id"]: r["dm_eligible"] and not r["status_label"] for r in rows},
    )
    dm_rank = {team: i for i, team in enumerate(order.dm_order, start=1)}
    for row in rows:
        row["dm_rank"] = dm_rank.get(row["team_id"])


# --------------------------------------------------------------------------------------------
# Pairs
# --------------------------------------------------------------------------------------------


def recompute_pair_competition(pair_competition_id: int, heat_ids=None) -> None:
    """Heat standings (R-PAIR-TIE-1..3), qualifying counts (R-ALLOC-1, R-PAIR-KVAL-5/7), the
    allocation of final seats (R-ALLOC-2..6), the seat holders and the replacement chain
    (R-REPL-*), with the final seats and offers kept in step (accepted seats never move).

    ``heat_ids``: only these heats' results changed (an upload). Their standings are computed
    again; every other heat's ranking is read from its stored snapshot, which is what the last
    full recompute computed from the same data. ``None`` recomputes every heat (TK decisions
    such as a struck entry or a declared pair change more than one heat's inputs)."""
    with transaction.atomic():
        competition = (
            PairCompetition.objects.select_for_update()
            .select_related("season")
            .get(pk=pair_competition_id)
        )
        status = _status(pair_competition=competition)
        status.started_at = clock.now()
        status.save(update_fields=["started_at"])
        rules = competition.season.rules()

        heats = list(
            PairHeat.objects.filter(competition=competition, status=HeatStatus.APPROVED)
            .prefetch_related("clubs")
            .order_by("session1_date", "id")
        )
        uploads = {
            u.pair_heat_id: u
            for u in ResultUpload.objects.filter(
                pair_heat__in=heats, status=ResultUpload.Status.ACCEPTED
            )
        }
        stored = {
            s.pair_heat_id: s
            for s in StandingSnapshot.objects.filter(
                scope=StandingSnapshot.Scope.PAIR_HEAT, pair_heat__in=heats
            )
        }
        changed = None if heat_ids is None else {int(h) for h in heat_ids}
        reused = {
            h.id
            for h in heats
            if changed is not None
            and h.id not in changed
            and h.id in uploads
            and h.id in stored
            and not stored[h.id].provisional
            and stored[h.id].computed_at >= uploads[h.id].uploaded_at
        }
        fresh_uploads = [u for h, u in uploads.items() if h not in reused]
        results_by_upload = defaultdict(list)
        for r in PairResult.objects.filter(upload__in=fresh_uploads):
            results_by_upload[r.upload_id].append(r)
        lines_by_upload = defaultdict(list)
        for t in PairTraveller.objects.filter(upload__in=fresh_uploads).values_list(
            "upload_id", "board_number", "ns_id", "ew_id", "mp_ns", "mp_ew"
        ):
            lines_by_upload[t[0]].append(
                {"board": t[1], "ns": str(t[2]), "ew": str(t[3]), "mp_ns": t[4], "mp_ew": t[5]}
            )
        entries = {
            e.id: e
            for e in PairEntry.objects.filter(
                heat__in=[h for h in heats if h.id not in reused]
            ).select_related("player1", "player2")
        }
        names = {
            str(e.id): f"{e.player1.full_name} – {e.player2.full_name}" for e in entries.values()
        }
        directs = list(
            DirectQualifier.objects.filter(
                competition=competition, status=DirectQualifier.Status.REGISTERED
            ).select_related("player1", "player2")
        )
        direct_pairs = {frozenset((d.player1_id, d.player2_id)): d for d in directs}
        # R-ALLOC-2: a direct qualifier that played a heat together counts there.
        played_together = {
            (e_heat, e_id): direct_pairs[frozenset((p1, p2))]
            for e_id, e_heat, p1, p2 in PairEntry.objects.filter(
                heat__in=heats, player1_id__in=[p for pair in direct_pairs for p in pair]
            ).values_list("id", "heat_id", "player1_id", "player2_id")
            if frozenset((p1, p2)) in direct_pairs
        }
        direct: dict[str, str | None] = {}

        venues, snapshots = [], []
        for heat in heats:
            key = venue_key(c.id for c in heat.clubs.all())
            for (heat_id, entry_id), _dq in played_together.items():
                if heat_id == heat.id:
                    direct[str(entry_id)] = key
            if heat.id in reused:
                venues.append(_venue_from_snapshot(heat, key, stored[heat.id], names))
                continue
            venue, snapshot = _rank_pair_heat(
                heat,
                key,
                competition,
                rules,
                [e for e in entries.values() if e.heat_id == heat.id],
                uploads.get(heat.id),
                results_by_upload,
                lines_by_upload,
                names,
            )
            venues.append(venue)
            snapshots.append(snapshot)
        _save_snapshots(stored.values(), snapshots)
        for d in directs:
            if d not in played_together.values():
                direct[f"dq:{d.id}"] = None
                names[f"dq:{d.id}"] = f"{d.player1.full_name} – {d.player2.full_name}"
        qualifying_total = sum(v.entries for v in venues)
        size = final_size_pairs(qualifying_total, rules=rules)
        # R-ALLOC-1: if fewer pairs qualified than the size, all of them go on.
        size = min(size, qualifying_total + sum(1 for v in direct.values() if v is None))
        run, allocation, holders, chain = allocate_final(
            kind=Lot.Kind.PAIRS,
            season=competition.season,
            competition_field="pair_competition",
            competition=competition,
            final_size=size,
            direct=direct,
            venues=venues,
            names=names,
            **_pair_chain_inputs(competition),
        )
        _sync_final_seats(competition, heats, venues, holders, chain, run.provisional)
        _rank_pair_final(competition, rules)
        # R-PAIR-4: the pairs that started in DM kval (the heats' qualifying pairs, counted
        # above) or in a direct final, plus the reigning champions' free place.
        champion_entry = next((str(e) for (_h, e), _dq in played_together.items()), None)
        basis = sm_quota_basis(
            counted_heats=[(v.label, v.ranking) for v in venues],
            direct_final_pairs=PairFinalResult.objects.filter(competition=competition).count()
            if competition.is_direct_final
            else 0,
            reigning_champion_free_place=bool(directs),
            champion_pair=champion_entry,
        )
        run.explanation["sm_quota_basis"] = {
            "total": basis.total,
            "from_heats": basis.from_heats,
            "from_direct_final": basis.from_direct_final,
            "champion_free_place": basis.champion_free_place,
        }
        run.save(update_fields=["explanation"])

        status.finished_at = clock.now()
        status.runs += 1
        status.last_error = ""
        status.save(update_fields=["finished_at", "runs", "last_error"])


def _venue_from_snapshot(heat, key: str, snapshot: StandingSnapshot, names: dict) -> Venue:
    """A heat whose results did not change: its ranking as the stored snapshot has it."""
    rows = snapshot.data
    for r in rows:
        names[str(r["entry_id"])] = r["name"]
    return Venue(
        key=key,
        label=heat.name,
        entries=sum(1 for r in rows if r.get("qualifier")),
        ranking=[str(r["entry_id"]) for r in rows if r.get("qualifier")],
        struck={str(r["entry_id"]) for r in rows if r.get("rank") is None},
        complete=True,
    )


def _rank_pair_heat(
    heat, key, competition, rules, heat_entries, upload, results_by_upload, lines_by_upload, names
) -> tuple[Venue, StandingSnapshot]:
    """One heat's ranking (R-PAIR-TIE-1..3) and qualifying pairs (R-PAIR-KVAL-5/7, R-ALLOC-1)."""
    by_id = {e.id: e for e in heat_entries}
    results = {str(r.entry_id): r for r in results_by_upload.get(upload.id if upload else None, [])}
    struck = {str(e.id) for e in heat_entries if e.status != PairEntry.Status.ENTERED}
    ranked_ids = [p for p in results if p not in struck]
    standings = (
        rank_pairs(
            ranked_ids,
            {p: results[p].percentage for p in ranked_ids},
            lines_by_upload.get(upload.id, []),
            seed=f"{competition.season.name}/{competition.discipline}/{heat.id}",
        )
        if upload
        else []
    )
    counted = qualifying_pairs(
        PairHeatEntries(
            heat_type=heat.heat_type,
            pairs=tuple(str(e.id) for e in heat_entries if not upload or str(e.id) in results),
            declared=frozenset(str(e.id) for e in heat_entries if e.takes_part_in_qualifier),
            struck=frozenset(struck),
            boards_played_max=max((r.boards_played for r in results.values()), default=0)
            if upload
            else None,
        ),
        rules,
    )
    qualifying = set(counted.pairs)
    rows = [
        {
            "rank": st.rank,
            "entry_id": int(st.pair),
            "pair_number": by_id[int(st.pair)].pair_number,
            "name": names[st.pair],
            "percentage": f"{results[st.pair].percentage:.2f}",
            "qualifier": st.pair in qualifying,
            "decided_by": st.decided_by,
            "explanation": list(st.explanation),
        }
        for st in standings
    ] + [
        {
            "rank": None,
            "entry_id": int(p),
            "pair_number": by_id[int(p)].pair_number,
            "name": names[p],
            "percentage": f"{results[p].percentage:.2f}",
            "qualifier": False,
            "struck_reason": by_id[int(p)].status_reason or "R-PAIR-KVAL-7",
        }
        for p in results
        if p in struck
    ]
    snapshot = StandingSnapshot(
        scope=StandingSnapshot.Scope.PAIR_HEAT,
        pair_heat=heat,
        data=rows,
        provisional=upload is None,
        rounds_played=0,
    )
    venue = Venue(
        key=key,
        label=heat.name,
        entries=len(qualifying),
        ranking=[st.pair for st in standings if st.pair in qualifying],
        struck=struck,
        complete=upload is not None,
    )
    return venue, snapshot


def _pair_chain_inputs(competition: PairCompetition) -> dict:
    """The recorded withdrawals and offers (R-REPL-5) as the chain runner takes them."""
    withdrawals, offers = [], []
    seats = FinalSeat.objects.filter(competition=competition).prefetch_related("offers")
    for seat in seats:
        key = _seat_key(seat)
        for offer in sorted(seat.offers.all(), key=lambda o: (o.offered_at, o.id)):
            offers.append(
                replacement.Offer(entry=str(offer.entry_id), seat=key, answer=offer.answer)
            )
        if seat.status == FinalSeat.Status.VACATED and seat.entry_id:
            withdrawals.append(replacement.Withdrawal(entry=str(seat.entry_id), reason=seat.reason))
    return {"offers": tuple(offers), "withdrawals": tuple(withdrawals)}


def _seat_key(seat: FinalSeat) -> str:
    if seat.direct_qualifier_id:
        return f"dq:{seat.direct_qualifier_id}"
    return str(seat.entry_id)


def _sync_final_seats(competition, heats, venues, holders, chain, provisional) -> None:
    """Keep FinalSeat rows in step with the seat holders: seats whose holder changed while
    nothing was decided on them follow the ranking; a confirmed seat never moves (R-REPL-6);
    once the allocation is final, each seat to be offered gets its pending Offer (R-REPL-5)."""
    heat_of_venue = {v.key: h for v, h in zip(venues, heats, strict=True)}
    existing = {
        _seat_key(s): s
        for s in FinalSeat.objects.filter(competition=competition).prefetch_related("offers")
    }
    wanted: dict[str, tuple[str | None, str]] = {}
    for venue, keys in holders.holders.items():
        for key in keys:
            wanted[key] = (venue, FinalSeat.Source.ALLOCATION)
    for state in chain.seat_states:
        if state.seat.startswith("dq:"):
            wanted[state.seat] = (state.origin, FinalSeat.Source.DIRECT)
    for key, seat in existing.items():
        untouched = seat.status == FinalSeat.Status.PROVISIONAL and not seat.offers.all()
        if key not in wanted and untouched:
            seat.delete()
        elif key not in wanted and seat.origin_heat_id:
            # R-REPL-6: a decided seat stays with its pair even if a correction moved the pair
            # below the cut; its venue then fills one seat fewer, so the final keeps its size.
            venue = next(
                (v.key for v, h in zip(venues, heats, strict=True) if h.id == seat.origin_heat_id),
                None,
            )
            newcomers = [k for k in holders.holders.get(venue, []) if k not in existing]
            if newcomers:
                wanted.pop(newcomers[-1], None)
    for key, (venue, source) in wanted.items():
        if key in existing and existing[key].pk is not None:  # delete() above clears the pk
            continue
        FinalSeat.objects.create(
            competition=competition,
            origin_heat=heat_of_venue.get(venue),
            entry_id=int(key) if key.isdigit() else None,
            direct_qualifier_id=int(key[3:]) if key.startswith("dq:") else None,
            source=source,
            status=FinalSeat.Status.PROVISIONAL,
            reason="R-ALLOC-6" if source == FinalSeat.Source.ALLOCATION else "R-DIRECT-1",
        )
    if provisional:
        return
    seats = {
        _seat_key(s): s
        for s in FinalSeat.objects.filter(competition=competition).prefetch_related("offers")
    }
    offered: set[int] = set()
    for state in chain.seat_states:
        if state.ask and state.seat in seats and state.ask.isdigit():
            seat = seats[state.seat]
            pending = seat.pk in offered or any(
                o.answer == Offer.Answer.PENDING for o in seat.offers.all()
            )
            if not pending:
                offered.add(seat.pk)
                Offer.objects.create(
                    seat=seat,
                    entry_id=int(state.ask),
                    offered_at=clock.now(),
                    override_reason="",
                )


# --------------------------------------------------------------------------------------------
# Pairs final
# --------------------------------------------------------------------------------------------

PLAQUE_SV = {1: "guld", 2: "silver", 3: "brons"}
MP_TABLE_KEY = "pair_final_mp_table"


def _mp_table(season) -> dict[tuple[int, int], str] | None:
    """R-PAIR-MP-1: SBF's masterpoint table as TK loaded it for the season in
    ``season.tables["pair_final_mp_table"]`` ("pairs:place" -> points); None when missing."""
    raw = (season.tables or {}).get(MP_TABLE_KEY)
    if not raw:
        return None
    table = {}
    for key, points in dict(raw).items():
        try:
            n, place = (int(x) for x in str(key).split(":"))
        except ValueError:
            continue
        table[(n, place)] = str(points)
    return table or None


def _fmt_points(value) -> str:
    return f"{float(value):.2f}"


def _rank_pair_final(competition: PairCompetition, rules) -> None:
    """The DM pairs final from its accepted upload: ranking (R-PAIR-TIE-1), plaque places
    (R-PAIR-TIE-2, among the pairs that may win plaques), title, plaques and bonus only to
    pairs with both players in UBF, passing to the next such pair (R-PAIR-MP-2/3), SM places
    with the out-of-district cap (R-PAIR-2) and masterpoints from TK's table (R-PAIR-MP-1).
    Without an accepted final upload any stored final snapshot is removed."""
    upload = competition.final_uploads.filter(status=ResultUpload.Status.ACCEPTED).first()
    if upload is None:
        StandingSnapshot.objects.filter(
            scope=StandingSnapshot.Scope.PAIR_FINAL, pair_competition=competition
        ).delete()
        return
    results = {
        r.key: r
        for r in PairFinalResult.objects.filter(upload=upload).select_related("player1", "player2")
    }
    lines = [
        {"board": b, "ns": ns, "ew": ew, "mp_ns": mp_ns, "mp_ew": mp_ew}
        for b, ns, ew, mp_ns, mp_ew in PairFinalTraveller.objects.filter(upload=upload).values_list(
            "board_number", "ns_key", "ew_key", "mp_ns", "mp_ew"
        )
    ]
    player_ids = [p for r in results.values() for p in (r.player1_id, r.player2_id)]
    in_ubf = set(
        Representation.objects.filter(
            season_id=competition.season_id, player_id__in=player_ids, club__district__code=UBF
        ).values_list("player_id", flat=True)
    )
    both_ubf = {k: r.player1_id in in_ubf and r.player2_id in in_ubf for k, r in results.items()}
    outside = {
        k for k, r in results.items() if r.player1_id not in in_ubf and r.player2_id not in in_ubf
    }
    scores = {k: r.percentage for k, r in results.items()}
    standings = rank_pairs(
        list(results),
        scores,
        lines,
        seed=f"{competition.season.name}/{competition.discipline}/final",
    )
    ranking = [st.pair for st in standings]
    eligible = [k for k in ranking if both_ubf[k]]
    plaques = plaque_places(eligible, {k: scores[k] for k in eligible}, lines)
    bonus = pair_bonus(ranking, both_ubf, competition.discipline, rules)
    passed_awards = dict(bonus.awards.passed_over)
    n_plaques = len(rules.pair_bonus[Discipline(competition.discipline)])

    places = competition.sm_places or 0
    sm = sm_places_rule(ranking, outside, places, rules)
    sm_passed = dict(sm.passed_over)

    table = _mp_table(competition.season)
    mp = None
    if table is not None:
        # Pairs on equal percentage share the places they cover.
        mp_places = {k: 1 + sum(1 for x in scores.values() if x > scores[k]) for k in ranking}
        mp = pair_final_masterpoints(mp_places, table, len(ranking))

    rows = []
    for st in standings:
        k, r = st.pair, results[st.pair]
        award = bonus.awards.place_of(k)
        plaque = plaques.get(k)
        rows.append(
            {
                "rank": st.rank,
                "key": k,
                "player_ids": [r.player1_id, r.player2_id],
                "name": f"{r.player1.full_name} – {r.player2.full_name}",
                "percentage": f"{r.percentage:.2f}",
                "decided_by": st.decided_by,
                "explanation": list(st.explanation),
                "ubf_pair": both_ubf[k],
                "out_of_district": k in outside,
                "plaque_place": plaque if plaque is not None and plaque <= n_plaques else None,
                "plaque_label": PLAQUE_SV.get(plaque, "") if plaque else "",
                "title": award == 1,
                "award_place": award,
                "bonus_per_player": bonus.points.get(k, 0),
                "award_passed_reason": passed_awards.get(k, "") if award is None else "",
                "sm_place": sm.qualified.index(k) + 1 if k in sm.qualified else None,
                "sm_reason": sm.reasons.get(k, "") or sm_passed.get(k, ""),
                "sm_passed_over": k in sm_passed,
                "masterpoints": _fmt_points(mp.points[k]) if mp else None,
                "masterpoints_reason": mp.reasons[k] if mp else "",
            }
        )
    data = {
        "rows": rows,
        "pairs": len(rows),
        "sm_places": competition.sm_places,
        "sm_cap": sm.cap,
        "sm_unfilled": sm.unfilled,
        "mp_table_missing": table is None,
        "upload_id": upload.id,
    }
    StandingSnapshot.objects.update_or_create(
        scope=StandingSnapshot.Scope.PAIR_FINAL,
        pair_competition=competition,
        pair_heat=None,
        team_heat=None,
        team_competition=None,
        defaults={"data": data, "provisional": False, "rounds_played": 0},
    )

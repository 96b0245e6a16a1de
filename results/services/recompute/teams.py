"""DM Lag recompute: heat and final standings (R-TEAM-TIE-1), DM and SM order (R-TEAM-4),
masterpoints, and the allocation of final places with the replacement chain (R-TEAM-ADV-1,
R-TEAM-REPL-1)."""

from __future__ import annotations

import logging
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext_noop

from clubs import clock, seats
from clubs.models import Decision, FinalSeat, HeatStatus, Representation, SeatOffer
from results.models import (
    Lot,
    StandingSnapshot,
)
from results.services.allocation import Venue, allocate_final, step_reasons, venue_key
from results.services.lots import (
    TEAM_FINAL,
    mark_ties,
    standing_draw,
    team_heat_standing,
    ties_of,
    undrawn_keys,
)
from results.services.recompute.common import finish, lock_competition, save_snapshots
from teams.models import (
    Lineup,
    Match,
    Penalty,
    RosterEntry,
    SemifinalChoice,
    Team,
    TeamCompetition,
    TeamHeat,
    WalkOver,
)
from ubf.rules import replacement, sanctions
from ubf.rules.allocation import final_size_teams
from ubf.rules.eligibility import (
    check_team_direct_final_play,
    fielded_players,
    team_competes_for_dm,
)
from ubf.rules.i18n import Message, as_data
from ubf.rules.masterpoints import (
    share_team_points,
    team_bonus,
    team_match_masterpoints,
)
from ubf.rules.people import UBF, PlayerInfo
from ubf.rules.sm import dm_and_sm_order, semifinal_turns
from ubf.rules.standings import TeamStanding, rank_teams
from ubf.rules.vp import victory_points

log = logging.getLogger(__name__)

CRITERION_SV = {
    "vp": "VP",
    "imp_quotient": gettext_noop("IMP-kvot"),
    "h2h_imps": gettext_noop("vunna IMP i inbördes möten"),
    "h2h_boards": gettext_noop("vunna brickor i inbördes möten"),
    "h2h_points": gettext_noop("vunna totalpoäng i inbördes möten"),
    "lot": gettext_noop("lottning"),
}


FINAL = "final"


def recompute_team_competition(team_competition_id: int, heat_ids=None) -> None:
    """Heat standings, final standings (DM and full order), and the allocation of final places.

    ``heat_ids``: only these heats' matches changed (an upload; ``"final"`` for the final);
    the other heats keep their stored snapshots. ``None`` recomputes everything (TK decisions:
    W.O.s, penalties, line-ups and team status can change several heats at once)."""
    with transaction.atomic():
        lock_competition(team_competition_id)
        competition = TeamCompetition.objects.select_related("season").get(pk=team_competition_id)
        started_at = clock.now()

        rules = competition.season.rules()
        teams = {t.id: t for t in seats.with_seats(Team.objects.filter(competition=competition))}
        matches = list(Match.objects.filter(competition=competition))
        changed = (
            None
            if heat_ids is None
            else {FINAL if h in (None, FINAL) else int(h) for h in heat_ids}
        )
        stored_snapshots = list(
            StandingSnapshot.objects.filter(
                competition=competition,
                scope__in=[StandingSnapshot.Scope.TEAM_HEAT, StandingSnapshot.Scope.TEAM_FINAL],
            )
        )
        has_snapshot = {s.heat_id or FINAL for s in stored_snapshots}

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
        by_heat: dict[int | None, list[Match]] = defaultdict(list)
        for m in matches:
            by_heat[m.heat_id if m.stage == Match.Stage.KVAL else None].append(m)
        finalists_before = {t.id for t in teams.values() if t.holds_final_seat}

        # The heats first: the allocation reads their standings.
        heat_teams = [t for t in teams.values() if t.heat_id is not None and to_rank(t.heat_id)]
        dm_status, roster_ubf, without_lineup = _rosters(heat_teams, competition)
        snapshots = [
            _stage_snapshot(
                competition,
                heat_id,
                heat_matches,
                [t for t in teams.values() if t.heat_id == heat_id],
                teams,
                walkovers,
                penalties[Match.Stage.KVAL],
                rules,
                (dm_status, roster_ubf, without_lineup),
            )
            for heat_id, heat_matches in by_heat.items()
            if heat_id is not None and to_rank(heat_id)
        ]
        save_snapshots(stored_snapshots, snapshots)

        if changed != {FINAL}:
            # A round of the final changes nothing the allocation reads (the heats' standings,
            # the teams' statuses, the seats and their offers): on the national season it was
            # half of each round's recompute.
            _allocate_team_final(competition, teams, by_heat, finalists_before)

        # Then the final, with the finalists the seats name now (not the ones before this
        # recompute moved a seat): ranked again whenever they changed.
        finalists = set(seats.held(competition).values_list("holder_id", flat=True))
        if None in by_heat and (to_rank(FINAL) or finalists != finalists_before):
            final_matches = by_heat[None]
            in_play = finalists | {x for m in final_matches for x in (m.home_id, m.away_id)}
            members = [teams[x] for x in sorted(in_play)]
            status = _rosters(members, competition)
            snap = _stage_snapshot(
                competition,
                None,
                final_matches,
                members,
                teams,
                walkovers,
                penalties[Match.Stage.FINAL],
                rules,
                status,
            )
            save_snapshots(stored_snapshots, [snap])

        finish(competition, started_at)


def _rosters(members: list[Team], competition: TeamCompetition):
    """Rosters (for R-TEAM-4 and the bonus) of ``members``, with their players' clubs: the DM
    status, whole roster in UBF, and matches without a line-up per team (:func:`_dm_status`)."""
    prefetch_related_objects(
        members,
        # Players joined, not prefetched by id: on SQLite Django 5.2 prefetches a
        # forward FK with one OR term per id, which fails beyond ~1000 players.
        Prefetch("roster", queryset=RosterEntry.objects.select_related("player")),
        Prefetch(
            "roster__player__representations",
            queryset=Representation.objects.select_related("club__district"),
        ),
    )
    return _dm_status({t.id: t for t in members}, competition)


def _stage_snapshot(
    competition, heat_id, stage_matches, members, teams, walkovers, penalties, rules, status
) -> StandingSnapshot:
    """One heat's standings (``heat_id``), or the final's (None) among ``members``."""
    dm_status, roster_ubf, without_lineup = status
    stage = Match.Stage.KVAL if heat_id is not None else Match.Stage.FINAL
    member_ids = {t.id for t in members} | {
        x for m in stage_matches for x in (m.home_id, m.away_id)
    }
    # R-TEAM-TIE-1: a tie a lot drawn by TK covers takes its order; any other tie the fixed
    # seed, marked on the row as undrawn so that the pages and /tk/ show it.
    draw, ties = standing_draw(
        competition,
        team_heat_standing(heat_id) if heat_id is not None else TEAM_FINAL,
        f"{competition.season.name}/{stage}/{heat_id or 'final'}",
    )
    rows, provisional, rounds_played = _team_standings(
        [teams[t] for t in sorted(member_ids)],
        stage_matches,
        walkovers,
        penalties,
        rules,
        dm_status,
        seed=None,
        draw=draw,
    )
    mark_ties(rows, ties, "team_id")
    _lineup_notes(rows, stage_matches, without_lineup, heat_id is None)
    if heat_id is None:
        _final_extras(rows, competition, rules, roster_ubf)
        _final_players(rows, stage_matches, teams, walkovers, rules, roster_ubf)
    return StandingSnapshot(
        scope=StandingSnapshot.Scope.TEAM_HEAT if heat_id else StandingSnapshot.Scope.TEAM_FINAL,
        competition=competition,
        heat_id=heat_id,
        data=rows,
        provisional=provisional,
        rounds_played=rounds_played,
    )


def _allocate_team_final(
    competition: TeamCompetition, teams: dict[int, Team], by_heat, finalists: set[int]
) -> None:
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
    heat_snapshots = {
        s.heat_id: s for s in StandingSnapshot.objects.filter(scope="team_heat", heat__in=heats)
    }
    snapshots = {heat_id: s.data for heat_id, s in heat_snapshots.items()}
    venues, heat_venue = [], {}
    withdrawn_after_play: set[int] = set()
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
        withdrawn_after_play |= {t.id for t in took_part if t.status == Team.Status.WITHDRAWN}
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
    # R-TEAM-DIRECT-1, R-REPL-7: the champions' seat stays reserved when they withdraw; the
    # chain fills it (the final is not shared out again).
    direct = {
        str(t.id): heat_venue.get(t.heat_id)
        for t in teams.values()
        if t.is_direct_qualifier and t.status in (Team.Status.ENTERED, Team.Status.WITHDRAWN)
    }
    qualifying = sum(v.entries for v in venues)
    # R-TEAM-REPL-1: every team that withdrew after it took part gives up whatever seat it holds
    # (whether or not anyone had marked it as a finalist, and also after a replacement took its
    # place in the final, so that the chain keeps the withdrawal).
    withdrawals = tuple(
        replacement.Withdrawal(entry=str(t.id), reason=t.status_reason)
        for t in teams.values()
        if t.status == Team.Status.WITHDRAWN
        and (t.id in withdrawn_after_play or t.id in finalists or t.is_direct_qualifier)
    )
    seat_rows = FinalSeat.objects.filter(competition=competition).prefetch_related("offers")
    run, allocation, holders, chain = allocate_final(
        kind=Lot.Kind.TEAMS,
        season=competition.season,
        competition=competition,
        final_size=final_size_teams(qualifying, rules=competition.season.rules()),
        direct=direct,
        venues=venues,
        names={str(t.id): t.name for t in teams.values()},
        **seats.chain_inputs(seat_rows, withdrawals=withdrawals),
    )
    if run.provisional:
        return
    # R-TEAM-ADV-1, R-TEAM-REPL-1 / R-REPL-5: once the allocation is final, the seat rows follow
    # it (a withdrawn team's seat vacated), each seat to fill gets its pending offer to the team
    # the chain names (TK records the answer), and the finalists are marked from the seats.
    seats.sync_seats(
        competition=competition,
        venue_heats={heat_venue[h.id]: h for h in heats},
        heat_labels={v.key: v.label for v in venues},
        allocation=allocation,
        holders=holders,
        chain=chain,
        step_reasons=step_reasons(run),
        provisional=False,
        direct=direct,
        clauses={"allocation": "R-TEAM-ADV-1", "direct": "R-TEAM-DIRECT-1"},
        withdrawn={
            str(t.id): (
                "R-TEAM-REPL-1",
                Message(
                    gettext_noop(
                        "Lämnad: %(team)s har dragit sig ur (%(why)s); platsen erbjuds vidare"
                    ),
                    {"team": t.name, "why": t.status_reason},
                ),
            )
            for t in teams.values()
            if t.status == Team.Status.WITHDRAWN
        },
    )
    seats.number_seats(competition)  # a new seat takes the next free number
    # R-TEAM-TIE-1: the teams whose seat waits on a lot TK has not drawn read provisional.
    table_lots = list(Lot.objects.filter(competition=competition).exclude(standing=""))
    run.explanation["lot_pending"] = sorted(
        undrawn_keys(
            tie
            for heat in heats
            if heat.id in heat_snapshots
            for tie in ties_of(
                competition, heat_snapshots[heat.id], heat=heat, run=run, lots=table_lots
            )
        )
    )
    # Each seat and offer says why (clause and figures), shown with the allocation.
    run.explanation["seats"] = seats.seat_rows_data(
        FinalSeat.objects.filter(competition=competition)
        .select_related("holder__team")
        .prefetch_related(
            Prefetch("offers", queryset=SeatOffer.objects.select_related("entry__team"))
        )
        .order_by("id")
    )
    run.save(update_fields=["explanation"])


def _dm_status(teams: dict[int, Team], competition: TeamCompetition):
    """R-TEAM-4 (read by :func:`ubf.rules.eligibility.fielded_players`): a team that has fielded
    a player representing a club outside UBF plays only for SM semifinal places. Returns, per
    team, whether it competes for DM, whether its whole roster is in UBF (the bonus), and its
    played matches that lack a line-up (the status is preliminary until they are recorded)."""
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
    lineups: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for team_id, match_id, player_id in Lineup.objects.filter(
        match__competition=competition, team_id__in=list(teams)
    ).values_list("team_id", "match_id", "player_id"):
        lineups[team_id][match_id].add(player_id)
    others = {p for by_match in lineups.values() for ps in by_match.values() for p in ps}
    others -= set(district_of)
    for player_id, district in Representation.objects.filter(
        season_id=competition.season_id, player_id__in=others
    ).values_list("player_id", "club__district__code"):
        district_of[player_id] = district
    played: dict[int, list[int]] = defaultdict(list)
    for match_id, home, away in Match.objects.filter(
        competition=competition, status=Match.Status.PLAYED
    ).values_list("id", "home_id", "away_id"):
        played[home].append(match_id)
        played[away].append(match_id)
    out, roster_ubf, without_lineup = {}, {}, {}
    for team in teams.values():
        roster = {e.player_id for e in team.roster.all()}
        fielded = fielded_players(played.get(team.id, []), lineups.get(team.id, {}), roster)
        infos = [
            PlayerInfo(mid=str(p), name="", district=district_of.get(p, ""))
            for p in fielded.players
        ]
        out[team.id] = team_competes_for_dm(infos)
        roster_ubf[team.id] = all(district_of.get(p) == UBF for p in roster)
        # A missing line-up can change the team's DM status only if a roster player outside
        # UBF may be the one who played, and no recorded line-up has settled it already.
        recorded = {p for ps in lineups.get(team.id, {}).values() for p in ps}
        settled = any(district_of.get(p) != UBF for p in recorded)
        outside = [
            f"{e.player.full_name} ({district_of.get(e.player_id) or '?'})"
            for e in sorted(team.roster.all(), key=lambda e: e.player.full_name)
            if district_of.get(e.player_id) != UBF and e.player_id not in recorded
        ]
        without_lineup[team.id] = (set(fielded.without_lineup), [] if settled else outside)
    return out, roster_ubf, without_lineup


def _lineup_notes(rows: list[dict], stage_matches, without_lineup: dict, final: bool) -> None:
    """R-TEAM-4: a played match without a recorded line-up counts the whole roster as fielded.
    Per row: ``lineup_missing``, the stage's own played matches without the team's line-up
    (the final's rounds in ``lineup_missing_rounds``); ``lineup_outside``, the roster players
    outside UBF who may have played in them (empty when that cannot change the team's DM
    status: an all-UBF roster, or an outside player already in a recorded line-up), which is
    when the page calls the row preliminary, naming them."""
    rounds = {m.id: m.round for m in stage_matches}
    for row in rows:
        missing, outside = without_lineup.get(row["team_id"], (set(), []))
        here = sorted(rounds[m] for m in missing if m in rounds)
        row["lineup_missing"] = len(here)
        row["lineup_missing_other"] = len(missing) - len(here)
        if final:
            row["lineup_missing_rounds"] = ", ".join(str(r) for r in sorted(set(here)))
        row["lineup_outside"] = outside if missing else []


def _rule_match(
    m: Match, walkovers: dict[int, WalkOver], rules, played=()
) -> sanctions.Match | None:
    """A stored match as the rulebook's value; None when it has not been played. A W.O. has
    the score stored when TK awarded it (R-TEAM-WO-2); one stored without it (not through
    ``award_walkover``) is scored by the same rule, over ``played``, the stage's played
    matches as rule values."""
    if m.status == Match.Status.WALKOVER and m.id in walkovers:
        wo = walkovers[m.id]
        home_offends = wo.offender_id == m.home_id
        non_offender, offender = wo.vp_non_offender, wo.vp_offender
        if non_offender is None or offender is None:
            other = m.away_id if home_offends else m.home_id
            score = sanctions.wo_award_score(rules, played, other)
            non_offender, offender = score.non_offender_vp, score.offender_vp
        return sanctions.Match(
            home=m.home_id,
            away=m.away_id,
            vp_home=offender if home_offends else non_offender,
            vp_away=non_offender if home_offends else offender,
            boards=m.boards,
            walkover_by=wo.offender_id,
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


def _team_standings(members, matches, walkovers, penalties, rules, dm_status, *, seed, draw=None):
    """Rank one heat (or the final): W.O. exclusions and disqualifications applied first."""
    rule_matches, boards_of = [], {}
    played = [rm for m in matches if (rm := _rule_match(m, {}, rules)) is not None]
    for m in matches:
        rm = _rule_match(m, walkovers, rules, played)
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
        draw=draw,
    )
    by_id = {t.id: t for t in members}
    rows = [_row(s, by_id[s.team], dm_status, reasons) for s in ranked]
    _add_results(rows, stage_matches, {(m.home_id, m.away_id): m for m in matches})
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


def _add_results(rows: list[dict], stage_matches, stored: dict) -> None:
    """Each team's matches as they count in the standings (after R-TEAM-WO-3 and R-TEAM-RES-4:
    a struck result shows as the W.O. that replaced it), for the cross table and the round by
    round results of the public pages: opponent, round, IMPs and VP from the team's side."""
    by_team: dict[int, list[dict]] = defaultdict(list)
    for rm in stage_matches:
        m = stored.get((rm.home, rm.away))
        if m is None:
            continue
        for team, other, home in ((rm.home, rm.away, True), (rm.away, rm.home, False)):
            walkover = ""
            if rm.is_walkover:
                walkover = "given" if rm.walkover_by == team else "received"
            by_team[team].append(
                {
                    "match_id": m.id,
                    "round": m.round,
                    "opponent_id": other,
                    "imps_for": None
                    if rm.is_walkover
                    else f"{rm.imps_home if home else rm.imps_away}",
                    "imps_against": None
                    if rm.is_walkover
                    else f"{rm.imps_away if home else rm.imps_home}",
                    "vp_for": f"{(rm.vp_home if home else rm.vp_away):.2f}",
                    "vp_against": f"{(rm.vp_away if home else rm.vp_home):.2f}",
                    "walkover": walkover,
                    "struck": bool(rm.struck),
                }
            )
    for row in rows:
        row["results"] = sorted(by_team.get(row["team_id"], []), key=lambda r: r["round"])


def _final_extras(rows: list[dict], competition: TeamCompetition, rules, roster_ubf) -> None:
    """The DM final: the order of choosing SM semifinal venues (R-TEAM-SEMI-1: the full order,
    not the DM order; disqualified or excluded teams do not count, nor a team that declined its
    place, whose place goes on down the full order: ``teams.SemifinalChoice``) and the bonus
    per player of the top three in the DM order (R-TEAM-MP-3: only if every roster member
    represents a UBF club; who played a third of the halves is decided from the line-ups)."""
    places = competition.sm_semifinal_places or 0
    excluded = {
        r["team_id"]: r["excluded_reason"] or r["status_label"] for r in rows if r["status_label"]
    }
    declined = SemifinalChoice.objects.filter(
        competition=competition, state=SemifinalChoice.State.DECLINED
    ).values_list("team_id", flat=True)
    order = semifinal_turns([r["team_id"] for r in rows], places, excluded, declined=declined)
    choice = {t.team: t.number for t in order.turns}
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


def _final_lineups(matches, walkovers, rules):
    """From the final's recorded line-ups: halves per team and player, the names, and per team
    the rounds of played matches (not W.O.s) where a half has no line-up for it."""
    halves: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    names: dict[int, str] = {}
    mids: dict[int, str] = {}
    missing: dict[int, list[int]] = defaultdict(list)
    for m in matches:
        rm = _rule_match(m, walkovers, rules)
        if rm is None or rm.is_walkover:
            continue
        for team_id in (m.home_id, m.away_id):
            lineups = [x for x in m.lineups.all() if x.team_id == team_id]
            if {x.half for x in lineups} != {1, 2}:
                missing[team_id].append(m.round)
            for x in lineups:
                halves[team_id][x.player_id] += 1
                names[x.player_id] = x.player.full_name
                mids[x.player_id] = x.player.mid
    return halves, names, mids, missing


def _final_players(
    rows: list[dict], matches, teams: dict[int, Team], walkovers, rules, roster_ubf
) -> None:
    """Per player, from the final's line-ups: the bonus of the top three of the DM order
    (R-TEAM-MP-3: at least a third of the final's halves, 2 per round; every roster member
    listed) and, once the direct qualifier has played all its final matches, whether last
    season's champions still on its roster each played a half (R-TEAM-DIRECT-1). A played
    match without a line-up for a team makes that team's row say so instead of guessing."""
    halves, names, mids, missing = _final_lineups(matches, walkovers, rules)
    final_halves = 2 * len({m.round for m in matches})
    rosters: dict[int, list[int]] = {}
    for row in rows:
        team = teams[row["team_id"]]
        rosters[team.id] = [e.player_id for e in team.roster.all()]
        for e in team.roster.all():
            names.setdefault(e.player_id, e.player.full_name)
            mids.setdefault(e.player_id, e.player.mid)
    dm_order = [r["team_id"] for r in sorted(rows, key=lambda r: r["dm_rank"] or 0) if r["dm_rank"]]
    bonus = team_bonus(dm_order, roster_ubf, halves, final_halves, rules, rosters=rosters)
    settled = _medal_settled(rows, matches, len(rules.team_bonus))
    for row in rows:
        tid = row["team_id"]
        if missing.get(tid) and roster_ubf.get(tid) and tid in settled:
            # Only where the line-up decides who gets the bonus (R-TEAM-MP-3): a team whose
            # whole roster is in UBF and whose DM top-three place is settled.
            row["bonus_lineup_missing"] = as_data(
                Message(
                    gettext_noop(
                        "preliminär – laguppställning saknas (rond %(rounds)s): bonus och "
                        "halvlekar per spelare räknas när den är registrerad"
                    ),
                    {"rounds": ", ".join(str(r) for r in sorted(missing[tid]))},
                )
            )
        if tid in bonus.plaque_players and not missing.get(tid):
            row["bonus_players"] = [
                {
                    "player_id": pid,
                    "name": names.get(pid, ""),
                    "halves": halves[tid].get(pid, 0),
                    "final_halves": final_halves,
                    "bonus": bonus.bonus[pid],
                    "plaque": pid in bonus.plaque_players[tid],
                    "reason": as_data(bonus.reasons[pid]),
                }
                for pid in sorted(
                    set(rosters.get(tid, ())) | set(halves[tid]),
                    key=lambda p: (-halves[tid].get(p, 0), names.get(p, "")),
                )
            ]
        team = teams[tid]
        team_matches = [m for m in matches if tid in (m.home_id, m.away_id)]
        if (
            team.is_direct_qualifier
            and team_matches
            and all(m.status != Match.Status.SCHEDULED for m in team_matches)
            and not missing.get(tid)
        ):
            row["direct_warnings"] = _direct_final_play(team, halves[tid], names, mids, rules)


def _medal_settled(rows: list[dict], matches, places: int) -> set[int]:
    """The DM order's teams whose place among its first ``places`` is settled: once the final
    is over, its first ``places``; before, a team that fewer than ``places`` other DM teams can
    reach even if it wins no VP more (each other team at most 20 VP per match left, R-VP-1).
    A missing line-up decides a bonus (R-TEAM-MP-3) only for such a team; for the others the
    standings settle first whether there is a bonus at all."""
    left: dict[int, int] = defaultdict(int)
    for m in matches:
        if m.status == Match.Status.SCHEDULED:
            left[m.home_id] += 1
            left[m.away_id] += 1
    dm = [r for r in rows if r.get("dm_rank")]
    if not any(left.values()):
        return {r["team_id"] for r in dm if r["dm_rank"] <= places}
    vp = {r["team_id"]: Decimal(r["vp"]) for r in dm}
    return {
        tid
        for tid in vp
        if sum(1 for o, v in vp.items() if o != tid and v + 20 * left[o] >= vp[tid]) < places
    }


def _direct_final_play(team: Team, halves: dict[int, int], names, mids, rules) -> list[dict]:
    """R-TEAM-DIRECT-1 after the final: the champions as TK registered them (the audit record
    of ``register_direct_team``); nothing to check when they were not registered that way."""
    decision = (
        Decision.objects.filter(
            action="teams.direct_qualifier.registered",
            object_type=Team._meta.label_lower,
            object_id=team.pk,
        )
        .order_by("-id")
        .first()
    )
    if decision is None or not decision.data.get("champions"):
        return []
    by_mid = {mids[p]: n for p, n in halves.items() if p in mids}
    roster_mids = {mids[e.player_id] for e in team.roster.all() if e.player_id in mids}
    champions = list(decision.data["champions"])
    found = check_team_direct_final_play(
        champions,
        by_mid,
        remaining_mids=sorted(set(champions) & roster_mids),
        names={mids[p]: names[p] for p in mids if p in names},
        rules=rules,
    )
    return [{"clause": v.clause, "severity": str(v.severity), **as_data(v)} for v in found]


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
    if s.matches_played == 0:
        return "–"  # no match, no quotient (not "∞": it has lost no IMPs because it played none)
    if s.imp_quotient_exact is None:
        return "∞"
    return f"{float(s.imp_quotient_exact):.3f}"


def _row(s: TeamStanding, team: Team, dm_status, reasons) -> dict:
    reason = reasons.get(team.id)
    label = ""
    if team.status == Team.Status.DISQUALIFIED:
        label = gettext_noop("diskvalificerat")
    elif team.status == Team.Status.EXCLUDED or reason:
        label = gettext_noop("uteslutet")
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

"""Walk-overs, unpaid players' VP penalties and disqualification: R-TEAM-WO-1..3, R-TEAM-RES-1
(the 14-day deadline is :func:`ubf.rules.eligibility.unpaid_deadline_passed`), R-TEAM-RES-4.

Matches are :class:`Match` values; functions return new lists and never change their input.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from .i18n import Message, gettext_noop
from .season import DEFAULT_RULES, SeasonRules
from .violations import Violation

_CENT = Decimal("0.01")


@dataclass(frozen=True)
class WoScore:
    """R-TEAM-WO-2: a W.O.'s score and the text of the rule that scored it."""

    non_offender_vp: Decimal
    offender_vp: Decimal
    rule: Message  # rendered with clubs.i18n.render
    used_average: bool = False

    @property
    def rule_sv(self) -> str:
        return self.rule.message_sv

    def __iter__(self):
        return iter((self.non_offender_vp, self.offender_vp))


@dataclass(frozen=True)
class Match:
    """One team match of a stage. ``walkover_by``: the team that gave (or is deemed to have
    given) W.O.; ``struck``: the result actually played was struck (R-TEAM-WO-3, R-TEAM-RES-4)
    and replaced by a W.O.; ``wo_score``: the rule that scored a W.O."""

    home: Hashable
    away: Hashable
    imps_home: Decimal | int = 0
    imps_away: Decimal | int = 0
    vp_home: Decimal = Decimal("0")
    vp_away: Decimal = Decimal("0")
    boards: int = 0
    walkover_by: Hashable | None = None
    struck: bool = False
    wo_score: WoScore | None = field(default=None, compare=False)

    @property
    def is_walkover(self) -> bool:
        return self.walkover_by is not None

    def involves(self, team: Hashable) -> bool:
        return team in (self.home, self.away)

    def opponent(self, team: Hashable) -> Hashable:
        return self.away if team == self.home else self.home

    def vp_of(self, team: Hashable) -> Decimal:
        return self.vp_home if team == self.home else self.vp_away


# ---------------------------------------------------------------------------------------------
# W.O. (R-TEAM-WO-1..3)
# ---------------------------------------------------------------------------------------------

#: R-TEAM-WO-1 / R-GEN-3: the roles that may award a W.O. (TK, its chair, its members).
WO_AWARDING_ROLES = frozenset({"tk", "tk_chair", "tk_member"})


def can_award_wo(role: str | None) -> bool:
    """R-TEAM-WO-1: only TK rules on force majeure and awards a W.O. (not the heat responsible,
    a club or a captain)."""
    return role is not None and str(role).lower() in WO_AWARDING_ROLES


def wo_award_refusal(role: str | None) -> Violation | None:
    """R-TEAM-WO-1: the refusal to show when someone other than TK tries to award a W.O."""
    if can_award_wo(role):
        return None
    return Violation(
        "R-TEAM-WO-1",
        gettext_noop("Endast UBF TK kan döma ut W.O. och avgöra om force majeure föreligger."),
        data={"role": role},
    )


def wo_score(
    rules: SeasonRules = DEFAULT_RULES, non_offender_average: Decimal | None = None
) -> WoScore:
    """R-TEAM-WO-2: the W.O. score from the season configuration: the non-offending team
    ``rules.wo_winner_vp`` (12.00), the offender ``rules.wo_loser_vp`` (0.00); with
    ``rules.wo_winner_average_if_higher`` the non-offender gets instead its average VP in its
    other matches of the stage (``non_offender_average``, to two decimals) when higher."""
    winner = rules.wo_winner_vp.quantize(_CENT)
    loser = rules.wo_loser_vp.quantize(_CENT)
    figures = {"winner": winner, "loser": loser}
    rule = Message(
        gettext_noop(
            "W.O. enligt SBF:s generella regelverk (säsongens inställning): %(winner)s–%(loser)s VP"
        ),
        figures,
    )
    if rules.wo_winner_average_if_higher and non_offender_average is not None:
        average = Decimal(str(non_offender_average)).quantize(_CENT)
        if average > winner:
            return WoScore(
                average,
                loser,
                Message(
                    gettext_noop(
                        "W.O. enligt SBF:s generella regelverk: lagets snitt %(average)s VP i "
                        "övriga matcher i etappen, högre än %(winner)s; motståndaren %(loser)s VP"
                    ),
                    {**figures, "average": average},
                ),
                used_average=True,
            )
        rule = Message(
            gettext_noop(
                "W.O. enligt SBF:s generella regelverk (säsongens inställning): "
                "%(winner)s–%(loser)s VP (snittet %(average)s är inte högre)"
            ),
            {**figures, "average": average},
        )
    return WoScore(winner, loser, rule)


def wo_award_score(
    rules: SeasonRules, other_matches: Iterable[Match], non_offender: Hashable
) -> WoScore:
    """R-TEAM-WO-2: the score of a W.O. TK awards, the one computation of it (stored on the
    W.O. by ``award_walkover``; the recompute reads it from there). With
    ``rules.wo_winner_average_if_higher`` the non-offender's average is taken over
    ``other_matches``, the stage's other matches it played (W.O.s and unplayed matches are not
    to be passed; :func:`average_vp` leaves W.O.s out); :func:`wo_score` then picks the higher."""
    average = None
    if rules.wo_winner_average_if_higher:
        average = average_vp(other_matches, non_offender)
    return wo_score(rules, average)


def walkover_match(
    match: Match,
    offender: Hashable,
    rules: SeasonRules = DEFAULT_RULES,
    non_offender_average: Decimal | None = None,
    *,
    struck: bool = False,
) -> Match:
    """R-TEAM-WO-2: ``match`` turned into a W.O. given by ``offender`` (IMPs 0–0, VP by
    :func:`wo_score`). ``struck=True`` marks a played result that was struck."""
    score = wo_score(rules, non_offender_average)
    home_vp, away_vp = (
        (score.offender_vp, score.non_offender_vp)
        if offender == match.home
        else (score.non_offender_vp, score.offender_vp)
    )
    return dataclasses.replace(
        match,
        imps_home=0,
        imps_away=0,
        vp_home=home_vp,
        vp_away=away_vp,
        walkover_by=offender,
        struck=struck,
        wo_score=score,
    )


def average_vp(
    matches: Iterable[Match], team: Hashable, leave_out: Iterable[Hashable] = ()
) -> Decimal | None:
    """R-TEAM-WO-2: ``team``'s average VP in its played matches (W.O.s left out, and matches
    against the teams in ``leave_out``); ``None`` if it has none."""
    skip = set(leave_out)
    vps = [
        m.vp_of(team)
        for m in matches
        if m.involves(team) and not m.is_walkover and m.opponent(team) not in skip
    ]
    if not vps:
        return None
    return (sum(vps, Decimal(0)) / len(vps)).quantize(_CENT)


@dataclass(frozen=True)
class Exclusion:
    """R-TEAM-WO-3 / R-TEAM-RES-4: the stage after striking teams' results.

    ``matches``: the new match list (the excluded teams' matches are W.O.s for the opponents);
    ``masterpoint_matches``: the matches actually played, with their real results, which still
    give masterpoints; ``excluded``: team → reason."""

    matches: tuple[Match, ...]
    masterpoint_matches: tuple[Match, ...]
    excluded: dict = field(compare=False)


def _exclude(
    matches: Sequence[Match], teams: Mapping[Hashable, str], rules: SeasonRules
) -> Exclusion:
    originals = list(matches)
    out: list[Match] = []
    for m in originals:
        offender = next((t for t in teams if m.involves(t)), None)
        if offender is None:
            out.append(m)
            continue
        opponent = m.opponent(offender)
        if m.walkover_by == opponent:
            # The opponent itself gave this W.O.: it is not deemed to have won it.
            out.append(m)
            continue
        average = None
        if rules.wo_winner_average_if_higher:
            average = average_vp(originals, opponent, leave_out=teams)
        out.append(
            walkover_match(m, offender, rules, average, struck=not m.is_walkover or m.struck)
        )
    played = tuple(m for m in originals if not m.is_walkover)
    return Exclusion(tuple(out), played, dict(teams))


def wo_exclusions(matches: Iterable[Match], rules: SeasonRules = DEFAULT_RULES) -> dict:
    """R-TEAM-WO-3: the teams that gave W.O. in more than ``rules.wo_max_per_stage`` matches of
    the stage (struck results not counted as given W.O.s), each with its reason."""
    given = Counter(m.walkover_by for m in matches if m.is_walkover and not m.struck)
    return {
        team: (
            f"R-TEAM-WO-3: gave W.O. in {count} matches of the stage (more than "
            f"{rules.wo_max_per_stage}): excluded, results struck"
        )
        for team, count in given.items()
        if count > rules.wo_max_per_stage
    }


def apply_wo_exclusions(matches: Sequence[Match], rules: SeasonRules = DEFAULT_RULES) -> Exclusion:
    """R-TEAM-WO-3: exclude every team that gave W.O. in more than one match of the stage: its
    results in the stage are struck and its opponents are deemed to have won by W.O. (scored by
    :func:`wo_score`). Matches it really played still give masterpoints by their results."""
    return _exclude(matches, wo_exclusions(matches, rules), rules)


def apply_disqualification(
    matches: Sequence[Match],
    team: Hashable,
    rules: SeasonRules = DEFAULT_RULES,
    *,
    reason: str = "R-TEAM-RES-4: disqualified",
) -> Exclusion:
    """R-TEAM-RES-4 (after R-TEAM-RES-1..3): the team's results in the stage are struck and its
    opponents are deemed to have won by W.O. (scored by :func:`wo_score`, so no third party is
    harmed). ``masterpoint_matches`` keeps every match actually played with its real result:
    masterpoints are still given by it. Fees are not refunded (nothing to compute)."""
    return _exclude(matches, {team: reason}, rules)


# ---------------------------------------------------------------------------------------------
# Unpaid players (R-TEAM-RES-1)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnpaidPenalties:
    """R-TEAM-RES-1: VP to subtract per team (as ``penalties`` for the standings), and the
    matches that caused them: (match, team, unpaid players who played)."""

    penalties: dict = field(compare=False)
    offences: tuple[tuple[Match, Hashable, tuple[Hashable, ...]], ...] = ()


def _players_who_played(lineup: Mapping[Hashable, int] | Iterable[Hashable]) -> list[Hashable]:
    if isinstance(lineup, Mapping):
        return [p for p, halves in lineup.items() if halves and halves > 0]
    return list(lineup)


def unpaid_penalties(
    matches_with_lineups: Iterable[tuple[Match, Mapping[Hashable, object]]],
    unpaid_players: Iterable[Hashable],
    rules: SeasonRules = DEFAULT_RULES,
) -> UnpaidPenalties:
    """R-TEAM-RES-1, R-GEN-2: a team loses ``rules.unpaid_player_penalty_vp`` (5) VP for each
    match in which a player who had not paid the SBF fee played one or both halves (once per
    match, however many such players). ``matches_with_lineups``: (match, {team: line-up}), a
    line-up being {player: halves played} or the players who played. W.O.s have no line-up."""
    unpaid = set(unpaid_players)
    penalties: dict = defaultdict(Decimal)
    offences: list[tuple[Match, Hashable, tuple[Hashable, ...]]] = []
    for match, lineups in matches_with_lineups:
        if match.is_walkover:
            continue
        for team, lineup in lineups.items():
            offenders = tuple(p for p in _players_who_played(lineup) if p in unpaid)
            if offenders:
                penalties[team] += rules.unpaid_player_penalty_vp
                offences.append((match, team, offenders))
    return UnpaidPenalties(dict(penalties), tuple(offences))

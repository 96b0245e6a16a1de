"""Start and table fees, line by line with the reason for each (R-PAIR-FEE-*, R-TEAM-FEE-*).

Every function returns a list of :class:`FeeLine`; a discount or subsidy is a negative line
with its own reason, capped so that what it reduces never goes below zero. :func:`total` adds
lines up (optionally for one payer). Amounts are ``Decimal`` kronor; every figure comes from
:class:`~ubf.rules.season.SeasonRules` or from the caller (the organiser's table fees).

A negative amount entered for an organiser's table fee, or a negative number of matches, is
read as zero (fees never raise on entered data).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from .people import PlayerInfo
from .season import DEFAULT_RULES, SeasonRules
from .types import Discipline, Pin

ZERO = Decimal("0")

_PIN_SV = {
    Pin.NONE: "ingen nål",
    Pin.KLOVER: "klöver",
    Pin.RUTER: "ruter",
    Pin.HJARTER: "hjärter",
    Pin.SPADER: "spader",
    Pin.FORBUNDSMASTARE: "förbundsmästare",
    Pin.RIKSMASTARE: "riksmästare",
    Pin.STORMASTARE: "stormästare",
}


@dataclass(frozen=True)
class FeeLine:
    """One line of a fee statement.

    ``payer``: who pays (a player's MID or a team's key); ``amount``: kronor, negative for a
    discount or for what UBF pays instead; ``payee``: who receives it (``"UBF"``,
    ``"organiser"``), empty where the regulations do not say.
    """

    payer: str
    amount: Decimal
    description_sv: str
    description_en: str
    clause: str
    payee: str = ""


def kr(amount: Decimal) -> str:
    """Kronor the Swedish way: ``50``, ``12,50``."""
    if amount == amount.to_integral_value():
        return str(int(amount))
    return f"{amount:.2f}".replace(".", ",")


def _nonneg(amount: Decimal | int | str | None) -> Decimal:
    try:
        value = Decimal(str(amount)) if amount is not None else ZERO
    except ArithmeticError:
        return ZERO
    return value if value.is_finite() and value > 0 else ZERO


def total(lines: Iterable[FeeLine], payer: str | None = None) -> Decimal:
    """The sum of ``lines`` (only ``payer``'s lines when given)."""
    return sum((x.amount for x in lines if payer is None or x.payer == payer), ZERO)


# ------------------------------------------------------------------------------------------
# Pairs
# ------------------------------------------------------------------------------------------


def pair_heat_fees(
    pair: Sequence[PlayerInfo],
    *,
    table_fee_per_player: Decimal | int = 0,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[FeeLine]:
    """R-PAIR-FEE-1: in a qualifier heat each player pays ``rules.pair_kval_fee_per_player``
    plus the organiser's table fee (``table_fee_per_player``, the organiser's own figure)."""
    table_fee = _nonneg(table_fee_per_player)
    lines = []
    for p in pair:
        lines.append(
            FeeLine(
                p.mid,
                rules.pair_kval_fee_per_player,
                f"DM-kvalavgift för {p.label()}",
                f"DM qualifier fee for {p.label()}",
                "R-PAIR-FEE-1",
            )
        )
        if table_fee:
            lines.append(
                FeeLine(
                    p.mid,
                    table_fee,
                    f"Arrangörens bordsavgift för {p.label()}",
                    f"Organiser's table fee for {p.label()}",
                    "R-PAIR-FEE-1",
                    "organiser",
                )
            )
    return lines


def dam_subsidy(max_pin: Pin | int, rules: SeasonRules = DEFAULT_RULES) -> Decimal:
    """R-PAIR-FEE-2: what UBF pays of a Dam final player's start fee, by the player's highest
    pin (``rules.dam_subsidy_by_max_pin``: 100 kr at most klöver, no pin included; 50 kr at
    most ruter; otherwise nothing)."""
    for limit, amount in sorted(rules.dam_subsidy_by_max_pin, key=lambda t: t[0]):
        if int(max_pin) <= int(limit):
            return Decimal(amount)
    return ZERO


def pair_final_fees(
    pair: Sequence[PlayerInfo],
    discipline: Discipline | str,
    *,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[FeeLine]:
    """R-PAIR-FEE-1, R-PAIR-FEE-2: in a DM final (or direct final; Dam is always one) each
    player pays ``rules.pair_final_fee_per_player``. In Dam UBF pays part of it (see
    :func:`dam_subsidy`): a negative line "UBF betalar", never more than the fee itself."""
    fee = rules.pair_final_fee_per_player
    try:
        is_dam = Discipline(discipline) == Discipline.DAM
    except ValueError:
        is_dam = False
    lines = []
    for p in pair:
        lines.append(
            FeeLine(
                p.mid,
                fee,
                f"Startavgift DM-final för {p.label()}",
                f"DM final start fee for {p.label()}",
                "R-PAIR-FEE-1",
            )
        )
        if not is_dam:
            continue
        subsidy = min(dam_subsidy(p.max_pin, rules), fee)
        if subsidy:
            pin_sv = _PIN_SV.get(Pin(int(p.max_pin)), str(p.max_pin))
            pin_en = Pin(int(p.max_pin)).name.lower()
            lines.append(
                FeeLine(
                    p.mid,
                    -subsidy,
                    f"UBF betalar {kr(subsidy)} kr av startavgiften för {p.label()} "
                    f"(högsta nål: {pin_sv})",
                    f"UBF pays {kr(subsidy)} kr of {p.label()}'s start fee (highest pin: {pin_en})",
                    "R-PAIR-FEE-2",
                    "UBF",
                )
            )
    return lines


# ------------------------------------------------------------------------------------------
# Teams
# ------------------------------------------------------------------------------------------


def _juniors(players: Iterable[PlayerInfo], rules: SeasonRules) -> list[PlayerInfo]:
    seen: dict[str, PlayerInfo] = {}
    for p in players:
        seen.setdefault(p.mid, p)
    return [p for p in seen.values() if p.is_junior(rules)]


def team_heat_fees(
    team: str,
    players_taking_part: Iterable[PlayerInfo] = (),
    *,
    matches: int = 0,
    table_fee_per_match: Decimal | int = 0,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[FeeLine]:
    """R-TEAM-FEE-1..3 in a qualifier heat, for team ``team``:

    - R-TEAM-FEE-1: start fee ``rules.team_start_fee``, collected by the heat responsible and
      passed to UBF;
    - R-TEAM-FEE-3: ``rules.team_junior_kval_discount`` off the start fee for each junior
      (born in or after ``rules.junior_born_on_or_after``) among ``players_taking_part``, never
      below zero;
    - R-TEAM-FEE-2: the organiser's table fee, ``table_fee_per_match`` × ``matches``.
    """
    start = rules.team_start_fee
    lines = [
        FeeLine(
            team,
            start,
            "Startavgift DM Lag (tas upp av heatansvarig och lämnas till UBF)",
            "DM Teams start fee (collected by the heat responsible, passed to UBF)",
            "R-TEAM-FEE-1",
            "UBF",
        )
    ]
    juniors = _juniors(players_taking_part, rules)
    if juniors:
        discount = min(rules.team_junior_kval_discount * len(juniors), start)
        lines.append(
            FeeLine(
                team,
                -discount,
                f"Juniorrabatt: {len(juniors)} junior(er) à "
                f"{kr(rules.team_junior_kval_discount)} kr (högst hela startavgiften)",
                f"Junior discount: {len(juniors)} junior(s) at "
                f"{kr(rules.team_junior_kval_discount)} kr (at most the whole start fee)",
                "R-TEAM-FEE-3",
                "UBF",
            )
        )
    fee = _nonneg(table_fee_per_match)
    n = max(int(matches), 0)
    if fee and n:
        lines.append(
            FeeLine(
                team,
                fee * n,
                f"Arrangörens bordsavgift: {n} matcher à {kr(fee)} kr",
                f"Organiser's table fee: {n} matches at {kr(fee)} kr",
                "R-TEAM-FEE-2",
                "organiser",
            )
        )
    return lines


def team_final_fees(
    team: str,
    players_by_round: Sequence[Iterable[PlayerInfo]],
    *,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[FeeLine]:
    """R-TEAM-FEE-2, R-TEAM-FEE-3 in the DM final: for each round (``players_by_round[i]``:
    the players who played round i+1) the table fee ``rules.team_final_table_fee_per_round``,
    reduced by ``rules.team_final_junior_reduction_per_round`` for each junior who played that
    round (juniors play free), never below zero."""
    fee = rules.team_final_table_fee_per_round
    per_junior = rules.team_final_junior_reduction_per_round
    lines = []
    for i, players in enumerate(players_by_round, start=1):
        lines.append(
            FeeLine(
                team,
                fee,
                f"Bordsavgift DM-final rond {i}",
                f"DM final table fee, round {i}",
                "R-TEAM-FEE-2",
                "UBF",
            )
        )
        juniors = _juniors(players, rules)
        if juniors:
            reduction = min(per_junior * len(juniors), fee)
            lines.append(
                FeeLine(
                    team,
                    -reduction,
                    f"Juniorer spelar gratis: {len(juniors)} junior(er) i rond {i} à "
                    f"{kr(per_junior)} kr",
                    f"Juniors play free: {len(juniors)} junior(s) in round {i} at "
                    f"{kr(per_junior)} kr",
                    "R-TEAM-FEE-3",
                    "UBF",
                )
            )
    return lines

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
from dataclasses import dataclass, field
from decimal import Decimal

from .i18n import gettext_noop, swedish
from .people import PlayerInfo
from .season import DEFAULT_RULES, SeasonRules
from .types import Discipline, Pin

ZERO = Decimal("0")

_PIN_SV = {
    Pin.NONE: gettext_noop("ingen nål"),
    Pin.KLOVER: gettext_noop("klöver"),
    Pin.RUTER: gettext_noop("ruter"),
    Pin.HJARTER: gettext_noop("hjärter"),
    Pin.SPADER: gettext_noop("spader"),
    Pin.FORBUNDSMASTARE: gettext_noop("förbundsmästare"),
    Pin.RIKSMASTARE: gettext_noop("riksmästare"),
    Pin.STORMASTARE: gettext_noop("stormästare"),
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
    description: str
    clause: str
    payee: str = ""
    params: dict = field(default_factory=dict, hash=False)

    @property
    def description_sv(self) -> str:
        """The Swedish text (``clubs.i18n.render(line)`` gives it in the reader's language)."""
        return swedish(self.template, self.params)

    @property
    def template(self) -> str:
        return self.description


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
                gettext_noop("DM-kvalavgift för %(player)s"),
                "R-PAIR-FEE-1",
                params={"player": p.label()},
            )
        )
        if table_fee:
            lines.append(
                FeeLine(
                    p.mid,
                    table_fee,
                    gettext_noop("Arrangörens bordsavgift för %(player)s"),
                    "R-PAIR-FEE-1",
                    "organiser",
                    params={"player": p.label()},
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
                gettext_noop("Startavgift DM-final för %(player)s"),
                "R-PAIR-FEE-1",
                params={"player": p.label()},
            )
        )
        if not is_dam:
            continue
        subsidy = min(dam_subsidy(p.max_pin, rules), fee)
        if subsidy:
            pin_sv = _PIN_SV.get(Pin(int(p.max_pin)), str(p.max_pin))
            lines.append(
                FeeLine(
                    p.mid,
                    -subsidy,
                    gettext_noop(
                        "UBF betalar %(subsidy)s kr av startavgiften för %(player)s (högsta nål: "
                        "%(pin)s)"
                    ),
                    "R-PAIR-FEE-2",
                    "UBF",
                    params={"subsidy": kr(subsidy), "player": p.label(), "pin": pin_sv},
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
            gettext_noop("Startavgift DM Lag (tas upp av heatansvarig och lämnas till UBF)"),
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
                gettext_noop(
                    "Juniorrabatt: %(n_juniors)s junior(er) à %(team_junior_kval_discount)s kr "
                    "(högst hela startavgiften)"
                ),
                "R-TEAM-FEE-3",
                "UBF",
                params={
                    "n_juniors": len(juniors),
                    "team_junior_kval_discount": kr(rules.team_junior_kval_discount),
                },
            )
        )
    fee = _nonneg(table_fee_per_match)
    n = max(int(matches), 0)
    if fee and n:
        lines.append(
            FeeLine(
                team,
                fee * n,
                gettext_noop("Arrangörens bordsavgift: %(n)s matcher à %(fee)s kr"),
                "R-TEAM-FEE-2",
                "organiser",
                params={"n": n, "fee": kr(fee)},
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
                gettext_noop("Bordsavgift DM-final rond %(number)s"),
                "R-TEAM-FEE-2",
                "UBF",
                params={"number": i},
            )
        )
        juniors = _juniors(players, rules)
        if juniors:
            reduction = min(per_junior * len(juniors), fee)
            lines.append(
                FeeLine(
                    team,
                    -reduction,
                    gettext_noop(
                        "Juniorer spelar gratis: %(n_juniors)s junior(er) i rond %(number)s à "
                        "%(per_junior)s kr"
                    ),
                    "R-TEAM-FEE-3",
                    "UBF",
                    params={"n_juniors": len(juniors), "number": i, "per_junior": kr(per_junior)},
                )
            )
    return lines

"""Season configuration: every number the regulations call seasonal (SPEC: "season configuration").

The defaults are the 2016-2017 values of UBF's Tävlingsbestämmelser version 1:3. The Django
``Season`` model stores these and builds a :class:`SeasonRules` with :meth:`SeasonRules.from_mapping`;
rule functions take it as an argument (default: :data:`DEFAULT_RULES`) and hard-code none of them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .types import Discipline, Pin


@dataclass(frozen=True)
class SeasonRules:
    season: str = "2016-2017"
    start_year: int = 2016

    # --- General / eligibility -------------------------------------------------------------
    # R-PAIR-3: Veteran players born in or before this year.
    veteran_born_on_or_before: int = 1957
    # R-TEAM-FEE-3: a junior is at most this old in the calendar year the season starts.
    junior_max_age: int = 25
    # R-DIRECT-1: disciplines whose reigning champions are directly qualified.
    direct_qualifier_disciplines: tuple[str, ...] = (
        Discipline.OPEN,
        Discipline.MIXED,
        Discipline.VETERAN,
    )

    # --- Pairs: SM cap, final sizes, heats -------------------------------------------------
    # R-PAIR-2: (lowest number of SM places, cap on out-of-district pairs), ascending.
    sm_cap_table: tuple[tuple[int, int], ...] = (
        (1, 0),
        (2, 1),
        (4, 2),
        (7, 3),
        (11, 4),
        (15, 5),
    )
    # R-ALLOC-1: (lowest number of qualifying pairs, final size), ascending.
    pair_final_sizes: tuple[tuple[int, int], ...] = ((0, 28), (61, 32), (81, 36))
    # R-TEAM-ADV-1: (lowest number of qualifying teams, final size), ascending.
    team_final_sizes: tuple[tuple[int, int], ...] = ((0, 8), (20, 10))
    # R-PAIR-KVAL-5
    heat_min_boards: int = 24
    bronze_min_declared_pairs: int = 4
    silver_mp_min_pairs: int = 12
    silver_mp_min_boards_by_a_pair: int = 42
    # R-PAIR-KVAL-6
    heat_max_sessions: int = 2
    # R-PAIR-KVAL-3
    invitation_days_before: int = 28
    # R-ALLOC-5: a lot loser's precedence lasts this many seasons.
    lot_precedence_seasons: int = 5
    # R-PAIR-DF-2: above this many pairs a direct final need not be a full round robin.
    direct_final_full_round_robin_max_pairs: int = 32
    # R-PAIR-CAL-1: boards in a pairs final.
    pair_final_min_boards: int = 42
    pair_final_max_boards: int = 70

    # --- Pairs: fees and bonus ---------------------------------------------------------------
    # R-PAIR-FEE-1 (kr per player)
    pair_kval_fee_per_player: Decimal = Decimal("50")
    pair_final_fee_per_player: Decimal = Decimal("200")
    # R-PAIR-FEE-2: UBF's part of a Dam final start fee, by the player's highest pin.
    dam_subsidy_by_max_pin: tuple[tuple[int, Decimal], ...] = (
        (Pin.KLOVER, Decimal("100")),  # at most klöver (including no pin)
        (Pin.RUTER, Decimal("50")),  # at most ruter
    )
    # R-PAIR-MP-2: bonus silver points per player for places 1, 2, 3.
    pair_bonus: dict[str, tuple[int, ...]] = field(
        default_factory=lambda: {
            Discipline.OPEN: (60, 40, 30),
            Discipline.MIXED: (10, 5, 3),
            Discipline.VETERAN: (10, 5, 3),
            Discipline.DAM: (10, 5, 3),
        }
    )

    # --- Teams ----------------------------------------------------------------------------
    # R-TEAM-2, R-TEAM-5
    roster_min: int = 4
    roster_max: int = 6
    roster_max_with_dispensation: int = 8
    # R-TEAM-KVAL-1/2
    heat_min_teams: int = 4
    # R-TEAM-KVAL-5
    team_heat_min_boards_per_team: int = 70
    match_min_boards: int = 8
    match_max_boards: int = 24
    single_segment_max_boards: int = 15
    # R-TEAM-KVAL-6
    minutes_per_board: Fraction = Fraction(15, 2)
    half_rounding_minutes: int = 5
    dealt_at_table_extra_minutes: int = 5
    # R-TEAM-FINAL-1: number of teams -> boards per match
    final_boards_by_teams: dict[int, int] = field(default_factory=lambda: {8: 24, 10: 20})
    # R-TEAM-FINAL-1: boards per match -> minutes per half
    final_half_minutes_by_boards: dict[int, int] = field(default_factory=lambda: {24: 90, 20: 75})
    # R-TEAM-FEE-1..3 (kr)
    team_start_fee: Decimal = Decimal("500")
    team_final_table_fee_per_round: Decimal = Decimal("200")
    team_junior_kval_discount: Decimal = Decimal("100")
    team_final_junior_reduction_per_round: Decimal = Decimal("50")
    # R-TEAM-MP-1
    team_mp_win_vp: Decimal = Decimal("13")
    team_mp_draw_above_vp: Decimal = Decimal("7")
    # R-TEAM-MP-3
    team_bonus: tuple[int, ...] = (42, 30, 21)
    team_bonus_min_share_of_halves: Fraction = Fraction(1, 3)
    # R-TEAM-DIRECT-1
    team_direct_min_share_remaining: Fraction = Fraction(2, 3)
    # R-TEAM-WO-2 (see SPEC's note: SBF's general rules could not be consulted)
    wo_winner_vp: Decimal = Decimal("12.00")
    wo_loser_vp: Decimal = Decimal("0.00")
    wo_winner_average_if_higher: bool = False
    # R-TEAM-WO-3: more W.O.s than this in a stage excludes the team.
    wo_max_per_stage: int = 1
    # R-TEAM-RES-1
    unpaid_player_penalty_vp: Decimal = Decimal("5")
    unpaid_fee_grace_days: int = 14
    # R-TEAM-RES-5
    protest_deadline_sm_semifinal: date = date(2017, 3, 31)
    protest_deadline_sm_final: date = date(2017, 4, 30)
    # R-TEAM-FINAL-1: the final is played on this many central days.
    team_final_central_days: int = 2
    # R-PAIR-DF-1, R-TEAM-DF-1: fewer arranging clubs than this -> TK decides on a direct final.
    direct_final_min_arranging_clubs: int = 2

    @property
    def junior_born_on_or_after(self) -> int:
        """R-TEAM-FEE-3: born 1991 or later for 2016-2017."""
        return self.start_year - self.junior_max_age

    def to_mapping(self) -> dict[str, Any]:
        """A JSON-friendly mapping (Decimal and Fraction as strings, dates ISO)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            out[f.name] = _to_json(getattr(self, f.name))
        return out

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> SeasonRules:
        """Build from a mapping such as :meth:`to_mapping` gives; unknown keys are ignored,
        missing keys keep the 2016-2017 default."""
        defaults = cls()
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in data and data[f.name] is not None:
                kwargs[f.name] = _from_json(data[f.name], getattr(defaults, f.name))
        return cls(**kwargs)


def _to_json(value: Any) -> Any:
    if isinstance(value, Decimal | Fraction):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    return value


def _from_json(value: Any, like: Any) -> Any:
    """Convert ``value`` to the type of the default ``like``."""
    if isinstance(like, bool):
        return bool(value)
    if isinstance(like, Decimal):
        return Decimal(str(value))
    if isinstance(like, Fraction):
        return Fraction(str(value))
    if isinstance(like, date):
        return value if isinstance(value, date) else date.fromisoformat(str(value))
    if isinstance(like, int):
        return int(value)
    if isinstance(like, dict):
        sample_key = next(iter(like), None)
        sample_val = next(iter(like.values()), None)
        return {
            (_from_json(k, sample_key) if sample_key is not None else k): (
                _from_json(v, sample_val) if sample_val is not None else v
            )
            for k, v in value.items()
        }
    if isinstance(like, tuple):
        if not like:
            return tuple(value)
        # A fixed-shape tuple converts element by element; a homogeneous one by its first item.
        samples = like if len(like) == len(value) else (like[0],) * len(value)
        return tuple(_from_json(v, s) for v, s in zip(value, samples))
    return value


DEFAULT_RULES = SeasonRules()

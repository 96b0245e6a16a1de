"""Plain descriptions of players, as the eligibility and fee rules need them.

The Django layer builds these from its models (player, representation club for the season,
membership for the season); the rules never look anything up themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from .season import DEFAULT_RULES, SeasonRules
from .types import Gender, Pin

#: The district code of Upplands Bridgeförbund in :attr:`PlayerInfo.district`.
UBF = "UBF"


@dataclass(frozen=True)
class PlayerInfo:
    """One player, seen in one season.

    - ``mid``: SBF member number (MID); players are matched by MID, never by name.
    - ``name``: shown in messages only.
    - ``gender``: :class:`Gender`, or ``None`` if not recorded (Dam and Mixed then ask for it).
    - ``birth_year``: or ``None`` if not recorded (Veteran then asks for it; never a junior).
    - ``max_pin``: the player's highest SBF pin (R-PAIR-FEE-2); ``Pin.NONE`` if none.
    - ``district``: the code of the district federation (dfb) of the player's representation
      club this season; :data:`UBF` (``"UBF"``) for a club in Uppland; ``None`` or ``""`` if the
      player has no representation club in SBF this season.
    - ``membership_paid``: the SBF membership fee for the season being played is paid (R-GEN-2).
    - ``club``: the representation club's name, shown in messages only.
    """

    mid: str
    name: str
    gender: Gender | None = None
    birth_year: int | None = None
    max_pin: Pin = Pin.NONE
    district: str | None = None
    membership_paid: bool = False
    club: str = ""

    @property
    def is_ubf(self) -> bool:
        """The representation club belongs to UBF (R-PAIR-1, R-TEAM-3, R-TEAM-4)."""
        return self.district == UBF

    @property
    def has_representation_club(self) -> bool:
        """The player has a representation club in some SBF district (R-TEAM-2)."""
        return bool(self.district)

    def is_junior(self, rules: SeasonRules = DEFAULT_RULES) -> bool:
        """R-TEAM-FEE-3: born in or after ``rules.junior_born_on_or_after``; unknown → no."""
        return self.birth_year is not None and self.birth_year >= rules.junior_born_on_or_after

    def label(self) -> str:
        """``Name (MID)`` for messages."""
        return f"{self.name} ({self.mid})" if self.name else self.mid


@dataclass(frozen=True)
class HeatPlayed:
    """A qualifier heat a player has played this season, in UBF or another dfb (R-PAIR-KVAL-7).

    A plain 4-tuple ``(heat_id, date, discipline, district)`` is accepted wherever a
    ``HeatPlayed`` is (see :func:`as_heat_played`).
    """

    heat_id: str
    date: date | None
    discipline: str
    district: str = UBF


def normalise_mid(value: object) -> str:
    """A MID as a person types it → the one form it is stored in (R-GEN-2: players are
    identified by their SBF member number). SBF MIDs are numbers, so leading zeros do not
    count: ``" 00123 "``, ``"0123"``, ``123`` → ``"123"`` (all zeros → ``"0"``). Whatever is not
    digits is only stripped, so the caller can name it as malformed; nothing → ``""``."""
    if value is None:
        return ""
    text = str(value).strip()
    if text.isdigit() and text.isascii():
        return text.lstrip("0") or "0"
    return text


def as_heat_played(item: HeatPlayed | Iterable) -> HeatPlayed:
    """Accept a :class:`HeatPlayed` or a ``(heat_id, date, discipline[, district])`` tuple."""
    if isinstance(item, HeatPlayed):
        return item
    return HeatPlayed(*tuple(item))


@dataclass(frozen=True)
class QualifierEntry:
    """One pair's entry in a qualifier heat (R-PAIR-KVAL-7, R-DIRECT-2).

    ``mids`` are the players who actually played (a reserve included). ``entry_id`` is any key
    the caller uses for the entry.
    """

    entry_id: str
    heat_id: str
    date: date | None
    discipline: str
    mids: frozenset[str]
    district: str = UBF

    def __post_init__(self) -> None:
        # Accept any collection of MIDs (list, tuple, set) and store it as a frozenset.
        object.__setattr__(self, "mids", frozenset(self.mids))

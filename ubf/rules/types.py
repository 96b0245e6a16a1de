"""Small shared vocabulary of the rulebook: disciplines, pins, heat types, genders."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Discipline(StrEnum):
    """The four DM Par disciplines (SPEC: Pairs)."""

    OPEN = "open"
    MIXED = "mixed"
    VETERAN = "veteran"
    DAM = "dam"


class Gender(StrEnum):
    WOMAN = "F"
    MAN = "M"


class Pin(IntEnum):
    """SBF rank pin (nål), in rising order (SPEC glossary), then the master titles."""

    NONE = 0
    KLOVER = 1
    RUTER = 2
    HJARTER = 3
    SPADER = 4
    FORBUNDSMASTARE = 5
    RIKSMASTARE = 6
    STORMASTARE = 7


class HeatType(StrEnum):
    """R-PAIR-KVAL-5: declared in advance."""

    SILVER = "silver"
    BRONZE = "bronze"


class MasterpointColour(StrEnum):
    GOLD = "gold"
    SILVER = "silver"
    BRONZE = "bronze"

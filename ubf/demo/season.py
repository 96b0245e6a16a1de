"""The 2016-2017 demo season: a deterministic generator and an idempotent loader.

:func:`build_plan` is pure Python: from a fixed seed (``random.Random(DEMO_SEED)``) it builds a
:class:`DemoPlan`, the whole season as plain data (districts, clubs, players, pair competitions
with their heats and entries, the team competition with heats, teams, rosters and schedules,
and the demo logins). The calendar is R-PAIR-CAL-1's (2016-2017); team heats follow
R-TEAM-KVAL-1..5 (at least four teams, one heat per club, the same number of boards in every
match and at least 70 boards per team); the final follows R-TEAM-FINAL-1 (10 teams, 20 boards,
two central days).

:func:`load_demo_season` writes a plan to the database in one transaction, keyed on natural
keys (District.code, Club.name, Player.mid, Season.name, (season, discipline), heat name, pair
number in a heat, team name, (team, player), (stage, home, away)), so that running it again
changes nothing: rows are created when missing and updated only when a defining field differs
(so no new history rows either). Workflow state that TK or later work changes - heat and entry
status, paid memberships, which teams are in the final, match results, passwords, the current
season - is set only when the row is created. The final's schedule is created only while the
competition has no final matches.
"""

from __future__ import annotations

import dataclasses
import math
import random
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from clubs import seats
from clubs.models import (
    Club,
    ClubOfficial,
    District,
    FinalSeat,
    HeatStatus,
    Membership,
    Player,
    Representation,
    Season,
)
from pairs.models import PairCompetition, PairEntry, PairHeat
from teams.models import (
    Match,
    RosterEntry,
    SemifinalVenue,
    Team,
    TeamCompetition,
    TeamHeat,
    TeamHeatOrganiser,
)
from ubf.rules.schedule import round_robin  # R-TEAM-KVAL-4, R-TEAM-FINAL-1
from ubf.rules.season import DEFAULT_RULES, SeasonRules
from ubf.rules.types import Discipline, Gender, HeatType, Pin

DEMO_SEED = 20162017
SEASON_NAME = "2016-2017"
START_YEAR = 2016
UBF = "UBF"
BRIDGENS_HUS = "Bridgens hus, Uppsala"
ADMIN_URL = "http://127.0.0.1:{port}/admin/"
CHANGE_REASON = "load_demo"

# --- Static data: districts, clubs, towns -----------------------------------------------------

DISTRICTS: tuple[tuple[str, str], ...] = (
    (UBF, "Upplands Bridgeförbund"),
    ("SBDF", "Stockholms Bridgeförbund"),
    ("VBF", "Västmanlands Bridgeförbund"),
    ("GBF", "Gästriklands Bridgeförbund"),
)

# Town -> region of Uppland (players mostly play heats and teams near home).
REGION_OF_TOWN: dict[str, str] = {
    "Uppsala": "uppsala",
    "Storvreta": "uppsala",
    "Björklinge": "uppsala",
    "Knivsta": "uppsala",
    "Märsta": "uppsala",
    "Enköping": "enkoping",
    "Örsundsbro": "enkoping",
    "Bålsta": "enkoping",
    "Västerås": "enkoping",
    "Tierp": "norra",
    "Söderfors": "norra",
    "Älvkarleby": "norra",
    "Skutskär": "norra",
    "Gävle": "norra",
    "Östhammar": "ostra",
    "Öregrund": "ostra",
    "Gimo": "ostra",
    "Alunda": "ostra",
    "Norrtälje": "ostra",
    "Heby": "vastra",
    "Östervåla": "vastra",
    "Sala": "vastra",
}

POSTCODES: dict[str, str] = {
    "Uppsala": "753",
    "Storvreta": "743",
    "Björklinge": "743",
    "Knivsta": "741",
    "Märsta": "195",
    "Enköping": "745",
    "Örsundsbro": "745",
    "Bålsta": "746",
    "Västerås": "722",
    "Tierp": "815",
    "Söderfors": "815",
    "Älvkarleby": "814",
    "Skutskär": "814",
    "Gävle": "803",
    "Östhammar": "742",
    "Öregrund": "742",
    "Gimo": "747",
    "Alunda": "747",
    "Norrtälje": "761",
    "Heby": "744",
    "Östervåla": "744",
    "Sala": "733",
}

# (name, short name, town, district, relative size)
CLUBS: tuple[tuple[str, str, str, str, int], ...] = (
    ("Uppsala BK", "Uppsala BK", "Uppsala", UBF, 40),
    ("BK Ess Uppsala", "BK Ess", "Uppsala", UBF, 30),
    ("BK Forte Uppsala", "Forte", "Uppsala", UBF, 20),
    ("Akademiska BK Uppsala", "Akademiska", "Uppsala", UBF, 16),
    ("BK Fyris", "Fyris", "Uppsala", UBF, 16),
    ("Gottsunda BK", "Gottsunda", "Uppsala", UBF, 10),
    ("Sävja BS", "Sävja", "Uppsala", UBF, 8),
    ("Luthagens BK", "Luthagen", "Uppsala", UBF, 10),
    ("Storvreta BK", "Storvreta", "Storvreta", UBF, 8),
    ("Björklinge BK", "Björklinge", "Björklinge", UBF, 7),
    ("Knivsta BK", "Knivsta", "Knivsta", UBF, 12),
    ("Enköpings BK", "Enköping", "Enköping", UBF, 22),
    ("BK Joker Enköping", "Joker", "Enköping", UBF, 12),
    ("Örsundsbro BK", "Örsundsbro", "Örsundsbro", UBF, 6),
    ("Bålsta BK", "Bålsta", "Bålsta", UBF, 12),
    ("Östhammars BK", "Östhammar", "Östhammar", UBF, 12),
    ("Öregrunds BS", "Öregrund", "Öregrund", UBF, 7),
    ("Gimo BK", "Gimo", "Gimo", UBF, 8),
    ("Alunda BS", "Alunda", "Alunda", UBF, 7),
    ("Tierps BS", "Tierp", "Tierp", UBF, 14),
    ("Söderfors BK", "Söderfors", "Söderfors", UBF, 6),
    ("Älvkarleby BK", "Älvkarleby", "Älvkarleby", UBF, 8),
    ("Skutskärs BK", "Skutskär", "Skutskär", UBF, 10),
    ("Heby BK", "Heby", "Heby", UBF, 8),
    ("Östervåla BK", "Östervåla", "Östervåla", UBF, 6),
    ("Norrtälje BK", "Norrtälje", "Norrtälje", "SBDF", 6),
    ("Märsta BK", "Märsta", "Märsta", "SBDF", 6),
    ("Sala BK", "Sala", "Sala", "VBF", 6),
    ("Västerås BS", "Västerås", "Västerås", "VBF", 6),
    ("Gävle BK", "Gävle", "Gävle", "GBF", 6),
)

UBF_PLAYERS = 370  # plus 6 per neighbouring club = 400
UNPAID_PLAYERS = 6

WOMEN = (
    "Anna", "Eva", "Maria", "Karin", "Kristina", "Lena", "Kerstin", "Margareta", "Birgitta",
    "Ingrid", "Marie", "Elisabeth", "Inger", "Ulla", "Christina", "Gunilla", "Monica", "Barbro",
    "Britt", "Gun", "Agneta", "Åsa", "Märta", "Solveig", "Ylva", "Sofia", "Emma", "Linnéa",
    "Elin", "Ida", "Sara", "Malin", "Helén", "Göta", "Gunnel", "Ann-Marie", "Ann-Sofie", "Siv",
    "Viveka", "Mona", "Berit", "Astrid", "Margit", "Maj-Britt", "Rut", "Signe", "Elsa", "Frida",
    "Hanna", "Jenny", "Ragnhild", "Lisbeth", "Yvonne", "Cecilia", "Ewa",
)  # fmt: skip
MEN = (
    "Lars", "Anders", "Per", "Johan", "Karl", "Erik", "Nils", "Jan", "Hans", "Bengt", "Gunnar",
    "Sven", "Lennart", "Olof", "Göran", "Bo", "Åke", "Leif", "Stig", "Rolf", "Ulf", "Björn",
    "Kjell", "Tomas", "Mats", "Magnus", "Peter", "Mikael", "Fredrik", "Henrik", "Jonas",
    "Oskar", "Gustav", "Viktor", "Axel", "Emil", "Linus", "Börje", "Sture", "Torbjörn",
    "Örjan", "Håkan", "Jörgen", "Pär", "Ingemar", "Per-Olof", "Jan-Erik", "Karl-Gustav",
    "Lars-Åke", "Sören", "Thomas", "Roland", "Christer", "Kent", "Staffan",
)  # fmt: skip
SURNAMES = (
    "Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Olsson",
    "Persson", "Svensson", "Gustafsson", "Pettersson", "Jonsson", "Jansson", "Hansson",
    "Bengtsson", "Jönsson", "Lindberg", "Lindström", "Lindqvist", "Lindgren", "Berg",
    "Axelsson", "Bergström", "Lundberg", "Lundgren", "Lundqvist", "Mattsson", "Berglund",
    "Fredriksson", "Sandberg", "Henriksson", "Forsberg", "Sjöberg", "Wallin", "Engström",
    "Eklund", "Danielsson", "Lundin", "Håkansson", "Björk", "Bergman", "Gunnarsson", "Holm",
    "Wikström", "Samuelsson", "Isaksson", "Fransson", "Bergqvist", "Nyström", "Holmberg",
    "Arvidsson", "Löfgren", "Söderberg", "Nyberg", "Blomqvist", "Claesson", "Nordström",
    "Mårtensson", "Lundström", "Ström", "Åberg", "Öberg", "Hägg", "Ågren", "Sjögren",
    "Hellström", "Näslund", "Östlund", "Åström", "Söderström", "Ekström", "Dahlgren",
    "Hedlund", "Sundberg", "Sundström", "Strand", "Bäckström", "Brännström", "Grönlund",
    "Lövgren", "Jäderberg", "Rönnqvist", "Källström", "Wästlund", "Tjäder", "Fält", "Ståhl",
    "Norén", "Hammarström", "Öhman", "Åkesson", "Löwenhielm", "Rydén", "Fåhraeus",
)  # fmt: skip
STREETS = (
    "Storgatan", "Kungsgatan", "Drottninggatan", "Svartbäcksgatan", "Kyrkogatan", "Skolgatan",
    "Järnvägsgatan", "Ringvägen", "Björkvägen", "Tallvägen", "Prästgårdsvägen", "Ågatan",
    "Vaksalagatan", "Sysslomansgatan", "Götgatan", "Parkvägen", "Lärkvägen", "Ekvägen",
)  # fmt: skip

# (lowest birth year, highest, weight): bridge players are mostly of a certain age.
BIRTH_YEAR_BANDS = ((1930, 1939, 11), (1940, 1957, 46), (1958, 1975, 25), (1976, 1990, 11),
                    (1991, 2000, 7))  # fmt: skip
PIN_WEIGHTS = ((Pin.NONE, 34), (Pin.KLOVER, 24), (Pin.RUTER, 18), (Pin.HJARTER, 11),
               (Pin.SPADER, 7), (Pin.FORBUNDSMASTARE, 4), (Pin.RIKSMASTARE, 1.5),
               (Pin.STORMASTARE, 0.5))  # fmt: skip


# --- The plan ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClubPlan:
    name: str
    short_name: str
    town: str
    district: str
    sbf_number: str

    @property
    def region(self) -> str:
        return REGION_OF_TOWN[self.town]

    @property
    def is_ubf(self) -> bool:
        return self.district == UBF


@dataclass(frozen=True)
class PlayerPlan:
    mid: str
    first_name: str
    last_name: str
    gender: str
    birth_year: int
    max_pin: int
    email: str
    phone: str
    club: str
    paid_on: date | None

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


@dataclass(frozen=True)
class PairEntryPlan:
    number: str
    player1: str  # MID
    player2: str  # MID
    takes_part_in_qualifier: bool = True


@dataclass(frozen=True)
class PairHeatPlan:
    discipline: str
    name: str
    clubs: tuple[str, ...]
    heat_type: str
    venue: str
    first_date: date
    last_date: date | None
    invitation_url: str
    invitation_sent_on: date | None
    requires_preregistration: bool
    last_registration_day: date | None
    pair_limit: int | None
    table_fee: Decimal
    status: str
    registered_on: date
    entries: tuple[PairEntryPlan, ...]


@dataclass(frozen=True)
class ChampionPairPlan:
    player1: str
    player2: str
    registered_on: date


@dataclass(frozen=True)
class PairCompetitionPlan:
    discipline: str
    qualifying_start: date | None
    qualifying_end: date | None
    heat_registration_deadline: date | None
    final_date: date
    final_venue: str
    is_direct_final: bool
    sm_places: int | None
    direct_qualifier: ChampionPairPlan | None


@dataclass(frozen=True)
class TeamPlan:
    name: str
    number: int
    club: str  # the club the team is built around
    captain: str  # MID
    address: str
    phone: str
    email: str
    roster: tuple[str, ...]  # MIDs, captain first
    strength: float
    #: The demo's first guess at the final (before any heat is played): its seat's number.
    seat_number: int | None = None


@dataclass(frozen=True)
class MatchPlan:
    stage: str  # "kval" / "final"
    heat: str | None
    round: int
    home: str  # team name
    away: str
    boards: int
    halves: int
    played_on: date


@dataclass(frozen=True)
class TeamHeatPlan:
    name: str
    clubs: tuple[str, ...]
    venue: str
    responsible_name: str
    responsible_email: str
    responsible_phone: str
    responsible_login: str | None
    boards_per_match: int
    dealt_at_table: bool
    play_days: tuple[date, ...]
    entries_close: date
    start_fee: Decimal
    table_fee_per_match: Decimal
    invitation_url: str
    registered_on: date
    teams: tuple[TeamPlan, ...]
    matches: tuple[MatchPlan, ...]


@dataclass(frozen=True)
class TeamCompetitionPlan:
    qualifying_start: date
    qualifying_end: date
    heat_registration_deadline: date
    final_day1: date
    final_day2: date
    final_venue: str
    sm_semifinal_places: int
    heats: tuple[TeamHeatPlan, ...]
    final_matches: tuple[MatchPlan, ...]
    #: R-TEAM-SEMI-1: SBF's semifinal venues as TK entered them (town, first and last day).
    semifinal_venues: tuple[tuple[str, date, date], ...] = ()

    @property
    def teams(self) -> tuple[TeamPlan, ...]:
        return tuple(t for h in self.heats for t in h.teams)


@dataclass(frozen=True)
class UserPlan:
    username: str
    password: str
    first_name: str
    last_name: str
    email: str
    is_staff: bool
    is_superuser: bool
    description: str
    club: str | None = None  # ClubOfficial (heat_responsible) of this club
    captain_of: str | None = None  # team name


@dataclass(frozen=True)
class DemoPlan:
    seed: int
    season: str
    start_year: int
    districts: tuple[tuple[str, str], ...]
    clubs: tuple[ClubPlan, ...]
    players: tuple[PlayerPlan, ...]
    pair_competitions: tuple[PairCompetitionPlan, ...]
    pair_heats: tuple[PairHeatPlan, ...]
    team_competition: TeamCompetitionPlan
    users: tuple[UserPlan, ...]


# --- Generator -----------------------------------------------------------------------------------


def _ascii(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower().replace(" ", "")


def _phone(rng: random.Random) -> str:
    prefix = rng.choice(("070", "070", "072", "073", "076"))
    n = rng.randrange(1_000_000, 10_000_000)
    digits = f"{n:07d}"
    return f"{prefix}-{digits[:3]} {digits[3:5]} {digits[5:]}"


def _largest_remainder(total: int, weights: list[int]) -> list[int]:
    whole = sum(weights)
    quotas = [total * w / whole for w in weights]
    counts = [math.floor(q) for q in quotas]
    by_fraction = sorted(range(len(weights)), key=lambda i: (-(quotas[i] - counts[i]), i))
    for i in by_fraction[: total - sum(counts)]:
        counts[i] += 1
    return counts


def _make_clubs(rng: random.Random) -> tuple[ClubPlan, ...]:
    numbers = rng.sample(range(100, 1000), len(CLUBS))
    return tuple(
        ClubPlan(name, short, town, district, f"21{number}")
        for (name, short, town, district, _size), number in zip(CLUBS, numbers)
    )


def _make_players(rng: random.Random, clubs: tuple[ClubPlan, ...]) -> tuple[PlayerPlan, ...]:
    ubf_clubs = [c for c in clubs if c.is_ubf]
    sizes = {name: size for name, _s, _t, _d, size in CLUBS}
    counts = _largest_remainder(UBF_PLAYERS, [sizes[c.name] for c in ubf_clubs])
    club_of: list[str] = [c.name for c, n in zip(ubf_clubs, counts) for _ in range(n)]
    rng.shuffle(club_of)
    club_of += [c.name for c in clubs if not c.is_ubf for _ in range(sizes[c.name])]
    n = len(club_of)
    mids = rng.sample(range(10_000, 1_000_000), n)
    unpaid = set(rng.sample(range(UBF_PLAYERS), UNPAID_PLAYERS))
    bands = [b[:2] for b in BIRTH_YEAR_BANDS]
    band_weights = [b[2] for b in BIRTH_YEAR_BANDS]
    pins = [p for p, _w in PIN_WEIGHTS]
    pin_weights = [w for _p, w in PIN_WEIGHTS]
    seen: set[tuple[str, str]] = set()
    players = []
    for i in range(n):
        gender = Gender.WOMAN.value if rng.random() < 0.47 else Gender.MAN.value
        while True:
            first = rng.choice(WOMEN if gender == Gender.WOMAN.value else MEN)
            last = rng.choice(SURNAMES)
            if rng.random() < 0.06:  # double-barrelled surname
                last = f"{last}-{rng.choice(SURNAMES)}"
            if (first, last) not in seen and not last.endswith(f"-{last.split('-')[0]}"):
                seen.add((first, last))
                break
        low, high = rng.choices(bands, band_weights)[0]
        birth_year = rng.randint(low, high)
        pin = rng.choices(pins, pin_weights)[0]
        if birth_year >= 1991 and pin > Pin.HJARTER:  # juniors rarely hold master titles
            pin = Pin.RUTER
        domain = rng.choice(("example.com", "example.org", "example.net"))
        email = f"{_ascii(first)}.{_ascii(last)}@{domain}"
        paid_on = None if i in unpaid else date(2016, 6, 1) + timedelta(days=rng.randrange(120))
        players.append(
            PlayerPlan(
                mid=str(mids[i]),
                first_name=first,
                last_name=last,
                gender=gender,
                birth_year=birth_year,
                max_pin=int(pin),
                email=email,
                phone=_phone(rng),
                club=club_of[i],
                paid_on=paid_on,
            )
        )
    return tuple(players)


@dataclass
class _Pool:
    """Players with their clubs, for weighted picks near a heat."""

    players: tuple[PlayerPlan, ...]
    clubs: dict[str, ClubPlan]
    rules: SeasonRules

    def club(self, p: PlayerPlan) -> ClubPlan:
        return self.clubs[p.club]

    def is_veteran(self, p: PlayerPlan) -> bool:
        return p.birth_year <= self.rules.veteran_born_on_or_before

    def weight(self, p: PlayerPlan, clubs: tuple[str, ...], region: str) -> float:
        if p.club in clubs:
            return 6.0
        return 3.0 if self.club(p).region == region else 1.0

    def pick(self, rng: random.Random, candidates: list[PlayerPlan], clubs, region) -> PlayerPlan:
        weights = [self.weight(p, clubs, region) for p in candidates]
        return rng.choices(candidates, weights)[0]


# Pair heats: (discipline, name, arranging clubs, type, venue, session 1, session 2,
# invitation sent on, pre-registration, pair limit, table fee, status, registered with TK,
# pairs, out-of-district pairs). The Enköping mixed invitation is sent late (17 days before,
# R-PAIR-KVAL-3), the Östhammar veteran heat is still only applied for.
PAIR_HEATS = (
    (Discipline.MIXED, "Mixedkval Uppsala BK", ("Uppsala BK",), HeatType.SILVER, BRIDGENS_HUS,
     date(2016, 10, 16), None, date(2016, 9, 12), True, 24, 50, "approved", date(2016, 9, 1),
     20, 1),
    (Discipline.MIXED, "Mixedkval Enköping", ("Enköpings BK",), HeatType.BRONZE,
     "Enköpings bridgelokal, Enköping", date(2016, 11, 6), None, date(2016, 10, 20), False,
     None, 40, "approved", date(2016, 9, 10), 12, 0),
    (Discipline.VETERAN, "Veterankval Bridgens hus", ("BK Ess Uppsala",), HeatType.SILVER,
     BRIDGENS_HUS, date(2016, 11, 20), date(2016, 11, 27), date(2016, 10, 14), True, 24, 60,
     "approved", date(2016, 9, 8), 22, 0),
    (Discipline.VETERAN, "Veterankval Norra Uppland", ("Tierps BS", "Älvkarleby BK"),
     HeatType.BRONZE, "Folkets hus, Tierp", date(2017, 1, 15), None, date(2016, 12, 5), False,
     None, 45, "approved", date(2016, 9, 14), 14, 0),
    (Discipline.VETERAN, "Veterankval Östhammar", ("Östhammars BK",), HeatType.SILVER,
     "Östhammars bridgelokal, Östhammar", date(2017, 1, 22), None, None, False, None, 50,
     "applied", date(2016, 9, 15), 10, 0),
    (Discipline.OPEN, "Öppet kval Akademiska BK", ("Akademiska BK Uppsala",), HeatType.SILVER,
     BRIDGENS_HUS, date(2017, 2, 5), date(2017, 2, 12), date(2016, 12, 20), True, 28, 60,
     "approved", date(2016, 11, 20), 24, 0),
    (Discipline.OPEN, "Öppet kval Enköping", ("BK Joker Enköping",), HeatType.SILVER,
     "Enköpings bridgelokal, Enköping", date(2017, 3, 5), None, date(2017, 1, 25), False, None,
     50, "approved", date(2016, 11, 28), 16, 1),
    (Discipline.OPEN, "Öppet kval Knivsta", ("Knivsta BK",), HeatType.BRONZE,
     "Centrumhuset, Knivsta", date(2017, 3, 19), None, date(2017, 2, 10), False, None, 40,
     "approved", date(2016, 11, 30), 12, 0),
)  # fmt: skip

# Team heats: (name, arranging clubs, venue, teams, play days, dealt at table, table fee per
# match, registered with TK, login of the heat responsible, teams with one non-UBF player,
# team (0-based) that fields a player with an unpaid SBF fee).
TEAM_HEATS = (
    ("Lagkval Uppsala BK", ("Uppsala BK",), BRIDGENS_HUS, 6,
     (date(2016, 10, 22), date(2016, 11, 19)), False, 100, date(2016, 9, 5), None, (), None),
    ("Lagkval Enköping", ("Enköpings BK",), "Enköpings bridgelokal, Enköping", 5,
     (date(2016, 11, 12), date(2016, 11, 13)), False, 80, date(2016, 9, 9), "klubb", (3,), None),
    ("Regionkval Norra Uppland", ("Tierps BS", "Skutskärs BK"), "Folkets hus, Tierp", 5,
     (date(2016, 12, 3), date(2016, 12, 4)), False, 80, date(2016, 9, 12), None, (2,), None),
    ("Lagkval Östhammar", ("Östhammars BK",), "Östhammars bridgelokal, Östhammar", 4,
     (date(2017, 1, 14), date(2017, 1, 15)), True, 60, date(2016, 9, 14), None, (), 1),
    ("Lagkval Knivsta", ("Knivsta BK",), "Centrumhuset, Knivsta", 4,
     (date(2017, 1, 21), date(2017, 1, 22)), False, 100, date(2016, 9, 15), None, (), None),
)  # fmt: skip
FINAL_TEAMS_PER_HEAT = 2

PASSWORDS = {"tk": "dm-tk-2016", "klubb": "dm-klubb-2016", "kapten": "dm-kapten-2016"}


def _pair_competitions(
    rng: random.Random, pool: _Pool, used: dict[str, set[str]]
) -> tuple[PairCompetitionPlan, ...]:
    """R-PAIR-CAL-1 (2016-2017 dates and venues); R-DIRECT-1 champions for Mixed and Open."""
    champions: dict[str, ChampionPairPlan] = {}
    strong = [
        p for p in pool.players if pool.club(p).is_ubf and p.paid_on and p.max_pin >= Pin.HJARTER
    ]
    woman = rng.choice([p for p in strong if p.gender == Gender.WOMAN.value])
    man = rng.choice([p for p in strong if p.gender == Gender.MAN.value])
    champions[Discipline.MIXED] = ChampionPairPlan(woman.mid, man.mid, date(2016, 10, 20))
    a, b = rng.sample([p for p in strong if p.max_pin >= Pin.SPADER], 2)
    champions[Discipline.OPEN] = ChampionPairPlan(a.mid, b.mid, date(2017, 2, 15))
    for discipline, dq in champions.items():  # R-DIRECT-2: they play no qualifier
        used[discipline].update((dq.player1, dq.player2))
    return (
        PairCompetitionPlan(Discipline.DAM, None, None, None, date(2016, 10, 2), "Enköping",
                            True, 2, None),
        PairCompetitionPlan(Discipline.MIXED, date(2016, 10, 1), date(2016, 11, 15),
                            date(2016, 9, 15), date(2016, 11, 26), BRIDGENS_HUS, False, 4,
                            champions[Discipline.MIXED]),
        PairCompetitionPlan(Discipline.VETERAN, date(2016, 10, 1), date(2017, 2, 1),
                            date(2016, 9, 15), date(2017, 2, 12), BRIDGENS_HUS, False, 5, None),
        PairCompetitionPlan(Discipline.OPEN, date(2017, 1, 1), date(2017, 3, 31),
                            date(2016, 12, 1), date(2017, 4, 22), BRIDGENS_HUS, False, 6,
                            champions[Discipline.OPEN]),
    )  # fmt: skip


def _pair_heats(
    rng: random.Random, pool: _Pool, used: dict[str, set[str]]
) -> tuple[PairHeatPlan, ...]:
    """Entries obey R-GEN-2 (paid members only), R-PAIR-3 (discipline), R-PAIR-KVAL-7 (one
    qualifier per player and discipline) and R-PAIR-KVAL-5 (bronze: at least four declared)."""
    heats = []
    for (discipline, name, clubs, heat_type, venue, s1, s2, sent_on, prereg, limit, fee, status,
         registered_on, n_pairs, n_outside) in PAIR_HEATS:  # fmt: skip
        region = pool.clubs[clubs[0]].region
        taken = used[discipline]

        def free(p: PlayerPlan, taken=taken, discipline=discipline) -> bool:
            if p.mid in taken or p.paid_on is None:
                return False
            return discipline != Discipline.VETERAN or pool.is_veteran(p)

        entries = []
        for i in range(n_pairs):
            outside = i >= n_pairs - n_outside
            candidates = [p for p in pool.players if free(p) and pool.club(p).is_ubf != outside]
            if discipline == Discipline.MIXED:
                g1 = rng.choice((Gender.WOMAN.value, Gender.MAN.value))
                candidates = [p for p in candidates if p.gender == g1]
            p1 = pool.pick(rng, candidates, clubs, region)
            taken.add(p1.mid)
            partners = [p for p in pool.players if free(p)]
            if outside:
                partners = [p for p in partners if not pool.club(p).is_ubf]
            elif rng.random() > 0.05:
                partners = [p for p in partners if pool.club(p).is_ubf]
            if discipline == Discipline.MIXED:
                partners = [p for p in partners if p.gender != p1.gender]
            p2 = pool.pick(rng, partners, clubs, region)
            taken.add(p2.mid)
            declared = heat_type == HeatType.SILVER or i < 4 or rng.random() < 0.7
            entries.append(PairEntryPlan(str(i + 1), p1.mid, p2.mid, declared))
        slug = _ascii(name)
        heats.append(
            PairHeatPlan(
                discipline=discipline.value,
                name=name,
                clubs=clubs,
                heat_type=heat_type.value,
                venue=venue,
                first_date=s1,
                last_date=s2,
                invitation_url=(
                    f"https://{_ascii(pool.clubs[clubs[0]].short_name)}.example.org/dm/{slug}.pdf"
                    if sent_on
                    else ""
                ),
                invitation_sent_on=sent_on,
                requires_preregistration=prereg,
                last_registration_day=s1 - timedelta(days=3) if prereg else None,
                pair_limit=limit,
                table_fee=Decimal(fee),
                status=status,
                registered_on=registered_on,
                entries=tuple(entries),
            )
        )
    return tuple(heats)


def boards_per_match(number_of_teams: int, *, rules: SeasonRules = DEFAULT_RULES) -> int:
    """R-TEAM-KVAL-5: the fewest boards per match (two halves, an even number, within the
    8-24 range) that give every team at least 70 boards in a single round robin."""
    matches_per_team = number_of_teams - 1
    boards = math.ceil(rules.team_heat_min_boards_per_team / matches_per_team)
    boards = max(boards, rules.single_segment_max_boards + 1, rules.match_min_boards)
    boards += boards % 2
    if boards > rules.match_max_boards:
        raise ValueError(f"{number_of_teams} teams cannot reach the board minimum")
    return boards


def _halves(boards: int, rules: SeasonRules) -> int:
    """R-TEAM-KVAL-5: 8-15 boards one segment, 16-24 two halves."""
    return 1 if boards <= rules.single_segment_max_boards else 2


def _schedule(
    team_names: list[str], stage: str, heat: str | None, boards: int, days: tuple[date, ...],
    rules: SeasonRules,
) -> tuple[MatchPlan, ...]:  # fmt: skip
    rounds = round_robin(team_names)
    matches = []
    for r, round_ in enumerate(rounds):
        day = days[(r * len(days)) // len(rounds)]
        for home, away in round_:
            if home is None or away is None:  # a bye
                continue
            matches.append(
                MatchPlan(stage, heat, r + 1, home, away, boards, _halves(boards, rules), day)
            )
    return tuple(matches)


def _team_competition(rng: random.Random, pool: _Pool, rules: SeasonRules) -> TeamCompetitionPlan:
    """R-TEAM-2 rosters of 4-6 (a player in one team only), R-TEAM-3 balance, R-TEAM-KVAL-1..5
    heats, R-TEAM-FINAL-1 final (10 teams since at least 20 entered, R-TEAM-ADV-1)."""
    used: set[str] = set()
    teams_of_club: Counter[str] = Counter()
    team_names: set[str] = set()
    unpaid = [p for p in pool.players if p.paid_on is None]
    heats = []
    for (name, clubs, venue, n_teams, days, dealt, table_fee, registered_on, login, outsiders,
         unpaid_team) in TEAM_HEATS:  # fmt: skip
        region = pool.clubs[clubs[0]].region
        boards = boards_per_match(n_teams, rules=rules)
        local_clubs = [c for c in pool.clubs.values() if c.is_ubf and c.region == region]
        teams = []
        for t in range(n_teams):
            free = [p for p in pool.players if p.mid not in used and p.paid_on is not None]
            free_ubf = [p for p in free if pool.club(p).is_ubf]
            club_sizes = [sum(1 for p in free_ubf if p.club == c.name) for c in local_clubs]
            home = rng.choices(local_clubs, club_sizes)[0]
            size = rng.choice((4, 5, 5, 6, 6))
            roster: list[PlayerPlan] = []
            own = size - (1 if t in outsiders else 0) - (1 if t == unpaid_team else 0)
            while len(roster) < own:
                candidates = [p for p in free_ubf if p not in roster]
                weights = [
                    10.0 if p.club == home.name else 2.0 if pool.club(p).region == region else 0.02
                    for p in candidates
                ]
                roster.append(rng.choices(candidates, weights)[0])
            own_club = [p for p in roster if p.club == home.name]
            captain = rng.choice(own_club or roster)
            if t in outsiders:  # R-TEAM-3: one non-UBF player keeps the balance
                neighbours = [
                    p for p in free if not pool.club(p).is_ubf and pool.club(p).region == region
                ]
                roster.append(rng.choice(neighbours))
            if t == unpaid_team:  # R-TEAM-RES-1 demo: a player whose SBF fee is unpaid
                nearby = [p for p in unpaid if pool.club(p).region == region]
                roster.append((nearby or unpaid)[0])
            roster = [captain] + [p for p in roster if p is not captain]
            used.update(p.mid for p in roster)
            if rng.random() < 0.35:
                team_name = f"Lag {captain.last_name}"
            else:
                teams_of_club[home.name] += 1
                k = teams_of_club[home.name]
                team_name = home.short_name if k == 1 else f"{home.short_name} {k}"
            if team_name in team_names:
                team_name = f"{team_name} ({home.short_name})"
            team_names.add(team_name)
            town = pool.club(captain).town
            address = (
                f"{rng.choice(STREETS)} {rng.randint(1, 60)}, "
                f"{POSTCODES[town]} {rng.randint(10, 99)} {town}"
            )
            teams.append(
                TeamPlan(
                    name=team_name,
                    number=t + 1,
                    club=home.name,
                    captain=captain.mid,
                    address=address,
                    phone=captain.phone,
                    email=captain.email,
                    roster=tuple(p.mid for p in roster),
                    strength=sum(p.max_pin for p in roster) / len(roster),
                )
            )
        # The demo's guess at the final: the strongest teams of each heat (by average pin).
        best = sorted(teams, key=lambda t: (-t.strength, t.number))[:FINAL_TEAMS_PER_HEAT]
        heats.append((name, clubs, venue, boards, days, dealt, table_fee, registered_on, login,
                      teams, {t.name for t in best}))  # fmt: skip

    seat_number = 0
    heat_plans = []
    for (name, clubs, venue, boards, days, dealt, table_fee, registered_on, login, teams,
         best) in heats:  # fmt: skip
        numbered = []
        for team in teams:
            if team.name in best:
                seat_number += 1
                team = dataclasses.replace(team, seat_number=seat_number)
            numbered.append(team)
        responsible = next(
            p for p in pool.players if p.club == clubs[0] and p.paid_on and p.birth_year < 1991
        )
        heat_plans.append(
            TeamHeatPlan(
                name=name,
                clubs=clubs,
                venue=venue,
                responsible_name=responsible.full_name,
                responsible_email=responsible.email,
                responsible_phone=responsible.phone,
                responsible_login=login,
                boards_per_match=boards,
                dealt_at_table=dealt,
                play_days=days,
                entries_close=days[0] - timedelta(days=7),
                start_fee=rules.team_start_fee,
                table_fee_per_match=Decimal(table_fee),
                invitation_url=(
                    f"https://{_ascii(pool.clubs[clubs[0]].short_name)}.example.org/dm/"
                    f"{_ascii(name)}.pdf"
                ),
                registered_on=registered_on,
                teams=tuple(numbered),
                matches=_schedule([t.name for t in numbered], "kval", name, boards, days, rules),
            )
        )
    day1, day2 = date(2017, 3, 4), date(2017, 3, 5)
    finalists = sorted(
        (t for h in heat_plans for t in h.teams if t.seat_number), key=lambda t: t.seat_number
    )
    final_boards = rules.final_boards_by_teams[len(finalists)]
    rounds = len(round_robin([t.name for t in finalists]))
    day1_rounds = math.ceil(rounds / rules.team_final_central_days)
    final = _schedule([t.name for t in finalists], "final", None, final_boards, (day1, day2), rules)
    final = tuple(
        dataclasses.replace(m, played_on=day1 if m.round <= day1_rounds else day2) for m in final
    )
    return TeamCompetitionPlan(
        qualifying_start=date(2016, 10, 1),
        qualifying_end=date(2017, 1, 31),
        heat_registration_deadline=date(2016, 9, 15),
        final_day1=day1,
        final_day2=day2,
        final_venue=BRIDGENS_HUS,
        sm_semifinal_places=3,
        heats=tuple(heat_plans),
        final_matches=final,
        # Ten semifinals around the country (R-TEAM-1), a weekend after the protest deadline
        # for semifinal places (R-TEAM-RES-5, 31 March); demo data, not SBF's real list.
        semifinal_venues=tuple(
            (town, date(2017, 4, 1), date(2017, 4, 2))
            for town in (
                "Göteborg",
                "Gävle",
                "Karlstad",
                "Linköping",
                "Malmö",
                "Stockholm",
                "Sundsvall",
                "Umeå",
                "Växjö",
                "Örebro",
            )
        ),
    )


def _users(pool: _Pool, teams: TeamCompetitionPlan) -> tuple[UserPlan, ...]:
    klubb_heat = next(h for h in teams.heats if h.responsible_login == "klubb")
    first, _, last = klubb_heat.responsible_name.partition(" ")
    kapten_team = teams.heats[0].teams[0]
    captain = next(p for p in pool.players if p.mid == kapten_team.captain)
    return (
        UserPlan("tk", PASSWORDS["tk"], "Tävlingskommittén", "UBF", "tk@example.org", True, True,
                 "TK, superuser"),
        UserPlan("klubb", PASSWORDS["klubb"], first, last, klubb_heat.responsible_email, False,
                 False, f"heatansvarig, {klubb_heat.clubs[0]}", club=klubb_heat.clubs[0]),
        UserPlan("kapten", PASSWORDS["kapten"], captain.first_name, captain.last_name,
                 captain.email, False, False, f"lagkapten, {kapten_team.name}",
                 captain_of=kapten_team.name),
    )  # fmt: skip


def build_plan(seed: int = DEMO_SEED, *, rules: SeasonRules = DEFAULT_RULES) -> DemoPlan:
    """The whole demo season as plain data; the same seed always gives the same plan."""
    rng = random.Random(seed)  # noqa: S311 (the demo season, reproducible from its seed)
    clubs = _make_clubs(rng)
    players = _make_players(rng, clubs)
    pool = _Pool(players, {c.name: c for c in clubs}, rules)
    used: dict[str, set[str]] = {d: set() for d in Discipline}
    competitions = _pair_competitions(rng, pool, used)
    pair_heats = _pair_heats(rng, pool, used)
    teams = _team_competition(rng, pool, rules)
    return DemoPlan(
        seed=seed,
        season=SEASON_NAME,
        start_year=START_YEAR,
        districts=DISTRICTS,
        clubs=clubs,
        players=players,
        pair_competitions=competitions,
        pair_heats=pair_heats,
        team_competition=teams,
        users=_users(pool, teams),
    )


# --- Loader --------------------------------------------------------------------------------------


@dataclass
class DemoSummary:
    season: str
    counts: dict[str, int]
    created: Counter = field(default_factory=Counter)
    updated: Counter = field(default_factory=Counter)
    logins: list[tuple[str, str, str]] = field(default_factory=list)  # user, password, role

    def admin_url(self, port: int | str = 8000) -> str:
        return ADMIN_URL.format(port=port)


def _first_guess_seats(competition, tc, team_id: dict, team_heat_id: dict) -> None:
    """The demo's first guess at the final, before its heats are uploaded: a provisional seat
    (R-TEAM-ADV-1) for each guessed team, with its number, written once (when the final has
    no seat yet); the real allocation then keeps, moves or deletes them like any seat."""
    if FinalSeat.objects.filter(competition=competition).exists():
        return
    for h in tc.heats:
        guessed = [t for t in h.teams if t.seat_number]
        for n, t in enumerate(guessed, start=1):
            seat = FinalSeat(
                competition=competition,
                key=str(team_id[t.name]),
                holder_id=team_id[t.name],
                origin_heat_id=team_heat_id[h.name],
                source=FinalSeat.Source.ALLOCATION,
                number=t.seat_number,
            )
            why = seats.seat_reason(seat.source, heat=h.name, n=n, seats=len(guessed))
            seat.explain("R-TEAM-ADV-1", why)
            seat.save()


def _sync(
    model,
    existing,
    key: tuple[str, ...],
    rows: list[dict[str, Any]],
    summary: DemoSummary,
    *,
    create_only: tuple[str, ...] = (),
) -> dict[tuple, Any]:
    """Create the missing rows, update only the fields that differ; ``existing`` is a queryset
    holding every row that may match. Fields in ``create_only`` are set on creation only.
    Returns the objects by key."""
    from simple_history.utils import bulk_create_with_history, bulk_update_with_history

    by_key = {tuple(getattr(o, f) for f in key): o for o in existing}
    to_create, to_update, changed = [], [], set()
    result = {}
    for row in rows:
        k = tuple(row[f] for f in key)
        obj = by_key.get(k)
        if obj is None:
            obj = model(**row)
            to_create.append(obj)
        else:
            dirty = False
            for name, value in row.items():
                if name in key or name in create_only or getattr(obj, name) == value:
                    continue
                setattr(obj, name, value)
                changed.add(name)
                dirty = True
            if dirty:
                to_update.append(obj)
        result[k] = obj
    historical = hasattr(model._meta, "simple_history_manager_attribute")
    if to_create:
        if model._meta.parents:  # multi-table inheritance (a Competition, a Heat): no bulk insert
            for obj in to_create:
                obj._change_reason = CHANGE_REASON
                obj.save()
        elif historical:
            bulk_create_with_history(to_create, model, default_change_reason=CHANGE_REASON)
        else:
            model.objects.bulk_create(to_create)
        summary.created[model.__name__] += len(to_create)
    if to_update:
        fields = sorted(changed)
        if historical:
            bulk_update_with_history(to_update, model, fields, default_change_reason=CHANGE_REASON)
        else:
            model.objects.bulk_update(to_update, fields)
        summary.updated[model.__name__] += len(to_update)
    return result


def load_demo_season(plan: DemoPlan | None = None) -> DemoSummary:
    """Write the demo season (by default :func:`build_plan`'s) in one transaction;
    idempotent (see the module docstring). Returns counts and the demo logins."""

    plan = plan or build_plan()
    with transaction.atomic():
        return _load(plan)


def _load(plan: DemoPlan) -> DemoSummary:
    summary = DemoSummary(season=plan.season, counts={})

    # Districts, clubs, players.
    codes = [code for code, _n in plan.districts]
    districts = _sync(
        District,
        District.objects.filter(code__in=codes),
        ("code",),
        [{"code": c, "name": n} for c, n in plan.districts],
        summary,
    )
    club_rows = [
        {
            "name": c.name,
            "short_name": c.short_name,
            "town": c.town,
            "sbf_number": c.sbf_number,
            "district_id": districts[(c.district,)].pk,
        }
        for c in plan.clubs
    ]
    names = [c.name for c in plan.clubs]
    clubs = _sync(Club, Club.objects.filter(name__in=names), ("name",), club_rows, summary)
    club_id = {name: obj.pk for (name,), obj in clubs.items()}
    player_rows = [
        {
            "mid": p.mid,
            "first_name": p.first_name,
            "last_name": p.last_name,
            "gender": p.gender,
            "birth_year": p.birth_year,
            "max_pin": p.max_pin,
            "email": p.email,
            "phone": p.phone,
        }
        for p in plan.players
    ]
    mids = [p.mid for p in plan.players]
    players = _sync(Player, Player.objects.filter(mid__in=mids), ("mid",), player_rows, summary)
    player_id = {mid: obj.pk for (mid,), obj in players.items()}

    # The season (its configuration keeps the defaults, R-GEN-*: season configuration).
    season = Season.objects.filter(name=plan.season).first()
    if season is None:
        Season.objects.filter(is_current=True).update(is_current=False)
        season = Season(name=plan.season, start_year=plan.start_year, is_current=True)
        season._change_reason = CHANGE_REASON
        season.save()
        summary.created["Season"] += 1
    elif season.start_year != plan.start_year:
        season.start_year = plan.start_year
        season._change_reason = CHANGE_REASON
        season.save(update_fields=["start_year"])
        summary.updated["Season"] += 1

    _sync(
        Representation,
        Representation.objects.filter(season=season),
        ("player_id", "season_id"),
        [
            {"player_id": player_id[p.mid], "season_id": season.pk, "club_id": club_id[p.club]}
            for p in plan.players
        ],
        summary,
    )
    _sync(
        Membership,
        Membership.objects.filter(season=season),
        ("player_id", "season_id"),
        [
            {"player_id": player_id[p.mid], "season_id": season.pk, "paid_on": p.paid_on}
            for p in plan.players
        ],
        summary,
        create_only=("paid_on",),  # marking a fee paid in the demo survives a reload
    )

    # Pairs: competitions (R-PAIR-CAL-1), heats, entries, direct qualifiers.
    competitions = _sync(
        PairCompetition,
        PairCompetition.objects.filter(season=season),
        ("season_id", "discipline"),
        [
            {
                "season_id": season.pk,
                "discipline": c.discipline,
                "qualifying_start": c.qualifying_start,
                "qualifying_end": c.qualifying_end,
                "heat_registration_deadline": c.heat_registration_deadline,
                "final_date": c.final_date,
                "final_venue": c.final_venue,
                "is_direct_final": c.is_direct_final,
                "sm_places": c.sm_places,
            }
            for c in plan.pair_competitions
        ],
        summary,
    )
    competition_id = {d: obj.pk for (_s, d), obj in competitions.items()}
    heats = _sync(
        PairHeat,
        PairHeat.objects.filter(competition__season=season),
        ("competition_id", "name"),
        [
            {
                "competition_id": competition_id[h.discipline],
                "name": h.name,
                "heat_type": h.heat_type,
                "venue": h.venue,
                "first_date": h.first_date,
                "last_date": h.last_date,
                "invitation_url": h.invitation_url,
                "invitation_sent_on": h.invitation_sent_on,
                "requires_preregistration": h.requires_preregistration,
                "last_registration_day": h.last_registration_day,
                "pair_limit": h.pair_limit,
                "table_fee": h.table_fee,
                "status": h.status,
                "registered_on": h.registered_on,
            }
            for h in plan.pair_heats
        ],
        summary,
        create_only=("status",),  # TK approving the applied heat survives a reload
    )
    heat_id = {}
    for h in plan.pair_heats:
        heat = heats[(competition_id[h.discipline], h.name)]
        heat_id[h.name] = heat.pk
        wanted = {club_id[c] for c in h.clubs}
        if set(heat.clubs.values_list("pk", flat=True)) != wanted:
            heat.clubs.set(wanted)
    _sync(
        PairEntry,
        PairEntry.objects.filter(heat_id__in=heat_id.values()),
        ("heat_id", "pair_number"),
        [
            {
                "heat_id": heat_id[h.name],
                "pair_number": e.number,
                "player1_id": player_id[e.player1],
                "player2_id": player_id[e.player2],
                "takes_part_in_qualifier": e.takes_part_in_qualifier,
            }
            for h in plan.pair_heats
            for e in h.entries
        ],
        summary,
    )
    _sync(
        PairEntry,
        PairEntry.objects.filter(competition__season=season, entered_as=PairEntry.EnteredAs.DIRECT),
        ("competition_id",),
        [
            {
                "competition_id": competition_id[c.discipline],
                "entered_as": PairEntry.EnteredAs.DIRECT,
                "player1_id": player_id[c.direct_qualifier.player1],
                "player2_id": player_id[c.direct_qualifier.player2],
                "registered_on": c.direct_qualifier.registered_on,
            }
            for c in plan.pair_competitions
            if c.direct_qualifier
        ],
        summary,
    )

    # Users: passwords are set only when the user is created.
    User = get_user_model()
    users = {}
    for u in plan.users:
        user = User.objects.filter(username=u.username).first()
        wanted = {
            "first_name": u.first_name,
            "last_name": u.last_name,
            "email": u.email,
            "is_staff": u.is_staff,
            "is_superuser": u.is_superuser,
            "is_active": True,
        }
        if user is None:
            user = User(username=u.username, **wanted)
            user.set_password(u.password)
            user.save()
            summary.created["User"] += 1
        else:
            changed = [k for k, v in wanted.items() if getattr(user, k) != v]
            if changed:
                for k in changed:
                    setattr(user, k, wanted[k])
                user.save(update_fields=changed)
                summary.updated["User"] += 1
        users[u.username] = user
        if u.club:
            _, created = ClubOfficial.objects.get_or_create(
                user=user, club_id=club_id[u.club], role=ClubOfficial.Role.HEAT_RESPONSIBLE
            )
            summary.created["ClubOfficial"] += int(created)
        summary.logins.append((u.username, u.password, u.description))

    # Teams: competition, heats, organisers, teams, rosters, matches.
    tc = plan.team_competition
    competition_row = {
        "qualifying_start": tc.qualifying_start,
        "qualifying_end": tc.qualifying_end,
        "heat_registration_deadline": tc.heat_registration_deadline,
        "final_day1": tc.final_day1,
        "final_day2": tc.final_day2,
        "final_venue": tc.final_venue,
        "sm_semifinal_places": tc.sm_semifinal_places,
    }
    competition = _sync(
        TeamCompetition,
        TeamCompetition.objects.filter(season=season),
        ("season_id",),
        [{"season_id": season.pk, **competition_row}],
        summary,
    )[(season.pk,)]
    _sync(
        SemifinalVenue,
        SemifinalVenue.objects.filter(competition=competition),
        ("competition_id", "name"),
        [
            {"competition_id": competition.pk, "name": name, "first_date": d1, "last_date": d2}
            for name, d1, d2 in tc.semifinal_venues
        ],
        summary,
    )
    team_heats = _sync(
        TeamHeat,
        TeamHeat.objects.filter(competition=competition),
        ("competition_id", "name"),
        [
            {
                "competition_id": competition.pk,
                "name": h.name,
                "venue": h.venue,
                "responsible_name": h.responsible_name,
                "responsible_email": h.responsible_email,
                "responsible_phone": h.responsible_phone,
                "responsible_user_id": (
                    users[h.responsible_login].pk if h.responsible_login else None
                ),
                "boards_per_match": h.boards_per_match,
                "dealt_at_table": h.dealt_at_table,
                "first_date": h.play_days[0],
                "last_date": h.play_days[-1],
                "entries_close": h.entries_close,
                "start_fee": h.start_fee,
                "table_fee_per_match": h.table_fee_per_match,
                "invitation_url": h.invitation_url,
                "status": HeatStatus.APPROVED,
                "registered_on": h.registered_on,
            }
            for h in tc.heats
        ],
        summary,
        create_only=("status",),
    )
    team_heat_id = {name: obj.pk for (_c, name), obj in team_heats.items()}
    _sync(
        TeamHeatOrganiser,
        TeamHeatOrganiser.objects.filter(competition=competition),
        ("competition_id", "club_id"),  # R-TEAM-KVAL-1: one heat per club
        [
            {
                "competition_id": competition.pk,
                "club_id": club_id[c],
                "heat_id": team_heat_id[h.name],
            }
            for h in tc.heats
            for c in h.clubs
        ],
        summary,
    )
    captain_user = {u.captain_of: users[u.username].pk for u in plan.users if u.captain_of}
    teams = _sync(
        Team,
        Team.objects.filter(competition=competition),
        ("competition_id", "name"),
        [
            {
                "competition_id": competition.pk,
                "name": t.name,
                "heat_id": team_heat_id[h.name],
                "number": t.number,
                "captain_id": player_id[t.captain],
                "captain_user_id": captain_user.get(t.name),
                "address": t.address,
                "phone": t.phone,
                "email": t.email,
            }
            for h in tc.heats
            for t in h.teams
        ],
        summary,
    )
    team_id = {name: obj.pk for (_c, name), obj in teams.items()}
    _first_guess_seats(competition, tc, team_id, team_heat_id)
    _sync(
        RosterEntry,
        RosterEntry.objects.filter(team__competition=competition),
        ("team_id", "player_id"),
        [
            {"team_id": team_id[t.name], "player_id": player_id[mid], "is_extra": False}
            for t in tc.teams
            for mid in t.roster
        ],
        summary,
    )

    def match_row(m: MatchPlan) -> dict[str, Any]:
        return {
            "competition_id": competition.pk,
            "stage": m.stage,
            "home_id": team_id[m.home],
            "away_id": team_id[m.away],
            "heat_id": team_heat_id[m.heat] if m.heat else None,
            "round": m.round,
            "boards": m.boards,
            "halves": m.halves,
            "played_on": m.played_on,
            "status": Match.Status.SCHEDULED,
        }

    _sync(
        Match,
        Match.objects.filter(competition=competition, stage=Match.Stage.KVAL),
        ("competition_id", "stage", "home_id", "away_id"),
        [match_row(m) for h in tc.heats for m in h.matches],
        summary,
        create_only=("status",),  # results come from uploads, never from the demo loader
    )
    if not Match.objects.filter(competition=competition, stage=Match.Stage.FINAL).exists():
        _sync(
            Match,
            Match.objects.none(),
            ("competition_id", "stage", "home_id", "away_id"),
            [match_row(m) for m in tc.final_matches],
            summary,
        )

    summary.counts = {
        "districts": District.objects.filter(code__in=codes).count(),
        "clubs": Club.objects.filter(name__in=names).count(),
        "ubf_clubs": Club.objects.filter(name__in=names, district__code=UBF).count(),
        "players": Player.objects.filter(mid__in=mids).count(),
        "unpaid": Membership.objects.filter(season=season, paid_on__isnull=True).count(),
        "pair_competitions": PairCompetition.objects.filter(season=season).count(),
        "pair_heats": PairHeat.objects.filter(competition__season=season).count(),
        "pair_entries": PairEntry.objects.filter(heat__competition__season=season).count(),
        "team_heats": TeamHeat.objects.filter(competition=competition).count(),
        "teams": Team.objects.filter(competition=competition).count(),
        "final_teams": seats.holding(Team.objects.filter(competition=competition)).count(),
        "kval_matches": Match.objects.filter(competition=competition, stage="kval").count(),
        "final_matches": Match.objects.filter(competition=competition, stage="final").count(),
    }
    return summary

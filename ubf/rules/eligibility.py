"""Who may play what: membership, pairs, direct qualifiers, team rosters, illegal players.

Every check returns a list of :class:`~ubf.rules.violations.Violation` (empty = OK) and never
raises on data a person entered. ``Severity.ERROR`` means "refuse / strike / disqualify";
``Severity.WARNING`` means "allowed, but TK (or the caller) must know" — for instance an
out-of-district pair (R-PAIR-1), an unpaid team player within the 14-day grace (R-TEAM-RES-1),
or a team that no longer competes for the DM title (R-TEAM-4). Each violation's ``data`` holds
the MIDs, counts and dates behind the message.

Players are :class:`ubf.rules.people.PlayerInfo`; a *pair* is any sequence of two of them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from .people import UBF, HeatPlayed, PlayerInfo, QualifierEntry, as_heat_played
from .season import DEFAULT_RULES, SeasonRules
from .types import Discipline, Gender
from .violations import Severity, Violation

ERROR = Severity.ERROR
WARNING = Severity.WARNING

_DISCIPLINE_SV = {
    Discipline.OPEN: "Open",
    Discipline.MIXED: "Mixed",
    Discipline.VETERAN: "Veteran",
    Discipline.DAM: "Dam",
}


def _v(clause: str, sv: str, en: str, severity: Severity = ERROR, **data) -> Violation:
    return Violation(clause=clause, message_sv=sv, message_en=en, severity=severity, data=data)


def _discipline(value: Discipline | str) -> Discipline | None:
    try:
        return Discipline(value)
    except ValueError:
        return None


def _bad_discipline(clause: str, value: object) -> Violation:
    return _v(
        clause,
        f"Okänd disciplin: {value!r}.",
        f"Unknown discipline: {value!r}.",
        discipline=str(value),
    )


def _heats(items: Iterable[HeatPlayed | tuple]) -> list[HeatPlayed]:
    """The well-formed heats among ``items`` (a malformed row is skipped, never raised on)."""
    out = []
    for item in items:
        try:
            out.append(as_heat_played(item))
        except TypeError:
            continue
    return out


def _fmt(d: date | None) -> str:
    return d.isoformat() if d else "okänt datum"


# ------------------------------------------------------------------------------------------
# General
# ------------------------------------------------------------------------------------------


def check_membership(
    players: Iterable[PlayerInfo], *, team: bool = False, rules: SeasonRules = DEFAULT_RULES
) -> list[Violation]:
    """R-GEN-2 (and R-TEAM-RES-1 for teams): every player has paid the SBF membership fee.

    Pairs (``team=False``): an unpaid player is an ERROR, the entry is refused. Teams
    (``team=True``): a WARNING, the team may be entered but fielding the player costs
    ``rules.unpaid_player_penalty_vp`` VP per match and, after ``rules.unpaid_fee_grace_days``,
    disqualification (see :func:`check_unpaid_fielded`).
    """
    out = []
    for p in players:
        if p.membership_paid:
            continue
        if team:
            out.append(
                _v(
                    "R-GEN-2",
                    f"{p.label()} har inte betalat SBF:s medlemsavgift för säsongen "
                    f"{rules.season}. Spelar hen ändå får laget "
                    f"{rules.unpaid_player_penalty_vp} VP avdrag per match, och laget "
                    f"diskvalificeras om avgiften inte är betald inom "
                    f"{rules.unpaid_fee_grace_days} dagar (R-TEAM-RES-1).",
                    f"{p.label()} has not paid the SBF membership fee for season "
                    f"{rules.season}. If the player plays, the team loses "
                    f"{rules.unpaid_player_penalty_vp} VP per match and is disqualified unless "
                    f"the fee is paid within {rules.unpaid_fee_grace_days} days (R-TEAM-RES-1).",
                    WARNING,
                    mid=p.mid,
                    season=rules.season,
                )
            )
        else:
            out.append(
                _v(
                    "R-GEN-2",
                    f"{p.label()} har inte betalat SBF:s medlemsavgift för säsongen "
                    f"{rules.season}. Anmälan kan inte tas emot förrän avgiften är betald.",
                    f"{p.label()} has not paid the SBF membership fee for season "
                    f"{rules.season}. The entry cannot be accepted until it is paid.",
                    mid=p.mid,
                    season=rules.season,
                )
            )
    return out


# ------------------------------------------------------------------------------------------
# Pairs: who may enter
# ------------------------------------------------------------------------------------------


def check_pair_shape(pair: Sequence[PlayerInfo]) -> list[Violation]:
    """R-PAIR-1: a pair is two different players (matched by MID)."""
    mids = [p.mid for p in pair]
    if len(mids) != 2:
        return [
            _v(
                "R-PAIR-1",
                f"Ett par består av två spelare, inte {len(mids)}.",
                f"A pair is two players, not {len(mids)}.",
                mids=mids,
            )
        ]
    if mids[0] == mids[1]:
        return [
            _v(
                "R-PAIR-1",
                f"Samma spelare ({mids[0]}) står två gånger i paret.",
                f"The same player ({mids[0]}) is entered twice in the pair.",
                mids=mids,
            )
        ]
    return []


def is_out_of_district(pair: Sequence[PlayerInfo]) -> bool:
    """R-PAIR-1: True when neither player has a UBF club as representation club."""
    return not any(p.is_ubf for p in pair)


def check_pair_district(pair: Sequence[PlayerInfo]) -> list[Violation]:
    """R-PAIR-1: at least one player should represent a UBF club.

    An out-of-district pair may still enter, so this is a WARNING (never an ERROR) carrying
    ``data["out_of_district"] = True``: callers use it (or :func:`is_out_of_district`) for the
    SM-place cap (R-PAIR-2) and for bonus and plaques (R-PAIR-MP-3).
    """
    if not is_out_of_district(pair):
        return []
    names = " och ".join(p.label() for p in pair)
    return [
        _v(
            "R-PAIR-1",
            f"Ingen av spelarna ({names}) har en klubb i UBF som representationsklubb. Paret får "
            "spela, men som utomdistriktspar: antalet SM-platser sådana par kan ta är begränsat "
            "och paret får inte bonus, titel eller plakett.",
            f"Neither player ({' and '.join(p.label() for p in pair)}) represents a UBF club. "
            "The pair may play, but as an out-of-district pair: such pairs may take only a "
            "limited number of SM places, and no bonus, title or plaque.",
            WARNING,
            out_of_district=True,
            mids=[p.mid for p in pair],
        )
    ]


def check_discipline(
    pair: Sequence[PlayerInfo],
    discipline: Discipline | str,
    *,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-PAIR-3: Veteran both born in or before ``rules.veteran_born_on_or_before``; Dam both
    women; Mixed one woman and one man; Open anyone. A missing birth year or gender where it
    matters is an ERROR asking for it."""
    d = _discipline(discipline)
    if d is None:
        return [_bad_discipline("R-PAIR-3", discipline)]
    out: list[Violation] = []
    if d == Discipline.VETERAN:
        limit = rules.veteran_born_on_or_before
        for p in pair:
            if p.birth_year is None:
                out.append(
                    _v(
                        "R-PAIR-3",
                        f"Födelseår saknas för {p.label()}. Veteranpar ska vara födda {limit} "
                        "eller tidigare: fyll i födelseåret.",
                        f"Birth year missing for {p.label()}. Veteran players must be born in "
                        f"{limit} or earlier: please enter the birth year.",
                        mid=p.mid,
                        limit=limit,
                        missing="birth_year",
                    )
                )
            elif p.birth_year > limit:
                out.append(
                    _v(
                        "R-PAIR-3",
                        f"{p.label()} är född {p.birth_year}; i Veteran ska båda spelarna vara "
                        f"födda {limit} eller tidigare.",
                        f"{p.label()} was born in {p.birth_year}; in Veteran both players must "
                        f"be born in {limit} or earlier.",
                        mid=p.mid,
                        birth_year=p.birth_year,
                        limit=limit,
                    )
                )
    elif d in (Discipline.DAM, Discipline.MIXED):
        missing = [p for p in pair if p.gender is None]
        for p in missing:
            out.append(
                _v(
                    "R-PAIR-3",
                    f"Kön saknas för {p.label()}; det behövs för {_DISCIPLINE_SV[d]}.",
                    f"Gender missing for {p.label()}; {d.value} needs it.",
                    mid=p.mid,
                    missing="gender",
                )
            )
        if missing:
            return out
        if d == Discipline.DAM:
            for p in pair:
                if p.gender != Gender.WOMAN:
                    out.append(
                        _v(
                            "R-PAIR-3",
                            f"{p.label()} är inte kvinna; i Dam ska båda spelarna vara kvinnor.",
                            f"{p.label()} is not a woman; in Dam both players must be women.",
                            mid=p.mid,
                        )
                    )
        else:
            genders = sorted(p.gender.value for p in pair)  # type: ignore[union-attr]
            if genders != sorted([Gender.WOMAN.value, Gender.MAN.value]):
                out.append(
                    _v(
                        "R-PAIR-3",
                        "Ett mixedpar ska bestå av en kvinna och en man.",
                        "A Mixed pair must be one woman and one man.",
                        mids=[p.mid for p in pair],
                        genders=genders,
                    )
                )
    return out


def may_organiser_refuse(pair: Sequence[PlayerInfo]) -> bool:
    """R-PAIR-KVAL-4: an organiser may refuse a pair only if neither player represents a UBF
    club."""
    return is_out_of_district(pair)


def check_session_entry(
    pair_key: Hashable,
    session: int,
    session_one_pairs: Collection[Hashable],
    *,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-PAIR-KVAL-6: a heat spans at most ``rules.heat_max_sessions`` sessions, and no new pair
    may join after the first session, not even hors concours.

    ``pair_key`` identifies the entry (e.g. its id); ``session_one_pairs`` the entries that
    played session 1.
    """
    if session < 1 or session > rules.heat_max_sessions:
        return [
            _v(
                "R-PAIR-KVAL-6",
                f"Ett kvalheat har högst {rules.heat_max_sessions} speltillfällen; "
                f"speltillfälle {session} finns inte.",
                f"A qualifier heat has at most {rules.heat_max_sessions} sessions; there is no "
                f"session {session}.",
                session=session,
                max_sessions=rules.heat_max_sessions,
            )
        ]
    if session > 1 and pair_key not in session_one_pairs:
        return [
            _v(
                "R-PAIR-KVAL-6",
                "Nya par får inte komma till vid kvalheatets andra speltillfälle, inte ens utom "
                "tävlan.",
                "No new pair may join at the heat's second session, not even hors concours.",
                pair=pair_key,
                session=session,
            )
        ]
    return []


# ------------------------------------------------------------------------------------------
# Pairs: one qualifier per player per discipline (R-PAIR-KVAL-7)
# ------------------------------------------------------------------------------------------


def _struck_violation(mid: str, earlier: HeatPlayed, discipline: str, later_heat) -> Violation:
    d = _discipline(discipline)
    dname = _DISCIPLINE_SV.get(d, str(discipline)) if d else str(discipline)
    return _v(
        "R-PAIR-KVAL-7",
        f"Spelaren {mid} har redan kvalspelat i {dname} denna säsong (heat {earlier.heat_id}, "
        f"{_fmt(earlier.date)}, {earlier.district}). Paret räknas som utom tävlan i det senare "
        "heatet: det stryks från resultatlistan och räknas inte i SM-kvoten. Parets resultat "
        "räknas för de andra paren och mästarpoäng delas ut.",
        f"Player {mid} has already played a {d.value if d else discipline} qualifier this "
        f"season (heat {earlier.heat_id}, {earlier.date.isoformat() if earlier.date else 'date unknown'}"
        f", {earlier.district}). The pair plays hors concours in the later heat: struck from the "
        "result list and not counted in the SM quota; its boards still count for the other pairs "
        "and masterpoints are awarded.",
        mid=mid,
        earlier_heat_id=earlier.heat_id,
        earlier_date=earlier.date,
        earlier_district=earlier.district,
        discipline=str(discipline),
        later_heat_id=later_heat,
        struck=True,
    )


def earlier_qualifier_conflicts(
    pair_mids: Iterable[str],
    discipline: Discipline | str,
    earlier_heats_played: Mapping[str, Iterable[HeatPlayed | tuple]],
    *,
    heat_id: str | None = None,
    heat_date: date | None = None,
) -> list[Violation]:
    """R-PAIR-KVAL-7: a player who already played a qualifier in the same discipline this season
    (UBF or any other dfb) makes the pair hors concours (struck) in the later heat.

    ``earlier_heats_played`` maps a MID to the heats that player played this season, each a
    :class:`HeatPlayed` or ``(heat_id, date, discipline, district)``; heats in which the player's
    pair was itself struck should be left out (that pair played hors concours). The heat being
    checked (``heat_id``) and heats with a known date after ``heat_date`` are ignored. One
    ERROR per conflicting player, naming the player's first earlier heat (all are in
    ``data["earlier_heats"]``).
    """
    d = _discipline(discipline)
    if d is None:
        return [_bad_discipline("R-PAIR-KVAL-7", discipline)]
    out = []
    for mid in pair_mids:
        heats = []
        for h in _heats(earlier_heats_played.get(mid, ())):
            if _discipline(h.discipline) != d or (heat_id is not None and h.heat_id == heat_id):
                continue
            if heat_date is not None and h.date is not None and h.date > heat_date:
                continue
            heats.append(h)
        if not heats:
            continue
        heats.sort(key=lambda h: (h.date is None, h.date or date.min))
        v = _struck_violation(mid, heats[0], d, heat_id)
        v.data["earlier_heats"] = [h.heat_id for h in heats]
        out.append(v)
    return out


def struck_pairs(entries: Iterable[QualifierEntry]) -> dict[str, list[Violation]]:
    """R-PAIR-KVAL-7 over a whole season: which entries are struck (hors concours).

    ``entries``: every qualifier entry of the season in any dfb, in date order (entries with a
    known date are put in date order, keeping the given order within a day; undated entries
    keep their place at the end). A player's first heat in a discipline is the heat of the
    first entry containing them that is not itself struck; every entry in a later, different
    heat of the same discipline containing that player is struck. A struck pair played hors
    concours, so its other player has not used up a qualifier by it.

    Returns ``entry_id → violations`` (one per offending player) for struck entries only.
    """
    ordered = sorted(
        enumerate(entries), key=lambda ie: (ie[1].date is None, ie[1].date or date.min, ie[0])
    )
    first: dict[tuple[str, str], QualifierEntry] = {}
    struck: dict[str, list[Violation]] = {}
    for _, e in ordered:
        disc = str(e.discipline)
        conflicts = []
        for mid in sorted(e.mids):
            earlier = first.get((mid, disc))
            if earlier is not None and earlier.heat_id != e.heat_id:
                conflicts.append(
                    _struck_violation(
                        mid,
                        HeatPlayed(earlier.heat_id, earlier.date, disc, earlier.district),
                        disc,
                        e.heat_id,
                    )
                )
        if conflicts:
            struck[e.entry_id] = conflicts
        else:
            for mid in e.mids:
                first.setdefault((mid, disc), e)
    return struck


# ------------------------------------------------------------------------------------------
# Pairs: reserves and SM partners
# ------------------------------------------------------------------------------------------


def check_qualifier_reserve(
    regular_mids: Collection[str],
    played_by_session: Sequence[Collection[str]],
    notified_reserves: Collection[str] = (),
) -> list[Violation]:
    """R-PAIR-RES-1: reserves in a qualifier heat.

    ``regular_mids``: the pair's two regular players; ``played_by_session``: for each session of
    the stage, the MIDs of the two players who played; ``notified_reserves``: reserves notified
    in advance to the organiser. A reserve that was not notified is a WARNING (the pair then
    counts as the line-up that played); no regular player who played every session is an
    ERROR.
    """
    out: list[Violation] = []
    regulars = set(regular_mids)
    for i, played in enumerate(played_by_session, start=1):
        if len(set(played)) != 2:
            out.append(
                _v(
                    "R-PAIR-RES-1",
                    f"Speltillfälle {i}: paret ska bestå av två spelare.",
                    f"Session {i}: the pair must be two players.",
                    session=i,
                    mids=sorted(played),
                )
            )
    reserves = sorted({m for played in played_by_session for m in played} - regulars)
    for mid in reserves:
        if mid not in notified_reserves:
            out.append(
                _v(
                    "R-PAIR-RES-1",
                    f"Reserven {mid} anmäldes inte i förväg till arrangören. Paret räknas då "
                    "som ordinarie konstellation så som det spelade.",
                    f"The reserve {mid} was not notified in advance to the organiser. The pair "
                    "then counts as a regular line-up as it played.",
                    WARNING,
                    mid=mid,
                )
            )
    if played_by_session:
        steady = set.intersection(*(set(p) for p in played_by_session)) & regulars
    else:
        steady = set()
    if reserves and not steady:
        out.append(
            _v(
                "R-PAIR-RES-1",
                "Minst en av parets spelare måste vara ordinarie och ha spelat alla "
                "speltillfällen i etappen.",
                "At least one player of the pair must be a regular who played every session of "
                "the stage.",
                regulars=sorted(regulars),
                sessions=len(played_by_session),
            )
        )
    return out


def check_final_reserve(
    reserve_mid: str,
    discipline: Discipline | str,
    heats_played: Iterable[HeatPlayed | tuple],
) -> list[Violation]:
    """R-PAIR-RES-2: a reserve in the DM final must not have played a qualifier to SM in the
    same discipline this season (``heats_played``: the reserve's qualifier heats this season,
    any dfb)."""
    d = _discipline(discipline)
    if d is None:
        return [_bad_discipline("R-PAIR-RES-2", discipline)]
    same = [h for h in _heats(heats_played) if _discipline(h.discipline) == d]
    if not same:
        return []
    h = same[0]
    return [
        _v(
            "R-PAIR-RES-2",
            f"{reserve_mid} kan inte vara reserv i DM-finalen i {_DISCIPLINE_SV[d]}: spelaren har "
            f"redan kvalspelat till SM i disciplinen denna säsong (heat {h.heat_id}).",
            f"{reserve_mid} cannot be a reserve in the {d.value} DM final: the player has already "
            f"played a qualifier to SM in the discipline this season (heat {h.heat_id}).",
            mid=reserve_mid,
            heat_id=h.heat_id,
            heats=[x.heat_id for x in same],
        )
    ]


def check_regulars_together(
    mids: Sequence[str], regular_pair_of: Mapping[str, Hashable]
) -> list[Violation]:
    """R-PAIR-RES-3: regular players of two different pairs may never play together, even if
    both pairs qualified for the final. ``regular_pair_of`` maps a MID to the key of the pair in
    which that player is a regular (players not in it are no pair's regular)."""
    keyed = [(m, regular_pair_of[m]) for m in mids if m in regular_pair_of]
    if len({k for _, k in keyed}) <= 1:
        return []
    return [
        _v(
            "R-PAIR-RES-3",
            f"{keyed[0][0]} och {keyed[1][0]} är ordinarie spelare i olika par och får inte "
            "spela tillsammans.",
            f"{keyed[0][0]} and {keyed[1][0]} are regulars of different pairs and may not play "
            "together.",
            mids=[m for m, _ in keyed],
            pairs=[k for _, k in keyed],
        )
    ]


@dataclass(frozen=True)
class PartnerChoice:
    """R-PAIR-RES-4: the partner who goes on to the SM stage, and why."""

    partner: str | None
    reason: str  # "only_partner", "declared", "dm_final", "none"
    reason_sv: str
    reason_en: str
    violations: tuple[Violation, ...] = ()


def sm_partner_for(
    player: str,
    partners_played_with: Iterable[str],
    declared_partner: str | None,
    dm_final_partner: str | None,
    *,
    declared_in_time: bool = True,
) -> PartnerChoice:
    """R-PAIR-RES-4: the SM partner of a qualified ``player`` who played the qualifiers with
    several partners: the partner declared (to UBF's competition secretary, by the end of the
    DM final), else the partner of the DM final line-up.

    A declaration that was late (``declared_in_time=False``) or names someone the player did
    not qualify with is set aside with an ERROR, and the DM final line-up goes on.
    """
    partners = list(dict.fromkeys(p for p in partners_played_with if p and p != player))
    violations: list[Violation] = []
    if len(partners) == 1 and not declared_partner:
        return PartnerChoice(
            partners[0],
            "only_partner",
            f"{player} kvalspelade bara med {partners[0]}.",
            f"{player} played the qualifiers only with {partners[0]}.",
        )
    if declared_partner:
        if not declared_in_time:
            violations.append(
                _v(
                    "R-PAIR-RES-4",
                    f"{player}s besked om SM-partner kom efter DM-finalens slut och gäller inte.",
                    f"{player}'s SM partner declaration came after the end of the DM final and "
                    "does not count.",
                    mid=player,
                    declared=declared_partner,
                )
            )
        elif declared_partner not in partners:
            violations.append(
                _v(
                    "R-PAIR-RES-4",
                    f"{player} har anmält {declared_partner} som SM-partner, men de har inte "
                    "kvalspelat tillsammans.",
                    f"{player} declared {declared_partner} as SM partner, but they did not play "
                    "the qualifiers together.",
                    mid=player,
                    declared=declared_partner,
                    partners=partners,
                )
            )
        else:
            return PartnerChoice(
                declared_partner,
                "declared",
                f"{player} har anmält {declared_partner} som partner till SM.",
                f"{player} declared {declared_partner} as SM partner.",
            )
    return PartnerChoice(
        dm_final_partner,
        "dm_final" if dm_final_partner else "none",
        "Inget giltigt besked om partner: paret som spelade DM-finalen går vidare.",
        "No valid partner declaration: the line-up that played the DM final goes on.",
        tuple(violations),
    )


# ------------------------------------------------------------------------------------------
# Pairs: direct qualifiers (R-DIRECT-1, R-DIRECT-2)
# ------------------------------------------------------------------------------------------


def check_direct_qualifier(
    discipline: Discipline | str,
    champion_mids: Collection[str],
    entry_mids: Collection[str],
    registered_on: date | None,
    qualifying_period_ends: date,
    *,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-DIRECT-1: last season's gold pair is directly qualified for this season's final if the
    discipline is one of ``rules.direct_qualifier_disciplines`` (not Dam), the pair is intact
    (``entry_mids`` are the same two players as ``champion_mids``) and it registered with TK no
    later than ``qualifying_period_ends`` (the last day of the qualifying period)."""
    d = _discipline(discipline)
    if d is None:
        return [_bad_discipline("R-DIRECT-1", discipline)]
    out = []
    if d not in {_discipline(x) for x in rules.direct_qualifier_disciplines}:
        out.append(
            _v(
                "R-DIRECT-1",
                f"I {_DISCIPLINE_SV[d]} finns inga direktkvalificerade par.",
                f"{d.value} has no directly qualified pairs.",
                discipline=d.value,
            )
        )
    if set(champion_mids) != set(entry_mids) or len(set(entry_mids)) != 2:
        out.append(
            _v(
                "R-DIRECT-1",
                "Paret är inte intakt: direktplatsen gäller bara samma två spelare som vann "
                "förra säsongen.",
                "The pair is not intact: the direct place holds only for the same two players "
                "who won last season.",
                champions=sorted(champion_mids),
                entry=sorted(entry_mids),
            )
        )
    if registered_on is None or registered_on > qualifying_period_ends:
        out.append(
            _v(
                "R-DIRECT-1",
                "Direktkvalificerade par ska anmäla sig till TK:s ordförande före kvalperiodens "
                f"utgång ({qualifying_period_ends.isoformat()}); anmälan: {_fmt(registered_on)}.",
                "Directly qualified pairs must register with TK's chair before the qualifying "
                f"period ends ({qualifying_period_ends.isoformat()}); registered: "
                f"{registered_on.isoformat() if registered_on else 'not registered'}.",
                registered_on=registered_on,
                deadline=qualifying_period_ends,
            )
        )
    return out


@dataclass(frozen=True)
class DirectPlaceStatus:
    """R-DIRECT-2: whether the direct place is forfeited, and whether the pair also played a
    qualifier together (it then keeps its final place whatever the result; R-ALLOC-2 passes it
    over in the venue's seats)."""

    forfeited: bool
    played_together: bool
    violations: tuple[Violation, ...] = ()


def direct_place_status(
    direct_mids: Collection[str],
    discipline: Discipline | str,
    entries: Iterable[QualifierEntry],
) -> DirectPlaceStatus:
    """R-DIRECT-2: neither player of a directly qualified pair may play a qualifier in the
    discipline with another partner, not even as a reserve: that forfeits the direct place
    (one ERROR per such entry). ``entries``: qualifier entries of the season (others are
    ignored)."""
    d = _discipline(discipline)
    direct = set(direct_mids)
    together = False
    out = []
    for e in entries:
        if _discipline(e.discipline) != d or not (e.mids & direct):
            continue
        if direct <= e.mids:
            together = True
            continue
        for mid in sorted(e.mids & direct):
            partner = sorted(e.mids - {mid})
            out.append(
                _v(
                    "R-DIRECT-2",
                    f"{mid} är direktkvalificerad men kvalspelade i heat {e.heat_id} med en annan "
                    "partner: direktplatsen är förverkad.",
                    f"{mid} is directly qualified but played heat {e.heat_id} with another "
                    "partner: the direct place is forfeited.",
                    mid=mid,
                    heat_id=e.heat_id,
                    partner=partner,
                    forfeited=True,
                )
            )
    return DirectPlaceStatus(bool(out), together, tuple(out))


# ------------------------------------------------------------------------------------------
# Pairs: aggregate
# ------------------------------------------------------------------------------------------


def check_pair_entry(
    pair: Sequence[PlayerInfo],
    discipline: Discipline | str,
    *,
    earlier_heats_played: Mapping[str, Iterable[HeatPlayed | tuple]] | None = None,
    heat_id: str | None = None,
    heat_date: date | None = None,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """A pair entry (heat or final): R-PAIR-1 (two players; out-of-district WARNING), R-GEN-2
    (unpaid membership: ERROR), R-PAIR-3 (discipline), and, if ``earlier_heats_played`` is
    given, R-PAIR-KVAL-7 (struck in this heat)."""
    shape = check_pair_shape(pair)
    if shape:
        return shape
    out = check_membership(pair, rules=rules)
    out += check_pair_district(pair)
    out += check_discipline(pair, discipline, rules=rules)
    if earlier_heats_played is not None:
        out += earlier_qualifier_conflicts(
            [p.mid for p in pair],
            discipline,
            earlier_heats_played,
            heat_id=heat_id,
            heat_date=heat_date,
        )
    return out


# ------------------------------------------------------------------------------------------
# Teams: roster, district balance, DM title
# ------------------------------------------------------------------------------------------


def check_roster(
    roster: Sequence[PlayerInfo],
    *,
    sbf_districts: Collection[str] | None = None,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-TEAM-2: a roster of ``rules.roster_min``–``rules.roster_max`` different players (by
    MID), each with a representation club in an SBF district (in ``sbf_districts`` when
    given, otherwise any recorded district)."""
    out = []
    counts = Counter(p.mid for p in roster)
    for mid, n in sorted(counts.items()):
        if n > 1:
            out.append(
                _v(
                    "R-TEAM-2",
                    f"Spelaren {mid} står {n} gånger i laget.",
                    f"Player {mid} is listed {n} times on the team.",
                    mid=mid,
                )
            )
    size = len(counts)
    if not rules.roster_min <= size <= rules.roster_max:
        out.append(
            _v(
                "R-TEAM-2",
                f"Ett lag ska ha {rules.roster_min}–{rules.roster_max} spelare; detta har {size}.",
                f"A team must have {rules.roster_min}–{rules.roster_max} players; this one has "
                f"{size}.",
                size=size,
                min=rules.roster_min,
                max=rules.roster_max,
            )
        )
    for p in roster:
        ok = p.has_representation_club and (sbf_districts is None or p.district in sbf_districts)
        if not ok:
            out.append(
                _v(
                    "R-TEAM-2",
                    f"{p.label()} har ingen representationsklubb i SBF denna säsong.",
                    f"{p.label()} has no representation club in SBF this season.",
                    mid=p.mid,
                    district=p.district,
                )
            )
    return out


def district_counts(roster: Iterable[PlayerInfo]) -> dict[str, int]:
    """R-TEAM-3: roster members per representation district (players without one left out;
    each MID counted once)."""
    seen: dict[str, str] = {}
    for p in roster:
        if p.district:
            seen.setdefault(p.mid, p.district)
    return dict(Counter(seen.values()))


def check_district_balance(
    roster: Iterable[PlayerInfo], *, has_dispensation: bool = False
) -> list[Violation]:
    """R-TEAM-3: the members representing UBF clubs must not be fewer than those from any other
    single dfb; otherwise the team needs TK's dispensation before it starts (ERROR unless
    ``has_dispensation``)."""
    counts = district_counts(roster)
    ubf = counts.get(UBF, 0)
    others = {k: n for k, n in counts.items() if k != UBF}
    top = max(others.items(), key=lambda kv: (kv[1], kv[0]), default=None)
    if top is None or ubf >= top[1] or has_dispensation:
        return []
    return [
        _v(
            "R-TEAM-3",
            f"Laget har {ubf} spelare från UBF-klubbar men {top[1]} från {top[0]}. Laget behöver "
            "dispens från TK innan det startar.",
            f"The team has {ubf} players from UBF clubs but {top[1]} from {top[0]}. It needs a "
            "dispensation from TK before it starts.",
            ubf=ubf,
            largest_other=top[0],
            largest_other_count=top[1],
            counts=counts,
            needs_dispensation=True,
        )
    ]


def team_competes_for_dm(players_fielded: Iterable[PlayerInfo]) -> bool:
    """R-TEAM-4: False once the team has fielded (at any point of DM play) a player whose
    representation club is outside UBF: it then plays only for SM semifinal places (no DM
    title, plaques or bonus)."""
    return all(p.is_ubf for p in players_fielded)


def team_bonus_eligible(
    roster: Iterable[PlayerInfo], players_fielded: Iterable[PlayerInfo] = ()
) -> bool:
    """R-TEAM-4 / R-TEAM-MP-3: DM bonus needs every roster member (even one who never played)
    and every fielded player to represent a UBF club."""
    return all(p.is_ubf for p in roster) and team_competes_for_dm(players_fielded)


def check_team_dm_status(
    roster: Iterable[PlayerInfo], players_fielded: Iterable[PlayerInfo] = ()
) -> list[Violation]:
    """R-TEAM-4 as WARNINGs with reasons: a fielded player outside UBF (no DM title, plaques or
    bonus; SM semifinal places only), or a roster member outside UBF (no DM bonus)."""
    roster = list(roster)
    fielded = list(players_fielded)
    outside_fielded = [p for p in fielded if not p.is_ubf]
    if outside_fielded:
        p = outside_fielded[0]
        return [
            _v(
                "R-TEAM-4",
                f"Laget har spelat med {p.label()}, som representerar en klubb utanför UBF. "
                "Laget spelar inte längre om DM, bara om SM-semifinalplatser: inga DM-plaketter "
                "och ingen DM-bonus.",
                f"The team fielded {p.label()}, who represents a club outside UBF. It no longer "
                "competes for the DM title, only for SM semifinal places: no DM plaques and no "
                "DM bonus.",
                WARNING,
                competes_for_dm=False,
                bonus_eligible=False,
                mids=[x.mid for x in outside_fielded],
            )
        ]
    outside_roster = [p for p in roster if not p.is_ubf]
    if outside_roster:
        p = outside_roster[0]
        return [
            _v(
                "R-TEAM-4",
                f"{p.label()} i laget representerar en klubb utanför UBF: laget kan inte få "
                "DM-bonus. Spelar hen blir laget utan DM-titel och plaketter.",
                f"{p.label()} on the roster represents a club outside UBF: the team cannot get "
                "the DM bonus. If that player plays, no DM title or plaques either.",
                WARNING,
                competes_for_dm=True,
                bonus_eligible=False,
                mids=[x.mid for x in outside_roster],
            )
        ]
    return []


def check_team_roster(
    roster: Sequence[PlayerInfo],
    *,
    has_dispensation: bool = False,
    sbf_districts: Collection[str] | None = None,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """A team entry: R-TEAM-2 (size, duplicates, SBF clubs), R-TEAM-3 (district balance unless
    dispensation), R-GEN-2 (unpaid members: WARNING, see R-TEAM-RES-1), R-TEAM-4 (members
    outside UBF: WARNING)."""
    out = check_roster(roster, sbf_districts=sbf_districts, rules=rules)
    out += check_district_balance(roster, has_dispensation=has_dispensation)
    out += check_membership(roster, team=True, rules=rules)
    out += check_team_dm_status(roster)
    return out


# ------------------------------------------------------------------------------------------
# Teams: extra players, direct qualifiers
# ------------------------------------------------------------------------------------------

SM_STAGES = ("sm_semifinal", "sm_final")


def check_extra_players(
    roster: Sequence[PlayerInfo],
    extras: Sequence[PlayerInfo],
    *,
    dispensations: Collection[str] = (),
    played_for_other_team: Collection[str] = (),
    stage: str = "dm",
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-TEAM-5: a 7th (and 8th) player needs TK's dispensation for this occasion (MIDs in
    ``dispensations``), must not have played in another team (``played_for_other_team``), may
    not play the SM semifinal or final (``stage``), and the team may have at most
    ``rules.roster_max_with_dispensation`` players in all."""
    out = []
    total = len({p.mid for p in roster} | {p.mid for p in extras})
    if total > rules.roster_max_with_dispensation:
        out.append(
            _v(
                "R-TEAM-5",
                f"Ett lag får ha högst {rules.roster_max_with_dispensation} spelare även med "
                f"dispens; detta har {total}.",
                f"A team may have at most {rules.roster_max_with_dispensation} players even "
                f"with a dispensation; this one has {total}.",
                total=total,
            )
        )
    for p in extras:
        if p.mid not in dispensations:
            out.append(
                _v(
                    "R-TEAM-5",
                    f"{p.label()} är sjunde/åttonde spelare och behöver dispens från TK för "
                    "just detta speltillfälle.",
                    f"{p.label()} is a 7th/8th player and needs a dispensation from TK for this "
                    "occasion.",
                    mid=p.mid,
                    missing="dispensation",
                )
            )
        if p.mid in played_for_other_team:
            out.append(
                _v(
                    "R-TEAM-5",
                    f"{p.label()} har spelat i ett annat lag och kan inte vara sjunde/åttonde "
                    "spelare.",
                    f"{p.label()} has played for another team and cannot be a 7th/8th player.",
                    mid=p.mid,
                )
            )
        if stage in SM_STAGES:
            out.append(
                _v(
                    "R-TEAM-5",
                    f"{p.label()} är sjunde/åttonde spelare och får inte spela SM Lag "
                    "semifinal eller final.",
                    f"{p.label()} is a 7th/8th player and may not play the SM semifinal or final.",
                    mid=p.mid,
                    stage=stage,
                )
            )
    return out


def team_direct_needed(champion_roster_size: int, *, rules: SeasonRules = DEFAULT_RULES) -> int:
    """R-TEAM-DIRECT-1: ceil(``rules.team_direct_min_share_remaining`` × champions' roster)."""
    return math.ceil(rules.team_direct_min_share_remaining * champion_roster_size)


def check_team_direct_qualifier(
    champion_mids: Collection[str],
    new_roster_mids: Collection[str],
    registered_on: date | None,
    qualifying_period_ends: date,
    *,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-TEAM-DIRECT-1 (before the final): last season's champions are directly qualified if at
    least :func:`team_direct_needed` of their players are on the new roster and the team
    registered with TK no later than ``qualifying_period_ends``. The condition that those
    players play in the final is :func:`check_team_direct_final_play`."""
    champions = set(champion_mids)
    remaining = sorted(champions & set(new_roster_mids))
    needed = team_direct_needed(len(champions), rules=rules)
    out = []
    if len(remaining) < needed:
        out.append(
            _v(
                "R-TEAM-DIRECT-1",
                f"Bara {len(remaining)} av mästarlagets {len(champions)} spelare finns kvar; "
                f"minst {needed} behövs för direktplatsen.",
                f"Only {len(remaining)} of the champions' {len(champions)} players remain; at "
                f"least {needed} are needed for the direct place.",
                remaining=remaining,
                needed=needed,
                champion_roster_size=len(champions),
            )
        )
    if registered_on is None or registered_on > qualifying_period_ends:
        out.append(
            _v(
                "R-TEAM-DIRECT-1",
                "Direktkvalificerat lag ska anmäla sig till TK:s ordförande före kvalperiodens "
                f"utgång ({qualifying_period_ends.isoformat()}); anmälan: {_fmt(registered_on)}.",
                "A directly qualified team must register with TK's chair before the qualifying "
                f"period ends ({qualifying_period_ends.isoformat()}); registered: "
                f"{registered_on.isoformat() if registered_on else 'not registered'}.",
                registered_on=registered_on,
                deadline=qualifying_period_ends,
            )
        )
    return out


def check_team_direct_final_play(
    champion_mids: Collection[str],
    halves_played: Mapping[str, int],
    *,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-TEAM-DIRECT-1 (after the final): at least :func:`team_direct_needed` of last season's
    champions must each have played at least one half of the DM final (``halves_played``: MID
    → halves played in the final)."""
    champions = set(champion_mids)
    needed = team_direct_needed(len(champions), rules=rules)
    played = sorted(m for m in champions if halves_played.get(m, 0) >= 1)
    if len(played) >= needed:
        return []
    return [
        _v(
            "R-TEAM-DIRECT-1",
            f"Bara {len(played)} av mästarlagets spelare spelade minst en halvlek i finalen; "
            f"minst {needed} skulle ha gjort det för att direktplatsen ska gälla.",
            f"Only {len(played)} of the champions' players played at least one half of the "
            f"final; at least {needed} had to for the direct place to stand.",
            played=played,
            needed=needed,
        )
    ]


# ------------------------------------------------------------------------------------------
# Teams: illegal players (R-TEAM-RES-*)
# ------------------------------------------------------------------------------------------


def unpaid_deadline(first_offence_date: date, rules: SeasonRules = DEFAULT_RULES) -> date:
    """R-TEAM-RES-1: the fee must reach SBF by this date (first offence +
    ``rules.unpaid_fee_grace_days``)."""
    return first_offence_date + timedelta(days=rules.unpaid_fee_grace_days)


def unpaid_deadline_passed(
    first_offence_date: date,
    on: date,
    *,
    fee_received_on: date | None = None,
    rules: SeasonRules = DEFAULT_RULES,
) -> bool:
    """R-TEAM-RES-1: True when, at date ``on``, the grace has run out without the fee having
    reached SBF by the deadline (the deadline day itself is still in time)."""
    deadline = unpaid_deadline(first_offence_date, rules)
    if fee_received_on is not None and fee_received_on <= deadline:
        return False
    return on > deadline


def check_unpaid_fielded(
    player: PlayerInfo,
    first_offence_date: date,
    on: date,
    *,
    matches_played: int = 1,
    fee_received_on: date | None = None,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-TEAM-RES-1: a fielded player without paid membership. WARNING while the
    14-day clock runs (with the deadline and the VP penalty: ``rules.unpaid_player_penalty_vp``
    per match the player played), ERROR (disqualification) once it has passed unpaid."""
    if player.membership_paid and fee_received_on is None:
        return []
    deadline = unpaid_deadline(first_offence_date, rules)
    penalty = rules.unpaid_player_penalty_vp * max(matches_played, 0)
    data = {
        "mid": player.mid,
        "first_offence": first_offence_date,
        "deadline": deadline,
        "matches": matches_played,
        "penalty_vp": penalty,
    }
    if unpaid_deadline_passed(first_offence_date, on, fee_received_on=fee_received_on, rules=rules):
        return [
            _v(
                "R-TEAM-RES-1",
                f"{player.label()} spelade utan betald medlemsavgift, och avgiften nådde inte "
                f"SBF senast {deadline.isoformat()}. Laget diskvalificeras.",
                f"{player.label()} played without a paid membership fee and the fee did not "
                f"reach SBF by {deadline.isoformat()}. The team is disqualified.",
                disqualified=True,
                **data,
            )
        ]
    if fee_received_on is not None:
        # Paid in time: only the VP penalty for the matches played unpaid remains.
        return [
            _v(
                "R-TEAM-RES-1",
                f"{player.label()} spelade innan medlemsavgiften var betald: {penalty} VP avdrag "
                f"({rules.unpaid_player_penalty_vp} VP per match).",
                f"{player.label()} played before the membership fee was paid: {penalty} VP "
                f"penalty ({rules.unpaid_player_penalty_vp} VP per match).",
                WARNING,
                disqualified=False,
                **data,
            )
        ]
    return [
        _v(
            "R-TEAM-RES-1",
            f"{player.label()} har spelat utan betald medlemsavgift: {penalty} VP avdrag "
            f"({rules.unpaid_player_penalty_vp} VP per match). Betalas avgiften inte senast "
            f"{deadline.isoformat()} diskvalificeras laget.",
            f"{player.label()} played without a paid membership fee: {penalty} VP penalty "
            f"({rules.unpaid_player_penalty_vp} VP per match). Unless it is paid by "
            f"{deadline.isoformat()} the team is disqualified.",
            WARNING,
            disqualified=False,
            **data,
        )
    ]


def counts_in_sm_semifinal_quota(found_on: date, semifinal_places_settled_on: date | None) -> bool:
    """R-TEAM-RES-2: a team disqualified for a player who played for another team does not
    count in UBF's SM semifinal quota if this was found before the semifinal places were
    settled (``None``: not yet settled). Found on the settling day counts as after."""
    return semifinal_places_settled_on is not None and found_on >= semifinal_places_settled_on


def check_other_team_player(
    player: PlayerInfo,
    team_key: Hashable,
    earlier_teams: Iterable[tuple[Hashable, str]],
    *,
    found_on: date | None = None,
    semifinal_places_settled_on: date | None = None,
) -> list[Violation]:
    """R-TEAM-RES-2: a player who earlier this season played for another team (UBF or another
    dfb; ``earlier_teams``: ``(team_key, district)`` pairs) disqualifies the team (ERROR).
    ``data["counts_in_sm_quota"]`` says whether the team still counts in the SM semifinal
    quota (:func:`counts_in_sm_semifinal_quota`; unknown ``found_on`` → does not count)."""
    others = [(k, d) for k, d in earlier_teams if k != team_key]
    if not others:
        return []
    counts = found_on is not None and counts_in_sm_semifinal_quota(
        found_on, semifinal_places_settled_on
    )
    k, d = others[0]
    return [
        _v(
            "R-TEAM-RES-2",
            f"{player.label()} har tidigare denna säsong spelat för ett annat lag ({k}, {d}). "
            "Laget diskvalificeras"
            + ("." if counts else " och räknas inte i UBF:s kvot till SM-semifinal."),
            f"{player.label()} played for another team earlier this season ({k}, {d}). The team "
            "is disqualified"
            + ("." if counts else " and does not count in UBF's SM semifinal quota."),
            mid=player.mid,
            other_team=k,
            other_district=d,
            disqualified=True,
            counts_in_sm_quota=counts,
        )
    ]


def check_fielded_extra_players(
    roster: Sequence[PlayerInfo],
    fielded: Iterable[PlayerInfo],
    *,
    dispensations: Collection[str] = (),
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-TEAM-RES-3: a team that fielded a 7th or 8th player (not on its full roster of
    ``rules.roster_max``) without a dispensation for the occasion is disqualified (ERROR). A
    player not on a roster that still has room is a roster addition: WARNING (R-TEAM-2)."""
    on_roster = {p.mid for p in roster}
    out = []
    for p in fielded:
        if p.mid in on_roster:
            continue
        if len(on_roster) < rules.roster_max:
            out.append(
                _v(
                    "R-TEAM-2",
                    f"{p.label()} spelade men står inte i laget; lägg till spelaren i laguppställningen.",
                    f"{p.label()} played but is not on the roster; add the player to it.",
                    WARNING,
                    mid=p.mid,
                )
            )
        elif p.mid not in dispensations:
            out.append(
                _v(
                    "R-TEAM-RES-3",
                    f"Laget spelade med {p.label()} som sjunde/åttonde spelare utan dispens. "
                    "Laget diskvalificeras.",
                    f"The team fielded {p.label()} as a 7th/8th player without a dispensation. "
                    "The team is disqualified.",
                    mid=p.mid,
                    disqualified=True,
                )
            )
    return out


def protest_deadline(concerning: str, rules: SeasonRules = DEFAULT_RULES) -> date | None:
    """R-TEAM-RES-5: the last day for a protest against an illegal player, or None for an
    unknown ``concerning``."""
    return {
        "sm_semifinal": rules.protest_deadline_sm_semifinal,
        "sm_final": rules.protest_deadline_sm_final,
    }.get(concerning)


def check_protest(
    protest_date: date, concerning: str, rules: SeasonRules = DEFAULT_RULES
) -> list[Violation]:
    """R-TEAM-RES-5: a protest against an illegal player concerning SM semifinal places
    (``"sm_semifinal"``) or SM final places (``"sm_final"``) is refused (ERROR) after the
    deadline; a protest on the deadline day is in time."""
    deadline = protest_deadline(concerning, rules)
    if deadline is None:
        return [
            _v(
                "R-TEAM-RES-5",
                f"Okänd protesttyp: {concerning!r} (sm_semifinal eller sm_final).",
                f"Unknown protest kind: {concerning!r} (sm_semifinal or sm_final).",
                concerning=concerning,
            )
        ]
    if protest_date <= deadline:
        return []
    what_sv = "SM-semifinalplatser" if concerning == "sm_semifinal" else "SM-finalplatser"
    what_en = "SM semifinal places" if concerning == "sm_semifinal" else "SM final places"
    return [
        _v(
            "R-TEAM-RES-5",
            f"Sista dag för protest mot otillåten spelare inför {what_sv} var "
            f"{deadline.isoformat()}; protesten ({protest_date.isoformat()}) kom för sent.",
            f"The last day to protest against an illegal player for {what_en} was "
            f"{deadline.isoformat()}; the protest ({protest_date.isoformat()}) is too late.",
            deadline=deadline,
            protest_date=protest_date,
            concerning=concerning,
        )
    ]

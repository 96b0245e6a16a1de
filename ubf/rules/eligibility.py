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

from .i18n import Message, gettext_noop
from .people import UBF, HeatPlayed, PlayerInfo, QualifierEntry, as_heat_played
from .season import DEFAULT_RULES, SeasonRules
from .types import Discipline, Gender
from .violations import Severity, Violation

ERROR = Severity.ERROR
WARNING = Severity.WARNING

_DISCIPLINE_SV = {
    Discipline.OPEN: gettext_noop("Open"),
    Discipline.MIXED: gettext_noop("Mixed"),
    Discipline.VETERAN: gettext_noop("Veteran"),
    Discipline.DAM: gettext_noop("Dam"),
}


def _v(clause: str, template: str, severity: Severity = ERROR, *, params=None, **data) -> Violation:
    return Violation(clause, template, severity, data, params or {})


def _discipline(value: Discipline | str) -> Discipline | None:
    try:
        return Discipline(value)
    except ValueError:
        return None


def _bad_discipline(clause: str, value: object) -> Violation:
    return _v(
        clause,
        gettext_noop("Okänd disciplin: %(value)r."),
        discipline=str(value),
        params={"value": value},
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
    return d.isoformat() if d else gettext_noop("okänt datum")


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
                    gettext_noop(
                        "%(player)s har inte betalat SBF:s medlemsavgift för säsongen "
                        "%(season)s. Spelar hen ändå får laget %(unpaid_player_penalty_vp)s VP "
                        "avdrag per match, och laget diskvalificeras om avgiften inte är betald "
                        "inom %(unpaid_fee_grace_days)s dagar (R-TEAM-RES-1)."
                    ),
                    WARNING,
                    mid=p.mid,
                    season=rules.season,
                    params={
                        "player": p.label(),
                        "season": rules.season,
                        "unpaid_player_penalty_vp": rules.unpaid_player_penalty_vp,
                        "unpaid_fee_grace_days": rules.unpaid_fee_grace_days,
                    },
                )
            )
        else:
            out.append(
                _v(
                    "R-GEN-2",
                    gettext_noop(
                        "%(player)s har inte betalat SBF:s medlemsavgift för säsongen "
                        "%(season)s. Anmälan kan inte tas emot förrän avgiften är betald."
                    ),
                    mid=p.mid,
                    season=rules.season,
                    params={"player": p.label(), "season": rules.season},
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
                gettext_noop("Ett par består av två spelare, inte %(count)s."),
                mids=mids,
                params={"count": len(mids)},
            )
        ]
    if mids[0] == mids[1]:
        return [
            _v(
                "R-PAIR-1",
                gettext_noop("Samma spelare (%(mids_0)s) står två gånger i paret."),
                mids=mids,
                params={"mids_0": mids[0]},
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
    labels = [p.label() for p in pair]
    names = (
        Message(gettext_noop("%(first)s och %(second)s"), {"first": labels[0], "second": labels[1]})
        if len(labels) == 2
        else ", ".join(labels)
    )
    return [
        _v(
            "R-PAIR-1",
            gettext_noop(
                "Ingen av spelarna (%(names)s) har en klubb i UBF som representationsklubb. "
                "Paret får spela, men som utomdistriktspar: antalet SM-platser sådana par kan ta "
                "är begränsat och paret får inte bonus, titel eller plakett."
            ),
            WARNING,
            out_of_district=True,
            mids=[p.mid for p in pair],
            params={"names": names},
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
                        gettext_noop(
                            "Födelseår saknas för %(player)s. Veteranpar ska vara födda "
                            "%(limit)s eller tidigare: fyll i födelseåret."
                        ),
                        mid=p.mid,
                        limit=limit,
                        missing="birth_year",
                        params={"player": p.label(), "limit": limit},
                    )
                )
            elif p.birth_year > limit:
                out.append(
                    _v(
                        "R-PAIR-3",
                        gettext_noop(
                            "%(player)s är född %(birth_year)s; i Veteran ska båda spelarna vara "
                            "födda %(limit)s eller tidigare."
                        ),
                        mid=p.mid,
                        birth_year=p.birth_year,
                        limit=limit,
                        params={"player": p.label(), "birth_year": p.birth_year, "limit": limit},
                    )
                )
    elif d in (Discipline.DAM, Discipline.MIXED):
        missing = [p for p in pair if p.gender is None]
        for p in missing:
            out.append(
                _v(
                    "R-PAIR-3",
                    gettext_noop("Kön saknas för %(player)s; det behövs för %(discipline_sv)s."),
                    mid=p.mid,
                    missing="gender",
                    params={"player": p.label(), "discipline_sv": _DISCIPLINE_SV[d]},
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
                            gettext_noop(
                                "%(player)s är inte kvinna; i Dam ska båda spelarna vara kvinnor."
                            ),
                            mid=p.mid,
                            params={"player": p.label()},
                        )
                    )
        else:
            genders = sorted(p.gender.value for p in pair)  # type: ignore[union-attr]
            if genders != sorted([Gender.WOMAN.value, Gender.MAN.value]):
                out.append(
                    _v(
                        "R-PAIR-3",
                        gettext_noop("Ett mixedpar ska bestå av en kvinna och en man."),
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
                gettext_noop(
                    "Ett kvalheat har högst %(heat_max_sessions)s speltillfällen; speltillfälle "
                    "%(session)s finns inte."
                ),
                session=session,
                max_sessions=rules.heat_max_sessions,
                params={"heat_max_sessions": rules.heat_max_sessions, "session": session},
            )
        ]
    if session > 1 and pair_key not in session_one_pairs:
        return [
            _v(
                "R-PAIR-KVAL-6",
                gettext_noop(
                    "Nya par får inte komma till vid kvalheatets andra speltillfälle, inte ens "
                    "utom tävlan."
                ),
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
        gettext_noop(
            "Spelaren %(mid)s har redan kvalspelat i %(dname)s denna säsong (heat %(heat_id)s, "
            "%(date)s, %(district)s). Paret räknas som utom tävlan i det senare heatet: det "
            "stryks från resultatlistan och räknas inte i SM-kvoten. Parets resultat räknas för "
            "de andra paren och mästarpoäng delas ut."
        ),
        mid=mid,
        earlier_heat_id=earlier.heat_id,
        earlier_date=earlier.date,
        earlier_district=earlier.district,
        discipline=str(discipline),
        later_heat_id=later_heat,
        struck=True,
        params={
            "mid": mid,
            "dname": dname,
            "heat_id": earlier.heat_id,
            "date": _fmt(earlier.date),
            "district": earlier.district,
        },
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
                    gettext_noop("Speltillfälle %(number)s: paret ska bestå av två spelare."),
                    session=i,
                    mids=sorted(played),
                    params={"number": i},
                )
            )
    reserves = sorted({m for played in played_by_session for m in played} - regulars)
    for mid in reserves:
        if mid not in notified_reserves:
            out.append(
                _v(
                    "R-PAIR-RES-1",
                    gettext_noop(
                        "Reserven %(mid)s anmäldes inte i förväg till arrangören. Paret räknas "
                        "då som ordinarie konstellation så som det spelade."
                    ),
                    WARNING,
                    mid=mid,
                    params={"mid": mid},
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
                gettext_noop(
                    "Minst en av parets spelare måste vara ordinarie och ha spelat alla "
                    "speltillfällen i etappen."
                ),
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
            gettext_noop(
                "%(reserve_mid)s kan inte vara reserv i DM-finalen i %(discipline_sv)s: spelaren "
                "har redan kvalspelat till SM i disciplinen denna säsong (heat %(heat_id)s)."
            ),
            mid=reserve_mid,
            heat_id=h.heat_id,
            heats=[x.heat_id for x in same],
            params={
                "reserve_mid": reserve_mid,
                "discipline_sv": _DISCIPLINE_SV[d],
                "heat_id": h.heat_id,
            },
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
            gettext_noop(
                "%(keyed_0_0)s och %(keyed_1_0)s är ordinarie spelare i olika par och får inte "
                "spela tillsammans."
            ),
            mids=[m for m, _ in keyed],
            pairs=[k for _, k in keyed],
            params={"keyed_0_0": keyed[0][0], "keyed_1_0": keyed[1][0]},
        )
    ]


@dataclass(frozen=True)
class PartnerChoice:
    """R-PAIR-RES-4: the partner who goes on to the SM stage, and why."""

    partner: str | None
    reason: str  # "only_partner", "declared", "dm_final", "none"
    text: Message  # why, rendered with clubs.i18n.render
    violations: tuple[Violation, ...] = ()

    @property
    def reason_sv(self) -> str:
        return self.text.message_sv


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
            Message(
                gettext_noop("%(player)s kvalspelade bara med %(partner)s."),
                {"player": player, "partner": partners[0]},
            ),
        )
    if declared_partner:
        if not declared_in_time:
            violations.append(
                _v(
                    "R-PAIR-RES-4",
                    gettext_noop(
                        "%(player)ss besked om SM-partner kom efter DM-finalens slut och gäller "
                        "inte."
                    ),
                    mid=player,
                    declared=declared_partner,
                    params={"player": player},
                )
            )
        elif declared_partner not in partners:
            violations.append(
                _v(
                    "R-PAIR-RES-4",
                    gettext_noop(
                        "%(player)s har anmält %(declared_partner)s som SM-partner, men de har "
                        "inte kvalspelat tillsammans."
                    ),
                    mid=player,
                    declared=declared_partner,
                    partners=partners,
                    params={"player": player, "declared_partner": declared_partner},
                )
            )
        else:
            return PartnerChoice(
                declared_partner,
                "declared",
                Message(
                    gettext_noop("%(player)s har anmält %(partner)s som partner till SM."),
                    {"player": player, "partner": declared_partner},
                ),
            )
    return PartnerChoice(
        dm_final_partner,
        "dm_final" if dm_final_partner else "none",
        Message(
            gettext_noop(
                "Inget giltigt besked om partner: paret som spelade DM-finalen går vidare."
            )
        ),
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
                gettext_noop("I %(discipline_sv)s finns inga direktkvalificerade par."),
                discipline=d.value,
                params={"discipline_sv": _DISCIPLINE_SV[d]},
            )
        )
    if set(champion_mids) != set(entry_mids) or len(set(entry_mids)) != 2:
        out.append(
            _v(
                "R-DIRECT-1",
                gettext_noop(
                    "Paret är inte intakt: direktplatsen gäller bara samma två spelare som vann "
                    "förra säsongen."
                ),
                champions=sorted(champion_mids),
                entry=sorted(entry_mids),
            )
        )
    if registered_on is None or registered_on > qualifying_period_ends:
        out.append(
            _v(
                "R-DIRECT-1",
                gettext_noop(
                    "Direktkvalificerade par ska anmäla sig till TK:s ordförande före "
                    "kvalperiodens utgång (%(qualifying_period_ends_isoformat)s); anmälan: "
                    "%(registered_on)s."
                ),
                registered_on=registered_on,
                deadline=qualifying_period_ends,
                params={
                    "qualifying_period_ends_isoformat": qualifying_period_ends.isoformat(),
                    "registered_on": _fmt(registered_on),
                },
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
                    gettext_noop(
                        "%(mid)s är direktkvalificerad men kvalspelade i heat %(heat_id)s med en "
                        "annan partner: direktplatsen är förverkad."
                    ),
                    mid=mid,
                    heat_id=e.heat_id,
                    partner=partner,
                    forfeited=True,
                    params={"mid": mid, "heat_id": e.heat_id},
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
                    gettext_noop("Spelaren %(mid)s står %(n)s gånger i laget."),
                    mid=mid,
                    params={"mid": mid, "n": n},
                )
            )
    size = len(counts)
    if not rules.roster_min <= size <= rules.roster_max:
        out.append(
            _v(
                "R-TEAM-2",
                gettext_noop(
                    "Ett lag ska ha %(roster_min)s–%(roster_max)s spelare; detta har %(size)s."
                ),
                size=size,
                min=rules.roster_min,
                max=rules.roster_max,
                params={
                    "roster_min": rules.roster_min,
                    "roster_max": rules.roster_max,
                    "size": size,
                },
            )
        )
    for p in roster:
        ok = p.has_representation_club and (sbf_districts is None or p.district in sbf_districts)
        if not ok:
            out.append(
                _v(
                    "R-TEAM-2",
                    gettext_noop("%(player)s har ingen representationsklubb i SBF denna säsong."),
                    mid=p.mid,
                    district=p.district,
                    params={"player": p.label()},
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
            gettext_noop(
                "Laget har %(ubf)s spelare från UBF-klubbar men %(top_1)s från %(top_0)s. Laget "
                "behöver dispens från TK innan det startar."
            ),
            ubf=ubf,
            largest_other=top[0],
            largest_other_count=top[1],
            counts=counts,
            needs_dispensation=True,
            params={"ubf": ubf, "top_1": top[1], "top_0": top[0]},
        )
    ]


@dataclass(frozen=True)
class Fielded:
    """Who a team has fielded in DM play, as R-TEAM-4 counts it."""

    players: frozenset
    #: Played matches without a recorded line-up: the roster stands in for them, and the
    #: status is preliminary until TK has the line-up.
    without_lineup: tuple = ()

    @property
    def provisional(self) -> bool:
        return bool(self.without_lineup)


def fielded_players(
    played_matches: Iterable[Hashable],
    lineups: Mapping[Hashable, Iterable[Hashable]],
    roster: Iterable[Hashable],
) -> Fielded:
    """R-TEAM-4, one reading for every page and the standings: a team fields a player when a
    recorded line-up says so; a played match without a line-up counts the whole roster and is
    reported in ``without_lineup``. ``lineups`` maps each match with a recorded line-up to the
    team's players in it."""
    roster = frozenset(roster)
    players: set = set()
    for lineup in lineups.values():
        players |= set(lineup)
    missing = [match for match in played_matches if not lineups.get(match)]
    if missing:
        players |= roster
    return Fielded(frozenset(players), tuple(missing))


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
                gettext_noop(
                    "Laget har spelat med %(player)s, som representerar en klubb utanför UBF. "
                    "Laget spelar inte längre om DM, bara om SM-semifinalplatser: inga "
                    "DM-plaketter och ingen DM-bonus."
                ),
                WARNING,
                competes_for_dm=False,
                bonus_eligible=False,
                mids=[x.mid for x in outside_fielded],
                params={"player": p.label()},
            )
        ]
    outside_roster = [p for p in roster if not p.is_ubf]
    if outside_roster:
        p = outside_roster[0]
        return [
            _v(
                "R-TEAM-4",
                gettext_noop(
                    "%(player)s i laget representerar en klubb utanför UBF: laget kan inte få "
                    "DM-bonus. Spelar hen blir laget utan DM-titel och plaketter."
                ),
                WARNING,
                competes_for_dm=True,
                bonus_eligible=False,
                mids=[x.mid for x in outside_roster],
                params={"player": p.label()},
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
                gettext_noop(
                    "Ett lag får ha högst %(roster_max_with_dispensation)s spelare även med "
                    "dispens; detta har %(total)s."
                ),
                total=total,
                params={
                    "roster_max_with_dispensation": rules.roster_max_with_dispensation,
                    "total": total,
                },
            )
        )
    for p in extras:
        if p.mid not in dispensations:
            out.append(
                _v(
                    "R-TEAM-5",
                    gettext_noop(
                        "%(player)s är sjunde/åttonde spelare och behöver dispens från TK för "
                        "just detta speltillfälle."
                    ),
                    mid=p.mid,
                    missing="dispensation",
                    params={"player": p.label()},
                )
            )
        if p.mid in played_for_other_team:
            out.append(
                _v(
                    "R-TEAM-5",
                    gettext_noop(
                        "%(player)s har spelat i ett annat lag och kan inte vara sjunde/åttonde "
                        "spelare."
                    ),
                    mid=p.mid,
                    params={"player": p.label()},
                )
            )
        if stage in SM_STAGES:
            out.append(
                _v(
                    "R-TEAM-5",
                    gettext_noop(
                        "%(player)s är sjunde/åttonde spelare och får inte spela SM Lag "
                        "semifinal eller final."
                    ),
                    mid=p.mid,
                    stage=stage,
                    params={"player": p.label()},
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
                gettext_noop(
                    "Bara %(n_remaining)s av mästarlagets %(n_champions)s spelare finns kvar; "
                    "minst %(needed)s behövs för direktplatsen."
                ),
                remaining=remaining,
                needed=needed,
                champion_roster_size=len(champions),
                params={
                    "n_remaining": len(remaining),
                    "n_champions": len(champions),
                    "needed": needed,
                },
            )
        )
    if registered_on is None or registered_on > qualifying_period_ends:
        out.append(
            _v(
                "R-TEAM-DIRECT-1",
                gettext_noop(
                    "Direktkvalificerat lag ska anmäla sig till TK:s ordförande före "
                    "kvalperiodens utgång (%(qualifying_period_ends_isoformat)s); anmälan: "
                    "%(registered_on)s."
                ),
                registered_on=registered_on,
                deadline=qualifying_period_ends,
                params={
                    "qualifying_period_ends_isoformat": qualifying_period_ends.isoformat(),
                    "registered_on": _fmt(registered_on),
                },
            )
        )
    return out


def check_team_direct_final_play(
    champion_mids: Collection[str],
    halves_played: Mapping[str, int],
    *,
    remaining_mids: Collection[str] | None = None,
    names: Mapping[str, str] | None = None,
    rules: SeasonRules = DEFAULT_RULES,
) -> list[Violation]:
    """R-TEAM-DIRECT-1 (after the final): at least :func:`team_direct_needed` of last season's
    champions must each have played at least one half of the DM final (``halves_played``: MID
    → halves played in the final); an error when fewer did.

    ``remaining_mids`` (the champions still on the roster): when the count holds, each of them
    who played no half of the final gives a warning for TK ("dessa spelar minst en halvlek":
    the remaining players are to play), naming the players (``names``: MID → name)."""
    champions = set(champion_mids)
    needed = team_direct_needed(len(champions), rules=rules)
    played = sorted(m for m in champions if halves_played.get(m, 0) >= 1)
    if len(played) >= needed:
        idle = sorted(m for m in set(remaining_mids or ()) & champions if m not in played)
        if not idle:
            return []
        return [
            _v(
                "R-TEAM-DIRECT-1",
                gettext_noop(
                    "%(n_idle)s av mästarlagets kvarvarande spelare spelade ingen halvlek i "
                    "finalen (%(players)s); %(n_played)s gjorde det, minst %(needed)s krävs."
                ),
                WARNING,
                idle=idle,
                played=played,
                needed=needed,
                params={
                    "n_idle": len(idle),
                    "players": ", ".join((names or {}).get(m, m) for m in idle),
                    "n_played": len(played),
                    "needed": needed,
                },
            )
        ]
    return [
        _v(
            "R-TEAM-DIRECT-1",
            gettext_noop(
                "Bara %(n_played)s av mästarlagets spelare spelade minst en halvlek i finalen; "
                "minst %(needed)s skulle ha gjort det för att direktplatsen ska gälla."
            ),
            played=played,
            needed=needed,
            params={"n_played": len(played), "needed": needed},
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
                gettext_noop(
                    "%(player)s spelade utan betald medlemsavgift, och avgiften nådde inte SBF "
                    "senast %(deadline_isoformat)s. Laget diskvalificeras."
                ),
                disqualified=True,
                **data,
                params={"player": player.label(), "deadline_isoformat": deadline.isoformat()},
            )
        ]
    if fee_received_on is not None:
        # Paid in time: only the VP penalty for the matches played unpaid remains.
        return [
            _v(
                "R-TEAM-RES-1",
                gettext_noop(
                    "%(player)s spelade innan medlemsavgiften var betald: %(penalty)s VP avdrag "
                    "(%(unpaid_player_penalty_vp)s VP per match)."
                ),
                WARNING,
                disqualified=False,
                **data,
                params={
                    "player": player.label(),
                    "penalty": penalty,
                    "unpaid_player_penalty_vp": rules.unpaid_player_penalty_vp,
                },
            )
        ]
    return [
        _v(
            "R-TEAM-RES-1",
            gettext_noop(
                "%(player)s har spelat utan betald medlemsavgift: %(penalty)s VP avdrag "
                "(%(unpaid_player_penalty_vp)s VP per match). Betalas avgiften inte senast "
                "%(deadline_isoformat)s diskvalificeras laget."
            ),
            WARNING,
            disqualified=False,
            **data,
            params={
                "player": player.label(),
                "penalty": penalty,
                "unpaid_player_penalty_vp": rules.unpaid_player_penalty_vp,
                "deadline_isoformat": deadline.isoformat(),
            },
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
            gettext_noop(
                "%(player)s har tidigare denna säsong spelat för ett annat lag (%(team)s, "
                "%(district)s). Laget diskvalificeras."
            )
            if counts
            else gettext_noop(
                "%(player)s har tidigare denna säsong spelat för ett annat lag (%(team)s, "
                "%(district)s). Laget diskvalificeras och räknas inte i UBF:s kvot till "
                "SM-semifinal."
            ),
            params={"player": player.label(), "team": k, "district": d},
            mid=player.mid,
            other_team=k,
            other_district=d,
            disqualified=True,
            counts_in_sm_quota=counts,
        )
    ]


@dataclass(frozen=True)
class TeamPlay:
    """R-TEAM-RES-2: a player took part for a team on a day (a line-up in UBF, or play recorded
    from another dfb). ``on`` is ``None`` when the day is not known."""

    team: Hashable
    district: str
    on: date | None


def earlier_other_team_play(
    team_key: Hashable, own_days: Iterable[date | None], plays: Iterable[TeamPlay]
) -> tuple[list[TeamPlay], list[TeamPlay]]:
    """R-TEAM-RES-2: which of a player's ``plays`` for other teams came *earlier* than a day on
    which ``team_key`` fielded him (``own_days``), and which fell on such a day (order unknown).

    Only taking part counts: a roster place elsewhere is not play, and play elsewhere after the
    team's last day with him does not make that team the offender (it is the later team's
    fault). Undated play proves nothing either way and is left out. Returns ``(earlier,
    same_day)``, each sorted by day."""
    own = {d for d in own_days if d is not None}
    if not own:
        return [], []
    last = max(own)
    others = [p for p in plays if p.team != team_key and p.on is not None]
    earlier = sorted((p for p in others if p.on < last), key=lambda p: (p.on, str(p.team)))
    same = sorted((p for p in others if p.on in own and p.on >= last), key=lambda p: str(p.team))
    return earlier, same


def check_played_for_two_teams(
    player: PlayerInfo,
    team_key: Hashable,
    own_days: Iterable[date | None],
    plays: Iterable[TeamPlay],
    *,
    found_on: date | None = None,
    semifinal_places_settled_on: date | None = None,
) -> list[Violation]:
    """R-TEAM-RES-2 with the days: the team is disqualified (ERROR) only if it fielded the
    player after he had taken part for another team (:func:`earlier_other_team_play`); play
    for another team on the same day as the team's (order unknown) is a WARNING for TK."""
    own_days = list(own_days)
    earlier, same = earlier_other_team_play(team_key, own_days, plays)
    out = check_other_team_player(
        player,
        team_key,
        [(p.team, p.district) for p in earlier],
        found_on=found_on,
        semifinal_places_settled_on=semifinal_places_settled_on,
    )
    for v in out:
        v.data["earlier_play_on"] = _fmt(earlier[0].on)
    for p in same:
        out.append(
            _v(
                "R-TEAM-RES-2",
                gettext_noop(
                    "%(player)s spelade för %(team)s (%(district)s) samma dag (%(on)s); vilket "
                    "lag som ställde upp hen först avgör TK."
                ),
                WARNING,
                params={
                    "player": player.label(),
                    "team": p.team,
                    "district": p.district,
                    "on": _fmt(p.on),
                },
                mid=player.mid,
                other_team=p.team,
                same_day=_fmt(p.on),
            )
        )
    return out


def dispensation_covers(occasion_date: date | None, on: date | None) -> bool:
    """R-TEAM-5, R-TEAM-RES-3: a 7th/8th-player dispensation is sought before each occasion, so
    it covers the occasion of its own day only; one without a day covers no occasion (it
    shows no occasion it was sought for). The one reading for the line-up, the sanction and
    the pages."""
    return occasion_date is not None and on is not None and occasion_date == on


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
                    gettext_noop(
                        "%(player)s spelade men står inte i laget; lägg till spelaren i "
                        "spelartruppen."
                    ),
                    WARNING,
                    mid=p.mid,
                    params={"player": p.label()},
                )
            )
        elif p.mid not in dispensations:
            out.append(
                _v(
                    "R-TEAM-RES-3",
                    gettext_noop(
                        "Laget spelade med %(player)s som sjunde/åttonde spelare utan dispens. "
                        "Laget diskvalificeras."
                    ),
                    mid=p.mid,
                    disqualified=True,
                    params={"player": p.label()},
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
                gettext_noop("Okänd protesttyp: %(concerning)r (sm_semifinal eller sm_final)."),
                concerning=concerning,
                params={"concerning": concerning},
            )
        ]
    if protest_date <= deadline:
        return []
    what_sv = (
        gettext_noop("SM-semifinalplatser")
        if concerning == "sm_semifinal"
        else gettext_noop("SM-finalplatser")
    )
    return [
        _v(
            "R-TEAM-RES-5",
            gettext_noop(
                "Sista dag för protest mot otillåten spelare inför %(what_sv)s var "
                "%(deadline_isoformat)s; protesten (%(protest_date_isoformat)s) kom för sent."
            ),
            deadline=deadline,
            protest_date=protest_date,
            concerning=concerning,
            params={
                "what_sv": what_sv,
                "deadline_isoformat": deadline.isoformat(),
                "protest_date_isoformat": protest_date.isoformat(),
            },
        )
    ]

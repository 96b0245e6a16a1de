"""SM places, the SM quota basis, DM and full orders, titles and plaques:
R-PAIR-2, R-PAIR-4, R-TEAM-4, R-TEAM-SEMI-1, R-PAIR-MP-3, R-TEAM-MP-3.

Rankings are sequences of entry keys (pairs or teams), best first, ties already broken
(R-PAIR-TIE-*, R-TEAM-TIE-1).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .heats import PairHeatEntries, qualifying_pairs
from .i18n import Message, gettext_noop
from .pairs import sm_cap_out_of_district
from .season import DEFAULT_RULES, SeasonRules


@dataclass(frozen=True)
class SmPlaces:
    """R-PAIR-2: the pairs that get UBF's SM places, and the pairs passed over with why."""

    places: int
    cap: int
    qualified: tuple[Hashable, ...]
    passed_over: tuple[tuple[Hashable, Message], ...] = ()
    reasons: dict = field(default_factory=dict, compare=False)  # qualified pair -> Message

    @property
    def unfilled(self) -> int:
        return self.places - len(self.qualified)


def sm_places(
    final_ranking: Sequence[Hashable],
    out_of_district: Iterable[Hashable],
    sm_places: int,
    rules: SeasonRules = DEFAULT_RULES,
) -> SmPlaces:
    """R-PAIR-2: SM places go down the DM final ranking; once out-of-district pairs hold
    :func:`~ubf.rules.pairs.sm_cap_out_of_district` places, further out-of-district pairs are
    passed over and the place goes on to the next pair."""
    outside = set(out_of_district)
    cap = sm_cap_out_of_district(sm_places, rules)
    qualified: list[Hashable] = []
    passed: list[tuple[Hashable, Message]] = []
    reasons: dict = {}
    outside_taken = 0
    for rank, pair in enumerate(final_ranking, start=1):
        if len(qualified) >= sm_places:
            break
        if pair in outside:
            if outside_taken >= cap:
                passed.append(
                    (
                        pair,
                        Message(
                            gettext_noop(
                                "R-PAIR-2: utomdistriktspar på plats %(rank)s; taket på %(cap)s "
                                "utomdistriktspar för %(places)s SM-platser är redan nått"
                            ),
                            {"rank": rank, "cap": cap, "places": sm_places},
                        ),
                    )
                )
                continue
            outside_taken += 1
            reasons[pair] = Message(
                gettext_noop(
                    "R-PAIR-2: plats %(rank)s i DM-finalen; utomdistriktspar %(taken)s av "
                    "högst %(cap)s"
                ),
                {"rank": rank, "taken": outside_taken, "cap": cap},
            )
        else:
            reasons[pair] = Message(
                gettext_noop("R-PAIR-2: plats %(rank)s i DM-finalen"), {"rank": rank}
            )
        qualified.append(pair)
    return SmPlaces(sm_places, cap, tuple(qualified), tuple(passed), reasons)


@dataclass(frozen=True)
class QuotaBasis:
    """R-PAIR-4: the number reported to SBF as the basis of UBF's SM quota, and its parts."""

    total: int
    from_heats: int
    from_direct_final: int
    champion_free_place: int
    per_heat: tuple[tuple[Hashable, int], ...] = ()
    reasons: tuple[Message, ...] = ()


def sm_quota_basis(
    heats: Iterable[PairHeatEntries] = (),
    *,
    counted_heats: Iterable[tuple[Hashable, Iterable[Hashable]]] = (),
    direct_final_pairs: int = 0,
    reigning_champion_free_place: bool = False,
    champion_pair: Hashable | None = None,
    rules: SeasonRules = DEFAULT_RULES,
) -> QuotaBasis:
    """R-PAIR-4 (with R-PAIR-KVAL-5, R-PAIR-KVAL-7): pairs that started in DM kval (every pair
    of a silver heat, the declared pairs of a bronze heat, never a pair struck under
    R-PAIR-KVAL-7, nobody from a heat that does not count), plus the pairs of a direct final,
    plus one for a reigning champion holding a free place. A champion pair that also played a
    heat (``champion_pair`` found among the counted pairs) is not counted twice.

    ``counted_heats``: heats whose qualifying pairs are already known (``(key, pairs)``, e.g.
    the recompute's, which counted them with :func:`~ubf.rules.heats.qualifying_pairs`)."""
    per_heat: list[tuple[Hashable, int]] = []
    counted: set = set()
    from_heats = 0
    for number, heat in enumerate(heats, start=1):
        q = qualifying_pairs(heat, rules)
        per_heat.append((heat.key if heat.key is not None else number, q.count))
        from_heats += q.count
        counted.update(q.pairs)
    for key, pairs in counted_heats:
        pairs = set(pairs)
        per_heat.append((key, len(pairs)))
        from_heats += len(pairs)
        counted.update(pairs)
    champion = 0
    reasons = [
        Message(gettext_noop("%(n)s par startade i DM-kval"), {"n": from_heats}),
        Message(gettext_noop("%(n)s i en direktfinal"), {"n": direct_final_pairs}),
    ]
    if reigning_champion_free_place:
        if champion_pair is not None and champion_pair in counted:
            reasons.append(Message(gettext_noop("de regerande mästarna räknas redan i ett kval")))
        else:
            champion = 1
            reasons.append(Message(gettext_noop("de regerande mästarna har en friplats: +1")))
    total = from_heats + direct_final_pairs + champion
    return QuotaBasis(
        total, from_heats, direct_final_pairs, champion, tuple(per_heat), tuple(reasons)
    )


@dataclass(frozen=True)
class DmAndSmOrder:
    """R-TEAM-4: the DM order (title, plaques) and the full order (SM semifinal places)."""

    dm_order: tuple[Hashable, ...]
    full_order: tuple[Hashable, ...]
    not_competing_for_dm: tuple[Hashable, ...] = ()


def dm_and_sm_order(
    full_ranking: Sequence[Hashable], competes_for_dm: Mapping[Hashable, bool]
) -> DmAndSmOrder:
    """R-TEAM-4: a team that fielded a player representing a club outside UBF drops out of the
    DM order (no title, no plaques) but keeps its place in the full order, which gives the SM
    semifinal places. A team missing from ``competes_for_dm`` still competes."""
    full = tuple(full_ranking)
    dm = tuple(t for t in full if competes_for_dm.get(t, True))
    out = tuple(t for t in full if not competes_for_dm.get(t, True))
    return DmAndSmOrder(dm, full, out)


@dataclass(frozen=True)
class SemifinalChoice:
    """R-TEAM-SEMI-1: the teams that choose SM semifinal venues, in choosing order."""

    order: tuple[Hashable, ...]
    passed_over: tuple[tuple[Hashable, str | Message], ...] = ()  # reason: given, or a Message


def semifinal_choice_order(
    full_ranking: Sequence[Hashable],
    places: int,
    excluded: Iterable[Hashable] | Mapping[Hashable, str] = (),
) -> SemifinalChoice:
    """R-TEAM-SEMI-1, R-TEAM-4, R-TEAM-RES-2: the ``places`` teams (a number SBF gives) that go
    to the SM semifinal, in the order they choose venues: the full final ranking from the
    winners down, not the DM order. Teams in ``excluded`` (disqualified under R-TEAM-RES-2
    before the places are settled; a mapping may give each one's reason) do not count."""
    if isinstance(excluded, Mapping):
        why = {t: r if isinstance(r, Message) else str(r) for t, r in excluded.items()}
    else:
        why = dict.fromkeys(
            excluded,
            Message(gettext_noop("R-TEAM-RES-2: diskvalificerat innan platserna var fördelade")),
        )
    order: list[Hashable] = []
    passed: list[tuple[Hashable, str | Message]] = []
    for team in full_ranking:
        if len(order) >= places:
            break
        if team in why:
            passed.append((team, why[team]))
            continue
        order.append(team)
    return SemifinalChoice(tuple(order), tuple(passed))


#: R-TEAM-SEMI-1: where a team with a semifinal place stands in the choosing of venues.
CHOSEN, TURN, WAITING = "chosen", "turn", "waiting"

DECLINED_REASON = gettext_noop("R-TEAM-SEMI-1: tackade nej till sin SM-semifinalplats")


@dataclass(frozen=True)
class SemifinalTurn:
    """One team with an SM semifinal place: its number in the choosing order, whether it has
    chosen (``venue``), is choosing now, or waits for the teams before it."""

    team: Hashable
    number: int
    state: str
    venue: Hashable | None = None


@dataclass(frozen=True)
class SemifinalTurns:
    """R-TEAM-SEMI-1: the teams that hold UBF's semifinal places, in choosing order, each
    with its state; the teams that declined (their places went on down the full order) and
    the teams passed over (disqualified or excluded, with why)."""

    turns: tuple[SemifinalTurn, ...]
    declined: tuple[Hashable, ...] = ()
    passed_over: tuple[tuple[Hashable, str | Message], ...] = ()

    @property
    def current(self) -> Hashable | None:
        """The team whose turn it is to choose, or None when every place is chosen."""
        return next((t.team for t in self.turns if t.state == TURN), None)

    def of(self, team: Hashable) -> SemifinalTurn | None:
        return next((t for t in self.turns if t.team == team), None)


def semifinal_turns(
    full_ranking: Sequence[Hashable],
    places: int,
    excluded: Iterable[Hashable] | Mapping[Hashable, str | Message] = (),
    *,
    declined: Iterable[Hashable] = (),
    chosen: Mapping[Hashable, Hashable] | None = None,
) -> SemifinalTurns:
    """R-TEAM-SEMI-1: the choosing of SM semifinal venues, one team at a time in the full
    final order (:func:`semifinal_choice_order`, from the winners down). A team that
    ``declined`` its place counts as passed over, so the next team of the full order moves up
    and chooses last; ``chosen`` maps a team to the venue it chose. The first team without a
    venue is the one whose turn it is (``TURN``); the teams after it wait (``WAITING``)."""
    declined = tuple(dict.fromkeys(declined))
    chosen = dict(chosen or {})
    if isinstance(excluded, Mapping):
        why: dict = dict(excluded)
    else:
        why = dict.fromkeys(
            excluded,
            Message(gettext_noop("R-TEAM-RES-2: diskvalificerat innan platserna var fördelade")),
        )
    for team in declined:
        why.setdefault(team, Message(DECLINED_REASON))
    order = semifinal_choice_order(full_ranking, places, why)
    turns: list[SemifinalTurn] = []
    turn_given = False
    for number, team in enumerate(order.order, start=1):
        if team in chosen:
            turns.append(SemifinalTurn(team, number, CHOSEN, chosen[team]))
        elif not turn_given:
            turns.append(SemifinalTurn(team, number, TURN))
            turn_given = True
        else:
            turns.append(SemifinalTurn(team, number, WAITING))
    passed = tuple((t, r) for t, r in order.passed_over if t not in declined)
    return SemifinalTurns(tuple(turns), declined, passed)


@dataclass(frozen=True)
class Awards:
    """R-PAIR-MP-3 / R-TEAM-MP-3: who gets title (place 1) and plaques, and who was passed."""

    placed: tuple[tuple[int, Hashable], ...]
    passed_over: tuple[tuple[Hashable, Message], ...] = ()

    @property
    def champion(self) -> Hashable | None:
        return self.placed[0][1] if self.placed else None

    def place_of(self, entry: Hashable) -> int | None:
        for place, e in self.placed:
            if e == entry:
                return place
        return None


def title_and_plaques(
    ranking: Sequence[Hashable], eligible: Mapping[Hashable, bool], places: int = 3
) -> Awards:
    """R-PAIR-MP-3, R-TEAM-MP-3, R-TEAM-4: the DM title and the plaques of places 1..``places``
    go down the ranking to eligible entries only (pairs: both players represent a UBF club;
    teams: competes for DM); an ineligible entry (or one missing from ``eligible``) is passed
    over and its title or plaque passes to the next eligible entry."""
    placed: list[tuple[int, Hashable]] = []
    passed: list[tuple[Hashable, Message]] = []
    for rank, entry in enumerate(ranking, start=1):
        if len(placed) >= places:
            break
        if not eligible.get(entry, False):
            passed.append(
                (
                    entry,
                    Message(
                        gettext_noop(
                            "plats %(rank)s: har inte rätt till titel, plaketter och bonus "
                            "(R-PAIR-MP-3 / R-TEAM-4)"
                        ),
                        {"rank": rank},
                    ),
                )
            )
            continue
        placed.append((len(placed) + 1, entry))
    return Awards(tuple(placed), tuple(passed))

"""Read-side adapters from the models to the rulebook's plain data (``ubf.rules.people``).

The rules never look anything up; the services call these to build
:class:`~ubf.rules.people.PlayerInfo` objects (MID, name, gender, birth year, pin, the district
of the player's representation club this season, membership paid this season) and to turn MIDs
typed by a person into :class:`~clubs.models.Player` rows, with a Swedish message naming every
unknown MID. Players are matched by MID, never by name.

Query counts are constant in the number of MIDs: :func:`player_infos` runs three queries,
:func:`lookup_players` one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from django.db.models import Q
from django.db.models.functions import Length

from clubs.models import Membership, Player, Representation, Season
from clubs.services.base import ServiceError
from ubf.rules.i18n import gettext_noop
from ubf.rules.people import PlayerInfo, normalise_mid
from ubf.rules.types import Gender, Pin
from ubf.rules.violations import Violation


def _unique(mids: Iterable[object]) -> list[str]:
    return list(dict.fromkeys(m for m in (normalise_mid(x) for x in mids) if m))


def lookup_players(
    mids: Iterable[object], *, clause: str = ""
) -> tuple[dict[str, Player], list[Violation]]:
    """Find the players with these MIDs (one query). Returns ``(players by MID, violations)``:
    one ERROR naming every unknown or malformed MID (``clause`` is the clause the caller applies,
    e.g. R-GEN-2 for pairs, R-TEAM-REG-2 for team entries). Duplicates are looked up once."""
    wanted = _unique(mids)
    malformed = [m for m in wanted if not m.isdigit() or len(m) > 9]
    valid = [m for m in wanted if m not in malformed]
    players = {p.mid: p for p in Player.objects.filter(mid__in=valid)} if valid else {}
    unknown = [m for m in valid if m not in players]
    violations = []
    if malformed:
        violations.append(
            Violation(
                clause=clause,
                template=gettext_noop(
                    "Ogiltigt MID (SBF:s medlemsnummer, bara siffror): %(mids)s."
                ),
                params={"mids": malformed},
                data={"malformed": malformed},
            )
        )
    if unknown:
        violations.append(
            Violation(
                clause=clause,
                template=gettext_noop(
                    "Okänt MID – ingen spelare med medlemsnummer %(mids)s finns i registret. "
                    "Kontrollera numret eller lägg in spelaren först."
                ),
                params={"mids": unknown},
                data={"unknown": unknown},
            )
        )
    return players, violations


def resolve_players(mids: Iterable[object], *, clause: str = "") -> dict[str, Player]:
    """Players by MID; raises :class:`~clubs.services.base.ServiceError` naming every unknown MID."""
    players, violations = lookup_players(mids, clause=clause)
    if violations:
        raise ServiceError(violations)
    return players


def _info(player: Player, rep: Representation | None, paid: bool) -> PlayerInfo:
    return PlayerInfo(
        mid=player.mid,
        name=player.full_name,
        gender=Gender(player.gender) if player.gender else None,
        birth_year=player.birth_year,
        max_pin=Pin(player.max_pin),
        district=rep.club.district.code if rep is not None else None,
        membership_paid=paid,
        club=rep.club.name if rep is not None else "",
    )


def _is_paid(paid_on: date | None, paid_by: date | None) -> bool:
    return paid_on is not None and (paid_by is None or paid_on <= paid_by)


def player_infos(
    season: Season, mids: Iterable[object], *, paid_by: date | None = None
) -> dict[str, PlayerInfo]:
    """R-GEN-2, R-PAIR-1, R-PAIR-3, R-TEAM-2, R-TEAM-3, R-TEAM-4: ``MID → PlayerInfo`` for
    ``season`` in three queries, whatever the number of MIDs. Unknown MIDs are left out (use
    :func:`lookup_players` for the message). ``district`` is the district code of the player's
    representation club this season (``None`` without one); ``membership_paid`` means the SBF
    fee for this season is paid, and, with ``paid_by``, paid on or before that date."""
    wanted = _unique(mids)
    if not wanted:
        return {}
    players = list(Player.objects.filter(mid__in=wanted))
    return _infos_for(season, players, paid_by=paid_by)


def player_infos_for(
    season: Season, players: Iterable[Player], *, paid_by: date | None = None
) -> dict[str, PlayerInfo]:
    """As :func:`player_infos`, for Player rows already loaded (two queries)."""
    return _infos_for(season, list(players), paid_by=paid_by)


def _infos_for(
    season: Season, players: list[Player], *, paid_by: date | None
) -> dict[str, PlayerInfo]:
    if not players:
        return {}
    ids = [p.pk for p in players]
    reps = {
        r.player_id: r
        for r in Representation.objects.filter(season=season, player_id__in=ids).select_related(
            "club__district"
        )
    }
    paid = {
        m.player_id: _is_paid(m.paid_on, paid_by)
        for m in Membership.objects.filter(season=season, player_id__in=ids)
    }
    return {p.mid: _info(p, reps.get(p.pk), paid.get(p.pk, False)) for p in players}


def player_info(season: Season, player: Player, *, paid_by: date | None = None) -> PlayerInfo:
    """One player's :class:`PlayerInfo` for ``season``."""
    return _infos_for(season, [player], paid_by=paid_by)[player.mid]


def membership_paid_on(season: Season, players: Iterable[Player]) -> dict[str, date | None]:
    """``MID → the date the season's SBF fee was paid`` (``None``: unpaid or no record); one
    query. R-TEAM-RES-1 needs the date to tell a fee paid within the grace period."""
    players = list(players)
    by_id = {p.pk: p.mid for p in players}
    out: dict[str, date | None] = dict.fromkeys(by_id.values())
    for m in Membership.objects.filter(season=season, player_id__in=list(by_id)):
        out[by_id[m.player_id]] = m.paid_on
    return out


# ---------------------------------------------------------------------------------------------
# Player look-up by name or MID (the club's forms)
# ---------------------------------------------------------------------------------------------

#: At most this many players answer a look-up.
LOOKUP_LIMIT = 15


def search_players(text: object, *, limit: int = LOOKUP_LIMIT) -> list[Player]:
    """The players a person means by ``text``: digits are a MID (leading zeros do not count,
    :func:`normalise_mid`), the exact MID first, then MIDs starting with it; words are parts
    of the first or last name, every word must match, case-insensitively also for å, ä, ö
    (``iregex``: SQLite's ``LIKE`` folds only ASCII letters). One query; by last name."""
    query = normalise_mid(text)
    if not query:
        return []
    if query.isdigit():
        players = list(
            Player.objects.filter(mid__startswith=query).order_by(Length("mid"), "mid")[:limit]
        )
        return players
    words = [w for w in query.replace(",", " ").split() if w]
    qs = Player.objects.all()
    for word in words:
        pattern = re.escape(word)
        qs = qs.filter(Q(first_name__iregex=pattern) | Q(last_name__iregex=pattern))
    return list(qs.order_by("last_name", "first_name", "mid")[:limit])


def player_lookup_rows(season: Season | None, players: list[Player]) -> list[dict]:
    """Each player found as the look-up shows them: name, MID, this season's club and whether
    the season's SBF membership is paid (R-GEN-2). Two queries."""
    infos = player_infos_for(season, players) if season is not None else {}
    rows = []
    for p in players:
        info = infos.get(p.mid)
        rows.append(
            {
                "mid": p.mid,
                "name": p.full_name,
                "club": info.club if info else "",
                "membership_paid": bool(info and info.membership_paid),
            }
        )
    return rows


def resolve_player_text(text: object) -> tuple[str, list[Player]]:
    """What a MID field holds → ``(MID, [])`` for a MID or a name that names one player, or
    ``("", candidates)`` for a name that names none or several (the form lists them)."""
    value = normalise_mid(text)
    if not value or value.isdigit():
        return value, []
    found = search_players(value, limit=LOOKUP_LIMIT)
    if len(found) == 1:
        return found[0].mid, []
    return "", found

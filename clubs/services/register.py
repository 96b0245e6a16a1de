"""The federation's member register brought in (issue 23): players, their representation
club and their membership for one season, from the file the register exports
(``ubf.rules.register`` reads it; ../shared/CONTRACT.md "Season data").

:func:`preview_register` compares the file with the database and saves nothing: new players,
changed ones (each field old → new), unchanged, players in the database the file no longer
lists ("missing"), clubs the database does not know yet (created on apply, in the district the
file names), and every row with a problem by its row number. :func:`apply_register` saves that
preview in one transaction: a row with a problem is never saved, the others are; the same file
twice changes nothing the second time. A missing player is never deleted (entries and results
stay theirs): ``Player.in_register`` is set to False, back to True when a later file lists the
player again. Every change is in the player's history (django-simple-history, on Player,
Representation and Membership), with the change reason ``register``.

The number of queries does not grow with the rows: the database is read once per table and
written with bulk operations (benchmarks/register_import.py measures it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from clubs import clock, public_cache
from clubs.locks import lock_own_row
from clubs.models import Club, District, Membership, Player, Representation, Season
from clubs.permissions import is_tk
from clubs.services.base import record_decision, require, require_open_season
from ubf.rules.i18n import gettext_noop
from ubf.rules.register import (
    ClubList,
    Register,
    RegisterProblem,
    RegisterRow,
    read_clubs,
    read_register,
)

CHANGE_REASON = "register"

#: The fields a register row sets, with the label a preview shows (msgids).
FIELD_LABELS = {
    "first_name": gettext_noop("förnamn"),
    "last_name": gettext_noop("efternamn"),
    "birth_year": gettext_noop("födelseår"),
    "gender": gettext_noop("kön"),
    "in_register": gettext_noop("i registret"),
    "club": gettext_noop("klubb"),
    "paid": gettext_noop("betald"),
}


@dataclass
class Change:
    """A player the file changes: the row and each field's old → new value (as shown)."""

    row: RegisterRow
    fields: dict[str, tuple[Any, Any]]

    @property
    def items(self) -> list[tuple[str, Any, Any]]:
        return [(FIELD_LABELS[k], old, new) for k, (old, new) in self.fields.items()]


@dataclass
class Missing:
    mid: str
    name: str
    already_marked: bool


@dataclass
class RegisterPreview:
    season: Season
    register: Register
    new: list[RegisterRow] = field(default_factory=list)
    changed: list[Change] = field(default_factory=list)
    unchanged: list[RegisterRow] = field(default_factory=list)
    missing: list[Missing] = field(default_factory=list)
    #: Clubs the file names that the database does not have: (name, district code).
    unknown_clubs: list[tuple[str, str]] = field(default_factory=list)
    #: Known clubs the file puts in another district: (name, old code, new code).
    club_districts: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def problems(self) -> list[RegisterProblem]:
        return self.register.problems

    @property
    def counts(self) -> dict[str, int]:
        return {
            "new": len(self.new),
            "changed": len(self.changed),
            "unchanged": len(self.unchanged),
            "missing": len(self.missing),
            "problems": self.register.problem_rows,
        }

    def summary(self) -> str:
        """The line the command prints last (CONTRACT.md), the page's figures."""
        c = self.counts
        return (
            f"register: {c['new']} new, {c['changed']} changed, {c['unchanged']} unchanged, "
            f"{c['missing']} missing, {c['problems']} problems"
        )

    @property
    def has_changes(self) -> bool:
        return bool(
            self.new
            or self.changed
            or self.unknown_clubs
            or self.club_districts
            or any(not m.already_marked for m in self.missing)
        )


def read_file(data: bytes, filename: str) -> Register:
    """The register in an uploaded file (raises ``ubf.rules.register.RegisterUnreadable``)."""
    return read_register(data, filename)


def _club_key(name: str) -> str:
    return name.casefold()


def preview_register(season: Season, register: Register) -> RegisterPreview:
    """Compare ``register`` with the database for ``season``; nothing is saved."""
    preview = RegisterPreview(season=season, register=register)
    clubs = {
        _club_key(c.name): c
        for c in Club.objects.select_related("district").only("id", "name", "district__code")
    }
    players = {
        p.mid: p
        for p in Player.objects.only(
            "id", "mid", "first_name", "last_name", "birth_year", "gender", "in_register"
        )
    }
    reps = dict(Representation.objects.filter(season=season).values_list("player_id", "club__name"))
    paid = dict(Membership.objects.filter(season=season).values_list("player_id", "paid_on"))
    for name, district in register.clubs.items():
        club = clubs.get(_club_key(name))
        if club is None:
            preview.unknown_clubs.append((name, district))
        elif club.district.code != district:
            preview.club_districts.append((club.name, club.district.code, district))
    for row in register.rows:
        player = players.get(row.mid)
        if player is None:
            preview.new.append(row)
            continue
        changes: dict[str, tuple[Any, Any]] = {}
        for name in ("first_name", "last_name"):
            if getattr(player, name) != getattr(row, name):
                changes[name] = (getattr(player, name), getattr(row, name))
        for name in ("birth_year", "gender"):  # empty in the file: not given, kept
            value = getattr(row, name)
            if value is not None and getattr(player, name) != value:
                changes[name] = (getattr(player, name), value)
        if not player.in_register:
            changes["in_register"] = (False, True)
        club_now = reps.get(player.pk)
        if row.club and (club_now or "").casefold() != row.club.casefold():
            changes["club"] = (club_now or "", row.club)
        was_paid = paid.get(player.pk) is not None
        if was_paid != row.paid:
            changes["paid"] = (was_paid, row.paid)
        if changes:
            preview.changed.append(Change(row, changes))
        else:
            preview.unchanged.append(row)
    listed = {row.mid for row in register.rows} | register.problem_mids
    for mid, player in players.items():
        if mid not in listed:
            preview.missing.append(
                Missing(mid, f"{player.first_name} {player.last_name}", not player.in_register)
            )
    preview.missing.sort(key=lambda m: m.name)
    return preview


@transaction.atomic
def apply_register(user, season: Season, register: Register) -> RegisterPreview:
    """Save the register for ``season`` (TK; ``user`` None is the operator at the command
    line, ``manage.py import_register --apply``). Returns the preview that was applied."""
    if user is not None:
        require(is_tk(user), gettext_noop("Endast UBF TK kan läsa in medlemsregistret."))
    season = lock_own_row(Season.objects.all(), season.pk)
    require_open_season(season)
    preview = preview_register(season, register)
    history_user = user if user is not None and user.is_authenticated else None
    today = clock.today()

    # Districts and clubs the file names (the district balance and the out-of-district rules
    # read the club's district: R-TEAM-3, R-PAIR-1/2).
    districts = {d.code: d for d in District.objects.all()}
    codes = {code for _n, code in preview.unknown_clubs} | {
        new for _n, _o, new in preview.club_districts
    }
    new_districts = [District(code=c, name=c) for c in sorted(codes - set(districts))]
    if new_districts:
        District.objects.bulk_create(new_districts)
        districts = {d.code: d for d in District.objects.all()}
    if preview.unknown_clubs:
        Club.objects.bulk_create(
            [
                Club(name=name, short_name=name[:30], district=districts[code])
                for name, code in preview.unknown_clubs
            ]
        )
    if preview.club_districts:
        moved = {_club_key(n): new for n, _o, new in preview.club_districts}
        objs = list(Club.objects.filter(name__in=[n for n, _o, _n in preview.club_districts]))
        for club in objs:
            club.district = districts[moved[_club_key(club.name)]]
        Club.objects.bulk_update(objs, ["district"])
    clubs = {_club_key(c.name): c.pk for c in Club.objects.only("id", "name")}

    # Players: new, changed, missing.
    if preview.new:
        bulk_create_with_history(
            [
                Player(
                    mid=r.mid,
                    first_name=r.first_name,
                    last_name=r.last_name,
                    birth_year=r.birth_year,
                    gender=r.gender or "",
                    in_register=True,
                )
                for r in preview.new
            ],
            Player,
            default_user=history_user,
            default_change_reason=CHANGE_REASON,
        )
    player_fields = ("first_name", "last_name", "birth_year", "gender", "in_register")
    changed_players = {c.row.mid: c for c in preview.changed if set(c.fields) & set(player_fields)}
    marked_missing = {m.mid for m in preview.missing if not m.already_marked}
    to_fetch = set(changed_players) | marked_missing
    updates = []
    for player in Player.objects.filter(mid__in=to_fetch) if to_fetch else []:
        if player.mid in marked_missing:
            player.in_register = False
        else:
            for name, (_old, new) in changed_players[player.mid].fields.items():
                if name in player_fields:
                    setattr(player, name, new)
        updates.append(player)
    if updates:
        bulk_update_with_history(
            updates,
            Player,
            list(player_fields),
            default_user=history_user,
            default_change_reason=CHANGE_REASON,
        )

    # Representation and membership for the season, for every good row that changes them.
    rows = {r.mid: r for r in preview.new}
    rows.update({c.row.mid: c.row for c in preview.changed if {"club", "paid"} & set(c.fields)})
    ids = dict(Player.objects.filter(mid__in=list(rows)).values_list("mid", "id")) if rows else {}
    reps = {
        r.player_id: r
        for r in Representation.objects.filter(season=season, player_id__in=list(ids.values()))
    }
    members = {
        m.player_id: m
        for m in Membership.objects.filter(season=season, player_id__in=list(ids.values()))
    }
    new_reps, moved_reps, new_members, paid_members = [], [], [], []
    for mid, row in rows.items():
        pid = ids[mid]
        if row.club:
            club_id = clubs[_club_key(row.club)]
            rep = reps.get(pid)
            if rep is None:
                new_reps.append(Representation(player_id=pid, season=season, club_id=club_id))
            elif rep.club_id != club_id:
                rep.club_id = club_id
                moved_reps.append(rep)
        member = members.get(pid)
        paid_on = today if row.paid else None
        if member is None:
            new_members.append(Membership(player_id=pid, season=season, paid_on=paid_on))
        elif member.is_paid != row.paid:
            member.paid_on = paid_on
            paid_members.append(member)
    history = {"default_user": history_user, "default_change_reason": CHANGE_REASON}
    if new_reps:
        bulk_create_with_history(new_reps, Representation, **history)
    if moved_reps:
        bulk_update_with_history(moved_reps, Representation, ["club"], **history)
    if new_members:
        bulk_create_with_history(new_members, Membership, **history)
    if paid_members:
        bulk_update_with_history(paid_members, Membership, ["paid_on"], **history)

    if preview.has_changes:
        record_decision(
            "clubs.register.imported",
            season,
            user=user,
            reason=preview.summary(),
            clause="R-GEN-2",
            season=season,
            counts=preview.counts,
            clubs_created=[n for n, _c in preview.unknown_clubs],
            problems=[p.message_sv for p in preview.problems],
        )
        # Written in bulk (no signals): names and clubs show on every public page.
        public_cache.changed(everything=True)
    return preview


# ------------------------------------------------------------------------------ club list


CLUB_LABELS = {"sbf_number": gettext_noop("klubbnummer"), "district": gettext_noop("distrikt")}


@dataclass
class ClubPreview:
    new: list[tuple[str, str, str]] = field(default_factory=list)  # number, name, district
    changed: list[tuple[str, dict[str, tuple[str, str]]]] = field(default_factory=list)
    unchanged: int = 0
    problems: list[RegisterProblem] = field(default_factory=list)

    @property
    def changed_items(self) -> list[tuple[str, list[tuple[str, str, str]]]]:
        """Each changed club with (label msgid, old, new) per field, as the page shows it."""
        return [
            (name, [(CLUB_LABELS[k], old, new) for k, (old, new) in changes.items()])
            for name, changes in self.changed
        ]

    def summary(self) -> str:
        return (
            f"clubs: {len(self.new)} new, {len(self.changed)} changed, {self.unchanged} "
            f"unchanged, {len(self.problems)} problems"
        )


def read_club_file(data: bytes, filename: str) -> ClubList:
    return read_clubs(data, filename)


def preview_clubs(clubs: ClubList) -> ClubPreview:
    """Compare a club list (number, name, district) with the database; nothing is saved."""
    preview = ClubPreview(problems=list(clubs.problems))
    known = {_club_key(c.name): c for c in Club.objects.select_related("district")}
    for row in clubs.rows:
        club = known.get(_club_key(row.name))
        if club is None:
            preview.new.append((row.number, row.name, row.district))
            continue
        changes = {}
        if row.number and club.sbf_number != row.number:
            changes["sbf_number"] = (club.sbf_number, row.number)
        if club.district.code != row.district:
            changes["district"] = (club.district.code, row.district)
        if changes:
            preview.changed.append((club.name, changes))
        else:
            preview.unchanged += 1
    return preview


@transaction.atomic
def apply_clubs(user, clubs: ClubList) -> ClubPreview:
    """Save a club list: new clubs created, a changed number or district updated (TK;
    ``user`` None is the operator at the command line)."""
    if user is not None:
        require(is_tk(user), gettext_noop("Endast UBF TK kan läsa in klubbregistret."))
    preview = preview_clubs(clubs)
    codes = {d for _n, _m, d in preview.new} | {
        ch["district"][1] for _n, ch in preview.changed if "district" in ch
    }
    districts = {d.code: d for d in District.objects.all()}
    missing = sorted(codes - set(districts))
    if missing:
        District.objects.bulk_create([District(code=c, name=c) for c in missing])
        districts = {d.code: d for d in District.objects.all()}
    Club.objects.bulk_create(
        [
            Club(name=name, short_name=name[:30], sbf_number=number, district=districts[code])
            for number, name, code in preview.new
        ]
    )
    if preview.changed:
        by_name = {_club_key(n): ch for n, ch in preview.changed}
        objs = list(Club.objects.filter(name__in=[n for n, _c in preview.changed]))
        for club in objs:
            ch = by_name[_club_key(club.name)]
            if "sbf_number" in ch:
                club.sbf_number = ch["sbf_number"][1]
            if "district" in ch:
                club.district = districts[ch["district"][1]]
        Club.objects.bulk_update(objs, ["sbf_number", "district"])
    if preview.new or preview.changed:
        public_cache.changed(everything=True)  # bulk writes (no signals); clubs show everywhere
    return preview


__all__ = [
    "ClubPreview",
    "RegisterPreview",
    "apply_clubs",
    "apply_register",
    "preview_clubs",
    "preview_register",
    "read_club_file",
    "read_file",
    "require_open_season",
]

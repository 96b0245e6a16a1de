"""Who may do what, scoped to objects: TK for everything, a club official for their club's
heats, a heat responsible for their heat, a captain for their team, the public reads.

Services call these inside their transaction; views never decide permissions themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser

if TYPE_CHECKING:  # pragma: no cover
    from django.contrib.auth.models import User

TK_GROUP = "TK"


def is_tk(user: User | AnonymousUser | None) -> bool:
    """TK: superusers and members of the group "TK"."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return user.groups.filter(name=TK_GROUP).exists()


def club_ids_of(user) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(user.club_roles.values_list("club_id", flat=True))


def can_act_for_club(user, club_id: int) -> bool:
    return is_tk(user) or club_id in club_ids_of(user)


def can_manage_pair_heat(user, heat) -> bool:
    """TK, or an official of one of the heat's arranging clubs."""
    if is_tk(user):
        return True
    clubs = club_ids_of(user)
    return bool(clubs) and heat.clubs.filter(id__in=clubs).exists()


def can_manage_team_heat(user, heat) -> bool:
    """TK, the heat responsible, or an official of one of the arranging clubs."""
    if is_tk(user):
        return True
    if user is None or not user.is_authenticated:
        return False
    if heat.responsible_user_id == user.id:
        return True
    clubs = club_ids_of(user)
    return bool(clubs) and heat.organisers.filter(club_id__in=clubs).exists()


def can_manage_team(user, team) -> bool:
    """TK, the team's captain, or whoever manages the team's heat."""
    if is_tk(user):
        return True
    if user is None or not user.is_authenticated:
        return False
    if team.captain_user_id == user.id:
        return True
    return team.heat is not None and can_manage_team_heat(user, team.heat)


#: The workplaces a user lands on after logging in, most specific first (:func:`workplace`).
TK_WORKPLACE, CLUB_WORKPLACE, CAPTAIN_WORKPLACE = "tk", "club", "captain"


def workplace(user) -> str | None:
    """The user's main workplace: ``"tk"`` for TK, ``"club"`` for a club official,
    ``"captain"`` for a team's captain (``Team.captain_user``, read through its reverse
    relation so the core need not import ``teams``), ``None`` for everyone else. The login
    sends each user there (``portal.views.landing``)."""
    if user is None or not user.is_authenticated:
        return None
    if is_tk(user):
        return TK_WORKPLACE
    if club_ids_of(user):
        return CLUB_WORKPLACE
    if user.captained_teams.exists():
        return CAPTAIN_WORKPLACE
    return None

"""What a token may write: the heats of its club, its one heat, or one competition's final.
A session (the site's login) has no scope of its own: the services' permission checks decide,
as on the pages. The owner's permissions are checked by the services in either case."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from pairs.models import PairHeat
from teams.models import TeamHeat

from .models import ApiToken


def token_of(request) -> ApiToken | None:
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, ApiToken) else None


def _club_arranges(club_id: int, heat_id: int) -> bool:
    return (
        PairHeat.objects.filter(pk=heat_id, clubs=club_id).exists()
        or TeamHeat.objects.filter(pk=heat_id, clubs=club_id).exists()
    )


def heat_allowed(token: ApiToken, heat_id: int) -> bool:
    if token.heat_id is not None:
        return token.heat_id == heat_id
    if token.club_id is not None:
        return _club_arranges(token.club_id, heat_id)
    return False


def require_heat(request, heat_id: int | None, competition_id: int | None = None) -> None:
    """Refuse a token whose scope does not hold the heat ``heat_id`` (or, for ``heat_id``
    None, the final of ``competition_id``)."""
    token = token_of(request)
    if token is None:
        return
    if heat_id is None:
        allowed = token.final_of_id is not None and token.final_of_id == competition_id
    else:
        allowed = heat_allowed(token, heat_id)
    if not allowed:
        raise PermissionDenied(
            _("API-nyckeln %(token)s gäller inte detta heat eller denna final.")
            % {"token": token.key_prefix}
        )


def require_team(request, team) -> None:
    """A team's roster: within the scope of the team's heat (a team entered directly in the
    final: within the final's scope)."""
    require_heat(request, team.heat_id, team.competition_id)


def require_match(request, match) -> None:
    require_heat(request, match.heat_id, match.competition_id)

"""Template context for the navigation: which workplaces the logged-in user has. Lazy, so a
page that does not show the navigation's links asks nothing; one query each when it does."""

from django.utils.functional import SimpleLazyObject

from clubs.models import ClubOfficial
from clubs.permissions import is_tk
from teams.models import Team


def workplaces(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_club": False, "nav_team": False, "nav_tk": False}
    return {
        "nav_tk": SimpleLazyObject(lambda: is_tk(user)),
        "nav_club": SimpleLazyObject(
            lambda: is_tk(user) or ClubOfficial.objects.filter(user=user).exists()
        ),
        "nav_team": SimpleLazyObject(lambda: Team.objects.filter(captain_user=user).exists()),
    }

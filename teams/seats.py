"""The DM Lag final's seats (:class:`teams.models.TeamFinalSeat`) and the cache they keep on
the team: ``Team.in_final`` / ``Team.final_number`` are written here and nowhere else in the
application (docs/architecture.md, "one seat lifecycle"). The lifecycle itself is
``clubs.seats``, shared with the pairs final."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from clubs import seats
from teams.models import Team, TeamCompetition, TeamFinalSeat


def mark_finalists(
    competition: TeamCompetition, *, seats_only: bool = False, also: Iterable[int] = ()
) -> None:
    """R-TEAM-ADV-1, R-TEAM-REPL-1: every team holding a seat (not vacated) is in the final with
    its seat's number; a seat without a number takes its team's number if it had one, else the
    next free number; a team whose only seats are vacated is out of the final. Teams marked for
    the final without any seat row (a final set up by hand, before any allocation) are left as
    they are, unless ``seats_only``: then the seats alone say who is in the final. ``also``:
    teams that held a seat row before the caller deleted it (a provisional seat the allocation
    no longer gives them): marked from the seats too, so out of the final."""
    rows = list(
        TeamFinalSeat.objects.filter(competition=competition).select_related("team").order_by("id")
    )
    taken = {s.number for s in rows if s.number}
    for seat in rows:  # a seat remembers the number its first holder had
        number = seat.team.final_number if seat.team_id else None
        if seat.number is None and number and number not in taken:
            seat.number = number
            taken.add(number)
            seat.save(update_fields=["number"])
    number = 0
    for seat in rows:
        if seat.number is None and seat.is_held:
            number += 1
            while number in taken:
                number += 1
            seat.number = number
            taken.add(number)
            seat.save(update_fields=["number"])
    held = {s.team_id: s.number for s in rows if s.is_held}  # as seats.held() reads it
    seated = {s.team_id for s in rows if s.team_id} | set(also)
    changed = []
    teams = Team.objects.filter(competition=competition)
    teams = (
        teams.filter(Q(pk__in=seated) | Q(in_final=True))
        if seats_only
        else teams.filter(pk__in=seated)
    )
    for team in teams:
        in_final, final_number = team.id in held, held.get(team.id)
        if (team.in_final, team.final_number) != (in_final, final_number):
            team.in_final, team.final_number = in_final, final_number
            changed.append(team)
    Team.objects.bulk_update(changed, ["in_final", "final_number"])


def direct_seat(team: Team) -> TeamFinalSeat:
    """R-TEAM-DIRECT-1: last season's champions registered by TK hold the final's direct seat
    from now on (the recompute keeps it)."""
    seat = TeamFinalSeat(
        competition_id=team.competition_id,
        key=str(team.id),
        team=team,
        source=TeamFinalSeat.Source.DIRECT,
    )
    seat.explain("R-TEAM-DIRECT-1", seats.seat_reason(TeamFinalSeat.Source.DIRECT))
    seat.save()
    mark_finalists(team.competition)
    return seat


def number_finalists(competition: TeamCompetition, order: list[int]) -> None:
    """The final's numbers in ``order`` (team ids, number 1 first), written on the seats the
    teams hold (a schedule drawn for the final); other held seats get the next free numbers."""
    rows = list(TeamFinalSeat.objects.filter(competition=competition).order_by("id"))
    position = {team_id: i for i, team_id in enumerate(order, start=1)}
    for seat in rows:
        seat.number = position.get(seat.team_id) if seat.is_held else None
    TeamFinalSeat.objects.bulk_update(rows, ["number"])
    mark_finalists(competition, seats_only=True)

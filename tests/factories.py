"""factory_boy factories for the season model. Defaults build a valid 2016-2017 setting."""

from datetime import date
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model

from clubs.models import (
    Club,
    ClubOfficial,
    District,
    FinalSeat,
    Membership,
    Player,
    Representation,
    Season,
)
from pairs.models import PairCompetition, PairEntry, PairHeat
from teams.models import (
    Match,
    RosterEntry,
    Team,
    TeamCompetition,
    TeamHeat,
    TeamHeatOrganiser,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.se")
    password = factory.django.Password("pw-test-123")


class DistrictFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = District
        django_get_or_create = ["code"]

    code = "UBF"
    name = "Upplands Bridgeförbund"


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    district = factory.SubFactory(DistrictFactory)
    name = factory.Sequence(lambda n: f"BK Uppland {n}")
    short_name = factory.Sequence(lambda n: f"BKU{n}")
    town = "Uppsala"


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season
        django_get_or_create = ["name"]

    name = "2016-2017"
    start_year = 2016
    is_current = True


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    mid = factory.Sequence(lambda n: str(100000 + n))
    first_name = factory.Sequence(lambda n: f"Anna{n}")
    last_name = factory.Sequence(lambda n: f"Åberg{n}")
    gender = "F"
    birth_year = 1960
    max_pin = 1


def member(season=None, club=None, paid=True, **kwargs) -> Player:
    """A player who represents ``club`` (a UBF club by default) and has paid (or not)."""
    season = season or SeasonFactory()
    club = club or ClubFactory()
    player = PlayerFactory(**kwargs)
    Representation.objects.create(player=player, season=season, club=club)
    Membership.objects.create(
        player=player, season=season, paid_on=date(2016, 8, 1) if paid else None
    )
    return player


class ClubOfficialFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubOfficial

    user = factory.SubFactory(UserFactory)
    club = factory.SubFactory(ClubFactory)
    role = ClubOfficial.Role.HEAT_RESPONSIBLE


class PairCompetitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PairCompetition
        django_get_or_create = ["season", "discipline"]

    season = factory.SubFactory(SeasonFactory)
    discipline = "open"
    qualifying_start = date(2017, 1, 1)
    qualifying_end = date(2017, 3, 31)
    heat_registration_deadline = date(2016, 12, 1)
    final_date = date(2017, 4, 22)
    final_venue = "Bridgens hus, Uppsala"


class PairHeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PairHeat
        skip_postgeneration_save = True

    competition = factory.SubFactory(PairCompetitionFactory)
    name = factory.Sequence(lambda n: f"Kval {n}")
    heat_type = "silver"
    first_date = date(2017, 2, 10)
    table_fee = Decimal("50")
    status = "approved"

    @factory.post_generation
    def clubs(self, create, extracted, **kwargs):
        if create:
            self.clubs.set(extracted or [ClubFactory()])


class PairEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PairEntry

    heat = factory.SubFactory(PairHeatFactory)
    player1 = factory.LazyAttribute(lambda o: member(season=o.heat.competition.season))
    player2 = factory.LazyAttribute(lambda o: member(season=o.heat.competition.season))
    pair_number = factory.Sequence(lambda n: str(n + 1))


class TeamCompetitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TeamCompetition
        django_get_or_create = ["season"]

    season = factory.SubFactory(SeasonFactory)
    qualifying_start = date(2016, 10, 1)
    qualifying_end = date(2017, 1, 31)
    heat_registration_deadline = date(2016, 9, 15)
    final_day1 = date(2017, 3, 4)
    final_day2 = date(2017, 3, 5)
    final_venue = "Bridgens hus, Uppsala"


class TeamHeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TeamHeat
        skip_postgeneration_save = True

    competition = factory.SubFactory(TeamCompetitionFactory)
    name = factory.Sequence(lambda n: f"Lagkval {n}")
    venue = "Uppsala"
    responsible_name = "Heat Ansvarig"
    responsible_email = "heat@example.se"
    boards_per_match = 16
    first_date = date(2016, 11, 5)
    last_date = date(2016, 11, 6)
    start_fee = Decimal("500")
    status = "approved"

    @factory.post_generation
    def organisers(self, create, extracted, **kwargs):
        if create:
            for club in extracted or [ClubFactory()]:
                TeamHeatOrganiser.objects.create(heat=self, club=club)


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team
        skip_postgeneration_save = True

    heat = factory.SubFactory(TeamHeatFactory)
    competition = factory.LazyAttribute(lambda o: o.heat.competition)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Lag {n}")
    captain = factory.LazyAttribute(lambda o: member(season=o.competition.season))
    address = "Storgatan 1, 753 20 Uppsala"
    phone = "070-123 45 67"
    email = "kapten@example.se"

    @factory.post_generation
    def players(self, create, extracted, **kwargs):
        """players=N adds N roster players (captain first)."""
        if not create or not extracted:
            return
        RosterEntry.objects.create(team=self, player=self.captain)
        for _ in range(int(extracted) - 1):
            RosterEntry.objects.create(team=self, player=member(season=self.competition.season))

    @factory.post_generation
    def final_seat(self, create, extracted, **kwargs):
        """final_seat=N (or True): the team holds a seat in the final, numbered N, as the
        recompute's allocation gives it (a provisional seat row, R-TEAM-ADV-1)."""
        if create and extracted:
            seat_in_final(self, None if extracted is True else int(extracted))


def seat_in_final(team, number: int | None = None) -> FinalSeat:
    """A seat in the DM Lag final for ``team``, as the recompute's allocation creates it (a
    provisional seat of its heat, saying why), with its number in the final. Who is in the
    final is read from these rows only (``clubs.seats.with_seats``)."""
    from clubs import seats

    seat = FinalSeat(
        competition_id=team.competition_id,
        key=str(team.pk),
        holder=team,
        origin_heat_id=team.heat_id,
        source=FinalSeat.Source.ALLOCATION,
        number=number,
    )
    heat = team.heat.name if team.heat_id else ""
    seat.explain("R-TEAM-ADV-1", seats.seat_reason(seat.source, heat=heat, n=1, seats=1))
    seat.save()
    if number is None:
        seats.number_seats(team.competition_id)
    return seat


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    home = factory.SubFactory(TeamFactory)
    away = factory.LazyAttribute(lambda o: TeamFactory(heat=o.home.heat))
    competition = factory.LazyAttribute(lambda o: o.home.competition)
    heat = factory.LazyAttribute(lambda o: o.home.heat)
    stage = "kval"
    round = 1
    boards = 16


def users_by_role(team=None, pair_heat=None) -> dict:
    """The permission-matrix roles around ``team`` (and/or ``pair_heat``): ``anonymous``,
    ``club_official`` (an official of an unrelated club), ``heat_responsible`` (the team heat's
    responsible user and an official of the pair heat's arranging club), ``captain`` (the
    team's captain account) and ``tk`` (a member of the group "TK")."""
    from django.contrib.auth.models import AnonymousUser, Group

    official = UserFactory()
    ClubOfficialFactory(user=official, role=ClubOfficial.Role.CHAIR)
    responsible = UserFactory()
    captain = UserFactory()
    tk = UserFactory()
    tk.groups.add(Group.objects.get_or_create(name="TK")[0])
    if team is not None:
        team.captain_user = captain
        team.save()
        if team.heat is not None:
            team.heat.responsible_user = responsible
            team.heat.save()
    if pair_heat is not None:
        for club in pair_heat.clubs.all():
            ClubOfficial.objects.create(
                user=responsible, club=club, role=ClubOfficial.Role.HEAT_RESPONSIBLE
            )
    return {
        "anonymous": AnonymousUser(),
        "club_official": official,
        "heat_responsible": responsible,
        "captain": captain,
        "tk": tk,
    }


def official(club, role=ClubOfficial.Role.CHAIR):
    """A user who is an official of ``club`` (its chair unless ``role`` says otherwise)."""
    return ClubOfficialFactory(club=club, role=role).user


def tk_group_member():
    """A user in the group "TK" (not a superuser)."""
    from django.contrib.auth.models import Group

    user = UserFactory()
    user.groups.add(Group.objects.get_or_create(name="TK")[0])
    return user


def entry_world(season, club, **objects):
    """The setting of the entry tests: ``season``, ``club`` (in UBF) and a club outside UBF
    (``sth``, "BK Stockholm" of district STH), the ``objects`` given (competition, heats, ...),
    then an ``official`` of ``club`` and ``tk`` (a superuser), created in that order."""
    from types import SimpleNamespace

    sth = ClubFactory(name="BK Stockholm", district=DistrictFactory(code="STH", name="Sthlm"))
    return SimpleNamespace(
        season=season,
        club=club,
        sth=sth,
        **objects,
        official=ClubOfficialFactory(club=club).user,
        tk=UserFactory(is_superuser=True, is_staff=True),
    )


def world_member(w, **kwargs) -> Player:
    """A member of ``w.club`` (or of ``club=``) in ``w.season``; see :func:`member`."""
    return member(w.season, kwargs.pop("club", w.club), **kwargs)


def accepted_upload(competition, heat=None, name: str = "x.pbn"):
    """An accepted ResultUpload of ``heat`` (or of the final when ``heat`` is None) whose rows
    a test writes itself."""
    from django.core.files.base import ContentFile

    from results.models import ResultUpload

    upload = ResultUpload(
        competition=competition,
        heat=heat,
        original_name=name,
        format="usebio" if name.endswith(".xml") else "pbn",
        checksum=f"{competition.pk}-{heat.pk if heat else 'final'}-{name}",
        size=1,
        status=ResultUpload.Status.ACCEPTED,
    )
    upload.file.save(name, ContentFile(b"x"), save=False)
    upload.save()
    return upload


def final_teams(competition, **filters) -> list[Team]:
    """The teams holding a seat in ``competition``'s final (the seat rows, as every page reads
    them), each with its ``final_seat_number``."""
    from clubs import seats

    return list(seats.holding(Team.objects.filter(competition=competition, **filters)))

"""DM Lag: competition, heats, teams and rosters, dispensations, matches, line-ups, board
results, penalties and walk-overs."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs import clock, seats
from clubs.models import (
    Club,
    Competition,
    Decided,
    Entry,
    Heat,
    HeatChangeRequest,
    Player,
    Season,
    SeatOffer,
)


class TeamCompetition(Competition):
    """DM Lag of a season: qualifying period, heat registration deadline, final days. One per
    season: the parent :class:`clubs.models.Competition`'s ``discipline`` is always "teams"."""

    qualifying_start = models.DateField(_("kvalperiod från"))
    qualifying_end = models.DateField(_("kvalperiod till"))
    heat_registration_deadline = models.DateField(_("sista dag att anmäla kvalheat"))
    final_day1 = models.DateField(_("centraldag 1"))
    final_day2 = models.DateField(_("centraldag 2"))
    final_venue = models.CharField(_("finalens spelplats"), max_length=120)
    is_direct_final = models.BooleanField(_("direktfinal"), default=False)
    sm_semifinal_places = models.PositiveSmallIntegerField(
        _("platser till SM-semifinal (från SBF)"), null=True, blank=True
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("lagtävling")
        verbose_name_plural = _("lagtävlingar")
        constraints = [
            models.CheckConstraint(
                condition=Q(qualifying_start__lte=F("qualifying_end")),
                name="team_qualifying_period_ordered",
            ),
            models.CheckConstraint(
                condition=Q(final_day1__lte=F("final_day2")), name="team_final_days_ordered"
            ),
        ]

    def save(self, *args, **kwargs):
        self.discipline = Competition.Discipline.TEAMS
        super().save(*args, **kwargs)


class TeamHeat(Heat):
    """A team qualifier heat (R-TEAM-KVAL-1..6, R-TEAM-REG-1), played from the parent
    :class:`clubs.models.Heat`'s ``first_date`` to its ``last_date`` (never empty here)."""

    competition = models.ForeignKey(
        TeamCompetition, on_delete=models.CASCADE, related_name="heats", verbose_name=_("tävling")
    )
    clubs = models.ManyToManyField(
        Club, through="TeamHeatOrganiser", related_name="team_heats", verbose_name=_("arrangörer")
    )
    responsible_name = models.CharField(_("heatansvarig"), max_length=120)
    responsible_email = models.EmailField(_("heatansvarigs e-post"))
    responsible_phone = models.CharField(_("heatansvarigs telefon"), max_length=30, blank=True)
    responsible_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="responsible_heats",
        verbose_name=_("heatansvarig (konto)"),
    )
    boards_per_match = models.PositiveSmallIntegerField(_("brickor per match"))
    dealt_at_table = models.BooleanField(_("givarna ges vid bordet"), default=False)
    entries_close = models.DateField(_("sista anmälningsdag för lag"), null=True, blank=True)
    start_fee = models.DecimalField(_("startavgift"), max_digits=7, decimal_places=2)
    table_fee_per_match = models.DecimalField(
        _("bordsavgift per match"), max_digits=7, decimal_places=2, default=0
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("lagkval (heat)")
        verbose_name_plural = _("lagkval (heat)")
        ordering = ["competition", "first_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(boards_per_match__gte=1), name="team_heat_boards_positive"
            ),
        ]

    def save(self, *args, **kwargs):
        self.kind = Heat.Kind.TEAMS
        if self.last_date is None:
            self.last_date = self.first_date  # a one-day team heat ends on its first day
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.name


class TeamHeatChangeRequest(HeatChangeRequest):
    """A request to move or cancel a team heat after the registration deadline, which TK
    approves or rejects (as R-PAIR-KVAL-2 for pair heats)."""

    heat = models.ForeignKey(
        TeamHeat, on_delete=models.CASCADE, related_name="change_requests", verbose_name=_("heat")
    )
    history = HistoricalRecords()

    class Meta(HeatChangeRequest.Meta):
        pass


class TeamHeatOrganiser(models.Model):
    """An arranging club of a team heat; a club arranges at most one heat a season
    (R-TEAM-KVAL-1), enforced by the database through the denormalised competition."""

    heat = models.ForeignKey(
        TeamHeat, on_delete=models.CASCADE, related_name="organisers", verbose_name=_("heat")
    )
    club = models.ForeignKey(Club, on_delete=models.PROTECT, verbose_name=_("klubb"))
    competition = models.ForeignKey(
        TeamCompetition, on_delete=models.CASCADE, editable=False, verbose_name=_("tävling")
    )

    class Meta:
        verbose_name = _("arrangör")
        verbose_name_plural = _("arrangörer")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "club"], name="one_team_heat_per_club_and_competition"
            )
        ]

    def __str__(self) -> str:
        return str(self.club)

    def save(self, *args, **kwargs):
        self.competition_id = self.heat.competition_id
        super().save(*args, **kwargs)


class Team(Entry):
    """A team entered in a heat (R-TEAM-REG-2), or directly in the final (R-TEAM-DIRECT-1): a
    kind of :class:`clubs.models.Entry`, whose id it has (the id of ``/lag/lag/<id>/``)."""

    class Status(models.TextChoices):
        ENTERED = "entered", _("anmält")
        WITHDRAWN = "withdrawn", _("återtaget")
        EXCLUDED = "excluded", _("uteslutet (W.O.)")
        DISQUALIFIED = "disqualified", _("diskvalificerat")

    competition = models.ForeignKey(
        TeamCompetition, on_delete=models.CASCADE, related_name="teams", verbose_name=_("tävling")
    )
    heat = models.ForeignKey(
        TeamHeat,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="teams",
        verbose_name=_("heat"),
    )
    number = models.PositiveSmallIntegerField(_("lagnummer i heatet"), null=True, blank=True)
    name = models.CharField(_("lagnamn"), max_length=80)
    captain = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="captaincies", verbose_name=_("lagkapten")
    )
    captain_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="captained_teams",
        verbose_name=_("lagkapten (konto)"),
    )
    address = models.CharField(_("adress"), max_length=200)
    phone = models.CharField(_("telefon"), max_length=30)
    email = models.EmailField(_("e-post"))
    is_direct_qualifier = models.BooleanField(_("direktkvalificerat"), default=False)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.ENTERED
    )
    status_reason = models.TextField(_("skäl"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("lag")
        verbose_name_plural = _("lag")
        ordering = ["competition", "heat", "number", "name"]
        constraints = [
            models.UniqueConstraint(fields=["heat", "number"], name="unique_team_number_in_heat"),
            models.UniqueConstraint(fields=["competition", "name"], name="unique_team_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.kind = Entry.Kind.TEAMS
        super().save(*args, **kwargs)

    @property
    def is_finalist(self) -> bool:
        """The team holds a seat in the final (:func:`clubs.seats.holds_seat`: a seat row of
        it not vacated; the ``holds_final_seat`` annotation of :func:`clubs.seats.with_seats`
        when the row was read with it)."""
        return seats.holds_seat(self)


class RosterEntry(models.Model):
    """A player on a team's roster (R-TEAM-2); 7th/8th players need a dispensation (R-TEAM-5)."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="roster", verbose_name=_("lag")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="roster_entries", verbose_name=_("spelare")
    )
    is_extra = models.BooleanField(_("7:e/8:e spelare"), default=False)
    added_on = models.DateField(_("tillagd"), default=clock.today, editable=False)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("lagmedlem")
        verbose_name_plural = _("laguppställning")
        ordering = ["team", "is_extra", "id"]
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="player_once_per_team")
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.team})"


class Dispensation(Decided):
    """R-TEAM-3 (district balance) or R-TEAM-5 (7th/8th player, per occasion). One model for
    both: the team asks (``request_reason``: its own words; for the district balance the
    captain's request on /mitt-lag/<team>/, or the one made when the team was entered, which
    the captain's request completes), TK grants or rejects with a reason (``Decided``)."""

    class Kind(models.TextChoices):
        EXTRA_PLAYER = "extra_player", _("7:e/8:e spelare")
        DISTRICT_BALANCE = "district_balance", _("distriktsbalans")

    kind = models.CharField(_("slag"), max_length=20, choices=Kind.choices)
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="dispensations", verbose_name=_("lag")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("spelare")
    )
    occasion = models.CharField(
        _("tillfälle"), max_length=120, blank=True, help_text=_("R-TEAM-5: vilket speltillfälle")
    )
    occasion_date = models.DateField(_("speldag"), null=True, blank=True)
    request_reason = models.TextField(_("lagets motivering"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("dispens")
        verbose_name_plural = _("dispenser")
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.team}"


class Match(models.Model):
    """A match of a heat (stage kval) or of the final. IMPs are stored as uploaded; VPs are
    computed from them (R-VP-*) and stored for fast standings."""

    class Stage(models.TextChoices):
        KVAL = "kval", _("kval")
        FINAL = "final", _("final")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("ej spelad")
        PLAYED = "played", _("spelad")
        WALKOVER = "walkover", _("W.O.")

    competition = models.ForeignKey(
        TeamCompetition,
        on_delete=models.CASCADE,
        related_name="matches",
        verbose_name=_("tävling"),
    )
    stage = models.CharField(_("etapp"), max_length=5, choices=Stage.choices)
    heat = models.ForeignKey(
        TeamHeat,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="matches",
        verbose_name=_("heat"),
    )
    round = models.PositiveSmallIntegerField(_("rond"))
    home = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="home_matches", verbose_name=_("hemmalag")
    )
    away = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="away_matches", verbose_name=_("bortalag")
    )
    boards = models.PositiveSmallIntegerField(_("brickor"))
    halves = models.PositiveSmallIntegerField(_("halvlekar"), default=2)
    played_on = models.DateField(_("speldag"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    imps_home = models.DecimalField(
        _("IMP hemma"), max_digits=6, decimal_places=2, null=True, blank=True
    )
    imps_away = models.DecimalField(
        _("IMP borta"), max_digits=6, decimal_places=2, null=True, blank=True
    )
    vp_home = models.DecimalField(
        _("VP hemma"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    vp_away = models.DecimalField(
        _("VP borta"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matcher")
        ordering = ["competition", "stage", "heat", "round", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "stage", "home", "away"], name="teams_meet_once_per_stage"
            ),
            models.CheckConstraint(condition=~Q(home=F("away")), name="match_of_two_teams"),
            models.CheckConstraint(condition=Q(halves__in=[1, 2]), name="match_one_or_two_halves"),
        ]
        indexes = [models.Index(fields=["competition", "stage", "heat"])]

    def __str__(self) -> str:
        return f"{self.get_stage_display()} r{self.round}: {self.home} – {self.away}"


class Lineup(models.Model):
    """Who played which half of a match (R-TEAM-MP-2, R-TEAM-MP-3, R-TEAM-RES-1..3)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="lineups", verbose_name=_("match")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("lag")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("spelare")
    )
    half = models.PositiveSmallIntegerField(_("halvlek"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("laguppställning per halvlek")
        verbose_name_plural = _("laguppställningar per halvlek")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "player", "half"], name="player_once_per_half"
            ),
            models.CheckConstraint(condition=Q(half__in=[1, 2]), name="lineup_half_1_or_2"),
        ]

    def __str__(self) -> str:
        return _("%(player)s, halvlek %(half)s, %(match)s") % {
            "player": self.player.full_name,
            "half": self.half,
            "match": self.match,
        }


class BoardResult(models.Model):
    """One board of a match: both rooms' NS scores (home NS in room 1) and the IMPs."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="board_results", verbose_name=_("match")
    )
    board_number = models.PositiveSmallIntegerField(_("bricka"))
    score_ns_room1 = models.IntegerField(_("NS-poäng rum 1"), null=True, blank=True)
    score_ns_room2 = models.IntegerField(_("NS-poäng rum 2"), null=True, blank=True)
    #: Each room's contract and declarer where the file had them (shown on the match page).
    contract_room1 = models.CharField(_("kontrakt rum 1"), max_length=8, blank=True)
    declarer_room1 = models.CharField(_("spelförare rum 1"), max_length=1, blank=True)
    contract_room2 = models.CharField(_("kontrakt rum 2"), max_length=8, blank=True)
    declarer_room2 = models.CharField(_("spelförare rum 2"), max_length=1, blank=True)
    imps_home = models.DecimalField(_("IMP hemma"), max_digits=5, decimal_places=2)
    imps_away = models.DecimalField(_("IMP borta"), max_digits=5, decimal_places=2)
    points_home = models.IntegerField(_("poäng hemma"), default=0)
    points_away = models.IntegerField(_("poäng borta"), default=0)

    class Meta:
        verbose_name = _("brickresultat")
        verbose_name_plural = _("brickresultat")
        ordering = ["match", "board_number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "board_number"], name="board_once_per_match")
        ]

    def __str__(self) -> str:
        return _("%(match)s, bricka %(board)s") % {"match": self.match, "board": self.board_number}


class Penalty(Decided):
    """A VP penalty (R-TEAM-RES-1: 5 VP per match with an unpaid player)."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("lag")
    )
    match = models.ForeignKey(
        Match,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="penalties",
        verbose_name=_("match"),
    )
    vp = models.DecimalField(_("VP-avdrag"), max_digits=5, decimal_places=2)
    clause = models.CharField(_("regel"), max_length=30, default="R-TEAM-RES-1")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("bestraffning")
        verbose_name_plural = _("bestraffningar")

    def __str__(self) -> str:
        return f"−{self.vp} VP: {self.team} ({self.clause})"


class WalkOver(Decided):
    """R-TEAM-WO-1: only TK awards a W.O.; scored by R-TEAM-WO-2 (season configuration)."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="walkover", verbose_name=_("match")
    )
    offender = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="+", verbose_name=_("felande lag")
    )
    force_majeure = models.BooleanField(_("force majeure"), default=False)
    rule_text = models.CharField(_("poängregel"), max_length=200, blank=True)
    # R-TEAM-WO-2: the score as awarded (ubf.rules.sanctions.wo_award_score), read by the
    # recompute; empty on a W.O. stored without award_walkover (the recompute scores it then).
    vp_non_offender = models.DecimalField(
        _("VP till motståndaren"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    vp_offender = models.DecimalField(
        _("VP till felande lag"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("W.O.")
        verbose_name_plural = _("W.O.")

    def __str__(self) -> str:
        return f"W.O. {self.match} ({self.offender})"


class ExternalTeamPlay(models.Model):
    """A player's earlier play for another team this season, in UBF or another dfb
    (R-TEAM-RES-2), recorded by TK when it is known from outside this system."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("spelare")
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="+", verbose_name=_("säsong")
    )
    district = models.CharField(_("distrikt"), max_length=16)
    team_name = models.CharField(_("lag"), max_length=80)
    played_on = models.DateField(_("speldag"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("spel för annat lag (utanför systemet)")
        verbose_name_plural = _("spel för andra lag (utanför systemet)")

    def __str__(self) -> str:
        return (
            f"{self.player.full_name}: {self.team_name}, {self.district} {self.played_on:%Y-%m-%d}"
        )


class Ruling(models.Model):
    """R-RULING-1..3: a tournament director's ruling and, if appealed, the write-up and the
    decisions of the jury and SBF's Lagkommission."""

    class TdCategory(models.TextChoices):
        NON_PLAYING = "non_playing", _("icke-spelande licensierad tävlingsledare")
        THREE_PLAYING = "three_playing", _("tre licensierade spelande tävlingsledare")
        DISTRICT = "district", _("distriktstävlingsledaren")

    class Stage(models.TextChoices):
        RULED = "ruled", _("domslut")
        APPEALED = "appealed", _("överklagat till juryn")
        JURY = "jury", _("juryns beslut")
        LAGKOMMISSION = "lagkommission", _("överklagat till Lagkommissionen")
        FINAL = "final", _("Lagkommissionens beslut (slutgiltigt)")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rulings", verbose_name=_("match")
    )
    board_number = models.PositiveSmallIntegerField(_("bricka"), null=True, blank=True)
    td_names = models.CharField(_("tävlingsledare"), max_length=200)
    td_category = models.CharField(
        _("slag av tävlingsledare"), max_length=16, choices=TdCategory.choices
    )
    playing_td_team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("spelande tävlingsledares lag"),
    )
    hands = models.TextField(_("kortsits"), blank=True)
    auction = models.TextField(_("budgivning"), blank=True)
    play = models.TextField(_("spelförlopp"), blank=True)
    why_called = models.TextField(_("anledning till att tävlingsledaren tillkallades"), blank=True)
    ruling = models.TextField(_("domslut"))
    appeal_grounds = models.TextField(_("anledning till överklagandet"), blank=True)
    other_side_view = models.TextField(_("andra sidans synpunkter"), blank=True)
    involved = models.TextField(_("samtliga inblandade (även tävlingsledaren)"), blank=True)
    jury_teams = models.ManyToManyField(
        Team, blank=True, related_name="+", verbose_name=_("juryn (lag)")
    )
    jury_decision = models.TextField(_("juryns beslut"), blank=True)
    lagkommission_decision = models.TextField(_("Lagkommissionens beslut"), blank=True)
    stage = models.CharField(
        _("instans"), max_length=14, choices=Stage.choices, default=Stage.RULED
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("registrerad av"),
    )
    recorded_at = models.DateTimeField(_("registrerad"), default=clock.now, editable=False)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("domslut")
        verbose_name_plural = _("domslut")

    def __str__(self) -> str:
        if self.board_number:
            return _("Domslut: %(match)s, bricka %(board)s") % {
                "match": self.match,
                "board": self.board_number,
            }
        return _("Domslut: %(match)s") % {"match": self.match}


class RosterChangeRequest(Decided):
    """R-TEAM-2, R-GEN-3: a roster change or a line-up that the captain (or whoever manages
    the team's heat) can no longer make directly because its window has closed
    (``clubs.windows.roster_window`` / ``lineup_window``), asked of TK with a reason. TK
    approves (the change is made by the same service as a direct change, as TK acting late)
    or rejects it, with TK's reason (the ``Decided`` fields). The players asked for are
    :class:`RosterChangeRequestPlayer` rows: players to add and to remove, or each half of
    the line-up of ``match``."""

    class Kind(models.TextChoices):
        ROSTER = "roster", _("ändring av spelartruppen")
        LINEUP = "lineup", _("laguppställning i spelad match")

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="change_requests", verbose_name=_("lag")
    )
    kind = models.CharField(_("slag"), max_length=6, choices=Kind.choices)
    match = models.ForeignKey(
        Match,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="change_requests",
        verbose_name=_("match"),
    )
    request_reason = models.TextField(_("lagets motivering"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("ändringsbegäran (lag)")
        verbose_name_plural = _("ändringsbegäran (lag)")
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="roster", match__isnull=True)
                | Q(kind="lineup", match__isnull=False),
                name="roster_change_request_match_iff_lineup",
            ),
            models.CheckConstraint(
                condition=~Q(request_reason=""), name="roster_change_request_has_reason"
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.LINEUP:
            return _("%(team)s: laguppställning i %(match)s (%(status)s)") % {
                "team": self.team,
                "match": self.match,
                "status": self.get_status_display(),
            }
        return _("%(team)s: ändring av spelartruppen (%(status)s)") % {
            "team": self.team,
            "status": self.get_status_display(),
        }


class RosterChangeRequestPlayer(models.Model):
    """One player of a :class:`RosterChangeRequest`: to be added to the roster, removed from
    it, or fielded in the first or second half of the match."""

    class Role(models.TextChoices):
        ADD = "add", _("läggs till")
        REMOVE = "remove", _("tas bort")
        HALF1 = "half1", _("halvlek 1")
        HALF2 = "half2", _("halvlek 2")

    request = models.ForeignKey(
        RosterChangeRequest,
        on_delete=models.CASCADE,
        related_name="players",
        verbose_name=_("ändringsbegäran"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("spelare")
    )
    role = models.CharField(_("roll"), max_length=6, choices=Role.choices)

    class Meta:
        verbose_name = _("spelare i ändringsbegäran")
        verbose_name_plural = _("spelare i ändringsbegäran")
        ordering = ["request", "role", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["request", "player", "role"], name="player_once_per_request_role"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.get_role_display()})"


class TeamEntryRequest(Decided):
    """R-TEAM-REG-2: a team is entered with the heat responsible of the heat. A captain who
    cannot enter the team directly asks for it here, with the entry's data and proposed
    roster; the heat responsible (or an official of an arranging club, or TK) confirms it with
    one click, which enters the team through ``teams.services.entries.enter_team`` and all its
    checks (``team`` is then the team made), or refuses it with a reason (the ``Decided``
    fields: ``requested_by`` is the captain, who becomes the team's ``captain_user``)."""

    heat = models.ForeignKey(
        TeamHeat, on_delete=models.CASCADE, related_name="entry_requests", verbose_name=_("heat")
    )
    name = models.CharField(_("lagnamn"), max_length=80)
    captain_mid = models.CharField(_("lagkaptenens MID"), max_length=20)
    address = models.CharField(_("adress"), max_length=200)
    phone = models.CharField(_("telefon"), max_length=30)
    email = models.EmailField(_("e-post"))
    player_mids = models.JSONField(_("spelare (MID)"), default=list)
    team = models.OneToOneField(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entry_request",
        verbose_name=_("anmält lag"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("laganmälan via heatansvarig")
        verbose_name_plural = _("laganmälningar via heatansvarig")
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} → {self.heat}"


class SemifinalVenue(models.Model):
    """R-TEAM-SEMI-1: a venue of SM Lag's semifinal as SBF announced it (SBF decides where the
    semifinals are played and how the places are shared between the districts), entered by TK
    on /tk/sm-semifinal/: the town, its days and, if SBF says so, how many of UBF's teams it
    takes (empty: SBF gave no limit)."""

    competition = models.ForeignKey(
        TeamCompetition,
        on_delete=models.CASCADE,
        related_name="semifinal_venues",
        verbose_name=_("tävling"),
    )
    name = models.CharField(_("semifinalort"), max_length=80)
    first_date = models.DateField(_("första speldag"), null=True, blank=True)
    last_date = models.DateField(_("sista speldag"), null=True, blank=True)
    places = models.PositiveSmallIntegerField(
        _("platser för UBF:s lag"),
        null=True,
        blank=True,
        help_text=_("Om SBF har angett hur många lag från UBF orten tar; annars tomt."),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("SM-semifinalort")
        verbose_name_plural = _("SM-semifinalorter")
        ordering = ["competition", "first_date", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "name"], name="semifinal_venue_once_per_competition"
            ),
            models.CheckConstraint(
                condition=Q(first_date__isnull=True)
                | Q(last_date__isnull=True)
                | Q(first_date__lte=F("last_date")),
                name="semifinal_venue_days_ordered",
            ),
            models.CheckConstraint(
                condition=Q(places__isnull=True) | Q(places__gte=1),
                name="semifinal_venue_places_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SemifinalChoice(models.Model):
    """R-TEAM-SEMI-1: a team's answer when its turn came to choose an SM semifinal venue: the
    venue chosen, or its place declined (the next team of the full order then moves up), with
    who recorded it and when (TK in the hall, or the team's captain on the captain's page) and,
    for a decline or TK's correction, why. The order itself is not stored: it is the final's
    full order (``results.services.semifinal``), so a correction never leaves a stale number."""

    class State(models.TextChoices):
        CHOSEN = "chosen", _("valt")
        DECLINED = "declined", _("tackat nej")

    competition = models.ForeignKey(
        TeamCompetition,
        on_delete=models.CASCADE,
        related_name="semifinal_choices",
        verbose_name=_("tävling"),
    )
    team = models.OneToOneField(
        Team, on_delete=models.CASCADE, related_name="semifinal_choice", verbose_name=_("lag")
    )
    state = models.CharField(_("svar"), max_length=8, choices=State.choices)
    venue = models.ForeignKey(
        SemifinalVenue,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="choices",
        verbose_name=_("semifinalort"),
    )
    recorded_at = models.DateTimeField(_("registrerad"), default=clock.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("registrerad av"),
    )
    reason = models.TextField(_("motivering"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("val av SM-semifinalort")
        verbose_name_plural = _("val av SM-semifinalort")
        ordering = ["competition", "recorded_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state="chosen", venue__isnull=False)
                | Q(state="declined", venue__isnull=True),
                name="semifinal_choice_venue_iff_chosen",
            ),
        ]

    def __str__(self) -> str:
        if self.state == self.State.DECLINED:
            return _("%(team)s: tackat nej till SM-semifinalen") % {"team": self.team}
        return _("%(team)s: SM-semifinal i %(venue)s") % {"team": self.team, "venue": self.venue}


class HeatPlaceOffer(models.Model):
    """R-TEAM-KVAL-2: "If fewer than four teams have entered when entries close, the organiser
    tells TK at once and the teams are offered places in other heats" (the Swedish text: "if
    they so wish"). TK offers a team of the short heat a place in another heat that has not
    started; the team's captain answers yes or no on the captain's page, or TK records the
    answer it gave (with how it came). Yes moves the team, with its roster, to that heat. Each
    step is recorded (who, when, why) in the decision log."""

    #: The answers of any offer (waiting, yes, no): the final seats' offers' choices.
    Answer = SeatOffer.Answer

    competition = models.ForeignKey(
        TeamCompetition,
        on_delete=models.CASCADE,
        related_name="heat_place_offers",
        verbose_name=_("tävling"),
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="heat_place_offers", verbose_name=_("lag")
    )
    from_heat = models.ForeignKey(
        TeamHeat, on_delete=models.CASCADE, related_name="+", verbose_name=_("från heat")
    )
    to_heat = models.ForeignKey(
        TeamHeat, on_delete=models.CASCADE, related_name="+", verbose_name=_("erbjudet heat")
    )
    offered_at = models.DateTimeField(_("erbjuden"), default=clock.now)
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("erbjuden av"),
    )
    reason = models.TextField(_("TK:s motivering"), blank=True)
    answer = models.CharField(
        _("svar"),
        max_length=10,
        choices=SeatOffer.Answer.choices,
        default=SeatOffer.Answer.PENDING,
    )
    answered_at = models.DateTimeField(_("besvarad"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("svaret registrerat av"),
    )
    answer_note = models.TextField(_("om svaret"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("erbjuden plats i annat kvalheat")
        verbose_name_plural = _("erbjudna platser i andra kvalheat")
        ordering = ["competition", "offered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["team"],
                condition=Q(answer="pending"),
                name="one_pending_heat_place_offer_per_team",
            ),
            models.CheckConstraint(
                condition=~Q(from_heat=F("to_heat")), name="heat_place_offer_to_another_heat"
            ),
        ]

    def __str__(self) -> str:
        return _("%(team)s: plats i %(heat)s (%(answer)s)") % {
            "team": self.team,
            "heat": self.to_heat,
            "answer": self.get_answer_display(),
        }

"""Districts, clubs, players; the season and its configuration; representation and membership
per season; club officials.

Seasonal numbers (SPEC "season configuration") live on :class:`Season`; :meth:`Season.rules`
turns them into the pure :class:`ubf.rules.season.SeasonRules` the rulebook functions take.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs import clock
from clubs.i18n import render, with_clause
from ubf.rules.i18n import as_data, from_data
from ubf.rules.people import normalise_mid
from ubf.rules.season import DEFAULT_RULES, SeasonRules
from ubf.rules.types import Gender, Pin

UBF_DISTRICT_CODE = "UBF"

mid_validator = RegexValidator(r"^\d{1,9}$", _("MID är SBF:s medlemsnummer: bara siffror."))


class HeatStatus(models.TextChoices):
    """Where a qualifier heat (pairs or teams) stands with TK (R-PAIR-KVAL-1, R-TEAM-REG-1)."""

    APPLIED = "applied", _("anmält")
    APPROVED = "approved", _("godkänt")
    REJECTED = "rejected", _("avslaget")
    CANCELLED = "cancelled", _("inställt")


class District(models.Model):
    """A district federation (dfb) of SBF; UBF (Upplands Bridgeförbund) is one."""

    code = models.CharField(_("kod"), max_length=16, unique=True)
    name = models.CharField(_("namn"), max_length=100)

    class Meta:
        verbose_name = _("distriktsförbund")
        verbose_name_plural = _("distriktsförbund")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_ubf(self) -> bool:
        return self.code == UBF_DISTRICT_CODE


class Club(models.Model):
    district = models.ForeignKey(
        District, on_delete=models.PROTECT, related_name="clubs", verbose_name=_("distrikt")
    )
    name = models.CharField(_("namn"), max_length=120, unique=True)
    short_name = models.CharField(_("kortnamn"), max_length=30)
    sbf_number = models.CharField(_("SBF klubbnummer"), max_length=12, blank=True)
    town = models.CharField(_("ort"), max_length=60, blank=True)

    class Meta:
        verbose_name = _("klubb")
        verbose_name_plural = _("klubbar")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """An SBF member, identified by MID (never by name)."""

    mid = models.CharField(_("MID"), max_length=9, unique=True, validators=[mid_validator])
    first_name = models.CharField(_("förnamn"), max_length=60)
    last_name = models.CharField(_("efternamn"), max_length=60)
    gender = models.CharField(
        _("kön"),
        max_length=1,
        choices=[(Gender.WOMAN.value, _("kvinna")), (Gender.MAN.value, _("man"))],
    )
    birth_year = models.PositiveSmallIntegerField(_("födelseår"), null=True, blank=True)
    max_pin = models.PositiveSmallIntegerField(
        _("högsta nål"),
        default=Pin.NONE,
        choices=[
            (Pin.NONE, _("ingen")),
            (Pin.KLOVER, _("klöver")),
            (Pin.RUTER, _("ruter")),
            (Pin.HJARTER, _("hjärter")),
            (Pin.SPADER, _("spader")),
            (Pin.FORBUNDSMASTARE, _("förbundsmästare")),
            (Pin.RIKSMASTARE, _("riksmästare")),
            (Pin.STORMASTARE, _("stormästare")),
        ],
    )
    email = models.EmailField(_("e-post"), blank=True)
    phone = models.CharField(_("telefon"), max_length=30, blank=True)
    #: False when the federation's latest member register (``clubs.services.register``) no
    #: longer lists the player: kept (entries and results stay theirs), never deleted.
    in_register = models.BooleanField(_("finns i medlemsregistret"), default=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("spelare")
        verbose_name_plural = _("spelare")
        ordering = ["last_name", "first_name"]
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} ({self.mid})"

    def save(self, *args, **kwargs):
        # One form per MID (leading zeros dropped), so "00123" typed anywhere finds it.
        self.mid = normalise_mid(self.mid)
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Season(models.Model):
    """A playing season (e.g. "2016-2017") and every number the rulebook calls season
    configuration (docs/rulebook.md).

    The scalar numbers TK is most likely to change are fields; the tables (bonus tables,
    final-size thresholds, SM cap) are in ``tables`` as JSON, defaulting to 2016-2017.
    """

    name = models.CharField(_("säsong"), max_length=9, unique=True, help_text="2016-2017")
    start_year = models.PositiveSmallIntegerField(_("startår"))
    is_current = models.BooleanField(_("aktuell säsong"), default=False)
    #: Set when the next season is made from this one (``results.services.next_season``):
    #: the season is then read-only (services refuse changes) and stays on the public archive.
    is_finished = models.BooleanField(_("avslutad (skrivskyddad)"), default=False)

    veteran_born_on_or_before = models.PositiveSmallIntegerField(
        _("veteran: född senast"), default=DEFAULT_RULES.veteran_born_on_or_before
    )
    junior_max_age = models.PositiveSmallIntegerField(
        _("junior: högst ålder under startåret"), default=DEFAULT_RULES.junior_max_age
    )
    pair_kval_fee_per_player = models.DecimalField(
        _("parkval: avgift per spelare"),
        max_digits=7,
        decimal_places=2,
        default=DEFAULT_RULES.pair_kval_fee_per_player,
    )
    pair_final_fee_per_player = models.DecimalField(
        _("parfinal: avgift per spelare"),
        max_digits=7,
        decimal_places=2,
        default=DEFAULT_RULES.pair_final_fee_per_player,
    )
    team_start_fee = models.DecimalField(
        _("lag: startavgift"), max_digits=7, decimal_places=2, default=DEFAULT_RULES.team_start_fee
    )
    team_final_table_fee_per_round = models.DecimalField(
        _("lagfinal: bordsavgift per lag och rond"),
        max_digits=7,
        decimal_places=2,
        default=DEFAULT_RULES.team_final_table_fee_per_round,
    )
    team_junior_kval_discount = models.DecimalField(
        _("lagkval: rabatt per junior"),
        max_digits=7,
        decimal_places=2,
        default=DEFAULT_RULES.team_junior_kval_discount,
    )
    team_final_junior_reduction_per_round = models.DecimalField(
        _("lagfinal: avdrag per junior och rond"),
        max_digits=7,
        decimal_places=2,
        default=DEFAULT_RULES.team_final_junior_reduction_per_round,
    )
    invitation_days_before = models.PositiveSmallIntegerField(
        _("inbjudan senast (dagar före)"), default=DEFAULT_RULES.invitation_days_before
    )
    wo_winner_vp = models.DecimalField(
        _("W.O.: VP till laget som inte lämnade W.O."),
        max_digits=5,
        decimal_places=2,
        default=DEFAULT_RULES.wo_winner_vp,
    )
    wo_loser_vp = models.DecimalField(
        _("W.O.: VP till laget som lämnade W.O."),
        max_digits=5,
        decimal_places=2,
        default=DEFAULT_RULES.wo_loser_vp,
    )
    wo_winner_average_if_higher = models.BooleanField(
        _("W.O.: eget snitt i etappen om det är högre"),
        default=DEFAULT_RULES.wo_winner_average_if_higher,
    )
    unpaid_player_penalty_vp = models.DecimalField(
        _("obetald spelare: VP-avdrag per match"),
        max_digits=5,
        decimal_places=2,
        default=DEFAULT_RULES.unpaid_player_penalty_vp,
    )
    unpaid_fee_grace_days = models.PositiveSmallIntegerField(
        _("obetald medlemsavgift: dagar till diskvalificering"),
        default=DEFAULT_RULES.unpaid_fee_grace_days,
    )
    protest_deadline_sm_semifinal = models.DateField(
        _("protesttid inför SM-semifinal"), default=DEFAULT_RULES.protest_deadline_sm_semifinal
    )
    protest_deadline_sm_final = models.DateField(
        _("protesttid inför SM-final"), default=DEFAULT_RULES.protest_deadline_sm_final
    )
    tables = models.JSONField(
        _("tabeller (bonus, finalstorlekar, SM-tak)"),
        default=dict,
        blank=True,
        help_text=_("Tomt = 2016-2017 års värden. Nycklar som i SeasonRules."),
    )
    history = HistoricalRecords()

    SCALAR_FIELDS = (
        "veteran_born_on_or_before",
        "junior_max_age",
        "pair_kval_fee_per_player",
        "pair_final_fee_per_player",
        "team_start_fee",
        "team_final_table_fee_per_round",
        "team_junior_kval_discount",
        "team_final_junior_reduction_per_round",
        "invitation_days_before",
        "wo_winner_vp",
        "wo_loser_vp",
        "wo_winner_average_if_higher",
        "unpaid_player_penalty_vp",
        "unpaid_fee_grace_days",
        "protest_deadline_sm_semifinal",
        "protest_deadline_sm_final",
    )

    class Meta:
        verbose_name = _("säsong")
        verbose_name_plural = _("säsonger")
        ordering = ["-start_year"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_current"],
                condition=models.Q(is_current=True),
                name="one_current_season",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def rules(self) -> SeasonRules:
        """The pure rulebook configuration for this season."""
        data = dict(self.tables or {})
        data.update({name: getattr(self, name) for name in self.SCALAR_FIELDS})
        data["season"] = self.name
        data["start_year"] = self.start_year
        return SeasonRules.from_mapping(data)

    @classmethod
    def current(cls) -> Season | None:
        return cls.objects.filter(is_current=True).first() or cls.objects.first()


class Representation(models.Model):
    """The one club a player represents in a season (representationsklubb)."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="representations", verbose_name=_("spelare")
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, verbose_name=_("säsong"))
    club = models.ForeignKey(Club, on_delete=models.PROTECT, verbose_name=_("klubb"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("representation")
        verbose_name_plural = _("representationer")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "season"], name="one_representation_per_player_and_season"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.club} ({self.season})"


class Membership(models.Model):
    """SBF membership fee for a season (R-GEN-2): paid when ``paid_on`` is set."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("spelare")
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, verbose_name=_("säsong"))
    paid_on = models.DateField(_("betald"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("medlemskap")
        verbose_name_plural = _("medlemskap")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "season"], name="one_membership_per_player_and_season"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.season}"

    @property
    def is_paid(self) -> bool:
        return self.paid_on is not None


class ClubOfficial(models.Model):
    """A user who acts for a club (chair, treasurer, heat responsible, contact)."""

    class Role(models.TextChoices):
        CHAIR = "chair", _("ordförande")
        TREASURER = "treasurer", _("kassör")
        HEAT_RESPONSIBLE = "heat_responsible", _("heatansvarig")
        CONTACT = "contact", _("kontaktperson")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_roles",
        verbose_name=_("användare"),
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="officials", verbose_name=_("klubb")
    )
    role = models.CharField(_("roll"), max_length=20, choices=Role.choices, default=Role.CONTACT)

    class Meta:
        verbose_name = _("klubbfunktionär")
        verbose_name_plural = _("klubbfunktionärer")
        constraints = [
            models.UniqueConstraint(fields=["user", "club", "role"], name="unique_club_role")
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.club} ({self.get_role_display()})"


class Invitation(models.Model):
    """An invitation by e-mail to make an account (issue 13, item 5): TK invites a club
    official (for ``club``, in ``club_role``), a club official invites a captain (``player``,
    by MID). Only a hash of the link's token is stored; the link is valid until ``expires_at``
    and once (``accepted_at``). Written only by ``portal.services.invitations``."""

    class Role(models.TextChoices):
        CLUB_OFFICIAL = "club_official", _("klubbfunktionär")
        CAPTAIN = "captain", _("lagkapten")

    email = models.EmailField(_("e-post"))
    role = models.CharField(_("inbjuden som"), max_length=20, choices=Role.choices)
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("klubb")
    )
    club_role = models.CharField(
        _("roll i klubben"),
        max_length=20,
        choices=ClubOfficial.Role.choices,
        blank=True,
    )
    player = models.ForeignKey(
        "Player", on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("spelare")
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("skickad"), default=clock.now, editable=False)
    expires_at = models.DateTimeField(_("giltig till"))
    accepted_at = models.DateTimeField(_("antagen"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("konto"),
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="invitations_sent",
        verbose_name=_("inbjuden av"),
    )
    language = models.CharField(_("språk"), max_length=5, default="sv")

    class Meta:
        verbose_name = _("inbjudan")
        verbose_name_plural = _("inbjudningar")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.email} ({self.get_role_display()}, {self.club})"


class Competition(models.Model):
    """One championship of a season: a DM Par discipline (Open, Mixed, Veteran, Dam) or DM Lag.

    The parent of ``pairs.PairCompetition`` and ``teams.TeamCompetition`` (multi-table
    inheritance, same primary key): what every competition shares, so that uploads, standings,
    the allocation of final places, lots and the recompute status have one foreign key to a
    competition whatever its discipline."""

    class Discipline(models.TextChoices):
        OPEN = "open", _("Open")
        MIXED = "mixed", _("Mixed")
        VETERAN = "veteran", _("Veteran")
        DAM = "dam", _("Dam")
        TEAMS = "teams", _("Lag")

    class Kind(models.TextChoices):
        PAIRS = "pairs", _("par")
        TEAMS = "teams", _("lag")

    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="competitions", verbose_name=_("säsong")
    )
    discipline = models.CharField(_("disciplin"), max_length=10, choices=Discipline.choices)

    class Meta:
        verbose_name = _("tävling")
        verbose_name_plural = _("tävlingar")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "discipline"], name="one_competition_per_discipline"
            )
        ]

    def __str__(self) -> str:
        if self.discipline == self.Discipline.TEAMS:
            return _("DM Lag %(season)s") % {"season": self.season}
        return _("DM Par %(discipline)s %(season)s") % {
            "discipline": self.get_discipline_display(),
            "season": self.season,
        }

    @property
    def kind(self) -> str:
        """``"teams"`` for DM Lag, ``"pairs"`` for a DM Par discipline."""
        return self.Kind.TEAMS if self.discipline == self.Discipline.TEAMS else self.Kind.PAIRS

    @property
    def specific(self):
        """The pair or team competition this is (its child row; the row itself when it is one
        already): its dates and windows, read from a seat's ``competition``."""
        if type(self) is not Competition:
            return self
        return getattr(
            self, "teamcompetition" if self.kind == self.Kind.TEAMS else "paircompetition"
        )


class Heat(models.Model):
    """A qualifier heat, pairs or teams: the parent of ``pairs.PairHeat`` and
    ``teams.TeamHeat`` (multi-table inheritance, same primary key). Its status with TK
    (R-PAIR-KVAL-1, R-TEAM-REG-1) and its dates are named alike for both: a pair heat's two
    sessions are its first and last date (``last_date`` empty for one session), a team heat
    is played from its first to its last day."""

    Kind = Competition.Kind  # a heat is of its competition's kind

    kind = models.CharField(_("slag"), max_length=5, choices=Kind.choices, editable=False)
    name = models.CharField(_("namn"), max_length=120)
    venue = models.CharField(_("spelplats"), max_length=120, blank=True)
    first_date = models.DateField(_("första speldag"))
    last_date = models.DateField(_("sista speldag"), null=True, blank=True)
    invitation_file = models.FileField(_("inbjudan (fil)"), upload_to="invitations/%Y/", blank=True)
    invitation_url = models.URLField(_("inbjudan (länk)"), blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=HeatStatus.choices, default=HeatStatus.APPLIED
    )
    registered_on = models.DateField(_("anmält till TK"), null=True, blank=True)

    class Meta:
        verbose_name = _("kvalheat")
        verbose_name_plural = _("kvalheat")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(last_date__isnull=True)
                | models.Q(last_date__gte=models.F("first_date")),
                name="heat_dates_ordered",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.first_date:%Y-%m-%d})"


class Decided(models.Model):
    """Fields shared by every record of a TK decision: status, decider, when, why (R-GEN-3)."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("begärd")
        GRANTED = "granted", _("beviljad")
        REJECTED = "rejected", _("avslagen")

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.REQUESTED
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("begärd av"),
    )
    requested_at = models.DateTimeField(_("begärd"), default=clock.now, editable=False)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("beslutad av"),
    )
    decided_at = models.DateTimeField(_("beslutad"), null=True, blank=True)
    reason = models.TextField(_("motivering"), blank=True)

    class Meta:
        abstract = True


class HeatChangeRequest(Decided):
    """R-PAIR-KVAL-2 (and by analogy the team heats): after the registration deadline the
    arranging club may not move or cancel its heat without UBF's explicit consent; the change
    is a request that TK approves or rejects. Abstract: ``pairs.PairHeatChangeRequest`` and
    ``teams.TeamHeatChangeRequest`` add the heat they are about."""

    class Kind(models.TextChoices):
        MOVE = "move", _("flytta")
        CANCEL = "cancel", _("ställa in")

    kind = models.CharField(_("ändring"), max_length=6, choices=Kind.choices)
    new_first_date = models.DateField(_("nytt datum"), null=True, blank=True)
    new_second_date = models.DateField(_("nytt datum 2"), null=True, blank=True)
    request_reason = models.TextField(_("klubbens motivering"), blank=True)

    class Meta:
        abstract = True
        verbose_name = _("ändringsbegäran (heat)")
        verbose_name_plural = _("ändringsbegäran (heat)")

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.heat} ({self.get_status_display()})"


class Explained(models.Model):
    """A row that says why it exists (issue 9, "each row says why"): ``reason`` is the Swedish
    text, kept as the record (searchable in the admin, as the decision reasons are);
    ``reason_data`` is the same message as data (``ubf.rules.i18n.as_data`` plus its
    ``clause``), which pages and the admin render in the reader's language
    (:meth:`reason_text`). Both are written by :meth:`explain`, by the service that creates or
    changes the row, never by hand."""

    reason = models.TextField(_("förklaring"), blank=True)
    reason_data = models.JSONField(_("förklaring (data)"), default=dict, blank=True)

    class Meta:
        abstract = True

    def explain(self, clause: str, message) -> None:
        """Set the reason: ``message`` (a ``ubf.rules.i18n.Message``, or its ``as_data`` form
        with names already in its params) and the clause ID that governs it."""
        data = message if isinstance(message, dict) else as_data(message)
        self.reason_data = {"clause": clause, **data}
        self.reason = with_clause(from_data(data).message_sv, clause) if clause else ""

    def reason_text(self, language: str | None = None) -> str:
        """The reason in the active language (or ``language``), with its clause; a row written
        before reasons were data shows its Swedish ``reason``."""
        data = self.reason_data or {}
        if not data.get("template"):
            return self.reason
        text = render(data, language)
        return with_clause(text, data.get("clause") or "")


class Entry(models.Model):
    """A pair or a team entered in a competition (issue 20, "one entry, one seat, one offer"):
    the parent of ``pairs.PairEntry`` (a pair in a heat, a direct qualifier, a pair entered
    straight into a direct final) and ``teams.Team`` (multi-table inheritance, the child row
    has the parent's primary key, as for :class:`Competition` and :class:`Heat`). A final
    seat's holder and an offer's entry are this row whatever the discipline; its id is the
    replacement chain's key for the entry."""

    Kind = Competition.Kind  # an entry is of its competition's kind

    kind = models.CharField(_("slag"), max_length=5, choices=Kind.choices, editable=False)

    class Meta:
        verbose_name = _("anmälan")
        verbose_name_plural = _("anmälningar")

    def __str__(self) -> str:
        return str(self.specific)

    def __eq__(self, other):
        """One entry, one identity: the entry row and its pair entry or team (read through a
        seat's holder or an offer's entry, or on their own) are the same entry."""
        if isinstance(other, Entry) and self.pk is not None:
            return self.pk == other.pk
        return super().__eq__(other)

    __hash__ = models.Model.__hash__

    @property
    def specific(self):
        """The pair entry or the team this entry is (its child row; the row itself when it is
        one already). Read from a seat or an offer, select ``holder__team`` and
        ``holder__pairentry`` with it (:data:`clubs.seats.HOLDER_NAMES`)."""
        if type(self) is not Entry:
            return self
        return getattr(self, "team" if self.kind == self.Kind.TEAMS else "pairentry")


class FinalSeat(Explained):
    """A seat in a final, pairs or teams (issue 9, "one seat lifecycle"; issue 20, one concrete
    row): the competition, where it comes from (an allocation from a heat, a direct qualifier,
    a replacement, a direct final's entry), where it stands (provisional, confirmed, vacated),
    its holder (an :class:`Entry`: a pair entry or a team), the replacement chain's name for it
    (``key``), the vacated seat a replacement's seat stands in for (``replaces``), the team
    final's number on it (``number``) and why it is there (``reason``).

    The lifecycle (``clubs.seats`` applies it for both finals): a seat is created provisional by
    the recompute (allocation, direct) or confirmed by an accepted offer (replacement); it is
    confirmed when its holder's place is settled; it is vacated when its holder gives it up
    (R-REPL-1, R-TEAM-REPL-1) and then offered down the chain; a vacated or confirmed seat is
    never moved by a recompute (R-REPL-6)."""

    class Source(models.TextChoices):
        ALLOCATION = "allocation", _("kvalplats")
        DIRECT = "direct", _("direktkvalificerad")
        REPLACEMENT = "replacement", _("ersättare")
        DIRECT_FINAL = "direct_final", _("anmäld till direktfinalen")

    class Status(models.TextChoices):
        PROVISIONAL = "provisional", _("preliminär")
        CONFIRMED = "confirmed", _("bekräftad")
        VACATED = "vacated", _("lämnad")

    class State(models.TextChoices):
        """Where a seat stands in its lifecycle, as the public pages say it (:attr:`state`)."""

        PROVISIONAL = "provisional", _("preliminär")
        DECIDED = "decided", _("beslutad")
        OFFERED = "offered", _("erbjuden")
        ACCEPTED = "accepted", _("tackat ja")
        DECLINED = "declined", _("tackat nej")
        REPLACED = "replaced", _("ersatt")
        EMPTY = "empty", _("lämnas tom")

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="final_seats", verbose_name=_("tävling")
    )
    origin_heat = models.ForeignKey(
        Heat,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("kvalplats"),
    )
    holder = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="final_seats",
        verbose_name=_("innehavare"),
    )
    source = models.CharField(_("grund"), max_length=12, choices=Source.choices)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PROVISIONAL
    )
    #: The replacement chain's name for the seat: its first holder's key (the entry's id), or
    #: "<venue>#<n>" for a seat its venue could not fill.
    key = models.CharField(_("platsens nyckel"), max_length=40, blank=True)
    #: For a replacement's seat: the vacated seat whose offer it accepted (R-REPL-5).
    replaces = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("ersätter"),
    )
    #: The team final: the team's number in the final on this seat
    #: (:func:`clubs.seats.number_seats`); a replacement takes the number of the seat it
    #: replaces. Empty in a pairs final.
    number = models.PositiveSmallIntegerField(_("lagnummer i finalen"), null=True, blank=True)
    #: R-REPL-3, R-REPL-5: TK's reason for leaving the vacated seat empty (the chain asks
    #: nobody for it); empty while the seat is to be filled.
    closed_reason = models.TextField(_("TK:s beslut att lämna platsen tom"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("finalplats")
        verbose_name_plural = _("finalplatser")
        ordering = ["competition", "id"]

    def __str__(self) -> str:
        if self.holder_id is None:
            return f"Ledig finalplats {self.chain_key}"
        return f"Finalplats: {self.holder_name}"

    @property
    def holder_key(self) -> str | None:
        """The chain's name for the entry holding (or that held) the seat; None for a vacant
        seat nobody held."""
        return str(self.holder_id) if self.holder_id else None

    @property
    def chain_key(self) -> str:
        """The replacement chain's name for the seat (see ``key``)."""
        return self.key or self.holder_key or ""

    @property
    def holder_name(self) -> str:
        """The holder as a person reads it (a team's name, a pair's two names)."""
        return str(self.holder) if self.holder_id else self.chain_key

    @property
    def is_held(self) -> bool:
        """Someone holds the seat now (who holds a seat: not vacated, with a holder)."""
        return self.status != self.Status.VACATED and self.holder_id is not None

    @property
    def is_decided(self) -> bool:
        """A recompute may not move the seat (R-REPL-6): it is confirmed, vacated or has been
        offered."""
        return self.status != self.Status.PROVISIONAL and self.holder_id is not None

    @property
    def state(self) -> str:
        """The seat's place in its lifecycle (:class:`State`; reads ``offers`` and
        ``replaced_by``, prefetch them for a list):

        - *replaced*: given up, and a replacement holds it now (a seat ``replaces`` it);
        - *offered*: given up (or never filled), an offer of it waits for an answer (R-REPL-5);
        - *declined*: given up, no offer waiting and nobody in it yet (its holder gave it up,
          or the last team or pair asked said no; the chain or TK names the next);
        - *empty*: given up, and TK decided not to fill it (R-REPL-3, ``closed_reason``);
        - *accepted*: a replacement's own seat: its holder accepted the offer (R-REPL-6);
        - *decided*: its holder's place is settled (confirmed, or offered before): a recompute
          no longer moves it (R-REPL-6);
        - *provisional*: it follows the standings."""
        if self.status == self.Status.VACATED or self.holder_id is None:
            if self.replaced_by.all():
                return self.State.REPLACED
            if any(o.answer == SeatOffer.Answer.PENDING for o in self.offers.all()):
                return self.State.OFFERED
            if self.closed_reason:
                return self.State.EMPTY
            return self.State.DECLINED
        if self.source == self.Source.REPLACEMENT:
            return self.State.ACCEPTED
        if self.is_decided:
            return self.State.DECIDED
        return self.State.PROVISIONAL

    def vacate(self, clause: str, message) -> None:
        """The holder gives the seat up: it stays as the chain's record, vacated, saying why."""
        self.status = self.Status.VACATED
        self.explain(clause, message)


class SeatOffer(Explained):
    """R-REPL-5, R-TEAM-REPL-1: an offer of a final seat given up (``seat``), to the entry the
    replacement chain names (``entry``, a pair entry or a team): when, the answer, who recorded
    it, why it was made (``reason``: the chain's step with its figures, or TK's departure) and
    TK's reason when it departs from the chain (``override_reason``)."""

    class Answer(models.TextChoices):
        PENDING = "pending", _("väntar på svar")
        ACCEPTED = "accepted", _("tackat ja")
        DECLINED = "declined", _("tackat nej")

    seat = models.ForeignKey(
        FinalSeat, on_delete=models.CASCADE, related_name="offers", verbose_name=_("finalplats")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="seat_offers", verbose_name=_("tillfrågad")
    )
    offered_at = models.DateTimeField(_("erbjuden"))
    answer = models.CharField(
        _("svar"), max_length=10, choices=Answer.choices, default=Answer.PENDING
    )
    answered_at = models.DateTimeField(_("besvarad"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("registrerad av"),
    )
    override_reason = models.TextField(_("TK:s avsteg (motivering)"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("erbjudande om finalplats")
        verbose_name_plural = _("erbjudanden om finalplatser")
        ordering = ["offered_at", "id"]

    def __str__(self) -> str:
        return f"{self.entry} ({self.get_answer_display()})"

    @property
    def entry_key(self) -> str:
        """The chain's name for the entry asked (its id)."""
        return str(self.entry_id)


class ReigningChampion(models.Model):
    """Last season's DM gold (a pair in Mixed, Veteran or Open, R-DIRECT-1; the DM Lag team,
    R-TEAM-DIRECT-1), listed on the new season's competition as its direct qualifier awaiting
    registration with TK before the qualifying period ends. Written by
    ``results.services.next_season``; the registration itself is made with the existing
    services (``pairs.services.entries.register_direct_qualifier``,
    ``teams.services.entries.register_direct_team``), which check the conditions (an intact
    pair; two thirds of the team) and take ``mids`` as the champions."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="reigning_champions",
        verbose_name=_("tävling"),
    )
    won_in = models.ForeignKey(
        Competition, on_delete=models.PROTECT, related_name="+", verbose_name=_("vann")
    )
    name = models.CharField(_("namn"), max_length=200)
    #: The pair's two MIDs, or the champion team's roster (R-TEAM-DIRECT-1's two thirds).
    mids = models.JSONField(_("MID"), default=list)

    class Meta:
        verbose_name = _("regerande mästare")
        verbose_name_plural = _("regerande mästare")
        constraints = [
            models.UniqueConstraint(fields=["competition"], name="one_reigning_champion")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.won_in})"


class Decision(models.Model):
    """A typed, append-only record of a TK decision (R-GEN-3): who, when, what, why.

    ``action`` is namespaced ("teams.dispensation.granted", "pairs.heat.approved", ...), ``data``
    holds the figures. Rows are never updated or deleted (enforced in save/delete).
    """

    action = models.CharField(_("åtgärd"), max_length=80, db_index=True)
    object_type = models.CharField(_("objekttyp"), max_length=60, db_index=True)
    object_id = models.PositiveBigIntegerField(_("objekt-id"), db_index=True)
    object_repr = models.CharField(_("objekt"), max_length=200)
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("säsong")
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("beslutad av"),
    )
    decided_at = models.DateTimeField(_("tidpunkt"), default=clock.now, editable=False)
    clause = models.CharField(_("regel"), max_length=30, blank=True)
    reason = models.TextField(_("motivering"), blank=True)
    data = models.JSONField(_("uppgifter"), default=dict, blank=True)

    class Meta:
        verbose_name = _("TK-beslut")
        verbose_name_plural = _("TK-beslut (logg)")
        ordering = ["-decided_at", "-id"]

    def __str__(self) -> str:
        return f"{self.decided_at:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("Decision rows are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("Decision rows are append-only.")


class DemoClock(models.Model):
    """The demo's date (only with ``DEMO_DATE`` set, never in production): the one clock
    (``clubs.clock``) reads it, so TK can move the demo season's "today" from the admin.
    One row (pk 1); ``manage.py load_demo`` sets it to ``DEMO_DATE``."""

    on = models.DateField(_("demodatum"))

    class Meta:
        verbose_name = _("demoklocka")
        verbose_name_plural = _("demoklocka")

    def __str__(self) -> str:
        return f"Demo: {self.on:%Y-%m-%d}"

    def save(self, *args, **kwargs):
        self.pk = 1
        super().save(*args, **kwargs)

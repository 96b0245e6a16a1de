"""DM Par: competitions per discipline, qualifier heats, pair entries (in a heat, a direct
qualifier, a pair entered straight into a direct final), reserves, SM partner declarations.
Final seats and their offers are the core's (``clubs.FinalSeat``, ``clubs.SeatOffer``)."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs.models import (
    Club,
    Competition,
    Entry,
    Heat,
    HeatChangeRequest,
    Player,
    Season,
)
from ubf.rules.types import Discipline, HeatType


class PairCompetition(Competition):
    """One discipline's DM Par in a season (R-PAIR-CAL-1 dates are data here); ``season`` and
    ``discipline`` are the parent :class:`clubs.models.Competition`'s."""

    DISCIPLINE_CHOICES = [
        (Discipline.OPEN.value, _("Open")),
        (Discipline.MIXED.value, _("Mixed")),
        (Discipline.VETERAN.value, _("Veteran")),
        (Discipline.DAM.value, _("Dam")),
    ]

    qualifying_start = models.DateField(_("kvalperiod från"), null=True, blank=True)
    qualifying_end = models.DateField(_("kvalperiod till"), null=True, blank=True)
    heat_registration_deadline = models.DateField(
        _("sista dag att anmäla kvalheat"), null=True, blank=True
    )
    final_date = models.DateField(_("finaldatum"))
    final_venue = models.CharField(_("finalens spelplats"), max_length=120)
    final_min_boards = models.PositiveSmallIntegerField(_("final: minst brickor"), default=42)
    final_max_boards = models.PositiveSmallIntegerField(_("final: högst brickor"), default=70)
    is_direct_final = models.BooleanField(
        _("direktfinal"), default=False, help_text=_("R-PAIR-DF-1: inga klubbkval")
    )
    sm_places = models.PositiveSmallIntegerField(_("SM-platser (från SBF)"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("partävling")
        verbose_name_plural = _("partävlingar")
        ordering = ["season", "final_date"]
        constraints = [
            models.CheckConstraint(
                condition=Q(qualifying_start__isnull=True)
                | Q(qualifying_end__isnull=True)
                | Q(qualifying_start__lte=F("qualifying_end")),
                name="pair_qualifying_period_ordered",
            ),
        ]

    def save(self, *args, **kwargs):
        if self.discipline not in {value for value, _label in self.DISCIPLINE_CHOICES}:
            raise ValueError(f"Not a DM Par discipline: {self.discipline!r}")
        super().save(*args, **kwargs)


class PairHeat(Heat):
    """A qualifier heat (kvalheat) arranged by one or more clubs (R-PAIR-KVAL-1..6). Its one or
    two sessions are the parent :class:`clubs.models.Heat`'s ``first_date`` and ``last_date``
    (empty for one session), as are its name, venue, invitation and status."""

    competition = models.ForeignKey(
        PairCompetition, on_delete=models.CASCADE, related_name="heats", verbose_name=_("tävling")
    )
    clubs = models.ManyToManyField(Club, related_name="pair_heats", verbose_name=_("arrangörer"))
    heat_type = models.CharField(
        _("typ"),
        max_length=6,
        choices=[(HeatType.SILVER.value, _("silverkval")), (HeatType.BRONZE.value, _("bronskval"))],
    )
    invitation_sent_on = models.DateField(_("inbjudan skickad"), null=True, blank=True)
    requires_preregistration = models.BooleanField(_("föranmälan krävs"), default=False)
    last_registration_day = models.DateField(_("sista anmälningsdag"), null=True, blank=True)
    pair_limit = models.PositiveSmallIntegerField(_("högst antal par"), null=True, blank=True)
    table_fee = models.DecimalField(_("bordsavgift per spelare"), max_digits=7, decimal_places=2)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("parkval (heat)")
        verbose_name_plural = _("parkval (heat)")
        ordering = ["competition", "first_date"]

    def save(self, *args, **kwargs):
        self.kind = Heat.Kind.PAIRS
        super().save(*args, **kwargs)

    @property
    def session_dates(self) -> dict[int, date]:
        """R-PAIR-KVAL-6: the heat's sessions (1, and 2 for a heat of two) and their dates."""
        if self.last_date:
            return {1: self.first_date, 2: self.last_date}
        return {1: self.first_date}


class PairEntry(Entry):
    """A pair entered in a DM Par competition (a kind of :class:`clubs.models.Entry`, whose id
    it has), identified by the two players' MIDs. ``entered_as`` says how:

    - ``heat``: in a qualifier heat, with its number there (``heat``, ``pair_number``);
    - ``direct``: last season's champions, directly qualified for the final and registered with
      TK before the qualifying period ends (R-DIRECT-1/2; ``registered_on``);
    - ``direct_final``: entered straight into a direct final, which has no heats (R-PAIR-DF-1).

    ``competition`` is the heat's for a heat entry (set on save)."""

    class EnteredAs(models.TextChoices):
        HEAT = "heat", _("i kvalheat")
        DIRECT = "direct", _("direktkvalificerat")
        DIRECT_FINAL = "direct_final", _("till direktfinalen")

    class Status(models.TextChoices):
        ENTERED = "entered", _("anmält")
        STRUCK = "struck", _("struket (utom tävlan)")
        WITHDRAWN = "withdrawn", _("återtaget")
        #: a direct qualifier that played a qualifier with another partner (R-DIRECT-2)
        FORFEITED = "forfeited", _("förverkad")
        #: a direct qualifier that gave its place up (R-REPL-7)
        DECLINED = "declined", _("avstår")

    competition = models.ForeignKey(
        PairCompetition,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("tävling"),
    )
    entered_as = models.CharField(
        _("anmält som"), max_length=12, choices=EnteredAs.choices, default=EnteredAs.HEAT
    )
    heat = models.ForeignKey(
        PairHeat,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("heat"),
    )
    player1 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("spelare 1")
    )
    player2 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("spelare 2")
    )
    pair_number = models.CharField(_("parnummer"), max_length=8, blank=True)
    takes_part_in_qualifier = models.BooleanField(
        _("deltar i DM-kvalet"), default=True, help_text=_("R-PAIR-KVAL-5: bronskval")
    )
    registered_on = models.DateField(_("anmäld till TK"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ENTERED
    )
    status_reason = models.TextField(_("skäl"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("paranmälan")
        verbose_name_plural = _("paranmälningar")
        # Pair numbers are text ("7", "12", "3NS"): shorter first, so 2 comes before 10.
        ordering = ["heat", Length("pair_number"), "pair_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["heat", "player1", "player2"], name="unique_pair_in_heat"
            ),
            models.UniqueConstraint(
                fields=["heat", "pair_number"],
                condition=~Q(pair_number=""),
                name="unique_pair_number_in_heat",
            ),
            models.CheckConstraint(
                condition=~Q(player1=F("player2")), name="pair_of_two_different_players"
            ),
            models.CheckConstraint(
                condition=Q(entered_as="heat", heat__isnull=False)
                | (~Q(entered_as="heat") & Q(heat__isnull=True)),
                name="pair_entry_heat_iff_entered_in_heat",
            ),
            models.UniqueConstraint(
                fields=["competition"],
                condition=Q(entered_as="direct"),
                name="one_direct_qualifier_per_pair_competition",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player1.full_name} – {self.player2.full_name}"

    def save(self, *args, **kwargs):
        self.kind = Entry.Kind.PAIRS
        if self.heat_id is not None and not self.competition_id:
            self.competition_id = self.heat.competition_id
        super().save(*args, **kwargs)

    @property
    def is_direct_qualifier(self) -> bool:
        return self.entered_as == self.EnteredAs.DIRECT


#: ``ReserveNotice.session`` for a reserve in the DM final (R-PAIR-RES-2). Heat sessions are
#: 1 and 2; the final is session 0.
FINAL_SESSION = 0


def pair_key(mid1: str, mid2: str) -> str:
    """A final pair's key: its players' MIDs sorted and joined ("mid1-mid2")."""
    return "-".join(sorted((str(mid1), str(mid2))))


class ReserveNotice(models.Model):
    """R-PAIR-RES-1: a reserve notified to the organiser before the session."""

    entry = models.ForeignKey(
        PairEntry, on_delete=models.CASCADE, related_name="reserve_notices", verbose_name=_("par")
    )
    session = models.PositiveSmallIntegerField(_("speltillfälle"), default=1)
    replaced_player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("ordinarie spelare")
    )
    reserve = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("reserv")
    )
    notified_at = models.DateTimeField(_("anmäld"))
    notified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("meddelad av"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("reservanmälan")
        verbose_name_plural = _("reservanmälningar")

    def __str__(self) -> str:
        return _("%(reserve)s för %(player)s (speltillfälle %(session)s)") % {
            "reserve": self.reserve.full_name,
            "player": self.replaced_player.full_name,
            "session": self.session,
        }


class PairHeatChangeRequest(HeatChangeRequest):
    """R-PAIR-KVAL-2: a request to move or cancel a pair heat after the registration deadline,
    which TK approves or rejects (``clubs.services.heats.decide_heat_change``)."""

    heat = models.ForeignKey(
        PairHeat, on_delete=models.CASCADE, related_name="change_requests", verbose_name=_("heat")
    )
    history = HistoricalRecords()

    class Meta(HeatChangeRequest.Meta):
        pass


class ExternalQualifier(models.Model):
    """A qualifier a player played outside this system (another dfb) this season, recorded
    by TK for R-PAIR-KVAL-7 and R-PAIR-RES-2."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("spelare")
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="+", verbose_name=_("säsong")
    )
    discipline = models.CharField(
        _("disciplin"), max_length=10, choices=PairCompetition.DISCIPLINE_CHOICES
    )
    district = models.CharField(_("distrikt"), max_length=16)
    played_on = models.DateField(_("speldag"))
    note = models.CharField(_("anteckning"), max_length=200, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("kval i annat distrikt")
        verbose_name_plural = _("kval i andra distrikt")

    def __str__(self) -> str:
        return f"{self.player.full_name}: {self.district} {self.played_on:%Y-%m-%d}"


class SmPartnerDeclaration(models.Model):
    """R-PAIR-RES-4: the partner a player qualified to SM declares for the SM stage."""

    competition = models.ForeignKey(
        PairCompetition, on_delete=models.CASCADE, related_name="+", verbose_name=_("tävling")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("spelare")
    )
    partner = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("partner")
    )
    declared_at = models.DateTimeField(_("anmäld"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("registrerad av"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("SM-partneranmälan")
        verbose_name_plural = _("SM-partneranmälningar")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "player"], name="one_sm_partner_declaration"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player.full_name} – {self.partner.full_name} ({self.competition})"

"""Uploads of result files, the pair results they carry, standings snapshots, allocation runs
and lots. Everything computed here can be recomputed from the raw uploads and TK decisions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs import clock
from clubs.models import Competition, Heat, Player, Season
from pairs.models import PairCompetition, PairEntry, PairHeat, pair_key


class ResultUpload(models.Model):
    """A results file as uploaded, kept with its checksum. A corrected re-upload supersedes
    the earlier one; both stay in the history."""

    class Format(models.TextChoices):
        PBN = "pbn", "PBN 2.1"
        USEBIO = "usebio", "USEBIO XML"
        CSV = "csv", "CSV"

    class Status(models.TextChoices):
        ACCEPTED = "accepted", _("inläst")
        REJECTED = "rejected", _("avvisad")
        SUPERSEDED = "superseded", _("ersatt")

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="uploads", verbose_name=_("tävling")
    )
    heat = models.ForeignKey(
        Heat,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="uploads",
        verbose_name=_("kvalheat"),
        help_text=_("tomt för finalen"),
    )
    round = models.PositiveSmallIntegerField(_("rond"), null=True, blank=True)
    #: A pair heat of two sessions (R-PAIR-KVAL-6): the session this file holds, 1 or 2;
    #: empty for a file of the whole heat (every heat of one session, or both sessions in one
    #: file) and for every other upload.
    session = models.PositiveSmallIntegerField(_("speltillfälle"), null=True, blank=True)
    file = models.FileField(_("fil"), upload_to="results/%Y/%m/")
    original_name = models.CharField(_("filnamn"), max_length=200)
    format = models.CharField(_("format"), max_length=8, choices=Format.choices)
    checksum = models.CharField(_("SHA-256"), max_length=64, db_index=True)
    size = models.PositiveIntegerField(_("storlek (byte)"))
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("uppladdad av"),
    )
    uploaded_at = models.DateTimeField(_("uppladdad"), default=clock.now, editable=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    errors = models.JSONField(_("fel"), default=list, blank=True)
    warnings = models.JSONField(_("varningar"), default=list, blank=True)
    supersedes = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="superseded_by",
        verbose_name=_("ersätter"),
    )
    #: The team matches whose results this file set (a team upload); a corrected file takes
    #: them over, and a match the corrected file lacks is left with none.
    matches = models.ManyToManyField(
        "teams.Match", blank=True, related_name="uploads", verbose_name=_("matcher")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("resultatfil")
        verbose_name_plural = _("resultatfiler")
        ordering = ["-uploaded_at", "-id"]

    def __str__(self) -> str:
        return f"{self.original_name} ({self.get_status_display()})"


class PairResult(models.Model):
    """A pair's result in a heat, from the accepted upload."""

    upload = models.ForeignKey(
        ResultUpload,
        on_delete=models.CASCADE,
        related_name="pair_results",
        verbose_name=_("uppladdning"),
    )
    heat = models.ForeignKey(
        PairHeat, on_delete=models.CASCADE, related_name="results", verbose_name=_("heat")
    )
    entry = models.ForeignKey(
        PairEntry, on_delete=models.CASCADE, related_name="results", verbose_name=_("anmälan")
    )
    total = models.DecimalField(_("poäng"), max_digits=8, decimal_places=2)
    percentage = models.DecimalField(_("procent"), max_digits=6, decimal_places=2)
    boards_played = models.PositiveSmallIntegerField(_("spelade brickor"))
    #: The matchpoints scored on the boards played (not factored) and the most the pair could
    #: have scored on them (boards played × the top), on the file's scale: a heat of two
    #: session files adds them up (results.services.recompute.pairs.combine_sessions).
    matchpoints = models.DecimalField(_("matchpoäng"), max_digits=8, decimal_places=2, default=0)
    maximum = models.DecimalField(_("max matchpoäng"), max_digits=8, decimal_places=2, default=0)

    class Meta:
        verbose_name = _("parresultat")
        verbose_name_plural = _("parresultat")
        constraints = [
            models.UniqueConstraint(fields=["upload", "entry"], name="one_result_per_pair_upload")
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.percentage} %"


class PairTraveller(models.Model):
    """A traveller line of a pairs heat: who met whom on which board, and the matchpoints
    (needed for R-PAIR-TIE-1: boards won among tied pairs, head-to-head)."""

    upload = models.ForeignKey(
        ResultUpload,
        on_delete=models.CASCADE,
        related_name="travellers",
        verbose_name=_("uppladdning"),
    )
    board_number = models.PositiveSmallIntegerField(_("bricka"))
    ns = models.ForeignKey(
        PairEntry, on_delete=models.CASCADE, related_name="+", verbose_name=_("par NS")
    )
    ew = models.ForeignKey(
        PairEntry, on_delete=models.CASCADE, related_name="+", verbose_name=_("par ÖV")
    )
    contract = models.CharField(_("kontrakt"), max_length=8, blank=True)
    declarer = models.CharField(_("spelförare"), max_length=1, blank=True)
    tricks = models.PositiveSmallIntegerField(_("stick"), null=True, blank=True)
    score_ns = models.IntegerField(_("NS-poäng"), null=True, blank=True)
    mp_ns = models.DecimalField(_("MP NS"), max_digits=6, decimal_places=2)
    mp_ew = models.DecimalField(_("MP ÖV"), max_digits=6, decimal_places=2)
    adjusted = models.CharField(_("justerat"), max_length=12, blank=True)

    class Meta:
        verbose_name = _("travellerrad")
        verbose_name_plural = _("travellerrader")
        indexes = [models.Index(fields=["upload", "board_number"])]

    def __str__(self) -> str:
        return _("Bricka %(board)s: %(ns)s – %(ew)s") % {
            "board": self.board_number,
            "ns": self.ns,
            "ew": self.ew,
        }


class PairFinalResult(models.Model):
    """A pair's result in the DM pairs final, from the accepted upload. The final's pairs are
    known by their players (MIDs), not by a pair number in the system."""

    upload = models.ForeignKey(
        ResultUpload,
        on_delete=models.CASCADE,
        related_name="pair_final_results",
        verbose_name=_("uppladdning"),
    )
    competition = models.ForeignKey(
        PairCompetition,
        on_delete=models.CASCADE,
        related_name="final_results",
        verbose_name=_("tävling"),
    )
    player1 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("spelare 1")
    )
    player2 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("spelare 2")
    )
    total = models.DecimalField(_("poäng"), max_digits=8, decimal_places=2)
    percentage = models.DecimalField(_("procent"), max_digits=6, decimal_places=2)
    boards_played = models.PositiveSmallIntegerField(_("spelade brickor"))
    out_of_district = models.BooleanField(
        _("utomdistriktspar"), default=False, help_text=_("ingen av spelarna i en UBF-klubb")
    )

    class Meta:
        verbose_name = _("finalresultat (par)")
        verbose_name_plural = _("finalresultat (par)")
        constraints = [
            models.UniqueConstraint(
                fields=["upload", "player1", "player2"], name="one_final_result_per_pair_upload"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player1.full_name} – {self.player2.full_name}: {self.percentage} %"

    @property
    def key(self) -> str:
        """The pair's key in the final's travellers: the two MIDs, sorted, joined by "-"."""
        return pair_key(self.player1.mid, self.player2.mid)


class PairFinalTraveller(models.Model):
    """A traveller line of the pairs final (R-PAIR-TIE-1 for SM places); pairs by key."""

    upload = models.ForeignKey(
        ResultUpload,
        on_delete=models.CASCADE,
        related_name="pair_final_travellers",
        verbose_name=_("uppladdning"),
    )
    board_number = models.PositiveSmallIntegerField(_("bricka"))
    ns_key = models.CharField(_("NS (MID-par)"), max_length=41)
    ew_key = models.CharField(_("ÖV (MID-par)"), max_length=41)
    mp_ns = models.DecimalField(_("MP NS"), max_digits=6, decimal_places=2)
    mp_ew = models.DecimalField(_("MP ÖV"), max_digits=6, decimal_places=2)

    class Meta:
        verbose_name = _("travellerrad (parfinal)")
        verbose_name_plural = _("travellerrader (parfinal)")
        indexes = [models.Index(fields=["upload", "board_number"])]

    def __str__(self) -> str:
        return _("Bricka %(board)s: %(ns)s – %(ew)s") % {
            "board": self.board_number,
            "ns": self.ns_key,
            "ew": self.ew_key,
        }


class StandingSnapshot(models.Model):
    """Computed standings with their explanations, served to pages as they are."""

    class Scope(models.TextChoices):
        PAIR_HEAT = "pair_heat", _("parkval")
        TEAM_HEAT = "team_heat", _("lagkval")
        TEAM_FINAL = "team_final", _("lagfinal")
        PAIR_FINAL = "pair_final", _("parfinal")

    scope = models.CharField(_("omfattning"), max_length=12, choices=Scope.choices)
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="+", verbose_name=_("tävling")
    )
    heat = models.ForeignKey(
        Heat,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("heat"),
    )
    computed_at = models.DateTimeField(_("beräknad"), default=clock.now, editable=False)
    provisional = models.BooleanField(_("preliminär"), default=True)
    rounds_played = models.PositiveSmallIntegerField(_("spelade ronder"), default=0)
    data = models.JSONField(_("ställning"), default=list)
    # The accepted files (ids) a pair heat's standing was computed from: the recompute reuses
    # the standing only while they are the same (ids, not times: the demo clock can go back).
    upload_ids = models.JSONField(_("beräknad ur filerna"), default=list, editable=False)

    class Meta:
        verbose_name = _("ställning")
        verbose_name_plural = _("ställningar")
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "competition", "heat"],
                name="one_snapshot_per_scope",
                nulls_distinct=False,
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_scope_display()}: {self.heat or self.competition}"


class AllocationRun(models.Model):
    """The allocation of final places over the venues (R-ALLOC-*, R-TEAM-ADV-1), explained."""

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="+", verbose_name=_("tävling")
    )
    computed_at = models.DateTimeField(_("beräknad"), default=clock.now, editable=False)
    provisional = models.BooleanField(_("preliminär"), default=True)
    final_size = models.PositiveSmallIntegerField(_("finalstorlek"))
    seats = models.PositiveSmallIntegerField(_("platser till kvalorterna"))
    qualifying_entries = models.PositiveIntegerField(_("kvalande"))
    explanation = models.JSONField(_("förklaring"), default=dict)

    class Meta:
        verbose_name = _("platsfördelning")
        verbose_name_plural = _("platsfördelningar")

    def __str__(self) -> str:
        return _("Platsfördelning: %(competition)s") % {"competition": self.competition}


class Lot(models.Model):
    """A lot between equal venues (R-ALLOC-5): drawn by the system with a recorded seed, or
    entered by TK when drawn by hand. Losers hold precedence for five seasons, used once."""

    Kind = Competition.Kind  # precedence is shared within a kind (pairs or teams)

    kind = models.CharField(_("slag"), max_length=5, choices=Kind.choices)
    season = models.ForeignKey(Season, on_delete=models.PROTECT, verbose_name=_("säsong"))
    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("tävling"),
    )
    # Venue keys are the arranging clubs' ids, sorted and joined ("12" or "12+15"), so that a
    # venue can be recognised in a later season; labels are kept for display.
    among = models.JSONField(_("bland"), default=list)
    winners = models.JSONField(_("vinnare"), default=list)
    losers = models.JSONField(_("förlorare"), default=list)
    labels = models.JSONField(_("namn"), default=dict)
    seats = models.PositiveSmallIntegerField(_("platser som lottades"))
    seed = models.CharField(_("seed"), max_length=64, blank=True)
    drawn_by_hand = models.BooleanField(_("dragen för hand av TK"), default=False)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("lottad av"),
    )
    drawn_at = models.DateTimeField(_("dragen"), default=clock.now, editable=False)
    precedence_used_by = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="used_precedence_of",
        verbose_name=_("företräde använt i"),
    )
    explanation = models.TextField(_("förklaring"), blank=True)
    witnesses = models.TextField(
        _("vittnen"), blank=True, help_text=_("Vilka som såg lottningen dras (R-ALLOC-5).")
    )
    # "" for a lot between venues (R-ALLOC-5); for a tie inside standings (R-TEAM-TIE-1,
    # R-PAIR-TIE-1) the standing it settles: "team_heat:<heat id>", "team_final",
    # "pair_heat:<heat id>" or "pair_final". Such a lot orders all of ``among`` (``winners`` is
    # the drawn order) and gives no precedence (``losers`` is empty).
    standing = models.CharField(_("tabell"), max_length=40, blank=True, default="")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("lottning")
        verbose_name_plural = _("lottningar")
        ordering = ["-drawn_at"]

    def __str__(self) -> str:
        names = [self.labels.get(str(k), str(k)) for k in self.among]
        return _("Lottning mellan %(among)s") % {"among": ", ".join(names)}


class RecomputeStatus(models.Model):
    """When a competition's recompute was last asked for, started and finished: pages show
    "last computed" and whether a recompute is pending."""

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="+", verbose_name=_("tävling")
    )
    requested_at = models.DateTimeField(_("begärd"), null=True, blank=True)
    started_at = models.DateTimeField(_("startad"), null=True, blank=True)
    finished_at = models.DateTimeField(_("klar"), null=True, blank=True)
    runs = models.PositiveIntegerField(_("antal körningar"), default=0)
    last_error = models.TextField(_("senaste fel"), blank=True)

    class Meta:
        verbose_name = _("omräkning")
        verbose_name_plural = _("omräkningar")

    def __str__(self) -> str:
        return _("Omräkning: %(competition)s") % {"competition": self.competition}

    @property
    def pending(self) -> bool:
        if self.requested_at is None:
            return False
        return self.finished_at is None or self.requested_at > self.finished_at

"""What the fee lists and the reminders keep: the payment status of a fee line and the log of
reminders sent (so each is sent once)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs import clock


class ReminderLog(models.Model):
    """One reminder sent (idempotence: each kind, object and offset is sent once)."""

    kind = models.CharField(_("slag"), max_length=60)
    object_type = models.CharField(_("objekttyp"), max_length=60)
    object_id = models.PositiveBigIntegerField(_("objekt-id"))
    offset = models.CharField(_("tidpunkt"), max_length=30)
    sent_at = models.DateTimeField(_("skickad"), default=clock.now, editable=False)
    recipients = models.JSONField(_("mottagare"), default=list)
    subject = models.CharField(_("ämne"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("påminnelse")
        verbose_name_plural = _("påminnelser (skickade)")
        ordering = ["-sent_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "object_type", "object_id", "offset"], name="reminder_sent_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.sent_at:%Y-%m-%d %H:%M} {self.subject or self.kind}"


class FeeStatus(models.Model):
    """Payment status of a fee line computed by the rules (the lines themselves are derived):
    collected by the heat responsible, passed to UBF, marked paid."""

    object_type = models.CharField(_("objekttyp"), max_length=60)
    object_id = models.PositiveBigIntegerField(_("objekt-id"))
    kind = models.CharField(_("avgift"), max_length=40)
    collected_on = models.DateField(_("inbetald till arrangören"), null=True, blank=True)
    passed_to_ubf_on = models.DateField(_("vidarebefordrad till UBF"), null=True, blank=True)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("markerad av"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("avgiftsstatus")
        verbose_name_plural = _("avgiftsstatus")
        constraints = [
            models.UniqueConstraint(
                fields=["object_type", "object_id", "kind"], name="one_status_per_fee"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.object_type} {self.object_id}"

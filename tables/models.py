"""What the table pages and the table API keep of their own: each write's idempotency key and its answer.

A table's phone stores what it enters while the hall's network is down (load-shedding) and sends it when the
network returns; a request may then reach the server more than once (a lost answer, a retry, a reload), so
every table write carries a client-generated key (a UUID: the form's ``client_id`` or the API's
``Idempotency-Key`` header). :class:`TableWrite` keeps the key with the answer the write got, in the same
transaction as the write itself (``tables.services.table_write_once``): a replay gets that answer again and
never writes a second row (DOMAIN.md "A match night at the table": each entry exactly once).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from matches.models import Match, TableDevice


class TableWrite(models.Model):
    """One write of a table device under its idempotency ``key``: what it was and the answer it got.

    A key is accepted once per table of a match (so once per device, and still once when the phone signed in
    again with a new device between two tries); ``fingerprint`` is a hash of what the request asked, so the
    same key sent with another request is refused rather than answered with the first one's result. Only
    writes that succeeded are kept: a refused write wrote nothing, and may be sent again with the same key.
    """

    class Kind(models.TextChoices):
        GOING_ON = "going_on", gettext_lazy("Going on")
        CONFIRM = "confirm", gettext_lazy("Confirmation")
        DISPUTE = "dispute", gettext_lazy("Dispute")
        AF = "af", gettext_lazy("“Af” (a straf claim)")
        DEAL = "deal", gettext_lazy("A deal's line (a game scored deal by deal)")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", verbose_name=gettext_lazy("match"))
    table_number = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("table number"))
    device = models.ForeignKey(
        TableDevice, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text=gettext_lazy("The device that sent it (kept empty once that device is signed out)."),
     verbose_name=gettext_lazy("device"))
    key = models.CharField(
        max_length=64,
        help_text=gettext_lazy("The client's idempotency key, e.g. a UUID."),
        verbose_name=gettext_lazy("key"),
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, verbose_name=gettext_lazy("kind"))
    fingerprint = models.CharField(
        max_length=64,
        help_text=gettext_lazy("SHA-256 of what the request asked."),
        verbose_name=gettext_lazy("fingerprint"),
    )
    status_code = models.PositiveSmallIntegerField(
        help_text=gettext_lazy("The HTTP status the write answered."), verbose_name=gettext_lazy("status code")
    )
    result = models.JSONField(
        help_text=gettext_lazy("The answer the write gave, replayed to a repeat of the key."),
        verbose_name=gettext_lazy("result"),
    )
    entered_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=gettext_lazy("When the device says it was entered (it may have waited offline)."),
        verbose_name=gettext_lazy("entered at"),
    )
    received_at = models.DateTimeField(default=timezone.now, verbose_name=gettext_lazy("received at"))

    class Meta:
        verbose_name = gettext_lazy("table write")
        verbose_name_plural = gettext_lazy("table writes")
        ordering = ["match", "table_number", "received_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "table_number", "key"], name="table_write_key_once"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.key} at table {self.table_number} of {self.match_id}"

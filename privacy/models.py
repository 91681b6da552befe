"""What the privacy app records: consents given or withdrawn, and erasures done (POPIA, issue 35).

A consent row is never edited: withdrawing adds a row with ``given=False``; the newest row for a player and a
kind is the player's answer (``privacy.consent``). An erasure row names no one: it keeps the union, the "Former
player N" number, who erased and when (POPIA s24 asks for the deletion; the union must still show it was done).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class Consent(models.Model):
    """One answer of one player to one optional use of their personal information (POPIA s11(1)(a)).

    Kinds: ``email`` (keep the player's e-mail address), ``phone`` (keep the phone number), ``full_name_public``
    (show the full name on public pages). ``recorded_by`` is the account that recorded it (a secretary at
    registration, or the player); ``source`` says where (the registry form, an import, the player's own page).
    """

    class Kind(models.TextChoices):
        EMAIL = "email", gettext_lazy("Keep my e-mail address")
        PHONE = "phone", gettext_lazy("Keep my phone number")
        FULL_NAME_PUBLIC = "full_name_public", gettext_lazy("Show my full name on public pages")

    class Source(models.TextChoices):
        REGISTRY = "registry", gettext_lazy("registry form")
        IMPORT = "import", gettext_lazy("registry import")
        SELF = "self", gettext_lazy("the player's own page")
        INVITATION = "invitation", gettext_lazy("invitation")
        API = "api", gettext_lazy("API")

    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="consents", verbose_name=gettext_lazy("player")
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, verbose_name=gettext_lazy("to what"))
    given = models.BooleanField(verbose_name=gettext_lazy("given"))
    recorded_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("recorded at"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=gettext_lazy("recorded by"),
    )
    source = models.CharField(max_length=20, choices=Source.choices, verbose_name=gettext_lazy("where"))

    class Meta:
        verbose_name = gettext_lazy("consent")
        verbose_name_plural = gettext_lazy("consents")
        ordering = ["player", "kind", "-recorded_at", "-id"]
        indexes = [models.Index(fields=["player", "kind", "-recorded_at"], name="consent_newest")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {'yes' if self.given else 'no'}"


class Erasure(models.Model):
    """That a person was erased, without saying who (POPIA s24): the union, the former-player number, by whom."""

    union = models.ForeignKey(
        "clubs.Union", on_delete=models.PROTECT, related_name="erasures", verbose_name=gettext_lazy("union")
    )
    former_number = models.PositiveIntegerField(verbose_name=gettext_lazy("former player number"))
    erased_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("erased at"))
    erased_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=gettext_lazy("erased by"),
    )
    how = models.CharField(
        max_length=20,
        default="page",
        help_text=gettext_lazy("page, command or retention"),
        verbose_name=gettext_lazy("how"),
    )
    rows_changed = models.PositiveIntegerField(default=0, verbose_name=gettext_lazy("rows changed"))

    class Meta:
        verbose_name = gettext_lazy("erasure")
        verbose_name_plural = gettext_lazy("erasures")
        ordering = ["-erased_at"]
        constraints = [
            models.UniqueConstraint(fields=["union", "former_number"], name="erasure_unique_number_in_union")
        ]

    def __str__(self) -> str:
        return f"Former player {self.former_number}"

"""The referee's records of a match night: straf claims, disputed hands, rulings and queries.

A referee (or the marker at a final, SAKBOC 1.11) logs a **straf** (punishment) claim when a player calls
"af" at a table; checks the hand with the rules engine when it is disputed; and records a **ruling**,
which is final (SAKBOC 1.10) and goes on the table's boem sheet through the match services. A captain who
disagrees has a **query** noted on the score-sheet (SAKBOC 1.10). Every record keeps its history
(django-simple-history): who changed what, when.

Sides are ``home`` and ``away`` (the match's teams); roles are ``telman`` (the counter) and ``byspeler``
(the partner). Offence codes are the rules engine's (``engine.offences.Offence``: ``versak``,
``ondertroef``, ``signs``, ...), with their rule citations copied onto the claim when it is logged so the
match report keeps the clause as cited that night.
"""

import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords


class Side(models.TextChoices):
    """A match's two teams."""

    HOME = "home", gettext_lazy("Home")
    AWAY = "away", gettext_lazy("Away")

    @classmethod
    def other(cls, side: str) -> "Side":
        """The opposing side."""
        return cls.AWAY if side == cls.HOME else cls.HOME


class Role(models.TextChoices):
    """Seat roles in a partnership (fixed for the night, SAKBOC 11.3)."""

    TELMAN = "telman", gettext_lazy("Telman (counter)")
    BYSPELER = "byspeler", gettext_lazy("Byspeler (partner)")


HALF_CHOICES = [(1, gettext_lazy("First half")), (2, gettext_lazy("Second half"))]


class StrafClaim(models.Model):
    """A straf (punishment) claimed at a table: who called "af", against whom, for which offence, when.

    ``offence`` is an engine offence code (``versak``); ``rules`` the citations it carried when logged
    (``"SAKBOC 3.3, Notes §VII"``). ``moment`` says where in the hand (``"trick 3, second card"``).
    The claim is decided by its :class:`Ruling`; until then it is open.
    """

    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="straf_claims", verbose_name=gettext_lazy("match")
    )
    table = models.ForeignKey(
        "matches.MatchTable", on_delete=models.CASCADE, related_name="straf_claims", verbose_name=gettext_lazy("table")
    )
    half = models.PositiveSmallIntegerField(choices=HALF_CHOICES, default=1, verbose_name=gettext_lazy("half"))
    claimant_side = models.CharField(max_length=4, choices=Side.choices, verbose_name=gettext_lazy("claimant side"))
    claimant_role = models.CharField(
        max_length=8,
        choices=Role.choices,
        help_text=gettext_lazy(
            "Only the telman may punish counting and going-on errors (SAKBOC 6.8); the byspeler punishes "
            "everything else."
        ),
        verbose_name=gettext_lazy("claimant role"),
    )
    accused_role = models.CharField(
        max_length=8, choices=Role.choices, help_text=gettext_lazy("The accused sits for the other side.")
    , verbose_name=gettext_lazy("accused role"))
    offence = models.CharField(
        max_length=40,
        blank=True,
        help_text=gettext_lazy(
            "The rules engine's offence code, e.g. 'versak'; empty when 'af' named none (SAKBOC 6.7: the word "
            "need not name the offence) until the referee names it."
        ),
        verbose_name=gettext_lazy("offence"),
    )
    rules = models.CharField(
        max_length=200,
        blank=True,
        help_text=gettext_lazy("Rule citations of the offence, e.g. 'SAKBOC 3.3, Notes §VII'."),
        verbose_name=gettext_lazy("rules"),
    )
    moment = models.CharField(
        max_length=200, blank=True, help_text=gettext_lazy("Where in the hand, e.g. 'hand 2, trick 3, second card'.")
    , verbose_name=gettext_lazy("moment"))
    note = models.TextField(blank=True, verbose_name=gettext_lazy("note"))
    logged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("The referee who logged it; empty when 'af' was said on the table's device."),
     verbose_name=gettext_lazy("logged by"))
    device = models.ForeignKey(
        "matches.TableDevice", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text=gettext_lazy("The table's device 'af' was said on."),
     verbose_name=gettext_lazy("device"))
    logged_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("logged at"))
    key = models.UUIDField(
        default=uuid.uuid4,
        unique=True,
        editable=False,
        help_text=gettext_lazy(
            "Names the claim in every installation: a night file carries it (referee/night_transfer.py), so "
            "the same claim imported twice is one claim."
        ),
        verbose_name=gettext_lazy("key"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("straf claim")
        verbose_name_plural = gettext_lazy("straf claims")
        ordering = ["logged_at", "id"]

    def __str__(self) -> str:
        return f"Table {self.table.number}: {self.claimant_side} {self.claimant_role} claims {self.offence or 'af'}"

    @property
    def accused_side(self) -> str:
        """The side accused: always the claimant's opponents."""
        return Side.other(self.claimant_side)

    @property
    def is_open(self) -> bool:
        """True until a ruling is recorded."""
        return not hasattr(self, "ruling")


class DisputedHand(models.Model):
    """A disputed hand entered (or uploaded) as a hand record and checked by the rules engine.

    ``record`` is the engine's hand-record JSON (format ``klawerjas-hand`` version 1, docs/hand-record.md);
    while ``status`` is ``entering`` it grows card by card. ``home_seats`` says which seats the home
    partnership sits in (``even``: seats 0 and 2; ``odd``: seats 1 and 3), so the engine's teams map to the
    match's sides. ``verdict`` is the engine's verdict JSON once adjudicated.
    """

    class Status(models.TextChoices):
        ENTERING = "entering", gettext_lazy("Being entered")
        ADJUDICATED = "adjudicated", gettext_lazy("Adjudicated by the engine")

    class Source(models.TextChoices):
        ENTERED = "entered", gettext_lazy("Entered with the card picker")
        UPLOADED = "uploaded", gettext_lazy("Uploaded hand record")

    class HomeSeats(models.TextChoices):
        EVEN = "even", gettext_lazy("Seats 0 and 2")
        ODD = "odd", gettext_lazy("Seats 1 and 3")

    claim = models.OneToOneField(
        StrafClaim, on_delete=models.CASCADE, related_name="disputed_hand", verbose_name=gettext_lazy("claim")
    )
    record = models.JSONField(
        help_text=gettext_lazy("The hand record (engine format klawerjas-hand, version 1)."),
        verbose_name=gettext_lazy("record"),
    )
    home_seats = models.CharField(
        max_length=4, choices=HomeSeats.choices, default=HomeSeats.EVEN, verbose_name=gettext_lazy("home seats")
    )
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.ENTERING, verbose_name=gettext_lazy("status")
    )
    source = models.CharField(
        max_length=8, choices=Source.choices, default=Source.ENTERED, verbose_name=gettext_lazy("source")
    )
    verdict = models.JSONField(
        null=True,
        blank=True,
        help_text=gettext_lazy("The engine's verdict, as it returned it."),
        verbose_name=gettext_lazy("verdict"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=gettext_lazy("created by")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("created at"))
    adjudicated_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("adjudicated at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("disputed hand")
        verbose_name_plural = gettext_lazy("disputed hands")

    def __str__(self) -> str:
        return f"Disputed hand for claim {self.claim_id}"

    def side_of_seat(self, seat: int) -> str:
        """The match side (``home``/``away``) of a record seat 0..3."""
        even = seat % 2 == 0
        home_even = self.home_seats == self.HomeSeats.EVEN
        return Side.HOME if even == home_even else Side.AWAY


class Ruling(models.Model):
    """The referee's decision on a straf claim; final (SAKBOC 1.10).

    ``decision`` is upheld or rejected. ``engine_decision`` is what the engine's verdict said (empty when
    the offence is the referee's judgement, DOMAIN.md interpretation 5, or no hand was checked); a decision
    that differs from it is an overrule and needs ``overrule_reason``. ``punished_side`` is the side that
    loses the boem: the accused when upheld, the claimant when rejected (a wrong straf punishes the
    punisher, Notes §VII). ``points`` go to the other side (2 or 4, SAKBOC 6.2; 6.6's extra 2 when a
    counter who had claimed points was punished wrongly). ``clause`` is the rule the ruling rests on.
    ``boem_entry`` is the boem-sheet line the match services wrote for it.
    """

    class Decision(models.TextChoices):
        UPHELD = "upheld", gettext_lazy("Upheld")
        REJECTED = "rejected", gettext_lazy("Rejected (wrong straf)")

    claim = models.OneToOneField(
        StrafClaim, on_delete=models.CASCADE, related_name="ruling", verbose_name=gettext_lazy("claim")
    )
    decision = models.CharField(max_length=8, choices=Decision.choices, verbose_name=gettext_lazy("decision"))
    engine_decision = models.CharField(
        max_length=8, choices=Decision.choices, blank=True, verbose_name=gettext_lazy("engine decision")
    )
    overrule_reason = models.TextField(
        blank=True, help_text=gettext_lazy("Required when the decision differs from the engine's verdict.")
    , verbose_name=gettext_lazy("overrule reason"))
    punished_side = models.CharField(max_length=4, choices=Side.choices, verbose_name=gettext_lazy("punished side"))
    points = models.PositiveSmallIntegerField(
        help_text=gettext_lazy("Match points to the side not punished (SAKBOC 6.2, 6.6)."),
        verbose_name=gettext_lazy("points"),
    )
    clause = models.CharField(
        max_length=200,
        help_text=gettext_lazy("The rule the ruling rests on, e.g. 'SAKBOC 3.3'."),
        verbose_name=gettext_lazy("clause"),
    )
    claimed_points = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "The wrongly punished side's telman had already claimed points: another 2 (SAKBOC 6.6)."
        ),
        verbose_name=gettext_lazy("claimed points"),
    )
    note = models.TextField(blank=True, verbose_name=gettext_lazy("note"))
    boem_entry = models.ForeignKey(
        "matches.BoemEntry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text=gettext_lazy("The boem-sheet line the ruling wrote (a straf, or a wrong straf reversed)."),
     verbose_name=gettext_lazy("boem entry"))
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=gettext_lazy("referee")
    )
    recorded_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("recorded at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("ruling")
        verbose_name_plural = gettext_lazy("rulings")
        ordering = ["recorded_at", "id"]

    def __str__(self) -> str:
        return f"{self.get_decision_display()}: {self.claim}"

    @property
    def overruled(self) -> bool:
        """True when the referee decided otherwise than the engine."""
        return bool(self.engine_decision) and self.engine_decision != self.decision

    def clean(self) -> None:
        if self.overruled and not self.overrule_reason.strip():
            raise ValidationError(
                {"overrule_reason": _("The engine found otherwise: write the reason for overruling it (SAKBOC 1.10).")}
            )
        if self.points not in (2, 4, 6):
            raise ValidationError({"points": _("SAKBOC 6.5: a straf is worth 2 or 4 points (6 with 6.6's extra 2).")})


class Query(models.Model):
    """A query noted on the score-sheet: the referee's decision is final, but queries can be noted
    (SAKBOC 1.10). Optionally about one table and one ruling."""

    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="queries", verbose_name=gettext_lazy("match")
    )
    table = models.ForeignKey(
        "matches.MatchTable", null=True, blank=True, on_delete=models.SET_NULL, related_name="queries"
    , verbose_name=gettext_lazy("table"))
    ruling = models.ForeignKey(
        Ruling,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="queries",
        verbose_name=gettext_lazy("ruling"),
    )
    raised_by_side = models.CharField(max_length=4, choices=Side.choices, verbose_name=gettext_lazy("raised by side"))
    raised_by = models.CharField(
        max_length=120,
        help_text=gettext_lazy("Who raised it, e.g. the home captain's name."),
        verbose_name=gettext_lazy("raised by"),
    )
    text = models.TextField(verbose_name=gettext_lazy("text"))
    noted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=gettext_lazy("noted by")
    )
    noted_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("noted at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("query")
        ordering = ["noted_at", "id"]
        verbose_name_plural = gettext_lazy("queries")

    def __str__(self) -> str:
        return f"Query by {self.raised_by}"

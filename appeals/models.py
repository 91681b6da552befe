"""Appeals against a referee's ruling or an approved result (issue 22).

On the night the referee's decision is final (SAKBOC 1.10); the union hears appeals afterwards. A captain (or
their club's secretary) lodges an :class:`Appeal` for their side with written grounds, within the union's deadline
(``Union.appeal_deadline_days`` after the match). The union's appeals committee hears it and decides it, upheld or
dismissed, with written reasons, by ``decide_by`` (``Union.appeal_decision_days`` after lodging); past that, the
beat task moves it to the overdue list and reminds the committee once. An upheld appeal amends the ruling
(``referee.services.ruling_amend``) or the result (``matches.results.services.result_correct``); history keeps every
step.

This app sits above ``matches`` and ``referee`` (it imports both; neither imports it). The discipline register and
the union's appeal settings are the registry's (``clubs.models``), so the match services can refuse a suspended
player without knowing about appeals.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords


class Appeal(models.Model):
    """A side's appeal against a ruling at its match (``ruling`` set) or against the match's result (``ruling``
    empty: ``home_score``/``away_score`` are what the committee sets when it upholds it).

    ``ruling_before`` keeps the referee's own decision (``decision``, ``overrule_reason``, ``points``) when an upheld
    appeal amends it, so the referee's statistics count what the referee decided.
    """

    class Status(models.TextChoices):
        LODGED = "lodged", gettext_lazy("Waiting for the appeals committee")
        OVERDUE = "overdue", gettext_lazy("Overdue: not decided by its deadline")
        UPHELD = "upheld", gettext_lazy("Upheld")
        DISMISSED = "dismissed", gettext_lazy("Dismissed")

    OPEN_STATUSES = (Status.LODGED, Status.OVERDUE)

    match = models.ForeignKey(
        "matches.Match", on_delete=models.PROTECT, related_name="appeals", verbose_name=gettext_lazy("match")
    )
    ruling = models.ForeignKey(
        "referee.Ruling",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="appeals",
        help_text=gettext_lazy("The ruling appealed; empty for the result."),
        verbose_name=gettext_lazy("ruling"),
    )
    team = models.ForeignKey("clubs.Team", on_delete=models.PROTECT, related_name="appeals",
                             help_text=gettext_lazy("The side that appeals."), verbose_name=gettext_lazy("team"))
    grounds = models.TextField(
        max_length=2000,
        help_text=gettext_lazy("Why the side appeals, in the captain's words."),
        verbose_name=gettext_lazy("grounds"),
    )
    lodged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=gettext_lazy("lodged by"),
    )
    lodged_at = models.DateTimeField(verbose_name=gettext_lazy("lodged at"))
    deadline = models.DateTimeField(
        help_text=gettext_lazy("The last moment the appeal could be lodged (the union's setting)."),
        verbose_name=gettext_lazy("deadline"),
    )
    decide_by = models.DateTimeField(
        help_text=gettext_lazy("The committee decides by then; later, the appeal is overdue."),
        verbose_name=gettext_lazy("decide by"),
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.LODGED, db_index=True, verbose_name=gettext_lazy("status")
    )
    overdue_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=gettext_lazy("When the beat task found it overdue."),
        verbose_name=gettext_lazy("overdue at"),
    )
    committee_reminded_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=gettext_lazy("When the committee was reminded (once)."),
        verbose_name=gettext_lazy("committee reminded at"),
    )
    reasons = models.TextField(
        blank=True,
        help_text=gettext_lazy("The committee's written reasons for its decision."),
        verbose_name=gettext_lazy("reasons"),
    )
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=gettext_lazy("decided by"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("decided at"))
    home_score = models.IntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy("The corrected score (a result appeal upheld)."),
        verbose_name=gettext_lazy("home score"),
    )
    away_score = models.IntegerField(null=True, blank=True, verbose_name=gettext_lazy("away score"))
    result_before = models.CharField(
        max_length=20,
        blank=True,
        help_text=gettext_lazy("The score before the decision, e.g. '2-0'."),
        verbose_name=gettext_lazy("result before"),
    )
    ruling_before = models.JSONField(
        null=True,
        blank=True,
        help_text=gettext_lazy("The referee's decision before an upheld appeal amended it."),
        verbose_name=gettext_lazy("ruling before"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("appeal")
        verbose_name_plural = gettext_lazy("appeals")
        ordering = ["-lodged_at", "-id"]
        constraints = [
            # One open appeal per side and subject: a second is refused until the first is decided.
            models.UniqueConstraint(fields=["match", "team", "ruling"], condition=models.Q(status__in=["lodged",
                                    "overdue"]), name="appeal_one_open_per_side_and_ruling"),
        ]

    def __str__(self) -> str:
        return f"{self.team} appeal: {self.subject}"

    @property
    def subject(self) -> str:
        """What is appealed, in words."""
        if self.ruling is not None:
            return f"ruling at table {self.ruling.claim.table.number}"
        return "the result"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES

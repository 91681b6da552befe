"""Cross-cutting models."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TaskReceipt(models.Model):
    """A record that a task with a given idempotency key has done its work.

    A broker may deliver a task twice (``acks_late``), so a task that must act once writes its receipt
    in the same transaction as its effect; a second delivery finds the receipt and does nothing.
    The unique ``key`` is what makes that safe under concurrency.
    """

    key = models.CharField(max_length=200, unique=True, help_text="Idempotency key, e.g. 'standings:12:v3'.")
    task = models.CharField(max_length=200, help_text="Dotted name of the task that wrote the receipt.")
    worker = models.CharField(max_length=200, blank=True, help_text="Host name of the worker that ran it.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.task} [{self.key}]"


class OutboxMessage(models.Model):
    """A task to run, written in the same transaction as the change that calls for it (a transactional outbox).

    The need to send an e-mail or recompute the standings is then as durable as the change itself: if the
    broker (Redis) is down when the change commits, or loses the message, the row is still here, and the
    outbox flush (Celery beat, every ``OUTBOX_FLUSH_SECONDS``; and every worker as it starts) sends it again
    until a worker has run it. The worker runs the task and sets ``done_at`` in one transaction, under the row's
    lock, so a message delivered twice runs once (``plumbing.outbox``).
    """

    task = models.CharField(max_length=200, help_text="Registered Celery task name, e.g. "
                            "'matches.standings_recompute'.")
    args = models.JSONField(default=list, blank=True, help_text="The task's positional arguments (ids, in JSON).")
    key = models.CharField(max_length=200, blank=True, help_text="What the task is about, e.g. 'standings:12', for "
                           "readers that run a pending task themselves.")
    created_at = models.DateTimeField(auto_now_add=True)
    dispatched_at = models.DateTimeField(null=True, blank=True, help_text="Last handed to the broker.")
    attempts = models.PositiveIntegerField(default=0, help_text="Times handed to the broker.")
    done_at = models.DateTimeField(null=True, blank=True, help_text="Run to completion (then never run again).")
    last_error = models.TextField(blank=True, help_text="What the last run that failed raised (the operator's page).")

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["id"], condition=models.Q(done_at__isnull=True), name="outbox_pending"),
            models.Index(fields=["key"], condition=models.Q(done_at__isnull=True), name="outbox_pending_key"),
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)} {'done' if self.done_at else 'pending'}"


class UserLanguage(models.Model):
    """The language a user chose with the AF/EN switch, remembered across devices (docs/use/languages.md, "Afrikaans and
    English"). On sign-in it becomes the request's language and the language cookie
    (:mod:`plumbing.language`); a user who never chose has no row and keeps the cookie's or the browser's.

    ``language`` is one of ``settings.LANGUAGES``' codes: ``"en"`` or ``"af"``.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_choice",
                                verbose_name=_("user"))
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("language choice")
        verbose_name_plural = _("language choices")

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"

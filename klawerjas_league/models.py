"""Cross-cutting models."""

from django.db import models


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

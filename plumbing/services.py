"""Services for the cross-cutting models."""

from django.db import IntegrityError, transaction

from plumbing.models import TaskReceipt


def task_receipt_claim(*, key: str, task: str, worker: str = "") -> bool:
    """Write the receipt for ``key`` unless one exists.

    Call inside the transaction that does the task's work, so the receipt and the effect commit together.

    :returns: True when this call wrote the receipt (do the work), False when it was already there (skip).
    """
    try:
        with transaction.atomic():
            TaskReceipt.objects.create(key=key, task=task, worker=worker)
    except IntegrityError:
        return False
    return True

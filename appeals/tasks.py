"""Celery tasks of appeals: the beat task that closes overdue appeals (``CELERY_BEAT_SCHEDULE["appeals-overdue"]``)
and the e-mail tasks (appeals/notifications.py). Tasks take ids or nothing and call services; all idempotent."""

from celery import shared_task

from appeals.notifications import appeal_decided_email, appeal_lodged_email, appeal_overdue_email  # noqa: F401
from appeals.services import appeals_overdue_close


@shared_task(name="appeals.appeals_overdue_close")
def appeals_overdue_close_task() -> list[int]:
    """Move appeals past their decision deadline to the overdue list and remind each committee once.
    :returns: the ids moved (none when run again)."""
    return appeals_overdue_close()

"""Celery tasks of privacy: the daily retention sweep (``CELERY_BEAT_SCHEDULE["privacy-retention"]``). Tasks take
ids or nothing and call services; idempotent (a second run the same day finds nobody)."""

from celery import shared_task

from privacy.retention import retention_sweep


@shared_task(name="privacy.retention_sweep")
def retention_sweep_task() -> int:
    """Blank the e-mail and phone of players inactive longer than their union keeps them (POPIA s14).

    :returns: how many players lost them (0 when run again).
    """
    return retention_sweep()

"""The klawerjas-league Django project: settings, URLs, the Celery app and cross-cutting pieces."""

from klawerjas_league.celery import app as celery_app

__all__ = ["celery_app"]

"""The wiring of the klawerjas-league Django project: settings, URLs (site and API), WSGI/ASGI, the Celery app and
its worker, health and the operator's page, the home page and dashboard. It imports every app; no app imports it."""

from klawerjas_league.celery import app as celery_app

__all__ = ["celery_app"]

from django.apps import AppConfig


class KlawerjasLeagueConfig(AppConfig):
    """Cross-cutting pieces of the project: health checks, task receipts, demo data."""

    name = "klawerjas_league"
    verbose_name = "Klawerjas league"

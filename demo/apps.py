from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo season and drive, and their command; no models."""

    name = "demo"
    verbose_name = "Demo"

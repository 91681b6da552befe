from django.apps import AppConfig


class OfficeConfig(AppConfig):
    """The union office: a union sets itself up, invites its people and brings in its registry (issue 33)."""

    name = "office"
    verbose_name = "Union office"

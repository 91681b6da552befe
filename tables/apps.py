from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The table's device on a match night: its pages and API (DOMAIN.md "A match night at the table")."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = "Match night at the table"

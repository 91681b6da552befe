from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Competitions and matches"

    def ready(self) -> None:
        # The match e-mail tasks live in matches/notifications.py: imported here so every process (web and
        # worker) has them registered with Celery before the outbox delivers one by name.
        from matches import notifications  # noqa: F401

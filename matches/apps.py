from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Competitions and matches"

    def ready(self) -> None:
        # The match e-mail tasks live in matches/notifications.py: imported here so every process (web and
        # worker) has them registered with Celery before the outbox delivers one by name. The registry says
        # when a union's settings change (clubs/signals.py); the standings pages that show them are renewed.
        from clubs.signals import union_settings_changed
        from matches import notifications  # noqa: F401
        from matches.standings import union_standings_pages_renew

        union_settings_changed.connect(union_standings_pages_renew, dispatch_uid="matches.union_standings_pages")

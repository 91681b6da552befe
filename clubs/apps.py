from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = "Unions and clubs"

    def ready(self) -> None:
        # The e-mail tasks live in clubs/notifications.py (imported here so Celery registers them). The role
        # groups get their model permissions after every migrate (clubs/permissions.py); not tied to one
        # sender, because the matches app's permissions exist only once its own post_migrate has run.
        from clubs import notifications  # noqa: F401
        from clubs.permissions import role_groups_sync

        post_migrate.connect(role_groups_sync, dispatch_uid="clubs.role_groups_sync")

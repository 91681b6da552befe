from django.apps import AppConfig


class AppealsConfig(AppConfig):
    name = "appeals"
    verbose_name = "Appeals, discipline and referee consistency"

    def ready(self) -> None:
        # The beat task and the e-mail tasks live in appeals/tasks.py (imported so Celery registers them).
        from appeals import tasks  # noqa: F401

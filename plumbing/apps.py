from django.apps import AppConfig


class PlumbingConfig(AppConfig):
    """The plumbing app: task receipts, the outbox and the user's language (its models keep their first label,
    ``klawerjas_league``, and so their tables and migrations)."""

    name = "plumbing"
    label = "klawerjas_league"
    verbose_name = "Klawerjas league"

    def ready(self) -> None:
        """Make a user's stored language theirs on sign-in, and count the database queries of every connection
        made from now on (the metrics, plumbing/metrics.py)."""
        from django.contrib.auth.signals import user_logged_in

        import plumbing.metrics  # noqa: F401
        from plumbing.language import user_language_on_sign_in

        user_logged_in.connect(user_language_on_sign_in, dispatch_uid="klawerjas-language-sign-in")

from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class TwoStepAdminConfig(admin_apps.AdminConfig):
    """Django's admin, its default site asking the site's administrators for two-step sign-in when
    ``ADMIN_TWO_STEP_REQUIRED`` is on (:class:`klawerjas_league.two_step.TwoStepAdminSite`)."""

    default = False  # named in INSTALLED_APPS; the project's own config is this module's default
    default_site = "klawerjas_league.two_step.TwoStepAdminSite"


class KlawerjasLeagueConfig(AppConfig):
    """Cross-cutting pieces of the project: health checks, task receipts, the outbox, API tokens, demo data."""

    default = True  # this module also holds TwoStepAdminConfig
    name = "klawerjas_league"
    verbose_name = "Klawerjas league"

    def ready(self) -> None:
        """Revoke a user's API tokens when they sign out of the site or their password changes; count failed
        sign-ins per client address; make a user's stored language theirs on sign-in; forget a user's kept two-step
        standing when their authenticator, their roles or their union's setting change."""
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
        from django.db.models.signals import pre_save

        from klawerjas_league.api_auth import tokens_revoke_on_password_change, tokens_revoke_on_sign_out
        from klawerjas_league.language import user_language_on_sign_in
        from klawerjas_league.sign_in import sign_in_failure_record
        from klawerjas_league.two_step import two_step_signals_connect

        user_logged_out.connect(tokens_revoke_on_sign_out, dispatch_uid="klawerjas-tokens-sign-out")
        pre_save.connect(tokens_revoke_on_password_change, sender=get_user_model(),
                         dispatch_uid="klawerjas-tokens-password")
        user_login_failed.connect(sign_in_failure_record, dispatch_uid="klawerjas-sign-in-failures")
        user_logged_in.connect(user_language_on_sign_in, dispatch_uid="klawerjas-language-sign-in")
        two_step_signals_connect()
        # The metrics (klawerjas_league/metrics.py): its database-query counter on every connection made from now on.
        import klawerjas_league.metrics  # noqa: F401

from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class TwoStepAdminConfig(admin_apps.AdminConfig):
    """Django's admin, its default site asking the site's administrators for two-step sign-in when
    ``ADMIN_TWO_STEP_REQUIRED`` is on (:class:`accounts.two_step.TwoStepAdminSite`)."""

    default = False  # named in INSTALLED_APPS; the project's own config is this module's default
    default_site = "accounts.two_step.TwoStepAdminSite"


class AccountsConfig(AppConfig):
    """Signing in: two-step, API tokens, sign-in throttling."""

    default = True  # this module also holds TwoStepAdminConfig
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        """Revoke a user's API tokens when they sign out of the site or their password changes; count failed
        sign-ins per client address; forget a user's kept two-step standing when their authenticator, their roles
        or their union's setting change."""
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_out, user_login_failed
        from django.db.models.signals import pre_save

        from accounts.api_auth import tokens_revoke_on_password_change, tokens_revoke_on_sign_out
        from accounts.sign_in import sign_in_failure_record
        from accounts.two_step import two_step_signals_connect

        user_logged_out.connect(tokens_revoke_on_sign_out, dispatch_uid="klawerjas-tokens-sign-out")
        pre_save.connect(tokens_revoke_on_password_change, sender=get_user_model(),
                         dispatch_uid="klawerjas-tokens-password")
        user_login_failed.connect(sign_in_failure_record, dispatch_uid="klawerjas-sign-in-failures")
        two_step_signals_connect()

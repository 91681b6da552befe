from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    """POPIA for a union's registry: consent records, per-person export, erasure and retention (issue 35)."""

    name = "privacy"
    verbose_name = "Privacy"

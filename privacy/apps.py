from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    """POPIA for a union's registry: consent records, per-person export, erasure and retention (issue 35)."""

    name = "privacy"
    verbose_name = "Privacy"

    def ready(self) -> None:
        # The registry (clubs) says when a player answered the consent questions where they registered; the
        # answers are recorded here (privacy/services.py), the registry knowing nothing of this app.
        from clubs.signals import player_consents_answered
        from privacy.services import consents_record_on_answer

        player_consents_answered.connect(consents_record_on_answer, dispatch_uid="privacy.consents_record")

from django.apps import AppConfig


class RefereeConfig(AppConfig):
    name = "referee"
    verbose_name = "Referee console"

    def ready(self) -> None:
        # The referee's claims, hands and rulings travel in the night file (matches/nightfile/), which
        # matches cannot compose itself: it must not import referee.
        from referee.night_transfer import night_claims_register

        night_claims_register()

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Competitions and matches"

    def ready(self) -> None:
        # The match e-mail tasks live in matches/notifications.py: imported here so every process (web and
        # worker) has them registered with Celery before the outbox delivers one by name. The registry says
        # when a union's settings change (clubs/signals.py); the standings pages that show them are renewed.
        # The public pages kept whole (matches/page_versions.py) are renewed when a match, a team or a
        # competition is saved or deleted, by whatever saved it.
        from django.db.models.signals import post_delete, post_save

        from clubs.models import Board, Club, Team, Union
        from clubs.signals import union_settings_changed
        from matches import notifications  # noqa: F401
        from matches.models import Competition, Match, Season, SeasonHonour
        from matches.page_versions import national_renew_on_save, pages_renew_on_save
        from matches.results.standings import union_standings_pages_renew

        union_settings_changed.connect(union_standings_pages_renew, dispatch_uid="matches.union_standings_pages")
        for model in (Match, Team, Competition):
            for signal in (post_save, post_delete):
                signal.connect(pages_renew_on_save, sender=model, dispatch_uid=f"matches.pages.{model.__name__}")
        # The national and union pages (the home's Board part, /unions/<short>/, /board/): their own token.
        for shown in (Board, Union, Club, Competition, Season, SeasonHonour):
            for signal in (post_save, post_delete):
                signal.connect(national_renew_on_save, sender=shown,
                               dispatch_uid=f"matches.national.{shown.__name__}")

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = "Unions and clubs"

    def ready(self) -> None:
        # The role groups get their model permissions after every migrate (clubs/permissions.py); not tied to
        # one sender, because the matches app's permissions exist only once its own post_migrate has run.
        # History reasons are fitted to simple-history's 100-character column (clubs/services.py).
        from django.db.models.signals import post_delete, post_save
        from simple_history.signals import pre_create_historical_record

        from clubs.models import Player
        from clubs.permissions import role_groups_sync
        from clubs.roles import role_receivers_connect
        from clubs.services import history_reason_fit_on_save, public_names_renew_on_save

        post_migrate.connect(role_groups_sync, dispatch_uid="clubs.role_groups_sync")
        pre_create_historical_record.connect(history_reason_fit_on_save, dispatch_uid="clubs.history_reason_fit")
        # A role's group follows its link however the link is made (clubs/roles.py, issue 33).
        role_receivers_connect()
        # The public pages name players as their union says (POPIA, clubs.selectors.player_public_name): a saved
        # player (a new name, a consent, an erasure) renews the token those pages are kept under.
        post_save.connect(public_names_renew_on_save, sender=Player, dispatch_uid="clubs.public_names.save")
        post_delete.connect(public_names_renew_on_save, sender=Player, dispatch_uid="clubs.public_names.delete")

from django.apps import AppConfig


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = "Players' and teams' records"

    def ready(self) -> None:
        # The records are refreshed by the standings' own durable recompute (matches.results.standings): the same task,
        # the same transaction, so an approval that reaches the standings reaches the records too.
        from matches.results.standings import standings_recomputed
        from records.services import records_recompute_on_standings

        standings_recomputed.connect(records_recompute_on_standings, dispatch_uid="records.recompute")

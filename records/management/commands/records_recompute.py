"""``manage.py records_recompute [--competition ID ...]``: rebuild the records from the boem sheets, on demand.

The standings' recompute keeps the records up to date by itself (records/services.py, incremental); this
command recomputes every line from nothing, for when the lines were written by an older version or a sheet was
changed by hand outside the application (the admin, the database shell).
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from matches.models import Competition
from records.services import records_recompute


class Command(BaseCommand):
    help = "Recompute the players', partnerships' and teams' records from the approved boem sheets (every line)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--competition", type=int, action="append", metavar="ID",
                            help="A competition's id (repeatable); default every competition.")

    def handle(self, *args, competition: list[int] | None = None, **options) -> None:
        competitions = Competition.objects.order_by("pk")
        if competition:
            competitions = competitions.filter(pk__in=competition)
            missing = set(competition) - set(competitions.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"No competition with id {', '.join(map(str, sorted(missing)))}.")
        started, lines = time.perf_counter(), 0
        for item in competitions:
            written = records_recompute(competition_id=item.pk, full=True)
            lines += written
            self.stdout.write(f"{item}: {written} partnership lines")
        seconds = time.perf_counter() - started
        self.stdout.write(self.style.SUCCESS(
            f"Recomputed {competitions.count()} competitions, {lines} lines, in {seconds:.1f} s."))

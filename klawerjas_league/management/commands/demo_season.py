"""``python manage.py demo_season``: build the demo union and play a whole league season with the engine's bots."""

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from klawerjas_league.demo import DEMO_PASSWORD, DemoExists, demo_accounts, demo_season_run, demo_summary


class Command(BaseCommand):
    help = (
        "Build a demo union (clubs, players, captains, referees, an official) and play its home-and-away league "
        "season card by card with the rules engine's bots: boem sheets, strafs decided by the engine, "
        "substitutions, a stopped table, approved results and published standings. Refuses politely (exit 0) "
        "when the demo season is already in the database."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="Everything follows from it (default 2026).")
        parser.add_argument("--clubs", type=int, default=8, help="Number of clubs, 2 to 12 (default 8: 56 nights).")
        parser.add_argument("--size", choices=["small", "full"], default="full",
                            help="full: 75-minute halves (SAKBOC 1.2); small: 15-minute halves.")
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            stats = demo_season_run(
                seed=options["seed"], clubs=options["clubs"], size=options["size"],
                progress=None if options["quiet"] else sys.stderr,
            )
        except DemoExists:
            self.stdout.write("The demo season is already in the database; not playing it again "
                              "(`make clean` starts afresh).")
        except ValueError as error:
            raise CommandError(str(error)) from error
        else:
            for line in demo_summary(stats):
                self.stdout.write(line)
        self.stdout.write(f"Demo accounts (password for each: {DEMO_PASSWORD}):")
        for username, name, role in demo_accounts():
            self.stdout.write(f"  {username:<10} {name:<22} {role}")

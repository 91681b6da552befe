"""``python manage.py demo_season``: build the demo union and play a whole league season with the engine's bots."""

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from demo.drive import play_demo_drive
from demo.season import (
    DEMO_PASSWORD,
    UNION_NAME,
    DemoExists,
    demo_accounts,
    demo_season_run,
    demo_summary,
    demo_tonight_ensure,
    demo_tonight_lines,
)


class Command(BaseCommand):
    help = (
        "Build a demo union (clubs, players, captains, referees, an official) and play its home-and-away league "
        "season card by card with the rules engine's bots: boem sheets, strafs decided by the engine, "
        "substitutions, a stopped table, approved results and published standings; then start tonight's match (a "
        "cup match in progress) and print its table links. Does not play the season twice (exit 0) when it is "
        "already in the database; tonight's match is started again once the last one is over."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="Everything follows from it (default 2026).")
        parser.add_argument("--clubs", type=int, default=8, help="Number of clubs, 2 to 12 (default 8: 56 nights).")
        parser.add_argument("--size", choices=["small", "full"], default="full",
                            help="full: 75-minute halves (SAKBOC 1.2); small: 15-minute halves.")
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")
        parser.add_argument("--site", default="http://127.0.0.1:8000",
                            help="Where the site will be served, for the table links printed at the end.")
        parser.add_argument("--no-tonight", action="store_true",
                            help="Do not start tonight's match (a cup match in progress to play at the tables).")

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
        for line in play_demo_drive(union_name=UNION_NAME, seed=options["seed"]):  # the Rotterdam drive (issue 24)
            self.stdout.write(line)
        self.stdout.write(f"Demo accounts (password for each: {DEMO_PASSWORD}):")
        for username, name, role in demo_accounts():
            self.stdout.write(f"  {username:<10} {name:<22} {role}")
        if not options["no_tonight"]:
            tonight = demo_tonight_ensure()
            if tonight is not None:
                for line in demo_tonight_lines(tonight, site=options["site"].rstrip("/")):
                    self.stdout.write(line)

"""``manage.py night_import FILE [--dry-run]``: bring a match night written by ``night_export`` into this
installation (matches/nightfile/), in one transaction.

On a fresh installation (the laptop at the hall) it creates the union with its officials and referees, the
competition, clubs, teams, players and accounts (without passwords: ``manage.py changepassword <username>``).
Exit 0 when imported or when the file holds nothing new; 2 for a file that cannot be read or is not an intact night
file (checksums), or that names someone for what the pages would not let them do (a referee off the union's list or
conflicted, a result confirmed by someone else than the side's captain...: each refusal on standard error, naming
the place and the person, nothing written); 3 when the file conflicts with what this installation holds: each place
named on standard error, nothing written. ``--dry-run`` says what would be added and writes nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.nightfile.format import NightConflict, NightFileError, NightRefused
from matches.nightfile.imports import night_import


class Command(BaseCommand):
    help = "Import a match night file (from night_export, or the official's page) into this installation."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The night file (JSON); - for standard input.")
        parser.add_argument("--dry-run", action="store_true", help="Say what would be added; write nothing.")

    def handle(self, *args: object, **options: object) -> None:
        name = str(options["file"])
        try:
            data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror}.", returncode=2) from None
        try:
            report = night_import(data=data, dry_run=bool(options["dry_run"]))
        except NightConflict as conflict:
            lines = "\n".join(f"  {c}" for c in conflict.report.conflicts)
            raise CommandError(f"Refused: the file conflicts with this installation; nothing was written.\n{lines}",
                               returncode=3) from None
        except NightRefused as refused:
            lines = "\n".join(f"  {message}" for message in refused.messages)
            raise CommandError(f"Refused: the file names people for what they may not do here; nothing was written."
                               f"\n{lines}", returncode=2) from None
        except NightFileError as error:
            raise CommandError(" ".join(error.messages), returncode=2) from None
        except ValidationError as error:
            raise CommandError("The file cannot be stored here: " + " ".join(error.messages), returncode=2) from None
        if report.nothing_new:
            self.stdout.write(f"{report.title}: nothing new (this installation already holds all of it).")
            return
        verb = "Would import" if options["dry_run"] else "Imported"
        self.stdout.write(f"{verb} {report.title}:")
        for line in report.added:
            self.stdout.write(f"  + {line}")

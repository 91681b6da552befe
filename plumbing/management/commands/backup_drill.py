"""``python manage.py backup_drill --identity FILE``: prove the backups restore (docs/operate/backups.md)."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from plumbing.backups import BackupError, backup_drill, backup_run, backups_listed


class Command(BaseCommand):
    help = (
        "Make a backup of the site's database into BACKUP_DIR (or take the newest there with --newest), restore it "
        "with scripts/restore into a scratch database (never the site's), print every table's row count in both, "
        "and drop the scratch database. Exit 0 when every table holds as many rows; 1 when one differs or the "
        "backup or restore fails. Needs the age identity that decrypts the backups (kept off the server: bring it "
        "for the drill and remove it after)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--identity", type=Path, default=None,
                            help="The age identity file (default: BACKUP_AGE_IDENTITY from the environment).")
        parser.add_argument("--newest", action="store_true",
                            help="Restore the newest backup already in BACKUP_DIR instead of making one now.")

    def handle(self, *args: Any, identity: Path | None, newest: bool, **options: Any) -> None:
        identity = identity or (Path(settings.BACKUP_AGE_IDENTITY) if settings.BACKUP_AGE_IDENTITY else None)
        if identity is None or not identity.is_file():
            raise CommandError("Give the age identity that decrypts the backups: --identity FILE "
                               "(or BACKUP_AGE_IDENTITY).", returncode=2)
        directory = Path(settings.BACKUP_DIR)
        try:
            if newest:
                found = backups_listed(directory=directory)
                if not found:
                    raise CommandError(f"No backup in {directory}.", returncode=2)
                backup = found[0]
            else:
                backup = backup_run(directory=directory)
            report = backup_drill(backup=backup, identity=identity)
        except BackupError as error:
            raise CommandError(f"The drill failed: {error}", returncode=1) from error

        self.stdout.write(f"Restored {report.backup} into a scratch database.")
        width = max((len(name) for name in report.counts), default=5)
        self.stdout.write(f"{'table'.ljust(width)}  {'source':>9}  {'restored':>9}")
        for name, (source, restored) in report.counts.items():
            mark = "" if source == restored else "  DIFFERS"
            self.stdout.write(f"{name.ljust(width)}  {source:>9}  {restored:>9}{mark}")
        total = sum(source for source, _ in report.counts.values())
        if report.differing:
            raise CommandError(f"{len(report.differing)} of {len(report.counts)} tables differ: "
                               f"{', '.join(report.differing)}.", returncode=1)
        self.stdout.write(self.style.SUCCESS(
            f"Drill passed: {len(report.counts)} tables, {total} rows, every count equal."))

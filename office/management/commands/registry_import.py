"""``manage.py registry_import FILE --union SHORT_NAME [--dry-run] [--create-clubs]``: a union's registry of
players from a spreadsheet (``.xlsx`` or ``.csv``), all or nothing (``office.registry.registry_import``).

Exit status: 0 when written (or a clean dry run), the last line ``N created, M updated, K unchanged``; 2 when rows
are refused, each printed as ``row N: reason`` and nothing written; 1 when the file is missing or unreadable or the
union unknown, with the reason on stderr.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Union
from office.registry import RegistryFileError, registry_import


class Command(BaseCommand):
    help = "Import a union's registry of players from a spreadsheet (.xlsx or .csv), all or nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The registry file: .xlsx, or .csv (UTF-8 or Windows-1252, , or ;).")
        parser.add_argument("--union", required=True, help="The union's short name, e.g. SPKU.")
        parser.add_argument("--dry-run", action="store_true", help="Check every row and write nothing.")
        parser.add_argument("--create-clubs", action="store_true", help="Create the clubs the union lacks.")

    def handle(self, *args, file: str, union: str, dry_run: bool, create_clubs: bool, **options) -> None:
        found = Union.objects.filter(short_name__iexact=union.strip()).first()
        if found is None:
            raise CommandError(f"There is no union with the short name {union!r}.", returncode=1)
        path = Path(file)
        try:
            content = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror or error}.", returncode=1) from None
        try:
            report = registry_import(union=found, content=content, file_name=path.name, create_clubs=create_clubs,
                                     dry_run=dry_run)
        except RegistryFileError as error:
            raise CommandError(f"{path.name}: {error}", returncode=1) from None
        refused = report.refused
        if refused:
            for row in refused:
                for reason in row.reasons:
                    self.stdout.write(f"row {row.row_number}: {reason}")
            count = len(refused)
            raise CommandError(f"{count} {'row is' if count == 1 else 'rows are'} refused: nothing has been written.",
                               returncode=2)
        if dry_run:
            self.stdout.write("Dry run: nothing has been written.")
        for name in report.clubs_created:
            self.stdout.write(f"club {'to create' if dry_run else 'created'}: {name}")
        self.stdout.write(report.counts_line())

"""``manage.py person_erase --union SHORT --registration-number N --yes``: erase one player (POPIA s24,
``privacy.erasure.person_erase``): they become "Former player N" everywhere, their optional data goes, their
results stay. Cannot be undone.

Exit status: 0, printing ``Erased: now Former player N``; 1 when the union or player is unknown; 2 without
``--yes`` (nothing done) or when the player is already erased; the reason on stderr.
"""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from privacy.erasure import ErasureRefused, former_name, person_erase
from privacy.management.commands._person import person_arguments, person_find


class Command(BaseCommand):
    help = "Erase one player: they become 'Former player N' everywhere; results stay. Cannot be undone."

    def add_arguments(self, parser: CommandParser) -> None:
        person_arguments(parser)
        parser.add_argument("--yes", action="store_true",
                            help="Confirm: the erasure cannot be undone (without it nothing is done).")

    def handle(self, *args, union: str, registration_number: str, yes: bool, **options) -> None:
        player = person_find(union=union, registration_number=registration_number)
        if not yes:
            raise CommandError(
                f"Nothing done: erasing {player.full_name} ({player.registration_number}) cannot be undone. "
                "Run again with --yes to erase.", returncode=2)
        try:
            erasure = person_erase(player=player, erased_by=None, how="command")
        except ErasureRefused as refusal:
            raise CommandError(" ".join(refusal.messages), returncode=2) from None
        self.stdout.write(f"Erased: now {former_name(erasure.former_number)}")

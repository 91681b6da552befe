"""``manage.py person_export --union SHORT --registration-number N``: everything the installation holds on one
player, as JSON on stdout (POPIA s23, right of access; ``privacy.export.person_export``).

Exit status: 0 with the JSON; 1 when the union or the player is unknown, the reason on stderr.
"""

import json

from django.core.management.base import BaseCommand, CommandParser

from privacy.export import person_export
from privacy.management.commands._person import person_arguments, person_find


class Command(BaseCommand):
    help = "Print everything held on one player (and their account) as JSON (POPIA section 23)."

    def add_arguments(self, parser: CommandParser) -> None:
        person_arguments(parser)

    def handle(self, *args, union: str, registration_number: str, **options) -> None:
        player = person_find(union=union, registration_number=registration_number)
        self.stdout.write(json.dumps(person_export(player=player), indent=2, ensure_ascii=False))

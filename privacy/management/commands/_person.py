"""The person the privacy commands act on: ``--union SHORT --registration-number N`` (shared by ``person_export``
and ``person_erase``)."""

from django.core.management.base import CommandError, CommandParser

from clubs.models import Player, Union


def person_arguments(parser: CommandParser) -> None:
    """Add ``--union`` and ``--registration-number`` (both required)."""
    parser.add_argument("--union", required=True, help="The union's short name, e.g. SPKU.")
    parser.add_argument("--registration-number", required=True, help="The player's registration number.")


def person_find(*, union: str, registration_number: str) -> Player:
    """The union's player with that registration number.

    :raises CommandError: exit status 1, no such union or player (the reason on stderr).
    """
    found = Union.objects.filter(short_name__iexact=union.strip()).first()
    if found is None:
        raise CommandError(f"There is no union with the short name {union!r}.", returncode=1)
    player = (Player.objects.filter(union=found, registration_number=registration_number.strip())
              .select_related("union", "club", "user").first())
    if player is None:
        raise CommandError(f"{found.short_name} has no player with registration number {registration_number!r}.",
                           returncode=1)
    return player

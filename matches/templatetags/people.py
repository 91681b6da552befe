"""``{% load people %}``: ``{{ user|person }}`` names a user as people say it (full name, else username);
``{{ player|public_name }}`` (or ``{{ player|public_name:union.public_names }}``) names a player as pages anyone can
read name them (POPIA: ``clubs.selectors.player_public_name``)."""

from django import template

from clubs.selectors import person_name, player_public_name

register = template.Library()


@register.filter
def person(user, default: str = "—") -> str:
    """The user's full name, their username when they have none, ``default`` for no user."""
    return person_name(user if hasattr(user, "get_username") else None, default)


@register.filter
def public_name(player, public_names: str | None = None) -> str:
    """The player as public pages name them: initials and surname, the full name when the union shows full names
    and the player agreed, "Former player N" once erased. Give the union's ``public_names`` for many players of one
    union (no query per row); without it the player's union is read. "—" for no player."""
    return player_public_name(player, public_names=public_names or None, default="—")

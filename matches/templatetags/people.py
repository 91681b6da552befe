"""``{% load people %}``: ``{{ user|person }}`` names a user as people say it (full name, else username)."""

from django import template

from clubs.selectors import person_name

register = template.Library()


@register.filter
def person(user, default: str = "—") -> str:
    """The user's full name, their username when they have none, ``default`` for no user."""
    return person_name(user if hasattr(user, "get_username") else None, default)

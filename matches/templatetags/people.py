"""``{% load people %}``: ``{{ user|person }}`` names a user as people say it (full name, else username)."""

from django import template

register = template.Library()


@register.filter
def person(user, default: str = "—") -> str:
    """The user's full name, their username when they have none, ``default`` for no user."""
    if user is None or not hasattr(user, "get_username"):
        return default
    return user.get_full_name() or user.get_username()

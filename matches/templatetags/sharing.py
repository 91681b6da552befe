"""Template filters for sharing a page on WhatsApp (issue 38): ``{{ match|match_whatsapp }}`` and
``{{ text|whatsapp }}``, the ``https://wa.me/?text=`` address of a ready text (``matches.share``)."""

from __future__ import annotations

from django import template

from matches.models import Match
from matches.share import match_share_text
from plumbing.sharing import webcal_url, whatsapp_url

register = template.Library()


@register.filter
def whatsapp(text: str) -> str:
    """WhatsApp's share address for ``text`` (URL-encoded)."""
    return whatsapp_url(str(text))


@register.filter
def match_whatsapp(match: Match) -> str:
    """WhatsApp's share address for ``match``'s ready text: teams, score (or date) and the report's address."""
    return whatsapp_url(match_share_text(match))


@register.filter
def webcal(path: str) -> str:
    """The ``webcal://`` subscription address of the calendar feed at ``path`` (on ``SITE_URL``)."""
    return webcal_url(str(path))

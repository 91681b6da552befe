"""Template tags of the load-shedding pages: a fresh idempotency key in each table form, and the match clock's
instants for the device to run the clock on by itself when the network is down (``static/js/clock.js``; the tag
is ``matches.templatetags.match_clock.clock_attrs``, shared with the public match page)."""

from __future__ import annotations

import uuid

from django import template
from django.utils.html import format_html

from matches.templatetags.match_clock import clock_attrs

register = template.Library()


@register.simple_tag
def client_id_field() -> str:
    """``<input type="hidden" name="client_id" value="<uuid4>">``: the form's idempotency key, new at each render,
    so a form posted twice (a double tap, a retry after the network failed) writes once."""
    return format_html('<input type="hidden" name="client_id" value="{}">', uuid.uuid4())


register.simple_tag(clock_attrs)  # the table and the referee's pages load it from here

"""Template tags of the load-shedding pages: a fresh idempotency key in each table form, and the match clock's
instants for the device to run the clock on by itself when the network is down (``static/js/clock.js``)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django import template
from django.utils.html import format_html

from matches.selectors import clock_deadlines

register = template.Library()


@register.simple_tag
def client_id_field() -> str:
    """``<input type="hidden" name="client_id" value="<uuid4>">``: the form's idempotency key, new at each render,
    so a form posted twice (a double tap, a retry after the network failed) writes once."""
    return format_html('<input type="hidden" name="client_id" value="{}">', uuid.uuid4())


def _ms(value: datetime | None) -> str:
    return str(int(value.timestamp() * 1000)) if value else ""


@register.simple_tag
def clock_attrs(clock: Any, match: Any) -> str:
    """The clock section's ``data-*`` attributes: its phase, the server's time of the reading and the instants
    (epoch milliseconds) it runs to: the end of the phase, the last 15 minutes (SAKBOC 1.15), and the interval's
    length (1.2), which the first half's end starts."""
    deadlines = clock_deadlines(match)
    return format_html(
        'data-clock data-phase="{}" data-server-now="{}" data-ends-at="{}" data-last-from="{}" '
        'data-interval-minutes="{}"',
        clock.phase, _ms(clock.now), _ms(clock.ends_at), _ms(deadlines.get("last_period_from")),
        match.competition.union.interval_minutes,
    )

"""The match clock's instants for ``static/js/clock.js`` (table, referee and public live pages): the page runs the
clock from the server's reading, keeping the largest offset between the server's clock and the phone's its
readings give, so an older reading (a polled part answered from the browser's cache, or a copy kept offline)
never sets the countdown back."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils.html import format_html

from matches.selectors import clock_deadlines, match_clock_lengths

register = template.Library()


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
        match_clock_lengths(match).interval_minutes,
    )

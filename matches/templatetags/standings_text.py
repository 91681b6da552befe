"""``{{ row.tiebreak_reason|tiebreak_text }}``: a standings row's tiebreak reason in the reader's language
(:func:`matches.results.standings.tiebreak_reason_display`)."""

from django import template

from matches.results.standings import tiebreak_reason_display

register = template.Library()


@register.filter
def tiebreak_text(reason: str) -> str:
    """The stored (English) ``reason`` said in the active language; any other text unchanged."""
    return tiebreak_reason_display(reason or "")

"""Template filters for match nights: ``{{ drawing|boem_tree }}`` draws a boem as the players draw it."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from matches.boem_svg import BoemDrawing, boem_svg

register = template.Library()


@register.filter
def boem_tree(drawing: BoemDrawing) -> SafeString:
    """The SVG of one boem tree (``matches.boem_svg.boem_svg``: its labels and caption are escaped there)."""
    return mark_safe(boem_svg(drawing))  # boem_svg escapes every text it writes

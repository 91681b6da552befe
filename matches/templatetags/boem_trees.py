"""Template tags for match nights: ``{{ drawing|boem_tree }}`` draws a boem as the players draw it, and
``{% boem_legend home away %}`` names in full the teams whose initials mark each side of the trees."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from matches.night.boem_svg import BoemDrawing, boem_legend_items, boem_svg

register = template.Library()

_SIDE_WORDS = {"left": gettext_noop("left, green"), "right": gettext_noop("right, orange")}


@register.filter
def boem_tree(drawing: BoemDrawing) -> SafeString:
    """The SVG of one boem tree (``matches.night.boem_svg.boem_svg``: its labels and caption are escaped there), its
    title (read by screen readers) in the reader's language."""
    title = _("Boem: %(left)s %(left_strokes)s, %(right)s %(right_strokes)s") % {
        "left": drawing.left_label, "left_strokes": sum(drawing.left),
        "right": drawing.right_label, "right_strokes": sum(drawing.right)}
    if drawing.outcome:
        title = f"{title}; {drawing.outcome}"
    return mark_safe(boem_svg(drawing, title=title))  # boem_svg escapes every text it writes


@register.simple_tag
def boem_legend(left_label: object, right_label: object, note: str = "") -> SafeString:
    """The legend under a table's trees: each side's mark, its team's full name and its side and colour;
    ``note`` adds a last item (e.g. "dashed: waiting to be confirmed")."""
    items = format_html_join(
        "", '<li class="legend-{}"><span class="side-key {}">{}</span> {} <span class="muted">({})</span></li>',
        ((side, side, mark, name, _(_SIDE_WORDS[side]))
         for side, mark, name in boem_legend_items(str(left_label), str(right_label))),
    )
    extra = format_html('<li class="muted">{}</li>', note) if note else ""
    return format_html('<ul class="boem-legend" aria-label="{}">{}{}</ul>', _("Boem tree legend"), items, extra)

"""``{% block_text "title" %}``: the text of a block already rendered on the page, again (issue 38).

``templates/base.html`` writes a page's title and description twice, in ``<title>``/``<meta name=description>``
and in the OpenGraph tags (``og:title``, ``og:description``) that WhatsApp and other readers show for a shared
link. Django renders a block once; this tag renders the page's own version of a block (the most derived
template's) a second time, so each page fills its ``title`` and ``description`` blocks only once.
"""

from __future__ import annotations

from django import template
from django.template.loader_tags import BLOCK_CONTEXT_KEY
from django.utils.html import strip_spaces_between_tags
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def block_text(context: template.Context, name: str) -> SafeString:
    """The block ``name`` of the page being rendered, rendered again (escaped as it was: safe for an attribute),
    its whitespace collapsed; ``""`` when no template defines it. A block that uses ``{{ block.super }}`` is not
    supported (the tag renders the block's own nodes only)."""
    block_context = context.render_context.get(BLOCK_CONTEXT_KEY)
    block = block_context.get_block(name) if block_context is not None else None
    if block is None:
        return mark_safe("")  # noqa: S308 (empty)
    with context.push(block=block):
        text = block.nodelist.render(context)
    return mark_safe(" ".join(strip_spaces_between_tags(text).split()))  # noqa: S308 (rendered, autoescaped)

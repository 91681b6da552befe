"""PDFs from the site's own templates: WeasyPrint renders HTML and CSS (``templates/documents/``) to A4 PDF.

Why WeasyPrint: a PDF is written like a page (the same template tags, translations and date formats, so it is
in the reader's language), and CSS paged media does what a report needs — table columns that wrap long names
instead of running into each other, ``<thead>`` repeated on every page, a heading kept with what follows it
(``break-after: avoid``), "Page 1 of 2" in the margin (``counter(page)``/``counter(pages)``). It embeds subsets
of the fonts it uses (DejaVu Sans, Debian's ``fonts-dejavu-core``), so every character prints. It needs
Debian's Pango (``scripts/ensure-weasyprint``, the Dockerfile).

Nothing in a document is fetched: the URL fetcher refuses every address (no file from the server's disk, no
request to another host), and the documents' templates hold no links.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext


class FetchRefused(ValueError):
    """A document asked for a file or an address: refused (documents are self-contained)."""


def page_counter_css() -> str:
    """The CSS ``content`` value for "Page 1 of 2" in the active language, e.g. ``"Page " counter(page) " of "
    counter(pages)`` (the translation's ``%(page)s`` and ``%(pages)s`` become the counters)."""
    text = gettext("Page %(page)s of %(pages)s")
    parts: list[str] = []
    rest = text
    while rest:
        at = [(rest.find(mark), mark) for mark in ("%(page)s", "%(pages)s") if mark in rest]
        if not at:
            parts.append(json.dumps(rest, ensure_ascii=False))
            break
        index, mark = min(at)
        if index:
            parts.append(json.dumps(rest[:index], ensure_ascii=False))
        parts.append("counter(page)" if mark == "%(page)s" else "counter(pages)")
        rest = rest[index + len(mark):]
    return " ".join(parts)


def html_pdf(html: str) -> bytes:
    """A self-contained HTML document as PDF bytes. Nothing is fetched: WeasyPrint asks its URL fetcher for every
    image, stylesheet or font address, and this one refuses them all (WeasyPrint then leaves the thing out)."""
    from weasyprint import HTML  # imported here: loading Pango takes a moment and only documents need it
    from weasyprint.urls import URLFetcher

    class NoFetcher(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            raise FetchRefused(f"Documents fetch nothing: {url!r}")

    return HTML(string=html, url_fetcher=NoFetcher(), base_url="about:blank").write_pdf()


def pdf_bytes(*, template: str, context: dict[str, Any]) -> bytes:
    """``template`` rendered with ``context`` (plus ``page_counter``) as PDF bytes, in the active language."""
    return html_pdf(render_to_string(template, {**context, "page_counter": page_counter_css()}))


def pdf_response(*, template: str, context: dict[str, Any], filename: str, inline: bool = False) -> HttpResponse:
    """:func:`pdf_bytes` as a download named ``<filename>.pdf`` (``inline`` opens it in the browser to print)."""
    response = HttpResponse(pdf_bytes(template=template, context=context), content_type="application/pdf")
    response["Content-Disposition"] = f'{"inline" if inline else "attachment"}; filename="{filename}.pdf"'
    return response

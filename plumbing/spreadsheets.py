"""Every downloadable table goes out through here: CSV in UTF-8 with a byte-order mark, or an Excel workbook.

Why a byte-order mark: Excel opens a CSV without one as Windows-1252, so "beëindig" shows as "beÃ«indig"; with
``\\ufeff`` first it reads UTF-8. Why tablib: the registry import (``office.registry``) already reads and writes
its sheets with it, and its ``xlsx`` format is openpyxl underneath (both pinned in requirements.txt), so one
library writes every workbook.

A file holds one kind of row under fixed column names (issue 38): callers pass ``headers`` and rows of the same
length. Cells are made safe first (:func:`sheet_cell`, OWASP "CSV Injection"): a downloaded file carries no code.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import tablib
from django.http import HttpResponse

SheetFormat = Literal["csv", "xlsx"]

#: The formats a table downloads in, and their media types.
CONTENT_TYPES: dict[str, str] = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}

# OWASP, "CSV Injection": a cell starting with one of these is read as a formula by Excel, LibreOffice and
# Google Sheets. (defusedcsv 3.0 leaves tab and carriage return alone, hence this rule of our own.)
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def sheet_cell(value: Any, *, fmt: SheetFormat = "csv") -> Any:
    """``value`` made safe for a cell: text a spreadsheet would run as a formula gets a leading ``'`` (in a CSV,
    text beginning with ``= + - @``, a tab or a carriage return; in a workbook, where openpyxl stores text
    starting with ``=`` as a formula, that one only). Numbers and ``None`` pass unchanged (a negative points
    difference stays a number).

    >>> sheet_cell('=HYPERLINK("http://x")'), sheet_cell("-4"), sheet_cell(-4), sheet_cell("-4", fmt="xlsx")
    ('\\'=HYPERLINK("http://x")', "'-4", -4, '-4')
    """
    triggers = FORMULA_TRIGGERS if fmt == "csv" else ("=",)
    if isinstance(value, str) and value.startswith(triggers):
        return "'" + value
    return value


def dataset_bytes(dataset: tablib.Dataset, *, fmt: SheetFormat) -> bytes:
    """A tablib sheet as a file's bytes: ``.xlsx``, or CSV in UTF-8 with a byte-order mark (cells as given).

    :raises ValueError: ``fmt`` is neither ``"csv"`` nor ``"xlsx"``.
    """
    if fmt == "xlsx":
        return dataset.export("xlsx")
    if fmt == "csv":
        return dataset.export("csv").encode("utf-8-sig")
    raise ValueError(f"Unknown table format: {fmt!r}")


def table_bytes(*, headers: Sequence[Any], rows: Iterable[Sequence[Any]], fmt: SheetFormat,
                title: str = "Sheet") -> bytes:
    """One table as a file: ``headers`` (shown as text, e.g. lazy translations) then ``rows``, every cell through
    :func:`sheet_cell`. ``title`` names the workbook's sheet (at most 31 characters, Excel's limit; cut here).

    :raises ValueError: an unknown ``fmt``; ``tablib.InvalidDimensions``: a row of another length.
    """
    dataset = tablib.Dataset(headers=[str(header) for header in headers], title=str(title)[:31] or "Sheet")
    for row in rows:
        dataset.append([sheet_cell(value, fmt=fmt) for value in row])
    return dataset_bytes(dataset, fmt=fmt)


def table_response(*, headers: Sequence[Any], rows: Iterable[Sequence[Any]], fmt: SheetFormat, filename: str,
                   title: str = "Sheet") -> HttpResponse:
    """:func:`table_bytes` as a download named ``<filename>.<fmt>``.

    :raises ValueError: an unknown ``fmt``.
    """
    response = HttpResponse(table_bytes(headers=headers, rows=rows, fmt=fmt, title=title),
                            content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response

"""Fixtures for the union office's tests: a union with two clubs (one deactivated), its official, another union's
official, and helpers that make registry files the way people save them."""

from __future__ import annotations

import io

import openpyxl
import pytest

from tests.factories import ClubFactory, UnionFactory
from tests.people import union_official

ENGLISH = ["Registration number", "First name", "Surname", "Club", "E-mail", "Phone"]


def csv_bytes(rows: list[list[str]], *, encoding: str = "utf-8", delimiter: str = ",",
              headers: list[str] = ENGLISH) -> bytes:
    """A CSV file's bytes (lines ending in CRLF, as Excel writes them)."""
    lines = [delimiter.join(headers), *(delimiter.join(row) for row in rows)]
    return ("\r\n".join(lines) + "\r\n").encode(encoding)


def xlsx_bytes(rows: list[list[object]], *, headers: list[str] = ENGLISH) -> bytes:
    """An .xlsx workbook made with openpyxl, as Excel would save it."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(headers)
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@pytest.fixture
def union(db):
    return UnionFactory(name="South Peninsula Klawerjas Union", short_name="SPKU")


@pytest.fixture
def athlone(union):
    return ClubFactory(union=union, name="Athlone Aces")


@pytest.fixture
def closed_club(union):
    return ClubFactory(union=union, name="Old Boys", active=False)


@pytest.fixture
def official(union):
    return union_official(union, username="official")


@pytest.fixture
def other_union(db):
    return UnionFactory(name="Boland Klawerjas Unie", short_name="BKU")


@pytest.fixture
def other_official(other_union):
    return union_official(other_union, username="theirs")

"""The night file's format (``klawerjas-night``, version 1; :mod:`matches.nightfile`): its errors and report,
canonical JSON and checksums, the registry of other apps' sections, and reading a file (checksums verified).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.dateparse import parse_datetime

from clubs.models import Player
from matches.models import (
    Match,
    MatchTable,
)

FORMAT = "klawerjas-night"
VERSION = 1
CORE_SECTIONS = ("registry", "match", "team_sheets", "substitutions", "tables", "boem_sheets", "awards")
PHASE_ORDER = [p.value for p in Match.Phase]
RESULT_ORDER = [s.value for s in Match.ResultStatus]


# --- Errors and the report ------------------------------------------------------------------------------------


class NightFileError(ValidationError):
    """The file cannot be read as a night: not JSON, not this format or version, a section missing or unknown, a
    checksum that does not match, a name it refers to that it does not carry. The message says where."""


class NightRefused(NightFileError):
    """The file names someone for what the pages would not let them do (a referee off this union's list or
    conflicted, a result confirmed for a side by someone other than its captain, a line claimed by a player not at
    the table, a ruling by someone other than the match's referee...). ``messages``: one per refusal, each naming
    the match, the section or table and line, and the person. Nothing was written."""


@dataclass(frozen=True)
class Conflict:
    """Where the file and this installation disagree (``where``: match, table and line) and how."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class NightReport:
    """What an import did (or, previewed, would do): ``added`` says each thing added in words; ``conflicts`` why the
    file was refused. ``nothing_new``: the file holds nothing this installation lacks."""

    title: str
    added: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    match_id: int | None = None
    imported: bool = False

    @property
    def nothing_new(self) -> bool:
        return not self.added and not self.conflicts

    def as_dict(self) -> dict[str, Any]:
        return {"title": self.title, "match": self.match_id, "imported": self.imported,
                "nothing_new": self.nothing_new, "added": self.added,
                "conflicts": [{"where": c.where, "message": c.message} for c in self.conflicts]}


class NightConflict(ValidationError):
    """The file conflicts with what this installation holds; ``report.conflicts`` names each place. Nothing was
    written."""

    def __init__(self, report: NightReport) -> None:
        super().__init__([str(c) for c in report.conflicts], code="conflict")
        self.report = report


# --- Canonical JSON and checksums -----------------------------------------------------------------------------


def canonical_json(value: Any) -> bytes:
    """The bytes a checksum is taken of: keys sorted, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _sha256(value: Any) -> str:
    return hashlib.sha256(canonical_json(value)).hexdigest()


def night_checksums(document: dict[str, Any]) -> dict[str, Any]:
    """The ``checksums`` of a night document: SHA-256 per section and over the whole (without ``checksums``)."""
    body = {k: v for k, v in document.items() if k != "checksums"}
    return {"sections": {name: _sha256(value) for name, value in document["sections"].items()},
            "file": _sha256(body)}


def night_file_dumps(document: dict[str, Any]) -> str:
    """The night document as the file's text (indented JSON; the checksums do not depend on the layout)."""
    return json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


# --- Sections of other apps -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class NightSection:
    """A section another app adds to the night file.

    ``export(match, refs) -> JSON value``; ``merge(context, value)`` adds what the installation lacks, through
    ``context`` (:class:`~matches.nightfile.imports.NightImport`), after the core sections (so lines and tables exist).
    """

    name: str
    export: Callable[[Match, ExportRefs], Any]
    merge: Callable[[Any, Any], None]  # (the import under way: a NightImport, the section's value)


_SECTIONS: dict[str, NightSection] = {}


def night_section_register(section: NightSection) -> None:
    """Add ``section`` to every night file (called from an ``AppConfig.ready()``; idempotent by name)."""
    if section.name in CORE_SECTIONS:
        raise ValueError(f"{section.name!r} is a core section")
    _SECTIONS[section.name] = section


# --- Export ---------------------------------------------------------------------------------------------------


def instant(value: datetime | None) -> str | None:
    """An instant as the file writes it: ISO 8601 in UTC with microseconds (``None`` stays ``None``)."""
    return None if value is None else value.astimezone(UTC).isoformat(timespec="microseconds")


def _day(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def night_file_read(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """Parse and verify a night file: JSON, format ``klawerjas-night`` version 1, every section there and known,
    each section's checksum and the file's.

    :raises NightFileError: saying what is wrong and where (``"section boem_sheets: the checksum does not match
        (the file was changed or damaged)"``).
    """
    if isinstance(data, dict):
        document = data
    elif not isinstance(data, bytes | str):
        raise NightFileError("This is not a night file: a night file is a JSON object.")
    else:
        try:
            document = json.loads(data)
        except (ValueError, UnicodeDecodeError) as error:
            raise NightFileError(f"This is not a night file: it is not JSON ({error}).") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise NightFileError(f"This is not a night file (its \"format\" is not {FORMAT!r}).")
    if document.get("version") != VERSION:
        raise NightFileError(f"This night file is version {document.get('version')!r}; this installation reads "
                             f"version {VERSION}.")
    sections, checksums = document.get("sections"), document.get("checksums")
    if not isinstance(sections, dict) or not isinstance(checksums, dict) or \
            not isinstance(checksums.get("sections"), dict):
        raise NightFileError("The night file has no sections or no checksums.")
    expected = set(CORE_SECTIONS) | set(_SECTIONS)
    for name in sorted(expected - set(sections)):
        raise NightFileError(f"Section {name} is missing from the night file.")
    for name in sorted(set(sections) - expected):
        raise NightFileError(f"Section {name} is not one this installation knows.")
    for name in sorted(sections):
        if checksums["sections"].get(name) != _sha256(sections[name]):
            raise NightFileError(f"Section {name}: the checksum does not match (the file was changed or damaged).")
    if checksums.get("file") != night_checksums(document)["file"]:
        raise NightFileError("The file's checksum does not match (the file was changed or damaged).")
    return document


def night_file_union(document: dict[str, Any]) -> str:
    """The name of the union a verified night file belongs to."""
    try:
        return str(document["sections"]["registry"]["union"]["name"])
    except (KeyError, TypeError):
        raise NightFileError("Section registry: the union is not named.") from None


# --- Import ---------------------------------------------------------------------------------------------------


def _parse_instant(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None or parsed.tzinfo is None:
        raise NightFileError(f"{where}: {value!r} is not an instant with its time zone.")
    return parsed


def _empty(value: Any) -> bool:
    return value in (None, "", 0, False, [], Match.Phase.SCHEDULED, Match.ResultStatus.NONE,
                     MatchTable.Status.PLAYING)


class ExportRefs:
    """Collects the people and players the sections name, so the registry section carries each once."""

    def __init__(self) -> None:
        self.users: dict[str, Any] = {}
        self.players: dict[str, Player] = {}

    def user(self, user: Any) -> str | None:
        """The username that names ``user`` in the file (``None`` for no one)."""
        if user is None:
            return None
        self.users[user.get_username()] = user
        return user.get_username()

    def player(self, player: Player | None) -> str | None:
        """The registration number that names ``player`` in the file."""
        if player is None:
            return None
        self.players[player.registration_number] = player
        return player.registration_number

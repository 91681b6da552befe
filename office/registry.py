"""A union's registry of players in and out of a spreadsheet (issue 33): read, preview, import, export.

The file is what people really save: ``.xlsx``, or ``.csv`` in UTF-8 (with or without a byte-order mark) or in
Windows-1252, separated by commas or semicolons, with headers in English or Afrikaans in any order, case and spacing
(:data:`COLUMN_NAMES`). tablib (with openpyxl) reads and writes the sheets; this module decodes a CSV's bytes and
picks its separator, then maps the columns.

* :func:`registry_read` — the file's rows (:class:`RegistryRow`), or :class:`RegistryFileError`.
* :func:`registry_preview` — what importing the rows would do, row by row (:class:`RegistryReport`), writing nothing.
* :func:`registry_import` — read, check and write all or nothing, through ``clubs.services``.
* :func:`registry_export`, :func:`registry_template` — the registry, or the headers alone, as ``.xlsx`` or ``.csv``.

A player is keyed by registration number within the union (case-insensitive, trimmed), so importing one file twice
changes nothing the second time, and an edited file updates what changed. Every field is checked by the model's
own validators (``clubs.validators``), as the forms and the API check it.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from typing import Any, Literal, cast

import tablib
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs import services as club_services
from clubs.models import Club, Player, Union
from clubs.services import CONSENT_KINDS, player_consents_check
from plumbing import spreadsheets
from plumbing.spreadsheets import FORMULA_TRIGGERS, SheetFormat, sheet_cell

#: The largest file accepted, and the most data rows (a union has a few hundred to a few thousand players).
MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_ROWS = 5000

#: The reason every write of an import leaves in the players' and clubs' history.
HISTORY_REASON = "registry import"

#: The registry's columns: (field, English header written on export and in the template).
COLUMNS: tuple[tuple[str, str], ...] = (
    ("registration_number", "Registration number"),
    ("first_name", "First name"),
    ("last_name", "Surname"),
    ("club", "Club"),
    ("email", "E-mail"),
    ("phone", "Phone"),
    ("email_consent", "E-mail consent"),
    ("phone_consent", "Phone consent"),
    ("full_name_public_consent", "Full name on public pages"),
)
REQUIRED_FIELDS = ("registration_number", "first_name", "last_name", "club")

#: Columns an import reads (for new rows) but the export does not write: the date of birth (optional, only to tell
#: apart two people of the same name in the national registry; not spread in every download, POPIA s10) and the
#: answer "yes" when a new row is a different person from a player of another union of the same name and date of
#: birth.
IMPORT_ONLY_COLUMNS: tuple[tuple[str, str], ...] = (
    ("date_of_birth", "Date of birth"),
    ("different_person", "Different person"),
)

#: Each column's labels for people (in messages naming a missing column or a bad value).
FIELD_LABELS = {
    "registration_number": gettext_lazy("Registration number"),
    "first_name": gettext_lazy("First name"),
    "last_name": gettext_lazy("Surname"),
    "club": gettext_lazy("Club"),
    "email": gettext_lazy("E-mail"),
    "phone": gettext_lazy("Phone"),
    "email_consent": gettext_lazy("E-mail consent"),
    "phone_consent": gettext_lazy("Phone consent"),
    "full_name_public_consent": gettext_lazy("Full name on public pages"),
    "date_of_birth": gettext_lazy("Date of birth"),
    "different_person": gettext_lazy("Different person"),
}

#: The consent columns (POPIA s11), each the answer to one ``clubs.services.CONSENT_KINDS`` kind: yes or no.
CONSENT_COLUMNS = {f"{kind}_consent": kind for kind in CONSENT_KINDS}

#: How a consent cell says yes or no, in English or Afrikaans (folded by :func:`header_key`); an empty cell gives
#: no answer (the player's answer stays; a player never asked is exported so).
CONSENT_YES = frozenset({"yes", "y", "ja", "j", "true", "waar", "1", "x"})
CONSENT_NO = frozenset({"no", "n", "nee", "false", "onwaar", "0"})

#: Accepted headers, English and Afrikaans, as :func:`header_key` folds them (lower case, letters and digits only).
COLUMN_NAMES: dict[str, str] = {
    **dict.fromkeys(["registrationnumber", "registrationno", "registration", "regno", "regnumber",
                     "registrasienommer", "registrasienr", "registrasie"], "registration_number"),
    **dict.fromkeys(["firstname", "firstnames", "givenname", "forename", "voornaam", "voorname"], "first_name"),
    **dict.fromkeys(["surname", "lastname", "familyname", "van", "familienaam"], "last_name"),
    **dict.fromkeys(["club", "clubname", "klub", "klubnaam"], "club"),
    **dict.fromkeys(["email", "emailaddress", "mail", "epos", "eposadres"], "email"),
    **dict.fromkeys(["phone", "phonenumber", "telephone", "telephonenumber", "cell", "cellphone", "mobile",
                     "telefoon", "telefoonnommer", "selfoon", "selfoonnommer"], "phone"),
    **dict.fromkeys(["emailconsent", "consentemail", "eposinstemming", "instemmingepos"], "email_consent"),
    **dict.fromkeys(["phoneconsent", "consentphone", "telefooninstemming", "selfooninstemming",
                     "instemmingtelefoon"], "phone_consent"),
    **dict.fromkeys(["fullnameonpublicpages", "fullnamepublic", "fullnameconsent", "volnaamopopenbarebladsye",
                     "volnaamopenbaar"], "full_name_public_consent"),
    **dict.fromkeys(["dateofbirth", "birthdate", "dob", "born", "geboortedatum", "gebore"], "date_of_birth"),
    **dict.fromkeys(["differentperson", "anderpersoon"], "different_person"),
}

Status = Literal["created", "updated", "unchanged", "refused"]


class RegistryFileError(Exception):
    """The file cannot be imported at all (too big, too many rows, unreadable, required columns missing); the
    message says why, in words for the official who uploaded it."""


@dataclass(frozen=True)
class RegistryRow:
    """One data row of the file, its cells trimmed. ``row_number`` is the spreadsheet's (the header is row 1);
    ``email`` and ``phone`` are ``None`` when the file has no such column (the player's value is then kept)."""

    row_number: int
    registration_number: str
    first_name: str
    last_name: str
    club: str
    email: str | None = None
    phone: str | None = None
    email_consent: str | None = None
    phone_consent: str | None = None
    full_name_public_consent: str | None = None
    """The consent cells as written (``None``: no such column, that answer is not given by the file)."""
    date_of_birth: str | None = None
    different_person: str | None = None
    """The import-only cells (:data:`IMPORT_ONLY_COLUMNS`) as written (``None``: no such column)."""


@dataclass
class RegistryRowResult:
    """What importing one row does: ``status`` ``created``, ``updated``, ``unchanged`` or ``refused``;
    ``reasons`` why it is refused, ``changes`` the fields an update changes, ``club_created`` when the row's club
    is created with it."""

    row_number: int
    registration_number: str
    first_name: str
    last_name: str
    club: str
    status: Status = "unchanged"
    reasons: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    club_created: bool = False

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


@dataclass
class RegistryReport:
    """An import's outcome: every row's :class:`RegistryRowResult`, the clubs it creates, and whether it was
    written (``False`` for a preview, a dry run or any refused row: all or nothing).

    ``as_dict()`` gives the JSON shape of the API and of ``RegistryImport.summary``::

        {"written": false, "counts": {"created": 1, "updated": 0, "unchanged": 3, "refused": 1},
         "clubs_created": ["Athlone"], "rows": [{"row_number": 2, "registration_number": "R1", "first_name": ...,
         "last_name": ..., "club": ..., "status": "refused", "reasons": ["..."], "changes": [], "club_created": false}]}
    """

    rows: list[RegistryRowResult]
    clubs_created: list[str] = field(default_factory=list)
    written: bool = False

    @property
    def counts(self) -> dict[str, int]:
        tally = Counter(row.status for row in self.rows)
        return {status: tally.get(status, 0) for status in ("created", "updated", "unchanged", "refused")}

    @property
    def refused(self) -> list[RegistryRowResult]:
        return [row for row in self.rows if row.status == "refused"]

    def counts_line(self) -> str:
        """``"40 created, 0 updated, 0 unchanged"``: the CLI's last line and the page's success message."""
        counts = self.counts
        return _("%(created)d created, %(updated)d updated, %(unchanged)d unchanged") % counts

    def as_dict(self) -> dict[str, Any]:
        return {"written": self.written, "counts": self.counts, "clubs_created": list(self.clubs_created),
                "rows": [asdict(row) for row in self.rows]}


# --- Reading ---------------------------------------------------------------------------------------------------


def header_key(header: Any) -> str:
    """A header folded for matching: lower case, letters and digits only (``" E-mail  Address"`` →
    ``"emailaddress"``, ``"REGISTRASIE nommer"`` → ``"registrasienommer"``)."""
    return "".join(ch for ch in str(header or "").casefold() if ch.isalnum())


def cell_text(value: Any) -> str:
    """A cell as trimmed text: ``None`` → ``""``, a whole-number float (Excel's numbers) → ``"1234"``, a date →
    ISO; a leading ``'`` that the export put before a formula-like value is taken off."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime | date):
        return value.isoformat()
    text = str(value).strip(" \t\r\n\u00a0")
    if text.startswith("'") and text[1:2] and text[1:].startswith(FORMULA_TRIGGERS):
        text = text[1:]
    return text


def csv_text(content: bytes) -> str:
    """A CSV file's bytes as text: UTF-8 (a byte-order mark dropped), else Windows-1252 (Excel's "CSV" on a
    South African Windows).

    :raises RegistryFileError: neither decodes it (cp1252 leaves five bytes undefined).
    """
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise RegistryFileError(_("The file cannot be read as text: save it as CSV (UTF-8) or as an Excel workbook."))


def csv_delimiter(text: str) -> str:
    """``";"`` when the header line has more semicolons than commas (Excel's CSV where the decimal comma is
    used), else ``","``."""
    header = text.split("\n", 1)[0]
    return ";" if header.count(";") > header.count(",") else ","


def csv_blank_lines_kept(text: str, delimiter: str) -> str:
    """``text`` with each empty line (outside a quoted cell) written as an empty row (``delimiter`` alone), so
    the rows keep the numbers a spreadsheet gives them: tablib's CSV reader drops empty lines."""
    lines, quoted = [], False
    for line in text.splitlines(keepends=True):
        if not quoted and not line.strip("\r\n"):
            line = delimiter + line
        quoted ^= line.count('"') % 2 == 1
        lines.append(line)
    return "".join(lines)


def dataset_load(*, content: bytes, file_name: str) -> tablib.Dataset:
    """The file's first sheet as a tablib ``Dataset`` (first row as headers). An ``.xlsx`` name, or a zip's
    signature, means a workbook; anything else is read as CSV.

    :raises RegistryFileError: the file cannot be read.
    """
    is_workbook = file_name.lower().endswith((".xlsx", ".xlsm")) or content[:4] == b"PK\x03\x04"
    try:
        if is_workbook:
            return tablib.Dataset().load(io.BytesIO(content), format="xlsx")
        text = csv_text(content)
        delimiter = csv_delimiter(text)
        return tablib.Dataset().load(csv_blank_lines_kept(text, delimiter), format="csv", delimiter=delimiter)
    except RegistryFileError:
        raise
    except tablib.InvalidDimensions:
        raise RegistryFileError(
            _("A row has more cells than the header row has columns: give every column a header.")) from None
    except Exception:  # noqa: BLE001 -- csv.Error, zipfile.BadZipFile, openpyxl's and lxml's errors, ...
        raise RegistryFileError(
            _("The file cannot be read: save it as an Excel workbook (.xlsx) or as CSV.")) from None


def registry_read(*, content: bytes, file_name: str) -> list[RegistryRow]:
    """The players in a registry file, one :class:`RegistryRow` per data row, fully blank rows skipped.

    Columns are found by their headers (:data:`COLUMN_NAMES`: English or Afrikaans, any order, case and spacing);
    columns with other headers are ignored. Row numbers are the spreadsheet's: the header is row 1.

    :raises RegistryFileError: the file is over 5 MB or holds over 5,000 data rows, cannot be read, is empty,
        names a column twice, or lacks a required column (registration number, first name, surname, club: the
        message names the missing ones).
    """
    if len(content) > MAX_FILE_BYTES:
        raise RegistryFileError(
            _("The file is %(size).1f MB: the most a registry file may be is 5 MB.")
            % {"size": len(content) / (1024 * 1024)})
    if not content.strip():
        raise RegistryFileError(_("The file is empty."))
    dataset = dataset_load(content=content, file_name=file_name)
    columns: dict[str, int] = {}
    for index, header in enumerate(dataset.headers or []):
        name = COLUMN_NAMES.get(header_key(header))
        if name is None:
            continue
        if name in columns:
            raise RegistryFileError(
                _("Two columns are headed %(column)s: keep one.") % {"column": FIELD_LABELS[name]})
        columns[name] = index
    missing = [str(FIELD_LABELS[name]) for name in REQUIRED_FIELDS if name not in columns]
    if missing:
        raise RegistryFileError(
            _("The file has no column for: %(missing)s. The first row must name the columns (Registration number, "
              "First name, Surname, Club; or Registrasienommer, Voornaam, Van, Klub).")
            % {"missing": ", ".join(missing)})
    rows: list[RegistryRow] = []
    for offset, values in enumerate(dataset):
        cells = [cell_text(value) for value in values]
        if not any(cells):
            continue
        if len(rows) == MAX_ROWS:
            raise RegistryFileError(
                _("The file has more than %(max)s rows of players: import it in parts.") % {"max": f"{MAX_ROWS:,}"})
        rows.append(RegistryRow(
            row_number=offset + 2,
            **{name: cells[index] for name, index in columns.items()},
        ))
    return rows


# --- Checking ---------------------------------------------------------------------------------------------------


def registration_key(registration_number: str) -> str:
    """A registration number as the union's registry matches it: trimmed, case-insensitive."""
    return registration_number.strip().casefold()


def club_key(name: str) -> str:
    """A club's name as the import matches it: case-insensitive, spaces collapsed."""
    return " ".join(name.split()).casefold()


def field_refusals(row: RegistryRow) -> list[str]:
    """Why the row's values cannot be a player's, each naming its column: an empty registration number, name or
    club, and what the model's validators (``clubs.validators``: one-line names, a phone number, an e-mail
    address; the fields' lengths) refuse, in the very words the forms give."""
    reasons = []
    for name in ("registration_number", "first_name", "last_name", "club", "email", "phone"):
        value = getattr(row, name)
        if name in REQUIRED_FIELDS and not value:
            reasons.append(_("%(column)s is empty.") % {"column": FIELD_LABELS[name]})
            continue
        if not value:
            continue
        # Concrete fields of the models (a relation's reverse has no validators).
        model_field = cast("models.Field[Any, Any]",
                           Club._meta.get_field("name") if name == "club" else Player._meta.get_field(name))
        try:
            model_field.run_validators(value)
        except ValidationError as error:
            reasons.extend(f"{FIELD_LABELS[name]}: {message}" for message in error.messages)
    for column in (*CONSENT_COLUMNS, "different_person"):
        cell = getattr(row, column)
        if cell and consent_cell(cell) is None:
            reasons.append(_("%(column)s: write yes or no.") % {"column": FIELD_LABELS[column]})
    if row.date_of_birth and row_date_of_birth(row) is None:
        reasons.append(_("%(column)s: write the date as 1984-03-21 or 21/03/1984.")
                       % {"column": FIELD_LABELS["date_of_birth"]})
    try:
        player_consents_check(email=row.email or "", phone=row.phone or "", consents=row_consents(row))
    except ValidationError as error:
        reasons.extend(f"{FIELD_LABELS[name]}: {message}" for name, messages in error.message_dict.items()
                       for message in messages)
    return reasons


def row_date_of_birth(row: RegistryRow) -> date | None:
    """The row's date of birth: ISO (``1984-03-21``, as a workbook's date cell reads) or day/month/year
    (``21/03/1984``, ``21-03-1984``); ``None`` for an empty cell or anything else (:func:`field_refusals` refuses
    that)."""
    text = (row.date_of_birth or "").strip()[:19]
    for pattern in ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y", "%d.%m.%Y"):
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def national_refusals(*, union: Union, row: RegistryRow) -> list[str]:
    """Why a new row cannot be registered in the national registry (``clubs.services.player_registration_check``,
    as the form and the API check it): its number is already a player's in another union, or it looks like a
    player of another union (same name and date of birth) and its "Different person" cell does not say yes."""
    try:
        club_services.player_registration_check(
            union=union, registration_number=row.registration_number, first_name=row.first_name,
            last_name=row.last_name, date_of_birth=row_date_of_birth(row),
            different_person=bool(consent_cell(row.different_person or "")))
    except ValidationError as error:
        if "different_person" in error.message_dict:
            return [f"{message} " + _("If it is someone else, write yes in the Different person column.")
                    for message in error.message_dict["different_person"]]
        return list(error.messages)
    return []


def consent_cell(value: str) -> bool | None:
    """A consent cell's answer: ``True`` for yes (yes, ja, x, 1, true...), ``False`` for no (no, nee, 0...),
    ``None`` for an empty cell (no answer) or anything else (:func:`field_refusals` refuses that)."""
    key = header_key(value)
    return True if key in CONSENT_YES else False if key in CONSENT_NO else None


def row_consents(row: RegistryRow) -> dict[str, bool]:
    """The answers ``row`` gives (``{kind: bool}``), for the columns the file has and cells that say yes or no."""
    answers = {}
    for column, kind in CONSENT_COLUMNS.items():
        cell = getattr(row, column)
        if cell is not None and consent_cell(cell) is not None:
            answers[kind] = bool(consent_cell(cell))
    return answers


def player_consent_answers(player: Player) -> dict[str, bool | None]:
    """``player``'s current answers (``{kind: bool}``, ``None`` for never answered) from the consent rows
    ``privacy`` keeps on the player (the ``consents`` relation; prefetch it for many players): the newest row of
    each kind (POPIA s11)."""
    answers: dict[str, bool | None] = dict.fromkeys(CONSENT_KINDS)
    rows = getattr(player, "consents", None)
    if rows is not None:
        newest: dict[str, Any] = {}
        for consent in rows.all():
            kept = newest.get(consent.kind)
            if kept is None or (consent.recorded_at, consent.pk) > (kept.recorded_at, kept.pk):
                newest[consent.kind] = consent
        answers.update({kind: consent.given for kind, consent in newest.items()})
    return answers


def registry_preview(*, union: Union, rows: list[RegistryRow], create_clubs: bool) -> RegistryReport:
    """What importing ``rows`` into ``union``'s registry would do, row by row; writes nothing (2 queries, and two
    more per new registration number: the national registry).

    Each row is ``created`` (a new registration number in the union), ``updated`` (a known one whose name, club,
    e-mail or phone differ; ``changes`` names them), ``unchanged``, or ``refused`` with its reasons:

    * the registration number is on another row of the file too (both rows are named);
    * a registration number, first name, surname or club is empty; a name has a line break or a control
      character; the e-mail or phone is not one (``clubs.validators``, as the forms check);
    * the club is not one of the union's (a club of another union is never a player's club: SAKBOC 1.5, players
      register with a club of their union) — unless ``create_clubs``, when the row says the club will be created;
    * the club is deactivated and the row would register a player with it or move one to it (a deactivated club
      registers no new player; players already in it stay, so exporting and importing changes nothing);
    * a new registration number is already a player's national or registration number in another union, or the
      row looks like a player of another union (same name and date of birth) and its "Different person" cell does
      not say yes (``clubs.services.player_registration_check``, as the forms and the API: Board level);
    * a consent cell says neither yes nor no, or the row keeps an e-mail address or phone number whose consent
      column says no (``clubs.services.player_consents_check``, as the form and the API: POPIA s11). A file
      without a consent column gives no answer to it (the player's stays); a changed answer is a change.

    :returns: a :class:`RegistryReport` with ``written`` false.
    """
    clubs = {club_key(club.name): club for club in Club.objects.filter(union=union)}
    players = {registration_key(player.registration_number): player
               for player in Player.objects.filter(union=union).select_related("club").prefetch_related("consents")}
    rows_by_key: dict[str, list[int]] = {}
    for row in rows:
        if row.registration_number:
            rows_by_key.setdefault(registration_key(row.registration_number), []).append(row.row_number)
    results: list[RegistryRowResult] = []
    clubs_created: dict[str, str] = {}
    for row in rows:
        result = RegistryRowResult(row_number=row.row_number, registration_number=row.registration_number,
                                   first_name=row.first_name, last_name=row.last_name, club=row.club)
        results.append(result)
        reasons = field_refusals(row)
        same = rows_by_key.get(registration_key(row.registration_number), [])
        if len(same) > 1:
            reasons.insert(0, _("Registration number %(number)s is on rows %(rows)s: a registration number "
                                "identifies one player (SAKBOC 1.5).")
                           % {"number": row.registration_number, "rows": ", ".join(map(str, same))})
        player = players.get(registration_key(row.registration_number))
        club = clubs.get(club_key(row.club)) if row.club else None
        if row.club and club is None and not create_clubs:
            reasons.append(_("%(union)s has no club called %(club)s: correct the name, or tick \"Create missing "
                             "clubs\".") % {"union": union.name, "club": row.club})
        joins_club = player is None or (club is not None and player.club_id != club.pk)
        if club is not None and not club.active and joins_club:
            reasons.append(_("%(club)s is deactivated: it registers no new player.") % {"club": club.name})
        if player is None and not reasons:
            reasons.extend(national_refusals(union=union, row=row))  # one query per new row
        if reasons:
            result.status, result.reasons = "refused", reasons
            continue
        if club is None:
            result.club_created = True
            clubs_created.setdefault(club_key(row.club), row.club)
        if player is None:
            result.status = "created"
            continue
        changes = [name for name, value in row_values(row).items()
                   if value is not None and value != getattr(player, name)]
        answers = player_consent_answers(player)
        changes += [f"{kind}_consent" for kind, given in row_consents(row).items() if answers[kind] != given]
        if club is None or player.club_id != club.pk:
            changes.append("club")
        result.status, result.changes = ("updated", changes) if changes else ("unchanged", [])
    return RegistryReport(rows=results, clubs_created=list(clubs_created.values()))


def row_values(row: RegistryRow) -> dict[str, str | None]:
    """The player's fields a row sets (``None``: the file has no such column, the player's value stays)."""
    return {"first_name": row.first_name, "last_name": row.last_name, "email": row.email, "phone": row.phone}


# --- Writing ----------------------------------------------------------------------------------------------------


class _Undo(Exception):
    """Rolls back an import a service refused halfway (a row changed by someone else meanwhile)."""


def club_history_by(club: Club, *, by: Any) -> None:
    """Record ``by`` and the import as who and why on the creation of ``club`` (``club_create`` takes no ``by``)."""
    latest = club.history.order_by("-history_id").first()
    if latest is not None:
        club.history.filter(history_id=latest.history_id).update(
            history_user=by if getattr(by, "pk", None) else None, history_change_reason=HISTORY_REASON)


def report_write(*, union: Union, rows: list[RegistryRow], report: RegistryReport, by: Any) -> None:
    """Write the created and updated rows of a clean ``report`` through ``clubs.services`` (history: ``by``,
    "registry import"). A service's refusal marks its row refused in ``report``.

    :raises ValidationError: a service refused a row (the caller's transaction undoes the rest).
    """
    clubs = {club_key(club.name): club for club in Club.objects.filter(union=union)}
    players = {registration_key(player.registration_number): player
               for player in Player.objects.filter(union=union).select_related("club")}
    for row, result in zip(rows, report.rows, strict=True):
        if result.status not in ("created", "updated"):
            continue
        club = clubs.get(club_key(row.club))
        try:
            if club is None:
                club = club_services.club_create(union=union, name=" ".join(row.club.split()))
                club_history_by(club, by=by)
                clubs[club_key(row.club)] = club
            if result.status == "created":
                club_services.player_register(
                    club=club, registration_number=row.registration_number, first_name=row.first_name,
                    last_name=row.last_name, email=row.email or "", phone=row.phone or "", by=by,
                    reason=HISTORY_REASON, consents=row_consents(row), consent_source="import",
                    date_of_birth=row_date_of_birth(row),
                    different_person=bool(consent_cell(row.different_person or "")))
            else:
                player = players[registration_key(row.registration_number)]
                changes = {name: value for name, value in row_values(row).items() if value is not None}
                club_services.player_update(player=player, by=by, reason=HISTORY_REASON, club=club, **changes,
                                            consents=row_consents(row), consent_source="import")
        except ValidationError as error:
            result.status, result.reasons = "refused", list(error.messages)
            raise


def registry_import(
    *, union: Union, content: bytes, file_name: str, create_clubs: bool = False, dry_run: bool = False,
    by: Any = None,
) -> RegistryReport:
    """Import a registry file into ``union``: all or nothing, in one transaction.

    Reads the file (:func:`registry_read`), checks every row (:func:`registry_preview`) and, when no row is
    refused and this is not a ``dry_run``, creates the missing clubs (``create_clubs``) and registers and updates
    the players through ``clubs.services`` (``club_create``, ``player_register``, ``player_update``), their
    history recording ``by`` and "registry import".

    :returns: the :class:`RegistryReport`; ``written`` is true only when the rows were written. One refused row
        (or a refusal by a service while writing) writes nothing.
    :raises RegistryFileError: the file itself cannot be imported (too big, too many rows, unreadable, columns
        missing).
    """
    rows = registry_read(content=content, file_name=file_name)
    try:
        with transaction.atomic():
            report = registry_preview(union=union, rows=rows, create_clubs=create_clubs)
            if dry_run or report.refused:
                return report
            try:
                report_write(union=union, rows=rows, report=report, by=by)
            except ValidationError:
                raise _Undo from None
            report.written = True
            return report
    except _Undo:
        report.clubs_created = []
        return report


# --- Export -----------------------------------------------------------------------------------------------------


def registry_dataset(*, players: list[Player], fmt: SheetFormat) -> tablib.Dataset:
    """``players`` as a sheet with the registry's English headers (:data:`COLUMNS`)."""
    dataset = tablib.Dataset(headers=[header for _name, header in COLUMNS], title="Registry")
    for player in players:
        answers = player_consent_answers(player)
        # a cell a spreadsheet would run as a formula gets a leading "'" (OWASP "CSV Injection"), which
        # :func:`cell_text` takes off again on import: a round trip changes nothing
        dataset.append([sheet_cell(value, fmt=fmt) for value in (
            player.registration_number, player.first_name, player.last_name, player.club.name, player.email,
            player.phone, *("" if answers[kind] is None else "yes" if answers[kind] else "no"
                            for kind in CONSENT_KINDS))])
    return dataset


def registry_export(*, union: Union, fmt: SheetFormat) -> bytes:
    """``union``'s registry as a file in the import's columns (English headers), players by club, surname and
    first name, with each player's consent answers (yes or no): importing it again changes nothing (2 queries).

    :raises ValueError: ``fmt`` is neither ``"xlsx"`` nor ``"csv"``.
    """
    players = list(Player.objects.filter(union=union).select_related("club").prefetch_related("consents")
                   .order_by("club__name", "last_name", "first_name", "registration_number"))
    return spreadsheets.dataset_bytes(registry_dataset(players=players, fmt=fmt), fmt=fmt)


def registry_template(*, fmt: SheetFormat) -> bytes:
    """An empty registry file: the headers alone, to fill in.

    :raises ValueError: ``fmt`` is neither ``"xlsx"`` nor ``"csv"``.
    """
    return spreadsheets.dataset_bytes(registry_dataset(players=[], fmt=fmt), fmt=fmt)


def registry_file_name(*, union: Union, fmt: SheetFormat, template: bool = False) -> str:
    """The download's file name, e.g. ``"SPKU-registry.xlsx"`` or ``"registry-template.csv"``."""
    stem = "registry-template" if template else f"{union.short_name}-registry"
    return f"{stem}.{fmt}"

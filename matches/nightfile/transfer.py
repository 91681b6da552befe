"""A whole match night as one file: exported from one installation, imported into another (issue 18).

A union can run a night on a laptop at the hall (``make demo``'s embedded SQLite, no internet) and push it to its
server afterwards. The round trip:

1. the server exports the night before it is played (the union and its settings, the competition, both teams with
   their squads, the fixture, the referee, team sheets if any): :func:`night_export`;
2. the laptop imports it (``manage.py night_import``: on a fresh installation that creates the union, clubs, teams,
   players and accounts without passwords), the night is played there;
3. the laptop exports the night (team sheets, substitutions, tables, boem sheets, awards, the clock and result,
   and the referee's straf claims, disputed hands and rulings), and the server imports it: :func:`night_import`.

**The file** (format ``klawerjas-night``, version 1) is JSON: ``{"format", "version", "exported_at", "title",
"sections": {name: value}, "checksums": {"sections": {name: sha256}, "file": sha256}}``. Each section's checksum is
the SHA-256 of its canonical JSON (keys sorted, no spaces, UTF-8), the file's that of the canonical JSON of
everything but ``checksums``; both are verified before anything is read (:func:`night_file_read`). Instants are ISO
8601 in UTC with microseconds.

**Natural keys, never database ids**: a union, club, competition (with its season) and team by name; a player by
registration number (within the union); a person by username; a match by competition, round and the home and away
teams' names; a table by number; a boem-sheet line by (table, sequence), unique per table; a boem by (table,
number); a straf claim by its UUID (``StrafClaim.key``), its disputed hand and ruling with it.

**Import** (:func:`night_import`) runs in one transaction under the match's row lock. Whatever the server lacks is
added; whatever both hold must agree, or the file is refused naming the match, table and line
(:class:`NightConflict`): a line at the same place that says something else, a line here the file does not have,
a different toss or start, a different referee, a result approved here that the file would change. A field the
server has empty is filled from the file (the night goes on where the server left it). Every line goes on the sheet
through ``matches.night.boem_sheet`` (scored by the rules engine under *this* union's rules); after the import the
server's night is exported again and must be exactly the file's, section by section, or nothing is kept. The same
file twice adds nothing the second time ("nothing new"). An approval never travels: the result arrives at most
confirmed and the union's official approves it on the server.

**Who the file names is checked as the pages check them** (issue 35: a night file's checksums prove it intact, not
that its people may do what it says). Whatever the import adds passes the rules the pages apply, through the same
functions: the referee and marker :func:`matches.competitions.services.match_officials_check` (on this union's list of referees,
impartial, SAKBOC 1.10, 1.11); a result's captains :func:`matches.results.services.result_confirmer_side` (each side's
captain for that side); a team sheet :func:`matches.night.services.team_sheet_check` and its submitter, a substitution
:func:`matches.night.services.substitute_check` and who made it :func:`clubs.permissions.team_managed_by` (the team's
captain or club secretary); a boem-sheet line's player the side's telman at that table (a straf's, a player seated
there), its confirming or disputing player the opposing telman (SAKBOC 6.8); what only the referee does (a line
written or corrected on a table's behalf, a table stopped, an award, a straf claim, its hand and ruling) the match's
referee or marker. Anyone else refuses the whole file (:class:`NightRefused`), each refusal naming the match, the
section or table and line, and the person; nothing is written.

**Sections of other apps.** ``matches`` must not import ``referee``; the referee app plugs its section (claims,
hands, rulings: referee/night_transfer.py) in with :func:`night_section_register` from its ``AppConfig.ready()``.

Device sign-ins, table links and the hands the demo's bots played stay where they were made: they mean nothing to
another installation.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from clubs.models import (
    Club,
    Player,
    Team,
    TeamMembership,
    Union,
)
from clubs.permissions import team_managed_by
from clubs.selectors import person_name
from clubs.services import save_with_history, union_official_add, union_referee_add
from matches.competitions.services import match_officials_check
from matches.models import (
    Award,
    Boem,
    BoemEntry,
    Competition,
    Match,
    MatchTable,
    Seat,
    Substitution,
    TeamSheet,
)
from matches.night import boem_sheet
from matches.night.services import MAX_SUBSTITUTIONS, substitute_check, team_sheet_check
from matches.results.services import result_confirmer_side
from matches.writes import match_lock, match_night_come_check

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
    ``context`` (:class:`NightImport`), after the core sections (so lines and tables exist).
    """

    name: str
    export: Callable[[Match, ExportRefs], Any]
    merge: Callable[[NightImport, Any], None]


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


_UNION_SETTINGS = [f.name for f in Union._meta.concrete_fields if f.name not in ("id", "name")]


def _team_name(match: Match, team_id: int | None) -> str | None:
    if team_id is None:
        return None
    return match.home.name if team_id == match.home_id else match.away.name


def _match_section(match: Match, refs: ExportRefs) -> dict[str, Any]:
    team = lambda team_id: _team_name(match, team_id)  # noqa: E731
    return {
        "round_number": match.round_number, "round_name": match.round_name, "tie_number": match.tie_number,
        "home": match.home.name, "away": match.away.name, "venue": match.venue,
        "scheduled_start": instant(match.scheduled_start),
        "referee": refs.user(match.referee), "marker": refs.user(match.marker),
        "phase": match.phase, "toss_winner": team(match.toss_winner_id), "tossed_at": instant(match.tossed_at),
        "first_half_started_at": instant(match.first_half_started_at),
        "interval_started_at": instant(match.interval_started_at),
        "second_half_started_at": instant(match.second_half_started_at),
        "grace_handled_at": instant(match.grace_handled_at),
        "extra_time_started_at": instant(match.extra_time_started_at),
        "extra_time_periods": match.extra_time_periods, "finished_at": instant(match.finished_at),
        "home_score": match.home_score, "away_score": match.away_score, "winner": team(match.winner_id),
        "result_status": match.result_status,
        "home_confirmed_by": refs.user(match.home_confirmed_by),
        "away_confirmed_by": refs.user(match.away_confirmed_by),
        "confirmed_at": instant(match.confirmed_at),
        "approved_by": refs.user(match.approved_by), "approved_at": instant(match.approved_at),
    }


def _team_sheets_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    sheets = TeamSheet.objects.filter(match=match).select_related("team", "submitted_by").prefetch_related(
        "seats__player").order_by("team__name")
    return [{
        "team": sheet.team.name, "submitted_at": instant(sheet.submitted_at),
        "submitted_by": refs.user(sheet.submitted_by), "version": sheet.version,
        "seats": [{"table": s.table_number, "role": s.role, "player": refs.player(s.player),
                   "called_away_at": instant(s.called_away_at)}
                  for s in sorted(sheet.seats.all(), key=lambda s: (s.table_number, s.role))],
    } for sheet in sheets]


def _substitutions_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    rows = Substitution.objects.filter(match=match).select_related("team", "player_out", "player_in", "made_by")
    return [{"team": s.team.name, "table": s.table_number, "role": s.role, "player_out": refs.player(s.player_out),
             "player_in": refs.player(s.player_in), "made_at": instant(s.made_at), "made_by": refs.user(s.made_by)}
            for s in sorted(rows, key=lambda s: (s.made_at, s.team.name, s.table_number, s.role))]


def _tables_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    team = lambda team_id: _team_name(match, team_id)  # noqa: E731
    return [{"number": t.number, "status": t.status, "stop_reason": t.stop_reason, "stop_note": t.stop_note,
             "defaulting_team": team(t.defaulting_team_id), "stopped_at": instant(t.stopped_at),
             "stopped_by": refs.user(t.stopped_by), "unseated_team": team(t.unseated_team_id),
             "unseated_reported_at": instant(t.unseated_reported_at)}
            for t in MatchTable.objects.filter(match=match).select_related("stopped_by").order_by("number")]


def _entry_dict(match: Match, entry: BoemEntry, refs: ExportRefs, sequences: dict[int, int],
                boems: dict[int, int]) -> dict[str, Any]:
    return {
        "sequence": entry.sequence, "kind": entry.kind, "team": _team_name(match, entry.team_id),
        "strokes": entry.strokes, "points": entry.points, "points_claimed": entry.points_claimed,
        "claimed_by": refs.player(entry.claimed_by), "reverses": sequences.get(entry.reverses_id),
        "note": entry.note, "recorded_at": instant(entry.recorded_at), "recorded_by": refs.user(entry.recorded_by),
        "confirmed_at": instant(entry.confirmed_at), "confirmed_by": refs.user(entry.confirmed_by),
        "confirmed_by_player": refs.player(entry.confirmed_by_player), "disputed_at": instant(entry.disputed_at),
        "disputed_by_player": refs.player(entry.disputed_by_player), "dispute_reason": entry.dispute_reason,
        "corrected_at": instant(entry.corrected_at), "corrected_by": refs.user(entry.corrected_by),
        "referee_reason": entry.referee_reason, "struck": entry.struck,
        "boem": boems.get(entry.boem_id) if entry.boem_id else None,
    }


def _boem_sheets_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    sheets = []
    for table in MatchTable.objects.filter(match=match).order_by("number"):
        entries = list(BoemEntry.objects.filter(table=table).select_related(
            "claimed_by", "recorded_by", "confirmed_by", "confirmed_by_player", "disputed_by_player", "corrected_by",
        ).order_by("sequence"))
        boems = list(Boem.objects.filter(table=table).order_by("number"))
        sequences = {e.pk: e.sequence for e in entries}
        numbers = {b.pk: b.number for b in boems}
        sheets.append({
            "table": table.number,
            "entries": [_entry_dict(match, e, refs, sequences, numbers) for e in entries],
            "boems": [{"number": b.number, "status": b.status, "home_strokes": b.home_strokes,
                       "away_strokes": b.away_strokes, "winner": _team_name(match, b.winner_id), "points": b.points,
                       "ended_at": instant(b.ended_at)} for b in boems],
        })
    return sheets


def _awards_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    rows = Award.objects.filter(match=match).select_related("player", "created_by")
    awards = [{"kind": a.kind, "team": _team_name(match, a.team_id), "points": a.points, "clause": a.clause,
               "half": a.half, "table": a.table_number, "player": refs.player(a.player), "note": a.note,
               "created_at": instant(a.created_at), "created_by": refs.user(a.created_by)} for a in rows]
    return sorted(awards, key=_award_key_sort)


def _award_key(award: dict[str, Any]) -> tuple[Any, ...]:
    return (award["kind"], award["team"], award["half"], award["table"], award["player"])


def _award_key_sort(award: dict[str, Any]) -> tuple[str, ...]:
    return tuple("" if v is None else str(v) for v in (award["created_at"], *_award_key(award)))


def _registry_section(match: Match, refs: ExportRefs) -> dict[str, Any]:
    competition = match.competition
    union = competition.union
    teams = [match.home, match.away]
    for team in teams:
        for membership in team.memberships.select_related("player__club", "player__user"):
            refs.player(membership.player)
    players = sorted(Player.objects.filter(union=union, registration_number__in=list(refs.players))
                     .select_related("club", "user"), key=lambda p: p.registration_number)
    for player in players:
        refs.user(player.user)
    officials = sorted(u.get_username() for u in union.officials.all())
    referees = sorted({link.user.get_username() for link in union.referee_links.select_related("user")} |
                      {u.get_username() for u in (match.referee, match.marker) if u is not None})
    for link in union.official_links.select_related("user"):
        refs.user(link.user)
    for link in union.referee_links.select_related("user"):
        refs.user(link.user)
    return {
        "union": {"name": union.name, **{name: getattr(union, name) for name in _UNION_SETTINGS}},
        "competition": {"name": competition.name, "season": competition.season, "kind": competition.kind,
                        "starts_on": _day(competition.starts_on)},
        "clubs": sorted({t.club.name for t in teams} | {p.club.name for p in players}),
        "teams": [{"name": t.name, "club": t.club.name, "seed": t.seed,
                   "captain": t.captain.registration_number if t.captain else None,
                   "squad": sorted(m.player.registration_number for m in t.memberships.select_related("player"))}
                  for t in teams],
        "players": [{"registration_number": p.registration_number, "first_name": p.first_name,
                     "last_name": p.last_name, "club": p.club.name, "active": p.active,
                     "account": p.user.get_username() if p.user else None} for p in players],
        "people": [{"username": name, "first_name": u.first_name, "last_name": u.last_name}
                   for name, u in sorted(refs.users.items())],
        "officials": officials, "referees": referees,
    }


def night_sections(match: Match) -> dict[str, Any]:
    """The night's sections as this installation holds them (the registry last: it carries everyone named)."""
    match = Match.objects.select_related("competition__union", "home__club", "away__club", "home__captain",
                                         "away__captain", "referee", "marker", "home_confirmed_by",
                                         "away_confirmed_by", "approved_by").get(pk=match.pk)
    refs = ExportRefs()
    sections: dict[str, Any] = {
        "match": _match_section(match, refs), "team_sheets": _team_sheets_section(match, refs),
        "substitutions": _substitutions_section(match, refs), "tables": _tables_section(match, refs),
        "boem_sheets": _boem_sheets_section(match, refs), "awards": _awards_section(match, refs),
    }
    for name, section in sorted(_SECTIONS.items()):
        sections[name] = section.export(match, refs)
    sections["registry"] = _registry_section(match, refs)
    return sections


def match_title(match: Match) -> str:
    """How the file and every message name a match: ``"Athlone Aces A v Bonteheuwel Boere (Premier League 2026,
    round 3, 4 Mar 2026)"``."""
    day = timezone.localtime(match.scheduled_start).strftime("%-d %b %Y")
    return f"{match.home.name} v {match.away.name} ({match.competition}, round {match.round_number}, {day})"


def night_export(*, match: Match, now: datetime | None = None) -> dict[str, Any]:
    """The night of ``match`` as a night document (see the module's docstring), with its checksums. Read-only.

    Export before the night (fixture, squads, referee, team sheets) to play it elsewhere, or after it (everything
    played) to bring it back. ``json.dumps`` of the result (:func:`night_file_dumps`) is the file.
    """
    document: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "exported_at": instant(now or timezone.now()),
        "title": match_title(match), "sections": night_sections(match),
    }
    document["checksums"] = night_checksums(document)
    return document


def night_file_name(match: Match) -> str:
    """The file's name: ``night-<home>-v-<away>-<date>.json`` in plain letters."""
    from django.utils.text import slugify

    day = timezone.localtime(match.scheduled_start).strftime("%Y-%m-%d")
    return f"night-{slugify(match.home.name)}-v-{slugify(match.away.name)}-{day}.json"


# --- Reading and verifying a file -----------------------------------------------------------------------------


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


class NightImport:
    """One import under way: the objects found or made so far, what was added and what conflicts.

    Sections of other apps use :meth:`user`, :meth:`player`, :meth:`team`, :meth:`table`, :meth:`line`,
    :meth:`add`, :meth:`conflict` and :meth:`instant`; ``match`` is locked, ``by`` is who imports.
    """

    def __init__(self, document: dict[str, Any], *, by: Any, union_scope: QuerySet[Union] | None) -> None:
        self.document = document
        self.sections = document["sections"]
        self.by = by
        self.union_scope = union_scope
        self.report = NightReport(title=str(document.get("title", "")))
        self.union: Union | None = None
        self.match: Match | None = None
        self.union_created = False
        self._users: dict[str, Any] = {}
        self._players: dict[str, Player] = {}
        self._teams: dict[str, Team] = {}
        self._tables: dict[int, MatchTable] = {}
        self.refusals: list[str] = []
        self.officials: set[int] = set()  # the match's referee and marker (user ids), here or as the file fills them
        self._seated: dict[tuple[int, str], dict[str, set[str]]] | None = None

    # where things are
    def where(self, *parts: str) -> str:
        """``"<match>, table 2, line 7"``."""
        return ", ".join([self.report.title, *parts])

    def add(self, what: str) -> None:
        self.report.added.append(what)

    def conflict(self, where: str, message: str) -> None:
        self.report.conflicts.append(Conflict(where=where, message=message))

    def instant(self, value: Any, where: str) -> datetime | None:
        return _parse_instant(value, where)

    # --- who the file names: the pages' rules ---------------------------------------------------------------
    def refuse(self, where: str, message: str, *, role: str = "", name: str | None = None) -> None:
        """Refuse the file (:class:`NightRefused`, raised once everything is read): ``"<where>, <role> '<name>':
        <message>"``, ``name`` the username or registration number the file gives."""
        person = f", {role} {name!r}" if role else ""
        self.refusals.append(f"{where}{person}: {message}")

    def official_act_check(self, username: str | None, where: str, role: str) -> None:
        """What only the referee does at a match (a line written or corrected on a table's behalf, a table stopped,
        an award, a straf claim, its hand and ruling) is done by its referee or marker (SAKBOC 1.10, 1.11), as the
        referee's pages require (``matches.permissions.match_for_referee``): else a refusal naming ``username``."""
        user = self.user(username)
        if user is None or user.pk in self.officials:
            return
        self.refuse(where, _("%(person)s is not the referee or marker of this match; only the match's referee or "
                             "marker does that (SAKBOC 1.10, 1.11).") % {"person": person_name(user)},
                    role=role, name=username)

    def _officials_check(self, match: Match, roles: set[str], where: str) -> None:
        """The file's referee and marker (``roles``: the ones it sets here) as the officials' pages assign them:
        :func:`matches.competitions.services.match_officials_check`."""
        for role in ("referee", "marker"):
            user = getattr(match, role)
            if role not in roles or user is None:
                continue
            try:
                match_officials_check(match=match, **{role: user})
            except ValidationError as error:
                self.refuse(where, " ".join(error.messages), role=role, name=user.get_username())
        if roles and match.referee is not None and match.marker is not None and match.referee.pk == match.marker.pk:
            try:
                match_officials_check(match=match, referee=match.referee, marker=match.marker)
            except ValidationError as error:
                self.refuse(where, " ".join(error.messages), role="marker", name=match.marker.get_username())

    def _confirmers_check(self, match: Match, names: set[str], where: str) -> None:
        """A side's confirmation of the result is its captain's (:func:`matches.results.services.result_confirmer_side`)."""
        for side, name in (("home", "home_confirmed_by"), ("away", "away_confirmed_by")):
            user = getattr(match, name)
            if name not in names or user is None:
                continue
            try:
                confirms_for = result_confirmer_side(match=match, user=user)
            except PermissionDenied:
                confirms_for = None
            if confirms_for != side:
                team = match.home if side == "home" else match.away
                self.refuse(where, _("%(person)s does not confirm for %(team)s: a result is confirmed by both "
                                     "captains, each for their side, or by the referee (SAKBOC 1.10).")
                            % {"person": person_name(user), "team": team.name},
                            role=name.replace("_", " "), name=user.get_username())

    def _manager_check(self, team: Team, username: str | None, where: str, role: str) -> None:
        """A team sheet or substitution is its team's captain's or club secretary's
        (:func:`clubs.permissions.team_managed_by`, as ``matches.permissions.match_team_for_captain``). Not checked
        on a fresh installation, whose union this file just made: club secretaries do not travel in the file, so a
        sheet a secretary submitted on the server could not be told from anyone's there."""
        user = self.user(username)
        if user is None or self.union_created or team_managed_by(team=team, user=user):
            return
        self.refuse(where, _("%(person)s is neither the captain of %(team)s nor a secretary of its club.")
                    % {"person": person_name(user), "team": team.name}, role=role, name=username)

    def seated(self, table_number: int, team_name: str | None) -> dict[str, set[str]]:
        """Who sat at ``table_number`` for ``team_name`` over the night by the file's sheets and substitutions
        (registration numbers): ``{"telman": ..., "any": ...}``."""
        if self._seated is None:
            self._seated = {}
            for sheet in self.sections["team_sheets"]:
                for seat in sheet["seats"]:
                    places = self._seated.setdefault((seat["table"], sheet["team"]), {"telman": set(), "any": set()})
                    places["any"].add(seat["player"])
                    if seat["role"] == "telman":
                        places["telman"].add(seat["player"])
            for sub in self.sections["substitutions"]:  # the seat before half-time (SAKBOC 11.1)
                places = self._seated.setdefault((sub["table"], sub["team"]), {"telman": set(), "any": set()})
                places["any"].update((sub["player_out"], sub["player_in"]))
                if sub["role"] == "telman":
                    places["telman"].add(sub["player_out"])
        return self._seated.get((table_number, team_name or ""), {"telman": set(), "any": set()})

    def _opponent(self, team_name: str | None) -> str | None:
        if team_name is None:
            return None
        names = [name for name in self._teams if name != team_name]
        return names[0] if len(names) == 1 else None

    def _line_people_check(self, table_number: int, data: dict[str, Any]) -> None:
        """A line from elsewhere names the people the table's pages would have: the side's telman goes on (a
        straf's claimant sits at the table for that side), the opposing telman confirms or disputes it (SAKBOC
        6.8), the referee or marker writes, corrects or confirms it on the table's behalf (SAKBOC 1.10)."""
        where = self.where(f"table {table_number}", f"line {data['sequence']}")
        team, opponent = data["team"], self._opponent(data["team"])
        claimant = data["claimed_by"]
        if claimant is not None and data["kind"] == BoemEntry.Kind.STROKE and \
                claimant not in self.seated(table_number, team)["telman"]:
            self.refuse(where, _("SAKBOC 6.8: going on the boem is the telman's (counter's) responsibility; "
                                 "%(full_name)s is not %(team)s's telman at table %(table_number)s.")
                        % {"full_name": self.player(claimant).full_name, "team": team, "table_number": table_number},
                        role="claimed by", name=claimant)
        elif claimant is not None and data["kind"] == BoemEntry.Kind.STRAF and \
                claimant not in self.seated(table_number, team)["any"]:
            self.refuse(where, _("%(full_name)s is not seated at table %(table_number)s for %(team)s.")
                        % {"full_name": self.player(claimant).full_name, "table_number": table_number, "team": team},
                        role="claimed by", name=claimant)
        opposing = self.seated(table_number, opponent)["telman"]
        for field_name, role in (("confirmed_by_player", "confirmed by"), ("disputed_by_player", "disputed by")):
            number = data[field_name]
            if number is not None and number not in opposing:
                self.refuse(where, _("%(full_name)s is not %(team)s's telman at table %(table_number)s: the opposing "
                                     "telman confirms or disputes a going-on (SAKBOC 6.8).")
                            % {"full_name": self.player(number).full_name, "team": opponent or "?",
                               "table_number": table_number}, role=role, name=number)
        for field_name, role in (("recorded_by", "recorded by"), ("corrected_by", "corrected by")):
            self.official_act_check(data[field_name], where, role)
        confirmer = self.user(data["confirmed_by"])
        if confirmer is not None and confirmer.pk not in self.officials and not Player.objects.filter(
                union=self.union, registration_number__in=opposing, user=confirmer).exists():
            self.refuse(where, _("%(person)s is neither the referee or marker of this match nor %(team)s's telman "
                                 "at table %(table_number)s, who confirm a going-on (SAKBOC 1.10, 6.8).")
                        % {"person": person_name(confirmer), "team": opponent or "?", "table_number": table_number},
                        role="confirmed by", name=data["confirmed_by"])

    # natural keys
    def user(self, username: str | None) -> Any:
        if username is None:
            return None
        if username not in self._users:
            raise NightFileError(f"Section registry: {username!r} is named but not among its people.")
        return self._users[username]

    def player(self, registration_number: str | None) -> Player | None:
        if registration_number is None:
            return None
        if registration_number not in self._players:
            raise NightFileError(f"Section registry: player {registration_number!r} is named but not among its "
                                 "players.")
        return self._players[registration_number]

    def team(self, name: str | None) -> Team | None:
        if name is None:
            return None
        if name not in self._teams:
            raise NightFileError(f"Team {name!r} is named but is neither side of the match.")
        return self._teams[name]

    def table(self, number: int) -> MatchTable | None:
        return self._tables.get(number)

    def line(self, table_number: int, sequence: int | None) -> BoemEntry | None:
        """The line at (table, sequence) of this match's sheets, as it stands now (after the import's writes)."""
        if sequence is None:
            return None
        return BoemEntry.objects.filter(table__match=self.match, table__number=table_number,
                                        sequence=sequence).first()

    # --- the registry: union, competition, clubs, teams, players, people -----------------------------------
    def registry_merge(self) -> None:
        registry = self.sections["registry"]
        union_data = registry["union"]
        union = Union.objects.filter(name=union_data["name"]).first()
        if self.union_scope is not None and (union is None or not self.union_scope.filter(pk=union.pk).exists()):
            raise NightFileError(f"This night is of {union_data['name']}, which is not a union you run here.")
        if union is None:
            union = Union(**{k: v for k, v in union_data.items() if k == "name" or k in _UNION_SETTINGS})
            save_with_history(union, by=self.by, reason="imported from a night file")
            self.union_created = True
            self.add(f"union {union.name}")
        self.union = union
        user_model = get_user_model()
        for person in registry["people"]:
            user = user_model.objects.filter(username=person["username"]).first()
            if user is None:
                user = user_model(username=person["username"], first_name=person["first_name"],
                                  last_name=person["last_name"])
                user.set_unusable_password()
                user.full_clean(exclude=["password"])
                user.save()
                self.add(f"account {person['username']} ({user.get_full_name() or user.username}), no password yet")
            self._users[person["username"]] = user
        if self.union_created:  # a fresh installation: the union's officials and referees as they were
            for username in registry["officials"]:
                union_official_add(union=union, user=self.user(username))
            for username in registry["referees"]:
                union_referee_add(union=union, user=self.user(username))
        data = registry["competition"]
        competition = Competition.objects.filter(union=union, name=data["name"], season=data["season"]).first()
        if competition is None:
            competition = Competition(union=union, name=data["name"], season=data["season"], kind=data["kind"],
                                      starts_on=parse_date(data["starts_on"]) if data["starts_on"] else None)
            save_with_history(competition, by=self.by, reason="imported from a night file")
            self.add(f"competition {competition}")
        self.competition = competition
        clubs = {}
        for name in registry["clubs"]:
            club = Club.objects.filter(union=union, name=name).first()
            if club is None:
                club = Club(union=union, name=name)
                save_with_history(club, by=self.by, reason="imported from a night file")
                self.add(f"club {name}")
            clubs[name] = club
        for data in registry["players"]:
            player = Player.objects.filter(union=union, registration_number=data["registration_number"]).first()
            if player is None:
                player = Player(union=union, club=clubs[data["club"]], registration_number=data["registration_number"],
                                first_name=data["first_name"], last_name=data["last_name"], active=data["active"])
                account = self.user(data["account"])
                if account is not None and self.union_created and not Player.objects.filter(user=account).exists():
                    player.user = account
                save_with_history(player, by=self.by, reason="imported from a night file")
                self.add(f"player {player}")
            self._players[player.registration_number] = player
        for data in registry["teams"]:
            self._team_merge(data, clubs)

    def _team_merge(self, data: dict[str, Any], clubs: dict[str, Club]) -> None:
        team = Team.objects.filter(competition=self.competition, name=data["name"]).first()
        if team is None:
            team = Team(competition=self.competition, club=clubs[data["club"]], name=data["name"], seed=data["seed"])
            save_with_history(team, by=self.by, reason="imported from a night file")
            self.add(f"team {team.name}")
        self._teams[team.name] = team
        members = dict(TeamMembership.objects.filter(competition=self.competition, player__registration_number__in=
                                                     data["squad"]).values_list("player__registration_number",
                                                                                "team__name"))
        for number in data["squad"]:
            if number not in members:
                save_with_history(TeamMembership(team=team, player=self.player(number), competition=self.competition),
                                  by=self.by, reason="imported from a night file")
                self.add(f"{self.player(number).full_name} in {team.name}'s squad")
            elif members[number] != team.name:
                self.conflict(self.where(f"{team.name}'s squad"),
                              f"{self.player(number).full_name} plays for {members[number]} here (SAKBOC 1.5: one "
                              "team per competition).")
        if team.captain_id is None and data["captain"] is not None:
            team.captain = self.player(data["captain"])
            save_with_history(team, by=self.by, reason="captain imported from a night file")

    # --- the match ----------------------------------------------------------------------------------------------
    def match_find(self) -> Match:
        data = self.sections["match"]
        home, away = self.team(data["home"]), self.team(data["away"])
        match = self._match_named(data, home, away)
        if match is None:
            match = Match(competition=self.competition, round_number=data["round_number"],
                          round_name=data["round_name"], tie_number=data["tie_number"], home=home, away=away,
                          venue=data["venue"], scheduled_start=self.instant(data["scheduled_start"],
                                                                            "match.scheduled_start"),
                          referee=self.user(data["referee"]), marker=self.user(data["marker"]))
            self._officials_check(match, {"referee", "marker"}, self.where("section match"))
            save_with_history(match, by=self.by, reason="imported from a night file")
            self.add(f"fixture {home.name} v {away.name}")
        self.officials = {u.pk for u in (match.referee, match.marker, self.user(data["referee"]),
                                         self.user(data["marker"])) if u is not None}
        self.match = match_lock(match)
        self.report.title = match_title(self.match)
        self.report.match_id = self.match.pk
        self.before = night_sections(self.match)
        return self.match

    def _match_named(self, data: dict[str, Any], home: Team, away: Team) -> Match | None:
        """The match of the competition, round, home and away team; when several, the one of the file's start (or
        day): a fixture moved to another day is still found while it is the only one of its round."""
        candidates = list(Match.objects.filter(competition=self.competition, round_number=data["round_number"],
                                               home=home, away=away))
        if len(candidates) <= 1:
            return candidates[0] if candidates else None
        start = self.instant(data["scheduled_start"], "match.scheduled_start")
        for same in (lambda m: m.scheduled_start == start,
                     lambda m: timezone.localdate(m.scheduled_start) == timezone.localdate(start)):
            found = [m for m in candidates if same(m)]
            if len(found) == 1:
                return found[0]
        raise NightFileError(f"Several matches of round {data['round_number']} are {home.name} v {away.name} here, "
                             "none of them starting when the file's does.")

    def match_merge(self) -> None:
        """The clock and the result: fill what the server has empty; what both hold must agree. Last, after the
        sheets and awards, so the file's score stands (a score an official corrected, too)."""
        match, data, here = self.match, self.sections["match"], self.before["match"]
        where = self.where("the match")
        changed = []
        if here["result_status"] == Match.ResultStatus.APPROVED and (
                (here["home_score"], here["away_score"]) != (data["home_score"], data["away_score"]) or
                self.report.added):
            self.conflict(where, f"the result is approved here ({here['home_score']}–{here['away_score']}); the file "
                          f"says {data['home_score']}–{data['away_score']} and more of the night. A union official "
                          "must reopen the result before the night can change.")
            return
        for name in ("referee", "marker", "toss_winner", "tossed_at", "first_half_started_at", "interval_started_at",
                     "second_half_started_at", "grace_handled_at", "extra_time_started_at", "extra_time_periods",
                     "finished_at", "home_confirmed_by", "away_confirmed_by", "confirmed_at"):
            if here[name] == data[name] or _empty(data[name]):
                continue
            if not _empty(here[name]):
                self.conflict(where, f"{name.replace('_', ' ')} is {here[name]} here and {data[name]} in the file.")
                continue
            changed.append(name)
        for name, order in (("phase", PHASE_ORDER), ("result_status", RESULT_ORDER)):
            wanted = data[name]
            if name == "result_status" and wanted == Match.ResultStatus.APPROVED:
                wanted = Match.ResultStatus.CONFIRMED  # an approval never travels: the official approves here
            if wanted not in order:
                raise NightFileError(f"match.{name}: {wanted!r} is not one of {', '.join(order)}.")
            if order.index(wanted) > order.index(here[name]):
                changed.append(name)
        if here["result_status"] != Match.ResultStatus.NONE and data["result_status"] != Match.ResultStatus.NONE \
                and (here["home_score"], here["away_score"]) != (data["home_score"], data["away_score"]):
            self.conflict(where, f"the result is {here['home_score']}–{here['away_score']} here and "
                          f"{data['home_score']}–{data['away_score']} in the file.")
        if "result_status" in changed and data["result_status"] != Match.ResultStatus.NONE:
            try:
                match_night_come_check(match=match)
            except ValidationError as error:
                self.conflict(where, " ".join(error.messages))
        if self.report.conflicts:
            return
        for name in changed:
            value = data[name]
            if name in ("referee", "marker", "home_confirmed_by", "away_confirmed_by"):
                setattr(match, name, self.user(value))
            elif name == "toss_winner":
                match.toss_winner = self.team(value)
            elif name.endswith("_at"):
                setattr(match, name, self.instant(value, f"match.{name}"))
            elif name == "result_status":
                match.result_status = value if value != Match.ResultStatus.APPROVED else Match.ResultStatus.CONFIRMED
            else:
                setattr(match, name, value)
        self._officials_check(match, set(changed) & {"referee", "marker"}, self.where("section match"))
        self._confirmers_check(match, set(changed), self.where("section match"))
        if "result_status" in changed or here["result_status"] == Match.ResultStatus.NONE:
            match.home_score, match.away_score = data["home_score"], data["away_score"]
            match.winner = self.team(data["winner"])
        if changed or self.report.added:
            save_with_history(match, by=self.by, reason="imported from a night file")
        clock = [words for name, words in _CLOCK_WORDS if name in changed]
        if clock:
            self.add("the clock: " + ", ".join(clock))
        if "result_status" in changed:
            self.add(f"the result: {match.home.name} {match.home_score}–{match.away_score} {match.away.name}, "
                     f"{match.status_label.lower()}")
        others = [n.replace("_", " ") for n in changed
                  if n not in dict(_CLOCK_WORDS) and n not in ("result_status", "phase", "toss_winner", "confirmed_at")]
        if others:
            self.add("the match: " + ", ".join(others))

    # --- team sheets and substitutions ----------------------------------------------------------------------
    def team_sheets_merge(self) -> None:
        here_sheets = {s["team"]: s for s in self.before["team_sheets"]}
        file_subs = self.sections["substitutions"]
        here_subs = self.before["substitutions"]
        for data in self.sections["team_sheets"]:
            team = self.team(data["team"])
            where = self.where(f"{team.name}'s team sheet")
            final = {(s["table"], s["role"]): s for s in data["seats"]}
            team_subs = [s for s in file_subs if s["team"] == team.name]
            new_subs = [s for s in team_subs if s not in here_subs]
            before_subs = {k: dict(v) for k, v in final.items()}
            for sub in reversed(new_subs):
                before_subs[(sub["table"], sub["role"])]["player"] = sub["player_out"]
            here = here_sheets.get(team.name)
            if here is None:
                self._sheet_check(team, data, before_subs, where)
                sheet = TeamSheet(match=self.match, team=team, submitted_by=self.user(data["submitted_by"]),
                                  submitted_at=self.instant(data["submitted_at"], "team_sheets.submitted_at"),
                                  version=data["version"])
                save_with_history(sheet, by=self.by, reason="imported from a night file")
                for seat in before_subs.values():
                    Seat.objects.create(sheet=sheet, table_number=seat["table"], role=seat["role"],
                                        player=self.player(seat["player"]))
                self.add(f"{team.name}'s team sheet")
            else:
                here_seats = {(s["table"], s["role"]): s for s in here["seats"]}
                for key in sorted(set(here_seats) | set(before_subs)):
                    mine, theirs = here_seats.get(key), before_subs.get(key)
                    if mine is None or theirs is None or mine["player"] != theirs["player"]:
                        self.conflict(f"{where}, table {key[0]} {key[1]}",
                                      f"{self._player_name(mine)} here, {self._player_name(theirs)} in the file.")
                sheet = TeamSheet.objects.get(match=self.match, team=team)
            if len(team_subs) > MAX_SUBSTITUTIONS:
                self.refuse(self.where(f"{team.name}'s substitutions"),
                            _("SAKBOC 11.4: at most 3 substitutions per team at half-time; the file has %(value)s.")
                            % {"value": len(team_subs)})
            for sub in new_subs:
                sub_where = self.where(f"{team.name}'s substitutions", f"table {sub['table']}")
                self._manager_check(team, sub["made_by"], sub_where, "made by")
                try:
                    substitute_check(match=self.match, team=team, player_in=self.player(sub["player_in"]))
                except ValidationError as error:
                    self.refuse(sub_where, " ".join(error.messages), role="player in", name=sub["player_in"])
                seat = Seat.objects.get(sheet=sheet, table_number=sub["table"], role=sub["role"])
                seat.player = self.player(sub["player_in"])
                save_with_history(seat, by=self.by, reason="substitution imported from a night file")
                substitution = Substitution(
                    match=self.match, team=team, table_number=sub["table"], role=sub["role"],
                    player_out=self.player(sub["player_out"]), player_in=seat.player,
                    made_at=self.instant(sub["made_at"], "substitutions.made_at"), made_by=self.user(sub["made_by"]))
                substitution.full_clean()
                substitution.save()
                self.add(f"substitution: {seat.player.full_name} for {self.player(sub['player_out']).full_name} "
                         f"({team.name}, table {sub['table']})")
            for seat_data in data["seats"]:
                if seat_data["called_away_at"] is None:
                    continue
                seat = Seat.objects.get(sheet=sheet, table_number=seat_data["table"], role=seat_data["role"])
                if seat.called_away_at is None:
                    seat.called_away_at = self.instant(seat_data["called_away_at"], "team_sheets.called_away_at")
                    save_with_history(seat, by=self.by, reason="called away (imported from a night file)")
                    self.add(f"{seat.player.full_name} called away ({team.name})")
        for sub in here_subs:
            if sub not in file_subs:
                self.conflict(self.where(f"{sub['team']}'s substitutions"),
                              f"{sub['player_in']} for {sub['player_out']} at table {sub['table']} here is not in "
                              "the file.")

    def _sheet_check(self, team: Team, data: dict[str, Any], seats: dict[tuple[int, str], dict[str, Any]],
                     where: str) -> None:
        """A team sheet from elsewhere, as it was submitted (before half-time's substitutions), passes the
        team-sheet pages' rules (:func:`matches.night.services.team_sheet_check`), submitted by the team's captain or
        club secretary."""
        self._manager_check(team, data["submitted_by"], where, "submitted by")
        tables: dict[int, dict[str, Player]] = {}
        for (number, role), seat in seats.items():
            tables.setdefault(number, {})[role] = self.player(seat["player"])
        if any(set(roles) != {"telman", "byspeler"} for roles in tables.values()):
            self.refuse(where, _("each table has a telman and a byspeler (SAKBOC 1.5)."))
            return
        try:
            team_sheet_check(match=self.match, team=team, partnerships={
                number: (roles["telman"], roles["byspeler"]) for number, roles in tables.items()})
        except ValidationError as error:
            self.refuse(where, " ".join(error.messages))

    def _player_name(self, seat: dict[str, Any] | None) -> str:
        if seat is None:
            return "nobody"
        player = self._players.get(seat["player"]) or Player.objects.filter(
            union=self.union, registration_number=seat["player"]).first()
        return player.full_name if player else seat["player"]

    # --- tables ---------------------------------------------------------------------------------------------
    def tables_merge(self) -> None:
        here = {t["number"]: t for t in self.before["tables"]}
        for data in self.sections["tables"]:
            where = self.where(f"table {data['number']}")
            mine = here.get(data["number"])
            if mine is None:
                table = MatchTable(match=self.match, number=data["number"])
                self._table_fill(table, data, list(data))
                save_with_history(table, by=self.by, reason="imported from a night file")
                self._tables[table.number] = table
                self.add(f"table {table.number} ({table.get_status_display().lower()})")
                continue
            table = MatchTable.objects.get(match=self.match, number=data["number"])
            self._tables[table.number] = table
            fill = []
            for name, value in data.items():
                if mine[name] == value or _empty(value):
                    continue
                if _empty(mine[name]):
                    fill.append(name)
                else:
                    self.conflict(where, f"{name.replace('_', ' ')} is {mine[name]!r} here and {value!r} in the file.")
            if fill:
                self._table_fill(table, data, fill)
                save_with_history(table, by=self.by, reason="imported from a night file")
                self.add(f"table {table.number}: {', '.join(n.replace('_', ' ') for n in fill)}")
        for number in sorted(set(here) - {t["number"] for t in self.sections["tables"]}):
            self.conflict(self.where(f"table {number}"), "this table is in play here and not in the file.")

    def _table_fill(self, table: MatchTable, data: dict[str, Any], names: list[str]) -> None:
        for name in names:
            value = data[name]
            if name in ("defaulting_team", "unseated_team"):
                setattr(table, name, self.team(value))
            elif name == "stopped_by":
                self.official_act_check(value, self.where(f"table {table.number}"), "stopped by")
                table.stopped_by = self.user(value)
            elif name.endswith("_at"):
                setattr(table, name, self.instant(value, f"tables.{name}"))
            elif name != "number":
                setattr(table, name, value)

    # --- boem sheets ----------------------------------------------------------------------------------------
    def boem_sheets_merge(self) -> None:
        here = {s["table"]: s for s in self.before["boem_sheets"]}
        for sheet in self.sections["boem_sheets"]:
            number = sheet["table"]
            table = self.table(number)
            where = self.where(f"table {number}")
            if table is None:
                self.conflict(where, "the file has a boem sheet for a table it does not list.")
                continue
            mine = {e["sequence"]: e for e in (here.get(number) or {"entries": []})["entries"]}
            theirs = {e["sequence"]: e for e in sheet["entries"]}
            clash = False
            for sequence in sorted(mine):
                if sequence not in theirs:
                    self.conflict(f"{where}, line {sequence}",
                                  f"{self._line_words(mine[sequence])} is on the sheet here and not in the file.")
                    clash = True
                elif mine[sequence] != theirs[sequence]:
                    self.conflict(f"{where}, line {sequence}",
                                  f"here: {self._line_words(mine[sequence])}; in the file: "
                                  f"{self._line_words(theirs[sequence])}.")
                    clash = True
            new = [theirs[s] for s in sorted(theirs) if s not in mine]
            if clash or not new:
                continue
            self._lines_write(table, new)
            self.add(f"table {number}: {len(new)} line{'s' if len(new) != 1 else ''} of the boem sheet "
                     f"({', '.join(self._line_words(e) for e in new[:3])}{', …' if len(new) > 3 else ''})")

    def _line_words(self, entry: dict[str, Any]) -> str:
        kind = {"stroke": f"{entry['team']} on {entry['strokes']}", "straf": f"straf by {entry['team']}",
                "straf_reversed": f"wrong straf reversed, {entry['points']} to {entry['team']}",
                "time": "time"}.get(entry["kind"], entry["kind"])
        states = [s for s, on in (("struck", entry["struck"]), ("confirmed", entry["confirmed_at"]),
                                  ("disputed", entry["disputed_at"])) if on]
        return f"{kind} ({states[0] if states else 'provisional'})"

    def _lines_write(self, table: MatchTable, lines: list[dict[str, Any]]) -> None:
        entries: list[BoemEntry] = []
        by_sequence: dict[int, BoemEntry] = {}
        for data in lines:
            where = f"boem_sheets.table {table.number}.line {data['sequence']}"
            if data["kind"] not in BoemEntry.Kind.values:
                raise NightFileError(f"{where}: {data['kind']!r} is not a kind of line.")
            self._line_people_check(table.number, data)
            entry = BoemEntry(
                table=table, sequence=data["sequence"], kind=data["kind"], team=self.team(data["team"]),
                strokes=data["strokes"], points_claimed=data["points_claimed"],
                claimed_by=self.player(data["claimed_by"]), note=data["note"],
                recorded_at=self.instant(data["recorded_at"], where), recorded_by=self.user(data["recorded_by"]),
                confirmed_at=self.instant(data["confirmed_at"], where), confirmed_by=self.user(data["confirmed_by"]),
                confirmed_by_player=self.player(data["confirmed_by_player"]),
                disputed_at=self.instant(data["disputed_at"], where),
                disputed_by_player=self.player(data["disputed_by_player"]), dispute_reason=data["dispute_reason"],
                corrected_at=self.instant(data["corrected_at"], where), corrected_by=self.user(data["corrected_by"]),
                referee_reason=data["referee_reason"], struck=data["struck"],
            )
            if data["reverses"] is not None:
                entry.reverses = by_sequence.get(data["reverses"]) or self.line(table.number, data["reverses"])
                if entry.reverses is None:
                    raise NightFileError(f"{where}: it reverses line {data['reverses']}, which is not there.")
            entries.append(entry)
            by_sequence[entry.sequence] = entry
        claimed = {i: data["points"] for i, data in enumerate(lines)
                   if data["kind"] == BoemEntry.Kind.STRAF and not data["struck"]}
        try:
            boem_sheet.sheet_lines_restore(match=self.match, table=table, lines=entries, claimed=claimed,
                                           by=self.by, reason="imported from a night file")
        except ValidationError as error:
            self.conflict(self.where(f"table {table.number}"),
                          "the rules engine refuses the file's lines here: " + "; ".join(error.messages))
            return
        struck = [e for e, data in zip(entries, lines, strict=True) if data["struck"] and e.points != data["points"]]
        for entry, data in ((e, d) for e, d in zip(entries, lines, strict=True) if e in struck):
            entry.points = data["points"]  # a struck line keeps the points it had; the engine no longer scores it
        if struck:
            BoemEntry.objects.bulk_update(struck, ["points"])

    # --- awards ---------------------------------------------------------------------------------------------
    def awards_merge(self) -> None:
        here = {_award_key(a): a for a in self.before["awards"]}
        theirs = {_award_key(a): a for a in self.sections["awards"]}
        for key, mine in here.items():
            if theirs.get(key) != mine:
                self.conflict(self.where("awards"), f"{mine['points']} to {mine['team']} ({mine['clause']}) here "
                              + ("is not in the file." if key not in theirs else "differs in the file."))
        for key, data in theirs.items():
            if key in here:
                continue
            self.official_act_check(data["created_by"], self.where("awards"), "awarded by")
            award = Award(match=self.match, team=self.team(data["team"]), kind=data["kind"], points=data["points"],
                          clause=data["clause"], half=data["half"], table_number=data["table"],
                          player=self.player(data["player"]), note=data["note"],
                          created_at=self.instant(data["created_at"], "awards.created_at"),
                          created_by=self.user(data["created_by"]))
            save_with_history(award, by=self.by, reason="imported from a night file")
            self.add(f"award: {award.points} to {award.team.name} ({award.clause})")

    # --- after everything: the server's night must now be the file's ---------------------------------------
    def check_same(self) -> None:
        after = night_sections(self.match)
        for name in ("team_sheets", "substitutions", "tables", "boem_sheets", "awards", *sorted(_SECTIONS)):
            if name == "team_sheets":  # who submitted a sheet, and when, may differ; its seats may not
                seats = lambda sheets: [(s["team"], s["seats"]) for s in sheets]  # noqa: E731
                if seats(after[name]) == seats(self.sections[name]):
                    continue
            if after[name] == self.sections[name]:
                continue
            if name == "boem_sheets":
                for mine, theirs in zip(after[name], self.sections[name], strict=False):
                    if mine != theirs:
                        self.conflict(self.where(f"table {theirs['table']}"),
                                      "the rules engine scores the file's boem sheet otherwise under this union's "
                                      f"rules: here {self._boem_words(mine)}, in the file {self._boem_words(theirs)}.")
                        break
                else:
                    self.conflict(self.where("boem sheets"), "the file's tables differ from this installation's.")
            elif name in ("team_sheets", "substitutions") and self.report.conflicts:
                continue  # already said where
            else:
                self.conflict(self.where(name.replace("_", " ")),
                              "after the import this installation's record would still differ from the file's.")
        clock = ("phase", "tossed_at", "first_half_started_at", "interval_started_at", "second_half_started_at",
                 "finished_at", "home_score", "away_score")
        mine, theirs = after["match"], self.sections["match"]
        for name in clock:
            if mine[name] != theirs[name]:
                self.conflict(self.where("the match"), f"{name.replace('_', ' ')} would be {mine[name]} here and is "
                              f"{theirs[name]} in the file.")

    @staticmethod
    def _boem_words(sheet: dict[str, Any]) -> str:
        return "; ".join(f"boem {b['number']} {b['home_strokes']}–{b['away_strokes']}, {b['points']} to "
                         f"{b['winner'] or 'nobody'}" for b in sheet["boems"]) or "no boems"


_CLOCK_WORDS = (("tossed_at", "the toss"), ("first_half_started_at", "first half"), ("interval_started_at", "interval"),
                ("second_half_started_at", "second half"), ("grace_handled_at", "the grace after the interval"),
                ("extra_time_started_at", "extra time"), ("finished_at", "full time"))


def night_import(
    *, data: bytes | str | dict[str, Any], by: Any = None, union_scope: QuerySet[Union] | None = None,
    dry_run: bool = False,
) -> NightReport:
    """Import a night file (see the module's docstring) in one transaction: add what this installation lacks;
    refuse the whole file when it conflicts with what is here, naming the match, table and line.

    :param by: who imports (the history's user; ``None`` from the command line).
    :param union_scope: the unions the importer may write (the official's, ``clubs.permissions
        .unions_for_official``); ``None`` (the command line) may also create the union, with its officials and
        referees, on a fresh installation.
    :param dry_run: do everything, report, and roll it all back: the confirmation step's preview.
    :returns: the report; ``nothing_new`` when the file adds nothing (importing the same file twice).
    :raises NightFileError: the file is not a readable, intact night file, or of a union outside ``union_scope``.
    :raises NightRefused: (a :class:`NightFileError`) the file names someone for what the pages would not let them
        do, each refusal naming the place and the person (nothing written; issue 35).
    :raises NightConflict: the file conflicts with this installation (nothing written).
    """
    document = night_file_read(data)
    context = NightImport(document, by=by, union_scope=union_scope)
    try:
        with transaction.atomic():
            context.registry_merge()
            context.match_find()
            context.team_sheets_merge()
            context.tables_merge()
            if not context.report.conflicts:
                context.boem_sheets_merge()
                context.awards_merge()
                for name, section in sorted(_SECTIONS.items()):
                    section.merge(context, document["sections"][name])
            context.match_merge()
            if context.refusals:
                raise NightRefused(context.refusals)
            if not context.report.conflicts:
                context.check_same()
            if context.report.conflicts:
                raise NightConflict(context.report)
            if dry_run:
                transaction.set_rollback(True)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise NightFileError(f"The night file cannot be read here: {type(error).__name__} {error} (a value missing or "
                             "of the wrong kind).") from None
    except IntegrityError as error:
        raise NightFileError(f"The night file cannot be stored here: {error}.") from None
    context.report.imported = not dry_run and not context.report.nothing_new
    if dry_run and context.report.match_id is not None and not Match.objects.filter(
            pk=context.report.match_id).exists():
        context.report.match_id = None
    return context.report

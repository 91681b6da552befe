"""An import under way (:mod:`matches.nightfile`): the objects found or made so far, what was added and what
conflicts, and who the file names checked as the pages check them (issue 35).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, overload

from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clubs.models import (
    Player,
    Team,
    Union,
)
from clubs.permissions import team_managed_by
from clubs.selectors import person_name
from matches.competitions.services import match_officials_check
from matches.models import (
    BoemEntry,
    Match,
    MatchTable,
)
from matches.nightfile.format import Conflict, NightFileError, NightReport, _parse_instant
from matches.results.services import result_confirmer_side


class NightImportChecks:
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

    @overload
    def instant(self, value: str, where: str) -> datetime: ...
    @overload
    def instant(self, value: None, where: str) -> None: ...
    def instant(self, value: Any, where: str) -> datetime | None:
        """The file's instant at ``where``: ``None`` for ``None``.

        :raises NightFileError: ``value`` is not an ISO instant with its time zone."""
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
        """A side's confirmation of the result is its captain's
        (:func:`matches.results.services.result_confirmer_side`)."""
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

    @overload
    def player(self, registration_number: str) -> Player: ...
    @overload
    def player(self, registration_number: None) -> None: ...
    def player(self, registration_number: str | None) -> Player | None:
        if registration_number is None:
            return None
        if registration_number not in self._players:
            raise NightFileError(f"Section registry: player {registration_number!r} is named but not among its "
                                 "players.")
        return self._players[registration_number]

    @overload
    def team(self, name: str) -> Team: ...
    @overload
    def team(self, name: None) -> None: ...
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

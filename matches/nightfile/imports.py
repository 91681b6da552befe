"""A night file imported (:mod:`matches.nightfile`): each core section merged into what this installation holds,
in one transaction under the match's row lock (:func:`night_import`).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _

from clubs.models import (
    Club,
    Player,
    Team,
    TeamMembership,
    Union,
)
from clubs.services import save_with_history, union_official_add, union_referee_add
from matches.models import (
    Award,
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
from matches.nightfile.export import _UNION_SETTINGS, _award_key, match_title, night_sections
from matches.nightfile.format import (
    _SECTIONS,
    PHASE_ORDER,
    RESULT_ORDER,
    NightConflict,
    NightFileError,
    NightRefused,
    NightReport,
    _empty,
    night_file_read,
)
from matches.nightfile.import_checks import NightImportChecks
from matches.writes import match_lock, match_night_come_check


class NightImport(NightImportChecks):
    """One import under way: :class:`~matches.nightfile.import_checks.NightImportChecks` and the merges of the
    core sections, each in the file's order."""

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
        assert match is not None  # the match merges once match_find has locked it
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
        assert self.match is not None  # the sheets merge once match_find has locked the match
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
                for seat_before in before_subs.values():
                    Seat.objects.create(sheet=sheet, table_number=seat_before["table"], role=seat_before["role"],
                                        player=self.player(seat_before["player"]))
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
        assert self.match is not None  # the sheets merge once match_find has locked the match
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
        assert self.match is not None  # the boem sheets merge once match_find has locked the match
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
        assert self.match is not None  # checked once match_find has locked the match
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

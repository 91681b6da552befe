"""A whole match night exported from one installation and imported into another (matches/nightfile/ and
referee/night_transfer.py; issue 18).

The server exports the night before it is played; a fresh installation (the laptop at the hall) imports it and
gets the union, teams, squads, fixture and referee; the night is played there (boems, a straf upheld and a wrong one
reversed, an open "af" ruled later, a substitution, a table stopped, a player called away, time, the referee's
confirmation); the laptop exports; the server imports it (everything arrives, as the rules engine scores it);
the same file again changes nothing; a file that says something else at the same place is refused naming the match,
table and line; a file changed by hand is refused by its checksums.
"""

from __future__ import annotations

import copy
import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction
from django.utils import timezone

from clubs.models import Board, Club, ClubSecretary, Player, Team, TeamMembership, Union, UnionReferee
from matches.models import Award, Boem, BoemEntry, Competition, Match, MatchTable, Substitution, TeamSheet
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.nightfile.export import night_export, night_sections
from matches.nightfile.format import NightConflict, NightFileError, night_checksums, night_file_dumps
from matches.nightfile.imports import night_import
from matches.results import services as result_services
from referee import services as referee_services
from referee.models import Ruling, StrafClaim
from tests.factories import MatchFactory, sheet_for, squad

pytestmark = pytest.mark.django_db

T0 = timezone.now().replace(microsecond=0) - timedelta(minutes=60)  # "af" is logged at the real now: 60' in


def at(minutes: float):
    return T0 + timedelta(minutes=minutes)


def _go_on(match, table, team, *strokes, minute):
    for s in strokes:
        boem_sheet.going_on_record(match=match, table_number=table, team=team, strokes=s, reason="paper sheet",
                                   by=match.referee, now=at(minute))


def scheduled_match() -> Match:
    """A fixture with both team sheets, its referee on the union's list (as the officials' pages assign one)."""
    match = MatchFactory(scheduled_start=T0, home__squad=10, away__squad=10)
    UnionReferee.objects.create(union=match.competition.union, user=match.referee)
    sheet_for(match, match.home)
    sheet_for(match, match.away)
    return match


def play_night(match: Match) -> Match:
    """A night with every kind of record the file carries."""
    home, away, referee = match.home, match.away, match.referee
    ap = squad(away)
    night_services.match_toss_record(match=match, winner=home, now=at(-5))
    night_clock.match_start(match=match, now=at(0))
    _go_on(match, 1, home, 2, 2, 1, minute=10)
    _go_on(match, 2, away, 2, minute=12)
    links = table_links.table_links_ensure(match=match, by=referee, now=at(1))
    device, _key = table_links.table_device_sign_in(code=links[1].code, label="phone", now=at(2))
    line = boem_sheet.going_on_record(match=match, table_number=2, team=home, strokes=1, now=at(14),
                                      device=device)  # provisional at the table, then confirmed by the referee
    boem_sheet.entry_confirm(entry=line, user=referee, now=at(15))
    _go_on(match, 3, home, 2, 1, minute=15)
    _go_on(match, 4, away, 1, minute=18)
    upheld = referee_services.straf_claim_log(match=match, table_number=3, claimant_side="home",
                                              claimant_role="byspeler", accused_role="telman", offence="versak",
                                              moment="trick 3", by=referee)
    wrong = referee_services.straf_claim_log(match=match, table_number=4, claimant_side="home",
                                             claimant_role="byspeler", accused_role="byspeler", offence="versak",
                                             by=referee)
    referee_services.ruling_record(claim=upheld, decision="upheld", by=referee, now=at(61))
    referee_services.ruling_record(claim=wrong, decision="rejected", claimed_points=True, by=referee, now=at(62))
    night_services.player_called_away(match=match, player=ap[5], now=at(64))
    night_clock.match_clock_advance(match_id=match.pk, now=at(76))
    night_services.substitution_make(match=match, team=away, player_out=ap[5], player_in=ap[8], now=at(80))
    night_clock.match_resume(match=match, now=at(85))
    _go_on(match, 1, away, 2, 2, minute=100)
    night_clock.table_stop(match=match, table_number=1, defaulting_team=home, note="signs", by=referee, now=at(120))
    _go_on(match, 3, away, 1, minute=110)
    _go_on(match, 4, home, 2, minute=150)
    night_clock.match_clock_advance(match_id=match.pk, now=at(161))
    result_services.result_confirm(match=match, user=referee, now=at(165))
    return Match.objects.get(pk=match.pk)


def rolled_back(build):
    """Run ``build()`` and export what it made, then undo it all: the database as it was before."""
    result = {}
    with transaction.atomic():
        match = build()
        result["file"] = night_export(match=match)
        result["match"] = match
        transaction.set_rollback(True)
    return result["file"]


def resigned(document: dict) -> dict:
    """``document`` with fresh checksums (as someone who edits a file and knows the format would make it)."""
    document["checksums"] = night_checksums(document)
    return document


def test_round_trip_server_to_laptop_and_back():
    # The server: a fixture with team sheets, the night not played yet.
    server_match = scheduled_match()
    before = night_export(match=server_match)
    assert set(before["sections"]) == {"registry", "match", "team_sheets", "substitutions", "tables",
                                       "boem_sheets", "awards", "claims"}
    assert before["sections"]["match"]["phase"] == "scheduled" and before["sections"]["boem_sheets"] == []

    # The laptop: a fresh installation with nothing of the server's. Its import makes the union, competition, clubs,
    # teams, squads, players, accounts and fixture; exported again it is the same night, section by section.
    def on_the_laptop():
        for model in (Match, TeamMembership, Team, Player, Club, Competition, Board, Union, get_user_model()):
            model.objects.all().delete()
        report = night_import(data=night_file_dumps(before))  # what the command line does: any union
        assert report.imported and not report.conflicts
        union = server_match.competition.union.name
        assert f"union {union}" in report.added and any(a.startswith("fixture ") for a in report.added)
        assert UnionReferee.objects.get(union__name=union).user.username == server_match.referee.username
        assert not get_user_model().objects.get(username=server_match.referee.username).has_usable_password()
        laptop_match = Match.objects.get(pk=report.match_id)
        assert night_sections(laptop_match) == before["sections"]
        return play_night(laptop_match)

    # Played on the laptop and exported (then undone: back to the server's database).
    after = rolled_back(on_the_laptop)
    assert Match.objects.get(pk=server_match.pk).phase == Match.Phase.SCHEDULED
    assert not BoemEntry.objects.exists()
    sections = after["sections"]
    assert sections["match"]["result_status"] == "confirmed" and len(sections["claims"]) == 2
    assert {c["ruling"]["decision"] for c in sections["claims"]} == {"upheld", "rejected"}

    # The server imports the laptop's night: everything arrives, as the file says.
    report = night_import(data=json.dumps(after))
    assert report.imported and not report.conflicts and report.match_id == server_match.pk
    match = Match.objects.get(pk=server_match.pk)
    assert night_sections(match) == sections
    assert (match.phase, match.result_status) == (Match.Phase.FINISHED, Match.ResultStatus.CONFIRMED)
    assert (match.home_score, match.away_score) == (sections["match"]["home_score"], sections["match"]["away_score"])
    assert match.home_score > 0 and match.away_score > 0
    assert BoemEntry.objects.filter(table__match=match).count() == sum(len(s["entries"])
                                                                       for s in sections["boem_sheets"])
    assert Boem.objects.filter(table__match=match, points__gt=0).exists()
    assert Ruling.objects.filter(claim__match=match).count() == 2
    assert StrafClaim.objects.get(match=match, table__number=3).ruling.boem_entry.kind == BoemEntry.Kind.STRAF
    assert Substitution.objects.filter(match=match).count() == 1
    assert MatchTable.objects.get(match=match, number=1).status == MatchTable.Status.STOPPED
    assert Award.objects.filter(match=match).count() == 2
    assert any("table 3" in a and "line" in a for a in report.added)

    # The same file again: nothing new, nothing written.
    entries = BoemEntry.objects.count()
    history = Match.history.filter(id=match.pk).count()
    again = night_import(data=json.dumps(after))
    assert again.nothing_new and not again.imported and again.added == []
    assert BoemEntry.objects.count() == entries and Match.history.filter(id=match.pk).count() == history


def test_a_conflicting_file_is_refused_naming_the_match_table_and_line():
    match = scheduled_match()
    played = rolled_back(lambda: play_night(match))
    night_import(data=played)

    changed = copy.deepcopy(played)
    line = next(e for e in changed["sections"]["boem_sheets"][1]["entries"] if e["kind"] == "stroke")
    line["strokes"] = 1 if line["strokes"] == 2 else 2
    entries = BoemEntry.objects.count()
    with pytest.raises(NightConflict) as refused:
        night_import(data=resigned(changed))
    conflicts = refused.value.report.conflicts
    assert len(conflicts) == 1
    assert conflicts[0].where == (f"{match.home.name} v {match.away.name} ({match.competition}, round 1, "
                                  f"{timezone.localtime(T0):%-d %b %Y}), table 2, line {line['sequence']}")
    assert "here:" in conflicts[0].message and "in the file:" in conflicts[0].message
    assert BoemEntry.objects.count() == entries  # nothing written


def test_a_line_here_that_the_file_lacks_and_an_approved_result_are_conflicts():
    match = scheduled_match()
    played = rolled_back(lambda: play_night(match))
    night_import(data=played)
    shorter = copy.deepcopy(played)
    last = shorter["sections"]["boem_sheets"][3]["entries"].pop()
    with pytest.raises(NightConflict) as refused:
        night_import(data=resigned(shorter))
    assert any(c.where.endswith(f"table 4, line {last['sequence']}") and "not in the file" in c.message
               for c in refused.value.report.conflicts)

    Match.objects.filter(pk=match.pk).update(result_status=Match.ResultStatus.APPROVED, home_score=99)
    with pytest.raises(NightConflict) as refused:
        night_import(data=played)
    assert any("approved here" in c.message for c in refused.value.report.conflicts)


def test_the_server_can_be_ahead_only_where_the_file_agrees():
    """The night started on the server too (toss recorded here differently): refused, saying which."""
    match = scheduled_match()
    played = rolled_back(lambda: play_night(match))
    night_services.match_toss_record(match=match, winner=match.away, now=at(-4))
    with pytest.raises(NightConflict) as refused:
        night_import(data=played)
    assert any("toss winner" in c.message or "tossed at" in c.message for c in refused.value.report.conflicts)
    assert not BoemEntry.objects.exists()


def test_a_tampered_file_is_refused_by_its_checksums():
    match = scheduled_match()
    played = rolled_back(lambda: play_night(match))
    tampered = copy.deepcopy(played)
    tampered["sections"]["match"]["home_score"] += 10
    with pytest.raises(NightFileError, match="Section match: the checksum does not match"):
        night_import(data=tampered)
    reheaded = copy.deepcopy(played)
    reheaded["title"] = "something else"
    with pytest.raises(NightFileError, match="The file's checksum does not match"):
        night_import(data=reheaded)
    with pytest.raises(NightFileError, match="not JSON"):
        night_import(data=b"{not json")
    with pytest.raises(NightFileError, match="version 2"):
        night_import(data={**played, "version": 2})
    assert not BoemEntry.objects.exists() and Match.objects.get(pk=match.pk).phase == Match.Phase.SCHEDULED


def test_preview_rolls_back_and_the_scope_keeps_other_unions_out():
    match = scheduled_match()
    played = rolled_back(lambda: play_night(match))
    preview = night_import(data=played, dry_run=True)
    assert preview.added and not preview.imported and not BoemEntry.objects.exists()
    with pytest.raises(NightFileError, match="not a union you run here"):
        night_import(data=played, union_scope=Union.objects.exclude(pk=match.competition.union_id))
    report = night_import(data=played, union_scope=Union.objects.filter(pk=match.competition.union_id))
    assert report.added == preview.added


def test_commands_export_and_import_with_exit_codes(tmp_path, capsys):
    match = scheduled_match()
    played = rolled_back(lambda: play_night(match))
    path = tmp_path / "night.json"
    path.write_text(night_file_dumps(played))
    call_command("night_import", str(path))
    assert "Imported" in capsys.readouterr().out
    call_command("night_import", str(path))
    assert "nothing new" in capsys.readouterr().out

    out = tmp_path / "out.json"
    call_command("night_export", "--match", str(match.pk), "--output", str(out))
    assert json.loads(out.read_text())["sections"] == played["sections"]

    with pytest.raises(CommandError) as exit_:
        call_command("night_import", str(tmp_path / "missing.json"))
    assert exit_.value.returncode == 2
    bad = copy.deepcopy(played)
    bad["sections"]["boem_sheets"][0]["entries"][0]["strokes"] = 1
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(CommandError, match="checksum") as exit_:
        call_command("night_import", str(tmp_path / "bad.json"))
    assert exit_.value.returncode == 2
    (tmp_path / "conflict.json").write_text(json.dumps(resigned(bad)))
    with pytest.raises(CommandError, match="table 1, line 1") as exit_:
        call_command("night_import", str(tmp_path / "conflict.json"))
    assert exit_.value.returncode == 3


# --- Who the file names: the checks the pages apply (issue 35, finding 3) ------------------------------------


def _nothing_saved(match: Match) -> None:
    match = Match.objects.get(pk=match.pk)
    assert (match.referee_id, match.phase, match.result_status) == (None, Match.Phase.SCHEDULED,
                                                                    Match.ResultStatus.NONE)
    assert not BoemEntry.objects.filter(table__match=match).exists() and not StrafClaim.objects.exists()


def _unrefereed_match() -> Match:
    """A fixture here whose referee is not assigned yet: the file may fill it, as the pages would."""
    match = scheduled_match()
    Match.objects.filter(pk=match.pk).update(referee=None)
    return Match.objects.get(pk=match.pk)


def _listed_referee(match: Match):
    referee = get_user_model().objects.create(username="ref_listed", first_name="Rita", last_name="Listed")
    UnionReferee.objects.create(union=match.competition.union, user=referee)
    return referee


def _home_captain_account(match: Match):
    captain = get_user_model().objects.create(username="home_captain", first_name="Hendrik", last_name="Home")
    Player.objects.filter(pk=match.home.captain_id).update(user=captain)
    return captain


def test_a_file_whose_referee_is_the_home_captain_is_refused_and_nothing_is_saved(capsys, tmp_path):
    match = _unrefereed_match()
    captain = _home_captain_account(match)
    UnionReferee.objects.create(union=match.competition.union, user=captain)  # on the list, yet conflicted
    def build():
        Match.objects.filter(pk=match.pk).update(referee=captain)
        return play_night(Match.objects.get(pk=match.pk))

    played = rolled_back(build)
    assert played["sections"]["match"]["referee"] == "home_captain"
    with pytest.raises(NightFileError) as refused:
        night_import(data=played)
    message = " ".join(refused.value.messages)
    assert "section match, referee 'home_captain'" in message
    assert "Hendrik Home cannot be the referee" in message and f"captains {match.home.name}" in message
    _nothing_saved(match)

    path = tmp_path / "night.json"
    path.write_text(night_file_dumps(played))
    with pytest.raises(CommandError, match="cannot be the referee") as exit_:
        call_command("night_import", str(path))
    assert exit_.value.returncode == 2
    _nothing_saved(match)


def test_a_fresh_installation_refuses_a_night_refereed_by_a_captain_too():
    match = _unrefereed_match()
    captain = _home_captain_account(match)
    Match.objects.filter(pk=match.pk).update(referee=captain)
    before = night_export(match=Match.objects.get(pk=match.pk))
    for model in (Match, TeamMembership, Team, Player, Club, Competition, Board, Union, get_user_model()):
        model.objects.all().delete()
    with pytest.raises(NightFileError, match="'home_captain': Hendrik Home cannot be the referee"):
        night_import(data=night_file_dumps(before))
    assert not Match.objects.exists() and not Union.objects.exists()


def test_a_referee_of_another_union_is_refused():
    match = _unrefereed_match()
    stranger = get_user_model().objects.create(username="ref_elsewhere", first_name="Sam", last_name="Elsewhere")
    UnionReferee.objects.create(union=Union.objects.create(name="Another Union"), user=stranger)

    def build():
        Match.objects.filter(pk=match.pk).update(referee=stranger)
        return play_night(Match.objects.get(pk=match.pk))

    with pytest.raises(NightFileError) as refused:
        night_import(data=rolled_back(build))
    message = " ".join(refused.value.messages)
    assert "referee 'ref_elsewhere'" in message
    assert f"Sam Elsewhere is not on {match.competition.union}'s list of referees" in message
    _nothing_saved(match)


def test_a_listed_referee_fills_the_fixture_as_the_pages_would():
    match = _unrefereed_match()
    referee = _listed_referee(match)

    def build():
        Match.objects.filter(pk=match.pk).update(referee=referee)
        return play_night(Match.objects.get(pk=match.pk))

    report = night_import(data=rolled_back(build))
    assert report.imported and Match.objects.get(pk=match.pk).referee == referee


def test_a_result_confirmed_by_someone_other_than_the_sides_captain_is_refused():
    match = _unrefereed_match()
    referee = _listed_referee(match)
    _home_captain_account(match)
    away_captain = get_user_model().objects.create(username="away_captain", first_name="Anna", last_name="Away")
    Player.objects.filter(pk=match.away.captain_id).update(user=away_captain)

    def build():
        Match.objects.filter(pk=match.pk).update(referee=referee)
        played = play_night(Match.objects.get(pk=match.pk))
        Match.objects.filter(pk=played.pk).update(home_confirmed_by=away_captain)  # the away captain, for home
        return played

    with pytest.raises(NightFileError) as refused:
        night_import(data=rolled_back(build))
    message = " ".join(refused.value.messages)
    assert "home confirmed by 'away_captain'" in message
    assert "Anna Away does not confirm for" in message and match.home.name in message
    _nothing_saved(match)


def test_a_line_claimed_by_someone_not_at_the_table_and_a_ruling_by_a_stranger_are_refused():
    match = _unrefereed_match()
    referee = _listed_referee(match)

    def build():
        Match.objects.filter(pk=match.pk).update(referee=referee)
        return play_night(Match.objects.get(pk=match.pk))

    played = rolled_back(build)
    changed = copy.deepcopy(played)
    sections = changed["sections"]
    sheet = sections["boem_sheets"][0]
    line = next(e for e in sheet["entries"] if e["kind"] == "stroke")
    side = next(t for t in sections["registry"]["teams"] if t["name"] == line["team"])
    byspeler = next(s["player"] for t in sections["team_sheets"] if t["team"] == side["name"]
                    for s in t["seats"] if s["table"] == sheet["table"] and s["role"] == "byspeler")
    line["claimed_by"] = byspeler  # SAKBOC 6.8: going on is the telman's
    sections["registry"]["people"].append({"username": "someone", "first_name": "Some", "last_name": "One"})
    line["recorded_by"] = "someone"
    claim = next(c for c in sections["claims"] if c["ruling"] is not None)
    claim["ruling"]["referee"] = "someone"
    with pytest.raises(NightFileError) as refused:
        night_import(data=resigned(changed))
    messages = refused.value.messages
    where = f"table {sheet['table']}, line {line['sequence']}"
    assert any(where in m and f"claimed by {byspeler!r}" in m and "SAKBOC 6.8" in m for m in messages), messages
    assert any(where in m and "recorded by 'someone'" in m and "the match's referee or marker" in m
               for m in messages), messages
    assert any(f"table {claim['table']}" in m and "ruled by 'someone'" in m for m in messages), messages
    _nothing_saved(match)
    assert not get_user_model().objects.filter(username="someone").exists()


def test_a_team_sheet_the_pages_would_refuse_is_refused_and_a_secretarys_sheet_reaches_a_fresh_laptop():
    match = scheduled_match()
    secretary = get_user_model().objects.create(username="secretary", first_name="Sara", last_name="Secretary")
    ClubSecretary.objects.create(club=match.home.club, user=secretary)
    TeamSheet.objects.filter(match=match, team=match.home).update(submitted_by=secretary)
    before = night_export(match=match)  # the server's night, the home sheet submitted by the club's secretary

    changed = copy.deepcopy(before)
    sections = changed["sections"]
    sheet = next(s for s in sections["team_sheets"] if s["team"] == match.home.name)
    outsider = squad(match.away)[9].registration_number
    sheet["seats"][0]["player"] = outsider  # an away player on the home sheet (SAKBOC 1.5)
    sections["registry"]["people"].append({"username": "someone", "first_name": "Some", "last_name": "One"})
    sheet["submitted_by"] = "someone"
    TeamSheet.objects.filter(match=match, team=match.home).delete()  # the server lacks it: the file would add it
    with pytest.raises(NightFileError) as refused:
        night_import(data=resigned(changed))
    messages = refused.value.messages
    where = f"{match.home.name}'s team sheet"
    assert any(where in m and "submitted by 'someone'" in m and "neither the captain" in m for m in messages)
    assert any(where in m and "SAKBOC 1.5" in m and "not an active registered player" in m for m in messages)
    assert not TeamSheet.objects.filter(match=match, team=match.home).exists()

    # The unchanged file on a fresh installation (no club secretaries travel): the sheet arrives as submitted.
    for model in (Match, TeamMembership, Team, Player, Club, Competition, Board, Union, get_user_model()):
        model.objects.all().delete()
    report = night_import(data=night_file_dumps(before))
    assert report.imported and TeamSheet.objects.get(team__name=match.home.name).submitted_by.username == "secretary"

"""Board level (issue 39): a Board championship runs through the unions' code with the Board's settings.

The Board's organiser (``clubs.Board.organiser``, a ``Union`` row marked ``is_board``) holds the championship; each
member union enters a representative side of its own registered players from any club; the Board's referees' panel
referees, nobody registered in either union; a drawn final goes to the Board's 60 minutes of extra time (SAKBOC
1.12 "at Board level"); a Board official approves, a member union's official cannot.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404

from clubs import permissions as club_permissions
from clubs import services as club_services
from clubs.models import Club, Team, UnionReferee
from clubs.services import board_ensure
from matches.competitions import entries
from matches.competitions import services as competition_services
from matches.models import Competition, Match
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night.boem_sheet.goings_on import going_on_record
from matches.results import services as result_services
from matches.selectors import match_clock_lengths
from tests.factories import ClubFactory, PlayerFactory, UnionFactory, UserFactory, sheet_for, squad
from tests.matches.conftest import at
from tests.people import union_official

pytestmark = pytest.mark.django_db


@pytest.fixture
def board_world():
    """The installation's Board (made by the migration), two member unions with two clubs of 5 players each, an
    official of each union and of the Board, and a knock-out championship with its entries open."""
    board = board_ensure()
    organiser = board.organiser
    unions = [UnionFactory(name="South Peninsula KU", short_name="SPKU"),
              UnionFactory(name="Boland KU", short_name="BKU")]
    players = {}
    for union in unions:
        clubs = [ClubFactory(union=union), ClubFactory(union=union)]
        players[union.pk] = [PlayerFactory(club=club) for club in clubs for _ in range(5)]
    championship = competition_services.competition_create(
        union=organiser, name="Inter-Union Championship", season="2026", kind=Competition.Kind.KNOCKOUT)
    entries.competition_entries_set(competition=championship, open_=True)
    return {"board": board, "organiser": organiser, "unions": unions, "players": players,
            "championship": championship, "board_official": union_official(organiser),
            "officials": [union_official(u) for u in unions]}


def _enter(world, index: int) -> Team:
    union = world["unions"][index]
    eight = world["players"][union.pk][:8]
    return entries.representative_team_enter(competition=world["championship"], union=union, name=union.name,
                                             players=eight, captain=eight[0], by=world["officials"][index])


def test_the_installation_has_its_board_and_new_unions_join_it(board_world):
    board, organiser = board_world["board"], board_world["organiser"]
    assert (board.short_name, organiser.is_board, organiser.knockout_extra_time_minutes) == ("SAKBOC", True, 60)
    assert all(u.board_id == board.pk for u in board_world["unions"])
    assert organiser.board_id is None


def test_a_union_enters_a_side_of_its_own_players_from_any_of_its_clubs(board_world):
    team = _enter(board_world, 0)
    union = board_world["unions"][0]
    assert team.club.represents == union and team.club.union == board_world["organiser"]
    assert {p.club_id for p in team.players.all()} == {c.pk for c in union.clubs.all()}
    assert team.captain == board_world["players"][union.pk][0]
    # The second entry of the union reuses its side's club.
    assert Club.objects.filter(represents=union).count() == 1


def test_a_side_naming_another_unions_player_is_refused_and_nothing_is_written(board_world):
    spku, bku = board_world["unions"]
    mixed = board_world["players"][spku.pk][:7] + [board_world["players"][bku.pk][0]]
    with pytest.raises(ValidationError) as refused:
        entries.representative_team_enter(competition=board_world["championship"], union=spku, name="SPKU",
                                          players=mixed, captain=mixed[0])
    assert "registered with another union" in str(refused.value)
    assert not Team.objects.filter(competition=board_world["championship"]).exists()
    assert not Club.objects.filter(represents=spku).exists()


def test_only_a_board_championship_takes_sides_and_a_clubs_team_cannot_enter_it(board_world):
    spku = board_world["unions"][0]
    own = competition_services.competition_create(union=spku, name="SPKU League", season="2026",
                                                  kind=Competition.Kind.LEAGUE)
    with pytest.raises(ValidationError, match="only a Board championship"):
        entries.board_championship_check(competition=own, union=spku)
    club = spku.clubs.first()
    with pytest.raises(ValidationError, match="own union's competitions"):
        club_services.team_create(club=club, competition=board_world["championship"], name="A club's team")


def test_the_squad_of_a_side_takes_its_unions_players_only(board_world):
    team = _enter(board_world, 0)
    spku, bku = board_world["unions"]
    club_services.team_player_add(team=team, player=board_world["players"][spku.pk][8])
    with pytest.raises(ValidationError, match="another union"):
        club_services.team_player_add(team=team, player=board_world["players"][bku.pk][9])


def test_the_unions_official_manages_their_side_and_not_the_other_unions(board_world):
    ours, theirs = _enter(board_world, 0), _enter(board_world, 1)
    official = board_world["officials"][0]
    assert club_permissions.team_for_captain(user=official, team_id=ours.pk) == ours
    with pytest.raises(Http404):
        club_permissions.team_for_captain(user=official, team_id=theirs.pk)


def _final(world) -> Match:
    home, away = _enter(world, 0), _enter(world, 1)
    entries.competition_entries_set(competition=world["championship"], open_=False)
    referee = UserFactory(first_name="Yusuf", last_name="Isaacs")
    UnionReferee.objects.create(union=world["organiser"], user=referee)
    return competition_services.match_schedule(competition=world["championship"], home=home, away=away,
                                               scheduled_start=at(0), venue="Athlone Civic Centre",
                                               referee=referee, round_name="Final")


def test_a_referee_who_plays_for_either_union_is_refused_and_one_off_the_boards_panel_too(board_world):
    match = _final(board_world)
    spku = board_world["unions"][0]
    player = board_world["players"][spku.pk][9]  # in the union, not in the side
    player.user = UserFactory(first_name="Ebrahim", last_name="Williams")
    player.save()
    UnionReferee.objects.create(union=board_world["organiser"], user=player.user)
    with pytest.raises(ValidationError) as refused:
        competition_services.match_officials_assign(match=match, referee=player.user)
    assert f"plays for {player.club.name} of {spku.name}" in str(refused.value)
    union_referee = UserFactory()
    UnionReferee.objects.create(union=spku, user=union_referee)  # the union's list, not the Board's panel
    with pytest.raises(ValidationError, match="list of referees"):
        competition_services.match_officials_assign(match=match, referee=union_referee)
    assert Match.objects.get(pk=match.pk).referee == match.referee


def test_a_drawn_final_goes_to_the_boards_60_minutes_and_a_board_official_approves(board_world):
    match = _final(board_world)
    sheet_for(match, match.home)
    sheet_for(match, match.away)
    assert match_clock_lengths(match).extra_time_minutes == 60
    night_services.match_toss_record(match=match, winner=match.home, now=at(-5))
    night_clock.match_start(match=match, now=at(0))
    night_clock.match_interval_call(match=match, now=at(75))
    night_clock.match_resume(match=match, now=at(85))
    match = night_clock.match_end(match=match, now=at(160))
    assert match.phase == Match.Phase.AWAITING_EXTRA_TIME
    match = night_clock.match_extra_time_start(match=match, toss_winner=match.away, now=at(165))
    with pytest.raises(ValidationError, match="extra time ends at"):
        night_clock.match_end(match=match, now=at(165 + 59))
    assert match.extra_time_started_at + timedelta(minutes=60) == at(225)
    # In extra time the away side's telman at table 1 goes on five times: a boem won, 2 points (SAKBOC 6.1).
    for minute in range(190, 195):
        going_on_record(match=match, table_number=1, team=match.away, strokes=1, by=match.referee,
                        reason="entered from the referee's table", now=at(minute))
    match = night_clock.match_end(match=match, now=at(226))
    assert (match.phase, match.winner) == (Match.Phase.FINISHED, match.away)
    result_services.result_confirm(match=match, user=match.referee, now=at(230))
    with pytest.raises(PermissionDenied):
        result_services.result_approve(match=match, user=board_world["officials"][0], now=at(231))
    match = result_services.result_approve(match=match, user=board_world["board_official"], now=at(232))
    assert match.result_status == Match.ResultStatus.APPROVED
    assert squad(match.away)[0].union == board_world["unions"][1]

"""Clubs services: registration (SAKBOC 1.5), squads (one team per competition), captains, role links."""

import pytest
from django.core.exceptions import ValidationError

from clubs import services
from clubs.models import GROUP_CAPTAINS, GROUP_CLUB_SECRETARIES, GROUP_UNION_OFFICIALS
from clubs.selectors import team_is_full, teams_for_captain, unions_for_official
from tests.factories import ClubFactory, CompetitionFactory, PlayerFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_registration_number_is_unique_within_the_union_sakboc_1_5():
    club = ClubFactory()
    services.player_register(club=club, registration_number="SPKU-7", first_name="Ayesha", last_name="Davids")
    other_club = ClubFactory(union=club.union)
    with pytest.raises(ValidationError, match="SAKBOC 1.5"):
        services.player_register(club=other_club, registration_number="spku-7", first_name="X", last_name="Y")
    with pytest.raises(ValidationError, match="(?i)national registration number"):
        # One person, one national number (Board level): another union finds the player rather than a second record.
        services.player_register(club=ClubFactory(), registration_number="SPKU-7", first_name="X", last_name="Y")


def test_a_player_plays_for_one_team_per_competition():
    team = TeamFactory(squad=0)
    other = services.team_create(club=team.club, competition=team.competition, name="Second team")
    player = PlayerFactory(club=team.club)
    services.team_player_add(team=team, player=player)
    with pytest.raises(ValidationError, match="one team per competition"):
        services.team_player_add(team=other, player=player)
    elsewhere = TeamFactory(club=team.club, competition=CompetitionFactory(union=team.club.union), squad=0)
    services.team_player_add(team=elsewhere, player=player)  # another competition: allowed


def test_squad_takes_active_players_of_the_club_only_sakboc_1_5():
    team = TeamFactory(squad=0)
    with pytest.raises(ValidationError, match="SAKBOC 1.5"):
        services.team_player_add(team=team, player=PlayerFactory(club=team.club, active=False))
    with pytest.raises(ValidationError, match="SAKBOC 1.5"):
        services.team_player_add(team=team, player=PlayerFactory(club=ClubFactory(union=team.club.union)))


def test_a_full_team_is_8_registered_players_sakboc_1_5():
    team = TeamFactory(squad=7)
    assert team_is_full(team=team) is False
    services.team_player_add(team=team, player=PlayerFactory(club=team.club))
    assert team_is_full(team=team) is True


def test_captain_is_a_squad_player_and_joins_the_captains_group():
    team = TeamFactory()
    outsider = PlayerFactory(club=team.club)
    with pytest.raises(ValidationError, match="squad"):
        services.team_captain_set(team=team, player=outsider)
    player = team.memberships.last().player
    player.user = UserFactory()
    player.save()
    services.team_captain_set(team=team, player=player)
    assert player.user.groups.filter(name=GROUP_CAPTAINS).exists()
    assert list(teams_for_captain(user=player.user)) == [team]


def test_role_links_put_users_in_their_groups():
    club, user = ClubFactory(), UserFactory()
    services.union_official_add(union=club.union, user=user)
    services.club_secretary_add(club=club, user=user)
    assert set(user.groups.values_list("name", flat=True)) == {GROUP_UNION_OFFICIALS, GROUP_CLUB_SECRETARIES}
    assert list(unions_for_official(user=user)) == [club.union]
    services.union_official_remove(union=club.union, user=user)
    assert set(user.groups.values_list("name", flat=True)) == {GROUP_CLUB_SECRETARIES}


def test_union_settings_keep_who_why_and_the_old_value():
    club, official = ClubFactory(), UserFactory()
    services.union_settings_update(union=club.union, knockout_extra_time_minutes=60, by=official,
                                   reason="Board final: 60 minutes")
    latest = club.union.history.first()
    assert (latest.history_user, latest.history_change_reason) == (official, "Board final: 60 minutes")
    assert latest.prev_record.knockout_extra_time_minutes == 10
    with pytest.raises(ValidationError):
        services.union_settings_update(union=club.union, tiebreak_order=["goals"])

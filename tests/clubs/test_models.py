"""Database-held invariants of the clubs model."""

import pytest
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction

from clubs.models import ROLE_GROUPS, TeamMembership
from tests.factories import PlayerFactory, TeamFactory, UnionFactory

pytestmark = pytest.mark.django_db


def test_role_groups_exist_after_migrations():
    assert set(Group.objects.filter(name__in=ROLE_GROUPS).values_list("name", flat=True)) == set(ROLE_GROUPS)


def test_registration_number_is_unique_within_a_union_and_the_national_number_nationally():
    union = UnionFactory()
    PlayerFactory(club__union=union, union=union, registration_number="WP-1")
    # Another union may use the same number as its own reference, under another national number...
    PlayerFactory(registration_number="WP-1", national_number="WPKU WP-1")
    with transaction.atomic(), pytest.raises(IntegrityError):
        PlayerFactory(club__union=union, union=union, registration_number="WP-1", national_number="X-1")
    with transaction.atomic(), pytest.raises(IntegrityError):
        # ... but one person has one national number: "WP-1" is taken nationally (Board level).
        PlayerFactory(registration_number="WP-1")


def test_a_player_plays_for_one_team_per_competition_in_the_database():
    team = TeamFactory()
    other = TeamFactory(competition=team.competition, club=team.club)
    player = team.memberships.first().player
    with pytest.raises(IntegrityError):
        TeamMembership.objects.create(team=other, player=player, competition=team.competition)


def test_team_factory_builds_a_full_team_with_a_captain():
    team = TeamFactory()
    assert team.memberships.count() == 8
    assert team.captain.memberships.get().team == team

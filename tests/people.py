"""Accounts for tests: users in the groups the migrations make, union officials and captains' accounts, built on
``tests.factories.UserFactory`` (shared by the api, appeals and e2e suites)."""

from django.contrib.auth.models import Group

from clubs.models import GROUP_CAPTAINS, GROUP_UNION_OFFICIALS, Player, Team, Union, UnionOfficial
from tests.factories import UserFactory


def in_group(user, group_name: str):
    """``user`` added to the auth group ``group_name`` (the groups come with the migrations); returns ``user``."""
    user.groups.add(Group.objects.get(name=group_name))
    return user


def union_official(union: Union, **user_fields):
    """A user (``UserFactory(**user_fields)``) in "Union officials" and an official of ``union``."""
    official = in_group(UserFactory(**user_fields), GROUP_UNION_OFFICIALS)
    UnionOfficial.objects.create(union=union, user=official)
    return official


def captain_accounts(teams: dict[str, Team], *, password: str) -> None:
    """Give each team's captain a user account in "Captains": ``teams`` maps the username to the team."""
    for username, team in teams.items():
        user = in_group(UserFactory(username=username, password=password), GROUP_CAPTAINS)
        Player.objects.filter(pk=team.captain_id).update(user=user)

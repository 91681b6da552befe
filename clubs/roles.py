"""A role's Django group follows its link, whoever makes the link (issue 33).

The permission layer (:mod:`clubs.permissions`) reads two things: the user's role group (what kind of thing they
may do) and the link that scopes it (which union, club or team). Before, the services put a user in the group
when they made the link, but a link made anywhere else (the admin's inlines, a shell) left the group out: a
secretary added in the admin had no "My club" menu and "Enter a team" answered 404 until someone added the group
by hand. Here the group is kept as a cache of the links, by receivers connected in ``ClubsConfig.ready``:

* a :class:`~clubs.models.UnionOfficial`, :class:`~clubs.models.ClubSecretary` or
  :class:`~clubs.models.UnionReferee` link saved → its group added to the user;
* an official's or secretary's link deleted → its group taken away when the user has no other such link (a
  referee keeps the group: matches already assigned keep their referee, ``union_referee_remove``);
* a team saved with a captain whose player has an account → "Captains" added to that account.

Nobody adds a role group by hand; the groups' permissions are :data:`clubs.permissions.ROLE_PERMISSIONS`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group
from django.db.models.signals import post_delete, post_save

from clubs.models import (
    GROUP_CAPTAINS,
    GROUP_CLUB_SECRETARIES,
    GROUP_REFEREES,
    GROUP_UNION_OFFICIALS,
    ClubSecretary,
    Team,
    UnionOfficial,
    UnionReferee,
)
from clubs.services import user_group_add

#: Each role link and the group it gives; ``removes`` says whether deleting the user's last such link takes it away.
LINK_GROUPS: dict[type[UnionOfficial | ClubSecretary | UnionReferee], tuple[str, bool]] = {
    UnionOfficial: (GROUP_UNION_OFFICIALS, True),
    ClubSecretary: (GROUP_CLUB_SECRETARIES, True),
    UnionReferee: (GROUP_REFEREES, False),
}


def role_link_saved(sender: type[UnionOfficial | ClubSecretary | UnionReferee], instance: Any, **_: Any) -> None:
    """``post_save`` of a role link: the user gets the link's group (:data:`LINK_GROUPS`)."""
    user_group_add(user=instance.user, group_name=LINK_GROUPS[sender][0])


def role_link_deleted(sender: type[UnionOfficial | ClubSecretary | UnionReferee], instance: Any, **_: Any) -> None:
    """``post_delete`` of a role link: the group goes when it is the user's last link of that kind and the kind's
    group is one that goes (:data:`LINK_GROUPS`)."""
    group_name, removes = LINK_GROUPS[sender]
    if removes and not sender.objects.filter(user_id=instance.user_id).exists():
        instance.user.groups.remove(*Group.objects.filter(name=group_name))


def team_captain_saved(sender: type, instance: Team, **_: Any) -> None:
    """``post_save`` of a team: its captain's account (if the player has one) is in "Captains"."""
    captain = instance.captain
    if captain is not None and captain.user is not None:
        user_group_add(user=captain.user, group_name=GROUP_CAPTAINS)


def role_receivers_connect() -> None:
    """Connect the receivers above (``ClubsConfig.ready``; dispatch uids keep it idempotent)."""
    for model in LINK_GROUPS:
        post_save.connect(role_link_saved, sender=model, dispatch_uid=f"clubs.roles.saved.{model.__name__}")
        post_delete.connect(role_link_deleted, sender=model, dispatch_uid=f"clubs.roles.deleted.{model.__name__}")
    post_save.connect(team_captain_saved, sender=Team, dispatch_uid="clubs.roles.team_captain")

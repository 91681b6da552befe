"""Invitations (issue 33): one e-mail, one link, valid once and for a limited time; roles follow the links."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from clubs.models import (
    GROUP_CAPTAINS,
    GROUP_CLUB_SECRETARIES,
    GROUP_REFEREES,
    GROUP_UNION_OFFICIALS,
    ClubSecretary,
    UnionOfficial,
    UnionReferee,
)
from office import invitations
from office.models import Invitation
from tests.factories import ClubFactory, PlayerFactory, UnionOfficialFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_at_once")]
Role = Invitation.Role


def _link(message) -> str:
    """The invitation link in an e-mail's body (path only)."""
    found = re.search(r"https?://[^/\s]+(/invitations/\S+/)", message.body)
    assert found, message.body
    return found.group(1)


def _groups(user) -> set[str]:
    return set(user.groups.values_list("name", flat=True))


@pytest.fixture
def official(union):
    return UnionOfficialFactory(union=union, user=UserFactory(username="fatima", first_name="Fatima",
                                                              last_name="Abrahams")).user


def test_an_invitation_sends_one_email_whose_link_makes_an_account_with_the_role(client, union, official,
                                                                                    mailoutbox):
    invitations.invitation_create(union=union, role=Role.REFEREE, email="yusuf@example.org", first_name="Yusuf",
                                  last_name="Isaacs", by=official, site="http://testserver")
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["yusuf@example.org"] and union.name in message.subject
    link = _link(message)
    page = client.get(link)
    assert page.status_code == 200 and "Choose a username and a password" in page.content.decode()
    answer = client.post(link, {"username": "yusuf", "password1": "hand-of-trumps-9", "password2": "hand-of-trumps-9"})
    assert answer.status_code == 302 and answer["Location"] == "/dashboard/"
    user = get_user_model().objects.get(username="yusuf")
    assert user.check_password("hand-of-trumps-9") and user.get_full_name() == "Yusuf Isaacs"
    assert UnionReferee.objects.filter(union=union, user=user).exists()
    assert GROUP_REFEREES in _groups(user)
    # Signed in by the acceptance; the role's page works at once.
    assert client.get("/dashboard/")["Location"] == "/referee/"
    assert client.get("/referee/").status_code == 200


def test_the_link_works_once(client, union, official, mailoutbox):
    invitations.invitation_create(union=union, role=Role.OFFICIAL, email="amina@example.org", first_name="Amina",
                                  last_name="Davids", by=official)
    link = _link(mailoutbox[0])
    client.post(link, {"username": "amina", "password1": "hand-of-trumps-9", "password2": "hand-of-trumps-9"})
    client.logout()
    again = client.get(link)
    assert again.status_code == 410 and "already been used" in again.content.decode()
    post = client.post(link, {"username": "amina2", "password1": "hand-of-trumps-9", "password2": "hand-of-trumps-9"})
    assert post.status_code == 410
    assert not get_user_model().objects.filter(username="amina2").exists()


def test_the_link_expires(client, union, official, mailoutbox, settings):
    settings.INVITATION_VALID_DAYS = 3
    invitations.invitation_create(union=union, role=Role.OFFICIAL, email="amina@example.org", first_name="Amina",
                                  last_name="Davids", by=official)
    link = _link(mailoutbox[0])
    with time_machine.travel(timezone.now() + timedelta(days=3, minutes=1)):
        page = client.get(link)
        assert page.status_code == 410 and "expired" in page.content.decode()
        client.post(link, {"username": "amina", "password1": "hand-of-trumps-9", "password2": "hand-of-trumps-9"})
    assert not get_user_model().objects.filter(username="amina").exists()


def test_a_resend_replaces_the_link_and_a_revoke_closes_it(client, union, official, mailoutbox):
    invitation = invitations.invitation_create(union=union, role=Role.REFEREE, email="y@example.org",
                                               first_name="Yusuf", last_name="Isaacs", by=official)
    first = _link(mailoutbox[0])
    invitations.invitation_resend(invitation=invitation)
    assert len(mailoutbox) == 2
    second = _link(mailoutbox[1])
    assert first != second
    assert client.get(first).status_code == 410
    assert client.get(second).status_code == 200
    invitations.invitation_revoke(invitation=invitation)
    closed = client.get(second)
    assert closed.status_code == 410 and "withdrawn" in closed.content.decode()


def test_a_forged_link_is_refused(client):
    page = client.get("/invitations/not-a-token/")
    assert page.status_code == 410 and "does not work" in page.content.decode()


def test_an_existing_account_signs_in_and_accepts(client, union, official, mailoutbox):
    club = ClubFactory(union=union, name="Athlone Aces")
    nazeem = UserFactory(username="nazeem", email="nazeem@example.org")
    invitations.invitation_create(union=union, role=Role.SECRETARY, club=club, email="Nazeem@example.org",
                                  first_name="Nazeem", last_name="Salie", by=official)
    link = _link(mailoutbox[0])
    page = client.get(link).content.decode()
    assert "Sign in to accept" in page
    client.force_login(nazeem)
    assert client.post(link).status_code == 302
    assert ClubSecretary.objects.filter(club=club, user=nazeem).exists()
    assert GROUP_CLUB_SECRETARIES in _groups(nazeem)
    assert client.get("/secretary/").status_code == 200


def test_another_signed_in_account_cannot_accept(client, union, official, mailoutbox):
    UserFactory(username="nazeem", email="nazeem@example.org")
    intruder = UserFactory(username="intruder", email="intruder@example.org")
    invitations.invitation_create(union=union, role=Role.OFFICIAL, email="nazeem@example.org", first_name="Nazeem",
                                  last_name="Salie", by=official)
    client.force_login(intruder)
    link = _link(mailoutbox[0])
    assert "signed in with another account" in client.get(link).content.decode()
    client.post(link)
    assert not UnionOfficial.objects.filter(union=union, user=intruder).exists()


@pytest.mark.parametrize(("fields", "field", "text"), [
    ({"first_name": "Yu\nsuf"}, "first_name", "line break"),
    ({"last_name": "  "}, "last_name", "Give a name"),
    ({"email": "not-an-address"}, "email", "e-mail address"),
    ({"role": "king"}, "role", "Choose a role"),
])
def test_bad_input_is_refused_with_field_messages_and_nothing_written(union, official, mailoutbox, fields, field,
                                                                      text):
    data = {"union": union, "role": Role.REFEREE, "email": "y@example.org", "first_name": "Yusuf",
            "last_name": "Isaacs", "by": official, **fields}
    with pytest.raises(ValidationError) as refused:
        invitations.invitation_create(**data)
    assert text in " ".join(refused.value.message_dict[field])
    assert not Invitation.objects.exists() and mailoutbox == []


def test_an_address_that_already_has_the_role_is_refused(union, official, mailoutbox):
    with pytest.raises(ValidationError) as refused:
        invitations.invitation_create(union=union, role=Role.OFFICIAL, email=official.email, first_name="Fatima",
                                      last_name="Abrahams", by=official)
    assert "already has that role" in refused.value.message_dict["email"][0]
    assert mailoutbox == []


def test_a_second_pending_invitation_to_the_same_role_is_refused(union, official):
    invitations.invitation_create(union=union, role=Role.REFEREE, email="y@example.org", first_name="Yusuf",
                                  last_name="Isaacs", by=official)
    with pytest.raises(ValidationError) as refused:
        invitations.invitation_create(union=union, role=Role.REFEREE, email="Y@example.org", first_name="Yusuf",
                                      last_name="Isaacs", by=official)
    assert "resend that invitation" in refused.value.message_dict["email"][0]
    assert Invitation.objects.count() == 1


def test_a_secretary_needs_an_active_club_of_the_union(union, official):
    other = ClubFactory(name="Elsewhere")
    closed = ClubFactory(union=union, name="Closed", active=False)
    for club in (None, other, closed):
        with pytest.raises(ValidationError) as refused:
            invitations.invitation_create(union=union, role=Role.SECRETARY, club=club, email="s@example.org",
                                          first_name="Sam", last_name="Jacobs", by=official)
        assert "club" in refused.value.message_dict


def test_a_captains_login_links_the_player(client, union, official, mailoutbox):
    player = PlayerFactory(club=ClubFactory(union=union), first_name="Riaan", last_name="Adams",
                           email="riaan@example.org")
    invitations.invitation_create(union=union, role=Role.CAPTAIN, player=player, email=player.email,
                                  first_name=player.first_name, last_name=player.last_name, by=official)
    client.post(_link(mailoutbox[0]), {"username": "riaan", "password1": "hand-of-trumps-9",
                                       "password2": "hand-of-trumps-9"})
    player.refresh_from_db()
    assert player.user is not None and player.user.username == "riaan"
    assert GROUP_CAPTAINS in _groups(player.user)
    assert client.get("/captain/").status_code == 200


def test_a_weak_password_is_refused_and_nothing_made(client, union, official, mailoutbox):
    invitations.invitation_create(union=union, role=Role.REFEREE, email="y@example.org", first_name="Yusuf",
                                  last_name="Isaacs", by=official)
    link = _link(mailoutbox[0])
    page = client.post(link, {"username": "yusuf", "password1": "12345678", "password2": "12345678"})
    assert page.status_code == 200 and "too common" in page.content.decode()
    assert not get_user_model().objects.filter(username="yusuf").exists()
    assert client.get(link).status_code == 200  # still usable


def test_a_link_made_in_the_admin_gives_the_role_group(union):
    """Roles follow the links: an account and link made outside the product's pages get the same access."""
    user = UserFactory()
    ClubSecretary.objects.create(club=ClubFactory(union=union), user=user)
    UnionOfficial.objects.create(union=union, user=user)
    assert {GROUP_CLUB_SECRETARIES, GROUP_UNION_OFFICIALS} <= _groups(user)
    UnionOfficial.objects.filter(union=union, user=user).delete()
    assert GROUP_UNION_OFFICIALS not in _groups(user)


def test_the_last_official_cannot_be_removed(union, official):
    with pytest.raises(ValidationError):
        invitations.union_role_remove(union=union, kind=Role.OFFICIAL, user=official)
    assert UnionOfficial.objects.filter(union=union, user=official).exists()

"""The union office through the API (issue 33): the same services and checks as the pages."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, ClubSecretary, Union
from office.models import Invitation
from tests.factories import ClubFactory, UnionFactory, UnionOfficialFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_at_once")]


@pytest.fixture
def api(union):
    client = APIClient()
    client.force_authenticate(UnionOfficialFactory(union=union).user)
    return client


def test_a_site_administrator_sets_up_a_union_and_its_official_is_invited(mailoutbox):
    client = APIClient()
    client.force_authenticate(UserFactory(is_superuser=True, is_staff=True))
    answer = client.post("/api/unions/setup/", {
        "name": "Eastern Cape Klawerjas Union", "short_name": "ECKU", "half_minutes": 70,
        "official": {"first_name": "Amina", "last_name": "Davids", "email": "amina@example.org"}}, format="json")
    assert answer.status_code == 201, answer.json()
    union = Union.objects.get(short_name="ECKU")
    assert union.half_minutes == 70 and union.points_win == 2
    assert Invitation.objects.get(union=union).role == "official"
    assert mailoutbox[0].to == ["amina@example.org"]


def test_only_a_site_administrator_sets_up_a_union(api):
    answer = api.post("/api/unions/setup/", {"name": "X", "short_name": "X", "official": {
        "first_name": "A", "last_name": "B", "email": "a@example.org"}}, format="json")
    assert answer.status_code == 404 and not Union.objects.filter(short_name="X").exists()


def test_clubs_are_created_renamed_and_deactivated(api, union):
    made = api.post(f"/api/unions/{union.pk}/clubs/", {"name": "Athlone Aces"}, format="json")
    assert made.status_code == 201
    club_id = made.json()["id"]
    assert api.post(f"/api/unions/{union.pk}/clubs/", {"name": "Athlone Aces"}, format="json").status_code == 400
    changed = api.patch(f"/api/unions/{union.pk}/clubs/{club_id}/", {"name": "Athlone Aces KK", "active": False},
                        format="json")
    assert changed.status_code == 200 and changed.json() == {"id": club_id, "name": "Athlone Aces KK",
                                                             "active": False}
    club = Club.objects.get(pk=club_id)
    assert club.history.first().name == "Athlone Aces KK" and club.history.last().name == "Athlone Aces"


def test_invitations_are_made_listed_resent_and_withdrawn(api, union, mailoutbox):
    club = ClubFactory(union=union, name="Athlone Aces")
    made = api.post(f"/api/unions/{union.pk}/invitations/", {
        "role": "secretary", "club": club.pk, "first_name": "Nazeem", "last_name": "Salie",
        "email": "nazeem@example.org"}, format="json")
    assert made.status_code == 201 and made.json()["club"] == "Athlone Aces" and made.json()["state"] == "pending"
    pk = made.json()["id"]
    assert api.post(f"/api/unions/{union.pk}/invitations/{pk}/resend/").json()["send_count"] == 2
    assert len(mailoutbox) == 2
    assert api.delete(f"/api/unions/{union.pk}/invitations/{pk}/").status_code == 204
    assert api.get(f"/api/unions/{union.pk}/invitations/").json()[0]["state"] == "revoked"


def test_an_invitation_with_a_line_break_in_the_name_is_a_400_with_its_field(api, union, mailoutbox):
    answer = api.post(f"/api/unions/{union.pk}/invitations/", {
        "role": "referee", "first_name": "Yu\nsuf", "last_name": "Isaacs", "email": "y@example.org"}, format="json")
    assert answer.status_code == 400 and "first_name" in answer.json()
    assert not Invitation.objects.exists() and mailoutbox == []


def test_settings_are_read_and_changed_with_the_same_checks(api, union):
    assert api.get(f"/api/unions/{union.pk}/settings/").json()["half_minutes"] == 75
    changed = api.patch(f"/api/unions/{union.pk}/settings/", {"half_minutes": 60}, format="json")
    assert changed.status_code == 200 and changed.json()["half_minutes"] == 60
    refused = api.patch(f"/api/unions/{union.pk}/settings/", {"points_win": 0, "points_draw": 1}, format="json")
    assert refused.status_code == 400
    union.refresh_from_db()
    assert union.points_win == 2 and union.half_minutes == 60


def test_roles_are_listed_and_removed(api, union):
    club = ClubFactory(union=union, name="Athlone Aces")
    secretary = UserFactory(first_name="Nazeem", last_name="Salie")
    ClubSecretary.objects.create(club=club, user=secretary)
    roles = api.get(f"/api/unions/{union.pk}/roles/").json()
    assert {"kind": "secretary", "user": secretary.pk, "name": "Nazeem Salie", "email": secretary.email,
            "club": club.pk, "club_name": "Athlone Aces"} in roles
    removed = api.post(f"/api/unions/{union.pk}/roles/remove/", {"kind": "secretary", "user": secretary.pk,
                                                                  "club": club.pk}, format="json")
    assert removed.status_code == 204 and not ClubSecretary.objects.filter(user=secretary).exists()


def test_another_unions_official_gets_404_everywhere(union):
    client = APIClient()
    client.force_authenticate(UnionOfficialFactory(union=UnionFactory()).user)
    club = ClubFactory(union=union)
    for method, url in (("get", f"/api/unions/{union.pk}/settings/"), ("get", f"/api/unions/{union.pk}/clubs/"),
                        ("patch", f"/api/unions/{union.pk}/clubs/{club.pk}/"),
                        ("get", f"/api/unions/{union.pk}/invitations/"), ("get", f"/api/unions/{union.pk}/roles/")):
        assert getattr(client, method)(url, {}, format="json").status_code == 404, url


def test_the_referee_list_takes_only_people_the_union_knows(api, union):
    """Security finding 2 (issue 35): an official could put any account of the site on the list, and so read the
    names and e-mails of other unions' people. Now another union's account answers like one that does not exist."""
    from clubs.models import GROUP_REFEREES, UnionReferee
    from tests.factories import PlayerFactory

    stranger = UnionOfficialFactory(union=UnionFactory()).user
    refused = api.post(f"/api/unions/{union.pk}/referees/", {"user": stranger.pk}, format="json")
    missing = api.post(f"/api/unions/{union.pk}/referees/", {"user": 999_999}, format="json")
    assert refused.status_code == missing.status_code == 400 and refused.json() == missing.json()
    assert not UnionReferee.objects.filter(user=stranger).exists()
    assert GROUP_REFEREES not in {g.name for g in stranger.groups.all()}
    known = PlayerFactory(club=ClubFactory(union=union), user=UserFactory()).user
    assert api.post(f"/api/unions/{union.pk}/referees/", {"user": known.pk}, format="json").status_code == 201

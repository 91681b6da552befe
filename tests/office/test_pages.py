"""The union office's pages (issue 33): set-up, clubs, people, settings, a club's players; empty states, not 404s."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError

from clubs.models import GROUP_CLUB_SECRETARIES, Club, ClubSecretary, Player, Union
from office.models import Invitation
from tests.factories import (
    ClubFactory,
    ClubSecretaryFactory,
    PlayerFactory,
    UnionFactory,
    UnionOfficialFactory,
    UserFactory,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_at_once")]


@pytest.fixture
def official(client, union):
    user = UnionOfficialFactory(union=union).user
    client.force_login(user)
    return user


def test_the_first_sign_in_on_an_empty_installation_leads_to_set_up_a_union(client, mailoutbox):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    assert client.get("/dashboard/")["Location"] == "/office/setup/"
    answer = client.post("/office/setup/", {
        "name": "Cape Klawerjas Union", "short_name": "CKU", "half_minutes": 75, "interval_minutes": 10,
        "points_win": 2, "points_draw": 1, "points_loss": 0, "official_first_name": "Fatima",
        "official_last_name": "Abrahams", "official_email": "fatima@example.org"})
    union = Union.objects.get(short_name="CKU")
    assert answer["Location"] == f"/office/unions/{union.pk}/"
    assert Invitation.objects.get(union=union).email == "fatima@example.org"
    assert [m.to for m in mailoutbox] == [["fatima@example.org"]]
    assert client.get("/dashboard/")["Location"] == "/official/"


def test_a_bad_set_up_writes_nothing(client, mailoutbox):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    page = client.post("/office/setup/", {
        "name": "Cape Klawerjas Union", "short_name": "CKU", "half_minutes": 75, "interval_minutes": 10,
        "points_win": 1, "points_draw": 1, "points_loss": 0, "official_first_name": "Fati\nma",
        "official_last_name": "Abrahams", "official_email": "fatima@example.org"})
    assert page.status_code == 200
    assert not Union.objects.filter(is_board=False).exists() and mailoutbox == []


def test_only_the_sites_administrator_sets_up_a_union(client, official):
    assert client.get("/office/setup/").status_code == 404


@pytest.mark.parametrize("url", ["/official/", "/secretary/", "/captain/"])
def test_a_dashboard_without_anything_yet_says_what_to_do_next(client, url):
    user = UserFactory()
    for name in ("Union officials", "Club secretaries", "Captains"):
        user.groups.add(Group.objects.get(name=name))
    client.force_login(user)
    page = client.get(url)
    assert page.status_code == 200
    assert "yet" in page.content.decode()


def test_the_official_dashboard_of_a_superuser_without_unions_offers_the_set_up(client):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    assert "/office/setup/" in client.get("/official/").content.decode()


def test_clubs_are_added_renamed_deactivated_after_a_confirmation(client, union, official):
    url = f"/office/unions/{union.pk}/"
    assert "No clubs yet" in client.get(url).content.decode()
    client.post(url, {"name": "Athlone Aces"})
    club = Club.objects.get(union=union)
    page = client.post(url, {"name": "Athlone Aces"})
    assert page.status_code == 200 and Club.objects.filter(union=union).count() == 1
    edit = f"/office/unions/{union.pk}/clubs/{club.pk}/"
    client.post(edit, {"action": "rename", "name": "Athlone Aces KK"})
    club.refresh_from_db()
    assert club.name == "Athlone Aces KK"
    confirm = client.post(edit, {"action": "deactivate"})
    assert "Deactivate Athlone Aces KK?" in confirm.content.decode()
    club.refresh_from_db()
    assert club.active
    client.post(edit, {"action": "deactivate", "confirmed": "yes"})
    club.refresh_from_db()
    assert not club.active


def test_another_unions_official_gets_404_on_every_office_page(client, union):
    other = UnionOfficialFactory(union=UnionFactory()).user
    client.force_login(other)
    club = ClubFactory(union=union)
    for url in (f"/office/unions/{union.pk}/", f"/office/unions/{union.pk}/people/",
                f"/office/unions/{union.pk}/settings/", f"/office/unions/{union.pk}/clubs/{club.pk}/",
                f"/official/unions/{union.pk}/referees/"):
        assert client.get(url).status_code == 404, url


def test_people_are_invited_resent_withdrawn_and_roles_removed_after_a_confirmation(client, union, official,
                                                                                    mailoutbox):
    club = ClubFactory(union=union, name="Athlone Aces")
    url = f"/office/unions/{union.pk}/people/"
    client.post(url, {"action": "invite", "first_name": "Nazeem", "last_name": "Salie",
                      "email": "nazeem@example.org", "role": "secretary", "club": club.pk})
    invitation = Invitation.objects.get(email="nazeem@example.org")
    assert "Nazeem Salie" in client.get(url).content.decode()
    client.post(url, {"action": "resend", "invitation": invitation.pk})
    assert len(mailoutbox) == 2
    client.post(url, {"action": "revoke", "invitation": invitation.pk})
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    secretary = ClubSecretaryFactory(club=club).user
    assert GROUP_CLUB_SECRETARIES in {g.name for g in secretary.groups.all()}
    data = {"action": "remove", "kind": "secretary", "user": secretary.pk, "club": club.pk}
    assert "Remove the role" in client.post(url, data).content.decode()
    assert ClubSecretary.objects.filter(user=secretary).exists()
    client.post(url, {**data, "confirmed": "yes"})
    assert not ClubSecretary.objects.filter(user=secretary).exists()
    assert GROUP_CLUB_SECRETARIES not in {g.name for g in secretary.groups.all()}


def test_a_secretary_without_a_club_is_refused_on_the_form(client, union, official, mailoutbox):
    page = client.post(f"/office/unions/{union.pk}/people/", {
        "action": "invite", "first_name": "Nazeem", "last_name": "Salie", "email": "n@example.org",
        "role": "secretary"})
    assert "Choose the club" in page.content.decode()
    assert not Invitation.objects.exists() and mailoutbox == []


def test_the_settings_page_saves_and_refuses_with_the_rule(client, union, official):
    url = f"/office/unions/{union.pk}/settings/"
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["form"]
    data = {name: form[name].value() for name in form.fields}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data.update(half_minutes=60, tiebreak_1="for", tiebreak_2="difference", tiebreak_3="head_to_head")
    assert client.post(url, data).status_code == 302
    union.refresh_from_db()
    assert union.half_minutes == 60 and union.tiebreak_order == ["for", "difference", "head_to_head"]
    refused = client.post(url, {**data, "points_win": 1, "points_draw": 1})
    assert refused.status_code == 200 and "League points must rank a win above a draw" in refused.content.decode()
    union.refresh_from_db()
    assert union.points_win == 2


def test_a_secretary_registers_edits_deactivates_and_gives_a_captains_login(client, union, mailoutbox):
    club = ClubFactory(union=union, name="Athlone Aces")
    client.force_login(ClubSecretaryFactory(club=club).user)
    url = f"/office/clubs/{club.pk}/players/"
    assert "No players yet" in client.get(url).content.decode()
    client.post(url, {"registration_number": "CKU-0001", "first_name": "Riaan", "last_name": "Adams",
                      "email": "", "phone": ""})
    player = Player.objects.get(registration_number="CKU-0001")
    duplicate = client.post(url, {"registration_number": "cku-0001", "first_name": "X", "last_name": "Y"})
    assert "already used" in duplicate.content.decode() and Player.objects.count() == 1
    edit = f"/office/players/{player.pk}/"
    refused = client.post(edit, {"action": "captain-login"}, follow=True)
    assert "e-mail address first" in refused.content.decode() and mailoutbox == []
    client.post(edit, {"action": "save", "first_name": "Riaan", "last_name": "Adams", "email": "riaan@example.org",
                       "phone": "082 555 0101", "email_consent": "on", "phone_consent": "on"})
    player.refresh_from_db()
    assert (player.email, player.phone) == ("riaan@example.org", "082 555 0101")
    client.post(edit, {"action": "captain-login"})
    assert mailoutbox[0].to == ["riaan@example.org"]
    assert Invitation.objects.get(player=player).role == "captain"
    assert "Deactivate Riaan Adams?" in client.post(edit, {"action": "deactivate"}).content.decode()
    client.post(edit, {"action": "deactivate", "confirmed": "yes"})
    player.refresh_from_db()
    assert not player.active


def test_another_clubs_secretary_gets_404(client, union):
    player = PlayerFactory(club=ClubFactory(union=union))
    client.force_login(ClubSecretaryFactory(club=ClubFactory(union=union)).user)
    assert client.get(f"/office/clubs/{player.club_id}/players/").status_code == 404
    assert client.get(f"/office/players/{player.pk}/").status_code == 404


def test_a_new_referee_is_invited_from_the_referees_page(client, union, official, mailoutbox):
    client.post(f"/official/unions/{union.pk}/referees/", {"action": "add", "first_name": "Yusuf",
                                                           "last_name": "Isaacs", "email": "yusuf@example.org"})
    assert Invitation.objects.get(email="yusuf@example.org").role == "referee"
    assert mailoutbox[0].to == ["yusuf@example.org"]
    assert "/invitations/" in mailoutbox[0].body


def test_a_deactivated_club_enters_no_new_competition(union):
    from matches.competitions import entries
    from tests.factories import CompetitionFactory

    club = ClubFactory(union=union, name="Closed", active=False)
    competition = CompetitionFactory(union=union, entries_open=True)
    players = [PlayerFactory(club=club) for _ in range(8)]
    assert entries.entries_open_for(club=club) == []
    with pytest.raises(ValidationError, match="deactivated"):
        entries.team_enter(competition=competition, club=club, name="Closed A", players=players, captain=players[0])
    assert not competition.teams.exists()

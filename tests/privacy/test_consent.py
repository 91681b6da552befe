"""Consent to the optional uses of a player's data (POPIA s11): the one service, the form, the import, the API."""

import re

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from clubs.models import Player
from office import registry
from privacy.models import Consent
from privacy.selectors import consents_current
from privacy.services import consent_record
from tests.factories import ClubFactory, ClubSecretaryFactory, PlayerFactory, UnionFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_at_once")]


@pytest.fixture
def club():
    return ClubFactory(union=UnionFactory(name="South Peninsula Klawerjas Union", short_name="SPKU"),
                       name="Athlone Aces")


@pytest.fixture
def secretary(client, club):
    user = ClubSecretaryFactory(club=club).user
    client.force_login(user)
    return user


def test_consent_record_writes_a_row_and_keeps_the_player_in_step(club):
    player = PlayerFactory(club=club, email="jan@example.org", phone="082 555 0123")
    by = UserFactory()
    consent_record(player=player, kind="full_name_public", given=True, recorded_by=by, source="registry")
    player.refresh_from_db()
    assert player.full_name_public is True
    consent_record(player=player, kind="full_name_public", given=False, recorded_by=by, source="self")
    player.refresh_from_db()
    assert player.full_name_public is False
    rows = list(Consent.objects.filter(player=player).order_by("id").values_list("kind", "given", "source",
                                                                                 "recorded_by"))
    assert rows == [("full_name_public", True, "registry", by.pk), ("full_name_public", False, "self", by.pk)]
    current = consents_current(player=player)
    assert current["full_name_public"].given is False and current["email"] is None and current["phone"] is None


def test_withdrawing_email_or_phone_consent_removes_the_value(club):
    player = PlayerFactory(club=club, email="jan@example.org", phone="082 555 0123")
    consent_record(player=player, kind="email", given=True, recorded_by=None, source="registry")
    player.refresh_from_db()
    assert player.email == "jan@example.org"
    consent_record(player=player, kind="email", given=False, recorded_by=None, source="self")
    player.refresh_from_db()
    assert (player.email, player.phone) == ("", "082 555 0123")
    consent_record(player=player, kind="phone", given=False, recorded_by=None, source="self")
    player.refresh_from_db()
    assert player.phone == ""
    assert player.history.first().history_change_reason == "consent: phone withdrawn"


def test_consent_record_refuses_an_unknown_kind(club):
    with pytest.raises(ValidationError):
        consent_record(player=PlayerFactory(club=club), kind="address", given=True, recorded_by=None, source="api")


def test_the_registry_form_refuses_an_email_without_its_consent_and_records_the_answers(client, club, secretary):
    url = f"/office/clubs/{club.pk}/players/"
    page = client.get(url).content.decode()
    assert "The player agrees that the union keeps their e-mail address" in page
    assert f"/unions/{club.union_id}/privacy/" in page
    refused = client.post(url, {"registration_number": "R1", "first_name": "Jan", "last_name": "Adams",
                                "email": "jan@example.org", "phone": "082 555 0123", "phone_consent": "on"})
    assert refused.status_code == 200 and not Player.objects.exists()
    assert "has not agreed that the union keeps their e-mail address" in refused.content.decode()
    client.post(url, {"registration_number": "R1", "first_name": "Jan", "last_name": "Adams",
                      "email": "jan@example.org", "email_consent": "on", "full_name_public_consent": "on"})
    player = Player.objects.get()
    assert player.email == "jan@example.org" and player.full_name_public is True
    answers = {kind: c.given for kind, c in consents_current(player=player).items()}
    assert answers == {"email": True, "phone": False, "full_name_public": True}
    assert set(Consent.objects.values_list("source", "recorded_by")) == {("registry", secretary.pk)}


def test_the_edit_form_shows_the_current_answers_and_records_only_changes(client, club, secretary):
    player = PlayerFactory(club=club)
    consent_record(player=player, kind="full_name_public", given=True, recorded_by=None, source="registry")
    page = client.get(f"/office/players/{player.pk}/").content.decode()
    assert re.search(r'<input[^>]*name="full_name_public_consent"[^>]*checked', page)
    assert not re.search(r'<input[^>]*name="email_consent"[^>]*checked', page)
    client.post(f"/office/players/{player.pk}/", {"action": "save", "first_name": player.first_name,
                                                  "last_name": player.last_name, "full_name_public_consent": "on"})
    assert Consent.objects.filter(player=player, kind="full_name_public").count() == 1
    assert Consent.objects.filter(player=player, kind="email", given=False).count() == 1


CONSENT_HEADERS = ["Registration number", "First name", "Surname", "Club", "E-mail", "Phone", "E-mail consent",
                   "Phone consent", "Full name on public pages"]


def _csv(rows, headers=CONSENT_HEADERS) -> bytes:
    return ("\r\n".join([",".join(headers), *(",".join(row) for row in rows)]) + "\r\n").encode()


def test_the_import_takes_consent_columns_with_the_forms_checks(club):
    union = club.union
    content = _csv([["R1", "Jan", "Adams", "Athlone Aces", "jan@example.org", "", "nee", "", "ja"],
                    ["R2", "Piet", "Smit", "Athlone Aces", "", "0825550123", "", "maybe", ""]])
    report = registry.registry_import(union=union, content=content, file_name="r.csv")
    assert not report.written and [r.status for r in report.rows] == ["refused", "refused"]
    assert "has not agreed that the union keeps their e-mail address" in " ".join(report.rows[0].reasons)
    assert "Phone consent: write yes or no." in report.rows[1].reasons
    content = _csv([["R1", "Jan", "Adams", "Athlone Aces", "jan@example.org", "", "ja", "", "yes"],
                    ["R2", "Piet", "Smit", "Athlone Aces", "", "0825550123", "", "x", "no"]])
    report = registry.registry_import(union=union, content=content, file_name="r.csv")
    assert report.written
    jan, piet = Player.objects.get(registration_number="R1"), Player.objects.get(registration_number="R2")
    assert jan.full_name_public and not piet.full_name_public and piet.phone == "0825550123"
    assert {(c.player_id, c.kind, c.given) for c in Consent.objects.all()} == {
        (jan.pk, "email", True), (jan.pk, "full_name_public", True), (piet.pk, "phone", True),
        (piet.pk, "full_name_public", False)}
    assert set(Consent.objects.values_list("source", flat=True)) == {"import"}
    # A changed answer is a change: Piet withdraws the phone consent, so the number goes.
    content = _csv([["R2", "Piet", "Smit", "Athlone Aces", "", "", "", "no", "no"]])
    report = registry.registry_import(union=union, content=content, file_name="r.csv")
    assert report.written and report.rows[0].status == "updated"
    piet.refresh_from_db()
    assert piet.phone == ""
    # The export gives the answers back, so exporting and importing changes nothing.
    exported = registry.registry_export(union=union, fmt="csv")
    again = registry.registry_import(union=union, content=exported, file_name="again.csv", dry_run=True)
    assert [r.status for r in again.rows] == ["unchanged", "unchanged"]


def test_the_api_applies_the_same_check_and_records_the_answers(club):
    api = APIClient()
    api.force_authenticate(ClubSecretaryFactory(club=club).user)
    body = {"club": club.pk, "registration_number": "R9", "first_name": "Jan", "last_name": "Adams",
            "email": "jan@example.org", "email_consent": False}
    refused = api.post("/api/players/", body, format="json")
    assert refused.status_code == 400 and "email" in refused.json()
    created = api.post("/api/players/", {**body, "email_consent": True, "full_name_public_consent": True},
                       format="json")
    assert created.status_code == 201 and created.json()["name"] == "Jan Adams"
    player = Player.objects.get(registration_number="R9")
    assert player.full_name_public and set(Consent.objects.values_list("source", flat=True)) == {"api"}
    patched = api.patch(f"/api/players/{player.pk}/", {"email_consent": False}, format="json")
    assert patched.status_code == 400  # the e-mail is still there: withdraw it by removing the address too
    assert api.patch(f"/api/players/{player.pk}/", {"email": "", "email_consent": False},
                     format="json").status_code == 200
    assert consents_current(player=player)["email"].given is False


def test_a_public_api_read_names_the_player_by_initials(club):
    player = PlayerFactory(club=club, first_name="Jan Pieter", last_name="van der Merwe")
    data = APIClient().get(f"/api/players/{player.pk}/").json()
    assert (data["name"], data["first_name"], data["last_name"]) == ("J.P. van der Merwe", "J.P.", "van der Merwe")


def test_a_captain_answers_on_the_invitation_page(client, club, mailoutbox):
    from office import invitations
    from office.models import Invitation
    from tests.people import union_official

    player = PlayerFactory(club=club, first_name="Riaan", last_name="Adams", email="riaan@example.org")
    invitation = invitations.invitation_create(
        union=club.union, role=Invitation.Role.CAPTAIN, player=player, email=player.email,
        first_name=player.first_name, last_name=player.last_name, by=union_official(club.union, username="o"))
    url = f"/invitations/{invitations.invitation_token(invitation)}/"
    page = client.get(url).content.decode()
    assert "may show my full name on its public pages" in page and f"/unions/{club.union_id}/privacy/" in page
    client.post(url, {"username": "riaan", "password1": "hand-of-trumps-9", "password2": "hand-of-trumps-9",
                      "full_name_public_consent": "on"})
    player.refresh_from_db()
    assert player.user is not None and player.full_name_public is True
    consent = Consent.objects.get(player=player)
    assert (consent.kind, consent.given, consent.source, consent.recorded_by) == (
        "full_name_public", True, "invitation", player.user)

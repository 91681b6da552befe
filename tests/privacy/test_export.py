"""A person's export (POPIA s23, privacy/export.py) and the pages that show it: everything held, history included;
an official of the player's union only (one 404 for missing and forbidden); a signed-in person's own data; the
erasure's confirmation page."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_totp.models import TOTPDevice
from knox.models import AuthToken

from clubs.models import Player
from privacy.export import person_export
from privacy.models import Erasure
from privacy.views import player_url
from tests.factories import PlayerFactory, UnionFactory, UserFactory
from tests.people import union_official
from tests.privacy.erase_season import PHONE, erase_season  # noqa: F401 (the module's fixture)

pytestmark = pytest.mark.django_db


def test_the_export_holds_every_kind_of_row_and_no_secret(erase_season):  # noqa: F811
    player = erase_season.player
    data = person_export(player=player)
    text = json.dumps(data)  # JSON-able as it stands
    assert data["player"]["email"] == erase_season.email and data["player"]["phone"] == PHONE
    assert data["player"]["registration_number"] == "CKU-0101" and data["player"]["account"] == "captain"
    # history: the registration without contacts, then the change that added them, with its reason
    assert [h["email"] for h in data["history"]][:1] == [""] and data["history"][-1]["email"] == erase_season.email
    assert data["history"][-1]["reason"] == f"{erase_season.full_name} gave contacts"
    for section in ("consents", "team_memberships", "teams_captained", "disciplinary_records", "team_sheets",
                    "straf_claims", "records", "invitations", "outbox_messages"):
        assert data[section], section
    sheet = data["team_sheets"][0]
    assert {"match", "date", "table", "role", "partner"} <= set(sheet) and " v " in sheet["match"]
    claim = next(c for c in data["straf_claims"] if c["note"].endswith("said af"))
    assert claim["by_the_player"] is True and claim["ruling"]["clause"] == "6.2"
    assert len(data["records"]) == len(data["team_sheets"])  # a line per table of each approved night
    account = data["account"]
    assert (account["username"], account["email"]) == ("captain", erase_season.user_email)
    assert "Captains" in account["groups"] or account["groups"] == []
    assert [d["name"] for d in account["two_step_devices"]] == ["Phone of the captain"]
    assert len(account["api_tokens"]) == 1 and account["sign_in_attempts"][0]["kind"] == "attempt"
    # never a secret: the password hash, the authenticator's key, the token's digest
    user = player.user
    assert user.password not in text
    assert TOTPDevice.objects.get(user=user).key not in text
    assert AuthToken.objects.get(user=user).digest not in text


def test_an_official_of_the_union_reads_and_downloads_it(client, erase_season):  # noqa: F811
    player = erase_season.player
    official = union_official(player.union)
    client.force_login(official)
    page = client.get(player_url("privacy:player-data", player))
    assert page.status_code == 200 and "no-store" in page["Cache-Control"] and "public" not in page["Cache-Control"]
    body = page.content.decode()
    for text in (erase_season.full_name, erase_season.email, "Changes to the registry entry", "Team sheets",
                 "Straf claims and rulings", "Records", "Sign-in account", "Download as JSON", "Erase this person"):
        assert text in body, text
    download = client.get(player_url("privacy:player-data-json", player))
    assert download["Content-Type"] == "application/json"
    assert download["Content-Disposition"] == 'attachment; filename="CKU-CKU-0101-data.json"'
    assert json.loads(download.content)["player"]["email"] == erase_season.email
    registry = client.get(reverse("office:registry", args=[player.union_id]))
    assert player_url("privacy:player-data", player) in registry.content.decode()


def test_anyone_else_gets_the_same_404_as_for_no_player(client, erase_season):  # noqa: F811
    player = erase_season.player
    missing = {"union_id": player.union_id, "number": "CKU-9999"}
    other_union = UnionFactory()
    for user in (union_official(other_union), UserFactory()):
        client.force_login(user)
        for name in ("privacy:player-data", "privacy:player-data-json", "privacy:player-erase"):
            assert client.get(player_url(name, player)).status_code == 404
            assert client.get(reverse(name, kwargs=missing)).status_code == 404
        assert client.post(player_url("privacy:player-erase", player),
                           {"registration_number": "CKU-0101"}).status_code == 404
    client.logout()
    assert client.get(player_url("privacy:player-data", player)).status_code == 302  # to sign in
    assert Player.objects.get(pk=player.pk).erased_at is None


def test_a_person_downloads_their_own(client, erase_season):  # noqa: F811
    user = erase_season.player.user
    client.force_login(user)
    session = client.session  # the captain has an authenticator: signed in with it (django-otp's session key)
    session[DEVICE_ID_SESSION_KEY] = TOTPDevice.objects.get(user=user).persistent_id
    session.save()
    page = client.get(reverse("privacy:me-data"))
    assert page.status_code == 200
    assert erase_season.email in page.content.decode() and "Download as JSON" in page.content.decode()
    assert "Erase this person" not in page.content.decode()
    data = json.loads(client.get(reverse("privacy:me-data-json")).content)
    assert data["player"]["registration_number"] == "CKU-0101" and data["account"]["username"] == "captain"
    # an account with no player: its own account data only
    referee = get_user_model().objects.get(username="referee2")
    client.force_login(referee)
    data = json.loads(client.get(reverse("privacy:me-data-json")).content)
    assert data["player"] is None and data["account"]["username"] == "referee2"
    assert data["account"]["matches_refereed"]  # the demo's referees each referee some nights
    assert "not linked to a registered player" in client.get(reverse("privacy:me-data")).content.decode()


def test_the_erasure_asks_for_the_registration_number_first(client, erase_season):  # noqa: F811
    player = erase_season.player
    official = union_official(player.union)
    client.force_login(official)
    url = player_url("privacy:player-erase", player)
    page = client.get(url).content.decode()
    for text in ("Former player", "cannot be undone", "results stay", "Type the registration number"):
        assert text in page, text
    wrong = client.post(url, {"registration_number": "CKU-0102"})
    assert wrong.status_code == 200 and "not this player&#x27;s registration number" in wrong.content.decode()
    assert Player.objects.get(pk=player.pk).erased_at is None and not Erasure.objects.exists()
    done = client.post(url, {"registration_number": " CKU-0101 "}, follow=True)
    assert done.redirect_chain[-1][0] == player_url("privacy:player-data", player)
    assert "Erased: now Former player 1." in done.content.decode()
    assert erase_season.full_name not in done.content.decode()
    erasure = Erasure.objects.get()
    assert (erasure.erased_by, erasure.how) == (official, "page")
    again = client.post(url, {"registration_number": "CKU-0101"})
    assert "already erased" in again.content.decode() and Erasure.objects.count() == 1


def test_a_player_without_history_exports_empty_sections():
    player = PlayerFactory(first_name="Anna", last_name="Botha", email="anna@example.org")
    data = person_export(player=player)
    assert data["player"]["first_name"] == "Anna" and data["account"] is None
    assert data["team_sheets"] == data["records"] == data["drives"] == data["straf_claims"] == []


def test_a_registration_number_with_a_slash_or_space_has_its_page(client):
    player = PlayerFactory(first_name="Anna", last_name="Botha", registration_number="WP 12/3")
    client.force_login(union_official(player.union))
    url = player_url("privacy:player-data", player)
    assert client.get(url).status_code == 200
    assert json.loads(client.get(player_url("privacy:player-data-json", player)).content)["player"][
        "registration_number"] == "WP 12/3"
    assert "Anna Botha" in client.get(player_url("privacy:player-erase", player)).content.decode()


def test_a_captain_account_lists_the_results_it_confirmed(erase_season):  # noqa: F811
    from matches.models import Match

    user = erase_season.player.user
    confirmed = Match.objects.filter(home_confirmed_by=user) | Match.objects.filter(away_confirmed_by=user)
    account = person_export(player=erase_season.player)["account"]
    assert len(account["results_confirmed"]) == confirmed.count() > 0
    assert len(account["team_sheets_submitted"]) > 0

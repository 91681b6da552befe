"""The national registry on every registration path (Board level): the service, the secretary's form, the captain's
squad page, the API and the spreadsheet import refuse alike a second national record (a number already someone's
in another union) and stop a look-alike (same name and date of birth in another union) until the user confirms a
different person."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from clubs import services
from clubs.models import Player
from clubs.selectors import national_registry_matches
from office.registry import registry_import
from tests.factories import ClubFactory, ClubSecretaryFactory, TeamFactory, UnionFactory

pytestmark = pytest.mark.django_db

BORN = dt.date(1984, 3, 21)
CSV_HEADERS = "Registration number,First name,Surname,Club,Date of birth,Different person"


@pytest.fixture
def anwar():
    """Anwar Davids, registered in Cape (CKU) with Athlone Aces, born 21 March 1984."""
    cape = UnionFactory(name="Cape Klawerjas Union", short_name="CKU")
    athlone = ClubFactory(union=cape, name="Athlone Aces")
    return services.player_register(club=athlone, registration_number="CKU-0042", first_name="Anwar",
                                    last_name="Davids", date_of_birth=BORN)


@pytest.fixture
def paarl():
    return ClubFactory(union=UnionFactory(name="Boland Klawerjas Union", short_name="BKU"), name="Paarl Pikke")


def test_a_second_national_record_is_refused_naming_the_club_and_union(anwar, paarl):
    with pytest.raises(ValidationError) as refused:
        services.player_register(club=paarl, registration_number="cku-0042", first_name="A", last_name="Davids")
    (message,) = refused.value.message_dict["registration_number"]
    assert "Anwar Davids's of Athlone Aces (Cape Klawerjas Union)" in message
    assert "comes by an inter-union transfer, not a second record" in message
    # Same union: today's SAKBOC 1.5 message.
    with pytest.raises(ValidationError, match="SAKBOC 1.5: registration number CKU-0042 is already used in this"):
        services.player_register(club=ClubFactory(union=anwar.union), registration_number="CKU-0042",
                                 first_name="X", last_name="Y")


def test_a_look_alike_stops_the_registration_until_a_different_person_is_confirmed(anwar, paarl):
    with pytest.raises(ValidationError) as refused:
        services.player_register(club=paarl, registration_number="BKU-1", first_name="anwar", last_name="DAVIDS",
                                 date_of_birth=BORN)
    (message,) = refused.value.message_dict["different_person"]
    assert message.startswith("This looks like Anwar Davids of Athlone Aces (Cape Klawerjas Union), registered as "
                              "CKU-0042")
    assert not Player.objects.filter(union=paarl.union).exists()
    # No date of birth, or another one: not a look-alike.
    services.player_register(club=paarl, registration_number="BKU-2", first_name="Anwar", last_name="Davids")
    other = services.player_register(club=paarl, registration_number="BKU-3", first_name="Anwar", last_name="Davids",
                                     date_of_birth=BORN, different_person=True)
    assert (other.national_number, other.date_of_birth) == ("BKU-3", BORN)


def test_the_selector_finds_by_number_first_and_never_in_the_own_union(anwar, paarl):
    found = national_registry_matches(union=paarl.union, registration_number="CKU-0042", first_name="Anwar",
                                      last_name="Davids", date_of_birth=BORN)
    assert [(m.player, m.kind) for m in found] == [(anwar, "number")]
    assert national_registry_matches(union=anwar.union, registration_number="CKU-0042") == []


def test_the_secretarys_form_says_who_it_looks_like_and_offers_the_transfer(client, anwar, paarl):
    client.force_login(ClubSecretaryFactory(club=paarl).user)
    url = f"/office/clubs/{paarl.pk}/players/"
    form = client.get(url).content.decode()
    assert 'name="date_of_birth"' in form and "POPIA" in form and 'type="hidden" name="different_person"' in form
    data = {"registration_number": "BKU-7", "first_name": "Anwar", "last_name": "Davids", "date_of_birth": "1984-03-21"}
    page = client.post(url, data).content.decode()
    assert "This looks like <strong>Anwar Davids</strong> of Athlone Aces (Cape Klawerjas Union), registered as " \
           "CKU-0042." in page
    assert f"/secretary/clubs/{paarl.pk}/inter-union/?q=CKU-0042" in page
    assert 'type="checkbox" name="different_person"' in page
    assert not Player.objects.filter(union=paarl.union).exists()
    done = client.post(url, {**data, "different_person": "on"}, follow=True).content.decode()
    assert "Anwar Davids is registered with Paarl Pikke" in done
    refused = client.post(url, {**data, "registration_number": "CKU-0042", "different_person": "on"}).content.decode()
    assert "inter-union transfer, not a second record" in refused


def test_the_captains_squad_page_refuses_alike(client, anwar, paarl):
    team = TeamFactory(club=paarl, competition__union=paarl.union, squad=0)
    client.force_login(ClubSecretaryFactory(club=paarl).user)
    page = client.post(f"/captain/teams/{team.pk}/", {
        "action": "register", "registration_number": "BKU-8", "first_name": "Anwar", "last_name": "Davids",
        "date_of_birth": "1984-03-21", "add_to_squad": "on"}, follow=True).content.decode()
    assert "This looks like Anwar Davids of Athlone Aces" in page
    assert 'type="checkbox" name="different_person"' in page


def test_the_api_answers_400_with_a_field_message_then_registers_when_confirmed(anwar, paarl):
    api = APIClient()
    api.force_authenticate(ClubSecretaryFactory(club=paarl).user)
    body = {"club": paarl.pk, "registration_number": "BKU-9", "first_name": "Anwar", "last_name": "Davids",
            "date_of_birth": "1984-03-21"}
    refused = api.post("/api/players/", body, format="json")
    assert refused.status_code == 400
    assert refused.json()["different_person"][0].startswith("This looks like Anwar Davids of Athlone Aces")
    again = api.post("/api/players/", {**body, "registration_number": "CKU-0042"}, format="json")
    assert again.status_code == 400 and "national registry" in again.json()["registration_number"][0]
    made = api.post("/api/players/", {**body, "different_person": True}, format="json")
    assert made.status_code == 201 and made.json()["national_number"] == "BKU-9"


def test_the_import_refuses_alike_and_takes_a_yes_in_the_different_person_column(anwar, paarl):
    def content(*rows: str) -> bytes:
        return ("\r\n".join([CSV_HEADERS, *rows]) + "\r\n").encode()

    report = registry_import(union=paarl.union, file_name="x.csv", content=content(
        "CKU-0042,Anwar,Davids,Paarl Pikke,,", "BKU-1,Anwar,Davids,Paarl Pikke,21/03/1984,", "BKU-2,Jan,Smit,Paarl "
        "Pikke,1984-13-40,"))
    assert not report.written
    first, second, third = report.rows
    assert first.status == "refused" and "inter-union transfer, not a second record" in first.reasons[0]
    assert second.status == "refused" and "write yes in the Different person column" in second.reasons[0]
    assert third.status == "refused" and "Date of birth: write the date as" in third.reasons[0]
    report = registry_import(union=paarl.union, file_name="x.csv",
                             content=content("BKU-1,Anwar,Davids,Paarl Pikke,21/03/1984,yes"))
    assert report.written
    assert Player.objects.get(registration_number="BKU-1").date_of_birth == BORN

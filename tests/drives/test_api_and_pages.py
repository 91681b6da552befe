"""The drive's API and pages: public reads, the manager's writes, a table's deals refused with the seed's
section (HTTP 400 with field messages; a form error on the page)."""

import datetime as dt

import pytest

from clubs.models import ClubSecretary
from drives import services
from drives.models import DriveDeal
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def drive_night():
    club = ClubFactory()
    secretary = UserFactory()
    ClubSecretary.objects.create(club=club, user=secretary)
    drive = services.drive_create(club=club, name="Klammern circle", season="2026", ruleset="klammern",
                                  rounds_per_night=2)
    for _ in range(8):
        services.drive_enter(drive=drive, player=PlayerFactory(club=club))
    night = services.night_start(drive=drive, date=dt.date(2026, 6, 3))
    return drive, night, secretary


def test_the_api_draws_a_boom_and_enters_a_deal_for_the_drives_manager_only(client, drive_night):
    drive, night, secretary = drive_night
    assert client.post(f"/api/drive-nights/{night.pk}/draw/").status_code in (401, 403)
    client.force_login(UserFactory())
    assert client.post(f"/api/drive-nights/{night.pk}/draw/").status_code == 404  # not theirs
    client.force_login(secretary)
    drawn = client.post(f"/api/drive-nights/{night.pk}/draw/")
    assert drawn.status_code == 201 and len(drawn.json()["tables"]) == 2
    table = drawn.json()["tables"][0]
    assert len(table["side0"]) == 2 and all(" " in name for name in table["side0"])  # names, not ids
    url = f"/api/drive-tables/{table['id']}/deals/"
    refused = client.post(url, {"makers_side": 0, "card_points0": 100, "card_points1": 70}, "application/json")
    assert refused.status_code == 400
    assert refused.json()["card_points"] == ["The card points add up to 170, not 162. (Klammern §Scoring)"]
    entered = client.post(url, {"makers_side": 0, "card_points0": 100, "card_points1": 62, "multiplier": 2},
                          "application/json")
    assert entered.status_code == 201
    assert (entered.json()["points0"], entered.json()["points1"]) == (10, 6)  # Klammern: match points
    assert entered.json()["deals"][0]["points0"] == 100
    night_read = client.get(f"/api/drive-nights/{night.pk}/").json()
    assert night_read["result"][0]["total"] == 10
    ranking = client.get(f"/api/drives/{drive.pk}/ranking/").json()
    assert ranking["nights"] == [1] and ranking["ranking"][0]["nights"] == [{"night": 1, "score": 10,
                                                                             "counted": True}]


def test_the_manager_runs_a_private_drive_through_the_api_which_hides_it_from_everyone_else(client, drive_night):
    """A drive kept off the public pages is still its manager's to draw and score; to anyone else its night and
    tables answer exactly as ids that do not exist (issue 35)."""
    drive, night, secretary = drive_night
    drive.public = False
    drive.save()
    client.force_login(UserFactory())
    stranger = client.post(f"/api/drive-nights/{night.pk}/draw/")
    assert (stranger.status_code, stranger.json()) == (404, client.post("/api/drive-nights/999999/draw/").json())
    assert client.get(f"/api/drive-nights/{night.pk}/").status_code == 404
    client.force_login(secretary)
    drawn = client.post(f"/api/drive-nights/{night.pk}/draw/")
    assert drawn.status_code == 201
    url = f"/api/drive-tables/{drawn.json()['tables'][0]['id']}/deals/"
    deal = {"makers_side": 0, "card_points0": 100, "card_points1": 62}
    assert client.post(url, deal, "application/json").status_code == 201
    client.force_login(UserFactory())
    refused = client.post(url, deal, "application/json")
    assert refused.status_code == 404
    assert refused.json() == client.post("/api/drive-tables/999999/deals/", deal, "application/json").json()


def test_the_table_page_refuses_a_line_with_the_section_and_saves_a_good_one(client, drive_night):
    drive, night, _secretary = drive_night
    table = services.round_draw(night=night, seed="x").tables.first()
    url = f"/drives/table/{table.code}/"
    page = client.get(url)
    assert page.status_code == 200 and table.seat0.full_name in page.content.decode()
    assert 'name="multiplier"' in page.content.decode() and 'name="march_side"' in page.content.decode()
    refused = client.post(url, {"makers_side": 0, "card_points0": 100, "card_points1": 62, "roem0": 15,
                                "roem1": 0, "multiplier": 1})
    refusal = "Roem comes in tens (20, 50, 100…), not 15/0. (Klammern §First trick; Klammern §Bella)"
    assert refused.status_code == 200 and refusal in refused.content.decode()
    assert not DriveDeal.objects.exists()
    saved = client.post(url, {"makers_side": 1, "card_points0": 100, "card_points1": 62, "roem0": 0,
                              "roem1": 0, "nat": "nat", "multiplier": 1})
    assert saved.status_code == 302
    deal = DriveDeal.objects.get()
    assert (deal.made, deal.points0, deal.points1) == (False, 162, 0)
    corrected = client.post(f"{url}?correct=1", {"makers_side": 1, "card_points0": 60, "card_points1": 102,
                                                 "roem0": 0, "roem1": 20, "multiplier": 1})
    assert corrected.status_code == 302
    deal.refresh_from_db()
    assert (deal.made, deal.points0, deal.points1, DriveDeal.objects.count()) == (True, 60, 122, 1)
    assert "Correct deal 1" in client.get(f"{url}?correct=1").content.decode()
    assert client.get("/drives/table/not-a-code/").status_code == 404


def test_public_pages_and_the_manager_page_for_its_secretary_only(client, drive_night):
    drive, night, secretary = drive_night
    services.round_draw(night=night, seed="x")
    for url in ("/drives/", f"/drives/{drive.pk}/", f"/drives/{drive.pk}/nights/1/"):
        assert client.get(url).status_code == 200, url
    # One union: the competitions' list is the union's own (Board level: /unions/<short name>/competitions/).
    assert client.get("/competitions/", follow=True).status_code == 200
    assert "Klammern circle" in client.get("/drives/").content.decode()
    client.force_login(UserFactory())
    assert client.get(f"/drives/{drive.pk}/manage/").status_code == 404
    client.force_login(secretary)
    manage = client.get(f"/drives/{drive.pk}/manage/")
    assert manage.status_code == 200 and "/drives/table/" in manage.content.decode()
    refused = client.post(f"/drives/{drive.pk}/manage/", {"action": "draw"}, follow=True)
    assert "Finish the boom being played" in refused.content.decode()


def test_a_drives_pages_name_its_rules_in_the_footer_not_sakboc(client, drive_night):
    drive, night, secretary = drive_night
    services.round_draw(night=night, seed="x")
    table = night.rounds.first().tables.first()
    for url in (f"/drives/{drive.pk}/", f"/drives/{drive.pk}/nights/1/", f"/drives/table/{table.code}/"):
        footer = client.get(url).content.decode().split('<footer class="site-footer">')[1]
        assert footer.startswith("Played under Klammern"), url
    assert "SAKBOC" not in client.get("/drives/").content.decode().split('<footer class="site-footer">')[1]

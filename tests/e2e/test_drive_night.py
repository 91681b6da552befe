"""A club night of a Rotterdam drive in Chromium (issue 24): the club's secretary starts the night and draws a
boom; the table's phone enters a deal whose card points do not add up (refused, citing "Rotterdam §Scoring"),
then the same deal as nat (everything to the opponents, Rotterdam §Scoring); the night's result and the season
ranking show the players by name with their points. At 375 px (and the ranking at 1280 px) nothing is wider
than the screen. Screenshots: artifacts/screenshots/test_a_drive_night_at_the_table/.
"""

import datetime as dt

import pytest

from clubs.models import ClubSecretary
from clubs.selectors import player_public_name
from drives import services
from drives.models import DriveTable
from tests.e2e.conftest import page_fits
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "klawerjas-e2e"


def test_a_drive_night_at_the_table(page, sign_in, screenshot):
    club = ClubFactory(name="Athlone Aces")
    secretary = UserFactory(username="sec", password=PASSWORD)
    ClubSecretary.objects.create(club=club, user=secretary)
    drive = services.drive_create(club=club, name="Wednesday drive", season="2026", rounds_per_night=2,
                                  ranking="best", best_nights=6)
    names = ("Ebrahim Solomons", "Fatima Abrahams", "Nazeem Salie", "Ruwayda Adams", "Yusuf Isaacs",
             "Zainab Williams", "Achmat Davids", "Shireen Jacobs", "Moegamat Hendricks")
    players = [PlayerFactory(club=club, first_name=name.split()[0], last_name=name.split()[1]) for name in names]
    sign_in(page, "sec", PASSWORD)
    page.goto(f"/drives/{drive.pk}/manage/")
    # The secretary enters the players one by one on the drive's page.
    for player in players:
        page.select_option("form:has(input[value=enter]) select[name=player]", str(player.pk))
        page.click("form:has(input[value=enter]) button[type=submit]")
        assert f"{player.full_name} is entered." in page.inner_text(".messages")
    assert drive.entries.count() == 9
    page.fill("input[name=date]", dt.date(2026, 6, 3).isoformat())
    page.click("text=Start a new night")
    page.click("text=Draw the next boom")
    assert "Boom 1 of night 1 is drawn." in page.inner_text(".messages")
    table = DriveTable.objects.get(round__night__drive=drive, number=1)
    side0 = f"{table.seat0.full_name} & {table.seat2.full_name}"
    side1 = f"{table.seat1.full_name} & {table.seat3.full_name}"
    assert side0 in page.inner_text("main") and "Bye:" in page.inner_text("main")
    page_fits(page, "drawn", screenshot)

    page.click(f"a[href='/drives/table/{table.code}/']")
    page.check("input[name=makers_side][value='0']")
    page.fill("input[name=card_points0]", "70")
    page.fill("input[name=card_points1]", "90")
    page.fill("input[name=roem0]", "20")
    page.select_option("select[name=nat]", "nat")
    page.click("text=Enter the deal")
    error = page.inner_text(".deal-form .messages")
    assert "The card points add up to 160, not 162. (Rotterdam §Scoring)" in error
    page_fits(page, "refused", screenshot)
    page.fill("input[name=card_points1]", "92")
    page.click("text=Enter the deal")
    assert "Deal 1: 0 – 182." in page.inner_text(".messages")  # nat: card points and roem to the opponents
    total = page.inner_text(".drive-total")
    assert f"{side1}\t182" in total and f"{side0}\t0" in total
    page_fits(page, "nat-entered", screenshot)

    page.goto(f"/drives/{drive.pk}/nights/1/")
    result = page.inner_text(".night-result")
    # The public pages name players by initials and surname (POPIA: the union's default).
    seat0, seat1, seat3 = (player_public_name(p) for p in (table.seat0, table.seat1, table.seat3))
    assert f"{seat1}\t182" in result and f"{seat0}\t0" in result
    page_fits(page, "night", screenshot)
    page.goto(f"/drives/{drive.pk}/")
    ranking = page.locator(".drive-ranking tbody tr").first.inner_text()
    assert seat1 in ranking or seat3 in ranking
    assert "182" in ranking
    page_fits(page, "ranking", screenshot)
    page.set_viewport_size({"width": 1280, "height": 800})
    page_fits(page, "ranking-1280", screenshot)

"""The privacy pages in a browser, at 375 and 1280 px (POPIA s23, s24): a player reads and downloads their own
data; an official opens a player from the registry, reads and downloads what the union holds, and erases the
player after typing the registration number. Screenshots: artifacts/screenshots/<test name>/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubs import services as club_services
from clubs.models import Player
from tests.e2e.conftest import page_fits
from tests.factories import ClubFactory, PlayerFactory, UnionFactory, UserFactory, match_with_sheets
from tests.people import union_official

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "klawerjas-e2e-privacy"
DESKTOP = {"width": 1280, "height": 900}


def test_a_person_and_an_official_see_export_and_erase(page, screenshot, sign_in, tmp_path: Path):
    union = UnionFactory(name="Cape Klawerjas Union", short_name="CKU")
    union_official(union, username="fatima", first_name="Fatima", last_name="Abrahams", password=PASSWORD)
    club = ClubFactory(union=union, name="Athlone Aces")
    account = UserFactory(username="riaan", first_name="Riaan", last_name="Adams", password=PASSWORD)
    player = PlayerFactory(club=club, union=union, first_name="Riaan", last_name="Adams",
                           registration_number="CKU-0001", user=account)
    club_services.player_update(player=player, email="riaan@example.org", phone="082 555 0123",
                                reason="contacts added at registration")
    match = match_with_sheets(competition__union=union, home__club=club, home__name="Athlone Aces A",
                              away__name="Bonteheuwel Boere A")
    seat = match.team_sheets.get(team=match.home).seats.get(table_number=1, role="telman")
    seat.player = player
    seat.save()

    def both(where: str) -> None:
        page_fits(page, where, screenshot)
        text = page.inner_text("main")
        assert "None" not in text.split() and f"/{player.pk}/" not in text, where
        page.set_viewport_size(DESKTOP)
        page_fits(page, f"{where}-1280", screenshot)
        page.set_viewport_size({"width": 375, "height": 812})

    sign_in(page, "riaan", PASSWORD)
    page.goto("/me/data/")
    both("me-data")
    main = page.inner_text("main")
    assert "What is held on you" in main and "riaan@example.org" in main and "Athlone Aces A v Bonteheuwel" in main
    with page.expect_download() as download:
        page.click("text=Download as JSON")
    mine = json.loads(Path(download.value.path()).read_text())
    assert mine["account"]["username"] == "riaan" and mine["player"]["phone"] == "082 555 0123"

    page.context.clear_cookies()
    sign_in(page, "fatima", PASSWORD)
    page.goto(f"/office/unions/{union.pk}/registry/")
    page.click("text=Riaan Adams")
    both("player-data")
    assert "What the union holds on Riaan Adams" in page.inner_text("main")
    with page.expect_download() as download:
        page.click("text=Download as JSON")
    assert json.loads(Path(download.value.path()).read_text())["player"]["email"] == "riaan@example.org"

    page.click("text=Erase this person…")
    both("erase-confirm")
    assert "cannot be undone" in page.inner_text("main")
    page.fill("input[name=registration_number]", "CKU-0001")
    page.click("text=Erase for good")
    page.wait_for_load_state("load")
    assert "Erased: now Former player 1." in page.inner_text("main")
    both("after-erasure")
    assert "Riaan" not in page.inner_text("main")
    assert Player.objects.get(pk=player.pk).full_name == "Former player 1"

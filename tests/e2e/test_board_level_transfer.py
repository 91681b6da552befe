"""A player moves from one union to another through the pages alone, in Chromium (Board level, issue 39).

The receiving club's secretary (Paarl Pikke, Boland) finds the player by national registration number and asks for
them with a note; an official of the player's union (Cape) clears the request; an official of Boland accepts it,
giving the player a Boland registration number. The player's public page then shows one career: their national
number, the earlier transfer within Cape and the move between unions, and last season's team in Cape.

Every page must fit a 375-px phone; each is also shot at 1280 px (artifacts/screenshots/, beside its 375-px shot).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group

from clubs import services as club_services
from clubs.models import (
    GROUP_CLUB_SECRETARIES,
    GROUP_UNION_OFFICIALS,
    ClubSecretary,
    InterUnionTransfer,
    Player,
    Transfer,
)
from clubs.selectors import player_public_name
from matches.seasons.transfers import player_transfer
from tests.e2e.conftest import page_fits
from tests.factories import ClubFactory, UnionFactory, UserFactory
from tests.season_factories import season_played

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "klawerjas-e2e"


def _user(username: str, first: str, last: str, group: str):
    user = UserFactory(username=username, first_name=first, last_name=last, password=PASSWORD)
    user.groups.add(Group.objects.get(name=group))
    return user


def test_a_player_transfers_to_another_union_through_the_pages_and_keeps_their_record(page, screenshot, sign_in):
    cape = UnionFactory(name="Cape Klawerjas Union", short_name="CKU")
    cape_official = _user("cape", "Fatima", "Abrahams", GROUP_UNION_OFFICIALS)
    played = season_played(union=cape, official=cape_official)  # every competition over: nothing blocks a move
    mover = Player.objects.get(pk=played.league_teams[0].memberships.order_by("id")[3].player_id)
    # An earlier move within Cape, part of the career the page must keep.
    player_transfer(player=mover, to_club=played.clubs[2], transferred_on=dt.date(2026, 10, 1), by=cape_official)
    national = mover.national_number

    boland = UnionFactory(name="Boland Klawerjas Union", short_name="BKU")
    boland_official = _user("boland", "Pieter", "Jacobs", GROUP_UNION_OFFICIALS)
    club_services.union_official_add(union=boland, user=boland_official)
    paarl = ClubFactory(union=boland, name="Paarl Pikke")
    secretary = _user("secretary", "Nazeem", "Salie", GROUP_CLUB_SECRETARIES)
    ClubSecretary.objects.create(club=paarl, user=secretary)

    def shoot(step: str) -> None:
        path = screenshot(step)
        page_fits(page, step)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(path.with_name(f"{path.stem}-1280.png")), full_page=True)
        page.set_viewport_size({"width": 375, "height": 812})

    # --- The receiving club's secretary asks -----------------------------------------------------------------------
    sign_in(page, "secretary", PASSWORD)
    page.goto("/secretary/")
    page.click("text=a player from another union")
    page.wait_for_selector("h1:has-text('Ask for a player from another union')")
    assert "No requests yet" in page.inner_text("main")
    shoot("secretary-ask-empty")
    page.fill("input[name=q]", national)
    page.click("button:has-text('Find')")
    page.wait_for_selector(f"text=Ask for {mover.full_name}")
    assert "Hanover Park Sturks (Cape Klawerjas Union)" in page.inner_text("main")
    shoot("secretary-found")
    page.fill("textarea[name=note]", "Moved to Paarl for work; the clubs agree.")
    page.click(f"button:has-text('Ask for {mover.full_name}')")
    page.wait_for_selector(f"text=You asked for {mover.full_name}")
    assert "Asked by the receiving club" in page.inner_text("main")
    shoot("secretary-asked")

    # --- The player's union clears it -----------------------------------------------------------------------------
    page.context.clear_cookies()
    sign_in(page, "cape", PASSWORD)
    page.goto("/official/")
    page.click("text=Transfers between unions")
    page.wait_for_selector("h1:has-text('Transfers between unions')")
    assert "Moved to Paarl for work" in page.inner_text("main")
    shoot("cape-to-clear")
    page.click(f"button:has-text(\"Clear {mover.full_name}'s move\")")
    page.wait_for_selector(f"text={mover.full_name}'s request is cleared")
    shoot("cape-cleared")

    # --- The receiving union accepts it with a Boland registration number -----------------------------------------
    page.context.clear_cookies()
    sign_in(page, "boland", PASSWORD)
    page.goto("/official/")
    page.click(f"section:has-text('{boland.name}') >> text=Transfers between unions")
    page.wait_for_selector(f"text=Accept {mover.full_name} into Paarl Pikke")
    shoot("boland-to-accept")
    page.fill("input[name=registration_number]", "BKU-0100")
    page.click(f"button:has-text('Accept {mover.full_name} into Paarl Pikke')")
    page.wait_for_selector(f"text={mover.full_name} is registered with Paarl Pikke (Boland Klawerjas Union) as "
                           f"BKU-0100")
    shoot("boland-accepted")

    mover.refresh_from_db()
    assert (mover.union, mover.club, mover.registration_number, mover.national_number) == (
        boland, paarl, "BKU-0100", national)
    request = InterUnionTransfer.objects.get()
    assert request.status == "accepted" and request.transfer == Transfer.objects.get(to_club=paarl)

    # --- The player's page: one career across clubs and unions ----------------------------------------------------
    page.context.clear_cookies()
    page.goto(f"/players/{mover.pk}/history/")
    page.wait_for_selector(f"h1:has-text('{player_public_name(mover)}')")
    history = page.inner_text("main")
    assert f"National registration number {national}" in history
    assert "BKU registration number BKU-0100" in history
    assert "Athlone Aces → Hanover Park Sturks" in history
    assert "Hanover Park Sturks (Cape Klawerjas Union) → Paarl Pikke (Boland Klawerjas Union)" in history
    assert "Registered with Paarl Pikke" in history
    assert "Athlone Aces 1" in history and "Premier League 2026" in history  # last season's team in Cape
    shoot("player-history")

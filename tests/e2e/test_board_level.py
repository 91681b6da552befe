"""Board level through the pages alone, in Chromium (issue 39): an inter-union championship final.

A Board official creates the Board's championship final and opens its entries; the officials of two unions each
enter their union's representative side of eight players from two of its clubs; the Board official closes the
entries, makes the fixture and names its referee from the Board's panel; the final is drawn at time and goes to the
Board's 60 minutes of extra time (SAKBOC 1.12 "at Board level"), where a boem decides it; the referee confirms, a
Board official approves, and the national home shows the champion.

The world the night starts from (the unions, clubs and registered players, the accounts, the team sheets) is
written with the factories; every step under test is a page. Time moves on in the database, as in the other walks.
Screenshots go to artifacts/screenshots/test_an_inter_union_final_through_the_pages/ (375 px, and 1280 px for the
officials' pages).

And a player moves from one union to another (the second walk): the receiving club's secretary (Paarl Pikke,
Boland) finds the player by national registration number and asks for them with a note; an official of the
player's union (Cape) clears the request; an official of Boland accepts it, giving the player a Boland registration
number. The player's public page then shows one career: their national number, the earlier transfer within Cape and
the move between unions, and last season's team in Cape. Every page must fit a 375-px phone; each is also shot at
1280 px.
"""

from __future__ import annotations

import datetime as dt
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from clubs import services as club_services
from clubs.models import (
    GROUP_CLUB_SECRETARIES,
    GROUP_REFEREES,
    GROUP_UNION_OFFICIALS,
    ClubSecretary,
    InterUnionTransfer,
    Player,
    Transfer,
    UnionReferee,
)
from clubs.selectors import player_public_name
from clubs.services import board_ensure
from matches.models import Competition, Match
from matches.seasons.transfers import player_transfer
from tests.e2e.conftest import PHONE, SCREENSHOTS_DIR, page_fits
from tests.factories import ClubFactory, PlayerFactory, UnionFactory, UserFactory, sheet_for
from tests.people import in_group, union_official
from tests.season_factories import season_played

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "klawerjas-e2e"
SPKU = [("Faizel", "Adams"), ("Mymoena", "Abrahams"), ("Ridwaan", "Jacobs"), ("Shireen", "Davids"),
        ("Clive", "Petersen"), ("Natasha", "Hendricks"), ("Ebrahim", "Williams"), ("Lorraine", "Arendse")]
BOLAND = [("Brandon", "Fortuin"), ("Gaironesa", "Booysen"), ("Denver", "Solomons"), ("Chantal", "Samuels"),
          ("Ashwin", "Moses"), ("Tasneem", "Jansen"), ("Marlon", "Cupido"), ("Ursula", "February")]


def _world():
    """The Board with an official and a referee on its panel; two unions, each with an official and two clubs of
    four named players (and one more player each, not picked)."""
    board = board_ensure()
    union_official(board.organiser, username="board", first_name="Gadija", last_name="Salie", password=PASSWORD)
    referee = in_group(UserFactory(username="referee", first_name="Yusuf", last_name="Isaacs", password=PASSWORD),
                       GROUP_REFEREES)
    UnionReferee.objects.create(union=board.organiser, user=referee)
    for short, name, names, username in (("SPKU", "South Peninsula Klawerjas Union", SPKU, "spku"),
                                         ("BKU", "Boland Klawerjas Union", BOLAND, "boland")):
        union = UnionFactory(name=name, short_name=short)
        union_official(union, username=username, first_name="Official", last_name=short, password=PASSWORD)
        clubs = [ClubFactory(union=union, name=f"{short} Aces"), ClubFactory(union=union, name=f"{short} Stars")]
        for i, (first, last) in enumerate(names):
            PlayerFactory(club=clubs[i % 2], first_name=first, last_name=last)
        PlayerFactory(club=clubs[0], first_name="Spare", last_name=short)
    return board


def choose(page, select: str, text: str) -> None:
    """Choose the option of ``select`` whose label holds ``text`` (names, not ids, are what the user sees)."""
    option = page.locator(f"{select} option", has_text=text)
    page.select_option(select, option.first.get_attribute("value"))


class People:
    """One browser context per person, signed in; screenshots numbered across them."""

    def __init__(self, browser, base_url: str, folder) -> None:
        self.browser, self.base_url, self.folder, self.count, self.contexts = browser, base_url, folder, 0, []

    def signed_in(self, username: str, viewport=PHONE):
        context = self.browser.new_context(viewport=viewport, base_url=self.base_url, locale="en-ZA")
        context.set_default_timeout(10_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: pytest.fail(f"JavaScript error on {page.url}: {error}"))
        page.goto("/accounts/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit], input[type=submit]")
        page.wait_for_load_state("load")
        assert "/accounts/login/" not in page.url, page.inner_text("main")[:300]
        return page

    def shot(self, page, step: str) -> None:
        self.count += 1
        page.screenshot(path=str(self.folder / f"{self.count:02d}-{step}.png"), full_page=True)
        page_fits(page, step)
        text = page.inner_text("body").lower()
        assert "team 0" not in text and "is_board" not in text, step

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def _enter_side(people: People, username: str, names: list[tuple[str, str]], captain: str) -> None:
    """A member union's official enters the union's representative side from the dashboard."""
    official = people.signed_in(username, viewport=DESKTOP)
    official.goto("/official/")
    section = official.locator("section.board-championships")
    expect(section).to_contain_text("Inter-Union Championship")
    people.shot(official, f"{username}-dashboard")
    section.locator("text=Enter our representative side").click()
    expect(official.locator("h1")).to_contain_text("Inter-Union Championship")
    labels = official.locator("fieldset.checks label")
    assert labels.count() == 9  # the union's nine active players, from both clubs; no other union's
    for first, last in names:
        official.locator("fieldset.checks label", has_text=f"{first} {last}").locator("input").check()
    choose(official, "select[name=captain]", captain)
    people.shot(official, f"{username}-enter-side")
    official.click("button:has-text('Enter the team')")
    expect(official.locator(".messages")).to_contain_text("is entered in Inter-Union Championship 2026 with 8 players")
    expect(official.locator("section.board-championships")).to_contain_text("Our side:")


def test_an_inter_union_final_through_the_pages(browser, live_server):
    board = _world()
    folder = SCREENSHOTS_DIR / "test_an_inter_union_final_through_the_pages"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    people = People(browser, live_server.url, folder)
    try:
        # The Board official creates the championship final (a knock-out of the unions' sides) and opens entries.
        chair = people.signed_in("board", viewport=DESKTOP)
        chair.goto("/official/")
        expect(chair.locator("h2", has_text=board.organiser.name)).to_be_visible()
        chair.click(f"a[href='/official/unions/{board.organiser.pk}/competitions/new/']")
        chair.fill("input[name=name]", "Inter-Union Championship")
        chair.fill("input[name=season]", "2026")
        chair.select_option("select[name=kind]", "knockout")
        chair.click("button[type=submit]:visible >> nth=-1")
        chair.click("button:has-text('Open entries')")
        expect(chair.locator("button:has-text('Close entries')")).to_be_visible()
        people.shot(chair, "board-championship-open")

        # Each union's official enters its representative side, players from both of its clubs.
        _enter_side(people, "spku", SPKU, "Faizel Adams")
        _enter_side(people, "boland", BOLAND, "Brandon Fortuin")

        # The Board official closes the entries and makes the final; its referee comes from the Board's panel.
        chair.reload()
        chair.click("button:has-text('Close entries')")
        chair.fill("input[name=start]", timezone.localdate().isoformat())
        chair.click("button:has-text('Generate fixtures')")
        championship = Competition.objects.get(name="Inter-Union Championship")
        final = Match.objects.get(competition=championship)
        assert {final.home.name, final.away.name} == {"South Peninsula Klawerjas Union", "Boland Klawerjas Union"}
        chair.goto(f"/official/matches/{final.pk}/")
        choose(chair, "select[name=referee]", "Yusuf Isaacs")
        chair.click("button:has-text('Assign')")
        expect(chair.locator(".messages")).to_contain_text("Referee and marker assigned")
        assert Match.objects.get(pk=final.pk).referee.username == "referee"
        people.shot(chair, "board-final-referee")

        # The captains' partnerships (the team sheets) are the world the night starts from.
        start = timezone.now().replace(second=0, microsecond=0) - timedelta(minutes=1)
        Match.objects.filter(pk=final.pk).update(scheduled_start=start)
        sheet_for(final, final.home)
        sheet_for(final, final.away)

        # The referee runs the night: the toss, two halves, time at a draw.
        referee = people.signed_in("referee")
        referee.goto(f"/referee/matches/{final.pk}/")
        referee.select_option("select[name=winner_side]", "home")
        referee.click("text=Record the toss")
        referee.click("button:has-text('Start the match')")
        referee.wait_for_selector("text=Call the interval")
        # The first half and the interval are over (moved on in the database): the console calls the interval.
        Match.objects.filter(pk=final.pk).update(first_half_started_at=timezone.now() - timedelta(minutes=86))
        referee.goto(f"/referee/matches/{final.pk}/")
        referee.click("button:has-text('Start the second half')")
        referee.wait_for_selector("text=End the match…")
        # 75 minutes on, the console reads the clock and calls time itself (SAKBOC 1.2): nothing scored, a draw.
        Match.objects.filter(pk=final.pk).update(second_half_started_at=timezone.now() - timedelta(minutes=76))
        referee.goto(f"/referee/matches/{final.pk}/")

        # A drawn final: the captains toss again and the Board's 60 minutes of extra time are played.
        expect(referee.locator(".actions")).to_contain_text("A knock-out draw")
        people.shot(referee, "final-drawn")
        referee.select_option("select[name=side]", "away")
        referee.click("button:has-text('Start extra time')")
        expect(referee.locator(".messages")).to_contain_text("60")
        expect(referee.locator(".clock")).to_contain_text("left in the extra time")
        extra = Match.objects.get(pk=final.pk)
        assert extra.phase == Match.Phase.EXTRA_TIME
        ends = timezone.localtime(extra.extra_time_started_at + timedelta(minutes=60)).strftime("%H:%M")
        expect(referee.locator(".clock")).to_contain_text(f"ends {ends}")
        people.shot(referee, "extra-time")

        # In extra time Boland's telman at table 1 goes on five times: a boem won (SAKBOC 6.1), entered by the
        # referee for the table.
        winner = final.away if final.away.name.startswith("Boland") else final.home
        side = "away" if winner.pk == final.away_id else "home"
        for _ in range(5):
            referee.goto(f"/referee/matches/{final.pk}/tables/1/")
            referee.check(f"input[name=side][value={side}]")
            referee.check("input[name=strokes][value='1']")
            referee.fill("input[name=reason]", "the table's phone is flat")
            referee.click("button:has-text('Enter the going-on')")
            referee.wait_for_load_state("load")
        Match.objects.filter(pk=final.pk).update(extra_time_started_at=timezone.now() - timedelta(minutes=61))
        referee.goto(f"/referee/matches/{final.pk}/")
        expect(referee.locator(".actions")).to_contain_text("The match is over")
        played = Match.objects.get(pk=final.pk)
        assert (played.phase, played.winner_id) == (Match.Phase.FINISHED, winner.pk)
        referee.goto(f"/captain/matches/{final.pk}/confirm/")
        referee.click("button[type=submit]:visible >> nth=-1")
        assert Match.objects.get(pk=final.pk).result_status == Match.ResultStatus.CONFIRMED

        # A member union's official cannot approve the Board's final; the Board official does.
        spku = people.signed_in("spku")
        assert spku.goto(f"/official/matches/{final.pk}/").status == 404
        chair.goto(f"/official/matches/{final.pk}/")
        chair.click("button:has-text('Approve result')")
        expect(chair.locator(".messages")).to_contain_text("pproved")
        assert Match.objects.get(pk=final.pk).result_status == Match.ResultStatus.APPROVED
        people.shot(chair, "final-approved")

        # The Board official reads the national registry: every member union's players, found by name.
        chair.goto("/official/")
        chair.click("text=National registry")
        expect(chair.locator("table.players")).to_contain_text("BKU")
        chair.fill("input[name=q]", "Adams")
        chair.click("button:has-text('Search')")
        expect(chair.locator("table.players tbody tr")).to_have_count(1)
        expect(chair.locator("table.players")).to_contain_text("Faizel Adams")
        people.shot(chair, "national-registry")
        # On a phone, the union's official follows their side: its match under the championship.
        spku.goto("/official/")
        side = spku.locator("section.board-championships")
        expect(side).to_contain_text("Our side: South Peninsula")
        expect(side).to_contain_text("South Peninsula Klawerjas Union v Boland Klawerjas Union")
        people.shot(spku, "spku-dashboard-phone")

        # The national home shows the champion.
        home = people.browser.new_context(viewport=PHONE, base_url=live_server.url, locale="en-ZA")
        people.contexts.append(home)
        national = home.new_page()
        national.goto("/")
        board_part = national.locator("section.championships")
        expect(board_part).to_contain_text("Inter-Union Championship")
        expect(board_part.locator(".champion")).to_have_text(winner.name)
        expect(national.locator("section.unions")).to_contain_text("South Peninsula Klawerjas Union")
        people.shot(national, "national-home")
    finally:
        people.close()


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

"""A season closed, the next one started and a player transferred, through the pages alone, in Chromium.

The union's official is refused closing the season while a fixture waits for approval (the page names it), then,
once it is approved, closes the season after the confirmation page, starts the next season (teams carried over as
drafts) and records a transfer, whose player's history page shows it; a club's secretary sees the drafts and
confirms one; the public opens last season's archive from the competitions page and sees the champions, the cup
winners and the final table, whose numbers equal those computed here from the approved match rows.

Every page must fit a 375-px phone; each is also shot at 1280 px (artifacts/screenshots/, beside its 375-px shot).
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from clubs.models import GROUP_CLUB_SECRETARIES, GROUP_UNION_OFFICIALS, ClubSecretary, Player, Transfer
from clubs.selectors import player_public_name
from matches.models import Match, Season
from tests.e2e.conftest import page_fits
from tests.factories import UnionFactory, UserFactory
from tests.season_factories import play, season_played

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "klawerjas-e2e"


def _user(username: str, first: str, last: str, group: str):
    user = UserFactory(username=username, first_name=first, last_name=last, password=PASSWORD)
    user.groups.add(Group.objects.get(name=group))
    return user


def _expected_table(league) -> list[tuple[str, int, int, int, int, int]]:
    """(team, played, won, lost, difference, league points) best first, from the approved rows (win 2, draw 1)."""
    lines: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for m in Match.objects.filter(competition=league, result_status=Match.ResultStatus.APPROVED).select_related(
            "home", "away"):
        for team, mine, theirs in ((m.home.name, m.home_score, m.away_score), (m.away.name, m.away_score,
                                                                                m.home_score)):
            line = lines[team]
            line[0] += 1
            line[1] += mine > theirs
            line[2] += mine < theirs
            line[3] += mine - theirs
            line[4] += 2 if mine > theirs else 1 if mine == theirs else 0
    ordered = sorted(lines.items(), key=lambda kv: (-kv[1][4], -kv[1][3], kv[0]))
    return [(name, *values) for name, values in ordered]


def test_an_official_closes_a_season_starts_the_next_and_the_public_reads_the_archive(page, screenshot, sign_in):
    union = UnionFactory(name="Cape Klawerjas Union", short_name="CKU")
    official = _user("official", "Fatima", "Abrahams", GROUP_UNION_OFFICIALS)
    played = season_played(union=union, official=official, approve=False)
    secretary = _user("secretary", "Nazeem", "Salie", GROUP_CLUB_SECRETARIES)
    ClubSecretary.objects.create(club=played.clubs[0], user=secretary)

    def shoot(step: str) -> None:
        path = screenshot(step)
        page_fits(page, step)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(path.with_name(f"{path.stem}-1280.png")), full_page=True)
        page.set_viewport_size({"width": 375, "height": 812})

    # --- The official: refused while a fixture waits, then the season closes after the confirmation --------------
    sign_in(page, "official", PASSWORD)
    page.goto("/official/")
    page.click("text=Seasons")
    page.wait_for_selector("h1:has-text('Seasons')")
    shoot("official-seasons")
    page.click("text=Close season 2026…")
    page.wait_for_selector("h1:has-text('Season 2026 cannot close yet')")
    assert "1 of 6 fixtures not yet approved" in page.inner_text("main")
    assert page.locator("button:has-text('Close season 2026')").count() == 0
    shoot("season-close-refused")

    play(played.league.matches.exclude(result_status=Match.ResultStatus.APPROVED).get(), official)
    expected = _expected_table(played.league)
    page.reload()
    page.wait_for_selector("h1:has-text('Close season 2026?')")
    text = page.inner_text("main")
    assert f"Champions {expected[0][0]}" in text and "Cup winners Hanover Park Sturks Cup · Seed 3" in text
    shoot("season-close-confirm")
    page.click("button:has-text('Close season 2026')")
    page.wait_for_selector("text=Season 2026 is closed; its archive is public.")
    assert Season.objects.get(union=union, name="2026").is_closed

    # --- The next season, from the seasons page ---------------------------------------------------------------
    page.goto(f"/official/unions/{union.pk}/seasons/")
    page.click("text=Start the next season…")
    page.wait_for_selector("h1:has-text('Start the season after 2026')")
    assert page.input_value("input[name=name]") == "2027"
    shoot("season-start")
    page.click("button:has-text('Start the new season')")
    page.wait_for_selector("text=Season 2027 is started: 2 competitions and 8 teams carried over as drafts")
    shoot("official-seasons-after")

    # --- A transfer between the seasons: the player leaves the old club's draft ------------------------------------
    mover = Player.objects.get(pk=played.league_teams[0].memberships.order_by("id")[3].player_id)
    page.goto("/official/")
    page.click("text=Transfers")
    page.wait_for_selector("h1:has-text('Transfers')")
    shoot("transfers")
    page.fill("input[name=registration_number]", mover.registration_number)
    page.select_option("select[name=to_club]", label="Bonteheuwel Boere")
    page.fill("input[name=transferred_on]", timezone.localdate().isoformat())
    page.click("button:has-text('Review the transfer…')")
    page.wait_for_selector(f"h1:has-text('Transfer {mover.full_name}?')")
    assert "They are taken out of these draft teams of Athlone Aces: Athlone Aces 1 (Premier League 2027)" in (
        page.inner_text("main"))
    shoot("transfer-confirm")
    page.click("button:has-text('Record the transfer')")
    page.wait_for_selector(f"text={mover.full_name} ({mover.registration_number}) is registered with Bonteheuwel Boere")
    transfer = Transfer.objects.get(player=mover)
    assert transfer.to_club == played.clubs[1]
    page.click(f"table >> text={mover.full_name}")
    page.wait_for_selector(f"h1:has-text('{player_public_name(mover)}')")  # a public page: initials (POPIA)
    history = page.inner_text("main")
    assert f"National registration number {mover.national_number}" in history
    assert "Registered with Bonteheuwel Boere" in history
    assert f"{transfer.transferred_on:%-d %b %Y}\tAthlone Aces → Bonteheuwel Boere" in history
    shoot("player-history")

    # --- The secretary's drafts ---------------------------------------------------------------------------------
    page.context.clear_cookies()
    sign_in(page, "secretary", PASSWORD)
    page.goto("/secretary/")
    page.click("text=teams carried over")
    page.wait_for_selector("h1:has-text('Teams carried over')")
    drafts = page.inner_text("main")
    assert "Athlone Aces 1" in drafts and mover.full_name not in drafts  # he left with his transfer
    shoot("secretary-drafts")
    page.click("button:has-text('Confirm Athlone Aces Cup · Seed 1')")
    page.wait_for_selector("text=Athlone Aces Cup · Seed 1 is confirmed in Knock-out Cup 2027.")

    # --- The public: last season's archive ------------------------------------------------------------------------
    page.context.clear_cookies()
    page.goto("/competitions/")
    page.click("text=past seasons")
    page.wait_for_selector("h1:has-text('Past seasons')")
    shoot("season-list")
    page.click("text=Season 2026")
    page.wait_for_selector("h1:has-text('Season 2026')")
    archive = page.inner_text("main")
    assert f"Champions {expected[0][0]}" in archive
    assert "Cup winners Hanover Park Sturks Cup · Seed 3" in archive
    cells = page.evaluate("""Array.from(document.querySelectorAll('table.standings tbody tr')).map(
        tr => Array.from(tr.cells).map(td => td.firstChild.textContent.trim()))""")
    shown = [(row[1], int(row[2]), int(row[3]), int(row[5]), int(row[8]), int(row[9])) for row in cells]
    assert shown == expected
    assert [int(row[0]) for row in cells] == [1, 2, 3, 4]
    shoot("season-archive")

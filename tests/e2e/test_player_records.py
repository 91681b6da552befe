"""Records at 375 px (issue 21): from a reduced demo season, a match report leads to a player, the player to
their partnership, a team page to a head-to-head; every number on those pages equals what the test computes
itself from the boem sheets' rows (tests/records/sheets.py, not records/). Screenshots of every records page at
375 and 1280 px go to /work/shots/records/ (or SHOTS_DIR)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from klawerjas_league.demo import demo_season_run
from matches.models import Match, StandingsRow, Substitution
from tests.records import sheets

SHOTS = Path(os.environ.get("SHOTS_DIR", "/work/shots/records"))


def _shoot(page, name: str) -> None:
    """Full-page screenshots at 375 and 1280 px; back to 375 after."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (375, 1280):
        page.set_viewport_size({"width": width, "height": 812})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 812})


def _fits(page) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 375, f"{page.url} is {width} px wide at 375"


def _figures_on_page(page, column: str = "all") -> dict[str, int]:
    return {name: int(page.locator(f'td[data-column="{column}"][data-figure="{name}"]').inner_text())
            for name in sheets.FIGURES}


def test_player_partnership_and_head_to_head_equal_the_sheets(page, transactional_db):
    demo_season_run(seed=7, clubs=4, size="small", progress=None)
    sub = Substitution.objects.select_related("player_in", "match").order_by("id").first()
    player = sub.player_in

    # From the match report: the substitute's name links to their records.
    page.goto(f"/matches/{sub.match_id}/")
    page.get_by_role("link", name=player.full_name, exact=True).first.click()
    page.wait_for_url(re.compile(rf"/players/{player.pk}/$"))
    assert page.locator("h1").inner_text() == player.full_name
    assert _figures_on_page(page) == sheets.player_figures(player.pk)
    competition_id = sub.match.competition_id
    assert _figures_on_page(page, str(competition_id)) == sheets.player_figures(player.pk, competition_id)
    assert page.locator("svg.chart[role=img]").count() == 1
    nights = page.locator("table.nights tbody tr")
    assert nights.count() == sheets.player_figures(player.pk)["nights"]
    _fits(page)
    _shoot(page, "player")

    # Their partnership, from the partners' table.
    page.locator("table.partners tbody a").first.click()
    page.wait_for_url(re.compile(r"/partnerships/\d+/\d+/$"))
    telman_id, byspeler_id = map(int, re.search(r"/partnerships/(\d+)/(\d+)/", page.url).groups())
    assert player.pk in (telman_id, byspeler_id)
    assert _figures_on_page(page) == sheets.partnership_figures(telman_id, byspeler_id)
    _fits(page)
    _shoot(page, "partnership")

    # The team page, then a head-to-head picked in its form.
    match = Match.objects.filter(result_status=Match.ResultStatus.APPROVED).order_by("id").first()
    page.goto(f"/matches/{match.pk}/")
    page.locator("h1 a").first.click()
    page.wait_for_url(re.compile(rf"/teams/{match.home_id}/$"))
    assert page.locator(".form-guide .outcome").count() == 5
    assert page.locator("table.results tbody tr").count() == 6
    _fits(page)
    _shoot(page, "team")
    page.select_option("#id_opponent", str(match.away_id))
    page.get_by_role("button", name="Compare").click()
    page.wait_for_url(re.compile(rf"/teams/{match.home_id}/versus/{match.away_id}/$"))
    expected = sheets.head_to_head_figures(match.home_id, match.away_id)
    shown = {name: page.locator(f'dd[data-figure="{name}"]').inner_text()
             for name in ("won", "drawn", "lost", "points")}
    assert shown == {"won": str(expected["won"]), "drawn": str(expected["drawn"]), "lost": str(expected["lost"]),
                     "points": f"{expected['for']}–{expected['against']}"}
    table = _figures_on_page(page)
    assert (table["boems_won"], table["boems_lost"]) == (expected["boems_won"], expected["boems_lost"])
    _fits(page)
    _shoot(page, "head-to-head")

    # The club, the leaderboards and the standings' chart with its table.
    page.locator("h1 a").first.click()
    page.locator("p.muted a").first.click()
    page.wait_for_url(re.compile(r"/clubs/\d+/$"))
    assert page.locator("table.players tbody tr").count() >= 8
    _fits(page)
    _shoot(page, "club")

    page.goto(f"/competitions/{competition_id}/leaderboards/")
    best = page.locator("#board-best li")
    assert best.count() >= 1
    first = best.first.locator("a").get_attribute("href")
    t, b = map(int, re.search(r"/partnerships/(\d+)/(\d+)/", first).groups())
    figures = sheets.partnership_figures(t, b)
    assert best.first.locator('[data-figure="boems_per_night"]').inner_text() == \
        f"{figures['boems_won'] / figures['nights']:.2f}"
    _fits(page)
    _shoot(page, "leaderboards")
    page.goto(f"/competitions/{competition_id}/leaderboards/?min_nights=0")  # the browser's own check refuses 0
    assert "Ensure this value is greater than or equal to 1" in page.locator(".leaderboard-form").inner_text()

    page.goto(f"/competitions/{competition_id}/standings/")
    assert page.locator("svg.chart[role=img]").count() == 1
    last_round = {row.split("\t")[0]: row.split("\t")[-1]
                  for row in page.locator("table.positions tbody tr").all_inner_texts()}
    assert last_round == {r.team.name: str(r.position) for r in
                          StandingsRow.objects.filter(competition_id=competition_id).select_related("team")}
    _fits(page)
    _shoot(page, "standings")

"""Records at 375 px (issue 21): from a reduced demo season, a match report leads to a player, the player to
their registration history and back, to their partnership, a team page to a head-to-head, and the competitions
to last season's archive; every number on those pages equals what the test computes itself from the boem
sheets' rows (tests/records/sheets.py, not records/) or from the approved matches (the final table). The season
is closed in the set-up through the service; the walk itself only clicks. Screenshots of every records page at
375 and 1280 px go to artifacts/screenshots/player-records/."""

from __future__ import annotations

import re

from clubs.selectors import player_public_name
from demo.season import demo_season_run
from matches.models import Competition, Match, StandingsRow, Substitution
from matches.seasons import services as seasons
from tests.e2e.conftest import SCREENSHOTS_DIR, page_fits
from tests.records import sheets

SHOTS = SCREENSHOTS_DIR / "player-records"


def _shoot(page, name: str) -> None:
    """Full-page screenshots at 375 and 1280 px; back to 375 after."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (375, 1280):
        page.set_viewport_size({"width": width, "height": 812})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 812})


def _figures_on_page(page, column: str = "all") -> dict[str, int]:
    return {name: int(page.locator(f'td[data-column="{column}"][data-figure="{name}"]').inner_text())
            for name in sheets.FIGURES}


def _final_table(competition: Competition) -> dict[str, dict[str, int]]:
    """Each team's line of the final table, from the approved matches (the union's league points per result)."""
    union = competition.union
    table: dict[str, dict[str, int]] = {}
    for match in Match.objects.filter(competition=competition).select_related("home", "away"):
        assert match.result_status == Match.ResultStatus.APPROVED
        for team, mine, theirs in ((match.home, match.home_score, match.away_score),
                                   (match.away, match.away_score, match.home_score)):
            line = table.setdefault(team.name, dict.fromkeys(("played", "won", "drawn", "lost", "for", "against",
                                                               "difference", "points"), 0))
            line["played"] += 1
            outcome = "won" if mine > theirs else "lost" if mine < theirs else "drawn"
            line[outcome] += 1
            line["points"] += {"won": union.points_win, "drawn": union.points_draw, "lost": union.points_loss}[outcome]
            line["for"] += mine
            line["against"] += theirs
            line["difference"] += mine - theirs
    return table


def test_player_partnership_and_head_to_head_equal_the_sheets(page, transactional_db):
    demo_season_run(seed=7, clubs=4, size="small", progress=None)
    league = Competition.objects.get()
    seasons.season_close(union=league.union, name=league.season)  # last season, archived
    sub = Substitution.objects.select_related("player_in", "match").order_by("id").first()
    player = sub.player_in

    # From the match report: the substitute's name links to their records.
    page.goto(f"/matches/{sub.match_id}/")
    public_name = player_public_name(player)  # initials and surname on public pages (POPIA: the default)
    link = page.locator(f"a[href='/players/{player.pk}/']").first
    assert link.inner_text() == public_name
    link.click()
    page.wait_for_url(re.compile(rf"/players/{player.pk}/$"))
    assert page.locator("h1").inner_text() == public_name
    assert _figures_on_page(page) == sheets.player_figures(player.pk)
    competition_id = sub.match.competition_id
    assert _figures_on_page(page, str(competition_id)) == sheets.player_figures(player.pk, competition_id)
    assert page.locator("svg.chart[role=img]").count() == 1
    nights = page.locator("table.nights tbody tr")
    assert nights.count() == sheets.player_figures(player.pk)["nights"]
    page_fits(page)
    _shoot(page, "player")

    # Their registration history (clubs, transfers) and back to the records.
    page.get_by_role("link", name="Registration history and transfers").click()
    page.wait_for_url(re.compile(rf"/players/{player.pk}/history/$"))
    assert page.locator("h1").inner_text() == public_name
    assert player.registration_number in page.locator("main").inner_text()
    page_fits(page)
    _shoot(page, "player-history")
    page.get_by_role("link", name="Records: match nights, boems, partnerships").click()
    page.wait_for_url(re.compile(rf"/players/{player.pk}/$"))

    # Their partnership, from the partners' table.
    page.locator("table.partners tbody a").first.click()
    page.wait_for_url(re.compile(r"/partnerships/\d+/\d+/$"))
    telman_id, byspeler_id = map(int, re.search(r"/partnerships/(\d+)/(\d+)/", page.url).groups())
    assert player.pk in (telman_id, byspeler_id)
    assert _figures_on_page(page) == sheets.partnership_figures(telman_id, byspeler_id)
    page_fits(page)
    _shoot(page, "partnership")

    # The team page, then a head-to-head picked in its form.
    match = Match.objects.filter(result_status=Match.ResultStatus.APPROVED).order_by("id").first()
    page.goto(f"/matches/{match.pk}/")
    page.locator("h1 a").first.click()
    page.wait_for_url(re.compile(rf"/teams/{match.home_id}/$"))
    assert page.locator(".form-guide .outcome").count() == 5
    assert page.locator("table.results tbody tr").count() == 6
    page_fits(page)
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
    page_fits(page)
    _shoot(page, "head-to-head")

    # The club, the leaderboards and the standings' chart with its table.
    page.locator("h1 a").first.click()
    page.locator("p.muted a").first.click()
    page.wait_for_url(re.compile(r"/clubs/\d+/$"))
    assert page.locator("table.players tbody tr").count() >= 8
    page_fits(page)
    _shoot(page, "club")

    page.goto(f"/competitions/{competition_id}/leaderboards/")
    best = page.locator("#board-best li")
    assert best.count() >= 1
    first = best.first.locator("a").get_attribute("href")
    t, b = map(int, re.search(r"/partnerships/(\d+)/(\d+)/", first).groups())
    figures = sheets.partnership_figures(t, b)
    assert best.first.locator('[data-figure="boems_per_night"]').inner_text() == \
        f"{figures['boems_won'] / figures['nights']:.2f}"
    page_fits(page)
    _shoot(page, "leaderboards")
    page.goto(f"/competitions/{competition_id}/leaderboards/?min_nights=0")  # the browser's own check refuses 0
    assert "Ensure this value is greater than or equal to 1" in page.locator(".leaderboard-form").inner_text()

    page.goto(f"/competitions/{competition_id}/standings/")
    assert page.locator("svg.chart[role=img]").count() == 1
    last_round = {row.split("\t")[0]: row.split("\t")[-1]
                  for row in page.locator("table.positions tbody tr").all_inner_texts()}
    assert last_round == {r.team.name: str(r.position) for r in
                          StandingsRow.objects.filter(competition_id=competition_id).select_related("team")}
    page_fits(page)
    _shoot(page, "standings")

    # Last season's archive, from the competitions: the champions and the final table, as the approved matches
    # make them.
    page.get_by_role("link", name="Competitions", exact=True).click()
    page.get_by_role("link", name="past seasons").click()
    page.wait_for_url(re.compile(r"/seasons/$"))
    page.get_by_role("link", name=f"Season {league.season}").click()
    page.wait_for_url(re.compile(r"/seasons/\d+/$"))
    expected = _final_table(league)
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == len(expected)
    shown = []
    for i in range(rows.count()):
        # What a phone shows: position, team, played, points, and the folded "W · D · L · for–against (diff)".
        cells = rows.nth(i).locator(":scope > td")
        name = cells.nth(1).locator("a").inner_text()
        line = expected[name]
        assert (int(cells.nth(2).inner_text()), int(cells.last.inner_text())) == (line["played"], line["points"])
        assert cells.nth(1).locator(".standings-fold").inner_text() == (
            f"W {line['won']} · D {line['drawn']} · L {line['lost']} · {line['for']}–{line['against']} "
            f"({line['difference']})")
        shown.append((int(cells.nth(0).inner_text()), name))
    order = [(expected[name]["points"], expected[name]["difference"]) for _, name in shown]
    assert order == sorted(order, reverse=True)  # league points, then (the union's first tiebreak) difference
    assert league.union.tiebreak_order[0] == "difference"
    champions = {name for position, name in shown if position == 1}
    assert champions and all(expected[name]["points"] == order[0][0] for name in champions)
    honours = page.locator("p.honour")
    assert honours.count() == len(champions)
    assert {honours.nth(i).locator("strong").inner_text() for i in range(honours.count())} == champions
    assert "Champions" in honours.first.inner_text()
    page_fits(page)
    _shoot(page, "season-archive")

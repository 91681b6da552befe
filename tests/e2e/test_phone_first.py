"""Phone first (issue 15), in Chromium at 375 px: every role lands on its own dashboard after signing in, and
the pages a phone user walks (home, standings, a match report with its boem trees, the referee console, the
referee's match dashboard and a straf claim) are never wider than the screen, with team, club and player names
as long as the database holds, each one unbroken word (the hardest case for wrapping), a 160-character venue,
and notes of 500 characters. The standings keep the points column in view; boem-tree labels are at least 11 px
and the teams' full names are in a legend.

Names: a team's name holds at most 120 characters and a player's first and last names 60 each (the columns'
lengths, which PostgreSQL enforces), so those are used at full length; the free-text notes take 500.
Screenshots: artifacts/screenshots/test_phone_first_walk/ (375 px, then the same pages at 1280 px).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from clubs.models import (
    GROUP_CAPTAINS,
    GROUP_CLUB_SECRETARIES,
    GROUP_REFEREES,
    GROUP_UNION_OFFICIALS,
    ClubSecretary,
    Player,
    Team,
    UnionOfficial,
)
from matches.models import Match, StandingsRow
from matches.night import clock as night_clock
from matches.night import services as night_services
from referee import services as referee_services
from tests.e2e.conftest import PHONE, page_fits
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory, UserFactory, sheet_for, squad
from tests.matches.test_public_pages import _boem_sheet

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "klawerjas-e2e"
TEAM_LEN = Team._meta.get_field("name").max_length
NAME_LEN = Player._meta.get_field("first_name").max_length
NOTE = ("The telman says his partner's card fell face up on the table while the cards were dealt, and asks that "
        "the hand be dealt again; the opponents say it was turned after the deal. ") * 3
NOTE = (NOTE + "Onbreekbaar" * 50)[:500]


def _long(prefix: str, length: int) -> str:
    """One unbroken word of ``length`` characters starting with ``prefix``."""
    return (prefix + "x" * length)[:length]


def _user(username: str, group: str | None = None, **names):
    user = UserFactory(username=username, password=PASSWORD, **names)
    if group:
        user.groups.add(Group.objects.get(name=group))
    return user


def _world():
    competition = CompetitionFactory(name="Cape Flats League", season="2026")
    home = TeamFactory(competition=competition, name=_long("AthloneAces", TEAM_LEN),
                       club__name=_long("AthloneClub", TEAM_LEN))
    away = TeamFactory(competition=competition, name=_long("BonteheuwelBoere", TEAM_LEN),
                       club__union=competition.union)
    captain = _user("captain", GROUP_CAPTAINS, first_name="Faizel", last_name="Adams")
    Player.objects.filter(pk=home.captain_id).update(user=captain)
    for team in (home, away):
        for n, player in enumerate(squad(team)):
            player.first_name = _long(f"Anna{n}", NAME_LEN)
            player.last_name = _long(f"Jacobs{n}", NAME_LEN)
            player.save()
    referee = _user("referee", GROUP_REFEREES, first_name=_long("Yusuf", 150), last_name="Isaacs")
    official = _user("official", GROUP_UNION_OFFICIALS, first_name="Fatima", last_name="Abrahams")
    UnionOfficial.objects.create(union=competition.union, user=official)
    secretary = _user("secretary", GROUP_CLUB_SECRETARIES, first_name="Nazeem", last_name="Salie")
    ClubSecretary.objects.create(club=home.club, user=secretary)
    _user("player", first_name="Shireen", last_name="Davids")

    now = timezone.now().replace(microsecond=0)
    played = MatchFactory(competition=competition, home=home, away=away, referee=referee,
                          scheduled_start=now - timedelta(days=7), phase=Match.Phase.FINISHED,
                          result_status=Match.ResultStatus.PROVISIONAL, home_score=2, away_score=4,
                          venue=_long("AthloneCivicCentre", 160))
    _boem_sheet(played)
    for position, (team, points) in enumerate(((away, 2), (home, 0)), start=1):
        StandingsRow.objects.create(competition=competition, team=team, position=position, played=1,
                                    won=points // 2, lost=1 - points // 2, points_for=4 if points else 2,
                                    points_against=2 if points else 4, difference=2 if points else -2,
                                    league_points=points, tiebreak_reason=NOTE[:200], computed_at=now)
    start = timezone.localtime(now).replace(second=0)
    tonight = MatchFactory(competition=competition, home=home, away=away, referee=referee, scheduled_start=start,
                           venue=_long("AthloneCivicCentre", 160))
    sheet_for(tonight, home)
    sheet_for(tonight, away)
    night_services.match_toss_record(match=tonight, winner=home, by=referee, now=start - timedelta(minutes=4))
    night_clock.match_start(match=tonight, by=referee, now=start)
    claim = referee_services.straf_claim_log(
        match=tonight, table_number=1, claimant_side="home", claimant_role="telman", accused_role="telman",
        offence="versak", moment=NOTE[:200], note=NOTE, by=referee)
    MatchFactory(competition=competition, home=away, away=home, referee=referee,
                 scheduled_start=now + timedelta(days=7))  # coming up: listed after tonight's
    return competition, played, tonight, claim


def _sign_in(page, username: str) -> None:
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state("load")


def test_phone_first_walk(page, screenshot, live_server):
    competition, played, tonight, claim = _world()
    home_name = played.home.name

    # Each role lands on its own dashboard.
    landings = {"official": "/official/", "referee": "/referee/", "secretary": "/secretary/", "captain": "/captain/",
                "player": "/"}
    for username, path in landings.items():
        _sign_in(page, username)
        assert page.url == f"{live_server.url}{path}", f"{username} landed on {page.url}"
        assert page.locator("nav >> text=My dashboard").count() == 1
        page_fits(page, f"{username}'s dashboard")
        screenshot(f"dashboard-{username}")

    walk: list[tuple[str, str]] = []

    # The public pages, signed out.
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    assert page.locator("text=Forgot your password?").is_visible()
    page.click("text=Forgot your password?")
    page_fits(page, "password reset")
    page.goto("/")
    week = page.inner_text(".this-week")
    assert "Tonight" in week and home_name in week and "Latest results" in week and "The table" in week
    page_fits(page, "home")
    screenshot("home")
    walk.append(("home", "/"))

    standings = f"/competitions/{competition.pk}/standings/"
    page.goto(standings)
    page_fits(page, "standings")
    for cell in page.locator("table.standings td.pts").all() + page.locator("table.standings th.pts").all():
        box = cell.bounding_box()
        assert cell.is_visible() and box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (
            f"the points column is outside the screen: {box}")
    first_row = page.locator("table.standings tbody tr").first
    assert first_row.locator("td").nth(0).is_visible() and first_row.locator("td").nth(1).is_visible()
    screenshot("standings")
    walk.append(("standings", standings))

    report = f"/matches/{played.pk}/"
    page.goto(report)
    page.wait_for_selector("svg.boem-tree")
    page_fits(page, "match report")
    labels = page.evaluate("""() => [...document.querySelectorAll('svg.boem-tree text')].map(t => {
        const svg = t.ownerSVGElement, box = svg.getBoundingClientRect();
        return {text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize),
                scale: box.width / svg.viewBox.baseVal.width, height: t.getBoundingClientRect().height};
    })""")
    assert labels
    for label in labels:
        assert label["size"] * label["scale"] >= 11, f"boem-tree label {label['text']!r} drawn at {label}"
        assert "…" not in label["text"]
    legend = page.inner_text(".boem-legend")
    assert home_name in legend and played.away.name in legend
    screenshot("match-report-boem-trees")
    walk.append(("match report", report))

    # The referee's pages.
    _sign_in(page, "referee")
    console = page.inner_text("main")
    assert console.index("Tonight") < console.index("Coming up") < console.index("Earlier")
    tonight_list = page.inner_text("#tonight")
    assert home_name in tonight_list
    page_fits(page, "referee console")
    screenshot("referee-console")
    walk.append(("referee console", "/referee/"))
    for name, url in (("referee dashboard", f"/referee/matches/{tonight.pk}/"),
                      ("straf claim", f"/referee/claims/{claim.pk}/"),
                      ("table sheet", f"/referee/matches/{tonight.pk}/tables/1/")):
        page.goto(url)
        page_fits(page, name)
        text = page.inner_text("main")
        assert "team 0" not in text.lower() and "seat 0" not in text.lower()
        screenshot(name.replace(" ", "-"))
        walk.append((name, url))
    page.goto(f"/referee/claims/{claim.pk}/")
    assert NOTE in page.inner_text("main")

    # The same pages at 1280 px, for the eye.
    page.set_viewport_size(DESKTOP)
    for name, url in walk:
        if name in ("home", "standings", "match report"):
            page.context.clear_cookies()
        else:
            _sign_in(page, "referee")
        page.goto(url)
        page_fits(page, f"{name} at 1280 px")
        screenshot(f"desktop-{name.replace(' ', '-')}")
    page.set_viewport_size(PHONE)

"""What a captain (or anyone) sees without signing in, on a phone: the fixtures, a match report with each
table's boem sheet drawn as boem trees, and the standings with how ties were broken.
Screenshots go to artifacts/screenshots/test_public_match_report_and_standings/."""

import pytest
from django.utils import timezone

from matches.models import Match, StandingsSnapshot
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory
from tests.matches.test_public_pages import _boem_sheet

pytestmark = pytest.mark.django_db(transaction=True)


def test_public_match_report_and_standings(page, screenshot):
    competition = CompetitionFactory(name="SPKU League", season="2026")
    home = TeamFactory(competition=competition, name="Athlone Aces")
    away = TeamFactory(competition=competition, name="Bonteheuwel Boere")
    match = MatchFactory(competition=competition, home=home, away=away, phase=Match.Phase.FINISHED,
                         result_status=Match.ResultStatus.PROVISIONAL, home_score=2, away_score=4)
    _boem_sheet(match)
    StandingsSnapshot.objects.create(
        competition=competition, title="After round 1", as_of=timezone.localdate(), published_at=timezone.now(),
        rows=[{"position": 1, "team_id": away.pk, "team_name": away.name, "club_name": away.club.name, "played": 1,
               "won": 1, "drawn": 0, "lost": 0, "points_for": 4, "points_against": 2, "difference": 2,
               "league_points": 2, "tiebreak_reason": ""},
              {"position": 2, "team_id": home.pk, "team_name": home.name, "club_name": home.club.name, "played": 1,
               "won": 0, "drawn": 0, "lost": 1, "points_for": 2, "points_against": 4, "difference": -2,
               "league_points": 0, "tiebreak_reason": ""}])

    page.goto("/competitions/")
    page.click("text=SPKU League 2026")
    screenshot("fixtures")
    page.click("text=Athlone Aces v Bonteheuwel Boere")
    page.wait_for_selector("svg.boem-tree")
    assert page.locator("svg.boem-tree").count() == 2
    assert page.locator("text=provisional").count() >= 1
    screenshot("match-report-boem-trees")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.goto(f"/competitions/{competition.pk}/standings/")
    assert "After round 1" in page.inner_text("main")
    screenshot("standings")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375

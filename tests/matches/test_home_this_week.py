"""The home page's "this week": tonight's fixtures, the latest results and the top of the table, in names."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from matches.models import Match, StandingsRow, StandingsSnapshot
from matches.this_week import this_week
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory

pytestmark = pytest.mark.django_db


def _tonight_at(hour: int):
    return timezone.localtime().replace(hour=hour, minute=30, second=0, microsecond=0)


@pytest.fixture
def league():
    competition = CompetitionFactory(name="SPKU League", season="2026")
    teams = {name: TeamFactory(competition=competition, name=name, squad=0)
             for name in ("Athlone Aces", "Bonteheuwel Boere", "Hanover Park Sturks", "Mitchells Plain Manels")}
    return competition, teams


def test_tonight_lists_todays_matches_earliest_first_and_nothing_else(league):
    competition, t = league
    late = MatchFactory(competition=competition, home=t["Athlone Aces"], away=t["Bonteheuwel Boere"],
                        scheduled_start=_tonight_at(20))
    early = MatchFactory(competition=competition, home=t["Hanover Park Sturks"], away=t["Mitchells Plain Manels"],
                         scheduled_start=_tonight_at(18))
    MatchFactory(competition=competition, home=t["Athlone Aces"], away=t["Hanover Park Sturks"],
                 scheduled_start=_tonight_at(19) + timedelta(days=7))
    assert this_week().tonight == [early, late]


def test_latest_results_are_finished_matches_newest_first(league):
    competition, t = league
    older = MatchFactory(competition=competition, home=t["Athlone Aces"], away=t["Bonteheuwel Boere"],
                         scheduled_start=timezone.now() - timedelta(days=14), phase=Match.Phase.FINISHED,
                         result_status=Match.ResultStatus.APPROVED, home_score=30, away_score=12)
    newer = MatchFactory(competition=competition, home=t["Hanover Park Sturks"], away=t["Mitchells Plain Manels"],
                         scheduled_start=timezone.now() - timedelta(days=7), phase=Match.Phase.FINISHED,
                         result_status=Match.ResultStatus.PROVISIONAL, home_score=10, away_score=14)
    MatchFactory(competition=competition, home=t["Athlone Aces"], away=t["Mitchells Plain Manels"])  # not played
    assert this_week().results == [newer, older]


def test_home_page_shows_the_week_in_names(client, league):
    competition, t = league
    MatchFactory(competition=competition, home=t["Athlone Aces"], away=t["Bonteheuwel Boere"],
                 scheduled_start=_tonight_at(19), venue="Athlone Civic Centre")
    MatchFactory(competition=competition, home=t["Hanover Park Sturks"], away=t["Mitchells Plain Manels"],
                 scheduled_start=timezone.now() - timedelta(days=7), phase=Match.Phase.FINISHED,
                 result_status=Match.ResultStatus.PROVISIONAL, home_score=10, away_score=14)
    for position, (name, points) in enumerate((("Mitchells Plain Manels", 2), ("Hanover Park Sturks", 0)), 1):
        StandingsRow.objects.create(competition=competition, team=t[name], position=position, played=1,
                                    league_points=points, computed_at=timezone.now())
    html = client.get("/").content.decode()
    tonight = html[html.index("<h3>Tonight</h3>"):html.index("<h3>Latest results</h3>")]
    results = html[html.index("<h3>Latest results</h3>"):html.index("<h3>The table</h3>")]
    table = html[html.index("<h3>The table</h3>"):]
    assert "Athlone Aces v Bonteheuwel Boere" in tonight and "Athlone Civic Centre" in tonight
    assert "Hanover Park Sturks v Mitchells Plain Manels" in results and "10–14" in results
    assert "provisional" in results
    assert "SPKU League 2026" in table and "provisional" in table
    assert table.index("Mitchells Plain Manels") < table.index("Hanover Park Sturks")
    assert '<td class="pts"><strong>2</strong></td>' in table


def test_the_table_is_the_latest_published_snapshot_when_there_is_one(client, league):
    competition, t = league
    StandingsRow.objects.create(competition=competition, team=t["Athlone Aces"], position=1, league_points=4,
                                computed_at=timezone.now())
    StandingsSnapshot.objects.create(
        competition=competition, title="After round 3", as_of=timezone.localdate(), published_at=timezone.now(),
        rows=[{"position": 1, "team_id": t["Bonteheuwel Boere"].pk, "team_name": "Bonteheuwel Boere",
               "club_name": "Bonteheuwel", "played": 3, "league_points": 6}])
    week = this_week()
    assert week.table.published.title == "After round 3"
    assert [r["team_name"] for r in week.table.rows] == ["Bonteheuwel Boere"]
    html = client.get("/").content.decode()
    assert "After round 3" in html and "Bonteheuwel Boere" in html


def test_an_empty_week_says_so(client):
    html = client.get("/").content.decode()
    assert "No matches tonight." in html and "No results yet." in html and "No standings yet." in html

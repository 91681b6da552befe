"""Names and labels as the pages say them (issue 34): a season said once, rulesets by users' words, a match's
status by where it stands, standings published under a title of their own."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from clubs.services import union_official_add
from drives.models import Drive, makers_ruleset_choices
from engine.ruleset import RULESETS
from matches.models import RULESET_LABELS, Competition, Match, MatchTable, name_with_season, ruleset_choices
from matches.night.live import LiveTable
from matches.results import services as result_services
from tests.factories import CompetitionFactory, MatchFactory, UserFactory
from tests.matches.test_standings import PLAYED_NIGHT, _approved

DEVELOPER_WORDS = re.compile(r"\bseed \d|\bissue \d|\bper issue\b", re.IGNORECASE)


@pytest.mark.parametrize(("name", "season", "said"), [
    ("Premier League", "2026", "Premier League 2026"),
    ("Boland Liga 2026", "2026", "Boland Liga 2026"),  # named with its year: not "Boland Liga 2026 2026"
    ("Boland Liga 2026 ", " 2026", "Boland Liga 2026"),
    ("Winter League 2025", "2026", "Winter League 2025 2026"),  # another year is the name's own
    ("Liga 2026/27", "2026/27", "Liga 2026/27"),
    ("2026", "2026", "2026"),
])
def test_a_season_is_said_once_after_the_name(name, season, said):
    assert name_with_season(name, season) == said
    assert str(Competition(name=name, season=season)) == said
    assert str(Drive(name=name, season=season)) == said


def test_every_ruleset_is_named_in_users_words_and_marked_for_translation():
    assert set(RULESET_LABELS) == set(RULESETS)  # every registered ruleset has its label
    for name, ruleset in RULESETS.items():
        assert not DEVELOPER_WORDS.search(ruleset.title), ruleset.title
        assert str(RULESET_LABELS[name]) == ruleset.title  # in English, the engine's title
        for _topic, citation in ruleset.citations:  # a refusal shows them: "(Rotterdam §Scoring)"
            assert not DEVELOPER_WORDS.search(citation), citation
    labels = dict(ruleset_choices())
    assert "as played in New Zealand" in labels["rotterdam"] and "Amsterdam rules" in labels["amsterdam"]
    assert dict(makers_ruleset_choices())["amsterdam"] == labels["amsterdam"]
    with translation.override("af"):  # labels are lazy: a page says them in the reader's language
        assert type(RULESET_LABELS["rotterdam"]).__name__ == "__proxy__"
    competition = Competition(ruleset="amsterdam")
    assert competition.get_ruleset_display() == labels["amsterdam"]


@pytest.mark.parametrize(("phase", "result", "said"), [
    (Match.Phase.SCHEDULED, Match.ResultStatus.NONE, "Not played yet"),
    (Match.Phase.FIRST_HALF, Match.ResultStatus.NONE, "In play: first half"),
    (Match.Phase.INTERVAL, Match.ResultStatus.NONE, "In play: interval"),
    (Match.Phase.SECOND_HALF, Match.ResultStatus.NONE, "In play: second half"),
    (Match.Phase.EXTRA_TIME, Match.ResultStatus.NONE, "In play: extra time"),
    (Match.Phase.AWAITING_EXTRA_TIME, Match.ResultStatus.NONE, "Knock-out draw: toss and extra time to come"),
    (Match.Phase.FINISHED, Match.ResultStatus.PROVISIONAL, "Provisional"),
    (Match.Phase.FINISHED, Match.ResultStatus.APPROVED, "Approved"),
])
def test_a_matchs_status_says_where_it_stands(phase, result, said):
    assert Match(phase=phase, result_status=result).status_label == said


@pytest.mark.django_db
def test_standings_published_without_a_title_are_titled_by_what_they_count_not_by_the_competition():
    competition = CompetitionFactory(name="Boland Liga 2026", season="2026")
    match = MatchFactory(competition=competition, scheduled_start=PLAYED_NIGHT)
    official = UserFactory()
    union_official_add(union=competition.union, user=official)
    _approved(match, official)
    snapshot = result_services.standings_publish(competition=competition)
    assert snapshot.title == "After 1 approved result"  # the page says "Published standings: …" around it


@pytest.mark.parametrize(("phase", "status", "said"), [
    (Match.Phase.SECOND_HALF, MatchTable.Status.PLAYING, "Playing"),
    (Match.Phase.AWAITING_EXTRA_TIME, MatchTable.Status.PLAYING, "Time"),  # time called, extra time to come
    (Match.Phase.FINISHED, MatchTable.Status.PLAYING, "Played"),  # not "Playing" after time (SAKBOC 2.2)
    (Match.Phase.FINISHED, MatchTable.Status.STOPPED, "Stopped"),
])
def test_a_tables_status_after_time_is_not_playing(phase, status, said):
    table = LiveTable(table=MatchTable(number=1, status=status), number=1, home=None, away=None, match_phase=phase)
    assert table.status_label == said

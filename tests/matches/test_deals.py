"""A match of a competition played deal by deal (issue 24): each table's deals checked and scored by the engine
under the competition's ruleset, the match score and the standings following (matches.night.deals)."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from clubs.services import union_official_add
from engine.ruleset import KLAMMERN, ROTTERDAM
from matches.models import DealLine, Match, StandingsRow
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night.deals import DealAsked, deal_record, table_total
from matches.results import services as result_services
from matches.results.exports import match_report_load, table_reports
from matches.rules import competition_ruleset
from matches.selectors import clock_deadlines
from tests.factories import CompetitionFactory, MatchFactory, UserFactory, sheet_for
from tests.matches.conftest import T0, at


def _started(ruleset: str, deals: int = 0) -> Match:
    competition = CompetitionFactory(ruleset=ruleset, deals_per_table=deals)
    match = MatchFactory(competition=competition, scheduled_start=T0, home__squad=10, away__squad=10)
    sheet_for(match, match.home)
    sheet_for(match, match.away)
    night_services.match_toss_record(match=match, winner=match.home, now=at(-5))
    return night_clock.match_start(match=match, now=at(0))


def _deal(match: Match, table: int = 1, *, makers: str = "home", cards=(100, 62), roem=(0, 0), pit=None, nat=None,
          multiplier: int = 1, march=None, minute: float = 5) -> DealLine:
    team = {"home": match.home, "away": match.away, None: None}
    return deal_record(
        match=match, table_number=table, now=at(minute),
        deal=DealAsked(makers=team[makers], home_card_points=cards[0], away_card_points=cards[1],
                       home_roem=roem[0], away_roem=roem[1], pit=team[pit], nat=nat, multiplier=multiplier,
                       march=team[march]),
    )


def _score(match: Match) -> tuple[int, int]:
    match.refresh_from_db()
    return match.home_score, match.away_score


@pytest.mark.django_db
def test_the_competition_resolves_its_ruleset_in_one_place():
    sakboc = CompetitionFactory()
    assert sakboc.ruleset == "sakboc-2004"
    sakboc.union.straf_four_points = "three-or-four-strokes-clear"
    # the union's reading (SAKBOC 6.2)
    assert competition_ruleset(sakboc).straf_four_points == "three-or-four-strokes-clear"
    rotterdam = CompetitionFactory(ruleset="rotterdam", union=sakboc.union)
    assert competition_ruleset(rotterdam) is ROTTERDAM  # the relatives as the engine has them


@pytest.mark.django_db
def test_rotterdam_a_deal_scores_each_side_its_own_and_nat_gives_everything_to_the_opponents():
    match = _started("rotterdam", deals=3)
    line = _deal(match, cards=(100, 62), roem=(20, 0), nat=False)
    assert (line.made, line.home_points, line.away_points) == (True, 120, 62)
    assert _score(match) == (120, 62)
    # The away side plays and goes nat (Rotterdam §Scoring): the home side takes 162 and both sides' roem.
    line = _deal(match, makers="away", cards=(100, 62), roem=(0, 20), nat=True)
    assert (line.made, line.home_points, line.away_points) == (False, 182, 0)
    assert _score(match) == (302, 62)
    # Another table adds to the match score.
    _deal(match, table=2, makers="away", cards=(0, 162), pit="away")
    assert _score(match) == (302, 62 + 262)


@pytest.mark.django_db
def test_rotterdam_a_wrong_total_is_refused_citing_the_section_and_nothing_is_written():
    match = _started("rotterdam")
    with pytest.raises(ValidationError) as caught:
        _deal(match, cards=(100, 52))
    assert caught.value.message_dict == {
        "home_card_points": ["The card points add up to 152, not 162. (Rotterdam §Scoring)"]}
    with pytest.raises(ValidationError) as caught:
        _deal(match, cards=(90, 72), nat=True)
    assert "Not nat" in caught.value.message_dict["nat"][0]
    with pytest.raises(ValidationError) as caught:
        _deal(match, multiplier=2)
    assert "Contra" in caught.value.message_dict["multiplier"][0]
    assert not DealLine.objects.exists()
    assert _score(match) == (0, 0)


@pytest.mark.django_db
def test_the_table_plays_the_competitions_number_of_deals():
    match = _started("amsterdam", deals=2)
    _deal(match)
    _deal(match, makers="away", cards=(62, 100))
    with pytest.raises(ValidationError, match="deal 3 is one too many"):
        _deal(match)
    total = table_total(table=match.tables.get(number=1), match=match)
    assert (total.deals, total.points, total.game_over, total.winner_team) == (2, (162, 162), True, None)


@pytest.mark.django_db
def test_amsterdam_a_pit_scores_the_100_bonus():
    match = _started("amsterdam")
    line = _deal(match, cards=(162, 0), pit="home")
    assert (line.home_points, line.away_points) == (262, 0)
    with pytest.raises(ValidationError) as caught:
        _deal(match, cards=(152, 10), pit="home")
    assert "(Rotterdam §Bonus Points; Rotterdam §Scoring)" in caught.value.message_dict["pit"][0]


@pytest.mark.django_db
def test_wikipedia_bait_and_the_game_to_1001():
    match = _started("wikipedia-klaverjas")  # 0 deals: the ruleset's own end, 1001 points
    line = _deal(match, makers="away", cards=(100, 62), nat=True)
    assert (line.made, line.home_points, line.away_points) == (False, 162, 0)
    with pytest.raises(ValidationError) as caught:
        _deal(match, cards=(70, 92), nat=False)
    assert caught.value.message_dict["nat"][0].endswith("(Wikipedia §Playing the game (Bait))")
    for _ in range(5):
        _deal(match, cards=(162, 0))  # 162 + 5 × 162 = 972
    _deal(match, cards=(100, 62))  # 1072: the set is won
    assert table_total(table=match.tables.get(number=1), match=match).game_over
    with pytest.raises(ValidationError, match="is over"):
        _deal(match)


@pytest.mark.django_db
def test_klammern_scores_match_points_takes_contra_and_a_march_ends_the_game():
    match = _started("klammern")
    line = _deal(match, cards=(100, 62), multiplier=2)  # Contra (Klammern §First trick)
    assert (line.home_points, line.home_score, line.away_score) == (100, 10, 6)  # 10 game points a match point
    assert _score(match) == (10, 6)
    # The away side announces a march and takes every trick (Klammern §March): the game is over.
    _deal(match, makers="away", cards=(0, 162), pit="away", march="away")
    total = table_total(table=match.tables.get(number=1), match=match)
    assert total.game_over and total.winner_team == 1
    with pytest.raises(ValidationError, match="is over"):
        _deal(match)
    with pytest.raises(ValidationError) as caught:
        _deal(match, table=2, multiplier=3)
    assert caught.value.message_dict["multiplier"][0].endswith("(Klammern §First trick (Contra, Re))")
    assert KLAMMERN.score_unit == "match-points"


@pytest.mark.django_db
def test_a_sakboc_competition_takes_no_deals_and_keeps_its_boems():
    match = _started("sakboc-2004")
    with pytest.raises(ValidationError, match="played in boems"):
        _deal(match)


@pytest.mark.django_db
def test_the_result_and_the_standings_follow_the_tables_totals(django_capture_on_commit_callbacks):
    match = _started("rotterdam", deals=16)
    _deal(match, table=1, makers="away", cards=(100, 62), nat=True)  # the away side played and went nat: 162 to home
    _deal(match, table=2, cards=(80, 82), roem=(20, 0))  # home 100 of 182: made
    assert _score(match) == (162 + 80 + 20, 82)
    night_clock.match_interval_call(match=match, now=at(75))
    night_clock.match_resume(match=match, now=at(85))
    match.refresh_from_db()
    ended = night_clock.match_end(match=match, now=clock_deadlines(match)["second_half_ends_at"] + timedelta(seconds=1))
    assert ended.winner_id == match.home_id
    official = UserFactory()
    union_official_add(union=match.competition.union, user=official)
    result_services.result_confirm(match=ended, user=match.referee)
    with django_capture_on_commit_callbacks(execute=True):
        result_services.result_approve(match=ended, user=official)
    rows = StandingsRow.objects.filter(competition=match.competition).order_by("position")
    assert [(r.team_id, r.league_points, r.points_for, r.points_against) for r in rows] == [
        (match.home_id, 2, 262, 82), (match.away_id, 0, 82, 262)]



@pytest.mark.django_db
def test_the_match_report_gives_each_table_its_deals_total():
    match = _started("rotterdam")
    _deal(match, table=2, makers="away", cards=(100, 62), nat=True)
    reports = {r.table.number: (r.home_points, r.away_points)
               for r in table_reports(match_report_load(match_id=match.pk))}
    assert reports[2] == (162, 0) and reports[1] == (0, 0)


@pytest.mark.django_db
def test_the_public_pages_name_the_competitions_rules_in_the_footer(client):
    match = _started("rotterdam")
    for url in (f"/competitions/{match.competition_id}/standings/", f"/matches/{match.pk}/"):
        footer = client.get(url).content.decode().split('<footer class="site-footer">')[1]
        assert footer.startswith("Played under Dutch klaverjassen, Rotterdam rules"), url

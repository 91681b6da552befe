"""Standings: league points, the union's tiebreaks with reasons, the task on approval, cached reads."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError

from clubs.services import union_official_add
from matches.models import Match, StandingsRow
from matches.results import services as result_services
from matches.results.selectors import standings_for_competition
from matches.results.standings import Result, TeamRef, compute_standings
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory, UserFactory

#: A match night already played: a result is entered from the night on.
PLAYED_NIGHT = dt.datetime(2026, 3, 4, 19, 30, tzinfo=dt.timezone(dt.timedelta(hours=2)))

A, B, C, D = (TeamRef(i, n) for i, n in enumerate("ABCD", start=1))


def test_league_points_win_2_draw_1_loss_0_by_default():
    lines = compute_standings(teams=[A, B, C], results=[Result(1, 2, 30, 20), Result(2, 3, 25, 25)])
    table = {line.team_name: (line.played, line.won, line.drawn, line.lost, line.league_points) for line in lines}
    assert table == {"A": (1, 1, 0, 0, 2), "B": (2, 0, 1, 1, 1), "C": (1, 0, 1, 0, 1)}


def test_level_teams_are_split_by_difference_with_the_reason():
    lines = compute_standings(teams=[A, B, C, D], results=[Result(1, 3, 40, 20), Result(2, 4, 30, 20)])
    assert [line.team_name for line in lines] == ["A", "B", "D", "C"]
    assert lines[0].tiebreak_reason == "Level with B on 2 league points; ahead on difference (+20 v +10)."


def test_then_points_for_then_head_to_head():
    # A and B: same points and difference; A scored more → A above on "for".
    lines = compute_standings(teams=[A, B, C, D], results=[Result(1, 3, 50, 40), Result(2, 4, 30, 20)])
    assert lines[0].team_name == "A" and "points for (50 v 30)" in lines[0].tiebreak_reason
    # A and B level on league points; B beat A, which head-to-head decides when the union puts it first.
    results = [Result(1, 2, 20, 30), Result(1, 3, 30, 20)]
    lines = compute_standings(teams=[A, B, C], results=results, tiebreak_order=["head_to_head", "difference"])
    assert [line.team_name for line in lines] == ["B", "A", "C"]
    assert lines[0].tiebreak_reason == (
        "Level with A on 2 league points; ahead on head-to-head (2 v 0 league points, difference +10 v -10).")


def test_teams_level_on_everything_share_a_position():
    lines = compute_standings(teams=[A, B], results=[Result(1, 2, 20, 20)])
    assert [line.position for line in lines] == [1, 1]
    assert "every tiebreak" in lines[0].tiebreak_reason


def test_the_union_chooses_the_tiebreak_order():
    results = [Result(1, 3, 50, 40), Result(2, 4, 30, 10)]  # A: +10 for 50; B: +20 for 30
    assert compute_standings(teams=[A, B, C, D], results=results)[0].team_name == "B"
    lines = compute_standings(teams=[A, B, C, D], results=results, tiebreak_order=["for", "difference"])
    assert lines[0].team_name == "A"


@pytest.mark.django_db
def test_approval_needs_confirmation_and_an_official_then_recomputes_the_standings(
    django_capture_on_commit_callbacks
):
    match = MatchFactory(scheduled_start=PLAYED_NIGHT)
    result_services.result_enter(match=match, home_score=30, away_score=12, reason="paper sheet")
    official, stranger = UserFactory(), UserFactory()
    union_official_add(union=match.competition.union, user=official)
    with pytest.raises(ValidationError, match="confirmed"):
        result_services.result_approve(match=match, user=official)
    with pytest.raises(PermissionDenied):
        result_services.result_confirm(match=match, user=stranger)
    result_services.result_confirm(match=match, user=match.referee)  # the referee alone confirms
    with pytest.raises(PermissionDenied):
        result_services.result_approve(match=match, user=stranger)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        result_services.result_approve(match=match, user=official)
    recomputes_queued = [cb for cb in callbacks if cb.__qualname__.startswith("_queue_standings")]
    assert len(recomputes_queued) == 1
    rows = StandingsRow.objects.filter(competition=match.competition).order_by("position")
    assert [(r.team_id, r.league_points, r.difference) for r in rows] == [
        (match.home_id, 2, 18), (match.away_id, 0, -18)]


@pytest.mark.django_db
def test_only_approved_results_count_and_recompute_is_idempotent():
    competition = CompetitionFactory()
    t1, t2 = TeamFactory(competition=competition, squad=0), TeamFactory(competition=competition, squad=0)
    MatchFactory(competition=competition, home=t1, away=t2, home_score=40, away_score=0,
                 result_status=Match.ResultStatus.PROVISIONAL, phase=Match.Phase.FINISHED)
    MatchFactory(competition=competition, home=t2, away=t1, home_score=22, away_score=20,
                 result_status=Match.ResultStatus.APPROVED, phase=Match.Phase.FINISHED)
    from matches.results.standings import standings_recompute

    first = standings_recompute(competition_id=competition.pk)
    second = standings_recompute(competition_id=competition.pk)
    assert first == second
    assert [(line.team_id, line.points_for) for line in first] == [(t2.pk, 22), (t1.pk, 20)]
    assert StandingsRow.objects.filter(competition=competition).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize("teams", [4, 40])
def test_standings_read_costs_a_fixed_number_of_queries(teams, django_assert_num_queries):
    competition = CompetitionFactory()
    made = [TeamFactory(competition=competition, squad=0) for _ in range(teams)]
    for home, away in zip(made, made[1:], strict=False):
        MatchFactory(competition=competition, home=home, away=away, home_score=30, away_score=20,
                     result_status=Match.ResultStatus.APPROVED, phase=Match.Phase.FINISHED)
    from matches.results.standings import standings_cache_key, standings_recompute

    standings_recompute(competition_id=competition.pk)
    cache.delete(standings_cache_key(competition.pk))
    with django_assert_num_queries(2):  # cache miss: the outbox (no recompute waits), then the stored rows
        assert len(standings_for_competition(competition_id=competition.pk)) == teams
    with django_assert_num_queries(0):  # then the cache
        assert len(standings_for_competition(competition_id=competition.pk)) == teams


@pytest.mark.django_db
def _approved(match, official, home_score=30, away_score=12):
    result_services.result_correct(match=match, user=official, home_score=home_score, away_score=away_score,
                            reason="paper sheet")
    return result_services.result_approve(match=match, user=official)


@pytest.mark.django_db
def test_published_snapshot_is_frozen_and_dated():
    match = MatchFactory(scheduled_start=PLAYED_NIGHT)
    official = UserFactory()
    union_official_add(union=match.competition.union, user=official)
    _approved(match, official)
    snapshot = result_services.standings_publish(competition=match.competition, title="Round 1")
    result_services.result_correct(match=match, user=official, home_score=10, away_score=12, reason="corrected")
    snapshot.refresh_from_db()
    assert snapshot.as_of is not None and snapshot.title == "Round 1"
    home_row = next(row for row in snapshot.rows if row["team_id"] == match.home_id)
    assert (home_row["played"], home_row["won"]) == (1, 1)  # as published, not as corrected since


@pytest.mark.django_db
def test_publishing_refuses_nothing_approved_a_repeat_and_a_used_title():
    match = MatchFactory(scheduled_start=PLAYED_NIGHT)
    official = UserFactory()
    union_official_add(union=match.competition.union, user=official)
    with pytest.raises(ValidationError, match="No result is approved yet"):
        result_services.standings_publish(competition=match.competition, title="Round 1")
    _approved(match, official)
    first = result_services.standings_publish(competition=match.competition)
    assert first.title == "After 1 approved result"
    with pytest.raises(ValidationError, match="No result has been approved since"):
        result_services.standings_publish(competition=match.competition, title="Round 1 again")
    second = MatchFactory(competition=match.competition, scheduled_start=PLAYED_NIGHT)
    _approved(second, official)
    with pytest.raises(ValidationError) as refused:
        result_services.standings_publish(competition=match.competition, title=first.title)
    assert "already published" in refused.value.message_dict["title"][0]
    assert match.competition.standings_snapshots.count() == 1

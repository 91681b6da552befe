"""A whole match night through the services, with the clock controlled (no sleeping).

Team sheets → toss → first half (boems, a straf, a wrong straf reversed, a player called away) → the clock
timer calls the interval → substitutions → second half (an unseated table stopped after the grace, a table
stopped by the referee, an unfinished boem) → full time by the timer → captains confirm → an official
approves → standings recomputed. The final score is worked out by hand in the comments.
"""

import pytest

from clubs.services import team_captain_set, union_official_add
from matches.models import Award, Boem, Match, MatchTable, StandingsRow
from matches.night import boem_sheet
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.results import services as result_services
from matches.results.selectors import standings_for_competition
from matches.selectors import match_score
from tests.factories import UserFactory, squad
from tests.matches.conftest import at

pytestmark = pytest.mark.django_db


def go_on(match, table, team, *strokes, minute):
    for s in strokes:
        boem_sheet.going_on_record(match=match, table_number=table, team=team, strokes=s, reason="paper sheet",
                                   now=at(minute))


def test_a_whole_match_night(scheduled, django_capture_on_commit_callbacks):
    m = scheduled
    home, away = m.home, m.away
    hp, ap = squad(home), squad(away)

    # Toss 5 minutes before play (1.3), home gets the cards; play starts at T0.
    night_services.match_toss_record(match=m, winner=home, now=at(-5))
    night_clock.match_start(match=m, now=at(0))

    # --- First half ---------------------------------------------------------------------------------------
    go_on(m, 1, home, 2, 2, 1, minute=10)       # table 1: home wins 5-0 → home 4 (6.1)
    go_on(m, 2, away, 2, minute=12)
    go_on(m, 2, home, 1, minute=14)
    go_on(m, 2, away, 2, 1, minute=20)          # table 2: away wins 5-1 → away 2 (6.1)
    go_on(m, 3, home, 2, 1, minute=15)
    boem_sheet.straf_record(match=m, table_number=3, team=home, points=4, now=at(25))
    #                                           # table 3: home straf at 3-0 → home 4 (6.2, interpretation 2)
    go_on(m, 4, away, 1, minute=18)
    wrong = boem_sheet.straf_record(match=m, table_number=4, team=home, now=at(30))   # home 2 at 0-1 …
    boem_sheet.straf_reverse(entry=wrong, claimed_points=True, now=at(31))
    #                                           # … ruled wrong (Notes §VII): away 2 at 1-0 + 2 (6.6) → away 4
    night_services.player_called_away(match=m, player=ap[5], now=at(40))   # away's table-3 byspeler: home 20 (11.2)

    # The clock timer (re-armed late, at 76') calls the interval, dated at 75' (1.2).
    assert night_clock.match_clock_advance(match_id=m.pk, now=at(76)) == ["interval_due"]

    # --- Half-time: substitutions (11.1, 11.4) -----------------------------------------------------------------
    night_services.substitution_make(match=m, team=away, player_out=ap[5], player_in=ap[8], now=at(80))  # no 2nd 20
    night_services.substitution_make(match=m, team=home, player_out=hp[0], player_in=hp[8], now=at(81))

    # --- Second half -----------------------------------------------------------------------------------------
    night_clock.match_resume(match=m, now=at(85))
    night_clock.table_unseated_report(match=m, table_number=2, team=away, now=at(86))
    assert night_clock.match_clock_advance(match_id=m.pk, now=at(88)) == ["grace_expiry"]
    #                                           # table 2 stopped (12.3): away's 2 forfeited, home 10
    go_on(m, 1, away, 2, 2, minute=100)         # table 1: away 4-0 in a new boem …
    night_clock.table_stop(match=m, table_number=1, defaulting_team=home, note="signs", now=at(120))
    #                                           # … referee stops table 1, home defaulting (12.1): home's 4
    #                                           #     forfeited, away 20; the 4-0 boem is unfinished (0)
    go_on(m, 3, away, 1, minute=110)
    go_on(m, 3, home, 2, 2, 1, minute=130)      # table 3: home wins 5-1 → home 2 (table 3: 4 + 2 = 6)
    go_on(m, 4, home, 2, minute=150)            # table 4: unfinished at time → nothing (interpretation 3)

    assert night_clock.match_clock_advance(match_id=m.pk, now=at(161)) == ["full_time"]

    # Home: tables 0 (t1 forfeited) + 0 + 6 + 0 = 6; awards 20 (11.2) + 10 (12.3) = 30 → 36.
    # Away: tables 0 + 0 (t2 forfeited) + 0 + 4 = 4; awards 20 (12.1) → 24.
    match = Match.objects.get(pk=m.pk)
    assert (match.phase, match.finished_at, match.result_status) == (
        Match.Phase.FINISHED, at(160), Match.ResultStatus.PROVISIONAL)
    assert (match.home_score, match.away_score, match.winner) == (36, 24, home)
    score = match_score(match=match)
    assert [(t.home_counted, t.away_counted) for t in score.tables] == [(0, 0), (0, 0), (6, 0), (0, 4)]
    assert sorted((a.clause, a.points, a.team_id) for a in score.awards) == [
        ("SAKBOC 11.2", 20, home.pk), ("SAKBOC 12.1", 20, away.pk), ("SAKBOC 12.3", 10, home.pk)]
    assert MatchTable.objects.get(match=m, number=2).stop_reason == MatchTable.StopReason.UNSEATED
    assert Boem.objects.filter(table__match=m, status=Boem.Status.UNFINISHED).count() == 2
    assert not Award.objects.filter(match=m, half=2).exists()  # the called-away player was replaced

    # --- Results: both captains confirm, a union official approves; standings follow -------------------------
    home_captain, away_captain = UserFactory(), UserFactory()
    for team, user in ((home, home_captain), (away, away_captain)):
        team.captain.user = user
        team.captain.save()
        team_captain_set(team=team, player=team.captain)
    result_services.result_confirm(match=match, user=home_captain)
    assert Match.objects.get(pk=m.pk).result_status == Match.ResultStatus.PROVISIONAL
    result_services.result_confirm(match=match, user=away_captain)
    official = UserFactory()
    union_official_add(union=m.competition.union, user=official)
    with django_capture_on_commit_callbacks(execute=True):
        result_services.result_approve(match=match, user=official, reason="sheets checked")
    row = StandingsRow.objects.get(competition=m.competition, team=home)
    assert (row.position, row.played, row.won, row.points_for, row.points_against, row.league_points) == (
        1, 1, 1, 36, 24, 2)
    assert [line.team_name for line in standings_for_competition(competition_id=m.competition_id)] == [
        home.name, away.name]

    # Who, when, why, and the old value: the history of the match.
    approved = match.history.filter(result_status=Match.ResultStatus.APPROVED).get()
    assert (approved.history_user, approved.history_change_reason) == (official, "sheets checked")
    assert approved.prev_record.result_status == Match.ResultStatus.CONFIRMED

"""One service test per match-night rule, each naming its clause (SAKBOC rules, DOMAIN.md interpretations)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubs.services import union_settings_update
from matches.models import Award, Boem, Match, MatchTable, Seat, Substitution
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.selectors import match_clock, match_score
from tests.factories import CompetitionFactory, MatchFactory, UserFactory, sheet_for, squad
from tests.matches.conftest import T0, at

pytestmark = pytest.mark.django_db

PAPER = "entered from the paper sheet"  # the referee enters a going-on on the table's behalf, with a reason


def seat_player(match, team, table, role):
    return Seat.objects.get(sheet__match=match, sheet__team=team, table_number=table, role=role).player


# --- Team sheets and the toss --------------------------------------------------------------------------

def test_team_sheet_names_four_partnerships_from_the_squad(db):
    match = MatchFactory(scheduled_start=T0)
    players = squad(match.home)
    sheet = night_services.team_sheet_submit(
        match=match, team=match.home, partnerships={n: (players[2 * n - 2], players[2 * n - 1]) for n in (1, 2, 3, 4)},
        now=at(-60),
    )
    assert sheet.seats.count() == 8
    assert sheet.seats.get(table_number=1, role=Seat.Role.TELMAN).player == players[0]


def test_team_sheet_with_two_tables_is_refused_sakboc_1_13(db):
    match = MatchFactory(scheduled_start=T0)
    p = squad(match.home)
    with pytest.raises(ValidationError, match="SAKBOC 1.5, 1.13"):
        night_services.team_sheet_submit(match=match, team=match.home, partnerships={1: (p[0], p[1]), 2: (p[2], p[3])})


def test_team_sheet_player_outside_the_registered_squad_is_refused_sakboc_1_5(db):
    match = MatchFactory(scheduled_start=T0)
    p, stranger = squad(match.home), squad(match.away)[0]
    with pytest.raises(ValidationError, match="SAKBOC 1.5"):
        night_services.team_sheet_submit(match=match, team=match.home, partnerships={
            1: (p[0], p[1]), 2: (p[2], p[3]), 3: (p[4], p[5]), 4: (p[6], stranger)})


def test_team_sheet_player_named_twice_is_refused(db):
    match = MatchFactory(scheduled_start=T0)
    p = squad(match.home)
    with pytest.raises(ValidationError, match="named twice"):
        night_services.team_sheet_submit(match=match, team=match.home, partnerships={
            1: (p[0], p[1]), 2: (p[2], p[3]), 3: (p[4], p[0])})
    assert not match.team_sheets.exists()  # nothing half-saved


def test_team_sheet_cannot_change_after_play_starts_sakboc_11_3(first_half):
    p = squad(first_half.home)
    with pytest.raises(ValidationError, match="SAKBOC 11.3"):
        night_services.team_sheet_submit(match=first_half, team=first_half.home, partnerships={
            1: (p[1], p[0]), 2: (p[2], p[3]), 3: (p[4], p[5]), 4: (p[6], p[7])})


def test_toss_is_five_minutes_before_play_sakboc_1_3(scheduled):
    with pytest.raises(ValidationError, match="SAKBOC 1.3"):
        night_services.match_toss_record(match=scheduled, winner=scheduled.home, now=at(-6))
    match = night_services.match_toss_record(match=scheduled, winner=scheduled.away, now=at(-5))
    assert match.toss_winner == scheduled.away


def test_toss_needs_both_team_sheets_sakboc_1_3(db):
    match = MatchFactory(scheduled_start=T0)
    sheet_for(match, match.home)
    with pytest.raises(ValidationError, match="SAKBOC 1.3: both team sheets"):
        night_services.match_toss_record(match=match, winner=match.home, now=at(-5))


def test_play_needs_the_toss_sakboc_1_3_and_the_starting_time_sakboc_1_9(scheduled):
    with pytest.raises(ValidationError, match="SAKBOC 1.3"):
        night_clock.match_start(match=scheduled, now=at(0))
    night_services.match_toss_record(match=scheduled, winner=scheduled.home, now=at(-5))
    with pytest.raises(ValidationError, match="SAKBOC 1.9"):
        night_clock.match_start(match=scheduled, now=at(-1))


def test_fielding_three_tables_gives_the_opponents_20_sakboc_1_13(db):
    match = MatchFactory(scheduled_start=T0)
    sheet_for(match, match.home, tables=3)
    sheet_for(match, match.away)
    night_services.match_toss_record(match=match, winner=match.away, now=at(-5))
    match = night_clock.match_start(match=match, now=at(0))
    award = Award.objects.get(match=match)
    assert (award.team, award.points, award.clause) == (match.away, 20, "SAKBOC 1.13")
    assert MatchTable.objects.get(match=match, number=4).status == MatchTable.Status.NOT_PLAYED
    assert (match.home_score, match.away_score) == (0, 20)


# --- The clock -------------------------------------------------------------------------------------------

def test_halves_of_75_minutes_and_a_10_minute_interval_sakboc_1_2(first_half):
    with pytest.raises(ValidationError, match="SAKBOC 1.2"):
        night_clock.match_interval_call(match=first_half, now=at(74))
    match = night_clock.match_interval_call(match=first_half, now=at(75))
    with pytest.raises(ValidationError, match="SAKBOC 1.2"):
        night_clock.match_resume(match=match, now=at(84))
    match = night_clock.match_resume(match=match, now=at(85))
    with pytest.raises(ValidationError, match="SAKBOC 1.2"):
        night_clock.match_end(match=match, now=at(159))
    match = night_clock.match_end(match=match, now=at(160))
    assert match.phase == Match.Phase.FINISHED
    assert match.result_status == Match.ResultStatus.PROVISIONAL


def test_last_15_minutes_are_flagged_sakboc_1_15(second_half):
    assert match_clock(match=second_half, now=at(85 + 59)).in_last_period is False
    reading = match_clock(match=second_half, now=at(85 + 60))
    assert reading.in_last_period is True
    assert reading.ends_at == at(160)


def test_clock_timer_calls_the_interval_once_and_dates_it_at_the_deadline_sakboc_1_2(first_half):
    assert night_clock.match_clock_advance(match_id=first_half.pk, now=at(70)) == []
    assert night_clock.match_clock_advance(match_id=first_half.pk, now=at(78)) == ["interval_due"]
    assert night_clock.match_clock_advance(match_id=first_half.pk, now=at(79)) == []  # a second delivery: no-op
    match = Match.objects.get(pk=first_half.pk)
    assert match.phase == Match.Phase.INTERVAL
    assert match.interval_started_at == at(75)


def test_overdue_deadlines_are_all_handled_in_order(second_half):
    done = night_clock.match_clock_advance(match_id=second_half.pk, now=at(200))
    assert done == ["grace_expiry", "full_time"]
    match = Match.objects.get(pk=second_half.pk)
    assert (match.phase, match.finished_at) == (Match.Phase.FINISHED, at(160))


# --- Unseated after the interval (12.3) and stopped tables (12.1) ----------------------------------------

def test_unseated_table_is_stopped_after_3_minutes_grace_with_10_points_sakboc_12_3(second_half):
    night_clock.table_unseated_report(match=second_half, table_number=2, team=second_half.away, now=at(85.5))
    assert night_clock.match_clock_advance(match_id=second_half.pk, now=at(87.9)) == []
    assert night_clock.match_clock_advance(match_id=second_half.pk, now=at(88)) == ["grace_expiry"]
    table = MatchTable.objects.get(match=second_half, number=2)
    assert (table.status, table.stop_reason, table.defaulting_team) == (
        MatchTable.Status.STOPPED, MatchTable.StopReason.UNSEATED, second_half.away)
    award = Award.objects.get(match=second_half)
    assert (award.team, award.points, award.clause) == (second_half.home, 10, "SAKBOC 12.3")


def test_players_seated_within_the_grace_stop_nothing_sakboc_12_3(second_half):
    night_clock.table_unseated_report(match=second_half, table_number=2, team=second_half.away, now=at(85.5))
    night_clock.table_unseated_clear(match=second_half, table_number=2, now=at(87))
    night_clock.match_clock_advance(match_id=second_half.pk, now=at(90))
    assert MatchTable.objects.get(match=second_half, number=2).status == MatchTable.Status.PLAYING
    with pytest.raises(ValidationError, match="SAKBOC 12.3"):
        night_clock.table_unseated_report(match=second_half, table_number=3, team=second_half.away, now=at(91))


def test_stopped_table_forfeits_its_points_and_opponents_get_20_sakboc_12_1(first_half):
    m = first_half
    boem_sheet.going_on_record(reason=PAPER, match=m, table_number=1, team=m.home, strokes=2, now=at(5))
    for _ in range(3):
        boem_sheet.going_on_record(reason=PAPER, match=m, table_number=1, team=m.away, strokes=2, now=at(10))
    # away won a boem 5-2 (2 points) at table 1, then home's 2 strokes … now table 1 stopped, away defaulting
    night_clock.table_stop(match=m, table_number=1, defaulting_team=m.away, note="signs", now=at(20))
    score = match_score(match=m)
    assert score.tables[0].away_points == 2 and score.tables[0].away_counted == 0
    assert (score.home, score.away) == (20, 0)
    with pytest.raises(ValidationError, match="SAKBOC 12.1"):
        boem_sheet.going_on_record(reason=PAPER, match=m, table_number=1, team=m.home, strokes=1, now=at(21))
    with pytest.raises(ValidationError, match="SAKBOC 12.1"):
        night_clock.table_stop(match=m, table_number=1, defaulting_team=m.away, now=at(22))


# --- Substitutions (11.1-11.4) and players called away (11.2, 1.15) --------------------------------------

def test_substitution_only_at_half_time_sakboc_11_1(first_half):
    p = squad(first_half.home)
    with pytest.raises(ValidationError, match="SAKBOC 11.1"):
        night_services.substitution_make(match=first_half, team=first_half.home, player_out=p[0], player_in=p[8])


def test_substitute_takes_the_vacated_seat(interval):
    p = squad(interval.home)
    night_services.substitution_make(match=interval, team=interval.home, player_out=p[0], player_in=p[8], now=at(80))
    assert seat_player(interval, interval.home, 1, Seat.Role.TELMAN) == p[8]


def test_at_most_3_substitutions_sakboc_11_4(db):
    match = MatchFactory(scheduled_start=T0, home__squad=12)
    sheet_for(match, match.home)
    sheet_for(match, match.away)
    night_services.match_toss_record(match=match, winner=match.home, now=at(-5))
    night_clock.match_start(match=match, now=at(0))
    night_clock.match_interval_call(match=match, now=at(75))
    p = squad(match.home)
    for i in range(3):
        night_services.substitution_make(match=match, team=match.home, player_out=p[i], player_in=p[8 + i], now=at(80))
    with pytest.raises(ValidationError, match="SAKBOC 11.4"):
        night_services.substitution_make(match=match, team=match.home, player_out=p[3], player_in=p[11], now=at(80))
    assert Substitution.objects.filter(match=match).count() == 3


def test_substitute_comes_from_the_registered_squad_and_is_not_seated_sakboc_11_1(interval):
    p, stranger = squad(interval.home), squad(interval.away)[9]
    with pytest.raises(ValidationError, match="SAKBOC 11.1"):
        night_services.substitution_make(match=interval, team=interval.home, player_out=p[0], player_in=stranger)
    with pytest.raises(ValidationError, match="already seated"):
        night_services.substitution_make(match=interval, team=interval.home, player_out=p[0], player_in=p[3])


def test_partnership_never_swaps_roles_sakboc_11_3(interval):
    p = squad(interval.home)
    with pytest.raises(ValidationError, match="SAKBOC 11.3"):
        night_services.substitution_make(match=interval, team=interval.home, player_out=p[0], player_in=p[8],
                                   role=Seat.Role.BYSPELER)


def test_captain_chooses_roles_when_both_partners_are_substitutes_sakboc_11_1(interval):
    p = squad(interval.home)
    night_services.substitution_make(match=interval, team=interval.home, player_out=p[0], player_in=p[8])  # telman
    night_services.substitution_make(match=interval, team=interval.home, player_out=p[1], player_in=p[9],
                               role=Seat.Role.TELMAN)
    assert seat_player(interval, interval.home, 1, Seat.Role.TELMAN) == p[9]
    assert seat_player(interval, interval.home, 1, Seat.Role.BYSPELER) == p[8]


def test_called_away_without_substitute_gives_20_per_half_sakboc_11_2(first_half):
    player = squad(first_half.away)[2]
    award = night_services.player_called_away(match=first_half, player=player, now=at(30))
    assert (award.team, award.points, award.half, award.clause) == (first_half.home, 20, 1, "SAKBOC 11.2")
    night_clock.match_interval_call(match=first_half, now=at(75))
    match = night_clock.match_resume(match=first_half, now=at(85))
    assert sorted(Award.objects.filter(match=match).values_list("half", "points")) == [(1, 20), (2, 20)]
    assert match.home_score == 40


def test_called_away_player_replaced_at_half_time_costs_one_half_only_sakboc_11_2(first_half):
    p = squad(first_half.away)
    night_services.player_called_away(match=first_half, player=p[2], now=at(30))
    night_clock.match_interval_call(match=first_half, now=at(75))
    night_services.substitution_make(match=first_half, team=first_half.away, player_out=p[2], player_in=p[8],
                                     now=at(80))
    match = night_clock.match_resume(match=first_half, now=at(85))
    assert match.home_score == 20


def test_no_player_leaves_in_the_last_15_minutes_sakboc_1_15(second_half):
    with pytest.raises(ValidationError, match="SAKBOC 1.15"):
        night_services.player_called_away(match=second_half, player=squad(second_half.home)[0], now=at(150))


# --- Boem sheets (6.1, 6.2, 6.5, 6.6, 6.8, 7.3, interpretation 3) -----------------------------------------

def test_a_counter_goes_on_1_or_2_strokes_never_3_sakboc_7_3(first_half):
    with pytest.raises(ValidationError, match="SAKBOC 7.3"):
        boem_sheet.going_on_record(reason=PAPER, match=first_half, table_number=1, team=first_half.home,
                                   strokes=3, now=at(5))


def test_only_the_telman_goes_on_the_boem_sakboc_6_8(first_half):
    m = first_half
    byspeler = seat_player(m, m.home, 1, Seat.Role.BYSPELER)
    with pytest.raises(ValidationError, match="SAKBOC 6.8"):
        boem_sheet.going_on_record(reason=PAPER, match=m, table_number=1, team=m.home, strokes=1,
                                   claimed_by=byspeler, now=at(5))


def test_completed_boem_earns_2_points_sakboc_6_1(first_half):
    m = first_half
    for team, strokes in [(m.home, 2), (m.away, 1), (m.home, 2), (m.home, 1)]:
        boem_sheet.going_on_record(reason=PAPER, match=m, table_number=3, team=team, strokes=strokes, now=at(10))
    boem = Boem.objects.get(table__match=m, table__number=3)
    assert (boem.status, boem.winner, boem.points) == (Boem.Status.COMPLETED, m.home, 2)


def test_boem_won_five_nil_earns_4_points_sakboc_6_1(first_half):
    m = first_half
    for strokes in (2, 2, 1):
        boem_sheet.going_on_record(reason=PAPER, match=m, table_number=1, team=m.away, strokes=strokes, now=at(10))
    assert Boem.objects.get(table__match=m).points == 4
    assert Match.objects.get(pk=m.pk).away_score == 4


def test_no_entries_before_play_sakboc_1_9(scheduled):
    night_services.match_toss_record(match=scheduled, winner=scheduled.home, now=at(-5))
    with pytest.raises(ValidationError, match="SAKBOC 1.9"):
        boem_sheet.going_on_record(reason=PAPER, match=scheduled, table_number=1, team=scheduled.home,
                                   strokes=1, now=at(-1))


def test_no_entries_after_time_sakboc_2_2(second_half):
    night_clock.match_end(match=second_half, now=at(160))
    with pytest.raises(ValidationError, match="SAKBOC 2.2"):
        boem_sheet.going_on_record(reason=PAPER, match=second_half, table_number=1, team=second_half.home,
                                   strokes=1, now=at(161))


@pytest.mark.parametrize(("mine", "theirs", "points"), [
    ((2, 1), (), 4),            # 3 strokes, opponents none: 4
    ((2, 2), (), 4),            # 4 strokes, opponents none: 4
    ((2,), (), 2),              # 2 strokes: 2
    ((2, 1), (1,), 2),          # opponents have gone on: 2
    ((), (), 2),                # fresh boem: 2
])
def test_straf_earns_4_only_with_3_or_4_strokes_and_opponents_on_none_sakboc_6_2_interpretation_2(
    first_half, mine, theirs, points
):
    m = first_half
    for s in mine:
        boem_sheet.going_on_record(reason=PAPER, match=m, table_number=1, team=m.home, strokes=s, now=at(5))
    for s in theirs:
        boem_sheet.going_on_record(reason=PAPER, match=m, table_number=1, team=m.away, strokes=s, now=at(5))
    entry = boem_sheet.straf_record(match=m, table_number=1, team=m.home, now=at(6))
    assert entry.points == points
    assert entry.boem.status == Boem.Status.STRAFFED and entry.boem.winner == m.home


def test_straf_four_points_reading_is_a_union_setting_interpretation_2(first_half):
    m = first_half
    for team, strokes in ((m.home, 2), (m.away, 1), (m.home, 2)):  # 4-1: the opponents have gone on
        boem_sheet.going_on_record(reason=PAPER, match=m, table_number=1, team=team, strokes=strokes, now=at(5))
        boem_sheet.going_on_record(reason=PAPER, match=m, table_number=2, team=team, strokes=strokes, now=at(5))
    assert boem_sheet.straf_record(match=m, table_number=1, team=m.home, now=at(6)).points == 2
    union_settings_update(union=m.competition.union, straf_four_points="three-or-four-strokes-clear",
                          reason="local rule: 3 or 4 strokes clear")
    assert boem_sheet.straf_record(match=m, table_number=2, team=m.home, now=at(6)).points == 4


def test_a_counter_claims_only_2_or_4_sakboc_6_5_and_what_6_2_allows(first_half):
    m = first_half
    with pytest.raises(ValidationError, match="SAKBOC 6.5"):
        boem_sheet.straf_record(match=m, table_number=1, team=m.home, points=1, now=at(5))
    with pytest.raises(ValidationError, match="SAKBOC 6.2"):
        boem_sheet.straf_record(match=m, table_number=1, team=m.home, points=4, now=at(5))
    assert not Boem.objects.filter(table__match=m, status=Boem.Status.STRAFFED).exists()


def test_wrong_straf_punishes_the_punisher_notes_vii_with_6_6s_extra_2(first_half):
    m = first_half
    boem_sheet.going_on_record(reason=PAPER, match=m, table_number=2, team=m.away, strokes=2, now=at(5))
    boem_sheet.going_on_record(reason=PAPER, match=m, table_number=2, team=m.away, strokes=1, now=at(6))
    straf = boem_sheet.straf_record(match=m, table_number=2, team=m.home, now=at(7))  # home "af": 2 points
    assert Match.objects.get(pk=m.pk).home_score == 2
    reversal = boem_sheet.straf_reverse(entry=straf, claimed_points=True, now=at(8))
    # away had 3 strokes, home none: 4 (6.2) + 2 because away's telman had claimed points (6.6)
    assert (reversal.team, reversal.points) == (m.away, 6)
    match = Match.objects.get(pk=m.pk)
    assert (match.home_score, match.away_score) == (0, 6)
    with pytest.raises(ValidationError, match="already been reversed"):
        boem_sheet.straf_reverse(entry=straf, claimed_points=False)


def test_unfinished_boem_at_time_scores_nothing_and_keeps_its_strokes_interpretation_3(second_half):
    m = second_half
    boem_sheet.going_on_record(reason=PAPER, match=m, table_number=4, team=m.home, strokes=2, now=at(100))
    boem_sheet.going_on_record(reason=PAPER, match=m, table_number=4, team=m.home, strokes=2, now=at(150))
    match = night_clock.match_end(match=m, now=at(160))
    boem = Boem.objects.get(table__match=m, table__number=4)
    assert (boem.status, boem.home_strokes, boem.points) == (Boem.Status.UNFINISHED, 4, 0)
    assert (match.home_score, match.away_score, match.winner) == (0, 0, None)


def test_entry_is_confirmed_by_the_opposing_telman_or_the_referee(first_half):
    m = first_half
    device, _key = table_links.table_device_sign_in(code=table_links.table_links_ensure(match=m)[0].code)
    entry = boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.home, strokes=1, now=at(5))
    assert entry.state == "provisional"
    own_telman, opposing_telman = seat_player(m, m.home, 1, "telman"), seat_player(m, m.away, 1, "telman")
    own_telman.user, opposing_telman.user = UserFactory(), UserFactory()
    own_telman.save()
    opposing_telman.save()
    with pytest.raises(PermissionDenied):
        boem_sheet.entry_confirm(entry=entry, user=own_telman.user)
    entry = boem_sheet.entry_confirm(entry=entry, user=opposing_telman.user, now=at(6))
    assert entry.confirmed_by == opposing_telman.user
    other = boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.home, strokes=1, now=at(5))
    assert boem_sheet.entry_confirm(entry=other, user=m.referee).confirmed_by == m.referee


# --- Knock-out draw (1.12, interpretation 4) -------------------------------------------------------------

def test_knockout_draw_goes_to_a_toss_and_extra_time_sakboc_1_12(db):
    competition = CompetitionFactory(kind="knockout")
    match = MatchFactory(competition=competition, scheduled_start=T0)
    sheet_for(match, match.home)
    sheet_for(match, match.away)
    night_services.match_toss_record(match=match, winner=match.home, now=at(-5))
    night_clock.match_start(match=match, now=at(0))
    night_clock.match_clock_advance(match_id=match.pk, now=at(75))
    night_clock.match_resume(match=match, now=at(85))
    match = Match.objects.get(pk=match.pk)
    night_clock.match_clock_advance(match_id=match.pk, now=at(160))
    match = Match.objects.get(pk=match.pk)
    assert match.phase == Match.Phase.AWAITING_EXTRA_TIME
    match = night_clock.match_extra_time_start(match=match, toss_winner=match.away, now=at(165))
    reading = match_clock(match=match, now=at(170))
    assert reading.ends_at == at(175)  # 10 minutes (interpretation 4)
    for s in (2, 2, 1):
        boem_sheet.going_on_record(reason=PAPER, match=match, table_number=1, team=match.away, strokes=s, now=at(170))
    assert night_clock.match_clock_advance(match_id=match.pk, now=at(175)) == ["extra_time_end"]
    match = Match.objects.get(pk=match.pk)
    assert (match.phase, match.winner, match.away_score) == (Match.Phase.FINISHED, match.away, 4)

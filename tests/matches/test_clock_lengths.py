"""The match clock's lengths come from one place (issue 34): the union's settings, or the match's own halves and
interval (``matches.selectors.match_clock_lengths``). Every deadline and every refusal that names a length says the
match's, never SAKBOC's default written in. And the referee stays while the match is in play."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from icalendar import Calendar

from clubs import services as club_services
from clubs.models import Union
from matches.competitions import calendar
from matches.competitions import services as competition_services
from matches.models import Match
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.selectors import ClockLengths, clock_deadlines, match_clock_lengths
from matches.templatetags.match_clock import clock_attrs
from tests.factories import UserFactory
from tests.matches.conftest import at
from tests.people import union_official

pytestmark = pytest.mark.django_db


def _union_clock(match: Match, **lengths) -> Match:
    Union.objects.filter(pk=match.competition.union_id).update(**lengths)
    return Match.objects.select_related("competition__union").get(pk=match.pk)


def _refusal(call) -> str:
    with pytest.raises(ValidationError) as refused:
        call()
    return " ".join(refused.value.messages)


def test_the_lengths_are_the_unions_and_the_matchs_own_halves_and_interval_win(scheduled):
    assert match_clock_lengths(scheduled) == ClockLengths(5, 75, 10, 15, 3, 10)
    match = _union_clock(scheduled, toss_minutes_before=7, half_minutes=40, interval_minutes=8, last_period_minutes=9,
                         grace_minutes=2, knockout_extra_time_minutes=6)
    assert match_clock_lengths(match) == ClockLengths(7, 40, 8, 9, 2, 6)
    assert (match_clock_lengths(match).play_minutes, match_clock_lengths(match).night_minutes) == (80, 88)
    match.half_minutes, match.interval_minutes = 20, 5
    assert match_clock_lengths(match) == ClockLengths(7, 20, 5, 9, 2, 6)
    match.half_minutes = None
    assert match_clock_lengths(match).half_minutes == 40


def test_refusals_name_the_unions_lengths_not_sakbocs_defaults(scheduled):
    match = _union_clock(scheduled, toss_minutes_before=7, half_minutes=40, interval_minutes=8, last_period_minutes=9,
                         grace_minutes=2)
    toss = _refusal(lambda: night_services.match_toss_record(match=match, winner=match.home, now=at(-10)))
    assert "captains toss 7 minutes before play, not before 19:23" in toss
    night_services.match_toss_record(match=match, winner=match.home, now=at(-5))
    night_clock.match_start(match=match, now=at(0))
    interval = _refusal(lambda: night_clock.match_interval_call(match=match, now=at(30)))
    assert "the first half lasts 40 minutes; the interval is due at 20:10" in interval and "75" not in interval
    night_clock.match_interval_call(match=match, now=at(40))
    resume = _refusal(lambda: night_clock.match_resume(match=match, now=at(45)))
    assert "the interval is 8 minutes; play resumes at 20:18" in resume and "10 minutes" not in resume
    night_clock.match_resume(match=match, now=at(48))
    end = _refusal(lambda: night_clock.match_end(match=match, now=at(60)))
    assert "play lasts two halves of 40 minutes; time is at 20:58" in end and "2 h 30" not in end
    grace = _refusal(lambda: night_clock.table_unseated_report(match=match, table_number=1, team=match.home,
                                                              now=at(51)))
    assert "the 2 minutes' grace ended at 20:20" in grace
    player = match.team_sheets.get(team=match.home).seats.get(table_number=1, role="telman").player
    last = _refusal(lambda: night_services.player_called_away(match=match, player=player, now=at(80)))
    assert "in the last 9 minutes of the game" in last and "last 15" not in last


def test_the_matchs_own_halves_and_interval_win_over_the_unions(scheduled):
    match = _union_clock(scheduled, half_minutes=40)
    Match.objects.filter(pk=match.pk).update(half_minutes=20, interval_minutes=5)
    night_services.match_toss_record(match=match, winner=match.home, now=at(-5))
    night_clock.match_start(match=match, now=at(0))
    match.refresh_from_db()
    assert clock_deadlines(match)["first_half_ends_at"] == at(20)
    assert "the first half lasts 20 minutes; the interval is due at 19:50" in _refusal(
        lambda: night_clock.match_interval_call(match=match, now=at(15)))
    night_clock.match_interval_call(match=match, now=at(20))
    assert "the interval is 5 minutes" in _refusal(lambda: night_clock.match_resume(match=match, now=at(22)))
    night_clock.match_resume(match=match, now=at(25))
    match.refresh_from_db()
    assert clock_deadlines(match)["second_half_ends_at"] == at(45)
    assert night_clock.match_end(match=match, now=at(45)).phase == Match.Phase.FINISHED


def test_the_clock_attributes_and_the_calendar_read_the_same_lengths(first_half):
    match = Match.objects.select_related("competition__union").get(pk=first_half.pk)
    match.interval_minutes = 4
    assert 'data-interval-minutes="4"' in clock_attrs(type("Clock", (), {"phase": "first_half", "now": at(1),
                                                                        "ends_at": at(75)})(), match)
    Match.objects.filter(pk=match.pk).update(half_minutes=30, interval_minutes=5)
    feed = Calendar.from_ical(calendar.competition_calendar(competition=match.competition))
    (event,) = feed.walk("VEVENT")
    assert event.decoded("dtend") - event.decoded("dtstart") == timedelta(minutes=65)  # two halves of 30 and 5


# --- The referee stays while the match is in play -----------------------------------------------------------


def _listed(match, **names):
    user = UserFactory(**names)
    club_services.union_referee_add(union=match.competition.union, user=user)
    return user


def test_the_referee_is_not_changed_while_the_match_is_in_play(scheduled):
    first, second, marker = _listed(scheduled), _listed(scheduled), _listed(scheduled)
    competition_services.match_officials_assign(match=scheduled, referee=first)
    competition_services.match_officials_assign(match=scheduled, referee=second)  # before play: as often as needed
    night_services.match_toss_record(match=scheduled, winner=scheduled.home, now=at(-5))
    night_clock.match_start(match=scheduled, now=at(0))
    for other in (first, None):
        with pytest.raises(ValidationError) as refused:
            competition_services.match_officials_assign(match=scheduled, referee=other, marker=marker)
        assert "The match is in play" in refused.value.message_dict["referee"][0]
    scheduled.refresh_from_db()
    assert (scheduled.referee, scheduled.marker) == (second, None)
    assert competition_services.match_officials_assign(match=scheduled, referee=second, marker=marker).marker == marker
    night_clock.match_interval_call(match=scheduled, now=at(75))
    with pytest.raises(ValidationError):  # the interval is in play too
        competition_services.match_officials_assign(match=scheduled, referee=first, marker=marker)
    Match.objects.filter(pk=scheduled.pk).update(phase=Match.Phase.FINISHED)  # after the night: an official's record
    assert competition_services.match_officials_assign(match=scheduled, referee=first, marker=marker).referee == first


def test_the_officials_page_offers_no_referee_during_play(scheduled, client):
    referee, marker = _listed(scheduled), _listed(scheduled)
    competition_services.match_officials_assign(match=scheduled, referee=referee)
    client.force_login(union_official(scheduled.competition.union))
    url = reverse("matches:official-match", args=[scheduled.pk])
    assert 'name="referee"' in client.get(url).content.decode()
    night_services.match_toss_record(match=scheduled, winner=scheduled.home, now=at(-5))
    night_clock.match_start(match=scheduled, now=at(0))
    page = client.get(url).content.decode()
    assert 'name="referee"' not in page and 'id="referee-fixed"' in page and 'name="marker"' in page
    client.post(url, {"action": "officials", "referee": str(marker.pk), "marker": str(marker.pk)})
    scheduled.refresh_from_db()
    assert (scheduled.referee, scheduled.marker) == (referee, marker)  # the referee posted is not taken

"""Fixtures for match-night service tests: a fixed clock (no sleeping; services take ``now=``)."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from matches.night import clock as night_clock
from matches.night import services as night_services
from tests.factories import MatchFactory, sheet_for

T0 = datetime(2026, 3, 4, 19, 30, tzinfo=ZoneInfo("Africa/Johannesburg"))  # start of play


def at(minutes: float) -> datetime:
    """``minutes`` after the start of play (negative: before)."""
    return T0 + timedelta(minutes=minutes)


@pytest.fixture
def scheduled(db):
    """A league match at T0 with both team sheets (4 tables each) and squads of 10."""
    match = MatchFactory(scheduled_start=T0, home__squad=10, away__squad=10)
    sheet_for(match, match.home)
    sheet_for(match, match.away)
    return match


@pytest.fixture
def first_half(scheduled):
    """The match in its first half, started at T0 (toss at T0 - 5 min, won by the home team)."""
    night_services.match_toss_record(match=scheduled, winner=scheduled.home, now=at(-5))
    return night_clock.match_start(match=scheduled, now=at(0))


@pytest.fixture
def interval(first_half):
    return night_clock.match_interval_call(match=first_half, now=at(75))


@pytest.fixture
def second_half(interval):
    return night_clock.match_resume(match=interval, now=at(85))

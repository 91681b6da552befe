"""Fixtures for the table pages and API: a match night playing now (the pages read the real clock)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from matches.models import Match, Seat
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night import table_links
from tests.factories import match_with_sheets


@pytest.fixture
def playing(db) -> Match:
    """A match whose first half started a minute ago, both sheets in (4 tables), squads of 10."""
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start, home__squad=10, away__squad=10, home__name="Athlone Aces",
                              away__name="Mitchells Plain Manels")
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


@pytest.fixture
def links(playing):
    """The active table links of ``playing``, by table number."""
    return {link.table_number: link for link in table_links.table_links_ensure(match=playing)}


def telman(match: Match, team, table: int = 1):
    return Seat.objects.get(sheet__match=match, sheet__team=team, table_number=table, role=Seat.Role.TELMAN).player

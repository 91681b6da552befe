"""Suspensions count match nights from the moment they are recorded, not from the start of that day (issue 34)."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from clubs import discipline
from clubs.models import DisciplinaryRecord
from matches.night.suspensions import player_suspension, suspension_start
from tests.factories import MatchFactory, squad

pytestmark = pytest.mark.django_db

SAST = ZoneInfo("Africa/Johannesburg")


def _at(day: int, hour: int, month: int = 3) -> datetime:
    return datetime(2026, month, day, hour, 0, tzinfo=SAST)


def _suspend(player, *, recorded_at: datetime, nights: int = 2, starts_on: date | None = None):
    record = discipline.disciplinary_record_create(
        union=player.union, player=player, offence=DisciplinaryRecord.Offence.MISCONDUCT,
        occurred_on=recorded_at.date(), reason="Swore at the referee", sanction=DisciplinaryRecord.Sanction.SUSPENSION,
        suspension_match_nights=nights, starts_on=starts_on or recorded_at.date(), by=None)
    DisciplinaryRecord.objects.filter(pk=record.pk).update(recorded_at=recorded_at)  # auto_now_add
    record.refresh_from_db()
    return record


@pytest.fixture
def nights():
    """Five match nights of one team: two on the 27th (10:00 and 14:00), then the 28th, 3 and 10 April."""
    first = MatchFactory(scheduled_start=_at(27, 10))
    same = {"competition": first.competition, "home": first.home, "away": first.away}
    return [first, MatchFactory(scheduled_start=_at(27, 14), **same), MatchFactory(scheduled_start=_at(28, 19), **same),
            MatchFactory(scheduled_start=_at(3, 19, month=4), **same),
            MatchFactory(scheduled_start=_at(10, 19, month=4), **same)]


def test_matches_played_earlier_on_the_day_it_is_recorded_do_not_use_it_up(nights):
    player = squad(nights[0].home)[0]
    record = _suspend(player, recorded_at=_at(27, 18))
    assert suspension_start(record) == _at(27, 18)
    assert player_suspension(player=player, match=nights[0]) is None
    assert player_suspension(player=player, match=nights[1]) is None
    third = player_suspension(player=player, match=nights[2])
    fourth = player_suspension(player=player, match=nights[3])
    assert (third.night, fourth.night) == (1, 2) and third.last_night_on == date(2026, 4, 3)
    assert player_suspension(player=player, match=nights[4]) is None


def test_a_suspension_from_a_later_day_counts_from_that_day(nights):
    player = squad(nights[0].home)[0]
    _suspend(player, recorded_at=_at(26, 12), starts_on=date(2026, 3, 28), nights=1)
    assert [player_suspension(player=player, match=m) is not None for m in nights] == [False, False, True, False,
                                                                                       False]


def test_a_suspension_dated_back_by_the_union_counts_from_that_day(nights):
    player = squad(nights[0].home)[0]
    _suspend(player, recorded_at=_at(28, 12), starts_on=date(2026, 3, 27), nights=2)
    assert [player_suspension(player=player, match=m) is not None for m in nights] == [True, True, False, False,
                                                                                       False]

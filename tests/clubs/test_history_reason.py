"""A change reason longer than simple-history's 100-character column is fitted to it, so the write succeeds on
PostgreSQL (which refuses a longer varchar, and the whole transaction with it) as on SQLite (issue 16). Run
under CI's PostgreSQL (``bash .ci/run``) as well as on SQLite."""

from __future__ import annotations

import pytest

from clubs.services import HISTORY_REASON_MAX_LENGTH, history_reason_fit
from matches.models import Match
from matches.results import services as result_services
from matches.writes import history_row
from tests.factories import MatchFactory, UserFactory
from tests.world import make_world

pytestmark = pytest.mark.django_db
LONG = "Approved after the referee's report: " + "the away captain's objection about table 3 was heard. " * 6


def test_history_reason_fit_keeps_short_reasons_and_cuts_long_ones():
    assert history_reason_fit("result approved") == "result approved"
    assert history_reason_fit(None) is None
    fitted = history_reason_fit(LONG)
    assert len(fitted) == HISTORY_REASON_MAX_LENGTH and fitted.endswith("…") and LONG.startswith(fitted[:-1])


def test_a_long_reason_on_a_service_write_is_kept_fitted():
    world = make_world()
    match = world.a.confirmed
    result_services.result_approve(match=match, user=world.a.official, reason=LONG)
    match.refresh_from_db()
    assert match.result_status == Match.ResultStatus.APPROVED
    reason = match.history.latest().history_change_reason
    assert len(reason) == HISTORY_REASON_MAX_LENGTH and reason.startswith("Approved after the referee's report")


def test_a_long_reason_on_a_bulk_history_row_is_fitted():
    match = MatchFactory()
    row = history_row(match, history_type="~", by=UserFactory(), reason=LONG)
    row.save()
    assert len(type(row).objects.get(pk=row.pk).history_change_reason) == HISTORY_REASON_MAX_LENGTH

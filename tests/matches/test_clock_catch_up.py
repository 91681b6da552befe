"""The clock keeps time without a worker (issue 37): on the embedded default (no Redis, no timer ever sent), every
read and write of a match applies the deadlines already passed through the timers' own service
(``matches.night.clock``): the public page, its live part, the table phones, the captains' confirmation, the referee's
console and the API. Time is moved with time-machine."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.services import team_captain_set
from matches.models import Match
from matches.night import clock as night_clock
from matches.night.clock import match_clock_catch_up, match_version_caught_up
from matches.night.live import live_version
from tests.factories import UserFactory, match_started

pytestmark = pytest.mark.django_db


@pytest.fixture
def started():
    """A match whose first half started now (75 minutes a half, a 10-minute interval: the union's defaults)."""
    return match_started(start=timezone.now().replace(microsecond=0))


def _captains(match: Match) -> tuple:
    users = []
    for team in (match.home, match.away):
        user = UserFactory()
        team.captain.user = user
        team.captain.save(update_fields=["user"])
        team_captain_set(team=team, player=team.captain)
        users.append(user)
    return tuple(users)


def test_the_public_page_shows_the_interval_once_the_first_half_is_over_sakboc_1_2(client, started):
    with time_machine.travel(started.first_half_started_at + timedelta(minutes=74), tick=False):
        before = client.get(reverse("matches:match", args=[started.pk]))
    assert "First half" in before.content.decode()

    with time_machine.travel(started.first_half_started_at + timedelta(minutes=75, seconds=1), tick=False):
        page = client.get(reverse("matches:match", args=[started.pk]))
        part = client.get(reverse("matches:match-live", args=[started.pk]))

    started.refresh_from_db()
    assert started.phase == Match.Phase.INTERVAL
    assert started.interval_started_at == started.first_half_started_at + timedelta(minutes=75)  # at the deadline
    assert "Interval" in page.content.decode() and "First half" not in page.content.decode()
    assert part.status_code == 200 and "Interval" in part.content.decode()


def test_the_captains_confirm_after_time_with_no_worker_sakboc_1_2_1_10(client, started):
    t0 = started.first_half_started_at
    night_clock.match_interval_call(match=started, now=t0 + timedelta(minutes=75))
    night_clock.match_resume(match=started, now=t0 + timedelta(minutes=85))
    home_captain, away_captain = _captains(started)

    with time_machine.travel(t0 + timedelta(minutes=85 + 75, seconds=5), tick=False):
        client.force_login(home_captain)
        response = client.post(reverse("matches:result-confirm", args=[started.pk]), follow=True)
        api = APIClient()
        api.force_authenticate(away_captain)
        answer = api.post(f"/api/fixtures/{started.pk}/confirm/")

    text = response.content.decode()
    assert "There is no result to confirm yet" not in text and "Result confirmed" in text
    assert answer.status_code == 200, answer.content
    started.refresh_from_db()
    assert started.phase == Match.Phase.FINISHED
    assert started.finished_at == t0 + timedelta(minutes=160)  # time called at the deadline, not when read
    assert started.result_status == Match.ResultStatus.CONFIRMED


def test_the_table_phone_and_the_referee_console_follow_the_clock(client, started):
    from matches.night.table_links import table_links_ensure

    link = table_links_ensure(match=started)[0]
    with time_machine.travel(started.first_half_started_at + timedelta(minutes=76), tick=False):
        phone = client.get(reverse("tables:open", args=[link.secret]), follow=True)
        referee = APIClient()
        referee.force_authenticate(started.referee)
        console = referee.get(f"/api/referee/matches/{started.pk}/")
    assert phone.status_code == 200 and "Interval" in phone.content.decode()
    assert console.status_code == 200 and console.json()["phase"] == "interval"
    started.refresh_from_db()
    assert started.phase == Match.Phase.INTERVAL


def test_nothing_is_written_or_queried_when_no_deadline_is_due(started, django_assert_num_queries):
    match = Match.objects.select_related("competition__union").get(pk=started.pk)
    version = match.live_version
    with django_assert_num_queries(0):
        assert match_clock_catch_up(match=match) is match
    assert match.phase == Match.Phase.FIRST_HALF
    found = (version, match.competition_id)
    with django_assert_num_queries(1):  # nothing kept: one query reads the version and the next deadline...
        assert match_version_caught_up(match_id=match.pk) == found
    with django_assert_num_queries(1):  # ...then a poll is the version's one query, nothing more
        assert match_version_caught_up(match_id=match.pk) == found
    with django_assert_num_queries(1):
        assert live_version(match.pk) == version
    match.refresh_from_db()
    assert match.live_version == version  # nothing written


def test_catching_up_twice_acts_once(started):
    later = started.first_half_started_at + timedelta(minutes=80)
    match = Match.objects.select_related("competition__union").get(pk=started.pk)
    match_clock_catch_up(match=match, now=later)
    assert match.phase == Match.Phase.INTERVAL
    version = match.live_version
    again = Match.objects.select_related("competition__union").get(pk=started.pk)
    match_clock_catch_up(match=again, now=later)
    assert again.live_version == version and again.phase == Match.Phase.INTERVAL

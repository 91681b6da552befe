"""The iCalendar feeds read by three parsers (issue 38): ``icalendar``, ``ics`` and ``vobject`` agree on each
event's UID whichever address the feed was fetched through; the UID's domain is a setting, never the request's
host; ``DTSTAMP`` is the fixture's last change; ``URL`` its match page; a postponement raises ``SEQUENCE`` and
keeps the UID; the pages offer ``webcal://`` subscriptions beside the downloads."""

from __future__ import annotations

import datetime as dt

import ics
import pytest
import time_machine
import vobject
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from matches.competitions import fixture_changes
from matches.models import Match
from tests.factories import MatchFactory, TeamFactory

pytestmark = pytest.mark.django_db

HOSTS = ("127.0.0.1", "kj.other-proxy.example")
"""Two addresses the site answers on (a LAN address, a proxy); neither is its public address (``SITE_URL``)."""


@pytest.fixture(autouse=True)
def _site(settings):
    settings.ALLOWED_HOSTS = [*HOSTS, "testserver"]
    settings.SITE_URL = "https://league.example"
    settings.CALENDAR_UID_DOMAIN = "klawerjas.league.example"


@pytest.fixture
def fixtures_():
    first = MatchFactory(home__name="Athlone Aces", away__name="Bonteheuwel Boere", venue="Athlone Civic Centre",
                         scheduled_start=timezone.now().replace(microsecond=0) + dt.timedelta(days=10))
    second = MatchFactory(competition=first.competition, home=first.away, away=first.home,
                          scheduled_start=first.scheduled_start + dt.timedelta(days=7))
    return first, second


def _uids_by_parser(body: bytes) -> dict[str, set[str]]:
    text = body.decode()
    return {
        "icalendar": {str(e["uid"]) for e in Calendar.from_ical(body).walk("VEVENT")},
        "ics": {e.uid for e in ics.Calendar(text).events},
        "vobject": {e.uid.value for e in vobject.readOne(text).vevent_list},
    }


def test_three_parsers_agree_on_the_uids_through_two_addresses(client, fixtures_):
    first, second = fixtures_
    url = reverse("matches:competition-calendar", args=[first.competition.pk])
    expected = {f"match-{m.pk}@klawerjas.league.example" for m in (first, second)}
    for host in HOSTS:
        body = client.get(url, HTTP_HOST=host).content
        assert host not in body.decode()  # no trace of the address the feed was fetched through
        assert _uids_by_parser(body) == {"icalendar": expected, "ics": expected, "vobject": expected}
    team_body = client.get(reverse("matches:team-calendar", args=[first.home.pk]), HTTP_HOST=HOSTS[1]).content
    assert _uids_by_parser(team_body)["vobject"] == expected  # the team's feed: the same events, the same UIDs


def test_an_event_links_its_match_page_and_is_stamped_with_its_last_change(client, fixtures_):
    first, _second = fixtures_
    body = client.get(reverse("matches:competition-calendar", args=[first.competition.pk])).content
    event = next(e for e in Calendar.from_ical(body).walk("VEVENT") if str(e["uid"]).startswith(f"match-{first.pk}@"))
    assert str(event["url"]) == "https://league.example" + reverse("matches:match", args=[first.pk])
    last_change = Match.history.filter(id=first.pk).latest("history_date").history_date
    assert event.decoded("dtstamp") == last_change.replace(microsecond=0) != event.decoded("dtstart")
    parsed = vobject.readOne(body.decode())
    by_uid = {e.uid.value: e for e in parsed.vevent_list}
    assert by_uid[str(event["uid"])].url.value == str(event["url"])


def test_a_postponement_keeps_the_uid_and_raises_the_sequence_and_the_stamp(client, fixtures_):
    first, _second = fixtures_
    url = reverse("matches:team-calendar", args=[first.home.pk])

    def event_of_first():
        body = client.get(url).content
        found = [e for e in vobject.readOne(body.decode()).vevent_list if e.uid.value.startswith(f"match-{first.pk}@")]
        return found[0]

    before = event_of_first()
    assert int(before.sequence.value) == 0
    Match.objects.get(pk=first.pk).save()  # a save that moves nothing: no new revision for the calendar
    assert int(event_of_first().sequence.value) == 0
    with time_machine.travel(timezone.now() + dt.timedelta(hours=2)):  # the official moves it later that day
        fixture_changes.fixture_reschedule(match=Match.objects.get(pk=first.pk), venue="Bonteheuwel Hall",
                                    scheduled_start=first.scheduled_start + dt.timedelta(days=14),
                                    reason="Hall flooded")
    after = event_of_first()
    assert after.uid.value == before.uid.value
    assert int(after.sequence.value) == 1 and after.location.value == "Bonteheuwel Hall"
    assert after.dtstamp.value > before.dtstamp.value
    assert after.dtstart.value == first.scheduled_start + dt.timedelta(days=14)


def test_the_pages_offer_webcal_subscriptions_beside_the_downloads(client, fixtures_):
    first, _second = fixtures_
    team = TeamFactory(competition=first.competition)
    page = client.get(reverse("matches:competition", args=[first.competition.pk])).content.decode()
    feed = reverse("matches:competition-calendar", args=[first.competition.pk])
    assert f'href="webcal://league.example{feed}"' in page and f'href="{feed}"' in page
    team_page = client.get(reverse("records:team", args=[team.pk])).content.decode()
    team_feed = reverse("matches:team-calendar", args=[team.pk])
    assert f'href="webcal://league.example{team_feed}"' in team_page and f'href="{team_feed}"' in team_page

"""The fixtures as iCalendar feeds, and the captains' reminders (each sent once however often beat runs)."""

import datetime as dt

import pytest
from django.conf import settings
from icalendar import Calendar

from matches.models import Match
from matches.notifications import captain_reminders
from matches.results import services as result_services
from tests.factories import MatchFactory, TeamFactory, UserFactory, sheet_for

pytestmark = pytest.mark.django_db


def test_the_team_feed_parses_and_holds_each_of_its_fixtures_once(client):
    first = MatchFactory(home__name="Athlone Aces", away__name="Bonteheuwel Boere", venue="Athlone Civic Centre")
    second = MatchFactory(competition=first.competition, home=first.away, away=first.home,
                          scheduled_start=first.scheduled_start + dt.timedelta(days=7))
    elsewhere = MatchFactory(competition=first.competition, home=TeamFactory(competition=first.competition),
                             away=TeamFactory(competition=first.competition))
    response = client.get(f"/teams/{first.home.pk}/calendar.ics")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    events = Calendar.from_ical(response.content).walk("VEVENT")
    assert [str(e["summary"]) for e in events] == [
        "Athlone Aces v Bonteheuwel Boere", "Bonteheuwel Boere v Athlone Aces"]
    assert [e.decoded("dtstart") for e in events] == [first.scheduled_start, second.scheduled_start]
    assert events[0].decoded("dtend") - events[0].decoded("dtstart") == dt.timedelta(hours=2, minutes=40)
    assert str(events[0]["location"]) == "Athlone Civic Centre"
    whole = Calendar.from_ical(client.get(f"/competitions/{first.competition.pk}/calendar.ics").content)
    uids = {str(e["uid"]) for e in whole.walk("VEVENT")}
    assert uids == {f"match-{m.pk}@{settings.CALENDAR_UID_DOMAIN}" for m in (first, second, elsewhere)}


def test_a_moved_fixture_keeps_its_uid_with_a_higher_sequence(client):
    match = MatchFactory()
    url = f"/competitions/{match.competition.pk}/calendar.ics"
    before = Calendar.from_ical(client.get(url).content).walk("VEVENT")[0]
    match.scheduled_start += dt.timedelta(days=1)
    match.save()
    after = Calendar.from_ical(client.get(url).content).walk("VEVENT")[0]
    assert str(after["uid"]) == str(before["uid"])
    assert int(after["sequence"]) == int(before["sequence"]) + 1


def _captained(team, email):
    team.captain.user = UserFactory(email=email)
    team.captain.save()


def test_captains_are_reminded_once_of_a_missing_sheet_and_an_unconfirmed_result(mailoutbox):
    now = dt.datetime(2026, 3, 3, 12, 0, tzinfo=dt.UTC)  # the played night is past: a result is entered after it
    coming = MatchFactory(scheduled_start=now + dt.timedelta(hours=20))
    _captained(coming.home, "home@example.org")
    _captained(coming.away, "away@example.org")
    sheet_for(coming, coming.home)  # the home sheet is in: only the away captain is chased
    later = MatchFactory(scheduled_start=now + dt.timedelta(days=3))
    _captained(later.home, "later@example.org")
    played = MatchFactory(scheduled_start=now - dt.timedelta(days=2))
    result_services.result_enter(match=played, home_score=30, away_score=12, reason="paper sheet")
    Match.objects.filter(pk=played.pk).update(finished_at=now - dt.timedelta(hours=30))
    _captained(played.home, "played-home@example.org")
    _captained(played.away, "played-away@example.org")
    played.refresh_from_db()
    result_services.result_confirm(match=played, user=played.home.captain.user)

    assert captain_reminders(now.isoformat()) == 2
    assert captain_reminders(now.isoformat()) == 0  # beat ran twice: nothing twice
    assert sorted((m.to[0], m.subject.split(":")[0]) for m in mailoutbox) == [
        ("away@example.org", "Team sheet due"), ("played-away@example.org", "Result to confirm")]

"""Fixtures postponed or moved with a reason, no round on a blackout date, no result before the night (issue 33)."""

from __future__ import annotations

import datetime as dt
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import UnionReferee
from matches import services
from matches.forms import FixturesForm
from matches.models import Match
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory, UserFactory
from tests.people import captain_accounts, union_official

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_at_once")]


@pytest.fixture
def fixture():
    """A fixture a week away, both captains with accounts, a referee assigned from the union's list."""
    competition = CompetitionFactory(name="Cape Flats League")
    home = TeamFactory(competition=competition, name="Athlone Aces")
    away = TeamFactory(competition=competition, name="Mitchells Plain Manels", club__union=competition.union)
    captain_accounts({"captain": home, "captain2": away}, password="klawerjas-test")
    referee = UserFactory(username="yusuf", first_name="Yusuf", last_name="Isaacs", email="yusuf@example.org")
    UnionReferee.objects.create(union=competition.union, user=referee)
    start = timezone.localtime().replace(hour=19, minute=30, second=0, microsecond=0) + timedelta(days=7)
    return MatchFactory(competition=competition, home=home, away=away, scheduled_start=start, referee=referee,
                        venue="Athlone Civic Centre")


def test_a_fixture_moves_with_its_reason_kept_and_everyone_told_once(fixture, mailoutbox):
    old = fixture.scheduled_start
    new = old + timedelta(days=7)
    services.fixture_reschedule(match=fixture, scheduled_start=new, venue="Bonteheuwel Hall",
                                reason="The hall is booked for a wedding.")
    fixture.refresh_from_db()
    assert (fixture.scheduled_start, fixture.venue) == (new, "Bonteheuwel Hall")
    moved, before = fixture.history.order_by("-history_id")[:2]
    assert moved.history_change_reason == "The hall is booked for a wedding."
    assert (before.scheduled_start, before.venue) == (old, "Athlone Civic Centre")
    moved_mails = [m for m in mailoutbox if m.subject.startswith("Fixture moved")]
    recipients = sorted(address for m in moved_mails for address in m.to)
    assert recipients == sorted(["captain@example.org", "captain2@example.org", "yusuf@example.org"])
    body = moved_mails[0].body
    assert "Athlone Aces v Mitchells Plain Manels" in body and "wedding" in body and "Bonteheuwel Hall" in body
    from matches.notifications import fixture_moved_email

    change = fixture.history.latest("history_id").history_id
    assert fixture_moved_email(fixture.pk, change, old.isoformat(), "Athlone Civic Centre", "again") == 0


@pytest.mark.parametrize(("change", "field"), [
    ({"reason": "  "}, "reason"),
    ({"scheduled_start": "past"}, "scheduled_start"),
    ({"scheduled_start": "same", "venue": "Athlone Civic Centre"}, "scheduled_start"),
])
def test_a_bad_move_is_refused_and_nothing_changes(fixture, mailoutbox, change, field):
    data = {"scheduled_start": fixture.scheduled_start + timedelta(days=1), "venue": "Athlone Civic Centre",
            "reason": "Rain.", **change}
    if data["scheduled_start"] == "past":
        data["scheduled_start"] = timezone.now() - timedelta(hours=1)
    elif data["scheduled_start"] == "same":
        data["scheduled_start"] = fixture.scheduled_start
    before = fixture.scheduled_start
    with pytest.raises(ValidationError) as refused:
        services.fixture_reschedule(match=fixture, **data)
    assert field in refused.value.message_dict
    fixture.refresh_from_db()
    assert fixture.scheduled_start == before and mailoutbox == []


def test_a_night_that_has_begun_cannot_move(fixture):
    Match.objects.filter(pk=fixture.pk).update(phase=Match.Phase.FIRST_HALF)
    fixture.refresh_from_db()
    with pytest.raises(ValidationError, match="cannot move"):
        services.fixture_reschedule(match=fixture, scheduled_start=fixture.scheduled_start + timedelta(days=2),
                                    venue="", reason="Rain.")


def test_the_calendar_feed_moves_the_event(client, fixture):
    services.fixture_reschedule(match=fixture, scheduled_start=fixture.scheduled_start + timedelta(days=7),
                                venue=fixture.venue, reason="Rain.")
    fixture.refresh_from_db()
    feed = client.get(f"/competitions/{fixture.competition_id}/calendar.ics").content.decode()
    assert fixture.scheduled_start.astimezone(dt.UTC).strftime("DTSTART:%Y%m%dT%H%M%SZ") in feed
    assert "SEQUENCE:1" in feed


def test_the_official_moves_a_fixture_on_its_page(client, fixture, mailoutbox):
    client.force_login(union_official(fixture.competition.union))
    new = timezone.localtime(fixture.scheduled_start).date() + timedelta(days=7)
    page = client.post(f"/official/matches/{fixture.pk}/", {
        "action": "reschedule", "date": new.isoformat(), "time": "19:30", "venue": "Bonteheuwel Hall",
        "reason": "The hall is booked."}, follow=True)
    assert "is now on" in page.content.decode()
    fixture.refresh_from_db()
    assert timezone.localtime(fixture.scheduled_start).date() == new
    refused = client.post(f"/official/matches/{fixture.pk}/", {
        "action": "reschedule", "date": new.isoformat(), "time": "19:30", "venue": "Bonteheuwel Hall",
        "reason": ""})
    assert refused.status_code == 200 and "This field is required" in refused.content.decode()


def test_the_api_patches_a_fixture_for_its_unions_official_only(fixture):
    api = APIClient()
    new = (fixture.scheduled_start + timedelta(days=7)).isoformat()
    api.force_authenticate(union_official(CompetitionFactory().union, username="other"))
    assert api.patch(f"/api/fixtures/{fixture.pk}/", {"scheduled_start": new, "reason": "x"},
                     format="json").status_code == 404
    api.force_authenticate(union_official(fixture.competition.union))
    assert api.patch(f"/api/fixtures/{fixture.pk}/", {"scheduled_start": new}, format="json").status_code == 400
    answer = api.patch(f"/api/fixtures/{fixture.pk}/", {"scheduled_start": new, "reason": "Rain."}, format="json")
    assert answer.status_code == 200
    fixture.refresh_from_db()
    assert fixture.scheduled_start == dt.datetime.fromisoformat(new)


def test_no_round_lands_on_a_blackout_date():
    competition = CompetitionFactory(entries_open=False)
    teams = [TeamFactory(competition=competition, club__union=competition.union) for _ in range(4)]
    assert len(teams) == 4
    start = dt.date(2026, 12, 11)  # weekly: 18 Dec, 25 Dec, 1 Jan, 8 Jan ... without blackouts
    blackouts = [dt.date(2026, 12, 25), dt.date(2027, 1, 1)]
    created = services.competition_fixtures_create(competition=competition, start=start, blackout_dates=blackouts)
    nights = sorted({timezone.localtime(m.scheduled_start).date() for m in created})
    assert not set(nights) & set(blackouts)
    assert nights[:4] == [dt.date(2026, 12, 11), dt.date(2026, 12, 18), dt.date(2027, 1, 8), dt.date(2027, 1, 15)]


def test_the_form_offers_south_africas_holidays_and_refuses_a_bad_date():
    form = FixturesForm(today=dt.date(2026, 11, 28))
    offered = form.initial["blackout_dates"]
    assert "2026-12-16" in offered and "2026-12-25" in offered and "2027-01-01" in offered
    bad = FixturesForm({"start": "2026-12-04", "kickoff": "19:30", "days_between_rounds": 7,
                        "blackout_dates": "2026-12-25\n25 Dec"})
    assert not bad.is_valid() and "25 is not a date" in bad.errors["blackout_dates"][0]
    good = FixturesForm({"start": "2026-12-04", "kickoff": "19:30", "days_between_rounds": 7,
                         "blackout_dates": "2026-12-25  Christmas Day, 2027-01-01"})
    assert good.is_valid() and good.cleaned_data["blackout_dates"] == [dt.date(2026, 12, 25), dt.date(2027, 1, 1)]


def test_no_result_before_the_night_has_come(fixture):
    official = union_official(fixture.competition.union)
    with pytest.raises(ValidationError, match="its result can be entered from that night"):
        services.result_correct(match=fixture, user=official, home_score=30, away_score=20, reason="paper sheet")
    fixture.refresh_from_db()
    assert fixture.result_status == Match.ResultStatus.NONE
    Match.objects.filter(pk=fixture.pk).update(scheduled_start=timezone.now() - timedelta(hours=3))
    fixture.refresh_from_db()
    services.result_correct(match=fixture, user=official, home_score=30, away_score=20, reason="paper sheet")
    fixture.refresh_from_db()
    assert (fixture.home_score, fixture.result_status) == (30, Match.ResultStatus.CONFIRMED)

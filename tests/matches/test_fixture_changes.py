"""A fixture postponed or moved (issue 33): the service's refusals, the history, the e-mail once to captains, referee
and marker, the calendar feeds and public pages; the official's page and ``PATCH /api/fixtures/{id}/``; blackout
dates when the fixtures are made; and no result before the match night."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar
from rest_framework.test import APIClient

from clubs.models import GROUP_UNION_OFFICIALS
from matches.competitions import fixture_changes
from matches.competitions import services as competition_services
from matches.competitions.fixtures import blackout_dates_hit, blackout_dates_parse, south_african_public_holidays
from matches.forms import FixturesForm
from matches.models import Match
from matches.notifications import fixture_rescheduled_email
from matches.results import services as result_services
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory, UserFactory
from tests.people import in_group, union_official

pytestmark = pytest.mark.django_db

SAST = ZoneInfo("Africa/Johannesburg")
NOW = dt.datetime(2026, 11, 28, 9, 0, tzinfo=SAST)
FIRST = dt.datetime(2026, 12, 4, 19, 30, tzinfo=SAST)
MOVED = dt.datetime(2026, 12, 11, 20, 0, tzinfo=SAST)


def _people(match: Match) -> dict[str, object]:
    """Accounts with addresses for both captains, the referee and a marker."""
    for team, email in ((match.home, "home.captain@example.org"), (match.away, "away.captain@example.org")):
        team.captain.user = UserFactory(email=email)
        team.captain.save()
    match.referee = UserFactory(email="referee@example.org")
    match.marker = UserFactory(email="marker@example.org")
    match.save()
    return {"official": union_official(match.competition.union, first_name="Fatima", last_name="Abrahams")}


@pytest.fixture
def fixture():
    return MatchFactory(scheduled_start=FIRST, venue="Athlone Civic Centre",
                        home__name="Athlone Aces", away__name="Bonteheuwel Boere")


# --- The service -------------------------------------------------------------------------------------------


def test_a_fixture_is_moved_and_its_history_keeps_the_old_date_venue_reason_and_who(fixture):
    official = union_official(fixture.competition.union)
    fixture_changes.fixture_reschedule(match=fixture, scheduled_start=MOVED, venue="Hanover Park Hall",
                                reason="Hall booked for a funeral", by=official, now=NOW)
    fixture.refresh_from_db()
    assert (fixture.scheduled_start, fixture.venue) == (MOVED, "Hanover Park Hall")
    latest = fixture.history.order_by("-history_id").first()
    assert (latest.history_change_reason, latest.history_user) == ("Hall booked for a funeral", official)
    before = latest.prev_record
    assert (before.scheduled_start, before.venue) == (FIRST, "Athlone Civic Centre")


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"reason": "  "}, "reason", "Say why"),
    ({"scheduled_start": NOW - dt.timedelta(hours=1)}, "scheduled_start", "in the past"),
    ({"venue": "x" * 161}, "venue", "160 characters"),
])
def test_a_move_without_reason_into_the_past_or_with_a_venue_too_long_is_refused_by_field(fixture, changes, field,
                                                                                          words):
    values = {"scheduled_start": MOVED, "venue": "Hall", "reason": "rain", **changes}
    with pytest.raises(ValidationError) as refused:
        fixture_changes.fixture_reschedule(match=fixture, now=NOW, **values)
    assert words in refused.value.message_dict[field][0]
    fixture.refresh_from_db()
    assert fixture.scheduled_start == FIRST


def test_a_move_that_changes_nothing_is_refused(fixture):
    with pytest.raises(ValidationError, match="already on"):
        fixture_changes.fixture_reschedule(match=fixture, scheduled_start=FIRST, venue="Athlone Civic Centre",
                                    reason="just because", now=NOW)
    assert fixture.history.count() == 1


@pytest.mark.parametrize("phase", [Match.Phase.FIRST_HALF, Match.Phase.INTERVAL, Match.Phase.FINISHED])
def test_a_match_begun_or_played_is_not_moved(fixture, phase):
    Match.objects.filter(pk=fixture.pk).update(phase=phase)
    with pytest.raises(ValidationError, match="begun or been played"):
        fixture_changes.fixture_reschedule(match=fixture, scheduled_start=MOVED, venue="Hall", reason="rain", now=NOW)
    assert Match.objects.get(pk=fixture.pk).scheduled_start == FIRST


def test_captains_referee_and_marker_are_told_once_with_the_old_and_new_date_venue_and_reason(
        fixture, mailoutbox, django_capture_on_commit_callbacks):
    official = _people(fixture)["official"]
    with django_capture_on_commit_callbacks(execute=True):
        fixture_changes.fixture_reschedule(match=fixture, scheduled_start=MOVED, venue="Hanover Park Hall",
                                    reason="Hall booked for a funeral", by=official, now=NOW)
    assert sorted(m.to[0] for m in mailoutbox) == [
        "away.captain@example.org", "home.captain@example.org", "marker@example.org", "referee@example.org"]
    mail = mailoutbox[0]
    assert "Athlone Aces v Bonteheuwel Boere" in mail.subject and "11 Dec 2026 20:00" in mail.subject
    for words in ("Friday 4 December 2026, 19:30", "Athlone Civic Centre", "Friday 11 December 2026, 20:00",
                  "Hanover Park Hall", "Hall booked for a funeral", "Fatima Abrahams"):
        assert words in mail.body
    change = fixture.history.order_by("-history_id").first()
    assert fixture_rescheduled_email(fixture.pk, change.history_id, "Hall booked for a funeral") == 0  # twice: none
    assert len(mailoutbox) == 4


def test_each_move_is_a_new_e_mail(fixture, mailoutbox, django_capture_on_commit_callbacks):
    _people(fixture)
    with django_capture_on_commit_callbacks(execute=True):
        fixture_changes.fixture_reschedule(match=fixture, scheduled_start=MOVED, venue="Hall", reason="rain", now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        fixture_changes.fixture_reschedule(match=fixture, scheduled_start=MOVED, venue="Other hall", reason="roof",
                                           now=NOW)
    assert len(mailoutbox) == 8
    assert "Other hall" in mailoutbox[-1].body and "roof" in mailoutbox[-1].body


def test_the_calendar_event_moves_in_place_with_a_higher_sequence(fixture, client):
    url = f"/competitions/{fixture.competition.pk}/calendar.ics"
    before = Calendar.from_ical(client.get(url).content).walk("VEVENT")[0]
    fixture_changes.fixture_reschedule(match=fixture, scheduled_start=MOVED, venue="Hanover Park Hall", reason="rain",
                                now=NOW)
    team_feed = Calendar.from_ical(client.get(f"/teams/{fixture.home.pk}/calendar.ics").content)
    for after in (Calendar.from_ical(client.get(url).content).walk("VEVENT")[0], team_feed.walk("VEVENT")[0]):
        assert str(after["uid"]) == str(before["uid"])
        assert after.decoded("dtstart") == MOVED
        assert after.decoded("dtend") == MOVED + dt.timedelta(hours=2, minutes=40)
        assert str(after["location"]) == "Hanover Park Hall"
        assert int(after["sequence"]) == int(before["sequence"]) + 1
        assert after.decoded("last-modified") >= before.decoded("last-modified")


def test_the_public_fixtures_and_match_pages_show_the_new_date(fixture, client, django_capture_on_commit_callbacks):
    competition_url = reverse("matches:competition", args=[fixture.competition.pk])
    match_url = reverse("matches:match", args=[fixture.pk])
    assert "4 Dec" in client.get(competition_url).content.decode()  # now kept in the page cache
    client.get(match_url)
    with django_capture_on_commit_callbacks(execute=True):  # the pages' token is renewed once the move commits
        fixture_changes.fixture_reschedule(match=fixture, scheduled_start=MOVED, venue="Hanover Park Hall",
                                           reason="rain",
                                    now=NOW)
    page = client.get(competition_url).content.decode()
    assert "11 Dec, 20:00" in page and "Hanover Park Hall" in page and "4 Dec" not in page
    assert "Hanover Park Hall" in client.get(match_url).content.decode()


# --- The official's page -----------------------------------------------------------------------------------


def test_the_official_moves_a_fixture_from_its_page(fixture, client):
    official = _people(fixture)["official"]
    client.force_login(official)
    url = reverse("matches:official-match", args=[fixture.pk])
    page = client.get(url).content.decode()
    assert "Postpone or reschedule" in page and 'value="reschedule"' in page
    assert 'name="date"' in page and 'type="date"' in page and 'name="time"' in page
    assert 'value="Athlone Civic Centre"' in page and 'value="2026-12-04"' in page and 'value="19:30"' in page
    assert ">Reschedule</button>" in page
    day = timezone.localdate() + dt.timedelta(days=45)
    response = client.post(url, {"action": "reschedule", "date": day.isoformat(), "time": "19:00",
                                 "venue": "Hanover Park Hall", "reason": "Hall booked"}, follow=True)
    text = response.content.decode()
    assert (f"Athlone Aces v Bonteheuwel Boere is moved to {day:%A} {day.day} {day:%B} {day.year}, 19:00 at "
            "Hanover Park Hall") in text
    fixture.refresh_from_db()
    assert fixture.scheduled_start == dt.datetime.combine(day, dt.time(19, 0), tzinfo=SAST)
    assert "Hall booked" in text  # the history on the page


def test_the_page_shows_a_refusal_and_keeps_what_was_typed(fixture, client):
    official = union_official(fixture.competition.union)
    client.force_login(official)
    url = reverse("matches:official-match", args=[fixture.pk])
    response = client.post(url, {"action": "reschedule", "date": "2020-01-15", "time": "19:00", "venue": "Hall",
                                 "reason": "Hall booked"})
    text = response.content.decode()
    assert response.status_code == 200 and "in the past" in text and "Hall booked" in text
    fixture.refresh_from_db()
    assert fixture.scheduled_start == FIRST
    response = client.post(url, {"action": "reschedule", "date": "2099-01-15", "time": "19:00", "venue": "Hall",
                                 "reason": ""})
    assert "This field is required" in response.content.decode()


def test_the_reschedule_section_is_only_there_while_the_match_is_scheduled(fixture, client):
    client.force_login(union_official(fixture.competition.union))
    Match.objects.filter(pk=fixture.pk).update(phase=Match.Phase.FINISHED)
    page = client.get(reverse("matches:official-match", args=[fixture.pk])).content.decode()
    assert "Postpone or reschedule" not in page and 'value="reschedule"' not in page


def test_the_competition_page_links_each_fixture_to_its_official_page(fixture, client):
    client.force_login(union_official(fixture.competition.union))
    page = client.get(reverse("matches:official-competition", args=[fixture.competition.pk])).content.decode()
    assert f'href="{reverse("matches:official-match", args=[fixture.pk])}">Athlone Aces v Bonteheuwel Boere' in page


def test_another_unions_official_cannot_open_the_page(fixture, client):
    client.force_login(union_official(CompetitionFactory().union))
    url = reverse("matches:official-match", args=[fixture.pk])
    assert client.post(url, {"action": "reschedule", "date": "2027-01-15", "time": "19:00",
                             "reason": "x"}).status_code == 404
    assert Match.objects.get(pk=fixture.pk).scheduled_start == FIRST


# --- PATCH /api/fixtures/{id}/ -----------------------------------------------------------------------------


def _api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_the_api_moves_a_fixture(fixture, mailoutbox, django_capture_on_commit_callbacks):
    official = _people(fixture)["official"]
    start = (timezone.now() + dt.timedelta(days=30)).replace(microsecond=0)
    with django_capture_on_commit_callbacks(execute=True):
        response = _api(official).patch(f"/api/fixtures/{fixture.pk}/", {
            "scheduled_start": start.isoformat(), "venue": "Hanover Park Hall", "reason": "Hall booked"},
            format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["id"], body["venue"], body["home_name"]) == (fixture.pk, "Hanover Park Hall", "Athlone Aces")
    assert dt.datetime.fromisoformat(body["scheduled_start"]) == start
    assert len(mailoutbox) == 4


def test_the_api_keeps_what_is_left_out(fixture):
    official = union_official(fixture.competition.union)
    response = _api(official).patch(f"/api/fixtures/{fixture.pk}/", {"venue": "Hanover Park Hall",
                                                                      "reason": "Hall booked"}, format="json")
    assert response.status_code == 200
    fixture.refresh_from_db()
    assert (fixture.scheduled_start, fixture.venue) == (FIRST, "Hanover Park Hall")


@pytest.mark.parametrize(("body", "field"), [
    ({"venue": "Hall"}, "reason"),
    ({"scheduled_start": "2020-01-01T19:30:00+02:00", "reason": "rain"}, "scheduled_start"),
    ({"scheduled_start": "next Friday", "reason": "rain"}, "scheduled_start"),
])
def test_the_api_answers_400_with_field_messages(fixture, body, field):
    official = union_official(fixture.competition.union)
    response = _api(official).patch(f"/api/fixtures/{fixture.pk}/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_the_api_answers_400_for_a_match_begun(fixture):
    official = union_official(fixture.competition.union)
    Match.objects.filter(pk=fixture.pk).update(phase=Match.Phase.FIRST_HALF)
    response = _api(official).patch(f"/api/fixtures/{fixture.pk}/", {"venue": "Hall", "reason": "rain"},
                                    format="json")
    assert response.status_code == 400 and "begun or been played" in str(response.json())


def test_the_api_answers_404_to_anyone_but_the_unions_officials(fixture):
    others = [union_official(CompetitionFactory().union), fixture.referee, UserFactory(),
              in_group(UserFactory(), GROUP_UNION_OFFICIALS)]  # another union's, the referee, anyone, no union
    for user in others:
        response = _api(user).patch(f"/api/fixtures/{fixture.pk}/", {"venue": "Hall", "reason": "rain"},
                                    format="json")
        assert response.status_code == 404, user
    missing = _api(union_official(fixture.competition.union)).patch(
        "/api/fixtures/999999/", {"venue": "Hall", "reason": "rain"}, format="json")
    assert missing.status_code == 404
    assert _api().patch(f"/api/fixtures/{fixture.pk}/", {"venue": "Hall", "reason": "rain"},
                        format="json").status_code in (401, 403)
    assert Match.objects.get(pk=fixture.pk).venue == "Athlone Civic Centre"


def test_the_schema_documents_the_patch():
    schema = _api().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    patch = schema.json()["paths"]["/api/fixtures/{id}/"]["patch"]
    assert {"200", "400", "404"} <= set(patch["responses"])


# --- Blackout dates ----------------------------------------------------------------------------------------


def _league(teams: int = 4):
    competition = CompetitionFactory(name="Premier League")
    for n in range(teams):
        TeamFactory(competition=competition, name=f"Team {n + 1}", squad=0)
    return competition


def test_no_round_falls_on_a_blackout_date_and_later_rounds_keep_their_spacing():
    competition = _league()
    created = competition_services.competition_fixtures_create(
        competition=competition, start=dt.date(2026, 12, 18), blackout_dates=[dt.date(2026, 12, 25),
                                                                              dt.date(2027, 1, 1)])
    days = sorted({timezone.localdate(m.scheduled_start) for m in created})
    # 4 teams home and away: 6 rounds, weekly on Fridays; 25 Dec and 1 Jan are skipped, the rest follow weekly.
    assert days == [dt.date(2026, 12, 18), dt.date(2027, 1, 8), dt.date(2027, 1, 15), dt.date(2027, 1, 22),
                    dt.date(2027, 1, 29), dt.date(2027, 2, 5)]
    rounds = {m.round_number: timezone.localdate(m.scheduled_start) for m in created}
    assert rounds[1] == dt.date(2026, 12, 18) and rounds[2] == dt.date(2027, 1, 8)
    assert blackout_dates_hit(start=dt.date(2026, 12, 18), end=days[-1], days_between_rounds=7,
                              skip_dates=[dt.date(2026, 12, 25), dt.date(2027, 1, 1), dt.date(2026, 12, 26)]) == [
        dt.date(2026, 12, 25), dt.date(2027, 1, 1)]


def test_without_blackout_dates_the_season_plays_christmas():
    created = competition_services.competition_fixtures_create(competition=_league(), start=dt.date(2026, 12, 18))
    assert dt.date(2026, 12, 25) in {timezone.localdate(m.scheduled_start) for m in created}


def test_a_cups_first_round_moves_off_a_blackout_date():
    cup = CompetitionFactory(kind="knockout")
    for n in range(4):
        TeamFactory(competition=cup, seed=n + 1, squad=0)
    created = competition_services.competition_fixtures_create(competition=cup, start=dt.date(2026, 12, 25),
                                                   blackout_dates=[dt.date(2026, 12, 25)])
    assert {timezone.localdate(m.scheduled_start) for m in created} == {dt.date(2027, 1, 1)}


def test_blackout_dates_are_read_one_per_line_or_comma_separated():
    assert blackout_dates_parse("2026-12-25, 2027-01-01\n\n2026-12-16;2026-12-25") == [
        dt.date(2026, 12, 16), dt.date(2026, 12, 25), dt.date(2027, 1, 1)]


@pytest.mark.parametrize("bad", ["25/12/2026", "2026-02-30", "Christmas"])
def test_a_bad_blackout_entry_is_refused_by_name(bad):
    form = FixturesForm({"start": "2026-12-18", "kickoff": "19:30", "days_between_rounds": 7,
                         "blackout_dates": f"2026-12-25\n{bad}"})
    assert not form.is_valid()
    assert f"“{bad}” is not a date" in form.errors["blackout_dates"][0]


def test_the_form_offers_south_africas_public_holidays_of_the_coming_year():
    initial = FixturesForm(today=dt.date(2026, 11, 28)).initial["blackout_dates"].split("\n")
    for day in ("2026-12-16", "2026-12-25", "2026-12-26", "2027-01-01", "2027-04-27", "2027-09-24"):
        assert day in initial
    assert "2026-11-04" not in initial and "2027-12-25" not in initial  # before today, after 12 months


def test_the_page_makes_the_fixtures_around_blackout_dates_and_says_which(client):
    competition = _league()
    client.force_login(union_official(competition.union))
    url = reverse("matches:official-competition", args=[competition.pk])
    page = client.get(url).content.decode()
    christmas = next(d for d in south_african_public_holidays(start=timezone.localdate())
                     if (d.month, d.day) == (12, 25))
    assert 'name="blackout_dates"' in page and christmas.isoformat() in page
    response = client.post(url, {"action": "fixtures", "start": "2026-12-18", "kickoff": "19:30",
                                 "days_between_rounds": 7, "home_and_away": "on",
                                 "blackout_dates": "2026-12-25\n2026-12-26, 2027-01-01"}, follow=True)
    text = response.content.decode()
    assert "12 fixtures scheduled" in text  # 4 teams home and away
    assert "No round is played on the blackout dates 25 December 2026, 1 January 2027." in text
    assert not competition.matches.filter(scheduled_start__date__in=[dt.date(2026, 12, 25), dt.date(2027, 1, 1)])


def test_the_page_refuses_a_bad_blackout_entry_naming_it(client):
    competition = _league()
    client.force_login(union_official(competition.union))
    response = client.post(reverse("matches:official-competition", args=[competition.pk]), {
        "action": "fixtures", "start": "2026-12-18", "kickoff": "19:30", "days_between_rounds": 7,
        "blackout_dates": "2026-12-25, 1 Jan 2027"})
    assert "“1 Jan 2027” is not a date" in response.content.decode()
    assert not competition.matches.exists()


def test_the_api_takes_blackout_dates_and_refuses_a_bad_one():
    competition = _league()
    official = union_official(competition.union)
    bad = _api(official).post(f"/api/competitions/{competition.pk}/fixtures/", {
        "start": "2026-12-18", "blackout_dates": ["2026-12-25", "25/12/2026"]}, format="json")
    assert bad.status_code == 400 and "blackout_dates" in bad.json()
    response = _api(official).post(f"/api/competitions/{competition.pk}/fixtures/", {
        "start": "2026-12-18", "blackout_dates": ["2026-12-25", "2027-01-01"]}, format="json")
    assert response.status_code == 201
    days = {dt.datetime.fromisoformat(f["scheduled_start"]).astimezone(SAST).date() for f in response.json()}
    assert dt.date(2026, 12, 25) not in days and dt.date(2027, 1, 1) not in days and dt.date(2027, 1, 8) in days


# --- No result before the match night ----------------------------------------------------------------------


def test_a_result_is_refused_before_the_night_and_entered_from_that_night(fixture):
    official = union_official(fixture.competition.union)
    day_before = dt.datetime(2026, 12, 3, 23, 30, tzinfo=SAST)  # 21:30 UTC: still the 3rd in Johannesburg
    with pytest.raises(ValidationError) as refused:
        result_services.result_correct(match=fixture, user=official, home_score=30, away_score=12, reason="paper sheet",
                                now=day_before)
    assert refused.value.messages == [
        "The match night of Athlone Aces v Bonteheuwel Boere is on 4 December 2026: its result can be entered "
        "from that night."]
    assert Match.objects.get(pk=fixture.pk).result_status == Match.ResultStatus.NONE
    morning = dt.datetime(2026, 12, 4, 0, 30, tzinfo=SAST)
    result_services.result_correct(match=fixture, user=official, home_score=30, away_score=12,
                                   reason="walk-over agreed",
                            now=morning)
    assert Match.objects.get(pk=fixture.pk).result_status == Match.ResultStatus.CONFIRMED


def test_a_result_is_entered_after_the_night(fixture):
    official = union_official(fixture.competition.union)
    result_services.result_correct(match=fixture, user=official, home_score=30, away_score=12, reason="paper sheet",
                            now=FIRST + dt.timedelta(days=3))
    assert Match.objects.get(pk=fixture.pk).home_score == 30


def test_the_api_and_the_page_refuse_a_result_before_the_night(client):
    match = MatchFactory(scheduled_start=timezone.now() + dt.timedelta(days=3), home__name="Athlone Aces",
                         away__name="Bonteheuwel Boere")
    official = union_official(match.competition.union)
    response = _api(official).post(f"/api/fixtures/{match.pk}/result/", {
        "home_score": 30, "away_score": 12, "reason": "paper sheet"}, format="json")
    assert response.status_code == 400
    assert "The match night of Athlone Aces v Bonteheuwel Boere is on" in str(response.json())
    client.force_login(official)
    url = reverse("matches:official-match", args=[match.pk])
    page = client.get(url).content.decode()
    assert "its result can be entered from that night" in page and 'value="correct"' not in page
    refused = client.post(url, {"action": "correct", "home_score": 30, "away_score": 12, "reason": "x"})
    assert "its result can be entered from that night" in refused.content.decode()
    assert Match.objects.get(pk=match.pk).result_status == Match.ResultStatus.NONE

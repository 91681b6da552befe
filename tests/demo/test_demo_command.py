"""``manage.py demo_season``: the same seed plays the same season; a second run refuses politely."""

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction

from demo.season import DEMO_PASSWORD
from matches.models import BoemEntry, Match, PlayedHand

pytestmark = pytest.mark.django_db


def _fingerprint():
    return (
        json.dumps([h.record for h in PlayedHand.objects.order_by("played_at", "table__number")]),
        list(BoemEntry.objects.order_by("recorded_at", "boem__table__number", "sequence")
             .values_list("kind", "team__name", "strokes", "points")),
        list(Match.objects.order_by("scheduled_start", "home__name").values_list("home_score", "away_score")),
    )


def test_the_same_seed_plays_the_same_season_and_the_command_refuses_a_second_one():
    prints = []
    for _ in range(2):
        with transaction.atomic():
            out = StringIO()
            call_command("demo_season", "--clubs", "2", "--size", "small", "--seed", "11", "--quiet", stdout=out)
            prints.append(_fingerprint())
            assert "Demo season played" in out.getvalue() and DEMO_PASSWORD in out.getvalue()
            again = StringIO()
            call_command("demo_season", "--clubs", "2", "--size", "small", "--quiet", stdout=again)
            assert "already in the database" in again.getvalue() and "captain" in again.getvalue()
            transaction.set_rollback(True)
    assert prints[0] == prints[1] and len(json.loads(prints[0][0])) > 50


def test_the_demo_leaves_tonights_match_in_progress_with_its_table_links_printed():
    from matches.models import TableLink
    from matches.night.table_links import code_display

    out = StringIO()
    call_command("demo_season", "--clubs", "2", "--size", "small", "--quiet", "--site", "http://hall:8000",
                 stdout=out)
    tonight = Match.objects.get(round_name="Tonight")
    assert tonight.phase == Match.Phase.FIRST_HALF and tonight.referee.username == "referee"
    links = TableLink.objects.filter(match=tonight, revoked_at__isnull=True).order_by("table_number")
    assert [link.table_number for link in links] == [1, 2, 3, 4]
    for link in links:  # each table's code and QR address, for a newcomer to open a table on a phone
        assert f"table {link.table_number}: {code_display(link.code)}" in out.getvalue()
        assert f"http://hall:8000/table/t/{link.secret}/" in out.getvalue()
    again = StringIO()
    call_command("demo_season", "--quiet", stdout=again)
    assert Match.objects.filter(round_name="Tonight").count() == 1  # the same match, still in progress
    assert code_display(links[0].code) in again.getvalue()


def test_tonights_match_is_a_short_practice_night_said_on_the_console():
    """Issue 34: a newcomer plays tonight's whole match in about 20 minutes; the season keeps the union's lengths."""
    from demo.season import TONIGHT_HALF_MINUTES, TONIGHT_INTERVAL_MINUTES
    from matches.selectors import clock_deadlines, match_clock_lengths

    out = StringIO()
    call_command("demo_season", "--clubs", "2", "--size", "small", "--quiet", stdout=out)
    tonight = Match.objects.get(round_name="Tonight")
    lengths = match_clock_lengths(tonight)
    assert (lengths.half_minutes, lengths.interval_minutes) == (TONIGHT_HALF_MINUTES, TONIGHT_INTERVAL_MINUTES)
    assert 2 * lengths.half_minutes + lengths.interval_minutes <= 22
    deadlines = clock_deadlines(tonight)
    first_half = deadlines["first_half_ends_at"] - tonight.first_half_started_at
    assert first_half.total_seconds() == 60 * TONIGHT_HALF_MINUTES
    league_match = Match.objects.exclude(round_name="Tonight").first()
    union_half = tonight.competition.union.half_minutes
    assert match_clock_lengths(league_match).half_minutes == union_half > TONIGHT_HALF_MINUTES
    assert f"two halves of {TONIGHT_HALF_MINUTES} minutes" in out.getvalue()


def test_the_demo_says_who_captains_tonights_two_teams_and_who_referees_with_their_accounts():
    out = StringIO()
    call_command("demo_season", "--clubs", "2", "--size", "small", "--quiet", stdout=out)
    printed = out.getvalue()
    tonight = Match.objects.select_related("home__captain__user", "away__captain__user", "referee").get(
        round_name="Tonight")
    said = printed[printed.index("Tonight's captains and referee"):]
    assert DEMO_PASSWORD in said.splitlines()[0]
    for team in (tonight.home, tonight.away):
        username, name = team.captain.user.username, team.captain.full_name
        assert re.search(rf"^  {re.escape(username)} +{re.escape(name)} +captain of {re.escape(team.name)}$", said,
                         re.MULTILINE), said
    assert re.search(rf"^  referee +{re.escape(tonight.referee.get_full_name())} +referee of tonight's match$", said,
                     re.MULTILINE), said
    again = StringIO()  # a second `make demo` says it again for the match still in progress
    call_command("demo_season", "--quiet", stdout=again)
    assert f"captain of {tonight.home.name}" in again.getvalue()

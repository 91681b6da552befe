"""The live pages, second pass (issue 34): a message that a write leaves for the next page is always shown (no
conditional response hides it), and the live clock says whole seconds.

The live pages answer a phone holding the current ETag with ``304 Not Modified`` (or ``204 No Content`` to an
htmx poll, which then swaps nothing). A refusal changes nothing of the night, so the tag stays the same; the
browser sends it back when the redirect brings the reader to the page, and a 304 made it show the page it kept,
without the message. A request with a message waiting gets no ETag and the whole page
(``plumbing.page_cache.page_tag``); the page its message is shown on has no tag either, so a later
revalidation never shows the message again. A live part's tag is its own: the referee's dashboard polls its own
address, and the browser must never be told that the page it kept is the part, or the part the page.
"""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from matches.models import MatchTable
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from tests.factories import match_with_sheets
from tests.referee.conftest import match_night, referee  # noqa: F401 - fixtures
from tests.tables.conftest import links, playing  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ref_client(client, referee):  # noqa: F811
    client.force_login(referee)
    return client


def test_a_refused_clock_action_is_shown_though_the_dashboard_kept_its_tag(ref_client, match_night):  # noqa: F811
    url = reverse("referee:dashboard", args=[match_night.pk])
    table_links.table_links_ensure(match=match_night)  # issued at the first visit, long before
    shown = ref_client.get(url)
    assert shown.status_code == 200 and shown["ETag"]
    assert ref_client.get(url, HTTP_IF_NONE_MATCH=shown["ETag"]).status_code == 304  # nothing changed

    ref_client.post(reverse("referee:clock", args=[match_night.pk, "interval"]))  # too early: refused
    match_night.refresh_from_db()
    assert match_night.phase == "first_half"
    poll = ref_client.get(url, HTTP_IF_NONE_MATCH=shown["ETag"], **HX)  # a poll before the page: not a 204
    assert poll.status_code == 200 and not poll.has_header("ETag")
    page = ref_client.get(url, HTTP_IF_NONE_MATCH=shown["ETag"])  # the redirect, with the tag the browser kept
    html = page.content.decode()
    assert page.status_code == 200 and not page.has_header("ETag")
    assert '<ul class="messages"><li class="error">' in html and "SAKBOC 1.2" in html

    # Shown once: the next read is conditional again, and the message is gone.
    again = ref_client.get(url, HTTP_IF_NONE_MATCH=shown["ETag"])
    assert again.status_code == 304 and again["ETag"] == shown["ETag"]
    assert 'class="messages"' not in ref_client.get(url).content.decode()


def test_the_dashboards_live_part_has_its_own_tag_and_an_unchanged_poll_swaps_nothing(ref_client, match_night):  # noqa: F811
    url = reverse("referee:dashboard", args=[match_night.pk])
    table_links.table_links_ensure(match=match_night)
    page = ref_client.get(url)
    part = ref_client.get(url, HTTP_IF_NONE_MATCH=page["ETag"], **HX)  # the browser revalidates the page it kept
    assert part.status_code == 200 and "<html" not in part.content.decode() and "table-card" in part.content.decode()
    assert part["ETag"] != page["ETag"] and "HX-Request" in part["Vary"] and "HX-Request" in page["Vary"]
    unchanged = ref_client.get(url, HTTP_IF_NONE_MATCH=part["ETag"], **HX)
    assert unchanged.status_code == 204 and unchanged.content == b"" and unchanged["ETag"] == part["ETag"]
    full = ref_client.get(url, HTTP_IF_NONE_MATCH=part["ETag"])  # a reload after a poll: the whole page
    assert full.status_code == 200 and "<html" in full.content.decode()


def _sign_in(client, link) -> None:
    response = client.post(reverse("tables:code"), {"code": table_links.code_display(link.code).lower()})
    assert response.status_code == 302


def test_a_refusal_at_the_table_is_shown_on_the_sheet(client, playing, links):  # noqa: F811
    _sign_in(client, links[1])
    entry = boem_sheet.going_on_record(match=playing, table_number=1, team=playing.home, strokes=1,
                                       by=playing.referee, reason="paper sheet")  # confirmed at once
    live = client.get(reverse("tables:live"), **HX)
    assert live.status_code == 200 and live["ETag"]
    assert client.get(reverse("tables:live"), HTTP_IF_NONE_MATCH=live["ETag"], **HX).status_code == 204

    version = MatchTable.objects.get(match=playing, number=1).sheet_version
    refused = client.post(reverse("tables:confirm", args=[entry.pk]), {"version": version})  # settled already
    assert refused.status_code == 302
    poll = client.get(reverse("tables:live"), HTTP_IF_NONE_MATCH=live["ETag"], **HX)
    assert poll.status_code == 200 and not poll.has_header("ETag")
    page = client.get(reverse("tables:sheet"), HTTP_IF_NONE_MATCH=live["ETag"])
    html = page.content.decode()
    assert page.status_code == 200 and not page.has_header("ETag")
    assert '<ul class="messages"><li class="error">' in html and "already" in html

    assert client.get(reverse("tables:live"), HTTP_IF_NONE_MATCH=live["ETag"], **HX).status_code == 204
    assert client.get(reverse("tables:live"), HTTP_IF_NONE_MATCH=live["ETag"]).status_code == 200  # not htmx's


def test_the_live_clock_says_whole_seconds(client):
    start = timezone.now() - timedelta(minutes=1)  # started by the clock as it reads: with microseconds
    start = start.replace(microsecond=start.microsecond or 1)
    match = match_with_sheets(scheduled_start=start - timedelta(seconds=5))
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    night_clock.match_start(match=match, now=start)
    clock = client.get(f"/api/fixtures/{match.pk}/live/").json()["clock"]
    assert re.fullmatch(r"[0-9-]+T[0-9:]+(Z|[+-][0-9:]+)", clock["now"]), clock
    assert re.fullmatch(r"[0-9-]+T[0-9:]+(Z|[+-][0-9:]+)", clock["ends_at"]), clock
    real_end = start + timedelta(minutes=match.competition.union.half_minutes)
    assert timedelta(0) < parse_datetime(clock["ends_at"]) - real_end < timedelta(seconds=1)  # never earlier

    link = table_links.table_links_ensure(match=match)[0]
    client.post(reverse("tables:code"), {"code": table_links.code_display(link.code).lower()})
    as_of = re.search(r'"as_of": "([^"]*)"', client.get(reverse("tables:sheet")).content.decode()).group(1)
    assert re.fullmatch(r"[0-9-]+T[0-9:]+(Z|[+-][0-9:]+)", as_of), as_of

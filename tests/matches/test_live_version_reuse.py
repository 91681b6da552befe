"""A public poll reuses its match's live version for ``LIVE_VERSION_REUSE_SECONDS`` in the process
(``matches.night.live.live_version_polled``, ``plumbing.recent.RecentReads``; issue 40): no query and no cache
round trip for most of a night's polls, another worker's write shown within that second, the process's own write
at once, and the table's own reads always afresh."""

import pytest
from django.db.models import F
from django.urls import reverse

from matches.models import Match
from matches.night import boem_sheet
from matches.writes import LIVE_VERSIONS_POLLED
from plumbing.recent import RecentReads
from tests.tables.conftest import playing  # noqa: F401 - the fixture: a match playing now

pytestmark = pytest.mark.django_db


class Clock:
    """``time.monotonic`` for :mod:`plumbing.recent`, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr("plumbing.recent.time.monotonic", clock)
    return clock


def test_a_read_is_reused_for_its_seconds_then_read_again(clock):
    reads = []
    recent = RecentReads(lambda: 1.0)

    def read():
        reads.append(1)
        return len(reads)

    assert recent.get("a", read) == 1
    clock.now += 0.9
    assert recent.get("a", read) == 1 and len(reads) == 1
    clock.now += 0.2
    assert recent.get("a", read) == 2
    recent.forget("a")
    assert recent.get("a", read) == 3


def test_nothing_found_is_not_reused_and_zero_seconds_reads_every_time(clock):
    found = [None]
    recent = RecentReads(lambda: 1.0)
    assert recent.get(7, lambda: found[0]) is None
    found[0] = "made a moment later"
    assert recent.get(7, lambda: found[0]) == "made a moment later"
    never = RecentReads(lambda: 0)
    never.get(1, lambda: "first")
    assert never.get(1, lambda: "second") == "second"


def test_past_the_limit_everything_is_dropped(clock):
    recent = RecentReads(lambda: 60.0, limit=3)
    for key in range(3):
        recent.get(key, lambda k=key: f"v{k}")
    recent.get(3, lambda: "v3")  # the fourth key: the three kept are dropped first
    assert recent.get(0, lambda: "read again") == "read again"


@pytest.fixture
def reuse(settings, clock):
    settings.LIVE_VERSION_REUSE_SECONDS = 1.0
    return clock


def _another_workers_write(match):
    """What another worker's committed write leaves in the database: the version moved on (``match_lock``)."""
    Match.objects.filter(pk=match.pk).update(live_version=F("live_version") + 1)


def test_the_live_part_reuses_the_version_for_a_second(client, playing, reuse,  # noqa: F811
                                                        django_assert_num_queries):
    url = reverse("matches:match-live", args=[playing.pk])
    etag = client.get(url)["ETag"]
    _another_workers_write(playing)
    with django_assert_num_queries(0):  # the version reused: no query
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    reuse.now += 1.01
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_live_json_reuses_the_version_for_a_second(client, playing, reuse,  # noqa: F811
                                                        django_assert_num_queries):
    url = f"/api/fixtures/{playing.pk}/live/"
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and first.json()["version"] == playing.live_version
    _another_workers_write(playing)
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    reuse.now += 1.01
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["version"] == playing.live_version + 1


def test_this_process_shows_its_own_write_at_once(client, playing, reuse, on_commit_at_once):  # noqa: F811
    url = reverse("matches:match-live", args=[playing.pk])
    etag = client.get(url)["ETag"]
    boem_sheet.going_on_record(match=playing, table_number=1, team=playing.home, strokes=1, reason="paper sheet",
                               by=playing.referee)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)  # the same second: the write made the process forget
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert LIVE_VERSIONS_POLLED.get(playing.pk, lambda: None) is not None


def test_the_tables_own_read_is_always_afresh(client, playing, reuse):  # noqa: F811
    from matches.night.table_links import table_links_ensure

    link = table_links_ensure(match=playing)[0]
    key = client.post("/api/table/sign-in/", {"code": link.code}, content_type="application/json").json()["key"]
    auth = {"HTTP_AUTHORIZATION": f"Table {key}"}
    client.get(reverse("matches:match-live", args=[playing.pk]))  # a phone's poll: the version is now reused
    etag = client.get("/api/table/", **auth)["ETag"]
    _another_workers_write(playing)
    changed = client.get("/api/table/", HTTP_IF_NONE_MATCH=etag, **auth)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_behind_the_proxy_s_micro_cache_the_version_is_read_afresh(client, playing, reuse,  # noqa: F811
                                                                    django_assert_num_queries):
    """The shipped nginx snippet sends ``X-Micro-Cache: on``: the proxy keeps the answer its seconds already, and
    the site adds none of its own (``plumbing.page_cache.micro_cache_in_front``)."""
    behind = {"HTTP_X_MICRO_CACHE": "on"}
    for url in (reverse("matches:match-live", args=[playing.pk]), f"/api/fixtures/{playing.pk}/live/"):
        etag = client.get(url, **behind)["ETag"]
        _another_workers_write(playing)
        changed = client.get(url, HTTP_IF_NONE_MATCH=etag, **behind)
        assert changed.status_code == 200 and changed["ETag"] != etag, url
    with django_assert_num_queries(0):  # the read afresh is kept for the polls that come direct
        client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"])

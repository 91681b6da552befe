"""The public live part of a match page: 304 until the night changes, rendered once per change for everyone, and
the change visible the moment it is committed (the ETag is ``Match.live_version``, bumped by every write)."""

import pytest
from django.urls import reverse

from matches.night import boem_sheet
from tests.tables.conftest import playing  # noqa: F401 - the fixture: a match playing now

pytestmark = pytest.mark.django_db


def test_the_live_part_is_304_until_a_write_then_shows_it(client, playing, django_assert_max_num_queries):  # noqa: F811
    url = reverse("matches:match-live", args=[playing.pk])
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and "Athlone Aces" in first.content.decode()
    with django_assert_max_num_queries(1):  # the version only: no rendering, no other query
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    boem_sheet.going_on_record(match=playing, table_number=2, team=playing.away, strokes=2, reason="paper sheet",
                               by=playing.referee, opponents_under_fifty=True)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert 'class="stroke stroke-right"' in changed.content.decode()


def test_a_version_is_rendered_once_for_everyone(client, playing, django_assert_max_num_queries):  # noqa: F811
    url = reverse("matches:match-live", args=[playing.pk])
    client.get(url)  # renders this version (7 queries for the night) and keeps it
    with django_assert_max_num_queries(1):  # another phone, no ETag yet: the version, then the kept rendering
        assert "Table 1" in client.get(url).content.decode()


def test_the_match_page_polls_while_the_night_runs_and_not_after(client, playing):  # noqa: F811
    page = client.get(reverse("matches:match", args=[playing.pk])).content.decode()
    assert 'hx-trigger="every 3s"' in page and "vendor/htmx/htmx.min.js" in page
    playing.phase = "finished"
    playing.save()
    playing.__class__.objects.filter(pk=playing.pk).update(live_version=playing.live_version + 1)
    page = client.get(reverse("matches:match", args=[playing.pk])).content.decode()
    assert "hx-trigger" not in page

"""The appeals pages (issue 22): who reaches which, and the forms refuse as the services do."""

from __future__ import annotations

from datetime import date

import pytest

from appeals import services
from appeals.models import Appeal
from clubs import discipline
from tests.appeals.nights import night
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_only_the_committee_hears_and_decides_an_appeal(client):
    n = night()
    appeal = services.appeal_lodge(match=n.match, team=n.match.away, user=n.away_captain, grounds="No signs.",
                                   ruling=n.ruling)
    url = f"/appeals/{appeal.pk}/"
    client.force_login(n.away_captain)
    page = client.get(url)
    assert page.status_code == 200 and b"No signs." in page.content and b"Decide" not in page.content
    assert client.post(url, {"decision": "upheld", "reasons": "x", "confirm": "yes"}).status_code == 404
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    client.force_login(n.official)
    assert client.post(url, {"decision": "upheld", "reasons": ""}).status_code == 200  # the form says why
    assert Appeal.objects.get().status == Appeal.Status.LODGED
    preview = client.post(url, {"decision": "upheld", "reasons": "No signal."})
    assert b"Confirm the decision" in preview.content and Appeal.objects.get().status == Appeal.Status.LODGED
    client.post(url, {"decision": "upheld", "reasons": "No signal.", "confirm": "yes"})
    assert Appeal.objects.get().status == Appeal.Status.UPHELD


def test_the_register_page_is_private_until_published(client):
    n = night()
    union = n.match.competition.union
    discipline.disciplinary_record_create(union=union, club=n.match.home.club, offence="walk_out",
                                          occurred_on=date(2026, 3, 1), reason="Left at 21:40", sanction="warning",
                                          by=n.official)
    url = f"/discipline/unions/{union.pk}/"
    assert client.get(url).status_code == 404
    union.discipline_register_public = True
    union.save()
    page = client.get(url)
    assert page.status_code == 200 and b"Left at 21:40" in page.content and b"Record an offence" not in page.content


def test_referee_statistics_pages_are_for_officials_and_the_referee(client):
    n = night()
    union = n.match.competition.union
    url = f"/referee-statistics/unions/{union.pk}/"
    client.force_login(n.home_captain)
    assert client.get(url).status_code == 404
    client.force_login(n.referee)
    assert client.get("/referee-statistics/").url == url
    page = client.get(url)
    assert b"Your rulings" in page.content and b"<svg" in page.content and b"Yusuf Isaacs" in page.content

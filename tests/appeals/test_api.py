"""The appeals API (issue 22): a few requests per endpoint: refused, bad input, the happy path."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from appeals.models import Appeal
from clubs.models import UnionReferee
from matches.models import Match
from referee.models import Ruling
from tests.appeals.nights import night
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_late_appeal_is_a_400_naming_the_deadline():
    n = night(days_ago=9)
    response = _client(n.away_captain).post("/api/appeals/", {"match": n.match.pk, "ruling": n.ruling.pk,
                                                              "grounds": "No signs."}, format="json")
    last_day = timezone.localdate(n.match.scheduled_start) + timedelta(days=7)
    assert response.status_code == 400
    assert f"{last_day.day} {last_day:%B %Y}" in str(response.json())
    assert not Appeal.objects.exists()


def test_bad_input_is_a_400_with_field_messages():
    n = night()
    client = _client(n.away_captain)
    assert "grounds" in client.post("/api/appeals/", {"match": n.match.pk}, format="json").json()
    assert "ruling" in client.post("/api/appeals/", {"match": n.match.pk, "ruling": 999999, "grounds": "x"},
                                   format="json").json()


def test_lodge_then_decide_upheld_through_the_api_changes_the_result():
    n = night()
    lodged = _client(n.away_captain).post("/api/appeals/", {"match": n.match.pk, "ruling": n.ruling.pk,
                                                            "grounds": "No signs were made."}, format="json")
    assert lodged.status_code == 201 and lodged.json()["status"] == "lodged"
    appeal_id = lodged.json()["id"]
    # Both captains and the referee read it; a stranger does not.
    assert _client(n.home_captain).get(f"/api/appeals/{appeal_id}/").status_code == 200
    assert _client(n.referee).get(f"/api/appeals/{appeal_id}/").status_code == 200
    assert _client(UserFactory()).get(f"/api/appeals/{appeal_id}/").status_code == 404
    missing_reasons = _client(n.official).post(f"/api/appeals/{appeal_id}/decide/", {"decision": "upheld"},
                                               format="json")
    assert missing_reasons.status_code == 400 and "reasons" in missing_reasons.json()
    decided = _client(n.official).post(f"/api/appeals/{appeal_id}/decide/",
                                       {"decision": "upheld", "reasons": "No signal was seen."}, format="json")
    assert decided.status_code == 200 and decided.json()["status"] == "upheld"
    assert decided.json()["result_before"] == "2-0"
    match = Match.objects.get(pk=n.match.pk)
    assert (match.home_score, match.away_score) == (0, 2)
    assert Ruling.objects.get(pk=n.ruling.pk).decision == Ruling.Decision.REJECTED


def test_the_register_is_private_until_the_union_publishes_it():
    n = night()
    union = n.match.competition.union
    created = _client(n.official).post("/api/discipline/", {
        "union": union.pk, "player": n.match.home.captain.pk, "offence": "misconduct", "occurred_on": "2026-03-01",
        "reason": "Swore at the referee", "sanction": "suspension", "suspension_match_nights": 2}, format="json")
    assert created.status_code == 201 and created.json()["subject_name"] == n.match.home.captain.full_name
    bad = _client(n.official).post("/api/discipline/", {
        "union": union.pk, "club": n.match.home.club.pk, "offence": "misconduct", "occurred_on": "2026-03-01",
        "reason": "x", "sanction": "fine"}, format="json")
    assert bad.status_code == 400 and "fine_amount" in bad.json()
    assert _client().get(f"/api/discipline/?union={union.pk}").status_code == 404
    assert _client(n.official).get(f"/api/discipline/?union={union.pk}").json()["count"] == 1
    assert _client(n.official).patch(f"/api/appeal-settings/{union.pk}/", {"discipline_register_public": True},
                                     format="json").status_code == 200
    public = _client().get(f"/api/discipline/?union={union.pk}")
    assert public.status_code == 200 and public.json()["results"][0]["reason"] == "Swore at the referee"


def test_committee_members_must_be_officials():
    n = night()
    union = n.match.competition.union
    response = _client(n.official).patch(f"/api/appeal-settings/{union.pk}/", {"committee": [n.referee.pk]},
                                         format="json")
    assert response.status_code == 400 and "committee" in response.json()


def test_referee_statistics_officials_see_all_a_referee_their_own():
    n = night()
    union = n.match.competition.union
    other = UserFactory(first_name="Other", last_name="Referee")
    other.groups.add(*n.referee.groups.all())
    UnionReferee.objects.create(union=union, user=other)
    rows = _client(n.official).get(f"/api/referee-statistics/?union={union.pk}").json()
    assert [r["name"] for r in rows] == ["Other Referee", "Yusuf Isaacs"]
    own = _client(n.referee).get(f"/api/referee-statistics/?union={union.pk}").json()
    assert [(r["name"], r["rulings"], r["upheld_rate"]) for r in own] == [("Yusuf Isaacs", 1, 100)]
    assert _client(n.home_captain).get(f"/api/referee-statistics/?union={union.pk}").status_code == 404


def test_the_schema_documents_the_new_endpoints():
    schema = _client().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in ("/api/appeals/", "/api/appeals/{id}/decide/", "/api/discipline/", "/api/discipline/{id}/paid/",
                 "/api/appeal-settings/{id}/", "/api/referee-statistics/"):
        assert path in text, path

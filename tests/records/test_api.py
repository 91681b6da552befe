"""The records' API (issue 21): paginated, filterable and ordered figures equal to the boem sheets', in the
OpenAPI schema."""

import pytest
from rest_framework.test import APIClient

from matches.models import Substitution
from records.models import RecordLine
from tests.records import sheets

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_players_are_paginated_filtered_and_equal_the_sheets(api, season, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):  # the count, the page
        body = api.get("/api/records/players/", {"competition": season.pk}).json()
    assert body["count"] == len(set(RecordLine.objects.values_list("player_id", flat=True)))
    assert len(body["results"]) == min(50, body["count"])  # PAGE_SIZE
    player_id = Substitution.objects.order_by("id").first().player_out_id
    row = api.get("/api/records/players/", {"player": player_id}).json()["results"]
    assert len(row) == 1
    expected = sheets.player_figures(player_id)
    assert {k: row[0][k] for k in expected if k != "tables"} == {k: v for k, v in expected.items() if k != "tables"}
    assert row[0]["first_name"] and "user" not in row[0]


def test_partnerships_make_the_leaderboards(api, season):
    body = api.get("/api/records/partnerships/", {"competition": season.pk, "min_nights": 2,
                                                  "ordering": "-boems_per_night"}).json()
    rows = body["results"]
    assert rows and all(r["nights"] >= 2 for r in rows)
    rates = [r["boems_per_night"] for r in rows]
    assert rates == sorted(rates, reverse=True)
    top = rows[0]
    expected = sheets.partnership_figures(top["telman"], top["byspeler"])
    assert (top["nights"], top["boems_won"], top["strafs_conceded"], top["five_to_nils"]) == (
        expected["nights"], expected["boems_won"], expected["strafs_conceded"], expected["five_to_nils"])
    mine = api.get("/api/records/partnerships/", {"player": top["telman"]}).json()["results"]
    assert mine and all(top["telman"] in (r["telman"], r["byspeler"]) for r in mine)


def test_bad_filters_are_400_and_the_schema_lists_the_endpoints(api, season):
    assert api.get("/api/records/partnerships/", {"min_nights": "many"}).status_code == 400
    assert api.get("/api/records/players/", {"ordering": "password"}).status_code == 400
    schema = api.get("/api/schema/").content.decode()
    assert "/api/records/players/" in schema and "/api/records/partnerships/" in schema
    assert "min_nights" in schema

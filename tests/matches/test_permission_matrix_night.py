"""The night file's API (``GET /api/nights/{id}/``, ``POST /api/nights/``; matches/nightfile/): the permission
matrix rows for the export and the import, as in tests/clubs/test_permission_matrix.py (union officials only, of their
own unions; everyone else 404, the public 403), and the import's answers: added, nothing new, 409 naming the place,
400 for a file changed by hand, and the endpoints in the OpenAPI schema.
"""

from __future__ import annotations

import copy

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from clubs.models import UnionReferee
from matches.models import Match, Seat, TeamSheet
from matches.nightfile.export import night_export
from matches.nightfile.format import night_checksums
from tests.conftest import module_world
from tests.world import ROLES, Side, World, matrix_answer_check

world = module_world  # the ``world`` fixture here: the module's shared world (tests/conftest.py)


def _endpoints(side: Side) -> dict[str, tuple[str, str, object]]:
    return {
        "night export": ("get", f"/api/nights/{side.interval.pk}/", None),
        # the night as this installation holds it: importing it adds nothing (200, nothing new)
        "night import": ("post", "/api/nights/", {"night": night_export(match=side.interval)}),
    }


ALLOWED: dict[str, dict[str, int]] = {
    "night export": {"official": 200},
    "night import": {"official": 200},
}


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", list(ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_own_union(endpoint: str, role: str, world: World):
    matrix_answer_check(world, role, endpoint, _endpoints(world.a)[endpoint], allowed=ALLOWED)


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", list(ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_other_union_answers_like_not_there(endpoint: str, role: str, world: World):
    matrix_answer_check(world, role, endpoint, _endpoints(world.b)[endpoint], allowed=None)


@pytest.mark.django_db
def test_export_is_the_night_file_with_its_checksums(world: World):
    response = _client(world.a.official).get(f"/api/nights/{world.a.interval.pk}/")
    body = response.json()
    assert body["format"] == "klawerjas-night" and body["version"] == 1
    assert body["checksums"] == night_checksums(body)
    assert [s["team"] for s in body["sections"]["team_sheets"]] == sorted([world.a.home.name, world.a.away.name])


@pytest.mark.django_db
def test_import_adds_then_nothing_new_then_refuses_a_conflict(world: World):
    client = _client(world.a.official)
    night = night_export(match=world.a.interval)
    TeamSheet.objects.filter(match=world.a.interval, team=world.a.home).delete()  # the server lacks one sheet

    preview = client.post("/api/nights/", {"night": night, "dry_run": True}, format="json")
    assert preview.status_code == 200 and not preview.json()["imported"]
    assert preview.json()["added"] == [f"{world.a.home.name}'s team sheet"]
    assert not TeamSheet.objects.filter(match=world.a.interval, team=world.a.home).exists()

    imported = client.post("/api/nights/", {"night": night}, format="json")
    assert imported.status_code == 200 and imported.json()["imported"]
    assert Seat.objects.filter(sheet__match=world.a.interval, sheet__team=world.a.home).count() == 8

    again = client.post("/api/nights/", {"night": night}, format="json").json()
    assert again["nothing_new"] and again["added"] == [] and not again["imported"]

    other = copy.deepcopy(night)
    sheet = next(s for s in other["sections"]["team_sheets"] if s["team"] == world.a.home.name)
    first, second = sheet["seats"][0], sheet["seats"][1]
    first["player"], second["player"] = second["player"], first["player"]
    other["checksums"] = night_checksums(other)
    refused = client.post("/api/nights/", {"night": other}, format="json")
    assert refused.status_code == 409
    places = [c["where"] for c in refused.json()["conflicts"]]
    assert any(p.endswith(f"{world.a.home.name}'s team sheet, table 1 byspeler") for p in places), places


@pytest.mark.django_db
def test_a_file_changed_by_hand_is_a_400_naming_the_section(world: World):
    night = night_export(match=world.a.interval)
    night["sections"]["match"]["venue"] = "elsewhere"
    response = _client(world.a.official).post("/api/nights/", {"night": night}, format="json")
    assert response.status_code == 400
    assert response.json() == {"night": ["Section match: the checksum does not match (the file was changed or "
                                         "damaged)."]}
    assert _client(world.a.official).post("/api/nights/", {}, format="json").status_code == 400


@pytest.mark.django_db
def test_the_endpoints_are_in_the_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "get" in schema["paths"]["/api/nights/{id}/"]
    assert "post" in schema["paths"]["/api/nights/"]


@pytest.mark.django_db
def test_a_night_whose_referee_is_the_home_captain_is_a_400_naming_them_and_nothing_is_saved(world: World):
    """Issue 35: the checksums prove a file intact, not that its referee may referee; the import applies the
    officials' rules (on the union's list, impartial: SAKBOC 1.10)."""
    match = world.a.next
    UnionReferee.objects.create(union=world.a.union, user=world.a.captain)  # on the list, yet the home captain
    with transaction.atomic():
        Match.objects.filter(pk=match.pk).update(referee=world.a.captain)
        night = night_export(match=Match.objects.get(pk=match.pk))
        transaction.set_rollback(True)
    Match.objects.filter(pk=match.pk).update(referee=None)  # not assigned here yet: the file would fill it
    response = _client(world.a.official).post("/api/nights/", {"night": night}, format="json")
    assert response.status_code == 400
    message = " ".join(response.json()["night"])
    assert f"referee {world.a.captain.username!r}" in message and "cannot be the referee" in message
    assert f"captains {world.a.home.name}" in message
    assert Match.objects.get(pk=match.pk).referee_id is None

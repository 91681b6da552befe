"""Seasons, drafts and transfers through the API alone: refusals name their reasons (400 with the service's
messages), the happy paths answer what was done, and the endpoints are in the OpenAPI schema."""

import datetime as dt

import pytest
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from clubs.models import GROUP_CLUB_SECRETARIES, ClubSecretary, Team
from matches.models import Season
from tests.factories import UserFactory
from tests.season_factories import play, season_played

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_season_closes_through_the_api_once_its_last_fixture_is_approved():
    played = season_played(approve=False)
    official = _client(played.official)
    refused = official.post("/api/seasons/close/", {"union": played.union.pk, "season": "2026"}, format="json")
    assert refused.status_code == 400
    (reason,) = refused.json()["detail"]
    assert reason.startswith("Premier League 2026: 1 of 6 fixtures not yet approved: ")

    play(played.league.matches.exclude(result_status="approved").get(), played.official)
    closed = official.post("/api/seasons/close/", {"union": played.union.pk, "season": "2026"}, format="json")
    assert closed.status_code == 201, closed.content
    body = closed.json()
    assert (body["name"], body["status"]) == ("2026", "closed")
    assert sorted((h["kind"], h["team_name"]) for h in body["honours"]) == [
        ("champions", "Athlone Aces 1"), ("cup_winners", "Hanover Park Sturks Cup · Seed 3")]
    champions = next(h for h in body["honours"] if h["kind"] == "champions")
    table = APIClient().get(f"/api/standings/{champions['standings']}/").json()
    assert [row["team_name"] for row in table["rows"]][:1] == ["Athlone Aces 1"]
    assert APIClient().get("/api/seasons/", {"status": "closed"}).json()["results"][0]["id"] == body["id"]


def test_the_next_season_and_a_secretarys_drafts_through_the_api():
    played = season_played()
    official = _client(played.official)
    season = official.post("/api/seasons/close/", {"union": played.union.pk, "season": "2026"}, format="json").json()
    bad = official.post(f"/api/seasons/{season['id']}/next/", {"name": "2026"}, format="json")
    assert bad.status_code == 400 and "already has a season 2026" in bad.json()["name"][0]
    started = official.post(f"/api/seasons/{season['id']}/next/", {"name": "2027"}, format="json")
    assert started.status_code == 201, started.content
    body = started.json()
    assert [(c["name"], c["season"], c["entries_open"]) for c in body["competitions"]] == [
        ("Premier League", "2027", False), ("Knock-out Cup", "2027", False)]
    assert len(body["teams"]) == 8 and body["left_out"] == []
    assert Season.objects.get(pk=body["season"]["id"]).started_from_id == season["id"]

    secretary = UserFactory()
    secretary.groups.add(Group.objects.get(name=GROUP_CLUB_SECRETARIES))
    ClubSecretary.objects.create(club=played.clubs[0], user=secretary)
    drafts = _client(secretary).get("/api/drafts/").json()
    assert sorted(d["name"] for d in drafts) == ["Athlone Aces 1", "Athlone Aces Cup · Seed 1"]
    assert all(d["draft"] and d["problems"] == [] for d in drafts)
    league_draft = next(d for d in drafts if d["name"] == "Athlone Aces 1")
    Team.objects.filter(pk=league_draft["id"]).update(captain=None)
    refused = _client(secretary).post(f"/api/drafts/{league_draft['id']}/confirm/")
    assert refused.status_code == 400 and refused.json()["detail"] == ["Name the captain, one of the squad."]
    Team.objects.filter(pk=league_draft["id"]).update(captain_id=league_draft["squad"][0])
    confirmed = _client(secretary).post(f"/api/drafts/{league_draft['id']}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["draft"] is False


def test_a_transfer_through_the_api_and_its_refusal_while_the_competition_runs():
    played = season_played(approve=False)
    official = _client(played.official)
    busy = played.league_teams[0].captain
    refused = official.post(f"/api/players/{busy.pk}/transfers/",
                            {"to_club": played.clubs[1].pk, "transferred_on": "2026-06-01"}, format="json")
    assert refused.status_code == 400
    assert "which is still being played" in refused.json()["player"][0]

    free = UserFactory()  # a player in no squad: registered, then moved
    from clubs.services import player_register

    player = player_register(club=played.clubs[0], registration_number="CKU-777", first_name="Nadia",
                             last_name="Hendricks", by=free)
    elsewhere = official.post(f"/api/players/{player.pk}/transfers/",
                              {"to_club": 999_999, "transferred_on": "2026-06-01"}, format="json")
    assert elsewhere.status_code == 400 and elsewhere.json() == {"to_club": ["No such club in the player's union."]}
    future = (dt.date.today() + dt.timedelta(days=3)).isoformat()
    assert official.post(f"/api/players/{player.pk}/transfers/", {"to_club": played.clubs[1].pk,
                                                                   "transferred_on": future},
                         format="json").status_code == 400
    moved = official.post(f"/api/players/{player.pk}/transfers/",
                          {"to_club": played.clubs[1].pk, "transferred_on": "2026-06-01", "note": "agreed"},
                          format="json")
    assert moved.status_code == 201, moved.content
    assert moved.json()["from_club_name"] == "Athlone Aces" and moved.json()["to_club_name"] == "Bonteheuwel Boere"
    public = APIClient()
    assert [t["to_club_name"] for t in public.get(f"/api/players/{player.pk}/transfers/").json()] == [
        "Bonteheuwel Boere"]
    after = public.get(f"/api/players/{player.pk}/").json()
    assert (after["club"], after["registration_number"]) == (played.clubs[1].pk, "CKU-777")


def test_the_new_endpoints_are_in_the_openapi_schema():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/seasons/", "/api/seasons/close/", "/api/seasons/{id}/next/", "/api/drafts/",
                 "/api/drafts/{id}/confirm/", "/api/players/{id}/transfers/"):
        assert path in schema["paths"], path
    assert "post" in schema["paths"]["/api/players/{id}/transfers/"]

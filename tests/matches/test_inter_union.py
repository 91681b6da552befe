"""Inter-union transfers (matches/seasons/inter_union.py, Board level): the three steps, every refusal, the history
they leave, and the pages of the receiving club's secretary and both unions' officials (404 for another union's
request, as for a missing one)."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from clubs import services as club_services
from clubs.models import InterUnionTransfer, Player, Team, TeamMembership, Transfer
from matches.models import Season
from matches.seasons import inter_union
from matches.seasons import services as seasons
from matches.seasons.transfers import player_transfer
from tests.factories import (
    ClubFactory,
    ClubSecretaryFactory,
    PlayerFactory,
    TeamFactory,
    UnionFactory,
    UnionOfficialFactory,
    UserFactory,
)
from tests.season_factories import season_played

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 11, 2, 10, 0, tzinfo=dt.UTC)
TODAY = dt.date(2026, 11, 2)


@pytest.fixture
def world():
    """Two member unions: the player in Cape (CKU), the receiving club in Boland (BKU), an official and a
    secretary on each side."""
    cape, boland = UnionFactory(name="Cape Klawerjas Union", short_name="CKU"), UnionFactory(
        name="Boland Klawerjas Union", short_name="BKU")
    athlone, paarl = ClubFactory(union=cape, name="Athlone Aces"), ClubFactory(union=boland, name="Paarl Pikke")
    player = club_services.player_register(club=athlone, registration_number="CKU-0042", first_name="Anwar",
                                           last_name="Davids", date_of_birth=dt.date(1984, 3, 21))
    return {
        "cape": cape, "boland": boland, "athlone": athlone, "paarl": paarl, "player": player,
        "cape_official": UnionOfficialFactory(union=cape).user,
        "boland_official": UnionOfficialFactory(union=boland).user,
        "paarl_secretary": ClubSecretaryFactory(club=paarl).user,
    }


def _asked(world) -> InterUnionTransfer:
    return inter_union.inter_union_transfer_ask(player=world["player"], to_club=world["paarl"], note="moved to Paarl",
                                                by=world["paarl_secretary"], now=NOW)


def _cleared(world) -> InterUnionTransfer:
    return inter_union.inter_union_transfer_clear(request=_asked(world), by=world["cape_official"], now=NOW)


# --- The service ------------------------------------------------------------------------------------------------


def test_ask_clear_accept_moves_the_one_row_keeps_the_national_number_and_the_history(world):
    request = _cleared(world)
    assert request.status == "cleared" and request.cleared_by == world["cape_official"]
    transfer = inter_union.inter_union_transfer_accept(request=request, by=world["boland_official"], now=NOW)

    player = Player.objects.get(pk=world["player"].pk)
    assert (player.union, player.club, player.registration_number, player.national_number) == (
        world["boland"], world["paarl"], "CKU-0042", "CKU-0042")
    assert Player.objects.count() == 1  # one person, one row
    assert (transfer.from_club, transfer.to_club, transfer.transferred_on) == (world["athlone"], world["paarl"], TODAY)
    request.refresh_from_db()
    assert (request.status, request.transfer, request.decided_by) == ("accepted", transfer, world["boland_official"])
    assert [h.status for h in request.history.order_by("history_id")] == ["asked", "cleared", "accepted"]
    assert [h.history_user for h in request.history.order_by("history_id")] == [
        world["paarl_secretary"], world["cape_official"], world["boland_official"]]
    latest = player.history.order_by("-history_id").first()
    assert latest.history_change_reason.startswith("transferred from Athlone Aces (Cape Klawerjas Union) to Paarl")
    assert latest.history_user == world["boland_official"]


def test_accept_with_a_new_registration_number_and_one_needed_when_the_old_is_taken(world):
    PlayerFactory(club=world["paarl"], registration_number="CKU-0042", national_number="BKU-9")
    request = _cleared(world)
    with pytest.raises(ValidationError) as refused:
        inter_union.inter_union_transfer_accept(request=request, by=world["boland_official"], now=NOW)
    assert "give the player a new registration number" in refused.value.message_dict["registration_number"][0]
    inter_union.inter_union_transfer_accept(request=request, registration_number="BKU-0100",
                                            by=world["boland_official"], now=NOW)
    player = Player.objects.get(pk=world["player"].pk)
    assert (player.registration_number, player.national_number) == ("BKU-0100", "CKU-0042")


def test_asking_within_the_union_is_the_ordinary_transfer(world):
    with pytest.raises(ValidationError) as refused:
        inter_union.inter_union_transfer_ask(player=world["player"], to_club=ClubFactory(union=world["cape"]),
                                             now=NOW)
    assert "ordinary transfer" in refused.value.message_dict["to_club"][0]


def test_a_boards_side_asks_for_nobody(world):
    board = UnionFactory(short_name="SAKBOC-O")
    board.is_board = True
    board.save()
    with pytest.raises(ValidationError, match="a Board's side"):
        inter_union.inter_union_transfer_ask(player=world["player"], to_club=ClubFactory(union=board), now=NOW)


def test_one_open_request_per_player(world):
    _asked(world)
    with pytest.raises(ValidationError) as refused:
        inter_union.inter_union_transfer_ask(player=world["player"], to_club=ClubFactory(union=world["boland"]),
                                             now=NOW)
    assert "already has an open request, from Paarl Pikke" in refused.value.message_dict["player"][0]


def test_a_transfer_into_a_union_during_its_closed_window_is_refused_with_the_dates(world):
    season = Season.objects.create(union=world["boland"], name="2026", transfers_closed_from=dt.date(2026, 10, 1),
                                   transfers_closed_until=dt.date(2026, 11, 30))
    with pytest.raises(ValidationError) as refused:
        _asked(world)
    (message,) = refused.value.message_dict["to_club"]
    assert "closed to transfers in from another union from 1 October 2026 to 30 November 2026" in message
    # Asked before the window; the window closes before the union accepts: refused again at acceptance.
    season.transfers_closed_from, season.transfers_closed_until = dt.date(2026, 12, 1), None
    season.save()
    request = _cleared(world)
    with pytest.raises(ValidationError, match="closed window"):
        inter_union.inter_union_transfer_accept(request=request, by=world["boland_official"],
                                                now=dt.datetime(2026, 12, 5, 10, tzinfo=dt.UTC))
    # A closed season's window no longer applies.
    season.status = Season.Status.CLOSED
    season.save()
    inter_union.inter_union_transfer_accept(request=request, by=world["boland_official"],
                                            now=dt.datetime(2026, 12, 5, 10, tzinfo=dt.UTC))


def test_accept_is_refused_while_the_player_is_in_an_unfinished_competitions_squad(world):
    team = TeamFactory(club=world["athlone"], competition__union=world["cape"], squad=0)
    TeamMembership.objects.create(team=team, player=world["player"], competition=team.competition)
    request = _cleared(world)
    with pytest.raises(ValidationError) as refused:
        inter_union.inter_union_transfer_accept(request=request, by=world["boland_official"], now=NOW)
    assert "a player plays for one team per competition" in " ".join(refused.value.message_dict["player"]) or (
        "takes them out of the squad first" in " ".join(refused.value.message_dict["player"]))
    assert Player.objects.get(pk=world["player"].pk).union == world["cape"]
    assert not Transfer.objects.exists()


def test_accept_takes_the_player_out_of_the_old_clubs_drafts():
    played = season_played()
    started = seasons.season_start(season=seasons.season_close(union=played.union, name="2026"), name="2027")
    draft = Team.objects.get(competition=started.competitions[0], club=played.clubs[0])
    player = draft.captain
    boland = UnionFactory()
    to_club = ClubFactory(union=boland)
    request = inter_union.inter_union_transfer_ask(player=player, to_club=to_club, now=NOW)
    inter_union.inter_union_transfer_clear(request=request, now=NOW)
    transfer = inter_union.inter_union_transfer_accept(request=request, now=NOW)
    draft.refresh_from_db()
    assert draft.captain is None and not draft.memberships.filter(player=player).exists()
    assert transfer.left_squads == "Athlone Aces 1 (Premier League 2027)"


def test_refuse_and_decline_need_a_reason_and_a_step_in_order(world):
    request = _asked(world)
    with pytest.raises(ValidationError) as refused:
        inter_union.inter_union_transfer_refuse(request=request, reason="  ", by=world["cape_official"])
    assert "reason" in refused.value.message_dict
    with pytest.raises(ValidationError, match="no longer waiting"):
        inter_union.inter_union_transfer_accept(request=request, by=world["boland_official"])
    inter_union.inter_union_transfer_refuse(request=request, reason="owes the club fees", by=world["cape_official"])
    request.refresh_from_db()
    assert (request.status, request.reason) == ("refused", "owes the club fees")
    # Refused is closed: the club may ask again.
    again = inter_union.inter_union_transfer_clear(request=_asked(world), by=world["cape_official"])
    with pytest.raises(ValidationError):
        inter_union.inter_union_transfer_decline(request=again, reason="", by=world["boland_official"])
    inter_union.inter_union_transfer_decline(request=again, reason="squad full", by=world["boland_official"])
    assert InterUnionTransfer.objects.filter(status="declined").count() == 1
    assert Player.objects.get(pk=world["player"].pk).club == world["athlone"]


def test_the_ordinary_transfer_points_to_the_inter_union_transfer(world):
    with pytest.raises(ValidationError) as refused:
        player_transfer(player=world["player"], to_club=world["paarl"], transferred_on=TODAY)
    assert "inter-union transfer" in refused.value.message_dict["to_club"][0]


# --- The pages --------------------------------------------------------------------------------------------------


def test_the_three_steps_through_the_pages(client, world):
    client.force_login(world["paarl_secretary"])
    url = f"/secretary/clubs/{world['paarl'].pk}/inter-union/"
    assert "No requests yet" in client.get(url).content.decode()
    found = client.get(url, {"q": "CKU-0042"}).content.decode()
    assert "Anwar Davids" in found and "Athlone Aces" in found and "Cape Klawerjas Union" in found
    assert "Anwar Davids" in client.get(url, {"q": "davids anwar"}).content.decode()
    page = client.post(url, {"player": world["player"].pk, "note": "moved to Paarl"}, follow=True).content.decode()
    assert "You asked for Anwar Davids" in page and "Asked by the receiving club" in page

    client.force_login(world["cape_official"])
    cape_url = f"/official/unions/{world['cape'].pk}/inter-union/"
    request = InterUnionTransfer.objects.get()
    assert "Clear Anwar Davids's move" in client.get(cape_url).content.decode()
    confirm = client.get(f"/official/inter-union/{request.pk}/refuse/").content.decode()
    assert "Refuse Anwar Davids's move?" in confirm and 'name="reason"' in confirm
    assert "This field is required" in client.post(f"/official/inter-union/{request.pk}/refuse/",
                                                   {"reason": ""}).content.decode()
    client.post(f"/official/inter-union/{request.pk}/clear/")
    request.refresh_from_db()
    assert request.status == "cleared"

    client.force_login(world["boland_official"])
    boland_url = f"/official/unions/{world['boland'].pk}/inter-union/"
    assert "Accept Anwar Davids into Paarl Pikke" in client.get(boland_url).content.decode()
    done = client.post(f"/official/inter-union/{request.pk}/accept/", {"registration_number": "BKU-0100"},
                       follow=True).content.decode()
    assert "is registered with Paarl Pikke (Boland Klawerjas Union) as BKU-0100" in done

    client.logout()
    history = client.get(f"/players/{world['player'].pk}/history/").content.decode()
    assert "National registration number CKU-0042" in history and "BKU registration number BKU-0100" in history
    assert "Athlone Aces <span class=\"muted\">(Cape Klawerjas Union)</span> → Paarl Pikke" in history


def test_another_unions_request_answers_404_like_a_missing_one(client, world):
    request = _asked(world)
    stranger = UnionOfficialFactory(union=UnionFactory()).user
    client.force_login(stranger)
    for path in ("clear", "accept"):
        assert client.post(f"/official/inter-union/{request.pk}/{path}/").status_code == 404
        assert client.post(f"/official/inter-union/999999/{path}/").status_code == 404
    for path in ("refuse", "decline"):
        assert client.get(f"/official/inter-union/{request.pk}/{path}/").status_code == 404
    # The receiving union cannot clear for the player's union, nor the player's union accept.
    client.force_login(world["boland_official"])
    assert client.post(f"/official/inter-union/{request.pk}/clear/").status_code == 404
    client.force_login(world["cape_official"])
    assert client.get(f"/official/inter-union/{request.pk}/decline/").status_code == 404
    # A secretary asks only for their own club.
    client.force_login(ClubSecretaryFactory(club=ClubFactory(union=world["boland"])).user)
    assert client.get(f"/secretary/clubs/{world['paarl'].pk}/inter-union/").status_code == 404
    assert InterUnionTransfer.objects.get().status == "asked"


def test_a_board_official_reads_every_request_and_a_union_official_does_not(client, world):
    _asked(world)
    client.force_login(world["cape_official"])
    assert client.get("/official/inter-union/").status_code == 404
    board = UnionFactory(name="SAKBOC organiser", short_name="SAKBOC-O")
    board.is_board = True
    board.save()
    client.force_login(UnionOfficialFactory(union=board).user)
    page = client.get("/official/inter-union/").content.decode()
    assert "Anwar Davids" in page and "Paarl Pikke" in page


def test_the_dashboards_link_the_pages(client, world):
    client.force_login(world["paarl_secretary"])
    assert f"/secretary/clubs/{world['paarl'].pk}/inter-union/" in client.get("/secretary/").content.decode()
    client.force_login(world["cape_official"])
    assert f"/official/unions/{world['cape'].pk}/inter-union/" in client.get("/official/").content.decode()


def test_a_user_without_a_club_gets_404_on_the_secretary_page(client, world):
    client.force_login(UserFactory())
    assert client.get(f"/secretary/clubs/{world['paarl'].pk}/inter-union/").status_code == 404


# --- The API ----------------------------------------------------------------------------------------------------


def test_the_three_steps_through_the_api_and_404_for_another_unions_request(world):
    from rest_framework.test import APIClient

    def api(user) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    secretary, cape, boland = (api(world["paarl_secretary"]), api(world["cape_official"]),
                               api(world["boland_official"]))
    found = secretary.get("/api/players/", {"national_number": "CKU-0042"}).json()
    player_id = found["results"][0]["id"] if "results" in found else found[0]["id"]
    asked = secretary.post("/api/inter-union-transfers/", {"player": player_id, "to_club": world["paarl"].pk,
                                                           "note": "work"}, format="json")
    assert asked.status_code == 201 and asked.json()["status"] == "asked", asked.content
    pk = asked.json()["id"]
    again = secretary.post("/api/inter-union-transfers/", {"player": player_id, "to_club": world["paarl"].pk},
                           format="json")
    assert again.status_code == 400 and "already has an open request" in again.json()["player"][0]
    assert boland.post(f"/api/inter-union-transfers/{pk}/clear/").status_code == 404  # not the player's union
    assert api(UnionOfficialFactory().user).get(f"/api/inter-union-transfers/{pk}/").status_code == 404
    refused = cape.post(f"/api/inter-union-transfers/{pk}/refuse/", {"reason": ""}, format="json")
    assert refused.status_code == 400 and "reason" in refused.json()
    assert cape.post(f"/api/inter-union-transfers/{pk}/clear/").json()["status"] == "cleared"
    accepted = boland.post(f"/api/inter-union-transfers/{pk}/accept/", {"registration_number": "BKU-5"},
                           format="json")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted", accepted.content
    assert [r["id"] for r in _results(secretary.get("/api/inter-union-transfers/").json())] == [pk]
    assert Player.objects.get(pk=player_id).registration_number == "BKU-5"


def _results(data):
    return data["results"] if isinstance(data, dict) else data


def test_the_receiving_union_sets_its_closed_window_on_the_seasons_page(client, world):
    from tests.factories import CompetitionFactory

    CompetitionFactory(union=world["boland"], season="2026")
    client.force_login(world["boland_official"])
    seasons_page = client.get(f"/official/unions/{world['boland'].pk}/seasons/").content.decode()
    assert "Save the closed window" in seasons_page
    url = f"/official/unions/{world['boland'].pk}/seasons/transfer-window/"
    bad = client.post(url, {"season": "2026", "closed_from": "2026-11-30", "closed_until": "2026-10-01"},
                      follow=True).content.decode()
    assert "ends on or after the day it starts" in bad
    client.post(url, {"season": "2026", "closed_from": "2026-10-01", "closed_until": "2026-11-30"})
    season = Season.objects.get(union=world["boland"], name="2026")
    assert (season.transfers_closed_from, season.transfers_closed_until) == (dt.date(2026, 10, 1),
                                                                           dt.date(2026, 11, 30))
    with pytest.raises(ValidationError, match="closed window"):
        _asked(world)
    client.force_login(world["cape_official"])  # another union's official: 404
    assert client.post(url, {"season": "2026", "closed_from": ""}).status_code == 404
    client.force_login(world["boland_official"])
    client.post(url, {"season": "2026", "closed_from": "", "closed_until": ""})
    assert Season.objects.get(pk=season.pk).transfers_closed_from is None
    assert _asked(world).status == "asked"

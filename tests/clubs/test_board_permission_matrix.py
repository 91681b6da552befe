"""The permission matrix grows by the Board (issue 39): its roles against the Board's objects and the unions'.

A Board official (an official of the Board's organiser, ``clubs.Board.organiser``) acts on the Board's
championships and their matches, and on no union's own competition; a member union's official acts on their own
union and enters and manages their union's representative side, never another union's side nor the Board's
championship itself; a union's club secretary and the side's captain reach what is theirs. Everyone else gets
404 for a signed-in user ("not yours" answers like "not there") and the sign-in page for the anonymous public.
"""

from __future__ import annotations

import pytest

from clubs.models import GROUP_CAPTAINS, GROUP_CLUB_SECRETARIES, ClubSecretary, Player, Team, UnionReferee
from clubs.services import board_ensure
from matches.competitions import entries
from matches.competitions import services as competition_services
from matches.models import Competition
from tests.factories import ClubFactory, PlayerFactory, UnionFactory, UserFactory
from tests.matches.conftest import at
from tests.people import in_group, union_official

ROLES = ["anonymous", "nobody", "board_official", "official_a", "official_b", "secretary_a", "side_captain_a",
         "referee"]


def _world():
    board = board_ensure()
    organiser = board.organiser
    people = {"board_official": union_official(organiser), "nobody": UserFactory(), "referee": UserFactory()}
    UnionReferee.objects.create(union=organiser, user=people["referee"])
    sides, unions = {}, {}
    championship = competition_services.competition_create(union=organiser, name="Inter-Union Final",
                                                           season="2026", kind=Competition.Kind.KNOCKOUT)
    entries.competition_entries_set(competition=championship, open_=True)
    for key in ("a", "b"):
        union = unions[key] = UnionFactory()
        people[f"official_{key}"] = union_official(union)
        club = ClubFactory(union=union)
        players = [PlayerFactory(club=club) for _ in range(8)]
        sides[key] = entries.representative_team_enter(competition=championship, union=union, name=union.name,
                                                       players=players, captain=players[0])
        if key == "a":
            people["secretary_a"] = in_group(UserFactory(), GROUP_CLUB_SECRETARIES)
            ClubSecretary.objects.create(club=club, user=people["secretary_a"])
            people["side_captain_a"] = in_group(UserFactory(), GROUP_CAPTAINS)
            Player.objects.filter(pk=players[0].pk).update(user=people["side_captain_a"])
    entries.competition_entries_set(competition=championship, open_=False)
    final = competition_services.match_schedule(competition=championship, home=sides["a"], away=sides["b"],
                                               scheduled_start=at(0), venue="Bellville", referee=people["referee"],
                                               round_name="Final")
    cup = competition_services.competition_create(union=organiser, name="Board Cup", season="2026",
                                                  kind=Competition.Kind.KNOCKOUT)
    entries.competition_entries_set(competition=cup, open_=True)
    pages = {
        "board competition create": (f"/official/unions/{organiser.pk}/competitions/new/",
                                     {"name": "Board League", "season": "2027", "kind": "league"}),
        "union competition create": (f"/official/unions/{unions['a'].pk}/competitions/new/",
                                     {"name": "Spring League", "season": "2027", "kind": "league"}),
        "board championship": (f"/official/competitions/{championship.pk}/", None),
        "board final": (f"/official/matches/{final.pk}/", None),
        "side enter": (f"/official/unions/{unions['a'].pk}/board/{cup.pk}/enter/", None),
        "side squad a": (f"/captain/teams/{sides['a'].pk}/", None),
        "side squad b": (f"/captain/teams/{sides['b'].pk}/", None),
        "national registry": ("/office/national-registry/", None),
    }
    return people, pages


ALLOWED: dict[str, set[str]] = {
    "board competition create": {"board_official"},
    "union competition create": {"official_a"},
    "board championship": {"board_official"},
    "board final": {"board_official"},
    "side enter": {"official_a"},
    "side squad a": {"official_a", "side_captain_a"},
    "side squad b": {"official_b"},
    "national registry": {"board_official"},
}


@pytest.mark.django_db
@pytest.mark.parametrize("page", list(ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_board_pages(client, page, role):
    people, pages = _world()
    url, data = pages[page]
    if role != "anonymous":
        client.force_login(people[role])
    response = client.get(url)
    if role == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        return
    allowed = role in ALLOWED[page]
    assert response.status_code == (200 if allowed else 404), (page, role, response.status_code)
    if data is not None:
        posted = client.post(url, data)
        assert posted.status_code == (302 if allowed else 404), (page, role, posted.status_code)


@pytest.mark.django_db
def test_a_member_unions_official_cannot_enter_a_side_for_another_union(client):
    people, pages = _world()
    client.force_login(people["official_b"])
    url = pages["side enter"][0]  # union A's entry page
    assert client.get(url).status_code == 404
    assert client.post(url, {"name": "Not ours"}).status_code == 404


@pytest.mark.django_db
def test_the_national_registry_lists_every_member_unions_players_and_finds_one(client):
    people, _pages = _world()
    client.force_login(people["board_official"])
    everyone = client.get("/office/national-registry/").content.decode()
    sides = Team.objects.filter(club__represents__isnull=False).select_related("club__represents")
    for team in sides:
        assert team.club.represents.short_name in everyone
    player = Player.objects.filter(union__is_board=False).order_by("pk").first()
    found = client.get("/office/national-registry/", {"q": player.national_number}).content.decode()
    assert player.full_name in found and "1 registered player." in found

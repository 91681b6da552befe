"""Players on public pages (POPIA s11): one function names them, the union chooses, the pages follow at once."""

import pytest

from clubs import services as club_services
from clubs.models import Player, Union
from clubs.selectors import player_public_name
from privacy.services import consent_record
from tests.factories import match_with_sheets, squad

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_at_once")]


def _player(**fields) -> Player:
    return Player(first_name="Jan", last_name="Adams", **fields)


@pytest.mark.parametrize(("fields", "public_names", "expected"), [
    ({}, Union.PublicNames.INITIALS, "J. Adams"),
    ({"full_name_public": True}, Union.PublicNames.INITIALS, "J. Adams"),
    ({}, Union.PublicNames.FULL, "J. Adams"),
    ({"full_name_public": True}, Union.PublicNames.FULL, "Jan Adams"),
    ({"first_name": "Jan Pieter", "last_name": "van der Merwe"}, Union.PublicNames.INITIALS, "J.P. van der Merwe"),
    ({"first_name": "anna-marie"}, Union.PublicNames.INITIALS, "A.M. Adams"),
])
def test_player_public_name(fields, public_names, expected):
    fields = {"first_name": "Jan", "last_name": "Adams", **fields}
    assert player_public_name(Player(**fields), public_names=public_names) == expected


def test_an_erased_player_is_a_former_player_whatever_the_union_says():
    erased = Player(first_name="Jan", last_name="Adams", full_name_public=True, former_number=7,
                    erased_at="2026-11-28T12:00:00Z")
    assert player_public_name(erased, public_names=Union.PublicNames.FULL) == "Former player 7"
    assert player_public_name(None, default="—") == "—"


def test_the_match_report_shows_initials_and_follows_the_unions_switch_at_once(client):
    match = match_with_sheets()
    union = match.competition.union
    agreed, other = squad(match.home)[:2]  # table 1: telman and byspeler
    Player.objects.filter(pk=agreed.pk).update(first_name="Jan Pieter", last_name="van der Merwe")
    Player.objects.filter(pk=other.pk).update(first_name="Riaan", last_name="Adams")
    club_services.player_update(player=Player.objects.get(pk=other.pk), first_name="Riaan")  # renews the names
    url = f"/matches/{match.pk}/"
    first = client.get(url)
    page = first.content.decode()
    assert "J.P. van der Merwe" in page and "R. Adams" in page
    assert "Jan Pieter" not in page and "Riaan" not in page
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    consent_record(player=Player.objects.get(pk=agreed.pk), kind="full_name_public", given=True, recorded_by=None,
                   source="registry")
    club_services.union_settings_update(union=union, public_names=Union.PublicNames.FULL)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    page = again.content.decode()
    assert "Jan Pieter van der Merwe" in page  # agreed, and the union shows full names
    assert "R. Adams" in page and "Riaan Adams" not in page  # did not agree
    live = client.get(f"/api/fixtures/{match.pk}/live/").json()
    names = {side["telman"] for table in live["tables"] for side in (table["home"], table["away"]) if side}
    assert "Jan Pieter van der Merwe" in names

    club_services.union_settings_update(union=union, public_names=Union.PublicNames.INITIALS)
    page = client.get(url).content.decode()
    assert "J.P. van der Merwe" in page and "Jan Pieter" not in page


def test_records_and_history_pages_name_players_as_the_union_says(client):
    match = match_with_sheets()
    player = squad(match.home)[0]
    Player.objects.filter(pk=player.pk).update(first_name="Jan", last_name="Adams")
    club_services.player_update(player=Player.objects.get(pk=player.pk), last_name="Adams")
    for url in (f"/players/{player.pk}/", f"/players/{player.pk}/history/", f"/teams/{match.home_id}/",
                f"/clubs/{match.home.club_id}/"):
        page = client.get(url).content.decode()
        assert "J. Adams" in page and "Jan Adams" not in page, url


def test_a_public_discipline_register_names_players_by_initials_to_the_public_only(client):
    from datetime import date

    from clubs import discipline
    from tests.factories import UnionOfficialFactory

    match = match_with_sheets()
    union = match.competition.union
    Union.objects.filter(pk=union.pk).update(discipline_register_public=True)
    player = squad(match.home)[0]
    Player.objects.filter(pk=player.pk).update(first_name="Jan", last_name="Adams")
    discipline.disciplinary_record_create(union=union, player=Player.objects.get(pk=player.pk),
                                          offence="late_arrival", occurred_on=date.today(),
                                          reason="20 minutes late", sanction="warning", by=None)
    page = client.get(f"/discipline/unions/{union.pk}/").content.decode()
    assert "J. Adams" in page and "Jan Adams" not in page
    listed = client.get(f"/api/discipline/?union={union.pk}").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [row["subject_name"] for row in rows] == ["J. Adams"]
    client.force_login(UnionOfficialFactory(union=union).user)
    assert "Jan Adams" in client.get(f"/discipline/unions/{union.pk}/").content.decode()
    rows = client.get(f"/api/discipline/?union={union.pk}").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    assert [row["subject_name"] for row in rows] == ["Jan Adams"]

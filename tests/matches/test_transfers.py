"""Transfers (matches/seasons/transfers.py): the registration moves with the player, the history keeps it, and one
team per
competition stays enforced (SAKBOC 1.5)."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from clubs import services as club_services
from clubs.models import Player, Team, TeamMembership, Transfer
from matches.models import Seat
from matches.seasons import services as seasons
from matches.seasons.transfers import player_transfer, player_transfers, transfer_blockers
from tests.factories import ClubFactory, MatchFactory, PlayerFactory, TeamFactory, UserFactory, sheet_for
from tests.season_factories import season_played

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 11, 2, 10, 0, tzinfo=dt.UTC)
ON = dt.date(2026, 11, 1)


def _squad(team: Team) -> list[Player]:
    return [m.player for m in team.memberships.select_related("player").order_by("id")]


def test_a_transfer_moves_the_registration_keeps_its_number_and_the_history_says_so():
    played = season_played()
    player = _squad(played.league_teams[0])[3]
    number, official = player.registration_number, played.official
    transfer = player_transfer(player=player, to_club=played.clubs[2], transferred_on=ON, note="clubs agree",
                               by=official, now=NOW)

    player.refresh_from_db()
    assert (player.club, player.registration_number, player.union) == (played.clubs[2], number, played.union)
    assert (transfer.from_club, transfer.to_club, transfer.transferred_on, transfer.recorded_by, transfer.note) == (
        played.clubs[0], played.clubs[2], ON, official, "clubs agree")
    latest, before = player.history.order_by("-history_date", "-history_id")[:2]
    assert (latest.club_id, before.club_id) == (played.clubs[2].pk, played.clubs[0].pk)
    assert latest.history_user == official
    assert latest.history_change_reason == (
        "transferred from Athlone Aces to Hanover Park Sturks on 01 November 2026")
    assert latest.registration_number == before.registration_number == number
    assert player_transfers(player=player) == [transfer]
    # The finished league's squad keeps him: the record of that season stands.
    assert TeamMembership.objects.filter(team=played.league_teams[0], player=player).exists()


def test_a_player_in_a_running_competitions_squad_is_refused_saying_which():
    played = season_played(approve=False)
    team = played.league_teams[1]
    player = _squad(team)[0]
    with pytest.raises(ValidationError) as refused:
        player_transfer(player=player, to_club=played.clubs[0], transferred_on=ON, now=NOW)
    (message,) = refused.value.message_dict["player"]
    assert message == (f"{player.full_name} is in Bonteheuwel Boere 2's squad for Premier League 2026, which is still "
                       "being played (1 of 6 fixtures not yet approved): a player plays for one team per competition "
                       "(SAKBOC 1.5); record the transfer once it is over.")
    player.refresh_from_db()
    assert player.club == played.clubs[1] and not Transfer.objects.exists()


def test_a_squad_of_a_competition_not_yet_started_refuses_until_the_player_is_taken_out():
    team = TeamFactory()
    player = _squad(team)[5]
    other = ClubFactory(union=team.club.union)
    with pytest.raises(ValidationError, match="whose fixtures are not made yet: .*takes them out of the squad first"):
        player_transfer(player=player, to_club=other, transferred_on=ON, now=NOW)
    club_services.team_player_remove(team=team, player=player)
    assert player_transfer(player=player, to_club=other, transferred_on=ON, now=NOW).to_club == other


def test_a_player_who_played_for_a_team_still_playing_is_refused_even_out_of_its_squad():
    match = MatchFactory()
    sheet_for(match, match.home)
    seated = Seat.objects.filter(sheet__team=match.home).order_by("table_number").first().player
    TeamMembership.objects.filter(team=match.home, player=seated).delete()
    Team.objects.filter(pk=match.home.pk).update(captain=None)
    other = ClubFactory(union=match.home.club.union)
    (reason,) = transfer_blockers(player=seated)
    assert reason.startswith(f"{seated.full_name} has played for {match.home.name} in {match.competition}")
    with pytest.raises(ValidationError, match="has played for"):
        player_transfer(player=seated, to_club=other, transferred_on=ON, now=NOW)


def test_one_team_per_competition_holds_across_a_transfer_between_seasons():
    """Between seasons the player leaves the old club's draft (and its captaincy) and joins the new club's draft;
    he is never in two teams of one competition."""
    played = season_played()
    started = seasons.season_start(season=seasons.season_close(union=played.union, name="2026"), name="2027")
    league = started.competitions[0]
    old_draft = Team.objects.get(competition=league, club=played.clubs[0])
    captain = old_draft.captain
    new_draft = Team.objects.get(competition=league, club=played.clubs[1])

    transfer = player_transfer(player=captain, to_club=played.clubs[1], transferred_on=ON, now=NOW)

    assert transfer.left_squads == "Athlone Aces 1 (Premier League 2027)"
    old_draft.refresh_from_db()
    assert old_draft.captain is None and captain not in old_draft.players.all()
    captain.refresh_from_db()
    club_services.team_player_add(team=new_draft, player=captain)
    assert list(TeamMembership.objects.filter(competition=league, player=captain).values_list("team", flat=True)) == [
        new_draft.pk]
    with pytest.raises(ValidationError, match="SAKBOC 1.5"):
        club_services.team_player_add(team=old_draft, player=captain)  # nor go back into the old club's team


def test_a_confirmed_entry_in_the_next_season_blocks_like_any_squad():
    played = season_played()
    started = seasons.season_start(season=seasons.season_close(union=played.union, name="2026"), name="2027")
    team = Team.objects.get(competition=started.competitions[0], club=played.clubs[0])
    seasons.team_draft_confirm(team=team)
    with pytest.raises(ValidationError, match="Athlone Aces 1's squad for Premier League 2027, whose fixtures are not"):
        player_transfer(player=_squad(team)[2], to_club=played.clubs[1], transferred_on=ON, now=NOW)


def test_the_clubs_and_the_date_must_make_sense():
    player = PlayerFactory()
    elsewhere = ClubFactory()  # another union
    same_union = ClubFactory(union=player.union)
    cases = [
        ({"to_club": player.club}, "to_club", "is already registered with"),
        ({"to_club": elsewhere}, "to_club", "is in another union"),
        ({"to_club": same_union, "transferred_on": dt.date(2026, 11, 3)}, "transferred_on", "on or after the day"),
    ]
    for kwargs, field, words in cases:
        with pytest.raises(ValidationError) as refused:
            player_transfer(player=player, **{"transferred_on": ON, **kwargs}, now=NOW)
        assert words in refused.value.message_dict[field][0], (kwargs, refused.value)
    player_transfer(player=player, to_club=same_union, transferred_on=ON, now=NOW, by=UserFactory())
    with pytest.raises(ValidationError, match="last moved on 01 November 2026"):
        player_transfer(player=player, to_club=ClubFactory(union=player.union), transferred_on=dt.date(2026, 10, 1),
                        now=NOW)
    assert Transfer.objects.count() == 1

"""Closing a season and starting the next from it (matches/seasons/services.py), through the services.

The expected champions and final tables are computed here from the approved match rows, not read back from the
standings machinery."""

import datetime as dt
from collections import defaultdict

import pytest
from django.core.exceptions import ValidationError

from clubs import services as club_services
from clubs.models import Team, TeamMembership
from matches.competitions import entries
from matches.competitions import services as competition_services
from matches.competitions.services import competition_fixtures_create
from matches.models import Competition, Match, Season, SeasonHonour, StandingsSnapshot
from matches.results import services as result_services
from matches.seasons import services as seasons
from tests.factories import PlayerFactory, TeamFactory
from tests.season_factories import season_played

pytestmark = pytest.mark.django_db


def _table(competition) -> list[tuple[str, int, int]]:
    """(team name, league points, difference) per team, best first, from the approved results (win 2, draw 1)."""
    points: dict[str, int] = defaultdict(int)
    difference: dict[str, int] = defaultdict(int)
    for team in Team.objects.filter(competition=competition):
        points[team.name] += 0
    for m in Match.objects.filter(competition=competition, result_status=Match.ResultStatus.APPROVED):
        diff = m.home_score - m.away_score
        difference[m.home.name] += diff
        difference[m.away.name] -= diff
        points[m.home.name] += 2 if diff > 0 else 1 if diff == 0 else 0
        points[m.away.name] += 2 if diff < 0 else 1 if diff == 0 else 0
    return sorted(((n, points[n], difference[n]) for n in points), key=lambda t: (-t[1], -t[2], t[0]))


# --- Closing --------------------------------------------------------------------------------------------------


def test_a_season_is_refused_while_a_fixture_is_open_naming_it_and_nothing_is_written():
    played = season_played(approve=False)
    waiting = played.league.matches.exclude(result_status=Match.ResultStatus.APPROVED).get()
    with pytest.raises(ValidationError) as refused:
        seasons.season_close(union=played.union, name="2026", by=played.official)
    (message,) = refused.value.messages
    assert message.startswith("Premier League 2026: 1 of 6 fixtures not yet approved: ")
    assert f"{waiting.home.name} v {waiting.away.name}" in message
    assert not Season.objects.exists() and not SeasonHonour.objects.exists()
    assert not StandingsSnapshot.objects.exists()


def test_a_season_without_fixtures_or_competitions_cannot_close():
    played = season_played()
    spring = competition_services.competition_create(union=played.union, name="Spring League", season="2026")
    with pytest.raises(ValidationError, match="Spring League 2026: no fixtures yet"):
        seasons.season_close(union=played.union, name="2026")
    with pytest.raises(ValidationError, match="has no competition in season 1999"):
        seasons.season_close(union=played.union, name="1999")
    assert spring.pk and not SeasonHonour.objects.exists()


def test_closing_freezes_the_final_table_and_records_the_champions_and_the_cup_winners():
    played = season_played()
    expected = _table(played.league)
    season = seasons.season_close(union=played.union, name="2026", by=played.official)

    assert (season.status, season.closed_by) == (Season.Status.CLOSED, played.official)
    champions = SeasonHonour.objects.get(season=season, kind=SeasonHonour.Kind.CHAMPIONS)
    assert champions.team.name == expected[0][0] == "Athlone Aces 1"
    assert champions.club_name == "Athlone Aces" and champions.competition == played.league
    snapshot = champions.standings
    assert snapshot.title == "Final standings"
    assert [(r["team_name"], r["league_points"], r["difference"]) for r in snapshot.rows] == expected

    final = played.cup.matches.get(round_number=2)
    cup_winners = SeasonHonour.objects.get(season=season, kind=SeasonHonour.Kind.CUP_WINNERS)
    assert cup_winners.final == final
    assert cup_winners.team == final.winner
    assert cup_winners.team_name == "Hanover Park Sturks Cup · Seed 3"  # the upset in the final, not the top seed

    with pytest.raises(ValidationError, match="was closed on"):
        seasons.season_close(union=played.union, name="2026")
    assert [e.competition for e in seasons.season_archive(season=season)] == [played.league, played.cup]


def test_closing_keeps_the_last_publication_when_nothing_was_approved_after_it():
    played = season_played()
    published = result_services.standings_publish(competition=played.league, title="After round 3")
    season = seasons.season_close(union=played.union, name="2026")
    assert SeasonHonour.objects.get(season=season, kind="champions").standings == published
    assert played.league.standings_snapshots.count() == 1


def test_teams_level_on_everything_are_joint_champions():
    played = season_played()
    duo = competition_services.competition_create(union=played.union, name="Veterans", season="2026")
    a = TeamFactory(competition=duo, club=played.clubs[0], name="Aces Veterans")
    b = TeamFactory(competition=duo, club=played.clubs[1], name="Boere Veterans")
    (match,) = competition_fixtures_create(competition=duo, start=dt.date(2026, 5, 6), home_and_away=False)
    result_services.result_correct(match=match, user=played.official, home_score=25, away_score=25, reason="paper")
    result_services.result_approve(match=match, user=played.official)
    season = seasons.season_close(union=played.union, name="2026")
    assert set(SeasonHonour.objects.filter(season=season, competition=duo).values_list("team", flat=True)) == {
        a.pk, b.pk}


def test_a_closed_season_takes_no_new_competition_and_no_new_fixture():
    played = season_played()
    seasons.season_close(union=played.union, name="2026")
    with pytest.raises(ValidationError, match="Season 2026 was closed"):
        competition_services.competition_create(union=played.union, name="Late Cup", season="2026")
    home, away = played.league_teams[:2]
    with pytest.raises(ValidationError, match="Season 2026 was closed"):
        competition_services.match_schedule(competition=played.league, home=home, away=away,
                                scheduled_start=dt.datetime(2026, 12, 1, 19, 30, tzinfo=dt.UTC))
    assert played.league.matches.count() == 6


# --- Starting the next season -----------------------------------------------------------------------------------


def test_the_next_season_starts_only_from_a_closed_one_under_a_new_name():
    played = season_played()
    open_season = Season.objects.create(union=played.union, name="2026")
    with pytest.raises(ValidationError, match="Close season 2026 first"):
        seasons.season_start(season=open_season, name="2027")
    closed = seasons.season_close(union=played.union, name="2026")
    for name, why in (("", "Name the new season"), ("2026", "already has a season 2026"),
                      ("x" * 21, "at most 20 characters")):
        with pytest.raises(ValidationError, match=why):
            seasons.season_start(season=closed, name=name)
    assert Competition.objects.filter(union=played.union).count() == 2


def test_the_next_season_carries_competitions_teams_and_squads_over_as_drafts():
    played = season_played()
    closed = seasons.season_close(union=played.union, name="2026", by=played.official)
    aces = played.league_teams[0]
    squad = [m.player for m in aces.memberships.order_by("id")]
    retired, moved = squad[1], squad[2]
    club_services.player_update(player=retired, active=False)
    from matches.seasons.transfers import player_transfer

    player_transfer(player=moved, to_club=played.clubs[1], transferred_on=dt.date(2026, 11, 1),
                    now=dt.datetime(2026, 11, 2, tzinfo=dt.UTC))
    boere = played.league_teams[1]
    player_transfer(player=boere.captain, to_club=played.clubs[2], transferred_on=dt.date(2026, 11, 1),
                    now=dt.datetime(2026, 11, 2, tzinfo=dt.UTC))

    Competition.objects.filter(pk=played.cup.pk).update(name="Knock-out Cup 2026")  # a name that carries the label

    started = seasons.season_start(season=closed, name="2027", by=played.official)

    assert (started.season.name, started.season.started_from) == ("2027", closed)
    assert [(c.name, c.season, c.kind, c.entries_open) for c in started.competitions] == [
        ("Premier League", "2027", "league", False), ("Knock-out Cup 2027", "2027", "knockout", False)]
    assert not Match.objects.filter(competition__in=started.competitions).exists()
    assert len(started.teams) == 8 and all(t.draft for t in Team.objects.filter(competition__season="2027"))
    new_aces = Team.objects.get(competition=started.competitions[0], club=played.clubs[0])
    assert (new_aces.name, new_aces.carried_over_from, new_aces.captain) == (aces.name, aces, aces.captain)
    assert set(new_aces.players.all()) == set(squad) - {retired, moved}
    new_boere = Team.objects.get(competition=started.competitions[0], club=played.clubs[1])
    assert new_boere.captain is None  # the captain moved to another club: the secretary names another
    cup_team = Team.objects.get(competition=started.competitions[1], club=played.clubs[2])
    assert (cup_team.name, cup_team.seed) == ("Hanover Park Sturks Cup · Seed 3", 3)
    assert sorted(started.left_out) == sorted([
        f"{retired.full_name} ({aces.name}): no longer active.",
        f"{moved.full_name} ({aces.name}): now registered with Bonteheuwel Boere.",
        f"{boere.captain.full_name} ({boere.name}): now registered with Hanover Park Sturks.",
    ])
    history = new_aces.history.first()
    assert (history.history_user, history.history_change_reason) == (
        played.official, "carried over from season 2026 as a draft")
    with pytest.raises(ValidationError, match="already has a season 2027"):
        seasons.season_start(season=closed, name="2027")


def test_drafts_hold_the_fixtures_until_their_secretaries_confirm_or_withdraw_them():
    played = season_played()
    started = seasons.season_start(season=seasons.season_close(union=played.union, name="2026"), name="2027")
    league = started.competitions[0]
    with pytest.raises(ValidationError, match="4 carried-over teams are still a draft: Athlone Aces 1"):
        competition_fixtures_create(competition=league, start=dt.date(2027, 2, 3))

    aces = Team.objects.get(competition=league, club=played.clubs[0])
    gone = aces.memberships.order_by("id")[1:3]
    TeamMembership.objects.filter(pk__in=[m.pk for m in gone]).delete()  # 7 left
    with pytest.raises(ValidationError, match="SAKBOC 1.5: a full team is 8 registered players; the squad has 7"):
        seasons.team_draft_confirm(team=aces)
    club_services.team_player_add(team=aces, player=PlayerFactory(club=played.clubs[0]))
    assert seasons.team_draft_confirm(team=aces).draft is False
    assert seasons.team_draft_confirm(team=aces).draft is False  # confirming again changes nothing

    drafts = seasons.drafts_for(clubs=played.clubs)
    assert aces not in drafts and len(drafts) == 7
    for team in Team.objects.filter(competition=league, draft=True):
        if team.club == played.clubs[3]:
            entries.team_withdraw(team=team)
        else:
            seasons.team_draft_confirm(team=team)
    created = competition_fixtures_create(competition=league, start=dt.date(2027, 2, 3))
    assert len(created) == 6  # 3 teams, home and away
    with pytest.raises(ValidationError, match="fixtures are made"):
        seasons.team_draft_confirm(team=Team.objects.create(club=played.clubs[3], competition=league, name="Late",
                                                            draft=True))


def test_the_next_seasons_name_follows_the_last():
    assert [seasons.season_next_name(n) for n in ("2026", "2026/27", "2026-2027", "Winter", "1999/00")] == [
        "2027", "2027/28", "2027-2028", "", "2000/01"]


def test_the_official_seasons_list_shows_open_and_closed_seasons():
    played = season_played()
    closed = seasons.season_close(union=played.union, name="2026")
    seasons.season_start(season=closed, name="2027")
    lines = seasons.union_seasons(union=played.union)
    assert [(line.name, line.is_closed, line.next_started, len(line.competitions)) for line in lines] == [
        ("2027", False, False, 2), ("2026", True, True, 2)]
    archive = list(seasons.closed_seasons())
    assert archive == [closed] and len(archive[0].honours.all()) == 2

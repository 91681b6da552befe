"""A season played to its end through the services, for the season-close, rollover and transfer tests (service,
API and browser).

``season_played()`` builds a union with an official and four clubs, a league of four teams (squads of 9, one
round robin, 6 fixtures) and a knock-out cup of four other teams (semi-finals and a final scheduled by
``knockout_advance``), with every result entered by the official and approved (``result_correct`` then
``result_approve``), so the standings and the cup's final are what the services made of them. ``approve=False``
leaves the league's last fixture unplayed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from clubs import services as club_services
from matches.competitions import services as competition_services
from matches.competitions.services import competition_fixtures_create
from matches.models import Competition, Match
from matches.results import services as result_services
from tests.factories import ClubFactory, TeamFactory, UnionFactory, UserFactory

CLUB_NAMES = ("Athlone Aces", "Bonteheuwel Boere", "Hanover Park Sturks", "Mitchells Plain Manels")
#: The league's home score against each opponent: strength 4, 3, 2, 1 (the first club is strongest).
LEAGUE_STRENGTH = (4, 3, 2, 1)
#: The cup's semi-finals are won by seeds 1 and 3; the final by seed 3 (an upset: the winner is not the top seed).
CUP_SCORES = {("Seed 1", "Seed 4"): (34, 20), ("Seed 2", "Seed 3"): (18, 30), ("Seed 1", "Seed 3"): (22, 28)}


@dataclass
class PlayedSeason:
    union: object
    official: object
    clubs: list
    league: Competition
    cup: Competition
    league_teams: list
    cup_teams: list


def _score(match: Match) -> tuple[int, int]:
    if match.competition.is_knockout:
        return CUP_SCORES[(match.home.name.split(" · ")[-1], match.away.name.split(" · ")[-1])]
    home = LEAGUE_STRENGTH[int(match.home.name[-1]) - 1]
    away = LEAGUE_STRENGTH[int(match.away.name[-1]) - 1]
    return 20 + 3 * home, 20 + 3 * away


def play(match: Match, official) -> Match:
    """The official enters the match's score (a paper result) and approves it."""
    home, away = _score(match)
    result_services.result_correct(match=match, user=official, home_score=home, away_score=away, reason="paper sheet")
    return result_services.result_approve(match=match, user=official)


def season_played(*, label: str = "2026", approve: bool = True, official=None, union=None) -> PlayedSeason:
    union = union or UnionFactory(name="Cape Klawerjas Union", short_name="CKU")
    official = official or UserFactory(first_name="Fatima", last_name="Abrahams")
    club_services.union_official_add(union=union, user=official)
    clubs = [ClubFactory(union=union, name=name) for name in CLUB_NAMES]
    league = competition_services.competition_create(union=union, name="Premier League", season=label)
    league_teams = [TeamFactory(competition=league, club=club, name=f"{club.name} {n}", squad=9)
                    for n, club in enumerate(clubs, start=1)]
    cup = competition_services.competition_create(union=union, name="Knock-out Cup", season=label,
                                      kind=Competition.Kind.KNOCKOUT)
    cup_teams = [TeamFactory(competition=cup, club=club, name=f"{club.name} Cup · Seed {n}", seed=n, squad=8)
                 for n, club in enumerate(clubs, start=1)]
    league_matches = competition_fixtures_create(competition=league, start=dt.date(2026, 2, 4), home_and_away=False)
    for match in league_matches[:-1] if not approve else league_matches:
        play(match, official)
    for match in competition_fixtures_create(competition=cup, start=dt.date(2026, 3, 4)):
        play(match, official)
    final = cup.matches.get(round_number=2)
    play(final, official)
    return PlayedSeason(union=union, official=official, clubs=clubs, league=league, cup=cup,
                        league_teams=league_teams, cup_teams=cup_teams)

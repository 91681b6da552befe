"""The fixture generators: league round robin (home and away, dated) and the knock-out bracket with byes."""

import datetime as dt
from collections import Counter
from itertools import permutations

import pytest

from matches.competitions.fixtures import FixtureError, TieWinner, knockout_bracket, league_round_robin

START = dt.date(2026, 2, 3)


def _runs(venues: str) -> int:
    longest = current = 0
    previous = ""
    for venue in venues:
        current = current + 1 if venue == previous else 1
        previous = venue
        longest = max(longest, current)
    return longest


@pytest.mark.parametrize("n", range(2, 15))
def test_every_pair_meets_once_at_each_venue(n):
    teams = [f"T{i}" for i in range(n)]
    rounds = league_round_robin(teams, start=START)
    played = Counter((p.home, p.away) for r in rounds for p in r.pairings)
    assert set(played) == set(permutations(teams, 2))
    assert set(played.values()) == {1}
    assert len(rounds) == 2 * (n - 1 if n % 2 == 0 else n)


@pytest.mark.parametrize("n", range(2, 15))
def test_each_team_plays_at_most_once_a_round_and_odd_fields_get_one_bye_per_half(n):
    teams = list(range(n))
    rounds = league_round_robin(teams, start=START)
    for r in rounds:
        seen = [t for p in r.pairings for t in (p.home, p.away)] + ([r.bye] if r.bye is not None else [])
        assert sorted(seen) == teams
    byes = Counter(r.bye for r in rounds if r.bye is not None)
    assert byes == (Counter({t: 2 for t in teams}) if n % 2 else Counter())


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 16])
def test_venues_alternate_within_each_half(n):
    rounds = league_round_robin(list(range(n)), start=START, home_and_away=False)
    venues = {t: "" for t in range(n)}
    for r in rounds:
        for p in r.pairings:
            venues[p.home] += "H"
            venues[p.away] += "A"
    assert max(_runs(v) for v in venues.values()) <= 2
    assert {v.count("H") for v in venues.values()} <= {(n - 1) // 2, n // 2}


def test_rounds_are_dated_weekly_and_skip_dates_move_the_round_on():
    holiday = START + dt.timedelta(days=14)
    rounds = league_round_robin(["A", "B", "C", "D"], start=START, skip_dates=[holiday])
    dates = [r.date for r in rounds]
    assert dates[:3] == [START, START + dt.timedelta(days=7), START + dt.timedelta(days=21)]
    assert holiday not in dates
    assert dates == sorted(set(dates))


def test_single_round_robin_meets_each_pair_once():
    rounds = league_round_robin("ABCDEF", start=START, home_and_away=False)
    pairs = Counter(frozenset((p.home, p.away)) for r in rounds for p in r.pairings)
    assert len(pairs) == 15 and set(pairs.values()) == {1}


@pytest.mark.parametrize("bad", [[], ["A"], ["A", "A", "B"]])
def test_league_rejects_too_few_or_repeated_teams(bad):
    with pytest.raises(FixtureError):
        league_round_robin(bad, start=START)


def test_league_rejects_zero_day_interval():
    with pytest.raises(FixtureError):
        league_round_robin("AB", start=START, days_between_rounds=0)


def test_bracket_of_five_gives_byes_to_the_top_three_seeds():
    rounds = knockout_bracket(list("ABCDE"), start=START)
    assert [r.name for r in rounds] == ["Quarter-finals", "Semi-finals", "Final"]
    first = rounds[0].ties
    byes = {t.home for t in first if t.is_bye}
    assert byes == {"A", "B", "C"}
    assert [(t.home, t.away) for t in first if not t.is_bye] == [("D", "E")]
    final = rounds[-1].ties[0]
    assert final.number == 7 and (final.home, final.away) == (TieWinner(5), TieWinner(6))
    assert rounds[-1].date == START + dt.timedelta(days=14)


@pytest.mark.parametrize("n", range(2, 34))
def test_bracket_shape_for_any_field(n):
    teams = list(range(1, n + 1))
    rounds = knockout_bracket(teams)
    size = len(rounds[0].ties) * 2
    assert size >= n > size // 2
    first = rounds[0].ties
    entrants = [t.home for t in first] + [t.away for t in first if t.away is not None]
    assert sorted(entrants) == teams
    assert sum(t.is_bye for t in first) == size - n
    # Byes go to the best seeds, never bye against bye.
    assert sorted(t.home for t in first if t.is_bye) == teams[: size - n]
    # Seeds 1 and 2 are in different halves: they can meet only in the final.
    half = len(first) // 2
    if n >= 2 and half:
        top = {t.home for t in first[:half]} | {t.away for t in first[:half]}
        assert (1 in top) != (2 in top)
    assert len(rounds[-1].ties) == 1


def test_bracket_rejects_a_single_entrant():
    with pytest.raises(FixtureError):
        knockout_bracket(["A"])

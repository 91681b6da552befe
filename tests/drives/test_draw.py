"""The draw of a drive's round (drives/draw.py): partners without repeats when avoidable, byes that rotate."""

from collections import Counter
from itertools import combinations

import pytest

from drives.draw import draw_round, pair_key


def _partners(result):
    return [pair for s0, s1, s2, s3 in result.tables for pair in ((s0, s2), (s1, s3))]


def test_the_same_seed_and_history_give_the_same_draw_and_another_seed_another():
    players = list(range(1, 13))
    assert draw_round(players, seed="a") == draw_round(players, seed="a")
    assert draw_round(players, seed="a").tables != draw_round(players, seed="b").tables


def test_eight_players_seven_rounds_never_partner_twice():
    # 8 players can each partner all 7 others once (a round robin of partners): the draw must find it.
    players = list(range(8))
    history: list[tuple[int, int]] = []
    for round_number in range(7):
        result = draw_round(players, seed=round_number, night_partners=history, season_partners=history)
        assert result.repeats_night == 0
        assert sorted(p for t in result.tables for p in t) == players
        history += _partners(result)
    assert Counter(pair_key(a, b) for a, b in history) == Counter(pair_key(a, b) for a, b in combinations(players, 2))


def test_season_repeats_are_kept_to_the_fewest():
    # 12 players, 3 nights of 3 rounds: no repeat within a night, and over 9 rounds (18 partnerships each
    # night) of 66 possible pairs no pair is drawn twice.
    players = list(range(12))
    season: list[tuple[int, int]] = []
    for night in range(3):
        tonight: list[tuple[int, int]] = []
        for boom in range(3):
            result = draw_round(players, seed=f"{night}-{boom}", night_partners=tonight, season_partners=season)
            assert result.repeats_night == 0
            tonight += _partners(result)
        season += tonight
    assert max(Counter(pair_key(a, b) for a, b in season).values()) == 1


def test_byes_rotate_among_the_odd_players_out():
    players = list(range(10))  # 2 tables, 2 byes a round
    byes: list[int] = []
    for boom in range(5):
        result = draw_round(players, seed=boom, byes_so_far=byes)
        assert len(result.byes) == 2 and len(result.tables) == 2
        assert not set(result.byes) & {p for t in result.tables for p in t}
        byes += result.byes
    assert sorted(byes) == players  # 5 rounds x 2 byes: everybody sat out exactly once


def test_fixed_pairs_stay_together_and_an_odd_pair_sits_out():
    pairs = [(1, 2), (3, 4), (5, 6)]
    byes: list[int] = []
    for boom in range(3):
        result = draw_round([], seed=boom, fixed_pairs=pairs, byes_so_far=byes)
        assert len(result.tables) == 1 and len(result.byes) == 2
        s0, s1, s2, s3 = result.tables[0]
        assert {pair_key(s0, s2), pair_key(s1, s3)} <= {pair_key(a, b) for a, b in pairs}
        byes += result.byes[:1]
    assert sorted(byes) == [1, 3, 5]


def test_too_few_players_or_a_player_twice_is_refused():
    with pytest.raises(ValueError):
        draw_round([1, 2, 3], seed=1)
    with pytest.raises(ValueError):
        draw_round([1, 2, 3, 3], seed=1)

"""The drive's season ranking (drives/ranking.py): by total, or by the average of the best N nights."""

from drives.ranking import rank_season


def test_best_six_of_eight_strikes_off_the_two_worst_nights():
    scores = {
        "anna": [(n, s) for n, s in enumerate([3000, 2500, 4000, 3500, 1000, 3200, 2900, 3100], start=1)],
        "ben": [(n, 3000) for n in range(1, 9)],
    }
    lines = rank_season(scores, best_nights=6)
    anna = next(line for line in lines if line.player == "anna")
    struck = [n for n, _s, counted in anna.nights if not counted]
    assert struck == [2, 5]  # 2500 and 1000 are struck off
    assert anna.total == 3000 + 4000 + 3500 + 3200 + 2900 + 3100
    assert anna.value == anna.total / 6
    assert [line.player for line in lines] == ["anna", "ben"]  # 3283.3 a night beats 3000


def test_by_total_every_night_counts_and_equal_totals_share_a_position():
    lines = rank_season({"a": [(1, 10), (2, 20)], "b": [(1, 30)], "c": [(2, 5)]})
    assert [(line.player, line.position, line.value) for line in lines] == [("a", 1, 30.0), ("b", 1, 30.0),
                                                                           ("c", 3, 5.0)]
    assert all(counted for line in lines for _n, _s, counted in line.nights)


def test_fewer_nights_than_n_average_what_was_played():
    lines = rank_season({"a": [(1, 100)], "b": [(1, 90), (2, 80)]}, best_nights=6)
    assert [(line.player, line.value) for line in lines] == [("a", 100.0), ("b", 85.0)]

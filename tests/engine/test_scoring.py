"""Going on, strokes, ou jol and the boem (Notes §IV-§VI; SAKBOC 6.1, 6.2, 7.3, 8.12, 8.17, 8.19, 8.21)."""

from __future__ import annotations

import pytest

from engine.ruleset import SAKBOC_2004
from engine.scoring import (
    BoemState,
    GameState,
    GameStateError,
    SideCount,
    boem_points,
    defence_count,
    going_on_count,
    may_go_on,
    outright_strokes,
    straf_points,
    strokes_for,
)


def test_going_on_at_100() -> None:
    assert may_go_on(SideCount(tricks_points=100, tricks_taken=5), old_play=False)
    assert not may_go_on(SideCount(tricks_points=99, tricks_taken=5), old_play=False)
    assert may_go_on(SideCount(tricks_points=80, tricks_taken=4, roem=20), old_play=False)


def test_two_strokes_when_opponents_under_50_counting_their_roem_and_sturk() -> None:
    assert strokes_for(SideCount(tricks_points=49)) == 2
    assert strokes_for(SideCount(tricks_points=50)) == 1
    assert strokes_for(SideCount(tricks_points=30, sturk=20)) == 1  # Notes §VI: sturk counts at once
    assert strokes_for(SideCount(tricks_points=10, roem=20, tally=19)) == 2
    assert strokes_for(49) == 2


def test_old_play_needs_a_trick_first() -> None:  # SAKBOC 8.19
    side = SideCount(tally=90, tricks_points=0, tricks_taken=0, roem=20)
    assert not may_go_on(side, old_play=True)
    assert may_go_on(SideCount(tally=90, tricks_points=3, tricks_taken=1, roem=20), old_play=True)


def test_old_play_sturk_counts_only_after_a_trick_but_defends_at_once() -> None:  # SAKBOC 8.12, Notes §VI
    side = SideCount(tally=85, sturk=20)
    assert going_on_count(side, old_play=True) == 85
    assert going_on_count(side, old_play=False) == 105
    assert defence_count(side) == 105
    relaxed = SAKBOC_2004.replace(name="t", old_play_going_on="roem-ritual")
    assert not may_go_on(side, old_play=True, ruleset=relaxed)
    assert may_go_on(SideCount(tally=85, sturk=20, tricks_taken=1), old_play=True, ruleset=relaxed)


def test_two_fifties_need_a_trick_in_new_play() -> None:  # SAKBOC 8.21
    side = SideCount(roem=100, two_fifties=True)
    assert not may_go_on(side, old_play=False)
    assert may_go_on(SideCount(roem=100, two_fifties=True, tricks_taken=1), old_play=False)


def test_outright_strokes_and_old_play_exception() -> None:  # SAKBOC 8.17
    for kind in ("four-jacks", "vyf-eenderse", "four-aces", "four-kings", "four-queens"):
        assert outright_strokes(kind, old_play=False, opponents=80) == 2
    assert outright_strokes("four-aces", old_play=True, opponents=50) == 1
    assert outright_strokes("four-queens", old_play=True, opponents=SideCount(tally=49, sturk=20)) == 1
    assert outright_strokes("four-kings", old_play=True, opponents=49) == 2
    assert outright_strokes("four-jacks", old_play=True, opponents=90) == 2
    assert outright_strokes("vyf-eenderse", old_play=True, opponents=90) == 2
    with pytest.raises(ValueError):
        outright_strokes("fifty", old_play=False, opponents=0)


def test_boem_to_five_never_more_than_two_at_once() -> None:  # SAKBOC 7.3
    b = BoemState()
    with pytest.raises(ValueError):
        b.go_on(0, 3)
    b = b.go_on(0, 2).go_on(1, 1).go_on(0, 2)
    assert b.strokes == (4, 1) and not b.finished
    b = b.go_on(0, 2)
    assert b.strokes == (5, 1) and b.finished and b.winner == 0
    assert b.match_points() == (2, 0)
    with pytest.raises(ValueError):
        b.go_on(1, 1)


def test_boem_points_6_1() -> None:
    assert boem_points((5, 0)) == (4, 0)
    assert boem_points((3, 5)) == (0, 2)
    assert boem_points((4, 3)) == (0, 0)  # unfinished: nothing (interpretation 3)


def test_straf_points_6_2() -> None:
    assert straf_points(3, 0) == 4
    assert straf_points(4, 0) == 4
    assert straf_points(4, 1) == 2  # opponents have gone on
    assert straf_points(2, 0) == 2
    clear = SAKBOC_2004.replace(name="t2", straf_four_points="three-or-four-strokes-clear")
    assert straf_points(4, 1, clear) == 4


def test_game_state_ou_jol_carry_and_record() -> None:
    s = GameState().carry((70, 76), (20, 0))
    assert s.old_play and s.tallies == (70, 76) and s.roem == (20, 0)
    s2 = s.carry((60, 86), (20, 20))
    assert s2.tallies == (130, 162) and s2.roem == (40, 20)  # SAKBOC 8.15: roem accumulates
    assert GameState.from_record(s2.to_record()) == s2
    assert GameState.from_record(None) == GameState()
    with pytest.raises(GameStateError, match="tallies"):
        GameState.from_record({"tallies": [1]})
    assert s2.new_game((2, 0)) == GameState(strokes=(2, 0))

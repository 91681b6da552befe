"""Properties of the core (hypothesis): 146 points, legal sets never empty, reproducible bots, fast loop = reference."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.fastplay import play_random_hands
from engine.play import legal_mask
from engine.ruleset import SAKBOC_2004
from engine.simulate import deal, play_boem, play_hand

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_every_random_legal_hand_totals_146(seed: int) -> None:
    rng = random.Random(seed)
    h = play_hand(deal(rng, seed % 4), rng, policy="random")
    assert sum(h.tricks_points) == 146
    assert sum(pts for *_, pts in h.tricks) == 146


@settings(max_examples=200, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=31))
def test_legal_set_never_empty(seed: int, plays: int) -> None:
    rng = random.Random(seed)
    d = deal(rng, seed % 4)
    hands = list(d.hands)
    seat = d.leader
    trick: list[int] = []
    for _ in range(plays):
        legal = legal_mask(hands[seat], trick, d.trump)
        assert legal and legal & hands[seat] == legal
        cards = [c for c in range(32) if legal >> c & 1]
        c = rng.choice(cards)
        hands[seat] ^= 1 << c
        trick.append(c)
        seat = (seat + 1) % 4
        if len(trick) == 4:
            trick = []
    legal = legal_mask(hands[seat], trick, d.trump)
    assert legal or not hands[seat]


@settings(max_examples=10, deadline=None)
@given(seeds)
def test_bot_boems_are_reproducible(seed: int) -> None:
    assert play_boem(seed).records == play_boem(seed).records


@settings(max_examples=25, deadline=None)
@given(seeds, st.integers(min_value=1, max_value=4))
def test_fast_random_hands_equal_the_readable_reference(seed: int, count: int) -> None:
    # same random numbers, same model: the inlined loop and the legal_mask/engine.roem/engine.scoring path
    fast = play_random_hands(count, seed)
    assert fast == play_random_hands(count, seed, _generic=True)
    assert sum(fast.card_points) == 146 * count
    assert sum(fast.went_on) <= count and fast.roem_hands <= count


def test_other_legality_flags_use_the_reference_path() -> None:
    dutch_like = SAKBOC_2004.replace(name="test-must-trump", must_trump_when_void=True, must_overtrump=True)
    stats = play_random_hands(150, 2, dutch_like)
    assert sum(stats.card_points) == 146 * 150
    assert stats == play_random_hands(150, 2, dutch_like, _generic=True)

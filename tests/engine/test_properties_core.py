"""Properties of the core (hypothesis): 146 points, legal sets never empty, reproducible bots."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.play import legal_mask
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

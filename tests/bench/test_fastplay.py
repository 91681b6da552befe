"""The benchmark's fast random-hand loop (bench.fastplay): its exact deal, its uniform card choice, its
local hands and roem keys, and the readable reference it must equal hand by hand (SAKBOC 1.7, 3.2-3.4, 8;
Notes §IV-§VI)."""

from __future__ import annotations

import bisect
import math
import random

from bench.fastplay import (
    _DEAL_WAYS,
    _OUTRIGHT,
    _RADIX,
    _TRICK_BITS,
    _TRICK_LIMIT,
    _deal_buckets,
    _deal_index,
    _deal_tables,
    _decode_deal,
    _local_tables,
    _random_deal_numbers,
    _roem_tables,
    _seat_key,
    play_random_hands,
)
from engine.cards import FULL_DECK, cards_of, parse_hand
from engine.roem import best_call, call_key
from engine.ruleset import SAKBOC_2004
from engine.simulate import deal


def test_fast_loop_agrees_with_the_readable_reference() -> None:
    # the reference plays the same random numbers with legal_mask, engine.roem and engine.scoring
    for seed in (9, 10):
        fast = play_random_hands(2500, seed)
        assert fast == play_random_hands(2500, seed, _generic=True)
        assert sum(fast.card_points) == 146 * 2500
        assert fast.went_on[0] <= fast.strokes[0] <= 2 * fast.went_on[0]
        assert fast.went_on[1] <= fast.strokes[1] <= 2 * fast.went_on[1]
        assert 0 < sum(fast.went_on) < 2500 and fast.roem_hands > 0 and min(fast.roem) > 0
    # hand by hand, so a difference in one hand cannot hide behind totals that happen to agree
    for seed in range(300):
        assert play_random_hands(1, seed) == play_random_hands(1, seed, _generic=True), seed


def test_fast_loop_is_reproducible() -> None:
    assert play_random_hands(500, 3) == play_random_hands(500, 3)
    assert play_random_hands(500, 3) != play_random_hands(500, 4)


# --- the exact deal of the fast loop (bench.fastplay, comment above _DEAL_WAYS) ---------------------------


def _chi2_limit(df: int, z: float = 3.29) -> float:
    """Wilson-Hilferty: the chi-square value exceeded with probability about 0.0005 for ``df`` degrees."""
    return float(df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3)


def _chi2(observed: list[int], expected: list[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def test_deal_numbering_is_a_bijection_by_construction() -> None:
    dt = _deal_tables()
    assert _DEAL_WAYS == math.factorial(32) // math.factorial(8) ** 4
    # the blocks of the first bisection add up to all deals, those of every state to its T
    last = dt.pairs[-1]
    starts, opts = dt.states[last[0]]
    assert dt.cum1[-1] + last[1] * last[2] * (starts[-1] + opts[-1][0] * (len(opts[-1][2]))) == _DEAL_WAYS
    for suit in range(4):
        assert sum(len(a) for a in dt.arrangements[suit].values()) == 4**8
        for counts, arr in dt.arrangements[suit].items():
            assert len(arr) == math.factorial(8) // math.prod(math.factorial(c) for c in counts)
            assert len(set(arr)) == len(arr)
            for packed in arr:
                assert tuple((packed >> (32 * p + 8 * suit) & 255).bit_count() for p in range(4)) == counts
                assert packed >> (8 * suit) & ~(0xFF | 0xFF << 32 | 0xFF << 64 | 0xFF << 96) == 0
    # round trips: number -> deal -> number at the ends, at block edges and at random
    rng = random.Random(2024)
    numbers = [0, 1, _DEAL_WAYS - 1] + [rng.randrange(_DEAL_WAYS) for _ in range(1500)]
    numbers += [n for c in dt.cum1[1:400:7] for n in (c - 1, c, c + 1)]
    for n in numbers:
        hands = _decode_deal(n)
        assert all(h.bit_count() == 8 for h in hands) and hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK
        assert _deal_index(hands) == n
    # deal -> number -> deal for shuffled packs
    for _ in range(1500):
        d = deal(rng, rng.randrange(4))
        assert _decode_deal(_deal_index(d.hands)) == d.hands


def test_deal_buckets_give_the_same_block_as_a_full_bisection() -> None:
    cum1 = _deal_tables().cum1
    flat, lo, hi = _deal_buckets()
    assert list(flat) == cum1 and len(lo) == len(hi) == (_DEAL_WAYS >> 42) + 1
    rng = random.Random(42)
    numbers = [0, _DEAL_WAYS - 1] + [rng.randrange(_DEAL_WAYS) for _ in range(20_000)]
    numbers += [n for c in cum1[1:] for n in (c - 1, c)]  # both sides of every block edge
    for n in numbers:
        j = n >> 42
        assert bisect.bisect_right(flat, n, lo[j], hi[j]) == bisect.bisect_right(cum1, n), n


def test_fast_deal_is_uniform() -> None:
    """Chi-square tests over 100,000 deals against the exact laws (fixed seed, so deterministic)."""
    rng = random.Random(77)
    n = 100_000
    spades = [0] * 9  # seat 0's spades: hypergeometric
    owner = [[0] * 4 for _ in range(32)]  # who holds each card: 1/4 each
    dealers = [0] * 4
    trumps_held = [0] * 9  # trumps in the dealer's hand: 1 + hypergeometric(7 of 31, 7 trumps left)
    profile: dict[tuple[int, ...], int] = {}  # seat 2's suit lengths (S, H, D, C)
    for _ in range(n):
        number, dealer, face = _random_deal_numbers(rng)
        hands = _decode_deal(number)
        spades[(hands[0] & 0xFF).bit_count()] += 1
        for seat, h in enumerate(hands):
            for c in cards_of(h):
                owner[c][seat] += 1
        dealers[dealer] += 1
        trump = cards_of(hands[dealer])[face] >> 3
        trumps_held[(hands[dealer] >> (8 * trump) & 0xFF).bit_count()] += 1
        key = tuple((hands[2] >> (8 * s) & 0xFF).bit_count() for s in range(4))
        profile[key] = profile.get(key, 0) + 1

    c328 = math.comb(32, 8)
    p_sp = [math.comb(8, k) * math.comb(24, 8 - k) / c328 for k in range(9)]
    obs, exp = spades[:5] + [sum(spades[5:])], [n * p for p in p_sp[:5]] + [n * sum(p_sp[5:])]
    assert _chi2(obs, exp) < _chi2_limit(len(obs) - 1)

    obs = [o for row in owner for o in row]
    assert _chi2(obs, [n / 4] * len(obs)) < _chi2_limit(32 * 3)
    assert _chi2(dealers, [n / 4] * 4) < _chi2_limit(3)

    p_tr = [0.0] + [math.comb(7, k - 1) * math.comb(24, 8 - k) / math.comb(31, 7) for k in range(1, 9)]
    obs = trumps_held[1:5] + [sum(trumps_held[5:])]
    exp = [n * p for p in p_tr[1:5]] + [n * sum(p_tr[5:])]
    assert trumps_held[0] == 0 and _chi2(obs, exp) < _chi2_limit(len(obs) - 1)

    exact = {}
    for s0 in range(9):
        for s1 in range(9 - s0):
            for s2 in range(9 - s0 - s1):
                k = (s0, s1, s2, 8 - s0 - s1 - s2)
                exact[k] = math.prod(math.comb(8, c) for c in k) / c328
    big = [k for k in exact if n * exact[k] >= 10]
    obs = [profile.get(k, 0) for k in big] + [n - sum(profile.get(k, 0) for k in big)]
    exp = [n * exact[k] for k in big] + [n * (1 - sum(exact[k] for k in big))]
    assert abs(sum(exact.values()) - 1) < 1e-12
    assert _chi2(obs, exp) < _chi2_limit(len(obs) - 1)


def test_card_choice_digits_are_uniform_below_every_hand_size() -> None:
    # r uniform below 840**4 by rejection; its base-840 digits taken mod n (n <= 8) are uniform (840 = lcm(1..8))
    assert all(_RADIX % n == 0 for n in range(1, 9)) and _TRICK_LIMIT == _RADIX**4 < 2**_TRICK_BITS
    rng = random.Random(5)
    counts = {n: [0] * n for n in (3, 5, 6, 7)}
    for _ in range(20_000):
        r = rng.getrandbits(_TRICK_BITS)
        while r >= _TRICK_LIMIT:
            r = rng.getrandbits(_TRICK_BITS)
        for n in (3, 5, 6, 7):
            counts[n][r % n] += 1
            r //= _RADIX
    for n, obs in counts.items():
        assert _chi2(obs, [20_000 / n] * n) < _chi2_limit(n - 1)


def test_local_hands_index_a_hands_cards_in_card_order() -> None:
    """The play loop's 8-bit local hands (bench.fastplay, comment above _LocalTables): the k-th set bit of
    a local mask is the k-th card of the same cards in card order, suits and pext agree with the cards."""
    lt = _local_tables()
    rng = random.Random(6)
    for _ in range(3000):
        deck = list(range(32))
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[:8])
        by_suit = [hand >> (8 * s) & 255 for s in range(4)]
        ids = lt.ids[0][by_suit[0]] + lt.ids[1][by_suit[1]] + lt.ids[2][by_suit[2]] + lt.ids[3][by_suit[3]]
        assert ids == tuple(cards_of(hand))
        lengths = [b.bit_count() for b in by_suit]
        trump = rng.randrange(4)
        local = lt.suits[trump][((lengths[0] * 9 + lengths[1]) * 9 + lengths[2]) * 9 + lengths[3]]
        for s in range(4):
            assert local[s] == sum(1 << i for i, c in enumerate(ids) if c >> 3 == s)
            assert local[s + 4] == local[s] | local[trump]  # the suit led or trumps
        assert local[8] == local[trump]
        legal = rng.getrandbits(8)
        assert [ids[i] for i in lt.kth[legal]] == [c for i, c in enumerate(ids) if legal >> i & 1]
        assert lt.count[legal] == legal.bit_count()
        assert lt.bit[lt.low[legal]] == legal & -legal or legal == 0
        wanted = rng.getrandbits(8)
        got = lt.pext[by_suit[trump] << 8 | wanted] << lt.low[local[trump]]
        assert got == sum(1 << i for i, c in enumerate(ids) if c >> 3 == trump and wanted >> (c & 7) & 1)


def test_packed_roem_keys_rank_calls_like_engine_roem() -> None:
    """The fast loop's per-seat key orders calls as engine.roem.call_key / outranks (SAKBOC 8.2-8.4, 8.7)."""
    rt = _roem_tables(SAKBOC_2004)
    rng = random.Random(8)
    hands = [parse_hand("AS KS QS JS TS 9H 8H 7H"), parse_hand("JS JH JD JC AS KS QS 7D"),
             parse_hand("AS AH AD AC KH QH JH 7C"), parse_hand("KS QS JS KH QH JH 7D 8D")]
    while len(hands) < 3000:
        deck = list(range(32))
        rng.shuffle(deck)
        h = sum(1 << c for c in deck[:8])
        if best_call(h, 0) is not None:
            hands.append(h)
    for i, h in enumerate(hands):
        trump = i % 4
        other = hands[(i * 7 + 3) % len(hands)]
        mine, theirs = best_call(h, trump), best_call(other, trump)
        assert mine is not None and theirs is not None
        km, kt = _seat_key(h, trump, 0, rt), _seat_key(other, trump, 0, rt)
        assert (km > kt) == (call_key(mine) > call_key(theirs))
        assert (km == kt) == (call_key(mine) == call_key(theirs))
        assert (km >> 8 if km < _OUTRIGHT else 0) == mine.points
        assert (km >= _OUTRIGHT) == (mine.outright is not None)
    assert _seat_key(parse_hand("AS QS TS 8S AH QH TH 8H"), 0, 0, rt) == 0

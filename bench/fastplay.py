"""The benchmark's fast loop: random complete hands, as many a second as pure Python allows.

:func:`play_random_hands` is the loop behind ``bench/engine_hands.py``: exactly uniform deals (no
shuffle: a uniform deal number decoded through the suits' count tables), uniformly random legal cards
(SAKBOC 3.2-3.4), the first-round roem competition (SAKBOC 8.2-8.4, 8.9; Notes §VI), sturk and going on
(SAKBOC 7.3, 8.17, 8.21; Notes §V, §VI). :func:`_reference_random_hands` is the same model written card
by card with :mod:`engine.play`, :mod:`engine.roem` and :mod:`engine.scoring`; the tests hold the two
equal hand by hand (``tests/bench/test_fastplay.py``). Nothing in the engine or the site uses this module, so it
lives with the benchmarks, outside the library, and uses only the engine's public modules: the rule-following
bot that deals and plays hands, games and boems is :mod:`engine.simulate`.

Why the loop is written out per seat. Its trick code stands four times, once for each seat that leads, with
the three followers in order, and the deal, the roem keys and the Boer once per seat: so the four hands,
their suits and trumps stay local variables (``h0``..``h3``, ``s0``..``s3``, ``t0``..``t3``), which CPython
reads and writes fastest. Written once, over a list of hands and a loop over the followers (the same
cards, the tests held it equal), the benchmark (``bench/engine_hands.py 100000 2``, whole process) took
1.15 times the CPU time (median of 5 pairs; the loop alone about 1.2 times: some 60,000 hands/s against
72,000), far above the 5 % the clarity was worth, so the copies stay. One function for a follower's card,
shared by the three followers over lists of the seats' hands (2026-11-24, the same cards hand by hand), took
1.21-1.23 times the CPU time of a process that only plays the loop (400,000 hands; medians of 7 pairs, two
series) and 1.09 times the benchmark's (median of 5 pairs; 61,000 hands/s against 78,000), above 5 % too.
Every number in them is named: the random digits' radix (:data:`_RADIX`, and ``radix2`` = its square for the
third follower), the bits drawn (:data:`_DEAL_BITS`, :data:`_TRICK_BITS`), the deal buckets
(:data:`_BUCKET_SHIFT`), the first trump power (:data:`_FIRST_TRUMP_POWER`), a full local hand
(:data:`_ALL_LOCAL`), the roem fields (:data:`_CALL_BITS`, :data:`_POINTS_SHIFT`); the loop binds them to
local variables, which cost no more than literals.
"""

from __future__ import annotations

import array
import bisect
import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import JACK, KING, QUEEN, cards_of
from engine.play import legal_mask, play_tables, trick_points
from engine.roem import RoemCall, best_call, call_key, outranks, sturk_due, suit_runs
from engine.ruleset import SAKBOC_2004, Ruleset
from engine.scoring import SideCount, may_go_on, outright_strokes, strokes_for

__all__ = ["FastStats", "play_random_hands"]


@dataclass(frozen=True)
class FastStats:
    """Totals from :func:`play_random_hands` (team 0 = seats 0 & 2, team 1 = seats 1 & 3).

    :ivar hands: hands played.
    :ivar card_points: card points per team summed over the hands (all 8 tricks; each hand totals 146).
    :ivar roem_hands: hands in which some player held a roemte to call with the first card (a sequence or
        an outright roemte; sturk alone does not count).
    :ivar went_on: hands in which the team went on (counted 100, or roemed an outright roemte).
    :ivar roem: roem per team summed over the hands: the call standing after the first round (SAKBOC 8.3;
        outright roemte count 0 points, SAKBOC 8.17) plus sturk (Notes §VI).
    :ivar strokes: strokes per team from going on (1 or 2 each time; SAKBOC 7.3, 8.17; Notes §V, §VI).
    """

    hands: int
    card_points: tuple[int, int]
    roem_hands: int
    went_on: tuple[int, int]
    roem: tuple[int, int] = (0, 0)
    strokes: tuple[int, int] = (0, 0)


# --------------------------------------------------------------------------------------------------
# Exact random deals without a shuffle.
#
# A deal is 4 hands of 8 cards. Group the cards by suit: a deal is the same thing as, for every suit,
# an *arrangement* of its 8 ranks over the 4 players (who holds which rank), such that every player ends
# with 8 cards. Write c_s = (c_s0, .., c_s3) for how many cards of suit s each player holds (the columns
# of a 4x4 table whose rows and columns all sum to 8). For a fixed table the arrangements of the suits
# are independent and suit s has multinomial(8; c_s) = 8! / prod(c_sp!) of them.
#
# We number all 32! / 8!^4 deals 0 .. W-1 and decode a uniform number R in that range:
#   1. the (spades, hearts) column pair (c_0, c_1) is found by bisecting R in the cumulative counts of deals
#      per pair, in a fixed order; R minus the pair's start is then uniform below M0 * M1 * T, where
#      Mi = multinomial(8; c_i) and T = the number of ways to deal diamonds and clubs to what the players
#      still lack (the "state" cap = 8 - c_0 - c_1, per player);
#   2. mixed radix: j0 = R % M0 (spades arrangement), then j1 = (R // M0) % M1 (hearts), then R // (M0 M1)
#      is uniform below T;
#   3. within the state the diamonds column c_2 is found by bisecting again (clubs are then forced:
#      c_3 = cap - c_2), and the remainder gives j2 = R % M2 and j3 = R // M2.
# Every step splits an integer range into consecutive blocks whose sizes are exactly the numbers of
# deals they stand for, so decoding is a bijection from range(W) onto the deals (``_deal_index`` is its
# inverse; the tests round-trip both ways and check that the block sizes add up to W). A uniform R
# therefore gives an exactly uniform deal. R comes from ``getrandbits(69)`` by rejection (draws at or above
# 5920 * W are thrown away and redrawn), and the quotient q = x // W, uniform below 5920 = 32 * 185 and
# independent of R, gives 5 more exact bits: the dealer (q & 3) and which of the dealer's 8 cards is the
# face-up trump card (q >> 2 & 7).
#
# Why the face-up card may be drawn this way: a real deal shuffles (uniformly), cuts and deals in a fixed
# pattern, so the 8 deck positions the dealer receives are fixed and the cards in them are a uniformly
# random *ordered* 8-tuple; given the set (the dealer's hand) every order is equally likely, so the last
# card dealt, the face-up one (SAKBOC 1.7, Notes §IV), is uniform among the dealer's 8 cards, whatever the
# other hands are. The cut and the pattern only relabel deck positions, so they do not change the law
# of the hands. Hence: uniform deal, uniform dealer, uniform card of the dealer's hand = the law of a
# shuffled, cut and dealt pack with the dealer chosen at random.

_DEAL_WAYS = math.factorial(32) // math.factorial(8) ** 4
"""Number of distinct deals of 32 cards into four hands of 8 (99,561,092,450,391,000)."""
_DEAL_BITS = 69
"""Bits drawn per deal: 2**69 holds 5928 whole ranges of deal numbers, of which the first 5920 = 32 * 185 are used
(a draw is rejected with probability 0.15%; see the comment above and :func:`_random_deal_numbers`)."""
_DEAL_LIMIT = ((1 << _DEAL_BITS) // _DEAL_WAYS) // 32 * 32 * _DEAL_WAYS
_FULL = (1 << 32) - 1


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """All tuples of ``parts`` non-negative ints summing to ``total``, in lexicographic order."""
    if parts == 1:
        return [(total,)]
    return [(i, *rest) for i in range(total + 1) for rest in _compositions(total - i, parts - 1)]


@dataclass(frozen=True)
class _DealTables:
    """Tables for decoding a deal number (see the comment above)."""

    cum1: list[int]  # start of each (c_0, c_1) pair's block; cum1[0] == 0
    pairs: list[tuple[int, int, int, tuple[int, ...], tuple[int, ...]]]  # (state, M0, M1, spade arr., heart arr.)
    states: list[tuple[list[int], list[tuple[int, tuple[int, ...], tuple[int, ...]]]]]  # (starts, (M2, D, C))
    arrangements: tuple[dict[tuple[int, ...], tuple[int, ...]], ...]  # [suit][counts] -> packed arrangements
    pair_index: dict[tuple[tuple[int, ...], tuple[int, ...]], int]
    state_index: dict[tuple[int, ...], int]
    fast_pairs: list[tuple[int, int, int, int, int, tuple[int, ...]]]
    """``pairs`` for the play loop: ``(state, M0, M1, first spades id, first hearts id, codes)`` where
    arrangement ``j`` of a suit is number ``first id + j`` in ``seat_bytes`` and ``codes`` are the seats'
    ``(spades * 9 + hearts) * 81`` (their lengths in the two suits) for ``_LocalTables.suits``."""
    fast_states: list[tuple[list[int], list[tuple[int, int, int, tuple[int, ...]]]]]
    """``states`` as in ``fast_pairs``: ``(M2, first diamonds id, first clubs id, the seats' diamonds * 9 +
    clubs)``."""
    seat_bytes: tuple[list[int], ...]
    """[seat][arrangement id] -> the ranks the seat holds in the suit (a byte); the same ids for every
    suit: 4 flat lists of 65,536 small ints, which stay in the CPU's cache better than 65,536 tuples."""


@functools.cache
def _deal_tables() -> _DealTables:
    """Build the deal tables once per process (about 0.4 s).

    An arrangement of one suit is packed as an int with bit ``player * 32 + suit * 8 + rank`` set for
    each rank, so OR-ing the four suits' arrangements gives all four hands in one 128-bit int.
    """
    # all 4**8 owner assignments of ranks 0..7, grouped by count vector, in a fixed order
    level: list[tuple[int, tuple[int, int, int, int]]] = [(0, (0, 0, 0, 0))]
    for rank in range(8):
        nxt = []
        for packed, c in level:
            for p in range(4):
                cc = list(c)
                cc[p] += 1
                nxt.append((packed | 1 << (p * 32 + rank), (cc[0], cc[1], cc[2], cc[3])))
        level = nxt
    by_counts: dict[tuple[int, ...], list[int]] = {}
    for packed, c in level:
        by_counts.setdefault(c, []).append(packed)
    arrangements = tuple({c: tuple(a << (8 * s) for a in lst) for c, lst in by_counts.items()} for s in range(4))
    cols = _compositions(8, 4)
    states: list[tuple[list[int], list[tuple[int, tuple[int, ...], tuple[int, ...]]]]] = []
    state_index: dict[tuple[int, ...], int] = {}
    state_total: list[int] = []
    for cap in _compositions(16, 4):
        if max(cap) > 8:
            continue
        starts: list[int] = []
        opts: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        total = 0
        for c2 in cols:
            c3 = tuple(a - b for a, b in zip(cap, c2, strict=True))
            if min(c3) < 0:
                continue
            starts.append(total)
            m2, m3 = len(arrangements[2][c2]), len(arrangements[3][c3])
            opts.append((m2, arrangements[2][c2], arrangements[3][c3]))
            total += m2 * m3
        state_index[cap] = len(states)
        states.append((starts, opts))
        state_total.append(total)
    cum1: list[int] = []
    pairs: list[tuple[int, int, int, tuple[int, ...], tuple[int, ...]]] = []
    pair_index: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    total = 0
    for c0 in cols:
        for c1 in cols:
            cap = tuple(8 - a - b for a, b in zip(c0, c1, strict=True))
            if min(cap) < 0:
                continue
            st = state_index[cap]
            a0, a1 = arrangements[0][c0], arrangements[1][c1]
            pair_index[(c0, c1)] = len(pairs)
            cum1.append(total)
            pairs.append((st, len(a0), len(a1), a0, a1))
            total += len(a0) * len(a1) * state_total[st]
    if total != _DEAL_WAYS:  # pragma: no cover - a construction error, caught by the tests
        raise AssertionError(f"deal blocks add up to {total}, not {_DEAL_WAYS}")
    seat_bytes: tuple[list[int], ...] = ([], [], [], [])
    first: dict[tuple[int, ...], int] = {}  # count vector -> id of its first arrangement
    for counts, arr in arrangements[0].items():  # the same order for every suit (see above)
        first[counts] = len(seat_bytes[0])
        for a in arr:
            for p in range(4):
                seat_bytes[p].append(a >> (32 * p) & 255)

    def lengths(arr: tuple[int, ...], suit: int) -> tuple[int, ...]:
        return tuple((arr[0] >> (32 * p + 8 * suit) & 255).bit_count() for p in range(4))

    fast_pairs = []
    for st, m0, m1, a0, a1 in pairs:
        c0, c1 = lengths(a0, 0), lengths(a1, 1)
        fast_pairs.append((st, m0, m1, first[c0], first[c1], tuple((c0[p] * 9 + c1[p]) * 81 for p in range(4))))
    fast_states = []
    for starts, opts in states:
        fast_opts = []
        for m2, a2, a3 in opts:
            c2, c3 = lengths(a2, 2), lengths(a3, 3)
            fast_opts.append((m2, first[c2], first[c3], tuple(c2[p] * 9 + c3[p] for p in range(4))))
        fast_states.append((starts, fast_opts))
    return _DealTables(
        cum1, pairs, states, arrangements, pair_index, state_index, fast_pairs, fast_states, seat_bytes
    )


_BUCKET_SHIFT = 42
"""A deal number's bucket is ``number >> 42``: 22,638 buckets of about 2 blocks each (see :func:`_deal_buckets`)."""


@functools.cache
def _deal_buckets() -> tuple[array.array[int], array.array[int], array.array[int]]:
    """The first bisection of the deal decoding without cache misses: ``(cum1, lo, hi)`` with ``cum1`` the
    block starts as a flat array of 64-bit ints and, for bucket ``j`` (the deal numbers ``j << 42`` up to
    ``(j + 1) << 42``), ``lo[j]`` and ``hi[j]`` the indices just after the blocks holding its first and last
    numbers, so that ``bisect_right(cum1, n, lo[j], hi[j]) == bisect_right(cum1, n)`` for every ``n`` in
    the bucket (about 2 blocks per bucket instead of 20,361; the tests check it)."""
    cum1 = _deal_tables().cum1
    lo = array.array("I")
    hi = array.array("I")
    for j in range((_DEAL_WAYS >> _BUCKET_SHIFT) + 1):
        lo.append(bisect.bisect_right(cum1, j << _BUCKET_SHIFT))
        hi.append(bisect.bisect_right(cum1, min((j + 1) << _BUCKET_SHIFT, _DEAL_WAYS) - 1))
    return array.array("Q", cum1), lo, hi


def _decode_deal(number: int) -> tuple[int, int, int, int]:
    """The four hand masks (by seat) of deal ``number`` in ``range(_DEAL_WAYS)``; readable version of the
    decoding inlined in :func:`play_random_hands`."""
    dt = _deal_tables()
    i = bisect.bisect_right(dt.cum1, number) - 1
    r = number - dt.cum1[i]
    st, m0, m1, a0, a1 = dt.pairs[i]
    r, j0 = divmod(r, m0)
    r, j1 = divmod(r, m1)
    starts, opts = dt.states[st]
    i = bisect.bisect_right(starts, r) - 1
    m2, a2, a3 = opts[i]
    j3, j2 = divmod(r - starts[i], m2)
    x = a0[j0] | a1[j1] | a2[j2] | a3[j3]
    return (x & _FULL, x >> 32 & _FULL, x >> 64 & _FULL, x >> 96)


def _deal_index(hands: Sequence[int]) -> int:
    """Inverse of :func:`_decode_deal`: the number of the deal with these four hand masks.

    :raises ValueError: if the masks are not four disjoint 8-card hands covering the pack.
    """
    if len(hands) != 4 or any(h.bit_count() != 8 for h in hands) or hands[0] | hands[1] | hands[2] | hands[3] != _FULL:
        raise ValueError("not a deal of four 8-card hands")
    dt = _deal_tables()
    counts = [tuple((hands[p] >> (8 * s) & 255).bit_count() for p in range(4)) for s in range(4)]
    j = []
    for s in range(4):
        packed = 0
        for p in range(4):
            packed |= (hands[p] >> (8 * s) & 255) << (p * 32 + 8 * s)
        j.append(dt.arrangements[s][counts[s]].index(packed))
    i = dt.pair_index[(counts[0], counts[1])]
    st, m0, m1, _, _ = dt.pairs[i]
    starts, opts = dt.states[st]
    cap = tuple(8 - a - b for a, b in zip(counts[0], counts[1], strict=True))
    k = [c2 for c2 in _compositions(8, 4) if min(a - b for a, b in zip(cap, c2, strict=True)) >= 0].index(counts[2])
    m2 = opts[k][0]
    inner = starts[k] + j[2] + m2 * j[3]
    return dt.cum1[i] + j[0] + m0 * (j[1] + m1 * inner)


def _random_deal_numbers(rng: random.Random) -> tuple[int, int, int]:
    """Draw ``(deal number, dealer, face-up index)`` exactly uniformly with one ``getrandbits(69)``
    (plus a redraw with probability 0.15%); see the comment above :data:`_DEAL_WAYS`."""
    x = rng.getrandbits(_DEAL_BITS)
    while x >= _DEAL_LIMIT:
        x = rng.getrandbits(_DEAL_BITS)
    q, number = divmod(x, _DEAL_WAYS)
    return number, q & 3, q >> 2 & 7


# --------------------------------------------------------------------------------------------------
# Uniform card choice. For each trick but the last (where every play is forced), one ``getrandbits(39)``
# gives, by rejection, r uniform below 840**4 (redrawn with probability 9.4%); its base-840 digits are four
# independent uniform numbers below 840. 840 = lcm(1..8), so for any number n <= 8 of legal cards,
# digit % n is exactly uniform below n, and r % n == (r % 840) % n: the player takes the k-th legal card
# (in card order) with k = r % n, then r //= 840 for the next player. (The fast loop divides once after the
# leader, leaving a one-digit int, and gives the other two followers r // 840 and r // 840**2: the same
# digits.)

_RADIX = 840
"""lcm(1..8): a base-840 digit taken modulo any number of legal cards (1..8) is exactly uniform."""
_TRICK_BITS = 39
"""Bits drawn per trick: 2**39 is just above 840**4, so a draw is rejected with probability 9.4%."""
_TRICK_LIMIT = _RADIX**4


# --------------------------------------------------------------------------------------------------
# Hands in the play loop. A dealt hand's 8 cards, in card order, get the *local* indices 0..7 (``ids``
# gives them, ``suits`` the local mask of each suit), and during play a hand is an 8-bit mask over its
# local indices. Every mask the loop builds is then below 256, an int CPython keeps cached, so its
# operations allocate nothing; a 32-bit card mask holding a club 8 or 7 (bits 30, 31) is a two-digit int
# and took CPython's slow path. The k-th legal local index is the k-th legal card in card order, so the
# random numbers choose the same cards as in engine.play's card masks (the tests hold the loop equal to
# the readable reference hand by hand).


@dataclass(frozen=True)
class _LocalTables:
    """Tables for 8-bit local hands (see the comment above)."""

    ids: tuple[tuple[tuple[int, ...], ...], ...]
    """[suit][rank byte] -> its cards, ascending: ``ids[0][s] + ids[1][h] + ids[2][d] + ids[3][c]`` are a
    hand's cards by local index."""
    suits: tuple[tuple[tuple[int, ...], ...], ...]
    """[trump][((spades * 9 + hearts) * 9 + diamonds) * 9 + clubs] (a hand's suit lengths) -> the local masks
    of spades, hearts, diamonds and clubs, then of each of them with the trumps, then of the trumps."""
    kth: tuple[tuple[int, ...], ...]  # 8-bit mask -> the indices of its set bits, ascending
    count: tuple[int, ...]  # 8-bit mask -> its number of set bits (a lookup is cheaper than len(kth[mask]))
    bit: tuple[int, ...]  # local index -> 1 << index
    low: tuple[int, ...]  # 8-bit mask -> index of its lowest set bit (0 for 0)
    pext: tuple[int, ...]
    """``held << 8 | wanted`` (two rank bytes of one suit) -> the ranks of ``wanted`` that ``held`` holds,
    as a mask over ``held``'s cards in rank order (bit i = the i-th card of ``held``)."""


@functools.cache
def _local_tables() -> _LocalTables:
    kth = tuple(tuple(i for i in range(8) if x >> i & 1) for x in range(256))
    ids = tuple(tuple(tuple(8 * suit + r for r in t) for t in kth) for suit in range(4))
    suits: list[list[tuple[int, ...]]] = [[], [], [], []]
    for code in range(9**4):
        lengths = (code // 729, code // 81 % 9, code // 9 % 9, code % 9)
        at = [sum(lengths[:s]) for s in range(4)]
        m = [((1 << lengths[s]) - 1) << at[s] & 255 for s in range(4)]
        for trump in range(4):
            suits[trump].append((*m, *(x | m[trump] for x in m), m[trump]))
    pext = []
    for x in range(1 << 16):
        held, wanted = x >> 8, x & 255
        pext.append(sum(1 << i for i, rank in enumerate(r for r in range(8) if held >> r & 1) if wanted >> rank & 1))
    return _LocalTables(
        ids,
        tuple(tuple(t) for t in suits),
        kth,
        tuple(len(t) for t in kth),
        tuple(1 << i for i in range(8)),
        tuple((x & -x).bit_length() - 1 if x else 0 for x in range(256)),
        tuple(pext),
    )


# --------------------------------------------------------------------------------------------------
# Roem keys. A call's rank (engine.roem.call_key: outright class, then points, then size, then trumps)
# is packed into one int, times 4 plus the caller's priority 3 - (position in the first round), so the
# largest key of the four seats is the call that stands after the first round: a later call stands only
# if it outranks (strictly) the standing one, so the first of the highest stands (SAKBOC 8.2-8.4, 8.9;
# Notes §VI). Sequence calls: ((points * 64 + size) * 4 + priority) where size = 2 * (8 - top rank) + 1 if
# that top is in trumps. Outright calls: _OUTRIGHT + ((class * 16 + 8 - top) * 2 + in trumps) * 4 + priority.

_OUTRIGHT = 1 << 20
_POINTS_SHIFT = 8
"""A sequence call's key is ``(points * 64 + size) * 4 + priority``: ``key >> _POINTS_SHIFT`` is its points."""
_JACK_BIT = 1 << JACK
_VYF = 1 << 12
_CALL_BITS = 0xFFFF
"""The low 16 bits of a hand's summed :attr:`_RoemTables.points8`: its twenties' and fifties' points (below
:data:`_VYF`) and its count of vyf-eenderse (from :data:`_VYF`); above them the four-of-a-kind fields."""
_FOUR_BITS = sum(4 << (16 + 3 * r) for r in range(4))  # see _RoemTables.points8
_OUTRIGHT_BITS = _FOUR_BITS | (_CALL_BITS ^ (_VYF - 1))
_FIRST_TRUMP_POWER = 17
"""Trumps' powers in :attr:`_TrumpTables.lead` are 17..24, above every card of the suit led (1..8): a trick
whose best power is below this holds no trump (``engine.play.play_tables``)."""
_ALL_LOCAL = 0xFF
"""A local hand (see :class:`_LocalTables`) holding all eight of its cards."""


@dataclass(frozen=True)
class _RoemTables:
    points8: tuple[int, ...]
    """suit byte -> twenty/fifty points, + _VYF per vyf-eenderse, + 1 << (16 + 3 * rank) for each of the
    ranks A, K, Q, J it holds: summed over a hand's four suits, that 3-bit field reaches 4 exactly when the
    hand holds four of a kind (``& _FOUR_BITS``)."""
    sizes: tuple[tuple[tuple[int, ...], ...], ...]
    """[trump][suit][suit byte] -> 2 * (8 - top rank of the suit's highest twenty or fifty), + 1 in trumps;
    0 if none: the size of a hand's best sequence call is the largest over its suits."""
    vyf_top: tuple[int, ...]  # 8-bit mask -> top of its vyf-eenderse run, or -1
    fifties: tuple[int, ...]  # 8-bit mask -> number of fifties
    four: tuple[tuple[int, int], ...]  # (rank, outright class) for four of a kind
    vyf_class: int


@functools.cache
def _roem_tables(ruleset: Ruleset) -> _RoemTables:
    pts8 = []
    size8 = []
    vyf_top = []
    fifties = []
    for byte in range(256):
        p = 0
        top = 8
        vt = -1
        nf = 0
        for start, n in suit_runs(byte):
            if n >= ruleset.vyf_eenderse_length:
                p += _VYF
                vt = start
            elif n >= 3:
                p += ruleset.fifty_points if n == 4 else ruleset.twenty_points
                nf += n == 4
                top = min(top, start)
        pts8.append(p + sum(1 << (16 + 3 * r) for r in range(4) if byte >> r & 1))
        size8.append(2 * (8 - top) if top < 8 else 0)
        vyf_top.append(vt)
        fifties.append(nf)
    plain = tuple(size8)
    in_trumps = tuple(z + (z > 0) for z in size8)
    sizes = tuple(tuple(in_trumps if suit == trump else plain for suit in range(4)) for trump in range(4))
    order = ruleset.outright_roemte
    cls = {name: 1 + len(order) - order.index(name) for name in order}
    four = tuple((rank, cls[name]) for rank, name in ((3, "four-jacks"), (0, "four-aces"), (1, "four-kings"),
                                                       (2, "four-queens")) if name in cls)
    return _RoemTables(tuple(pts8), sizes, tuple(vyf_top), tuple(fifties), four, cls.get("vyf-eenderse", 0))


def _outright_key(hand: int, trump: int, rt: _RoemTables) -> int:
    """The packed rank of the best outright roemte in ``hand`` (0 if none): engine.roem.call_key order
    (SAKBOC 8.7, 8.17; ``Ruleset.outright_roemte``), without the priority."""
    best = 0
    x4 = hand & hand >> 8 & hand >> 16 & hand >> 24 & 15
    for rank, cls in rt.four:
        if x4 >> rank & 1:
            best = max(best, (cls * 16 + 8 - rank) * 2)  # four of a kind is in no suit: never "in trumps"
    if rt.vyf_class:
        for suit in range(4):
            top = rt.vyf_top[hand >> (8 * suit) & 255]
            if top >= 0:
                best = max(best, (rt.vyf_class * 16 + 8 - top) * 2 + (suit == trump))
    return best


def _seat_key(hand: int, trump: int, priority: int, rt: _RoemTables) -> int:
    """The packed key (see above) of the best call ``hand`` can make with its first card, 0 if none."""
    s, h, d, c = hand & 255, hand >> 8 & 255, hand >> 16 & 255, hand >> 24
    p = rt.points8
    v = p[s] + p[h] + p[d] + p[c]
    if v & _OUTRIGHT_BITS:
        o = _outright_key(hand, trump, rt)
        if o:
            return _OUTRIGHT + o * 4 + priority
    v &= _VYF - 1  # twenties and fifties
    if not v:
        return 0
    z = rt.sizes[trump]
    return (v * 64 + max(z[0][s], z[1][h], z[2][d], z[3][c])) * 4 + priority


@dataclass(frozen=True)
class _TrumpTables:
    """Per-trump tables keyed by card (0..31) for the play loop."""

    lead: tuple[tuple[tuple[int, ...], int, int, int], ...]
    """card led -> (power of every card with its suit led, its suit, its own power, its suit + 4); trumps
    are 17..24. (``_LocalTables.suits`` gives a seat's suit led or trumps at index suit + 4.)"""
    points: tuple[int, ...]  # card -> card points
    boer: int  # the Boer's card
    above: tuple[int, ...]  # a trump's power (17..24) -> the rank byte of the trumps above it


@functools.cache
def _trump_tables(ruleset: Ruleset) -> tuple[_TrumpTables, ...]:
    t = play_tables(ruleset)
    above = tuple(sum(1 << r for r in range(8) if t.power[0][r] > p) for p in range(25))  # spades trumps
    out = []
    for trump in range(4):
        lead = tuple(
            (t.power[trump * 4 + (c >> 3)], c >> 3, t.power[trump * 4 + (c >> 3)][c], (c >> 3) + 4) for c in range(32)
        )
        out.append(_TrumpTables(lead, t.points[trump], t.boer[trump].bit_length() - 1, above))
    return tuple(out)


def _sakboc_flags(ruleset: Ruleset) -> bool:
    return (
        ruleset.trump_may_replace_follow
        and ruleset.trump_jack_exempt
        and not ruleset.must_trump_when_void
        and not ruleset.must_overtrump
        and ruleset.forbid_undertrump
        and ruleset.undertrump_if_only_trumps
    )


def _going_on(
    tricks: Sequence[tuple[int, ...]],
    points: Sequence[int],
    winners: Sequence[int],
    leader: int,
    best: int,
    keys: Sequence[int],
    holdings: Sequence[Sequence[int]],
    sturk_seat: int,
    trump: int,
    ruleset: Ruleset,
    fifties: Sequence[int],
) -> tuple[int, int] | None:
    """Replay a played-out hand's tricks to find who goes on first and with how many strokes.

    New play (SAKBOC 8; Notes §IV-§VI): a side goes on when it counts ``going_on_target`` (tricks picked
    up, the call standing in the first round, sturk). It is checked when a trick is closed (the winners
    first, then the other side) and when sturk is roemed before a trick's last card (Notes §VI). After two
    fifties a trick must have been picked up (SAKBOC 8.21). Strokes: 2 if the opponents count under
    ``under_fifty``, roem and sturk included (Notes §VI), else 1; never more than 2 (SAKBOC 7.3).
    ``best`` is the standing call's packed key (0 if none), ``keys`` the seats' (by seat), ``tricks`` the cards
    of the 8 tricks in order, ``points`` their card points (the last with its bonus, vyf laas trek), ``winners``
    their winners, ``holdings`` the seats' rank bytes by suit then seat, ``sturk_seat`` the seat holding
    K and Q of trumps (-1 if none), ``fifties`` the number of fifties of a suit's rank byte.
    """
    target = ruleset.going_on_target
    under = ruleset.under_fifty
    two = min(2, ruleset.max_strokes_at_once)
    c0 = c1 = 0  # tricks, standing call and sturk so far
    b0 = b1 = False  # two fifties and no trick picked up yet (SAKBOC 8.21)
    if 0 < best < _OUTRIGHT:
        seat = (leader + 3 - (best & 3)) & 3
        pts = best >> _POINTS_SHIFT
        blocked = False
        if pts >= 2 * ruleset.fifty_points and ruleset.two_fifties_need_trick:
            s, h, d, c = holdings
            blocked = fifties[s[seat]] + fifties[h[seat]] + fifties[d[seat]] + fifties[c[seat]] >= 2
        if seat & 1:
            c1 = pts
            b1 = blocked
        else:
            c0 = pts
            b0 = blocked
    king, queen = trump * 8 + KING, trump * 8 + QUEEN
    for t in range(8):
        tk = tricks[t]
        pts = points[t]
        if sturk_seat >= 0 and (king in tk or queen in tk):
            team = sturk_seat & 1
            lead = winners[t - 1] if t else leader
            k = (sturk_seat - lead) & 3
            sturk_seat = -1
            if team:
                c1 += ruleset.sturk_points
            else:
                c0 += ruleset.sturk_points
            if k < 3:  # roemed before the trick is complete: may go on at once (Notes §VI)
                x0, x1 = c0, c1
                if t == 0:  # the first round is not over: only the calls made so far count
                    x0, x1 = _provisional(c0, c1, best, max(keys[(lead + j) & 3] for j in range(k + 1)), lead)
                mine, theirs, blocked = (x1, x0, b1) if team else (x0, x1, b0)
                if mine >= target and (not blocked or any(w & 1 == team for w in winners[:t])):
                    return (team, two if theirs < under else 1)
            else:  # roemed with the trick's last card: the trick counts first, the winners go first
                w = winners[t] & 1
                if w:
                    c1 += pts
                else:
                    c0 += pts
                for side in (w, 1 - w):
                    mine, theirs, blocked = (c1, c0, b1) if side else (c0, c1, b0)
                    if mine >= target and (side == w or not blocked or any(x & 1 == side for x in winners[:t])):
                        return (side, two if theirs < under else 1)
                continue
        # the winners first: they have just picked up a trick; the other side's count has not changed
        # since it was last checked (a side blocked by two fifties stays blocked until it wins a trick)
        if winners[t] & 1:
            c1 += pts
            if c1 >= target:
                return (1, two if c0 < under else 1)
        else:
            c0 += pts
            if c0 >= target:
                return (0, two if c1 < under else 1)
    return None


def _provisional(c0: int, c1: int, best: int, now: int, leader: int) -> tuple[int, int]:
    """Counts during the first round: the final standing call replaced by the one standing ``now``."""
    c = [c0, c1]
    if 0 < best < _OUTRIGHT:
        c[((leader + 3 - (best & 3)) & 3) & 1] -= best >> _POINTS_SHIFT
    if 0 < now < _OUTRIGHT:
        c[((leader + 3 - (now & 3)) & 3) & 1] += now >> _POINTS_SHIFT
    return (c[0], c[1])


def play_random_hands(
    count: int, seed: int = 0, ruleset: Ruleset = SAKBOC_2004, *, _generic: bool = False
) -> FastStats:
    """Play ``count`` random complete hands as fast as possible: an exactly uniform random deal (with a
    uniform dealer and the trump of the dealer's face-up card), uniformly random legal cards for all 8
    tricks, each seat's best roemte, the first-round competition (SAKBOC 8.2-8.4, 8.9; Notes §VI), sturk
    (Notes §VI), card points and who goes on first with how many strokes (new play; SAKBOC 7.3, 8.17,
    8.21; Notes §V, §VI). Every hand is a new game (no ou jol carried) and is played out to the last trick
    (the work is that of a complete hand); going on is recorded at the first moment a side may go on: when
    a trick is closed (its winners first) or when sturk is roemed before a trick's last card (Notes §VI).
    ``card_points`` therefore total 146 a hand.

    The model of the first round: every player roems the best call the hand holds with the first card
    (SAKBOC 4.3) when it outranks the standing call (``engine.roem.outranks``), partners included (8.4,
    8.9), so the first of the highest calls stands. An outright roemte is roemed before playing
    (SAKBOC 8.7) and its side goes on 2 strokes (8.17) unless a later opponent holds a higher one.

    Legality follows the ruleset's flags: the inlined loop covers the SAKBOC family (trump may replace
    following, Boer exempt, no undertrump unless only trumps; SAKBOC 3.2-3.4); other flag sets, and
    ``_generic=True`` (for cross-checks), use :func:`_reference_random_hands`, which plays the same
    random numbers with :func:`engine.play.legal_mask`, :mod:`engine.roem` and :mod:`engine.scoring`.
    The same seed gives the same totals. Tables are built once per process (about 0.8 s).

    :param count: number of hands.
    :param seed: seed of the ``random.Random`` that draws deals and cards.
    :returns: the totals as a :class:`FastStats`.
    """
    if _generic or not _sakboc_flags(ruleset):
        return _reference_random_hands(count, seed, ruleset)
    rng = random.Random(seed)
    dt = _deal_tables()
    lt = _local_tables()
    ids_s, ids_h, ids_d, ids_c = lt.ids
    suits, kth, nk, bit, low, px = lt.suits, lt.kth, lt.count, lt.bit, lt.low, lt.pext
    rt = _roem_tables(ruleset)
    tts = _trump_tables(ruleset)
    pairs, states = dt.fast_pairs, dt.fast_states
    by0, by1, by2, by3 = dt.seat_bytes
    cum1, bucket_lo, bucket_hi = _deal_buckets()  # flat arrays: far fewer cache misses than lists of ints
    bisect_right = bisect.bisect_right
    ways = _DEAL_WAYS
    deal_limit = _DEAL_LIMIT
    trick_limit = _TRICK_LIMIT
    # the named constants as local variables: as fast as literals in the loop (LOAD_FAST), unlike globals
    deal_bits, bucket_shift, trick_bits = _DEAL_BITS, _BUCKET_SHIFT, _TRICK_BITS
    radix, radix2 = _RADIX, _RADIX * _RADIX  # the second and third follower's digit: r // radix, r // radix2
    first_trump, all_local, call_bits, points_shift = _FIRST_TRUMP_POWER, _ALL_LOCAL, _CALL_BITS, _POINTS_SHIFT
    p8 = rt.points8
    fifties = rt.fifties
    sizes = rt.sizes
    outright_bits = _OUTRIGHT_BITS
    gate = call_bits | _FOUR_BITS  # some seat may hold a roemte
    getrandbits = rng.getrandbits
    last_bonus = ruleset.last_trick_bonus
    target = ruleset.going_on_target
    under = ruleset.under_fifty
    sturk_pts = ruleset.sturk_points
    hand_total = ruleset.hand_total
    two = min(2, ruleset.max_strokes_at_once)
    # a standing call below this key cannot be two fifties that wait for a trick (SAKBOC 8.21; see _going_on)
    fifties_key = (2 * ruleset.fifty_points) << _POINTS_SHIFT if ruleset.two_fifties_need_trick else _OUTRIGHT
    outright_strokes_ = min(ruleset.outright_strokes, ruleset.max_strokes_at_once)
    tks: list[tuple[int, ...]] = [()] * 9
    tps = [0] * 9
    wins = [0] * 9
    total0 = 0
    roem_hands = 0
    roem0 = roem1 = 0
    on0 = on1 = 0
    st0 = st1 = 0
    for _ in range(count):
        # --- deal: an exactly uniform deal number, dealer and face-up card (see _DEAL_WAYS) ---
        x = getrandbits(deal_bits)
        while x >= deal_limit:
            x = getrandbits(deal_bits)
        q, r = divmod(x, ways)
        i = r >> bucket_shift  # the bucket (see _deal_buckets)
        i = bisect_right(cum1, r, bucket_lo[i], bucket_hi[i]) - 1
        st, mo, mt, ka, kb, code = pairs[i]
        r -= cum1[i]
        ka += r % mo  # each suit's arrangement id (see _DealTables.fast_pairs)
        r //= mo
        kb += r % mt
        r //= mt
        starts, opts = states[st]
        i = bisect_right(starts, r) - 1
        mo, kc, kd, code2 = opts[i]
        r -= starts[i]
        kc += r % mo
        kd += r // mo
        xs0 = by0[ka]  # the seats' rank bytes: xs1 = seat 1's spades, xh1 its hearts, ...
        xs1 = by1[ka]
        xs2 = by2[ka]
        xs3 = by3[ka]
        xh0 = by0[kb]
        xh1 = by1[kb]
        xh2 = by2[kb]
        xh3 = by3[kb]
        xd0 = by0[kc]
        xd1 = by1[kc]
        xd2 = by2[kc]
        xd3 = by3[kc]
        xc0 = by0[kd]
        xc1 = by1[kd]
        xc2 = by2[kd]
        xc3 = by3[kd]
        # the local hands (see _local_tables): each seat's cards by local index
        g0 = ids_s[xs0] + ids_h[xh0] + ids_d[xd0] + ids_c[xc0]
        g1 = ids_s[xs1] + ids_h[xh1] + ids_d[xd1] + ids_c[xc1]
        g2 = ids_s[xs2] + ids_h[xh2] + ids_d[xd2] + ids_c[xc2]
        g3 = ids_s[xs3] + ids_h[xh3] + ids_d[xd3] + ids_c[xc3]
        dealer = q & 3
        trump = (g0, g1, g2, g3)[dealer][q >> 2 & 7] >> 3  # the dealer's face-up card
        leader = leader0 = (dealer + 1) & 3
        # --- roem (Notes §II, §III, §VI): each seat's best call, the first of the highest stands ---
        k0 = k1 = k2 = k3 = 0
        v0 = p8[xs0] + p8[xh0] + p8[xd0] + p8[xc0]
        v1 = p8[xs1] + p8[xh1] + p8[xd1] + p8[xc1]
        v2 = p8[xs2] + p8[xh2] + p8[xd2] + p8[xc2]
        v3 = p8[xs3] + p8[xh3] + p8[xd3] + p8[xc3]
        if (v0 | v1 | v2 | v3) & gate:
            zs, zh, zd, zc = sizes[trump]
            if v0 & outright_bits:  # vyf-eenderse or four of a kind: rare
                k0 = _seat_key(xs0 | xh0 << 8 | xd0 << 16 | xc0 << 24, trump, (leader - 1) & 3, rt)
            elif v0 & call_bits:
                k0 = ((v0 & call_bits) * 64 + max(zs[xs0], zh[xh0], zd[xd0], zc[xc0])) * 4 + ((leader - 1) & 3)
            if v1 & outright_bits:  # vyf-eenderse or four of a kind: rare
                k1 = _seat_key(xs1 | xh1 << 8 | xd1 << 16 | xc1 << 24, trump, (leader - 2) & 3, rt)
            elif v1 & call_bits:
                k1 = ((v1 & call_bits) * 64 + max(zs[xs1], zh[xh1], zd[xd1], zc[xc1])) * 4 + ((leader - 2) & 3)
            if v2 & outright_bits:  # vyf-eenderse or four of a kind: rare
                k2 = _seat_key(xs2 | xh2 << 8 | xd2 << 16 | xc2 << 24, trump, (leader - 3) & 3, rt)
            elif v2 & call_bits:
                k2 = ((v2 & call_bits) * 64 + max(zs[xs2], zh[xh2], zd[xd2], zc[xc2])) * 4 + ((leader - 3) & 3)
            if v3 & outright_bits:  # vyf-eenderse or four of a kind: rare
                k3 = _seat_key(xs3 | xh3 << 8 | xd3 << 16 | xc3 << 24, trump, leader & 3, rt)
            elif v3 & call_bits:
                k3 = ((v3 & call_bits) * 64 + max(zs[xs3], zh[xh3], zd[xd3], zc[xc3])) * 4 + (leader & 3)
            sk = max(k0, k1, k2, k3)
        else:
            sk = 0
        if trump == 0:  # the seats' trumps as rank bytes
            th = (xs0, xs1, xs2, xs3)
        elif trump == 1:
            th = (xh0, xh1, xh2, xh3)
        elif trump == 2:
            th = (xd0, xd1, xd2, xd3)
        else:
            th = (xc0, xc1, xc2, xc3)
        if th[0] & 6 == 6:  # sturk: K and Q of trumps, roemed with the first of them (Notes §VI)
            sturk_seat = 0
        elif th[1] & 6 == 6:
            sturk_seat = 1
        elif th[2] & 6 == 6:
            sturk_seat = 2
        elif th[3] & 6 == 6:
            sturk_seat = 3
        else:
            sturk_seat = -1
        # the tricks' cards are kept only for the hands whose going on _going_on replays (after the play)
        rec = sturk_seat >= 0 or sk >= fifties_key
        # --- play (SAKBOC 3.2-3.4): all 8 tricks, every card uniform among the legal ones ---
        tt = tts[trump]
        lead = tt.lead
        ap = tt.above
        pt = tt.points
        su = suits[trump]
        s0 = su[code[0] + code2[0]]  # each seat's suits as local masks (see _LocalTables.suits)
        s1 = su[code[1] + code2[1]]
        s2 = su[code[2] + code2[2]]
        s3 = su[code[3] + code2[3]]
        t0 = s0[8]  # and its trumps
        t1 = s1[8]
        t2 = s2[8]
        t3 = s3[8]
        bo0 = bo1 = bo2 = bo3 = -1  # the Boer as a local bit, for the seat holding it (never equal to a mask)
        boer = tt.boer
        if th[0] & _JACK_BIT:
            bo0 = bit[g0.index(boer)]
        elif th[1] & _JACK_BIT:
            bo1 = bit[g1.index(boer)]
        elif th[2] & _JACK_BIT:
            bo2 = bit[g2.index(boer)]
        else:
            bo3 = bit[g3.index(boer)]
        h0 = h1 = h2 = h3 = all_local
        sc0 = 0  # card points of seats 0 and 2
        win = leader
        for n in (8, 7, 6, 5, 4, 3, 2):  # cards in each hand; the trick's leader is the last winner
            r = getrandbits(trick_bits)
            while r >= trick_limit:
                r = getrandbits(trick_bits)
            # unrolled by leader so that the four hands stay in local variables. A played card's bit is in the
            # hand, so ``h -= bit[j]`` is ``h ^= bit[j]`` (CPython specialises int - but not the bitwise operators)
            if win == 0:
                c = kth[h0]
                j = c[r % n]
                r //= radix  # below radix**3 now: a one-digit int
                h0 -= bit[j]
                a0 = g0[j]
                pw, ls, best, lf = lead[a0]
                if ls == trump:  # trumps led: follow with a trump, the Boer never forced (SAKBOC 3.2, 3.3)
                    legal = h1 & t1
                    if legal == bo1 or not legal:
                        legal = h1
                    c = kth[legal]
                    j = c[r % nk[legal]]
                    h1 -= bit[j]
                    a1 = g1[j]
                    p = pw[a1]
                    if p > best:
                        best = p
                        win = 1
                    legal = h2 & t2
                    if legal == bo2 or not legal:
                        legal = h2
                    c = kth[legal]
                    j = c[r // radix % nk[legal]]
                    h2 -= bit[j]
                    a2 = g2[j]
                    p = pw[a2]
                    if p > best:
                        best = p
                        win = 2
                    legal = h3 & t3
                    if legal == bo3 or not legal:
                        legal = h3
                    c = kth[legal]
                    j = c[r // radix2 % nk[legal]]
                    h3 -= bit[j]
                    a3 = g3[j]
                    if pw[a3] > best:
                        win = 3
                else:  # side suit led: follow or trump, never undertrump unless only trumps (SAKBOC 3.3, 3.4)
                    lm = s1[ls]
                    legal = h1 & s1[lf] if h1 & lm else h1
                    c = kth[legal]
                    j = c[r % nk[legal]]
                    h1 -= bit[j]
                    a1 = g1[j]
                    p = pw[a1]
                    if p > best:
                        best = p
                        win = 1
                    lm = s2[ls]
                    if best < first_trump:  # no trump on the trick: follow, or trump with any trump
                        legal = h2 & s2[lf] if h2 & lm else h2
                    else:  # a trump on top: only trumps above it (SAKBOC 3.4)
                        u = px[th[2] << 8 | ap[best]] << low[t2]
                        o = all_local ^ t2
                        legal = h2 & (lm | u) if h2 & lm else h2 & (o | u) if h2 & o else h2
                    c = kth[legal]
                    j = c[r // radix % nk[legal]]
                    h2 -= bit[j]
                    a2 = g2[j]
                    p = pw[a2]
                    if p > best:
                        best = p
                        win = 2
                    lm = s3[ls]
                    if best < first_trump:  # no trump on the trick: follow, or trump with any trump
                        legal = h3 & s3[lf] if h3 & lm else h3
                    else:  # a trump on top: only trumps above it (SAKBOC 3.4)
                        u = px[th[3] << 8 | ap[best]] << low[t3]
                        o = all_local ^ t3
                        legal = h3 & (lm | u) if h3 & lm else h3 & (o | u) if h3 & o else h3
                    c = kth[legal]
                    j = c[r // radix2 % nk[legal]]
                    h3 -= bit[j]
                    a3 = g3[j]
                    if pw[a3] > best:
                        win = 3
            elif win == 1:
                c = kth[h1]
                j = c[r % n]
                r //= radix  # below radix**3 now: a one-digit int
                h1 -= bit[j]
                a0 = g1[j]
                pw, ls, best, lf = lead[a0]
                if ls == trump:  # trumps led: follow with a trump, the Boer never forced (SAKBOC 3.2, 3.3)
                    legal = h2 & t2
                    if legal == bo2 or not legal:
                        legal = h2
                    c = kth[legal]
                    j = c[r % nk[legal]]
                    h2 -= bit[j]
                    a1 = g2[j]
                    p = pw[a1]
                    if p > best:
                        best = p
                        win = 2
                    legal = h3 & t3
                    if legal == bo3 or not legal:
                        legal = h3
                    c = kth[legal]
                    j = c[r // radix % nk[legal]]
                    h3 -= bit[j]
                    a2 = g3[j]
                    p = pw[a2]
                    if p > best:
                        best = p
                        win = 3
                    legal = h0 & t0
                    if legal == bo0 or not legal:
                        legal = h0
                    c = kth[legal]
                    j = c[r // radix2 % nk[legal]]
                    h0 -= bit[j]
                    a3 = g0[j]
                    if pw[a3] > best:
                        win = 0
                else:  # side suit led: follow or trump, never undertrump unless only trumps (SAKBOC 3.3, 3.4)
                    lm = s2[ls]
                    legal = h2 & s2[lf] if h2 & lm else h2
                    c = kth[legal]
                    j = c[r % nk[legal]]
                    h2 -= bit[j]
                    a1 = g2[j]
                    p = pw[a1]
                    if p > best:
                        best = p
                        win = 2
                    lm = s3[ls]
                    if best < first_trump:  # no trump on the trick: follow, or trump with any trump
                        legal = h3 & s3[lf] if h3 & lm else h3
                    else:  # a trump on top: only trumps above it (SAKBOC 3.4)
                        u = px[th[3] << 8 | ap[best]] << low[t3]
                        o = all_local ^ t3
                        legal = h3 & (lm | u) if h3 & lm else h3 & (o | u) if h3 & o else h3
                    c = kth[legal]
                    j = c[r // radix % nk[legal]]
                    h3 -= bit[j]
                    a2 = g3[j]
                    p = pw[a2]
                    if p > best:
                        best = p
                        win = 3
                    lm = s0[ls]
                    if best < first_trump:  # no trump on the trick: follow, or trump with any trump
                        legal = h0 & s0[lf] if h0 & lm else h0
                    else:  # a trump on top: only trumps above it (SAKBOC 3.4)
                        u = px[th[0] << 8 | ap[best]] << low[t0]
                        o = all_local ^ t0
                        legal = h0 & (lm | u) if h0 & lm else h0 & (o | u) if h0 & o else h0
                    c = kth[legal]
                    j = c[r // radix2 % nk[legal]]
                    h0 -= bit[j]
                    a3 = g0[j]
                    if pw[a3] > best:
                        win = 0
            elif win == 2:
                c = kth[h2]
                j = c[r % n]
                r //= radix  # below radix**3 now: a one-digit int
                h2 -= bit[j]
                a0 = g2[j]
                pw, ls, best, lf = lead[a0]
                if ls == trump:  # trumps led: follow with a trump, the Boer never forced (SAKBOC 3.2, 3.3)
                    legal = h3 & t3
                    if legal == bo3 or not legal:
                        legal = h3
                    c = kth[legal]
                    j = c[r % nk[legal]]
                    h3 -= bit[j]
                    a1 = g3[j]
                    p = pw[a1]
                    if p > best:
                        best = p
                        win = 3
                    legal = h0 & t0
                    if legal == bo0 or not legal:
                        legal = h0
                    c = kth[legal]
                    j = c[r // radix % nk[legal]]
                    h0 -= bit[j]
                    a2 = g0[j]
                    p = pw[a2]
                    if p > best:
                        best = p
                        win = 0
                    legal = h1 & t1
                    if legal == bo1 or not legal:
                        legal = h1
                    c = kth[legal]
                    j = c[r // radix2 % nk[legal]]
                    h1 -= bit[j]
                    a3 = g1[j]
                    if pw[a3] > best:
                        win = 1
                else:  # side suit led: follow or trump, never undertrump unless only trumps (SAKBOC 3.3, 3.4)
                    lm = s3[ls]
                    legal = h3 & s3[lf] if h3 & lm else h3
                    c = kth[legal]
                    j = c[r % nk[legal]]
                    h3 -= bit[j]
                    a1 = g3[j]
                    p = pw[a1]
                    if p > best:
                        best = p
                        win = 3
                    lm = s0[ls]
                    if best < first_trump:  # no trump on the trick: follow, or trump with any trump
                        legal = h0 & s0[lf] if h0 & lm else h0
                    else:  # a trump on top: only trumps above it (SAKBOC 3.4)
                        u = px[th[0] << 8 | ap[best]] << low[t0]
                        o = all_local ^ t0
                        legal = h0 & (lm | u) if h0 & lm else h0 & (o | u) if h0 & o else h0
                    c = kth[legal]
                    j = c[r // radix % nk[legal]]
                    h0 -= bit[j]
                    a2 = g0[j]
                    p = pw[a2]
                    if p > best:
                        best = p
                        win = 0
                    lm = s1[ls]
                    if best < first_trump:  # no trump on the trick: follow, or trump with any trump
                        legal = h1 & s1[lf] if h1 & lm else h1
                    else:  # a trump on top: only trumps above it (SAKBOC 3.4)
                        u = px[th[1] << 8 | ap[best]] << low[t1]
                        o = all_local ^ t1
                        legal = h1 & (lm | u) if h1 & lm else h1 & (o | u) if h1 & o else h1
                    c = kth[legal]
                    j = c[r // radix2 % nk[legal]]
                    h1 -= bit[j]
                    a3 = g1[j]
                    if pw[a3] > best:
                        win = 1
            else:
                c = kth[h3]
                j = c[r % n]
                r //= radix  # below radix**3 now: a one-digit int
                h3 -= bit[j]
                a0 = g3[j]
                pw, ls, best, lf = lead[a0]
                if ls == trump:  # trumps led: follow with a trump, the Boer never forced (SAKBOC 3.2, 3.3)
                    legal = h0 & t0
                    if legal == bo0 or not legal:
                        legal = h0
                    c = kth[legal]
                    j = c[r % nk[legal]]
                    h0 -= bit[j]
                    a1 = g0[j]
                    p = pw[a1]
                    if p > best:
                        best = p
                        win = 0
                    legal = h1 & t1
                    if legal == bo1 or not legal:
                        legal = h1
                    c = kth[legal]
                    j = c[r // radix % nk[legal]]
                    h1 -= bit[j]
                    a2 = g1[j]
                    p = pw[a2]
                    if p > best:
                        best = p
                        win = 1
                    legal = h2 & t2
                    if legal == bo2 or not legal:
                        legal = h2
                    c = kth[legal]
                    j = c[r // radix2 % nk[legal]]
                    h2 -= bit[j]
                    a3 = g2[j]
                    if pw[a3] > best:
                        win = 2
                else:  # side suit led: follow or trump, never undertrump unless only trumps (SAKBOC 3.3, 3.4)
                    lm = s0[ls]
                    legal = h0 & s0[lf] if h0 & lm else h0
                    c = kth[legal]
                    j = c[r % nk[legal]]
                    h0 -= bit[j]
                    a1 = g0[j]
                    p = pw[a1]
                    if p > best:
                        best = p
                        win = 0
                    lm = s1[ls]
                    if best < first_trump:  # no trump on the trick: follow, or trump with any trump
                        legal = h1 & s1[lf] if h1 & lm else h1
                    else:  # a trump on top: only trumps above it (SAKBOC 3.4)
                        u = px[th[1] << 8 | ap[best]] << low[t1]
                        o = all_local ^ t1
                        legal = h1 & (lm | u) if h1 & lm else h1 & (o | u) if h1 & o else h1
                    c = kth[legal]
                    j = c[r // radix % nk[legal]]
                    h1 -= bit[j]
                    a2 = g1[j]
                    p = pw[a2]
                    if p > best:
                        best = p
                        win = 1
                    lm = s2[ls]
                    if best < first_trump:  # no trump on the trick: follow, or trump with any trump
                        legal = h2 & s2[lf] if h2 & lm else h2
                    else:  # a trump on top: only trumps above it (SAKBOC 3.4)
                        u = px[th[2] << 8 | ap[best]] << low[t2]
                        o = all_local ^ t2
                        legal = h2 & (lm | u) if h2 & lm else h2 & (o | u) if h2 & o else h2
                    c = kth[legal]
                    j = c[r // radix2 % nk[legal]]
                    h2 -= bit[j]
                    a3 = g2[j]
                    if pw[a3] > best:
                        win = 2

            pts = pt[a0] + pt[a1] + pt[a2] + pt[a3]
            if rec:  # indexed by the cards each hand held: trick 1 at [8], the last trick at [1]
                tks[n] = (a0, a1, a2, a3)
            tps[n] = pts
            wins[n] = win
            if not win & 1:
                sc0 += pts
        # the last trick: every player has one card left, so every play is forced (no random number drawn)
        a0 = g0[low[h0]]
        a1 = g1[low[h1]]
        a2 = g2[low[h2]]
        a3 = g3[low[h3]]
        pw = lead[a0 if win == 0 else a1 if win == 1 else a2 if win == 2 else a3][0]
        p0 = pw[a0]
        p1 = pw[a1]
        p2 = pw[a2]
        p3 = pw[a3]
        best = max(p0, p1, p2, p3)
        win = 0 if p0 == best else 1 if p1 == best else 2 if p2 == best else 3
        pts = pt[a0] + pt[a1] + pt[a2] + pt[a3]
        if rec:
            tks[1] = (a0, a1, a2, a3)
        tps[1] = pts + last_bonus
        wins[1] = win
        if not win & 1:
            sc0 += pts + last_bonus
        # --- scoring: card points, standing call, sturk, going on (SAKBOC 7.3, 8.17, 8.21; Notes §V, §VI) ---
        total0 += sc0
        c0 = sc0
        c1 = hand_total - sc0
        if sturk_seat >= 0:
            if sturk_seat & 1:
                c1 += sturk_pts
                roem1 += sturk_pts
            else:
                c0 += sturk_pts
                roem0 += sturk_pts
        if sk:
            roem_hands += 1
            team = ((dealer + 4 - (sk & 3)) & 3) & 1  # seat = leader + 3 - priority = dealer - priority
            if sk >= _OUTRIGHT:  # SAKBOC 8.7, 8.17: roemed before a card is played; goes on outright
                if team:
                    on1 += 1
                    st1 += outright_strokes_
                else:
                    on0 += 1
                    st0 += outright_strokes_
                continue
            if team:
                c1 += sk >> points_shift
                roem1 += sk >> points_shift
            else:
                c0 += sk >> points_shift
                roem0 += sk >> points_shift
        if c0 >= target:
            if c1 < under and sc0:  # goes on at its first chance, the opponents under 50 throughout
                # (card points show it has picked up a trick; a trick of no points goes to the replay)
                on0 += 1
                st0 += two
                continue
        elif c1 >= target:
            if c0 < under and sc0 != hand_total:
                on1 += 1
                st1 += two
                continue
        else:
            continue
        if not rec:  # no sturk and no two fifties waiting for a trick (SAKBOC 8.21):
            # replay the tricks; the winners of each are checked as they pick it up: _going_on's plain case,
            # inline because it saves 3-5 % of the loop (measured); the tests hold both to the reference
            x0 = x1 = 0
            if sk:
                if team:
                    x1 = sk >> points_shift
                else:
                    x0 = sk >> points_shift
            for n in (8, 7, 6, 5, 4, 3, 2, 1):
                if wins[n] & 1:
                    x1 += tps[n]
                    if x1 >= target:
                        on1 += 1
                        st1 += two if x0 < under else 1
                        break
                else:
                    x0 += tps[n]
                    if x0 >= target:
                        on0 += 1
                        st0 += two if x1 < under else 1
                        break
            continue
        got = _going_on(
            tks[8:0:-1], tps[8:0:-1], wins[8:0:-1], leader0, sk, (k0, k1, k2, k3),
            ((xs0, xs1, xs2, xs3), (xh0, xh1, xh2, xh3), (xd0, xd1, xd2, xd3), (xc0, xc1, xc2, xc3)), sturk_seat,
            trump, ruleset, fifties,
        )
        if got is not None:
            if got[0]:
                on1 += 1
                st1 += got[1]
            else:
                on0 += 1
                st0 += got[1]
    return FastStats(
        count, (total0, count * hand_total - total0), roem_hands, (on0, on1), (roem0, roem1), (st0, st1)
    )


def _try_go_on(
    team: int,
    standing: tuple[int, RoemCall] | None,
    tp: Sequence[int],
    taken: Sequence[int],
    sturk: Sequence[int],
    ruleset: Ruleset,
) -> tuple[int, int] | None:
    """``(team, strokes)`` if ``team`` may go on now in new play (engine.scoring), else ``None``."""

    def side(t: int) -> SideCount:
        mine = standing is not None and standing[0] % 2 == t
        return SideCount(
            tricks_points=tp[t],
            tricks_taken=taken[t],
            roem=standing[1].points if standing is not None and mine else 0,
            sturk=sturk[t],
            two_fifties=standing is not None and mine and standing[1].names.count("fifty") >= 2,
        )

    if may_go_on(side(team), old_play=False, ruleset=ruleset):
        return (team, strokes_for(side(1 - team), ruleset))
    return None


def _reference_random_hands(count: int, seed: int, ruleset: Ruleset) -> FastStats:
    """The readable version of :func:`play_random_hands`: same random numbers, same model, built from
    :func:`engine.play.legal_mask`, :mod:`engine.roem` (best_call, outranks, call_key, sturk_due) and
    :mod:`engine.scoring` (may_go_on, strokes_for, outright_strokes) one card at a time."""
    rng = random.Random(seed)
    tables = play_tables(ruleset)
    total0 = 0
    roem_hands = 0
    roem = [0, 0]
    on = [0, 0]
    strokes = [0, 0]
    for _ in range(count):
        number, dealer, face = _random_deal_numbers(rng)
        hands = list(_decode_deal(number))
        trump = cards_of(hands[dealer])[face] >> 3  # the dealer's face-up card (SAKBOC 1.7, Notes §IV)
        dealt = tuple(hands)
        calls = [best_call(h, trump, ruleset) for h in dealt]
        if any(c is not None for c in calls):
            roem_hands += 1
        leader = (dealer + 1) % 4
        order = [(leader + k) % 4 for k in range(4)]
        went_on: tuple[int, int] | None = None
        # SAKBOC 8.7, 8.17: an outright roemte is roemed before playing, unless a later opponent's is higher
        for k, s in enumerate(order):
            mine = calls[s]
            if mine is None or mine.outright is None:
                continue
            rivals = [calls[o] for o in order[k + 1 :] if o % 2 != s % 2]
            if not any(
                r is not None and r.outright is not None and call_key(r, ruleset) > call_key(mine, ruleset)
                for r in rivals
            ):
                went_on = (s % 2, outright_strokes(mine.outright, old_play=False, opponents=0, ruleset=ruleset))
                break
        standing: tuple[int, RoemCall] | None = None
        tp = [0, 0]
        taken = [0, 0]
        sturk = [0, 0]

        for t in range(8):
            r = 0  # the last trick's plays are forced: no random number is drawn for it
            if t < 7:
                r = rng.getrandbits(_TRICK_BITS)
                while r >= _TRICK_LIMIT:
                    r = rng.getrandbits(_TRICK_BITS)
            trick: list[int] = []
            for k in range(4):
                s = (leader + k) % 4
                options = cards_of(legal_mask(hands[s], trick, trump, ruleset))
                c = options[r % len(options)]  # r % n == (r % 840) % n: uniform, since n divides 840
                r //= _RADIX
                held = hands[s]
                hands[s] = held ^ (1 << c)
                trick.append(c)
                called = False
                mine = calls[s]
                if t == 0 and mine is not None and outranks(mine, standing[1] if standing else None, ruleset):
                    standing = (s, mine)  # the overcalled call is closed (SAKBOC 8.3)
                    called = True
                if sturk_due(c, held, trump):
                    sturk[s % 2] += ruleset.sturk_points
                    called = True
                if called and k < 3 and went_on is None:
                    went_on = _try_go_on(s % 2, standing, tp, taken, sturk, ruleset)
            pw = tables.power[trump * 4 + (trick[0] >> 3)]
            winner = (leader + max(range(4), key=lambda i: pw[trick[i]])) % 4
            tp[winner % 2] += trick_points(trick, trump, ruleset, last=t == 7)
            taken[winner % 2] += 1
            for team in (winner % 2, 1 - winner % 2):
                if went_on is None:
                    went_on = _try_go_on(team, standing, tp, taken, sturk, ruleset)
            leader = winner
        total0 += tp[0]
        for team in (0, 1):
            roem[team] += sturk[team]
        if standing is not None:
            roem[standing[0] % 2] += standing[1].points
        if went_on is not None:
            on[went_on[0]] += 1
            strokes[went_on[0]] += went_on[1]
    return FastStats(
        count,
        (total0, count * ruleset.hand_total - total0),
        roem_hands,
        (on[0], on[1]),
        (roem[0], roem[1]),
        (strokes[0], strokes[1]),
    )


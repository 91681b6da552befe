"""Seeded simulation: deals, random legal play and a rule-following bot for hands, games and boems.

Everything is reproducible: the same seed gives the same deals, cards, roem and strokes.

* :func:`deal` cuts (2..31 cards, SAKBOC 2.1) and deals in 3-3-2 / 3-2-3 / 2-3-3 (SAKBOC 1.7,
  Notes §IV) to the right, starting with the dealer's right-hand neighbour ``(dealer + 1) % 4``; the
  dealer's last card is dealt face up and its suit is trump.
* :func:`play_hand` plays one hand with random legal cards. With ``policy="bot"`` the players also
  follow the roem and going-on rules: roem what they hold with their first card (SAKBOC 4.3), size
  an equal roemte and overroem only when higher (SAKBOC 8.2-8.4, 8.10), roem sturk with the first of
  K/Q of trumps (Notes §VI), roem an outright roemte before playing (SAKBOC 8.7) and go on as soon
  as they may with the right strokes (Notes §V, §VI; SAKBOC 8.12, 8.17, 8.19, 8.21).
  With ``policy="random"`` nobody roems or goes on and all 8 tricks are played.
* :func:`play_boem` plays hands (through ou jol) until a side has 5 strokes; :func:`play_session`
  plays boems back to back for a time budget at a few minutes a hand (a 75-minute half).
* :func:`play_random_hands` is the fast loop behind ``bench/engine_hands.py``.

Each hand can be emitted as a hand record dict (``HandResult.record``, format "klawerjas-hand"
version 1, see the engine contract) that ``engine.adjudicate`` replays as clean. Outright roemte are
recorded as a ``roem`` event *before* the roemer plays a card (SAKBOC 8.7), followed by the telman's
``go_on``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.cards import CARD_NAMES, SUIT_MASKS, cards_of
from engine.play import legal_mask, play_tables
from engine.roem import RoemCall, best_call, call_key, forbids_sizing, needs_size, outranks, sturk_due
from engine.ruleset import SAKBOC_2004, Ruleset
from engine.scoring import BoemState, GameState, SideCount, may_go_on, outright_strokes, strokes_for

__all__ = [
    "DEFAULT_NAMES",
    "BoemResult",
    "Deal",
    "FastStats",
    "HandResult",
    "SessionResult",
    "deal",
    "play_boem",
    "play_hand",
    "play_random_hands",
    "play_session",
]

Policy = Literal["bot", "random"]

DEFAULT_NAMES = ("Ayesha Jacobs", "Faizel Adams", "Mymoena Davids", "Clive Petersen")
"""Player names used in records when none are given (seat order)."""


@dataclass(frozen=True)
class Deal:
    """One dealt hand (SAKBOC 1.7, 2.1; Notes §IV).

    :ivar dealer: the dealer's seat.
    :ivar cut: cards cut from the top (2..31).
    :ivar pattern: round sizes, e.g. ``(3, 3, 2)``.
    :ivar hands: the four 8-card hand masks, indexed by seat.
    :ivar trump_card: the dealer's last card, dealt face up; its suit is trump.
    """

    dealer: int
    cut: int
    pattern: tuple[int, int, int]
    hands: tuple[int, int, int, int]
    trump_card: int

    @property
    def trump(self) -> int:
        """The trump suit."""
        return self.trump_card >> 3

    @property
    def leader(self) -> int:
        """The player on the dealer's right leads the first trick (Notes §IV)."""
        return (self.dealer + 1) % 4


def deal(rng: random.Random, dealer: int, ruleset: Ruleset = SAKBOC_2004) -> Deal:
    """Shuffle, cut and deal with ``rng`` (SAKBOC 1.7, 2.1; Notes §IV).

    The deck is shuffled, ``cut`` cards (2..31) go from the top to the bottom, then the cards are dealt
    in three rounds of the chosen pattern to seats ``dealer+1, dealer+2, dealer+3, dealer``. The last
    card dealt (the dealer's) is face up: trump.
    """
    deck = list(range(32))
    rng.shuffle(deck)
    cut = rng.randint(ruleset.min_cut, ruleset.max_cut)
    deck = deck[cut:] + deck[:cut]
    pattern = ruleset.deal_patterns[rng.randrange(len(ruleset.deal_patterns))]
    hands = [0, 0, 0, 0]
    pos = 0
    for n in pattern:
        for k in range(1, 5):
            seat = (dealer + k) % 4
            for c in deck[pos : pos + n]:
                hands[seat] |= 1 << c
            pos += n
    return Deal(dealer, cut, pattern, (hands[0], hands[1], hands[2], hands[3]), deck[31])


@dataclass(frozen=True)
class HandResult:
    """The outcome of one simulated hand.

    :ivar deal: the deal.
    :ivar state_before: ou jol carry and boem position the hand started from.
    :ivar events: the events in hand-record form.
    :ivar tricks: ``(leader, cards, winner_seat, points)`` per trick played.
    :ivar tricks_points: card points picked up per team in this hand (vyf laas trek included).
    :ivar roem: roem scored per team in this hand (standing call and sturk).
    :ivar went_on: ``(team, strokes)`` if a telman went on, else ``None`` (ou jol follows).
    :ivar state_after: the state the next hand starts from.
    :ivar next_dealer: who deals next.
    :ivar record: the hand record dict (format "klawerjas-hand", version 1).
    """

    deal: Deal
    state_before: GameState
    events: tuple[dict[str, Any], ...]
    tricks: tuple[tuple[int, tuple[int, ...], int, int], ...]
    tricks_points: tuple[int, int]
    roem: tuple[int, int]
    went_on: tuple[int, int] | None
    state_after: GameState
    next_dealer: int
    record: dict[str, Any] = field(repr=False, compare=False)


def _call_json(names: Sequence[str]) -> str | list[str]:
    return names[0] if len(names) == 1 else list(names)


def play_hand(
    d: Deal,
    rng: random.Random,
    state: GameState | None = None,
    ruleset: Ruleset = SAKBOC_2004,
    *,
    policy: Policy = "bot",
    names: Sequence[str] = DEFAULT_NAMES,
    telmen: tuple[int, int] = (0, 1),
) -> HandResult:
    """Play one hand from deal ``d`` with random legal cards drawn from ``rng``.

    :param state: the carried state (ou jol tallies and roem, boem strokes); default a new game.
    :param policy: ``"bot"`` roems and goes on by the rules; ``"random"`` only plays cards.
    :param names: player names by seat, for the record.
    :param telmen: the telman's seat of team 0 (seat 0 or 2) and of team 1 (seat 1 or 3).
    :raises ValueError: if ``telmen`` does not name one seat per team.
    """
    if telmen[0] % 2 != 0 or telmen[1] % 2 != 1:
        raise ValueError(f"telmen {telmen!r}: need a seat of team 0 (0 or 2) and of team 1 (1 or 3)")
    state = state or GameState()
    trump = d.trump
    old_play = state.old_play
    bot = policy == "bot"
    tables = play_tables(ruleset)
    points = tables.points[trump]
    hands = list(d.hands)
    events: list[dict[str, Any]] = []
    tricks: list[tuple[int, tuple[int, ...], int, int]] = []
    tp = [0, 0]
    taken = [0, 0]
    sturk = [0, 0]
    standing: tuple[int, RoemCall] | None = None
    sized = False  # the standing call's size has been asked and answered
    went_on: tuple[int, int] | None = None
    leader = d.leader
    last_winner = -1

    def side(team: int) -> SideCount:
        roem = standing[1].points if standing is not None and standing[0] % 2 == team else 0
        two_fifties = standing is not None and standing[0] % 2 == team and standing[1].names.count("fifty") >= 2
        return SideCount(
            tally=state.tallies[team],
            old_roem=state.roem[team],
            tricks_points=tp[team],
            tricks_taken=taken[team],
            roem=roem,
            sturk=sturk[team],
            two_fifties=two_fifties,
        )

    def try_go_on(team: int, yet_to_play: Sequence[int]) -> bool:
        nonlocal went_on
        if not may_go_on(side(team), old_play=old_play, ruleset=ruleset):
            return False
        opponents = [s for s in yet_to_play if s % 2 != team]
        if opponents and standing is not None and standing[0] % 2 == team:
            # "good enough?" of opponents yet to play (SAKBOC 8.20, 8.23, 8.25); they answer truly
            for s in opponents:
                theirs = best_call(d.hands[s], trump, ruleset)
                if theirs is not None and theirs.outright is None and outranks(theirs, standing[1], ruleset):
                    return False
            events.append({"type": "good_enough", "seat": telmen[team], "asked": opponents})
        strokes = strokes_for(side(1 - team), ruleset)
        events.append({"type": "go_on", "seat": telmen[team], "strokes": strokes})
        went_on = (team, strokes)
        return True

    for t in range(8):
        trick: list[int] = []
        roem_team = -1  # a side that roemed with the last card of this trick
        for k in range(4):
            s = (leader + k) % 4
            team = s % 2
            later = [(leader + j) % 4 for j in range(k + 1, 4)]
            if bot and t == 0:
                mine = best_call(d.hands[s], trump, ruleset)
                if mine is not None and mine.outright is not None:
                    rivals = [best_call(d.hands[o], trump, ruleset) for o in later if o % 2 != team]
                    beaten = any(
                        r is not None and r.outright is not None and call_key(r, ruleset) > call_key(mine, ruleset)
                        for r in rivals
                    )
                    if not beaten:  # SAKBOC 8.7: roemed without playing a card; go on outright
                        events.append({"type": "roem", "seat": s, "call": mine.outright})
                        opponents = [o for o in later if o % 2 != team]
                        if opponents and mine.outright != ruleset.outright_roemte[0]:
                            events.append({"type": "good_enough", "seat": telmen[team], "asked": opponents})
                        strokes = outright_strokes(
                            mine.outright, old_play=old_play, opponents=side(1 - team), ruleset=ruleset
                        )
                        events.append({"type": "go_on", "seat": telmen[team], "strokes": strokes})
                        went_on = (team, strokes)
                        break
            legal = legal_mask(hands[s], trick, trump, ruleset)
            options = cards_of(legal)
            c = options[rng.randrange(len(options))]
            held = hands[s]
            hands[s] = held ^ (1 << c)
            trick.append(c)
            events.append({"type": "play", "seat": s, "card": CARD_NAMES[c]})
            if not bot:
                continue
            call_names: list[str] = []
            if t == 0:
                mine = best_call(d.hands[s], trump, ruleset)
                if mine is not None and mine.outright is None:
                    if standing is None:
                        call_names = list(mine.names)
                    elif standing[0] % 2 == team:
                        if mine.points > standing[1].points:  # overcall partner (SAKBOC 8.4, 8.9)
                            call_names = list(mine.names)
                    else:
                        if needs_size(mine, standing[1]) and not sized and not forbids_sizing(standing[1]):  # 8.2, 8.5
                            events.append({"type": "size", "seat": s, "asked": standing[0]})
                            events.append({"type": "size_answer", "seat": standing[0], "top": standing[1].top_char})
                            sized = True
                        if outranks(mine, standing[1], ruleset):
                            call_names = list(mine.names)
                    if call_names:
                        standing = (s, mine)
                        sized = False
            if sturk_due(c, held, trump):
                call_names.append("sturk")
                sturk[team] += ruleset.sturk_points
            if call_names:
                events.append({"type": "roem", "seat": s, "call": _call_json(call_names)})
                if k == 3:  # the trick is complete: it counts for its winner before anyone goes on
                    roem_team = team
                elif try_go_on(team, later if t == 0 else []):
                    break
        if went_on is not None:
            break
        pw = tables.power[trump * 4 + (trick[0] >> 3)]
        best = max(range(4), key=lambda i: pw[trick[i]])
        winner = (leader + best) % 4
        pts = sum(points[c] for c in trick) + (ruleset.last_trick_bonus if t == 7 else 0)
        tp[winner % 2] += pts
        taken[winner % 2] += 1
        tricks.append((leader, tuple(trick), winner, pts))
        last_winner = winner
        leader = winner
        if bot and (
            try_go_on(winner % 2, []) or (roem_team == 1 - winner % 2 and try_go_on(roem_team, []))
        ):
            break

    hand_roem = [sturk[0], sturk[1]]
    if standing is not None:
        hand_roem[standing[0] % 2] += standing[1].points
    if went_on is not None:
        boem = BoemState(state.strokes, ruleset.boem_strokes).go_on(went_on[0], went_on[1], ruleset)
        state_after = state.new_game(boem.strokes)
    else:
        state_after = state.carry((tp[0], tp[1]), (hand_roem[0], hand_roem[1]))
    if last_winner < 0:
        next_dealer = d.dealer
    elif went_on is not None and ruleset.new_game_dealer == "next-seat":
        next_dealer = (d.dealer + 1) % 4
    else:
        next_dealer = last_winner
    record = {
        "format": "klawerjas-hand",
        "version": 1,
        "ruleset": ruleset.name,
        "seats": [
            {"seat": i, "name": names[i], "role": "telman" if i in telmen else "byspeler"} for i in range(4)
        ],
        "dealer": d.dealer,
        "cut": d.cut,
        "deal_pattern": "-".join(str(n) for n in d.pattern),
        "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in d.hands],
        "trump_card": CARD_NAMES[d.trump_card],
        "state_before": state.to_record(),
        "events": events,
    }
    return HandResult(
        d,
        state,
        tuple(events),
        tuple(tricks),
        (tp[0], tp[1]),
        (hand_roem[0], hand_roem[1]),
        went_on,
        state_after,
        next_dealer,
        record,
    )


@dataclass(frozen=True)
class BoemResult:
    """A boem played to 5 strokes (or stopped by a time budget).

    :ivar seed: the seed it was played from.
    :ivar hands: every hand, in order, with its record.
    :ivar strokes: final strokes per team.
    :ivar winner: the winning team, or ``None`` if unfinished.
    :ivar match_points: match points per team (SAKBOC 6.1; an unfinished boem scores nothing).
    :ivar next_dealer: who deals the first hand of the next boem.
    """

    seed: int | str | None
    hands: tuple[HandResult, ...]
    strokes: tuple[int, int]
    winner: int | None
    match_points: tuple[int, int]
    next_dealer: int

    @property
    def records(self) -> list[dict[str, Any]]:
        """The hand records of the boem, in order."""
        return [h.record for h in self.hands]


def play_boem(
    rng_seed: int | str | None,
    ruleset: Ruleset = SAKBOC_2004,
    *,
    dealer: int = 0,
    names: Sequence[str] = DEFAULT_NAMES,
    telmen: tuple[int, int] = (0, 1),
    rng: random.Random | None = None,
    max_hands: int | None = None,
) -> BoemResult:
    """Play a whole boem with the rule-following bot: games through ou jol until a side has 5 strokes.

    :param rng_seed: seed for a fresh ``random.Random`` (ignored if ``rng`` is given).
    :param dealer: the first dealer.
    :param max_hands: stop early after this many hands (the boem is then unfinished).
    """
    rng = rng or random.Random(rng_seed)
    state = GameState()
    hands: list[HandResult] = []
    boem = BoemState((0, 0), ruleset.boem_strokes)
    while not boem.finished and (max_hands is None or len(hands) < max_hands):
        h = play_hand(deal(rng, dealer, ruleset), rng, state, ruleset, names=names, telmen=telmen)
        hands.append(h)
        state = h.state_after
        boem = BoemState(state.strokes, ruleset.boem_strokes)
        dealer = h.next_dealer
    return BoemResult(rng_seed, tuple(hands), boem.strokes, boem.winner, boem.match_points(), dealer)


@dataclass(frozen=True)
class SessionResult:
    """Boems played back to back in a time budget (a half of a match night, DOMAIN.md).

    :ivar boems: the completed boems, then the unfinished one (if any hand of it was played).
    :ivar hands_played: hands completed in the budget.
    :ivar minutes_used: simulated minutes of the completed hands.
    :ivar match_points: match points per team from completed boems (SAKBOC 6.1; interpretation 3).
    """

    boems: tuple[BoemResult, ...]
    hands_played: int
    minutes_used: float
    match_points: tuple[int, int]


def play_session(
    seed: int | str | None,
    minutes: float = 75.0,
    ruleset: Ruleset = SAKBOC_2004,
    *,
    hand_minutes: tuple[float, float] = (2.0, 4.0),
    names: Sequence[str] = DEFAULT_NAMES,
    telmen: tuple[int, int] = (0, 1),
    dealer: int = 0,
) -> SessionResult:
    """Play boems back to back for ``minutes`` of simulated table time.

    Each hand takes a uniformly drawn ``hand_minutes`` (about 3 minutes, so a 75-minute half plays some
    25 hands). A hand is started only while time remains and a started hand is completed (SAKBOC 2.2);
    an unfinished boem at the end scores nothing (DOMAIN.md interpretation 3).
    """
    rng = random.Random(seed)
    clock = 0.0
    boems: list[BoemResult] = []
    total = 0
    while clock < minutes:
        state = GameState()
        hands: list[HandResult] = []
        boem = BoemState((0, 0), ruleset.boem_strokes)
        while not boem.finished and clock < minutes:
            h = play_hand(deal(rng, dealer, ruleset), rng, state, ruleset, names=names, telmen=telmen)
            clock += rng.uniform(*hand_minutes)
            hands.append(h)
            state = h.state_after
            boem = BoemState(state.strokes, ruleset.boem_strokes)
            dealer = h.next_dealer
        total += len(hands)
        if hands:
            points = boem.match_points() if boem.finished or ruleset.unfinished_boem_scores else (0, 0)
            boems.append(BoemResult(seed, tuple(hands), boem.strokes, boem.winner, points, dealer))
    mp = (sum(b.match_points[0] for b in boems), sum(b.match_points[1] for b in boems))
    return SessionResult(tuple(boems), total, clock, mp)


@dataclass(frozen=True)
class FastStats:
    """Totals from :func:`play_random_hands`.

    :ivar hands: hands played.
    :ivar card_points: card points per team summed over the hands (each hand totals 146).
    :ivar roem_hands: hands in which some player held a roemte.
    :ivar went_on: hands in which a side counted 100 (going on), by team.
    """

    hands: int
    card_points: tuple[int, int]
    roem_hands: int
    went_on: tuple[int, int]




# --------------------------------------------------------------------------------------------------
# The fast loop (bench/engine_hands.py). Tables are built once per ruleset; the hot function binds
# everything to locals and plays each card with a handful of int operations (no per-card objects).

_BIT_INDEX = {1 << i: i for i in range(32)}
_FROM = tuple(((1 << 32) - 1) >> k << k for k in range(32))  # cards with index >= k


def _seq_table(ruleset: Ruleset) -> tuple[int, ...]:
    """Per 8-bit suit mask: points of its twenties/fifties, plus 1000 for a vyf-eenderse."""
    out = []
    for byte in range(256):
        v = 0
        r = 0
        while r < 8:
            if byte >> r & 1:
                start = r
                while r < 8 and byte >> r & 1:
                    r += 1
                n = r - start
                if n >= ruleset.vyf_eenderse_length:
                    v += 1000
                elif n == 4:
                    v += ruleset.fifty_points
                elif n == 3:
                    v += ruleset.twenty_points
            else:
                r += 1
        out.append(v)
    return tuple(out)


@dataclass(frozen=True)
class _FastTables:
    bases: tuple[tuple[int, int, int, int, int], ...]
    perms: tuple[tuple[tuple[int, ...], ...], ...]  # [suit][perm] -> byte map, pre-shifted
    seq: tuple[int, ...]


def _fast_tables(rng: random.Random, ruleset: Ruleset, bases: int = 1024, perms: int = 256) -> _FastTables:
    """Base deals (true seeded deals) and per-suit rank permutations used to vary them cheaply.

    A rank permutation within each suit is a bijection of the pack, so applied to a uniformly random
    deal it gives a uniformly random deal; with 1024 bases and 256 permutations per suit a run draws
    from about 4.4e12 distinct deals for one 42-bit random draw per hand.
    """
    base_list = []
    for _ in range(bases):
        d = deal(rng, 0, ruleset)
        base_list.append((d.hands[0], d.hands[1], d.hands[2], d.hands[3], d.trump))
    perm_tables = []
    for suit in range(4):
        per_suit = []
        for _ in range(perms):
            p = list(range(8))
            rng.shuffle(p)
            row = [0] * 256
            for byte in range(1, 256):
                low = byte & -byte
                row[byte] = row[byte ^ low] | 1 << (p[low.bit_length() - 1] + 8 * suit)
            per_suit.append(tuple(row))
        perm_tables.append(tuple(per_suit))
    return _FastTables(tuple(base_list), tuple(perm_tables), _seq_table(ruleset))


def _sakboc_flags(ruleset: Ruleset) -> bool:
    return (
        ruleset.trump_may_replace_follow
        and ruleset.trump_jack_exempt
        and not ruleset.must_trump_when_void
        and not ruleset.must_overtrump
        and ruleset.forbid_undertrump
        and ruleset.undertrump_if_only_trumps
    )


@dataclass(frozen=True)
class _TrumpTables:
    """Per-trump tables keyed by a card's *bit* (``1 << card``), so the hot loop never needs card ints."""

    lead: dict[int, tuple[dict[int, int], int]]  # bit -> (power by bit for that led suit, led suit mask)
    above: dict[int, int]  # trump bit -> mask of higher trumps
    byte_points: tuple[tuple[int, ...], ...]  # [suit][8-bit mask] -> card points
    boer: int
    suit_mask: int


def _trump_tables(ruleset: Ruleset) -> tuple[_TrumpTables, ...]:
    t = play_tables(ruleset)
    out = []
    for trump in range(4):
        powers = [{1 << c: t.power[trump * 4 + led][c] for c in range(32)} for led in range(4)]
        lead = {1 << c: (powers[c >> 3], SUIT_MASKS[c >> 3]) for c in range(32)}
        above = {1 << c: t.above[trump][c] for c in range(32) if c >> 3 == trump}
        byte_points = tuple(
            tuple(sum(t.points[trump][suit * 8 + r] for r in range(8) if byte >> r & 1) for byte in range(256))
            for suit in range(4)
        )
        out.append(_TrumpTables(lead, above, byte_points, t.boer[trump], SUIT_MASKS[trump]))
    return tuple(out)


def play_random_hands(
    count: int, seed: int = 0, ruleset: Ruleset = SAKBOC_2004, *, _generic: bool = False
) -> FastStats:
    """Play ``count`` random complete hands as fast as possible: deal, legal play of all 32 cards,
    roem detection for every seat (sequences, four of a kind, sturk) and scoring (card points, the
    standing roem, whether a side counts 100 and with how many strokes).

    Legality follows the ruleset's flags: the inlined loop covers the SAKBOC family (trump may replace
    following, Boer exempt, no undertrump unless only trumps; SAKBOC 3.2-3.4); other flag sets use
    :func:`engine.play.legal_mask` per card (``_generic=True`` forces that path, for cross-checks).
    Cards are chosen at random among the legal ones (the first legal card at or after a random index,
    wrapping), reproducibly: the same seed gives the same totals.
    """
    rng = random.Random(seed)
    ft = _fast_tables(rng, ruleset)
    tts = _trump_tables(ruleset)
    bases = ft.bases
    base_bits = len(bases).bit_length() - 1  # len(bases) is a power of two
    base_mask = (1 << base_bits) - 1
    pa, pb, pc, pd = ft.perms
    seq8 = ft.seq
    seqv = [seq8[i & 255] + seq8[i >> 8] for i in range(65536)]  # two suits at a time
    frm = _FROM
    full = (1 << 32) - 1
    getrandbits = rng.getrandbits
    fast = _sakboc_flags(ruleset) and not _generic
    bit_index = _BIT_INDEX
    last_bonus = ruleset.last_trick_bonus
    target = ruleset.going_on_target
    under = ruleset.under_fifty
    sturk_pts = ruleset.sturk_points
    hand_total = ruleset.hand_total
    followers = ((1, 2, 3), (2, 3, 0), (3, 0, 1), (0, 1, 2))
    total0 = 0
    roem_hands = 0
    on0 = on1 = 0
    for _ in range(count):
        r = getrandbits(44)
        m0, m1, m2, m3, trump = bases[r & base_mask]
        r >>= base_bits
        # vary the base deal by a random rank permutation in each suit (a bijection of the pack)
        a, b_, c_, d_ = pa[r & 255], pb[r >> 8 & 255], pc[r >> 16 & 255], pd[r >> 24 & 255]
        m0 = a[m0 & 255] | b_[m0 >> 8 & 255] | c_[m0 >> 16 & 255] | d_[m0 >> 24]
        m1 = a[m1 & 255] | b_[m1 >> 8 & 255] | c_[m1 >> 16 & 255] | d_[m1 >> 24]
        m2 = a[m2 & 255] | b_[m2 >> 8 & 255] | c_[m2 >> 16 & 255] | d_[m2 >> 24]
        m3 = full ^ m0 ^ m1 ^ m2
        dealer = r >> 32 & 3
        # base deals have dealer 0 (holding the face-up trump card): turn the table to the dealer
        if dealer == 0:
            h = [m0, m1, m2, m3]
        elif dealer == 1:
            h = [m3, m0, m1, m2]
        elif dealer == 2:
            h = [m2, m3, m0, m1]
        else:
            h = [m1, m2, m3, m0]
        tt = tts[trump]
        # --- roem detection (Notes §II/§III): sequences per suit, four of a kind, sturk ---
        sturk = 6 << (trump * 8)  # K and Q of trumps: roemed when the first is played (Notes §VI)
        v0 = seqv[m0 & 65535] + seqv[m0 >> 16]
        v1 = seqv[m1 & 65535] + seqv[m1 >> 16]
        v2 = seqv[m2 & 65535] + seqv[m2 >> 16]
        v3 = seqv[m3 & 65535] + seqv[m3 >> 16]
        if m0 & (m0 >> 8) & (m0 >> 16) & (m0 >> 24) & 15:
            v0 += 1000
        if m1 & (m1 >> 8) & (m1 >> 16) & (m1 >> 24) & 15:
            v1 += 1000
        if m2 & (m2 >> 8) & (m2 >> 16) & (m2 >> 24) & 15:
            v2 += 1000
        if m3 & (m3 >> 8) & (m3 >> 16) & (m3 >> 24) & 15:
            v3 += 1000
        # the holder of sturk roems it with the first of K/Q of trumps: in a full hand, always
        if m0 & sturk == sturk or m2 & sturk == sturk:
            sturk_holder = dealer & 1
        elif m1 & sturk == sturk or m3 & sturk == sturk:
            sturk_holder = (dealer + 1) & 1
        else:
            sturk_holder = -1
        # --- play (SAKBOC 3.2-3.4), all 8 tricks; cards handled as bits ---
        tm = tt.suit_mask
        notm = full ^ tm
        lead = tt.lead
        above = tt.above
        boer = tt.boer
        leader = (dealer + 1) & 3
        won0 = 0
        win = leader
        for _t in range(8):
            r = getrandbits(20)
            m = h[leader]
            x = m & frm[r & 31] or m
            b = x & -x
            h[leader] = m ^ b
            tk = b
            pw, lm = lead[b]
            best = pw[b]
            win = leader
            s1, s2, s3 = followers[leader]
            if fast:
                if lm == tm:  # trumps led: follow with a trump, the Boer never forced (SAKBOC 3.2, 3.3)
                    m = h[s1]
                    legal = m & tm
                    if legal == boer or not legal:
                        legal = m
                    x = legal & frm[r >> 5 & 31] or legal
                    b = x & -x
                    h[s1] = m ^ b
                    tk |= b
                    p = pw[b]
                    if p > best:
                        best = p
                        win = s1
                    m = h[s2]
                    legal = m & tm
                    if legal == boer or not legal:
                        legal = m
                    x = legal & frm[r >> 10 & 31] or legal
                    b = x & -x
                    h[s2] = m ^ b
                    tk |= b
                    p = pw[b]
                    if p > best:
                        best = p
                        win = s2
                    m = h[s3]
                    legal = m & tm
                    if legal == boer or not legal:
                        legal = m
                    x = legal & frm[r >> 15 & 31] or legal
                    b = x & -x
                    h[s3] = m ^ b
                    tk |= b
                    if pw[b] > best:
                        win = s3
                else:  # side suit led: follow or trump, never undertrump unless only trumps (3.3, 3.4)
                    over = tm
                    m = h[s1]
                    f = m & lm
                    legal = f | (m & over) if f else (m & notm) | (m & over) if m & notm else m
                    x = legal & frm[r >> 5 & 31] or legal
                    b = x & -x
                    h[s1] = m ^ b
                    tk |= b
                    p = pw[b]
                    if p > best:
                        best = p
                        win = s1
                        if p > 16:
                            over = above[b]
                    m = h[s2]
                    f = m & lm
                    legal = f | (m & over) if f else (m & notm) | (m & over) if m & notm else m
                    x = legal & frm[r >> 10 & 31] or legal
                    b = x & -x
                    h[s2] = m ^ b
                    tk |= b
                    p = pw[b]
                    if p > best:
                        best = p
                        win = s2
                        if p > 16:
                            over = above[b]
                    m = h[s3]
                    f = m & lm
                    legal = f | (m & over) if f else (m & notm) | (m & over) if m & notm else m
                    x = legal & frm[r >> 15 & 31] or legal
                    b = x & -x
                    h[s3] = m ^ b
                    tk |= b
                    if pw[b] > best:
                        win = s3
            else:
                trick = [bit_index[b]]
                for s, shift in ((s1, 5), (s2, 10), (s3, 15)):
                    m = h[s]
                    legal = legal_mask(m, trick, trump, ruleset)
                    x = legal & frm[r >> shift & 31] or legal
                    b = x & -x
                    h[s] = m ^ b
                    tk |= b
                    trick.append(bit_index[b])
                    p = pw[b]
                    if p > best:
                        best = p
                        win = s
            if not win & 1:
                won0 |= tk
            leader = win
        bp = tt.byte_points
        sc0 = bp[0][won0 & 255] + bp[1][won0 >> 8 & 255] + bp[2][won0 >> 16 & 255] + bp[3][won0 >> 24]
        if not win & 1:
            sc0 += last_bonus
        # --- scoring: the standing roem (the higher stands, SAKBOC 8.3), counts, going on ---
        # v0..v3 are by base position; base position k sits at seat (k + dealer) % 4
        if dealer & 1:
            v0, v1, v2, v3 = v1, v0, v3, v2
        t0 = v0 if v0 > v2 else v2
        t1 = v1 if v1 > v3 else v3
        total0 += sc0
        if t0 or t1:
            roem_hands += 1
            if t0 >= 1000 or t1 >= 1000:
                if t0 >= t1:
                    on0 += 2
                else:
                    on1 += 2
                continue
            if t0 > t1:
                t1 = 0
            elif t1 > t0:
                t0 = 0
            else:
                t0 = t1 = 0
        c0 = sc0 + t0
        c1 = hand_total - sc0 + t1
        if sturk_holder == 0:
            c0 += sturk_pts
        elif sturk_holder == 1:
            c1 += sturk_pts
        if c0 >= target:
            on0 += 2 if c1 < under else 1
        elif c1 >= target:
            on1 += 2 if c0 < under else 1
    return FastStats(count, (total0, count * hand_total - total0), roem_hands, (on0, on1))

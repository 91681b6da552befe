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

The benchmark's fast loop of random complete hands (``bench/engine_hands.py``) lives apart, outside the
engine, in ``bench/fastplay.py``.

Each hand can be emitted as a hand record dict (``HandResult.record``, format "klawerjas-hand"
version 1, see the engine contract) that ``engine.adjudicate`` replays as clean; the record and the events
are built the first time they are read (``HandResult.moves`` holds the events compactly till then). Outright roemte are
recorded as a ``roem`` event *before* the roemer plays a card (SAKBOC 8.7), followed by the telman's
``go_on``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from engine.boem_sheet import unfinished_boem_points
from engine.cards import ACE, CARD_NAMES, JACK, KING, QUEEN, SUIT_MASKS, cards_of
from engine.makers import declared_melds, hand_melds, trick_roem
from engine.play import PlayTables, legal_mask, play_tables, sakboc_legality
from engine.roem import (
    RoemCall,
    best_call,
    call_key,
    forbids_sizing,
    needs_size,
    outranks,
)
from engine.ruleset import SAKBOC_2004, Ruleset
from engine.scoring import BoemState, GameState, SideCount, may_go_on, outright_strokes, strokes_for

__all__ = [
    "DEFAULT_NAMES",
    "BoemResult",
    "Deal",
    "HandResult",
    "SessionResult",
    "deal",
    "play_boem",
    "play_hand",
    "play_session",
]

Policy = Literal["bot", "random"]

DEFAULT_NAMES = ("Ayesha Jacobs", "Faizel Adams", "Mymoena Davids", "Clive Petersen")
"""Player names used in records when none are given (seat order)."""

Move = int | dict[str, Any]
"""One event of a played hand, kept compactly until somebody reads the events: ``seat << 5 | card`` for a card
played (the event ``{"type": "play", "seat": seat, "card": name}``), the event dict itself for everything else."""

_BITS = tuple(n.bit_length() for n in range(33))
"""``_BITS[n]``: the bits ``random.Random`` draws for a number below ``n`` (``n.bit_length()``)."""

_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(31, 0, -1))
"""``random.Random.shuffle`` of 32 cards: for ``i`` from 31 down to 1, a number ``j <= i`` drawn on these bits."""

_RUN_STARTS = 0x3F3F3F3F
"""The cards that can start a run of three in their suit (ranks A..9 in natural order; DOMAIN.md "Roem")."""

_FOUR_RANKS = 1 << JACK | 1 << ACE | 1 << KING | 1 << QUEEN
"""The ranks whose four of a kind is a roemte (SAKBOC 8.17), as bits of one suit's byte."""

_LATER = tuple(tuple(tuple((leader + j) % 4 for j in range(k + 1, 4)) for k in range(4)) for leader in range(4))
"""``_LATER[leader][k]``: the seats yet to play a trick after its ``k``-th card (0-based)."""


def _holds_roemte(hand: int) -> bool:
    """True iff :func:`engine.roem.best_call` finds a call in ``hand``: a run of three or more in a suit (natural
    order) or four jacks, aces, kings or queens (SAKBOC 8.8, 8.17); a cheap test that spares most hands the
    search (sturk alone is no first-card call)."""
    return bool(hand & hand >> 1 & hand >> 2 & _RUN_STARTS or hand & hand >> 8 & hand >> 16 & hand >> 24 & _FOUR_RANKS)


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """A number in ``0 .. n-1`` drawn exactly as ``random.Random.randrange(n)`` draws it (rejection sampling on
    ``n.bit_length()`` bits), so that a seed gives the same numbers with or without the method calls."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _draw_legal_card(legal: int, getrandbits: Callable[[int], int] | None, rng: random.Random) -> int:
    """The card ``rng.randrange(n)`` picks among the ``n`` cards of the mask ``legal``, in card order.

    With ``getrandbits`` (a plain ``random.Random``'s) the number is drawn straight from it, as :func:`_below`
    draws, written out here because it runs for every card; without it (a subclass), through ``rng.randrange``.
    """
    n = legal.bit_count()
    if getrandbits is not None:
        r = getrandbits(_BITS[n])
        while r >= n:
            r = getrandbits(_BITS[n])
    else:
        r = rng.randrange(n)
    while r:
        legal &= legal - 1
        r -= 1
    return (legal & -legal).bit_length() - 1


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

    The draws are ``rng.shuffle``, ``rng.randint`` and ``rng.randrange``, in that order; a plain
    ``random.Random`` has them drawn straight from its ``getrandbits`` (the same numbers, without the method
    calls), a subclass through its own methods.

    :raises ValueError: if the ruleset's cut range is empty.
    """
    if type(rng) is random.Random:
        getrandbits = rng.getrandbits
        deck = list(range(32))
        for i, k in _SHUFFLE_STEPS:
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            deck[i], deck[j] = deck[j], deck[i]
        width = ruleset.max_cut - ruleset.min_cut + 1
        if width <= 0:
            raise ValueError(f"empty cut range {ruleset.min_cut}..{ruleset.max_cut}")
        cut = ruleset.min_cut + _below(getrandbits, width)
        pattern = ruleset.deal_patterns[_below(getrandbits, len(ruleset.deal_patterns))]
    else:
        deck = list(range(32))
        rng.shuffle(deck)
        cut = rng.randint(ruleset.min_cut, ruleset.max_cut)
        pattern = ruleset.deal_patterns[rng.randrange(len(ruleset.deal_patterns))]
    deck = deck[cut:] + deck[:cut]
    hands = [0, 0, 0, 0]
    pos = 0
    for n in pattern:
        for k in range(1, 5):
            seat = (dealer + k) % 4
            m = hands[seat]
            for c in deck[pos : pos + n]:
                m |= 1 << c
            hands[seat] = m
            pos += n
    return Deal(dealer, cut, pattern, (hands[0], hands[1], hands[2], hands[3]), deck[31 - ruleset.upcard_from_end])


@dataclass(frozen=True, kw_only=True)
class HandResult:
    """The outcome of one simulated hand.

    :ivar deal: the deal.
    :ivar state_before: ou jol carry and boem position the hand started from.
    :ivar tricks: ``(leader, cards, winner_seat, points)`` per trick played.
    :ivar tricks_points: card points picked up per team in this hand (vyf laas trek included).
    :ivar roem: roem scored per team in this hand (standing call and sturk).
    :ivar went_on: ``(team, strokes)`` if a telman went on, else ``None`` (ou jol follows).
    :ivar state_after: the state the next hand starts from.
    :ivar next_dealer: who deals next.
    :ivar moves: the events, compactly (:data:`Move`); read :attr:`events` or :attr:`record` instead.

    :attr:`events` and :attr:`record` are built the first time they are read (then kept): a bot or a benchmark
    that only wants the outcome does not pay for 30-odd event dicts and the record.
    """

    deal: Deal
    state_before: GameState
    tricks: tuple[tuple[int, tuple[int, ...], int, int], ...]
    tricks_points: tuple[int, int]
    roem: tuple[int, int]
    went_on: tuple[int, int] | None
    state_after: GameState
    next_dealer: int
    moves: tuple[Move, ...] = field(repr=False)
    ruleset: Ruleset = field(repr=False, compare=False)
    names: tuple[str, ...] = field(repr=False, compare=False)
    telmen: tuple[int, int] = field(repr=False, compare=False)

    @cached_property
    def events(self) -> tuple[dict[str, Any], ...]:
        """The events in hand-record form (``{"type": "play", "seat": 2, "card": "JH"}``, roem, go_on ...)."""
        names = CARD_NAMES
        return tuple(
            {"type": "play", "seat": m >> 5, "card": names[m & 31]} if isinstance(m, int) else m for m in self.moves
        )

    @cached_property
    def record(self) -> dict[str, Any]:
        """The hand record dict (format "klawerjas-hand", version 1, see the engine contract); its ``events``
        are the dicts of :attr:`events`."""
        return _record(
            self.deal,
            self.state_before,
            self.ruleset,
            self.names,
            self.telmen,
            list(self.events),
            trump_card=self.ruleset.hand_scoring != "makers" or self.ruleset.upcard,
        )


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

    Each card is drawn as ``rng.randrange(n)`` among the ``n`` legal cards in card order (a plain
    ``random.Random`` straight from ``getrandbits``, the same numbers). Legal cards follow SAKBOC 3.2-3.4 for
    the rulesets of that family (:func:`engine.play.sakboc_legality`), else :func:`engine.play.legal_mask`.

    For the relatives (``ruleset.hand_scoring == "makers"``: Rotterdam, Amsterdam, the Wikipedia
    variant, Klammern) the hand is bid, played and melded by :mod:`engine.makers`' rules instead: the
    bot takes a suit it holds well (else passes; when all pass it obeys ``all_pass``), claims every
    roem in the tricks its side wins (Dutch), declares its melds with its first card, announces
    stuk/Bella with the first of K/Q of trumps; ``"random"`` bids the same way but melds nothing.
    Neither ever announces a march (Klammern §March) nor doubles.
    """
    if telmen[0] % 2 != 0 or telmen[1] % 2 != 1:
        raise ValueError(f"telmen {telmen!r}: need a seat of team 0 (0 or 2) and of team 1 (1 or 3)")
    names = tuple(names)
    if ruleset.hand_scoring == "makers":
        return _play_makers_hand(d, rng, state or GameState(), ruleset, policy=policy, names=names, telmen=telmen)
    state = state or GameState()
    trump = d.trump
    old_play = state.old_play
    bot = policy == "bot"
    tables = play_tables(ruleset)
    points = tables.points[trump]
    power = tables.power
    above = tables.above[trump]
    tm = SUIT_MASKS[trump]
    boer = tables.boer[trump]
    sakboc = sakboc_legality(ruleset)
    getrandbits = rng.getrandbits if type(rng) is random.Random else None
    hands = list(d.hands)
    moves: list[Move] = []
    tricks: list[tuple[int, tuple[int, ...], int, int]] = []
    tp = [0, 0]
    taken = [0, 0]
    sturk = [0, 0]
    target = ruleset.going_on_target
    carried = (state.tallies[0] + state.roem[0], state.tallies[1] + state.roem[1])
    # each seat's best first-card call (SAKBOC 4.3), looked for only in hands that hold a roemte
    calls = [best_call(h, trump, ruleset) if _holds_roemte(h) else None for h in d.hands] if bot else []
    kq = 1 << (trump * 8 + KING) | 1 << (trump * 8 + QUEEN)  # sturk (Notes §VI)
    standing: tuple[int, RoemCall] | None = None
    roem_pts = [0, 0]  # the standing call's points, on its team's side
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
        # everything the side counts is an upper bound of its going-on count (engine.scoring.going_on_count)
        if carried[team] + tp[team] + roem_pts[team] + sturk[team] < target:
            return False
        if not may_go_on(side(team), old_play=old_play, ruleset=ruleset):
            return False
        opponents = [s for s in yet_to_play if s % 2 != team]
        if opponents and standing is not None and standing[0] % 2 == team:
            # "good enough?" of opponents yet to play (SAKBOC 8.20, 8.23, 8.25); they answer truly
            for s in opponents:
                theirs = calls[s]
                if theirs is not None and theirs.outright is None and outranks(theirs, standing[1], ruleset):
                    return False
            moves.append({"type": "good_enough", "seat": telmen[team], "asked": opponents})
        strokes = strokes_for(side(1 - team), ruleset)
        moves.append({"type": "go_on", "seat": telmen[team], "strokes": strokes})
        went_on = (team, strokes)
        return True

    for t in range(8):
        trick: list[int] = []
        roem_team = -1  # a side that roemed with the last card of this trick
        led = -1
        pw: tuple[int, ...] = ()
        best_power = -1  # the winning card so far, and the trumps above the highest trump on the trick
        best = 0
        over_mask = tm
        pts = 0
        for k in range(4):
            s = (leader + k) % 4
            team = s % 2
            if bot and t == 0:
                mine = calls[s]
                if mine is not None and mine.outright is not None:
                    later = _LATER[leader][k]
                    rivals = [calls[o] for o in later if o % 2 != team]
                    beaten = any(
                        r is not None and r.outright is not None and call_key(r, ruleset) > call_key(mine, ruleset)
                        for r in rivals
                    )
                    if not beaten:  # SAKBOC 8.7: roemed without playing a card; go on outright
                        moves.append({"type": "roem", "seat": s, "call": mine.outright})
                        opponents = [o for o in later if o % 2 != team]
                        if opponents and mine.outright != ruleset.outright_roemte[0]:
                            moves.append({"type": "good_enough", "seat": telmen[team], "asked": opponents})
                        strokes = outright_strokes(
                            mine.outright, old_play=old_play, opponents=side(1 - team), ruleset=ruleset
                        )
                        moves.append({"type": "go_on", "seat": telmen[team], "strokes": strokes})
                        went_on = (team, strokes)
                        break
            held = hands[s]
            if not k:
                legal = held
            elif sakboc:  # SAKBOC 3.2-3.4, as engine.play.legal_mask reads them for this family of rulesets
                held_t = held & tm
                if led == trump:
                    legal = held if not held_t or held_t == boer else held_t  # 3.2: the Boer is never forced
                else:
                    follow = held & SUIT_MASKS[led]
                    if follow:
                        legal = follow | held_t & over_mask  # 3.3: follow or trump, 3.4: never under
                    else:
                        legal = held ^ held_t | held_t & over_mask if held ^ held_t else held
            else:
                legal = legal_mask(held, trick, trump, ruleset)
            c = _draw_legal_card(legal, getrandbits, rng)
            hands[s] = held ^ (1 << c)
            trick.append(c)
            moves.append(s << 5 | c)
            if not k:
                led = c >> 3
                pw = power[trump * 4 + led]
            p = pw[c]
            if p > best_power:
                best_power, best = p, k
                if c >> 3 == trump:
                    over_mask = above[c]
            pts += points[c]
            if not bot:
                continue
            if t:  # after the first round only sturk is roemed (Notes §VI)
                if 1 << c & kq and held & kq == kq:  # engine.roem.sturk_due: the first of K/Q of trumps
                    sturk[team] += ruleset.sturk_points
                    moves.append({"type": "roem", "seat": s, "call": "sturk"})
                    if k == 3:  # the trick is complete: it counts for its winner before anyone goes on
                        roem_team = team
                    elif try_go_on(team, ()):
                        break
                continue
            call_names: list[str] = []
            mine = calls[s]
            if mine is not None and mine.outright is None:
                if standing is None:
                    call_names = list(mine.names)
                elif standing[0] % 2 == team:
                    if mine.points > standing[1].points:  # overcall partner (SAKBOC 8.4, 8.9)
                        call_names = list(mine.names)
                else:
                    if needs_size(mine, standing[1]) and not sized and not forbids_sizing(standing[1]):  # 8.2, 8.5
                        moves.append({"type": "size", "seat": s, "asked": standing[0]})
                        moves.append({"type": "size_answer", "seat": standing[0], "top": standing[1].top_char})
                        sized = True
                    if outranks(mine, standing[1], ruleset):
                        call_names = list(mine.names)
                if call_names:
                    standing = (s, mine)
                    roem_pts[team], roem_pts[1 - team] = mine.points, 0
                    sized = False
            if 1 << c & kq and held & kq == kq:  # engine.roem.sturk_due: the first of K/Q of trumps
                call_names.append("sturk")
                sturk[team] += ruleset.sturk_points
            if call_names:
                moves.append({"type": "roem", "seat": s, "call": _call_json(call_names)})
                if k == 3:  # the trick is complete: it counts for its winner before anyone goes on
                    roem_team = team
                elif try_go_on(team, _LATER[leader][k]):
                    break
        if went_on is not None:
            break
        winner = (leader + best) % 4
        if t == 7:
            pts += ruleset.last_trick_bonus
        tp[winner % 2] += pts
        taken[winner % 2] += 1
        tricks.append((leader, tuple(trick), winner, pts))
        last_winner = winner
        leader = winner
        if bot and (try_go_on(winner % 2, ()) or (roem_team == 1 - winner % 2 and try_go_on(roem_team, ()))):
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
    return HandResult(
        deal=d,
        state_before=state,
        tricks=tuple(tricks),
        tricks_points=(tp[0], tp[1]),
        roem=(hand_roem[0], hand_roem[1]),
        went_on=went_on,
        state_after=state_after,
        next_dealer=next_dealer,
        moves=tuple(moves),
        ruleset=ruleset,
        names=names,
        telmen=telmen,
    )


def _record(
    d: Deal,
    state: GameState,
    ruleset: Ruleset,
    names: Sequence[str],
    telmen: tuple[int, int],
    events: list[dict[str, Any]],
    *,
    trump_card: bool,
) -> dict[str, Any]:
    """The hand record (format "klawerjas-hand", version 1) of a simulated hand; ``trump_card``: the dealer's
    face-up card is in it (SAKBOC 1.7; the relatives' rulesets with an upcard)."""
    record: dict[str, Any] = {
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
    }
    if trump_card:
        record["trump_card"] = CARD_NAMES[d.trump_card]
    record["state_before"] = state.to_record()
    record["events"] = events
    return record


def _bid_strength(hand: int, suit: int, tables: PlayTables) -> int:
    """Bot's taste for a trump suit: trump points held plus 10 a card (the Jack and Nine count most)."""
    pts = tables.points[suit]
    byte = hand >> (suit * 8) & 0xFF
    return sum(pts[suit * 8 + r] + 10 for r in range(8) if byte >> r & 1)


_BID_TABLES: dict[int, tuple[PlayTables, tuple[tuple[int, ...], ...]]] = {}
"""The bot's bid strengths by :class:`~engine.play.PlayTables` identity (the tables are built once per ruleset)."""


def _bid_table(tables: PlayTables) -> tuple[tuple[int, ...], ...]:
    """``_bid_table(tables)[suit][byte]``: :func:`_bid_strength` of a hand whose cards in ``suit`` are ``byte``."""
    hit = _BID_TABLES.get(id(tables))
    if hit is not None and hit[0] is tables:
        return hit[1]
    table = tuple(tuple(_bid_strength(byte << (suit * 8), suit, tables) for byte in range(256)) for suit in range(4))
    if len(_BID_TABLES) >= 64:  # rulesets made per request must not pile up
        _BID_TABLES.clear()
    _BID_TABLES[id(tables)] = (tables, table)
    return table


def _play_makers_hand(
    d: Deal,
    rng: random.Random,
    state: GameState,
    ruleset: Ruleset,
    *,
    policy: Policy,
    names: tuple[str, ...],
    telmen: tuple[int, int],
) -> HandResult:
    """One hand of a makers game (:mod:`engine.makers`), bid, played and (``"bot"``) melded by the rules."""
    bot = policy == "bot"
    tables = play_tables(ruleset)
    hands = list(d.hands)
    bid_table = _bid_table(tables)
    strength = [[bid_table[suit][h >> (suit * 8) & 0xFF] for suit in range(4)] for h in hands]
    moves: list[Move] = []
    order = [(d.dealer + 1 + k) % 4 for k in range(4)]
    upsuit = d.trump_card >> 3
    maker = trump = -1
    # --- bidding (engine.makers): take a suit worth 55 or more, else pass
    for r, kind in enumerate(ruleset.bid_rounds):
        for seat in order:
            if maker >= 0:
                moves.append({"type": "pass", "seat": seat})
                continue
            suits = [upsuit] if kind == "upcard" else [s for s in range(4) if kind == "any" or s != upsuit]
            mine = strength[seat]
            best = max(suits, key=mine.__getitem__)
            if mine[best] >= 55 - 10 * r:
                maker, trump = seat, best
                moves.append({"type": "bid", "seat": seat, "suit": "SHDC"[best]})
            else:
                moves.append({"type": "pass", "seat": seat})
        if maker >= 0:
            if ruleset.bid_overcall_suit < 0 or r == 0 or trump == ruleset.bid_overcall_suit:
                moves = moves[: next(i for i, e in enumerate(moves) if isinstance(e, dict) and e["type"] == "bid") + 1]
            break
    if maker < 0 and ruleset.all_pass != "redeal":
        maker = d.dealer if ruleset.all_pass == "dealer-chooses" else order[0]
        trump = max(range(4), key=strength[maker].__getitem__)
        moves.append({"type": "bid", "seat": maker, "suit": "SHDC"[trump]})
    tricks: list[tuple[int, tuple[int, ...], int, int]] = []
    tp = [0, 0]
    roem = [0, 0]
    leader = d.leader
    getrandbits = rng.getrandbits if type(rng) is random.Random else None
    if maker >= 0:
        points = tables.points[trump]
        declared = ruleset.roem_style in ("declared", "first-trick-best")
        kq = 1 << (trump * 8 + KING) | 1 << (trump * 8 + QUEEN)
        has_kq = [h & kq == kq for h in hands]
        power = tables.power
        for t in range(8):
            trick: list[int] = []
            pw: tuple[int, ...] = ()
            best_power = -1
            best = 0
            pts = 0
            for k in range(4):
                seat = (leader + k) % 4
                legal = legal_mask(hands[seat], trick, trump, ruleset) if k else hands[seat]  # any card leads
                if legal.bit_count() > 1:
                    c = _draw_legal_card(legal, getrandbits, rng)
                else:  # a forced card draws nothing
                    c = (legal & -legal).bit_length() - 1
                hands[seat] &= ~(1 << c)
                trick.append(c)
                moves.append(seat << 5 | c)
                if not k:
                    pw = power[trump * 4 + (c >> 3)]
                if pw[c] > best_power:  # engine.play.trick_winner: the first of the strongest
                    best_power, best = pw[c], k
                pts += points[c]
                if bot and declared and t == 0:
                    melds = [m.name for m in hand_melds(d.hands[seat], ruleset)][:4]
                    if melds and declared_melds(melds, d.hands[seat], ruleset) is not None:
                        moves.append({"type": "roem", "seat": seat, "call": _call_json(melds)})
                if bot and declared and has_kq[seat] and (1 << c) & kq:
                    has_kq[seat] = False
                    moves.append({"type": "roem", "seat": seat, "call": "sturk"})
                    roem[seat & 1] += ruleset.sturk_points
            w = (leader + best) % 4
            if t == 7:
                pts += ruleset.last_trick_bonus
            tp[w & 1] += pts
            if bot and ruleset.roem_style == "trick":
                found = trick_roem(trick, trump, ruleset)
                if found:
                    moves.append({"type": "roem", "seat": w, "call": _call_json(found)})
            tricks.append((leader, tuple(trick), w, pts))
            leader = w
    next_dealer = d.dealer if maker < 0 else (d.dealer + 1) % 4
    return HandResult(
        deal=d,
        state_before=state,
        tricks=tuple(tricks),
        tricks_points=(tp[0], tp[1]),
        roem=(roem[0], roem[1]),
        went_on=None,
        state_after=state,
        next_dealer=next_dealer,
        moves=tuple(moves),
        ruleset=ruleset,
        names=names,
        telmen=telmen,
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
            points = boem.match_points() if boem.finished else unfinished_boem_points(boem.strokes, ruleset)
            boems.append(BoemResult(seed, tuple(hands), boem.strokes, boem.winner, points, dealer))
    mp = (sum(b.match_points[0] for b in boems), sum(b.match_points[1] for b in boems))
    return SessionResult(tuple(boems), total, clock, mp)

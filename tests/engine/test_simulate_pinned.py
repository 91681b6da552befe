"""Seeded hands of ``engine.simulate`` pinned to their outcomes, so that a faster generic path (or a lazy hand
record) cannot change what a seed deals and plays: the demo season and the bots depend on the same seed giving
the same deals, cards, roem and strokes (SAKBOC 1.7, 2.1, 3.2-3.4, 8; Notes §IV-§VI).

The digests were taken from the simulator before its speed work (issue 23) and cover every hand's record
(deal, cut, pattern, events) and outcome (tricks, points, roem, going on, next dealer, state after).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from engine.cards import CARD_NAMES
from engine.ruleset import AMSTERDAM, KLAMMERN, ROTTERDAM, SAKBOC_2004, WIKIPEDIA_KLAVERJAS, Ruleset
from engine.scoring import GameState
from engine.simulate import HandResult, deal, play_boem, play_hand, play_session


def _outcome(h: HandResult) -> dict[str, Any]:
    return {
        "deal": [h.deal.dealer, h.deal.cut, list(h.deal.pattern), list(h.deal.hands), h.deal.trump_card],
        "tricks": [[t[0], list(t[1]), t[2], t[3]] for t in h.tricks],
        "tricks_points": list(h.tricks_points),
        "roem": list(h.roem),
        "went_on": list(h.went_on) if h.went_on else None,
        "state_after": h.state_after.to_record(),
        "next_dealer": h.next_dealer,
        "events": list(h.events),
        "record": h.record,
    }


def _digest(hands: list[HandResult]) -> str:
    text = json.dumps([_outcome(h) for h in hands], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _chain(seed: int, count: int, policy: str, ruleset: Ruleset = SAKBOC_2004) -> list[HandResult]:
    """``count`` hands in a row from one rng, carrying state and dealer as the demo does."""
    rng = random.Random(seed)
    state, dealer, out = GameState(), 0, []
    for _ in range(count):
        h = play_hand(deal(rng, dealer, ruleset), rng, state, ruleset, policy=policy)  # type: ignore[arg-type]
        out.append(h)
        state, dealer = h.state_after, h.next_dealer
        if max(state.strokes) >= ruleset.boem_strokes:
            state = GameState()
    return out


def test_a_seeded_bot_hand_is_pinned_card_by_card() -> None:
    # seat 3 roems twenty, seat 2 asks its size and overcalls, then roems sturk; seat 0 goes on (SAKBOC 8.2-8.4)
    h = play_hand(deal(random.Random(26), 2), random.Random(1026))
    assert (h.deal.cut, h.deal.pattern, h.deal.trump_card) == PINNED_HAND["deal"]
    assert [e for e in h.events if e["type"] != "play"] == PINNED_HAND["calls"]
    assert [e["card"] for e in h.events if e["type"] == "play"] == PINNED_HAND["cards"]
    assert (h.tricks_points, h.roem, h.went_on, h.next_dealer) == PINNED_HAND["outcome"]


def test_seeded_sakboc_hands_are_unchanged() -> None:
    assert _digest(_chain(1, 300, "bot")) == PINNED["bot"]
    assert _digest(_chain(2, 300, "random")) == PINNED["random"]
    old_play = GameState(old_play=True, tallies=(95, 30), roem=(20, 0), strokes=(1, 3))
    rng = random.Random(3)
    assert _digest([play_hand(deal(rng, s % 4), rng, old_play) for s in range(100)]) == PINNED["old_play"]


def test_seeded_boems_and_a_session_are_unchanged() -> None:
    boems = [play_boem(seed) for seed in range(20)]
    assert [(b.strokes, b.winner, b.match_points, b.next_dealer, len(b.hands)) for b in boems[:3]] == PINNED_BOEMS
    assert _digest([h for b in boems for h in b.hands]) == PINNED["boems"]
    s = play_session(5, minutes=75)
    assert (s.hands_played, s.match_points) == PINNED_SESSION
    assert _digest([h for b in s.boems for h in b.hands]) == PINNED["session"]


def test_seeded_relatives_hands_are_unchanged() -> None:  # the makers' path (engine.makers)
    for ruleset in (ROTTERDAM, AMSTERDAM, WIKIPEDIA_KLAVERJAS, KLAMMERN):
        assert _digest(_chain(4, 80, "bot", ruleset)) == PINNED[ruleset.name], ruleset.name
        assert _digest(_chain(5, 40, "random", ruleset)) == PINNED[ruleset.name + "/random"], ruleset.name


PINNED_HAND: dict[str, Any] = {
    "deal": (28, (2, 3, 3), 19),
    "calls": [
        {"type": "roem", "seat": 3, "call": "twenty"},
        {"type": "size", "seat": 2, "asked": 3},
        {"type": "size_answer", "seat": 3, "top": "9"},
        {"type": "roem", "seat": 2, "call": "twenty"},
        {"type": "roem", "seat": 2, "call": "sturk"},
        {"type": "go_on", "seat": 0, "strokes": 2},
    ],
    "cards": ["9S", "AD", "JS", "JD", "QC", "AC", "JC", "KC", "9H", "9D", "7H", "JH", "7C", "TD", "KD", "TC"],
    "outcome": ((70, 17), (40, 0), (0, 2), 2),
}
PINNED_BOEMS: list[Any] = [((5, 1), 0, (2, 0), 0, 6), ((5, 3), 0, (2, 0), 0, 9), ((5, 3), 0, (2, 0), 2, 7)]
PINNED_SESSION = (27, (10, 0))
PINNED = {
    "bot": "674cce1a63ab7f76",
    "random": "cd4ff2cfec13f61e",
    "old_play": "0f08e98b0d2b8408",
    "boems": "a9ca1405b92d6263",
    "session": "a4d5c2370ff1bddc",
    "rotterdam": "d7fd8cd0db1318f9",
    "rotterdam/random": "e16c8be265b2d431",
    "amsterdam": "cdb0d834fc012788",
    "amsterdam/random": "75f03bbf6f8f7fff",
    "wikipedia-klaverjas": "fd05137bbdfdb2f8",
    "wikipedia-klaverjas/random": "5a71645455189de9",
    "klammern": "4cbd183b82699de2",
    "klammern/random": "3b19e40e366a633a",
}


# --- the generic path's shortcuts equal what they stand for (issue 23) ------------------------------------------


class _MethodsOnly(random.Random):
    """A subclass: ``engine.simulate`` then draws through ``shuffle``/``randint``/``randrange`` as written."""


def test_draws_without_the_method_calls_equal_the_methods() -> None:
    # a plain random.Random is drawn from getrandbits directly; a subclass through its methods: same numbers
    for ruleset in (SAKBOC_2004, ROTTERDAM, KLAMMERN):
        for policy in ("bot", "random"):
            fast, slow = random.Random(11), _MethodsOnly(11)
            for dealer in range(40):
                a = play_hand(deal(fast, dealer % 4, ruleset), fast, ruleset=ruleset, policy=policy)  # type: ignore[arg-type]
                b = play_hand(deal(slow, dealer % 4, ruleset), slow, ruleset=ruleset, policy=policy)  # type: ignore[arg-type]
                assert a == b and a.record == b.record
            assert fast.random() == slow.random()  # and the generators stand at the same place


def test_sakboc_legality_in_the_loop_equals_legal_mask(monkeypatch: Any) -> None:
    import engine.simulate

    fast = _chain(21, 200, "random") + _chain(22, 200, "bot")
    monkeypatch.setattr(engine.simulate, "sakboc_legality", lambda ruleset: False)  # every card by legal_mask
    assert fast == _chain(21, 200, "random") + _chain(22, 200, "bot")


def test_only_hands_with_a_run_or_four_of_a_kind_are_searched_for_a_call() -> None:
    from engine.roem import best_call
    from engine.simulate import _holds_roemte

    rng = random.Random(5)
    seen = set()
    for _ in range(20000):
        hand = sum(1 << c for c in rng.sample(range(32), 8))
        trump = rng.randrange(4)
        held = best_call(hand, trump) is not None
        assert _holds_roemte(hand) == held, hex(hand)
        seen.add(held)
    assert seen == {True, False}
    for four in (0x08080808, 0x01010101, 0x02020202, 0x04040404):  # four jacks, aces, kings, queens
        assert _holds_roemte(four) and best_call(four, 0) is not None
    assert not _holds_roemte(0x10101010) and best_call(0x10101010, 0) is None  # four tens: no roemte


def test_the_record_is_built_when_read_and_then_kept() -> None:
    h = play_hand(deal(random.Random(3), 0), random.Random(4), policy="random")
    assert "record" not in h.__dict__ and "events" not in h.__dict__  # nothing built until somebody reads it
    assert h.record is h.record and h.record["events"] == list(h.events)
    assert h.record["events"][0] is h.events[0]
    played = [(e["seat"], e["card"]) for e in h.events]
    in_tricks = [((leader + k) % 4, CARD_NAMES[c]) for leader, cards, _, _ in h.tricks for k, c in enumerate(cards)]
    assert played == in_tricks and len(played) == 32

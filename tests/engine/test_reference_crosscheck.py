"""Cross-check the slow reference (engine.reference, written from SAKBOC 3.2-3.4) against the fast
bitmask path (engine.play.legal_mask) on 100,000+ seeded random positions."""

from __future__ import annotations

import random

from engine.cards import card_mask, cards_of, parse_cards, parse_hand
from engine.play import legal_mask
from engine.reference import is_legal, legal_cards, why_illegal

POSITIONS = 120_000


def _random_position(rng: random.Random) -> tuple[list[int], list[int], int]:
    deck = list(range(32))
    rng.shuffle(deck)
    n_hand = rng.randint(1, 8)
    n_trick = rng.randint(0, 3)
    hand = deck[:n_hand]
    trick = deck[n_hand : n_hand + n_trick]
    trump = rng.randrange(4)
    spare_trumps = [c for c in deck[n_hand + n_trick :] if c >> 3 == trump]
    if trick and spare_trumps and rng.random() < 0.3:
        trick[-1] = spare_trumps[0]  # bias towards trumped tricks, where undertrump and the Boer matter
    return hand, trick, trump


def test_reference_agrees_with_fast_path_on_random_positions() -> None:
    rng = random.Random(20040101)
    disagreements = []
    for _ in range(POSITIONS):
        hand, trick, trump = _random_position(rng)
        slow = card_mask(legal_cards(hand, trick, trump))
        fast = legal_mask(card_mask(hand), trick, trump)
        if slow != fast:
            disagreements.append((hand, trick, trump, cards_of(slow), cards_of(fast)))
    assert not disagreements[:5]


def test_reference_spot_checks_from_the_rule_text() -> None:
    # SAKBOC 3.3: trumping while holding the suit led is legal
    assert is_legal(parse_cards("7H")[0], parse_cards("AS 7H"), parse_cards("9S"), 1)
    # SAKBOC 3.2: the Boer alone is never forced when trumps are led
    assert is_legal(parse_cards("AS")[0], parse_cards("JH AS"), parse_cards("KH"), 1)
    # ... but a player with another trump must play a trump
    rule = why_illegal(parse_cards("AS")[0], parse_cards("JH 7H AS"), parse_cards("KH"), 1)
    assert rule is not None and rule[0] == "SAKBOC 3.3"
    # SAKBOC 3.4: no undertrump while holding a side card ...
    rule = why_illegal(parse_cards("7H")[0], parse_cards("7H AD"), parse_cards("AS 9H"), 1)
    assert rule is not None and rule[0] == "SAKBOC 3.4"
    # ... unless holding only trumps
    assert is_legal(parse_cards("7H")[0], parse_cards("7H 8H"), parse_cards("AS 9H"), 1)
    # void: anything but an undertrump; no duty to trump
    assert is_legal(parse_cards("AD")[0], parse_cards("AD 7H"), parse_cards("AS"), 1)
    assert card_mask(legal_cards(parse_cards("AD 7H QH"), parse_cards("AS 8H"), 1)) == parse_hand("AD QH")

"""Legality of the relatives (issue 9): the slow reference agrees with the fast path for every ruleset,
no trumps included, and spot checks from the seeds (Rotterdam §Play, Amsterdam, Klammern §Play)."""

from __future__ import annotations

import random

import pytest

from engine.cards import card_mask, cards_of, parse_cards, parse_hand
from engine.play import legal_mask, trick_points, trick_winner
from engine.reference import legal_cards
from engine.ruleset import AMSTERDAM, KLAMMERN, NO_TRUMPS, ROTTERDAM, WIKIPEDIA_KLAVERJAS, Ruleset

RELATIVES = [ROTTERDAM, AMSTERDAM, WIKIPEDIA_KLAVERJAS, KLAMMERN]


@pytest.mark.parametrize("rs", RELATIVES, ids=lambda r: r.name)
def test_reference_agrees_with_fast_path(rs: Ruleset) -> None:
    rng = random.Random(9)
    bad = []
    for _ in range(6_000):
        deck = list(range(32))
        rng.shuffle(deck)
        n_hand, n_trick = rng.randint(1, 8), rng.randint(0, 3)
        hand, trick = deck[:n_hand], deck[n_hand : n_hand + n_trick]
        trump = rng.randrange(5) if rs.bid_no_trumps_round >= 0 else rng.randrange(4)
        spare = [c for c in deck[n_hand + n_trick :] if c >> 3 == trump]
        if trick and spare and rng.random() < 0.4:
            trick[rng.randrange(len(trick))] = spare[0]
        slow = card_mask(legal_cards(hand, trick, trump, rs))
        fast = legal_mask(card_mask(hand), trick, trump, rs)
        assert fast, "the legal set is never empty"
        if slow != fast:
            bad.append((cards_of(card_mask(hand)), trick, trump, cards_of(slow), cards_of(fast)))
    assert not bad[:5]


def _mask(rs: Ruleset, hand: str, trick: str, trump: int) -> int:
    return legal_mask(parse_hand(hand), parse_cards(trick), trump, rs)


HEARTS = 1


def test_rotterdam_must_follow_trump_and_overtrump_even_the_partner() -> None:
    # Rotterdam Rule 1: holding the suit led, one must follow (no trumping instead, unlike SAKBOC 3.3)
    assert _mask(ROTTERDAM, "AS 7H", "9S", HEARTS) == parse_hand("AS")
    # Rule 1: void, one must trump
    assert _mask(ROTTERDAM, "AD 7H", "9S", HEARTS) == parse_hand("7H")
    # Rule 2: overtrump even the partner (seat 2 of 3 plays after partner's 9H): JH only
    assert _mask(ROTTERDAM, "AD 7H JH", "9S 9H KS", HEARTS) == parse_hand("JH")
    # unable to overtrump: still a trump (Rule 1), an undertrump
    assert _mask(ROTTERDAM, "AD 7H", "9S JH KS", HEARTS) == parse_hand("7H")
    # trumps led: beat the trumps if able; the Boer is forced (no SAKBOC 3.2 exemption)
    assert _mask(ROTTERDAM, "JH 7H AS", "AH", HEARTS) == parse_hand("JH")
    # Rule 3: no suit led and no trumps: anything
    assert _mask(ROTTERDAM, "AD KC", "9S", HEARTS) == parse_hand("AD KC")


def test_amsterdam_partner_winning_frees() -> None:
    # the partner's AS wins: void, any card (Rotterdam: must trump)
    assert _mask(AMSTERDAM, "AD 7H", "AS 8S", HEARTS) == parse_hand("AD 7H")
    assert _mask(ROTTERDAM, "AD 7H", "AS 8S", HEARTS) == parse_hand("7H")
    # the partner trumped with 9H: no need to overtrump with JH
    assert _mask(AMSTERDAM, "AD 7H JH", "9S 9H KS", HEARTS) == parse_hand("AD 7H JH")
    # the opponent wins: Rotterdam's duties
    assert _mask(AMSTERDAM, "AD 7H JH", "9S KS 9H", HEARTS) == parse_hand("JH")


def test_klammern_undertrump_or_discard_when_unable_to_overtrump() -> None:
    assert _mask(KLAMMERN, "AD 7H", "9S JH", HEARTS) == parse_hand("AD 7H")
    assert _mask(KLAMMERN, "AD 7H JH", "9S 9H", HEARTS) == parse_hand("JH")
    assert _mask(KLAMMERN, "AD 7H", "9S", HEARTS) == parse_hand("7H")


def test_dutch_ranks_and_points() -> None:
    # trump J 9 A 10 K Q 8 7; side A 10 K Q J 9 8 7 (seed 002 table, seed 004 §Cards)
    assert trick_winner(parse_cards("KS TS QS JS"), HEARTS, ROTTERDAM) == 1
    assert trick_winner(parse_cards("AH TH KH 9H"), HEARTS, ROTTERDAM) == 3
    assert trick_points(parse_cards("JH 9H AH TH"), HEARTS, ROTTERDAM) == 55
    assert trick_points(parse_cards("KS QS JS 9S"), HEARTS, ROTTERDAM, last=True) == 19


def test_no_trumps_every_suit_a_side_suit() -> None:
    assert trick_winner(parse_cards("TS JH AS 9S"), NO_TRUMPS, WIKIPEDIA_KLAVERJAS) == 2
    assert trick_points(parse_cards("JH JS"), NO_TRUMPS, WIKIPEDIA_KLAVERJAS) == 4
    assert _mask(WIKIPEDIA_KLAVERJAS, "AD 7H", "9S", NO_TRUMPS) == parse_hand("AD 7H")

"""Legality, trick winners and card points on hand-picked positions (SAKBOC 3.2-3.4; Notes §II, §III)."""

from __future__ import annotations

import pytest

from engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, format_hand, parse_card, parse_cards, parse_hand
from engine.play import card_points, legal_mask, trick_points, trick_winner
from engine.ruleset import SAKBOC_2004, Ruleset


def legal(hand: str, trick: str, trump: int, ruleset: Ruleset = SAKBOC_2004) -> str:
    return format_hand(legal_mask(parse_hand(hand), parse_cards(trick), trump, ruleset))


# (hand, trick so far, trump, legal cards, rule)
CASES = [
    # leading: anything
    ("AS 7H JD 8C", "", HEARTS, "AS 7H JD 8C", "lead"),
    # SAKBOC 3.3: follow suit, or trump even while holding the suit led (unlike the Dutch game)
    ("AS 7S 8H QD", "KS", HEARTS, "AS 7S 8H", "SAKBOC 3.3"),
    # void in the suit led, trick not trumped: anything
    ("8H QD 7C", "KS", HEARTS, "8H QD 7C", "Notes §II Void"),
    # SAKBOC 3.4: no undertrump on a side-suit trick trumped higher, even when void
    ("8H QD 7C", "KS 9H", HEARTS, "QD 7C", "SAKBOC 3.4"),
    # overtrumping is allowed, undertrumping not: 9H is trumped by the Manel... JH above it is fine
    ("JH 8H QD", "KS 9H", HEARTS, "JH QD", "SAKBOC 3.4"),
    # holding the suit led, undertrump is still barred; follow or overtrump
    ("AS 8H AH", "KS QH", HEARTS, "AS AH", "SAKBOC 3.3, 3.4"),
    # only trumps: undertrump allowed (SAKBOC 3.4), even holding a higher trump (no duty to overtrump)
    ("8H 7H JH", "KS 9H", HEARTS, "JH 8H 7H", "SAKBOC 3.4"),
    ("8H 7H", "KS AH", HEARTS, "8H 7H", "SAKBOC 3.4"),
    # trumps led: must play a trump if holding one besides the Boer (SAKBOC 3.3) ...
    ("7H AS 8D", "KH", HEARTS, "7H", "SAKBOC 3.3"),
    ("JH 7H AS", "KH", HEARTS, "JH 7H", "SAKBOC 3.2, 3.3"),
    # ... but the Boer is never forced (SAKBOC 3.2; Notes §II Follow Suit)
    ("JH AS 8D", "KH", HEARTS, "AS JH 8D", "SAKBOC 3.2"),
    ("JH AS 8D", "7H 9H AH", HEARTS, "AS JH 8D", "SAKBOC 3.2"),
    # trumps led: no duty to overtrump (a low trump on the Manel is fine)
    ("7H AH AS", "9H", HEARTS, "AH 7H", "SAKBOC 3.3"),
    # void in trumps when trumps led: anything
    ("AS KD 7C", "TH", HEARTS, "AS KD 7C", "Notes §II Void"),
    # the undertrump rule looks at the highest trump on the trick, not the last one
    ("TH AD", "AC JH 7H", HEARTS, "AD", "SAKBOC 3.4"),
    # the Boer can always be played on a trumped side trick (never an undertrump)
    ("JD 7S", "AC 9D", DIAMONDS, "7S JD", "SAKBOC 3.4"),
    # following with the suit led when the led suit is clubs and trump spades
    ("AC KS 7D", "8C", SPADES, "KS AC", "SAKBOC 3.3"),
    ("QC", "8C 9C", CLUBS, "QC", "single card"),
]


@pytest.mark.parametrize(("hand", "trick", "trump", "expected", "rule"), CASES)
def test_legal_cards(hand: str, trick: str, trump: int, expected: str, rule: str) -> None:
    assert legal(hand, trick, trump) == expected, rule


def test_legal_set_never_empty_and_within_hand() -> None:
    hand = parse_hand("8H 7H")
    assert legal_mask(hand, parse_cards("KS 9H AS"), HEARTS) == hand
    assert legal_mask(0, parse_cards("KS"), HEARTS) == 0


def test_dutch_flags_plug_in_without_touching_callers() -> None:
    rotterdam = SAKBOC_2004.replace(
        name="test-rotterdam", trump_may_replace_follow=False, must_trump_when_void=True, must_overtrump=True,
        trump_jack_exempt=False,
    )
    # must follow suit: trumping while holding the suit led is not allowed
    assert legal("AS 7S 8H QD", "KS", HEARTS, rotterdam) == "AS 7S"
    # void: must trump, and overtrump when possible
    assert legal("JH 8H QD", "KS 9H", HEARTS, rotterdam) == "JH"
    assert legal("8H QD", "KS", HEARTS, rotterdam) == "8H"
    # trumps led: must overtrump when possible; the Boer is not exempt
    assert legal("JH AS", "KH", HEARTS, rotterdam) == "JH"


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ("KS AS 7S 8S", HEARTS, 1),  # highest of the suit led
        ("KS AD 7S 8S", HEARTS, 0),  # an off-suit ace cannot win
        ("KS 7H AS 8S", HEARTS, 1),  # any trump beats the suit led (Notes §II Trump)
        ("KS 7H 9H JH", HEARTS, 3),  # Boer beats the Manel
        ("QH TH 8H 7H", HEARTS, 0),  # trump Q ranks above trump 10 (Notes §III)
        ("9H AH KH QH", HEARTS, 0),  # Manel above the trump ace
        ("TS JS 9S 8S", HEARTS, 1),  # side suits rank A K Q J 10 9 8 7: J above 10 (DOMAIN.md)
        ("JS TS 9S 8S", HEARTS, 0),
    ],
)
def test_trick_winner(trick: str, trump: int, winner: int) -> None:
    assert trick_winner(parse_cards(trick), trump) == winner


def test_card_points_notes_iii() -> None:
    trump = HEARTS
    expect = {"JH": 20, "9H": 14, "AH": 11, "KH": 3, "QH": 2, "TH": 10, "8H": 0, "7H": 0,
              "JS": 1, "9S": 0, "AS": 11, "TS": 10, "KS": 3, "QS": 2}
    for name, pts in expect.items():
        assert card_points(parse_card(name), trump) == pts, name
    every = parse_cards("AS KS QS JS TS 9S 8S 7S AH KH QH JH TH 9H 8H 7H AD KD QD JD TD 9D 8D 7D "
                        "AC KC QC JC TC 9C 8C 7C")
    assert sum(card_points(c, trump) for c in every) + SAKBOC_2004.last_trick_bonus == 146
    assert trick_points(parse_cards("7S 8S 9S 7D"), trump, last=True) == 5  # vyf laas trek


def test_trick_winner_rejects_empty_trick() -> None:
    with pytest.raises(ValueError):
        trick_winner([], HEARTS)

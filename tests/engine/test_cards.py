"""Cards and notation (engine contract; DOMAIN.md "The game")."""

from __future__ import annotations

import pytest

from engine.cards import (
    CARD_NAMES,
    CLUBS,
    DIAMONDS,
    SEVEN,
    TEN,
    CardParseError,
    card,
    cards_of,
    format_card,
    format_hand,
    parse_card,
    parse_cards,
    parse_hand,
)


def test_encoding_is_suit_times_eight_plus_natural_rank() -> None:
    assert parse_card("AS") == 0
    assert parse_card("7C") == card(CLUBS, SEVEN) == 31
    assert parse_card("TD") == card(DIAMONDS, TEN) == 20
    assert len(set(CARD_NAMES)) == 32


def test_parse_is_case_insensitive_and_accepts_10() -> None:
    assert parse_card("td") == parse_card("10D") == parse_card("10d")
    assert format_card(parse_card("jh")) == "JH"


@pytest.mark.parametrize("token", ["XZ", "1D", "T", "", "AA", "11S", "TDD"])
def test_bad_token_names_the_token(token: str) -> None:
    with pytest.raises(CardParseError) as err:
        parse_card(token)
    assert repr(token) in str(err.value)
    assert err.value.token == token
    assert isinstance(err.value, ValueError)


def test_hand_round_trip_and_duplicates() -> None:
    hand = parse_hand("7C, AS KS th")
    assert format_hand(hand) == "AS KS TH 7C"
    assert cards_of(hand) == [0, 1, 12, 31]
    assert parse_cards("KS AS") == [1, 0]
    with pytest.raises(CardParseError, match="'KS' appears twice"):
        parse_hand("KS AS KS")
    with pytest.raises(CardParseError, match="'QX'"):
        parse_hand(["AS", "QX"])


def test_card_out_of_range() -> None:
    with pytest.raises(ValueError):
        card(4, 0)
    with pytest.raises(ValueError):
        format_card(32)

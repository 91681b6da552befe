"""Roemte detection and competing roem (SAKBOC 8.2-8.4, 8.9, 8.10, 8.13, 8.17; Notes §II, §VI)."""

from __future__ import annotations

import pytest

from engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, parse_card, parse_hand
from engine.roem import (
    RoemCallError,
    best_call,
    call_from_names,
    forbids_sizing,
    needs_size,
    outranks,
    roemte_in_hand,
    sturk_due,
)


def names(hand: str, trump: int) -> list[str]:
    return [r.name for r in roemte_in_hand(parse_hand(hand), trump)]


def test_sequences_use_natural_order_even_in_trumps() -> None:
    # Q K A of trumps is a twenty in natural order (the trump ranking J 9 A K Q ... does not apply)
    assert names("AH KH QH", HEARTS) == ["twenty", "sturk"]
    # J 9 of trumps are not adjacent in natural order: no roemte
    assert names("JH 9H AH", HEARTS) == []
    assert names("JH TH 9H", HEARTS) == ["twenty"]
    assert names("TS 9S 8S 7S", HEARTS) == ["fifty"]


def test_vyf_eenderse_and_four_of_a_kind() -> None:
    assert names("KD QD JD TD 9D", HEARTS) == ["vyf-eenderse"]  # SAKBOC 8.8
    assert names("AD KD QD JD TD 9D", HEARTS) == ["vyf-eenderse"]
    assert names("JS JH JD JC", HEARTS) == ["four-jacks"]
    assert names("AS AH AD AC KS", HEARTS) == ["four-aces"]
    assert names("QS QH QD QC KH", HEARTS) == ["four-queens", "sturk"]
    assert names("TS TH TD TC", HEARTS) == []  # four tens are no roemte in SAKBOC


def test_best_call_combines_all_sequences_largest_first() -> None:
    call = best_call(parse_hand("AH KH QH 7S 8S 9S TS JC"), HEARTS)
    assert call is not None and call.names == ("fifty", "twenty") and call.points == 70  # SAKBOC 8.13, 8.16
    with_sturk = best_call(parse_hand("AH KH QH 7S 8S 9S TS JC"), HEARTS, with_sturk=True)
    assert with_sturk is not None and with_sturk.names == ("fifty", "twenty", "sturk") and with_sturk.total == 90
    assert best_call(parse_hand("AS QS 9H 7D"), HEARTS) is None


def call(names_: str | list[str], hand: str, trump: int = HEARTS):  # type: ignore[no-untyped-def]
    c = call_from_names(names_, parse_hand(hand), trump)
    assert c is not None
    return c


def test_more_points_outranks() -> None:
    assert outranks(call("fifty", "TS 9S 8S 7S"), call("twenty", "AD KD QD"))
    assert not outranks(call("twenty", "AD KD QD"), call("fifty", "TS 9S 8S 7S"))
    assert outranks(call(["twenty", "twenty"], "AD KD QD 9C 8C 7C"), call("twenty", "AS KS QS"))


def test_equal_points_higher_top_then_trumps_then_first_stands() -> None:
    q_high = call("twenty", "QS JS TS")
    k_high = call("twenty", "KD QD JD")
    assert outranks(k_high, q_high) and not outranks(q_high, k_high)  # SAKBOC 8.2 size
    q_high_trumps = call("twenty", "QH JH TH")
    assert outranks(q_high_trumps, q_high)  # Notes §VI: trumps rank high
    assert not outranks(q_high, q_high_trumps)
    q_high_other = call("twenty", "QC JC TC")
    assert not outranks(q_high_other, q_high)  # equal: the first stands (Notes §X, §VI)


def test_sturk_never_competes() -> None:
    sturk = call("sturk", "KH QH")
    assert not outranks(sturk, None)
    # a K-high twenty overcalls a Q-high twenty-sturk: only the twenties compete (SAKBOC 8.13)
    assert outranks(call("twenty", "KS QS JS"), call(["twenty", "sturk"], "QD JD TD KH QH"))
    assert call(["twenty", "sturk"], "AD KD QD KH QH").points == 20


def test_outright_roemte_order() -> None:
    jacks = call("four-jacks", "JS JH JD JC")
    vyf = call("vyf-eenderse", "KD QD JD TD 9D")
    aces = call("four-aces", "AS AH AD AC")
    assert outranks(jacks, vyf) and outranks(vyf, aces) and outranks(aces, call("fifty", "AS KS QS JS"))
    assert outranks(call("vyf-eenderse", "AS KS QS JS TS"), vyf)  # SAKBOC 8.7: sized again
    assert not outranks(vyf, jacks)


def test_sizing_rules() -> None:
    mine = call("twenty", "KD QD JD")
    standing = call("twenty", "QS JS TS")
    assert needs_size(mine, standing)  # SAKBOC 8.2: equal points
    assert not needs_size(call("fifty", "KC QC JC TC"), standing)  # more points: simply overroem
    ace_trumps = call("twenty", "AH KH QH")
    assert forbids_sizing(ace_trumps) and not needs_size(ace_trumps, standing)  # SAKBOC 8.10
    assert call("twenty", "QS JS TS").top_char == "Q"


def test_call_from_names_finds_held_roemte_only() -> None:
    assert call_from_names("fifty", parse_hand("AS KS QS"), HEARTS) is None
    assert call("twenty", "AS KS QS JS").top_char == "A"  # a fifty holds a twenty
    two = call(["twenty", "twenty"], "AS KS QS JS TS 9S")
    assert two.points == 40
    with pytest.raises(RoemCallError):
        call_from_names("forty", parse_hand("AS KS QS"), HEARTS)


def test_sturk_due_on_first_of_king_or_queen() -> None:
    hand = parse_hand("KH QH 7S")
    assert sturk_due(parse_card("KH"), hand, HEARTS)
    assert sturk_due(parse_card("QH"), hand, HEARTS)
    assert not sturk_due(parse_card("QH"), parse_hand("QH 7S"), HEARTS)  # the second of them
    assert not sturk_due(parse_card("KS"), parse_hand("KS QS"), HEARTS)  # not trumps
    assert sturk_due(parse_card("KC"), parse_hand("KC QC"), CLUBS)
    assert not sturk_due(parse_card("KD"), parse_hand("KD QD"), SPADES)
    assert sturk_due(parse_card("QD"), parse_hand("KD QD"), DIAMONDS)

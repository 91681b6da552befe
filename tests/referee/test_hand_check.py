"""The engine bridge: a partial hand is checked as it is entered; the finished hand is adjudicated."""

from referee.hand_check import blank_record, card_label, hand_adjudicate, hand_check, offence_choices, offence_rules
from tests.referee.conftest import REVOKE_TRICK, revoke_record


def test_revoke_is_flagged_at_once_with_its_rule():
    record = revoke_record(plays=REVOKE_TRICK[:2], straf=False)
    check = hand_check(record=record)
    assert check.ok
    assert check.last_flag is not None
    assert check.last_flag.offence == "versak"
    assert "SAKBOC 3.3" in check.last_flag.rule
    assert "held KS, 8S, 7S when spades were led" in check.last_flag.evidence
    assert check.next_seat == 2


def test_legal_cards_follow_suit_or_trump_and_the_trick_closes():
    check = hand_check(record=revoke_record(plays=[(0, "AS")], straf=False))
    assert check.next_seat == 1
    assert set(check.legal) == {"KS", "8S", "7S"}  # no trumps held, so spades only (SAKBOC 3.3)
    check = hand_check(record=revoke_record(plays=REVOKE_TRICK, straf=False))
    trick = check.tricks[0]
    assert trick.complete and trick.winner == 0 and trick.points == 11 + 0 + 11 + 11
    assert check.next_seat == 0 and check.last_flag is None and len(check.flags) == 1
    assert check.totals == (33, 0)


def test_a_card_not_in_the_hand_is_a_problem_not_an_offence():
    record = revoke_record(plays=[(0, "KS")], straf=False)
    check = hand_check(record=record)
    assert not check.ok
    assert check.problems == ("events[0].card: KS is not in seat 0's hand (seat 1 holds it)",)


def test_an_incomplete_deal_names_where():
    record = blank_record(seats=revoke_record()["seats"])
    check = hand_check(record=record)
    assert "hands[0]: 0 cards, expected 8" in check.problems


def test_adjudication_upholds_the_straf_for_the_revoke():
    verdict = hand_adjudicate(record=revoke_record())
    assert [o["code"] for o in verdict["offences"]] == ["versak"]
    (straf,) = verdict["strafs"]
    assert straf["upheld"] is True and straf["punished_team"] == 1 and straf["points"] == 2


def test_offence_list_and_citations_come_from_the_engine():
    codes = dict(offence_choices())
    assert "versak" in codes and "SAKBOC 3.3" in codes["versak"] and "signs" in codes
    assert offence_rules("ondertroef")[0] == "SAKBOC 3.4"


def test_card_label():
    assert card_label("TD") == "10♦" and card_label("JH") == "J♥"

"""Deals, the bot, hands, boems and sessions (SAKBOC 1.7, 2.1, 8; Notes §IV-§VI)."""

from __future__ import annotations

import random

from engine.cards import FULL_DECK, parse_card
from engine.ruleset import SAKBOC_2004
from engine.scoring import GameState
from engine.simulate import deal, play_boem, play_hand, play_session


def test_deal_is_even_cut_and_trump_from_the_dealers_last_card() -> None:
    rng = random.Random(5)
    for dealer in range(4):
        d = deal(rng, dealer)
        assert 2 <= d.cut <= 31  # SAKBOC 2.1
        assert d.pattern in ((3, 3, 2), (3, 2, 3), (2, 3, 3))  # SAKBOC 1.7, Notes §IV
        assert all(h.bit_count() == 8 for h in d.hands)
        assert d.hands[0] | d.hands[1] | d.hands[2] | d.hands[3] == FULL_DECK
        assert d.hands[dealer] >> d.trump_card & 1  # the dealer's face-up card
        assert d.leader == (dealer + 1) % 4  # the player on the dealer's right leads


def test_deal_pattern_order_to_the_right() -> None:
    # an unshuffled deck makes the order visible: the first cards go to the dealer's right
    class NoShuffle(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            return None

        def randint(self, a: int, b: int) -> int:
            return 2

        def randrange(self, *args: int) -> int:  # type: ignore[override]
            return 0

    d = deal(NoShuffle(), 3)
    # after cutting 2 the deck starts at card 2; pattern 3-3-2: seat 0 gets cards 2, 3, 4 first
    assert d.hands[0] >> 2 & 1 and d.hands[0] >> 3 & 1 and d.hands[0] >> 4 & 1
    assert d.trump_card == 1  # the cut cards (0, 1) are at the bottom: 1 is dealt last, to the dealer
    assert d.hands[3] >> 1 & 1


def test_random_hand_plays_all_tricks_for_146() -> None:
    rng = random.Random(11)
    for _ in range(50):
        h = play_hand(deal(rng, rng.randrange(4)), rng, policy="random")
        assert len(h.tricks) == 8
        assert sum(h.tricks_points) == 146
        assert h.went_on is None


def test_bot_hand_reproducible_and_emits_records() -> None:
    a = play_boem(42)
    b = play_boem(42)
    assert a.records == b.records
    assert a.strokes == b.strokes and a.winner in (0, 1)
    assert max(a.strokes) == SAKBOC_2004.boem_strokes
    rec = a.records[0]
    assert rec["format"] == "klawerjas-hand" and rec["version"] == 1 and rec["ruleset"] == "sakboc-2004"
    assert {s["role"] for s in rec["seats"][0::2]} == {"telman", "byspeler"}
    assert rec["trump_card"] in rec["hands"][rec["dealer"]]


def test_ou_jol_carries_tallies_and_last_trick_winner_deals() -> None:
    for seed in range(200):
        boem = play_boem(seed)
        for h in boem.hands:
            if h.went_on is None:
                assert h.state_after.old_play
                assert h.state_after.tallies == (
                    h.state_before.tallies[0] + h.tricks_points[0],
                    h.state_before.tallies[1] + h.tricks_points[1],
                )
                assert h.next_dealer == h.tricks[-1][2]
                return
    raise AssertionError("no ou jol in 200 boems")


def test_bot_goes_on_with_the_right_strokes() -> None:
    for seed in range(30):
        for h in play_boem(seed).hands:
            roemed = any(e["type"] == "roem" for e in h.events)
            if h.went_on is None or roemed or h.state_before.old_play:
                continue
            team, strokes = h.went_on
            assert h.tricks_points[team] >= 100
            assert strokes == (2 if h.tricks_points[1 - team] < 50 else 1)


def test_session_plays_a_realistic_number_of_hands() -> None:
    s = play_session(3, minutes=75)
    assert 18 <= s.hands_played <= 38
    assert s.minutes_used >= 75
    assert s == play_session(3, minutes=75)


def test_outright_roemte_go_on_two_strokes_without_a_trick() -> None:  # SAKBOC 8.7, 8.17
    for seed in range(200):
        for h in play_boem(seed).hands:
            outright = [e for e in h.events if e["type"] == "roem" and e["call"] in ("four-jacks", "vyf-eenderse")]
            if outright and not h.state_before.old_play:
                assert h.went_on is not None and h.went_on[1] == 2
                assert h.events[-1]["type"] == "go_on"
                return
    raise AssertionError("no outright roemte in 200 boems")


def test_state_before_is_used() -> None:
    rng = random.Random(1)
    state = GameState(old_play=True, tallies=(95, 30), roem=(0, 0), strokes=(1, 1))
    h = play_hand(deal(rng, 0), rng, state)
    assert h.record["state_before"]["tallies"] == [95, 30]
    assert parse_card(h.record["trump_card"]) == h.deal.trump_card

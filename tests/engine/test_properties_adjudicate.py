"""Property tests for the adjudicator (hypothesis, modest example counts).

* A hand played by E1's rule-following bot (``engine.simulate.play_hand``) adjudicates clean, in new play
  and in old play, from any boem position and with either partner as telman.
* A revoke injected anywhere (a player holding the suit led plays a card of another suit that is not a
  trump; when trumps are led, a player holding a trump other than a lone Boer) is always found, at that
  event, cited SAKBOC 3.3.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.adjudicate import adjudicate
from engine.cards import parse_card
from engine.offences import Offence
from engine.record import parse_record
from engine.scoring import GameState
from engine.simulate import deal, play_hand

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)


@st.composite
def states(draw: st.DrawFn) -> GameState:
    strokes = (draw(st.integers(0, 4)), draw(st.integers(0, 4)))
    if draw(st.booleans()):
        tallies = (draw(st.integers(0, 99)), draw(st.integers(0, 99)))
        roem = (draw(st.sampled_from([0, 0, 20, 40])), draw(st.sampled_from([0, 0, 20, 50])))
        return GameState(True, tallies, roem, strokes)
    return GameState(False, (0, 0), (0, 0), strokes)


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 3),
    state=states(),
    telmen=st.sampled_from([(0, 1), (2, 3), (0, 3), (2, 1)]),
)
def test_bot_played_hand_adjudicates_clean(seed: int, dealer: int, state: GameState, telmen: tuple[int, int]) -> None:
    rng = random.Random(seed)
    hand = play_hand(deal(rng, dealer), rng, state, telmen=telmen)
    verdict = adjudicate(hand.record)
    assert verdict.clean, [o.to_dict() for o in verdict.offences]
    assert sum(t.points for t in verdict.tricks if t.winner is not None) == sum(hand.tricks_points)
    json.dumps(verdict.to_dict())  # JSON-ready
    assert parse_record(parse_record(hand.record).to_dict()) == parse_record(hand.record)


def _revoke_candidates(record: dict[str, Any]) -> list[tuple[int, str]]:
    """(event index, replacement card) pairs where a revoke can be injected."""
    trump = parse_card(record["trump_card"]) >> 3
    held = [{parse_card(c) for c in h} for h in record["hands"]]
    out = []
    trick: list[int] = []
    for i, e in enumerate(record["events"]):
        if e["type"] != "play":
            continue
        if len(trick) == 4:
            trick = []
        c = parse_card(e["card"])
        seat = e["seat"]
        if trick:
            led = trick[0] >> 3
            follow = [x for x in held[seat] if x >> 3 == led]
            boer_only = led == trump and follow == [trump * 8 + 3]  # SAKBOC 3.2: the Boer is never forced
            if follow and not boer_only:
                for x in sorted(held[seat]):
                    if x >> 3 not in (led, trump):
                        out.append((i, "AKQJT987"[x & 7] + "SHDC"[x >> 3]))
        held[seat].discard(c)
        trick.append(c)
    return out


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 3),
    policy=st.sampled_from(["random", "bot"]),
    pick=st.integers(0, 10**6),
)
def test_injected_revoke_is_always_found(seed: int, dealer: int, policy: str, pick: int) -> None:
    rng = random.Random(seed)
    record = play_hand(deal(rng, dealer), rng, policy=policy).record  # type: ignore[arg-type]
    candidates = _revoke_candidates(record)
    if not candidates:
        return
    i, wrong = candidates[pick % len(candidates)]
    events = [dict(e) for e in record["events"]]
    seat, right = events[i]["seat"], events[i]["card"]
    for e in events[i + 1 :]:  # the seat plays the displaced card where it had played the wrong one
        if e["type"] == "play" and e["seat"] == seat and e["card"] == wrong:
            e["card"] = right
            break
    events[i]["card"] = wrong
    verdict = adjudicate(dict(record, events=events))
    found = [o for o in verdict.offences if o.event == i]
    assert [o.code for o in found] == [Offence.VERSAK], [o.to_dict() for o in verdict.offences]
    assert found[0].rules[0] == "SAKBOC 3.3"
    assert wrong in found[0].evidence and "were led" in found[0].evidence

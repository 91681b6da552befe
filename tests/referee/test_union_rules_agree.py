"""The engine's verdict on an "af" and the table's boem sheet score a straf alike, under every reading a union may
choose (SAKBOC 1.12: "units can decide otherwise").

Issue: "A test runs every combination of the union's settings and asserts that the verdict's points and the points
written on the sheet are equal." The union's interpretation settings (``clubs.models.Union``) are
``deal_after_going_on`` (interpretation 1), ``straf_four_points`` (2, SAKBOC 6.2), ``unfinished_boem`` (3),
``knockout_extra_time_minutes`` (4, SAKBOC 1.12: 10 or 60) and ``referee_judges_unrecorded_offences`` (5): 32
combinations. In each, the boem stands at a position when the claimant's telman says "af" (strokes of the
claimant's side and of the other side: 0-0, 3-0, 4-0, 4-1, 2-3, 1-4, gone on by the referee from the paper sheet),
and the "af" is either upheld (a real versak, SAKBOC 3.3) or a wrong straf (the card was legal: the punisher is
punished, Notes §VII), with no points claimed before (SAKBOC 6.6 does not apply).

Each case: set the union's settings, put the strokes on the table's sheet, log the claim, enter the disputed hand
with the card picker or upload it (its ``state_before.strokes`` must come from the sheet), read the engine's points,
rule with the engine's decision, and check that the ruling, its boem-sheet line and the engine agree, that they are
what SAKBOC 6.2 gives under the union's reading, and that the match score moved by exactly those points for the
side not punished.

Sampling: the full product, 32 settings x 6 positions x 2 outcomes = 384 cases at one match night each, passed
in 76 s (measured on SQLite), over the ~60 s budget. So all 32 setting combinations run, each with 3 of the 12
(position, outcome) pairs, chosen by the combination's index ``k`` among the 16 combinations of its
``straf_four_points`` reading: pairs ``k``, ``k + 16`` and ``k + 32`` modulo 12. Under each reading of SAKBOC 6.2
every pair therefore runs exactly 4 times (48 cases per reading, 96 in all, about 20 s). The case's number
(``3 * combination + step``) chooses the rest: the claimant is the home or the away side (so the record's teams map
to the match's sides both ways, ``home_seats`` even and odd), the hand is uploaded or entered card by card, a boem
won 5-0 by the other side comes first or not (so the match score need not start at 0-0), and the table. Under each
reading every pair meets both claimant sides and both ways of entering the hand;
``test_the_sample_covers_every_pair_under_each_reading`` checks this.

Two more cases, under the default settings: a disputed hand that itself holds a going-on before the "af" (the
verdict counts it; the sheet has it or not, and takes no going-on once "af" is said, SAKBOC 1.10), and a ruling
whose straf the sheet scores again after the referee corrects an earlier going-on of the same boem.
"""

from __future__ import annotations

import itertools
import json
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from clubs.models import Union
from clubs.services import union_settings_update
from matches.models import Boem, BoemEntry, Match
from matches.night import boem_sheet
from matches.night import clock as night_clock
from matches.night import services as night_services
from referee import services
from referee.models import DisputedHand, Ruling
from tests.factories import match_with_sheets
from tests.referee.conftest import CLEAN_TRICK, REVOKE_HANDS, REVOKE_TRICK, revoke_record

pytestmark = pytest.mark.django_db

PAPER = "entered from the paper sheet"

#: The union's interpretation settings and the values each takes.
SETTINGS = {
    "deal_after_going_on": list(Union.DealAfterGoingOn.values),
    "straf_four_points": list(Union.StrafFourPoints.values),
    "unfinished_boem": list(Union.UnfinishedBoem.values),
    "referee_judges_unrecorded_offences": [True, False],
    "knockout_extra_time_minutes": [10, 60],
}
COMBINATIONS = [dict(zip(SETTINGS, values, strict=True)) for values in itertools.product(*SETTINGS.values())]

#: Strokes of the claimant's side and of the other side in the boem in progress when "af" is said.
POSITIONS = [(0, 0), (3, 0), (4, 0), (4, 1), (2, 3), (1, 4)]
OUTCOMES = ["upheld", "wrong"]
PAIRS = list(itertools.product(POSITIONS, OUTCOMES))
PAIRS_PER_COMBINATION = 3


def _index_within_reading(settings: dict) -> int:
    """The combination's index among the 16 that share its ``straf_four_points`` reading."""
    same = [c for c in COMBINATIONS if c["straf_four_points"] == settings["straf_four_points"]]
    return same.index(settings)


def _cases() -> list:
    """The sampled cases: (settings, position, outcome, case number), the case number choosing the claimant's side,
    the table, how the hand is entered and whether a boem precedes (see the module docstring)."""
    cases = []
    for number, settings in enumerate(COMBINATIONS):
        k = _index_within_reading(settings)
        for step in range(PAIRS_PER_COMBINATION):
            position, outcome = PAIRS[(k + 16 * step) % len(PAIRS)]
            case = PAIRS_PER_COMBINATION * number + step
            label = "-".join(str(v) for v in settings.values())
            cases.append(pytest.param(settings, position, outcome, case,
                                      id=f"{label}-{position[0]}-{position[1]}-{outcome}"))
    return cases


CASES = _cases()


def expected_points(winner_strokes: int, loser_strokes: int, reading: str) -> int:
    """SAKBOC 6.2 as the union reads it, written out here independently of the engine: 4 points for a straf from 3
    or 4 strokes with the opponents on none (interpretation 2), or 3 or 4 strokes clear (the other reading)."""
    if reading == Union.StrafFourPoints.CLEAR:
        return 4 if 3 <= winner_strokes - loser_strokes <= 4 else 2
    return 4 if winner_strokes in (3, 4) and loser_strokes == 0 else 2


def _strokes(total: int) -> list[int]:
    """Goings-on that make ``total`` strokes: 2 at a time, then 1 (SAKBOC 7.3)."""
    return [2] * (total // 2) + [1] * (total % 2)


def _night(settings: dict) -> Match:
    """A match night in its first half (started a minute ago: "af" is logged at the real time), under a union with
    ``settings``."""
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start)
    union_settings_update(union=match.competition.union, reason="the union's reading", **settings)
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


def _score(match: Match) -> tuple[int, int]:
    """The match score (home, away) as saved."""
    fresh = Match.objects.get(pk=match.pk)
    return fresh.home_score, fresh.away_score


@pytest.mark.parametrize(("union_settings", "position", "outcome", "case"), CASES)
def test_the_verdicts_points_are_the_points_on_the_sheet(union_settings, position, outcome, case):
    """Under the union's settings, the engine's points for the "af", the ruling's and its boem-sheet line's are
    one figure, SAKBOC 6.2's as the union reads it, and the match score moves by it for the side not punished."""
    match = _night(union_settings)
    referee = match.referee
    claimant_side = "home" if case % 2 == 0 else "away"
    claimant_team, other_team = (match.home, match.away) if claimant_side == "home" else (match.away, match.home)
    table = 1 + case % 4

    if (case // 2) % 2 == 0:  # a boem won 5-0 by the other side first: the score does not start at 0-0
        for strokes in (2, 2, 1):
            boem_sheet.going_on_record(match=match, table_number=table, team=other_team, strokes=strokes,
                                       reason=PAPER, by=referee)
    mine, theirs = position
    for team, total in ((claimant_team, mine), (other_team, theirs)):
        for strokes in _strokes(total):
            boem_sheet.going_on_record(match=match, table_number=table, team=team, strokes=strokes, reason=PAPER,
                                       by=referee, opponents_under_fifty=True)
    current = Boem.objects.filter(table__match=match, table__number=table, status=Boem.Status.IN_PROGRESS).first()
    on_sheet = (0, 0) if current is None else (current.home_strokes, current.away_strokes)
    assert on_sheet == (position if claimant_side == "home" else position[::-1])
    before = _score(match)

    claim = services.straf_claim_log(match=match, table_number=table, claimant_side=claimant_side,
                                     claimant_role="telman", accused_role="telman", offence="versak",
                                     moment="trick 1, second card", by=referee)
    # seat 0 is the claimant's telman, seat 1 the accused telman (who revokes, or plays a legal card)
    home_seats = DisputedHand.HomeSeats.EVEN if claimant_side == "home" else DisputedHand.HomeSeats.ODD
    plays = REVOKE_TRICK if outcome == "upheld" else CLEAN_TRICK
    if case % 3 == 0:
        hand = services.disputed_hand_upload(claim=claim, data=json.dumps(revoke_record(plays=plays, straf=False)),
                                             home_seats=home_seats, by=referee)
    else:
        hand = services.disputed_hand_start(claim=claim, home_seats=home_seats, by=referee)
        assert hand.record["state_before"]["strokes"] == list(position)  # from the sheet, the claimant's side first
        services.disputed_hand_deal_set(hand=hand, dealer=3, hands=REVOKE_HANDS, trump_card="7C", cut=12,
                                        deal_pattern="3-3-2", by=referee)
        for seat, card in plays:
            services.disputed_hand_event_add(hand=hand, event={"type": "play", "seat": seat, "card": card}, by=referee)
        hand = services.disputed_hand_adjudicate(hand=hand, by=referee)
    hand.refresh_from_db()
    assert hand.record["state_before"]["strokes"] == list(position)  # the sheet's, as the record's teams

    claim.refresh_from_db()
    outcome_found = services.engine_outcome(claim=claim)
    decision = services.engine_decision_of(outcome_found)
    assert decision == (Ruling.Decision.UPHELD if outcome == "upheld" else Ruling.Decision.REJECTED)
    engine_points = outcome_found["points"]

    ruling = services.ruling_record(claim=claim, decision=decision, claimed_points=False, by=referee)
    ruling.boem_entry.refresh_from_db()
    assert ruling.points == ruling.boem_entry.points == engine_points
    reading = union_settings["straf_four_points"]
    if outcome == "upheld":
        assert engine_points == expected_points(mine, theirs, reading)
        assert ruling.boem_entry.kind == BoemEntry.Kind.STRAF and ruling.boem_entry.team == claimant_team
        winner = claimant_team
    else:  # the punisher is punished (Notes §VII): a straf from the accused side's position
        assert engine_points == expected_points(theirs, mine, reading)
        assert ruling.boem_entry.kind == BoemEntry.Kind.STRAF_REVERSED and ruling.boem_entry.team == other_team
        winner = other_team
    boem = ruling.boem_entry.boem
    assert (boem.status, boem.winner_id, boem.points) == (Boem.Status.STRAFFED, winner.pk, engine_points)
    assert (boem.home_strokes, boem.away_strokes) == on_sheet  # the boem in progress when "af" was said
    after = _score(match)
    moved = (engine_points, 0) if winner == match.home else (0, engine_points)
    assert (after[0] - before[0], after[1] - before[1]) == moved


def test_the_sample_covers_every_pair_under_each_reading():
    """Every (position, outcome) pair runs under each ``straf_four_points`` reading, with the claimant on either
    side and the hand both uploaded and entered."""
    seen: dict[tuple, set] = {}
    for case in CASES:
        settings, position, outcome, number = case.values
        seen.setdefault((settings["straf_four_points"], position, outcome), set()).add(
            ("home" if number % 2 == 0 else "away", number % 3 == 0))
    assert len(CASES) == len(COMBINATIONS) * PAIRS_PER_COMBINATION == 96
    assert len({tuple(c.values[0].values()) for c in CASES}) == 32
    assert set(seen) == {(reading, *pair) for reading in SETTINGS["straf_four_points"] for pair in PAIRS}
    for variants in seen.values():
        assert {side for side, _ in variants} == {"home", "away"}
        assert {uploaded for _, uploaded in variants} == {True, False}


# Old play (SAKBOC 8.19, trick first): team 0 carries 90, picks up a trick of 16 and its telman (seat 0) goes on 2
# strokes, rightly (106 against 40: the opponents under 50, Notes §VI); the engine's case goon_09.
GOING_ON_HAND = {
    "format": "klawerjas-hand", "version": 1, "ruleset": "sakboc-2004",
    "seats": [{"seat": 0, "name": "Home Telman", "role": "telman"},
              {"seat": 1, "name": "Away Telman", "role": "telman"},
              {"seat": 2, "name": "Home Byspeler", "role": "byspeler"},
              {"seat": 3, "name": "Away Byspeler", "role": "byspeler"}],
    "dealer": 3, "cut": 12, "deal_pattern": "3-3-2",
    "hands": [["AS", "TS", "JH", "7H", "QD", "JC", "KC", "QC"], ["KS", "9S", "AH", "TH", "JD", "7D", "9C", "8C"],
              ["QS", "8S", "KH", "9H", "AD", "TD", "8D", "7C"], ["JS", "7S", "QH", "8H", "KD", "9D", "AC", "TC"]],
    "trump_card": "7S",
    "state_before": {"old_play": True, "tallies": [90, 40], "roem": [0, 0]},
    "events": [{"type": "play", "seat": 0, "card": "QD"}, {"type": "play", "seat": 1, "card": "7D"},
               {"type": "play", "seat": 2, "card": "AD"}, {"type": "play", "seat": 3, "card": "KD"},
               {"type": "go_on", "seat": 0, "strokes": 2}],
}


@pytest.mark.parametrize("going_on_on_the_sheet", [False, True], ids=["not-yet-on-the-sheet", "on-the-sheet"])
def test_a_going_on_in_the_disputed_hand_counts_alike_in_the_verdict_and_on_the_sheet(going_on_on_the_sheet):
    """The home telman, on 2 strokes, goes on 2 more in the disputed hand, rightly; the away telman says "af"
    (``go_on_not_allowed``, a counting offence only the telman punishes, SAKBOC 6.8): a wrong straf (Notes §VII).
    Whether the table had written the going-on before "af" (the table takes no going-on after it, SAKBOC 1.10) or
    not, the verdict's points and the points on the sheet must be the same."""
    match = _night({})
    referee = match.referee
    boem_sheet.going_on_record(match=match, table_number=1, team=match.home, strokes=2, reason=PAPER, by=referee)
    if going_on_on_the_sheet:
        boem_sheet.going_on_record(match=match, table_number=1, team=match.home, strokes=2, reason=PAPER, by=referee,
                                   opponents_under_fifty=True)
    claim = services.straf_claim_log(match=match, table_number=1, claimant_side="away", claimant_role="telman",
                                     accused_role="telman", offence="go_on_not_allowed", by=referee)
    services.disputed_hand_upload(claim=claim, data=json.dumps(GOING_ON_HAND), by=referee)
    claim.refresh_from_db()
    outcome = services.engine_outcome(claim=claim)
    assert services.engine_decision_of(outcome) == Ruling.Decision.REJECTED
    ruling = services.ruling_record(claim=claim, decision=Ruling.Decision.REJECTED, by=referee)
    assert ruling.boem_entry.team == match.home
    assert ruling.points == ruling.boem_entry.points == outcome["points"]


def test_a_going_on_in_a_boem_a_ruling_ended_is_not_corrected_the_ruling_is_final_sakboc_1_10():
    """Home is on 3 strokes, the opponents on none: an upheld "af" by home earns 4 (SAKBOC 6.2). Correcting the
    first going-on from 2 strokes to 1 would score the straf again from 2-0 (2 points) under a ruling that says 4:
    the referee's decision is final (1.10), so that going-on is no longer corrected, and the ruling, its line, the
    sheet and the match score keep agreeing."""
    match = _night({})
    referee = match.referee
    first = boem_sheet.going_on_record(match=match, table_number=1, team=match.home, strokes=2, reason=PAPER,
                                       by=referee)
    boem_sheet.going_on_record(match=match, table_number=1, team=match.home, strokes=1, reason=PAPER, by=referee)
    claim = services.straf_claim_log(match=match, table_number=1, claimant_side="home", claimant_role="byspeler",
                                     accused_role="byspeler", offence="signs", by=referee)
    ruling = services.ruling_record(claim=claim, decision=Ruling.Decision.UPHELD, by=referee)
    assert ruling.points == ruling.boem_entry.points == 4
    with pytest.raises(ValidationError, match="SAKBOC 1.10"):
        boem_sheet.entry_correct(entry=first, by=referee, reason="he went on 1, not 2", strokes=1)
    first.refresh_from_db()
    ruling.refresh_from_db()
    ruling.boem_entry.refresh_from_db()
    assert first.strokes == 2 and ruling.points == ruling.boem_entry.points == 4 and _score(match) == (4, 0)

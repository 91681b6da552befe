"""Writes of the referee console: straf claims, disputed hands, rulings and queries.

Each service is keyword-only, atomic, validates (``full_clean()``) before it saves and raises
``django.core.exceptions.ValidationError`` citing the clause when a rule forbids the step; nothing is
half-saved. Hands are checked by the rules engine (:mod:`referee.hand_check`); a ruling goes on the table's
boem sheet through the match services (``matches.night.boem_sheet.straf_record`` / ``straf_reverse``),
which also recompute the match score.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from matches.models import Match, MatchTable, Seat, TableDevice
from matches.night import boem_sheet
from matches.notifications import ruling_notify
from matches.rules import competition_ruleset
from matches.writes import match_lock
from referee.hand_check import (
    HandCheck,
    blank_record,
    hand_adjudicate,
    hand_check,
    offence_counting,
    offence_rules,
)
from referee.models import DisputedHand, Query, Role, Ruling, Side, StrafClaim

#: Match phases in which straf claims can be logged: play has started (SAKBOC 1.9).
_HALF_OF_PHASE: dict[str, int] = {
    Match.Phase.FIRST_HALF: 1,
    Match.Phase.INTERVAL: 1,  # hands already cut are completed at the interval (SAKBOC 2.2)
    Match.Phase.SECOND_HALF: 2,
    Match.Phase.AWAITING_EXTRA_TIME: 2,
    Match.Phase.EXTRA_TIME: 2,
    Match.Phase.FINISHED: 2,
}


def _team(match: Match, side: str):
    return match.home if side == Side.HOME else match.away


def _seated_player(*, match: Match, table_number: int, side: str, role: str):
    """The player in ``side``'s ``role`` at a table per the team sheet (after substitutions), or None."""
    seat = (
        Seat.objects.filter(sheet__match=match, sheet__team=_team(match, side), table_number=table_number, role=role)
        .select_related("player")
        .first()
    )
    return seat.player if seat else None


# --- straf claims ----------------------------------------------------------------------------------------


@transaction.atomic
def straf_claim_log(
    *,
    match: Match,
    table_number: int,
    claimant_side: str,
    claimant_role: str,
    accused_role: str,
    offence: str = "",
    moment: str = "",
    note: str = "",
    by=None,
    device: TableDevice | None = None,
) -> StrafClaim:
    """Log a straf claim: at table ``table_number``, ``claimant_side``'s ``claimant_role`` said "af" against
    the other side's ``accused_role`` (Notes §VII and SAKBOC 2-12), logged by the referee (``by``) or said on
    the table's ``device``. ``offence`` (an engine offence code) may be empty: "af" need not name the offence
    (SAKBOC 6.7, DOMAIN.md interpretation 7); the referee names it before upholding.

    The table then takes no going-on until the claim is ruled (``matches.night.boem_sheet.straf_claim_opened``).

    :returns: the claim, with the offence's rule citations copied onto it and the half from the clock.
    :raises ValidationError: before play starts (SAKBOC 1.9), for a table that is not playing (stopped,
        SAKBOC 12.1), once time is called for a device (SAKBOC 2.2), or an offence code not in the union's straf
        list (``engine.offences.offences_for`` of ``matches.rules.competition_ruleset``).
    """
    match = match_lock(match)
    half = _HALF_OF_PHASE.get(match.phase)
    if half is None:
        raise ValidationError("SAKBOC 1.9: no cards may be played before the starting time; the match has not started.")
    if device is not None and boem_sheet.entry_phase(match, timezone.now())[0] not in boem_sheet.RECORDING_PHASES:
        raise ValidationError("SAKBOC 2.2: when time is announced, all play stops; tell the referee of anything "
                              "that happened before.")
    table = MatchTable.objects.filter(match=match, number=table_number).first()
    if table is None:
        raise ValidationError({"table_number": f"Table {table_number} is not a table of this match."})
    if table.status != MatchTable.Status.PLAYING:
        raise ValidationError(
            {"table_number": f"SAKBOC 12.1: table {table_number} is {table.get_status_display().lower()}; "
             "no claims can be logged there."}
        )
    rules: tuple[str, ...] = ()
    if offence:
        try:
            rules = offence_rules(offence, competition_ruleset(match.competition))
        except ValueError:
            raise ValidationError(
                {"offence": f"{offence!r} is not an offence in the union's straf list (Notes §VII)."}) from None
    claim = StrafClaim(
        match=match,
        table=table,
        half=half,
        claimant_side=claimant_side,
        claimant_role=claimant_role,
        accused_role=accused_role,
        offence=offence,
        rules=", ".join(rules),
        moment=moment.strip(),
        note=note.strip(),
        logged_by=by,
        device=device,
    )
    claim.full_clean()
    claim._history_user = by  # type: ignore[attr-defined]
    claim.save()
    boem_sheet.straf_claim_opened(match=match, table_number=table_number)
    return claim


@transaction.atomic
def straf_claim_offence_name(*, claim: StrafClaim, offence: str, by) -> StrafClaim:
    """The referee names the offence of an "af" that named none (SAKBOC 6.7): its rules are copied onto it.

    :raises ValidationError: the claim has a ruling (SAKBOC 1.10), or the code is not in the union's straf list.
    """
    if Ruling.objects.filter(claim=claim).exists():
        raise ValidationError("SAKBOC 1.10: this claim has a ruling, which is final.")
    try:
        rules = offence_rules(offence, _ruleset(claim))
    except ValueError:
        raise ValidationError(
            {"offence": f"{offence!r} is not an offence in the union's straf list (Notes §VII)."}) from None
    claim.offence, claim.rules = offence, ", ".join(rules)
    claim.full_clean()
    claim._history_user = by  # type: ignore[attr-defined]
    claim._change_reason = f"offence named: {offence}"  # type: ignore[attr-defined]
    claim.save()
    return claim


# --- disputed hands ---------------------------------------------------------------------------------------


def _seats_for(*, claim: StrafClaim, home_seats: str, seat1_role: str) -> list[dict[str, Any]]:
    """Four record seats with names from the team sheets: seat 0 is the even-seated side's telman, seat 2 its
    byspeler; seat 1 (on seat 0's right, playing after it) holds ``seat1_role`` of the other side."""
    even_side = Side.HOME if home_seats == DisputedHand.HomeSeats.EVEN else Side.AWAY
    odd_side = Side.other(even_side)
    other_role = Role.BYSPELER if seat1_role == Role.TELMAN else Role.TELMAN
    layout = [(0, even_side, Role.TELMAN), (1, odd_side, seat1_role), (2, even_side, Role.BYSPELER),
              (3, odd_side, other_role)]
    seats = []
    for number, side, role in layout:
        player = _seated_player(match=claim.match, table_number=claim.table.number, side=side, role=role)
        name = f"{player.first_name} {player.last_name}" if player else f"{side} {role}"
        seats.append({"seat": number, "name": name, "role": str(role)})
    return seats


@transaction.atomic
def disputed_hand_start(*, claim: StrafClaim, home_seats: str = "even", seat1_role: str = "telman", by) -> DisputedHand:
    """Start entering the disputed hand of a claim: a blank hand record with the table's four players seated.

    :param home_seats: ``even`` (home in seats 0 and 2) or ``odd``.
    :param seat1_role: the role of the player in seat 1 (on seat 0's right; seat 0 is a telman).
    :raises ValidationError: if the claim already has a hand, or the claim has a ruling (SAKBOC 1.10: final).
    """
    if hasattr(claim, "ruling"):
        raise ValidationError("SAKBOC 1.10: this claim has a ruling, which is final.")
    if DisputedHand.objects.filter(claim=claim).exists():
        raise ValidationError("This claim already has a disputed hand.")
    if home_seats not in DisputedHand.HomeSeats.values or seat1_role not in Role.values:
        raise ValidationError("Choose the order of play round the table.")
    record = blank_record(
        seats=_seats_for(claim=claim, home_seats=home_seats, seat1_role=seat1_role),
        meta={"match": claim.match_id, "table": claim.table.number, "claim": claim.pk},
    )
    record["state_before"]["strokes"] = list(_sheet_strokes(claim=claim, home_seats=home_seats))
    hand = DisputedHand(claim=claim, record=record, home_seats=home_seats, created_by=by)
    hand.full_clean()
    hand._history_user = by  # type: ignore[attr-defined]
    hand.save()
    return hand


def _hand_going_on(record: dict[str, Any], home_seats: str) -> tuple[str, int] | None:
    """The going-on made in the disputed hand, from its record: ``(side, strokes)`` of its last ``go_on``
    event (a hand has one), or ``None``."""
    for event in reversed(record.get("events") or []):
        if isinstance(event, dict) and event.get("type") == "go_on" and isinstance(event.get("seat"), int) \
                and isinstance(event.get("strokes"), int):
            even = event["seat"] % 2 == 0
            side = Side.HOME if even == (home_seats == DisputedHand.HomeSeats.EVEN) else Side.AWAY
            return str(side), event["strokes"]
    return None


def _sheet_strokes(*, claim: StrafClaim, home_seats: str, record: dict[str, Any] | None = None
                   ) -> tuple[int, int]:
    """The strokes the disputed hand started from, as the record's teams (team 0 sits in seats 0 and 2): the
    boem in progress at the claim's table when "af" was said, less the hand's own going-on when the table had
    already written it (the record counts it as an event). The sheet is the record of the night, so the
    engine's verdict counts a straf's points (SAKBOC 6.2) from the same strokes as the sheet does."""
    going_on = _hand_going_on(record, home_seats) if record else None
    (home, away), _on_sheet = boem_sheet.hand_start(table=claim.table, match=claim.match, at=claim.logged_at,
                                                    going_on=going_on)
    return (home, away) if home_seats == DisputedHand.HomeSeats.EVEN else (away, home)


def _state_before_from_sheet(record: dict[str, Any], *, claim: StrafClaim, home_seats: str) -> None:
    """Fill an uploaded record's ``state_before.strokes`` from the table's sheet, or refuse strokes that differ
    from it, so the verdict's straf points (SAKBOC 6.2) and the sheet's agree."""
    sheet = list(_sheet_strokes(claim=claim, home_seats=home_seats, record=record))
    state = record.get("state_before")
    if state is None:
        record["state_before"] = {"strokes": sheet}
        return
    if not isinstance(state, dict):
        return  # the engine names the problem
    strokes = state.get("strokes")
    if strokes is None:
        state["strokes"] = sheet
    elif not (isinstance(strokes, list) and len(strokes) == 2 and all(type(x) is int for x in strokes)):
        return  # the engine names the problem
    elif strokes != sheet:
        home, away = sheet if home_seats == DisputedHand.HomeSeats.EVEN else sheet[::-1]
        raise ValidationError(
            f"state_before.strokes: the record says the boem stood {strokes[0]}–{strokes[1]} (seats 0 and 2 "
            f"first); table {claim.table.number}'s sheet says {claim.match.home.name} {home}, "
            f"{claim.match.away.name} {away} when 'af' was said. Correct the record, or the sheet first."
        )


def _ruleset(claim: StrafClaim):
    """The competition's rules (``matches.rules.competition_ruleset``): the sheet's too."""
    return competition_ruleset(claim.match.competition)


def _ensure_entering(hand: DisputedHand) -> None:
    if hand.status != DisputedHand.Status.ENTERING:
        raise ValidationError("This hand has been adjudicated; it can no longer be changed.")
    if hasattr(hand.claim, "ruling"):
        raise ValidationError("SAKBOC 1.10: this claim has a ruling, which is final.")


def _check_or_raise(record: dict[str, Any], ruleset=None) -> HandCheck:
    check = hand_check(record=record, ruleset=ruleset)
    if check.problems:
        raise ValidationError(list(check.problems))
    return check


def _record_save(hand: DisputedHand, record: dict[str, Any], *, by) -> None:
    """Store the disputed hand's changed record (one history row naming ``by``)."""
    hand.record = record
    hand._history_user = by  # type: ignore[attr-defined]
    hand.save(update_fields=["record"])


@transaction.atomic
def disputed_hand_deal_set(
    *,
    hand: DisputedHand,
    dealer: int,
    hands: list[list[str]],
    trump_card: str,
    cut: int | None = None,
    deal_pattern: str | None = None,
    by,
) -> HandCheck:
    """Set the deal of a disputed hand: dealer, cut, deal pattern, the four hands and the trump card.

    The engine validates the record: 8 cards each, no card twice, the trump card in the dealer's hand
    (SAKBOC 1.7, 3.1); a cut outside 2..31 (2.1) or a wrong deal pattern is *recorded* and found as an offence.
    Plays already entered are kept only if they still fit the new deal.

    :raises ValidationError: listing the engine's problems, each naming where (``hands[2]: 7 cards, expected 8``).
    """
    _ensure_entering(hand)
    record = copy.deepcopy(hand.record)
    record.update(
        dealer=dealer,
        hands=[[c.strip().upper() for c in cards] for cards in hands],
        trump_card=trump_card.strip().upper(),
        cut=cut,
        deal_pattern=deal_pattern or None,
    )
    check = _check_or_raise(record, _ruleset(hand.claim))
    _record_save(hand, record, by=by)
    return check


@transaction.atomic
def disputed_hand_event_add(*, hand: DisputedHand, event: dict[str, Any], by) -> HandCheck:
    """Append one event (a card played, a roem call, a size question or answer, "good enough?", going on)
    to a disputed hand and check the hand so far with the engine.

    An offence (a versak, an ondertroef, a false roem ...) is recorded and flagged in the returned check; an
    *impossible* event (a card not in that seat's hand, a seat playing twice to a trick) is refused.

    :raises ValidationError: with the engine's problem (``events[5].card: KD is not in seat 2's hand``).
    """
    _ensure_entering(hand)
    if event.get("type") == "straf":
        raise ValidationError("The claim's straf is added when the hand is adjudicated.")
    record = copy.deepcopy(hand.record)
    record.setdefault("events", []).append(event)
    check = _check_or_raise(record, _ruleset(hand.claim))
    _record_save(hand, record, by=by)
    return check


@transaction.atomic
def disputed_hand_event_undo(*, hand: DisputedHand, by) -> HandCheck:
    """Remove the last event of a disputed hand (a mis-tap on the card picker) and re-check the hand."""
    _ensure_entering(hand)
    record = copy.deepcopy(hand.record)
    if record.get("events"):
        record["events"].pop()
    _record_save(hand, record, by=by)
    return hand_check(record=record, ruleset=_ruleset(hand.claim))


def claim_seats(*, hand: DisputedHand) -> tuple[int, int]:
    """The record seats of the claim's claimant and accused (by side and role).

    :raises ValidationError: if the record's seats do not hold those roles.
    """
    claim = hand.claim

    def seat_of(side: str, role: str) -> int:
        for s in hand.record.get("seats", []):
            if hand.side_of_seat(s["seat"]) == side and s["role"] == role:
                return int(s["seat"])
        team = claim.match.home.name if side == Side.HOME else claim.match.away.name
        raise ValidationError(f"The hand record has no {role} of {team}; check which team the file lists first and "
                              "third.")

    return seat_of(claim.claimant_side, claim.claimant_role), seat_of(claim.accused_side, claim.accused_role)


def _with_claim_straf(hand: DisputedHand) -> dict[str, Any]:
    """The record with the claim's straf event appended, unless the record already holds that claim."""
    record = copy.deepcopy(hand.record)
    claimant, accused = claim_seats(hand=hand)
    events = record.setdefault("events", [])
    already = any(
        e.get("type") == "straf" and e.get("claimant") == claimant and e.get("accused") == accused
        and str(e.get("offence", "")).replace("-", "_") == hand.claim.offence
        for e in events
    )
    if not already:
        events.append({"type": "straf", "claimant": claimant, "accused": accused, "offence": hand.claim.offence})
    return record


@transaction.atomic
def disputed_hand_adjudicate(*, hand: DisputedHand, by, now: datetime | None = None) -> DisputedHand:
    """Finish a disputed hand: add the claim's straf to the record and let the engine adjudicate it.

    :returns: the hand with ``verdict`` (the engine's verdict JSON) and status ``adjudicated``.
    :raises ValidationError: if the record is malformed (the engine's problems, each naming where).
    """
    _ensure_entering(hand)
    record = _with_claim_straf(hand)
    if hand.source == DisputedHand.Source.ENTERED:  # its going-on is known now: the strokes it started from
        record.setdefault("state_before", {})["strokes"] = list(
            _sheet_strokes(claim=hand.claim, home_seats=hand.home_seats, record=record))
    try:
        verdict = hand_adjudicate(record=record, ruleset=_ruleset(hand.claim))
    except ValueError as error:
        raise ValidationError(list(getattr(error, "problems", [str(error)]))) from None
    hand.record = record
    hand.verdict = verdict
    hand.status = DisputedHand.Status.ADJUDICATED
    hand.adjudicated_at = now or timezone.now()
    hand.full_clean()
    hand._history_user = by  # type: ignore[attr-defined]
    hand.save()
    return hand


@transaction.atomic
def disputed_hand_upload(
    *, claim: StrafClaim, data: bytes | str, home_seats: str = "even", by, now: datetime | None = None
) -> DisputedHand:
    """Take a disputed hand as an uploaded hand-record JSON document and adjudicate it at once.

    :param data: the JSON text (format ``klawerjas-hand`` version 1, docs/hand-record.md). A record with no
        ``state_before.strokes`` takes the table's: the boem in progress when "af" was said.
    :raises ValidationError: if it is not JSON, is malformed (the engine's problems), the claim already has
        a hand or a ruling, the record's seats cannot hold the claim's claimant and accused, or its
        ``state_before.strokes`` differ from the table's sheet (the sheet is the night's record: correct one).
    """
    if hasattr(claim, "ruling"):
        raise ValidationError("SAKBOC 1.10: this claim has a ruling, which is final.")
    if DisputedHand.objects.filter(claim=claim).exists():
        raise ValidationError("This claim already has a disputed hand.")
    try:
        record = json.loads(data)
    except RecursionError:
        raise ValidationError("The file is not JSON a hand record can be: it is nested too deep.") from None
    except ValueError as error:  # not JSON, not UTF-8, or an integer of more digits than int() converts
        raise ValidationError(f"The file is not JSON: {error}") from None
    if not isinstance(record, dict):
        raise ValidationError("The file is not a hand record (expected a JSON object).")
    if home_seats not in DisputedHand.HomeSeats.values:
        raise ValidationError("Choose which team the file lists first and third.")
    _check_or_raise(record, _ruleset(claim))
    _state_before_from_sheet(record, claim=claim, home_seats=home_seats)
    hand = DisputedHand(
        claim=claim, record=record, home_seats=home_seats, source=DisputedHand.Source.UPLOADED, created_by=by
    )
    hand.full_clean()
    hand._history_user = by  # type: ignore[attr-defined]
    hand.save()
    return disputed_hand_adjudicate(hand=hand, by=by, now=now)


# --- rulings ----------------------------------------------------------------------------------------------


def engine_outcome(*, claim: StrafClaim) -> dict[str, Any] | None:
    """The engine's decision on this claim (a ``strafs`` item of the verdict), or None without a verdict."""
    hand = getattr(claim, "disputed_hand", None)
    if hand is None or not hand.verdict:
        return None
    claimant, accused = claim_seats(hand=hand)
    between = [
        s for s in hand.verdict.get("strafs", []) if s.get("claimant") == claimant and s.get("accused") == accused
    ]
    # the claim's straf; an "af" adjudicated unnamed (SAKBOC 6.7) stays the claim's if the offence is named later
    matching = [s for s in between if s.get("offence") == claim.offence] or [s for s in between if not s.get("offence")]
    return matching[-1] if matching else None


def upheld_offence(*, claim: StrafClaim, outcome: dict[str, Any] | None) -> str:
    """The offence an upheld straf rests on: the one the rules engine upheld the claim on (``matched``: for an
    "af" that named none, the real offence it found at or before the claim, SAKBOC 6.7 and DOMAIN.md
    interpretation 7), else the offence the claim named (the referee's judgement); ``""`` if neither."""
    if outcome is not None and outcome.get("upheld") and outcome.get("matched"):
        return str(outcome["matched"])
    return claim.offence


def byspeler_counting(*, claim: StrafClaim, offence: str) -> bool:
    """True when the claim's punisher is a byspeler and ``offence`` is a counting or going-on offence, which only
    the telman may punish (SAKBOC 6.8, Notes §VII): such a straf is never upheld, with or without a disputed
    hand; it is a wrong straf, and the punisher is punished."""
    return claim.claimant_role == Role.BYSPELER and offence_counting(offence)


BYSPELER_COUNTING_REFUSAL = (
    "SAKBOC 6.8: under no circumstances shall a byspeler punish in connection with counting or going on; only "
    "the telman may punish {offence}. This straf cannot be upheld: rule it rejected (the punisher is punished, "
    "Notes §VII)."
)


def engine_decision_of(outcome: dict[str, Any] | None) -> str:
    """``upheld``, ``rejected`` or ``""`` (no verdict, or the referee's judgement, DOMAIN.md interpretation 5)."""
    if outcome is None or outcome.get("upheld") is None:
        return ""
    return Ruling.Decision.UPHELD if outcome["upheld"] else Ruling.Decision.REJECTED


@transaction.atomic
def ruling_record(
    *,
    claim: StrafClaim,
    decision: str,
    overrule_reason: str = "",
    claimed_points: bool = False,
    note: str = "",
    by,
    now: datetime | None = None,
    expected_version: int | None = None,
) -> Ruling:
    """Record the referee's ruling on a straf claim and put it on the table's boem sheet, in the boem that was
    in progress when "af" was said (``matches.night.boem_sheet``, scored by the rules engine under the union's rules).

    * **Upheld**: the claimant's side punished rightly: a straf for it on the boem sheet, 2 or 4 points
      (SAKBOC 6.2, ``matches.night.boem_sheet.straf_record``). An "af" that named no offence is upheld on the offence
      the rules engine found for it (:func:`upheld_offence`, SAKBOC 6.7); without a disputed hand, or where the
      engine found none, the referee names it first (the ruling cites its rule).
    * **Never upheld**: a byspeler's straf for a counting or going-on offence, which only the telman may punish
      (SAKBOC 6.8, :func:`byspeler_counting`), with or without a disputed hand: rejected, it cites 6.8.
    * **Rejected**: a wrong straf punishes the punisher (Notes §VII): the claimant's straf goes on the sheet
      and is reversed at once (``straf_reverse``), the boem going to the accused side, with another 2
      points when its telman had already claimed points (``claimed_points``, SAKBOC 6.6).

    A ruling may come after time for an "af" said before it (until the result is approved); then the table
    takes goings-on again (``straf_claim_closed``).

    When the disputed hand was adjudicated, a decision other than the engine's is an overrule and needs a
    written ``overrule_reason``. The ruling is final (SAKBOC 1.10): a claim has one ruling. The match row is
    locked first, so the referee and the marker ruling on the same claim at once make one ruling, and the
    other is told the claim already has one.

    :param expected_version: the ``sheet_version`` of the table's boem sheet the referee saw; a sheet changed
        since is refused (code ``stale``).
    :raises ValidationError: a second ruling, an overrule without a reason, an upheld "af" with no offence
        named or found by the engine, a boem sheet changed since ``expected_version``, or whatever the boem sheet
        refuses (its messages cite the clause).
    """
    match_lock(claim.match_id)  # one ruling at a time per match
    if Ruling.objects.filter(claim=claim).exists():
        raise ValidationError("SAKBOC 1.10: the referee's decision is final; this claim already has a ruling.")
    if decision not in Ruling.Decision.values:
        raise ValidationError({"decision": "Choose upheld or rejected."})
    hand = getattr(claim, "disputed_hand", None)
    if hand is not None and hand.status == DisputedHand.Status.ENTERING:
        raise ValidationError("Finish the disputed hand (adjudicate it) before ruling, or rule without it.")
    outcome = engine_outcome(claim=claim)
    engine_decision = engine_decision_of(outcome)
    offence = upheld_offence(claim=claim, outcome=outcome)
    if decision == Ruling.Decision.UPHELD and not offence:
        raise ValidationError({"decision": "Name the offence to uphold this \"af\" on your judgement: the rules "
                                           "engine found no offence for it (the ruling cites its rule)."})
    # SAKBOC 6.8, with or without a hand: the offence the straf would rest on (the engine's, when it found one the
    # byspeler may punish, DOMAIN.md interpretation 7), or the engine's own 6.8 decision
    counting_by_byspeler = byspeler_counting(claim=claim, offence=offence) or (
        outcome is not None and outcome.get("decision") == "byspeler-may-not-punish-counting")
    if decision == Ruling.Decision.UPHELD and counting_by_byspeler:
        raise ValidationError({"decision": BYSPELER_COUNTING_REFUSAL.format(offence=offence or claim.offence)})
    if decision == Ruling.Decision.UPHELD:
        clause = claim.rules if offence == claim.offence else ", ".join(offence_rules(offence))
        punished_side = claim.accused_side
    else:
        clause = "SAKBOC 6.8, Notes §VII" if counting_by_byspeler else "Notes §VII"
        punished_side = claim.claimant_side
    ruling = Ruling(
        claim_id=claim.pk,  # not claim=: an unsaved ruling must not be cached on the claim if this fails
        decision=decision,
        engine_decision=engine_decision,
        overrule_reason=overrule_reason.strip(),
        punished_side=punished_side,
        points=2,  # replaced by the boem sheet's figure below
        clause=clause,
        claimed_points=claimed_points,
        note=note.strip(),
        referee=by,
    )
    ruling.full_clean(exclude=["claim"])  # the overrule reason is checked before anything is written

    match = claim.match
    table_number = claim.table.number
    claimant_player = _seated_player(
        match=match, table_number=table_number, side=claim.claimant_side, role=claim.claimant_role
    )
    summary = f"{(offence if decision == Ruling.Decision.UPHELD else claim.offence) or 'af'} ({clause})"
    straf = boem_sheet.straf_record(
        match=match, table_number=table_number, team=_team(match, claim.claimant_side),
        claimed_by=claimant_player, note=f"Ruling: straf for {summary}", by=by, at=claim.logged_at, now=now,
        expected_version=expected_version, going_on=_going_on_off_the_sheet(claim, hand),
        going_on_reason=f"gone on in the disputed hand of the straf for {summary}",
    )
    entry = straf
    if decision == Ruling.Decision.REJECTED:
        entry = boem_sheet.straf_reverse(
            entry=straf, claimed_points=claimed_points, note=f"Ruling: wrong straf ({clause})", by=by, now=now
        )
    boem_sheet.straf_claim_closed(match=match, table_number=table_number)
    ruling.points = entry.points
    ruling.boem_entry = entry
    ruling.full_clean()
    ruling._history_user = by  # type: ignore[attr-defined]
    ruling.save()
    _notify_ruling(ruling.pk)  # into the outbox, in this transaction
    return ruling


@transaction.atomic
def ruling_amend(*, ruling: Ruling, reason: str, by, now: datetime | None = None) -> Ruling:
    """Reverse a ruling on appeal (issue 22): the union's appeals committee found the referee's decision wrong.
    The decision flips and the table's boem sheet follows through the same boem-sheet services as the night:

    * **Upheld → rejected**: the straf was wrong; the punisher is punished instead (Notes §VII): the straf is
      reversed (``matches.night.boem_sheet.straf_reverse``, the points of SAKBOC 6.2).
    * **Rejected → upheld**: the straf was right after all: the reversal is struck off
      (``matches.night.boem_sheet.straf_reversal_strike``) and the straf stands (SAKBOC 6.2).

    The ruling keeps its engine verdict; a new decision that differs from it carries the committee's ``reason``
    as its overrule reason when the referee had written none. History keeps every step (who, when, why). The
    caller reopens an approved result first (``matches.results.services.result_reopen``): an approved sheet is not
    changed.

    :raises ValidationError: no reason; a byspeler's straf for a counting offence upheld (SAKBOC 6.8); whatever
        the boem sheet refuses (the result approved, a line already reversed), naming its clause.
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": "Say why the ruling is amended on appeal."})
    match_lock(ruling.claim.match_id)
    ruling = (Ruling.objects.select_for_update(of=("self",))
              .select_related("claim__table", "claim__match", "boem_entry").get(pk=ruling.pk))
    claim = ruling.claim
    note = f"Appeal upheld: {reason}"
    if ruling.decision == Ruling.Decision.UPHELD:
        assert ruling.boem_entry is not None  # an upheld ruling wrote the straf's line
        entry = boem_sheet.straf_reverse(entry=ruling.boem_entry, claimed_points=False, note=note[:300], by=by,
                                         now=now)
        ruling.decision, ruling.punished_side, ruling.clause = (
            Ruling.Decision.REJECTED, claim.claimant_side, "Notes §VII")
    else:
        offence = upheld_offence(claim=claim, outcome=engine_outcome(claim=claim))
        if byspeler_counting(claim=claim, offence=offence):
            raise ValidationError({"reason": BYSPELER_COUNTING_REFUSAL.format(offence=offence)})
        reversal = ruling.boem_entry
        assert reversal is not None  # a rejected ruling wrote the reversal of the straf's line
        boem_sheet.straf_reversal_strike(entry=reversal, reason=note, by=by, now=now)
        assert reversal.reverses is not None
        entry = reversal.reverses
        entry.refresh_from_db()
        ruling.decision, ruling.punished_side = Ruling.Decision.UPHELD, claim.accused_side
        ruling.clause = claim.rules or (", ".join(offence_rules(offence)) if offence else "SAKBOC 6.2")
    ruling.boem_entry, ruling.points = entry, entry.points
    if ruling.overruled and not ruling.overrule_reason:
        ruling.overrule_reason = f"Amended on appeal: {reason}"
    ruling.full_clean()
    ruling._history_user = by  # type: ignore[attr-defined]
    ruling._change_reason = f"amended on appeal: {reason}"[:100]  # type: ignore[attr-defined]
    ruling.save()
    return ruling


def _going_on_off_the_sheet(claim: StrafClaim, hand: DisputedHand | None) -> tuple[Any, int] | None:
    """The disputed hand's going-on when the table had not written it before "af" (it takes none after it):
    ``(team, strokes)`` for the ruling to write before its straf, so the sheet counts it as the verdict does."""
    if hand is None or not hand.verdict:
        return None
    going_on = _hand_going_on(hand.record, hand.home_seats)
    if going_on is None:
        return None
    _strokes, on_sheet = boem_sheet.hand_start(table=claim.table, match=claim.match, at=claim.logged_at,
                                               going_on=going_on)
    return None if on_sheet else (_team(claim.match, going_on[0]), going_on[1])


def _notify_ruling(ruling_id: int) -> None:
    """Tell both captains about a ruling (:func:`matches.notifications.ruling_notify`, issue 6)."""
    ruling = Ruling.objects.select_related("claim__match", "claim__table").get(pk=ruling_id)
    match = ruling.claim.match
    ruling_notify(
        ruling_id=ruling.pk,
        match_id=match.pk,
        team_ids=[match.home_id, match.away_id],
        summary=(
            f"Table {ruling.claim.table.number}: straf for {ruling.claim.offence or 'af'} "
            f"{ruling.get_decision_display().lower()} ({ruling.clause})."
        ),
    )


# --- queries (SAKBOC 1.10) --------------------------------------------------------------------------------


@transaction.atomic
def query_note(
    *,
    match: Match,
    raised_by_side: str,
    raised_by: str,
    text: str,
    table_number: int | None = None,
    ruling: Ruling | None = None,
    by,
) -> Query:
    """Note a query on the score-sheet: the referee's decision is final, but queries can be noted (SAKBOC 1.10).

    :raises ValidationError: empty text, a table or ruling not of this match.
    """
    table = None
    if table_number is not None:
        table = MatchTable.objects.filter(match=match, number=table_number).first()
        if table is None:
            raise ValidationError({"table_number": f"Table {table_number} is not a table of this match."})
    if ruling is not None and ruling.claim.match_id != match.pk:
        raise ValidationError({"ruling": "That ruling is not of this match."})
    query = Query(
        match=match, table=table, ruling=ruling, raised_by_side=raised_by_side, raised_by=raised_by.strip(),
        text=text.strip(), noted_by=by,
    )
    query.full_clean()
    query._history_user = by  # type: ignore[attr-defined]
    query.save()
    return query

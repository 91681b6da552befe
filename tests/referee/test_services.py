"""Referee services: straf claims, disputed hands checked by the engine, rulings on the boem sheet, queries."""

import json
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from matches.models import Boem, BoemEntry
from referee import services
from referee.models import DisputedHand, Query, Ruling, StrafClaim
from tests.factories import MatchFactory, UserFactory
from tests.referee.conftest import CLEAN_TRICK, REVOKE_HANDS, REVOKE_TRICK, revoke_record

pytestmark = pytest.mark.django_db


def _claim(match, referee, **overrides):
    fields = dict(table_number=2, claimant_side="home", claimant_role="telman", accused_role="telman",
                  offence="versak", moment="trick 1, second card")
    fields.update(overrides)
    return services.straf_claim_log(match=match, by=referee, **fields)


def _entered_hand(claim, referee, plays=REVOKE_TRICK):
    hand = services.disputed_hand_start(claim=claim, by=referee)
    services.disputed_hand_deal_set(hand=hand, dealer=3, hands=REVOKE_HANDS, trump_card="7C", cut=12,
                                    deal_pattern="3-3-2", by=referee)
    for seat, card in plays:
        services.disputed_hand_event_add(hand=hand, event={"type": "play", "seat": seat, "card": card}, by=referee)
    return hand


def test_claim_is_logged_with_the_rule_and_the_half(match_night, referee):
    claim = _claim(match_night, referee)
    assert claim.table.number == 2 and claim.half == 1
    assert claim.rules == "SAKBOC 3.3, Notes §VII"
    assert claim.accused_side == "away" and claim.is_open
    assert claim.history.first().history_user == referee


def test_no_claim_before_play_starts(referee):
    match = MatchFactory(referee=referee)
    with pytest.raises(ValidationError, match="SAKBOC 1.9"):
        _claim(match, referee)
    assert not StrafClaim.objects.exists()


def test_unknown_offence_is_refused(match_night, referee):
    with pytest.raises(ValidationError, match="not an offence"):
        _claim(match_night, referee, offence="cheating")


def test_hand_start_seats_the_table_from_the_team_sheets(match_night, referee):
    claim = _claim(match_night, referee)
    hand = services.disputed_hand_start(claim=claim, by=referee)
    seats = hand.record["seats"]
    home_telman = match_night.team_sheets.get(team=match_night.home).seats.get(table_number=2, role="telman").player
    assert seats[0]["name"] == f"{home_telman.first_name} {home_telman.last_name}"
    assert [s["role"] for s in seats] == ["telman", "telman", "byspeler", "byspeler"]
    assert services.claim_seats(hand=hand) == (0, 1)


def test_a_bad_deal_is_refused_with_where(match_night, referee):
    hand = services.disputed_hand_start(claim=_claim(match_night, referee), by=referee)
    bad = [list(h) for h in REVOKE_HANDS]
    bad[2] = bad[2][:7]
    with pytest.raises(ValidationError) as caught:
        services.disputed_hand_deal_set(hand=hand, dealer=3, hands=bad, trump_card="7C", by=referee)
    assert "hands[2]: 7 cards, expected 8" in caught.value.messages
    hand.refresh_from_db()
    assert hand.record["hands"] == [[], [], [], []]  # nothing half-saved


def test_revoke_is_flagged_when_entered_and_impossible_cards_refused(match_night, referee):
    hand = _entered_hand(_claim(match_night, referee), referee, plays=REVOKE_TRICK[:1])
    check = services.disputed_hand_event_add(hand=hand, event={"type": "play", "seat": 1, "card": "7D"}, by=referee)
    assert check.last_flag.offence == "versak" and "SAKBOC 3.3" in check.last_flag.rule
    with pytest.raises(ValidationError, match="not in seat 2's hand"):
        services.disputed_hand_event_add(hand=hand, event={"type": "play", "seat": 2, "card": "KS"}, by=referee)
    hand.refresh_from_db()
    assert len(hand.record["events"]) == 2
    check = services.disputed_hand_event_undo(hand=hand, by=referee)
    assert check.flags == () and len(hand.record["events"]) == 1


def test_adjudication_adds_the_claims_straf_and_stores_the_verdict(match_night, referee):
    claim = _claim(match_night, referee)
    hand = services.disputed_hand_adjudicate(hand=_entered_hand(claim, referee), by=referee)
    assert hand.status == DisputedHand.Status.ADJUDICATED
    assert hand.record["events"][-1] == {"type": "straf", "claimant": 0, "accused": 1, "offence": "versak"}
    outcome = services.engine_outcome(claim=claim)
    assert outcome["upheld"] is True and services.engine_decision_of(outcome) == "upheld"
    with pytest.raises(ValidationError, match="adjudicated"):
        services.disputed_hand_event_add(hand=hand, event={"type": "play", "seat": 0, "card": "QS"}, by=referee)


def test_upheld_ruling_puts_the_straf_on_the_boem_sheet(match_night, referee):
    claim = _claim(match_night, referee)
    services.disputed_hand_adjudicate(hand=_entered_hand(claim, referee), by=referee)
    ruling = services.ruling_record(claim=claim, decision="upheld", by=referee)
    assert ruling.points == 2 and ruling.clause == "SAKBOC 3.3, Notes §VII" and not ruling.overruled
    assert ruling.punished_side == "away"
    entry = ruling.boem_entry
    assert entry.kind == BoemEntry.Kind.STRAF and entry.team == match_night.home and entry.points == 2
    boem = Boem.objects.get(table__match=match_night, table__number=2)
    assert boem.status == Boem.Status.STRAFFED and boem.winner == match_night.home
    match_night.refresh_from_db()
    assert (match_night.home_score, match_night.away_score) == (2, 0)
    with pytest.raises(ValidationError, match="SAKBOC 1.10"):
        services.ruling_record(claim=claim, decision="rejected", overrule_reason="x", by=referee)


def test_overruling_the_engine_needs_a_written_reason(match_night, referee):
    claim = _claim(match_night, referee)
    services.disputed_hand_adjudicate(hand=_entered_hand(claim, referee), by=referee)
    with pytest.raises(ValidationError, match="reason for overruling"):
        services.ruling_record(claim=claim, decision="rejected", by=referee)
    assert not Ruling.objects.exists() and not BoemEntry.objects.exists()  # nothing half-saved
    ruling = services.ruling_record(claim=claim, decision="rejected", overrule_reason="The 7D was a misdeal card.",
                                    claimed_points=True, by=referee)
    assert ruling.overruled and ruling.engine_decision == "upheld"
    assert ruling.punished_side == "home" and ruling.clause == "Notes §VII"
    assert ruling.boem_entry.kind == BoemEntry.Kind.STRAF_REVERSED and ruling.boem_entry.team == match_night.away
    assert ruling.points == 4  # 2 for the straf (SAKBOC 6.2) + 2 because points had been claimed (6.6)
    match_night.refresh_from_db()
    assert (match_night.home_score, match_night.away_score) == (0, 4)


def test_wrong_straf_found_by_the_engine(match_night, referee):
    claim = _claim(match_night, referee)
    services.disputed_hand_adjudicate(hand=_entered_hand(claim, referee, plays=[(0, "AS"), (1, "KS")]), by=referee)
    assert services.engine_decision_of(services.engine_outcome(claim=claim)) == "rejected"
    ruling = services.ruling_record(claim=claim, decision="rejected", by=referee)
    assert not ruling.overruled and ruling.boem_entry.team == match_night.away


def test_referee_judgement_offence_is_ruled_without_a_hand(match_night, referee):
    claim = _claim(match_night, referee, offence="signs", claimant_role="byspeler", accused_role="byspeler")
    assert claim.rules.startswith("SAKBOC 1.16")
    ruling = services.ruling_record(claim=claim, decision="upheld", by=referee)
    assert ruling.engine_decision == "" and ruling.clause == claim.rules


def test_a_ruling_waits_for_a_hand_being_entered(match_night, referee):
    claim = _claim(match_night, referee)
    _entered_hand(claim, referee)
    with pytest.raises(ValidationError, match="Finish the disputed hand"):
        services.ruling_record(claim=claim, decision="upheld", by=referee)


def test_upload_adjudicates_and_rejects_bad_json(match_night, referee):
    claim = _claim(match_night, referee)
    with pytest.raises(ValidationError, match="not JSON"):
        services.disputed_hand_upload(claim=claim, data=b"{not json", by=referee)
    record = revoke_record(straf=False)
    hand = services.disputed_hand_upload(claim=claim, data=json.dumps(record), by=referee)
    assert hand.source == DisputedHand.Source.UPLOADED and hand.verdict["strafs"][0]["upheld"] is True


def test_ruling_history_is_kept(match_night, referee):
    claim = _claim(match_night, referee, offence="signs")
    ruling = services.ruling_record(claim=claim, decision="upheld", by=referee)
    ruling.note = "Spoke to both captains."
    ruling.save()
    assert [h.history_type for h in ruling.history.order_by("history_date")] == ["+", "~"]
    assert ruling.history.earliest("history_date").history_user == referee


def test_query_is_noted_on_the_score_sheet(match_night, referee):
    query = services.query_note(match=match_night, raised_by_side="away", raised_by="Away captain",
                                text="We query the straf at table 2.", table_number=2, by=referee)
    assert query.table.number == 2 and Query.objects.count() == 1
    with pytest.raises(ValidationError):
        services.query_note(match=match_night, raised_by_side="away", raised_by="X", text="  ", by=referee)
    with pytest.raises(ValidationError, match="not a table"):
        services.query_note(match=match_night, raised_by_side="away", raised_by="X", text="t", table_number=7,
                            by=referee)


def test_a_stopped_table_takes_no_claims(match_night, referee):
    from matches.night import clock as night_clock

    night_clock.table_stop(match=match_night, table_number=3, defaulting_team=match_night.away, note="signs",
                              by=referee, now=match_night.first_half_started_at + timedelta(minutes=5))
    with pytest.raises(ValidationError, match="SAKBOC 12.1"):
        _claim(match_night, referee, table_number=3)


def test_a_ruling_emails_both_captains(match_night, referee, mailoutbox, django_capture_on_commit_callbacks):
    for team, email in ((match_night.home, "home.captain@example.org"), (match_night.away, "away.captain@example.org")):
        captain = team.captain
        captain.user = UserFactory(email=email)
        captain.save(update_fields=["user"])
    claim = _claim(match_night, referee)
    services.disputed_hand_adjudicate(hand=_entered_hand(claim, referee), by=referee)
    with django_capture_on_commit_callbacks(execute=True):
        services.ruling_record(claim=claim, decision="upheld", by=referee)
    recipients = sorted(address for message in mailoutbox for address in message.to)
    assert recipients == ["away.captain@example.org", "home.captain@example.org"]
    assert all("SAKBOC 3.3" in message.body for message in mailoutbox)


# --- SAKBOC 6.8: only the telman punishes counting and going on (issue 34) -----------------------------------


def test_a_byspelers_af_for_a_counting_offence_is_not_upheld_without_a_hand(match_night, referee):
    claim = _claim(match_night, referee, offence="go_on_too_many", claimant_role="byspeler")
    with pytest.raises(ValidationError, match="SAKBOC 6.8"):
        services.ruling_record(claim=claim, decision="upheld", by=referee)
    assert not Ruling.objects.exists() and not BoemEntry.objects.exists()  # nothing half-saved
    ruling = services.ruling_record(claim=claim, decision="rejected", by=referee)
    assert ruling.clause == "SAKBOC 6.8, Notes §VII" and ruling.punished_side == "home"
    assert ruling.boem_entry.kind == BoemEntry.Kind.STRAF_REVERSED and ruling.boem_entry.team == match_night.away


def test_a_byspelers_af_named_a_counting_offence_later_is_not_upheld(match_night, referee):
    claim = _claim(match_night, referee, offence="", claimant_role="byspeler")
    services.straf_claim_offence_name(claim=claim, offence="three_strokes", by=referee)
    with pytest.raises(ValidationError, match="SAKBOC 6.8"):
        services.ruling_record(claim=claim, decision="upheld", by=referee)


def test_a_byspelers_af_for_a_counting_offence_is_not_upheld_over_the_engine(match_night, referee):
    claim = _claim(match_night, referee, offence="go_on_too_many", claimant_role="byspeler")
    services.disputed_hand_adjudicate(hand=_entered_hand(claim, referee, plays=CLEAN_TRICK), by=referee)
    assert services.engine_outcome(claim=claim)["decision"] == "byspeler-may-not-punish-counting"
    with pytest.raises(ValidationError, match="SAKBOC 6.8"):
        services.ruling_record(claim=claim, decision="upheld", overrule_reason="I saw it.", by=referee)
    ruling = services.ruling_record(claim=claim, decision="rejected", by=referee)
    assert ruling.clause == "SAKBOC 6.8, Notes §VII" and not ruling.overruled


def test_a_byspelers_af_upheld_on_an_offence_the_engine_found_stands(match_night, referee):
    """The named offence is a note, not a condition (DOMAIN.md interpretation 7): the engine found a versak,
    which a byspeler may punish, so the straf rests on it and 6.8 does not apply."""
    claim = _claim(match_night, referee, offence="go_on_too_many", claimant_role="byspeler")
    services.disputed_hand_adjudicate(hand=_entered_hand(claim, referee), by=referee)
    ruling = services.ruling_record(claim=claim, decision="upheld", by=referee)
    assert ruling.punished_side == "away" and ruling.clause.startswith("SAKBOC 3.3")


def test_the_telman_may_punish_a_counting_offence(match_night, referee):
    claim = _claim(match_night, referee, offence="go_on_too_many", claimant_role="telman")
    ruling = services.ruling_record(claim=claim, decision="upheld", by=referee)
    assert ruling.punished_side == "away" and ruling.clause == claim.rules


def test_an_appeal_does_not_uphold_a_byspelers_counting_straf(match_night, referee):
    claim = _claim(match_night, referee, offence="go_on_too_many", claimant_role="byspeler")
    ruling = services.ruling_record(claim=claim, decision="rejected", by=referee)
    with pytest.raises(ValidationError, match="SAKBOC 6.8"):
        services.ruling_amend(ruling=ruling, reason="The committee thinks otherwise.", by=referee)
    ruling.refresh_from_db()
    assert ruling.decision == "rejected"

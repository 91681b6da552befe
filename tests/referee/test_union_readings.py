"""DOMAIN.md interpretations 6 and 7 are union settings (SAKBOC 1.12 "units can decide otherwise"): the referee's
adjudication of the same hand follows the union's reading, and a union left alone reads them as DOMAIN.md does.

The hands are the engine's own data-driven cases (``tests/engine/cases/fid_*``), uploaded to the referee console
as a table would bring them: without the straf, which the console adds from the claim.
"""

import json
from pathlib import Path
from typing import get_args

import pytest

from clubs.models import Union
from clubs.rules import union_ruleset
from clubs.services import union_settings_update
from engine.ruleset import SAKBOC_2004, RoemCounts, StrafNamedOffence
from referee import services
from referee.models import Ruling
from tests.factories import UnionFactory

pytestmark = pytest.mark.django_db

CASES = Path(__file__).resolve().parent.parent / "engine" / "cases"
# Seat 3's undertrump (SAKBOC 3.4) claimed by seat 0 as a versak (SAKBOC 6.7, DOMAIN interpretation 7).
UNDERTRUMP_CLAIMED_AS_VERSAK = "fid_13_undertrump_claimed_as_versak_named_is_a_note_6_7.json"
# Seat 3's false twenty; seat 1 goes on 2 counting it (97 + 20); seat 0's unnamed "af" (DOMAIN interpretation 6).
FALSE_TWENTY_THEN_GOING_ON = "fid_08_false_roem_counts_for_going_on_then_punished_6_2.json"


def _hand_without_straf(name: str) -> str:
    record = json.loads((CASES / name).read_text())["record"]
    record["events"] = [e for e in record["events"] if e["type"] != "straf"]
    record.pop("state_before", None)  # the console takes the strokes from the table's sheet
    return json.dumps(record)


def _adjudicate(match, referee, *, case: str, offence: str):
    """Home telman (seat 0) says "af" against the away byspeler (seat 3); the hand is uploaded and adjudicated."""
    claim = services.straf_claim_log(match=match, table_number=1, claimant_side="home", claimant_role="telman",
                                     accused_role="byspeler", offence=offence, by=referee)
    hand = services.disputed_hand_upload(claim=claim, data=_hand_without_straf(case), by=referee)
    return claim, hand


def test_a_new_union_reads_interpretations_6_and_7_as_domain_md():
    union = UnionFactory()
    assert (union.roem_counts, union.straf_named_offence) == ("as-called", "note")
    rules = union_ruleset(union)
    assert (rules.roem_counts, rules.straf_named_offence) == ("as-called", "note")
    assert (rules.roem_counts, rules.straf_named_offence) == (SAKBOC_2004.roem_counts, SAKBOC_2004.straf_named_offence)


def test_the_unions_choices_are_the_engines_readings():
    assert set(Union.RoemCounts.values) == set(get_args(RoemCounts))
    assert set(Union.StrafNamedOffence.values) == set(get_args(StrafNamedOffence))
    union = UnionFactory(roem_counts="as-held", straf_named_offence="must-be-committed")
    rules = union_ruleset(union)
    assert (rules.roem_counts, rules.straf_named_offence) == ("as-held", "must-be-committed")


def test_an_af_naming_the_wrong_offence_is_upheld_by_default_interpretation_7(match_night, referee):
    claim, hand = _adjudicate(match_night, referee, case=UNDERTRUMP_CLAIMED_AS_VERSAK, offence="versak")
    outcome = services.engine_outcome(claim=claim)
    assert outcome["upheld"] is True and outcome["matched"] == "ondertroef"
    assert services.engine_decision_of(outcome) == Ruling.Decision.UPHELD
    assert services.upheld_offence(claim=claim, outcome=outcome) == "ondertroef"


def test_a_union_that_wants_the_named_offence_committed_rejects_it_interpretation_7(match_night, referee):
    union_settings_update(union=match_night.competition.union, straf_named_offence="must-be-committed",
                          reason="DOMAIN interpretation 7: the other reading")
    claim, hand = _adjudicate(match_night, referee, case=UNDERTRUMP_CLAIMED_AS_VERSAK, offence="versak")
    outcome = services.engine_outcome(claim=claim)
    assert outcome["upheld"] is False and outcome["code"] == "straf.named_not_committed"
    assert [f["code"] for f in outcome["findings"]] == ["ondertroef"]  # the reason never calls it a legal card
    assert services.engine_decision_of(outcome) == Ruling.Decision.REJECTED


def test_a_false_roem_counts_as_called_by_default_interpretation_6(match_night, referee):
    claim, hand = _adjudicate(match_night, referee, case=FALSE_TWENTY_THEN_GOING_ON, offence="")
    (going_on,) = hand.verdict["going_on"]
    assert going_on["ok"] is True and going_on["count"] == 117  # 97 + the false twenty, unpunished until the af
    assert "go_on_not_allowed" not in {o["code"] for o in hand.verdict["offences"]}
    assert services.engine_outcome(claim=claim)["matched"] == "false_roem"


def test_a_union_counting_roem_as_held_finds_the_going_on_short_interpretation_6(match_night, referee):
    union_settings_update(union=match_night.competition.union, roem_counts="as-held",
                          reason="DOMAIN interpretation 6: the other reading")
    claim, hand = _adjudicate(match_night, referee, case=FALSE_TWENTY_THEN_GOING_ON, offence="")
    (going_on,) = hand.verdict["going_on"]
    assert going_on["ok"] is False and going_on["count"] == 97
    assert "go_on_not_allowed" in {o["code"] for o in hand.verdict["offences"]}

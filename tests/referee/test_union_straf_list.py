"""Issue 17: the console offers only the offences and deal patterns of the union's ruleset, and an "af" that names
no offence (SAKBOC 6.7) goes to the rules engine as it was said and is decided there (DOMAIN.md interpretation 7)."""

import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from engine.offences import RELATIVES_OFFENCES, offences_for
from engine.ruleset import ROTTERDAM, SAKBOC_2004
from matches.models import Competition
from referee import services
from referee.hand_check import deal_pattern_choices, hand_check, offence_choices, offence_rules
from referee.models import DisputedHand, Ruling, StrafClaim
from tests.referee.conftest import CLEAN_TRICK, REVOKE_HANDS, revoke_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def ref_client(client, referee):
    client.force_login(referee)
    return client


@pytest.fixture
def rotterdam_union(match_night):
    """The match's competition is played under Rotterdam's rules (a ruleset with its own straf list and one deal
    pattern; ``matches.rules.competition_ruleset``)."""
    Competition.objects.filter(pk=match_night.competition_id).update(ruleset=ROTTERDAM.name)
    match_night.competition.ruleset = ROTTERDAM.name


def _options(html: str, name: str) -> list[str]:
    """The option values of the ``<select name=...>`` in ``html``."""
    start = html.index(f'name="{name}"')
    block = html[start:html.index("</select>", start)]
    return [part.split('"', 1)[0] for part in block.split('<option value="')[1:]]


def _upload(client, claim, record):
    upload = io.BytesIO(json.dumps(record).encode())
    upload.name = "hand.json"
    return client.post(reverse("referee:hand_upload", args=[claim.pk]), {"home_seats": "even", "record": upload})


def test_choices_are_the_rulesets_own():
    sakboc = [code for code, _label in offence_choices(SAKBOC_2004)]
    assert sakboc == [o.value for o in offences_for(SAKBOC_2004)]
    assert "ondertroef" in sakboc and "signs" in sakboc
    for not_offered in ("illegal_bid", "illegal_double", "stroke_wrong_side", "points_for_opponents"):
        assert not_offered not in sakboc
    rotterdam = [code for code, _label in offence_choices(ROTTERDAM)]
    assert set(rotterdam) <= {o.value for o in RELATIVES_OFFENCES} and "illegal_bid" in rotterdam
    assert "ondertroef" not in rotterdam
    assert [v for v, _ in deal_pattern_choices(SAKBOC_2004)] == ["", "3-3-2", "3-2-3", "2-3-3", "other"]
    assert [v for v, _ in deal_pattern_choices(ROTTERDAM)] == ["", "3-2-3", "other"]
    assert offence_rules("versak", SAKBOC_2004)[0] == "SAKBOC 3.3"
    with pytest.raises(ValueError, match="illegal_bid"):
        offence_rules("illegal_bid", SAKBOC_2004)


def test_console_offers_the_sakboc_list_of_the_union(ref_client, match_night, referee):
    html = ref_client.get(reverse("referee:claim_new", args=[match_night.pk])).content.decode()
    offered = _options(html, "offence")
    assert offered == ["", *(o.value for o in offences_for(SAKBOC_2004))]
    claim = services.straf_claim_log(match=match_night, table_number=1, claimant_side="home",
                                     claimant_role="telman", accused_role="telman", by=referee)
    services.disputed_hand_start(claim=claim, by=referee)
    html = ref_client.get(reverse("referee:hand_deal", args=[claim.pk])).content.decode()
    assert _options(html, "deal_pattern") == ["", "3-3-2", "3-2-3", "2-3-3", "other"]
    assert "4-4" not in _options(html, "deal_pattern")


def test_console_offers_only_the_offences_and_deal_patterns_of_the_unions_ruleset(
        ref_client, match_night, referee, rotterdam_union):
    html = ref_client.get(reverse("referee:claim_new", args=[match_night.pk])).content.decode()
    assert _options(html, "offence") == ["", *(o.value for o in offences_for(ROTTERDAM))]
    claim = services.straf_claim_log(match=match_night, table_number=1, claimant_side="home",
                                     claimant_role="telman", accused_role="telman", by=referee)
    html = ref_client.get(reverse("referee:claim", args=[claim.pk])).content.decode()
    assert _options(html, "offence") == [o.value for o in offences_for(ROTTERDAM)]
    services.disputed_hand_start(claim=claim, by=referee)
    html = ref_client.get(reverse("referee:hand_deal", args=[claim.pk])).content.decode()
    assert _options(html, "deal_pattern") == ["", "3-2-3", "other"]
    # the service, which the API and the table phones go through too, refuses an offence outside the union's list
    with pytest.raises(ValidationError, match="union's straf list"):
        services.straf_claim_log(match=match_night, table_number=2, claimant_side="home", claimant_role="telman",
                                 accused_role="telman", offence="ondertroef", by=referee)
    with pytest.raises(ValidationError, match="union's straf list"):
        services.straf_claim_offence_name(claim=claim, offence="ondertroef", by=referee)


def test_api_accepts_only_the_unions_offences(client, match_night, referee, rotterdam_union):
    client.force_login(referee)
    url = f"/api/referee/matches/{match_night.pk}/claims/"
    body = {"table": 1, "claimant_side": "home", "claimant_role": "telman", "accused_role": "telman"}
    refused = client.post(url, {**body, "offence": "ondertroef"}, content_type="application/json")
    assert refused.status_code == 400 and "offence" in refused.json()
    assert client.post(url, {**body, "offence": "illegal_bid"}, content_type="application/json").status_code == 201


def test_an_af_naming_no_offence_is_decided_by_the_engine(ref_client, match_night, referee):
    response = ref_client.post(reverse("referee:claim_new", args=[match_night.pk]), {
        "table_number": 1, "claimant_side": "home", "claimant_role": "telman", "accused_role": "telman",
        "offence": "", "moment": "trick 1",
    })
    claim = StrafClaim.objects.get()
    assert response.status_code == 302 and claim.offence == "" and claim.rules == ""
    assert _upload(ref_client, claim, revoke_record(straf=False)).status_code == 302
    hand = DisputedHand.objects.get(claim=claim)
    assert hand.record["events"][-1] == {"type": "straf", "claimant": 0, "accused": 1, "offence": ""}
    (straf,) = hand.verdict["strafs"]
    assert straf["offence"] == "" and straf["upheld"] is True and straf["matched"] == "versak"
    assert services.engine_decision_of(services.engine_outcome(claim=claim)) == Ruling.Decision.UPHELD
    # upheld without naming the offence: the ruling cites the versak the engine found (SAKBOC 3.3)
    response = ref_client.post(reverse("referee:ruling", args=[claim.pk]), {"decision": "upheld"})
    assert response.status_code == 302
    ruling = Ruling.objects.get(claim=claim)
    assert ruling.decision == "upheld" and not ruling.overruled and ruling.clause == "SAKBOC 3.3, Notes §VII"
    assert ruling.points == 2 and ruling.boem_entry.note == "Ruling: straf for versak (SAKBOC 3.3, Notes §VII)"


def test_an_af_where_the_engine_finds_no_offence_is_a_wrong_straf(ref_client, match_night, referee):
    claim = services.straf_claim_log(match=match_night, table_number=1, claimant_side="home",
                                     claimant_role="telman", accused_role="telman", by=referee)
    assert _upload(ref_client, claim, revoke_record(plays=CLEAN_TRICK, straf=False)).status_code == 302
    outcome = services.engine_outcome(claim=claim)
    assert outcome["upheld"] is False and outcome["code"] == "straf.no_offence"
    ruling_url = reverse("referee:ruling", args=[claim.pk])
    refused = ref_client.post(ruling_url, {"decision": "upheld", "overrule_reason": "I saw signs."})
    assert refused.status_code == 400 and "found no offence" in refused.content.decode()
    assert ref_client.post(ruling_url, {"decision": "rejected"}).status_code == 302
    ruling = Ruling.objects.get(claim=claim)
    assert ruling.decision == "rejected" and ruling.punished_side == "home" and not ruling.overruled


def test_naming_the_offence_after_the_verdict_keeps_the_engines_decision(match_night, referee):
    claim = services.straf_claim_log(match=match_night, table_number=1, claimant_side="home",
                                     claimant_role="telman", accused_role="telman", by=referee)
    services.disputed_hand_upload(claim=claim, data=json.dumps(revoke_record(straf=False)), by=referee)
    services.straf_claim_offence_name(claim=claim, offence="signs", by=referee)
    outcome = services.engine_outcome(claim=claim)
    assert outcome is not None and outcome["matched"] == "versak"
    assert services.upheld_offence(claim=claim, outcome=outcome) == "versak"


def test_a_deal_dealt_otherwise_is_recorded_as_typed(ref_client, match_night, referee):
    claim = services.straf_claim_log(match=match_night, table_number=1, claimant_side="home",
                                     claimant_role="telman", accused_role="telman", by=referee)
    hand = services.disputed_hand_start(claim=claim, by=referee)
    url = reverse("referee:hand_deal", args=[claim.pk])
    deal = {"dealer": 3, "cut": 12, "deal_pattern": "other", "trump_card": "7C",
            **{f"hand_{n}": " ".join(REVOKE_HANDS[n]) for n in range(4)}}
    missing = ref_client.post(url, deal)
    assert missing.status_code == 200 and "Type the pattern dealt" in missing.content.decode()
    assert ref_client.post(url, {**deal, "deal_pattern_other": "4 - 4"}).status_code == 302
    hand.refresh_from_db()
    assert hand.record["deal_pattern"] == "4-4"
    check = hand_check(record=hand.record, ruleset=SAKBOC_2004)
    assert [(f.offence, f.rule.split(",")[0]) for f in check.flags] == [("wrong_deal", "SAKBOC 1.7")]
    html = ref_client.get(url).content.decode()
    assert 'value="other" selected' in html and 'value="4-4"' in html

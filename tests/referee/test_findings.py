"""Issue 17, "Messages as codes": the pages say every finding of the engine from its code and params
(``referee.findings``), in the user's language, never with the engine's English; and an offence found that nobody
claimed is kept apart from a claim upheld."""

import json
from pathlib import Path

from django.utils.functional import Promise

from engine.adjudicate import (
    GOING_ON_CODES,
    MESSAGE_CODES,
    NOTE_CODES,
    OFFENCE_MESSAGES,
    OFFENCE_STATUSES,
    STRAF_CODES,
    adjudicate,
)
from engine.offences import Offence
from engine.record import parse_record
from engine.ruleset import ruleset_by_name
from referee import findings
from referee.hand_check import hand_adjudicate
from referee.selectors import verdict_view
from tests.referee.conftest import revoke_record

CASES = Path(__file__).resolve().parents[1] / "engine" / "cases"
GENERIC = "GENERIC"


def _case_verdicts():
    for path in sorted(CASES.glob("*.json")) + sorted(CASES.glob("relatives/*.json")):
        data = json.loads(path.read_text())
        hands = data["hands"] if isinstance(data.get("hands"), list) and "record" in data["hands"][0] else [data]
        for hand in hands:
            try:
                record = parse_record(hand["record"])
            except ValueError:
                continue
            ruleset = ruleset_by_name(record.ruleset).replace(**hand.get("settings", {}))
            yield path.name, adjudicate(record, ruleset).to_dict()


def test_every_code_has_a_translatable_sentence_and_every_offence_a_name():
    for code in (*STRAF_CODES, *GOING_ON_CODES, *NOTE_CODES, *OFFENCE_MESSAGES):
        assert isinstance(findings.TEXTS[code], Promise), code  # marked for translation (gettext_lazy)
    assert set(findings.OFFENCE_NAMES) == {o.value for o in Offence}
    assert set(findings.STATUS_TEXTS) == set(OFFENCE_STATUSES)
    assert set(findings.TEXTS) <= set(MESSAGE_CODES)
    for code in MESSAGE_CODES:  # even without params, every code says something readable
        text = findings.finding_text(code, {"seat": 1})
        assert text and "{" not in text and text != code, code


def test_every_finding_of_every_case_is_said_with_its_own_sentence():
    said = 0
    for name, verdict in _case_verdicts():
        for kind in ("offences", "forfeits"):
            for o in verdict[kind]:
                code, params = o["message"], {"seat": o["seat"], **o["params"]}
                if params.keys() == {"seat"}:  # the relatives' findings (engine.makers) carry nothing more to say
                    relatives = ("amsterdam", "rotterdam", "klammern", "wikipedia-klaverjas")
                    assert name.split("_")[0] in relatives, (name, code)
                    text = findings.finding_text(code, params)
                    assert text == f"seat {o['seat']}: {findings.OFFENCE_NAMES[o['code']]}", (name, code)
                else:
                    text = findings.finding_text(code, params, generic=GENERIC)
                    assert code in findings.TEXTS and text != GENERIC and "{" not in text, (name, code, params)
                said += 1
        for s in verdict["strafs"]:
            params = {**{k: s[k] for k in ("points", "awarded_team", "claimant", "accused")}, **s["params"]}
            if params.get("named") is None and "forfeit" in params:
                params["named"] = params["forfeit"]
            assert findings.finding_text(s["code"], params, generic=GENERIC) != GENERIC, (name, s["code"])
            said += 1
        for kind in ("going_on", "end_check"):
            for g in verdict[kind]:
                text = findings.finding_text(g["code"], {"team": g["team"], **g["params"]}, generic=GENERIC)
                assert text != GENERIC, (name, g["code"], g["params"])
                said += 1
        for n in verdict["note_details"]:
            assert findings.finding_text(n["code"], n["params"], generic=GENERIC) != GENERIC, (name, n["code"])
            said += 1
    assert said > 300


def test_findings_are_said_with_names_cards_and_offences_not_the_engines_english():
    verdict = hand_adjudicate(record=revoke_record())
    (offence,) = verdict["offences"]
    finding = findings.offence_finding(offence, seat_name=lambda s: f"Player {s}", team_name=lambda t: f"Team {t}")
    assert finding.text == ("Player 1 played 7♦ in trick 1 while holding K♠, 8♠, 7♠ of the suit led (spades): "
                            "neither following suit nor trumping")
    assert finding.text != offence["evidence"] and finding.clause == "SAKBOC 3.3" and finding.name == "revoke (versak)"
    (straf,) = verdict["strafs"]
    assert findings.straf_finding(straf, team_name=lambda t: f"Team {t}").text == (
        "Upheld on revoke (versak): 2 points to Team 0")


def test_an_offence_found_that_nobody_claimed_is_kept_apart_from_a_claim_upheld():
    upheld = verdict_view(record=revoke_record(), verdict=hand_adjudicate(record=revoke_record()), home_seats="even")
    assert [o["finding"].status_text for o in upheld["decided"]] == ["a claim was upheld on it"]
    assert upheld["unclaimed"] == []
    unclaimed_record = revoke_record(straf=False)
    unclaimed = verdict_view(record=unclaimed_record, verdict=hand_adjudicate(record=unclaimed_record),
                             home_seats="odd")
    assert unclaimed["decided"] == []
    (o,) = unclaimed["unclaimed"]
    assert o["finding"].status == "unclaimed" and o["finding"].status_text == "found; nobody claimed it"
    assert o["finding"].text.startswith("Away Telman played 7♦ in trick 1")  # by name, no seat number


def test_a_wrong_straf_and_a_late_claim_say_what_the_engine_found():
    case = json.loads((CASES / "fid_13_undertrump_claimed_as_versak_named_is_a_note_6_7.json").read_text())
    verdict = adjudicate(parse_record(case["record"])).to_dict()
    (straf,) = verdict["strafs"]
    text = findings.straf_finding(straf).text
    assert straf["matched"] == "ondertroef" and text.startswith("Upheld on undertrump (ondertroef)")
    late = json.loads((CASES / "fid_19_out_of_turn_claimed_after_close_trick_is_late_4_4.json").read_text())
    verdict = adjudicate(parse_record(late["record"])).to_dict()
    (straf,) = verdict["strafs"]
    assert findings.straf_finding(straf).text.startswith(
        "Wrong straf: playing out of turn (event 1) can no longer be punished")
    wrong = [o for o in verdict["offences"] if o["code"] == "wrong_straf"]
    assert [findings.offence_finding(o).status_text for o in wrong] == ["a wrong straf, decided with its own claim"]


def test_a_wrong_straf_says_why_there_was_no_offence_as_the_command_line_does():
    """Issue 34: one function (``findings.no_offence_reason``) says why, for the outcome and the offence alike."""
    seat = {0: "Ayesha", 1: "Brandon", 2: "Chantal", 3: "Dawood"}.__getitem__
    team = {0: "Athlone Aces", 1: "Bonteheuwel Boere"}.__getitem__
    legal = {"claimant": 0, "accused": 1, "named": "versak", "event_named": 6, "legal_card": "TD"}
    record = {"events": [{}] * 6 + [{"type": "play", "seat": 3, "card": "TD"}]}
    assert findings.no_offence_reason(legal, record=record, seat_name=seat, team_name=team) == (
        "10♦ played by Dawood was a legal card (SAKBOC 3.2–3.4: follow suit or trump, the Boer is never forced, no "
        "undertrump unless holding only trumps); Bonteheuwel Boere committed no other offence that can still be "
        "punished")
    assert findings.no_offence_reason(legal, seat_name=seat, team_name=team).startswith("10♦ played by Brandon")
    named = {"claimant": 0, "accused": 1, "named": "signs"}
    assert findings.no_offence_reason(named, team_name=team) == (
        "Bonteheuwel Boere committed no talking or signs at or before the claim; Bonteheuwel Boere committed no other "
        "offence that can still be punished")
    other = {"claimant": 0, "accused": 1, "named": "versak", "event_named": 6}
    offences = [{"event": 6, "team": 1, "code": "ondertroef"}]
    assert findings.no_offence_reason(other, offences=offences, seat_name=seat, team_name=team).startswith(
        "Brandon committed undertrump (ondertroef) there, not revoke (versak);")
    assert findings.no_offence_reason({"claimant": 0, "accused": 1, "named": None}, team_name=team) == (
        "the record shows no offence by Bonteheuwel Boere at or before the claim")
    assert findings.no_offence_reason({"named": "versak"}) is None  # nothing says whom it accused
    outcome = {"code": "straf.no_offence", "upheld": False, "points": 2, "awarded_team": 1, **legal,
               "params": {**legal, "points": 2, "awarded_team": 1}}
    text = findings.straf_finding(outcome, record=record, seat_name=seat, team_name=team).text
    assert text.startswith("Wrong straf: 10♦ played by Dawood was a legal card") and text.endswith(
        "; 2 points to Bonteheuwel Boere")

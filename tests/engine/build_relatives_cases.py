"""Write the relatives' data-driven cases (issue 9) to ``cases/relatives/*.json``.

Run: ``python tests/engine/build_relatives_cases.py``. Every expectation below is written by hand from the
seeds (002 Rotterdam, 003 Wikipedia, 004 Klammern); the script only fills in the record boilerplate and, for
"auto", plays the rest of a hand taking each seat's first legal card in the listed order. Deals:

* X: seat0 AS KS QS JS 7S AD KD QD / seat1 TS 9S 8S 9H AC KC QC JC / seat2 JH AH 8H TC 9C 8C 7C JD /
  seat3 7H TH KH QH TD 9D 8D 7D (dealer 3, seat 0 leads, hearts trumps, 7H turned where a card is turned);
* Y: seat0 AS KS 7S AD KD QD JD TD / seat1 9H 8H AH TH AC KC QC JC / seat2 QS JS TS 8S 9S 9D 8D 7D /
  seat3 JH 7H KH QH TC 9C 8C 7C;
* F: seat0 holds seven hearts and 7S, the last trick goes to seat 1's AS: 127 to team 0, 35 (25 + 10) to team 1;
* P: seat0 holds all eight hearts (pit: every trick).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.cards import parse_card  # noqa: E402
from engine.play import legal_mask, trick_winner  # noqa: E402
from engine.ruleset import ruleset_by_name  # noqa: E402

DEALS = {
    "X": ["AS KS QS JS 7S AD KD QD", "TS 9S 8S 9H AC KC QC JC", "JH AH 8H TC 9C 8C 7C JD", "7H TH KH QH TD 9D 8D 7D"],
    "Y": ["AS KS 7S AD KD QD JD TD", "9H 8H AH TH AC KC QC JC", "QS JS TS 8S 9S 9D 8D 7D", "JH 7H KH QH TC 9C 8C 7C"],
    "F": ["JH 9H AH TH KH QH 8H 7S", "AD KD QD JD TD 9D 8D AS", "AC KC QC JC TC 9C 8C TS", "7H 7D 7C QS JS 9S 8S KS"],
    "P": ["JH 9H AH TH KH QH 8H 7H", "JD AD KD QD TD 9D 8D 7D", "JC AC KC QC TC 9C 8C 7C", "JS AS KS QS TS 9S 8S 7S"],
}
UPCARD = {"X": "7H", "Y": "7H", "F": "7H", "P": "7S"}
SEATS = [
    {"seat": 0, "name": "Anneke de Vries", "role": "telman"},
    {"seat": 1, "name": "Bram Jansen", "role": "telman"},
    {"seat": 2, "name": "Carla Bakker", "role": "byspeler"},
    {"seat": 3, "name": "Dirk Visser", "role": "byspeler"},
]


def events_of(tokens: str, deal: list[str], ruleset: str) -> list[dict[str, Any]]:
    rs = ruleset_by_name(ruleset)
    hands = [deal[s].split() for s in range(4)]
    out: list[dict[str, Any]] = []
    trump = 1 if rs.trump_choice == "turned-card" else -1
    trick: list[tuple[int, int]] = []
    leader = 0
    played: set[str] = set()
    for tok in tokens.split():
        if tok == "auto":
            while len(played) < 32:
                if len(trick) == 4:
                    leader = trick[trick_winner([c for _, c in trick], trump, rs)][0]
                    trick = []
                seat = (leader + len(trick)) % 4
                held = [c for c in hands[seat] if c not in played]
                mask = sum(1 << parse_card(c) for c in held)
                card = next(c for c in held if legal_mask(mask, [x for _, x in trick], trump, rs) >> parse_card(c) & 1)
                out.append({"type": "play", "seat": seat, "card": card})
                played.add(card)
                trick.append((seat, parse_card(card)))
            continue
        if tok[0] == "b":
            suit = tok[2:]
            out.append({"type": "bid", "seat": int(tok[1]), "suit": "no-trumps" if suit == "NT" else suit})
            trump = 4 if suit == "NT" else "SHDC".index(suit)
        elif tok[0] == "p":
            out.append({"type": "pass", "seat": int(tok[1])})
        elif tok[0] == "d":
            out.append({"type": "double", "seat": int(tok[1])})
        elif tok[0] == "m":
            out.append({"type": "march", "seat": int(tok[1])})
        elif tok[0] == "r":
            calls = tok[3:].split(",")
            out.append({"type": "roem", "seat": int(tok[1]), "call": calls[0] if len(calls) == 1 else calls})
        elif tok[0] == "s":
            a, off = tok[1:].split(":")
            c, acc = a.split(">")
            out.append({"type": "straf", "claimant": int(c), "accused": int(acc), "offence": off})
        else:
            seat, card = tok.split(":")
            if len(trick) == 4:
                leader = trick[trick_winner([c for _, c in trick], trump, rs)][0]
                trick = []
            out.append({"type": "play", "seat": int(seat), "card": card})
            played.add(card)
            trick.append((int(seat), parse_card(card)))
    return out


def case(
    ruleset: str,
    slug: str,
    title: str,
    rules: list[str],
    deal: str,
    tokens: str,
    expect: dict[str, Any],
    state: dict[str, Any] | None = None,
) -> tuple[str, dict[str, Any]]:
    rs = ruleset_by_name(ruleset)
    rec: dict[str, Any] = {
        "format": "klawerjas-hand",
        "version": 1,
        "ruleset": ruleset,
        "seats": SEATS,
        "dealer": 3,
        "cut": 7,
        "deal_pattern": "3-2-3",
        "hands": [DEALS[deal][s].split() for s in range(4)],
        "events": events_of(tokens, DEALS[deal], ruleset),
    }
    if rs.upcard or rs.trump_choice == "turned-card":
        rec["trump_card"] = UPCARD[deal]
    if state:
        rec["state_before"] = state
    return f"{ruleset}_{slug}", {"title": title, "rules": rules, "record": rec, "expect": expect}


def off(code: str, seat: int, event: int | None) -> dict[str, Any]:
    return {"code": code, "seat": seat, "event": event}


def res(**kw: Any) -> dict[str, Any]:
    return {"result": kw}


CASES: list[tuple[str, dict[str, Any]]] = []
PLAY = {
    "rotterdam": "Rotterdam §Play",
    "amsterdam": "Amsterdam (issue 9)",
    "wikipedia-klaverjas": "Wikipedia §Rules 1-3",
    "klammern": "Klammern §Play",
}
REVOKE = {
    "rotterdam": "Rotterdam §Reneging",
    "amsterdam": "Rotterdam §Reneging",
    "wikipedia-klaverjas": "Wikipedia §Rules 1-3",
    "klammern": "Klammern §Revoking",
}
SCORING = {
    "rotterdam": "Rotterdam §Scoring",
    "amsterdam": "Rotterdam §Scoring",
    "wikipedia-klaverjas": "Wikipedia §Playing the game (Bait)",
    "klammern": "Klammern §Scoring",
}

for g in ("rotterdam", "amsterdam", "wikipedia-klaverjas", "klammern"):
    amst, klam = g == "amsterdam", g == "klammern"
    pr = [PLAY[g]]
    CASES.append(
        case(
            g,
            "play_01_trump_instead_of_following",
            "Trumping while holding the suit led is a revoke (legal in SAKBOC 3.3)",
            pr + ["SAKBOC 3.3"],
            "X",
            "b0H 0:7S 1:9H",
            {"clean": False, "offences": [off("versak", 1, 2)]},
        )
    )
    CASES.append(
        case(
            g,
            "play_02_void_partner_winning_discard",
            "Void in spades, holding trumps, discarding while the "
            "partner's AS wins: " + ("legal in Amsterdam" if amst else "a revoke (must trump)"),
            pr,
            "X",
            "b0H 0:AS 1:8S 2:TC",
            {"clean": amst, "offences": [] if amst else [off("versak", 2, 3)]},
        )
    )
    CASES.append(
        case(
            g,
            "play_03_undertrump_when_able_to_overtrump",
            "An opponent trumped with 8H; seat 3 holds TH KH QH and plays 7H: must overtrump",
            pr,
            "X",
            "b0H 0:7S 1:8S 2:8H 3:7H",
            {"clean": False, "offences": [off("versak", 3, 4)]},
        )
    )
    CASES.append(
        case(
            g,
            "play_04_cannot_overtrump_discards",
            "Unable to beat the opponent's AH, seat 3 discards TD: "
            + ("Klammern allows undertrump or discard" if klam else "a revoke (must trump even under)"),
            pr,
            "X",
            "b0H 0:7S 1:TS 2:AH 3:TD",
            {"clean": klam, "offences": [] if klam else [off("versak", 3, 4)]},
        )
    )
    CASES.append(
        case(
            g,
            "play_05_not_overtrumping_partner",
            "Partner seat 1 trumped with 9H; seat 3 plays 7H holding "
            "JH: " + ("legal in Amsterdam (partner winning)" if amst else "must overtrump even the partner"),
            pr,
            "Y",
            "b0H 0:7S 1:9H 2:8S 3:7H",
            {"clean": amst, "offences": [] if amst else [off("versak", 3, 4)]},
        )
    )
    CASES.append(
        case(
            g,
            "play_06_discard_over_partners_trump",
            "Partner seat 1 trumped with 9H; seat 3 discards TC "
            "holding trumps: " + ("legal in Amsterdam" if amst else "a revoke"),
            pr,
            "Y",
            "b0H 0:7S 1:9H 2:8S 3:TC",
            {"clean": amst, "offences": [] if amst else [off("versak", 3, 4)]},
        )
    )
    CASES.append(
        case(
            g,
            "play_07_overtrump_clean",
            "Seat 3 overtrumps the partner's 9H with JH: clean; 0+14+0+20 = 34 to seat 3",
            pr,
            "Y",
            "b0H 0:7S 1:9H 2:8S 3:JH",
            {"clean": True, "tricks": [{"winner": 3, "points": 34}]},
        )
    )
    if g == "klammern":
        CASES.append(
            case(
                g,
                "revoke_01_deal_ends_as_it_stands",
                "Revoke claimed at once: the deal ends with no trick "
                "taken, the makers lack the points: the defenders win the deal, 2 small points",
                [REVOKE[g]],
                "X",
                "b0H 0:7S 1:9H s0>1:versak",
                {
                    "offences": [off("versak", 1, 2)],
                    "strafs": [{"upheld": True, "offence_event": 2}],
                    **res(made=False, small_points=[0, 2], card_points=[0, 0], finished=True),
                },
            )
        )
        CASES.append(
            case(
                g,
                "revoke_02_wrong_claim_dismissed",
                "A revoke claimed where the card was legal: dismissed (the seed states no penalty)",
                [REVOKE[g]],
                "Y",
                "b0H 0:7S 1:9H 2:8S 3:JH s0>3:versak",
                {
                    "offences": [off("wrong_straf", 0, 5)],
                    "strafs": [{"upheld": False, "points": 0}],
                    **res(finished=False, made=None),
                },
            )
        )
    else:
        total = 262 if g != "wikipedia-klaverjas" else 162
        CASES.append(
            case(
                g,
                "revoke_01_upheld_opponents_take_all",
                f"Revoke proved: the other side scores {total}",
                [REVOKE[g]],
                "X",
                "b0H 0:7S 1:9H s0>1:versak",
                {
                    "offences": [off("versak", 1, 2)],
                    "strafs": [{"upheld": True, "awarded_team": 0, "points": total}],
                    **res(points=[total, 0], finished=True),
                },
            )
        )
        CASES.append(
            case(
                g,
                "revoke_02_not_proved_accused_take_all",
                f"Revoke claimed but not proved: the accused side scores {total} ('Hence you have to be sure!')",
                [REVOKE[g]],
                "Y",
                "b0H 0:7S 1:9H 2:8S 3:JH s0>3:versak",
                {
                    "offences": [off("wrong_straf", 0, 5)],
                    "strafs": [{"upheld": False, "awarded_team": 1, "points": total}],
                    **res(points=[0, total]),
                },
            )
        )
    small_made = [1, 0] if klam else [0, 0]
    mp = {"match_points": [13, 4]} if klam else {}
    CASES.append(
        case(
            g,
            "score_01_made",
            "Makers (team 0) take 127 of 162 (35 = AS TS KS 7S + 10 for the last trick "
            "to team 1): each side scores its own",
            [SCORING[g]],
            "F",
            "b0H auto",
            {
                "clean": True,
                "complete": True,
                **res(made=True, points=[127, 35], card_points=[127, 35], small_points=small_made, **mp),
            },
        )
    )
    CASES.append(
        case(
            g,
            "score_02_nat",
            "Team 1 made trumps and took 35: nat/beet/bait, team 0 scores all 162",
            [SCORING[g]],
            "F",
            "p0 b1H auto",
            {
                "clean": True,
                **res(
                    made=False,
                    points=[162, 0],
                    small_points=[2, 0] if klam else [0, 0],
                    **({"match_points": [16, 0]} if klam else {}),
                ),
            },
        )
    )

# --- Rotterdam and Amsterdam: pit, roem in the trick, bidding, the 16-hand game
for g in ("rotterdam", "amsterdam"):
    CASES.append(
        case(
            g,
            "score_03_pit",
            "Team 0 takes every trick: pit/mars, 162 + 100",
            ["Rotterdam §Bonus Points"],
            "P",
            "b0H auto",
            {"clean": True, **res(made=True, pit_team=0, points=[262, 0], roem=[100, 0])},
        )
    )
    CASES.append(
        case(
            g,
            "bid_01_out_of_turn",
            "Seat 1 bids before forehand (seat 0): illegal; seat 0 then bids",
            ["Rotterdam §The Deal"],
            "X",
            "b1H b0H 0:7S",
            {"offences": [off("illegal_bid", 1, 0)], "result": {"maker": 0}},
        )
    )
    CASES.append(
        case(
            g,
            "bid_02_all_pass_dealer_chooses",
            "All pass: the dealer (seat 3) HAS to make trump",
            ["Rotterdam §The Deal"],
            "X",
            "p0 p1 p2 p3 b3S 0:7S",
            {"clean": True, "trump": "S", "result": {"maker": 3, "makers_team": 1}},
        )
    )
    CASES.append(
        case(
            g,
            "game_01_sixteen_hands",
            "The 16th hand of a boom: the game ends, team 1 ahead",
            ["Rotterdam §The Object of the Game"],
            "F",
            "b0H auto",
            {**res(hands_played=16, scores_after=[1027, 1035], game_over=True, game_winner=1)},
            state={"scores": [900, 1000], "hands_played": 15},
        )
    )
CASES.append(
    case(
        "rotterdam",
        "roem_01_four_jacks_in_a_trick",
        "Four jacks in the first trick, claimed by the winners: 200, plus pit 100 and 162",
        ["Rotterdam §Bonus Points"],
        "P",
        "b0H 0:JH 1:JD 2:JC 3:JS r0:four-jacks auto",
        {"clean": True, **res(roem=[300, 0], points=[462, 0])},
    )
)
CASES.append(
    case(
        "rotterdam",
        "roem_02_claimed_by_the_losers",
        "Roem must be claimed by the side that wins the trick",
        ["Rotterdam §Bonus Points"],
        "P",
        "b0H 0:JH 1:JD 2:JC 3:JS r1:four-jacks",
        {"offences": [off("false_roem", 1, 5)]},
    )
)
CASES.append(
    case(
        "rotterdam",
        "roem_03_not_in_the_trick",
        "A twenty claimed where the trick holds none",
        ["Rotterdam §Bonus Points"],
        "X",
        "b0H 0:7S 1:8S 2:8H 3:TH r3:twenty",
        {"offences": [off("false_roem", 3, 5)], "tricks": [{"winner": 3, "points": 10}]},
    )
)
CASES.append(
    case(
        "rotterdam",
        "bid_03_all_pass_forehand_may_not",
        "All pass: only the dealer may make trump",
        ["Rotterdam §The Deal"],
        "X",
        "p0 p1 p2 p3 b0S b3S",
        {"offences": [off("illegal_bid", 0, 4)], "result": {"maker": 3}},
    )
)

# --- Wikipedia: two rounds from the turned card, no trumps, declared melds, 1001
w = "wikipedia-klaverjas"
CASES.append(
    case(
        w,
        "bid_01_round_one_only_turned_suit",
        "Round 1 offers only the turned card's suit (7H): spades is illegal",
        ["Wikipedia §Playing the game"],
        "X",
        "b0S p0",
        {"offences": [off("illegal_bid", 0, 0)]},
    )
)
CASES.append(
    case(
        w,
        "bid_02_no_trumps_second_round",
        "Round 2: no trumps; every suit ranks A 10 K Q J 9 8 7, AS wins 11+10+2+0",
        ["Wikipedia §Playing the game", "Wikipedia §Rules 4"],
        "X",
        "p0 p1 p2 p3 bNT 0:AS 1:TS 2:JH 3:7H".replace("bNT", "b0NT"),
        {"clean": True, "trump": "no-trumps", "tricks": [{"winner": 0, "points": 23}]},
    )
)
CASES.append(
    case(
        w,
        "bid_03_no_trumps_not_in_round_one",
        "No trumps may be named only in the second round",
        ["Wikipedia §Playing the game"],
        "X",
        "b0NT",
        {"offences": [off("illegal_bid", 0, 0)]},
    )
)
CASES.append(
    case(
        w,
        "bid_04_twice_passed_forehand_must_take",
        "All pass twice: forehand (seat 0) must take; diamonds",
        ["Wikipedia §Playing the game"],
        "X",
        "p0 p1 p2 p3 p0 p1 p2 p3 b0D 0:7S",
        {"clean": True, "trump": "D", "result": {"maker": 0}},
    )
)
CASES.append(
    case(
        w,
        "bid_05_twice_passed_dealer_may_not",
        "All pass twice: the dealer may not take for forehand",
        ["Wikipedia §Playing the game"],
        "X",
        "p0 p1 p2 p3 p0 p1 p2 p3 b3D",
        {"offences": [off("illegal_bid", 3, 8)]},
    )
)
CASES.append(
    case(
        w,
        "meld_01_declared_with_first_card",
        "Seat 0 declares a fifty (AS-JS) and a twenty (AD-QD): 70",
        ["Wikipedia §Rules 4"],
        "X",
        "b0H 0:7S r0:fifty,twenty",
        {"clean": True, "teams": [{"roem": 70}, {"roem": 0}]},
    )
)
CASES.append(
    case(
        w,
        "meld_02_not_held",
        "Seat 1 declares four aces without them",
        ["Wikipedia §Rules 4"],
        "X",
        "b0H 0:7S 1:8S r1:four-aces",
        {"offences": [off("false_roem", 1, 3)]},
    )
)
CASES.append(
    case(
        w,
        "meld_03_stuk",
        "Stuk (KH QH) announced with the first of them played: 20",
        ["Wikipedia §Rules 4"],
        "X",
        "b0H 0:7S 1:8S 2:8H 3:KH r3:sturk",
        {"clean": True, "teams": [{"roem": 0}, {"roem": 20}]},
    )
)
CASES.append(
    case(
        w,
        "game_01_1001",
        "Team 0 passes 1001: the set is won",
        ["Wikipedia §Playing the game"],
        "F",
        "b0H auto",
        {**res(scores_after=[1027, 35], game_over=True, game_winner=0)},
        state={"scores": [900, 0]},
    )
)
CASES.append(
    case(
        w,
        "score_03_pit_no_bonus",
        "Every trick to team 0: the seed gives no pit bonus, 162",
        ["Wikipedia §Rules 4"],
        "P",
        "p0 p1 p2 p3 b0H auto",
        {**res(pit_team=0, points=[162, 0], roem=[0, 0])},
    )
)

# --- Klammern: Kleines/Besser, throw-in, Contra/Re, first-trick melds by height, Bella
k = "klammern"
CASES.append(
    case(
        k,
        "bid_01_besser_makes_clubs",
        "Kleines (spades) by forehand, Besser by seat 1: clubs are trumps",
        ["Klammern §Deal and trumps"],
        "X",
        "p0 p1 p2 p3 b0S b1C 0:7S",
        {"clean": True, "trump": "C", "result": {"maker": 1}},
    )
)
CASES.append(
    case(
        k,
        "bid_02_kleines_not_the_turned_suit",
        "A Kleines in the rejected upcard's suit (hearts) is not offered",
        ["Klammern §Deal and trumps", "Klammern §Rule variations"],
        "X",
        "p0 p1 p2 p3 b0H",
        {"offences": [off("illegal_bid", 0, 4)]},
    )
)
CASES.append(
    case(
        k,
        "bid_03_all_reject_thrown_in",
        "All reject the upcard and the Kleines: thrown in, the same dealer redeals",
        ["Klammern §Deal and trumps"],
        "X",
        "p0 p1 p2 p3 p0 p1 p2 p3",
        {"clean": True, **res(thrown_in=True, next_dealer=3)},
    )
)
CASES.append(
    case(
        k,
        "double_01_contra",
        "Contra by a defender (seat 0) doubles the small points: the makers (team 1) lose, team 0 gets 2 x 2",
        ["Klammern §First trick", "Klammern §Scoring"],
        "F",
        "p0 b1H d0 auto",
        {"clean": True, **res(made=False, multiplier=2, small_points=[4, 0])},
    )
)
CASES.append(
    case(
        k,
        "double_02_contra_re",
        "Contra then Re: 8",
        ["Klammern §First trick"],
        "F",
        "p0 b1H d0 d1 auto",
        {"clean": True, **res(multiplier=4, small_points=[8, 0])},
    )
)
CASES.append(
    case(
        k,
        "double_03_maker_first",
        "A maker may not say Contra",
        ["Klammern §First trick"],
        "F",
        "b0H d0 0:JH",
        {"offences": [off("illegal_double", 0, 1)]},
    )
)
CASES.append(
    case(
        k,
        "meld_01_equal_fifties_first_wins",
        "Two ace-high Fifties, neither in trumps: the first declared wins; team 0 scores its Fifty and Terz (70)",
        ["Klammern §First trick"],
        "X",
        "b0H 0:7S r0:fifty,twenty 1:8S r1:fifty 2:8H 3:TH",
        {"clean": True, "teams": [{"roem": 70}, {"roem": 0}]},
    )
)
CASES.append(
    case(
        k,
        "meld_02_equal_fifties_trump_wins",
        "Clubs trumps: seat 1's ace-high Fifty in trumps beats seat 0's in spades; only team 1 scores (50)",
        ["Klammern §First trick"],
        "X",
        "p0 p1 p2 p3 b0C 0:7S r0:fifty,twenty 1:8S r1:fifty 2:7C 3:TH",
        {"clean": True, "teams": [{"roem": 0}, {"roem": 50}]},
    )
)
CASES.append(
    case(
        k,
        "meld_03_fifty_beats_terz_by_height",
        "Seat 3's ten-high Fifty (diamonds) beats seat 0's ace-high Terz (diamonds): a Fifty is always higher",
        ["Klammern §First trick"],
        "X",
        "b0H 0:7S r0:twenty 1:8S 2:8H 3:TH r3:fifty",
        {"clean": True, "teams": [{"roem": 0}, {"roem": 50}]},
    )
)
CASES.append(
    case(
        k,
        "meld_04_late_forfeited",
        "A Fifty declared after the second trick began is forfeited",
        ["Klammern §First trick"],
        "X",
        "b0H 0:7S 1:8S 2:8H 3:TH 3:TD r0:fifty",
        {"clean": True, "teams": [{"roem": 0}, {"roem": 0}]},
    )
)
CASES.append(
    case(
        k,
        "meld_05_bella",
        "Bella announced with the first of KH/QH: 20",
        ["Klammern §Bella"],
        "X",
        "b0H 0:7S 1:8S 2:8H 3:KH r3:sturk",
        {"clean": True, "teams": [{"roem": 0}, {"roem": 20}]},
    )
)

# --- the same deal X under SAKBOC: both plays that the relatives call revokes are legal (SAKBOC 3.3)
CASES.append(
    case(
        "sakboc-2004",
        "contrast_01_trump_instead_of_following",
        "Deal X under SAKBOC: trumping while holding spades is legal (a revoke in every relative)",
        ["SAKBOC 3.3"],
        "X",
        "0:7S 1:9H",
        {"clean": True},
    )
)
CASES.append(
    case(
        "sakboc-2004",
        "contrast_02_no_duty_to_trump",
        "Deal X under SAKBOC: void, no duty to trump",
        ["SAKBOC 3.3"],
        "X",
        "0:AS 1:8S 2:TC",
        {"clean": True},
    )
)

# --- Klammern §March (Durchmarsch): announced before the first card; wins or loses the whole match.
# Refused records expect {"error": <a substring of the HandRecordError>} instead of a verdict.
MARCH = ["Klammern §March"]
CASES.append(
    case(
        k,
        "march_01_made_wins_match_from_behind",
        "Seat 0 announces a march and team 0 takes every trick: it wins the whole match outright though 45 "
        "match points to 0 behind (16 for the hand leaves it 16:45)",
        MARCH + ["Klammern §Scoring"],
        "P",
        "m0 p0 p1 p2 p3 b0H p1 p2 p3 auto",
        {
            "clean": True,
            "complete": True,
            **res(
                made=True,
                pit_team=0,
                points=[162, 0],
                scores_after=[16, 45],
                march_seat=0,
                march_team=0,
                march_made=True,
                march_failed_trick=None,
                match_over=True,
                match_winner_team=0,
                game_over=True,
                game_winner=0,
            ),
        },
        state={"scores": [0, 45], "hands_played": 6},
    )
)
CASES.append(
    case(
        k,
        "march_02_fails_at_trick_3",
        "Seat 0 announces a march; team 0 takes tricks 1 and 2, seat 1's AS takes trick 3: the match is over "
        "at trick 3 and team 1 wins it, though team 0 led 40:10",
        MARCH,
        "F",
        "m0 b0H 0:JH 1:AD 2:AC 3:7H 0:9H 1:KD 2:KC 3:7D 0:7S 1:AS 2:TS 3:KS auto",
        {
            "clean": True,
            "tricks": [{"winner": 0}, {"winner": 0}, {"winner": 1}],
            **res(
                march_seat=0,
                march_team=0,
                march_made=False,
                march_failed_trick=3,
                match_over=True,
                match_winner_team=1,
                game_over=True,
                game_winner=1,
            ),
        },
        state={"scores": [40, 10], "hands_played": 5},
    )
)
CASES.append(
    case(
        k,
        "march_03_after_first_card_refused",
        "A march announced after the first card is refused: it is announced before the deal starts",
        MARCH,
        "F",
        "b0H 0:JH m0 1:AD",
        {
            "error": "a march event after play began: a march is announced before the deal starts, so before the "
            "first card (Klammern §March)"
        },
    )
)
CASES.append(
    case(
        k,
        "march_04_unannounced_every_trick",
        "Team 0 takes every trick without announcing a march: an ordinary made hand (the seed gives no bonus "
        "for it; only an announced march wins the match)",
        MARCH + ["Klammern §Scoring"],
        "P",
        "p0 p1 p2 p3 b0H auto",
        {
            "clean": True,
            **res(
                made=True,
                pit_team=0,
                points=[162, 0],
                roem=[0, 0],
                small_points=[1, 0],
                match_points=[16, 0],
                march_seat=None,
                march_made=None,
                match_over=False,
                match_winner_team=None,
                game_over=False,
            ),
        },
    )
)
CASES.append(
    case(
        k,
        "march_05_second_march_refused",
        "Only one march a hand: a second announcement is refused",
        MARCH,
        "F",
        "m0 m1 b0H 0:JH",
        {"error": "a second march event (events[0] announced one; Klammern §March)"},
    )
)
CASES.append(
    case(
        "rotterdam",
        "march_01_refused",
        "Rotterdam has no march announcement (its pit is a 100 bonus): the record is refused",
        MARCH + ["Rotterdam §Bonus Points"],
        "P",
        "m0 b0H 0:JH",
        {"error": "ruleset 'rotterdam' has no march announcement (a march is Klammern's, Klammern §March)"},
    )
)
CASES.append(
    case(
        "sakboc-2004",
        "contrast_03_march_refused",
        "SAKBOC has no march announcement: the record is refused",
        MARCH,
        "X",
        "m0 0:7S",
        {"error": "ruleset 'sakboc-2004' has no march announcement (a march is Klammern's, Klammern §March)"},
    )
)

if __name__ == "__main__":
    out = Path(__file__).parent / "cases" / "relatives"
    out.mkdir(exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()
    for name, data in CASES:
        (out / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"{len(CASES)} cases written to {out}")

"""The engine's hand-record problems in plain words, for the referee.

The engine (``engine.record``) reports a malformed hand record as ``"<where>: <what>"`` with a path into the
JSON document (``"hands[2][3]: 'XX' is not a card"``, ``"events[7].card: KD is not in seat 2's hand (seat 1
holds it)"``). That is right for a library and its API, and wrong for a referee at a match night: this module
rewrites each problem with the players' and teams' names and says how to put it right, e.g.
``"Card 4 of Anna Jacobs's hand, 'XX', is not a card; write it like 'JH' for the Jack of hearts …"``.
A problem it does not recognise keeps its words, with every path, seat and team number replaced by names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from referee.hand_check import card_label

__all__ = ["problem_in_words", "problems_in_words", "record_names", "record_problems_in_words", "text_with_names"]

HOW_TO_WRITE = ("write it like 'JH' for the Jack of hearts (the rank A K Q J T 9 8 7, T for the 10, then the "
                "suit S, H, D or C)")

_FIELDS = {
    "cut": "The cut", "deal_pattern": "The deal pattern", "dealer": "The dealer", "trump_card": "The trump card",
    "format": "The file", "version": "The file's version", "ruleset": "The rules named in the file",
    "seats": "The list of players", "hands": "The hands", "events": "The play", "state_before": "The state before "
    "the hand", "(document)": "The file",
}
_EVENT_FIELDS = {"card": "the card", "seat": "the player", "call": "the roem called", "asked": "the player asked",
                 "top": "the top card", "strokes": "the strokes", "type": "the kind of entry", "claimant": "who "
                 "said “af”", "accused": "who is accused", "offence": "the offence", "points": "the points",
                 "count": "the count", "suit": "the suit", "for": "whom the points are for", "part": "the part",
                 "note": "the note", "event": "the entry it is about", "answer": "the answer"}


def _card(token: str) -> str:
    return card_label(token) if re.fullmatch(r"[AKQJT987][SHDC]", token) else f"'{token}'"


def text_with_names(text: str, seats: Mapping[int, str], teams: Mapping[int, str]) -> str:
    """Replace seat, team and path words in ``text`` (an engine's problem, evidence or reason) by names, and
    card names by what people read (``KS`` -> ``K♠``)."""
    def team(match: re.Match[str]) -> str:
        return teams.get(int(match.group(1)), "a team")

    text = re.sub(r"\b[Tt]eam (\d) \(seats \d (?:and|&|&amp;) \d\)", team, text)
    text = re.sub(r"\bteams 0 and 1\b", f"{teams.get(0, 'one team')} and {teams.get(1, 'the other')}", text)
    text = re.sub(r"\[team 0, team 1\]", f"[{teams.get(0, 'one team')}, {teams.get(1, 'the other')}]", text)
    text = re.sub(r"\bteam (\d)\b", team, text)
    text = re.sub(r"\bseat (\d)'s\b", lambda m: f"{seats.get(int(m.group(1)), 'a player')}'s", text)
    text = re.sub(r"\b[Ss]eat (\d)\b", lambda m: seats.get(int(m.group(1)), "a player"), text)
    text = re.sub(r"\(0\.\.3\)", "", text)
    text = re.sub(r"\bevents\[(\d+)\]", lambda m: f"entry {int(m.group(1)) + 1} of the play", text)
    text = re.sub(r"\bhands\[(\d)\]\[(\d+)\]",
                  lambda m: f"card {int(m.group(2)) + 1} of {seats.get(int(m.group(1)), 'a player')}'s hand", text)
    text = re.sub(r"\b([AKQJT987][SHDC])\b", lambda m: card_label(m.group(1)), text)
    return re.sub(r"\s{2,}", " ", text).strip()


def problem_in_words(problem: str, *, seats: Mapping[int, str], teams: Mapping[int, str]) -> str:
    """One engine problem as a sentence for the referee.

    :param seats: ``{seat: "Player name"}`` for the record's seats 0..3.
    :param teams: ``{0: "team name", 1: "team name"}``: the record's team 0 sits in seats 0 and 2.
    """
    where, sep, what = problem.partition(": ")
    if not sep or " " in where:  # a sentence already (the service's own words), not "<path>: <what>"
        return _sentence(text_with_names(problem, seats, teams))
    who = lambda i: seats.get(int(i), "a player")  # noqa: E731

    if m := re.fullmatch(r"hands\[(\d)\]\[(\d+)\]", where):
        player, index = who(m.group(1)), int(m.group(2)) + 1
        if n := re.fullmatch(r"'(.*)' is not a card", what):
            return f"Card {index} of {player}'s hand, '{n.group(1)}', is not a card; {HOW_TO_WRITE}."
        if n := re.fullmatch(r"(\w\w) is dealt twice \(also at hands\[(\d)\]\[(\d+)\]\)", what):
            return (f"Card {index} of {player}'s hand, {_card(n.group(1))}, is dealt twice: it is also card "
                    f"{int(n.group(3)) + 1} of {who(n.group(2))}'s hand. Each card is dealt once.")
        return _sentence(f"Card {index} of {player}'s hand: {text_with_names(what, seats, teams)}")
    if m := re.fullmatch(r"hands\[(\d)\]", where):
        if n := re.fullmatch(r"(\d+) cards, expected 8", what):
            return f"{who(m.group(1))}'s hand has {n.group(1)} cards: each player is dealt 8 (SAKBOC 1.7)."
        return _sentence(f"{who(m.group(1))}'s hand: {text_with_names(what, seats, teams)}")
    if where == "trump_card":
        if n := re.fullmatch(r"'(.*)' is not a card", what):
            return f"The trump card, '{n.group(1)}', is not a card; {HOW_TO_WRITE}."
        if n := re.fullmatch(r"(\w\w) is not in the dealer's hand \(seat (\d)\)", what):
            return (f"The trump card, {_card(n.group(1))}, is not in the dealer's hand ({who(n.group(2))} deals): "
                    "the dealer's last card is turned up for trump.")
    if where == "(document)":
        return _sentence("The file is not a hand record: " + re.sub(r"^not JSON: ", "it is not JSON (", what)
                         + (")" if what.startswith("not JSON: ") else ""))
    if where == "format":
        return "The file is not a klawerjas-league hand record (its format says " + what.split(",")[0] + ")."
    if m := re.fullmatch(r"events\[(\d+)\](?:\.(\w+))?(?:\[(\d+)\])?", where):
        field = f" ({_EVENT_FIELDS.get(m.group(2), m.group(2))})" if m.group(2) else ""
        return _sentence(f"Entry {int(m.group(1)) + 1} of the play{field}: {text_with_names(what, seats, teams)}")
    if m := re.fullmatch(r"seats\[(\d+)\](?:\.(\w+))?", where):
        return _sentence(f"Player {int(m.group(1)) + 1} in the file's list of players"
                         + (f" ({m.group(2)})" if m.group(2) else "") + f": {text_with_names(what, seats, teams)}")
    head = where.split(".")[0].split("[")[0]
    label = _FIELDS.get(head, where.replace("_", " ").capitalize())
    if "." in where and head == "state_before":
        label = f"The state before the hand ({where.split('.', 1)[1].replace('_', ' ')})"
    return _sentence(f"{label}: {text_with_names(what, seats, teams)}")


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def problems_in_words(problems: Iterable[str], *, seats: Mapping[int, str], teams: Mapping[int, str]) -> list[str]:
    """Every problem in plain words (see :func:`problem_in_words`), in the engine's order."""
    return [problem_in_words(str(p), seats=seats, teams=teams) for p in problems]


def record_names(*, record: Any, home_seats: str, match: Any) -> tuple[dict[int, str], dict[int, str]]:
    """``({seat: player name}, {record team: team name})`` for a hand record, even a malformed one: its seats'
    names where it gives them, else the team and role (``home_seats``: the record seats of ``match``'s home
    team, ``even`` = 0 and 2)."""
    from referee.selectors import seat_name_map, team_names  # the selectors import the engine bridge too

    record = record if isinstance(record, dict) else {}
    seats = record.get("seats") if isinstance(record.get("seats"), list) else []
    names = seat_name_map(record={"seats": seats}, home_seats=home_seats, match=match)
    sides = team_names(match)
    home_first = home_seats != "odd"
    teams = {0: sides["home" if home_first else "away"], 1: sides["away" if home_first else "home"]}
    return names, teams


def record_problems_in_words(problems: Iterable[str], *, record: Any, home_seats: str, match: Any) -> list[str]:
    """A hand record's problems in plain words, named from the record and the match (:func:`record_names`)."""
    seats, teams = record_names(record=record, home_seats=home_seats, match=match)
    return problems_in_words(problems, seats=seats, teams=teams)

"""The rules engine's findings said for people, in the user's language (issue 17, "Messages as codes").

The engine (``engine.adjudicate``) gives every finding a stable code from its catalogue
(``engine.adjudicate.MESSAGE_CODES``), plain ``params`` and its clauses; its English ``evidence``/``reason``/``text``
is for the command line. Here each code has one translatable sentence (``gettext``), filled in with the params
made readable: seats by the player's name, teams by the side, cards as ``10♦``, roem calls, offences by name.
A finding whose params do not fit its sentence (a relative's game that gives fewer) falls back to the sentence
for its offence or decision, never to the engine's English.

Offences keep apart **how they were decided** (``status``): a claim upheld on it, found but claimed by nobody,
claimed too late, a wrong straf decided with its own claim, a forfeit (SAKBOC 6.3, 6.4, 7.1).

Nothing here touches the database.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from referee.hand_check import card_label

__all__ = [
    "OFFENCE_NAMES",
    "STATUS_TEXTS",
    "TEXTS",
    "Finding",
    "finding_text",
    "going_on_finding",
    "no_offence_reason",
    "note_finding",
    "offence_finding",
    "straf_finding",
]

OFFENCE_NAMES: dict[str, Any] = {
    "versak": _("revoke (versak)"),
    "ondertroef": _("undertrump (ondertroef)"),
    "out_of_turn": _("playing out of turn"),
    "wrong_cut": _("a wrong cut"),
    "wrong_deal": _("a wrong deal"),
    "false_roem": _("a false roem"),
    "roem_not_with_first_card": _("roem not with the first card"),
    "sturk_wrong_time": _("sturk at the wrong time"),
    "overroem_not_higher": _("an overroem that does not outrank"),
    "overroem_without_sizing": _("an overroem without sizing"),
    "illegal_sizing": _("sizing when not allowed"),
    "wrong_size_answer": _("a wrong answer to sizing"),
    "outright_roem_then_played": _("playing after a good outright roem"),
    "good_enough_wrongly": _("“good enough?” asked wrongly"),
    "go_on_not_allowed": _("going on when not allowed"),
    "go_on_too_many": _("going on by too many strokes"),
    "three_strokes": _("pulling on 3 strokes"),
    "byspeler_punishes_counting": _("a byspeler punishing a counting offence"),
    "wrong_straf": _("a wrong straf"),
    "illegal_bid": _("an illegal bid"),
    "illegal_double": _("an illegal double"),
    "signs": _("talking or signs"),
    "slacking": _("slacking cards"),
    "tapping": _("failing to play in time"),
    "flipped_cards": _("flipped cards"),
    "played_closed": _("playing on a card played closed"),
    "more_than_one_card": _("playing more than one card"),
    "played_before_trick_closed": _("playing before the trick was closed"),
    "trump_card_picked_up": _("picking up the trump card too early"),
    "wrong_roemte_cards": _("opening wrong roemte cards"),
    "overcalled_roemte_not_cancelled": _("not cancelling an overcalled roemte"),
    "wrong_roem_term": _("a wrong roem term"),
    "information_sought": _("seeking information"),
    "wrong_score_given": _("a wrong score given"),
    "wrong_points_claimed": _("claiming other than 2 or 4 points"),
    "boem_cleaned": _("cleaning the boem too early"),
    "stroke_between_lines": _("a stroke between the lines"),
    "opponents_trick_picked_up": _("picking up the opponents' trick"),
    "telman_changed": _("changing the telman"),
    "unnecessary_knocking": _("unnecessary knocking"),
    "points_without_af": _("claiming points without “af”"),
    "boem_not_erased": _("a completed boem not erased"),
    "roemte_not_closed": _("roemte not closed in time"),
    "sturk_cancelled": _("cancelling sturk"),
    "roem_combination_demanded": _("demanding a roem combination"),
    "tricks_out_of_order": _("tricks out of order"),
    "first_trick_not_closed": _("the first trick not closed in time"),
    "opponents_trick_seen": _("looking at the opponents' trick"),
    "discards_not_surrendered": _("not surrendering the discards"),
    "stroke_wrong_side": _("a stroke on the wrong side of the boem"),
    "points_for_opponents": _("points called for the opponents"),
    "points_for_non_playing_team": _("points called for a team not playing"),
}
"""Every :class:`engine.offences.Offence` by a short name people read."""

_GOING_ON = {
    "going_on.counts": _("{team} counts {count} ({target} needed); the opponents count {opponents_count}: "
                         "{allowed} stroke(s)"),
    "going_on.outright": _("{team}'s {outright} goes on {allowed} stroke(s) outright"),
    "going_on.outright_not_good": _("{team}'s {outright} is not good"),
    "going_on.short": _("{team} counts {count}, short of {target}"),
    "going_on.sturk_before_trick": _("{team} counts {count_with_sturk} only with sturk, which in old play counts "
                                     "only after a trick"),
    "going_on.old_play_trick_first": _("{team} counts {count}, but in old play a trick must be picked up first"),
    "going_on.two_fifties_need_trick": _("{team} counts {count}, but after two fifties a trick must be picked up "
                                         "first"),
    "going_on.telman_played_before_roem": _("{team} counts {count}, but in old play the telman played before "
                                            "roeming, so a trick must be picked up first"),
    "going_on.roemte_not_shown_good": _("{team} counts {count}, but the roemte was not shown good"),
    "going_on.not_in_ruleset": _("{team}: there is no going on in {ruleset}"),
}

TEXTS: dict[str, Any] = {
    # offences, and their variants ("<offence>.<variant>")
    "versak": _("{seat} played {card} in trick {trick} while holding {held_led} of the suit led ({led}): "
                "neither following suit nor trumping"),
    "ondertroef": _("{seat} undertrumped with {card} in trick {trick} while holding other cards"),
    "out_of_turn": _("{seat} played {card} in trick {trick} when {due} was due to play"),
    "wrong_cut": _("{dealer}, the dealer, cut {cut} card(s); at least {least} and at most {most} must be cut"),
    "wrong_deal": _("{dealer}, the dealer, dealt {pattern}; only {allowed} may be dealt"),
    "false_roem": _("{seat} roemed {call} but holds no {not_held}"),
    "false_roem.sturk": _("{seat} roemed sturk without the King and Queen of trumps"),
    "roem_not_with_first_card.before_card": _("{seat} roemed {call} before playing a card (card first, then roem)"),
    "roem_not_with_first_card.after_first_round": _("{seat} roemed {call} in trick {trick}; roem other than sturk "
                                                    "is called in the first round only"),
    "sturk_wrong_time": _("{seat} roemed sturk other than with the first of {king} and {queen} played"),
    "overroem_not_higher": _("{seat}'s {call} does not outrank {standing_seat}'s {standing_call} as called; the "
                             "first stands"),
    "overroem_not_higher.lower_value": _("{seat}'s {call} as called is of lower value than {standing_seat}'s "
                                         "{standing_call}; the first stands"),
    "overroem_without_sizing": _("{seat} overroemed {standing_seat}'s roemte of equal value without sizing it "
                                 "first"),
    "illegal_sizing.no_roemte_standing": _("{seat} sized {asked}, who has no roemte standing"),
    "illegal_sizing.trump_ace_high": _("{seat} sized while holding a trump-ace-high roemte (one must simply "
                                       "overroem)"),
    "illegal_sizing.after_highest": _("{seat} sized {asked}'s roemte after the highest roemte was given"),
    "illegal_sizing.higher_value": _("{seat} holds {holds}, of higher value than {standing_call} as called: one "
                                     "must not size but simply overroem"),
    "illegal_sizing.nothing_to_overroem": _("{seat} holds no roemte that could overroem {standing_call} as called"),
    "wrong_size_answer": _("{seat} answered {answered}, but the highest card of the roemte is {top}"),
    "outright_roem_then_played": _("{seat} roemed {call} and then played {card} instead of going on"),
    "good_enough_wrongly.short": _("{seat} asked “good enough?”, but {team} counts {count} with its roemte, short "
                                   "of {target}"),
    "good_enough_wrongly.sturk_before_trick": _("{seat} asked “good enough?”, but {team} counts {count} only with "
                                                "sturk, which in old play counts only after a trick"),
    "good_enough_wrongly.already_played": _("{seat} asked “good enough?” of {asked}, who had already played"),
    "good_enough_wrongly.last_player": _("{seat} asked “good enough?” of {asked}, who had already played"),
    "go_on_too_many": _("{seat} went on {strokes} stroke(s), allowed {allowed}"),
    "three_strokes": _("{seat} pulled on {strokes} strokes (at most {most})"),
    "byspeler_punishes_counting": _("{seat}, a byspeler, punished {offence}, a counting offence only the telman "
                                    "may punish"),
    "wrong_straf.no_offence": _("{seat} punished {offence} wrongly: the other side committed no offence that can "
                                "still be punished"),
    "wrong_straf.late": _("{seat} punished {offence} ({offence_event}) too late: it can no longer be punished"),
    "wrong_straf.not_punishable": _("{seat} punished {offence}, which is not punishable"),
    "wrong_straf.named_not_committed": _("{seat} punished {offence}, which was not committed (the named offence "
                                         "must be the one committed)"),
    "played_before_trick_closed": _("{seat} played {card} before trick {trick} was closed"),
    "slacking": _("{seat} threw in {cards} unplayed card(s) while play went on"),
    "wrong_score_given": _("{seat} called the score {called}; the count is {count}"),
    "wrong_points_claimed": _("{seat} claimed {points} point(s); only {allowed} may be claimed, and they are "
                              "disallowed"),
    "points_without_af": _("{seat} claimed {points} points for a side that neither said “af” nor completed the "
                           "boem"),
    "boem_cleaned.before_boem_completed": _("{seat} cleaned {part} of the side's strokes before the boem was "
                                            "completed"),
    "boem_cleaned.before_points_called": _("{seat} cleaned {part} of the side's strokes before points were called: "
                                           "{straf_points} points to the opponents"),
    "opponents_trick_picked_up": _("{seat} picked up and closed trick {trick}, which {winner} of the other side "
                                   "won"),
    "boem_not_erased": _("{team}'s strokes of the completed boem were still up when the hand was dealt; {seat} "
                         "had not erased them"),
    # forfeits: not punished (SAKBOC 6.3, 6.4, 7.1)
    "stroke_wrong_side": _("{seat} drew {strokes} stroke(s) on the opponents' side of the boem: they go to "
                           "{to_team}, not punished"),
    "points_for_opponents": _("{seat} called {points} points for the opponents: the points and the cards go to "
                              "{to_team}"),
    "points_for_non_playing_team": _("{seat} called {points} points for a team not playing: no points either "
                                     "side; {team} keeps the cards"),
    # straf outcomes
    "straf.upheld": _("Upheld on {matched}: {points} points to {awarded_team}"),
    "straf.upheld_over_punishing": _("Upheld on {matched} (over-punishing): the points were awarded with the "
                                     "decision on that claim"),
    "straf.no_offence": _("Wrong straf: {accused}'s side committed no offence at or before the claim that can "
                          "still be punished; {points} points to {awarded_team}"),
    "straf.late": _("Wrong straf: {matched} ({offence_event}) can no longer be punished; {points} points to "
                    "{awarded_team}"),
    "straf.named_not_committed": _("Wrong straf: {named} was not committed, and the named offence must be the one "
                                   "committed (the record shows {found}); {points} points to {awarded_team}"),
    "straf.not_punishable": _("Wrong straf: {named} is not punishable; {points} points to {awarded_team}"),
    "straf.byspeler_counting": _("Wrong straf: a byspeler may not punish {offence}, a counting offence; {points} "
                                 "points to {awarded_team}"),
    "straf.referee_judgement": _("The referee's judgement: a hand record cannot show {named}"),
    "straf.after_hand_ended": _("Not decided: the claim came after the hand ended"),
    # notes
    "note.false_roem_counted": _("{seat}'s false {call} counts as called ({points}) until it is punished"),
    "note.false_roem_not_counted": _("{seat}'s false {call} stands as called against later roem but counts "
                                     "nothing"),
    "note.strokes_forfeit": _("Went on {strokes} of {allowed} stroke(s) allowed; the rest are forfeit, not "
                              "punished"),
    "note.wrong_score_accepted": _("{seat} accepted the wrong score called at {score_event}; it can no longer be "
                                   "punished"),
    "note.event_ignored": _("A {type} event has no meaning in {ruleset}; it is ignored"),
    "note.claim_after_hand_ended": _("A claim after the hand ended ({event}) is not decided"),
    "note.first_trick_melds": _("First-trick melds: {seat}'s {melds} is the highest; {team} scores its melds"),
    "note.meld_forfeited": _("{seat}'s {call} was declared after the second trick began: forfeited"),
    **_GOING_ON,
    **{
        "go_on_not_allowed." + code.removeprefix("going_on."): _("{seat} went on {strokes} stroke(s), not allowed: "
                                                                  "{reason}")
        for code in _GOING_ON
        if code not in ("going_on.counts", "going_on.outright", "going_on.not_in_ruleset")
    },
}
"""One sentence per code of ``engine.adjudicate.MESSAGE_CODES`` that has params to say (the others take the
generic sentence of their offence or decision)."""

_WHY_NO_OFFENCE = {
    "legal_card": _("{card} played by {player} was a legal card (SAKBOC 3.2–3.4: follow suit or trump, the Boer is "
                    "never forced, no undertrump unless holding only trumps)"),
    "other_offence": _("{player} committed {found} there, not {named}"),
    "named": _("{accused_side} committed no {named} at or before the claim"),
    "none": _("the record shows no offence by {accused_side} at or before the claim"),
}
_NO_OTHER_OFFENCE = _("{why}; {accused_side} committed no other offence that can still be punished")
_WITH_WHY = {
    "straf.no_offence": _("Wrong straf: {why}; {points} points to {awarded_team}"),
    "wrong_straf.no_offence": _("{seat} punished {offence} wrongly: {why}; the punisher is punished"),
}
"""The sentences of a wrong straf that say why there was no offence (:func:`no_offence_reason`), as the command line
(``manage.py adjudicate``) does; a finding without what that needs falls back to its sentence in :data:`TEXTS`."""

_GENERIC_OFFENCE = _("{seat}: {offence_name}")
_GENERIC_STRAF = {
    True: _("Upheld: {points} points to {awarded_team}"),
    False: _("Wrong straf: the punisher is punished; {points} points to {awarded_team}"),
    None: _("The referee's judgement"),
}

STATUS_TEXTS: dict[str, Any] = {
    "punished": _("a claim was upheld on it"),
    "unclaimed": _("found; nobody claimed it"),
    "claimed-late": _("claimed too late"),
    "decided-with-claim": _("a wrong straf, decided with its own claim"),
    "forfeit": _("a forfeit, not punished"),
}
"""How an offence was decided (``engine.adjudicate.OFFENCE_STATUSES``): "a claim upheld on it" is never the same as
"found, nobody claimed it" (issue 17)."""

_SUITS = {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}
_SEAT_KEYS = {"seat", "asked", "standing_seat", "due", "winner", "claimant", "accused", "dealer"}
_TEAM_KEYS = {"team", "to_team", "from_team", "awarded_team", "punished_team"}
_CARD_KEYS = {"card", "king", "queen", "legal_card"}
_CALL_KEYS = {"call", "standing_call", "holds", "not_held", "melds", "outright"}
_OFFENCE_KEYS = {"offence", "matched", "named", "forfeit", "found"}
_EVENT_KEYS = {"event", "offence_event", "roem_event", "standing_event", "closed_at", "accepted_at", "score_event"}
_RANK_KEYS = {"top", "answered", "standing_top"}


@dataclass(frozen=True)
class Finding:
    """A finding for a page: its code, the sentence, its clauses, and (an offence's) how it was decided and its name."""

    code: str
    text: str
    rules: tuple[str, ...]
    status: str = ""
    status_text: str = ""
    name: str = ""

    @property
    def clause(self) -> str:
        """The most specific rule citation (``"SAKBOC 3.3"``)."""
        return self.rules[0] if self.rules else ""

    @property
    def rules_text(self) -> str:
        """The clauses joined (``"SAKBOC 3.3, Notes §VII"``)."""
        return ", ".join(self.rules)


class SayNames(TypedDict, total=False):
    """How a finding names the record's seats and teams (``finding_text``'s ``seat_name`` and ``team_name``)."""

    seat_name: Callable[[int], str]
    team_name: Callable[[int], str]


def _default_seat(seat: int) -> str:
    return gettext("seat %(seat)s") % {"seat": seat}


def _default_team(team: int) -> str:
    return gettext("team %(team)s") % {"team": team}


def _joined(values: list[str]) -> str:
    return ", ".join(values)


def _offence_name(code: Any) -> str:
    if code is None or code == "":
        return "“af”"
    return str(OFFENCE_NAMES.get(str(code), str(code)))


def _readable(key: str, value: Any, seat_name: Callable[[int], str], team_name: Callable[[int], str]) -> str:
    """One param made readable for the sentence."""
    if value is None:
        return _offence_name(None) if key in _OFFENCE_KEYS else "—"
    if key in _SEAT_KEYS:
        return _joined([seat_name(int(s)) for s in value]) if isinstance(value, list) else seat_name(int(value))
    if key in _TEAM_KEYS:
        return team_name(int(value))
    if key in _CARD_KEYS:
        return card_label(str(value))
    if key == "held_led":
        return _joined([card_label(str(c)) for c in value]) or "—"
    if key in _CALL_KEYS:
        return "-".join(str(c) for c in value) if isinstance(value, list) else str(value)
    if key in _OFFENCE_KEYS:
        return _joined([_offence_name(c) for c in value]) if isinstance(value, list) else _offence_name(value)
    if key in _EVENT_KEYS:
        return gettext("event %(event)s") % {"event": value}
    if key in _RANK_KEYS:
        return "10" if value == "T" else str(value)
    if key == "led":
        return str(_SUITS.get(str(value), value))
    if key in ("count", "called", "strokes") and isinstance(value, list):
        return "–".join("—" if v is None else str(v) for v in value)
    if key == "part":
        return gettext("all") if value == "all" else gettext("part")
    if isinstance(value, list):
        return _joined([str(v) for v in value])
    return str(value)


def _fill(sentence: Any, values: Mapping[str, str]) -> str | None:
    """The sentence with its fields filled in; None if it needs a field ``values`` lacks."""
    text = str(sentence)
    fields = {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}
    if not fields <= values.keys():
        return None
    return text.format_map(values)


def finding_text(
    code: str,
    params: Mapping[str, Any],
    *,
    seat_name: Callable[[int], str] = _default_seat,
    team_name: Callable[[int], str] = _default_team,
    generic: Any = None,
    why: str | None = None,
) -> str:
    """The sentence for ``code`` with ``params`` (a finding of ``Verdict.to_dict()``), in the active language.

    :param seat_name: says a record seat (``"Ayesha Davids (seat 1)"``); :param team_name: says a team (the side).
    :param generic: the sentence when ``code`` has none of its own or the params do not fit it.
    :param why: a wrong straf's reason (:func:`no_offence_reason`), said in its sentence when given.
    """
    values = {key: _readable(key, value, seat_name, team_name) for key, value in params.items()}
    if why and code in _WITH_WHY:
        text = _fill(_WITH_WHY[code], {**values, "why": why})
        if text is not None:
            return text
    offence = code.split(".", 1)[0]
    values.setdefault("offence_name", _offence_name(offence) if offence in OFFENCE_NAMES else code)
    if code.startswith("go_on_not_allowed."):  # the failing reason of the going-on check (engine GOING_ON_CODES)
        reason = _fill(_GOING_ON.get("going_on." + code.split(".", 1)[1], ""), values)
        if reason is not None:
            values["reason"] = reason
    for sentence in (TEXTS.get(code), generic):
        if sentence is not None:
            text = _fill(sentence, values)
            if text is not None:
                return text
    if "seat" in values:
        return _fill(_GENERIC_OFFENCE, values) or values["offence_name"]
    return str(values["offence_name"])


def no_offence_reason(
    params: Mapping[str, Any],
    *,
    record: Mapping[str, Any] | None = None,
    offences: Sequence[Mapping[str, Any]] = (),
    seat_name: Callable[[int], str] = _default_seat,
    team_name: Callable[[int], str] = _default_team,
) -> str | None:
    """Why a straf found no offence (the engine's ``straf.no_offence``), in the active language: the one text the
    verdict page says for the claim's outcome and for the claimant's wrong straf, and the same explanation the
    command line gives (``manage.py adjudicate``): the challenged card was a legal card, with its rule (SAKBOC
    3.2–3.4); or the accused committed another offence at that moment than the one named; or none at all; and
    "no other offence that can still be punished" when an offence was named.

    :param params: the straf's params (``claimant``, ``accused``, ``named``, ``event_named``, ``legal_card``).
    :param record: the hand record, to name who played the challenged card (else the accused is named).
    :param offences: the verdict's offences, to name another offence committed at the challenged moment.
    :returns: the reason, or None when ``params`` do not say whom the claim accused.
    """
    accused = params.get("accused")
    if not isinstance(accused, int):
        return None
    named, event = params.get("named"), params.get("event_named")
    values = {"accused_side": team_name(accused % 2), "named": _offence_name(named)}
    player = accused
    events = (record or {}).get("events") or []
    if isinstance(event, int) and 0 <= event < len(events) and isinstance(events[event], dict) \
            and isinstance(events[event].get("seat"), int):
        player = events[event]["seat"]
    values["player"] = seat_name(player)
    found = [o for o in offences if isinstance(event, int) and o.get("event") == event
             and o.get("team") == accused % 2 and o.get("code") not in (named, "wrong_straf")]
    if params.get("legal_card"):
        why = str(_WHY_NO_OFFENCE["legal_card"]).format(card=card_label(str(params["legal_card"])), **values)
    elif named and found:
        why = str(_WHY_NO_OFFENCE["other_offence"]).format(found=_offence_name(found[0]["code"]), **values)
    elif named:
        why = str(_WHY_NO_OFFENCE["named"]).format(**values)
    else:
        return str(_WHY_NO_OFFENCE["none"]).format(**values)
    return str(_NO_OTHER_OFFENCE).format(why=why, **values)


def _why(code: str, params: Mapping[str, Any], names: SayNames,
         record: Mapping[str, Any] | None, offences: Sequence[Mapping[str, Any]]) -> str | None:
    if code not in _WITH_WHY:
        return None
    return no_offence_reason(params, record=record, offences=offences, **names)


def offence_finding(found: Mapping[str, Any], *, straf: Mapping[str, Any] | None = None,
                    record: Mapping[str, Any] | None = None, offences: Sequence[Mapping[str, Any]] = (),
                    **names: Unpack[SayNames]) -> Finding:
    """An offence or forfeit of the verdict (``offences[]``, ``forfeits[]``), with how it was decided.

    A wrong straf says why there was no offence (:func:`no_offence_reason`) given its own claim's outcome
    (``straf``: the ``strafs[]`` item of the same event), and the ``record`` and ``offences`` to name who played
    the challenged card."""
    params = {"seat": found["seat"], **found.get("params", {})}
    code = found.get("message") or found["code"]
    status = found.get("status", "")
    why = None
    if straf is not None:
        why = _why(code, {**straf.get("params", {}), "accused": straf.get("accused")}, names, record, offences)
    return Finding(
        code=code,
        text=finding_text(code, params, generic=_GENERIC_OFFENCE, why=why, **names),
        rules=tuple(found.get("rules", ())),
        status=status,
        status_text=str(STATUS_TEXTS.get(status, status)),
        name=str(OFFENCE_NAMES.get(found["code"], found["code"])),
    )


def straf_finding(outcome: Mapping[str, Any], *, record: Mapping[str, Any] | None = None,
                  offences: Sequence[Mapping[str, Any]] = (), **names: Unpack[SayNames]) -> Finding:
    """A straf claim's outcome (``strafs[]``); a wrong straf says why there was no offence
    (:func:`no_offence_reason`, with the ``record`` and the verdict's ``offences`` when given)."""
    params = dict(outcome.get("params", {}))
    if params.get("named") is None and params.get("forfeit") is not None:
        params["named"] = params["forfeit"]
    for key in ("points", "awarded_team", "claimant", "accused"):
        if key not in params and outcome.get(key) is not None:
            params[key] = outcome[key]
    code = outcome.get("code", "")
    why = _why(code, params, names, record, offences)
    return Finding(
        code=code,
        text=finding_text(code, params, generic=_GENERIC_STRAF[outcome.get("upheld")], why=why, **names),
        rules=tuple(outcome.get("rules", ())),
    )


def going_on_finding(check: Mapping[str, Any], **names: Unpack[SayNames]) -> Finding:
    """A going-on check (``going_on[]``, ``end_check[]``)."""
    params = {"team": check["team"], **check.get("params", {})}
    return Finding(
        code=check.get("code", ""),
        text=finding_text(check.get("code", ""), params, generic=_("{team} may go on {allowed} stroke(s)"), **names),
        rules=tuple(check.get("rules", ())),
    )


def note_finding(note: Mapping[str, Any], **names: Unpack[SayNames]) -> Finding:
    """A note of the verdict (``note_details[]``)."""
    return Finding(
        code=note["code"],
        text=finding_text(note["code"], note.get("params", {}), generic=_("A note of the rules engine"), **names),
        rules=tuple(note.get("rules", ())),
    )

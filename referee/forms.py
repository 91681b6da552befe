"""Forms of the referee console: they parse input only; the services decide (HackSoft: forms are adapters)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.ruleset import Ruleset
from referee.hand_check import DEALT_OTHERWISE, SUIT_SYMBOLS, deal_pattern_choices, offence_choices
from referee.models import DisputedHand, Role, Ruling, Side

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

CARD_NAMES = tuple(rank + suit for suit in "SHDC" for rank in "AKQJT987")
"""All 32 cards in notation, spades first (the engine's order)."""
ROEM_CALLS = ("twenty", "fifty", "vyf-eenderse", "four-jacks", "four-aces", "four-kings", "four-queens", "sturk")
"""Roem call names of the hand record (SAKBOC 8.8, 8.13, 8.17; Notes §II)."""
SEAT_CHOICES = [(n, f"Player {n + 1}") for n in range(4)]  # shown by name: HandDealForm(seat_names=…)


def _table_label(number: int) -> str:
    return gettext("Table %(number)s") % {"number": number}


def _strokes_label(strokes: int) -> str:
    # the msgids of the table's going-on buttons (tables/_sheet_live.html), so both say it alike
    return ngettext("%(strokes)s stroke", "%(strokes)s strokes", strokes) % {"strokes": strokes}


TABLE_CHOICES = [(n, lazy(_table_label, str)(n)) for n in range(1, 5)]
"""The four tables, "Table 1" to "Table 4" in the reader's language."""
STROKE_CHOICES = [(n, lazy(_strokes_label, str)(n)) for n in (1, 2)]
"""A going-on of 1 or 2 strokes (SAKBOC 7.3), "1 stroke" and "2 strokes" in the reader's language."""


def _name_the_sides(form: forms.Form, match: Any, *fields: str) -> None:
    """Show each side of ``match`` by its team's name in ``fields`` (the values stay ``home``/``away``)."""
    if match is None:
        return
    for name in fields:
        cast(forms.ChoiceField, form.fields[name]).choices = [(Side.HOME, match.home.name),
                                                              (Side.AWAY, match.away.name)]


def card_choice_label(name: str) -> str:
    """``"TD"`` -> ``"10♦"``."""
    return ("10" if name[0] == "T" else name[0]) + SUIT_SYMBOLS[name[1]]


class StrafClaimForm(forms.Form):
    """A straf claim: table, who said "af" (side and role), the accused's role, the offence and when."""

    table_number = forms.TypedChoiceField(choices=TABLE_CHOICES, coerce=int, label=_("Table"))
    claimant_side = forms.ChoiceField(choices=Side.choices, label=_("Who said “af”: the team"))
    claimant_role = forms.ChoiceField(
        choices=Role.choices, label=_("Claimant"),
        help_text=_("Only the telman may punish counting and going-on errors (SAKBOC 6.8)."),
    )
    accused_role = forms.ChoiceField(choices=Role.choices, label=_("Accused (the other side)"))
    offence = forms.ChoiceField(
        choices=(), required=False,
        help_text=_('SAKBOC 6.7: "af" need not name the offence; the rules engine finds it in the disputed hand. '
        "The list is the union's (Notes §VII)."),
    )
    moment = forms.CharField(
        max_length=200, required=False, label=_("Moment in the hand"),
        help_text=_("E.g. 'trick 3, second card'. A slaggie is a trick."),
    )
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args: Any, match: Any = None, ruleset: Ruleset | None = None, **kwargs: Any) -> None:
        """``ruleset``: the competition's (``matches.rules.competition_ruleset``): only its offences are offered;
        ``match``: the sides are offered by team name."""
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["offence"]).choices = [("", _('Not named: just "af" (SAKBOC 6.7)')),
                                                                   *offence_choices(ruleset)]
        _name_the_sides(self, match, "claimant_side")


class HandStartForm(forms.Form):
    """Who sits where for the disputed hand's record, by name: the order of play round the table (anticlockwise,
    partners opposite), starting with a telman. It gives the record's seats: the first player named is its seat
    0, and so on (``home_seats``, ``seat1_role`` of :func:`referee.services.disputed_hand_start`)."""

    seating = forms.ChoiceField(
        choices=(), widget=forms.RadioSelect, label=_("Order of play round the table"),
        help_text=_("Play goes anticlockwise; partners sit opposite. Start from either telman."),
    )

    def __init__(self, *args: Any, people: dict[tuple[str, str], str], **kwargs: Any) -> None:
        """``people``: ``{(side, role): "Name (Team)"}`` for the four seated at the claim's table."""
        super().__init__(*args, **kwargs)
        choices = []
        for home_seats in (DisputedHand.HomeSeats.EVEN, DisputedHand.HomeSeats.ODD):
            first = Side.HOME if home_seats == DisputedHand.HomeSeats.EVEN else Side.AWAY
            other = Side.other(first)
            for seat1_role in (Role.TELMAN, Role.BYSPELER):
                last_role = Role.BYSPELER if seat1_role == Role.TELMAN else Role.TELMAN
                order = [(first, Role.TELMAN), (other, seat1_role), (first, Role.BYSPELER), (other, last_role)]
                label = " → ".join(people.get((side, role), role) for side, role in order)
                choices.append((f"{home_seats}:{seat1_role}", label))
        cast(forms.ChoiceField, self.fields["seating"]).choices = choices
        self.fields["seating"].initial = choices[0][0]

    def seats(self) -> dict[str, str]:
        """``{"home_seats": …, "seat1_role": …}`` for the service."""
        home_seats, seat1_role = self.cleaned_data["seating"].split(":")
        return {"home_seats": home_seats, "seat1_role": seat1_role}


class HandUploadForm(forms.Form):
    """A hand-record JSON file (format klawerjas-hand, version 1). ``home_seats`` says which team's partnership
    the file lists first (and third): its seats 0 and 2 (``even``) or 1 and 3 (``odd``); shown by team name."""

    home_seats = forms.ChoiceField(choices=DisputedHand.HomeSeats.choices, initial="even",
                                   label=_("The team whose players the file lists first and third"))
    record = forms.FileField(label=_("Hand record (JSON)"))

    def __init__(self, *args: Any, match: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if match is not None:
            cast(forms.ChoiceField, self.fields["home_seats"]).choices = [
                (DisputedHand.HomeSeats.EVEN, match.home.name), (DisputedHand.HomeSeats.ODD, match.away.name)]

    def clean_record(self) -> bytes:
        upload = self.cleaned_data["record"]
        if upload.size > 256 * 1024:
            raise forms.ValidationError(_("A hand record is a few kilobytes; this file is too large."))
        return upload.read()


class HandDealForm(forms.Form):
    """The deal: dealer, cut, deal pattern, the four hands (card notation, e.g. 'AS KS TD') and trump card."""

    dealer = forms.TypedChoiceField(choices=SEAT_CHOICES, coerce=int, initial=3,
                                    help_text=_("The player on the dealer's right (the next in order of play) leads."))
    cut = forms.IntegerField(min_value=0, max_value=32, required=False,
                             help_text=_("Cards cut; outside 2 to 31 is an offence (SAKBOC 2.1)."))
    deal_pattern = forms.ChoiceField(
        choices=(), required=False, help_text=_("Dealt evenly in 3 rounds (SAKBOC 1.7); anything else is an offence."),
    )
    deal_pattern_other = forms.RegexField(
        regex=r"^\s*[1-8](\s*-\s*[1-8])*\s*$", max_length=20, required=False, label=_("Pattern dealt"),
        help_text=_("Only when dealt otherwise: the cards per round, e.g. 4-4."),
    )
    hand_0 = forms.CharField(label=_("Player 1: hand"), max_length=64)
    hand_1 = forms.CharField(label=_("Player 2: hand"), max_length=64)
    hand_2 = forms.CharField(label=_("Player 3: hand"), max_length=64)
    hand_3 = forms.CharField(label=_("Player 4: hand"), max_length=64)
    trump_card = forms.ChoiceField(
        choices=[(c, card_choice_label(c)) for c in CARD_NAMES],
        help_text=_("The dealer's last card, dealt face up: its suit is trump."),
    )

    def __init__(self, *args: Any, seat_names: dict[int, str] | None = None, ruleset: Ruleset | None = None,
                 **kwargs: Any) -> None:
        """``seat_names``: ``{seat: "Player name (Team, role)"}``: the dealer and the hands are chosen by name.
        ``ruleset``: the competition's (``matches.rules.competition_ruleset``): only its deal patterns are offered,
        and "dealt otherwise" (SAKBOC 1.7: the dealer's offence) with the pattern typed in."""
        super().__init__(*args, **kwargs)
        if seat_names:
            cast(forms.ChoiceField, self.fields["dealer"]).choices = [
                (n, seat_names.get(n, f"player {n + 1}")) for n in range(4)]
            for n in range(4):
                self.fields[f"hand_{n}"].label = f"{seat_names.get(n, f'Player {n + 1}')}: hand"
        choices = deal_pattern_choices(ruleset)
        cast(forms.ChoiceField, self.fields["deal_pattern"]).choices = choices
        offered = {value for value, _label in choices}
        pattern = self.initial.get("deal_pattern")
        if pattern and pattern not in offered:  # a recorded wrong deal: shown as dealt otherwise
            self.initial["deal_pattern"], self.initial["deal_pattern_other"] = DEALT_OTHERWISE, pattern

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("deal_pattern") == DEALT_OTHERWISE and not data.get("deal_pattern_other"):
            self.add_error("deal_pattern_other", _("Type the pattern dealt, e.g. 4-4."))
        return data

    def pattern(self) -> str:
        """The deal pattern for the record: ``"3-3-2"``, the typed pattern when dealt otherwise, ``""`` if none."""
        chosen = self.cleaned_data.get("deal_pattern") or ""
        if chosen == DEALT_OTHERWISE:
            return "-".join(part.strip() for part in self.cleaned_data["deal_pattern_other"].split("-"))
        return chosen

    def hands(self) -> list[list[str]]:
        """The four hands as lists of card names."""
        return [self.cleaned_data[f"hand_{n}"].replace(",", " ").split() for n in range(4)]


class HandEventForm(forms.Form):
    """One event of the hand: a card played, a roem call, a size question or answer, "good enough?", going on.

    :meth:`event` returns it in the hand-record format; the engine validates the rest.
    """

    type = forms.ChoiceField(
        choices=[("play", "play"), ("roem", "roem"), ("size", "size"), ("size_answer", "size answer"),
                 ("good_enough", "good enough?"), ("go_on", "go on")]
    )
    seat = forms.TypedChoiceField(choices=SEAT_CHOICES, coerce=int)
    card = forms.ChoiceField(choices=[(c, c) for c in CARD_NAMES], required=False)
    call = forms.MultipleChoiceField(choices=[(c, c) for c in ROEM_CALLS], required=False)
    asked = forms.TypedMultipleChoiceField(choices=SEAT_CHOICES, coerce=int, required=False)
    top = forms.ChoiceField(choices=[(r, r) for r in "AKQJT987"], required=False)
    answer = forms.ChoiceField(choices=[("", "not recorded"), ("good", "good"), ("not-good", "not good")],
                               required=False)
    strokes = forms.TypedChoiceField(choices=[(1, "1"), (2, "2"), (3, "3")], coerce=int, required=False)

    _NEEDS = {"play": "card", "roem": "call", "size": "asked", "size_answer": "top", "good_enough": "asked",
              "go_on": "strokes"}

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        needed = self._NEEDS.get(data.get("type", ""))
        if needed and data.get(needed) in (None, "", []):
            self.add_error(needed, "Required for this event.")
        return data

    def event(self) -> dict[str, Any]:
        """The event as a hand-record object."""
        d = self.cleaned_data
        kind, seat = d["type"], d["seat"]
        if kind == "play":
            return {"type": "play", "seat": seat, "card": d["card"]}
        if kind == "roem":
            calls = d["call"]
            return {"type": "roem", "seat": seat, "call": calls[0] if len(calls) == 1 else calls}
        if kind == "size":
            return {"type": "size", "seat": seat, "asked": d["asked"][0]}
        if kind == "size_answer":
            return {"type": "size_answer", "seat": seat, "top": d["top"]}
        if kind == "good_enough":
            event: dict[str, Any] = {"type": "good_enough", "seat": seat, "asked": d["asked"]}
            if d.get("answer"):
                event["answer"] = d["answer"]
            return event
        return {"type": "go_on", "seat": seat, "strokes": d["strokes"]}


class RulingForm(forms.Form):
    """The referee's ruling: upheld or rejected; a written reason to overrule the engine."""

    decision = forms.ChoiceField(choices=Ruling.Decision.choices, widget=forms.RadioSelect)
    overrule_reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False,
        help_text=_("Required when your decision differs from the engine's verdict."),
    )
    claimed_points = forms.BooleanField(
        required=False, label=_("The accused team's telman had already claimed points (SAKBOC 6.6: another 2 "
        "if the straf is wrong)"),
    )
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    expected_version = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=0,
        help_text=_("The version of the table's boem sheet when the form was shown: a sheet changed since on "
        "another device (the table's, the marker's) is not written over."),
    )


class TableStopForm(forms.Form):
    """Stop a table (SAKBOC 12.1): the defaulting side forfeits its points there; the opponents get 20."""

    defaulting_side = forms.ChoiceField(choices=Side.choices, label=_("The defaulting team"))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=300,
                             help_text=_("Why the table is stopped (kept on the sheet)."))
    confirm = forms.BooleanField(label=_("Yes, stop this table. The defaulting team forfeits all its points there."))

    def __init__(self, *args: Any, match: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _name_the_sides(self, match, "defaulting_side")


class MatchEndForm(forms.Form):
    """Confirm the end of the match: all play stops (SAKBOC 2.2)."""

    confirm = forms.BooleanField(label=_("Yes, time is up: end the match. All play stops (SAKBOC 2.2)."))


class TossForm(forms.Form):
    """The toss 5 minutes before play: the winner gets the cards (SAKBOC 1.3). The sides show the teams' names."""

    winner_side = forms.ChoiceField(choices=Side.choices, label=_("Toss won by"))

    def __init__(self, *args: Any, match: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["winner_side"]).choices = [(Side.HOME, match.home.name),
                                                                       (Side.AWAY, match.away.name)]


class QueryForm(forms.Form):
    """A query noted on the score-sheet (SAKBOC 1.10)."""

    raised_by_side = forms.ChoiceField(choices=Side.choices, label=_("Raised by the team"))
    raised_by = forms.CharField(max_length=120, label=_("Raised by (name)"))
    table_number = forms.TypedChoiceField(choices=[("", _("the whole match")), *TABLE_CHOICES], coerce=int,
                                          empty_value=None, required=False, label=_("About"))
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("Query"))

    def __init__(self, *args: Any, match: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _name_the_sides(self, match, "raised_by_side")


# --- The match night at the tables (issue 14): the referee acts on a table's behalf -----------------------


class TeamSideForm(forms.Form):
    """A side of the match, shown by its team's name (never "home"/"away" alone)."""

    def __init__(self, *args: Any, match: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        for field in self.fields.values():
            if getattr(field, "team_side", False):
                cast(forms.ChoiceField, field).choices = [("home", match.home.name), ("away", match.away.name)]

    def team(self, field: str) -> Any:
        """The team chosen in ``field``."""
        return self.match.home if self.cleaned_data[field] == "home" else self.match.away


def _side_field(label: StrOrPromise, **kwargs: Any) -> forms.ChoiceField:
    field = forms.ChoiceField(choices=(), label=label, **kwargs)
    field.team_side = True  # type: ignore[attr-defined]
    return field


class RefereeGoingOnForm(TeamSideForm):
    """A going-on the referee enters on a table's behalf (confirmed at once), with the reason why."""

    side = _side_field(_("Who went on"), widget=forms.RadioSelect)
    strokes = forms.TypedChoiceField(choices=STROKE_CHOICES, coerce=int, label=_("Strokes"),
                                     widget=forms.RadioSelect, initial=1,
                                     help_text=_("2 only when the opponents count under 50 (Notes §VI; SAKBOC 7.3)."))
    reason = forms.CharField(max_length=300, label=_("Why you enter it"),
                             help_text=_("E.g. 'the table's phone is flat'. The history keeps it."))
    cut_before_interval = forms.BooleanField(
        required=False, label=_("At the interval: the hand was cut before it was called (SAKBOC 2.2)"))
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class EntryCorrectForm(TeamSideForm):
    """Correct a going-on: its strokes, its side (SAKBOC 7.1: a stroke on the wrong side goes to the opponents),
    or strike it off; always with the reason (the history keeps who, when, why and the old value)."""

    side = _side_field(_("Side"))
    strokes = forms.TypedChoiceField(choices=STROKE_CHOICES, coerce=int, label=_("Strokes"))
    strike = forms.BooleanField(required=False, label=_("Strike it off the sheet (it did not happen)"))
    reason = forms.CharField(max_length=300, label=_("Why"), widget=forms.Textarea(attrs={"rows": 2}))
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class UnseatedForm(TeamSideForm):
    """Players of a side not seated when play resumed after half-time (SAKBOC 12.3)."""

    side = _side_field(_("Whose players are not seated"))


class CalledAwayForm(forms.Form):
    """A player the referee lets go with no substitute (SAKBOC 1.14, 11.2): 20 points per half to the opponents."""

    player = forms.TypedChoiceField(choices=(), coerce=int, label=_("Player called away"))
    confirm = forms.BooleanField(label=_("I understand: 20 points to the opponents for this half, and for the second "
                                       "half too unless a substitute comes in at half-time (SAKBOC 11.2)"))

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["player"]).choices = players


class ExtraTimeForm(TeamSideForm):
    """After a knock-out draw the captains toss again for the cards (SAKBOC 1.12)."""

    side = _side_field(_("Who won the toss (they get the cards)"))


class OffenceNameForm(forms.Form):
    """Name the offence of an "af" that named none (SAKBOC 6.7), for a ruling without a disputed hand (the
    referee's judgement); with a disputed hand the rules engine finds the offence itself."""

    offence = forms.ChoiceField(choices=(), label=_("The offence"))

    def __init__(self, *args: Any, ruleset: Ruleset | None = None, **kwargs: Any) -> None:
        """``ruleset``: the competition's (``matches.rules.competition_ruleset``): only its offences are offered."""
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["offence"]).choices = offence_choices(ruleset)

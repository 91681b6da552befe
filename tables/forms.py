"""Forms of the table pages: the table code, a going-on, a confirmation, a dispute, an "af"."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.ruleset import Ruleset
from referee.hand_check import offence_choices


class TableCodeForm(forms.Form):
    """The table's code, typed from its table card (``K7M2 QX9A``; case, spaces and dashes do not matter)."""

    code = forms.CharField(
        max_length=20, label=_("Table code"), strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "inputmode": "text",
                                      "placeholder": "K7M2 QX9A", "spellcheck": "false"}),
        help_text=_("The 8 letters and digits on the table card the referee put on your table."),
    )


class SheetVersionForm(forms.Form):
    """Every write sends the sheet version the page showed: a sheet changed by another device meanwhile is not
    written over (the answer is "changed by someone else")."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


def _answer(value: str) -> bool | None:
    return {"on": True, "yes": True, "true": True, "no": False, "false": False}.get(value.lower())


class GoingOnForm(SheetVersionForm):
    """A side's telman goes on 1 or 2 strokes (SAKBOC 7.3); 2 only when the opponents count under 50 (Notes §VI).

    The answers are yes, no or not given (``None``): the rules about them are the service's
    (``tables.services.table_going_on``), the same for the page, its offline queue and the API.
    """

    side = forms.ChoiceField(choices=[("home", "home"), ("away", "away")], widget=forms.HiddenInput)
    strokes = forms.TypedChoiceField(choices=[(1, "1"), (2, "2")], coerce=int, widget=forms.HiddenInput)
    opponents_under_fifty = forms.TypedChoiceField(
        choices=[("", ""), ("yes", "yes"), ("no", "no")], required=False, widget=forms.HiddenInput,
        coerce=_answer, empty_value=None,
    )
    cut_before_interval = forms.TypedChoiceField(
        choices=[("", ""), ("on", "on"), ("yes", "yes"), ("true", "true"), ("no", "no"), ("false", "false")],
        required=False, widget=forms.HiddenInput, coerce=_answer, empty_value=None,
        label=_("This hand was cut before the interval was called (SAKBOC 2.2)"),
    )


class DisputeForm(SheetVersionForm):
    """Why the opposing telman disputes a going-on: the referee reads it (an empty reason is the service's
    refusal, ``matches.night.boem_sheet.entry_dispute``, the same through every door)."""

    reason = forms.CharField(
        max_length=300, required=False, label=_("What is wrong with it?"), widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("E.g. 'only 1 stroke: we counted 52'. The referee comes to the table and settles it."),
    )


class _PlayerField(forms.TypedChoiceField):
    """A player offered as a radio button, read as an id: whether the player is seated at the table, and on
    which side, is the service's check (``tables.services.table_af``), the same through every door."""

    def valid_value(self, value: Any) -> bool:
        return str(value).isdigit()


class AfForm(forms.Form):
    """"Af": who punishes whom (SAKBOC 6.7: the word need not name the offence; name it if it was named)."""

    claimant = _PlayerField(choices=(), coerce=int, widget=forms.RadioSelect, label=_("Who says “af”?"))
    accused = _PlayerField(choices=(), coerce=int, widget=forms.RadioSelect, label=_("Against whom?"))
    offence = forms.ChoiceField(choices=(), required=False, label=_("The offence, if it was named"),
                                help_text=_("Leave it as “not named”: the referee asks."))
    note = forms.CharField(max_length=300, required=False, label=_("Anything the referee should know"),
                           widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, players: list[tuple[int, str, str]], ruleset: Ruleset, **kwargs: Any) -> None:
        """``players``: the four seated as ``(player_id, "Name (Team, telman)", side)``; ``ruleset``: the
        competition's (``matches.rules.competition_ruleset``): only its offences are offered
        (``engine.offences.offences_for``), as on the referee's console; the service refuses any other (Notes §VII)."""
        super().__init__(*args, **kwargs)
        choices = [(pk, label) for pk, label, _side in players]
        cast(forms.ChoiceField, self.fields["claimant"]).choices = choices
        cast(forms.ChoiceField, self.fields["accused"]).choices = choices
        cast(forms.ChoiceField, self.fields["offence"]).choices = [
            ("", _("Not named: the referee asks")), *offence_choices(ruleset)]


class DealForm(SheetVersionForm):
    """A deal's line in a game scored deal by deal (issue 24), as the score keeper writes it: who played, each
    side's card points and roem, a pit, "nat", and where the ruleset has them Contra/Re and a march (Klammern).

    The sides are offered by their teams' names (``home_name``, ``away_name``); the rules are the engine's
    (``matches.night.deals.deal_record``), so this form checks only that each value can be read.
    """

    makers = forms.ChoiceField(label=_("Played (made trumps)"), widget=forms.RadioSelect)
    home_card_points = forms.IntegerField(min_value=0, max_value=1000)
    away_card_points = forms.IntegerField(min_value=0, max_value=1000)
    home_roem = forms.IntegerField(min_value=0, max_value=1000, initial=0, required=False)
    away_roem = forms.IntegerField(min_value=0, max_value=1000, initial=0, required=False)
    pit = forms.ChoiceField(label=_("Pit (every trick)"), required=False)
    nat = forms.TypedChoiceField(
        label=_("The table says"), required=False, empty_value=None,
        choices=[("", _("(not said)")), ("made", _("made")), ("nat", _("nat"))],
        coerce=lambda v: {"made": False, "nat": True}.get(v),
    )
    # Django takes any empty value; the stubs say a string.
    multiplier = forms.TypedChoiceField(label=_("Doubling"), coerce=int, initial=1, required=False,
                                        empty_value=1,  # type: ignore[arg-type]
                                        choices=[(1, _("none")), (2, _("Contra")), (4, _("Re"))])
    march = forms.ChoiceField(label=_("March announced by"), required=False)

    def __init__(self, *args: Any, home_name: str, away_name: str, ruleset: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        sides = [("home", home_name), ("away", away_name)]
        cast(forms.ChoiceField, self.fields["makers"]).choices = sides
        cast(forms.ChoiceField, self.fields["pit"]).choices = [("", _("no")), *sides]
        cast(forms.ChoiceField, self.fields["march"]).choices = [("", _("no")), *sides]
        self.fields["home_card_points"].label = _("%(team)s card points") % {"team": home_name}
        self.fields["away_card_points"].label = _("%(team)s card points") % {"team": away_name}
        self.fields["home_roem"].label = _("%(team)s roem") % {"team": home_name}
        self.fields["away_roem"].label = _("%(team)s roem") % {"team": away_name}
        for name in ("home_card_points", "away_card_points", "home_roem", "away_roem"):
            self.fields[name].widget.attrs.update({"inputmode": "numeric", "step": 1})
        if not ruleset.doubling:
            del self.fields["multiplier"]
        if not ruleset.march_announcement:
            del self.fields["march"]

    def clean_home_roem(self) -> int:
        return self.cleaned_data.get("home_roem") or 0

    def clean_away_roem(self) -> int:
        return self.cleaned_data.get("away_roem") or 0

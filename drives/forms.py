"""Forms of a drive's pages: entering a player, starting a night, a table's deal line."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from drives.models import Drive
from engine.deals import DealEntry
from engine.ruleset import Ruleset


class PlayerChoiceField(forms.ModelChoiceField):
    """A registered player, shown by name and registration number."""

    def label_from_instance(self, obj: Player) -> str:
        return f"{obj.full_name} ({obj.registration_number})"


class DriveEntryForm(forms.Form):
    """Enter a registered player of the union (with fixed pairs, a partner too)."""

    player = PlayerChoiceField(label=_("Player"), queryset=Player.objects.none())
    partner = PlayerChoiceField(label=_("Partner (fixed pairs)"), queryset=Player.objects.none(), required=False)

    def __init__(self, *args: Any, drive: Drive, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = Player.objects.filter(union_id=drive.club.union_id, active=True).exclude(
            drive_entries__drive=drive).exclude(drive_partner_entries__drive=drive).order_by("last_name", "first_name")
        cast(PlayerChoiceField, self.fields["player"]).queryset = players
        cast(PlayerChoiceField, self.fields["partner"]).queryset = players
        if not drive.fixed_pairs:
            del self.fields["partner"]


class NightStartForm(forms.Form):
    """Start the next club night."""

    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))


class DealForm(forms.Form):
    """One deal's line as the table writes it: who played, each side's card points and roem, a pit, nat, and
    (where the ruleset has them) Contra/Re and the march. The engine checks it (``engine.deals``)."""

    makers_side = forms.TypedChoiceField(label=_("Played (made trumps)"), coerce=int, widget=forms.RadioSelect)
    card_points0 = forms.IntegerField(label=_("Card points"), min_value=0, max_value=500)
    card_points1 = forms.IntegerField(label=_("Card points"), min_value=0, max_value=500)
    roem0 = forms.IntegerField(label=_("Roem"), min_value=0, max_value=2000, initial=0)
    roem1 = forms.IntegerField(label=_("Roem"), min_value=0, max_value=2000, initial=0)
    pit_side = forms.TypedChoiceField(label=_("Pit (every trick)"), coerce=int, empty_value=None, required=False)
    nat = forms.TypedChoiceField(
        label=_("Result"), required=False, empty_value=None, coerce=lambda v: v == "nat",
        choices=[("", _("let the points say")), ("made", _("made")), ("nat", _("nat"))])
    multiplier = forms.TypedChoiceField(
        label=_("Doubling"), coerce=int, initial=1,
        choices=[(1, _("none")), (2, _("Contra")), (4, _("Re"))])
    march_side = forms.TypedChoiceField(label=_("March announced by"), coerce=int, empty_value=None, required=False)

    def __init__(self, *args: Any, side_names: tuple[str, str], ruleset: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        sides = [(0, side_names[0]), (1, side_names[1])]
        cast(forms.TypedChoiceField, self.fields["makers_side"]).choices = sides
        cast(forms.TypedChoiceField, self.fields["pit_side"]).choices = [("", _("no pit")), *sides]
        cast(forms.TypedChoiceField, self.fields["march_side"]).choices = [("", _("no march")), *sides]
        if not ruleset.doubling:
            del self.fields["multiplier"]
        if not ruleset.march_announcement:
            del self.fields["march_side"]

    def entry(self) -> DealEntry:
        """The valid form as the engine's :class:`~engine.deals.DealEntry`."""
        data = self.cleaned_data
        return DealEntry(
            makers_team=data["makers_side"],
            card_points=(data["card_points0"], data["card_points1"]),
            roem=(data["roem0"] or 0, data["roem1"] or 0),
            pit_team=data.get("pit_side"),
            nat=data.get("nat"),
            multiplier=data.get("multiplier") or 1,
            march_team=data.get("march_side"),
        )

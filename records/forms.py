"""Forms of the records pages (GET forms: nothing is written)."""

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _


class LeaderboardForm(forms.Form):
    """The leaderboards' minimum of match nights a partnership must have played together."""

    min_nights = forms.IntegerField(
        label=_("Minimum nights together"), min_value=1, max_value=999, required=False,
        help_text=_("Only partnerships that sat together on at least this many match nights are ranked, so one "
        "lucky night does not top the table. Empty: a third of the most nights any partnership played."),
    )


class OpponentForm(forms.Form):
    """Pick the other team of a head-to-head."""

    opponent = forms.TypedChoiceField(label=_("Head-to-head against"), coerce=int)

    def __init__(self, *args, others: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["opponent"]).choices = others

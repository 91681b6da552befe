"""Forms of the privacy pages: the official's confirmation before an erasure (POPIA s24)."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class ErasureConfirmForm(forms.Form):
    """The official types the player's registration number to confirm an erasure that cannot be undone.

    ``registration_number`` must equal ``expected`` (spaces around it ignored); otherwise a field error.
    """

    registration_number = forms.CharField(
        max_length=30, label=gettext_lazy("Type the registration number to confirm"),
        widget=forms.TextInput(attrs={"autocomplete": "off"}))

    def __init__(self, *args, expected: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.expected = expected

    def clean_registration_number(self) -> str:
        value = self.cleaned_data["registration_number"].strip()
        if value != self.expected:
            raise forms.ValidationError(_("That is not this player's registration number: nothing was erased."))
        return value

"""Forms of the privacy pages: the official's confirmation before an erasure (POPIA s24), and a player's
changed consent (POPIA s11(2)(b)). Parsing only: the services record."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from privacy.models import Consent


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


class ConsentChangeForm(forms.Form):
    """One answer changed on the player's own page: which consent (``Consent.Kind``) and yes or no."""

    kind = forms.ChoiceField(choices=Consent.Kind.choices, label=gettext_lazy("Consent"))
    given = forms.TypedChoiceField(choices=[("yes", gettext_lazy("Yes")), ("no", gettext_lazy("No"))],
                                   coerce=lambda value: value == "yes", label=gettext_lazy("Answer"))

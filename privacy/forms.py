"""The privacy pages' forms: parsing only; ``privacy.services.consent_record`` records the answer."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from privacy.models import Consent


class ConsentChangeForm(forms.Form):
    """One answer changed on the player's own page: which consent (``Consent.Kind``) and yes or no."""

    kind = forms.ChoiceField(choices=Consent.Kind.choices, label=gettext_lazy("Consent"))
    given = forms.TypedChoiceField(choices=[("yes", gettext_lazy("Yes")), ("no", gettext_lazy("No"))],
                                   coerce=lambda value: value == "yes", label=gettext_lazy("Answer"))

"""Forms for the registry's pages: a captain or club secretary registers a player (parsing only: the rules
are the services')."""

from django import forms
from django.utils.translation import gettext_lazy

from clubs.validators import name_validate


class PlayerRegisterForm(forms.Form):
    """Register a player with the union (the registration number is unique in the union)."""

    registration_number = forms.CharField(
        max_length=30,
        help_text=gettext_lazy("The union's registration number."),
        label=gettext_lazy("Registration number"),
    )
    first_name = forms.CharField(max_length=60, validators=[name_validate], label=gettext_lazy("First name"))
    last_name = forms.CharField(max_length=60, validators=[name_validate], label=gettext_lazy("Last name"))
    add_to_squad = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Add to this team's squad"))

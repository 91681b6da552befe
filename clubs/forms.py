"""Forms for the registry's pages: a captain or club secretary registers a player (parsing only: the rules
are the services')."""

from django import forms
from django.utils.translation import gettext_lazy

from clubs.validators import name_validate


class PlayerRegisterForm(forms.Form):
    """Register a player with the union (the registration number is unique in the union and in the national
    registry; ``different_person`` is shown once the registry finds a look-alike in another union)."""

    registration_number = forms.CharField(
        max_length=30,
        help_text=gettext_lazy("The union's registration number."),
        label=gettext_lazy("Registration number"),
    )
    first_name = forms.CharField(max_length=60, validators=[name_validate], label=gettext_lazy("First name"))
    last_name = forms.CharField(max_length=60, validators=[name_validate], label=gettext_lazy("Last name"))
    date_of_birth = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label=gettext_lazy("Date of birth"),
        help_text=gettext_lazy("Optional. Used only to tell apart two people of the same name in the national "
                               "registry, so that a player who moves union keeps one record; never shown on public "
                               "pages (POPIA: no more than needed)."))
    different_person = forms.BooleanField(
        required=False, widget=forms.HiddenInput,
        label=gettext_lazy("This is a different person from the player of the same name and date of birth in "
                           "another union"))
    add_to_squad = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Add to this team's squad"))

    def different_person_ask(self) -> None:
        """Show the "different person" box (``clubs.services.player_registration_check`` found a look-alike)."""
        self.fields["different_person"].widget = forms.CheckboxInput()

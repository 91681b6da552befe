"""Forms for captains' and club secretaries' pages (parsing only: the rules are the services')."""

from django import forms

from clubs.models import Player
from matches.models import TABLES_PER_MATCH, Seat


class PlayerRegisterForm(forms.Form):
    """Register a player with the union (the registration number is unique in the union)."""

    registration_number = forms.CharField(max_length=30, help_text="The union's registration number.")
    first_name = forms.CharField(max_length=60)
    last_name = forms.CharField(max_length=60)
    add_to_squad = forms.BooleanField(required=False, initial=True, label="Add to this team's squad")


class TeamSheetForm(forms.Form):
    """The team sheet: at each table a telman (the counter, who keeps the boem) and a byspeler (the partner
    opposite). Leave a table empty to field only 3 tables (the opponents then get 20 points, SAKBOC 1.13)."""

    version = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=0,
        help_text="The sheet's version when the form was shown (0: none yet); a sheet changed since on another "
        "device is not overwritten.",
    )

    def __init__(self, *args, squad: list[Player], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, f"{p.full_name} ({p.registration_number})") for p in squad]
        for table in range(1, TABLES_PER_MATCH + 1):
            for role, label in Seat.Role.choices:
                self.fields[f"table{table}_{role}"] = forms.TypedChoiceField(
                    choices=choices, coerce=int, required=False, empty_value=None,
                    label=f"Table {table}: {label}",
                )

    def clean(self) -> dict:
        """Adds ``partnerships``: ``{table: (telman_id, byspeler_id)}`` for the tables filled in."""
        super().clean()
        result = {}
        for table in range(1, TABLES_PER_MATCH + 1):
            telman = self.cleaned_data.get(f"table{table}_telman")
            byspeler = self.cleaned_data.get(f"table{table}_byspeler")
            if telman is None and byspeler is None:
                continue
            if telman is None or byspeler is None:
                raise forms.ValidationError(f"Table {table} needs both a telman and a byspeler.")
            result[table] = (telman, byspeler)
        self.cleaned_data["partnerships"] = result
        return self.cleaned_data

    def table_rows(self):
        """(table number, telman field, byspeler field) for the template."""
        return [(t, self[f"table{t}_telman"], self[f"table{t}_byspeler"]) for t in range(1, TABLES_PER_MATCH + 1)]


class SubstitutionForm(forms.Form):
    """A half-time substitution (SAKBOC 11.1, 11.4): only during the interval, at most 3 per team."""

    def __init__(self, *args, seated: list[Player], bench: list[Player], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player_out"] = forms.TypedChoiceField(
            coerce=int, label="Player leaving", choices=[(p.pk, p.full_name) for p in seated])
        self.fields["player_in"] = forms.TypedChoiceField(
            coerce=int, label="Substitute", choices=[(p.pk, p.full_name) for p in bench])
        self.fields["role"] = forms.ChoiceField(
            required=False, choices=[("", "Same role as the player leaving"), *Seat.Role.choices],
            help_text="The substitute's role is the captain's choice (SAKBOC 11.1).")

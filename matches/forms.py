"""Forms for officials' pages (parsing only: the rules are the services')."""

import datetime as dt

from django import forms
from django.contrib.auth import get_user_model

from matches.models import Competition


class CompetitionForm(forms.Form):
    """A new league season or knock-out cup."""

    name = forms.CharField(max_length=120)
    season = forms.CharField(max_length=20, help_text="E.g. 2026.")
    kind = forms.ChoiceField(choices=Competition.Kind.choices,
                             help_text="A league plays home and away rounds; a cup is a knock-out bracket.")
    starts_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))


class FixturesForm(forms.Form):
    """Generate the fixture list: league rounds (home and away) or the cup's first round with byes."""

    start = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), help_text="Date of round 1.")
    kickoff = forms.TimeField(initial=dt.time(19, 30), widget=forms.TimeInput(attrs={"type": "time"}),
                              help_text="Start of play; captains toss 5 minutes before (SAKBOC 1.3).")
    days_between_rounds = forms.IntegerField(min_value=1, max_value=365, initial=7)
    home_and_away = forms.BooleanField(required=False, initial=True,
                                       help_text="League: each pair meets at both venues.")


class OfficialsForm(forms.Form):
    """The match's referee and, at a final, the marker (SAKBOC 1.11), by username."""

    referee = forms.ModelChoiceField(queryset=get_user_model().objects.filter(is_active=True), required=False,
                                     to_field_name="username", widget=forms.TextInput,
                                     help_text="The referee's username.")
    marker = forms.ModelChoiceField(queryset=get_user_model().objects.filter(is_active=True), required=False,
                                    to_field_name="username", widget=forms.TextInput,
                                    help_text="Takes the referee's place at a final (SAKBOC 1.11).")


class StandingsPublishForm(forms.Form):
    """Publish the standings as they stand: a frozen, dated snapshot."""

    title = forms.CharField(max_length=160, required=False, help_text="E.g. 'After round 6'.")
    as_of = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}),
                            help_text="Defaults to today.")

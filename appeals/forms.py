"""Forms of the appeals pages: lodge, decide, the union's appeal settings, a discipline record."""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from appeals.models import Appeal
from appeals.services import GROUNDS_MAX
from clubs.models import Club, DisciplinaryRecord, Player, Team, Union
from clubs.selectors import person_name
from referee.models import Ruling

RESULT = ""


def ruling_label(ruling: Ruling, match) -> str:
    """``"Table 1: straf for signs by Athlone Aces, upheld (SAKBOC 4.1), Yusuf Isaacs"``."""
    claim = ruling.claim
    claimant = match.home.name if claim.claimant_side == "home" else match.away.name
    return (f"Table {claim.table.number}: straf for {claim.offence or 'af'} by {claimant}, "
            f"{ruling.get_decision_display().lower()} ({ruling.clause}), ruled by {person_name(ruling.referee)}")


class AppealLodgeForm(forms.Form):
    ruling = forms.ChoiceField(label=gettext_lazy("What do you appeal?"), widget=forms.RadioSelect, required=False)
    grounds = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 5}), max_length=GROUNDS_MAX,
        help_text=gettext_lazy("Why your side appeals: what happened, and what you ask the committee to decide."),
     label=gettext_lazy("Grounds"))

    def __init__(self, *args, match, rulings, result_appealable: bool, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(r.pk), ruling_label(r, match)) for r in rulings]
        if result_appealable or not choices:
            choices.append((RESULT, f"The approved result, {match.home} {match.home_score}–{match.away_score} "
                                    f"{match.away}"))
        cast(forms.ChoiceField, self.fields["ruling"]).choices = choices
        self.fields["ruling"].initial = choices[0][0]
        self.rulings = {str(r.pk): r for r in rulings}

    def chosen_ruling(self) -> Ruling | None:
        return self.rulings.get(self.cleaned_data.get("ruling") or RESULT)


class AppealDecideForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[
            (Appeal.Status.UPHELD, gettext_lazy("Uphold the appeal")),
            (Appeal.Status.DISMISSED, gettext_lazy("Dismiss the appeal")),
        ],
        widget=forms.RadioSelect,
     label=gettext_lazy("Decision"))
    reasons = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=4000,
        help_text=gettext_lazy("The committee's written reasons: both sides and the referee read them."),
     label=gettext_lazy("Reasons"))
    home_score = forms.IntegerField(min_value=0, required=False, label=gettext_lazy("Corrected home score"))
    away_score = forms.IntegerField(min_value=0, required=False, label=gettext_lazy("Corrected away score"))

    def __init__(self, *args, appeal: Appeal, **kwargs):
        super().__init__(*args, **kwargs)
        if appeal.ruling_id:
            del self.fields["home_score"], self.fields["away_score"]
        else:
            self.fields["home_score"].label = _("Corrected score, %(home)s") % {"home": appeal.match.home}
            self.fields["away_score"].label = _("Corrected score, %(away)s") % {"away": appeal.match.away}
            self.fields["home_score"].help_text = _("Upholding an appeal of the result sets this score.")


class AppealSettingsForm(forms.ModelForm):
    committee = forms.ModelMultipleChoiceField(
        queryset=get_user_model().objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("The officials who hear appeals; none ticked: every official of the union."),
     label=gettext_lazy("Committee"))

    class Meta:
        model = Union
        fields = ["appeal_deadline_days", "appeal_decision_days", "appeals_committee_name",
                  "discipline_register_public"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        committee = cast(forms.ModelMultipleChoiceField, self.fields["committee"])
        committee.queryset = self.instance.officials.order_by("last_name", "first_name", "username")
        # Django calls the field instance's label_from_instance(obj): set here, not as a method of a field class.
        committee.label_from_instance = person_name  # type: ignore[method-assign,assignment]
        self.fields["committee"].initial = list(self.instance.appeals_committee.values_list("pk", flat=True))


class DisciplinaryRecordForm(forms.ModelForm):
    class Meta:
        model = DisciplinaryRecord
        fields = ["player", "team", "club", "offence", "occurred_on", "reason", "sanction", "fine_amount",
                  "fine_paid", "suspension_match_nights", "starts_on"]
        widgets = {"occurred_on": forms.DateInput(attrs={"type": "date"}),
                   "starts_on": forms.DateInput(attrs={"type": "date"}),
                   "reason": forms.Textarea(attrs={"rows": 3})}
        help_texts = {"player": gettext_lazy("Choose one: a player, a team or a club.")}

    def __init__(self, *args, union: Union, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.union = union
        player = cast(forms.ModelChoiceField, self.fields["player"])
        player.queryset = Player.objects.filter(union=union).select_related("club")
        # Django calls the field instance's label_from_instance(obj): set here, not as a method of a field class.
        player.label_from_instance = lambda p: f"{p.full_name} ({p.club.name})"  # type: ignore[method-assign,assignment]
        team = cast(forms.ModelChoiceField, self.fields["team"])
        team.queryset = Team.objects.filter(club__union=union).select_related("competition")
        team.label_from_instance = lambda t: f"{t.name} ({t.competition})"  # type: ignore[method-assign,assignment]
        cast(forms.ModelChoiceField, self.fields["club"]).queryset = Club.objects.filter(union=union)

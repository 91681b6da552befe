"""The union office's forms: parsing only; the rules are the services' (``office.invitations``,
``clubs.services``)."""

from __future__ import annotations

from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.utils.translation import gettext_lazy

from clubs.models import Club, Player, Union
from clubs.services import CONSENT_KINDS, player_consents_check
from office.models import Invitation
from office.registry import player_consent_answers


class UnionSetupForm(forms.Form):
    """A new union with SAKBOC's default clock and points, and the invitation of its first official."""

    name = forms.CharField(max_length=120, label=gettext_lazy("Union's name"),
                           help_text=gettext_lazy("E.g. South Peninsula Klawerjas Union."))
    short_name = forms.CharField(max_length=20, label=gettext_lazy("Short name"),
                                 help_text=gettext_lazy("E.g. SPKU: shown beside competitions and in the registry."))
    half_minutes = forms.IntegerField(min_value=10, max_value=180, initial=75, label=gettext_lazy("Minutes a half"),
                                      help_text=gettext_lazy("SAKBOC 1.2: 2 h 30 min in two halves of 75 minutes."))
    interval_minutes = forms.IntegerField(min_value=0, max_value=60, initial=10,
                                          label=gettext_lazy("Interval (minutes)"))
    points_win = forms.IntegerField(min_value=0, max_value=10, initial=2, label=gettext_lazy("League points for a win"))
    points_draw = forms.IntegerField(min_value=0, max_value=10, initial=1,
                                     label=gettext_lazy("League points for a draw"))
    points_loss = forms.IntegerField(min_value=0, max_value=10, initial=0,
                                     label=gettext_lazy("League points for a loss"))
    official_first_name = forms.CharField(max_length=60, label=gettext_lazy("First official's first name"))
    official_last_name = forms.CharField(max_length=60, label=gettext_lazy("First official's surname"))
    official_email = forms.EmailField(label=gettext_lazy("First official's e-mail"),
                                      help_text=gettext_lazy("They get a link to choose a password and run the union."))


#: A union's settings an official edits (the page and the API alike), besides the tiebreak order (SAKBOC 1.12).
UNION_SETTING_FIELDS = (
    "name", "short_name", "toss_minutes_before", "half_minutes", "interval_minutes", "last_period_minutes",
    "grace_minutes", "knockout_extra_time_minutes", "points_win", "points_draw", "points_loss",
    "deal_after_going_on", "straf_four_points", "unfinished_boem", "roem_counts", "straf_named_offence",
    "referee_judges_unrecorded_offences", "two_step_required",
    # POPIA: the union's privacy notice, how public pages name players, how long optional data is kept.
    "privacy_contact", "privacy_email", "privacy_notice_extra", "public_names", "retention_seasons",
)


class UnionSettingsForm(forms.ModelForm):
    """A union's clock, points, tiebreaks and readings of the rules (SAKBOC 1.12: units decide)."""

    tiebreak_1 = forms.ChoiceField(choices=Union.Tiebreak.choices, label=gettext_lazy("First tiebreak"))
    tiebreak_2 = forms.ChoiceField(choices=Union.Tiebreak.choices, label=gettext_lazy("Second tiebreak"))
    tiebreak_3 = forms.ChoiceField(choices=Union.Tiebreak.choices, label=gettext_lazy("Third tiebreak"))

    class Meta:
        model = Union
        fields = list(UNION_SETTING_FIELDS)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # 0 would delete a player's e-mail the season they play
        cast(forms.IntegerField, self.fields["retention_seasons"]).min_value = 1
        self.fields["retention_seasons"].validators.append(MinValueValidator(1))
        self.fields["retention_seasons"].widget.attrs["min"] = 1
        order = list(self.instance.tiebreak_order or []) + [None, None, None]
        for n in range(3):
            self.fields[f"tiebreak_{n + 1}"].initial = order[n]

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        order = [data.get(f"tiebreak_{n}") for n in (1, 2, 3)]
        if len(set(order)) != 3:
            self.add_error("tiebreak_3", gettext_lazy("Each tiebreak may appear only once."))
        data["tiebreak_order"] = order
        return data

    def settings(self) -> dict:
        """The cleaned values for ``clubs.services.union_settings_update``."""
        return {name: self.cleaned_data[name] for name in [*self.Meta.fields, "tiebreak_order"]}


class ClubForm(forms.Form):
    """A club's name (new or renamed)."""

    name = forms.CharField(max_length=120, label=gettext_lazy("Club's name"))


class InviteForm(forms.Form):
    """Invite someone by name and e-mail to a role in the union; a secretary's club."""

    first_name = forms.CharField(max_length=60, label=gettext_lazy("First name"))
    last_name = forms.CharField(max_length=60, label=gettext_lazy("Surname"))
    email = forms.EmailField(label=gettext_lazy("E-mail"))
    role = forms.ChoiceField(
        choices=[(v, lbl) for v, lbl in Invitation.Role.choices if v != Invitation.Role.CAPTAIN],
        label=gettext_lazy("Role"),
        help_text=gettext_lazy("Captains get their login from their club's secretary, on the club's players page."),
    )
    club = forms.ModelChoiceField(queryset=Club.objects.none(), required=False, label=gettext_lazy("Club"),
                                  empty_label=gettext_lazy("— (not a club secretary)"),
                                  help_text=gettext_lazy("For a club secretary: which club."))

    def __init__(self, *args, union: Union, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["club"]).queryset = Club.objects.filter(
            union=union, active=True).order_by("name")


DATE_OF_BIRTH_HELP = gettext_lazy(
    "Optional. Used only to tell apart two people of the same name in the national registry, so that a player "
    "who moves union keeps one record; never shown on public pages (POPIA: no more than needed).")


def different_person_ask(form: forms.BaseForm) -> None:
    """Show ``form``'s "different person" box (hidden until the national registry finds a player of the same name
    and date of birth in another union: ``clubs.services.player_registration_check``)."""
    form.fields["different_person"].widget = forms.CheckboxInput()


class PlayerForm(forms.ModelForm):
    """Register or edit a club's player (the services check the registration number is the union's only one), with
    the player's answers on the optional uses of their data (POPIA s11): an e-mail address or phone number typed
    without its box ticked is a form error (``clubs.services.player_consents_check``, as the import and the API)."""

    email_consent = forms.BooleanField(
        required=False, label=gettext_lazy("The player agrees that the union keeps their e-mail address"))
    phone_consent = forms.BooleanField(
        required=False, label=gettext_lazy("The player agrees that the union keeps their phone number"))
    full_name_public_consent = forms.BooleanField(
        required=False, label=gettext_lazy("The player agrees that the union may show their full name on public "
                                           "pages"),
        help_text=gettext_lazy("Otherwise public pages show their initials and surname, e.g. J. Adams."))

    different_person = forms.BooleanField(
        required=False, widget=forms.HiddenInput,
        label=gettext_lazy("This is a different person from the player of the same name and date of birth in "
                           "another union"),
        help_text=gettext_lazy("Tick only if you are sure; otherwise ask for an inter-union transfer."))

    class Meta:
        model = Player
        fields = ["registration_number", "first_name", "last_name", "date_of_birth", "email", "email_consent",
                  "phone", "phone_consent", "full_name_public_consent"]
        labels = {"last_name": gettext_lazy("Surname")}
        widgets = {"date_of_birth": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        help_texts = {"date_of_birth": DATE_OF_BIRTH_HELP}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        player = self.instance
        if player.pk is not None and not self.is_bound:
            for kind, given in player_consent_answers(player).items():
                self.fields[f"{kind}_consent"].initial = bool(given)

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        try:
            player_consents_check(email=data.get("email") or "", phone=data.get("phone") or "",
                                  consents=self.consents())
        except ValidationError as error:
            for name, messages in error.message_dict.items():
                self.add_error(name, messages)
        return data

    def consents(self) -> dict[str, bool]:
        """The player's answers as ticked (``{kind: bool}``, ``clubs.services.CONSENT_KINDS``)."""
        return {kind: bool(self.cleaned_data.get(f"{kind}_consent")) for kind in CONSENT_KINDS}

    def player_fields(self) -> dict:
        """The player's own fields, for ``clubs.services.player_register``/``player_update``."""
        return {name: self.cleaned_data[name] for name in self.Meta.fields if not name.endswith("_consent")
                and name in self.cleaned_data}

    def different_person_confirmed(self) -> bool:
        """Whether the user confirmed a different person from a look-alike in another union."""
        return bool(self.cleaned_data.get("different_person"))


class SignUpForm(forms.Form):
    """A new account from an invitation: a username and a password, twice."""

    username = forms.CharField(max_length=150, label=gettext_lazy("Username"),
                               help_text=gettext_lazy("What you type to sign in."))
    password1 = forms.CharField(widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                                label=gettext_lazy("Password"),
                                help_text=gettext_lazy("At least 8 characters, not only digits, not a common one."))
    password2 = forms.CharField(widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                                label=gettext_lazy("Password again"))

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", gettext_lazy("The two passwords differ."))
        return data


class RefereeAddForm(forms.Form):
    """Put someone on the union's list of referees: an account at that address goes on the list at once; anyone
    else is sent an invitation (they choose a password from its link and are on the list when they accept)."""

    first_name = forms.CharField(max_length=150, label=gettext_lazy("First name"))
    last_name = forms.CharField(max_length=150, label=gettext_lazy("Last name"))
    email = forms.EmailField(
        label=gettext_lazy("Email"),
        help_text=gettext_lazy("Someone with an account is found by it; anyone else is e-mailed an invitation."),
    )

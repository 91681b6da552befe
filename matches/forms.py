"""Forms for officials' and captains' pages (parsing only: the rules are the services')."""

import datetime as dt
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Player
from clubs.selectors import person_name
from matches.competitions import fixtures
from matches.models import DEFAULT_RULESET, RULESET_CHOICES, TABLES_PER_MATCH, Competition, Seat


class CompetitionForm(forms.Form):
    """A new league season or knock-out cup."""

    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    season = forms.CharField(max_length=20, help_text=gettext_lazy("E.g. 2026."), label=gettext_lazy("Season"))
    kind = forms.ChoiceField(
        choices=Competition.Kind.choices,
        help_text=gettext_lazy("A league plays home and away rounds; a cup is a knock-out bracket."),
     label=gettext_lazy("Kind"))
    starts_on = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label=gettext_lazy("Starts on")
    )
    ruleset = forms.ChoiceField(choices=RULESET_CHOICES, initial=DEFAULT_RULESET, required=False,
                                help_text=Competition._meta.get_field("ruleset").help_text,
                                label=gettext_lazy("Rules"))
    deals_per_table = forms.IntegerField(min_value=0, max_value=200, initial=0, required=False,
                                         help_text=Competition._meta.get_field("deals_per_table").help_text,
                                         label=gettext_lazy("Deals per table"))

    def clean_ruleset(self) -> str:
        return self.cleaned_data.get("ruleset") or DEFAULT_RULESET

    def clean_deals_per_table(self) -> int:
        return self.cleaned_data.get("deals_per_table") or 0


class FixturesForm(forms.Form):
    """Generate the fixture list: league rounds (home and away) or the cup's first round with byes."""

    start = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=gettext_lazy("Date of round 1."),
        label=gettext_lazy("Start"),
    )
    kickoff = forms.TimeField(
        initial=dt.time(19, 30),
        widget=forms.TimeInput(attrs={"type": "time"}),
        help_text=gettext_lazy("Start of play; captains toss 5 minutes before (SAKBOC 1.3)."),
        label=gettext_lazy("Kickoff"),
    )
    days_between_rounds = forms.IntegerField(
        min_value=1, max_value=365, initial=7, label=gettext_lazy("Days between rounds")
    )
    home_and_away = forms.BooleanField(
        required=False,
        initial=True,
        help_text=gettext_lazy("League: each pair meets at both venues."),
        label=gettext_lazy("Home and away"),
    )
    blackout_dates = forms.CharField(
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=gettext_lazy(
            "No round is played on these dates (YYYY-MM-DD, one per line or separated by commas): a round that "
            "would fall on one moves to the next free match night, and later rounds keep their spacing. South "
            "Africa's public holidays of the coming 12 months are filled in; add or remove dates as you need."
        ),
        label=gettext_lazy("Blackout dates"),
    )

    def __init__(self, *args, today: dt.date | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            start = today or timezone.localdate()
            self.initial.setdefault("blackout_dates", "\n".join(
                day.isoformat() for day in fixtures.south_african_public_holidays(start=start)))

    def clean_blackout_dates(self) -> list[dt.date]:
        """The dates typed, sorted (``matches.competitions.fixtures.blackout_dates_parse``)."""
        try:
            return fixtures.blackout_dates_parse(self.cleaned_data.get("blackout_dates") or "")
        except fixtures.BlackoutDateError as error:
            raise forms.ValidationError(
                _("“%(value)s” is not a date: write each blackout date as YYYY-MM-DD, e.g. 2026-12-25.")
                % {"value": error.entry}
            ) from None


class RescheduleForm(forms.Form):
    """Postpone or move a fixture: its new date, time and venue, and why
    (``matches.competitions.fixture_changes.fixture_reschedule``
    decides whether it may be moved)."""

    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
                           label=gettext_lazy("Date"))
    time = forms.TimeField(widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"), label=gettext_lazy("Time"),
                           help_text=gettext_lazy("Start of play; captains toss 5 minutes before (SAKBOC 1.3)."))
    venue = forms.CharField(max_length=160, required=False, label=gettext_lazy("Venue"))
    reason = forms.CharField(
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Why: the captains, the referee and the marker are told, and the match's history "
                               "keeps it with your name and the old date and venue."),
        label=gettext_lazy("Reason"),
    )

    def __init__(self, *args, match=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if match is not None and not self.is_bound:
            start = timezone.localtime(match.scheduled_start)
            self.initial.update(date=start.date(), time=start.time().replace(second=0, microsecond=0),
                                venue=match.venue)

    def scheduled_start(self) -> dt.datetime:
        """The new start, an aware local datetime (after ``is_valid()``)."""
        return dt.datetime.combine(self.cleaned_data["date"], self.cleaned_data["time"],
                                   tzinfo=timezone.get_current_timezone())


class PersonChoiceField(forms.ModelChoiceField):
    """A user, offered by full name (the username only when the user has no name)."""

    def label_from_instance(self, obj) -> str:
        return person_name(obj)


class OfficialsForm(forms.Form):
    """The match's referee and, at a final, the marker (SAKBOC 1.11), chosen by name from the union's list of
    referees (``clubs.models.UnionReferee``). Whether the choice is impartial is the service's rule. While the match is
    in play (``referee_fixed``) the referee is not offered: only the marker can be changed
    (``matches.competitions.services.match_officials_assign``)."""

    referee = PersonChoiceField(
        queryset=get_user_model().objects.none(),
        required=False,
        empty_label=gettext_lazy("— none yet —"),
        help_text=gettext_lazy("From the union's list of referees."),
    )
    marker = PersonChoiceField(queryset=get_user_model().objects.none(), required=False,
                               empty_label=gettext_lazy("— none —"),
                               help_text=gettext_lazy("Takes the referee's place at a final when no referee is present "
                               "(SAKBOC 1.11)."))

    def __init__(self, *args, union, referee_fixed: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        listed = get_user_model().objects.filter(is_active=True, union_referee_links__union=union).order_by(
            "last_name", "first_name", "username")
        if referee_fixed:
            del self.fields["referee"]
        for name in ("referee", "marker"):
            if name in self.fields:
                cast(PersonChoiceField, self.fields[name]).queryset = listed


class TeamEntryForm(forms.Form):
    """A club's team for a competition: its name, its squad from the club's registered players and its captain."""

    name = forms.CharField(
        max_length=120,
        help_text=gettext_lazy("As it will appear in fixtures and standings."),
        label=gettext_lazy("Name"),
    )
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "At least 8: a full team is 8 registered players (SAKBOC 1.5); more are its substitutes (11.1)."
        ),
     label=gettext_lazy("Players"))
    captain = forms.ModelChoiceField(
        queryset=Player.objects.none(), help_text=gettext_lazy("One of the players ticked above.")
    , label=gettext_lazy("Captain"))

    def __init__(self, *args, eligible, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        ids = [p.pk for p in eligible]
        queryset = Player.objects.filter(pk__in=ids).order_by("last_name", "first_name")
        players = cast(forms.ModelMultipleChoiceField, self.fields["players"])
        captain = cast(forms.ModelChoiceField, self.fields["captain"])
        players.queryset = captain.queryset = queryset

        def label(player: Player) -> str:
            return f"{player.full_name} ({player.registration_number})"

        # Django calls the field instance's label_from_instance(obj): set here, not as a method of a field class.
        players.label_from_instance = label  # type: ignore[method-assign,assignment]
        captain.label_from_instance = label  # type: ignore[method-assign,assignment]


class ResultCorrectForm(forms.Form):
    """An official enters or corrects a match's score, with the reason history keeps."""

    home_score = forms.IntegerField(min_value=0, max_value=9999, label=gettext_lazy("Home score"))
    away_score = forms.IntegerField(min_value=0, max_value=9999, label=gettext_lazy("Away score"))
    reason = forms.CharField(
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Why: kept in the match's history with your name and the old score."),
     label=gettext_lazy("Reason"))


class DisputeForm(forms.Form):
    """A captain disputes a result."""

    reason = forms.CharField(
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy(
            "What is wrong with the result: the table, the boem, the figures. The union's "
            "officials and the referee read it."
        ),
     label=gettext_lazy("Reason"))


class StandingsPublishForm(forms.Form):
    """Publish the standings as they stand: a frozen, dated snapshot."""

    title = forms.CharField(
        max_length=160,
        required=False,
        help_text=gettext_lazy("E.g. 'After round 6'; each publication has its own title."),
        label=gettext_lazy("Title"),
    )
    as_of = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}),
                            help_text=gettext_lazy("Defaults to today."), label=gettext_lazy("As of"))


class NightFileForm(forms.Form):
    """A night file to import (matches/nightfile/): uploaded, or carried back from the confirmation step."""

    MAX_BYTES = 20 * 1024 * 1024

    file = forms.FileField(
        required=False, label=gettext_lazy("Night file"),
        help_text=gettext_lazy("The .json file written by “Download the night's file” or manage.py night_export."),
    )
    night = forms.CharField(required=False, widget=forms.HiddenInput, label=gettext_lazy("Night"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # forms.Form.clean returns cleaned_data
        upload = data.get("file")
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError({"file": _("A night file is far smaller than this; is it the right file?")})
            data["data"] = upload.read()
        elif data.get("night"):
            data["data"] = data["night"].encode()
        else:
            raise forms.ValidationError({"file": _("Choose the night's file to import.")})
        return data


class SeasonStartForm(forms.Form):
    """The next season's name (``matches.seasons.services.season_start``)."""

    name = forms.CharField(
        max_length=20,
        help_text=gettext_lazy(
            "E.g. 2027. The competitions are copied under this season; a "
            'name that carries the old season ("Cup 2026") gets the new one ("Cup 2027").'
        ),
     label=gettext_lazy("Name"))


class TransferForm(forms.Form):
    """A player's transfer to another club of the union (``matches.seasons.transfers.player_transfer``): the player
    found by
    registration number, which stays theirs."""

    registration_number = forms.CharField(
        max_length=30, help_text=gettext_lazy("The player's registration number; it follows them to the new club.")
    , label=gettext_lazy("Registration number"))
    to_club = forms.ModelChoiceField(queryset=Player.objects.none(), label=gettext_lazy("To club"))
    transferred_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=gettext_lazy("On"),
                                     help_text=gettext_lazy("The day the registration moves; today or earlier."))
    note = forms.CharField(
        max_length=300,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Optional: e.g. the clubs' agreement. Kept with the transfer."),
        label=gettext_lazy("Note"),
    )

    def __init__(self, *args, union, **kwargs) -> None:
        from clubs.models import Club

        super().__init__(*args, **kwargs)
        self.union = union
        to_club = cast(forms.ModelChoiceField, self.fields["to_club"])
        to_club.queryset = Club.objects.filter(union=union).order_by("name")

    def clean(self) -> dict[str, Any]:
        """Find the player by registration number in the union: ``cleaned_data["player"]``."""
        data = super().clean()
        assert data is not None  # forms.Form.clean returns cleaned_data
        number = (data.get("registration_number") or "").strip()
        if number:
            data["player"] = Player.objects.select_related("club").filter(
                union=self.union, registration_number__iexact=number).first()
            if data["player"] is None:
                self.add_error(
                    "registration_number",
                    _("No player of %(union)s has registration number %(number)s.")
                    % {"union": self.union, "number": number},
                )
        return data
class TeamSheetForm(forms.Form):
    """The team sheet: at each table a telman (the counter, who keeps the boem) and a byspeler (the partner
    opposite). Leave a table empty to field only 3 tables (the opponents then get 20 points, SAKBOC 1.13)."""

    version = forms.IntegerField(
        widget=forms.HiddenInput,
        required=False,
        min_value=0,
        help_text=gettext_lazy(
            "The sheet's version when the form was shown (0: none yet); a sheet changed since on another "
            "device is not overwritten."
        ),
     label=gettext_lazy("Version"))

    def __init__(self, *args, squad: list[Player], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, f"{p.full_name} ({p.registration_number})") for p in squad]
        for table in range(1, TABLES_PER_MATCH + 1):
            for role, label in Seat.Role.choices:
                self.fields[f"table{table}_{role}"] = forms.TypedChoiceField(
                    choices=choices, coerce=int, required=False, empty_value=None,
                    label=_("Table %(table)s: %(label)s") % {"table": table, "label": label},
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
                raise forms.ValidationError(_("Table %(table)s needs both a telman and a byspeler.") % {"table": table})
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
            coerce=int, label=_("Player leaving"), choices=[(p.pk, p.full_name) for p in seated])
        self.fields["player_in"] = forms.TypedChoiceField(
            coerce=int, label=_("Substitute"), choices=[(p.pk, p.full_name) for p in bench])
        self.fields["role"] = forms.ChoiceField(
            required=False, choices=[("", _("Same role as the player leaving")), *Seat.Role.choices],
            help_text=_("The substitute's role is the captain's choice (SAKBOC 11.1)."))


class InterUnionFindForm(forms.Form):
    """Find a player of another union to ask for (``matches.seasons.inter_union``): by national registration
    number or name."""

    q = forms.CharField(
        max_length=60, min_length=3, label=gettext_lazy("National registration number or name"),
        help_text=gettext_lazy("The number on the player's card, or at least three letters of their name."))


class InterUnionAskForm(forms.Form):
    """Ask for a player of another union (``inter_union_transfer_ask``): the player, the club and a note."""

    player = forms.IntegerField(widget=forms.HiddenInput)
    note = forms.CharField(
        max_length=300, required=False, widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Note"),
        help_text=gettext_lazy("Optional: e.g. why the player moves. Both unions read it."))


class InterUnionReasonForm(forms.Form):
    """Why a request is refused or declined (both unions and the asking club read it)."""

    reason = forms.CharField(max_length=300, widget=forms.Textarea(attrs={"rows": 3}), label=gettext_lazy("Reason"),
                             help_text=gettext_lazy("The asking club and the other union read it."))


class InterUnionAcceptForm(forms.Form):
    """Accept a cleared request (``inter_union_transfer_accept``), with the union's registration number."""

    registration_number = forms.CharField(
        max_length=30, required=False, label=gettext_lazy("Registration number in your union"),
        help_text=gettext_lazy("Leave empty to keep the player's number, if no player of your union has it. The "
                               "national registration number stays theirs."))


class TransferWindowForm(forms.Form):
    """An open season's closed window for transfers in from another union
    (``matches.seasons.inter_union.season_transfer_window_set``); both empty lifts it."""

    season = forms.CharField(max_length=20, widget=forms.HiddenInput)
    closed_from = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}),
                                  label=gettext_lazy("Closed to transfers in from"))
    closed_until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}),
                                   label=gettext_lazy("until"),
                                   help_text=gettext_lazy("Inclusive; empty: until the season closes."))

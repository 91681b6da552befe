"""Competitions, fixtures and match nights: team sheets, the match clock, tables, boem sheets, awards,
results and standings.

A match night (DOMAIN.md): two teams, 4 tables; at each table one partnership of each team (a telman and a
byspeler) plays boems back to back. The clock (SAKBOC 1.2, 1.3, 1.15, 12.3) lives in :class:`Match`'s
columns so a worker restart loses nothing; Celery timers only *wake* the services, which re-read these
columns (matches/tasks.py). All writes go through the services (matches/<job>/services.py).
"""

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy
from simple_history.models import HistoricalRecords

from engine.ruleset import RULESETS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: The rulesets' names as the pages say them, in the reader's language: the engine's ``Ruleset.title`` is the
#: English, and a ruleset registered later without a label here is shown by it.
RULESET_LABELS = {
    "sakboc-2004": gettext_lazy("SAKBOC official rules, amended 2004"),
    "sakboc-2004-notes": gettext_lazy("SAKBOC 2004 with the Notes' reading of going on in old play (Notes §VI, "
                                      "SAKBOC 8.19, 8.24)"),
    "rotterdam": gettext_lazy("Dutch klaverjassen, Rotterdam rules (as played in New Zealand)"),
    "amsterdam": gettext_lazy("Dutch klaverjassen, Amsterdam rules (a partner winning the trick frees you from "
                              "trumping)"),
    "wikipedia-klaverjas": gettext_lazy("Klaverjas as described by Wikipedia: trump from a turned card in two "
                                        "rounds"),
    "klammern": gettext_lazy("Klammern: upcard from the dealer's last three, Kleines/Besser, Contra/Re"),
}


def ruleset_choices() -> list[tuple[str, "StrOrPromise"]]:
    """The rulesets a competition may be played under: the engine's registry (``engine.ruleset.RULESETS``), each
    by its label (:data:`RULESET_LABELS`). A callable, so the model's choices follow the registry and the labels
    without a migration."""
    return [(name, RULESET_LABELS.get(name, rs.title)) for name, rs in RULESETS.items()]


RULESET_CHOICES = ruleset_choices()
DEFAULT_RULESET = "sakboc-2004"


def name_with_season(name: str, season: str) -> str:
    """A competition's (or a drive's) name with its season, as pages say it: "Premier League 2026". A name that
    already ends with its season ("Boland Liga 2026", season "2026") is shown as it is, not "… 2026 2026"."""
    name, season = name.strip(), season.strip()
    if not season or name == season or name.endswith(f" {season}"):
        return name
    return f"{name} {season}"


TABLES_PER_MATCH = 4
STROKES_PER_BOEM = 5
table_number_validators = [MinValueValidator(1), MaxValueValidator(TABLES_PER_MATCH)]


class Competition(models.Model):
    """A union's league season (played in rounds) or knock-out cup."""

    class Kind(models.TextChoices):
        LEAGUE = "league", gettext_lazy("League season")
        KNOCKOUT = "knockout", gettext_lazy("Knock-out cup")

    union = models.ForeignKey(
        "clubs.Union", on_delete=models.PROTECT, related_name="competitions", verbose_name=gettext_lazy("union")
    )
    name = models.CharField(max_length=120, verbose_name=gettext_lazy("name"))
    season = models.CharField(
        max_length=20, help_text=gettext_lazy("E.g. '2026'."), verbose_name=gettext_lazy("season")
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.LEAGUE, verbose_name=gettext_lazy("kind"))
    starts_on = models.DateField(null=True, blank=True, verbose_name=gettext_lazy("starts on"))
    entries_open = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "Clubs' secretaries may enter teams while the union's official keeps entries open; "
            "fixtures are made once they are closed."
        ),
        verbose_name=gettext_lazy("entries open"),
    )
    ruleset = models.CharField(
        max_length=40, choices=ruleset_choices, default=DEFAULT_RULESET, verbose_name=gettext_lazy("rules"),
        help_text=gettext_lazy("The rules the competition is played under. SAKBOC 2004 is read with the union's "
                               "interpretation settings; the Dutch games, the Wikipedia variant and Klammern are "
                               "played deal by deal."),
    )
    deals_per_table = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(200)], verbose_name=gettext_lazy("deals per table"),
        help_text=gettext_lazy("Deals each table plays in a game scored deal by deal (e.g. 16 for a Rotterdam "
                               "boom); 0 = the ruleset's own end (16 deals, 1001 points, 51 match points). Not "
                               "used under SAKBOC."),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("created at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("competition")
        verbose_name_plural = gettext_lazy("competitions")
        ordering = ["-season", "name"]
        constraints = [
            models.UniqueConstraint(fields=["union", "name", "season"], name="competition_unique_in_union")
        ]

    def __str__(self) -> str:
        return name_with_season(self.name, self.season)

    @property
    def is_knockout(self) -> bool:
        return self.kind == self.Kind.KNOCKOUT


class Match(models.Model):
    """A fixture and, once played, its match night: clock state, score and result workflow.

    Clock columns are instants (aware datetimes); deadlines are derived from them and the clock lengths: the
    union's settings, or the match's own ``half_minutes`` and ``interval_minutes`` when set
    (``matches.selectors.match_clock_lengths``, ``matches.selectors.match_clock``). ``home_score``/``away_score``
    are the match scores (tables' points plus awards), recomputed by the services after every boem-sheet entry,
    award or stop.
    """

    class Phase(models.TextChoices):
        SCHEDULED = "scheduled", gettext_lazy("Scheduled")
        FIRST_HALF = "first_half", gettext_lazy("First half")
        INTERVAL = "interval", gettext_lazy("Interval")
        SECOND_HALF = "second_half", gettext_lazy("Second half")
        AWAITING_EXTRA_TIME = "awaiting_extra_time", gettext_lazy("Knock-out draw: toss and extra time to come")
        EXTRA_TIME = "extra_time", gettext_lazy("Extra time")
        FINISHED = "finished", gettext_lazy("Finished")

    class ResultStatus(models.TextChoices):
        NONE = "none", gettext_lazy("Not played")
        PROVISIONAL = "provisional", gettext_lazy("Provisional")
        CONFIRMED = "confirmed", gettext_lazy("Confirmed")
        APPROVED = "approved", gettext_lazy("Approved")

    competition = models.ForeignKey(
        Competition, on_delete=models.PROTECT, related_name="matches", verbose_name=gettext_lazy("competition")
    )
    round_number = models.PositiveSmallIntegerField(
        default=1,
        help_text=gettext_lazy("League round, or knock-out round."),
        verbose_name=gettext_lazy("round number"),
    )
    round_name = models.CharField(
        max_length=40,
        blank=True,
        help_text=gettext_lazy("E.g. 'Semi-final' (knock-out)."),
        verbose_name=gettext_lazy("round name"),
    )
    tie_number = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy(
            "Knock-out: the tie's place in its round's bracket (1, 2, …); ties 2k-1 and "
            "2k feed tie k of the next round."
        ),
        verbose_name=gettext_lazy("tie number"),
    )
    home = models.ForeignKey(
        "clubs.Team", on_delete=models.PROTECT, related_name="home_matches", verbose_name=gettext_lazy("home")
    )
    away = models.ForeignKey(
        "clubs.Team", on_delete=models.PROTECT, related_name="away_matches", verbose_name=gettext_lazy("away")
    )
    venue = models.CharField(max_length=160, blank=True, verbose_name=gettext_lazy("venue"))
    scheduled_start = models.DateTimeField(
        help_text=gettext_lazy("Start of play; the toss is before it (SAKBOC 1.3)."),
        verbose_name=gettext_lazy("scheduled start"),
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="refereed_matches"
    , verbose_name=gettext_lazy("referee"))
    marker = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="marked_matches",
        help_text=gettext_lazy("Takes the referee's place at a final when no referee is present (SAKBOC 1.11)."),
     verbose_name=gettext_lazy("marker"))

    # Clock state.
    phase = models.CharField(
        max_length=20, choices=Phase.choices, default=Phase.SCHEDULED, db_index=True, verbose_name=gettext_lazy("phase")
    )
    toss_winner = models.ForeignKey(
        "clubs.Team",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=gettext_lazy(
            "Gets the cards (SAKBOC 1.3); for extra time, the winner of the second toss (SAKBOC 1.12)."
        ),
        verbose_name=gettext_lazy("toss winner"),
    )
    tossed_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("tossed at"))
    first_half_started_at = models.DateTimeField(
        null=True, blank=True, verbose_name=gettext_lazy("first half started at")
    )
    interval_started_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("interval started at"))
    second_half_started_at = models.DateTimeField(
        null=True, blank=True, verbose_name=gettext_lazy("second half started at")
    )
    grace_handled_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=gettext_lazy("When the 3-minute grace after the interval was acted on (SAKBOC 12.3)."),
        verbose_name=gettext_lazy("grace handled at"),
    )
    extra_time_started_at = models.DateTimeField(
        null=True, blank=True, verbose_name=gettext_lazy("extra time started at")
    )
    extra_time_periods = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("extra time periods"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("finished at"))
    # The match's own clock lengths, when it is not played to the union's (matches.selectors.match_clock_lengths).
    half_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)],
        help_text=gettext_lazy("Shorter halves for this match only, e.g. a practice night (SAKBOC 1.2). "
                               "Empty: the union's."),
        verbose_name=gettext_lazy("half minutes"),
    )
    interval_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)],
        help_text=gettext_lazy("A shorter interval for this match only, e.g. a practice night (SAKBOC 1.2). "
                               "Empty: the union's."),
        verbose_name=gettext_lazy("interval minutes"),
    )

    # Score and result.
    home_score = models.IntegerField(default=0, verbose_name=gettext_lazy("home score"))
    away_score = models.IntegerField(default=0, verbose_name=gettext_lazy("away score"))
    winner = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("Set when finished and not drawn."),
     verbose_name=gettext_lazy("winner"))
    result_status = models.CharField(
        max_length=12, choices=ResultStatus.choices, default=ResultStatus.NONE, db_index=True
    , verbose_name=gettext_lazy("result status"))
    home_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("home confirmed by"))
    away_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("away confirmed by"))
    confirmed_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("confirmed at"))
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("approved by"))
    approved_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("approved at"))
    live_version = models.PositiveBigIntegerField(
        default=0, editable=False,
        help_text=gettext_lazy("Bumped in the same transaction as every change the live pages show (the clock, a "
        "boem sheet, an award, the result; matches.records.match_lock): the live pages' ETag, so a phone that "
        "polls gets 304 until something changes. Never set by hand (a stale value would hide a change)."),
     verbose_name=gettext_lazy("live version"))

    history = HistoricalRecords(excluded_fields=["live_version"])

    class Meta:
        verbose_name = gettext_lazy("match")
        ordering = ["scheduled_start", "id"]
        verbose_name_plural = gettext_lazy("matches")
        constraints = [
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="match_home_is_not_away"),
        ]
        indexes = [models.Index(fields=["competition", "result_status"], name="match_competition_status")]

    def __str__(self) -> str:
        return f"{self.home} v {self.away}"

    @property
    def status_label(self) -> str:
        """Where the match stands, for people: its result's status once it has one ("Provisional", "Approved");
        before that "Not played yet", or the phase of play ("In play: second half"), never "Not played" for a
        match at the tables."""
        if self.result_status != self.ResultStatus.NONE:
            return str(self.get_result_status_display())
        if self.phase == self.Phase.SCHEDULED:
            return gettext("Not played yet")
        if self.phase in (self.Phase.FINISHED, self.Phase.AWAITING_EXTRA_TIME):
            return str(self.get_phase_display())  # "Knock-out draw: toss and extra time to come"
        return gettext("In play: %(phase)s") % {"phase": str(self.get_phase_display()).lower()}

    def side_of(self, team_id: int) -> str:
        """``"home"`` or ``"away"`` for a team in this match; ``ValueError`` for any other team."""
        if team_id == self.home_id:
            return "home"
        if team_id == self.away_id:
            return "away"
        raise ValueError(f"team {team_id} does not play in match {self.pk}")

    def opponent_id(self, team_id: int) -> int:
        return self.away_id if self.side_of(team_id) == "home" else self.home_id


class TeamSheet(models.Model):
    """A team's named partnerships for a match night (its :class:`Seat` rows): table 1 to 4."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="team_sheets", verbose_name=gettext_lazy("match")
    )
    team = models.ForeignKey(
        "clubs.Team", on_delete=models.PROTECT, related_name="team_sheets", verbose_name=gettext_lazy("team")
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name=gettext_lazy("submitted by"),
    )
    submitted_at = models.DateTimeField(verbose_name=gettext_lazy("submitted at"))
    version = models.PositiveIntegerField(
        default=1,
        help_text=gettext_lazy(
            "Bumped by every submit; a form sends the version it showed, so a submit based on "
            "a sheet another device has changed since is refused (matches.services.team_sheet_submit)."
        ),
        verbose_name=gettext_lazy("version"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("team sheet")
        verbose_name_plural = gettext_lazy("team sheets")
        constraints = [models.UniqueConstraint(fields=["match", "team"], name="team_sheet_one_per_team")]

    def __str__(self) -> str:
        return f"{self.team} sheet for {self.match}"


class Seat(models.Model):
    """One player's seat on a team sheet: table and role (telman or byspeler), fixed for the night (11.3).

    A substitution (SAKBOC 11.1) puts another player in the seat; ``called_away_at`` marks a player called
    away with no substitute (SAKBOC 11.2).
    """

    class Role(models.TextChoices):
        TELMAN = "telman", gettext_lazy("Telman (counter)")
        BYSPELER = "byspeler", gettext_lazy("Byspeler (partner)")

    sheet = models.ForeignKey(
        TeamSheet, on_delete=models.CASCADE, related_name="seats", verbose_name=gettext_lazy("sheet")
    )
    table_number = models.PositiveSmallIntegerField(
        validators=table_number_validators, verbose_name=gettext_lazy("table number")
    )
    role = models.CharField(max_length=10, choices=Role.choices, verbose_name=gettext_lazy("role"))
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="seats", verbose_name=gettext_lazy("player")
    )
    called_away_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("called away at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("seat")
        verbose_name_plural = gettext_lazy("seats")
        ordering = ["table_number", "role"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "table_number", "role"], name="seat_unique_role_at_table"),
            models.UniqueConstraint(fields=["sheet", "player"], name="seat_player_once_per_sheet"),
            models.CheckConstraint(
                condition=Q(table_number__gte=1, table_number__lte=TABLES_PER_MATCH), name="seat_table_1_to_4"
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.table_number} {self.role}: {self.player}"


class Substitution(models.Model):
    """A half-time substitution (SAKBOC 11.1, 11.4): who left which seat and who took it, in which role."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="substitutions", verbose_name=gettext_lazy("match")
    )
    team = models.ForeignKey(
        "clubs.Team", on_delete=models.PROTECT, related_name="+", verbose_name=gettext_lazy("team")
    )
    table_number = models.PositiveSmallIntegerField(
        validators=table_number_validators, verbose_name=gettext_lazy("table number")
    )
    role = models.CharField(max_length=10, choices=Seat.Role.choices, verbose_name=gettext_lazy("role"))
    player_out = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="+", verbose_name=gettext_lazy("player out")
    )
    player_in = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="+", verbose_name=gettext_lazy("player in")
    )
    made_at = models.DateTimeField(verbose_name=gettext_lazy("made at"))
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=gettext_lazy("made by")
    )

    class Meta:
        verbose_name = gettext_lazy("substitution")
        verbose_name_plural = gettext_lazy("substitutions")
        ordering = ["made_at", "id"]

    def __str__(self) -> str:
        return f"{self.player_in} for {self.player_out} ({self.team})"


class MatchTable(models.Model):
    """A table of a match night and its state: playing, stopped (with reason) or not played."""

    class Status(models.TextChoices):
        PLAYING = "playing", gettext_lazy("Playing")
        STOPPED = "stopped", gettext_lazy("Stopped")
        NOT_PLAYED = "not_played", gettext_lazy("Not played (a team fielded only 3 tables, SAKBOC 1.13)")

    class StopReason(models.TextChoices):
        REFEREE = "referee", gettext_lazy("Stopped by the referee (SAKBOC 12.1)")
        UNSEATED = "unseated", gettext_lazy("Players not seated after the grace (SAKBOC 12.3)")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="tables", verbose_name=gettext_lazy("match")
    )
    number = models.PositiveSmallIntegerField(validators=table_number_validators, verbose_name=gettext_lazy("number"))
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.PLAYING, verbose_name=gettext_lazy("status")
    )
    stop_reason = models.CharField(
        max_length=10, choices=StopReason.choices, blank=True, verbose_name=gettext_lazy("stop reason")
    )
    stop_note = models.CharField(max_length=300, blank=True, verbose_name=gettext_lazy("stop note"))
    defaulting_team = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("The side whose partnership forfeits its points at this table (SAKBOC 12.1)."),
     verbose_name=gettext_lazy("defaulting team"))
    stopped_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("stopped at"))
    stopped_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("stopped by"))
    unseated_team = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("Reported with players not seated after the interval (SAKBOC 12.3)."),
     verbose_name=gettext_lazy("unseated team"))
    unseated_reported_at = models.DateTimeField(
        null=True, blank=True, verbose_name=gettext_lazy("unseated reported at")
    )
    sheet_version = models.PositiveIntegerField(
        default=0, editable=False,
        help_text=gettext_lazy("Bumped by every write to the table's boem sheet; a device or form sends the version "
        "it showed, and a write based on a sheet someone else has changed since is refused (HTTP 409)."),
     verbose_name=gettext_lazy("sheet version"))
    open_strafs = models.PositiveSmallIntegerField(
        default=0, editable=False,
        help_text=gettext_lazy("Straf claims ('af') at this table waiting for the referee's ruling (SAKBOC 1.10); "
        "the table takes no going-on until they are ruled."),
     verbose_name=gettext_lazy("open strafs"))
    history = HistoricalRecords(excluded_fields=["sheet_version"])

    class Meta:
        verbose_name = gettext_lazy("match table")
        verbose_name_plural = gettext_lazy("match tables")
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="match_table_unique_number")]

    def __str__(self) -> str:
        return f"table {self.number} of {self.match}"


class DealLine(models.Model):
    """One deal of a game scored deal by deal (a makers game: Rotterdam, Amsterdam, the Wikipedia variant,
    Klammern; issue 24) as the table writes it on the score sheet, and the engine's score of it.

    What the table says (``makers`` … ``march``) is checked by ``engine.deals.check_deal`` under the
    competition's ruleset (``matches.rules.competition_ruleset``); ``made`` and the four scored columns are the
    engine's answer, saved with the line (``matches.night.deals.deal_record``). Side 0 of the engine is the home team.
    """

    table = models.ForeignKey(MatchTable, on_delete=models.CASCADE, related_name="deals")
    sequence = models.PositiveSmallIntegerField(help_text="The deal's number at the table (1, 2, …).")
    makers = models.ForeignKey("clubs.Team", on_delete=models.PROTECT, related_name="+",
                               help_text="The side that played (made trumps).")
    home_card_points = models.PositiveSmallIntegerField(help_text="Card points the home side took (last trick "
                                                        "included); with the away side's, 162 in the Dutch games.")
    away_card_points = models.PositiveSmallIntegerField()
    home_roem = models.PositiveSmallIntegerField(default=0, help_text="Roem the home side claimed, in tens.")
    away_roem = models.PositiveSmallIntegerField(default=0)
    pit = models.ForeignKey("clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                            help_text="The side that took every trick (pit, mars, march), if any.")
    nat = models.BooleanField(null=True, blank=True, help_text="What the table said: nat (the makers went "
                              "down), made, or not said.")
    multiplier = models.PositiveSmallIntegerField(default=1, help_text="1; 2 after Contra, 4 after Re (Klammern).")
    march = models.ForeignKey("clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                              help_text="The side that announced a march (Klammern §March).")
    made = models.BooleanField(help_text="The engine's answer: the makers made it (False: nat, the opponents "
                               "score everything).")
    home_points = models.PositiveIntegerField(help_text="Game points the home side scores for the deal.")
    away_points = models.PositiveIntegerField()
    home_score = models.PositiveIntegerField(help_text="The deal in the game's unit (Klammern: match points; "
                                             "else the game points), what the table's total adds up.")
    away_score = models.PositiveIntegerField()
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    device = models.ForeignKey("TableDevice", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "sequence"]
        verbose_name = gettext_lazy("deal line")
        verbose_name_plural = gettext_lazy("deal lines")
        constraints = [models.UniqueConstraint(fields=["table", "sequence"], name="deal_line_unique_sequence")]

    def __str__(self) -> str:
        return f"deal {self.sequence} at {self.table}"


class Boem(models.Model):
    """One boem (rubber of 5 strokes) at a table; ``points`` go to ``winner`` when it ends.

    Completed: 2 points, 4 when won 5-0 (SAKBOC 6.1). Straf: 2 or 4 (SAKBOC 6.2, interpretation 2).
    Unfinished at full time: nothing by default (interpretation 3); its strokes stay on the sheet.
    """

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", gettext_lazy("In progress")
        COMPLETED = "completed", gettext_lazy("Completed (5 strokes)")
        STRAFFED = "straffed", gettext_lazy("Ended by a straf")
        UNFINISHED = "unfinished", gettext_lazy("Unfinished at time")

    table = models.ForeignKey(
        MatchTable, on_delete=models.CASCADE, related_name="boems", verbose_name=gettext_lazy("table")
    )
    number = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("number"))
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.IN_PROGRESS, verbose_name=gettext_lazy("status")
    )
    home_strokes = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("home strokes"))
    away_strokes = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("away strokes"))
    winner = models.ForeignKey(
        "clubs.Team",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=gettext_lazy("winner"),
    )
    points = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("points"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("ended at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("boem")
        verbose_name_plural = gettext_lazy("boems")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="boem_unique_number_at_table"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="in_progress"), name="boem_one_in_progress_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"boem {self.number} at {self.table}"


SHEET_ORDER = ("recorded_at", "sequence")
"""The order of a table's boem sheet: when each line happened at the table, then the order it was written."""


class BoemEntry(models.Model):
    """A line on a table's boem sheet (Notes §V), as plain values; ``matches.night.boem_sheet`` writes every one.

    ``stroke``: ``team``'s telman went on ``strokes`` (1 or 2, SAKBOC 7.3). ``straf``: ``team`` punished ("af")
    and the referee upheld it; ``points`` (2 or 4, SAKBOC 6.2). ``straf_reversed``: the straf before was wrong
    (Notes §VII): the boem goes to ``team``, the side wrongly punished, with ``points`` (6.6's extra 2 when
    ``points_claimed``). ``time``: time was called or the table stopped: a boem in progress is unfinished
    (SAKBOC 2.2, 12.1; interpretation 3). ``boem`` and ``points`` are what the engine's
    ``engine.boem_sheet.score_sheet`` made of the sheet at the last write.

    A line entered at the table is *provisional* until the opposing telman confirms it on the table's device
    (``confirmed_by_player``) or the referee does (``confirmed_by``); the opposing telman may dispute it
    instead (``disputed_at``), which the referee settles by confirming or correcting it. The referee may enter
    or correct a line on the table's behalf with a written ``referee_reason``; a line struck off stays, with
    ``struck`` set and no boem, so the sheet's history keeps it. ``recorded_at`` is when it happened at the
    table (a ruling's straf: when "af" was said), ``sequence`` the order it was written (unique per table).
    """

    class Kind(models.TextChoices):
        STROKE = "stroke", gettext_lazy("Stroke(s) gone on")
        STRAF = "straf", gettext_lazy("Straf (punishment)")
        STRAF_REVERSED = "straf_reversed", gettext_lazy("Wrong straf reversed")
        TIME = "time", gettext_lazy("Time called: a boem in progress is unfinished")

    table = models.ForeignKey(
        MatchTable, on_delete=models.CASCADE, related_name="entries", verbose_name=gettext_lazy("table")
    )
    boem = models.ForeignKey(
        Boem,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries",
        help_text=gettext_lazy(
            "The boem the line belongs to; empty for a line struck off or a time line with no boem to end."
        ),
        verbose_name=gettext_lazy("boem"),
    )
    sequence = models.PositiveIntegerField(
        help_text=gettext_lazy("The order it was written at the table (1, 2, …)."),
        verbose_name=gettext_lazy("sequence"),
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, verbose_name=gettext_lazy("kind"))
    team = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("Who went on, punished, or wins the reversal; empty for a time line."),
     verbose_name=gettext_lazy("team"))
    strokes = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("strokes"))
    points = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("points"))
    points_claimed = models.BooleanField(
        default=False,
        help_text=gettext_lazy("A reversal: the side wrongly punished had already claimed points (SAKBOC 6.6)."),
        verbose_name=gettext_lazy("points claimed"),
    )
    claimed_by = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("The telman or byspeler who went on or said 'af'."),
     verbose_name=gettext_lazy("claimed by"))
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    , verbose_name=gettext_lazy("reverses"))
    note = models.CharField(max_length=300, blank=True, verbose_name=gettext_lazy("note"))
    recorded_at = models.DateTimeField(
        help_text=gettext_lazy("When it happened at the table."), verbose_name=gettext_lazy("recorded at")
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("recorded by"))
    device = models.ForeignKey(
        "TableDevice", null=True, blank=True, on_delete=models.SET_NULL, related_name="entries",
        help_text=gettext_lazy("The table device that entered it."),
     verbose_name=gettext_lazy("device"))
    confirmed_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("confirmed at"))
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text=gettext_lazy("The referee (or marker), or an opposing telman signed in with an account."),
     verbose_name=gettext_lazy("confirmed by"))
    confirmed_by_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("The opposing telman who confirmed it on the table's device."),
     verbose_name=gettext_lazy("confirmed by player"))
    disputed_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("disputed at"))
    disputed_by_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
     verbose_name=gettext_lazy("disputed by player"))
    dispute_reason = models.CharField(max_length=300, blank=True, verbose_name=gettext_lazy("dispute reason"))
    corrected_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("corrected at"))
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("corrected by"))
    referee_reason = models.CharField(
        max_length=300,
        blank=True,
        help_text=gettext_lazy("Why the referee entered or corrected it on the table's behalf."),
        verbose_name=gettext_lazy("referee reason"),
    )
    struck = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Struck off the sheet by the referee (with the reason)."),
        verbose_name=gettext_lazy("struck"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("boem entry")
        ordering = ["table", *SHEET_ORDER]
        verbose_name_plural = gettext_lazy("boem entries")
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="stroke") | Q(strokes__in=[1, 2]), name="boem_entry_stroke_1_or_2"
            ),
            models.CheckConstraint(
                condition=Q(kind="time", team__isnull=True) | (~Q(kind="time") & Q(team__isnull=False)),
                name="boem_entry_team_unless_time",
            ),
            models.UniqueConstraint(fields=["table", "sequence"], name="boem_entry_unique_sequence_at_table"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.sequence}"

    @property
    def state(self) -> str:
        """``struck``, ``disputed``, ``confirmed`` or ``provisional`` (entered, not yet confirmed)."""
        if self.struck:
            return "struck"
        if self.confirmed_at is not None:
            return "confirmed"
        if self.disputed_at is not None:
            return "disputed"
        return "provisional"


class Award(models.Model):
    """Match points awarded to ``team`` outside the boem sheets (SAKBOC 1.13, 11.2, 12.1, 12.3)."""

    class Kind(models.TextChoices):
        THREE_TABLES = "three_tables", gettext_lazy("Opponents fielded only 3 tables (SAKBOC 1.13)")
        CALLED_AWAY = "called_away", gettext_lazy("Opponent called away with no substitute (SAKBOC 11.2)")
        TABLE_STOPPED = "table_stopped", gettext_lazy("Opponents' table stopped (SAKBOC 12.1)")
        UNSEATED = "unseated", gettext_lazy("Opponents not seated after the grace (SAKBOC 12.3)")

    POINTS = {Kind.THREE_TABLES: 20, Kind.CALLED_AWAY: 20, Kind.TABLE_STOPPED: 20, Kind.UNSEATED: 10}
    CLAUSE = {
        Kind.THREE_TABLES: "SAKBOC 1.13",
        Kind.CALLED_AWAY: "SAKBOC 11.2",
        Kind.TABLE_STOPPED: "SAKBOC 12.1",
        Kind.UNSEATED: "SAKBOC 12.3",
    }

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="awards", verbose_name=gettext_lazy("match")
    )
    team = models.ForeignKey(
        "clubs.Team",
        on_delete=models.PROTECT,
        related_name="+",
        help_text=gettext_lazy("Beneficiary."),
        verbose_name=gettext_lazy("team"),
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, verbose_name=gettext_lazy("kind"))
    points = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("points"))
    clause = models.CharField(max_length=20, verbose_name=gettext_lazy("clause"))
    half = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=gettext_lazy("1 or 2 (SAKBOC 11.2)."), verbose_name=gettext_lazy("half")
    )
    table_number = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=table_number_validators, verbose_name=gettext_lazy("table number")
    )
    player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("The opponent called away (SAKBOC 11.2)."),
     verbose_name=gettext_lazy("player"))
    note = models.CharField(max_length=300, blank=True, verbose_name=gettext_lazy("note"))
    created_at = models.DateTimeField(verbose_name=gettext_lazy("created at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("created by"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("award")
        verbose_name_plural = gettext_lazy("awards")
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "team"], condition=Q(kind="three_tables"), name="award_three_tables_once"
            ),
            models.UniqueConstraint(
                fields=["match", "player", "half"], condition=Q(kind="called_away"), name="award_called_away_once"
            ),
            models.UniqueConstraint(
                fields=["match", "table_number"], condition=Q(kind__in=["table_stopped", "unseated"]),
                name="award_table_stop_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.points} to {self.team} ({self.clause})"


class ResultDispute(models.Model):
    """A captain disputes a match's result, saying why: the union's officials and the referee are told; an
    official settles it by entering or correcting the result with a reason (``matches.results.services.result_enter``),
    and the result cannot be approved while a dispute is open."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="disputes", verbose_name=gettext_lazy("match")
    )
    team = models.ForeignKey(
        "clubs.Team",
        on_delete=models.PROTECT,
        related_name="+",
        help_text=gettext_lazy("The side whose captain disputes."),
        verbose_name=gettext_lazy("team"),
    )
    reason = models.TextField(max_length=1000, verbose_name=gettext_lazy("reason"))
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=gettext_lazy("raised by"),
    )
    raised_at = models.DateTimeField(verbose_name=gettext_lazy("raised at"))
    settled_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("settled at"))
    settled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=gettext_lazy("settled by"))
    settlement = models.TextField(
        blank=True,
        help_text=gettext_lazy("What the official did about it, and why."),
        verbose_name=gettext_lazy("settlement"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("result dispute")
        verbose_name_plural = gettext_lazy("result disputes")
        ordering = ["match", "raised_at", "id"]

    def __str__(self) -> str:
        return f"dispute of {self.match} by {self.team}"

    @property
    def is_open(self) -> bool:
        return self.settled_at is None


class StandingsRow(models.Model):
    """A competition's computed standings, one row per team, written by ``standings_recompute``."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="standings_rows", verbose_name=gettext_lazy("competition")
    )
    team = models.ForeignKey(
        "clubs.Team", on_delete=models.CASCADE, related_name="+", verbose_name=gettext_lazy("team")
    )
    position = models.PositiveIntegerField(verbose_name=gettext_lazy("position"))
    played = models.PositiveIntegerField(default=0, verbose_name=gettext_lazy("played"))
    won = models.PositiveIntegerField(default=0, verbose_name=gettext_lazy("won"))
    drawn = models.PositiveIntegerField(default=0, verbose_name=gettext_lazy("drawn"))
    lost = models.PositiveIntegerField(default=0, verbose_name=gettext_lazy("lost"))
    points_for = models.IntegerField(default=0, verbose_name=gettext_lazy("points for"))
    points_against = models.IntegerField(default=0, verbose_name=gettext_lazy("points against"))
    difference = models.IntegerField(default=0, verbose_name=gettext_lazy("difference"))
    league_points = models.IntegerField(default=0, verbose_name=gettext_lazy("league points"))
    tiebreak_reason = models.CharField(
        max_length=300,
        blank=True,
        help_text=gettext_lazy("Why this team is above the next team level on league points."),
        verbose_name=gettext_lazy("tiebreak reason"),
    )
    computed_at = models.DateTimeField(verbose_name=gettext_lazy("computed at"))

    class Meta:
        verbose_name = gettext_lazy("standings row")
        verbose_name_plural = gettext_lazy("standings rows")
        ordering = ["competition", "position"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "team"], name="standings_row_unique_team"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.team}"


class StandingsSnapshot(models.Model):
    """Published standings, frozen and dated: ``rows`` is a copy, never recomputed.

    ``rows``: a list of dicts with the keys of :class:`StandingsRow` plus ``team_id``/``team_name``/``club_name``.
    Written once by ``standings_publish``; never updated (the admin shows it read-only).
    """

    competition = models.ForeignKey(
        Competition,
        on_delete=models.PROTECT,
        related_name="standings_snapshots",
        verbose_name=gettext_lazy("competition"),
    )
    title = models.CharField(max_length=160, verbose_name=gettext_lazy("title"))
    as_of = models.DateField(
        help_text=gettext_lazy("The date the standings stand at."), verbose_name=gettext_lazy("as of")
    )
    rows = models.JSONField(verbose_name=gettext_lazy("rows"))
    published_at = models.DateTimeField(verbose_name=gettext_lazy("published at"))
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("published by"))

    class Meta:
        verbose_name = gettext_lazy("standings snapshot")
        verbose_name_plural = gettext_lazy("standings snapshots")
        ordering = ["-published_at"]

    def __str__(self) -> str:
        return f"{self.title} ({self.as_of})"


class PlayedHand(models.Model):
    """One hand played at a table, as the rules engine's bots played it (the demo season, issue 7).

    The audit trail behind a boem sheet: ``record`` is the hand record (format ``klawerjas-hand``
    version 1, docs/hand-record.md) that ``engine.adjudicate`` replays; ``went_on``/``strokes`` say which
    side's telman went on and how many strokes (none: ou jol, the tallies carry over, SAKBOC 8.15);
    ``entry`` is the boem-sheet line the hand produced (a stroke, or a straf decided from the record).
    Written once (bulk), never updated.
    """

    table = models.ForeignKey(
        MatchTable, null=True, on_delete=models.CASCADE, related_name="played_hands",
        help_text=gettext_lazy("The table it was played at (always set by the demo season)."),
     verbose_name=gettext_lazy("table"))
    boem = models.ForeignKey(
        Boem,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="played_hands",
        help_text=gettext_lazy(
            "The boem it belongs to; empty for ou jol hands after the last boem ended, when time was "
            "called before anyone went on (nothing on the sheet)."
        ),
        verbose_name=gettext_lazy("boem"),
    )
    number = models.PositiveSmallIntegerField(
        help_text=gettext_lazy("Hand number at the table that night (1, 2, …)."), verbose_name=gettext_lazy("number")
    )
    half = models.PositiveSmallIntegerField(
        default=1, help_text=gettext_lazy("Half of the match night it was dealt in."), verbose_name=gettext_lazy("half")
    )
    played_at = models.DateTimeField(
        help_text=gettext_lazy("When the hand ended (the time on the boem sheet)."),
        verbose_name=gettext_lazy("played at"),
    )
    record = models.JSONField(
        help_text=gettext_lazy("The hand record (docs/hand-record.md)."), verbose_name=gettext_lazy("record")
    )
    went_on = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("The side whose telman went on; empty for ou jol (old play) or a straf."),
     verbose_name=gettext_lazy("went on"))
    strokes = models.PositiveSmallIntegerField(
        default=0, help_text=gettext_lazy("Strokes gone on (1 or 2; 0 for none)."), verbose_name=gettext_lazy("strokes")
    )
    roem = models.PositiveSmallIntegerField(
        default=0, help_text=gettext_lazy("Roem scored in the hand, both sides."), verbose_name=gettext_lazy("roem")
    )
    straf_decision = models.CharField(
        max_length=40,
        blank=True,
        help_text=gettext_lazy("The engine's decision on a straf claim ('upheld', 'wrong-straf')."),
        verbose_name=gettext_lazy("straf decision"),
    )
    verdict = models.JSONField(
        default=dict,
        blank=True,
        help_text=gettext_lazy("Summary of the engine's verdict, if adjudicated."),
        verbose_name=gettext_lazy("verdict"),
    )
    entry = models.ForeignKey(
        BoemEntry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text=gettext_lazy("The boem-sheet line this hand produced."),
     verbose_name=gettext_lazy("entry"))

    class Meta:
        verbose_name = gettext_lazy("played hand")
        verbose_name_plural = gettext_lazy("played hands")
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="played_hand_unique_at_table")]

    def __str__(self) -> str:
        return f"hand {self.number} at {self.table}"


class TableLink(models.Model):
    """A table's link for one match night: the short ``code`` typed at ``/table/`` and the ``secret`` in its QR
    code. A device that opens it may write that table's boem sheet of that match only, until the match ends
    (``matches.night.table_links``). The referee can revoke it and issue another; a revoked link signs nobody in, and
    the devices signed in with it are signed out."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="table_links", verbose_name=gettext_lazy("match")
    )
    table_number = models.PositiveSmallIntegerField(
        validators=table_number_validators, verbose_name=gettext_lazy("table number")
    )
    code = models.CharField(
        max_length=12,
        unique=True,
        help_text=gettext_lazy("Typed at /table/, e.g. 'K7M2QX9A'."),
        verbose_name=gettext_lazy("code"),
    )
    secret = models.CharField(
        max_length=64,
        unique=True,
        help_text=gettext_lazy("In the QR code's address."),
        verbose_name=gettext_lazy("secret"),
    )
    issued_at = models.DateTimeField(verbose_name=gettext_lazy("issued at"))
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("issued by"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("revoked at"))
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("revoked by"))
    history = HistoricalRecords(excluded_fields=["secret"])

    class Meta:
        verbose_name = gettext_lazy("table link")
        verbose_name_plural = gettext_lazy("table links")
        ordering = ["match", "table_number", "-issued_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "table_number"], condition=Q(revoked_at__isnull=True), name="table_link_one_active"
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.table_number} link of {self.match}"


class TableDevice(models.Model):
    """A phone signed in at a table with a :class:`TableLink`: every entry it makes records it.

    Players need no accounts (the paper sheet needs none). The page keeps the device in its session; the API
    gets ``key`` once at sign-in (``Authorization: Table <key>``), of which only a SHA-256 hash is stored.
    """

    link = models.ForeignKey(
        TableLink, on_delete=models.CASCADE, related_name="devices", verbose_name=gettext_lazy("link")
    )
    key_hash = models.CharField(max_length=64, unique=True, verbose_name=gettext_lazy("key hash"))
    label = models.CharField(
        max_length=80,
        blank=True,
        help_text=gettext_lazy("What the device said it is (its browser)."),
        verbose_name=gettext_lazy("label"),
    )
    signed_in_at = models.DateTimeField(verbose_name=gettext_lazy("signed in at"))
    last_seen_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("last seen at"))

    class Meta:
        verbose_name = gettext_lazy("table device")
        verbose_name_plural = gettext_lazy("table devices")
        ordering = ["link", "signed_in_at"]

    def __str__(self) -> str:
        return f"device {self.pk} at {self.link}"


class Season(models.Model):
    """A union's season: the union's competitions whose ``Competition.season`` label is ``name``.

    Competitions keep their season as a label (``"2026"``), as pages, downloads and the API already show it; this
    row adds what a season has beyond its label: whether it is closed (its archive frozen: final standings,
    champions and cup winners in :class:`SeasonHonour`), who closed it and when, and the season it was started
    from (``matches.seasons``). A season with competitions but no row yet is open.
    """

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Open")
        CLOSED = "closed", gettext_lazy("Closed")

    union = models.ForeignKey(
        "clubs.Union", on_delete=models.PROTECT, related_name="seasons", verbose_name=gettext_lazy("union")
    )
    name = models.CharField(
        max_length=20,
        help_text=gettext_lazy("The competitions' season label, e.g. '2026'."),
        verbose_name=gettext_lazy("name"),
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, verbose_name=gettext_lazy("status")
    )
    started_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="next_seasons",
        help_text=gettext_lazy("The closed season whose competitions, teams and squads this one was started from."),
     verbose_name=gettext_lazy("started from"))
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("closed at"))
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("closed by"))
    transfers_closed_from = models.DateField(
        null=True, blank=True,
        help_text=gettext_lazy("The union's closed window: no player transfers in from another union from this day…"),
        verbose_name=gettext_lazy("transfers closed from"),
    )
    transfers_closed_until = models.DateField(
        null=True, blank=True,
        help_text=gettext_lazy("…up to and including this day."),
        verbose_name=gettext_lazy("transfers closed until"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("created at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("season")
        verbose_name_plural = gettext_lazy("seasons")
        ordering = ["union", "-name"]
        constraints = [models.UniqueConstraint(fields=["union", "name"], name="season_unique_name_in_union")]

    def __str__(self) -> str:
        return f"{self.union.short_name} season {self.name}"

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED


class SeasonHonour(models.Model):
    """A closed season's roll of honour: a league's champions (with its final standings) or a cup's winners (with
    its final). Team and club names are copied, so the archive reads the same whatever is renamed later.
    Written once by ``matches.seasons.season_close``; never updated."""

    class Kind(models.TextChoices):
        CHAMPIONS = "champions", gettext_lazy("League champions")
        CUP_WINNERS = "cup_winners", gettext_lazy("Cup winners")

    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="honours", verbose_name=gettext_lazy("season")
    )
    competition = models.ForeignKey(
        Competition, on_delete=models.PROTECT, related_name="honours", verbose_name=gettext_lazy("competition")
    )
    kind = models.CharField(max_length=12, choices=Kind.choices, verbose_name=gettext_lazy("kind"))
    team = models.ForeignKey(
        "clubs.Team", on_delete=models.PROTECT, related_name="+", verbose_name=gettext_lazy("team")
    )
    team_name = models.CharField(max_length=120, verbose_name=gettext_lazy("team name"))
    club_name = models.CharField(max_length=120, verbose_name=gettext_lazy("club name"))
    standings = models.ForeignKey(
        StandingsSnapshot, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text=gettext_lazy("A league's final standings, frozen when the season closed."),
     verbose_name=gettext_lazy("standings"))
    final = models.ForeignKey(
        Match,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=gettext_lazy("A cup's final."),
        verbose_name=gettext_lazy("final"),
    )

    class Meta:
        verbose_name = gettext_lazy("season honour")
        verbose_name_plural = gettext_lazy("season honours")
        ordering = ["season", "kind", "competition__name", "team_name"]
        constraints = [models.UniqueConstraint(fields=["competition", "team"], name="season_honour_once_per_team")]

    def __str__(self) -> str:
        return f"{self.team_name}: {self.get_kind_display()}, {self.competition}"

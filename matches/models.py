"""Competitions, fixtures and match nights: team sheets, the match clock, tables, boem sheets, awards,
results and standings.

A match night (DOMAIN.md): two teams, 4 tables; at each table one partnership of each team (a telman and a
byspeler) plays boems back to back. The clock (SAKBOC 1.2, 1.3, 1.15, 12.3) lives in :class:`Match`'s
columns so a worker restart loses nothing; Celery timers only *wake* the services, which re-read these
columns (matches/tasks.py). All writes go through matches/services.py.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from engine.ruleset import RULESETS

#: The rulesets a competition may be played under: the engine's registry (``engine.ruleset.RULESETS``).
RULESET_CHOICES = [(name, rs.title) for name, rs in RULESETS.items()]
DEFAULT_RULESET = "sakboc-2004"

TABLES_PER_MATCH = 4
STROKES_PER_BOEM = 5
table_number_validators = [MinValueValidator(1), MaxValueValidator(TABLES_PER_MATCH)]


class Competition(models.Model):
    """A union's league season (played in rounds) or knock-out cup."""

    class Kind(models.TextChoices):
        LEAGUE = "league", "League season"
        KNOCKOUT = "knockout", "Knock-out cup"

    union = models.ForeignKey("clubs.Union", on_delete=models.PROTECT, related_name="competitions")
    name = models.CharField(max_length=120)
    season = models.CharField(max_length=20, help_text="E.g. '2026'.")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.LEAGUE)
    starts_on = models.DateField(null=True, blank=True)
    entries_open = models.BooleanField(
        default=False, help_text="Clubs' secretaries may enter teams while the union's official keeps entries open; "
        "fixtures are made once they are closed.",
    )
    ruleset = models.CharField(
        max_length=40, choices=RULESET_CHOICES, default=DEFAULT_RULESET,
        help_text="The rules the competition is played under. SAKBOC 2004 is read with the union's "
        "interpretation settings; the Dutch games, the Wikipedia variant and Klammern are played deal by deal "
        "(issue 24).",
    )
    deals_per_table = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(200)],
        help_text="Deals each table plays in a game scored deal by deal (e.g. 16 for a Rotterdam boom); 0 = the "
        "ruleset's own end (16 deals, 1001 points, 51 match points). Not used under SAKBOC.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-season", "name"]
        constraints = [
            models.UniqueConstraint(fields=["union", "name", "season"], name="competition_unique_in_union")
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"

    @property
    def is_knockout(self) -> bool:
        return self.kind == self.Kind.KNOCKOUT


class Match(models.Model):
    """A fixture and, once played, its match night: clock state, score and result workflow.

    Clock columns are instants (aware datetimes); deadlines are derived from them and the union's settings
    (see ``matches.selectors.match_clock``). ``home_score``/``away_score`` are the match scores (tables'
    points plus awards), recomputed by the services after every boem-sheet entry, award or stop.
    """

    class Phase(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        FIRST_HALF = "first_half", "First half"
        INTERVAL = "interval", "Interval"
        SECOND_HALF = "second_half", "Second half"
        AWAITING_EXTRA_TIME = "awaiting_extra_time", "Knock-out draw: toss and extra time to come"
        EXTRA_TIME = "extra_time", "Extra time"
        FINISHED = "finished", "Finished"

    class ResultStatus(models.TextChoices):
        NONE = "none", "Not played"
        PROVISIONAL = "provisional", "Provisional"
        CONFIRMED = "confirmed", "Confirmed"
        APPROVED = "approved", "Approved"

    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="matches")
    round_number = models.PositiveSmallIntegerField(default=1, help_text="League round, or knock-out round.")
    round_name = models.CharField(max_length=40, blank=True, help_text="E.g. 'Semi-final' (knock-out).")
    tie_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Knock-out: the tie's place in its round's bracket (1, 2, …); ties 2k-1 and "
        "2k feed tie k of the next round.",
    )
    home = models.ForeignKey("clubs.Team", on_delete=models.PROTECT, related_name="home_matches")
    away = models.ForeignKey("clubs.Team", on_delete=models.PROTECT, related_name="away_matches")
    venue = models.CharField(max_length=160, blank=True)
    scheduled_start = models.DateTimeField(help_text="Start of play; the toss is before it (SAKBOC 1.3).")
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="refereed_matches"
    )
    marker = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="marked_matches",
        help_text="Takes the referee's place at a final when no referee is present (SAKBOC 1.11).",
    )

    # Clock state.
    phase = models.CharField(max_length=20, choices=Phase.choices, default=Phase.SCHEDULED, db_index=True)
    toss_winner = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Gets the cards (SAKBOC 1.3); for extra time, the winner of the second toss (SAKBOC 1.12).",
    )
    tossed_at = models.DateTimeField(null=True, blank=True)
    first_half_started_at = models.DateTimeField(null=True, blank=True)
    interval_started_at = models.DateTimeField(null=True, blank=True)
    second_half_started_at = models.DateTimeField(null=True, blank=True)
    grace_handled_at = models.DateTimeField(
        null=True, blank=True, help_text="When the 3-minute grace after the interval was acted on (SAKBOC 12.3)."
    )
    extra_time_started_at = models.DateTimeField(null=True, blank=True)
    extra_time_periods = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    # Score and result.
    home_score = models.IntegerField(default=0)
    away_score = models.IntegerField(default=0)
    winner = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Set when finished and not drawn.",
    )
    result_status = models.CharField(
        max_length=12, choices=ResultStatus.choices, default=ResultStatus.NONE, db_index=True
    )
    home_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    away_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    live_version = models.PositiveBigIntegerField(
        default=0, editable=False,
        help_text="Bumped in the same transaction as every change the live pages show (the clock, a "
        "boem sheet, an award, the result; matches.records.match_lock): the live pages' ETag, so a phone that "
        "polls gets 304 until something changes. Never set by hand (a stale value would hide a change).",
    )

    history = HistoricalRecords(excluded_fields=["live_version"])

    class Meta:
        ordering = ["scheduled_start", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="match_home_is_not_away"),
        ]
        indexes = [models.Index(fields=["competition", "result_status"], name="match_competition_status")]

    def __str__(self) -> str:
        return f"{self.home} v {self.away}"

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

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="team_sheets")
    team = models.ForeignKey("clubs.Team", on_delete=models.PROTECT, related_name="team_sheets")
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    submitted_at = models.DateTimeField()
    version = models.PositiveIntegerField(
        default=1, help_text="Bumped by every submit; a form sends the version it showed, so a submit based on "
        "a sheet another device has changed since is refused (matches.services.team_sheet_submit).",
    )
    history = HistoricalRecords()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "team"], name="team_sheet_one_per_team")]

    def __str__(self) -> str:
        return f"{self.team} sheet for {self.match}"


class Seat(models.Model):
    """One player's seat on a team sheet: table and role (telman or byspeler), fixed for the night (11.3).

    A substitution (SAKBOC 11.1) puts another player in the seat; ``called_away_at`` marks a player called
    away with no substitute (SAKBOC 11.2).
    """

    class Role(models.TextChoices):
        TELMAN = "telman", "Telman (counter)"
        BYSPELER = "byspeler", "Byspeler (partner)"

    sheet = models.ForeignKey(TeamSheet, on_delete=models.CASCADE, related_name="seats")
    table_number = models.PositiveSmallIntegerField(validators=table_number_validators)
    role = models.CharField(max_length=10, choices=Role.choices)
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="seats")
    called_away_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
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

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="substitutions")
    team = models.ForeignKey("clubs.Team", on_delete=models.PROTECT, related_name="+")
    table_number = models.PositiveSmallIntegerField(validators=table_number_validators)
    role = models.CharField(max_length=10, choices=Seat.Role.choices)
    player_out = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    player_in = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    made_at = models.DateTimeField()
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["made_at", "id"]

    def __str__(self) -> str:
        return f"{self.player_in} for {self.player_out} ({self.team})"


class MatchTable(models.Model):
    """A table of a match night and its state: playing, stopped (with reason) or not played."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        STOPPED = "stopped", "Stopped"
        NOT_PLAYED = "not_played", "Not played (a team fielded only 3 tables, SAKBOC 1.13)"

    class StopReason(models.TextChoices):
        REFEREE = "referee", "Stopped by the referee (SAKBOC 12.1)"
        UNSEATED = "unseated", "Players not seated after the grace (SAKBOC 12.3)"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(validators=table_number_validators)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PLAYING)
    stop_reason = models.CharField(max_length=10, choices=StopReason.choices, blank=True)
    stop_note = models.CharField(max_length=300, blank=True)
    defaulting_team = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="The side whose partnership forfeits its points at this table (SAKBOC 12.1).",
    )
    stopped_at = models.DateTimeField(null=True, blank=True)
    stopped_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    unseated_team = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Reported with players not seated after the interval (SAKBOC 12.3).",
    )
    unseated_reported_at = models.DateTimeField(null=True, blank=True)
    sheet_version = models.PositiveIntegerField(
        default=0, editable=False,
        help_text="Bumped by every write to the table's boem sheet; a device or form sends the version "
        "it showed, and a write based on a sheet someone else has changed since is refused (HTTP 409).",
    )
    open_strafs = models.PositiveSmallIntegerField(
        default=0, editable=False,
        help_text="Straf claims ('af') at this table waiting for the referee's ruling (SAKBOC 1.10); "
        "the table takes no going-on until they are ruled.",
    )
    history = HistoricalRecords(excluded_fields=["sheet_version"])

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="match_table_unique_number")]

    def __str__(self) -> str:
        return f"table {self.number} of {self.match}"


class DealLine(models.Model):
    """One deal of a game scored deal by deal (a makers game: Rotterdam, Amsterdam, the Wikipedia variant,
    Klammern; issue 24) as the table writes it on the score sheet, and the engine's score of it.

    What the table says (``makers`` … ``march``) is checked by ``engine.deals.check_deal`` under the
    competition's ruleset (``matches.rules.competition_ruleset``); ``made`` and the four scored columns are the
    engine's answer, saved with the line (``matches.deals.deal_record``). Side 0 of the engine is the home team.
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
        constraints = [models.UniqueConstraint(fields=["table", "sequence"], name="deal_line_unique_sequence")]

    def __str__(self) -> str:
        return f"deal {self.sequence} at {self.table}"


class Boem(models.Model):
    """One boem (rubber of 5 strokes) at a table; ``points`` go to ``winner`` when it ends.

    Completed: 2 points, 4 when won 5-0 (SAKBOC 6.1). Straf: 2 or 4 (SAKBOC 6.2, interpretation 2).
    Unfinished at full time: nothing by default (interpretation 3); its strokes stay on the sheet.
    """

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        COMPLETED = "completed", "Completed (5 strokes)"
        STRAFFED = "straffed", "Ended by a straf"
        UNFINISHED = "unfinished", "Unfinished at time"

    table = models.ForeignKey(MatchTable, on_delete=models.CASCADE, related_name="boems")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    home_strokes = models.PositiveSmallIntegerField(default=0)
    away_strokes = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey("clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    points = models.PositiveSmallIntegerField(default=0)
    ended_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
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
    """A line on a table's boem sheet (Notes §V), as plain values; ``matches.boem_sheet`` writes every one.

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
        STROKE = "stroke", "Stroke(s) gone on"
        STRAF = "straf", "Straf (punishment)"
        STRAF_REVERSED = "straf_reversed", "Wrong straf reversed"
        TIME = "time", "Time called: a boem in progress is unfinished"

    table = models.ForeignKey(MatchTable, on_delete=models.CASCADE, related_name="entries")
    boem = models.ForeignKey(
        Boem, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries",
        help_text="The boem the line belongs to; empty for a line struck off or a time line with no boem to end.",
    )
    sequence = models.PositiveIntegerField(help_text="The order it was written at the table (1, 2, …).")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    team = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Who went on, punished, or wins the reversal; empty for a time line.",
    )
    strokes = models.PositiveSmallIntegerField(default=0)
    points = models.PositiveSmallIntegerField(default=0)
    points_claimed = models.BooleanField(
        default=False, help_text="A reversal: the side wrongly punished had already claimed points (SAKBOC 6.6).",
    )
    claimed_by = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="The telman or byspeler who went on or said 'af'.",
    )
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    note = models.CharField(max_length=300, blank=True)
    recorded_at = models.DateTimeField(help_text="When it happened at the table.")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    device = models.ForeignKey(
        "TableDevice", null=True, blank=True, on_delete=models.SET_NULL, related_name="entries",
        help_text="The table device that entered it.",
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The referee (or marker), or an opposing telman signed in with an account.",
    )
    confirmed_by_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="The opposing telman who confirmed it on the table's device.",
    )
    disputed_at = models.DateTimeField(null=True, blank=True)
    disputed_by_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
    )
    dispute_reason = models.CharField(max_length=300, blank=True)
    corrected_at = models.DateTimeField(null=True, blank=True)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    referee_reason = models.CharField(
        max_length=300, blank=True, help_text="Why the referee entered or corrected it on the table's behalf.",
    )
    struck = models.BooleanField(default=False, help_text="Struck off the sheet by the referee (with the reason).")
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", *SHEET_ORDER]
        verbose_name_plural = "boem entries"
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
        THREE_TABLES = "three_tables", "Opponents fielded only 3 tables (SAKBOC 1.13)"
        CALLED_AWAY = "called_away", "Opponent called away with no substitute (SAKBOC 11.2)"
        TABLE_STOPPED = "table_stopped", "Opponents' table stopped (SAKBOC 12.1)"
        UNSEATED = "unseated", "Opponents not seated after the grace (SAKBOC 12.3)"

    POINTS = {Kind.THREE_TABLES: 20, Kind.CALLED_AWAY: 20, Kind.TABLE_STOPPED: 20, Kind.UNSEATED: 10}
    CLAUSE = {
        Kind.THREE_TABLES: "SAKBOC 1.13",
        Kind.CALLED_AWAY: "SAKBOC 11.2",
        Kind.TABLE_STOPPED: "SAKBOC 12.1",
        Kind.UNSEATED: "SAKBOC 12.3",
    }

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="awards")
    team = models.ForeignKey("clubs.Team", on_delete=models.PROTECT, related_name="+", help_text="Beneficiary.")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    points = models.PositiveSmallIntegerField()
    clause = models.CharField(max_length=20)
    half = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 or 2 (SAKBOC 11.2).")
    table_number = models.PositiveSmallIntegerField(null=True, blank=True, validators=table_number_validators)
    player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="The opponent called away (SAKBOC 11.2).",
    )
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
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
    official settles it by entering or correcting the result with a reason (``matches.services.result_enter``),
    and the result cannot be approved while a dispute is open."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes")
    team = models.ForeignKey("clubs.Team", on_delete=models.PROTECT, related_name="+",
                             help_text="The side whose captain disputes.")
    reason = models.TextField(max_length=1000)
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    raised_at = models.DateTimeField()
    settled_at = models.DateTimeField(null=True, blank=True)
    settled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    settlement = models.TextField(blank=True, help_text="What the official did about it, and why.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["match", "raised_at", "id"]

    def __str__(self) -> str:
        return f"dispute of {self.match} by {self.team}"

    @property
    def is_open(self) -> bool:
        return self.settled_at is None


class StandingsRow(models.Model):
    """A competition's computed standings, one row per team, written by ``standings_recompute``."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="standings_rows")
    team = models.ForeignKey("clubs.Team", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    points_for = models.IntegerField(default=0)
    points_against = models.IntegerField(default=0)
    difference = models.IntegerField(default=0)
    league_points = models.IntegerField(default=0)
    tiebreak_reason = models.CharField(
        max_length=300, blank=True, help_text="Why this team is above the next team level on league points."
    )
    computed_at = models.DateTimeField()

    class Meta:
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

    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="standings_snapshots")
    title = models.CharField(max_length=160)
    as_of = models.DateField(help_text="The date the standings stand at.")
    rows = models.JSONField()
    published_at = models.DateTimeField()
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
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
        help_text="The table it was played at (always set by the demo season).",
    )
    boem = models.ForeignKey(
        Boem, null=True, blank=True, on_delete=models.SET_NULL, related_name="played_hands",
        help_text="The boem it belongs to; empty for ou jol hands after the last boem ended, when time was "
        "called before anyone went on (nothing on the sheet).",
    )
    number = models.PositiveSmallIntegerField(help_text="Hand number at the table that night (1, 2, …).")
    half = models.PositiveSmallIntegerField(default=1, help_text="Half of the match night it was dealt in.")
    played_at = models.DateTimeField(help_text="When the hand ended (the time on the boem sheet).")
    record = models.JSONField(help_text="The hand record (docs/hand-record.md).")
    went_on = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="The side whose telman went on; empty for ou jol (old play) or a straf.",
    )
    strokes = models.PositiveSmallIntegerField(default=0, help_text="Strokes gone on (1 or 2; 0 for none).")
    roem = models.PositiveSmallIntegerField(default=0, help_text="Roem scored in the hand, both sides.")
    straf_decision = models.CharField(
        max_length=40, blank=True, help_text="The engine's decision on a straf claim ('upheld', 'wrong-straf').",
    )
    verdict = models.JSONField(default=dict, blank=True, help_text="Summary of the engine's verdict, if adjudicated.")
    entry = models.ForeignKey(
        BoemEntry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The boem-sheet line this hand produced.",
    )

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="played_hand_unique_at_table")]

    def __str__(self) -> str:
        return f"hand {self.number} at {self.table}"


class TableLink(models.Model):
    """A table's link for one match night: the short ``code`` typed at ``/table/`` and the ``secret`` in its QR
    code. A device that opens it may write that table's boem sheet of that match only, until the match ends
    (``matches.table_links``). The referee can revoke it and issue another; a revoked link signs nobody in, and
    the devices signed in with it are signed out."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="table_links")
    table_number = models.PositiveSmallIntegerField(validators=table_number_validators)
    code = models.CharField(max_length=12, unique=True, help_text="Typed at /table/, e.g. 'K7M2QX9A'.")
    secret = models.CharField(max_length=64, unique=True, help_text="In the QR code's address.")
    issued_at = models.DateTimeField()
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = HistoricalRecords(excluded_fields=["secret"])

    class Meta:
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

    link = models.ForeignKey(TableLink, on_delete=models.CASCADE, related_name="devices")
    key_hash = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=80, blank=True, help_text="What the device said it is (its browser).")
    signed_in_at = models.DateTimeField()
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
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
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    union = models.ForeignKey("clubs.Union", on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=20, help_text="The competitions' season label, e.g. '2026'.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    started_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="next_seasons",
        help_text="The closed season whose competitions, teams and squads this one was started from.",
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
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
        CHAMPIONS = "champions", "League champions"
        CUP_WINNERS = "cup_winners", "Cup winners"

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="honours")
    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="honours")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    team = models.ForeignKey("clubs.Team", on_delete=models.PROTECT, related_name="+")
    team_name = models.CharField(max_length=120)
    club_name = models.CharField(max_length=120)
    standings = models.ForeignKey(
        StandingsSnapshot, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="A league's final standings, frozen when the season closed.",
    )
    final = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="+", help_text="A cup's final.",
    )

    class Meta:
        ordering = ["season", "kind", "competition__name", "team_name"]
        constraints = [models.UniqueConstraint(fields=["competition", "team"], name="season_honour_once_per_team")]

    def __str__(self) -> str:
        return f"{self.team_name}: {self.get_kind_display()}, {self.competition}"

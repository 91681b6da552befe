"""Unions, clubs, registered players, teams and the role links the permission layer reads.

SAKBOC (the Board) → unions → clubs → teams → registered players (DOMAIN.md "Organisation"). A full team
is 8 registered players (SAKBOC 1.5); a player plays for one team per competition. "Units can decide
otherwise" (SAKBOC 1.12): every per-union setting, including DOMAIN.md's interpretations, is a named field
on :class:`Union` with its default, not a buried constant.
"""

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from simple_history.models import HistoricalRecords

#: Django groups the permission layer (clubs/permissions.py) builds on; created by a data migration.
GROUP_UNION_OFFICIALS = "Union officials"
GROUP_CLUB_SECRETARIES = "Club secretaries"
GROUP_CAPTAINS = "Captains"
GROUP_REFEREES = "Referees"
ROLE_GROUPS = (GROUP_UNION_OFFICIALS, GROUP_CLUB_SECRETARIES, GROUP_CAPTAINS, GROUP_REFEREES)

#: A full team (SAKBOC 1.5): 4 tables of a telman and a byspeler.
FULL_TEAM_PLAYERS = 8


def default_tiebreak_order() -> list[str]:
    """DOMAIN.md "A match night": after league points, difference, then for, then head-to-head."""
    return [Union.Tiebreak.DIFFERENCE, Union.Tiebreak.FOR, Union.Tiebreak.HEAD_TO_HEAD]


class Union(models.Model):
    """A Klawerjas union (e.g. South Peninsula Klawerjas Union) and its per-union settings (SAKBOC 1.12)."""

    class Tiebreak(models.TextChoices):
        DIFFERENCE = "difference", "Aggregate match-score difference"
        FOR = "for", "Aggregate match points for"
        HEAD_TO_HEAD = "head_to_head", "Head-to-head (league points, then difference, between the tied teams)"

    class DealAfterGoingOn(models.TextChoices):
        LAST_TRICK = "last_trick", "The side that won the last trick of the previous hand (interpretation 1)"
        NEXT_DEALER = "next_dealer", "The next player in turn (anticlockwise)"

    class StrafFourPoints(models.TextChoices):
        """The engine's readings of SAKBOC 6.2 (``engine.ruleset.StrafFourPoints``)."""

        OPPONENTS_NONE = "three-or-four-strokes-opponents-none", (
            "4 points with 3 or 4 strokes and the opponents on none; 2 otherwise (interpretation 2)"
        )
        CLEAR = "three-or-four-strokes-clear", "4 points when 3 or 4 strokes ahead; 2 otherwise"

    class UnfinishedBoem(models.TextChoices):
        NOTHING = "nothing", "Scores nothing; its strokes are kept for the record (interpretation 3)"
        LEADER_TWO = "leader_two", "The side ahead on strokes scores 2 points"

    class RoemCounts(models.TextChoices):
        """The engine's readings of a called roem (``engine.ruleset.RoemCounts``; Notes §VI, §VIII; SAKBOC 8.2)."""

        AS_CALLED = "as-called", (
            "A called roem counts as called until it is punished; the false call is itself an offence "
            "(interpretation 6)"
        )
        AS_HELD = "as-held", "A roem counts only if the hand holds it; a false call counts nothing"

    class StrafNamedOffence(models.TextChoices):
        """The engine's readings of an "af" that names an offence (``engine.ruleset.StrafNamedOffence``; SAKBOC 6.7)."""

        NOTE = "note", (
            "An offence named with the \"af\" is a note for the referee: any real offence at or before it upholds "
            "the claim (interpretation 7)"
        )
        MUST_BE_COMMITTED = "must-be-committed", "An offence named with the \"af\" must be the one committed"

    name = models.CharField(max_length=120, unique=True)
    short_name = models.CharField(max_length=20, unique=True, help_text="E.g. 'SPKU'.")

    # League points per match result (DOMAIN.md: default win 2, draw 1, loss 0).
    points_win = models.PositiveSmallIntegerField(default=2)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    tiebreak_order = models.JSONField(
        default=default_tiebreak_order,
        help_text="Order of tiebreaks after league points: a list of 'difference', 'for', 'head_to_head'.",
    )

    # Match clock (SAKBOC 1.2, 1.3, 1.15, 12.3), kept per union because units decide match nights (1.1).
    toss_minutes_before = models.PositiveSmallIntegerField(default=5, help_text="SAKBOC 1.3: the toss.")
    half_minutes = models.PositiveSmallIntegerField(default=75, help_text="SAKBOC 1.2: 2 h 30 min in two halves.")
    interval_minutes = models.PositiveSmallIntegerField(default=10, help_text="SAKBOC 1.2: the interval.")
    last_period_minutes = models.PositiveSmallIntegerField(
        default=15, help_text="SAKBOC 1.15: no player leaves the table in the last minutes of the game."
    )
    grace_minutes = models.PositiveSmallIntegerField(
        default=3, help_text="SAKBOC 12.3: grace for unseated players after the interval."
    )

    # DOMAIN.md interpretations, each a named setting with its default.
    deal_after_going_on = models.CharField(
        max_length=20, choices=DealAfterGoingOn.choices, default=DealAfterGoingOn.LAST_TRICK,
        help_text="Interpretation 1: who deals a new game after a side goes on.",
    )
    straf_four_points = models.CharField(
        max_length=40, choices=StrafFourPoints.choices, default=StrafFourPoints.OPPONENTS_NONE,
        help_text="Interpretation 2 (SAKBOC 6.2): when a straf earns 4 points instead of 2.",
    )
    unfinished_boem = models.CharField(
        max_length=20, choices=UnfinishedBoem.choices, default=UnfinishedBoem.NOTHING,
        help_text="Interpretation 3: what a boem unfinished at full time scores.",
    )
    knockout_extra_time_minutes = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1)],
        help_text="Interpretation 4 (SAKBOC 1.12): extra time after a knock-out draw.",
    )
    referee_judges_unrecorded_offences = models.BooleanField(
        default=True,
        help_text="Interpretation 5: offences the record cannot show (talking, signs, slacking, tapping, flipped "
        "cards) are the referee's judgement; the engine records but does not decide them.",
    )
    roem_counts = models.CharField(
        max_length=20, choices=RoemCounts.choices, default=RoemCounts.AS_CALLED,
        help_text="Interpretation 6 (Notes §VI, §VIII; SAKBOC 8.2): whether a false roem nobody punished stands in "
        "the count until punished, or counts nothing. Asking a roemte's size is never the asker's offence.",
    )
    straf_named_offence = models.CharField(
        max_length=20, choices=StrafNamedOffence.choices, default=StrafNamedOffence.NOTE,
        help_text="Interpretation 7 (SAKBOC 6.7): a straf is the word \"af\" and need not name the offence; whether "
        "an offence named with it is a note for the referee or must be the offence committed.",
    )

    officials = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="UnionOfficial", related_name="official_of_unions", blank=True,
        help_text="Union officials who run this union (through UnionOfficial).",
    )

    # Appeals and discipline (issue 22). The referee's decision is final on the night (SAKBOC 1.10); the union
    # hears appeals afterwards and keeps a disciplinary record: units decide how (SAKBOC 1.12).
    appeal_deadline_days = models.PositiveSmallIntegerField(
        default=7, validators=[MinValueValidator(1)],
        help_text="A captain may appeal a ruling or a result until the end of this many days after the match.",
    )
    appeal_decision_days = models.PositiveSmallIntegerField(
        default=14, validators=[MinValueValidator(1)],
        help_text="The appeals committee decides within this many days of an appeal being lodged; an appeal not "
        "decided by then goes on the overdue list and the committee is reminded once.",
    )
    appeals_committee_name = models.CharField(
        max_length=120, default="Appeals committee",
        help_text="What the union calls the officials who hear appeals.",
    )
    appeals_committee = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="AppealsCommitteeMember", related_name="appeals_committee_of_unions",
        blank=True, help_text="Officials who hear appeals (through AppealsCommitteeMember); when none are named, "
        "every official of the union hears them.",
    )
    discipline_register_public = models.BooleanField(
        default=False, help_text="Whether anyone may read the union's discipline register, or only its officials.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        allowed = set(self.Tiebreak.values)
        order = self.tiebreak_order
        if not isinstance(order, list) or not all(isinstance(k, str) and k in allowed for k in order):
            raise ValidationError({"tiebreak_order": f"Tiebreaks must be a list drawn from {sorted(allowed)}."})
        if len(set(order)) != len(order):
            raise ValidationError({"tiebreak_order": "A tiebreak may appear only once."})
        if not (self.points_win > self.points_draw >= self.points_loss):
            raise ValidationError("League points must rank a win above a draw, and a draw no lower than a loss.")


class Club(models.Model):
    """A club in a union; it registers players and enters teams."""

    union = models.ForeignKey(Union, on_delete=models.PROTECT, related_name="clubs")
    name = models.CharField(max_length=120)
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ClubSecretary", related_name="secretary_of_clubs", blank=True,
        help_text="Club secretaries (through ClubSecretary).",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["union", "name"], name="club_unique_name_in_union")]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A registered player: registration number unique within the union; active or not.

    ``user`` optionally links the account the player signs in with (captains, telmanne confirming
    boem-sheet entries).
    """

    union = models.ForeignKey(Union, on_delete=models.PROTECT, related_name="players")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    registration_number = models.CharField(max_length=30)
    first_name = models.CharField(max_length=60)
    last_name = models.CharField(max_length=60)
    active = models.BooleanField(default=True, help_text="Only active players can be named in a squad or sheet.")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["last_name", "first_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["union", "registration_number"], name="player_unique_registration_in_union"
            )
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} ({self.registration_number})"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    def clean(self) -> None:
        if self.club_id and self.union_id and self.club.union_id != self.union_id:
            raise ValidationError({"club": "The player's club must belong to the player's union."})


class Team(models.Model):
    """A club's team in one competition; its squad is its :class:`TeamMembership` rows.

    A full team is 8 registered players (SAKBOC 1.5); the squad may hold more, who are the substitutes
    (SAKBOC 11.1). ``captain`` is a squad member; their linked user acts as captain.
    """

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="teams")
    competition = models.ForeignKey("matches.Competition", on_delete=models.PROTECT, related_name="teams")
    name = models.CharField(max_length=120)
    captain = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="captained_teams"
    )
    players = models.ManyToManyField(Player, through="TeamMembership", related_name="teams")
    seed = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Seeding in a knock-out cup, 1 = best; byes go to the top seeds."
    )
    draft = models.BooleanField(
        default=False, help_text="Carried over from last season's team (``matches.seasons.season_start``) and not yet "
        "confirmed by the club's secretary, who confirms or changes it; the fixtures wait until no team is a draft.",
    )
    carried_over_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="carried_over_to",
        help_text="Last season's team this one was carried over from.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "name"], name="team_unique_name_in_competition")
        ]

    def __str__(self) -> str:
        return self.name


class TeamMembership(models.Model):
    """A player in a team's squad. ``competition`` repeats ``team.competition`` so the database itself holds
    "one team per competition per player" (SAKBOC 1.5, DOMAIN.md)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    competition = models.ForeignKey("matches.Competition", on_delete=models.PROTECT, related_name="+")
    joined_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["team", "player__last_name"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="membership_one_team_per_competition"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.team}"


class UnionOfficial(models.Model):
    """A user who runs a union's competitions (DOMAIN.md "People")."""

    union = models.ForeignKey(Union, on_delete=models.CASCADE, related_name="official_links")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="union_official_links")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["union", "user"], name="union_official_unique")]

    def __str__(self) -> str:
        return f"{self.user} → {self.union}"


class UnionReferee(models.Model):
    """A referee (or marker, SAKBOC 1.11) on the union's list: the official picks a match's referee from it."""

    union = models.ForeignKey(Union, on_delete=models.CASCADE, related_name="referee_links")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="union_referee_links")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["union", "user__last_name", "user__first_name"]
        constraints = [models.UniqueConstraint(fields=["union", "user"], name="union_referee_unique")]

    def __str__(self) -> str:
        return f"{self.user} referees for {self.union}"


class ClubSecretary(models.Model):
    """A user who registers a club's players and teams (DOMAIN.md "People")."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="secretary_links")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_secretary_links")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "club secretaries"
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="club_secretary_unique")]

    def __str__(self) -> str:
        return f"{self.user} → {self.club}"


class AppealsCommitteeMember(models.Model):
    """An official of the union on its appeals committee (issue 22: a named group of users per union)."""

    union = models.ForeignKey(Union, on_delete=models.CASCADE, related_name="appeals_committee_links")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="appeals_committee_links")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["union", "user"], name="appeals_committee_member_unique")]

    def __str__(self) -> str:
        return f"{self.user} on the {self.union} {self.union.appeals_committee_name.lower()}"

    def clean(self) -> None:
        if self.union_id and self.user_id and not UnionOfficial.objects.filter(
                union_id=self.union_id, user_id=self.user_id).exists():
            raise ValidationError({"user": "Only an official of the union sits on its appeals committee (who decides "
                                           "an appeal may correct results, an official's task)."})


class DisciplinaryRecord(models.Model):
    """An offence away from the cards (late arrival, misconduct, a walk-out) recorded by the union against a
    player, a team or a club, with its sanction: a warning, a fine (an amount in rand, paid or not), or a
    suspension of a player for a number of match nights.

    A suspension counts the match nights of the player's teams from ``starts_on`` (the player sits out the next
    ``match_nights`` of them); ``matches.suspensions`` refuses a suspended player on a team sheet or as a
    substitute, giving ``reason`` and the end.
    """

    class Offence(models.TextChoices):
        LATE_ARRIVAL = "late_arrival", "Late arrival"
        MISCONDUCT = "misconduct", "Misconduct"
        WALK_OUT = "walk_out", "Walk-out"
        OTHER = "other", "Other"

    class Sanction(models.TextChoices):
        WARNING = "warning", "Warning"
        FINE = "fine", "Fine"
        SUSPENSION = "suspension", "Suspension"

    union = models.ForeignKey(Union, on_delete=models.PROTECT, related_name="disciplinary_records")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="disciplinary_records")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT, related_name="disciplinary_records")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.PROTECT, related_name="disciplinary_records")
    offence = models.CharField(max_length=20, choices=Offence.choices)
    occurred_on = models.DateField(help_text="When the offence happened.")
    reason = models.TextField(max_length=1000, help_text="What happened, as the union records it.")
    sanction = models.CharField(max_length=12, choices=Sanction.choices)
    fine_amount = models.DecimalField(
        max_digits=8, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(Decimal("0.01"))],
        help_text="The fine in rand (a fine only).",
    )
    fine_paid = models.BooleanField(default=False, help_text="Whether the fine has been paid (a fine only).")
    suspension_match_nights = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)],
        help_text="How many match nights of the player's teams the player sits out (a suspension only).",
    )
    starts_on = models.DateField(
        null=True, blank=True, help_text="A suspension counts match nights from this day (default: the day it is "
        "recorded).",
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-occurred_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(player__isnull=False, team__isnull=True, club__isnull=True)
                    | models.Q(player__isnull=True, team__isnull=False, club__isnull=True)
                    | models.Q(player__isnull=True, team__isnull=True, club__isnull=False)
                ),
                name="disciplinary_record_one_subject",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_offence_display()}: {self.subject_name} ({self.get_sanction_display().lower()})"

    @property
    def subject_name(self) -> str:
        """The player's, team's or club's name."""
        if self.player_id:
            return self.player.full_name
        return str(self.team or self.club)

    def clean(self) -> None:
        errors: dict[str, str] = {}
        subjects = [s for s in (self.player_id, self.team_id, self.club_id) if s]
        if len(subjects) != 1:
            errors["player"] = "Record the offence against one player, one team or one club."
        for field, subject in (("player", self.player), ("club", self.club)):
            if getattr(self, f"{field}_id") and self.union_id and subject.union_id != self.union_id:
                errors[field] = f"That {field} is not of this union."
        if self.team_id and self.union_id and self.team.club.union_id != self.union_id:
            errors["team"] = "That team is not of this union."
        if self.sanction == self.Sanction.FINE and not self.fine_amount:
            errors["fine_amount"] = "A fine needs its amount in rand."
        if self.sanction != self.Sanction.FINE and (self.fine_amount or self.fine_paid):
            errors["fine_amount"] = "Only a fine has an amount."
        if self.sanction == self.Sanction.SUSPENSION:
            if not self.suspension_match_nights:
                errors["suspension_match_nights"] = "A suspension needs its number of match nights."
            if not self.player_id:
                errors["sanction"] = "A suspension is of a player (a team or club is warned or fined)."
        elif self.suspension_match_nights:
            errors["suspension_match_nights"] = "Only a suspension has match nights."
        if errors:
            raise ValidationError(errors)
class Transfer(models.Model):
    """A registered player's move from one club of a union to another, on a date (``matches.transfers``).

    The registration number stays the player's (it identifies the player in the union, SAKBOC 1.5): the
    :class:`Player` row is the same, only its club changes, and its history keeps the change. Written once by
    ``matches.transfers.player_transfer``; never updated.
    """

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="transfers")
    from_club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="transfers_out")
    to_club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="transfers_in")
    transferred_on = models.DateField(help_text="The day the player's registration moves to the new club.")
    note = models.CharField(max_length=300, blank=True, help_text="The official's note, e.g. the clubs' agreement.")
    left_squads = models.CharField(
        max_length=300, blank=True,
        help_text="Draft squads of the old club the player was taken out of by the transfer (carried-over teams "
        "not yet confirmed).",
    )
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-transferred_on", "-recorded_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(from_club=models.F("to_club")), name="transfer_changes_club"),
        ]

    def __str__(self) -> str:
        return f"{self.player.full_name}: {self.from_club} → {self.to_club} ({self.transferred_on})"

    def clean(self) -> None:
        if self.from_club_id and self.to_club_id and self.from_club.union_id != self.to_club.union_id:
            raise ValidationError("A transfer moves a player between clubs of one union.")

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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from clubs.validators import name_validate, phone_validate, short_name_validate

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

class Board(models.Model):
    """The Board of Control above the unions (SAKBOC; DOMAIN.md "Organisation"): its member unions, its officials
    and its own competitions (SAKBOC 1.12 "at Board level").

    The Board runs its championships through its **organiser**, a :class:`Union` row marked ``is_board``: its
    competitions, its officials (``UnionOfficial`` rows), its referees' panel (``UnionReferee`` rows) and its
    readings of the rules (the union settings; extra time 60 minutes, SAKBOC 1.12) live there, so a Board
    championship's fixtures, match nights, approval and standings run through the same code as a union's. Each
    member union enters a representative side: a :class:`Club` of the organiser whose ``represents`` is the union.
    Created for an existing installation by ``clubs`` migration 0017.
    """

    name = models.CharField(max_length=120, unique=True, verbose_name=gettext_lazy("name"))
    short_name = models.CharField(max_length=20, unique=True, verbose_name=gettext_lazy("short name"))
    organiser = models.OneToOneField(
        "Union", on_delete=models.PROTECT, related_name="board_organised",
        help_text=gettext_lazy("The Board's own record among the unions: its competitions, officials, referees' panel "
                               "and readings of the rules."),
        verbose_name=gettext_lazy("organiser"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("board")
        verbose_name_plural = gettext_lazy("boards")

    def __str__(self) -> str:
        return self.name


class Union(models.Model):
    """A Klawerjas union (e.g. South Peninsula Klawerjas Union) and its per-union settings (SAKBOC 1.12)."""

    class Tiebreak(models.TextChoices):
        DIFFERENCE = "difference", gettext_lazy("Aggregate match-score difference")
        FOR = "for", gettext_lazy("Aggregate match points for")
        HEAD_TO_HEAD = (
            "head_to_head",
            gettext_lazy("Head-to-head (league points, then difference, between the tied teams)"),
        )

    class DealAfterGoingOn(models.TextChoices):
        LAST_TRICK = (
            "last_trick",
            gettext_lazy("The side that won the last trick of the previous hand (interpretation 1)"),
        )
        NEXT_DEALER = "next_dealer", gettext_lazy("The next player in turn (anticlockwise)")

    class StrafFourPoints(models.TextChoices):
        """The engine's readings of SAKBOC 6.2 (``engine.ruleset.StrafFourPoints``)."""

        OPPONENTS_NONE = "three-or-four-strokes-opponents-none", (
            gettext_lazy("4 points with 3 or 4 strokes and the opponents on none; 2 otherwise (interpretation 2)")
        )
        CLEAR = "three-or-four-strokes-clear", gettext_lazy("4 points when 3 or 4 strokes ahead; 2 otherwise")

    class UnfinishedBoem(models.TextChoices):
        NOTHING = "nothing", gettext_lazy("Scores nothing; its strokes are kept for the record (interpretation 3)")
        LEADER_TWO = "leader_two", gettext_lazy("The side ahead on strokes scores 2 points")

    class RoemCounts(models.TextChoices):
        """The engine's readings of a called roem (``engine.ruleset.RoemCounts``; Notes §VI, §VIII; SAKBOC 8.2)."""

        AS_CALLED = "as-called", (
            gettext_lazy("A called roem counts as called until it is punished; the false call is itself an offence "
            "(interpretation 6)")
        )
        AS_HELD = "as-held", gettext_lazy("A roem counts only if the hand holds it; a false call counts nothing")

    class StrafNamedOffence(models.TextChoices):
        """The engine's readings of an "af" that names an offence (``engine.ruleset.StrafNamedOffence``; SAKBOC 6.7)."""

        NOTE = (
            "note",
            (
                gettext_lazy(
                    'An offence named with the "af" is a note for the referee: any real offence at or before it '
                    "upholds the claim (interpretation 7)"
                )
            ),
        )
        MUST_BE_COMMITTED = (
            "must-be-committed",
            gettext_lazy('An offence named with the "af" must be the one committed'),
        )

    name = models.CharField(max_length=120, unique=True, verbose_name=gettext_lazy("name"))
    short_name = models.CharField(
        max_length=20, unique=True, validators=[short_name_validate],
        help_text=gettext_lazy("E.g. 'SPKU': letters, digits and hyphens; it names the union's pages."),
        verbose_name=gettext_lazy("short name"),
    )
    board = models.ForeignKey(
        Board, null=True, blank=True, on_delete=models.PROTECT, related_name="unions",
        help_text=gettext_lazy("The Board the union is a member of."), verbose_name=gettext_lazy("board"),
    )
    is_board = models.BooleanField(
        default=False, editable=False,
        help_text=gettext_lazy("This row is a Board's organiser (Board.organiser), not a member union."),
        verbose_name=gettext_lazy("Board organiser"),
    )

    # League points per match result (DOMAIN.md: default win 2, draw 1, loss 0).
    points_win = models.PositiveSmallIntegerField(default=2, verbose_name=gettext_lazy("points win"))
    points_draw = models.PositiveSmallIntegerField(default=1, verbose_name=gettext_lazy("points draw"))
    points_loss = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("points loss"))
    tiebreak_order = models.JSONField(
        default=default_tiebreak_order,
        help_text=gettext_lazy(
            "Order of tiebreaks after league points: a list of 'difference', 'for', 'head_to_head'."
        ),
        verbose_name=gettext_lazy("tiebreak order"),
    )

    # Match clock (SAKBOC 1.2, 1.3, 1.15, 12.3), kept per union because units decide match nights (1.1).
    toss_minutes_before = models.PositiveSmallIntegerField(
        default=5, help_text=gettext_lazy("SAKBOC 1.3: the toss."), verbose_name=gettext_lazy("toss minutes before")
    )
    half_minutes = models.PositiveSmallIntegerField(
        default=75,
        help_text=gettext_lazy("SAKBOC 1.2: 2 h 30 min in two halves."),
        verbose_name=gettext_lazy("half minutes"),
    )
    interval_minutes = models.PositiveSmallIntegerField(
        default=10, help_text=gettext_lazy("SAKBOC 1.2: the interval."), verbose_name=gettext_lazy("interval minutes")
    )
    last_period_minutes = models.PositiveSmallIntegerField(
        default=15, help_text=gettext_lazy("SAKBOC 1.15: no player leaves the table in the last minutes of the game.")
    , verbose_name=gettext_lazy("last period minutes"))
    grace_minutes = models.PositiveSmallIntegerField(
        default=3, help_text=gettext_lazy("SAKBOC 12.3: grace for unseated players after the interval.")
    , verbose_name=gettext_lazy("grace minutes"))

    # DOMAIN.md interpretations, each a named setting with its default.
    deal_after_going_on = models.CharField(
        max_length=20, choices=DealAfterGoingOn.choices, default=DealAfterGoingOn.LAST_TRICK,
        help_text=gettext_lazy("Interpretation 1: who deals a new game after a side goes on."),
     verbose_name=gettext_lazy("deal after going on"))
    straf_four_points = models.CharField(
        max_length=40, choices=StrafFourPoints.choices, default=StrafFourPoints.OPPONENTS_NONE,
        help_text=gettext_lazy("Interpretation 2 (SAKBOC 6.2): when a straf earns 4 points instead of 2."),
     verbose_name=gettext_lazy("straf four points"))
    unfinished_boem = models.CharField(
        max_length=20, choices=UnfinishedBoem.choices, default=UnfinishedBoem.NOTHING,
        help_text=gettext_lazy("Interpretation 3: what a boem unfinished at full time scores."),
     verbose_name=gettext_lazy("unfinished boem"))
    knockout_extra_time_minutes = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1)],
        help_text=gettext_lazy("Interpretation 4 (SAKBOC 1.12): extra time after a knock-out draw."),
     verbose_name=gettext_lazy("knockout extra time minutes"))
    referee_judges_unrecorded_offences = models.BooleanField(
        default=True,
        help_text=gettext_lazy(
            "Interpretation 5: offences the record cannot show (talking, signs, slacking, tapping, flipped "
            "cards) are the referee's judgement; the engine records but does not decide them."
        ),
        verbose_name=gettext_lazy("referee judges unrecorded offences"),
    )
    roem_counts = models.CharField(
        max_length=20,
        choices=RoemCounts.choices,
        default=RoemCounts.AS_CALLED,
        help_text=gettext_lazy(
            "Interpretation 6 (Notes §VI, §VIII; SAKBOC 8.2): whether a false roem nobody punished stands in "
            "the count until punished, or counts nothing. Asking a roemte's size is never the asker's offence."
        ),
        verbose_name=gettext_lazy("roem counts"),
    )
    straf_named_offence = models.CharField(
        max_length=20,
        choices=StrafNamedOffence.choices,
        default=StrafNamedOffence.NOTE,
        help_text=gettext_lazy(
            'Interpretation 7 (SAKBOC 6.7): a straf is the word "af" and need not name the offence; whether '
            "an offence named with it is a note for the referee or must be the offence committed."
        ),
        verbose_name=gettext_lazy("straf named offence"),
    )

    officials = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="UnionOfficial", related_name="official_of_unions", blank=True,
        help_text=gettext_lazy("Union officials who run this union (through UnionOfficial)."),
     verbose_name=gettext_lazy("officials"))

    # Appeals and discipline (issue 22). The referee's decision is final on the night (SAKBOC 1.10); the union
    # hears appeals afterwards and keeps a disciplinary record: units decide how (SAKBOC 1.12).
    appeal_deadline_days = models.PositiveSmallIntegerField(
        default=7,
        validators=[MinValueValidator(1)],
        help_text=gettext_lazy(
            "A captain may appeal a ruling or a result until the end of this many days after the match."
        ),
        verbose_name=gettext_lazy("appeal deadline days"),
    )
    appeal_decision_days = models.PositiveSmallIntegerField(
        default=14,
        validators=[MinValueValidator(1)],
        help_text=gettext_lazy(
            "The appeals committee decides within this many days of an appeal being lodged; an appeal not "
            "decided by then goes on the overdue list and the committee is reminded once."
        ),
        verbose_name=gettext_lazy("appeal decision days"),
    )
    appeals_committee_name = models.CharField(
        max_length=120, default="Appeals committee",
        help_text=gettext_lazy("What the union calls the officials who hear appeals."),
     verbose_name=gettext_lazy("appeals committee name"))
    appeals_committee = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="AppealsCommitteeMember",
        related_name="appeals_committee_of_unions",
        blank=True,
        help_text=gettext_lazy(
            "Officials who hear appeals (through AppealsCommitteeMember); when none are named, "
            "every official of the union hears them."
        ),
        verbose_name=gettext_lazy("appeals committee"),
    )
    discipline_register_public = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Whether anyone may read the union's discipline register, or only its officials."),
        verbose_name=gettext_lazy("discipline register public"),
    )
    # Security safeguards (issue 35): POPIA s19 asks whoever keeps personal information (the registry, the
    # disciplinary record) to secure it against loss and unlawful access; a second step at sign-in for the
    # people who can read and change it is one such safeguard (accounts.two_step).
    two_step_required = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "Officials and referees of the union must sign in with two steps: the password, then a code from an "
            "authenticator app. Someone without one sets it up at their next sign-in, before anything else. A "
            "security safeguard for the players' personal information (POPIA section 19)."
        ),
        verbose_name=gettext_lazy("two-step sign-in required"),
    )
    # The union's privacy notice and choices under POPIA (issue 35; privacy/ holds consent, export, erasure).
    # POPIA s18 asks the responsible party to tell people who it is, what it keeps and why; s11 makes consent
    # the basis for what a league does not need (an e-mail address, a phone number, a full name in public).
    privacy_contact = models.CharField(
        max_length=200,
        blank=True,
        help_text=gettext_lazy(
            "Who answers for the players' personal information (the information officer), e.g. "
            "\"The secretary, Mr J. Adams\". Shown in the union's privacy notice."
        ),
        verbose_name=gettext_lazy("information officer"),
    )
    privacy_email = models.EmailField(
        blank=True,
        help_text=gettext_lazy("Where people write to see, correct or delete what the union keeps on them."),
        verbose_name=gettext_lazy("privacy e-mail"),
    )
    privacy_notice_extra = models.TextField(
        blank=True,
        help_text=gettext_lazy("Anything the union adds to its privacy notice, in its own words."),
        verbose_name=gettext_lazy("more in the privacy notice"),
    )

    class PublicNames(models.TextChoices):
        """How public pages name players (POPIA s11: a full name in public needs the player's consent)."""

        FULL = "full", gettext_lazy("Full names (for players who agreed; initials for the others)")
        INITIALS = "initials", gettext_lazy("Initials and surname for everyone")

    public_names = models.CharField(
        max_length=10,
        choices=PublicNames.choices,
        default=PublicNames.INITIALS,
        help_text=gettext_lazy("How players are named on the pages anyone can read."),
        verbose_name=gettext_lazy("names on public pages"),
    )
    retention_seasons = models.PositiveSmallIntegerField(
        default=2,
        validators=[MinValueValidator(1)],
        help_text=gettext_lazy(
            "A player who has not played for this many seasons loses the optional data (e-mail, phone); "
            "the results stay. POPIA section 14: keep personal information no longer than needed."
        ),
        verbose_name=gettext_lazy("keep optional data for (seasons)"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("union")
        verbose_name_plural = gettext_lazy("unions")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        """A new member union joins the installation's Board when it names none (one Board per installation)."""
        if self._state.adding and not self.is_board and self.board_id is None:
            self.board = Board.objects.order_by("pk").first()
        super().save(*args, **kwargs)

    def clean(self) -> None:
        allowed = set(self.Tiebreak.values)
        order = self.tiebreak_order
        if not isinstance(order, list) or not all(isinstance(k, str) and k in allowed for k in order):
            raise ValidationError(
                {"tiebreak_order": _("Tiebreaks must be a list drawn from %(value)s.") % {"value": sorted(allowed)}}
            )
        if len(set(order)) != len(order):
            raise ValidationError({"tiebreak_order": _("A tiebreak may appear only once.")})
        if not (self.points_win > self.points_draw >= self.points_loss):
            raise ValidationError(_("League points must rank a win above a draw, and a draw no lower than a loss."))


class Club(models.Model):
    """A club in a union; it registers players and enters teams."""

    union = models.ForeignKey(Union, on_delete=models.PROTECT, related_name="clubs", verbose_name=gettext_lazy("union"))
    name = models.CharField(max_length=120, validators=[name_validate], verbose_name=gettext_lazy("name"))
    active = models.BooleanField(
        default=True,
        help_text=gettext_lazy(
            "A deactivated club keeps its players, teams and history but enters no new competition and registers "
            "no new player."
        ),
        verbose_name=gettext_lazy("active"),
    )
    represents = models.ForeignKey(
        Union, null=True, blank=True, on_delete=models.PROTECT, related_name="representative_clubs",
        help_text=gettext_lazy("A Board organiser's club only: the member union whose representative side it is; the "
                               "union's officials manage its teams."),
        verbose_name=gettext_lazy("represents"),
    )
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ClubSecretary", related_name="secretary_of_clubs", blank=True,
        help_text=gettext_lazy("Club secretaries (through ClubSecretary)."),
     verbose_name=gettext_lazy("secretaries"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("club")
        verbose_name_plural = gettext_lazy("clubs")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["union", "name"], name="club_unique_name_in_union"),
            models.UniqueConstraint(fields=["union", "represents"], name="club_one_side_per_union_at_board"),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A registered player: one person in the national registry (``national_number``, unique in the installation),
    registered with one club of one union at a time (``registration_number``, the union's own reference, unique
    within the union); active or not. A move between unions changes ``union`` and ``club`` on the same row
    (:class:`InterUnionTransfer`), so one career runs across clubs and unions.

    ``user`` optionally links the account the player signs in with (captains, telmanne confirming
    boem-sheet entries).
    """

    union = models.ForeignKey(
        Union, on_delete=models.PROTECT, related_name="players", verbose_name=gettext_lazy("union")
    )
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players", verbose_name=gettext_lazy("club"))
    registration_number = models.CharField(
        max_length=30,
        help_text=gettext_lazy("The union's (and club's) own reference for the player."),
        verbose_name=gettext_lazy("registration number"),
    )
    national_number = models.CharField(
        max_length=30, unique=True, blank=True,
        help_text=gettext_lazy("The player's one national registration number: the same in every union and club "
                               "they play for (SAKBOC 1.5 at Board level)."),
        verbose_name=gettext_lazy("national registration number"),
    )
    date_of_birth = models.DateField(
        null=True, blank=True,
        help_text=gettext_lazy("Optional: to tell two people of the same name apart in the national registry."),
        verbose_name=gettext_lazy("date of birth"),
    )
    first_name = models.CharField(max_length=60, validators=[name_validate], verbose_name=gettext_lazy("first name"))
    last_name = models.CharField(max_length=60, validators=[name_validate], verbose_name=gettext_lazy("last name"))
    email = models.EmailField(
        blank=True,
        help_text=gettext_lazy("Optional: to invite the player as a captain, and for the union's notices."),
        verbose_name=gettext_lazy("e-mail"),
    )
    phone = models.CharField(
        max_length=20,
        blank=True,
        validators=[phone_validate],
        help_text=gettext_lazy("Optional: a South African or international number, e.g. 082 555 0123."),
        verbose_name=gettext_lazy("phone"),
    )
    active = models.BooleanField(
        default=True,
        help_text=gettext_lazy("Only active players can be named in a squad or sheet."),
        verbose_name=gettext_lazy("active"),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    , verbose_name=gettext_lazy("user"))
    # Erasure (POPIA s24, privacy/erasure.py): the player becomes "Former player N" (N counts the union's
    # erasures); the results the player played stay as they were.
    erased_at = models.DateTimeField(null=True, blank=True, editable=False, verbose_name=gettext_lazy("erased at"))
    # The player's current answer on a full name in public (POPIA s11); privacy.Consent keeps who recorded
    # which answer when, and privacy.consent is the one place that sets this.
    full_name_public = models.BooleanField(
        default=False, editable=False, verbose_name=gettext_lazy("full name on public pages")
    )
    former_number = models.PositiveIntegerField(
        null=True, blank=True, editable=False, verbose_name=gettext_lazy("former player number")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("player")
        verbose_name_plural = gettext_lazy("players")
        ordering = ["last_name", "first_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["union", "registration_number"], name="player_unique_registration_in_union"
            )
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} ({self.registration_number})"

    def save(self, *args, **kwargs) -> None:
        """A new registration's national number is its registration number unless one was given (the registry's
        services first look for the person elsewhere: ``clubs.services.national_registry_matches``)."""
        if not self.national_number:
            self.national_number = self.registration_number
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    def clean(self) -> None:
        if not self.national_number:
            self.national_number = self.registration_number
        if self.club_id and self.union_id and self.club.union_id != self.union_id:
            raise ValidationError({"club": _("The player's club must belong to the player's union.")})


class Team(models.Model):
    """A club's team in one competition; its squad is its :class:`TeamMembership` rows.

    A full team is 8 registered players (SAKBOC 1.5); the squad may hold more, who are the substitutes
    (SAKBOC 11.1). ``captain`` is a squad member; their linked user acts as captain.
    """

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="teams", verbose_name=gettext_lazy("club"))
    competition = models.ForeignKey(
        "matches.Competition", on_delete=models.PROTECT, related_name="teams", verbose_name=gettext_lazy("competition")
    )
    name = models.CharField(max_length=120, validators=[name_validate], verbose_name=gettext_lazy("name"))
    captain = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="captained_teams"
    , verbose_name=gettext_lazy("captain"))
    players = models.ManyToManyField(
        Player, through="TeamMembership", related_name="teams", verbose_name=gettext_lazy("players")
    )
    seed = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=gettext_lazy("Seeding in a knock-out cup, 1 = best; byes go to the top seeds.")
    , verbose_name=gettext_lazy("seed"))
    draft = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "Carried over from last season's team (``matches.seasons.season_start``) and not yet "
            "confirmed by the club's secretary, who confirms or changes it; the fixtures wait until no team is a draft."
        ),
        verbose_name=gettext_lazy("draft"),
    )
    carried_over_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="carried_over_to",
        help_text=gettext_lazy("Last season's team this one was carried over from."),
     verbose_name=gettext_lazy("carried over from"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("team")
        verbose_name_plural = gettext_lazy("teams")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "name"], name="team_unique_name_in_competition")
        ]

    def __str__(self) -> str:
        return self.name


class TeamMembership(models.Model):
    """A player in a team's squad. ``competition`` repeats ``team.competition`` so the database itself holds
    "one team per competition per player" (SAKBOC 1.5, DOMAIN.md)."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="memberships", verbose_name=gettext_lazy("team")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="memberships", verbose_name=gettext_lazy("player")
    )
    competition = models.ForeignKey(
        "matches.Competition", on_delete=models.PROTECT, related_name="+", verbose_name=gettext_lazy("competition")
    )
    joined_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("joined at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("team membership")
        verbose_name_plural = gettext_lazy("team memberships")
        ordering = ["team", "player__last_name"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="membership_one_team_per_competition"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.team}"


def role_link_user(related_name: str) -> models.ForeignKey:
    """The user a :class:`RoleLink` gives its role to; the link goes when the user does.

    ``related_name`` is the user's way back to links of that role (``union_official_links``, …): each role
    keeps its own, so this is a field factory rather than a field of the abstract base.
    """
    return models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name=related_name, verbose_name=gettext_lazy("user")
    )


class RoleLink(models.Model):
    """A user's role in a union or a club, and since when (DOMAIN.md "People"; ``clubs.permissions`` reads them).

    A concrete link names its union or club (deleted with it), its ``user`` (:func:`role_link_user`) and holds
    each user there once with its own unique constraint.
    """

    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("created at"))

    class Meta:
        abstract = True


class UnionOfficial(RoleLink):
    """A user who runs a union's competitions (DOMAIN.md "People")."""

    union = models.ForeignKey(
        Union, on_delete=models.CASCADE, related_name="official_links", verbose_name=gettext_lazy("union")
    )
    user = role_link_user("union_official_links")

    class Meta:
        verbose_name = gettext_lazy("union official")
        verbose_name_plural = gettext_lazy("union officials")
        constraints = [models.UniqueConstraint(fields=["union", "user"], name="union_official_unique")]

    def __str__(self) -> str:
        return f"{self.user} → {self.union}"


class UnionReferee(RoleLink):
    """A referee (or marker, SAKBOC 1.11) on the union's list: the official picks a match's referee from it."""

    union = models.ForeignKey(
        Union, on_delete=models.CASCADE, related_name="referee_links", verbose_name=gettext_lazy("union")
    )
    user = role_link_user("union_referee_links")

    class Meta:
        verbose_name = gettext_lazy("union referee")
        verbose_name_plural = gettext_lazy("union referees")
        ordering = ["union", "user__last_name", "user__first_name"]
        constraints = [models.UniqueConstraint(fields=["union", "user"], name="union_referee_unique")]

    def __str__(self) -> str:
        return f"{self.user} referees for {self.union}"


class ClubSecretary(RoleLink):
    """A user who registers a club's players and teams (DOMAIN.md "People")."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="secretary_links", verbose_name=gettext_lazy("club")
    )
    user = role_link_user("club_secretary_links")

    class Meta:
        verbose_name = gettext_lazy("club secretary")
        verbose_name_plural = gettext_lazy("club secretaries")
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="club_secretary_unique")]

    def __str__(self) -> str:
        return f"{self.user} → {self.club}"


class AppealsCommitteeMember(RoleLink):
    """An official of the union on its appeals committee (issue 22: a named group of users per union)."""

    union = models.ForeignKey(
        Union, on_delete=models.CASCADE, related_name="appeals_committee_links", verbose_name=gettext_lazy("union")
    )
    user = role_link_user("appeals_committee_links")

    class Meta:
        verbose_name = gettext_lazy("appeals committee member")
        verbose_name_plural = gettext_lazy("appeals committee members")
        constraints = [models.UniqueConstraint(fields=["union", "user"], name="appeals_committee_member_unique")]

    def __str__(self) -> str:
        return f"{self.user} on the {self.union} {self.union.appeals_committee_name.lower()}"

    def clean(self) -> None:
        if self.union_id and self.user_id and not UnionOfficial.objects.filter(
                union_id=self.union_id, user_id=self.user_id).exists():
            raise ValidationError({"user": _("Only an official of the union sits on its appeals committee (who decides "
                                           "an appeal may correct results, an official's task).")})


class DisciplinaryRecord(models.Model):
    """An offence away from the cards (late arrival, misconduct, a walk-out) recorded by the union against a
    player, a team or a club, with its sanction: a warning, a fine (an amount in rand, paid or not), or a
    suspension of a player for a number of match nights.

    A suspension counts the match nights of the player's teams from ``starts_on`` (the player sits out the next
    ``match_nights`` of them); ``matches.night.suspensions`` refuses a suspended player on a team sheet or as a
    substitute, giving ``reason`` and the end.
    """

    class Offence(models.TextChoices):
        LATE_ARRIVAL = "late_arrival", gettext_lazy("Late arrival")
        MISCONDUCT = "misconduct", gettext_lazy("Misconduct")
        WALK_OUT = "walk_out", gettext_lazy("Walk-out")
        OTHER = "other", gettext_lazy("Other")

    class Sanction(models.TextChoices):
        WARNING = "warning", gettext_lazy("Warning")
        FINE = "fine", gettext_lazy("Fine")
        SUSPENSION = "suspension", gettext_lazy("Suspension")

    union = models.ForeignKey(
        Union, on_delete=models.PROTECT, related_name="disciplinary_records", verbose_name=gettext_lazy("union")
    )
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="disciplinary_records", verbose_name=gettext_lazy("player"))
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="disciplinary_records",
        verbose_name=gettext_lazy("team"),
    )
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="disciplinary_records",
        verbose_name=gettext_lazy("club"),
    )
    offence = models.CharField(max_length=20, choices=Offence.choices, verbose_name=gettext_lazy("offence"))
    occurred_on = models.DateField(
        help_text=gettext_lazy("When the offence happened."), verbose_name=gettext_lazy("occurred on")
    )
    reason = models.TextField(
        max_length=1000,
        help_text=gettext_lazy("What happened, as the union records it."),
        verbose_name=gettext_lazy("reason"),
    )
    sanction = models.CharField(max_length=12, choices=Sanction.choices, verbose_name=gettext_lazy("sanction"))
    fine_amount = models.DecimalField(
        max_digits=8, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(Decimal("0.01"))],
        help_text=gettext_lazy("The fine in rand (a fine only)."),
     verbose_name=gettext_lazy("fine amount"))
    fine_paid = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Whether the fine has been paid (a fine only)."),
        verbose_name=gettext_lazy("fine paid"),
    )
    suspension_match_nights = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)],
        help_text=gettext_lazy("How many match nights of the player's teams the player sits out (a suspension only)."),
     verbose_name=gettext_lazy("suspension match nights"))
    starts_on = models.DateField(
        null=True,
        blank=True,
        help_text=gettext_lazy("A suspension counts match nights from this day (default: the day it is recorded)."),
        verbose_name=gettext_lazy("starts on"),
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+", verbose_name=gettext_lazy("recorded by"))
    recorded_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("recorded at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("disciplinary record")
        verbose_name_plural = gettext_lazy("disciplinary records")
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
        if self.player is not None:
            return self.player.full_name
        return str(self.team or self.club)

    def clean(self) -> None:
        errors: dict[str, str] = {}
        subjects = [s for s in (self.player_id, self.team_id, self.club_id) if s]
        if len(subjects) != 1:
            errors["player"] = _("Record the offence against one player, one team or one club.")
        for field, subject in (("player", self.player), ("club", self.club)):
            if subject is not None and self.union_id and subject.union_id != self.union_id:
                errors[field] = _("That %(field)s is not of this union.") % {"field": field}
        if self.union_id and self.team is not None and self.team.club.union_id != self.union_id:
            errors["team"] = _("That team is not of this union.")
        if self.sanction == self.Sanction.FINE and not self.fine_amount:
            errors["fine_amount"] = _("A fine needs its amount in rand.")
        if self.sanction != self.Sanction.FINE and (self.fine_amount or self.fine_paid):
            errors["fine_amount"] = _("Only a fine has an amount.")
        if self.sanction == self.Sanction.SUSPENSION:
            if not self.suspension_match_nights:
                errors["suspension_match_nights"] = _("A suspension needs its number of match nights.")
            if not self.player_id:
                errors["sanction"] = _("A suspension is of a player (a team or club is warned or fined).")
        elif self.suspension_match_nights:
            errors["suspension_match_nights"] = _("Only a suspension has match nights.")
        if errors:
            raise ValidationError(errors)
class Transfer(models.Model):
    """A registered player's move from one club of a union to another, on a date (``matches.seasons.transfers``).

    The registration number stays the player's (it identifies the player in the union, SAKBOC 1.5): the
    :class:`Player` row is the same, only its club changes, and its history keeps the change. Written once by
    ``matches.seasons.transfers.player_transfer``; never updated.
    """

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="transfers", verbose_name=gettext_lazy("player")
    )
    from_club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="transfers_out", verbose_name=gettext_lazy("from club")
    )
    to_club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="transfers_in", verbose_name=gettext_lazy("to club")
    )
    transferred_on = models.DateField(
        help_text=gettext_lazy("The day the player's registration moves to the new club."),
        verbose_name=gettext_lazy("transferred on"),
    )
    note = models.CharField(
        max_length=300,
        blank=True,
        help_text=gettext_lazy("The official's note, e.g. the clubs' agreement."),
        verbose_name=gettext_lazy("note"),
    )
    left_squads = models.CharField(
        max_length=300,
        blank=True,
        help_text=gettext_lazy(
            "Draft squads of the old club the player was taken out of by the transfer (carried-over teams "
            "not yet confirmed)."
        ),
        verbose_name=gettext_lazy("left squads"),
    )
    recorded_at = models.DateTimeField(verbose_name=gettext_lazy("recorded at"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    , verbose_name=gettext_lazy("recorded by"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("transfer")
        verbose_name_plural = gettext_lazy("transfers")
        ordering = ["-transferred_on", "-recorded_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(from_club=models.F("to_club")), name="transfer_changes_club"),
        ]

    def __str__(self) -> str:
        return f"{self.player.full_name}: {self.from_club} → {self.to_club} ({self.transferred_on})"

    def clean(self) -> None:
        if (self.from_club_id and self.to_club_id and self.from_club.union_id != self.to_club.union_id
                and not self.pk and not getattr(self, "_inter_union", False)):
            raise ValidationError(_("A move between unions is asked for and cleared by both unions (an inter-union "
                                    "transfer), not recorded directly."))


class InterUnionTransfer(models.Model):
    """A player's move to a club of another union, in three steps (Board level; ``matches.seasons.inter_union``):
    the receiving club **asks**, the player's current union **clears** (or refuses, saying why), the receiving
    union **accepts** (or declines, saying why). On acceptance the player's one registry row moves (union, club)
    and a :class:`Transfer` records it; every step stays here with who took it and when.
    """

    class Status(models.TextChoices):
        ASKED = "asked", gettext_lazy("Asked by the receiving club")
        CLEARED = "cleared", gettext_lazy("Cleared by the player's union")
        REFUSED = "refused", gettext_lazy("Refused by the player's union")
        ACCEPTED = "accepted", gettext_lazy("Accepted by the receiving union")
        DECLINED = "declined", gettext_lazy("Declined by the receiving union")

    OPEN_STATUSES = (Status.ASKED, Status.CLEARED)

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="inter_union_transfers", verbose_name=gettext_lazy("player")
    )
    from_club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="+", verbose_name=gettext_lazy("from club")
    )
    to_club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="inter_union_transfers_in", verbose_name=gettext_lazy("to club")
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ASKED,
                              verbose_name=gettext_lazy("status"))
    note = models.CharField(max_length=300, blank=True, help_text=gettext_lazy("The receiving club's note."),
                            verbose_name=gettext_lazy("note"))
    reason = models.CharField(max_length=300, blank=True,
                              help_text=gettext_lazy("Why the player's union refused, or the receiving union "
                                                     "declined."),
                              verbose_name=gettext_lazy("reason"))
    asked_at = models.DateTimeField(verbose_name=gettext_lazy("asked at"))
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+", verbose_name=gettext_lazy("asked by"))
    cleared_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("cleared at"))
    cleared_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=gettext_lazy("cleared by"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("decided at"))
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=gettext_lazy("decided by"))
    transfer = models.OneToOneField(
        Transfer, null=True, blank=True, on_delete=models.PROTECT, related_name="inter_union",
        help_text=gettext_lazy("The transfer recorded when the receiving union accepted."),
        verbose_name=gettext_lazy("transfer"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = gettext_lazy("inter-union transfer")
        verbose_name_plural = gettext_lazy("inter-union transfers")
        ordering = ["-asked_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["player"], condition=models.Q(status__in=["asked", "cleared"]),
                                    name="inter_union_transfer_one_open_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player.full_name}: {self.from_club} → {self.to_club} ({self.get_status_display()})"

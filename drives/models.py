"""A club's drive (the Dutch club format, seed 002): its entries, nights, rounds (bomen), tables and deals.

A :class:`Drive` is a club's season of club nights under a makers ruleset (Rotterdam by default). Players are
entered one by one (:class:`DriveEntry`, "vaste koppels" as pairs); a :class:`DriveNight` plays several
:class:`DriveRound` (bomen) of 12 or 16 deals; each round's draw (byes, partners, tables) is stored with its
seed; each :class:`DriveTable`'s boom is entered deal by deal (:class:`DriveDeal`), checked and scored by
``engine.deals``.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from engine.ruleset import RULESETS
from matches.models import RULESET_LABELS, name_with_season

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: A table's two sides in a drive, 0 and 1 (the first pair drawn and the second).
SIDES = [(0, "0"), (1, "1")]


def makers_ruleset_choices() -> list[tuple[str, StrOrPromise]]:
    """The registered rulesets a drive can be played under: the makers games (Rotterdam, Amsterdam, Wikipedia
    klaverjas, Klammern), whose deals are scored one by one (``engine.deals``)."""
    return [(rs.name, RULESET_LABELS.get(rs.name, rs.title)) for rs in RULESETS.values() if rs.hand_scoring == "makers"]


def table_code_new() -> str:
    """A table's secret code for its scorer's phone link (URL-safe, 16 characters)."""
    return secrets.token_urlsafe(12)


class Drive(models.Model):
    """A club's drive: a season of club nights under a makers ruleset (seed 002)."""

    class Ranking(models.TextChoices):
        TOTAL = "total", _("total of every night")
        BEST_NIGHTS = "best", _("average of each player's best nights")

    class ByeScore(models.TextChoices):
        AVERAGE = "average", _("the round's average score")
        FIXED = "fixed", _("a fixed number of points")

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="drives", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)
    season = models.CharField(_("season"), max_length=20)
    ruleset = models.CharField(_("ruleset"), max_length=40, default="rotterdam", choices=makers_ruleset_choices)
    deals_per_round = models.PositiveSmallIntegerField(
        _("deals a boom"), default=16, choices=[(12, "12"), (16, "16")],
        help_text=_("A boom (tree) is the set of 16 deals which make up a game; some clubs play 12."))
    rounds_per_night = models.PositiveSmallIntegerField(
        _("bomen a night"), default=3, validators=[MinValueValidator(1), MaxValueValidator(6)])
    fixed_pairs = models.BooleanField(
        _("fixed pairs (vaste koppels)"), default=False,
        help_text=_("Players enter as pairs and play together all season; otherwise partners are drawn by lot."))
    ranking = models.CharField(_("season ranking"), max_length=10, choices=Ranking.choices, default=Ranking.TOTAL)
    best_nights = models.PositiveSmallIntegerField(
        _("best nights counted"), default=6, validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_("With the best-nights ranking: each player's best N nights count, the rest are struck off."))
    bye_score = models.CharField(_("a bye scores"), max_length=10, choices=ByeScore.choices,
                                 default=ByeScore.AVERAGE)
    bye_points = models.PositiveIntegerField(
        _("fixed bye points"), default=0, validators=[MaxValueValidator(100_000)],
        help_text=_("With a fixed bye score: the points a player who sits a boom out scores for it."))
    public = models.BooleanField(_("shown on the public pages"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("club drive")
        verbose_name_plural = _("club drives")
        ordering = ["-season", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "season", "name"], name="drive_unique_name")]

    def __str__(self) -> str:
        return name_with_season(self.name, self.season)


class DriveEntry(models.Model):
    """A player entered in a drive; with fixed pairs, the pair's first player names the partner."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="drive_entries",
                               verbose_name=_("player"))
    partner = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="drive_partner_entries",
                                null=True, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("drive entry")
        verbose_name_plural = _("drive entries")
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["drive", "player"], name="drive_entry_unique_player")]

    def __str__(self) -> str:
        return str(self.player)


class DriveNight(models.Model):
    """A club night of a drive: ``number`` counts from 1."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="nights")
    number = models.PositiveSmallIntegerField()
    date = models.DateField(_("date"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("drive night")
        verbose_name_plural = _("drive nights")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["drive", "number"], name="drive_night_unique_number")]

    def __str__(self) -> str:
        return f"{self.drive} night {self.number}"


class DriveRound(models.Model):
    """A round (boom) of a night, drawn by lot from ``seed`` (drives.draw)."""

    night = models.ForeignKey(DriveNight, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)
    drawn_at = models.DateTimeField(auto_now_add=True)
    repeats_night = models.PositiveSmallIntegerField(default=0)
    repeats_season = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("boom")
        verbose_name_plural = _("bomen")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="drive_round_unique_number")]

    def __str__(self) -> str:
        return f"{self.night} boom {self.number}"


class DriveTable(models.Model):
    """A table of a round: four players by seat (side 0: seats 0 and 2; side 1: seats 1 and 3) and its boom's
    total as ``engine.deals.play_deals`` scored it."""

    round = models.ForeignKey(DriveRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seat0 = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    seat1 = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    seat2 = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    seat3 = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    code = models.CharField(max_length=32, unique=True, default=table_code_new)
    deals_played = models.PositiveSmallIntegerField(default=0)
    points0 = models.IntegerField(default=0)
    points1 = models.IntegerField(default=0)
    finished = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("drive table")
        verbose_name_plural = _("drive tables")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="drive_table_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    def side_players(self, side: int) -> tuple:
        """The two players of side 0 (seats 0, 2) or side 1 (seats 1, 3)."""
        return (self.seat0, self.seat2) if side == 0 else (self.seat1, self.seat3)


class DriveBye(models.Model):
    """A player who sits a round out; scored by the drive's bye setting when the night is added up."""

    round = models.ForeignKey(DriveRound, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="drive_bye_unique_player")]

    def __str__(self) -> str:
        return f"{self.round}: bye for {self.player}"


class DriveDeal(models.Model):
    """One deal of a table's boom as the table entered it, and its score from ``engine.deals.check_deal``."""

    table = models.ForeignKey(DriveTable, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    makers_side = models.PositiveSmallIntegerField(choices=SIDES)
    card_points0 = models.PositiveSmallIntegerField()
    card_points1 = models.PositiveSmallIntegerField()
    roem0 = models.PositiveSmallIntegerField(default=0)
    roem1 = models.PositiveSmallIntegerField(default=0)
    pit_side = models.PositiveSmallIntegerField(null=True, blank=True)
    nat = models.BooleanField(null=True, blank=True)
    multiplier = models.PositiveSmallIntegerField(default=1)
    march_side = models.PositiveSmallIntegerField(null=True, blank=True)
    made = models.BooleanField()
    points0 = models.IntegerField()
    points1 = models.IntegerField()
    entered_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="drive_deal_unique_number")]

    def __str__(self) -> str:
        return f"{self.table} deal {self.number}"

    def clean(self) -> None:
        for field in ("makers_side", "pit_side", "march_side"):
            if getattr(self, field) not in (None, 0, 1):
                raise ValidationError({field: _("A side is 0 or 1.")})

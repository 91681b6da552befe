"""Selectors for competitions, matches, the match clock, scores and standings (reads)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from matches.models import (
    Award,
    Boem,
    BoemEntry,
    Competition,
    DealLine,
    Match,
    MatchTable,
    Seat,
    TeamSheet,
)
from matches.rules import plays_deals

PLAYING_PHASES = (Match.Phase.FIRST_HALF, Match.Phase.SECOND_HALF, Match.Phase.EXTRA_TIME)


# --- Lists and details ----------------------------------------------------------------------------------

def match_list(*, competition: Competition, round_number: int | None = None) -> QuerySet[Match]:
    """A competition's fixtures with both teams (one query)."""
    matches = Match.objects.filter(competition=competition).select_related("home__club", "away__club")
    if round_number is not None:
        matches = matches.filter(round_number=round_number)
    return matches.order_by("round_number", "scheduled_start", "id")


def match_detail(*, match_id: int) -> Match:
    """A match with everything a match-night page shows, in a fixed number of queries (7).

    :raises Match.DoesNotExist: no such match.
    """
    return (
        Match.objects.select_related("competition__union", "home__club", "away__club", "referee", "marker")
        .prefetch_related(
            Prefetch("team_sheets", queryset=TeamSheet.objects.select_related("team")),
            Prefetch("team_sheets__seats", queryset=Seat.objects.select_related("player")),
            Prefetch("tables", queryset=MatchTable.objects.order_by("number")),
            Prefetch("tables__boems", queryset=Boem.objects.order_by("number")),
            Prefetch("tables__boems__entries", queryset=BoemEntry.objects.order_by("sequence")),
            Prefetch("awards", queryset=Award.objects.select_related("team", "player")),
        )
        .get(pk=match_id)
    )


def boem_sheet(*, match: Match, table_number: int) -> list[Boem]:
    """A table's boems in order, each with its entries prefetched (two queries)."""
    return list(
        Boem.objects.filter(table__match=match, table__number=table_number)
        .order_by("number")
        .prefetch_related(Prefetch("entries", queryset=BoemEntry.objects.order_by("sequence")))
    )


# --- The match clock -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ClockLengths:
    """How long each part of a match night lasts, in minutes: the union's match clock (SAKBOC's defaults 5, 75,
    10, 15, 3; interpretation 4's 10 minutes of extra time), with the match's own halves and interval when it sets
    them (:attr:`Match.half_minutes`, :attr:`Match.interval_minutes`). Read it with :func:`match_clock_lengths`:
    every deadline and every refusal that names a length comes from it."""

    toss_minutes_before: int
    half_minutes: int
    interval_minutes: int
    last_period_minutes: int
    grace_minutes: int
    extra_time_minutes: int

    @property
    def play_minutes(self) -> int:
        """Minutes of play: two halves (SAKBOC 1.2: 2 h 30 min by default)."""
        return 2 * self.half_minutes

    @property
    def night_minutes(self) -> int:
        """The night from the start of play to time: two halves and the interval (2 h 40 min by default)."""
        return self.play_minutes + self.interval_minutes


def match_clock_lengths(match: Match) -> ClockLengths:
    """The clock lengths of ``match`` (:class:`ClockLengths`): its union's (``match.competition.union``, select it
    with the match), its own halves and interval where it sets them (a shorter night for one match, e.g. the demo's
    practice night). No queries once the union is loaded."""
    union = match.competition.union
    return ClockLengths(
        toss_minutes_before=union.toss_minutes_before,
        half_minutes=match.half_minutes if match.half_minutes is not None else union.half_minutes,
        interval_minutes=match.interval_minutes if match.interval_minutes is not None else union.interval_minutes,
        last_period_minutes=union.last_period_minutes,
        grace_minutes=union.grace_minutes,
        extra_time_minutes=union.knockout_extra_time_minutes,
    )


@dataclass(frozen=True)
class ClockReading:
    """The match clock at ``now``, derived from :class:`Match`'s columns and its clock lengths
    (:func:`match_clock_lengths`: the union's settings, the match's own halves and interval where set).

    Times are aware datetimes; ``remaining`` is a ``timedelta`` (zero when overdue) or ``None``.
    ``in_last_period``: the last 15 minutes of the game (SAKBOC 1.15), also all of extra time.
    ``grace_until``: end of the 3 minutes' grace after the interval (SAKBOC 12.3).
    """

    phase: str
    now: datetime
    toss_at: datetime
    started_at: datetime | None
    ends_at: datetime | None
    remaining: timedelta | None
    in_last_period: bool
    grace_until: datetime | None
    next_deadline: tuple[str, datetime] | None


def clock_deadlines(match: Match) -> dict[str, datetime]:
    """Every clock instant of ``match`` that is known (needs ``match.competition.union``), from its clock lengths
    (:func:`match_clock_lengths`).

    Keys: ``toss_at`` (1.3), ``first_half_ends_at``, ``interval_ends_at``, ``second_half_ends_at`` (1.2),
    ``grace_until`` (12.3), ``last_period_from`` (1.15), ``extra_time_ends_at`` (1.12).
    """
    lengths = match_clock_lengths(match)
    out = {"toss_at": match.scheduled_start - timedelta(minutes=lengths.toss_minutes_before)}
    if match.first_half_started_at:
        out["first_half_ends_at"] = match.first_half_started_at + timedelta(minutes=lengths.half_minutes)
    if match.interval_started_at:
        out["interval_ends_at"] = match.interval_started_at + timedelta(minutes=lengths.interval_minutes)
    if match.second_half_started_at:
        out["second_half_ends_at"] = match.second_half_started_at + timedelta(minutes=lengths.half_minutes)
        out["grace_until"] = match.second_half_started_at + timedelta(minutes=lengths.grace_minutes)
        out["last_period_from"] = out["second_half_ends_at"] - timedelta(minutes=lengths.last_period_minutes)
    if match.extra_time_started_at:
        out["extra_time_ends_at"] = match.extra_time_started_at + timedelta(minutes=lengths.extra_time_minutes)
    return out


def clock_next_deadline(match: Match) -> tuple[str, datetime] | None:
    """The next deadline the clock timers act on: ``("interval_due" | "grace_expiry" | "full_time" |
    "extra_time_end", instant)``, or ``None`` when the phase has none."""
    d = clock_deadlines(match)
    name, key = None, None
    if match.phase == Match.Phase.FIRST_HALF:
        name, key = "interval_due", "first_half_ends_at"
    elif match.phase == Match.Phase.SECOND_HALF:
        name, key = ("grace_expiry", "grace_until") if match.grace_handled_at is None else (
            "full_time", "second_half_ends_at")
    elif match.phase == Match.Phase.EXTRA_TIME:
        name, key = "extra_time_end", "extra_time_ends_at"
    if name is None or key not in d:  # no phase with a deadline, or its start never recorded
        return None
    return (name, d[key])


def match_clock(*, match: Match, now: datetime | None = None) -> ClockReading:
    """Read the match clock at ``now`` (default: the current time). No queries beyond ``competition.union``.
    A phase whose start was never recorded (data edited by hand) reads with no end rather than failing."""
    now = now or timezone.now()
    d = clock_deadlines(match)
    started = ends = None
    if match.phase == Match.Phase.SCHEDULED:
        ends = match.scheduled_start
    elif match.phase == Match.Phase.FIRST_HALF:
        started, ends = match.first_half_started_at, d.get("first_half_ends_at")
    elif match.phase == Match.Phase.INTERVAL:
        started, ends = match.interval_started_at, d.get("interval_ends_at")
    elif match.phase == Match.Phase.SECOND_HALF:
        started, ends = match.second_half_started_at, d.get("second_half_ends_at")
    elif match.phase == Match.Phase.EXTRA_TIME:
        started, ends = match.extra_time_started_at, d.get("extra_time_ends_at")
    in_last = match.phase == Match.Phase.EXTRA_TIME or (
        match.phase == Match.Phase.SECOND_HALF and "last_period_from" in d and now >= d["last_period_from"]
    )
    return ClockReading(
        phase=match.phase,
        now=now,
        toss_at=d["toss_at"],
        started_at=started,
        ends_at=ends,
        remaining=max(ends - now, timedelta(0)) if ends else None,
        in_last_period=in_last,
        grace_until=d.get("grace_until"),
        next_deadline=clock_next_deadline(match),
    )


def matches_with_running_clock() -> QuerySet[Match]:
    """Matches whose clock has a deadline to watch (timers re-armed from these)."""
    return Match.objects.filter(
        phase__in=[Match.Phase.FIRST_HALF, Match.Phase.SECOND_HALF, Match.Phase.EXTRA_TIME]
    ).select_related("competition__union")


# --- The match score -----------------------------------------------------------------------------------

@dataclass
class TableScore:
    """One table: boem points per side, and what counts after a stop (SAKBOC 12.1: the defaulters' 0)."""

    number: int
    status: str
    home_points: int = 0
    away_points: int = 0
    forfeited_team_id: int | None = None
    home_counted: int = 0
    away_counted: int = 0


@dataclass
class MatchScore:
    """A match score: Σ tables' counted points + Σ awards, per side."""

    tables: list[TableScore] = field(default_factory=list)
    home_awards: int = 0
    away_awards: int = 0
    awards: list[Award] = field(default_factory=list)

    @property
    def home(self) -> int:
        return sum(t.home_counted for t in self.tables) + self.home_awards

    @property
    def away(self) -> int:
        return sum(t.away_counted for t in self.tables) + self.away_awards


def match_score(*, match: Match) -> MatchScore:
    """Compute the match score from the tables, boems (or, in a game scored deal by deal, the tables' deal
    lines: ``matches.night.deals``) and awards (three queries)."""
    score = MatchScore()
    tables = {t.pk: TableScore(number=t.number, status=t.status, forfeited_team_id=t.defaulting_team_id
                               if t.status == MatchTable.Status.STOPPED else None)
              for t in MatchTable.objects.filter(match=match).order_by("number")}
    if plays_deals(match.competition):
        # A game scored deal by deal (issue 24): a table's total is its deals in the game's unit, as the engine
        # scored each when it was written (matches.night.deals.deal_record).
        for table_id, home, away in DealLine.objects.filter(table__match=match).values_list(
            "table_id", "home_score", "away_score"
        ):
            tables[table_id].home_points += home
            tables[table_id].away_points += away
    else:
        for table_id, winner_id, points in Boem.objects.filter(table__match=match, winner__isnull=False).values_list(
            "table_id", "winner_id", "points"
        ):
            if winner_id == match.home_id:
                tables[table_id].home_points += points
            else:
                tables[table_id].away_points += points
    for t in tables.values():
        t.home_counted = 0 if t.forfeited_team_id == match.home_id else t.home_points
        t.away_counted = 0 if t.forfeited_team_id == match.away_id else t.away_points
    score.tables = sorted(tables.values(), key=lambda t: t.number)
    score.awards = list(Award.objects.filter(match=match).order_by("created_at", "id"))
    score.home_awards = sum(a.points for a in score.awards if a.team_id == match.home_id)
    score.away_awards = sum(a.points for a in score.awards if a.team_id == match.away_id)
    return score

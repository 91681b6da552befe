"""The home page's "this week": tonight's fixtures, the latest results and the table (a selector, reads only).

The table is the newest league season's: its latest published standings (frozen, dated) if any, else its
live provisional standings. Names only: team names and club names, never ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from clubs.models import Union
from matches.models import Competition, Match, StandingsRow, StandingsSnapshot
from matches.results.selectors import standings_rows, standings_snapshot_latest

LATEST_RESULTS = 6
TABLE_ROWS = 8


@dataclass(frozen=True)
class WeekTable:
    """The top of one league's table: its rows, whether published (with title and date) or provisional."""

    competition: Competition
    rows: list[dict[str, Any]]
    published: StandingsSnapshot | None = None
    more: int = 0


@dataclass(frozen=True)
class ThisWeek:
    tonight: list[Match] = field(default_factory=list)
    results: list[Match] = field(default_factory=list)
    table: WeekTable | None = None


def _with_teams(queryset):
    return queryset.select_related("home", "away", "competition__union")


def matches_tonight(*, now: datetime | None = None, unions: Iterable[Union] | None = None) -> list[Match]:
    """Tonight's matches, earliest first, with their teams and competition: every match scheduled today (local
    time), and one of yesterday evening still at the tables after midnight; of ``unions`` only when given (the
    official's dashboard). One query."""
    today = timezone.localdate(now or timezone.now())
    at_the_tables = ~Q(phase__in=(Match.Phase.SCHEDULED, Match.Phase.FINISHED))
    last_night = Q(scheduled_start__date=today - timedelta(days=1)) & at_the_tables
    matches = Match.objects.filter(Q(scheduled_start__date=today) | last_night)
    if unions is not None:
        matches = matches.filter(competition__union__in=unions)
    return list(_with_teams(matches).order_by("scheduled_start", "id"))


def this_week(*, now: datetime | None = None) -> ThisWeek:
    """Tonight's fixtures (:func:`matches_tonight`), the latest finished matches (newest first, provisional ones
    marked by their status) and the top of the newest league table (five queries)."""
    now = now or timezone.now()
    tonight = matches_tonight(now=now)
    results = list(_with_teams(Match.objects.filter(phase=Match.Phase.FINISHED))
                   .order_by("-scheduled_start", "-id")[:LATEST_RESULTS])
    has_standings = Exists(StandingsRow.objects.filter(competition=OuterRef("pk")))
    has_snapshot = Exists(StandingsSnapshot.objects.filter(competition=OuterRef("pk")))
    competition = (Competition.objects.select_related("union").filter(kind=Competition.Kind.LEAGUE)
                   .filter(has_standings | has_snapshot)
                   .order_by("-season", "-created_at", "-id").first())
    table = None
    if competition is not None:
        snapshot = standings_snapshot_latest(competition=competition)
        rows = list(snapshot.rows) if snapshot else standings_rows(competition_id=competition.pk)
        table = WeekTable(competition=competition, rows=rows[:TABLE_ROWS], published=snapshot,
                          more=max(0, len(rows) - TABLE_ROWS))
    return ThisWeek(tonight=tonight, results=results, table=table)

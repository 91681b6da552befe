"""Read helpers for the standings: the live (provisional) table and the published snapshots.

Read one way everywhere (the standings page, the home page, the API, the CSV and the PDF, the official's
confirmation before publishing).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from matches.models import (
    Competition,
    Match,
    StandingsSnapshot,
)
from matches.results.standings import StandingsLine, standings_read

PLAYING_PHASES = (Match.Phase.FIRST_HALF, Match.Phase.SECOND_HALF, Match.Phase.EXTRA_TIME)


# --- Standings -----------------------------------------------------------------------------------------
# The live table is read one way everywhere (the standings page, the home page, the API, the CSV and the PDF,
# the official's confirmation before publishing): standings_for_competition, or its rows for the pages and
# downloads, which have the keys of a published snapshot's rows so both show alike.


def standings_for_competition(*, competition_id: int) -> list[StandingsLine]:
    """The competition's live (provisional) standings, best first; empty before any result is approved
    (:func:`matches.results.standings.standings_read`).

    Served from the cache (no queries); on a miss, any recompute still waiting in the outbox is run, then the
    stored rows are read (2 queries when none waits) and cached. The query count does not grow with the
    number of teams.
    """
    return standings_read(competition_id=competition_id)


def standings_rows(*, competition_id: int) -> list[dict[str, Any]]:
    """:func:`standings_for_competition` as plain rows with the keys of ``StandingsSnapshot.rows``
    (``position``, ``team_id``, ``team_name``, ``club_name``, ``played`` … ``tiebreak_reason``), for the pages
    and the downloads, which show a published snapshot and the live table alike. Same queries."""
    return [line.row() for line in standings_for_competition(competition_id=competition_id)]


def standings_snapshots(*, competition: Competition) -> QuerySet[StandingsSnapshot]:
    """The competition's published standings, newest first (a lazy query)."""
    return StandingsSnapshot.objects.filter(competition=competition).order_by("-published_at", "-id")


def standings_snapshot_latest(*, competition: Competition) -> StandingsSnapshot | None:
    """The competition's latest published standings, or None (1 query)."""
    return standings_snapshots(competition=competition).first()


def standings_snapshot_pick(
    *, competition: Competition, snapshot_id: int | None, recent: int = 20,
) -> tuple[StandingsSnapshot | None, list[StandingsSnapshot]]:
    """The published standings a page asks for (``?snapshot=<id>`` of this competition, parsed by the view with
    :func:`plumbing.api.id_parse`; ``None``: the latest) and the ``recent`` newest, for the page's list of older
    tables (2 queries; 1 with ``recent=0``, a download's). An id of another competition's, or of none, gives
    None."""
    snapshots = standings_snapshots(competition=competition)
    picked = snapshots.filter(pk=snapshot_id).first() if snapshot_id is not None else snapshots.first()
    return picked, list(snapshots[:recent]) if recent else []

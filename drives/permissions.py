"""Who may run a drive: its club's secretaries and its union's officials (every drive for a superuser).

One access helper per resource: :func:`drive_for_manager`, :func:`night_for_manager` and :func:`table_for_manager`
answer 404 alike for "not there" and "not yours", body and all (issue 35).
A table's scorer needs no account: the table's secret code (its link) opens that table's deal entry only.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from clubs.permissions import not_found, one_or_404, scope_by_links
from drives.models import Drive, DriveNight, DriveTable

__all__ = ["drive_for_manager", "drives_for_manager", "night_for_manager", "table_by_code", "table_for_manager"]


def drives_for_manager(user: Any) -> QuerySet[Drive]:
    """Drives ``user`` runs: of clubs they are secretary of, or of unions they are an official of."""
    return scope_by_links(user, Drive.objects.all(), Q(club__secretaries=user) | Q(club__union__officials=user))


def drive_for_manager(*, user: Any, drive_id: int) -> Drive:
    """The drive if ``user`` runs it.

    :raises Http404: no such drive, or not the user's (the same answer).
    """
    return one_or_404(drives_for_manager(user).select_related("club__union"), "drive", pk=drive_id)


def night_for_manager(*, user: Any, night_id: int) -> DriveNight:
    """The club night if ``user`` runs its drive (to draw its next boom), public drive or not.

    :raises Http404: no such night, or another drive's (the same answer).
    """
    return one_or_404(DriveNight.objects.select_related("drive__club"), "night",
                      pk=night_id, drive__in=drives_for_manager(user))


def table_for_manager(*, user: Any, table_id: int) -> DriveTable:
    """The boom's table if ``user`` runs its drive (to enter its deals), public drive or not.

    :raises Http404: no such table, or another drive's (the same answer).
    """
    return one_or_404(DriveTable.objects.select_related("round__night__drive"), "table",
                      pk=table_id, round__night__drive__in=drives_for_manager(user))


def table_by_code(code: str) -> DriveTable:
    """The table whose secret code is ``code`` (its scorer's link), with its round, night, drive and players.

    :raises Http404: no table has that code.
    """
    if not code or len(code) > 32:
        raise not_found("table")
    return one_or_404(
        DriveTable.objects.select_related("round__night__drive__club", "seat0", "seat1", "seat2", "seat3"),
        "table", code=code)

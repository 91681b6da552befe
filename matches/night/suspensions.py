"""Suspended players (issue 22): a player suspended by the union's discipline register sits out the next match
nights of their teams, and is refused on a team sheet and as a substitute, with the suspension's reason and end.

The register lives with the registry (``clubs.models.DisciplinaryRecord``); counting match nights needs the
fixtures, so it is here: ``matches`` reads ``clubs``, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import timezone

from clubs.models import DisciplinaryRecord, Player
from matches.models import Match


@dataclass(frozen=True)
class Suspension:
    """A suspension in force for one match night.

    ``night`` is which of the ``nights`` this match is (1-based); ``last_night_on`` the date of the last match night
    it covers, or ``None`` when fewer are scheduled yet.
    """

    record: DisciplinaryRecord
    night: int
    nights: int
    last_night_on: date | None

    @property
    def end(self) -> str:
        """When it ends, in words: ``"after the match night of 14 March 2026"``."""
        if self.last_night_on is not None:
            return f"after the match night of {self.last_night_on.day} {self.last_night_on:%B %Y}"
        return f"after {self.nights} match nights of the player's teams (not all scheduled yet)"

    @property
    def message(self) -> str:
        record = self.record
        assert record.player is not None  # a player's record: player_suspension reads them by player
        return (f"{record.player.full_name} is suspended for {self.nights} match night"
                f"{'s' if self.nights != 1 else ''} ({record.get_offence_display().lower()}: {record.reason}); "
                f"this is night {self.night} of {self.nights}, and the suspension ends {self.end}.")


def suspension_start(record: DisciplinaryRecord) -> datetime:
    """The moment a suspension starts counting match nights: when it was recorded, so that match nights played
    earlier that day are not used up by it (a time, not a day: issue 34); or the start of its ``starts_on`` day
    when the union set another day than the day it recorded it (a later day, or an earlier one it dates the
    suspension back to)."""
    recorded_at = record.recorded_at or timezone.now()
    if record.starts_on is None or record.starts_on == timezone.localdate(recorded_at):
        return recorded_at
    return timezone.make_aware(datetime.combine(record.starts_on, time.min))


def player_suspension(*, player: Player, match: Match) -> Suspension | None:
    """The suspension that keeps ``player`` out of ``match``, if any: ``match`` is among the first
    ``suspension_match_nights`` match nights of the player's teams (any competition) that start at or after the
    suspension's start (:func:`suspension_start`, a moment, not a day). Two queries, plus one per suspension on the
    player's record."""
    records = list(DisciplinaryRecord.objects.filter(
        player=player, sanction=DisciplinaryRecord.Sanction.SUSPENSION).select_related("player"))
    if not records:
        return None
    for record in records:
        start = suspension_start(record)
        if match.scheduled_start < start:
            continue
        nights = record.suspension_match_nights or 0
        covered = list(
            Match.objects.filter(Q(home__memberships__player=player) | Q(away__memberships__player=player)
                                 | Q(pk=match.pk), scheduled_start__gte=start)
            .distinct().order_by("scheduled_start", "id").values_list("pk", "scheduled_start")[:nights]
        )
        ids = [pk for pk, _start_at in covered]
        if match.pk in ids:
            last = timezone.localdate(covered[-1][1]) if len(covered) == nights else None
            return Suspension(record=record, night=ids.index(match.pk) + 1, nights=nights, last_night_on=last)
    return None


def players_with_suspensions(*, player_ids: list[int]) -> set[int]:
    """Which of ``player_ids`` have a suspension on their record at all (one query): only those need
    :func:`suspension_check`'s look at the fixtures (a team sheet names 8 players, most with a clean record)."""
    return set(DisciplinaryRecord.objects.filter(
        player_id__in=player_ids, sanction=DisciplinaryRecord.Sanction.SUSPENSION).values_list("player_id", flat=True))


def suspension_check(*, player: Player, match: Match) -> None:
    """:raises ValidationError: ``player`` is suspended for ``match`` (the message gives the reason and the end)."""
    suspension = player_suspension(player=player, match=match)
    if suspension is not None:
        raise ValidationError(suspension.message, code="suspended")

"""Optional data kept no longer than needed (POPIA s14): e-mail and phone of players who stopped playing.

A union's seasons are its competitions' season labels (``Competition.season``), in the order they began (their
first competition's creation). A player *played* in a season when they sat on a team sheet (``matches.Seat``) or
came on as a substitute (``matches.Substitution``) in a finished match of that season's competitions.

With ``union.retention_seasons`` = R and the union's newest season at position L (0-based), a player keeps e-mail
and phone while their last season played is at position L - R or later (the newest season and the R before it).
A player who never played keeps them until R full seasons have begun since they were registered (the first row of
their history), i.e. while registered on or after the start of season L - R. The results stay: only ``email`` and
``phone`` are blanked, on the player row and on its history rows.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.db import transaction
from django.db.models import Min, Q
from django.utils import timezone

from clubs.models import Player, Union
from clubs.services import save_with_history
from matches.models import Competition, Match, Seat, Substitution

logger = logging.getLogger(__name__)

#: The history reason of the save that blanks a player's optional data (names no one).
RETENTION_REASON = "optional data removed after the union's retention period (POPIA s14)"


def _season_order(*, union: Union, today: dt.date) -> list[tuple[str, dt.datetime]]:
    """The union's season labels begun by ``today``, oldest first, each with when its first competition began."""
    firsts = (Competition.objects.filter(union=union, created_at__date__lte=today).values("season")
              .annotate(began=Min("created_at")).order_by("began"))
    return [(row["season"], row["began"]) for row in firsts]


def _last_season_played(*, union: Union) -> dict[int, set[str]]:
    """Player id → the season labels they played in (finished matches only)."""
    played: dict[int, set[str]] = {}
    finished = Q(phase=Match.Phase.FINISHED) | ~Q(result_status=Match.ResultStatus.NONE)
    matches = Match.objects.filter(finished, competition__union=union)
    for player_id, season in Seat.objects.filter(sheet__match__in=matches).values_list(
            "player_id", "sheet__match__competition__season").distinct():
        played.setdefault(player_id, set()).add(season)
    for player_id, season in Substitution.objects.filter(match__in=matches).values_list(
            "player_in_id", "match__competition__season").distinct():
        played.setdefault(player_id, set()).add(season)
    return played


def retention_stale_players(*, union: Union, today: dt.date | None = None) -> list[Player]:
    """The union's players (not erased) holding an e-mail address or phone number they should no longer hold
    under the union's retention period (the module says how seasons count; POPIA s14)."""
    today = today or timezone.localdate()
    seasons = _season_order(union=union, today=today)
    keep_from = len(seasons) - 1 - union.retention_seasons
    if keep_from < 0:
        return []  # fewer seasons than the retention period: nobody is stale yet
    position = {label: index for index, (label, _) in enumerate(seasons)}
    window_began = seasons[keep_from][1]
    played = _last_season_played(union=union)
    holders = Player.objects.filter(union=union, erased_at__isnull=True).exclude(email="", phone="")
    registered = dict(Player.history.filter(id__in=holders.values("pk")).values("id")
                      .annotate(first=Min("history_date")).values_list("id", "first"))
    stale = []
    for player in holders:
        labels = played.get(player.pk, set())
        if labels:
            last = max(position.get(label, -1) for label in labels)
            if last < keep_from:
                stale.append(player)
        elif registered.get(player.pk) is not None and registered[player.pk] < window_began:
            stale.append(player)
    return stale


def retention_sweep(*, today: dt.date | None = None) -> int:
    """Blank the e-mail and phone of every union's stale players (:func:`retention_stale_players`), on the player
    row (a history row records why, naming no one) and on its history rows; return how many players lost them.
    Logs counts per union, never names. Idempotent: a second run finds nobody (POPIA s14)."""
    total = 0
    for union in Union.objects.all():
        stale = retention_stale_players(union=union, today=today)
        for player in stale:
            with transaction.atomic():
                player.email = player.phone = ""
                save_with_history(player, reason=RETENTION_REASON)
                Player.history.filter(id=player.pk).update(email="", phone="")
        if stale:
            logger.info("privacy: retention removed the e-mail and phone of %s player(s) of union %s",
                        len(stale), union.pk)
        total += len(stale)
    return total

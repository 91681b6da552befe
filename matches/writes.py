"""How the match-night writes write: the match's row lock, version checks, history rows and the match score.

Shared by the services of every job (``matches.competitions.services``, ``matches.night.services`` and
``matches.night.clock``, ``matches.results.services``) and ``matches.night.boem_sheet``
(every line of a table's boem sheet), so neither imports the other's internals. Every write of a match night
locks the match's row first (:func:`match_lock`), so two devices or a device and the referee are served one
after the other, and the same statement marks the change for the live pages (``Match.live_version`` + 1): it
becomes visible with the write when the transaction commits, and vanishes with it when a rule refuses it.

The clock and the
team sheets also share :func:`not_before_check` (a step taken before its time) and :func:`award_once` (an award
written once).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Team
from clubs.services import history_reason_fit, save_with_history
from matches.models import Award, Match
from matches.selectors import match_score
from plumbing.recent import RecentReads

LIVE_VERSIONS_POLLED: RecentReads[int, tuple[int, str]] = RecentReads(
    lambda: settings.LIVE_VERSION_REUSE_SECONDS)
"""The live versions the public polls read, by match id, reused in this process for
``LIVE_VERSION_REUSE_SECONDS`` (``matches.night.live.live_version_polled``); :func:`match_lock` forgets its
match's when its write commits, so this process's polls show the write at once."""

STALE_WRITE = "{what} was changed by someone else since you opened it: reload and try again."
"""The message of a write based on a state that has since changed (code ``stale``: HTTP 409 in the API)."""


def now_or(now: datetime | None) -> datetime:
    """``now``, or the current time when ``None`` (services take ``now`` so tests and the demo set the clock)."""
    return now or timezone.now()


def hhmm(instant: datetime) -> str:
    """A local time of day as people read it on the clock (``"19:30"``)."""
    return timezone.localtime(instant).strftime("%H:%M")


def match_lock(match: Match | int, *, handed_on: bool = False) -> Match:
    """Lock ``match``'s row for the rest of the transaction and re-read it, with its competition, union and teams.

    The lock is taken by ``UPDATE … SET live_version = live_version + 1`` (the live pages' ETag: every write of
    a match night goes through here, so every committed write is seen by the polling pages), then the row is
    read ``FOR UPDATE``. When the write commits, this process's public polls forget the version they reused
    (:data:`LIVE_VERSIONS_POLLED`).

    ``handed_on``: the caller will hand the match on to one service without writing to the row itself (a table
    page's view locks first to read the table's last line, then calls the service). The next ``match_lock`` of
    the same match, by match or by id, then returns it as it is, once, while the transaction and the savepoints
    it was taken under are still open: the lock still holds and nothing has changed the row, so it is not locked
    and read twice. Any other lock ends the hand-over; without ``handed_on`` the row is always locked and read
    afresh.

    :raises Match.DoesNotExist: no such match.
    """
    pk = match if isinstance(match, int) else match.pk
    connection = transaction.get_connection()
    handed = _handed_over(connection, pk)
    if handed is not None:
        return handed
    Match.objects.filter(pk=pk).update(live_version=F("live_version") + 1)
    transaction.on_commit(lambda: LIVE_VERSIONS_POLLED.forget(pk))
    locked = (Match.objects.select_for_update(of=("self",))
              .select_related("competition__union", "home", "away").get(pk=pk))
    if handed_on and connection.in_atomic_block:
        # the transaction's own list of commit hooks: Django replaces it when the transaction (or a savepoint)
        # ends in a rollback, or commits, and this reference keeps it from being reused by the next one
        connection.match_handed_on = (
            pk, locked, connection.run_on_commit, tuple(connection.savepoint_ids))
    return locked


def _handed_over(connection: Any, pk: int) -> Match | None:
    """The match ``pk`` a ``match_lock(handed_on=True)`` locked in the transaction now open, under savepoints
    still open; ``None`` otherwise. The hand-over is used up either way."""
    held = getattr(connection, "match_handed_on", None)
    if held is None:
        return None
    connection.match_handed_on = None
    held_pk, match, hooks, savepoints = held
    if (held_pk == pk and connection.in_atomic_block and hooks is connection.run_on_commit
            and tuple(connection.savepoint_ids[:len(savepoints)]) == savepoints):
        return match
    return None


def version_check(*, expected: int | None, current: int, what: str) -> None:
    """Optimistic check: a form or API client that says which version it saw (``expected``) is refused when
    another device wrote in between. ``None`` skips the check (the row lock alone then serialises writes).

    :raises ValidationError: code ``stale``, :data:`STALE_WRITE` naming ``what``.
    """
    if expected is not None and expected != current:
        raise ValidationError(STALE_WRITE.format(what=what), code="stale")


def team_in_match(match: Match, team: Team) -> None:
    """:raises ValidationError: ``team`` is neither side of ``match``."""
    if team.pk not in (match.home_id, match.away_id):
        raise ValidationError(
            _("%(team)s does not play in %(home)s v %(away)s.")
            % {"team": team.name, "home": match.home.name, "away": match.away.name}
        )


def score_and_save(match: Match, *, by: Any, reason: str) -> None:
    """Recompute the match score from the tables, boems and awards (``matches.selectors.match_score``), set the
    winner once the match is finished, and save with history (``by``, ``reason``). The caller holds the lock."""
    score = match_score(match=match)
    match.home_score, match.away_score = score.home, score.away
    if match.phase == Match.Phase.FINISHED:
        match.winner_id = (
            match.home_id if score.home > score.away else match.away_id if score.away > score.home else None
        )
    save_with_history(match, by=by, reason=reason)


_HISTORY_MODELS: dict[type, Any] = {}


def history_model(model: type) -> Any:
    """The model's historical model (cached: the ``history`` descriptor builds a manager class per access)."""
    if model not in _HISTORY_MODELS:
        _HISTORY_MODELS[model] = model.history.model  # type: ignore[attr-defined]
    return _HISTORY_MODELS[model]


def history_row(instance: Any, *, history_type: str, by: Any, reason: str) -> Any:
    """A django-simple-history row for ``instance`` as it is now (what ``save_with_history`` would write), for
    writers that save in bulk. ``history_type``: ``"+"`` created, ``"~"`` changed, ``"-"`` deleted."""
    historical = history_model(type(instance))
    return historical(
        history_date=timezone.now(), history_user=by, history_change_reason=history_reason_fit(reason),
        history_type=history_type,
        **{f.attname: getattr(instance, f.attname) for f in historical.tracked_fields},
    )


def field_check(instance: Any, foreign_keys: tuple[str, ...]) -> None:
    """``full_clean`` without the per-row queries: field values (choices, lengths, ranges) are checked; the
    foreign keys are objects the caller checked already, and uniqueness is the database constraints' to hold."""
    instance.full_clean(exclude=list(foreign_keys), validate_unique=False, validate_constraints=False)


def match_night_come_check(*, match: Match, now: datetime | None = None) -> None:
    """Refuse a result for a fixture whose night has not come: the match's local date (the union's time zone,
    Africa/Johannesburg) is after today's. From the morning of the night on, a result may be entered (a paper
    sheet brought in, a walk-over agreed); no cards are played before the starting time (SAKBOC 1.9), so no
    result exists before the night.

    :raises ValidationError: the match night is still to come.
    """
    night = timezone.localdate(match.scheduled_start)
    if night > timezone.localdate(now_or(now)):
        raise ValidationError(
            _("The match night of %(home)s v %(away)s is on %(date)s: its result can be entered from that night.")
            % {"home": match.home, "away": match.away, "date": date_format(night, "j F Y")}
        )


def not_before_check(now: datetime, due: datetime, refusal: str, **values: Any) -> None:
    """Refuse a step of the match night taken before its time ``due``.

    :param refusal: the translated refusal, citing its clause, with ``%(value)s`` for the time due (``19:30``)
        and the match's clock length it names (``%(minutes)s``, given in ``values``: the union's, or the match's
        own, ``matches.selectors.match_clock_lengths``; never SAKBOC's default written in).
    :raises ValidationError: ``now`` is before ``due``.
    """
    if now < due:
        raise ValidationError(refusal % {**values, "value": hhmm(due)})


def award_once(
    match: Match, *, team_id: int, kind: Award.Kind, by: Any, now: datetime, half: int | None = None,
    table_number: int | None = None, player_id: int | None = None, note: str = "",
) -> Award:
    """Write an award once (its DB constraint makes a repeat a no-op returning the existing one)."""
    lookup: dict[str, Any] = {"match": match, "kind": kind}
    if kind == Award.Kind.THREE_TABLES:
        lookup["team_id"] = team_id
    elif kind == Award.Kind.CALLED_AWAY:
        lookup.update(player_id=player_id, half=half)
    else:
        lookup["table_number"] = table_number
    existing = Award.objects.filter(**lookup).first()
    if existing is not None:
        return existing
    award = Award(
        match=match, team_id=team_id, kind=kind, points=Award.POINTS[kind], clause=Award.CLAUSE[kind], half=half,
        table_number=table_number, player_id=player_id, note=note, created_at=now, created_by=by,
    )
    save_with_history(award, by=by, reason=f"{award.points} points ({award.clause})")
    return award

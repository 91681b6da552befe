"""A fixture postponed or rescheduled by the union's official: a new date, time or venue, with the reason.

:func:`fixture_reschedule` is the one write. The match's history keeps
the old start and venue (the row before), the new ones, who moved it and why; the captains of both teams and the
match's referee and marker are told once by e-mail (``matches.notifications.fixture_rescheduled_notify``). What
follows by itself: the calendar feeds (the event keeps its ``UID``; its ``SEQUENCE`` and ``LAST-MODIFIED`` go up,
``matches.competitions.calendar``), and the public fixture, results and match pages (every save of a match renews the
competition's pages token, ``matches.page_versions``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.services import save_with_history
from matches.models import Match
from matches.notifications import fixture_rescheduled_notify
from matches.writes import match_lock, now_or

#: How much of the reason the e-mail carries (the history's column holds its first 100 characters).
REASON_MAX_LENGTH = 300


def _when(instant: datetime) -> str:
    local = timezone.localtime(instant)
    return date_format(local, "l j F Y, H:i")


@transaction.atomic
def fixture_reschedule(
    *, match: Match, scheduled_start: datetime, venue: str, reason: str, by: Any = None,
    now: datetime | None = None,
) -> Match:
    """Postpone or reschedule a fixture not yet begun: a new start (date and time) and venue, saved with
    ``reason`` and ``by`` in the match's history (the row before keeps the old start and venue). Once committed,
    both captains and the referee and marker (if assigned) are e-mailed the old and new date, time and venue and
    the reason, once (:func:`matches.notifications.fixture_rescheduled_notify`).

    The toss and start of play follow the new start (SAKBOC 1.3: captains toss 5 minutes before play); a team
    sheet already in stays in (SAKBOC 11.3 fixes seats only once play starts).

    :param scheduled_start: an aware datetime in the future. :param venue: the hall (at most 160 characters; blank
        keeps none). :param reason: why, in the official's words (1 to 300 characters).
    :returns: the match, saved.
    :raises ValidationError: keyed ``reason``: none, or too long; keyed ``scheduled_start``: a start in the past;
        keyed ``venue``: too long; unkeyed: the match has begun or been played (a phase other than scheduled:
        its night is on the record, SAKBOC 1.2), or nothing would change.
    """
    now = now_or(now)
    reason = (reason or "").strip()
    venue = (venue or "").strip()
    errors: dict[str, str] = {}
    if not reason:
        errors["reason"] = _("Say why the fixture is moved: the captains and the referee are told.")
    elif len(reason) > REASON_MAX_LENGTH:
        errors["reason"] = _("Keep the reason to %(value)s characters.") % {"value": REASON_MAX_LENGTH}
    if timezone.is_naive(scheduled_start):
        scheduled_start = timezone.make_aware(scheduled_start)
    if scheduled_start <= now:
        errors["scheduled_start"] = _("%(value)s is in the past: a fixture is moved to a time still to come.") % {
            "value": _when(scheduled_start)}
    venue_max_length = Match._meta.get_field("venue").max_length
    assert venue_max_length is not None  # a CharField's
    if len(venue) > venue_max_length:
        errors["venue"] = _("Keep the venue to %(value)s characters.") % {"value": venue_max_length}
    match = match_lock(match)
    if match.phase != Match.Phase.SCHEDULED:
        raise ValidationError(
            _("%(home)s v %(away)s has begun or been played (%(phase)s): its night is on the record and is not "
              "moved.") % {"home": match.home, "away": match.away, "phase": match.get_phase_display()}
        )
    if errors:
        raise ValidationError(errors)
    if scheduled_start == match.scheduled_start and venue == match.venue:
        raise ValidationError(
            _("%(home)s v %(away)s is already on %(when)s at %(venue)s: change the date, the time or the venue.")
            % {"home": match.home, "away": match.away, "when": _when(match.scheduled_start),
               "venue": match.venue or _("no venue")}
        )
    match.scheduled_start, match.venue = scheduled_start, venue
    save_with_history(match, by=by, reason=reason)
    change = match.history.order_by("-history_id").values_list("history_id", flat=True).first()
    fixture_rescheduled_notify(match_id=match.pk, history_id=change, reason=reason)
    return match

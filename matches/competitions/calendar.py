"""iCalendar feeds of fixtures, so players put their match nights in their phones' calendars.

``competition_calendar`` and ``team_calendar`` return an RFC 5545 calendar (bytes) built with the
``icalendar`` library: one ``VEVENT`` per match (issue 38):

* ``UID`` ``match-<id>@<CALENDAR_UID_DOMAIN>``: the domain is a setting (default: ``SITE_URL``'s host), never the
  request's ``Host``, so the same fixture has the same UID in every feed and through every address the site
  answers on (a phone subscribed to a team's and a competition's feed, or through a proxy, shows each night once,
  RFC 5545 3.8.4.7).
* ``DTSTAMP`` and ``LAST-MODIFIED``: the time of the match's latest change (its newest history row).
* ``SEQUENCE``: how often its date, time or venue has changed (RFC 5545 3.8.7.4: a revision a calendar must
  show), counted from the match's history, so a postponement
  (``matches.competitions.fixture_changes.fixture_reschedule``)
  updates the event in place, at its new start and venue, rather than adding a second one.
* ``URL``: the match report, on the site's public address (``SITE_URL``).

A match night lasts its two halves and the interval (SAKBOC 1.2: 2 h 30 of play plus 10 minutes; the match's
clock lengths, ``matches.selectors.match_clock_lengths``): the event's end is start + 2 h 40 under SAKBOC's. The
competition has no cancelled fixture (a fixture is moved, or played, or awarded), so no event is
``STATUS:CANCELLED``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.db.models import Max, OuterRef, Q, QuerySet, Subquery
from django.urls import reverse
from icalendar import Calendar, Event

from matches.models import Competition, Match
from matches.selectors import match_clock_lengths
from plumbing.sharing import absolute_url

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


def uid_domain() -> str:
    """The domain of every event's UID: ``settings.CALENDAR_UID_DOMAIN`` (default: ``SITE_URL``'s host)."""
    return str(settings.CALENDAR_UID_DOMAIN)


def match_uid(match_id: int) -> str:
    """The event UID of match ``match_id``, the same in every feed and through every address of the site."""
    return f"match-{match_id}@{uid_domain()}"


def schedule_changes(match_ids: Iterable[int]) -> dict[int, int]:
    """``{match id: how many times its date, time or venue changed}``, from the matches' history (one query,
    two columns a row): each history row whose start or venue differs from the row before counts once."""
    counts: dict[int, int] = {}
    previous: dict[int, tuple] = {}
    rows = (Match.history.model.objects.filter(id__in=list(match_ids))
            .order_by("id", "history_date", "history_id").values_list("id", "scheduled_start", "venue"))
    for match_id, start, venue in rows:
        before = previous.get(match_id)
        if before is not None and before != (start, venue):
            counts[match_id] = counts.get(match_id, 0) + 1
        previous[match_id] = (start, venue)
    return counts


class _Modified(TypedDict):
    """What :func:`_matches` annotates: the time of the match's newest history row (``None`` without one)."""

    modified: dt.datetime | None


def _calendar(name: str, matches: Iterable[WithAnnotations[Match, _Modified]]) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//klawerjas-league//fixtures//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    matches = list(matches)
    changes = schedule_changes(m.pk for m in matches)
    for match in matches:
        event = Event()
        event.add("uid", match_uid(match.pk))
        event.add("summary", f"{match.home} v {match.away}")
        event.add("dtstart", match.scheduled_start)
        event.add("dtend", match.scheduled_start + dt.timedelta(minutes=match_clock_lengths(match).night_minutes))
        modified = match.modified or match.scheduled_start
        event.add("dtstamp", modified)
        event.add("last-modified", modified)
        event.add("sequence", changes.get(match.pk, 0))
        event.add("url", absolute_url(reverse("matches:match", args=[match.pk])))
        if match.venue:
            event.add("location", match.venue)
        description = [str(match.competition)]
        if match.round_name:
            description.append(match.round_name)
        if match.result_status != Match.ResultStatus.NONE:
            description.append(f"Result: {match.home_score}-{match.away_score} ({match.status_label})")
        event.add("description", "\n".join(description))
        if match.phase == Match.Phase.FINISHED:
            event.add("status", "CONFIRMED")
        calendar.add_component(event)
    return calendar.to_ical()


def _matches() -> QuerySet[WithAnnotations[Match, _Modified]]:
    rows = Match.history.model.objects.filter(id=OuterRef("pk")).order_by().values("id")
    modified = rows.annotate(at=Max("history_date")).values("at")
    return (Match.objects.select_related("home", "away", "competition__union")
            .annotate(modified=Subquery(modified)).order_by("scheduled_start", "id"))


def competition_calendar(*, competition: Competition) -> bytes:
    """Every fixture of ``competition`` as an iCalendar feed (bytes, ``text/calendar``)."""
    return _calendar(str(competition), _matches().filter(competition=competition))


def team_calendar(*, team) -> bytes:
    """Every fixture of ``team`` (home and away) as an iCalendar feed (bytes, ``text/calendar``)."""
    return _calendar(f"{team.name} ({team.competition})", _matches().filter(Q(home=team) | Q(away=team)))

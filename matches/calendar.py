"""iCalendar feeds of fixtures, so players put their match nights in their phones' calendars.

``competition_calendar`` and ``team_calendar`` return an RFC 5545 calendar (bytes) built with the
``icalendar`` library: one ``VEVENT`` per match, its ``UID`` stable across feeds (``match-<id>@<host>``) so a
phone that subscribes to both a team's and a competition's feed shows each night once, its ``SEQUENCE`` the
match's number of history rows and its ``LAST-MODIFIED`` (and ``DTSTAMP``) the time of the latest, so a
rescheduled fixture (``matches.fixture_changes.fixture_reschedule``) updates the entry in place, at its new start
and venue, rather than adding a second one. A match night lasts its two halves and the interval (SAKBOC 1.2:
2 h 30 of play plus 10 minutes; the match's clock lengths, ``matches.selectors.match_clock_lengths``): the event's
end is start + 2 h 40 under SAKBOC's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db.models import Count, Max, OuterRef, Q, Subquery
from icalendar import Calendar, Event

from matches.models import Competition, Match
from matches.selectors import match_clock_lengths


def _calendar(name: str, matches: Iterable[Match], *, host: str) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//klawerjas-league//fixtures//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    for match in matches:
        event = Event()
        event.add("uid", f"match-{match.pk}@{host}")
        event.add("summary", f"{match.home} v {match.away}")
        event.add("dtstart", match.scheduled_start)
        event.add("dtend", match.scheduled_start + dt.timedelta(minutes=match_clock_lengths(match).night_minutes))
        modified = match.modified or match.scheduled_start
        event.add("dtstamp", modified)
        event.add("last-modified", modified)
        event.add("sequence", max(0, (match.changes or 1) - 1))
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


def _matches():
    rows = Match.history.model.objects.filter(id=OuterRef("pk")).order_by().values("id")
    changes = rows.annotate(n=Count("history_id")).values("n")
    modified = rows.annotate(at=Max("history_date")).values("at")
    return (Match.objects.select_related("home", "away", "competition__union")
            .annotate(changes=Subquery(changes), modified=Subquery(modified)).order_by("scheduled_start", "id"))


def competition_calendar(*, competition: Competition, host: str) -> bytes:
    """Every fixture of ``competition`` as an iCalendar feed (bytes, ``text/calendar``)."""
    return _calendar(str(competition), _matches().filter(competition=competition), host=host)


def team_calendar(*, team, host: str) -> bytes:
    """Every fixture of ``team`` (home and away) as an iCalendar feed (bytes, ``text/calendar``)."""
    return _calendar(f"{team.name} ({team.competition})",
                     _matches().filter(Q(home=team) | Q(away=team)), host=host)

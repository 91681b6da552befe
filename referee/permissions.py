"""Who may use the referee console, one access helper per resource.

"Not yours" answers like "not there": every helper raises :class:`django.http.Http404` both when the object
does not exist and when the user may not reach it, so a page never confirms that another match exists.

* Recording (the clock, straf claims, disputed hands, rulings, queries) is for the match's **referee**, or
  its **marker**, who takes the referee's place at a final (SAKBOC 1.11).
* Reading a match's rulings and its match report is also open to the two teams' **captains** and the
  **union officials** of the match's union (and superusers).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.http import Http404

from matches.models import Match
from matches.night.clock import match_clock_catch_up
from referee.models import DisputedHand, StrafClaim


def _officiating(user) -> Q:
    return Q(referee=user) | Q(marker=user)


def matches_for_referee(*, user) -> QuerySet[Match]:
    """The matches ``user`` referees or marks (SAKBOC 1.11), soonest first; none for anonymous users."""
    if not user.is_authenticated:
        return Match.objects.none()
    return Match.objects.filter(_officiating(user)).select_related("home", "away", "competition__union")


def match_for_referee(*, user, match_id: int) -> Match:
    """Return the match ``user`` may run and record on (its referee or marker), else raise Http404; its clock
    deadlines already passed acted on (:func:`matches.night.clock.match_clock_catch_up`: the interval, the grace and
    time, SAKBOC 1.2, 12.3, even with no worker; no query when none is due)."""
    match = matches_for_referee(user=user).filter(pk=match_id).first()
    if match is None:
        raise Http404("No such match.")
    return match_clock_catch_up(match=match)


def claim_for_referee(*, user, claim_id: int) -> StrafClaim:
    """Return the straf claim of a match ``user`` referees or marks, else raise Http404."""
    if not user.is_authenticated:
        raise Http404("No such claim.")
    claim = (
        StrafClaim.objects.select_related("match__home", "match__away", "table")
        .filter(Q(match__referee=user) | Q(match__marker=user), pk=claim_id)
        .first()
    )
    if claim is None:
        raise Http404("No such claim.")
    return claim


def disputed_hand_for_referee(*, user, claim_id: int) -> DisputedHand:
    """Return the disputed hand of a claim ``user`` may record on, else raise Http404."""
    claim = claim_for_referee(user=user, claim_id=claim_id)
    try:
        return claim.disputed_hand
    except DisputedHand.DoesNotExist:
        raise Http404("No disputed hand for this claim.") from None


def match_rulings_readable(*, user, match_id: int) -> Match:
    """Return the match whose rulings ``user`` may read: its referee or marker, either team's captain, an
    official of its union, or a superuser; else raise Http404."""
    if not user.is_authenticated:
        raise Http404("No such match.")
    matches = Match.objects.select_related("home", "away", "competition__union", "referee", "marker")
    if not user.is_superuser:
        matches = matches.filter(
            _officiating(user)
            | Q(home__captain__user=user)
            | Q(away__captain__user=user)
            | Q(competition__union__officials=user)
        ).distinct()
    match = matches.filter(pk=match_id).first()
    if match is None:
        raise Http404("No such match.")
    return match


def may_record(*, user, match: Match) -> bool:
    """True if ``user`` is the match's referee or marker (the one who records, SAKBOC 1.10, 1.11)."""
    return user.is_authenticated and user.pk in (match.referee_id, match.marker_id)

"""What names the state of a competition's public pages, for their caches and ETags (issue 23).

``plumbing.page_cache`` keeps whole pages under version tokens; this module says which tokens the
competition pages and the match report are kept under, and renews them:

* :func:`competition_pages_token`: the fixtures and results pages and the match report show the matches of a
  competition (teams, times, venues, phases, scores, result states), its teams' names and the competition's
  own name and kind. It is renewed after every commit that saves or deletes a match, a team or the
  competition (:func:`pages_renew_on_save`, connected to ``post_save``/``post_delete`` in
  ``MatchesConfig.ready``), whichever service or admin page saved it.
* The standings page and the standings API stay under the standings token
  (:func:`matches.results.standings.standings_page_token`), renewed by the standings themselves; a team's or the
  competition's own save renews it too, as those pages show their names. A match's save does not: the
  standings change only when a recompute stores them.
* :func:`national_pages_token`: the national and union pages (the home's Board part, ``/unions/<short>/``, its
  competitions and seasons lists, ``/board/``, ``/competitions/``, ``/seasons/``) show the unions, their clubs,
  competitions (names, kinds, seasons) and closed seasons with their honours. It is renewed after every commit
  that saves or deletes one of those (:func:`national_renew_on_save`, connected in ``MatchesConfig.ready``). A
  Board championship's champion also depends on its matches and standings: those pages add the championship's
  own tokens.
* :func:`match_page_version`: the match report adds the match's ``live_version``, bumped in the transaction of
  every match-night write (``matches.writes.match_lock``), read in one query with the competition's id.
"""

from __future__ import annotations

from typing import Any

from matches.models import Competition, Match
from matches.night.clock import match_version_caught_up
from matches.results.standings import standings_page_token_renew
from plumbing.page_cache import page_token, page_token_renew


def _pages_token_key(competition_id: int) -> str:
    return f"competition:pages-token:{competition_id}"


def competition_pages_token(*, competition_id: int) -> str:
    """The token of the competition's fixtures, results and match pages (see the module). 0 queries."""
    return page_token(_pages_token_key(competition_id))


def competition_pages_token_renew(*, competition_id: int) -> None:
    """Renew :func:`competition_pages_token` once the current transaction commits (at once outside one)."""
    page_token_renew(_pages_token_key(competition_id))


NATIONAL_PAGES_TOKEN = "national:pages-token"


def national_pages_token() -> str:
    """The token of the national and union pages (see the module). 0 queries."""
    return page_token(NATIONAL_PAGES_TOKEN)


def national_renew_on_save(sender: type, instance: Any, **kwargs: Any) -> None:
    """``post_save``/``post_delete`` receiver for ``clubs.Board``, ``clubs.Union``, ``clubs.Club``,
    ``Competition``, ``Season`` and ``SeasonHonour``: renew :func:`national_pages_token` after commit."""
    page_token_renew(NATIONAL_PAGES_TOKEN)


def pages_renew_on_save(sender: type, instance: Any, **kwargs: Any) -> None:
    """``post_save``/``post_delete`` receiver for ``Match``, ``clubs.Team`` and ``Competition``: renew the
    competition's pages token (and, for a team or the competition, its standings token) after commit. A team
    not (yet) entered in a competition renews nothing."""
    competition_id = instance.pk if sender is Competition else instance.competition_id
    if competition_id is None:
        return
    competition_pages_token_renew(competition_id=competition_id)
    if sender is not Match:
        standings_page_token_renew(competition_id=competition_id)


def match_page_version(match_id: int) -> tuple[int, int] | None:
    """``(live_version, competition_id)`` of match ``match_id``, or ``None`` when there is no such match: one
    indexed query, written out as :func:`matches.night.live.live_version` is (every visitor of a match makes it); clock
    deadlines already passed are acted on first, as there (:func:`matches.night.clock.match_version_caught_up`)."""
    return match_version_caught_up(match_id=match_id)

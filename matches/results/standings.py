"""League standings: a pure computation, and the manager that loads, computes, saves and caches.

Order (DOMAIN.md "A match night"): league points (union setting, default win 2 / draw 1 / loss 0), then the
union's ``tiebreak_order`` (default aggregate match-score difference, aggregate for, head-to-head). Each
row says why it stands above the next team when both are level on league points. Teams level on
everything share a position and are listed by name.

``compute_standings`` knows nothing of the ORM (Tabbycat's habit: algorithms apart from the database);
``standings_recompute`` is idempotent (same approved results → same rows), so a task delivered twice is
harmless.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from plumbing.page_cache import page_token, page_token_renew

CACHE_TIMEOUT = 24 * 3600
STANDINGS_RECOMPUTE_TASK = "matches.standings_recompute"
TIEBREAK_WORDS = {"difference": gettext_noop("difference"), "for": gettext_noop("points for"),
                  "head_to_head": gettext_noop("head-to-head")}
_LEVEL_EVERYWHERE = re.compile(r"^Level with (?P<team>.+) on (?P<points>-?\d+) league points and every tiebreak; "
                               r"listed by name\.$")
_AHEAD = re.compile(r"^Level with (?P<team>.+) on (?P<points>-?\d+) league points; ahead on "
                    r"(?P<word>difference|points for|head-to-head) \((?P<detail>.*)\)\.$")
_H2H_DETAIL = re.compile(r"^(?P<mine>-?\d+) v (?P<theirs>-?\d+) league points, difference (?P<md>[+-]\d+) v "
                         r"(?P<td>[+-]\d+)$")

standings_recomputed = Signal()
"""Sent by :func:`standings_recompute` (keyword ``competition_id``) inside its transaction, after the rows are
written: apps above this one (records/) refresh what they derive from the same approved results in the same
durable task, without this module importing them."""


@dataclass(frozen=True)
class TeamRef:
    id: int
    name: str
    club_name: str = ""


@dataclass(frozen=True)
class Result:
    """An approved match result (match scores, not league points)."""

    home_id: int
    away_id: int
    home_score: int
    away_score: int


@dataclass
class StandingsLine:
    team_id: int
    team_name: str
    club_name: str
    position: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    difference: int = 0
    league_points: int = 0
    tiebreak_reason: str = ""
    #: When the stored rows were computed (one time for the whole table); not part of a line's value.
    computed_at: datetime | None = field(default=None, compare=False)

    def row(self) -> dict[str, Any]:
        """The line as a published snapshot's row (``StandingsSnapshot.rows``), which the pages, the CSV and
        the PDF show alike: every field but ``computed_at``."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "computed_at"}


def standings_cache_key(competition_id: int) -> str:
    return f"standings:v2:{competition_id}"


def compute_standings(
    *, teams: Iterable[TeamRef], results: Iterable[Result], points_win: int = 2, points_draw: int = 1,
    points_loss: int = 0, tiebreak_order: Sequence[str] = ("difference", "for", "head_to_head"),
) -> list[StandingsLine]:
    """Standings for ``teams`` from ``results``: a list of lines, best first, positions filled in.

    :raises ValueError: an unknown tiebreak name.
    """
    for key in tiebreak_order:
        if key not in TIEBREAK_WORDS:
            raise ValueError(f"unknown tiebreak {key!r}")
    lines = {t.id: StandingsLine(team_id=t.id, team_name=t.name, club_name=t.club_name) for t in teams}
    results = list(results)
    by_team: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        home, away = lines.get(r.home_id), lines.get(r.away_id)
        if home is None or away is None:
            continue
        by_team[r.home_id].append(r)
        by_team[r.away_id].append(r)
        home.played += 1
        away.played += 1
        home.points_for += r.home_score
        home.points_against += r.away_score
        away.points_for += r.away_score
        away.points_against += r.home_score
        if r.home_score > r.away_score:
            home.won += 1
            away.lost += 1
        elif r.home_score < r.away_score:
            away.won += 1
            home.lost += 1
        else:
            home.drawn += 1
            away.drawn += 1
    for line in lines.values():
        line.difference = line.points_for - line.points_against
        line.league_points = line.won * points_win + line.drawn * points_draw + line.lost * points_loss

    def head_to_head(group: list[StandingsLine]) -> dict[int, tuple[int, int]]:
        """(league points, difference) of each team in matches among ``group`` only."""
        ids = {line.team_id for line in group}
        mini = {i: [0, 0] for i in ids}
        seen: set[int] = set()
        for team_id in ids:
            for r in by_team[team_id]:
                if id(r) in seen or r.home_id not in ids or r.away_id not in ids:
                    continue
                seen.add(id(r))
                diff = r.home_score - r.away_score
                mini[r.home_id][1] += diff
                mini[r.away_id][1] -= diff
                if diff > 0:
                    mini[r.home_id][0] += points_win
                    mini[r.away_id][0] += points_loss
                elif diff < 0:
                    mini[r.away_id][0] += points_win
                    mini[r.home_id][0] += points_loss
                else:
                    mini[r.home_id][0] += points_draw
                    mini[r.away_id][0] += points_draw
        return {i: (v[0], v[1]) for i, v in mini.items()}

    def value_for(key: str, group: list[StandingsLine]) -> dict[int, tuple[int, ...]]:
        if key == "difference":
            return {line.team_id: (line.difference,) for line in group}
        if key == "for":
            return {line.team_id: (line.points_for,) for line in group}
        return {k: v for k, v in head_to_head(group).items()}

    # reason_key[(a, b)]: the tiebreak that put a above b, with both values.
    decided: dict[tuple[int, int], tuple[str, tuple[int, ...], tuple[int, ...]]] = {}

    def order(group: list[StandingsLine], keys: Sequence[str]) -> list[list[StandingsLine]]:
        """Split a level group into ranked sub-groups using ``keys`` in turn (each sub-group still level)."""
        if len(group) == 1 or not keys:
            return [sorted(group, key=lambda line: line.team_name)]
        key, rest = keys[0], keys[1:]
        values = value_for(key, group)
        buckets: dict[tuple[int, ...], list[StandingsLine]] = defaultdict(list)
        for line in group:
            buckets[values[line.team_id]].append(line)
        ranked = sorted(buckets.items(), key=lambda kv: kv[0], reverse=True)
        out: list[list[StandingsLine]] = []
        for index, (value, bucket) in enumerate(ranked):
            if index + 1 < len(ranked):
                below_value, below = ranked[index + 1]
                for upper in bucket:
                    for lower in below:
                        decided[(upper.team_id, lower.team_id)] = (key, value, below_value)
            out.extend(order(bucket, rest))
        return out

    by_points: dict[int, list[StandingsLine]] = defaultdict(list)
    for line in lines.values():
        by_points[line.league_points].append(line)
    ranked_groups: list[list[StandingsLine]] = []
    for points in sorted(by_points, reverse=True):
        ranked_groups.extend(order(by_points[points], list(tiebreak_order)))

    ordered: list[StandingsLine] = []
    position = 0
    for group in ranked_groups:
        position = len(ordered) + 1
        for line in group:
            line.position = position
            ordered.append(line)
    for upper, lower in zip(ordered, ordered[1:], strict=False):
        if upper.league_points != lower.league_points:
            continue
        found = decided.get((upper.team_id, lower.team_id))
        if found is None:
            upper.tiebreak_reason = (
                f"Level with {lower.team_name} on {upper.league_points} league points and every tiebreak; "
                "listed by name."
            )
            continue
        key, mine, theirs = found
        if key == "head_to_head":
            detail = f"{mine[0]} v {theirs[0]} league points, difference {mine[1]:+d} v {theirs[1]:+d}"
        else:
            detail = f"{mine[0]:+d} v {theirs[0]:+d}" if key == "difference" else f"{mine[0]} v {theirs[0]}"
        upper.tiebreak_reason = (
            f"Level with {lower.team_name} on {upper.league_points} league points; "
            f"ahead on {TIEBREAK_WORDS[key]} ({detail})."
        )
    return ordered


@transaction.atomic
def standings_recompute(*, competition_id: int) -> list[StandingsLine]:
    """Load the competition's approved results, compute, replace its :class:`StandingsRow` rows, refresh the
    cache. Idempotent. Queries: lock + 3 reads + delete + bulk insert, whatever the number of teams.

    The competition's row is locked first and the results are read after the lock, so two recomputes at once
    (two approvals, or a task delivered twice) run one after the other, the second from the first's rows'
    state: never a unique-constraint clash, never stale rows left by the earlier of the two; a worker killed
    half-way leaves the previous rows (its transaction rolls back)."""
    from clubs.models import Team
    from matches.models import Competition, Match, StandingsRow

    Competition.objects.select_for_update().filter(pk=competition_id).values_list("pk", flat=True).first()
    competition = Competition.objects.select_related("union").get(pk=competition_id)
    union = competition.union
    teams = [
        TeamRef(id=i, name=n, club_name=c)
        for i, n, c in Team.objects.filter(competition_id=competition_id).values_list("id", "name", "club__name")
    ]
    results = [
        Result(*row)
        for row in Match.objects.filter(
            competition_id=competition_id, result_status=Match.ResultStatus.APPROVED
        ).values_list("home_id", "away_id", "home_score", "away_score").iterator(chunk_size=5000)
    ]
    lines = compute_standings(
        teams=teams, results=results, points_win=union.points_win, points_draw=union.points_draw,
        points_loss=union.points_loss, tiebreak_order=union.tiebreak_order,
    )
    now = timezone.now()
    for line in lines:
        line.computed_at = now
    StandingsRow.objects.filter(competition_id=competition_id).delete()
    StandingsRow.objects.bulk_create(
        [
            StandingsRow(
                competition_id=competition_id, team_id=line.team_id, position=line.position,
                played=line.played, won=line.won, drawn=line.drawn, lost=line.lost,
                points_for=line.points_for, points_against=line.points_against, difference=line.difference,
                league_points=line.league_points, tiebreak_reason=line.tiebreak_reason, computed_at=now,
            )
            for line in lines
        ],
        batch_size=1000,
    )
    cache.set(standings_cache_key(competition_id), [asdict(line) for line in lines], CACHE_TIMEOUT)
    standings_page_token_renew(competition_id=competition_id)
    standings_recomputed.send(sender=standings_recompute, competition_id=competition_id)
    return lines


def standings_outbox_key(*, competition_id: int) -> str:
    """The outbox key of the competition's pending standings recomputes (``plumbing.outbox``)."""
    return f"standings:{competition_id}"


def standings_catch_up(*, competition_id: int) -> int:
    """Run any standings recompute of the competition still waiting in the outbox (approved while the broker or
    the worker was down), so a reader never shows a table that misses an approved result. 1 query when none
    waits. :returns: how many ran."""
    from plumbing.outbox import outbox_run_pending

    return outbox_run_pending(key=standings_outbox_key(competition_id=competition_id))


def standings_read(*, competition_id: int) -> list[StandingsLine]:
    """The competition's live (provisional) standings, best first; empty before any result is approved.

    The one read of the live table, behind :func:`matches.results.selectors.standings_for_competition` (the page, the
    home page, the API, the CSV and the PDF). Cached: 0 queries on a hit; on a miss, any recompute still
    waiting in the outbox is run first (:func:`standings_catch_up`, 1 query when none), then 1 query for the
    stored rows, which are cached."""
    from matches.models import StandingsRow

    cached = cache.get(standings_cache_key(competition_id))
    if cached is not None:
        return [StandingsLine(**line) for line in cached]
    if standings_catch_up(competition_id=competition_id):
        cached = cache.get(standings_cache_key(competition_id))
        if cached is not None:
            return [StandingsLine(**line) for line in cached]
    rows = (
        StandingsRow.objects.filter(competition_id=competition_id)
        .order_by("position", "team__name")
        .values_list(
            "team_id", "team__name", "team__club__name", "position", "played", "won", "drawn", "lost",
            "points_for", "points_against", "difference", "league_points", "tiebreak_reason", "computed_at",
        )
    )
    lines = [StandingsLine(*row) for row in rows]
    if lines:
        cache.set(standings_cache_key(competition_id), [asdict(line) for line in lines], CACHE_TIMEOUT)
    return lines


def standings_cache_clear(*, competition_id: int) -> None:
    cache.delete(standings_cache_key(competition_id))
    standings_page_token_renew(competition_id=competition_id)


def _page_token_key(competition_id: int) -> str:
    return f"standings:page-token:{competition_id}"


def standings_page_token(*, competition_id: int) -> str:
    """A token that changes whenever the competition's standings, published snapshots, union settings or its
    teams' names change (renewed after the change commits; ``plumbing.page_cache.page_token``). Pages
    that show standings cache their rendering under it, so a cached page is never stale: a change gives a new
    token and so a fresh rendering. 0 queries."""
    return page_token(_page_token_key(competition_id))


def standings_page_token_renew(*, competition_id: int) -> None:
    """Renew :func:`standings_page_token` once the current transaction commits (at once outside one)."""
    page_token_renew(_page_token_key(competition_id))


@dataclass(frozen=True)
class PositionsByRound:
    """Each team's position after each round of approved results (the standings page's line chart).

    ``rounds``: the round numbers, in order; ``teams``: ``(team_id, team_name, positions)`` in today's order,
    ``positions[i]`` the team's position after ``rounds[i]`` (1 = top)."""

    rounds: list[int]
    teams: list[tuple[int, str, list[int]]]


def standings_positions_by_round(*, competition: Any) -> PositionsByRound:
    """The table after each round with an approved result, by :func:`compute_standings` on the results of that
    round and the rounds before, under the union's points and tiebreaks (DOMAIN.md "A match night").

    :param competition: a :class:`~matches.models.Competition` with its ``union`` loaded. 2 queries.
    """
    from clubs.models import Team
    from matches.models import Match

    competition_id = competition.pk
    union = competition.union
    teams = [TeamRef(id=i, name=n) for i, n in Team.objects.filter(competition_id=competition_id)
             .values_list("id", "name")]
    by_round: dict[int, list[Result]] = defaultdict(list)
    for round_number, *scores in Match.objects.filter(
        competition_id=competition_id, result_status=Match.ResultStatus.APPROVED
    ).values_list("round_number", "home_id", "away_id", "home_score", "away_score"):
        by_round[round_number].append(Result(*scores))
    rounds = sorted(by_round)
    results: list[Result] = []
    positions: dict[int, list[int]] = {t.id: [] for t in teams}
    last: list[StandingsLine] = []
    for round_number in rounds:
        results.extend(by_round[round_number])
        last = compute_standings(
            teams=teams, results=results, points_win=union.points_win, points_draw=union.points_draw,
            points_loss=union.points_loss, tiebreak_order=union.tiebreak_order,
        )
        for line in last:
            positions[line.team_id].append(line.position)
    return PositionsByRound(rounds=rounds, teams=[(line.team_id, line.team_name, positions[line.team_id])
                                                 for line in last])
def union_standings_pages_renew(sender: object = None, *, union: Any, **kwargs: Any) -> None:
    """Renew the standings page token of every competition of ``union`` (after commit): the pages show the
    union's league points and tiebreaks. Receives ``clubs.signals.union_settings_changed`` (connected in
    ``MatchesConfig.ready``)."""
    from matches.models import Competition

    for competition_id in Competition.objects.filter(union=union).values_list("pk", flat=True):
        standings_page_token_renew(competition_id=competition_id)


def tiebreak_reason_display(reason: str) -> str:
    """A standings row's ``tiebreak_reason`` in the active language.

    The reason is stored (and served by the API and the downloads) in English, as :func:`compute_standings`
    writes it from the tiebreak's key and figures; this reads those figures back and says them in the reader's
    language. A reason in any other form is returned as it is.

    :param reason: e.g. ``"Level with Bonteheuwel Boere on 6 league points; ahead on difference (+4 v +2)."``.
    :returns: e.g. ``"Gelyk met Bonteheuwel Boere op 6 ligapunte; voor op verskil (+4 teen +2)."`` in Afrikaans.
    """
    found = _LEVEL_EVERYWHERE.match(reason)
    if found:
        return gettext("Level with %(team)s on %(points)s league points and every tiebreak; listed by name.") % {
            "team": found["team"], "points": found["points"]}
    found = _AHEAD.match(reason)
    if not found:
        return reason
    detail = found["detail"]
    h2h = _H2H_DETAIL.match(detail)
    if h2h:
        detail = gettext("%(mine)s v %(theirs)s league points, difference %(my_difference)s v "
                         "%(their_difference)s") % {"mine": h2h["mine"], "theirs": h2h["theirs"],
                                                    "my_difference": h2h["md"], "their_difference": h2h["td"]}
    else:
        detail = detail.replace(" v ", f" {gettext('v')} ")
    return gettext("Level with %(team)s on %(points)s league points; ahead on %(tiebreak)s (%(detail)s).") % {
        "team": found["team"], "points": found["points"], "tiebreak": gettext(found["word"]), "detail": detail}

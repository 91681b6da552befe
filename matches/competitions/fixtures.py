"""Fixture generation for competitions, kept apart from the ORM (Tabbycat's ``draw/generator`` habit).

Two pure generators work on any hashable entrants (team ids in production, strings in tests):

* :func:`league_round_robin` — a home-and-away double round robin by the circle (Berger) method, with a
  match date for every round. An odd number of teams gives each team one *bye* per half.
* :func:`knockout_bracket` — a single-elimination cup bracket: the field is padded to the next power of
  two with byes, which go to the top seeds, and later rounds name their ties by the ties that feed them.

**Blackout dates** (public holidays, a hall booked for something else): no round is played on one. A round
that would fall on a blackout date moves to the next free *match night*, ``days_between_rounds`` later (a
weekly league keeps its weekday, so the clubs' halls stay booked on their night), again until it is clear;
every later round keeps its spacing from the moved round (:func:`round_date_next`). :func:`blackout_dates_parse`
reads them as typed by an official, :func:`blackout_dates_hit` says which ones a schedule stepped over, and
:func:`south_african_public_holidays` offers the coming year's public holidays as a start.

Neither touches the database. The services that do are :mod:`matches.competitions.services`':
:func:`~matches.competitions.services.competition_fixtures_create` loads a competition's entered teams, runs a
generator and
schedules each match; :func:`~matches.competitions.services.knockout_advance` puts a cup's approved winners into their
next-round ties.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass


class FixtureError(ValueError):
    """The entrants or dates cannot make a fixture list (too few teams, a team twice, a bad interval)."""


class BlackoutDateError(FixtureError):
    """An entry of a list of blackout dates is not an ISO date (``YYYY-MM-DD``); ``entry`` is the entry as typed."""

    def __init__(self, entry: str) -> None:
        super().__init__(f"{entry!r} is not a date written YYYY-MM-DD.")
        self.entry = entry


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def blackout_dates_parse(text: str) -> list[dt.date]:
    """The dates of ``text``: one per line or comma-separated (semicolons too), each ``YYYY-MM-DD``; blank
    entries are ignored. Sorted, without repeats.

    >>> blackout_dates_parse("2026-12-25, 2027-01-01\\n2026-12-25")
    [datetime.date(2026, 12, 25), datetime.date(2027, 1, 1)]

    :raises BlackoutDateError: the first entry that is not a real ISO date (``2026-02-30``, ``25/12/2026``).
    """
    dates: set[dt.date] = set()
    for raw in re.split(r"[,;\n]", text or ""):
        entry = raw.strip()
        if not entry:
            continue
        if not _ISO_DATE.fullmatch(entry):
            raise BlackoutDateError(entry)
        try:
            dates.add(dt.date.fromisoformat(entry))
        except ValueError:
            raise BlackoutDateError(entry) from None
    return sorted(dates)


def round_date_next(day: dt.date, *, days_between_rounds: int, skip_dates: Collection[dt.date]) -> dt.date:
    """``day``, or when it is a blackout date the first match night after it (``days_between_rounds`` on, and on
    again) that is not one.

    >>> round_date_next(dt.date(2026, 12, 25), days_between_rounds=7,
    ...                 skip_dates={dt.date(2026, 12, 25), dt.date(2027, 1, 1)})
    datetime.date(2027, 1, 8)
    """
    step = dt.timedelta(days=days_between_rounds)
    while day in skip_dates:
        day += step
    return day


def blackout_dates_hit(
    *, start: dt.date, end: dt.date, days_between_rounds: int, skip_dates: Collection[dt.date]
) -> list[dt.date]:
    """The blackout dates a schedule from ``start`` to ``end`` stepped over: those on its grid of match nights
    (``start`` + a multiple of ``days_between_rounds``) between the two. Rounds only ever fall on that grid
    (:func:`round_date_next`), so these are exactly the nights a round moved off.

    >>> blackout_dates_hit(start=dt.date(2026, 12, 18), end=dt.date(2027, 1, 15), days_between_rounds=7,
    ...                    skip_dates=[dt.date(2026, 12, 25), dt.date(2026, 12, 26), dt.date(2027, 1, 1)])
    [datetime.date(2026, 12, 25), datetime.date(2027, 1, 1)]
    """
    return sorted(d for d in set(skip_dates)
                  if start <= d <= end and (d - start).days % days_between_rounds == 0)


def south_african_public_holidays(*, start: dt.date, days: int = 365) -> list[dt.date]:
    """South Africa's public holidays (the maintained ``holidays`` package: Christmas, the Day of Goodwill, a
    Sunday holiday's Monday, election days…) from ``start`` for ``days`` days, in order: the blackout dates an
    official starts from."""
    import holidays

    end = start + dt.timedelta(days=days)
    found = holidays.country_holidays("ZA", years=range(start.year, end.year + 1))
    return sorted(d for d in found if start <= d < end)


@dataclass(frozen=True)
class Pairing[T: Hashable]:
    """One fixture: ``home`` hosts ``away`` (the home team's venue)."""

    home: T
    away: T


@dataclass(frozen=True)
class LeagueRound[T: Hashable]:
    """A round of a league: its 1-based ``number``, its match ``date``, the pairings and the team with a bye.

    ``bye`` is ``None`` when the number of teams is even.
    """

    number: int
    date: dt.date
    pairings: tuple[Pairing[T], ...]
    bye: T | None = None


def _check_entrants[T: Hashable](entrants: Sequence[T], minimum: int) -> list[T]:
    teams = list(entrants)
    if len(teams) < minimum:
        raise FixtureError(f"At least {minimum} teams are needed; got {len(teams)}.")
    if len(set(teams)) != len(teams):
        raise FixtureError("A team appears twice in the list of entrants.")
    return teams


def league_round_robin[T: Hashable](
    teams: Sequence[T],
    *,
    start: dt.date,
    days_between_rounds: int = 7,
    home_and_away: bool = True,
    skip_dates: Collection[dt.date] = (),
) -> list[LeagueRound[T]]:
    """Return the rounds of a league in which every team meets every other team at home and away.

    The circle method fixes the first team and rotates the others, which gives ``n - 1`` rounds for ``n``
    teams (``n`` rounds when ``n`` is odd, one team sitting out each round). Home and away alternate: within
    each half no team is at home (or away) more than twice running, and each team is at home
    ``floor((n-1)/2)`` or ``ceil((n-1)/2)`` times. The second half repeats the first with home and away
    swapped, so each pair meets once at each venue (at most three home nights running across the turn).

    :param teams: at least 2 distinct entrants, in seeding order.
    :param start: the date of round 1; later rounds follow every ``days_between_rounds`` days.
    :param days_between_rounds: gap between consecutive rounds in days (>= 1; 7 = weekly match nights).
    :param home_and_away: False for a single round robin (each pair meets once).
    :param skip_dates: blackout dates, with no league night (e.g. public holidays): a round falling on one
        moves on by ``days_between_rounds`` until it is clear, and later rounds keep their spacing from it
        (:func:`round_date_next`).
    :returns: rounds in order: ``2 * (n - 1)`` rounds for even ``n`` home-and-away, ``2 * n`` for odd ``n``.
    :raises FixtureError: fewer than 2 teams, a team listed twice, or ``days_between_rounds < 1``.
    """
    entrants = _check_entrants(teams, 2)
    if days_between_rounds < 1:
        raise FixtureError("Rounds must be at least one day apart.")
    slots: list[T | None] = list(entrants)
    if len(slots) % 2:
        slots.append(None)  # the "bye" slot: whoever meets it sits the round out
    n = len(slots)
    m = n - 1  # slot m is fixed; slots 0..m-1 turn around it
    half: list[tuple[tuple[Pairing[T], ...], T | None]] = []
    for i in range(m):
        # Taking the circle's rounds n/2 apart keeps every team's venues alternating with single breaks.
        r = (i * (n // 2)) % m
        slot_pairs = [(r, m) if r % 2 == 0 else (m, r)]
        slot_pairs += [((r + k) % m, (r - k) % m) for k in range(1, n // 2)]
        pairings: list[Pairing[T]] = []
        bye: T | None = None
        for home_slot, away_slot in slot_pairs:
            home, away = slots[home_slot], slots[away_slot]
            if home is None or away is None:
                bye = away if home is None else home
                continue
            pairings.append(Pairing(home=home, away=away))
        half.append((tuple(pairings), bye))
    schedule = list(half)
    if home_and_away:
        schedule += [(tuple(Pairing(home=p.away, away=p.home) for p in pairings), bye) for pairings, bye in half]
    skipped = set(skip_dates)
    rounds: list[LeagueRound[T]] = []
    date = start
    step = dt.timedelta(days=days_between_rounds)
    for number, (round_pairings, bye) in enumerate(schedule, start=1):
        date = round_date_next(date, days_between_rounds=days_between_rounds, skip_dates=skipped)
        rounds.append(LeagueRound(number=number, date=date, pairings=round_pairings, bye=bye))
        date += step
    return rounds


@dataclass(frozen=True)
class TieWinner:
    """A placeholder entrant: the winner of tie ``tie_number`` in an earlier round."""

    tie_number: int

    def __str__(self) -> str:
        return f"Winner of tie {self.tie_number}"


@dataclass(frozen=True)
class Tie[T: Hashable]:
    """One knock-out tie, numbered across the whole bracket (1 is the first tie of round 1).

    ``away`` is ``None`` for a bye: ``home`` goes through without playing. Either side may be a
    :class:`TieWinner` in rounds after the first.
    """

    number: int
    round_number: int
    home: T | TieWinner
    away: T | TieWinner | None

    @property
    def is_bye(self) -> bool:
        """True when one side has no opponent and goes straight through."""
        return self.away is None


@dataclass(frozen=True)
class KnockoutRound[T: Hashable]:
    """A round of a cup: its number, name ("Final", "Semi-finals", ...), date and ties."""

    number: int
    name: str
    date: dt.date | None
    ties: tuple[Tie[T], ...]


def _seed_positions(size: int) -> list[int]:
    """Return seeds 1..size in bracket order so that seeds 1 and 2 can only meet in the final.

    >>> _seed_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def round_name(teams_left: int) -> str:
    """Name a round by the number of teams still in it: 2 → "Final", 4 → "Semi-finals", 8 → "Quarter-finals"."""
    return {2: "Final", 4: "Semi-finals", 8: "Quarter-finals"}.get(teams_left, f"Round of {teams_left}")


def knockout_bracket[T: Hashable](
    entrants: Sequence[T],
    *,
    start: dt.date | None = None,
    days_between_rounds: int = 7,
) -> list[KnockoutRound[T]]:
    """Return a single-elimination bracket for ``entrants`` in seeding order (best first).

    The draw size is the next power of two; the missing places are byes given to the top seeds, so that
    at most one bye meets each real team and no two byes meet. Seeds are placed so that 1 and 2 can meet
    only in the final, 1–4 only in the semi-finals, and so on. Ties are numbered 1, 2, … through the whole
    bracket; a tie in round ``r > 1`` is played between the winners of two ties of round ``r - 1``.

    A draw in a knock-out tie is settled by a toss and extra time (SAKBOC 1.12), which the match services
    handle; the bracket only says who meets whom.

    :param entrants: at least 2 distinct entrants, best seed first.
    :param start: the date of round 1 (``None`` leaves every round undated).
    :param days_between_rounds: gap between rounds in days (>= 1).
    :returns: rounds from the first to the final; round 1 may contain byes (``Tie.away is None``).
    :raises FixtureError: fewer than 2 entrants, an entrant listed twice, or ``days_between_rounds < 1``.
    """
    teams = _check_entrants(entrants, 2)
    if days_between_rounds < 1:
        raise FixtureError("Rounds must be at least one day apart.")
    size = 1
    while size < len(teams):
        size *= 2
    positions = _seed_positions(size)
    rounds: list[KnockoutRound[T]] = []
    number = 0
    first: list[Tie[T]] = []
    for i in range(0, size, 2):
        seed_a, seed_b = positions[i], positions[i + 1]
        a = teams[seed_a - 1] if seed_a <= len(teams) else None
        b = teams[seed_b - 1] if seed_b <= len(teams) else None
        number += 1
        if a is None:  # the better seed always holds a real team, but keep the bye on the away side
            a, b = b, a
        assert a is not None
        first.append(Tie(number=number, round_number=1, home=a, away=b))
    step = dt.timedelta(days=days_between_rounds)
    rounds.append(KnockoutRound(number=1, name=round_name(size), date=start, ties=tuple(first)))
    previous = first
    round_number = 1
    while len(previous) > 1:
        round_number += 1
        ties: list[Tie[T]] = []
        for i in range(0, len(previous), 2):
            number += 1
            ties.append(
                Tie(number=number, round_number=round_number,
                    home=TieWinner(previous[i].number), away=TieWinner(previous[i + 1].number))
            )
        date = start + step * (round_number - 1) if start is not None else None
        rounds.append(KnockoutRound(number=round_number, name=round_name(2 * len(ties)), date=date, ties=tuple(ties)))
        previous = ties
    return rounds

"""A match night as it stands, for every live page and the API: the clock, the score, each table's partnerships,
boem trees and boem-sheet lines (reads only).

:func:`match_live` loads it in a fixed number of queries (tests pin them); :func:`live_version` is the one cheap
read a polling phone makes: ``Match.live_version``, bumped in the same transaction as every change a live page
shows (``matches.writes.match_lock``), is the pages' and the API's ETag, so a phone that polls every few
seconds gets ``304 Not Modified`` until something changes, and a changed night is rendered once per version
(:func:`live_fragment_cached`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Prefetch
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from clubs.selectors import PUBLIC_NAMES_TOKEN, initials_and_surname, player_public_name, public_names_token
from matches.models import SHEET_ORDER, Award, Boem, BoemEntry, DealLine, Match, MatchTable, Seat
from matches.night import boem_svg
from matches.night.boem_svg import BoemDrawing
from matches.night.clock import match_clock_catch_up, match_version_caught_up, next_deadline_key
from matches.rules import plays_deals
from matches.selectors import ClockReading, match_clock
from matches.writes import LIVE_VERSIONS_POLLED

LIVE_PHASES = (Match.Phase.FIRST_HALF, Match.Phase.INTERVAL, Match.Phase.SECOND_HALF,
               Match.Phase.AWAITING_EXTRA_TIME, Match.Phase.EXTRA_TIME)
"""Phases in which the live pages poll (before play and once it is over, nothing changes on its own)."""


@dataclass(frozen=True)
class Partnership:
    """One side's partnership at a table, as names: the telman (the counter) and the byspeler (the partner)."""

    side: str
    team_name: str
    telman: str
    byspeler: str
    telman_player_id: int | None = None
    byspeler_player_id: int | None = None


#: A line's state as the table and match pages say it.
ENTRY_STATE_LABELS = {
    "provisional": gettext_lazy("provisional"), "confirmed": gettext_lazy("confirmed"),
    "disputed": gettext_lazy("disputed"), "struck": gettext_lazy("struck"),
}


@dataclass(frozen=True)
class LiveEntry:
    """A boem-sheet line for people: who, what, and its state (``provisional``, ``confirmed``, ``disputed``,
    ``struck``), with the names of who entered, confirmed or disputed it."""

    entry: BoemEntry
    side: str | None
    team_name: str
    label: str
    state: str
    confirmed_by: str
    disputed_by: str

    @property
    def id(self) -> int:
        return int(self.entry.pk)

    @property
    def state_label(self) -> str:
        """``state`` for people, in the active language."""
        return str(ENTRY_STATE_LABELS.get(self.state, self.state))


@dataclass(frozen=True)
class LiveBoem:
    """A boem and its drawing (``matches.night.boem_svg``)."""

    boem: Boem
    drawing: BoemDrawing
    provisional: bool


@dataclass(frozen=True)
class LiveDeal:
    """A deal's line of a game scored deal by deal (``matches.night.deals``), for the score table: who played, what
    each side scored (the engine's score, in the game's unit) and the running totals after it."""

    line: DealLine
    makers_side: str
    makers_name: str
    notes: tuple[str, ...]
    home_running: int
    away_running: int

    @property
    def id(self) -> int:
        return int(self.line.pk)


@dataclass(frozen=True)
class LiveTable:
    """A table of the night: status, partnerships, boems (trees), lines, points and sheet version."""

    table: MatchTable | None
    number: int
    home: Partnership | None
    away: Partnership | None
    boems: tuple[LiveBoem, ...] = ()
    entries: tuple[LiveEntry, ...] = ()
    home_points: int = 0
    away_points: int = 0
    deals: tuple[LiveDeal, ...] = ()
    match_phase: str = ""
    """The match's phase: once it is over, a table still "playing" when time was called has played."""

    @property
    def status(self) -> str:
        return self.table.status if self.table else "not_started"

    @property
    def status_label(self) -> str:
        """The table's status for people: "Playing", "Stopped", ...; once time is called (SAKBOC 2.2) a table still
        "playing" is not: "Played" when the match is over, "Time" while a knock-out draw waits for extra time."""
        if self.table is None:
            return _("Not started")
        if self.table.status == MatchTable.Status.PLAYING:
            if self.match_phase == Match.Phase.FINISHED:
                return pgettext("table status", "Played")
            if self.match_phase == Match.Phase.AWAITING_EXTRA_TIME:
                return pgettext("table status", "Time")
        return str(self.table.get_status_display())

    @property
    def playing(self) -> bool:
        return self.table is not None and self.table.status == MatchTable.Status.PLAYING

    @property
    def sheet_version(self) -> int:
        return self.table.sheet_version if self.table else 0

    @property
    def current(self) -> LiveBoem | None:
        """The boem in progress, if any."""
        return next((b for b in self.boems if b.boem.status == Boem.Status.IN_PROGRESS), None)

    @property
    def open_strafs(self) -> int:
        return self.table.open_strafs if self.table else 0

    @property
    def pending(self) -> tuple[LiveEntry, ...]:
        """Lines waiting for the opposing telman (provisional) or for the referee (disputed)."""
        return tuple(e for e in self.entries if e.state in ("provisional", "disputed"))

    @property
    def waiting(self) -> tuple[LiveEntry, ...]:
        """Lines waiting for the opposing telman to confirm them (provisional; not the disputed ones)."""
        return tuple(e for e in self.entries if e.state == "provisional")

    @property
    def disputed(self) -> tuple[LiveEntry, ...]:
        """Lines the opposing telman disputed: waiting for the referee, not for a confirmation."""
        return tuple(e for e in self.entries if e.state == "disputed")


@dataclass(frozen=True)
class LiveState:
    """The night as it stands at ``version``."""

    match: Match
    version: int
    clock: ClockReading
    tables: tuple[LiveTable, ...]
    awards: tuple[Award, ...] = field(default=())
    plays_deals: bool = False
    """The competition is scored deal by deal (a makers game, issue 24): tables show deals, not boems."""

    @property
    def polling(self) -> bool:
        """True while the night runs (the pages poll for changes)."""
        return self.match.phase in LIVE_PHASES

    def table(self, number: int) -> LiveTable | None:
        return next((t for t in self.tables if t.number == number), None)


def _name(player: Any, public_names: str | None = None) -> str:
    """``player``'s name: as public pages name them when ``public_names`` (the union's ``Union.public_names``)
    is given (``clubs.selectors.player_public_name``, POPIA), else the full name; "" for no player."""
    if not player:
        return ""
    if public_names is not None:
        return player_public_name(player, public_names=public_names)
    return f"{player.first_name} {player.last_name}".strip()


def _user_name(user: Any, *, public: bool) -> str:
    """An account's name (one who confirmed a line without a seat): initials and surname on public pages."""
    if user is None:
        return ""
    if public:
        return initials_and_surname(user.first_name, user.last_name) or user.get_username()
    return user.get_full_name()


def boem_drawing(*, boem: Boem, match: Match, entries: list[BoemEntry] | None = None) -> BoemDrawing:
    """Plain data for one boem: home on the left (from the top rung), away on the right (Notes §V).

    Goings-on come from the boem sheet's ``stroke`` entries in order (``entries``, or the boem's prefetched
    ones); when a boem's counts were entered without lines (a paper result), its ``home_strokes``/
    ``away_strokes`` are drawn as single strokes. Goings-on not yet confirmed are flagged (drawn dashed).
    """
    home: list[int] = []
    away: list[int] = []
    home_pending: list[bool] = []
    away_pending: list[bool] = []
    straf_side = None
    for entry in (entries if entries is not None else boem.entries.all()):
        side = "left" if entry.team_id == match.home_id else "right"
        if entry.kind == BoemEntry.Kind.STROKE and entry.strokes in (1, 2) and not entry.struck:
            (home if side == "left" else away).append(entry.strokes)
            (home_pending if side == "left" else away_pending).append(entry.confirmed_at is None)
        elif entry.kind in (BoemEntry.Kind.STRAF, BoemEntry.Kind.STRAF_REVERSED):
            straf_side = side
    if sum(home) != boem.home_strokes or sum(away) != boem.away_strokes:
        home = [1] * min(boem.home_strokes, boem_svg.RUNGS)
        away = [1] * min(boem.away_strokes, boem_svg.RUNGS)
        home_pending, away_pending = [], []
    if boem.status == Boem.Status.STRAFFED:
        outcome = gettext("straf: %(points)s pts") % {"points": boem.points}
    elif boem.status == Boem.Status.UNFINISHED:
        outcome = gettext("unfinished at time")
    elif boem.status == Boem.Status.COMPLETED:
        outcome = gettext("%(home)s–%(away)s: %(points)s pts") % {
            "home": boem.home_strokes, "away": boem.away_strokes, "points": boem.points}
    else:
        outcome = gettext("%(home)s–%(away)s, in play") % {"home": boem.home_strokes, "away": boem.away_strokes}
    if boem.status != Boem.Status.STRAFFED:
        straf_side = None
    elif boem.winner_id is not None:
        straf_side = "left" if boem.winner_id == match.home_id else "right"
    return BoemDrawing(left_label=match.home.name, right_label=match.away.name, left=home, right=away,
                       outcome=outcome, straf_side=straf_side, left_pending=home_pending,
                       right_pending=away_pending)


def table_partnerships(*, match: Match, seats: list[Seat] | None = None,
                       public: bool = True) -> dict[int, dict[str, Partnership]]:
    """The partnerships at each table from both team sheets, after substitutions: ``{table: {"home": …,
    "away": …}}`` (a side with no sheet is missing). One query unless ``seats`` are given (and the match's
    competition and union loaded). ``public``: players named as public pages name them (the union's choice of
    full names or initials, POPIA); else by full name (the referee's own pages)."""
    public_names = match.competition.union.public_names if public else None
    if seats is None:
        seats = list(Seat.objects.filter(sheet__match=match).select_related("sheet__team", "player")
                     .order_by("table_number", "role"))
    found: dict[int, dict[str, dict[str, Any]]] = {}
    for seat in seats:
        side = "home" if seat.sheet.team_id == match.home_id else "away"
        slot = found.setdefault(seat.table_number, {}).setdefault(side, {"team": seat.sheet.team.name})
        slot[seat.role] = seat.player
    out: dict[int, dict[str, Partnership]] = {}
    for number, sides in found.items():
        for side, slot in sides.items():
            telman, byspeler = slot.get(Seat.Role.TELMAN), slot.get(Seat.Role.BYSPELER)
            out.setdefault(number, {})[side] = Partnership(
                side=side, team_name=slot["team"], telman=_name(telman, public_names) or "—",
                byspeler=_name(byspeler, public_names) or "—",
                telman_player_id=telman.pk if telman else None, byspeler_player_id=byspeler.pk if byspeler else None,
            )
    return out


def _entry_label(entry: BoemEntry, team_name: str) -> str:
    """The line as the sheet says it, in the active language (the live state is cached per language)."""
    if entry.kind == BoemEntry.Kind.STROKE:
        return _("%(team)s on %(strokes)s") % {"team": team_name, "strokes": entry.strokes}
    if entry.kind == BoemEntry.Kind.STRAF:
        return _("Straf (af) by %(team)s: %(points)s points") % {"team": team_name, "points": entry.points}
    if entry.kind == BoemEntry.Kind.STRAF_REVERSED:
        return _("Wrong straf: %(points)s points to %(team)s") % {"team": team_name, "points": entry.points}
    return _("Time: a boem in progress is unfinished")


def _deal_notes(line: DealLine, match: Match) -> tuple[str, ...]:
    names = {match.home_id: match.home.name, match.away_id: match.away.name}
    notes = [] if line.made else [_("nat")]
    if line.pit_id:
        notes.append(_("pit: %(team)s") % {"team": names.get(line.pit_id, "")})
    if line.multiplier == 2:
        notes.append(_("Contra"))
    elif line.multiplier == 4:
        notes.append(_("Re"))
    if line.march_id:
        notes.append(_("march: %(team)s") % {"team": names.get(line.march_id, "")})
    return tuple(notes)


def live_deals(lines: list[DealLine], match: Match) -> tuple[LiveDeal, ...]:
    """A table's deal lines with their running totals (the sums of the engine's scores, in the game's unit)."""
    home = away = 0
    out = []
    for line in lines:
        home += line.home_score
        away += line.away_score
        side = "home" if line.makers_id == match.home_id else "away"
        out.append(LiveDeal(line=line, makers_side=side, makers_name=match.home.name if side == "home"
                            else match.away.name, notes=_deal_notes(line, match), home_running=home,
                            away_running=away))
    return tuple(out)


def match_live(*, match_id: int, now: datetime | None = None, public: bool = True) -> LiveState | None:
    """The night of match ``match_id`` as it stands (``None``: no such match), in 6 queries: the match with its
    teams and union, the seats, the tables, their boems, the tables' lines (with their boem and the players named
    on them, grouped by boem here), the awards; a competition scored deal by deal reads its tables' deal lines in
    a 7th. ``public``: the players are named as the union's public pages name them (POPIA:
    ``clubs.selectors.player_public_name``); ``False`` for the referee's own pages (full names)."""
    match = (Match.objects.select_related("competition__union", "home__club", "away__club", "referee", "marker")
             .filter(pk=match_id).first())
    if match is None:
        return None
    match_clock_catch_up(match=match, now=now)  # deadlines already passed first (no query when none is due)
    seats = list(Seat.objects.filter(sheet__match=match).select_related("sheet__team", "player")
                 .order_by("table_number", "role"))
    partnerships = table_partnerships(match=match, seats=seats, public=public)
    public_names = match.competition.union.public_names if public else None
    deals_game = plays_deals(match.competition)
    prefetches = [
        Prefetch("boems", queryset=Boem.objects.order_by("number")),
        Prefetch("entries", queryset=BoemEntry.objects.order_by(*SHEET_ORDER).select_related(
            "boem", "confirmed_by_player", "disputed_by_player", "confirmed_by")),
    ]
    if deals_game:
        prefetches.append(Prefetch("deals", queryset=DealLine.objects.order_by("sequence")))
    tables = {t.number: t for t in MatchTable.objects.filter(match=match).prefetch_related(*prefetches)
              .order_by("number")}
    names = {match.home_id: match.home.name, match.away_id: match.away.name}
    live_tables = []
    for number in sorted(set(tables) | set(partnerships)):
        table = tables.get(number)
        sides = partnerships.get(number, {})
        if table is None:
            live_tables.append(LiveTable(table=None, number=number, home=sides.get("home"), away=sides.get("away"),
                                         match_phase=match.phase))
            continue
        live_entries = []
        by_boem: dict[int, list[BoemEntry]] = {}
        for entry in table.entries.all():
            if entry.boem_id is not None:
                by_boem.setdefault(entry.boem_id, []).append(entry)
            team_name = names.get(entry.team_id, "") if entry.team_id is not None else ""
            confirmed = ("the referee" if entry.confirmed_by_id and entry.confirmed_by_id in (
                match.referee_id, match.marker_id) else _name(entry.confirmed_by_player, public_names) or (
                _user_name(entry.confirmed_by, public=public)))
            live_entries.append(LiveEntry(
                entry=entry, side=None if entry.team_id is None else "home" if entry.team_id == match.home_id
                else "away", team_name=team_name, label=_entry_label(entry, team_name), state=entry.state,
                confirmed_by=confirmed, disputed_by=_name(entry.disputed_by_player, public_names),
            ))
        boems = []
        for boem in table.boems.all():
            lines = by_boem.get(boem.pk, [])
            provisional = any(e.state in ("provisional", "disputed") for e in lines)
            boems.append(LiveBoem(boem=boem, drawing=boem_drawing(boem=boem, match=match, entries=lines),
                                  provisional=provisional))
        home_points = sum(b.points for b in table.boems.all() if b.winner_id == match.home_id)
        away_points = sum(b.points for b in table.boems.all() if b.winner_id == match.away_id)
        deals = live_deals(list(table.deals.all()), match) if deals_game else ()
        if deals:
            home_points, away_points = deals[-1].home_running, deals[-1].away_running
        if table.status == MatchTable.Status.STOPPED and table.defaulting_team_id == match.home_id:
            home_points = 0
        if table.status == MatchTable.Status.STOPPED and table.defaulting_team_id == match.away_id:
            away_points = 0
        live_tables.append(LiveTable(
            table=table, number=number, home=sides.get("home"), away=sides.get("away"), boems=tuple(boems),
            entries=tuple(live_entries), home_points=home_points, away_points=away_points, deals=deals,
            match_phase=match.phase,
        ))
    awards = tuple(Award.objects.filter(match=match).select_related("team", "player").order_by("created_at", "id"))
    return LiveState(match=match, version=match.live_version, clock=match_clock(match=match, now=now),
                     tables=tuple(live_tables), awards=awards, plays_deals=deals_game)


def live_version_named(match_id: int) -> tuple[int, str] | None:
    """``(live_version, public-names token)`` of the match, or ``None`` when there is no such match: what a live
    poll's ETag names. Both cache keys (the match's kept deadline and :data:`clubs.selectors.PUBLIC_NAMES_TOKEN`)
    come in one cache round trip, then :func:`live_version`'s one indexed query; a poll that changes nothing costs
    no more (issue 40: two round trips to Redis were half of a 304's time)."""
    key = next_deadline_key(match_id)
    got = cache.get_many([key, PUBLIC_NAMES_TOKEN])
    found = match_version_caught_up(match_id=match_id, kept=got.get(key))
    if found is None:
        return None
    names = got.get(PUBLIC_NAMES_TOKEN)
    return found[0], str(names) if names is not None else public_names_token()


def live_version_polled(match_id: int, *, reuse: bool = True) -> tuple[int, str] | None:
    """:func:`live_version_named` for a public poll (the match page's live part, the anonymous live JSON): what
    this process read less than ``LIVE_VERSION_REUSE_SECONDS`` ago (default 1 s) is reused without a query or a
    cache round trip (:data:`matches.writes.LIVE_VERSIONS_POLLED`). A write another worker commits shows that
    much later at most; this worker's own at once. A phone polling every 3 s sees a change within 3 s and that
    second (issue 40: on the busiest night the version's query and round trip were half of a 304's cost). The
    table's own pages and the referee's read it afresh.

    :param reuse: ``False`` when a proxy in front keeps the answer already
        (``plumbing.page_cache.micro_cache_in_front``): read afresh (and kept for the polls that come direct), so
        the proxy's ``SHARED_CACHE_SECONDS`` and this reuse never add up.
    """
    if not reuse:
        LIVE_VERSIONS_POLLED.forget(match_id)
    return LIVE_VERSIONS_POLLED.get(match_id, lambda: live_version_named(match_id))


def live_version(match_id: int) -> int | None:
    """The match's ``live_version``, or ``None`` when there is no such match: one indexed query, written out
    because every phone's poll makes it (the ORM's own work was ten times the database's here). Clock deadlines
    already passed are acted on first (:func:`matches.night.clock.match_version_caught_up`: no query more when none
    is due), so the version names the night as the clock has it, with or without a worker."""
    found = match_version_caught_up(match_id=match_id)
    return None if found is None else found[0]


LIVE_CACHE_TIMEOUT = 6 * 3600


def live_cached[T](*, match_id: int, version: int, kind: str, build: Callable[[], T]) -> T:
    """What ``build`` makes of the match at ``version`` (``kind`` names it: a page's fragment, the API's JSON):
    built once per version and language (``translation.get_language()``: the labels are words) and served
    from the cache after. The version changes with every change, so a kept answer is never stale; an old
    version's is simply never asked for again. The public-names token (``clubs.selectors.public_names_token``) is
    part of the key: a union switching to initials, or a player's changed answer, builds it again."""
    key = f"live:{kind}:{match_id}:{version}:{translation.get_language()}:{public_names_token()}"
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, LIVE_CACHE_TIMEOUT)
    return value


def live_fragment_cached(*, match_id: int, version: int, kind: str, render: Callable[[], str]) -> str:
    """A rendered live fragment of the match at ``version``, rendered once per version (:func:`live_cached`)."""
    return str(live_cached(match_id=match_id, version=version, kind=kind, build=render))

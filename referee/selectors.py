"""Reads for the referee console: the dashboard, partnerships at a table, rulings, queries, verdict views.

Selectors load with a fixed number of queries (tests pin them) and return plain values for templates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet

from matches.models import Boem, Match, MatchTable, Seat
from referee.hand_check import SUIT_SYMBOLS, card_label
from referee.models import Query, Role, Side, StrafClaim


@dataclass(frozen=True)
class Partnership:
    """One side's partnership at a table: telman (the counter) and byspeler (the partner), as names."""

    side: str
    team_name: str
    telman: str
    byspeler: str
    telman_player_id: int | None = None
    byspeler_player_id: int | None = None


@dataclass(frozen=True)
class TableState:
    """A table on the dashboard: partnerships, status, the boem in progress and the table's points."""

    number: int
    status: str
    status_label: str
    stop_note: str
    home: Partnership | None
    away: Partnership | None
    boem_number: int | None
    home_strokes: int
    away_strokes: int
    home_points: int
    away_points: int
    open_claims: int
    boems: tuple[Any, ...] = field(default=())

    @property
    def playing(self) -> bool:
        """True while the table is playing (not stopped or unplayed)."""
        return self.status == MatchTable.Status.PLAYING


def _player_name(player) -> str:
    return f"{player.first_name} {player.last_name}".strip()


def table_partnerships(*, match: Match) -> dict[int, dict[str, Partnership]]:
    """The partnerships at each table from both team sheets: ``{table_number: {"home": ..., "away": ...}}``.

    One query (seats with their sheet, team and player). A side that has not submitted a sheet is missing.
    """
    seats = (
        Seat.objects.filter(sheet__match=match)
        .select_related("sheet__team", "player")
        .order_by("table_number", "role")
    )
    found: dict[int, dict[str, dict[str, Any]]] = {}
    for seat in seats:
        side = Side.HOME if seat.sheet.team_id == match.home_id else Side.AWAY
        slot = found.setdefault(seat.table_number, {}).setdefault(side, {"team": seat.sheet.team.name})
        slot[seat.role] = seat.player
    out: dict[int, dict[str, Partnership]] = {}
    for number, sides in found.items():
        for side, slot in sides.items():
            telman, byspeler = slot.get(Role.TELMAN), slot.get(Role.BYSPELER)
            out.setdefault(number, {})[side] = Partnership(
                side=side,
                team_name=slot["team"],
                telman=_player_name(telman) if telman else "—",
                byspeler=_player_name(byspeler) if byspeler else "—",
                telman_player_id=telman.pk if telman else None,
                byspeler_player_id=byspeler.pk if byspeler else None,
            )
    return out


def table_states(*, match: Match) -> list[TableState]:
    """The four tables with partnerships, status, live boem state and points (a fixed number of queries).

    Points per table are the completed and straffed boems' points for each side (SAKBOC 6.1, 6.2); a stopped
    table's forfeits and the awards are in the match score, shown separately.
    """
    partnerships = table_partnerships(match=match)
    tables = (
        MatchTable.objects.filter(match=match)
        .prefetch_related(Prefetch("boems", queryset=Boem.objects.order_by("number")))
        .order_by("number")
    )
    open_claims: dict[int, int] = {}
    for claim in StrafClaim.objects.filter(match=match, ruling__isnull=True).only("table_id"):
        open_claims[claim.table_id] = open_claims.get(claim.table_id, 0) + 1
    states = []
    for table in tables:
        boems = list(table.boems.all())
        current = next((b for b in boems if b.status == Boem.Status.IN_PROGRESS), None)
        home_points = sum(b.points for b in boems if b.winner_id == match.home_id)
        away_points = sum(b.points for b in boems if b.winner_id == match.away_id)
        sides = partnerships.get(table.number, {})
        states.append(
            TableState(
                number=table.number,
                status=table.status,
                status_label=table.get_status_display(),
                stop_note=table.stop_note,
                home=sides.get(Side.HOME),
                away=sides.get(Side.AWAY),
                boem_number=current.number if current else None,
                home_strokes=current.home_strokes if current else 0,
                away_strokes=current.away_strokes if current else 0,
                home_points=home_points,
                away_points=away_points,
                open_claims=open_claims.get(table.pk, 0),
                boems=tuple(boems),
            )
        )
    return states


def match_claims(*, match: Match) -> QuerySet[StrafClaim]:
    """The match's straf claims with their rulings and disputed hands, in the order they were logged."""
    return (
        StrafClaim.objects.filter(match=match)
        .select_related("table", "ruling", "ruling__referee", "disputed_hand", "logged_by")
        .order_by("logged_at", "id")
    )


def match_rulings(*, match: Match) -> QuerySet[StrafClaim]:
    """The match's claims that have a ruling (the rulings list and the match report)."""
    return match_claims(match=match).filter(ruling__isnull=False)


def match_queries(*, match: Match) -> QuerySet[Query]:
    """The queries noted on the match's score-sheet (SAKBOC 1.10), oldest first."""
    return Query.objects.filter(match=match).select_related("table", "ruling__claim", "noted_by").order_by("noted_at")


# --- the verdict, for people -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    """A record seat for display: number, player name, role and match side."""

    seat: int
    name: str
    role: str
    side: str

    @property
    def label(self) -> str:
        """``"Seat 1 · Brandon Petersen (away telman)"``."""
        return f"Seat {self.seat} · {self.name} ({self.side} {self.role})"


def seat_views(*, record: dict[str, Any], home_seats: str) -> list[SeatView]:
    """The record's four seats with their match sides (``home_seats``: ``even`` or ``odd``)."""
    home_even = home_seats == "even"
    views = []
    for s in sorted(record.get("seats", []), key=lambda s: s["seat"]):
        side = Side.HOME if (s["seat"] % 2 == 0) == home_even else Side.AWAY
        views.append(SeatView(s["seat"], s.get("name") or f"Seat {s['seat']}", s["role"], side))
    return views


def verdict_view(*, record: dict[str, Any], verdict: dict[str, Any], home_seats: str) -> dict[str, Any]:
    """Shape the engine's verdict (``Verdict.to_dict()``) for the verdict page.

    Returns ``{"seats", "tricks", "teams", "offences", "strafs", "going_on", "notes", "trump", "complete",
    "clean"}``: each trick with its cards labelled (``10♦``), who played them, the winner and points; each
    offence with the offender's name and side, its rules and evidence; each straf outcome with sides.
    """
    seats = seat_views(record=record, home_seats=home_seats)
    by_seat = {s.seat: s for s in seats}
    team_side = {0: seats[0].side if seats else Side.HOME, 1: Side.other(seats[0].side) if seats else Side.AWAY}
    offence_events = {o.get("event") for o in verdict.get("offences", [])}
    events = record.get("events", [])
    play_events = [i for i, e in enumerate(events) if e.get("type") == "play"]
    tricks = []
    n = 0
    for trick in verdict.get("tricks", []):
        plays = []
        for p in trick.get("plays", []):
            index = play_events[n] if n < len(play_events) else None
            n += 1
            card = p["card"]
            plays.append({
                "seat": by_seat.get(p["seat"]),
                "card": card,
                "label": card_label(card),
                "red": card[1] in "HD",
                "offence": index in offence_events,
                "winner": p["seat"] == trick.get("winner"),
            })
        winner = by_seat.get(trick.get("winner")) if trick.get("winner") is not None else None
        tricks.append({"number": trick["index"] + 1, "plays": plays, "winner": winner, "points": trick["points"],
                       "last": trick.get("last", False)})
    offences = [
        {**o, "who": by_seat.get(o["seat"]), "side": team_side[o["team"]] if "team" in o else None,
         "rules_text": ", ".join(o.get("rules", []))}
        for o in verdict.get("offences", [])
    ]
    strafs = [
        {**s, "claimant_seat": by_seat.get(s["claimant"]), "accused_seat": by_seat.get(s["accused"]),
         "punished_side": team_side.get(s["punished_team"]) if s.get("punished_team") is not None else None,
         "awarded_side": team_side.get(s["awarded_team"]) if s.get("awarded_team") is not None else None,
         "rules_text": ", ".join(s.get("rules", []))}
        for s in verdict.get("strafs", [])
    ]
    teams = [{**t, "side": team_side[t["team"]]} for t in verdict.get("teams", [])]
    return {
        "seats": seats,
        "tricks": tricks,
        "teams": teams,
        "offences": offences,
        "strafs": strafs,
        "going_on": verdict.get("going_on", []),
        "notes": verdict.get("notes", []),
        "trump": SUIT_SYMBOLS.get(verdict.get("trump", ""), ""),
        "complete": verdict.get("complete", False),
        "clean": verdict.get("clean", not offences),
    }

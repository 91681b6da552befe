"""Reads for the referee console: claims and who made them, rulings, queries, verdict views. The night's tables
(partnerships, boem sheets, points) are ``matches.night.live.match_live``, shared with the table and public pages.

Selectors load with a fixed number of queries (tests pin them) and return plain values for templates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from engine.ruleset import Ruleset
from matches.models import Match, Seat
from matches.rules import competition_ruleset
from referee import findings
from referee.hand_check import SUIT_SYMBOLS, card_label
from referee.models import Query, Side, StrafClaim


@dataclass(frozen=True)
class ConsoleMatches:
    """The referee console's lists: tonight's matches, the ones coming up, and the earlier ones (a queryset)."""

    tonight: list[Match]
    upcoming: list[Match]
    earlier: QuerySet[Match]


IN_PLAY = (Match.Phase.FIRST_HALF, Match.Phase.INTERVAL, Match.Phase.SECOND_HALF, Match.Phase.AWAITING_EXTRA_TIME,
           Match.Phase.EXTRA_TIME)


def console_matches(*, matches: QuerySet[Match], now: datetime | None = None, upcoming_limit: int = 20
                    ) -> ConsoleMatches:
    """Split a referee's matches for the console: **tonight** (scheduled today, local time, or still in play
    from an earlier day), earliest first; **coming up** (after today), soonest first; **earlier**, latest first.
    Three queries."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    is_tonight = Q(scheduled_start__date=today) | Q(phase__in=IN_PLAY)
    matches = matches.select_related("home", "away", "competition")
    tonight = list(matches.filter(is_tonight).order_by("scheduled_start", "id"))
    later = matches.exclude(is_tonight)
    upcoming = list(later.filter(scheduled_start__date__gt=today).order_by("scheduled_start", "id")[:upcoming_limit])
    earlier = later.filter(scheduled_start__date__lt=today).order_by("-scheduled_start", "-id")
    return ConsoleMatches(tonight=tonight, upcoming=upcoming, earlier=earlier)


def match_ruleset(*, match: Match) -> Ruleset:
    """The rules of the match's competition (``matches.rules.competition_ruleset``: SAKBOC read by the union, or
    a relative such as Rotterdam as the engine has it): the console offers only its offences and deal patterns
    (``referee.hand_check.offence_choices``, ``deal_pattern_choices``)."""
    return competition_ruleset(match.competition)


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
    """A record seat for display: its number (kept for the forms' values, never shown), the player's name, role,
    match side and team name."""

    seat: int
    name: str
    role: str
    side: str
    team: str = ""

    @property
    def label(self) -> str:
        """``"Brandon Petersen (Bonteheuwel Boere, telman)"``."""
        return f"{self.name} ({self.team}, {self.role})" if self.team else f"{self.name} ({self.role})"

    @property
    def short(self) -> str:
        """The player's first name, to mark a card on a trick (``"Brandon"``)."""
        return self.name.split()[0] if self.name.split() else self.name


def team_names(match: Match | None) -> dict[str, str]:
    """``{"home": "Athlone Aces", "away": "Bonteheuwel Boere"}`` (the words "home"/"away" are never shown)."""
    if match is None:
        return {Side.HOME: "", Side.AWAY: ""}
    return {Side.HOME: match.home.name, Side.AWAY: match.away.name}


def seat_views(*, record: dict[str, Any], home_seats: str, match: Match | None = None) -> list[SeatView]:
    """The record's four seats with their match sides (``home_seats``: ``even`` or ``odd``) and, given the
    match, their teams' names. A seat the record leaves unnamed is called by its team and role
    ("Athlone Aces's telman")."""
    home_even = home_seats == "even"
    teams = team_names(match)
    views = []
    for s in sorted((s for s in record.get("seats", []) if isinstance(s, dict) and isinstance(s.get("seat"), int)),
                    key=lambda s: s["seat"]):
        side = Side.HOME if (s["seat"] % 2 == 0) == home_even else Side.AWAY
        role = str(s.get("role") or "player")
        team = teams[side]
        given = s.get("name")
        name = given if isinstance(given, str) and given else (f"{team}'s {role}" if team else f"the {role}")
        views.append(SeatView(s["seat"], name, role, side, team))
    return views


def seat_name_map(*, record: dict[str, Any], home_seats: str, match: Match | None = None) -> dict[int, str]:
    """``{seat: "Name"}`` for every seat 0..3; a seat missing from the record is called by its team."""
    names = {v.seat: v.name for v in seat_views(record=record, home_seats=home_seats, match=match)}
    teams = team_names(match)
    home_even = home_seats == "even"
    for seat in range(4):
        if seat not in names:
            side = Side.HOME if (seat % 2 == 0) == home_even else Side.AWAY
            names[seat] = f"a player of {teams[side]}" if teams[side] else "a player"
    return names


def verdict_view(*, record: dict[str, Any], verdict: dict[str, Any], home_seats: str,
                 match: Match | None = None) -> dict[str, Any]:
    """Shape the engine's verdict (``Verdict.to_dict()``) for the verdict page.

    Returns ``{"seats", "tricks", "teams", "offences", "unclaimed", "decided", "strafs", "going_on", "notes",
    "trump", "complete", "clean"}``: each trick with its cards labelled (``10♦``), who played them, the winner and
    points; each offence with the offender's name and side, its rules and its ``finding``: the engine's code and
    params said in the user's language (``referee.findings``) with how it was decided (``status_text``), the
    offences nobody claimed (``unclaimed``) apart from those a claim decided (``decided``); each straf outcome with
    sides and its ``finding``; the going-on checks and notes as findings.
    """
    seats = seat_views(record=record, home_seats=home_seats, match=match)
    by_seat = {s.seat: s for s in seats}
    team_side = {0: seats[0].side if seats else Side.HOME, 1: Side.other(seats[0].side) if seats else Side.AWAY}
    names = team_names(match)

    def seat_name(seat: int) -> str:
        view = by_seat.get(seat)
        return view.name if view else gettext("a player")

    def team_name(team: int) -> str:
        side = team_side.get(team)
        name = names.get(side) if side is not None else None
        return name or (gettext("the home team") if side == Side.HOME else gettext("the away team"))

    said: findings.SayNames = {"seat_name": seat_name, "team_name": team_name}
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
    # a wrong straf says why there was no offence, the claim's outcome and the claimant's offence alike
    # (findings.no_offence_reason: why the challenged card was legal, with its rule, as manage.py adjudicate says)
    found_offences = verdict.get("offences", [])
    straf_at = {s.get("event"): s for s in verdict.get("strafs", [])}
    offences = [
        {**o, "who": by_seat.get(o["seat"]), "side": team_side[o["team"]] if "team" in o else None,
         "team_name": names[team_side[o["team"]]] if "team" in o else "",
         "rules_text": ", ".join(o.get("rules", [])),
         "finding": findings.offence_finding(o, straf=straf_at.get(o.get("event")) if o.get("code") == "wrong_straf"
                                             else None, record=record, offences=found_offences, **said)}
        for o in found_offences
    ]
    strafs = [
        {**s, "claimant_seat": by_seat.get(s["claimant"]), "accused_seat": by_seat.get(s["accused"]),
         "punished_side": team_side.get(s["punished_team"]) if s.get("punished_team") is not None else None,
         "awarded_side": team_side.get(s["awarded_team"]) if s.get("awarded_team") is not None else None,
         "awarded_team_name": names[team_side[s["awarded_team"]]] if s.get("awarded_team") is not None else "",
         "rules_text": ", ".join(s.get("rules", [])),
         "finding": findings.straf_finding(s, record=record, offences=found_offences, **said)}
        for s in verdict.get("strafs", [])
    ]
    teams = [{**t, "side": team_side[t["team"]], "team_name": names[team_side[t["team"]]]}
             for t in verdict.get("teams", [])]
    if "note_details" in verdict:
        notes = [findings.note_finding(n, **said).text for n in verdict["note_details"]]
    else:  # a verdict stored before its notes carried codes
        notes = list(verdict.get("notes", []))
    return {
        "seats": seats,
        "tricks": tricks,
        "teams": teams,
        "offences": offences,
        "unclaimed": [o for o in offences if o.get("status", "unclaimed") == "unclaimed"],
        "decided": [o for o in offences if o.get("status", "unclaimed") != "unclaimed"],
        "strafs": strafs,
        "going_on": [findings.going_on_finding(g, **said) for g in verdict.get("going_on", [])],
        "forfeits": [findings.offence_finding(f, **said) for f in verdict.get("forfeits", [])],
        "notes": notes,
        "trump": SUIT_SYMBOLS.get(verdict.get("trump", ""), ""),
        "complete": verdict.get("complete", False),
        "clean": verdict.get("clean", not offences),
    }


@dataclass(frozen=True)
class ClaimPerson:
    """One side of a straf claim, by name: the team and the player seated in that role at the table."""

    team: str
    player: str
    role: str


def table_people(*, claim: StrafClaim) -> dict[tuple[str, str], str]:
    """The four seated at the claim's table: ``{(side, role): "Name (Team, role)"}`` (one query)."""
    match = claim.match
    out: dict[tuple[str, str], str] = {}
    for seat in Seat.objects.filter(sheet__match=match, table_number=claim.table.number).select_related(
            "sheet__team", "player"):
        side = Side.HOME if seat.sheet.team_id == match.home_id else Side.AWAY
        name = f"{seat.player.first_name} {seat.player.last_name}"
        out[(side, seat.role)] = f"{name} ({seat.sheet.team.name}, {seat.role})"
    return out


def claim_people(*, claim: StrafClaim) -> dict[str, ClaimPerson]:
    """``{"claimant": …, "accused": …}``: who said "af" and against whom, by team and player name (one query)."""
    match = claim.match
    seats = {(s.sheet.team_id, s.role): s.player for s in Seat.objects.filter(
        sheet__match=match, table_number=claim.table.number).select_related("sheet", "player")}
    out = {}
    for key, side, role in (("claimant", claim.claimant_side, claim.claimant_role),
                            ("accused", claim.accused_side, claim.accused_role)):
        team = match.home if side == Side.HOME else match.away
        player = seats.get((team.pk, role))
        name = f"{player.first_name} {player.last_name}" if player else "—"
        out[key] = ClaimPerson(team=team.name, player=name, role=role)
    return out

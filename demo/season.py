"""The demo season (issue 7): a whole union's league season, every card played by the rules engine's bots.

:func:`demo_season_run` builds a union (clubs with Cape Flats and Eastern Cape names, a team of 8 registered
players and 2 reserves each, captains, referees and an official, all with accounts), schedules a home-and-away
league with :func:`matches.competitions.services.competition_fixtures_create`, and plays every match night through the
match-night services, moving simulated time with their ``now=`` arguments (no sleeping):

* team sheets, the toss 5 minutes before play (SAKBOC 1.3), the first half (1.2);
* at each of the 4 tables, hands dealt and played card by card by :func:`engine.simulate.play_hand` (seeded;
  the ou jol tallies and the boem's strokes carried from hand to hand), a few minutes a hand; every going on
  (claimed by the telman) is a :class:`matches.night.boem_sheet.StrokeLine` on the table's boem sheet;
* now and then a revoke (versak, SAKBOC 3.3) is injected into a bot's hand and the opponents' telman says
  "af"; the hand record with the claim is put to :func:`engine.adjudicate` and the straf goes on the sheet
  (:class:`~matches.night.boem_sheet.StrafLine`) only when the verdict upholds it, with the verdict's points
  (SAKBOC 6.2). Sometimes the "revoke" was a legal trump (3.3): the engine calls it a wrong straf and the
  referee reverses it (:class:`~matches.night.boem_sheet.StrafReversalLine`, Notes §VII);
* the tables' lines of a stretch of play (up to the interval call, to the end of the first half's cut hands,
  to a table stop, to time) are recorded in one call of :func:`matches.night.boem_sheet.sheets_record`: the same
  checks, lines, boems and score as ``going_on_record`` / ``straf_record`` / ``straf_reverse`` line by line, in
  a few queries, scored by the rules engine like every boem sheet;
* the interval, half-time substitutions (11.1), the second half, one table stopped by the referee in the
  season (12.1, with its award of 20), full time (2.2; a boem in progress is unfinished);
* the result confirmed by both captains or the referee, approved by the union official; standings published
  at mid-season and at the end.

Every hand is kept as a :class:`matches.models.PlayedHand` (its record, who went on, the boem-sheet line it
produced), so each boem sheet can be replayed and audited. One transaction per match night; hands are
written with ``bulk_create``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.test import override_settings

import engine
from clubs import services as club_services
from clubs.models import Player, Team, Union
from engine.cards import CARD_NAMES, parse_card
from engine.scoring import BoemState, GameState
from engine.simulate import deal, play_hand
from matches.competitions import services as competition_services
from matches.models import Award, Boem, BoemEntry, Competition, Match, MatchTable, PlayedHand, StandingsSnapshot
from matches.night import boem_sheet
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.results import services as result_services
from matches.selectors import match_clock_lengths

DEMO_PASSWORD = "klawerjas-demo"
UNION_NAME = "Cape Klawerjas Union"
UNION_SHORT = "CKU"
SEASON = "2026"
SEASON_START = dt.date(2026, 2, 4)  # a Wednesday; 14 weekly rounds end in May, before today
KICKOFF = dt.time(19, 30)
TZ = ZoneInfo("Africa/Johannesburg")

CLUB_NAMES = [
    "Athlone Aces", "Mitchells Plain Manels", "Bonteheuwel Boere", "Hanover Park Sturks",
    "Bishop Lavis Roemers", "Gelvandale Jacks", "Kariega Klawers", "Buffalo City Slaggies",
    "Elsies River Trumps", "Kensington Kings", "Bethelsdorp Boems", "Grassy Park Strepies",
]
FIRST_NAMES = [
    "Faizel", "Mymoena", "Ayesha", "Clive", "Shireen", "Riaan", "Yusuf", "Gaironesa", "Denver", "Natasha",
    "Ebrahim", "Charmaine", "Ashwin", "Fadiel", "Lorraine", "Moegamat", "Cheslyn", "Nazeem", "Wilma", "Jerome",
    "Ridwaan", "Shafiek", "Bronwyn", "Achmat", "Desiree", "Graham", "Zainab", "Tasneem", "Marlon", "Ursula",
    "Thando", "Sipho", "Nomvula", "Lwazi", "Brandon", "Chantal", "Dawood", "Fatima", "Igshaan", "Kashiefa",
    "Lionel", "Merle", "Nolan", "Petronella", "Quinton", "Rashaad", "Sharon", "Tyrone", "Valencia", "Waleed",
]
LAST_NAMES = [
    "Adams", "Abrahams", "Jacobs", "Davids", "Petersen", "Hendricks", "Isaacs", "Williams", "Arendse", "Fortuin",
    "Booysen", "Solomons", "Samuels", "Moses", "Jansen", "Cupido", "February", "April", "Klaasen", "Daniels",
    "Mentoor", "Salie", "Kannemeyer", "Pietersen", "van Wyk", "Ntsebeza", "Erasmus", "Julies", "Lakay",
    "Marais", "Ontong", "Plaatjies", "Rhoda", "September", "Titus", "Vermeulen", "Witbooi", "Mxenge", "Dyantyi",
]

# username, first name, last name, role (what the account is for)
STAFF_ACCOUNTS = [
    ("official", "Fatima", "Abrahams", "union official (and administrator)"),
    ("secretary", "Nazeem", "Salie", "club secretary"),
    ("referee", "Yusuf", "Isaacs", "referee"),
    ("referee2", "Charmaine", "Fortuin", "referee"),
    ("referee3", "Denver", "Cupido", "referee"),
    ("referee4", "Lwazi", "Ntsebeza", "referee"),
]

SIZES = {
    # half (minutes of play), interval; the union's match clock (SAKBOC 1.2)
    "full": {"half_minutes": 75, "interval_minutes": 10},
    "small": {"half_minutes": 15, "interval_minutes": 10},
}
HAND_MINUTES = (2.0, 4.0)  # a few minutes a hand: ~25 hands a table each 75-minute half
REVOKE_CHANCE = 1 / 110  # per hand: a bot revokes and the opponents' telman says "af"
WRONG_STRAF_SHARE = 0.25  # of those claims: the "revoke" was a legal trump, a wrong straf (Notes §VII)
SUBSTITUTION_CHANCE = 0.4  # per team and match night: one or two half-time substitutions (SAKBOC 11.1)


class DemoExists(Exception):
    """The demo union is already in the database (the demo season is not played twice)."""


@dataclass
class DemoStats:
    """What the demo season did, for the closing summary and the tests."""

    matches: int = 0
    match_nights: int = 0
    hands: int = 0
    strokes: int = 0
    stroke_entries: int = 0
    ou_jol_hands: int = 0
    roem_hands: int = 0
    strafs_claimed: int = 0
    strafs_upheld: int = 0
    strafs_reversed: int = 0
    boems_completed: int = 0
    substitutions: int = 0
    tables_stopped: int = 0
    awards: int = 0
    mails_held: int = 0
    seconds: float = 0.0
    engine_seconds: float = 0.0
    standings_top: list[tuple[int, str, int, int]] = field(default_factory=list)  # pos, team, league pts, diff
    accounts: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class _Table:
    """One table's simulation state: its players by seat, the carried game state, the boem's hands."""

    number: int
    rng: random.Random
    names: list[str]  # by seat: 0 home telman, 1 away telman, 2 home byspeler, 3 away byspeler
    telmen: tuple[Player, Player]  # home, away
    row: MatchTable
    dealer: int
    state: GameState = field(default_factory=GameState)
    hands_in_boem: int = 0
    clock: float = 0.0  # minutes since the start of play
    stopped_at: float | None = None


@dataclass
class _Hand:
    """A hand played and what it put on the boem sheet, waiting to be saved."""

    table: int
    minute: float
    half: int
    record: dict[str, Any]
    went_on: int | None  # team 0 home / 1 away
    strokes: int
    roem: int
    straf_decision: str = ""
    verdict: dict[str, Any] = field(default_factory=dict)


# --- The union ------------------------------------------------------------------------------------------

def _accounts(password_hash: str) -> dict[str, Any]:
    user_model = get_user_model()
    users = {}
    for username, first, last, _role in STAFF_ACCOUNTS:
        # an account left by an earlier demo (e.g. the old demo_data's "official") is reused, not duplicated
        users[username], _ = user_model.objects.update_or_create(username=username, defaults=dict(
            first_name=first, last_name=last, email=f"{username}@example.org", password=password_hash,
            is_staff=username == "official", is_superuser=username == "official",
        ))
    return users


def _captain(team: Team) -> Player:
    """The team's captain: every demo team has one (named when its squad is registered)."""
    assert team.captain is not None
    return team.captain


def _names(rng: random.Random, count: int, taken: set[tuple[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    while len(out) < count:
        name = (rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES))
        if name not in taken:
            taken.add(name)
            out.append(name)
    return out


def demo_union_build(*, seed: int, clubs: int, size: str) -> tuple[Union, Competition, dict[str, Any]]:
    """Create the demo union, its clubs, players, accounts, the league season and its fixtures.

    :returns: the union, the competition and the staff accounts by username.
    :raises DemoExists: the demo union is already there.
    :raises ValueError: fewer than 2 or more clubs than there are demo club names.
    """
    if Union.objects.filter(name=UNION_NAME).exists():
        raise DemoExists(UNION_NAME)
    if not 2 <= clubs <= len(CLUB_NAMES):
        raise ValueError(f"--clubs must be 2 to {len(CLUB_NAMES)}")
    rng = random.Random(f"{seed}:union")
    password_hash = make_password(DEMO_PASSWORD)  # hashed once: PBKDF2 per account would take seconds
    users = _accounts(password_hash)
    union = club_services.union_create(name=UNION_NAME, short_name=UNION_SHORT, **SIZES[size])
    club_services.union_official_add(union=union, user=users["official"])
    competition = competition_services.competition_create(
        union=union, name="Premier League", season=SEASON, starts_on=SEASON_START
    )
    user_model = get_user_model()
    taken: set[tuple[str, str]] = set()
    for index, club_name in enumerate(CLUB_NAMES[:clubs], start=1):
        club = club_services.club_create(union=union, name=club_name)
        if index == 1:
            club_services.club_secretary_add(club=club, user=users["secretary"])
        team = club_services.team_create(club=club, competition=competition, name=f"{club_name} A")
        players = []
        for number, (first, last) in enumerate(_names(rng, 10, taken), start=1):
            user = None
            if number == 1:  # the captain has an account
                username = "captain" if index == 1 else f"captain{index}"
                user, _ = user_model.objects.update_or_create(username=username, defaults=dict(
                    first_name=first, last_name=last, email=f"{username}@example.org", password=password_hash,
                ))
                users[username] = user
            players.append(club_services.player_register(
                club=club, registration_number=f"{UNION_SHORT}-{index:02d}{number:02d}", first_name=first,
                last_name=last, user=user,
            ))
        for player in players:
            club_services.team_player_add(team=team, player=player)
        club_services.team_captain_set(team=team, player=players[0])
    competition_services.competition_fixtures_create(competition=competition, start=SEASON_START, kickoff=KICKOFF)
    referees = [users[name] for name, *_ in STAFF_ACCOUNTS if name.startswith("referee")]
    for referee in referees:  # the union's list of referees, from which officials assign them
        club_services.union_referee_add(union=union, user=referee)
    for match in Match.objects.filter(competition=competition).order_by("round_number", "pk"):
        # the round's matches share the referees out; "referee" has the first match of every round
        position = Match.objects.filter(
            competition=competition, round_number=match.round_number, pk__lt=match.pk
        ).count()
        competition_services.match_officials_assign(match=match, referee=referees[position % len(referees)])
    return union, competition, users


# --- One match night ------------------------------------------------------------------------------------

def _revoke_candidates(record: dict[str, Any], legal_trump: bool) -> list[tuple[int, str]]:
    """Plays that can be turned into a claimed revoke: ``(event index, card to play instead)``.

    ``legal_trump=False``: the player followed suit but held a card of a third suit (not trump): playing that
    instead is a versak (SAKBOC 3.3). ``legal_trump=True``: the player trumped while holding the suit led,
    which SAKBOC allows (3.3) — a claim on it is a wrong straf (Notes §VII).
    """
    trump = parse_card(record["trump_card"]) >> 3
    held = [{parse_card(c) for c in hand} for hand in record["hands"]]
    out = []
    trick: list[int] = []
    for index, event in enumerate(record["events"]):
        if event["type"] == "go_on":
            break
        if event["type"] != "play":
            continue
        seat, card = event["seat"], parse_card(event["card"])
        if trick:
            led = trick[0] >> 3
            suits = {c >> 3 for c in held[seat]}
            if not legal_trump and card >> 3 == led and led != trump:
                others = sorted(c for c in held[seat] if c >> 3 not in (led, trump))
                if others:
                    out.append((index, CARD_NAMES[others[0]]))
            if legal_trump and card >> 3 == trump and led != trump and led in suits:
                out.append((index, CARD_NAMES[card]))
        held[seat].discard(card)
        trick.append(card)
        if len(trick) == 4:
            trick = []
    return out


def _claimed_hand(record: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The hand record cut at a (made or legal) revoke with the opponents' telman's straf claim, or None."""
    legal_trump = rng.random() < WRONG_STRAF_SHARE
    candidates = _revoke_candidates(record, legal_trump)
    if not candidates:
        return None
    index, card = candidates[rng.randrange(len(candidates))]
    events = [dict(e) for e in record["events"][: index + 1]]
    events[index]["card"] = card
    accused = events[index]["seat"]
    claimant = 1 - accused % 2  # the other side's telman (seat 0 or 1)
    events.append({"type": "straf", "claimant": claimant, "accused": accused, "offence": "versak", "event": index})
    return {**record, "events": events}


def _verdict_summary(verdict: engine.Verdict) -> dict[str, Any]:
    outcome = verdict.strafs[0]
    return {
        "decision": outcome.decision,
        "upheld": outcome.upheld,
        "punished_team": outcome.punished_team,
        "awarded_team": outcome.awarded_team,
        "points": outcome.points,
        "offence_event": outcome.offence_event,
        "rules": list(outcome.rules),
        "reason": outcome.reason,
        "offences": [str(o.code) for o in verdict.offences],
    }


def _play_until(table: _Table, end: float, *, half: int, finish_started: bool, stats: DemoStats) -> list[_Hand]:
    """Deal and play hands at ``table`` from its clock until ``end`` (minutes since the start of play).

    ``finish_started``: a hand dealt before ``end`` is completed (the interval, SAKBOC 2.2); otherwise a hand
    that would not be done by ``end`` is not dealt (time is called, all play stops).
    """
    hands: list[_Hand] = []
    rng = table.rng
    while table.clock < end and (table.stopped_at is None or table.clock < table.stopped_at):
        minutes = rng.uniform(*HAND_MINUTES)
        if not finish_started and table.clock + minutes > end:
            break
        if table.stopped_at is not None and table.clock + minutes > table.stopped_at:
            break
        started = time.perf_counter()
        h = play_hand(deal(rng, table.dealer), rng, table.state, names=table.names, telmen=(0, 1))
        table.clock += minutes
        table.hands_in_boem += 1
        roem = h.roem[0] + h.roem[1]
        claimed = _claimed_hand(h.record, rng) if rng.random() < REVOKE_CHANCE else None
        hand = _Hand(table=table.number, minute=table.clock, half=half, record=h.record, went_on=None, strokes=0,
                     roem=roem)
        if claimed is not None:
            verdict = engine.adjudicate(engine.parse_record(claimed))
            hand.record, hand.verdict = claimed, _verdict_summary(verdict)
            hand.straf_decision = hand.verdict["decision"]
            stats.engine_seconds += time.perf_counter() - started
            hands.append(hand)
            if hand.straf_decision in ("upheld", "wrong-straf"):
                table.state, table.hands_in_boem = GameState(), 0  # the straf ends the boem (SAKBOC 6.2)
            table.dealer = (table.dealer + 1) % 4
            continue
        stats.engine_seconds += time.perf_counter() - started
        if h.went_on is not None:
            hand.went_on, hand.strokes = h.went_on
        hands.append(hand)
        table.dealer = h.next_dealer
        table.state = h.state_after
        if BoemState(table.state.strokes).finished:
            table.state, table.hands_in_boem = GameState(), 0
    return hands


def _record_hands(
    match: Match, hands: list[_Hand], tables: dict[int, _Table], start: dt.datetime, stats: DemoStats,
    referee: Any, out: list[PlayedHand],
) -> None:
    """Put the hands on their tables' boem sheets, every table's run in one call of
    :func:`matches.night.boem_sheet.sheets_record` (the same checks and lines as line by line), and queue each
    hand's PlayedHand with the entry it produced."""
    teams = (match.home, match.away)
    by_table: dict[int, list[_Hand]] = {}
    for hand in sorted(hands, key=lambda h: (h.minute, h.table)):
        by_table.setdefault(hand.table, []).append(hand)
    runs: dict[int, list[boem_sheet.BoemLine]] = {}
    produced_at: dict[int, list[int | None]] = {}
    for number, run in sorted(by_table.items()):
        table = tables[number]
        lines = runs[number] = []
        produced = produced_at[number] = []  # by hand: the index of its entry among the lines, or None
        for hand in run:
            now = start + dt.timedelta(minutes=hand.minute)
            if hand.went_on is not None:
                lines.append(boem_sheet.StrokeLine(team=teams[hand.went_on], strokes=hand.strokes,
                                                 claimed_by=table.telmen[hand.went_on], now=now))
                produced.append(len(lines) - 1)
                stats.strokes += hand.strokes
                stats.stroke_entries += 1
            elif hand.straf_decision in ("upheld", "wrong-straf"):
                stats.strafs_claimed += 1
                upheld = hand.straf_decision == "upheld"
                claimant = 1 - hand.verdict["punished_team"] if upheld else hand.verdict["punished_team"]
                if upheld:
                    lines.append(boem_sheet.StrafLine(
                        team=teams[claimant], points=hand.verdict["points"], claimed_by=table.telmen[claimant],
                        note=f"versak, upheld by the engine ({', '.join(hand.verdict['rules'])})", by=referee,
                        now=now,
                    ))
                    stats.strafs_upheld += 1
                else:
                    lines.append(boem_sheet.StrafLine(team=teams[claimant], claimed_by=table.telmen[claimant],
                                                    note="versak claimed", by=referee, now=now))
                    lines.append(boem_sheet.StrafReversalLine(
                        claimed_points=False, note=hand.verdict["reason"][:300], by=referee,
                        now=now + dt.timedelta(minutes=1),
                    ))
                    stats.strafs_reversed += 1
                produced.append(len(lines) - 1)
            else:
                if hand.straf_decision:
                    stats.strafs_claimed += 1
                else:
                    stats.ou_jol_hands += 1
                produced.append(None)
    written = boem_sheet.sheets_record(match=match, runs=runs)
    for number, run in sorted(by_table.items()):
        table, entries = tables[number], written.get(number, [])
        for hand, index in zip(run, produced_at[number], strict=True):
            entry = entries[index] if index is not None else None
            stats.hands += 1
            stats.roem_hands += hand.roem > 0
            out.append(PlayedHand(
                table=table.row, boem=entry.boem if entry is not None else None, number=0, half=hand.half,
                played_at=start + dt.timedelta(minutes=hand.minute), record=hand.record,
                went_on=teams[hand.went_on] if hand.went_on is not None else None, strokes=hand.strokes,
                roem=hand.roem, straf_decision=hand.straf_decision, verdict=hand.verdict, entry=entry,
            ))


def _attach_boems(match: Match, played: list[PlayedHand]) -> None:
    """Number each table's hands and give each its boem: an ou jol hand (nothing on the sheet) belongs to the
    boem of the next entry at its table; ou jol hands after the last entry belong to the boem left unfinished
    at time or at a stop, and to none when the last boem had ended (no new boem was started on the sheet)."""
    last_boem: dict[int | None, Boem] = {
        b.table_id: b for b in Boem.objects.filter(table__match=match).order_by("number")
    }
    by_table: dict[int | None, list[PlayedHand]] = {}
    for hand in played:
        by_table.setdefault(hand.table_id, []).append(hand)
    for table_id, hands in by_table.items():
        pending: list[PlayedHand] = []
        for number, hand in enumerate(hands, start=1):
            hand.number = number
            pending.append(hand)
            if hand.boem is not None:
                for p in pending:
                    p.boem = hand.boem
                pending = []
        last = last_boem.get(table_id)
        if last is not None and last.status == Boem.Status.UNFINISHED:
            for p in pending:
                p.boem = last


def _substitutions(match: Match, rng: random.Random, tables: dict[int, _Table], squads: dict[int, list[Player]],
                   seats: dict[int, dict[int, list[Player]]], now: dt.datetime, stats: DemoStats) -> None:
    """Half-time substitutions (SAKBOC 11.1): a reserve takes a byspeler's or telman's seat."""
    for side, team in enumerate((match.home, match.away)):
        if rng.random() >= SUBSTITUTION_CHANCE:
            continue
        reserves = squads[team.pk][8:]
        for k, player_in in enumerate(reserves[: rng.choice((1, 1, 2))]):
            table_number = rng.randint(1, 4)
            if tables[table_number].stopped_at is not None:
                continue
            role = rng.randrange(2)  # 0 telman, 1 byspeler
            player_out = seats[team.pk][table_number][role]
            if player_out in reserves:
                continue
            night_services.substitution_make(match=match, team=team, player_out=player_out, player_in=player_in,
                                       by=_captain(team).user, now=now + dt.timedelta(minutes=1 + k))
            seats[team.pk][table_number][role] = player_in
            seat_index = side + 2 * role
            tables[table_number].names[seat_index] = player_in.full_name
            if role == 0:
                telmen = list(tables[table_number].telmen)
                telmen[side] = player_in
                tables[table_number].telmen = (telmen[0], telmen[1])
            stats.substitutions += 1


def demo_match_night_play(
    *, match: Match, seed: int, union: Union, squads: dict[int, list[Player]], official: Any,
    stop_table: bool, stats: DemoStats,
) -> Match:
    """Play one match night through the services, every hand by the engine's bots, in one transaction."""
    home, away = match.home, match.away
    rng = random.Random(f"{seed}:{match.round_number}:{home.club.name}")
    start = match.scheduled_start
    lengths = match_clock_lengths(match)  # the union's, or the match's own (a shorter practice night)
    half, interval = lengths.half_minutes, lengths.interval_minutes
    with transaction.atomic():
        seats: dict[int, dict[int, list[Player]]] = {}
        for team in (home, away):
            squad = squads[team.pk]
            seats[team.pk] = {n: [squad[2 * n - 2], squad[2 * n - 1]] for n in range(1, 5)}
            night_services.team_sheet_submit(
                match=match, team=team, partnerships={n: (p[0], p[1]) for n, p in seats[team.pk].items()},
                by=_captain(team).user, now=start - dt.timedelta(hours=2),
            )
        toss_winner = home if rng.random() < 0.5 else away
        night_services.match_toss_record(
            match=match, winner=toss_winner, by=match.referee, now=start - dt.timedelta(minutes=5)
        )
        night_clock.match_start(match=match, by=match.referee, now=start)
        rows = {t.number: t for t in MatchTable.objects.filter(match=match)}
        tables = {}
        for n in range(1, 5):
            h_tel, h_bys = seats[home.pk][n]
            a_tel, a_bys = seats[away.pk][n]
            tables[n] = _Table(
                number=n, rng=random.Random(f"{seed}:{match.round_number}:{home.club.name}:{n}"),
                names=[h_tel.full_name, a_tel.full_name, h_bys.full_name, a_bys.full_name], telmen=(h_tel, a_tel),
                row=rows[n],
                dealer=0 if toss_winner == home else 1,  # the toss winner gets the cards (SAKBOC 1.3)
            )
        played: list[PlayedHand] = []
        # First half: hands dealt before the interval call are completed (SAKBOC 2.2).
        hands = [h for t in tables.values() for h in _play_until(t, half, half=1, finish_started=True, stats=stats)]
        early = [h for h in hands if h.minute <= half]
        _record_hands(match, early, tables, start, stats, match.referee, played)
        night_clock.match_interval_call(match=match, by=match.referee, now=start + dt.timedelta(minutes=half))
        _record_hands(match, [h for h in hands if h.minute > half], tables, start, stats, match.referee, played)
        resume = half + interval
        _substitutions(match, rng, tables, squads, seats, start + dt.timedelta(minutes=half + 5), stats)
        night_clock.match_resume(match=match, by=match.referee, now=start + dt.timedelta(minutes=resume))
        end = resume + half
        stopped = None
        if stop_table:
            stopped = rng.randint(1, 4)
            tables[stopped].stopped_at = resume + half * 0.5
        for t in tables.values():
            t.clock = max(t.clock, resume)
        hands = [h for t in tables.values() for h in _play_until(t, end, half=2, finish_started=False, stats=stats)]
        if stopped is not None:
            at = tables[stopped].stopped_at
            assert at is not None  # set just above
            _record_hands(match, [h for h in hands if h.minute <= at], tables, start, stats, match.referee, played)
            night_clock.table_stop(
                match=match, table_number=stopped, defaulting_team=away,
                note="Signs between partners after a warning (SAKBOC 12.1).", by=match.referee,
                now=start + dt.timedelta(minutes=at),
            )
            stats.tables_stopped += 1
            hands = [h for h in hands if h.minute > at]
        _record_hands(match, hands, tables, start, stats, match.referee, played)
        finished = start + dt.timedelta(minutes=end)
        match = night_clock.match_end(match=match, by=match.referee, now=finished)
        _attach_boems(match, played)
        PlayedHand.objects.bulk_create(played, batch_size=500)
        # Results: both captains confirm on the night, or the referee alone; the official approves next day.
        confirm_at = finished + dt.timedelta(minutes=10)
        if match.round_number % 2:
            result_services.result_confirm(match=match, user=_captain(home).user, now=confirm_at)
            result_services.result_confirm(match=match, user=_captain(away).user, now=confirm_at)
        else:
            result_services.result_confirm(match=match, user=match.referee, now=confirm_at)
        match = result_services.result_approve(
            match=match, user=official, reason="boem sheets checked against the hands played",
            now=dt.datetime.combine(finished.date() + dt.timedelta(days=1), dt.time(10), tzinfo=TZ),
        )
    stats.match_nights += 1
    return match


# --- The season -----------------------------------------------------------------------------------------

class Progress:
    """A plain progress bar on a text stream (no dependency): ``[#####.....] 12/56 match nights ...``."""

    def __init__(self, total: int, stream: TextIO | None, label: str = "match nights") -> None:
        self.total, self.stream, self.label = total, stream, label
        self.started = time.perf_counter()
        self.tty = bool(stream is not None and getattr(stream, "isatty", lambda: False)())
        self._last_decile = -1

    def update(self, done: int, note: str = "") -> None:
        if self.stream is None:
            return
        width = 30
        filled = width * done // max(self.total, 1)
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {self.label}  {note}  "
                f"{time.perf_counter() - self.started:5.1f} s")
        if self.tty:
            self.stream.write("\r" + line)
            if done >= self.total:
                self.stream.write("\n")
        else:
            decile = 10 * done // max(self.total, 1)
            if decile == self._last_decile:
                return
            self._last_decile = decile
            self.stream.write(line + "\n")
        self.stream.flush()


@contextlib.contextmanager
def _quiet_loggers(*names: str) -> Any:
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def demo_season_run(
    *, seed: int = 2026, clubs: int = 8, size: str = "full", progress: TextIO | None = sys.stderr,
    on_match: Callable[[Match], None] | None = None,
) -> DemoStats:
    """Build the demo union and play its whole league season; return the figures.

    :param seed: everything (names, tosses, deals, cards, strafs) follows from it: the same seed, the same
        season.
    :param clubs: number of clubs (2..12); 8 gives 56 match nights (home and away).
    :param size: ``"full"`` (75-minute halves, SAKBOC 1.2) or ``"small"`` (15-minute halves, for tests).
    :param progress: stream for the progress bar (``None``: quiet).
    :raises DemoExists: the demo union is already in the database.
    """
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}")
    started = time.perf_counter()
    stats = DemoStats()
    # E-mail to captains (fixtures, standings) would print to the console by the hundred: hold it in memory;
    # and keep the in-process task log ("Task ... succeeded") off the progress bar. With DEBUG on (make demo),
    # Django would keep the SQL of the last 9,000 queries, the hands' records in it: megabytes held for nothing.
    with (
        override_settings(MAILERS={"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}},
                          DEBUG=False),
        _quiet_loggers("celery", "matches"),
    ):
        from django.core import mail

        mail.outbox = []
        with transaction.atomic():
            union, competition, users = demo_union_build(seed=seed, clubs=clubs, size=size)
        teams = Team.objects.filter(competition=competition).select_related("club", "captain__user")
        squads = {
            team.pk: sorted(team.players.all(), key=lambda p: p.registration_number) for team in teams
        }
        matches = list(
            Match.objects.filter(competition=competition)
            .select_related("home__club", "home__captain__user", "away__club", "away__captain__user", "referee",
                            "competition__union")
            .order_by("round_number", "pk")
        )
        stats.matches = len(matches)
        rounds = max(m.round_number for m in matches)
        stop_at = len(matches) // 2 + 1  # one table stopped in the season, in the second half of the fixtures
        bar = Progress(len(matches), progress)
        official = users["official"]
        for index, match in enumerate(matches):
            demo_match_night_play(
                match=match, seed=seed, union=union, squads=squads, official=official, stop_table=index == stop_at,
                stats=stats,
            )
            if on_match is not None:
                on_match(match)
            last_of_round = index + 1 == len(matches) or matches[index + 1].round_number != match.round_number
            if last_of_round and match.round_number in (rounds // 2, rounds):
                result_services.standings_publish(
                    competition=competition, by=official,
                    title=f"After round {match.round_number}",
                    as_of=match.scheduled_start.date() + dt.timedelta(days=1),
                    now=dt.datetime.combine(match.scheduled_start.date() + dt.timedelta(days=1), dt.time(12),
                                            tzinfo=TZ),
                )
            bar.update(index + 1, f"{stats.hands:,} hands")
        stats.mails_held = len(mail.outbox)
    snapshot = StandingsSnapshot.objects.filter(competition=competition).order_by("-published_at", "-pk").first()
    stats.standings_top = [
        (row["position"], row["team_name"], row["league_points"], row["difference"]) for row in snapshot.rows[:3]
    ] if snapshot else []
    stats.boems_completed = Boem.objects.filter(table__match__competition=competition,
                                                status=Boem.Status.COMPLETED).count()
    stats.awards = Award.objects.filter(match__competition=competition).count()
    stats.accounts = demo_accounts()
    stats.seconds = time.perf_counter() - started
    return stats


# --- Tonight: a match in progress for a newcomer to play at the tables -----------------------------------

CUP_NAME = "Knock-out Cup"
TONIGHT_HALF_MINUTES = 8
"""Tonight's match is a practice night: two halves of 8 minutes and a 4-minute interval, about 20 minutes in all,
so that a newcomer plays a whole night (toss, halves, the interval hand, time) in one sitting. The season's
matches keep the union's lengths (SAKBOC 1.2: 75-minute halves)."""
TONIGHT_INTERVAL_MINUTES = 4


def demo_tonight_ensure(*, now: dt.datetime | None = None) -> Match | None:
    """A match of the demo union in progress now, for a newcomer to open a table on a phone and play: the one
    already running, else a new knock-out cup match between the league's top two clubs, started now (team
    sheets in, the toss won by the home side, SAKBOC 1.3) with its table links issued. Through the services,
    like the season; ``None`` when there is no demo union.

    The cup's teams are the league teams' clubs and squads (a player is in one team per competition, and the
    cup is another competition, SAKBOC 1.5). Each call after the match has ended starts another (a new round).
    """
    from django.utils import timezone

    from matches.night.table_links import table_links_ensure

    union = Union.objects.filter(name=UNION_NAME).first()
    if union is None:
        return None
    now = now or timezone.now()
    running = (Match.objects.filter(competition__union=union, competition__name=CUP_NAME)
               .exclude(phase__in=[Match.Phase.SCHEDULED, Match.Phase.FINISHED]).order_by("-pk").first())
    if running is not None and (running.first_half_started_at or now) > now - dt.timedelta(hours=4):
        return running
    league = Competition.objects.filter(union=union, name="Premier League").first()
    snapshot = StandingsSnapshot.objects.filter(competition=league).order_by("-published_at", "-pk").first()
    with (
        override_settings(MAILERS={"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}),
        _quiet_loggers("celery", "matches"),
        transaction.atomic(),
    ):  # the captains' fixture e-mail is held, as in the season
        cup = Competition.objects.filter(union=union, name=CUP_NAME, season=SEASON).first() or (
            competition_services.competition_create(union=union, name=CUP_NAME, season=SEASON,
                                                    kind=Competition.Kind.KNOCKOUT))
        if not cup.teams.exists():
            order = [row["team_id"] for row in snapshot.rows] if snapshot else []
            league_teams = sorted(Team.objects.filter(competition=league).select_related("club", "captain"),
                                  key=lambda t: order.index(t.pk) if t.pk in order else len(order) + t.pk)[:2]
            for seed, team in enumerate(league_teams, start=1):
                cup_team = club_services.team_create(club=team.club, competition=cup, name=f"{team.club.name}")
                for player in sorted(team.players.all(), key=lambda p: p.registration_number):
                    club_services.team_player_add(team=cup_team, player=player)
                club_services.team_captain_set(team=cup_team, player=_captain(team))
                Team.objects.filter(pk=cup_team.pk).update(seed=seed)
        home, away = list(cup.teams.order_by("seed", "pk"))[:2]
        start = now.replace(second=0, microsecond=0) - dt.timedelta(minutes=1)
        referee = get_user_model().objects.get(username="referee")
        rounds = cup.matches.count()
        match = competition_services.match_schedule(
            competition=cup, home=home, away=away, scheduled_start=start, venue="Athlone Civic Centre",
            round_number=rounds + 1, round_name="Tonight", referee=referee,
            half_minutes=TONIGHT_HALF_MINUTES, interval_minutes=TONIGHT_INTERVAL_MINUTES,
        )
        for team in (home, away):
            squad = sorted(team.players.all(), key=lambda p: p.registration_number)
            night_services.team_sheet_submit(match=match, team=team, partnerships={
                n: (squad[2 * n - 2], squad[2 * n - 1]) for n in range(1, 5)}, by=_captain(team).user, now=now)
        night_services.match_toss_record(match=match, winner=home, by=referee, now=now)
        match = night_clock.match_start(match=match, by=referee, now=now)
        table_links_ensure(match=match, by=referee, now=now)
    return match


def demo_tonight_people(match: Match) -> list[tuple[str, str, str]]:
    """Who runs tonight's match, as ``(username, name, what they do tonight)``: the two captains (home first)
    and the referee; a captain without an account is left out. Every password is :data:`DEMO_PASSWORD`."""
    people = []
    for team in (match.home, match.away):
        captain = team.captain
        if captain is not None and captain.user is not None:
            people.append((captain.user.username, captain.full_name, f"captain of {team.name}"))
    if match.referee is not None:
        people.append((match.referee.username, match.referee.get_full_name(), "referee of tonight's match"))
    return people


def demo_tonight_lines(match: Match, *, site: str) -> list[str]:
    """What to print about tonight's match: who captains its two teams and referees it (their accounts), where
    to open each table, the referee's dashboard."""
    from matches.models import TableLink
    from matches.night.table_links import code_display

    match = Match.objects.select_related("home__captain__user", "away__captain__user", "referee",
                                         "competition").get(pk=match.pk)
    links = TableLink.objects.filter(match=match, revoked_at__isnull=True).order_by("table_number")
    lengths = match_clock_lengths(match)
    league_half = match.competition.union.half_minutes
    lines = [f"Tonight's match is in progress: {match.home.name} v {match.away.name} ({match.competition}, "
             f"started {timezone_local(match.first_half_started_at):%H:%M})."]
    if lengths.half_minutes != league_half:
        lines.append(f"It is a practice night, short for this match only: two halves of {lengths.half_minutes} "
                     f"minutes and a {lengths.interval_minutes}-minute interval (a league night has {league_half}-"
                     "minute halves).")
    lines.append(f"Tonight's captains and referee (password for each: {DEMO_PASSWORD}):")
    lines += [f"  {username:<10} {name:<22} {role}" for username, name, role in demo_tonight_people(match)]
    lines.append(f"Open a table on a phone at {site}/table/ and type its code (or scan the QR codes on the "
                 "referee's dashboard):")
    lines += [f"  table {link.table_number}: {code_display(link.code)}    {site}/table/t/{link.secret}/"
              for link in links]
    lines.append(f"The referee's dashboard (sign in as referee): {site}/referee/matches/{match.pk}/; "
                 f"the public page: {site}/matches/{match.pk}/")
    return lines


def timezone_local(instant: dt.datetime | None) -> dt.datetime:
    from django.utils import timezone

    return timezone.localtime(instant) if instant else timezone.localtime()


def demo_accounts() -> list[tuple[str, str, str]]:
    """The demo accounts: ``(username, name, what it is for)``; every password is :data:`DEMO_PASSWORD`."""
    out = [(u, f"{f} {last}", role) for u, f, last, role in STAFF_ACCOUNTS]
    captains = Team.objects.filter(competition__union__name=UNION_NAME, captain__user__isnull=False).select_related(
        "captain__user", "club").order_by("captain__user__username")
    for team in captains:
        user = _captain(team).user
        assert user is not None  # captains with an account only (the filter above)
        if user.username == "captain":
            out.insert(2, (user.username, _captain(team).full_name, f"captain of {team.name}"))
    return out


def demo_summary(stats: DemoStats) -> list[str]:
    """The closing summary, line by line."""
    lines = [
        f"Demo season played in {stats.seconds:.1f} s (engine {stats.engine_seconds:.1f} s): "
        f"{stats.match_nights} match nights of {stats.matches}, 4 tables each.",
        f"  hands {stats.hands:,} (ou jol {stats.ou_jol_hands:,}, with roem {stats.roem_hands:,}); "
        f"strokes {stats.strokes:,} in {stats.stroke_entries:,} goings-on; boems completed {stats.boems_completed:,}",
        f"  strafs claimed {stats.strafs_claimed} (upheld by the engine {stats.strafs_upheld}, wrong strafs "
        f"reversed {stats.strafs_reversed}); substitutions {stats.substitutions}; tables stopped "
        f"{stats.tables_stopped}; awards {stats.awards}; captains' e-mails held {stats.mails_held}",
    ]
    if stats.standings_top:
        lines.append("  standings: " + "; ".join(
            f"{pos}. {name} {pts} pts ({diff:+d})" for pos, name, pts, diff in stats.standings_top))
    return lines


# --- A digest of what a season played (the benchmark and the tests pin it) -------------------------------

def demo_season_digest(competition: Competition) -> str:
    """A SHA-256 hex digest of what ``competition``'s season played and how it ended: every hand (its record,
    who went on, the strokes, roem, the straf decision and verdict, its boem and line), every boem-sheet line
    and boem, every award, every match's score, winner and result, the standings and each published snapshot.

    Rows are named by what they are (match by round and teams, table number, line sequence), never by primary
    key, so the digest stays the same when the writes are batched differently: the same seed must give the same
    digest, and a change that alters a hand or a result changes it.
    """
    import hashlib
    import json

    def when(instant: dt.datetime | None) -> str | None:
        return instant.astimezone(dt.UTC).isoformat() if instant else None

    teams: dict[int | None, str] = dict(Team.objects.filter(competition=competition).values_list("pk", "name"))
    out: list[Any] = []
    matches = Match.objects.filter(competition=competition).order_by("round_number", "scheduled_start", "pk")
    for match in matches:
        out.append(["match", match.round_number, teams[match.home_id], teams[match.away_id], match.phase,
                    match.home_score, match.away_score, teams.get(match.winner_id), match.result_status,
                    when(match.finished_at)])
        for table in MatchTable.objects.filter(match=match).order_by("number"):
            out.append(["table", table.number, table.status, table.stop_reason, teams.get(table.defaulting_team_id),
                        when(table.stopped_at)])
            boems: dict[int | None, int] = {b.pk: b.number for b in Boem.objects.filter(table=table)}
            for boem in Boem.objects.filter(table=table).order_by("number"):
                out.append(["boem", boem.number, boem.status, boem.home_strokes, boem.away_strokes,
                            teams.get(boem.winner_id), boem.points, when(boem.ended_at)])
            lines: dict[int | None, int] = {}
            for entry in BoemEntry.objects.filter(table=table).order_by("sequence"):
                lines[entry.pk] = entry.sequence
                out.append(["line", entry.sequence, entry.kind, teams.get(entry.team_id), entry.strokes,
                            entry.points, entry.points_claimed, boems.get(entry.boem_id), when(entry.recorded_at),
                            when(entry.confirmed_at), entry.struck, lines.get(entry.reverses_id)])
            for hand in PlayedHand.objects.filter(table=table).order_by("number"):
                out.append(["hand", hand.number, hand.half, when(hand.played_at), hand.record,
                            teams.get(hand.went_on_id), hand.strokes, hand.roem, hand.straf_decision, hand.verdict,
                            boems.get(hand.boem_id), lines.get(hand.entry_id)])
        for award in Award.objects.filter(match=match).order_by("created_at", "kind", "table_number"):
            out.append(["award", teams[award.team_id], award.kind, award.points, award.table_number, award.half])
    for row in competition.standings_rows.order_by("position"):
        out.append(["standing", row.position, teams[row.team_id], row.played, row.won, row.drawn, row.lost,
                    row.points_for, row.points_against, row.league_points])
    for snapshot in StandingsSnapshot.objects.filter(competition=competition).order_by("published_at", "pk"):
        out.append(["snapshot", snapshot.title, snapshot.as_of.isoformat(),
                    [[r["position"], r["team_name"], r["league_points"], r["difference"]] for r in snapshot.rows]])
    text = json.dumps(out, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


__all__ = [
    "DEMO_PASSWORD",
    "DemoExists",
    "DemoStats",
    "Progress",
    "demo_accounts",
    "demo_match_night_play",
    "demo_season_digest",
    "demo_season_run",
    "demo_summary",
    "demo_tonight_ensure",
    "demo_tonight_lines",
    "demo_tonight_people",
    "demo_union_build",
]

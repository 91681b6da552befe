"""Benchmark: a union's busiest match night under gunicorn, against a bare Django view served the same way.

What it measures, in one run against 127.0.0.1 (the load generator runs on the same CPUs as the server, so
every figure is a lower bound):

* **Entries.** 60 matches of one round are played through the HTTP API only, as their table devices and
  referees would: each referee (a token) tosses, starts the match and fetches the table links; 240 devices sign in
  with the tables' codes (``POST /api/table/sign-in/``; the sign-ins are timed too) and then each, every
  ``BENCH_CYCLE_SECONDS``, enters a going-on (``POST /api/table/goings-on/`` with its sheet's version) and, a
  second later, its confirmation by the opposing telman (``POST /api/table/entries/{id}/confirm/``). A real table
  goes on about once every 3½ minutes, and that is the default pace (``BENCH_CYCLE_SECONDS=210``: 240 tables
  write about 2.3 times a second); ``BENCH_CYCLE_SECONDS=20`` compresses the night about 10× to stress the
  writes. The offered and achieved write rates are printed with the compression. Each write's
  latency: p50, p90, p99, max, errors (a 409 is an error: one device per table tracks its own version, so there
  should be none).
* **Phones.** 2,000 phones follow the public match pages: each polls the live fragment ``GET /matches/{id}/live/``
  every 3 s with ``If-None-Match`` and the ETag it last got, as the page's htmx does (about 667 requests/s
  offered, spread over the matches), sent open-loop on schedule from ``BENCH_PHONE_THREADS`` threads on kept-alive
  connections. Achieved requests/s, latency, and how late the threads fell behind their schedule.
* **Visibility.** For the confirmations at ``BENCH_WATCHED`` matches, the seconds from the confirmation's 200
  until a phone of that match polling every 3 s holds a page that shows it: the end of its first poll whose page
  shows the match's live version read right after the answer (the table's own ``GET /api/table/``, read afresh;
  the version is bumped in the confirmation's own transaction) or a later one, by the ETag the phone holds. A
  public poll may reuse the version its worker read up to ``LIVE_VERSION_REUSE_SECONDS`` before (default 1 s), so
  the first poll after the answer does not always show it; this counts what the phone saw.
* **Capacity.** The most requests/s (closed loop, ``BENCH_THREADS`` client threads as fast as they go) of the bare
  view ``/bench/bare``, the live fragment and the live JSON ``GET /api/fixtures/{id}/live/`` (both with the ETags
  a phone holds, cycling over the matches): once before the night (no writes: every poll is a 304) and once with
  the devices still writing at the night's pace. Goal: the live fragment and the live JSON each at least half the
  bare view's rate.

Each phase also says how busy the CPUs were: gunicorn's processes, the load generator (this process) and the
whole machine (the database server and anything else running on it included). The table at the end gives each
goal, met or MISSED, and whether the phones' offered polls were served at all (when they are not, the client
threads fall behind their schedule, and the server sees fewer requests than 2,000 phones would send).

Set-up (before gunicorn starts, with the ORM, as the demo season is seeded for ``bench/load_standings.py``): a
fresh database (a SQLite file in a temporary folder; with ``DATABASE_URL`` naming PostgreSQL, a new database on
that server, dropped at the end), 60 matches scheduled to start now, 120 teams with their sheets in, a referee
each with an API token. gunicorn runs ``gunicorn.conf.py`` with 2 workers (``WEB_CONCURRENCY``) and production
settings (``bench/loadkit.py``); with ``REDIS_URL`` set it is the cache and broker, under keys of this run only,
deleted at the end. gunicorn is stopped at the end, always (also on Ctrl-C or SIGTERM).

The table sign-in throttle (``TABLE_SIGN_IN_RATE``, default 600 an hour per client address) admits the 240
sign-ins, which all come from 127.0.0.1 as a hall's Wi-Fi would.

Exit status 0 when it ran (a missed goal is printed as MISSED), non-zero when it could not run.

    .venv/bin/python bench/match_night_load.py                 # SQLite, local-memory cache
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/15 \\
        .venv/bin/python bench/match_night_load.py
    BENCH_SECONDS=30 BENCH_CYCLE_SECONDS=20 .venv/bin/python bench/match_night_load.py   # the writes 10x
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project first (its apps before bench's files)
from bench.loadkit import (  # noqa: E402 - after the project's folder is on the path
    BARE_PATH,
    PROJECT,
    Database,
    database_migrate,
    free_port,
    gunicorn_start,
    gunicorn_stop,
    gunicorn_wait,
    production_prepare,
    run,
    run_env,
)

SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
MATCHES = int(os.environ.get("BENCH_MATCHES", "60"))
PHONES = int(os.environ.get("BENCH_PHONES", "2000"))
POLL_SECONDS = float(os.environ.get("BENCH_POLL_SECONDS", "3"))
CYCLE_SECONDS = float(os.environ.get("BENCH_CYCLE_SECONDS", "210"))
CONFIRM_AFTER = float(os.environ.get("BENCH_CONFIRM_AFTER", "1"))
PHONE_THREADS = int(os.environ.get("BENCH_PHONE_THREADS", "16"))
THREADS = int(os.environ.get("BENCH_THREADS", "8"))
CAPACITY_SECONDS = float(os.environ.get("BENCH_CAPACITY_SECONDS", "6"))
CAPACITY_ROUNDS = 2
WATCHED = int(os.environ.get("BENCH_WATCHED", "12"))
WORKERS = os.environ.get("WEB_CONCURRENCY", "2")
SETUP_THREADS = 8
TABLES = 4
REAL_GOING_ON_EVERY = 210.0  # seconds: a real table goes on about once every 3-4 minutes
TIMEOUT = 10.0  # seconds, every request
IDLE_LIMIT = 4.0  # seconds: gunicorn.conf.py keeps an idle connection 5 s; a client idle longer reconnects first

GOAL_RATIO = 0.5
GOAL_ENTRY_P99_MS = 150.0
GOAL_VISIBLE_S = 5.0

PASSWORD = "klawerjas-bench"
LOG_PROBLEMS = ("Traceback", "database is locked", "OperationalError", "WORKER TIMEOUT", "Internal Server Error",
                "Error handling request")


# --- The world, seeded before gunicorn starts (a child process with Django set up) ---------------------------

def seed(matches: int, out: Path) -> None:
    """Write ``matches`` matches of round 1 into the database of ``DATABASE_URL``, each with both team sheets
    in (tables 1-4), scheduled to start a minute ago, and its own referee with an API token; save what the load
    needs (match ids, the referees' tokens, one referee's username and password) as JSON to ``out``."""
    import datetime as dt

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klawerjas_league.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group
    from django.db import transaction
    from django.utils import timezone
    from knox.models import AuthToken

    from clubs.models import GROUP_REFEREES, Club, Player, Team, TeamMembership, Union
    from matches.models import Competition, Match, Seat, TeamSheet

    first = ["Faizel", "Mymoena", "Ayesha", "Clive", "Shireen", "Riaan", "Yusuf", "Denver", "Natasha", "Ebrahim"]
    last = ["Adams", "Abrahams", "Jacobs", "Davids", "Petersen", "Hendricks", "Isaacs", "Arendse", "Fortuin"]
    now = timezone.now().replace(microsecond=0)
    user_model = get_user_model()
    with transaction.atomic():
        union = Union.objects.create(name="Bench Klawerjas Union", short_name="BKU")
        league = Competition.objects.create(union=union, name="Bench League", season="2026")
        clubs = Club.objects.bulk_create(Club(union=union, name=f"Club {n:03d}") for n in range(2 * matches))
        players = Player.objects.bulk_create(
            Player(union=union, club=club, registration_number=f"BKU-{c:03d}{k}", national_number=f"BKU-{c:03d}{k}",
                   first_name=first[(c + k) % 10], last_name=last[(3 * c + k) % 9])
            for c, club in enumerate(clubs) for k in range(8))
        squads = [players[8 * c:8 * c + 8] for c in range(len(clubs))]
        teams = Team.objects.bulk_create(
            Team(competition=league, club=club, name=f"{club.name} Firsts", captain=squads[c][0])
            for c, club in enumerate(clubs))
        TeamMembership.objects.bulk_create(
            TeamMembership(team=team, player=player, competition=league)
            for team, squad in zip(teams, squads, strict=True) for player in squad)
        password = make_password(PASSWORD)
        referees = user_model.objects.bulk_create(
            user_model(username=f"referee{n:02d}", first_name="Referee", last_name=f"{n:02d}", password=password)
            for n in range(matches))
        Group.objects.get(name=GROUP_REFEREES).user_set.add(*referees)
        tokens = [AuthToken.objects.create(user=user)[1] for user in referees]
        fixtures = Match.objects.bulk_create(
            Match(competition=league, round_number=1, home=teams[2 * n], away=teams[2 * n + 1],
                  venue=f"Hall {n:02d}", scheduled_start=now - dt.timedelta(minutes=1), referee=referees[n])
            for n in range(matches))
        sheets = TeamSheet.objects.bulk_create(
            TeamSheet(match=match, team=team, submitted_at=now)
            for match in fixtures for team in (match.home, match.away))
        squad_of = {team.pk: squad for team, squad in zip(teams, squads, strict=True)}
        Seat.objects.bulk_create(
            Seat(sheet=sheet, table_number=t, role=role, player=squad_of[sheet.team_id][2 * t - 2 + i])
            for sheet in sheets for t in range(1, TABLES + 1)
            for i, role in enumerate((Seat.Role.TELMAN, Seat.Role.BYSPELER)))
    out.write_text(json.dumps({
        "matches": [{"id": m.pk, "token": t} for m, t in zip(fixtures, tokens, strict=True)],
        "login": {"username": referees[0].username, "password": PASSWORD},
        "teams": len(teams), "players": len(players),
    }))


# --- HTTP ---------------------------------------------------------------------------------------------------

@dataclass
class Reply:
    """One answer: status (0: no answer: a timeout or a broken connection), ETag, body, start and seconds."""

    status: int
    etag: str | None
    body: bytes
    start: float
    seconds: float

    def json(self) -> dict:
        return json.loads(self.body)


class Client:
    """One client's kept-alive connection to the server, each request bounded by TIMEOUT.

    A connection idle for longer than IDLE_LIMIT is reopened before the next request (gunicorn closes it after
    5 s). A request whose connection the server closed or reset without an answer (a worker recycled by
    gunicorn's ``max_requests`` drops the connections it holds) is sent once more on a new connection, as a
    browser does; that is safe for the writes too, since each carries its sheet's version: a write already
    done would answer 409. ``reconnects`` counts them.
    """

    def __init__(self, port: int, headers: dict[str, str] | None = None) -> None:
        self.port = port
        self.headers = {"Host": "127.0.0.1", **(headers or {})}
        self.conn: http.client.HTTPConnection | None = None
        self.last = 0.0
        self.reconnects = 0

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    def request(self, method: str, path: str, body: dict | None = None, headers: dict[str, str] | None = None,
                ) -> Reply:
        """Send one request; a failure to get an answer is a Reply with status 0, never an exception."""
        sent = {**self.headers, **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        start = time.perf_counter()
        for attempt in (1, 2):
            if self.conn is None or time.monotonic() - self.last > IDLE_LIMIT:
                self.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
            try:
                self.conn.request(method, path, body=data, headers=sent)
                response = self.conn.getresponse()
                payload = response.read()
            except ConnectionError:  # reset, broken pipe, or closed without an answer
                self.close()
                if attempt == 1:
                    self.reconnects += 1
                    continue
                return Reply(0, None, b"", start, time.perf_counter() - start)
            except (OSError, http.client.HTTPException):  # a timeout, a garbled answer
                self.close()
                return Reply(0, None, b"", start, time.perf_counter() - start)
            self.last = time.monotonic()
            if response.will_close:
                self.close()
            return Reply(response.status, response.getheader("ETag"), payload, start, time.perf_counter() - start)
        raise AssertionError("unreachable")


def since(etag: str | None) -> dict[str, str] | None:
    """The conditional header of a poll: ``If-None-Match`` with the ETag last got, if any."""
    return {"If-None-Match": etag} if etag else None


# --- Figures ------------------------------------------------------------------------------------------------

@dataclass
class Series:
    """Latencies of one kind of request: (start, seconds, status) per request; list.append is thread-safe."""

    ok: tuple[int, ...]
    samples: list[tuple[float, float, int]] = field(default_factory=list)

    def add(self, reply: Reply) -> None:
        self.samples.append((reply.start, reply.seconds, reply.status))

    def within(self, start: float, end: float) -> Series:
        """The requests that started in [start, end)."""
        return Series(self.ok, [s for s in self.samples if start <= s[0] < end])

    def statuses(self) -> Counter:
        return Counter(status for _, _, status in self.samples)

    def errors(self) -> int:
        return sum(1 for _, _, status in self.samples if status not in self.ok)

    def line(self, seconds: float | None = None) -> str:
        """count, errors, p50/p90/p99/max in ms, and requests/s over ``seconds`` when given."""
        times = sorted(s[1] for s in self.samples)
        if not times:
            return "no requests"
        p = [percentile(times, q) * 1000 for q in (0.5, 0.9, 0.99)]
        rate = f"{len(times) / seconds:7.1f}/s  " if seconds else ""
        codes = ", ".join(f"{code or 'no answer'}: {n}" for code, n in sorted(self.statuses().items())
                          if code not in self.ok)
        return (f"{rate}p50 {p[0]:6.1f}  p90 {p[1]:6.1f}  p99 {p[2]:6.1f}  max {times[-1] * 1000:7.1f} ms  "
                f"({len(times)} requests, {self.errors()} errors{': ' + codes if codes else ''})")

    def p99_ms(self) -> float:
        times = sorted(s[1] for s in self.samples)
        return percentile(times, 0.99) * 1000 if times else float("nan")


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank percentile of an ordered list (as bench/load_standings.py computes its p99)."""
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def fan_out(jobs: Iterable, work: Callable, threads: int = SETUP_THREADS) -> list:
    """``work(job)`` for every job from ``threads`` threads; the results in order."""
    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(work, jobs))


# --- The match night ----------------------------------------------------------------------------------------

@dataclass
class Device:
    """A table's device: signed in with the table's code, it tracks its table's sheet version itself."""

    match: int
    table: int
    key: str = ""
    version: int = 0
    watched: bool = False
    confirmations: int = 0
    cycles: int = 0


@dataclass
class Night:
    """What the load threads record."""

    going_on: Series = field(default_factory=lambda: Series((201,)))
    confirm: Series = field(default_factory=lambda: Series((200,)))
    refetch: Series = field(default_factory=lambda: Series((200,)))
    phones: Series = field(default_factory=lambda: Series((200, 304)))
    phone_late: list[float] = field(default_factory=list)
    # watched match: (confirmation answer's end, the live version after it)
    confirmed_at: dict[int, list[tuple[float, int]]] = field(default_factory=dict)
    watcher_polls: dict[int, list[Poll]] = field(default_factory=dict)  # watched match: its phone's polls
    clients: list[Client] = field(default_factory=list)


def device_run(port: int, device: Device, night: Night, first_at: float, stop: threading.Event, rng: random.Random,
               *, cycle_seconds: float | None = None, on_confirmed: Callable[[Device, float], None] | None = None,
               ) -> None:
    """The device's night: every ``cycle_seconds`` (default CYCLE_SECONDS) from ``first_at``, a going-on and,
    CONFIRM_AFTER later, its confirmation, each with the sheet version the device holds, until ``stop`` (a cycle
    begun is finished). ``on_confirmed(device, answered_at)`` is called after each confirmation answered 200
    (``bench/national_final.py`` reads the live version then)."""
    client = Client(port, {"Authorization": f"Table {device.key}"})
    night.clients.append(client)
    due = first_at
    cycle = CYCLE_SECONDS if cycle_seconds is None else cycle_seconds
    while not stop.wait(max(0.0, due - time.perf_counter())):
        due += cycle
        device.cycles += 1
        strokes = 2 if rng.random() < 0.3 else 1
        reply = client.request("POST", "/api/table/goings-on/", {
            "side": rng.choice(("home", "away")), "strokes": strokes, "opponents_under_fifty": strokes == 2,
            "version": device.version})
        night.going_on.add(reply)
        if reply.status != 201:
            device_refetch(client, device, night)
            continue
        device.version += 1
        entry = reply.json()["id"]
        time.sleep(CONFIRM_AFTER)  # the opposing telman reads the line on the device
        reply = client.request("POST", f"/api/table/entries/{entry}/confirm/", {"version": device.version})
        night.confirm.add(reply)
        if reply.status != 200:
            device_refetch(client, device, night)
            continue
        device.version += 1
        device.confirmations += 1
        version = device_live_version(client) if device.watched else None
        if version is not None:
            night.confirmed_at[device.match].append((reply.start + reply.seconds, version))
        if on_confirmed is not None:
            on_confirmed(device, reply.start + reply.seconds)
    client.close()


def device_live_version(client: Client) -> int | None:
    """The match's live version now, as the table's own read gives it (``GET /api/table/``: read afresh, never
    the version a public poll reuses): the confirmation just answered made it or an earlier one. ``None`` when
    the read fails (that confirmation is then not counted for the visibility)."""
    reply = client.request("GET", "/api/table/")
    return etag_version(reply.etag) if reply.status == 200 else None


def device_refetch(client: Client, device: Device, night: Night) -> None:
    """After a refused or failed write: read the table's sheet version again (``GET /api/table/``)."""
    reply = client.request("GET", "/api/table/")
    night.refetch.add(reply)
    if reply.status == 200:
        data = reply.json()
        device.version = next(t["sheet_version"] for t in data["tables"] if t["number"] == data["table"])


def phones_run(port: int, matches: list[int], etags: dict[int, str], night: Night, start: float, end: float,
               thread: int, stop: threading.Event) -> None:
    """Phones ``thread``, ``thread + PHONE_THREADS``, … of PHONES, sent open-loop on one connection: phone ``i``
    follows match ``i mod len(matches)`` and polls its live fragment every POLL_SECONDS (first at a random
    moment of the first period) with ``If-None-Match`` and the ETag it last got, until ``end``."""
    rng = random.Random(1000 + thread)
    client = Client(port)
    night.clients.append(client)
    phones = range(thread, PHONES, PHONE_THREADS)
    held = {i: etags.get(matches[i % len(matches)], "") for i in phones}
    due = [(start + rng.uniform(0, POLL_SECONDS), i) for i in phones]
    heapq.heapify(due)
    while due and due[0][0] < end and time.perf_counter() < end:
        at, i = heapq.heappop(due)
        if stop.wait(max(0.0, at - time.perf_counter())):
            break
        match = matches[i % len(matches)]
        reply = client.request("GET", f"/matches/{match}/live/", headers=since(held[i]))
        night.phones.add(reply)
        night.phone_late.append(reply.start - at)
        if reply.status == 200 and reply.etag:
            held[i] = reply.etag
        heapq.heappush(due, (at + POLL_SECONDS, i))
    client.close()


def watcher_run(port: int, match: int, etag: str, night: Night, start: float, end: float, stop: threading.Event,
                ) -> None:
    """A phone of a watched match, on a connection of its own: polls every POLL_SECONDS on time, notes when each
    poll began and ended and the live version its page then shows (for the visibility of the confirmations)."""
    client = Client(port)
    night.clients.append(client)
    at = start + random.Random(match).uniform(0, POLL_SECONDS)
    polls = night.watcher_polls[match]
    while at < end and not stop.wait(max(0.0, at - time.perf_counter())):
        reply = client.request("GET", f"/matches/{match}/live/", headers=since(etag))
        if reply.status in (200, 304):
            etag = reply.etag or etag
            polls.append(Poll(reply.start, reply.start + reply.seconds, reply.status, etag_version(etag)))
        at += POLL_SECONDS
    client.close()


@dataclass
class Poll:
    """One poll of a watched phone: when it began and ended (``time.perf_counter()``), its status, and the live
    version the phone's page shows after it (``None`` before any)."""

    start: float
    end: float
    status: int
    version: int | None


def etag_version(etag: str | None) -> int | None:
    """The live version in a live ETag (the fragment's ``"{match}-{version}-{language}-{names}-part"``, weak
    ``W/"…"`` after gzip; the live JSON's ``"{match}-{version}-{language}-{names}"``), or ``None``."""
    found = re.search(r'"\d+-(\d+)-', etag or "")
    return int(found.group(1)) if found else None


def visibility(confirmations: list[tuple[float, int]], phones: list[list[Poll]]) -> tuple[list[float], int]:
    """For each confirmation (answered at, the live version it made) and each phone watching its match (its polls
    in order): the seconds from the answer to the end of the phone's first poll, ending after it, whose page shows
    that version or a later one. :returns: those seconds (sorted), and how many pairs had no such poll."""
    seconds, missing = [], 0
    for at, version in confirmations:
        for polls in phones:
            shown = next((p.end for p in polls if p.end >= at and p.version is not None and p.version >= version),
                         None)
            if shown is None:
                missing += 1
            else:
                seconds.append(shown - at)
    return sorted(seconds), missing


def night_visibility(night: Night, start: float, end: float) -> tuple[list[float], int]:
    """:func:`visibility` of the watched matches' confirmations answered in [start, end), each against its own
    match's watching phone."""
    seconds: list[float] = []
    missing = 0
    for match, confirmed in night.confirmed_at.items():
        found, unseen = visibility([c for c in confirmed if start <= c[0] < end], [night.watcher_polls[match]])
        seconds += found
        missing += unseen
    return sorted(seconds), missing


# --- Capacity -----------------------------------------------------------------------------------------------

def closed_loop(port: int, paths: dict[str, str] | None, seconds: float, stop: threading.Event,
                ) -> tuple[Series, float]:
    """THREADS clients as fast as they go for ``seconds``: the bare view (``paths`` None), or cycling over
    ``paths`` (address: the ETag a phone opened the page with) with ``If-None-Match`` and the ETag each client
    last got for that address, as a phone sends it."""
    series = Series((200, 304))
    deadline = time.perf_counter() + seconds
    addresses = list(paths or ())

    def client_run(n: int) -> None:
        client, held, k = Client(port), dict(paths or {}), n
        while time.perf_counter() < deadline and not stop.is_set():
            if paths is None:
                reply = client.request("GET", BARE_PATH)
            else:
                path = addresses[k % len(addresses)]
                k += 1
                reply = client.request("GET", path, headers=since(held.get(path)))
                if reply.status == 200 and reply.etag:
                    held[path] = reply.etag
            series.add(reply)
        client.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client_run, args=(n,), daemon=True) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return series, time.perf_counter() - started


def current_etags(port: int, matches: list[int]) -> dict[int, str]:
    """Each match's live ETag now (as a phone gets it when it opens the page), from one GET of its live fragment
    each, SETUP_THREADS at a time; a match that does not answer 200 is left out (its phones start without)."""

    def etag(match: int) -> str | None:
        reply = Client(port).request("GET", f"/matches/{match}/live/")
        return reply.etag if reply.status == 200 else None

    return {m: tag for m, tag in zip(matches, fan_out(matches, etag), strict=True) if tag}


def capacity(port: int, matches: list[int], stop: threading.Event) -> dict[str, tuple[Series, float]]:
    """Closed-loop requests/s of the bare view, the live fragment and the live JSON (the same ETags),
    CAPACITY_SECONDS each, in CAPACITY_ROUNDS alternating rounds (so that a change in the machine's load falls
    on all three)."""
    etags = current_etags(port, matches)
    addresses: dict[str, dict[str, str] | None] = {
        "bare view": None,
        "live fragment": {f"/matches/{m}/live/": etags.get(m, "") for m in matches},
        "live JSON": {f"/api/fixtures/{m}/live/": etags.get(m, "") for m in matches},
    }
    found: dict[str, tuple[Series, float]] = {}
    for _ in range(CAPACITY_ROUNDS):
        for name, paths in addresses.items():
            series, elapsed = closed_loop(port, paths, CAPACITY_SECONDS / CAPACITY_ROUNDS, stop)
            if name in found:
                series.samples.extend(found[name][0].samples)
                elapsed += found[name][1]
            found[name] = (series, elapsed)
    return found


def capacity_print(title: str, found: dict[str, tuple[Series, float]]) -> tuple[float, float]:
    """Print the capacity table; return the live fragment's and the live JSON's requests/s over the bare
    view's."""
    print(title)
    for name, (series, elapsed) in found.items():
        statuses = series.statuses()
        mix = f"  [{statuses[304]} × 304]" if name != "bare view" else ""
        print(f"  {name:14} {series.line(elapsed)}{mix}")
    bare = len(found["bare view"][0].samples) / found["bare view"][1]
    fragment = len(found["live fragment"][0].samples) / found["live fragment"][1]
    json_rate = len(found["live JSON"][0].samples) / found["live JSON"][1]
    print(f"  live fragment / bare view: {fragment / bare:.2f}; live JSON / bare view: {json_rate / bare:.2f}")
    return fragment / bare, json_rate / bare


# --- The run ------------------------------------------------------------------------------------------------

class Log:
    """gunicorn's log of the run: worker boots (one per worker at start, one more per recycled worker) and the
    lines that tell of a failure."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def text(self) -> str:
        return self.path.read_text(errors="replace") if self.path.exists() else ""

    def boots(self) -> int:
        return self.text().count("Booting worker with pid")

    def problems(self) -> Counter:
        text = self.text()
        return Counter({marker: text.count(marker) for marker in LOG_PROBLEMS if marker in text})


class Cpu:
    """CPU seconds used by gunicorn (its process group, the workers it has reaped included), by this process
    (the load generator) and by the whole machine (the database server and anything else running included), to
    say who had the CPUs in each phase."""

    def __init__(self, group: int) -> None:
        self.group = group
        self.marks: dict[str, tuple[float, float, float, float]] = {}

    def server(self) -> float:
        total, tick = 0, os.sysconf("SC_CLK_TCK")
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:  # the process ended meanwhile
                continue
            if int(fields[2]) == self.group:  # pgrp; then utime, stime, cutime, cstime
                total += sum(int(f) for f in fields[11:15])
        return total / tick

    @staticmethod
    def machine() -> float:
        """CPU seconds the machine spent busy since it started (``/proc/stat``: all but idle and iowait)."""
        ticks = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")

    def mark(self, name: str) -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        self.marks[name] = (time.perf_counter(), self.server(), usage.ru_utime + usage.ru_stime, self.machine())

    def between(self, first: str, last: str) -> str:
        """CPUs busy on average between two marks: gunicorn's, the load generator's, the whole machine's."""
        start, end = self.marks[first], self.marks[last]
        busy = [(b - a) / (end[0] - start[0]) for a, b in zip(start[1:], end[1:], strict=True)]
        return (f"CPUs busy: gunicorn {busy[0]:.2f}, load generator {busy[1]:.2f}, machine {busy[2]:.2f} of "
                f"{os.cpu_count()}")


def redis_cleanup(url: str, prefix: str) -> int:
    """Delete this run's keys (cache and broker, all under ``prefix``) from the Redis database of ``url``."""
    import redis

    server = redis.Redis.from_url(url)
    keys = list(server.scan_iter(match=f"{prefix}*", count=1000))
    if keys:
        server.delete(*keys)
    return len(keys)


def referees_prepare(port: int, world: dict) -> tuple[Series, Series, list[list[dict]]]:
    """Through the referees' API: one token from ``POST /api/auth/token/`` (the rest were issued at set-up);
    for every match the toss, the start and the table links. :returns: the login, the other requests, the links."""
    login = Series((200,))
    login.add(Client(port).request("POST", "/api/auth/token/", world["login"]))
    actions = Series((200,))

    def prepare(match: dict) -> list[dict]:
        client = Client(port, {"Authorization": f"Token {match['token']}"})
        base = f"/api/referee/matches/{match['id']}"
        for path, body in ((f"{base}/toss/", {"winner": "home"}), (f"{base}/start/", {})):
            reply = client.request("POST", path, body)
            actions.add(reply)
            if reply.status != 200:
                sys.exit(f"POST {path}: {reply.status} {reply.body[:300]!r}")
        reply = client.request("GET", f"{base}/table-links/")
        actions.add(reply)
        client.close()
        if reply.status != 200 or len(reply.json()) != TABLES:
            sys.exit(f"GET {base}/table-links/: {reply.status} {reply.body[:300]!r}")
        return reply.json()

    return login, actions, fan_out(world["matches"], prepare)


def devices_sign_in(port: int, devices: list[Device], links: dict[tuple[int, int], str]) -> tuple[Series, Series]:
    """Each device signs in with its table's code, then reads its table (``GET
    /api/table/``) for the sheet version. :returns: the sign-ins and the reads."""
    sign_ins, reads = Series((201,)), Series((200,))

    def sign_in(device: Device) -> None:
        client = Client(port, {"User-Agent": "match-night-load"})
        reply = client.request("POST", "/api/table/sign-in/", {"code": links[device.match, device.table]})
        sign_ins.add(reply)
        if reply.status != 201:
            return
        device.key = reply.json()["key"]
        client.headers["Authorization"] = f"Table {device.key}"
        reply = client.request("GET", "/api/table/")
        reads.add(reply)
        if reply.status == 200:
            data = reply.json()
            device.version = next(t["sheet_version"] for t in data["tables"] if t["number"] == data["table"])
        client.close()

    fan_out(devices, sign_in)
    return sign_ins, reads


def final_check(port: int, devices: list[Device]) -> tuple[int, int, int]:
    """After the night: every match's live JSON and live fragment, fetched afresh. :returns: the matches whose
    JSON shows exactly the confirmed lines the devices were answered for and whose fragment shows nothing
    waiting to be confirmed, the matches checked, and the confirmed lines shown."""
    expected = Counter()
    for device in devices:
        expected[device.match] += device.confirmations
    complete = lines = 0
    client = Client(port)
    for match in sorted({d.match for d in devices}):
        live = client.request("GET", f"/api/fixtures/{match}/live/")
        fragment = client.request("GET", f"/matches/{match}/live/")
        if live.status != 200 or fragment.status != 200:
            continue
        confirmed = sum(1 for t in live.json()["tables"] for e in t["entries"] if e["state"] == "confirmed")
        lines += confirmed
        if confirmed == expected[match] and b"waiting to be confirmed" not in fragment.body:
            complete += 1
    client.close()
    return complete, len({d.match for d in devices}), lines


def commit() -> str:
    """``"commit abc1234, "``: the checkout measured (with ``+changes`` when its files differ), or nothing."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=PROJECT, capture_output=True, text=True,
                              timeout=10).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=PROJECT,
                                 capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return f"commit {head}{' +changes' if changed else ''}, " if head else ""


def main() -> int:
    began = time.perf_counter()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop gunicorn on the way out (the finally below)
    db = Database()
    server = None
    stop = threading.Event()
    log = Log(db.folder / "gunicorn.log")
    redis_url = os.environ.get("REDIS_URL", "")
    prefix = f"klawerjas-bench-{uuid.uuid4().hex[:8]}:"
    try:
        env = run_env(db, without=("DJANGO_SETTINGS_MODULE", "CACHE_KEY_PREFIX"))  # Redis, when set, is used
        if redis_url:  # this run's keys only, deleted at the end
            env.update(CACHE_KEY_PREFIX=prefix.rstrip(":"), CELERY_BROKER_KEY_PREFIX=prefix)
        cache = f"Redis ({redis_url})" if redis_url else "local-memory cache (per worker)"
        print(f"Match night: {MATCHES} matches, {MATCHES * TABLES} table devices, {PHONES} phones; "
              f"fresh {db.vendor} database, {cache}", flush=True)

        clock = time.perf_counter()
        database_migrate(env)
        migrated = time.perf_counter() - clock
        clock = time.perf_counter()
        world_file = db.folder / "world.json"
        run([sys.executable, str(Path(__file__).resolve()), "--seed", str(MATCHES), str(world_file)], env, timeout=300)
        world = json.loads(world_file.read_text())
        seeded = time.perf_counter() - clock

        port = free_port()
        env["WEB_CONCURRENCY"] = WORKERS
        clock = time.perf_counter()
        production_prepare(env, port, db.folder)
        collected = time.perf_counter() - clock
        clock = time.perf_counter()
        server = gunicorn_start(env, log.path)
        gunicorn_wait(server, port, log.path)
        started = time.perf_counter() - clock
        threads = env.get("GUNICORN_THREADS", "2")
        print(f"Set-up: migrate {migrated:.1f} s; {MATCHES} matches, {world['teams']} teams, {world['players']} "
              f"players, team sheets, referees with tokens {seeded:.1f} s; collectstatic {collected:.1f} s; "
              f"gunicorn ({WORKERS} workers × {threads} threads, gunicorn.conf.py) on 127.0.0.1:{port} "
              f"answering after {started:.1f} s", flush=True)

        # --- the referees start their matches, the devices sign in (through the API) ------------------------
        clock = time.perf_counter()
        login, actions, links_per_match = referees_prepare(port, world)
        spent = time.perf_counter() - clock
        print(f"Referees: one token login (POST /api/auth/token/: a password hash checked): "
              f"{login.samples[0][1] * 1000:.0f} ms, status {login.samples[0][2]}")
        print(f"  toss, start, table links of {MATCHES} matches, {SETUP_THREADS} at a time, {spent:.1f} s: "
              f"{actions.line()}")
        matches = [m["id"] for m in world["matches"]]
        links = {(m, link["table"]): link["code"] for m, ls in zip(matches, links_per_match, strict=True)
                 for link in ls}
        devices = [Device(match=m, table=t, watched=n < WATCHED)
                   for n, m in enumerate(matches) for t in range(1, TABLES + 1)]
        clock = time.perf_counter()
        sign_ins, reads = devices_sign_in(port, devices, links)
        spent = time.perf_counter() - clock
        print(f"Table sign-in: {len(devices)} devices from one address, {SETUP_THREADS} at a time, "
              f"{spent:.1f} s, {len(sign_ins.samples) / spent:.0f}/s: {sign_ins.line()}")
        print(f"  first GET /api/table/ of each device: {reads.line()}")
        signed = [d for d in devices if d.key]
        if not signed:
            sys.exit(f"No device signed in: {sign_ins.statuses()}")

        # --- capacity before the night: nothing changes, so every poll but the first is a 304 -------------
        boots = log.boots()
        cpu = Cpu(server.pid)
        cpu.mark("quiet")
        quiet = capacity(port, matches, stop)
        cpu.mark("quiet end")
        quiet_ratio = capacity_print(f"Capacity before the night (no writes), {THREADS} client threads, "
                                     f"{CAPACITY_SECONDS:g} s per address, closed loop "
                                     f"({cpu.between('quiet', 'quiet end')}):", quiet)

        # --- the night ----------------------------------------------------------------------------------
        etags = current_etags(port, matches)  # the phones have just opened the page
        night = Night()
        night.confirmed_at = {m: [] for m in matches[:WATCHED]}
        night.watcher_polls = {m: [] for m in matches[:WATCHED]}
        devices_stop = threading.Event()
        start = time.perf_counter() + 1.0
        end = start + SECONDS
        rng = random.Random(7)
        workers = [threading.Thread(target=device_run, daemon=True, args=(
            port, d, night, start + rng.uniform(0, CYCLE_SECONDS), devices_stop, random.Random(n)))
            for n, d in enumerate(signed)]
        phones = [threading.Thread(target=phones_run, daemon=True, args=(
            port, matches, etags, night, start, end, n, stop)) for n in range(PHONE_THREADS)]
        watchers = [threading.Thread(target=watcher_run, daemon=True, args=(
            port, m, etags.get(m, ""), night, start, end + POLL_SECONDS + 2, stop)) for m in matches[:WATCHED]]
        load_before = os.getloadavg()[0]
        for t in (*workers, *phones, *watchers):
            t.start()
        time.sleep(max(0.0, start - time.perf_counter()))
        cpu.mark("night")
        for t in phones:
            t.join()
        time.sleep(max(0.0, end - time.perf_counter()))
        cpu.mark("night end")
        for t in watchers:
            t.join()
        night_boots = log.boots() - boots

        # --- capacity with the devices still writing at the night's pace -----------------------------
        busy_start = time.perf_counter()
        cpu.mark("busy")
        busy = capacity(port, matches, stop)
        cpu.mark("busy end")
        busy_end = time.perf_counter()
        devices_stop.set()
        for t in workers:
            t.join(timeout=2 * TIMEOUT + CONFIRM_AFTER + 5)
        load_after = os.getloadavg()[0]
        total_boots = log.boots() - boots

        # --- the figures --------------------------------------------------------------------------------
        offered = 2 * len(signed) / CYCLE_SECONDS
        real = 2 * len(signed) / REAL_GOING_ON_EVERY
        going_on, confirm = night.going_on.within(start, end), night.confirm.within(start, end)
        written = len(going_on.samples) + len(confirm.samples)
        print(f"The night: {SECONDS:g} s ({cpu.between('night', 'night end')}); machine load average "
              f"{load_before:.2f} before, {load_after:.2f} after")
        faster = ("; at this pace each match's live page also changes more often, so more polls get a 200 than on "
                  "a real night" if offered > 1.5 * real else "")
        print(f"  writes offered: {len(signed)} devices × (going-on + confirmation) every {CYCLE_SECONDS:g} s = "
              f"{offered:.0f}/s ({offered / real:.1f}× a real night's {real:.1f}/s: a table goes on about every "
              f"{REAL_GOING_ON_EVERY / 60:.1f} min{faster}); achieved {written / SECONDS:.1f}/s")
        print(f"  going-on      {going_on.line()}")
        print(f"  confirmation  {confirm.line()}")
        if night.refetch.samples:
            print(f"  version re-read after a refused write: {night.refetch.line()}")
        phones_night = night.phones.within(start, end)
        late = sorted(night.phone_late)
        offered_polls = PHONES / POLL_SECONDS
        print(f"  phones: offered {offered_polls:.0f}/s from {PHONE_THREADS} threads, achieved "
              f"{len(phones_night.samples) / SECONDS:.0f}/s, {phones_night.statuses()[304]} × 304: "
              f"{phones_night.line()}")
        if late:
            print(f"    sent late (the client threads behind their schedule): p50 {percentile(late, 0.5):.2f} s, "
                  f"p99 {percentile(late, 0.99):.2f} s, max {late[-1]:.2f} s")
        seen, unseen = night_visibility(night, start, end)
        if seen:
            print(f"  confirmation → seen by a phone polling every {POLL_SECONDS:g} s ({WATCHED} matches, "
                  f"{len(seen)} confirmations{f', {unseen} never shown on the phone' if unseen else ''}): "
                  f"p50 {percentile(seen, 0.5):.2f} s, p90 {percentile(seen, 0.9):.2f} s, max {seen[-1]:.2f} s")
        busy_ratio = capacity_print(f"Capacity during the night (the devices writing at {offered:.0f}/s offered), "
                                    f"{THREADS} client threads, {CAPACITY_SECONDS:g} s per address, closed loop "
                                    f"({cpu.between('busy', 'busy end')}):", busy)
        busy_writes = Series((201, 200), night.going_on.within(busy_start, busy_end).samples
                             + night.confirm.within(busy_start, busy_end).samples)
        print(f"  writes meanwhile (going-on and confirmation): {busy_writes.line()}")
        complete, checked, lines = final_check(port, signed)
        print(f"After the night: {complete} of {checked} matches show every confirmation the devices were answered "
              f"for ({lines} confirmed lines) on /api/fixtures/{{id}}/live/ and none waiting on /matches/{{id}}/live/")
        reconnects = sum(c.reconnects for c in night.clients)
        print(f"gunicorn: {total_boots} worker restarts during the load ({night_boots} in the night; "
              f"gunicorn.conf.py's max_requests); {reconnects} requests sent again on a new connection (the server "
              f"closed or reset one without an answer); log: "
              f"{dict(log.problems()) or 'no tracebacks, no database-locked errors, no worker timeouts'}")

        # --- the goals ----------------------------------------------------------------------------------
        entry_p99 = max(going_on.p99_ms(), confirm.p99_ms())
        entry_errors = going_on.errors() + confirm.errors()
        served = len(phones_night.samples) / SECONDS
        goals = [
            ("phones' polls served (the scenario)", f"{served:.0f}/s ({phones_night.statuses()[304] / max(1, len(
                phones_night.samples)):.0%} answered 304)",
             f"{offered_polls:.0f}/s", served >= 0.95 * offered_polls),
            ("live fragment ÷ bare view, req/s (night)", f"{busy_ratio[0]:.2f} (before the night {quiet_ratio[0]:.2f})",
             f"≥ {GOAL_RATIO}", busy_ratio[0] >= GOAL_RATIO),
            ("live JSON ÷ bare view, req/s (night)", f"{busy_ratio[1]:.2f} (before the night {quiet_ratio[1]:.2f})",
             f"≥ {GOAL_RATIO}", busy_ratio[1] >= GOAL_RATIO),
            ("entry p99, going-on / confirmation", f"{going_on.p99_ms():.0f} / {confirm.p99_ms():.0f} ms"
             f"{f', {entry_errors} errors' if entry_errors else ''}", f"≤ {GOAL_ENTRY_P99_MS:.0f} ms",
             entry_p99 <= GOAL_ENTRY_P99_MS and not entry_errors),
            ("confirmation → public page, max", f"{seen[-1]:.2f} s (p50 {percentile(seen, 0.5):.2f} s)"
             if seen else "not measured", f"≤ {GOAL_VISIBLE_S:.0f} s", bool(seen) and seen[-1] <= GOAL_VISIBLE_S),
        ]
        print("\nGoal                                        measured                          goal")
        for name, measured, goal, met in goals:
            print(f"{name:43} {measured:33} {goal:11} {'met' if met else 'MISSED'}")
        print(f"Run: {commit()}{db.vendor}, {cache}; gunicorn {WORKERS} workers × {threads} threads; "
              f"{MATCHES} matches, {len(signed)} devices, {PHONES} phones ({PHONE_THREADS} threads), "
              f"{THREADS} capacity threads; night {SECONDS:g} s, capacity {CAPACITY_SECONDS:g} s per address; "
              f"{os.cpu_count()} CPUs shared with the load generator (figures are lower bounds); "
              f"{time.perf_counter() - began:.0f} s in all")
        return 0
    except SystemExit as failure:
        if not isinstance(failure.code, int):  # it could not run (not a signal): say what gunicorn said
            print(f"gunicorn's log ends:\n{log.text()[-3000:]}", file=sys.stderr)
        raise
    finally:
        stop.set()
        gunicorn_stop(server)
        if redis_url:
            redis_cleanup(redis_url, prefix)
        db.drop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", nargs=2, metavar=("MATCHES", "OUT"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.seed:
        seed(int(arguments.seed[0]), Path(arguments.seed[1]))
        sys.exit(0)
    sys.exit(main())

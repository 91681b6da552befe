"""Benchmark: the national final (issue 40), 20,000 phones on one match's live fragment through nginx, with one
application node and then two.

What it runs, all on 127.0.0.1 and free ports (never 8000, never the machine's shared Redis):

* **The site.** Two application nodes: two gunicorn instances (``gunicorn.conf.py``, 2 workers × 2 threads each,
  production settings as ``bench/loadkit.py`` makes them, ``NUM_PROXIES=1`` as behind the shipped proxy, the same
  ``SECRET_KEY``), sharing one PostgreSQL database made for the run on the server of ``DATABASE_URL`` (default
  ``postgres://postgres@127.0.0.1:5432/postgres``; the database is created, migrated and dropped at the end) and
  one ``redis-server`` of the run's own (cache and broker; ``scripts/ensure-redis-server``). In front of them nginx
  (Debian's, ``scripts/ensure-nginx``) with the shipped snippets ``deploy/nginx/snippets/klawerjas-league-cache.conf``
  and ``-proxy.conf`` (the micro-cache: ``s-maxage=1``, ``stale-while-revalidate``, ``proxy_cache_lock``, its 304s
  to a phone's ``If-None-Match``, gzip), an ``upstream`` of one node or of both, 2 worker processes, and an access
  log of its own (``$upstream_cache_status`` per request). Everything is started by the run and stopped at its end,
  always (also on Ctrl-C or SIGTERM).
* **The final.** One match (seeded as ``bench/match_night_load.py`` seeds its matches: teams, sheets, a referee
  with a token), tossed and started through the referee's API; its 4 tables' devices sign in with the table codes
  (``POST /api/table/sign-in/``) and, through nginx, each enter a going-on (``POST /api/table/goings-on/``) and a
  second later its confirmation (``POST /api/table/entries/{id}/confirm/``) every ``BENCH_CYCLE_SECONDS`` (default
  60: a real table goes on about every 3½ minutes, so the writes run 3.5× a real final's pace, to measure more
  confirmations), spread evenly over the cycle.
* **20,000 phones** (``BENCH_PHONES``) follow the final's live fragment ``GET /matches/{id}/live/``: each polls
  every 3 s with ``If-None-Match`` and the ETag it got at its previous poll, with the headers of the page's htmx
  (``HX-Request``, ``Accept-Language``, ``Accept-Encoding: gzip``): 6,667 requests/s offered, **open loop** on a
  fixed schedule from the same machine, sent by wrk (Debian's, ``scripts/ensure-wrk``; the schedule, the held
  ETags and the counts in ``bench/national_final_phones.lua``) on ``BENCH_CONNECTIONS`` kept-alive connections
  (default 10,000, two phones to a connection: a process may hold at most 20,000 descriptors here, and wrk and
  nginx each need one per connection). A request whose slot comes while no connection is free goes out late, and
  how late is counted. Each phase lasts ``BENCH_SECONDS`` (default 60).
* **The watched phones.** ``BENCH_WATCHED`` (default 50) more phones, polling every 3 s through nginx from this
  process, note each poll's start, end and the live version their page shows (from the ETag they hold). For every
  confirmation answered 200 in the phase (the match's ``live_version`` is read from the database right after
  the answer), the seconds until each watched phone showed that version or a later one: goal ≤ 5 s on every
  watched phone for every confirmation.

What it prints, per phase (``--nodes 1``, ``--nodes 2``, or ``--nodes both``, the default: one node, then two):
the phones' offered and achieved requests/s, how late the schedule ran, the status mix (200 / 304 / others),
their latency as wrk measured it (p50, p90, p99, max), the share the proxy answered itself (``HIT``,
``UPDATING``, ``STALE`` in the access log) and each node's own request rate (its ``/metrics``, read directly
from 127.0.0.1 before and after: the live fragment and everything), the writes' latency, the visibility, the
errors (wrk's connection errors and timeouts, any answer ≥ 400 in the access log, a watched poll or a write
without an answer) and who had the CPUs: each node, nginx, wrk, this process (devices and watched phones),
Redis, and the rest of the machine (PostgreSQL and anything else running), with ``os.getloadavg()`` before and
after. Then a table of the goals (met or MISSED), one column per phase, and what the 2-core machine limits.

**What one 2-core machine limits.** The load generator, nginx, both nodes, PostgreSQL, Redis and this process
share the same two cores (and, on a shared development machine, other people's work too: the load averages
say how much). So the figures are lower bounds of what the proxy does on its own machine, and the second node
cannot add CPU: it adds workers on the same cores. With the micro-cache the nodes see about one request per
page and language a second plus the writes, so the phones cost the proxy and the load generator, not
the application, and one node to two changes little here; what two nodes buy (a node lost, a deploy without a
gap, more CPU for the writes and the pages nobody shares) needs two machines to measure.

Exit status 0 when it ran (a missed goal is printed as MISSED), non-zero when it could not run.

    .venv/bin/python bench/national_final.py                     # one node, then two; 60 s each
    BENCH_SECONDS=30 .venv/bin/python bench/national_final.py --nodes 2
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/national_final.py
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project first (its apps before bench's files)
from bench import match_night_load as night_kit  # noqa: E402 - after the project's folder is on the path
from bench.loadkit import (  # noqa: E402
    NGINX,
    PROJECT,
    Database,
    database_migrate,
    free_port,
    gunicorn_start,
    gunicorn_stop,
    gunicorn_wait,
    nginx_front,
    process_stop,
    production_prepare,
    redis_server_start,
    run,
    run_env,
)
from bench.match_night_load import Poll, etag_version, visibility  # noqa: E402 - the same figures as the night's

SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
PHONES = int(os.environ.get("BENCH_PHONES", "20000"))
POLL_SECONDS = 3.0
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "10000"))
WRK_THREADS = int(os.environ.get("BENCH_WRK_THREADS", "2"))
WATCHED = int(os.environ.get("BENCH_WATCHED", "50"))
CYCLE_SECONDS = float(os.environ.get("BENCH_CYCLE_SECONDS", "60"))
NGINX_WORKERS = int(os.environ.get("BENCH_NGINX_WORKERS", "2"))
NODE_WORKERS = "2"
TABLES = night_kit.TABLES
LEAD = 1.0  # seconds between starting the load and the phase's first slot (wrk connects meanwhile)
TAIL = 8.0  # seconds the watched phones go on polling after the phase, for its last confirmations
DATABASE_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
LUA = Path(__file__).resolve().parent / "national_final_phones.lua"
PHONE_HEADERS = {"HX-Request": "true", "Accept": "*/*", "Accept-Language": "en-ZA,en;q=0.9"}
LIVE_VIEW = "matches:match-live"
PROXY_ANSWERED = ("HIT", "UPDATING", "STALE")  # $upstream_cache_status of an answer nginx gave from its cache
ANSWERED = (200, 204, 304)  # a poll's answers: the part, or nothing new (304; 204 is the site's to htmx)

GOAL_VISIBLE_S = 5.0
GOAL_SERVED = 0.95  # of the offered polls


# --- The figures (pure: tests/bench/test_national_final.py) ---------------------------------------------------

def offered_rate(phones: int, poll_seconds: float) -> float:
    """Requests/s that ``phones`` phones polling every ``poll_seconds`` send: 20,000 / 3 s = 6,667/s."""
    return phones / poll_seconds


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank percentile of an ordered list; NaN for an empty one."""
    return night_kit.percentile(ordered, q) if ordered else float("nan")


@dataclass
class ProxyLog:
    """The access log of one phase (lines in ``loadkit.ACCESS_LOG_FORMAT``) within its time window.

    ``polls``: the GETs of the live fragment; ``statuses`` and ``cache`` their status and
    ``$upstream_cache_status`` counts; ``requests``: every request; ``failures``: answers ≥ 400 of any request;
    ``upstream``: requests nginx sent to each node (``$upstream_addr``)."""

    requests: int = 0
    polls: int = 0
    statuses: Counter = field(default_factory=Counter)
    cache: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)
    upstream: Counter = field(default_factory=Counter)

    def proxy_share(self) -> float:
        """The share of the polls nginx answered from its cache (:data:`PROXY_ANSWERED`)."""
        return sum(self.cache[c] for c in PROXY_ANSWERED) / self.polls if self.polls else float("nan")


def proxy_log_read(lines: Iterable[str], path: str, start: float, end: float) -> ProxyLog:
    """Count the access-log ``lines`` whose ``$msec`` (wall-clock seconds) is in [start, end); ``path`` is the
    live fragment's. A line that does not parse is skipped."""
    log = ProxyLog()
    for line in lines:
        parts = line.split(maxsplit=6)
        if len(parts) < 6:
            continue
        try:
            at, status = float(parts[0]), int(parts[1])
        except ValueError:
            continue
        if not start <= at < end:
            continue
        log.requests += 1
        if status >= 400:
            log.failures[status] += 1
        for address in (parts[6] if len(parts) > 6 else "-").split(", "):
            if address.strip() not in ("-", ""):
                log.upstream[address.strip()] += 1
        if parts[3] == "GET" and parts[5] == path:
            log.polls += 1
            log.statuses[status] += 1
            log.cache[parts[2]] += 1
    return log


_METRIC = re.compile(r'^klawerjas_http_requests_total\{(?P<labels>[^}]*)\}\s+(?P<value>[0-9.eE+-]+)$')


def node_requests(metrics: str) -> tuple[float, float]:
    """From a node's ``/metrics`` text: requests answered in all (the ``/metrics`` reads themselves left out)
    and those of the live fragment (:data:`LIVE_VIEW`)."""
    total = live = 0.0
    for line in metrics.splitlines():
        found = _METRIC.match(line.strip())
        if not found:
            continue
        labels = dict(re.findall(r'(\w+)="([^"]*)"', found.group("labels")))
        if "metrics" in labels.get("view", ""):
            continue
        value = float(found.group("value"))
        total += value
        if labels.get("view") == LIVE_VIEW:
            live += value
    return total, live


def wrk_result(output: str) -> dict | None:
    """The ``KLAWERJAS-PHONES {json}`` line the Lua script's ``done()`` prints, parsed, or ``None``."""
    for line in output.splitlines():
        if line.startswith("KLAWERJAS-PHONES "):
            return json.loads(line.split(" ", 1)[1])
    return None


def machine_limits(phases: list[Phase]) -> list[str]:
    """What the single 2-core machine limits, said plainly from the phases' figures."""
    lines = [f"The load generator (wrk), nginx, the nodes, PostgreSQL, Redis and the watched phones shared "
             f"{os.cpu_count()} CPUs; the figures are lower bounds of a proxy on a machine of its own."]
    for phase in phases:
        busy = phase.cpu
        lines.append(
            f"{phase.nodes} node{'s' if phase.nodes > 1 else ''}: the machine was busy {busy['machine']:.2f} of "
            f"{os.cpu_count()} CPUs (wrk {busy['wrk']:.2f}, nginx {busy['nginx']:.2f}, nodes "
            f"{busy['nodes']:.2f}, this process {busy['python']:.2f}, Redis {busy['redis']:.2f}, PostgreSQL and "
            f"everything else {busy['rest']:.2f}); load average {phase.load[0]:.1f} before, {phase.load[1]:.1f} "
            f"after.")
    lines.append("The proxy answers the phones from its micro-cache, so the nodes see a few requests a second "
                 "whatever their number: a second node adds workers on the same two cores, not CPU. Beyond that "
                 "the limit is the cores wrk and nginx share; what two nodes buy (a node lost, a deploy without a "
                 "gap, CPU for the writes and the unshared pages) needs two machines to measure.")
    return lines


# --- One phase --------------------------------------------------------------------------------------------

@dataclass
class Phase:
    """What one phase measured."""

    nodes: int
    phones: dict
    lead: float
    proxy: ProxyLog
    tail: ProxyLog  # the watched phones' polls after the phase
    node_rates: list[tuple[float, float]]  # per node: requests/s in all, of the live fragment
    night: night_kit.Night
    seen: list[float]
    unseen: int
    confirmations: int
    watched_statuses: Counter
    cpu: dict[str, float]
    load: tuple[float, float]

    def achieved(self) -> float:
        """The phones' requests answered per second of the schedule (wrk's time less the lead)."""
        return self.phones["requests"] / max(1e-9, self.phones["duration_us"] / 1e6 - self.lead)

    def phone_errors(self) -> int:
        return sum(self.phones["errors"].values())

    def write_errors(self) -> int:
        return self.night.going_on.errors() + self.night.confirm.errors()

    def errors(self) -> int:
        """Every failure: wrk's (no answer, a timeout, an answer ≥ 400), any answer ≥ 400 in the access log that
        wrk did not count, a watched poll or a write that failed."""
        wrk_status = self.phones["errors"]["status"]
        return (self.phone_errors() + max(0, sum(self.proxy.failures.values()) - wrk_status)
                + self.watched_errors() + self.write_errors())

    def watched_errors(self) -> int:
        return sum(n for status, n in self.watched_statuses.items() if status not in ANSWERED)


def watcher_run(port: int, path: str, etag: str, start: float, end: float, polls: list[Poll],
                stop: threading.Event, rng: random.Random) -> None:
    """A watched phone through nginx: polls ``path`` every POLL_SECONDS from a random moment of the first period
    until ``end``, with the ETag it holds, noting each poll (:class:`Poll`)."""
    client = night_kit.Client(port, PHONE_HEADERS)
    at = start + rng.uniform(0, POLL_SECONDS)
    while at < end and not stop.wait(max(0.0, at - time.perf_counter())):
        reply = client.request("GET", path, headers=night_kit.since(etag))
        if reply.status == 200 and reply.etag:
            etag = reply.etag
        polls.append(Poll(reply.start, reply.start + reply.seconds, reply.status, etag_version(etag)))
        at += POLL_SECONDS
    client.close()


def node_metrics(port: int) -> tuple[float, float]:
    """A node's requests so far (:func:`node_requests`), read from its ``/metrics`` directly."""
    reply = night_kit.Client(port).request("GET", "/metrics")
    status, body = reply.status, reply.body
    if status != 200:
        sys.exit(f"GET /metrics of the node on {port}: {status} {body[:200]!r}")
    return node_requests(body.decode())


class CpuClock:
    """CPU seconds of the run's processes (each in a process group of its own), of this process and of the whole
    machine, read at the start and the end of a phase."""

    def __init__(self, groups: dict[str, list[int]]) -> None:
        self.groups = groups

    def read(self) -> dict[str, float]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        found = {name: sum(night_kit.Cpu(g).server() for g in pids) for name, pids in self.groups.items()}
        found.update(python=usage.ru_utime + usage.ru_stime, machine=night_kit.Cpu.machine(),
                     clock=time.perf_counter())
        return found


def cpu_busy(before: dict[str, float], after: dict[str, float], wrk_seconds: float) -> dict[str, float]:
    """CPUs busy on average between two readings, per part; ``rest``: the machine less all the run's parts."""
    elapsed = after["clock"] - before["clock"]
    busy = {k: (after[k] - before[k]) / elapsed for k in after if k != "clock"}
    busy["wrk"] = wrk_seconds / elapsed
    ours = busy["nodes"] + busy["nginx"] + busy["redis"] + busy["python"] + busy["wrk"]
    busy["rest"] = max(0.0, busy["machine"] - ours)
    return busy


def phase_run(nodes: int, node_ports: list[int], node_pids: list[int], redis_pid: int, devices: list,
              match: int, db: Database, folder: Path) -> Phase:
    """One phase: nginx in front of the first ``nodes`` nodes, the phones (wrk), the watched phones and the
    devices for SECONDS, then the figures."""
    import psycopg

    here = folder / f"nginx-{nodes}-nodes"
    access_log = here / "access.log"
    path = f"/matches/{match}/live/"
    with nginx_front(here, [f"127.0.0.1:{p}" for p in node_ports[:nodes]], workers=NGINX_WORKERS,
                     connections=CONNECTIONS + 1024, access_log=access_log) as base:
        port = int(base.rsplit(":", 1)[1])
        opened = night_kit.Client(port, PHONE_HEADERS).request("GET", path)  # the phones open the page
        if opened.status != 200 or not opened.etag:
            sys.exit(f"GET {path} through nginx: {opened.status} {opened.body[:200]!r}")
        nginx_pid = int((here / "nginx.pid").read_text())
        clock = CpuClock({"nodes": node_pids[:nodes], "nginx": [nginx_pid], "redis": [redis_pid]})
        before_metrics = [node_metrics(p) for p in node_ports[:nodes]]
        load_before = os.getloadavg()[0]
        cpu_before = clock.read()

        start = time.perf_counter() + LEAD
        end = start + SECONDS
        wall = time.time() - time.perf_counter()  # wall-clock seconds = perf_counter + wall (the access log's $msec)
        monotonic = time.monotonic() - time.perf_counter()  # the Lua script's clock
        night, stop, stop_devices = night_kit.Night(), threading.Event(), threading.Event()
        confirmations: list[tuple[float, int]] = []
        lock = threading.Lock()
        versions = psycopg.connect(db.url, autocommit=True)

        def confirmed(device: night_kit.Device, at: float) -> None:
            with lock:
                row = versions.execute("SELECT live_version FROM matches_match WHERE id = %s", (match,)).fetchone()
            confirmations.append((at, int(row[0])))

        writers = [threading.Thread(target=night_kit.device_run, daemon=True, args=(
            port, device, night, start + CYCLE_SECONDS * (k + 0.5) / len(devices), stop_devices, random.Random(k)),
            kwargs={"cycle_seconds": CYCLE_SECONDS, "on_confirmed": confirmed}) for k, device in enumerate(devices)]
        watched: list[list[Poll]] = [[] for _ in range(WATCHED)]
        watchers = [threading.Thread(target=watcher_run, daemon=True, args=(
            port, path, opened.etag, start, end + TAIL, watched[n], stop, random.Random(100 + n)))
            for n in range(WATCHED)]
        out = here / "wrk.out"
        with open(out, "wb") as sink:
            phones = subprocess.Popen(
                ["wrk", "-t", str(WRK_THREADS), "-c", str(CONNECTIONS), "-d", f"{math.ceil(SECONDS + LEAD)}s",
                 "--timeout", "10s", "-s", str(LUA), base, "--", path, f"{offered_rate(PHONES, POLL_SECONDS):.3f}",
                 f"{POLL_SECONDS:g}", opened.etag, f"{start + monotonic:.6f}", str(WRK_THREADS)],
                stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            for t in (*writers, *watchers):
                t.start()
            _, status, usage = os.wait4(phones.pid, 0)
            phones.returncode = os.waitstatus_to_exitcode(status)
        finally:
            process_stop(phones)
        wrk_cpu = usage.ru_utime + usage.ru_stime
        time.sleep(max(0.0, end - time.perf_counter()))
        stop_devices.set()
        cpu_after = clock.read()
        after_metrics = [node_metrics(p) for p in node_ports[:nodes]]
        load_after = os.getloadavg()[0]
        for t in watchers:
            t.join()
        for t in writers:
            t.join(timeout=2 * night_kit.TIMEOUT + night_kit.CONFIRM_AFTER + 5)
        versions.close()
        time.sleep(1.5)  # the access log's buffer is flushed every second
    phone_figures = wrk_result(out.read_text(errors="replace"))
    if phone_figures is None or phones.returncode:
        sys.exit(f"wrk failed ({phones.returncode}):\n{out.read_text(errors='replace')[-3000:]}")
    with open(access_log, errors="replace") as lines:
        proxy = proxy_log_read(lines, path, start + wall, end + wall)
    with open(access_log, errors="replace") as lines:
        tail = proxy_log_read(lines, path, end + wall, end + TAIL + 2 + wall)
    elapsed = cpu_after["clock"] - cpu_before["clock"]
    rates = [((a[0] - b[0]) / elapsed, (a[1] - b[1]) / elapsed)
             for b, a in zip(before_metrics, after_metrics, strict=True)]
    counted = [(at, v) for at, v in confirmations if start <= at < end]
    seen, unseen = visibility(counted, watched)
    watched_statuses = Counter(p.status for polls in watched for p in polls)
    return Phase(nodes=nodes, phones=phone_figures, lead=LEAD, proxy=proxy, tail=tail, node_rates=rates, night=night,
                 seen=seen, unseen=unseen, confirmations=len(counted), watched_statuses=watched_statuses,
                 cpu=cpu_busy(cpu_before, cpu_after, wrk_cpu), load=(load_before, load_after))


def phase_print(phase: Phase) -> None:
    """The figures of one phase."""
    p, offered = phase.phones, offered_rate(PHONES, POLL_SECONDS)
    statuses = Counter({int(k): v for k, v in p["statuses"].items()})
    answered = sum(statuses.values())
    late = p["late"]
    lat = p["latency_us"]
    print(f"\n{phase.nodes} node{'s' if phase.nodes > 1 else ''} behind nginx, {SECONDS:g} s:")
    print(f"  phones: offered {offered:.0f}/s, achieved {phase.achieved():.0f}/s ({p['requests']} answers); "
          f"200: {statuses[200]}, 304: {statuses[304]}, others: {answered - statuses[200] - statuses[304]}; "
          f"latency p50 {lat['p50'] / 1000:.1f}  p90 {lat['p90'] / 1000:.1f}  p99 {lat['p99'] / 1000:.1f}  "
          f"max {lat['max'] / 1000:.1f} ms; wrk errors {p['errors']}")
    mean_late = late["sum"] / max(1, late["n"]) * 1000
    print(f"  schedule: {late['n']} of {p['requests']} sent late (mean {mean_late:.1f} ms, "
          f"max {late['max'] * 1000:.0f} ms, {late['over_half']} more than 0.5 s late)")
    cache = ", ".join(f"{k} {v}" for k, v in phase.proxy.cache.most_common())
    print(f"  proxy: {phase.proxy.polls} polls logged, {phase.proxy.proxy_share():.3%} answered from its cache "
          f"({cache}; statuses {dict(phase.proxy.statuses)}); requests passed on per node: "
          f"{dict(phase.proxy.upstream)}")
    if phase.proxy.statuses[204]:
        print(f"  note: nginx answered {phase.proxy.statuses[204]} polls 204 from its cache: the node's answer to "
              f"htmx for an unchanged part (a 304 made 204) to nginx's revalidation (proxy_cache_revalidate sends "
              f"If-None-Match, HX-Request passes on), kept as shareable and given to every phone for s-maxage, "
              f"also to phones holding an older version, which then keep it (see the visibility)")
    print(f"  after the phase ({TAIL:g} s, the watched phones alone): statuses {dict(phase.tail.statuses)}, "
          f"cache {dict(phase.tail.cache)}")
    for n, (total, live) in enumerate(phase.node_rates, 1):
        print(f"  node {n}: {total:.1f} requests/s answered, {live:.2f}/s of them the live fragment")
    print(f"  going-on      {phase.night.going_on.line()}")
    print(f"  confirmation  {phase.night.confirm.line()}")
    if phase.seen:
        print(f"  confirmation → shown on the watched phones ({phase.confirmations} confirmations × {WATCHED} "
              f"phones): p50 {percentile(phase.seen, 0.5):.2f} s, p90 {percentile(phase.seen, 0.9):.2f} s, "
              f"max {phase.seen[-1]:.2f} s{f'; {phase.unseen} never shown' if phase.unseen else ''}")
    else:
        print(f"  confirmation → shown: nothing measured ({phase.confirmations} confirmations, {phase.unseen} unseen)")
    print(f"  errors: {phase.errors()} (wrk {phase.phone_errors()}, access log ≥ 400 {dict(phase.proxy.failures)}, "
          f"watched polls {phase.watched_errors()} of {dict(phase.watched_statuses)}, writes {phase.write_errors()})")
    c = phase.cpu
    print(f"  CPUs busy: nodes {c['nodes']:.2f}, nginx {c['nginx']:.2f}, wrk {c['wrk']:.2f}, this process "
          f"{c['python']:.2f}, Redis {c['redis']:.2f}, PostgreSQL and the rest {c['rest']:.2f}; machine "
          f"{c['machine']:.2f} of {os.cpu_count()}; load average {phase.load[0]:.2f} → {phase.load[1]:.2f}")


def goals_print(phases: list[Phase]) -> None:
    """The goals, one column per phase."""
    offered = offered_rate(PHONES, POLL_SECONDS)
    head = "".join(f"{f'{p.nodes} node' + ('s' if p.nodes > 1 else ''):>28}" for p in phases)
    print(f"\n{'Goal':44}{head}")
    rows = [
        (f"phones' polls served, ≥ {GOAL_SERVED:.0%} of {offered:.0f}/s",
         lambda p: (f"{p.achieved():.0f}/s", p.achieved() >= GOAL_SERVED * offered)),
        (f"confirmation shown on every phone ≤ {GOAL_VISIBLE_S:g} s",
         lambda p: (f"max {p.seen[-1]:.2f} s" if p.seen else "none",
                    bool(p.seen) and p.seen[-1] <= GOAL_VISIBLE_S and not p.unseen)),
        ("errors: 0", lambda p: (str(p.errors()), p.errors() == 0)),
        ("share answered by the proxy", lambda p: (f"{p.proxy.proxy_share():.2%}", None)),
        ("nodes' requests/s (each)", lambda p: (" + ".join(f"{t:.1f}" for t, _ in p.node_rates), None)),
        ("phones' latency p99", lambda p: (f"{p.phones['latency_us']['p99'] / 1000:.1f} ms", None)),
        ("writes' p99 going-on / confirmation", lambda p: (
            f"{p.night.going_on.p99_ms():.0f} / {p.night.confirm.p99_ms():.0f} ms", None)),
        ("machine CPUs busy / load average after", lambda p: (f"{p.cpu['machine']:.2f} / {p.load[1]:.1f}", None)),
    ]
    for name, figure in rows:
        cells = ""
        for p in phases:
            text, met = figure(p)
            cells += f"{text + ('' if met is None else ' met' if met else ' MISSED'):>28}"
        print(f"{name:44}{cells}")


# --- The run ------------------------------------------------------------------------------------------------

def tools_ensure() -> None:
    """wrk and nginx, installed by their scripts when missing; exit when still missing."""
    if shutil.which("wrk") is None:
        subprocess.run([str(PROJECT / "scripts" / "ensure-wrk")], check=False)
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (scripts/ensure-wrk)")
    if NGINX is None:
        sys.exit("nginx is not installed (scripts/ensure-nginx)")


def main(phases_nodes: list[int]) -> int:
    began = time.perf_counter()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop everything on the way out (the finally below)
    tools_ensure()
    os.environ.setdefault("DATABASE_URL", DATABASE_SERVER)
    db = Database()
    servers: list = []
    redis = None
    try:
        redis, redis_url = redis_server_start(db.folder)
        env = run_env(db, without=("DJANGO_SETTINGS_MODULE", "CACHE_KEY_PREFIX", "REDIS_URL"))
        env.update(REDIS_URL=redis_url, WEB_CONCURRENCY=NODE_WORKERS, NUM_PROXIES="1")
        print(f"National final: {PHONES} phones every {POLL_SECONDS:g} s "
              f"({offered_rate(PHONES, POLL_SECONDS):.0f} requests/s offered, open loop, wrk on {CONNECTIONS} "
              f"connections), {WATCHED} watched phones, {TABLES} tables writing every {CYCLE_SECONDS:g} s; "
              f"fresh {db.vendor} database, Redis {redis_url}; load average {os.getloadavg()[0]:.2f}", flush=True)
        database_migrate(env)
        world_file = db.folder / "world.json"
        run([sys.executable, str(PROJECT / "bench" / "match_night_load.py"), "--seed", "1", str(world_file)], env,
            timeout=300)
        world = json.loads(world_file.read_text())

        count = max(phases_nodes)
        ports = [free_port() for _ in range(count)]
        production_prepare(env, ports[0], db.folder)
        for n, port in enumerate(ports, 1):
            node_env = dict(env, GUNICORN_BIND=f"127.0.0.1:{port}",
                            PROMETHEUS_MULTIPROC_DIR=str(db.folder / f"metrics-{n}"))
            Path(node_env["PROMETHEUS_MULTIPROC_DIR"]).mkdir()
            log = db.folder / f"node-{n}.log"
            servers.append((gunicorn_start(node_env, log), port, log))
        for server, port, log in servers:
            gunicorn_wait(server, port, log)
        threads = env.get("GUNICORN_THREADS", "2")
        print(f"Nodes: {count} gunicorn ({NODE_WORKERS} workers × {threads} threads each) on "
              f"{', '.join(f'127.0.0.1:{p}' for p in ports)}; nginx {NGINX_WORKERS} workers", flush=True)

        # the referee starts the final, the tables' devices sign in (on the first node: set-up, not measured)
        _login, _actions, links = night_kit.referees_prepare(ports[0], world)
        match = world["matches"][0]["id"]
        codes = {(match, link["table"]): link["code"] for link in links[0]}
        devices = [night_kit.Device(match=match, table=t) for t in range(1, TABLES + 1)]
        sign_ins, _reads = night_kit.devices_sign_in(ports[0], devices, codes)
        if not all(d.key for d in devices):
            sys.exit(f"Not every device signed in: {sign_ins.statuses()}")

        phases = []
        for nodes in phases_nodes:
            phase = phase_run(nodes, ports, [s[0].pid for s in servers], redis.pid, devices, match, db, db.folder)
            phase_print(phase)
            phases.append(phase)
        goals_print(phases)
        print("\nWhat the single machine limits:")
        for line in machine_limits(phases):
            print(f"  {line}")
        problems = {f"node {n}": dict(night_kit.Log(log).problems()) for n, (_, _, log) in enumerate(servers, 1)}
        print(f"Run: {night_kit.commit()}{db.vendor}; {PHONES} phones on {CONNECTIONS} connections, wrk "
              f"{WRK_THREADS} threads; {WATCHED} watched; {SECONDS:g} s per phase; nodes' logs: "
              f"{ {k: v for k, v in problems.items() if v} or 'no tracebacks, no worker timeouts'}; "
              f"{time.perf_counter() - began:.0f} s in all")
        return 0
    finally:
        for server, _port, _log in servers:
            gunicorn_stop(server)
        process_stop(redis)
        db.drop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", choices=("1", "2", "both"), default="both",
                        help="one node behind nginx, two, or one and then two (default)")
    arguments = parser.parse_args()
    sys.exit(main([1, 2] if arguments.nodes == "both" else [int(arguments.nodes)]))

"""Benchmark: the writes of a match night, in-process on SQLite (issue 23): a going-on entered at the table and
its confirmation, through the table's API (``POST /api/table/goings-on/``, ``…/entries/{id}/confirm/``) and its
page (``POST /table/sheet/going-on/``, ``…/confirm/``, as the offline queue sends them, JSON), and a team sheet
submitted (``matches.night.services.team_sheet_submit``, what the captain's page calls).

Set-up: a fresh SQLite file, migrated; two matches playing now (4 tables each, both sheets in), one for the API
and one for the page, each table's device signed in. Each table's telmen then go on 1 stroke in turn, each
going-on confirmed by the other side, ``ROUNDS`` times a table (the sheet grows as on a night: every write scores
the table's whole sheet again). Team sheets: ``SHEETS`` scheduled matches, each side's sheet submitted, then
submitted again with the partnerships changed (the seats replaced).

Prints p50, p99 and the worst in milliseconds per kind of write, and the targets (issue 23): a going-on
≤ 15 ms p50 and ≤ 50 ms p99, a team sheet ≤ 30 ms. The Django test client in this process: the figures include
the middleware, the view and the service, not a network or a web server.

    .venv/bin/python bench/table_writes.py [ROUNDS] [SHEETS]
"""

import os
import statistics
import sys
import time
import uuid

from inprocess import django_setup

django_setup("writes.sqlite3", sqlite_always=True)

from datetime import timedelta  # noqa: E402

from django.core.management import call_command  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

GOING_ON_P50_MS, GOING_ON_P99_MS, TEAM_SHEET_MS = 15.0, 50.0, 30.0


def percentiles(label: str, samples: list[tuple[float, float]], target: str = "") -> None:
    """Print p50, p99 and the worst of ``samples`` (wall-clock, CPU seconds) in milliseconds, and the CPU p50
    (on a busy machine the wall clock includes the time the write waited for a CPU)."""
    ordered = sorted(wall for wall, _cpu in samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    cpu = statistics.median(cpu for _wall, cpu in samples)
    print(f"{label:<30} n={len(ordered):<4} p50 {statistics.median(ordered) * 1000:6.1f} ms   "
          f"p99 {p99 * 1000:6.1f} ms   max {ordered[-1] * 1000:6.1f} ms   CPU p50 {cpu * 1000:5.1f} ms{target}")


def timed(samples: list[tuple[float, float]], call, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN201
    """``call(*args, **kwargs)``, its wall-clock and CPU time appended to ``samples`` (seconds)."""
    started, cpu = time.perf_counter(), time.process_time()
    result = call(*args, **kwargs)
    samples.append((time.perf_counter() - started, time.process_time() - cpu))
    return result


def playing_match():  # noqa: ANN201
    from tests.factories import match_started

    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    return match_started(start=start, home__squad=10, away__squad=10)


def api_writes(rounds: int) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Goings-on and confirmations through ``/api/table/``: one device per table, as a table's app sends them."""
    from matches.night.table_links import table_links_ensure

    match = playing_match()
    devices = []
    for link in table_links_ensure(match=match):
        client = Client()
        answer = client.post("/api/table/sign-in/", {"code": link.code}, content_type="application/json")
        assert answer.status_code == 201, answer.content
        devices.append([client, {"HTTP_AUTHORIZATION": f"Table {answer.json()['key']}"}, 0])
    goings_on: list[tuple[float, float]] = []
    confirms: list[tuple[float, float]] = []
    for number in range(rounds):
        for device in devices:
            client, auth, version = device
            answer = timed(goings_on, client.post,
                "/api/table/goings-on/", {"side": "home" if number % 2 else "away", "strokes": 1, "version": version},
                content_type="application/json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()), **auth)
            assert answer.status_code == 201, answer.content
            entry = answer.json()
            answer = timed(confirms, client.post,
                f"/api/table/entries/{entry['id']}/confirm/", {"version": version + 1},
                content_type="application/json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()), **auth)
            assert answer.status_code == 200, answer.content
            device[2] = version + 2
    return goings_on, confirms


def page_writes(rounds: int) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Goings-on and confirmations through the table's page (``/table/sheet/…``), JSON, as its offline queue
    sends them (``client_id`` its idempotency key)."""
    from matches.night.table_links import table_links_ensure

    match = playing_match()
    devices = []
    for link in table_links_ensure(match=match):
        client = Client()
        client.get(reverse("tables:open", args=[link.secret]))
        devices.append([client, 0])
    goings_on: list[tuple[float, float]] = []
    confirms: list[tuple[float, float]] = []
    for number in range(rounds):
        for device in devices:
            client, version = device
            answer = timed(goings_on, client.post,
                reverse("tables:going-on"), {"side": "home" if number % 2 else "away", "strokes": 1,
                                             "version": version, "client_id": str(uuid.uuid4())},
                HTTP_ACCEPT="application/json")
            assert answer.status_code == 201, answer.content
            entry = answer.json()["entry"]
            answer = timed(confirms, client.post,
                reverse("tables:confirm", args=[entry]), {"version": version + 1, "client_id": str(uuid.uuid4())},
                HTTP_ACCEPT="application/json")
            assert answer.status_code == 200, answer.content
            device[1] = version + 2
    return goings_on, confirms


def team_sheets(count: int) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """``team_sheet_submit`` for both sides of ``count`` scheduled matches, then again with the partnerships
    changed (each table's telman and byspeler swapped with the next table's)."""
    from matches.night import services as night_services
    from tests.factories import MatchFactory, squad

    matches = [MatchFactory(home__squad=10, away__squad=10) for _ in range(count)]
    first: list[tuple[float, float]] = []
    again: list[tuple[float, float]] = []
    for samples, shift in ((first, 0), (again, 2)):
        for match in matches:
            for team in (match.home, match.away):
                players = squad(team)
                players = players[shift:8] + players[:shift]
                partnerships = {n: (players[2 * n - 2], players[2 * n - 1]) for n in range(1, 5)}
                timed(samples, night_services.team_sheet_submit, match=match, team=team, partnerships=partnerships)
    return first, again


def main(rounds: int, sheets: int) -> int:
    call_command("migrate", verbosity=0)
    with override_settings(DEBUG=False):  # no query log, as served
        api_on, api_confirm = api_writes(rounds)
        page_on, page_confirm = page_writes(rounds)
        sheet_first, sheet_again = team_sheets(sheets)
    on_target = f"   (target p50 <= {GOING_ON_P50_MS:.0f} ms, p99 <= {GOING_ON_P99_MS:.0f} ms)"
    print(f"SQLite, in-process (Django test client); {rounds} goings-on a table, 4 tables a match")
    percentiles("going-on, API", api_on, on_target)
    percentiles("going-on, page (JSON)", page_on, on_target)
    percentiles("confirmation, API", api_confirm)
    percentiles("confirmation, page (JSON)", page_confirm)
    both = api_on + page_on
    ordered = sorted(wall for wall, _cpu in both)
    p50, p99 = statistics.median(ordered), ordered[round(0.99 * (len(ordered) - 1))]
    print(f"goings-on (API and page) p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms: "
          f"{'met' if p50 * 1000 <= GOING_ON_P50_MS and p99 * 1000 <= GOING_ON_P99_MS else 'NOT met'}")
    sheet_target = f"   (target <= {TEAM_SHEET_MS:.0f} ms)"
    percentiles("team sheet, first submit", sheet_first, sheet_target)
    percentiles("team sheet, submitted again", sheet_again, sheet_target)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} (5-minute {load[1]:.2f}; {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 40, int(sys.argv[2]) if len(sys.argv) > 2 else 40))

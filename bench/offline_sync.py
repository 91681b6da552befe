"""Load-shedding: how long four table phones take to send what they queued while the network was down.

A fresh database (SQLite, or PostgreSQL beside ``DATABASE_URL``'s) with one match started; gunicorn
(``gunicorn.conf.py``, production settings) on 127.0.0.1 and a free port, started here and always stopped. Four
phones sign in at tables 1-4 through the table pages (the QR link) and then send their queue as the page's
``static/js/table-queue.js`` does when the network returns: each entry in order, ``Accept: application/json``,
its client id as ``client_id`` and ``Idempotency-Key``, and the sheet version it was entered on (the page's,
plus one per entry ahead of it). 50 entries a phone, 200 in all: 25 goings-on, each confirmed by the opposing
telman. The four phones send at the same time.

Then every phone sends its whole queue again (every answer lost, say): each entry must be answered from the
stored result, writing nothing. Prints both times and checks the rows in the database: 100 goings-on, all
confirmed, 200 idempotency records.

Goal: the 200 entries sync in at most 10 s. Run: ``python bench/offline_sync.py`` (about a minute with the
set-up; everything bounded in time).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.loadkit import (  # noqa: E402 - the project's folder first
    Database,
    database_migrate,
    gunicorn_serve,
    gunicorn_stop,
    run,
    run_env,
)

TABLES = 4
GOINGS_ON = 25  # per phone; each confirmed: 50 entries a phone
GOAL_SECONDS = 10.0
TIMEOUT = 10.0  # seconds, every request
DEADLINE = 120.0  # seconds, the whole sync at most


def seed(out: Path) -> None:
    """One match started a minute ago, both team sheets in, its table links; their secrets into ``out``."""
    import datetime as dt

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klawerjas_league.settings")
    django.setup()
    from django.utils import timezone

    from matches.night import clock as night_clock
    from matches.night import services as night_services
    from matches.night import table_links
    from tests.factories import match_with_sheets

    start = timezone.now().replace(microsecond=0) - dt.timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start, home__name="Athlone Aces", away__name="Mitchells Plain Manels")
    night_services.match_toss_record(match=match, winner=match.home, now=start - dt.timedelta(minutes=4))
    night_clock.match_start(match=match, now=start)
    links = table_links.table_links_ensure(match=match)
    out.write_text(json.dumps({"match": match.pk, "links": {link.table_number: link.secret for link in links}}))


def check(match_id: int) -> dict:
    """What the database holds for the match's tables after the sync."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klawerjas_league.settings")
    django.setup()
    from matches.models import BoemEntry
    from tables.models import TableWrite

    entries = BoemEntry.objects.filter(table__match_id=match_id)
    return {"goings_on": entries.filter(kind="stroke").count(),
            "confirmed": entries.filter(kind="stroke", confirmed_at__isnull=False).count(),
            "keys": TableWrite.objects.filter(match_id=match_id).count()}


class Phone:
    """A table's phone: its session and CSRF cookies, and its queue of entries."""

    def __init__(self, port: int, table: int) -> None:
        self.port, self.table = port, table
        self.cookies: dict[str, str] = {}
        self.queue: list[dict] = []
        self.statuses: list[int] = []
        self.replayed = 0

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        headers = {"Host": "127.0.0.1", "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = urlencode(body)
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
                            "X-CSRFToken": self.cookies.get("csrftoken", ""),
                            "Idempotency-Key": body["client_id"]})
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def sign_in(self, secret: str) -> None:
        status, _headers, _body = self.request("GET", f"/table/t/{secret}/")
        assert status == 302, f"table {self.table}: the QR link answered {status}"
        status, _headers, _body = self.request("GET", "/table/sheet/")
        assert status == 200 and "csrftoken" in self.cookies, f"table {self.table}: the sheet answered {status}"

    def queue_entries(self) -> None:
        """What the phone queued offline: goings-on (sides in turn, 1 stroke), each confirmed."""
        version = 0
        for n in range(GOINGS_ON):
            going = {"client_id": str(uuid.uuid4()), "side": "home" if n % 2 == 0 else "away", "strokes": "1",
                     "version": str(version)}
            self.queue.append({"kind": "going_on", "fields": going})
            self.queue.append({"kind": "confirm", "ref": going["client_id"],
                               "fields": {"client_id": str(uuid.uuid4()), "version": str(version + 1)}})
            version += 2

    def sync(self) -> None:
        """Send the queue in order, as the page does (a going-on's entry id resolves its confirmation)."""
        sent: dict[str, int] = {}
        for item in self.queue:
            if item["kind"] == "going_on":
                path = "/table/sheet/going-on/"
            else:
                path = f"/table/sheet/entries/{sent[item['ref']]}/confirm/"
            status, _headers, body = self.request("POST", path, item["fields"])
            self.statuses.append(status)
            answer = json.loads(body)
            if not answer.get("ok"):
                raise RuntimeError(f"table {self.table}: {status} {answer.get('message')}")
            self.replayed += bool(answer.get("replayed"))
            if item["kind"] == "going_on":
                sent[item["fields"]["client_id"]] = answer["entry"]


def sync_all(phones: list[Phone]) -> float:
    """All phones send their queues at once; the seconds until the last is done."""
    errors: list[BaseException] = []

    def work(phone: Phone) -> None:
        try:
            phone.sync()
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(phone,), daemon=True) for phone in phones]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.1, DEADLINE - (time.perf_counter() - began)))
    spent = time.perf_counter() - began
    if any(thread.is_alive() for thread in threads):
        raise SystemExit(f"the sync did not finish within {DEADLINE:g} s")
    if errors:
        raise SystemExit(f"the sync failed: {errors[0]}")
    return spent


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop gunicorn on the way out (the finally below)
    db = Database()
    server = None
    try:
        # the local-memory cache (no REDIS_URL): this bench is about the writes
        env = run_env(db, without=("DJANGO_SETTINGS_MODULE", "CACHE_KEY_PREFIX", "REDIS_URL"))
        database_migrate(env)
        world_file = db.folder / "world.json"
        run([sys.executable, str(Path(__file__).resolve()), "--seed", str(world_file)], env, timeout=300)
        world = json.loads(world_file.read_text())
        server, port = gunicorn_serve(env, db.folder, db.folder / "gunicorn.log")
        workers, threads = env.get("WEB_CONCURRENCY", "2"), env.get("GUNICORN_THREADS", "2")
        print(f"Offline sync: {TABLES} table phones, {2 * GOINGS_ON} queued entries each "
              f"({TABLES * 2 * GOINGS_ON} in all); fresh {db.vendor} database; gunicorn ({workers} workers × "
              f"{threads} threads) on 127.0.0.1:{port}", flush=True)

        phones = [Phone(port, table) for table in range(1, TABLES + 1)]
        for phone in phones:
            phone.sign_in(world["links"][str(phone.table)])
            phone.queue_entries()
        first = sync_all(phones)
        total = sum(len(phone.queue) for phone in phones)
        verdict = "met" if first <= GOAL_SECONDS else "MISSED"
        print(f"Sync: {total} entries from {TABLES} phones at once in {first:.2f} s "
              f"({total / first:.0f} entries/s; goal ≤ {GOAL_SECONDS:g} s: {verdict})")
        for phone in phones:
            phone.replayed = 0
        again = sync_all(phones)
        replayed = sum(phone.replayed for phone in phones)
        print(f"Replay: the same {total} entries sent again in {again:.2f} s: {replayed} answered from the stored "
              "result")
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--check", str(world["match"])],
                             env={**env, "DJANGO_SETTINGS_MODULE": "klawerjas_league.settings"},
                             capture_output=True, text=True, timeout=120, check=True)
        rows = json.loads(out.stdout.strip().splitlines()[-1])
        expected = {"goings_on": TABLES * GOINGS_ON, "confirmed": TABLES * GOINGS_ON, "keys": total}
        print(f"Database: {rows['goings_on']} goings-on, {rows['confirmed']} confirmed, {rows['keys']} idempotency "
              f"records (expected {expected['goings_on']}, {expected['confirmed']}, {expected['keys']})")
        ok = rows == expected and replayed == total and first <= GOAL_SECONDS
        return 0 if ok else 1
    finally:
        gunicorn_stop(server)
        db.drop()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--seed":
        seed(Path(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--check":
        print(json.dumps(check(int(sys.argv[2]))))
    else:
        sys.exit(main())

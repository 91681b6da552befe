"""Benchmark: what a phone on prepaid data pays, in bytes, for the public pages and for a poll (issue 40).

Plays the reduced demo season into a fresh database and serves it with gunicorn and the production settings
(``bench/loadkit.py``), then:

* **first visits**: Chromium (Debian's, as the browser tests drive it; a fresh profile per page, so nothing is
  cached, at 375 px) opens each public page and sums what crossed the network for it: every response's headers
  and encoded (compressed) body, the page and its CSS, scripts, icons and images. Goal: at most 60 KB each.
* **a poll that changes nothing**: the live part of a match page asked the way its htmx asks it (``HX-Request``,
  the ETag it holds, ``Accept-Encoding`` as Chromium sends it), counted byte for byte on the socket: status line,
  headers and body. Goal: at most 400 bytes. Also the live JSON with its ETag, for information.

Exit status 0 when both goals hold, 1 otherwise.

    .venv/bin/python bench/phone_bytes.py
"""

from __future__ import annotations

import json
import os
import socket
import sys

from loadkit import demo_season_served, get

FIRST_VISIT_GOAL = 60 * 1024
POLL_GOAL = 400
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
CHROMIUM_ACCEPT_ENCODING = "gzip, deflate, br, zstd"


def public_pages(port: int) -> dict[str, str]:
    """The public pages a follower opens, by name: home, a league's fixtures, standings and results, its
    fullest match report, a team page."""
    status, body = get(port, "/api/competitions/?kind=league")
    assert status == 200, (status, body[:300])
    competition = json.loads(body)["results"][0]["id"]
    status, body = get(port, f"/api/results/?competition={competition}")
    results = json.loads(body)["results"]
    match = max(results, key=lambda r: sum(len(t["boems"]) for t in r["tables"]))["id"]
    return {
        "home": "/",
        "competitions": "/competitions/",
        "fixtures": f"/competitions/{competition}/",
        "standings": f"/competitions/{competition}/standings/",
        "results": f"/competitions/{competition}/results/",
        "match report": f"/matches/{match}/",
    }


def first_visit_bytes(port: int, pages: dict[str, str]) -> dict[str, tuple[int, int]]:
    """For each page: (bytes transferred, number of responses), in a fresh Chromium profile each."""
    from playwright.sync_api import sync_playwright

    found: dict[str, tuple[int, int]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            for name, path in pages.items():
                context = browser.new_context(viewport={"width": 375, "height": 812})
                page = context.new_page()
                responses: list = []
                page.on("requestfinished", lambda request, kept=responses: kept.append(request))
                page.goto(f"http://127.0.0.1:{port}{path}", wait_until="networkidle")
                total = 0
                for request in responses:
                    sizes = request.sizes()
                    total += sizes["responseHeadersSize"] + sizes["responseBodySize"]
                found[name] = (total, len(responses))
                context.close()
        finally:
            browser.close()
    return found


def raw_get(port: int, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    """One GET on a fresh connection; the status and every byte the server sent (status line, headers, body)."""
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
             *(f"{name}: {value}" for name, value in headers.items()), "", ""]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall("\r\n".join(lines).encode())
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    raw = b"".join(chunks)
    return int(raw.split(b" ", 2)[1]), raw


def poll_bytes(port: int, path: str, *, htmx: bool) -> tuple[int, int, bytes]:
    """(status, bytes) of a poll of ``path`` holding its current ETag, as Chromium's htmx (or fetch) sends it."""
    base = {"Accept-Encoding": CHROMIUM_ACCEPT_ENCODING, "Accept-Language": "en-ZA,en;q=0.9",
            "User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/156.0 Mobile Safari/537.36"}
    if htmx:
        base.update({"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1:{port}/", "Accept": "*/*"})
    else:
        base["Accept"] = "application/json"
    _, first = raw_get(port, path, base)
    head = first.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    etag = next(line.split(":", 1)[1].strip() for line in head.split("\r\n") if line.lower().startswith("etag:"))
    status, raw = raw_get(port, path, {**base, "If-None-Match": etag})
    return status, len(raw), raw


def main() -> int:
    with demo_season_served() as (port, db, _log):
        pages = public_pages(port)
        print(f"gunicorn on 127.0.0.1:{port} ({db.vendor}, production settings); load average "
              f"{os.getloadavg()[0]:.2f}", flush=True)
        held = True
        print(f"  {'first visit (fresh Chromium, 375 px)':40} {'path':28} {'responses':>9} {'bytes':>8}  goal")
        for name, (total, count) in first_visit_bytes(port, pages).items():
            ok = total <= FIRST_VISIT_GOAL
            held = held and ok
            print(f"  {name:40} {pages[name]:28} {count:9d} {total:8d}  {'ok' if ok else 'MISSED'} "
                  f"(<= {FIRST_VISIT_GOAL})")
        match_path = pages["match report"]
        match_id = match_path.strip("/").split("/")[-1]
        for name, path, htmx, goal in (("live part polled by htmx", f"{match_path}live/", True, True),
                                       ("live JSON polled", f"/api/fixtures/{match_id}/live/", False, False)):
            status, size, raw = poll_bytes(port, path, htmx=htmx)
            ok = size <= POLL_GOAL
            if goal:
                held = held and ok
            verdict = ("ok" if ok else "MISSED") if goal else "(information)"
            print(f"  {name:40} {path:28} {status:9d} {size:8d}  {verdict} (<= {POLL_GOAL})")
            if os.environ.get("BENCH_VERBOSE"):
                print(raw.decode("latin-1"))
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
        print(f"goals: first visit <= {FIRST_VISIT_GOAL} bytes, an unchanged poll <= {POLL_GOAL} bytes: "
              f"{'hold' if held else 'MISSED'}")
        return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())

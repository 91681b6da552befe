"""nginx with the shipped configuration's snippets in front of a test's server, on a free port (issue 40).

:func:`nginx_front` writes a small ``nginx.conf`` in a folder of its own: the http-level snippet
(``deploy/nginx/snippets/klawerjas-league-cache.conf``, its cache folder moved into that folder) and one server
on ``127.0.0.1:<free port>`` whose location is the shipped one: ``proxy_pass`` to the given upstream, then
``deploy/nginx/snippets/klawerjas-league-proxy.conf`` (the forwarded headers, the micro-cache, compression).
So a test exercises the very directives an operator installs, without TLS. nginx runs in the foreground as a
child process and is stopped by its pid. :data:`NGINX` is ``None`` when nginx is not installed
(``scripts/ensure-nginx`` installs Debian's).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
SNIPPETS = PROJECT / "deploy" / "nginx" / "snippets"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
SHIPPED_CACHE_FOLDER = "/var/cache/nginx/klawerjas-league"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx stopped at start (exit {process.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nginx did not listen on 127.0.0.1:{port} within {timeout:g} s")


@contextmanager
def nginx_front(folder: Path, upstream: str, *, workers: int = 1) -> Iterator[str]:
    """Run nginx with the shipped snippets in front of ``upstream`` (``"127.0.0.1:PORT"``); yields its base URL
    (``"http://127.0.0.1:PORT"``). ``folder`` (created) holds its configuration, cache, temporary files and
    ``error.log``. Raises ``RuntimeError`` when nginx is missing, refuses the configuration or does not listen."""
    if NGINX is None:
        raise RuntimeError("nginx is not installed (scripts/ensure-nginx)")
    folder.mkdir(parents=True, exist_ok=True)
    cache_folder = folder / "cache"
    cache_folder.mkdir(exist_ok=True)
    cache_conf = folder / "klawerjas-league-cache.conf"
    shipped = (SNIPPETS / "klawerjas-league-cache.conf").read_text()
    assert SHIPPED_CACHE_FOLDER in shipped, "the shipped cache snippet moved its cache folder"
    cache_conf.write_text(shipped.replace(SHIPPED_CACHE_FOLDER, str(cache_folder)))
    port = _free_port()
    user = "user root;\n" if os.geteuid() == 0 else ""  # the workers must write to this (private) folder
    temp = {name: folder / name for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}worker_processes {workers};\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
        "events { worker_connections 4096; }\n"
        "http {\n"
        "    access_log off;\n"
        f"    client_body_temp_path {temp['client_body']};\n    proxy_temp_path {temp['proxy']};\n"
        f"    fastcgi_temp_path {temp['fastcgi']};\n    uwsgi_temp_path {temp['uwsgi']};\n"
        f"    scgi_temp_path {temp['scgi']};\n"
        f"    include {cache_conf};\n"
        "    server {\n"
        f"        listen 127.0.0.1:{port};\n"
        "        location / {\n"
        f"            proxy_pass http://{upstream};\n"
        f"            include {SNIPPETS / 'klawerjas-league-proxy.conf'};\n"
        "        }\n"
        "    }\n"
        "}\n"
    )
    check = subprocess.run([NGINX, "-t", "-p", str(folder), "-c", str(conf)], capture_output=True, text=True)
    if check.returncode:
        raise RuntimeError(f"nginx refused the configuration: {check.stderr.strip()}")
    process = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(conf), "-g", "daemon off;"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

"""A ``redis-server`` of the test's own, on a free port, to stop, kill and restart at will.

The fault tests (issue 16) must never stop the machine's shared Redis; they start this one instead (Debian's
``redis-server``, apt-get install redis-server). Without the binary the test is
skipped, or failed under CI (``KLAWERJAS_REQUIRE_SERVICES=1``).
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import SERVICES_REQUIRED


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PrivateRedis:
    """One ``redis-server`` process on 127.0.0.1 and a port of its own, its data and log in ``folder``.

    ``persist=True`` snapshots to ``dump.rdb`` on :meth:`save`, so a restart finds the data again.
    """

    def __init__(self, folder: Path, *, persist: bool = False) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            message = "redis-server is not installed (Debian: apt-get install redis-server)"
            if SERVICES_REQUIRED:
                pytest.fail(message)
            pytest.skip(message)
        self.binary = binary
        self.folder = folder
        self.persist = persist
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:<port>/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server (again, on the same port) and wait until it answers PING."""
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
                "--appendonly", "no", "--save", "", "--protected-mode", "no", "--logfile", "redis.log"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start: {(self.folder / 'redis.log').read_text()[-2000:]}")
            time.sleep(0.05)

    def answers(self) -> bool:
        """Whether the server answers PING now."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def command(self, *words: str) -> bytes:
        """Send one command (inline protocol); the raw reply."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
            sock.sendall(" ".join(words).encode() + b"\r\n")
            return sock.recv(65536)

    def save(self) -> None:
        """Write the data to ``dump.rdb`` (what a restart then loads)."""
        assert self.command("SAVE").startswith(b"+OK")

    def kill(self) -> None:
        """SIGKILL, as a crash: no goodbye to clients, nothing saved."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop the server if it runs (SIGTERM, then SIGKILL)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

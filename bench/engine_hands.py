"""Benchmark: random complete hands per second in one process (deal, legal play, roem, scoring).

Run: ``python bench/engine_hands.py [HANDS] [RUNS]`` (default 100,000 hands x 7 runs). Prints each run's
wall-clock and CPU rate, then the best and the median, with the load average so that a busy machine shows.
Target (issue 3): at least 50,000 hands/s.

What one hand is (``engine.fastplay.play_random_hands``): an exactly uniform deal of the 32 cards with a
uniform dealer and the trump of the dealer's face-up card; all 8 tricks with every card uniform among the
legal ones (SAKBOC 3.2-3.4); every seat's best roemte, the first-round competition (SAKBOC 8.2-8.4, 8.9;
Notes §VI) and sturk; card points, and who goes on first with 1 or 2 strokes (SAKBOC 7.3, 8.17, 8.21;
Notes §V, §VI). The lookup tables are built once per process; their build time is printed separately.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.fastplay import play_random_hands  # noqa: E402


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
        return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"
    except OSError:  # pragma: no cover - not on every platform
        return "load average unknown"


def main(argv: list[str]) -> int:
    """Run the benchmark and print the numbers; returns the exit status."""
    hands = int(argv[0]) if argv else 100_000
    runs = int(argv[1]) if len(argv) > 1 else 7
    print(f"python {platform.python_version()} on {os.cpu_count()} CPUs; {_load()}")
    t0 = time.perf_counter()
    play_random_hands(1)
    print(f"tables built in {time.perf_counter() - t0:.2f} s (once per process)")
    rates = []
    cpu_rates = []
    for seed in range(runs):
        t0 = time.perf_counter()
        c0 = time.process_time()
        stats = play_random_hands(hands, seed)
        cpu = time.process_time() - c0
        dt = time.perf_counter() - t0
        rates.append(hands / dt)
        cpu_rates.append(hands / cpu)
        assert sum(stats.card_points) == 146 * hands, "card points must total 146 per hand"
        print(
            f"run {seed}: {hands} hands in {dt:.3f} s = {hands / dt:,.0f} hands/s"
            f" (CPU {hands / cpu:,.0f}/s, {1e6 * cpu / hands:.1f} us/hand); went on {sum(stats.went_on)}"
        )
    print(
        f"python {platform.python_version()}: best {max(rates):,.0f} hands/s, median {statistics.median(rates):,.0f}"
        f" (CPU time: best {max(cpu_rates):,.0f}, median {statistics.median(cpu_rates):,.0f}); {_load()}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

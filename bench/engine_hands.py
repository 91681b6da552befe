"""Benchmark: random complete hands per second in one process (deal, legal play, roem, scoring).

Run: ``python bench/engine_hands.py [HANDS] [RUNS]``. Prints each run's rate, then best and median.
Each run includes building the run's tables (seeded base deals and permutations), so it is the
rate a caller sees for HANDS hands. Target (issue 3): at least 50,000 hands/s.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.simulate import play_random_hands  # noqa: E402


def main(argv: list[str]) -> int:
    """Run the benchmark and print the numbers; returns the exit status."""
    hands = int(argv[0]) if argv else 100_000
    runs = int(argv[1]) if len(argv) > 1 else 5
    rates = []
    for seed in range(runs):
        t0 = time.perf_counter()
        stats = play_random_hands(hands, seed)
        dt = time.perf_counter() - t0
        rates.append(hands / dt)
        assert sum(stats.card_points) == 146 * hands, "card points must total 146 per hand"
        print(f"run {seed}: {hands} hands in {dt:.3f} s = {hands / dt:,.0f} hands/s")
    print(f"python {platform.python_version()}: best {max(rates):,.0f} hands/s, median {statistics.median(rates):,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

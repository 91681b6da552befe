"""Benchmark: random complete hands per second in one process (deal, legal play, roem, scoring).

Run: ``python bench/engine_hands.py [HANDS] [RUNS] [GENERIC_HANDS]`` (default 100,000 hands x 7 runs, and
5,000 hands a run on the generic path). Prints each run's wall-clock and CPU rate, then the best and the
median, with the load average so that a busy machine shows. Target (issue 3): at least 50,000 hands/s.

Then the same RUNS again, each measuring in turn (CPU time, same process, seed = run) the readable reference
(``bench.fastplay._reference_random_hands``: legal_mask, engine.roem and engine.scoring card by card), the
fast loop, and the generic path the demo and the bots use (``engine.simulate.deal`` + ``play_hand``) with
``policy="random"`` and ``policy="bot"``, and once more the bot with each hand's record read (as the demo
does). It prints every rate and each one's ratio to the reference's rate in the same run, then the medians.
Targets (issue 23): the generic path, random and bot, at least 1.5 x the reference; the fast loop at least 5 x.

What one hand is (``bench.fastplay.play_random_hands``): an exactly uniform deal of the 32 cards with a
uniform dealer and the trump of the dealer's face-up card; all 8 tricks with every card uniform among the
legal ones (SAKBOC 3.2-3.4); every seat's best roemte, the first-round competition (SAKBOC 8.2-8.4, 8.9;
Notes §VI) and sturk; card points, and who goes on first with 1 or 2 strokes (SAKBOC 7.3, 8.17, 8.21;
Notes §V, §VI). The lookup tables are built once per process; their build time is printed separately.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fastplay import _reference_random_hands, play_random_hands  # noqa: E402
from engine.ruleset import SAKBOC_2004  # noqa: E402
from engine.simulate import deal, play_hand  # noqa: E402


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
        return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"
    except OSError:  # pragma: no cover - not on every platform
        return "load average unknown"


def _generic(hands: int, seed: int, policy: str, *, read_record: bool = False) -> None:
    """Deal and play ``hands`` hands in a row on the generic path (dealer round the table), as the demo does."""
    rng = random.Random(seed)
    for i in range(hands):
        h = play_hand(deal(rng, i & 3), rng, policy=policy)  # type: ignore[arg-type]
        if read_record:
            h.record  # noqa: B018 - built when read


def _cpu_rate(hands: int, run: Callable[..., object], *args: object, **kwargs: object) -> float:
    """Hands per CPU second of ``run(*args, **kwargs)``."""
    c0 = time.process_time()
    run(*args, **kwargs)
    return hands / (time.process_time() - c0)


def generic_vs_reference(hands: int, fast_hands: int, runs: int) -> None:
    """Print the generic path's and the fast loop's rates as ratios to the readable reference, run by run."""
    print(f"generic path vs the readable reference: {hands} hands a run ({fast_hands} for the fast loop), CPU time")
    names = ("reference", "fast loop", "random", "bot", "bot+record")
    ratios: dict[str, list[float]] = {n: [] for n in names[1:]}
    for seed in range(runs):
        rates = {
            "reference": _cpu_rate(hands, _reference_random_hands, hands, seed, SAKBOC_2004),
            "fast loop": _cpu_rate(fast_hands, play_random_hands, fast_hands, seed),
            "random": _cpu_rate(hands, _generic, hands, seed, "random"),
            "bot": _cpu_rate(hands, _generic, hands, seed, "bot"),
            "bot+record": _cpu_rate(hands, _generic, hands, seed, "bot", read_record=True),
        }
        for n in names[1:]:
            ratios[n].append(rates[n] / rates["reference"])
        print(f"run {seed}: " + "; ".join(
            f"{n} {rates[n]:,.0f}/s" + (f" = {rates[n] / rates['reference']:.2f} x" if n != "reference" else "")
            for n in names))
    print("median ratio to the reference: " + ", ".join(f"{n} {statistics.median(r):.2f} x" for n, r in ratios.items())
          + f" (targets: random and bot >= 1.5 x, fast loop >= 5 x); {_load()}")


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
    generic_vs_reference(int(argv[2]) if len(argv) > 2 else 5_000, hands, runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

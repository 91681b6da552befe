"""Benchmark: adjudication time of one recorded hand (target: median under 1 ms).

Prints the median and best time per adjudication (parsing included, and without parsing) over bot-played
hands from the simulator and the documented examples. Not a test: numbers only.

    python bench/engine_adjudicate.py [--hands 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.adjudicate import adjudicate  # noqa: E402
from engine.record import parse_record  # noqa: E402
from engine.scoring import GameState  # noqa: E402
from engine.simulate import deal, play_hand  # noqa: E402


def _records(n: int, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        old = rng.random() < 0.3
        state = GameState(old, (rng.randrange(60), rng.randrange(60)) if old else (0, 0), (0, 0), (0, 0))
        out.append(play_hand(deal(rng, rng.randrange(4)), rng, state, policy="random").record)
    for p in sorted((Path(__file__).resolve().parents[1] / "docs" / "examples").glob("*.json")):
        out.append(json.loads(p.read_text()))
    return out


def _time_each(func: Callable[[Any], object], items: Sequence[Any]) -> list[float]:
    times = []
    for it in items:
        t0 = time.perf_counter()
        func(it)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2004)
    args = ap.parse_args()
    records = _records(args.hands, args.seed)
    parsed = [parse_record(r) for r in records]
    full = sum(1 for p in parsed if sum(1 for e in p.events if e.type == "play") == 32)
    print(f"{len(records)} hand records ({full} with all 32 cards played)")
    runs: list[tuple[str, Sequence[Any], Callable[[Any], object]]] = [
        ("parse + adjudicate", records, adjudicate),
        ("adjudicate (parsed)", parsed, adjudicate),
        ("parse only", records, parse_record),
    ]
    for label, items, func in runs:
        medians = [statistics.median(_time_each(func, items)) for _ in range(args.repeat)]
        print(
            f"{label:22s} median per hand {statistics.median(medians) * 1e3:.3f} ms "
            f"(best run {min(medians) * 1e3:.3f} ms, {args.repeat} runs)"
        )


if __name__ == "__main__":
    main()

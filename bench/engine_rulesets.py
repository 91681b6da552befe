"""Benchmark: hands per second per ruleset on the generic simulation path (``deal`` + ``play_hand``).

Run: ``python bench/engine_rulesets.py [HANDS] [RUNS]``. For every registered ruleset (SAKBOC included, for
comparison on the same path) it deals and plays HANDS complete hands with ``policy="random"`` (legal play,
scoring) and with ``policy="bot"`` (melds, roem claims, going on), RUNS times, and
prints the best and median hands/s and the ratio to SAKBOC's best. Issue 9: none below half of SAKBOC's.
The hand record is built only when read (``HandResult.record``), so it is not part of these figures.
(The fast SAKBOC-only loop is ``bench/engine_hands.py``.)
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ruleset import RULESETS  # noqa: E402
from engine.simulate import deal, play_hand  # noqa: E402


def rate(name: str, hands: int, policy: str, seed: int) -> float:
    """Hands per second for one run."""
    rs = RULESETS[name]
    rng = random.Random(seed)
    t0 = time.perf_counter()
    for i in range(hands):
        play_hand(deal(rng, i & 3, rs), rng, ruleset=rs, policy=policy)  # type: ignore[arg-type]
    return hands / (time.perf_counter() - t0)


def main(argv: list[str]) -> int:
    """Run the benchmark and print the numbers; returns the exit status."""
    hands = int(argv[0]) if argv else 3000
    runs = int(argv[1]) if len(argv) > 1 else 5
    names = ["sakboc-2004", "rotterdam", "amsterdam", "wikipedia-klaverjas", "klammern"]
    print(f"python {platform.python_version()}; {hands} hands x {runs} runs per ruleset and policy")
    for policy in ("random", "bot"):
        base = 0.0
        for name in names:
            rates = [rate(name, hands, policy, seed) for seed in range(runs)]
            best, med = max(rates), statistics.median(rates)
            base = base or best
            print(f"{policy:6} {name:20} best {best:9,.0f} hands/s  median {med:9,.0f}  {best / base:5.2f} x sakboc")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

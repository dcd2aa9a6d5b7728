"""Time the themes feature: one 150-character hand in-process, and the CLI as a whole process.

    python scripts/bench_themes.py [--hands 50] [--runs 5]

In-process: suggest_themes() on random 150-tile hands of data/tiles.json after one warm-up call (data
loaded, scikit-learn imported), median and 95th percentile. Whole process: `python -m poetry themes` on
one hand, wall time from start to exit (start-up, imports and data loading included), median of --runs.
Also prints the size of the model files.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poetry.themes import ASSOC_FILE, THEMES_FILE, VECTORS_FILE, VOCAB_FILE, WORDS_FILE, suggest_themes  # noqa: E402
from poetry.tiles import load_tile_set  # noqa: E402


def hands(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    tiles = [t.char for t in load_tile_set()]
    return ["".join(rng.sample(tiles, 150)) for _ in range(n)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)

    sample = hands(args.hands)
    suggest_themes(sample[0])  # warm-up: data and imports
    times = []
    for hand in sample:
        start = time.perf_counter()
        suggest_themes(hand)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"in-process, one 150-character hand: median {statistics.median(times):.1f} ms, "
          f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms ({len(times)} hands)")

    walls, cpus = [], []
    for _ in range(args.runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "poetry", "themes", "--format", "json"], input=sample[0],
                              capture_output=True, text=True, cwd=ROOT)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            return 1
    print(f"CLI whole process (python -m poetry themes): median {statistics.median(walls):.2f} s, "
          f"min {min(walls):.2f} s, max {max(walls):.2f} s; CPU (user+sys) median {statistics.median(cpus):.2f} s "
          f"({args.runs} runs; load average {os.getloadavg()[0]:.1f})")

    data = ROOT / "data"
    sizes = {name: (data / name).stat().st_size
             for name in (VECTORS_FILE, VOCAB_FILE, WORDS_FILE, ASSOC_FILE, THEMES_FILE)}
    total = sum(sizes.values())
    print("model files: " + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in sizes.items())
          + f"; total {total / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

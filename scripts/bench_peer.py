"""Time our batch checker against the PyPI package pingshui-rhyme on the same Tang poems, in one run.

Reads ../shared/corpus (never shipped, never read by tests). Usage, from the repo root:

    nice -n 10 python scripts/bench_peer.py                    # 10,000 poems, 3 rounds
    python scripts/bench_peer.py --sample 20000 --rounds 5
    nice -n 10 python scripts/bench_peer.py --wall             # also as the CLI runs: wall time, its workers

The poems: a fixed sample (seed 20261201) of the regular-shape poems of 全唐詩 (4 or 8 lines of 5 or 7
chars), each as one text with its lines joined by 「，」 (notes and brackets off), the same string for both.

- ours: ``poetry.checker.check_jsonl_lines`` over {"id","text"} JSON lines, the path `python -m poetry check
  --format jsonl` runs in each worker (JSON in, the verdict with its faults out), one process;
- pingshui-rhyme 0.20: ``PoemStructureChecker.check_poem_rhyming`` and ``check_poem_pingze_meter``, the
  two checks its README gives for a poem (a poem passes when both pass), one checker built beforehand.

Both are timed in CPU time (time.process_time) over the whole sample, in rounds that alternate which goes
first; each side's best round counts. The figure is poems per CPU-second and our ratio to the peer's
(issue 13: ≥ 1.5×).

``--wall`` adds the batch as `python -m poetry check --format jsonl` runs it (``run_jsonl``: two worker
processes on a machine with two cores, from 6,000 lines) against the peer, which has no batch mode, in
wall-clock time (time.perf_counter): poems per second as a user waits for them. Wall time depends on the
machine's other load; the CPU figure does not.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_checker import clean_lines, regular_shape, tang_poems  # noqa: E402

from poetry.checker import check_jsonl_lines  # noqa: E402
from poetry.checker.batch import run_jsonl  # noqa: E402


def sample_texts(size: int, seed: int) -> list[str]:
    """``size`` regular-shape Tang poems, drawn with ``seed``, as 「，」-joined texts."""
    pool = []
    for p in tang_poems():
        lines = clean_lines(p["paragraphs"])
        if regular_shape(lines):
            pool.append("，".join(lines) + "。")
    return random.Random(seed).sample(pool, min(size, len(pool)))


def peer_checker():
    """pingshui-rhyme's poem checker, its table loaded (outside the timing)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its pkg_resources import warns
        from pingshui_rhyme import PoemStructureChecker

        return PoemStructureChecker()


def run_peer(checker, texts: list[str]) -> int:
    """pingshui-rhyme's verdict of every poem (rhyme and meter both pass); the count passed."""
    passed = 0
    for text in texts:
        rhymes, _ = checker.check_poem_rhyming(text)
        meter, _ = checker.check_poem_pingze_meter(text)
        passed += rhymes and meter
    return passed


def run_ours(raw_lines: list[str]) -> int:
    """Our batch verdict of every poem (the jsonl path); the count judged regulated."""
    return sum('"regulated": true' in line for line in check_jsonl_lines(raw_lines))


def run_batch(raw_lines: list[str]) -> int:
    """Our batch as the CLI runs it (its workers), output collected; the count judged regulated."""
    out: list[str] = []
    run_jsonl(raw_lines, "pingshui", out.append)
    return sum('"regulated": true' in line for line in out)


def timed_wall(fn, *args) -> tuple[float, int]:
    """(wall seconds, result) of one call."""
    gc.collect()
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def timed(fn, *args) -> tuple[float, int]:
    """(CPU seconds, result) of one call, after a collection so neither side pays the other's garbage."""
    gc.collect()
    start = time.process_time()
    result = fn(*args)
    return time.process_time() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--wall", action="store_true", help="also the CLI's batch (its workers) in wall time")
    args = parser.parse_args()
    texts = sample_texts(args.sample, args.seed)
    raw = [json.dumps({"id": k, "text": t}, ensure_ascii=False) for k, t in enumerate(texts)]
    peer = peer_checker()
    # warm both: our char table and word index, the peer's nothing (its tables are built in __init__)
    run_ours(raw[:200])
    run_peer(peer, texts[:200])
    ours_times, peer_times = [], []
    ours_passed = peer_passed = 0
    for r in range(args.rounds):
        order = ("ours", "peer") if r % 2 == 0 else ("peer", "ours")
        for side in order:
            if side == "ours":
                t, ours_passed = timed(run_ours, raw)
                ours_times.append(t)
            else:
                t, peer_passed = timed(run_peer, peer, texts)
                peer_times.append(t)
    n = len(texts)
    ours, theirs = n / min(ours_times), n / min(peer_times)
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(when, f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{n} regular-shape Tang poems (seed {args.seed}), {args.rounds} rounds alternating, CPU time")
    print(f"ours (check_jsonl_lines): {' '.join(f'{t:.2f}' for t in ours_times)} s → best {ours:,.0f} poems per "
          f"CPU-second; judged regulated {ours_passed}")
    print(f"pingshui-rhyme 0.20 (rhyming + meter): {' '.join(f'{t:.2f}' for t in peer_times)} s → best "
          f"{theirs:,.0f} poems per CPU-second; passed {peer_passed}")
    print(f"ratio ours / pingshui-rhyme: {ours / theirs:.2f}× (goal ≥ 1.5×)")
    if args.wall:
        wall_ours, wall_peer = [], []
        for r in range(args.rounds):
            for side in (("ours", "peer") if r % 2 == 0 else ("peer", "ours")):
                if side == "ours":
                    wall_ours.append(timed_wall(run_batch, raw)[0])
                else:
                    wall_peer.append(timed_wall(run_peer, peer, texts)[0])
        ours_w, theirs_w = n / min(wall_ours), n / min(wall_peer)
        print(f"wall, ours as the CLI runs (run_jsonl, {min(2, os.cpu_count() or 1)} workers): "
              f"{' '.join(f'{t:.2f}' for t in wall_ours)} s → best {ours_w:,.0f} poems/s")
        print(f"wall, pingshui-rhyme (one process, no batch mode): {' '.join(f'{t:.2f}' for t in wall_peer)} s "
              f"→ best {theirs_w:,.0f} poems/s")
        print(f"wall ratio ours / pingshui-rhyme: {ours_w / theirs_w:.2f}× (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()

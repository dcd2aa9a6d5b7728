"""Measure how long the grading takes for one poem: CPU milliseconds of ``grade_poem`` (issue 14: < 50 ms).

Usage, from the repo root:

    nice -n 10 python scripts/bench_grading.py                 # everything
    python scripts/bench_grading.py --only graded|short|long|longest|named
    python scripts/bench_grading.py --only long --show 5       # also the five slowest poems of each set

- graded: every poem of the graded sets (scripts/eval_grading.py's GRADED_SETS), under its title;
- short: 100 全唐詩 poems of eight lines (a seeded sample of ../shared/corpus);
- long: 40 全唐詩 poems of 40–120 lines (seeded likewise);
- longest: 10 全唐詩 poems of 200 lines up to MAX_LINES, of at most MAX_LENGTH characters (seeded likewise);
- named: 長恨歌 and 琵琶行 as 唐詩三百首 prints them.
short, long, longest and named read ../shared/corpus and are skipped, with a message, where it is absent.

Each poem is graded once, after ``warm_up()`` and ``gc.freeze()`` (the models loaded, as app.warm_up does; also
without the freeze: ``--no-freeze``), timed by ``time.process_time`` (CPU time of this process: load-independent
on a shared machine, unlike wall time); the table gives the median, the 95th percentile and the maximum in
milliseconds, and how many poems took 50 ms or more.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from eval_grading import GRADED_SETS  # noqa: E402
from tang_corpus import DEFAULT_CORPUS, anthology_poems, tang_poems  # noqa: E402

from poetry.grading import MAX_LINES, grade_poem, warm_up  # noqa: E402
from poetry.text import MAX_LENGTH, split_lines  # noqa: E402

#: The goal of issue 14: one poem graded in under this many milliseconds.
GOAL_MS = 50.0
#: The long poems named in the task, by their 唐詩三百首 title.
NAMED = ("長恨歌", "琵琶行")


def corpus_dir(given: Path) -> Path:
    """The corpus folder: ``given``, else /work/shared/corpus (a worktree's parent is not the checkout's)."""
    return given if given.exists() else Path("/work/shared/corpus")


def graded_poems() -> list[tuple[str, str, str]]:
    """(label, text, title) of every poem of the graded sets."""
    out = []
    for path in GRADED_SETS:
        for p in json.loads((ROOT / path).read_text(encoding="utf-8"))["poems"]:
            out.append((f"{Path(path).stem} {p['title']}", p["text"], p["title"]))
    return out


def corpus_samples(corpus: Path, seed: int, n_short: int = 100, n_long: int = 40,
                   n_longest: int = 10) -> dict[str, list]:
    """``n_short`` poems of eight lines, ``n_long`` of 40–120 lines and ``n_longest`` of 200 lines up to MAX_LINES
    (within MAX_LENGTH characters, as a poem sent for grading must be), drawn with ``seed`` from 全唐詩."""
    short, long, longest = [], [], []
    for rec in tang_poems(corpus):
        lines = split_lines("\n".join(rec["paragraphs"]))
        text = "，".join(lines) + "。"
        row = (f"{rec['author']}《{rec['title']}》 {len(lines)} 句", text, rec["title"])
        if len(lines) == 8:
            short.append(row)
        elif 40 <= len(lines) <= 120:
            long.append(row)
        elif 200 <= len(lines) <= MAX_LINES and len(text) <= MAX_LENGTH:
            longest.append(row)
    rng = random.Random(seed)
    return {"short": rng.sample(short, n_short), "long": rng.sample(long, n_long),
            "longest": rng.sample(longest, min(n_longest, len(longest)))}


def named_poems(corpus: Path) -> list[tuple[str, str, str]]:
    """長恨歌 and 琵琶行 from 唐詩三百首."""
    out = []
    for _, rec in anthology_poems(corpus):
        if rec["chapter"] in NAMED:
            lines = split_lines("\n".join(rec["paragraphs"]))
            out.append((f"{rec['chapter']} {len(lines)} 句", "，".join(lines) + "。", rec["chapter"]))
    return out


def timed(poems: list[tuple[str, str, str]]) -> list[tuple[float, str]]:
    """(CPU ms of grade_poem, label) of each poem, graded once."""
    out = []
    for label, text, title in poems:
        t = time.process_time()
        grade_poem(text, title=title)
        out.append(((time.process_time() - t) * 1000, label))
    return out


def row(name: str, times: list[tuple[float, str]]) -> str:
    """One markdown row: n, median, p95, max, poems at or over the goal."""
    ms = np.array([t for t, _ in times])
    over = int((ms >= GOAL_MS).sum())
    return (f"| {name} | {len(ms)} | {np.median(ms):.1f} | {np.percentile(ms, 95):.1f} | {ms.max():.1f} "
            f"| {over} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["graded", "short", "long", "longest", "named"])
    parser.add_argument("--show", type=int, default=0, help="also print the N slowest poems of each set")
    parser.add_argument("--no-freeze", action="store_true", help="leave the loaded models to the garbage collector")
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    args.corpus = corpus_dir(args.corpus)
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    t = time.process_time()
    warm_up()
    print(f"warm_up(): {(time.process_time() - t) * 1000:.0f} ms CPU")
    if not args.no_freeze:  # as app.warm_up does: the collector no longer walks the models
        gc.collect()
        gc.freeze()
    sets: dict[str, list] = {}
    if args.only in (None, "graded"):
        sets["graded sets"] = graded_poems()
    if args.only != "graded":
        if not (args.corpus / "quantangshi.jsonl.gz").exists():
            print(f"{args.corpus} is absent: the 全唐詩 and named poems are skipped")
        else:
            if args.only in (None, "short", "long", "longest"):
                sample = corpus_samples(args.corpus, args.seed)
                if args.only in (None, "short"):
                    sets["全唐詩, 8 lines"] = sample["short"]
                if args.only in (None, "long"):
                    sets["全唐詩, 40–120 lines"] = sample["long"]
                if args.only in (None, "longest"):
                    sets["全唐詩, 200–300 lines"] = sample["longest"]
            if args.only in (None, "named"):
                sets["長恨歌, 琵琶行"] = named_poems(args.corpus)
    results = {name: timed(poems) for name, poems in sets.items()}
    print(f"\nCPU ms of grade_poem per poem (goal < {GOAL_MS:.0f} ms):\n")
    print("| poems | n | median | p95 | max | ≥ 50 ms |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, times in results.items():
        print(row(name, times))
    for name, times in results.items():
        if args.show or name == "長恨歌, 琵琶行":
            print(f"\n{name}, slowest:")
            for ms, label in sorted(times, reverse=True)[: max(args.show, 2)]:
                print(f"  {ms:7.1f} ms  {label}")


if __name__ == "__main__":
    main()

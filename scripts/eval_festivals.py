"""How well the festival signs (poetry.grading.festivals, data/festivals.json) read festival titles, on poems the
build never read: the Tang calibration split (build_grading.split_corpus) and 全宋詩 by held-out authors.

    nice python scripts/eval_festivals.py [--corpus ../shared/corpus] [--song-dir …/quantangshi]

For each festival: its poems (titles naming it) and the share whose body answers it (``answered``) or answers
another festival instead (``other``: a wrong penalty, since these are the festival's own poems); then every
festival poem under each other festival's title (not of its season), to see how often the mistaken title is
caught (``other``) or wrongly credited (``answered``); and poems naming no festival under a festival's title
(random titles), how often they are wrongly credited.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_grading as build  # noqa: E402
import tang_corpus  # noqa: E402

from poetry.grading.festivals import SEASONS, _days, festival_fit, festival_of  # noqa: E402


def report(label: str, poems: list[tuple[str, list[str]]], seed: int = 15) -> None:
    """The three tables for ``poems`` ((title, lines))."""
    names = list(_days())
    by_festival: dict[str, list[list[str]]] = {name: [] for name in names}
    plain = []
    for title, lines in poems:
        festival = festival_of(title)
        (by_festival[festival] if festival else plain).append(lines)
    print(f"\n{label}\n")
    print("| festival | poems | answered | other festival (wrong) |")
    print("| --- | --- | --- | --- |")
    totals = Counter()
    for name in names:
        fits = [festival_fit(name, lines) for lines in by_festival[name]]
        answered, other = sum(f.answered for f in fits), sum(bool(f.other) for f in fits)
        totals.update(poems=len(fits), answered=answered, other=other)
        print(f"| {name} | {len(fits)} | {answered} | {other} |")
    print(f"| all | {totals['poems']} | {totals['answered'] / max(totals['poems'], 1):.1%} | "
          f"{totals['other'] / max(totals['poems'], 1):.1%} |")
    crossed = Counter()
    for name, bodies in by_festival.items():
        season = next((s for s in SEASONS if name in s), frozenset({name}))
        for wrong in names:
            if wrong in season:
                continue
            for lines in bodies:
                f = festival_fit(wrong, lines)
                crossed.update(pairs=1, caught=bool(f.other), credited=f.answered)
    print(f"\nFestival poems under another festival's title (not of its season): {crossed['pairs']} pairs, "
          f"caught as another festival {crossed['caught'] / max(crossed['pairs'], 1):.1%}, "
          f"wrongly credited {crossed['credited'] / max(crossed['pairs'], 1):.1%}")
    rng = random.Random(seed)
    sample = rng.sample(plain, min(3000, len(plain)))
    fits = [festival_fit(rng.choice(names), lines) for lines in sample]
    print(f"Poems naming no festival under a random festival's title: {len(fits)}, wrongly credited "
          f"{sum(f.answered for f in fits) / len(fits):.1%}, said to be another festival "
          f"{sum(bool(f.other) for f in fits) / len(fits):.1%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=tang_corpus.DEFAULT_CORPUS)
    parser.add_argument("--song-dir", type=Path, default=tang_corpus.DEFAULT_SONG)
    args = parser.parse_args(argv)
    poems = build.load_corpus(args.corpus)
    held = build.heldout_matches(poems, build.load_anthology(args.corpus))
    _, calibration = build.split_corpus(poems, held)
    report(f"Tang calibration split ({len(calibration)} poems, never read by the build)",
           [(poems[i]["title"], poems[i]["lines"]) for i in calibration])
    anthology = build.load_anthology(args.corpus)
    report(f"唐詩三百首 ({len(anthology)} poems, held out)", [(p["title"], p["lines"]) for p in anthology])
    split = tang_corpus.song_split(build._clean, args.song_dir, args.corpus)
    song = [(r["title"], build._clean(r["paragraphs"])) for r in tang_corpus.song_poems(args.song_dir)
            if split.held_out(r["author"])]
    report(f"全宋詩, held-out authors ({len(song)} poems)", song)
    return 0


if __name__ == "__main__":
    sys.exit(main())

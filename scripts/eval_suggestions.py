"""How often the checker's fix suggestions give back the poet's own character, on poems the table never saw.

    python scripts/eval_suggestions.py [--corpus ../shared/corpus] [--set anthology|dev] [--before COMMIT]

For every regulated poem of the evaluation set (4 or 8 lines of 5 or 7 characters that the checker judges
合律) and every character at a 2nd/4th/6th position whose tone is unambiguous, the character is replaced
by a common character of the other tone that is not in the poem (a planted fault), the poem is checked,
and we look for the original character among the suggestions of the fault at that position: top 1,
top 5, top 8. A character that occurs elsewhere in the poem can never come back (the checker never
suggests a character the poem already has); their share is reported as the ceiling.

Sets: ``anthology`` — 唐詩三百首, held out of data/suggest_bigrams.tsv, data/suggest_words.tsv
(scripts/build_suggestions.py) and of the character LMs data/lm_chars*.npz (scripts/build_grading.py);
``dev`` — the build's development split (every third 4/8-line poem of the grading's calibration split),
held out of all of them too, used for tuning (``--tune``: a grid of the weights of the line's reading).

"Reads well": the share of the suggestions (top 1, and all of the top 8) that make a pair attested in
the table with both neighbours (left + c and c + right, each seen at least twice in the counted poems).

"Before" is the checker as it was at ``--before`` (default: the commit before the fit-ranked
suggestions, whose ranking was the most used chars of the required tone), loaded from git; "after" is
the working tree's. Also times one 七律 (登高 with 渚清 → 渚淺) in-process under both (CPU time), and the
first suggestion call (which loads the tables). ``--examples`` prints the suggestions for faults planted in
famous poems (EXAMPLES), for a reader.
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
SHAN_XING = "遠上寒山石徑斜，白雲生處有人家。停車坐愛楓林晚，霜葉紅於二月花。"
SHAN_JU = "空山新雨後，天氣晚來秋。明月松間照，清泉石上流。竹喧歸浣女，蓮動下漁舟。隨意春芳歇，王孫自可留。"
XIANG_SI = "紅豆生南國，春來發幾枝。願君多采擷，此物最相思。"
GUAN_QUE = "白日依山盡，黃河入海流。欲窮千里目，更上一層樓。"
CHUN_WANG = "國破山河在，城春草木深。感時花濺淚，恨別鳥驚心。烽火連三月，家書抵萬金。白頭搔更短，渾欲不勝簪。"
CHU_SAI = "秦時明月漢時關，萬里長征人未還。但使龍城飛將在，不教胡馬度陰山。"
GU_REN = "故人具雞黍，邀我至田家。綠樹村邊合，青山郭外斜。開軒面場圃，把酒話桑麻。待到重陽日，還來就菊花。"
JUE_JU = "兩個黃鸝鳴翠柳，一行白鷺上青天。窗含西嶺千秋雪，門泊東吳萬里船。"
#: Faults planted in famous poems, for a reader: (poem, its text, line, planted line, char position)
EXAMPLES = [
    ("杜牧《山行》", SHAN_XING, "白雲生處有人家", "白雲生處無人家", 5),
    ("杜牧《山行》", SHAN_XING, "霜葉紅於二月花", "霜葉紅於二月紅", 7),
    ("王維《山居秋暝》", SHAN_JU, "明月松間照", "明月松間花", 5),
    ("王維《相思》", XIANG_SI, "願君多采擷", "願君多采天", 5),
    ("杜甫《登高》", DENG_GAO, "渚清沙白鳥飛回", "渚淺沙白鳥飛回", 2),
    ("杜甫《登高》", DENG_GAO, "萬里悲秋常作客", "萬里悲月常作客", 4),
    ("王之渙《登鸛雀樓》", GUAN_QUE, "黃河入海流", "黃河入山流", 4),
    ("杜甫《春望》", CHUN_WANG, "烽火連三月", "烽火連三年", 5),
    ("王昌齡《出塞》", CHU_SAI, "但使龍城飛將在", "但山龍城飛將在", 2),
    ("孟浩然《過故人莊》", GU_REN, "把酒話桑麻", "把酒話桑田", 5),
    ("杜甫《絕句》", JUE_JU, "窗含西嶺千秋雪", "窗含西山千秋雪", 4),
]


def examples(checker) -> None:
    """The suggestions for each of EXAMPLES, as rows of a Markdown table."""
    for poet, poem, old, new, pos in EXAMPLES:
        text = poem.replace(old, new)
        ln = text.rstrip("。").replace("。", "，").split("，").index(new) + 1
        found = [v for v in checker.check_poem(text).violations
                 if (v.line, v.pos) == (ln, pos) and v.severity == "error"]
        kind, shown = (found[0].kind, " ".join(found[0].suggestions)) if found else ("no fault", "")
        print(f"| {poet} {new} ({old[pos - 1]}→{new[pos - 1]}, {kind}) | {shown} |")


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
        _, dev, _ = build.split(all_poems, build.load_anthology(corpus), build.lm_unseen(corpus))
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


def attested(line: str, j: int, c: str) -> bool:
    """Whether ``c`` at char j makes a pair seen in the table with both its neighbours."""
    from poetry.checker.suggestions import fit_table

    fit = fit_table()
    return c in fit.followers(line[j - 1]) and (j + 1 >= len(line) or c in fit.predecessors(line[j + 1]))


def measure(checker, cases) -> dict:
    hits = {1: 0, 5: 0, 8: 0}
    flagged = total = ceiling = read1 = read8 = shown = 0
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
        line = text.rstrip("。").split("，")[ln - 1]
        good = [attested(line, pos - 1, c) for c in fix]
        read1 += bool(good) and good[0]
        read8 += sum(good)
        shown += len(good)
    return {"cases": total, "flagged": flagged, "ceiling": ceiling, **{f"top{k}": v for k, v in hits.items()},
            "read1": read1, "read8": read8, "shown": shown}


def report(name: str, m: dict) -> str:
    f = m["flagged"]
    return (f"{name}: flagged {f}/{m['cases']}, original possible {m['ceiling'] / m['cases']:.1%}; "
            f"original in top 1 {m['top1'] / f:.1%}, top 5 {m['top5'] / f:.1%}, top 8 {m['top8'] / f:.1%}; "
            f"reads well (pair attested both sides): top 1 {m['read1'] / f:.1%}, "
            f"top 8 {m['read8'] / max(m['shown'], 1):.1%}")


def clear_rankings() -> None:
    """Empty the suggestions' ranking caches (the package's lru_caches, whichever this checker has)."""
    from poetry.checker import suggestions

    for name in ("ranking", "reading"):
        if hasattr(suggestions, name):
            getattr(suggestions, name).cache_clear()


def tune(checker, cases) -> None:
    """A grid of the weights of the line's reading on ``cases`` (the development split)."""
    from poetry.checker import suggestions

    for lm_weight in (0.0, 0.5, 0.75, 1.0, 1.5):
        for bonus in (0.0, 0.25, 0.5, 1.0, 2.0):
            suggestions._LM_WEIGHT, suggestions._WORD_BONUS = lm_weight, bonus
            clear_rankings()
            print(report(f"LM weight {lm_weight}, word bonus {bonus}", measure(checker, cases)), flush=True)


def timing(checker, repeat: int = 2000, cold: bool = True) -> float:
    """Best of three means (CPU time) of check_poem on 登高 with 渚淺; ``cold`` empties the ranking cache first
    (a new context each time), otherwise the same draft re-checked, as the live editor does."""
    text = DENG_GAO.replace("渚清", "渚淺")
    checker.check_poem(text)
    # the old module's FIFO dict, or the package's lru_cache'd ranking
    rankings = getattr(checker, "_RANKINGS", None) if cold else None
    if cold and rankings is None:
        rankings = type("Rankings", (), {"clear": staticmethod(clear_rankings)})()
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        for _ in range(repeat):
            if rankings is not None:
                rankings.clear()
            checker.check_poem(text)
        best = min(best, (time.process_time() - t) / repeat)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=build.DEFAULT_CORPUS)
    parser.add_argument("--set", choices=("anthology", "dev"), default="anthology")
    parser.add_argument("--before", default=BEFORE, help="commit of the old checker (frequency ranking)")
    parser.add_argument("--no-before", action="store_true", help="measure the working tree only")
    parser.add_argument("--tune", action="store_true", help="a grid of the reading weights (use --set dev)")
    parser.add_argument("--examples", action="store_true", help="the suggestions for EXAMPLES (Markdown rows)")
    parser.add_argument("--every", type=int, default=1, help="every n-th planted fault only (quicker tuning)")
    args = parser.parse_args(argv)

    from poetry import checker as after

    if args.examples:
        examples(after)
        return 0
    # the first suggestion call: parse the rhyme book first, then time the table load alone
    after.check_poem(DENG_GAO)
    t = time.process_time()
    after.check_poem(DENG_GAO.replace("渚清", "渚淺"))
    first = time.process_time() - t

    poems = eval_poems(args.corpus, args.set)
    cases = list(plants(after, poems))[:: args.every]
    print(f"set {args.set}: {len(poems)} poems of 4/8 lines × 5/7 chars, {plants.regulated} regulated, "
          f"{len(cases)} planted faults at 2/4/6 positions")
    if args.tune:
        tune(after, cases)
        return 0
    rows = []
    if not args.no_before:
        before = old_checker(args.before)
        rows.append((f"before ({args.before}, most used chars of the tone)", before))
    rows.append(("after (working tree)", after))
    for name, checker in rows:
        print(report(name, measure(checker, cases)))
    for name, checker in rows:
        print(f"{name}: one 七律 with a planted fault (登高, 渚淺), check_poem in-process "
              f"{timing(checker) * 1e6:.0f} µs"
              f" (re-checked, rankings cached: {timing(checker, cold=False) * 1e6:.0f} µs)")
    print(f"first suggestion call (loads the suggestion tables), CPU: {first * 1e3:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

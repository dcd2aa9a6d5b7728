"""How often the grading's words find fault with celebrated poems: the negative claims per kind (issue 14, part 4).

    nice -n 10 python scripts/eval_claims.py --corpus /work/shared/corpus [--examples 3] [--only tang|qjs|tests]

Every poem of three celebrated lists is graded under its own title (poetry.grading.grade_poem) and the negative
claims of its explanations and reasons are collected by kind (poetry.grading.claims: 不甚相屬, 對仗不工, 意象少有相通,
事實雜亂, 似兩首詩, 首尾斷續, 字序, 套語, 常語, 今語, 未及題意, 離題, 意味平平); the report gives each kind's rate (the
share of the list's poems that receive it) and examples. The lists:
  * tang: 唐詩三百首 (the corpus' tangshisanbaishou.json, held out of every model's training): the tuning set, on
    which the claims' thresholds are chosen; the script prints the quantiles of each claim's measure over it, so
    the thresholds can be recomputed after the models are rebuilt (each threshold's comment names its quantile);
  * qjs: 千家詩 (chinese-poetry npm 2.0.1, dist/mengxue/qianjiashi.json, read as scripts/song_anthology.py reads it),
    less its poems that are versions of a 唐詩三百首 poem: the confirmation set, never tuned on;
  * tests: tests/data/celebrated_*.json (celebrated_claims.json: the committed sample tests/test_grading_claims.py
    grades);
  * broken: the same claims on 唐詩三百首's broken copies (shuffled, corrupted, off-topic, interleaved), to show
    that a claim kept to the rare tail of real verse still finds the faults it names.
The share of poems graded 荒牌 is printed beside the claims (the grade is not a claim, but it says 事實雜亂).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from build_grading import _clean  # noqa: E402
from song_anthology import book_poems, is_version  # noqa: E402
from tang_corpus import load_anthology  # noqa: E402

from poetry.grading import grade_poem  # noqa: E402
from poetry.grading.claims import CLAIM_KINDS, negative_claims  # noqa: E402

QIANJIASHI = ROOT.parent / "songdata" / "package" / "dist" / "mengxue" / "qianjiashi.json"
#: The quantiles printed for each measure (the rare tail a claim is kept to, and the bands above it).
QUANTILES = (0.01, 0.02, 0.03, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.97, 0.98, 0.99)


def tang(corpus: Path) -> list[dict]:
    """唐詩三百首 as {"title", "author", "lines"}."""
    return [{"title": p["title"], "author": p["author"], "lines": p["lines"]} for p in load_anthology(corpus, _clean)]


def qianjiashi(path: Path, anthology: list[dict]) -> list[dict]:
    """千家詩's poems as {"title", "author", "lines"}, less those that are versions of a 唐詩三百首 poem."""
    out = []
    for label, title, paragraphs in book_poems(path):
        lines = _clean(paragraphs)
        if lines and not any(is_version(lines, a["lines"]) for a in anthology):
            out.append({"title": title, "author": label.split("）")[-1].strip(), "lines": lines})
    return out


def committed() -> list[dict]:
    """The celebrated poems of tests/data (celebrated_*.json), as {"title", "author", "lines"}."""
    out = []
    for path in sorted((ROOT / "tests" / "data").glob("celebrated_*.json")):
        for p in json.loads(path.read_text(encoding="utf-8"))["poems"]:
            out.append({"title": p["title"], "author": p.get("author", ""), "lines": _clean([p["text"]])})
    return out


def measures(lines: list[str], title: str, criteria: dict) -> dict[str, float]:
    """The measure behind each claim, for the quantiles its threshold is chosen from."""
    from poetry.grading.criteria import couplet_parallel, couplet_probs, is_lushi, relevance
    from poetry.grading.diction import stock_evidence
    from poetry.grading.measures import features

    out: dict[str, float] = {}
    if is_lushi(lines):
        out["律詩中二聯 對仗 (min)"] = min(couplet_parallel(lines[k], lines[k + 1]) for k in (2, 4))
    elif len(lines) >= 2:
        out["非律詩 聯 (min)"] = min(couplet_probs(lines))
    for name in ("貫理", "首尾貫通", "一氣呵成", "貼題"):
        if criteria[name]["score"] is not None:
            key = f"{name} ({'短' if len(lines) < 6 else '長'})" if name == "貫理" else name
            out[key] = criteria[name]["score"]
    _, backed = relevance(features(lines, title))
    if backed is not None:
        out["貼題 backed"] = backed
    out.update(stock_evidence(lines))
    return out


def evaluate(name: str, poems: list[dict], examples: int, quantiles: bool) -> None:
    """Grade every poem, print each claim kind's rate and examples, and (``quantiles``) each measure's quantiles."""
    counts: Counter[str] = Counter()
    shown: dict[str, list[str]] = {}
    values: dict[str, list[float]] = {}
    grades: Counter[str] = Counter()
    for p in poems:
        g = grade_poem("，".join(p["lines"]) + "。", title=p["title"])
        grades[g.grade] += 1
        for c in negative_claims(g.criteria, g.reasons):
            counts[c.kind] += 1
            shown.setdefault(c.kind, []).append(f"{p['author']}《{p['title']}》 {c.sentence}")
        if quantiles:
            for k, v in measures(list(g.lines), p["title"], g.criteria).items():
                values.setdefault(k, []).append(v)
    n = len(poems)
    print(f"\n## {name}: {n} poems; grades " + " ".join(f"{k} {grades[k]}" for k in ("上品", "中品", "下品", "荒牌")))
    print("\n| claim | poems | rate |\n| --- | --- | --- |")
    for kind in CLAIM_KINDS:
        print(f"| {kind} | {counts[kind]} | {counts[kind] / max(n, 1):.1%} |")
    for kind in CLAIM_KINDS:
        for line in shown.get(kind, [])[:examples]:
            print(f"  {kind}: {line}")
    if quantiles:
        print("\n| measure | n | " + " | ".join(f"{q:.0%}" for q in QUANTILES) + " |")
        print("| --- | --- |" + " --- |" * len(QUANTILES))
        for k, v in values.items():
            qs = np.quantile(v, QUANTILES)
            print(f"| {k} | {len(v)} | " + " | ".join(f"{x:.3f}" for x in qs) + " |")


def broken(corpus: Path) -> None:
    """Each claim kind's rate on 唐詩三百首's broken copies (eval_grading.broken_copies: shuffled, corrupted, off-topic,
    interleaved), beside the real poems': whether a claim kept to the rare tail of real verse still finds the faults
    it names (a claim that never fires could not be wrong)."""
    from eval_grading import as_text, broken_copies

    label, copies = broken_copies(corpus)
    counts: dict[str, Counter[str]] = {}
    for _, made in copies:
        for kind, q in made.items():
            g = grade_poem(as_text(q["lines"]), title=q["title"])
            counts.setdefault(kind, Counter())["poems"] += 1
            counts[kind].update({c.kind for c in negative_claims(g.criteria, g.reasons)})
    kinds = list(counts)
    print(f"\n## Broken copies of {label}\n\n| claim | " + " | ".join(kinds) + " |\n| --- |" + " --- |" * len(kinds))
    for claim in CLAIM_KINDS:
        print(f"| {claim} | " + " | ".join(f"{counts[k][claim] / counts[k]['poems']:.1%}" for k in kinds) + " |")


#: The committed sample (tests/data/celebrated_claims.json): this many poems of the confirmation set, drawn with SEED.
SAMPLE, SEED = 40, 14


def write_sample(path: Path, poems: list[dict]) -> None:
    """Write SAMPLE poems of ``poems`` drawn with SEED (not chosen by their claims) as {"title", "author", "text"}."""
    drawn = random.Random(SEED).sample(poems, SAMPLE)
    text = ["".join(f"{a}，{b}。" for a, b in zip(p["lines"][0::2], p["lines"][1::2])) for p in drawn]
    out = {"about": f"{SAMPLE} poems of 千家詩 (chinese-poetry npm 2.0.1, dist/mengxue/qianjiashi.json) that are not "
                    f"versions of a 唐詩三百首 poem, drawn with random.Random({SEED}) by scripts/eval_claims.py "
                    "--write-sample: the claims' thresholds were chosen on 唐詩三百首, never on these (claims14).",
           "poems": [{"title": p["title"], "author": p["author"], "text": t} for p, t in zip(drawn, text)]}
    path.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--qianjiashi", type=Path, default=QIANJIASHI)
    ap.add_argument("--examples", type=int, default=3)
    ap.add_argument("--only", choices=("tang", "qjs", "tests", "broken"))
    ap.add_argument("--write-sample", type=Path, help="write the committed sample of the confirmation set and stop")
    args = ap.parse_args(argv)
    anthology = tang(args.corpus)
    if args.write_sample:
        write_sample(args.write_sample, [p for p in qianjiashi(args.qianjiashi, anthology) if len(p["lines"]) % 2 == 0])
        return 0
    if args.only in (None, "tang"):
        evaluate("唐詩三百首 (tuning set)", anthology, args.examples, quantiles=True)
    if args.only in (None, "qjs"):
        evaluate("千家詩 less 唐詩三百首 (confirmation set)", qianjiashi(args.qianjiashi, anthology), args.examples,
                 quantiles=True)
    if args.only in (None, "tests"):
        evaluate("tests/data/celebrated_*.json", committed(), args.examples, quantiles=False)
    if args.only in (None, "broken"):
        broken(args.corpus)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Measure 對仗 (聯句切當's parallel model) on couplets the grading never trained on.

    nice -n 10 python scripts/eval_duizhang.py [--corpus ../shared/corpus] [--cases]

1. 唐詩三百首 (held out of grading training): in its 五律 and 七律 of eight lines, the 頷聯 and 頸聯 (nearly
   always 對仗) against the 首聯 and 尾聯 (mostly not): ROC AUC of ``parallel_score`` and of the criterion's
   reading (``couplet_parallel``, which also knows 當句對), and the share of middle couplets below the
   對仗不工 line (0.5).
2. tests/data/celebrated_lines.json: of its celebrated couplets that are 對仗 (all but
   tests/data/duizhang_cases.json's ``celebrated_not_parallel``), the share below the line.
3. tests/data/duizhang_cases.json (``--cases``): each probe couplet, labelled by hand before the software
   ran, with its score; AUC, and the mistakes at the line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_grading as build  # noqa: E402
from eval_grading import auc  # noqa: E402

from poetry.grading import parallel_score  # noqa: E402
from poetry.grading.variants import canonical  # noqa: E402


def _line() -> float:
    """The 對仗不工 line of this tree's model (0.5 for a model without one)."""
    try:
        from poetry.grading.criteria import loose_line
    except ImportError:
        return 0.5
    return loose_line()


#: 對仗不工 is said of a 律詩's middle couplet below this.
LINE = _line()


def _reading():
    """The criterion's reading of a couplet, when this tree has one; else parallel_score."""
    try:
        from poetry.grading.criteria import couplet_parallel
    except ImportError:
        from poetry.grading.explanations import same_figure

        def couplet_parallel(a: str, b: str) -> float:
            return max(parallel_score(a, b), 0.9 if same_figure(a, b) else 0.0)
    return couplet_parallel


def score_pairs(pairs: list[tuple[str, str]]) -> tuple[list[float], list[float]]:
    """(parallel_score, criterion reading) of each pair, read in the grading's one form."""
    read = _reading()
    raw, crit = [], []
    for a, b in pairs:
        a, b = canonical(a), canonical(b)
        raw.append(parallel_score(a, b))
        crit.append(read(a, b))
    return raw, crit


def anthology(corpus: Path) -> None:
    poems = [p for p in build.load_anthology(corpus) if p["type"] in ("五言律詩", "七言律詩")]
    poems = [p for p in poems if len(p["lines"]) == 8 and len({len(x) for x in p["lines"]}) == 1]
    mid = [(p["lines"][a], p["lines"][a + 1]) for p in poems for a in (2, 4)]
    out = [(p["lines"][a], p["lines"][a + 1]) for p in poems for a in (0, 6)]
    (mr, mc), (orr, oc) = score_pairs(mid), score_pairs(out)
    print(f"唐詩三百首 律詩 of eight lines: {len(poems)} poems; {len(mid)} middle couplets, {len(out)} outer")
    for name, m, o in (("parallel_score", mr, orr), ("criterion", mc, oc)):
        below = sum(x < LINE for x in m)
        print(f"  {name}: AUC middle vs outer {auc(m, o):.3f}; middle below {LINE:.3f}: {below} ({below / len(m):.0%});"
              f" outer below: {sum(x < LINE for x in o) / len(o):.0%}")


def celebrated() -> None:
    cases = json.loads((ROOT / "tests/data/duizhang_cases.json").read_text(encoding="utf-8"))
    data = json.loads((ROOT / "tests/data/celebrated_lines.json").read_text(encoding="utf-8"))
    non = set(cases["celebrated_not_parallel"])
    pairs = [(a, b) for p in data["poems"] for a, b in p["couplets"] if a not in non]
    raw, crit = score_pairs(pairs)
    print(f"celebrated 對仗 couplets: {len(pairs)}")
    for name, s in (("parallel_score", raw), ("criterion", crit)):
        low = [f"{a}／{b} {x:.2f}" for (a, b), x in zip(pairs, s) if x < LINE]
        print(f"  {name}: below {LINE:.3f}: {len(low)} ({len(low) / len(pairs):.0%}) {'; '.join(low)}")


def probe() -> None:
    cases = json.loads((ROOT / "tests/data/duizhang_cases.json").read_text(encoding="utf-8"))["cases"]
    raw, crit = score_pairs([(c["a"], c["b"]) for c in cases])
    for name, s in (("parallel_score", raw), ("criterion", crit)):
        pos = [x for c, x in zip(cases, s) if c["parallel"]]
        neg = [x for c, x in zip(cases, s) if not c["parallel"]]
        miss = sum(x < LINE for x in pos) + sum(x >= LINE for x in neg)
        tss = [(c, x) for c, x in zip(cases, s) if c["tss"]]
        t_auc = auc([x for c, x in tss if c["parallel"]], [x for c, x in tss if not c["parallel"]])
        print(f"probe set {len(pos)} parallel / {len(neg)} not: {name} AUC {auc(pos, neg):.3f} (唐詩三百首 only "
              f"{t_auc:.3f}); wrong side of {LINE:.3f}: {miss}")
    for c, x, y in zip(cases, raw, crit):
        flag = "" if (y >= LINE) == c["parallel"] else "  ←"
        kind = "對" if c["parallel"] else "散"
        print(f"    {kind} {x:.2f} {y:.2f} {c['a']}／{c['b']} {','.join(c['figures'])}{flag}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=build.DEFAULT_CORPUS if hasattr(build, "DEFAULT_CORPUS")
                    else ROOT.parent / "shared" / "corpus")
    ap.add_argument("--cases", action="store_true", help="list every probe couplet with its scores")
    args = ap.parse_args(argv)
    anthology(args.corpus)
    celebrated()
    if args.cases:
        probe()
    else:
        cases = json.loads((ROOT / "tests/data/duizhang_cases.json").read_text(encoding="utf-8"))["cases"]
        raw, crit = score_pairs([(c["a"], c["b"]) for c in cases])
        for name, s in (("parallel_score", raw), ("criterion", crit)):
            pos = [x for c, x in zip(cases, s) if c["parallel"]]
            neg = [x for c, x in zip(cases, s) if not c["parallel"]]
            print(f"probe set: {name} AUC {auc(pos, neg):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Why the combined score loses what each criterion knows: per-kind AUCs, lost pairs, and other combiners.

    GRADING_DUMP=/tmp/dump.pkl nice -n 10 python scripts/build_grading.py --stage model  # and /tmp/dump.pkl.criteria
    nice -n 10 python scripts/eval_combiner.py --dump /tmp/dump.pkl [--corpus ../shared/corpus] [--song 1000]

Three measures (issue 14; docs/BENCHMARKS.md, "Combining the criteria"):
  * each criterion alone and the shipped base score (``base_score``, before 格調), real against each kind of
    broken copy, on 唐詩三百首 (held out) and on 全宋詩 (evaluation only), copies made as scripts/eval_grading.py
    makes them;
  * the lost pairs: of the (real, broken) pairs that the kind's own criterion orders and the score does not,
    which criterion of the real poem is its weakest (its quantile among the set's real poems);
  * other combiners, fitted on the build's combiner rows only (the corpus' calibration half: never
    唐詩三百首, never Song): AUCs on the build's dev third (fitted on two thirds), then fitted on all of them
    and applied to the Tang and Song sets. Candidates: today's recipe (monotone boosted trees over the
    log-criteria, ``build_grading._fit_trees``'s settings), the kinds weighted alike, fewer criteria, and one
    head per kind (monotone trees, real against that kind, classes weighed equally, so each head's log-odds is
    a log likelihood ratio) joined as a posterior, -log Σ prior_k · exp(-log-odds_k).
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_grading as build  # noqa: E402
from eval_grading import as_text, auc, broken_copies  # noqa: E402

from poetry.grading import (  # noqa: E402
    COMBINED_CRITERIA,
    applying,
    base_score,
    combined_features,
    measure_written,
    title_information,
    warm_up,
)
from poetry.grading.models import _model  # noqa: E402

KINDS = ("shuffled", "corrupted", "off_topic", "interleaved")
#: The criterion each kind of broken copy is meant to fail (scripts/eval_grading.py's table).
OWN = {"shuffled": "貫理", "corrupted": "一氣呵成", "off_topic": "貼題", "interleaved": "聯句切當"}
NAMES = list(COMBINED_CRITERIA)
#: Today's weights of the kinds in the combiner (build_grading.DEGRADATIONS).
TODAY = {"shuffled": 1.0, "corrupted": 1.0, "off_topic": 1.0, "interleaved": 0.25}


def eval_rows(corpus: Path, song: int) -> list[dict]:
    """Every real poem and broken copy of the Tang (song=0) or Song set, measured: kind, criteria, base score."""
    rows = []
    for n, (_, copies) in enumerate(broken_copies(corpus, song)[1]):  # eval_grading's copies
        for kind, q in copies.items():
            written, criteria, _ = measure_written(as_text(q["lines"]), q["title"])
            title = written.shown_title
            rows.append({"poem": n, "kind": kind, "title": title, "base": base_score(criteria, title),
                         "scores": {k: v["score"] for k, v in criteria.items()}, "info": title_information(title)})
    return rows


def as_features(scores: dict, info: float, title: str | None) -> list[float]:
    """The combiner's input (``combined_features`` of the criteria that apply under the title)."""
    crit = {k: {"score": v} for k, v in scores.items()}
    f = combined_features(applying(crit, title), _model()["combined"].get("neutral"), info)
    return [f[n] for n in NAMES]


def _value(r: dict, name: str) -> float:
    """A criterion's score, 0.5 where it does not apply (as scripts/eval_grading.py counts it)."""
    return 0.5 if r["scores"].get(name) is None else r["scores"][name]


def criteria_table(sets: dict[str, list[dict]]) -> None:
    """Each criterion alone and the base score, real against each kind, and the lost pairs' weakest criterion."""
    print("| set | measure | " + " | ".join(KINDS) + " |\n| --- | --- | " + " | ".join("---" for _ in KINDS) + " |")
    for name, rows in sets.items():
        by = {k: [r for r in rows if r["kind"] == k] for k in ("real",) + KINDS}
        for c in ["base score"] + NAMES:
            get = (lambda r: r["base"]) if c == "base score" else (lambda r, c=c: _value(r, c))
            cells = [f"{auc([get(r) for r in by['real']], [get(r) for r in by[k]]):.3f}" for k in KINDS]
            print(f"| {name} | {c} | " + " | ".join(cells) + " |")
    for name, rows in sets.items():
        print(f"\nLost pairs, {name} (share of all real × broken pairs):\n")
        lost_pairs(rows)


def lost_pairs(rows: list[dict]) -> None:
    """Pairs the kind's own criterion orders and the base score does not, by the real poem's weakest other criterion."""
    real = [r for r in rows if r["kind"] == "real"]
    value = _value
    ranks = {c: np.sort([value(r, c) for r in real]) for c in NAMES}
    quantile = lambda r, c: np.searchsorted(ranks[c], value(r, c), side="right") / len(real)  # noqa: E731
    weakest = [min(NAMES, key=lambda c: quantile(r, c)) for r in real]
    for kind, own in OWN.items():
        neg = [r for r in rows if r["kind"] == kind]
        wrong = np.array([r["base"] for r in real])[:, None] <= np.array([r["base"] for r in neg])[None, :]
        right = np.array([value(r, own) for r in real])[:, None] > np.array([value(r, own) for r in neg])[None, :]
        lost = wrong & right
        blame = Counter()
        for i in np.nonzero(lost)[0]:
            blame[min((c for c in NAMES if c != own), key=lambda c: quantile(real[i], c))] += 1
        print(f"- {kind}: score {1 - wrong.mean():.3f}, {own} alone {right.mean():.3f}; lost {lost.mean():.3f}, "
              f"won {(~wrong & ~right).mean():.3f}; the real poem's weakest other criterion in the lost pairs: "
              + ", ".join(f"{c} {k / max(lost.sum(), 1):.0%}" for c, k in blame.most_common(4)))
    print(f"- real poems by their weakest criterion: {dict(Counter(weakest).most_common())}")


class Trees:
    """Today's recipe (monotone boosted trees, real against all kinds) with other weights or fewer criteria."""

    def __init__(self, weights: dict[str, float] = TODAY, names: list[str] = NAMES, depth: int = 3):
        self.weights, self.idx, self.depth = weights, [NAMES.index(n) for n in names], depth

    def fit(self, data: dict[str, np.ndarray]) -> Trees:
        from sklearn.ensemble import HistGradientBoostingClassifier

        X = np.vstack([data["real"]] + [data[k] for k in KINDS])[:, self.idx]
        y = np.r_[np.ones(len(data["real"])), np.zeros(len(X) - len(data["real"]))]
        scale = sum(self.weights.values()) * len(data["shuffled"]) / len(data["real"])
        w = np.r_[[scale] * len(data["real"]), np.concatenate([[self.weights[k]] * len(data[k]) for k in KINDS])]
        self.clf = HistGradientBoostingClassifier(monotonic_cst=[1] * len(self.idx), max_depth=self.depth, max_iter=200,
                                                  learning_rate=0.1, min_samples_leaf=50, random_state=build.SEED)
        self.clf.fit(X, y, sample_weight=w)
        return self

    def score(self, X: np.ndarray) -> np.ndarray:
        return self.clf.decision_function(X[:, self.idx])


class Heads:
    """One monotone tree head per kind (real against it, classes weighed equally), joined as a posterior."""

    def __init__(self, prior: dict[str, float] = TODAY):
        self.prior = prior

    def fit(self, data: dict[str, np.ndarray]) -> Heads:
        from sklearn.ensemble import HistGradientBoostingClassifier

        self.heads = {}
        for k in KINDS:
            X = np.vstack([data["real"], data[k]])
            y = np.r_[np.ones(len(data["real"])), np.zeros(len(data[k]))]
            w = np.where(y == 1, 1.0, len(data["real"]) / len(data[k]))
            head = HistGradientBoostingClassifier(monotonic_cst=[1] * len(NAMES), max_depth=3, max_iter=150,
                                                  min_samples_leaf=50, random_state=1)
            self.heads[k] = head.fit(X, y, sample_weight=w)
        return self

    def score(self, X: np.ndarray) -> np.ndarray:
        z = [math.log(self.prior[k]) - self.heads[k].decision_function(X) for k in KINDS]
        return -np.logaddexp.reduce(np.array(z), axis=0)


CANDIDATES = {
    "today's recipe (trees, interleaved ×0.25)": lambda: Trees(),
    "trees, the four kinds alike": lambda: Trees({k: 1.0 for k in KINDS}),
    "trees, off-topic ×1.5": lambda: Trees(dict(TODAY, off_topic=1.5)),
    "trees, corrupted ×1.5": lambda: Trees(dict(TODAY, corrupted=1.5)),
    "trees without 首尾貫通, 語句清新": lambda: Trees(names=["平仄和暢", "貼題", "貫理", "聯句切當", "一氣呵成"]),
    "trees, depth 2": lambda: Trees(depth=2),
    "heads, priors 1 1 1 0.25": lambda: Heads(),
    "heads, priors 1 1 1.25 0.25": lambda: Heads(dict(TODAY, off_topic=1.25)),
    "heads, priors 1 1 1.5 0.25": lambda: Heads(dict(TODAY, off_topic=1.5)),
    "heads, priors 1 1 1 0.5": lambda: Heads(dict(TODAY, interleaved=0.5)),
}


def combiners(dump: Path, sets: dict[str, list[dict]]) -> None:
    """Fit each candidate on the build's combiner rows; AUCs on its dev third, then on each evaluation set."""
    with open(str(dump) + ".criteria", "rb") as fh:
        comb = pickle.load(fh)
    rows = {k: [(as_features(s, info, title), i) for s, info, i, title in v] for k, v in comb.items()}
    third = 2 * len(rows["real"]) // 3
    part = lambda keep: {k: np.array([f for f, i in v if keep(i)]) for k, v in rows.items()}  # noqa: E731
    fit, dev, whole = part(lambda i: i < third), part(lambda i: i >= third), part(lambda i: True)
    evals = {name: {k: np.array([as_features(r["scores"], r["info"], r["title"]) for r in rs if r["kind"] == k])
                    for k in ("real",) + KINDS} for name, rs in sets.items()}
    print("\n| combiner | " + " | ".join(["corpus dev"] + list(sets)) + " |\n| --- | " + " | ".join(
        "---" for _ in range(len(sets) + 1)) + " |")

    def aucs(model, data) -> str:
        real = model.score(data["real"])
        return " / ".join(f"{auc(real, model.score(data[k])):.3f}" for k in KINDS)

    for name, make in CANDIDATES.items():
        shipped = make().fit(whole)
        cells = [aucs(make().fit(fit), dev)] + [aucs(shipped, data) for data in evals.values()]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", required=True, help="GRADING_DUMP prefix of a build_grading.py --stage model run")
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--song", type=int, default=1000, help="how many 全宋詩 poems (0: Tang only)")
    args = parser.parse_args(argv)
    warm_up()
    sets = {"唐詩三百首": eval_rows(Path(args.corpus), 0)}
    if args.song:
        sets[f"全宋詩 {args.song}"] = eval_rows(Path(args.corpus), args.song)
    print("Real against broken, AUC (shuffled / corrupted / off-topic / interleaved):\n")
    criteria_table(sets)
    combiners(Path(args.dump), sets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

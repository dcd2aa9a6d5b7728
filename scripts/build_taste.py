"""Build the taste model (data/grading_taste.json) from an anthologist's choice, with authors held out.

    nice -n 10 python scripts/build_taste.py [--corpus ../shared/corpus]

Run after scripts/build_grading.py (the taste model reads the criteria and the combined score of the
models in data/). The choice: every 唐詩三百首 poem of one line length against every 全唐詩 poem by the
same author and of the same shape (line count and length) in the grading build's calibration split
(poems the LMs and vectors never saw, as they never saw the anthology; versions of anthology poems
excluded). A pairwise logistic model (no intercept, L2, C = TASTE_C) over the differences of the
standardised ``poetry.grading.taste`` features of the two poems of each pair, each anthology poem's
pairs weighing one poem in all.

Estimates with whole authors held out: five groups of authors (balanced by pairs) and one author at a
time; pooled AUC (the share of pairs the anthology poem wins), the mean over authors and per author.
The blended score (``poetry.grading.taste.blend``) is measured the same way for each of WEIGHTS; the
weight shipped is TASTE_WEIGHT (chosen so that the real-against-broken AUCs do not drop). The shipped
model is fitted on all pairs; the file also holds the spread of its linear score over the poems and its
quantiles among the rivals (the 格調 score shown is the share of those ordinary Tang poems it passes), and
the five author groups' models (``folds``) with which scripts/eval_grading.py scores the choice as unseen.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_grading as build  # noqa: E402

from poetry.grading.taste import STOCK_FEATURES, TASTE_CRITERIA, TASTE_FILE, blend, competence  # noqa: E402

#: Chosen by grouped CV among 0.003, 0.01, 0.03, 0.1, 1 and among feature sets (docs/BENCHMARKS.md).
TASTE_C = 0.003
#: Blend weights tried (log-odds added per unit of the taste's linear score, scaled by the score).
WEIGHTS = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
#: The blend weight shipped: the largest of WEIGHTS whose real-against-broken AUCs (scripts/eval_grading.py,
#: 唐詩三百首 against shuffled, corrupted, off-topic and interleaved copies) all stay within 0.005 of the score
#: without taste (4.0 costs the interleaved AUC 0.006; docs/BENCHMARKS.md, "Taste (issue 14, taste14)").
TASTE_WEIGHT = 2.0
GROUPS = 5


def feature_names(theme_names: list[str]) -> list[str]:
    """The taste model's features, in order (less STOCK_FEATURES)."""
    names = (["lm_both", "gain_mean", "lm_fit", "det_llr"] + [f"c_{n}" for n in TASTE_CRITERIA]
             + ["scene_share", "function_share"] + [f"th_{n}" for n in theme_names] + ["th_max", "th_spread"]
             + ["par_mean", "par_first"])
    return [n for n in names if n not in STOCK_FEATURES]


def choice_pairs(corpus: Path) -> tuple[list[dict], list[tuple[int, int]]]:
    """(poems, pairs): the anthology poems and their same-author, same-shape unseen rivals, and the pairs
    (anthology poem's index, rival's index) into the poems."""
    anthology = [p for p in build.load_anthology(corpus) if len(p["lines"]) >= 2]
    poems = build.load_corpus(corpus)
    held = build.heldout_matches(poems, anthology)
    _, unseen = build.split_corpus(poems, held)
    shape = lambda p: (len(p["lines"]), len(p["lines"][0]))  # noqa: E731
    pool: dict[tuple, list[int]] = defaultdict(list)
    for i in unseen:
        if len({len(x) for x in poems[i]["lines"]}) == 1:
            pool[(poems[i]["author"], shape(poems[i]))].append(i)
    out: list[dict] = []
    pairs = []
    place: dict[int, int] = {}
    for p in anthology:
        rivals = pool.get((p["author"], shape(p)), []) if len({len(x) for x in p["lines"]}) == 1 else []
        if not rivals:
            continue
        out.append(p)
        a = len(out) - 1
        for i in rivals:
            if i not in place:
                out.append(poems[i])
                place[i] = len(out) - 1
            pairs.append((a, place[i]))
    return out, pairs


def measure(poems: list[dict]) -> tuple[list[dict], np.ndarray]:
    """Each poem's taste features, its combined score before taste and its ``competence``."""
    from eval_grading import as_text

    from poetry.grading import base_score, measure_written
    from poetry.grading.taste import taste_features

    rows, base, gate = [], [], []
    for p in poems:
        written, criteria, _ = measure_written(as_text(p["lines"]), p["title"])
        rows.append(taste_features(p["lines"], criteria)[0])
        base.append(base_score(criteria, written.title))  # as grade_poem's score reads the title
        gate.append(competence(criteria))
    return rows, np.array(base), np.array(gate)


def fit(D: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Pairwise logistic weights: each difference as a win and its negation as a loss."""
    from sklearn.linear_model import LogisticRegression

    X = np.vstack([D, -D])
    y = np.r_[np.ones(len(D)), np.zeros(len(D))]
    m = LogisticRegression(C=TASTE_C, fit_intercept=False, max_iter=5000).fit(X, y, sample_weight=np.r_[weight, weight])
    return m.coef_[0]


def wins(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """1 where the anthology poem scores higher, 0.5 on a tie."""
    return (a > b) + 0.5 * (a == b)


def report(label: str, won: np.ndarray, authors: np.ndarray, per_author: bool = False) -> dict:
    """Print and return pooled AUC, the mean over authors, and (optionally) each author with ≥ 15 pairs."""
    names = sorted(set(authors), key=lambda a: -(authors == a).sum())
    per = {a: float(won[authors == a].mean()) for a in names}
    print(f"{label}: pooled {won.mean():.3f}, mean over {len(names)} authors {np.mean(list(per.values())):.3f}")
    if per_author:
        big = [a for a in names if (authors == a).sum() >= 15]
        print("  " + ", ".join(f"{a} {per[a]:.2f} ({(authors == a).sum()})" for a in big))
    return {"pooled": round(float(won.mean()), 4), "author_mean": round(float(np.mean(list(per.values()))), 4)}


def cross_validate(X: np.ndarray, base: np.ndarray, gate: np.ndarray, pairs: np.ndarray, authors: np.ndarray,
                   weight: np.ndarray) -> tuple[dict, dict]:
    """Grouped CV (five author groups; one author at a time): the taste alone and blended with the score.
    Also returns the five groups' models (``folds``: each author's group, and each group's weights fitted
    without it), which scripts/eval_grading.py uses to score the choice's poems as unseen."""
    D = X[pairs[:, 0]] - X[pairs[:, 1]]
    order = sorted(set(authors), key=lambda a: (-(authors == a).sum(), a))
    group = {a: i % GROUPS for i, a in enumerate(order)}
    g = np.array([group[a] for a in authors])
    result = {}
    folds_out = {"groups": {str(a): int(group[a]) for a in order}, "coef": []}
    report("score before taste", wins(base[pairs[:, 0]], base[pairs[:, 1]]), authors, per_author=True)
    for name, folds in (("five author groups", [g == k for k in range(GROUPS)]),
                        ("one author at a time", [authors == a for a in order])):
        z = np.zeros(len(pairs))
        zs = np.zeros((len(pairs), 2))
        for held in folds:
            coef = fit(D[~held], weight[~held])
            if name == "five author groups":
                folds_out["coef"].append([round(float(x), 6) for x in coef])
            z[held] = D[held] @ coef
            zs[held] = np.stack([X[pairs[held, 0]] @ coef, X[pairs[held, 1]] @ coef], 1)
        result[name] = {"taste": report(f"taste alone, {name}", wins(z, 0 * z), authors, per_author=True)}
        for w in WEIGHTS:
            a = np.array([blend(s, t, w, c) for s, t, c in zip(base[pairs[:, 0]], zs[:, 0], gate[pairs[:, 0]])])
            b = np.array([blend(s, t, w, c) for s, t, c in zip(base[pairs[:, 1]], zs[:, 1], gate[pairs[:, 1]])])
            result[name][f"blend {w}"] = report(f"score blended, weight {w}, {name}", wins(a, b), authors)
    return result, folds_out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    args = parser.parse_args(argv)
    from poetry.grading import warm_up
    from poetry.grading.taste import _themes

    warm_up()
    poems, pairs_list = choice_pairs(Path(args.corpus))
    pairs = np.array(pairs_list)
    authors = np.array([poems[a]["author"] for a, _ in pairs_list])
    per_poem = np.bincount(pairs[:, 0], minlength=len(poems))
    weight = 1.0 / per_poem[pairs[:, 0]]
    print(f"{len(pairs)} pairs, {len(set(pairs[:, 0]))} anthology poems, {len(set(pairs[:, 1]))} rivals, "
          f"{len(set(authors))} authors")
    names = feature_names(list(_themes()[0]))
    rows, base, gate = measure(poems)
    raw = np.array([[r[k] for k in names] for r in rows])
    mean, scale = raw.mean(0), raw.std(0) + 1e-9
    X = (raw - mean) / scale
    cv, folds = cross_validate(X, base, gate, pairs, authors, weight)
    groups = cv["five author groups"]
    chosen = TASTE_WEIGHT
    print(f"blend weight {chosen}: pooled {groups[f'blend {chosen}']['pooled']:.3f} with five author groups")
    coef = fit(X[pairs[:, 0]] - X[pairs[:, 1]], weight)
    z = X @ coef
    rivals = sorted(set(pairs[:, 1]))
    spec = {"features": names, "mean": [round(float(x), 6) for x in mean],
            "scale": [round(float(x), 6) for x in scale], "coef": [round(float(x), 6) for x in coef],
            "weight": chosen, "z_scale": round(float(z.std()), 6),
            "quantiles": [round(float(q), 6) for q in np.quantile(z[rivals], np.linspace(0, 1, 21))],
            "C": TASTE_C, "pairs": len(pairs), "authors": len(set(authors)), "cv": cv, "folds": folds}
    with open(ROOT / "data" / TASTE_FILE, "w", encoding="utf-8") as fh:
        json.dump(spec, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print("  " + ", ".join(f"{n} {c:+.3f}" for n, c in sorted(zip(names, coef), key=lambda x: -abs(x[1]))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

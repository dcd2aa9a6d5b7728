"""Measure a model of 起承轉合 (scripts/order_model.py): does it tell a poem's own order from its couplets moved?

    nice -n 10 python scripts/eval_order.py [--corpus ../shared/corpus] [--song 2000] [--dev]

The position models (a 絕句's and a 律詩's) are fitted here, in memory, on every readable poem of the grading build's
training split (scripts/build_grading.py split_corpus; 唐詩三百首, its versions and the calibration split held out,
no Song verse): about 25 s. ``--dev`` instead holds a random tenth of each shape's training poems out and prints, for
each (C, MIN_DF) of a small grid, the line accuracy and the share of those poems whose written order is the likeliest
of their couplet orders: how order_model.ORDER_C and MIN_DF were chosen (the calibration split is not read then).
Every measure below is on poems the models never learned:
- Tang: the grading build's calibration split (4- and 8-line poems of 5 or 7 characters), and the part of it that
  shares no line with a training poem (全唐詩 repeats poems under two names: a copy in training would be recalled);
- Song: ``song_sample`` poems of held-out authors (tang_corpus.song_split), evaluation only;
- each poem against its couplets reversed (a 絕句's two couplets swapped; a 律詩's 尾 頸 頷 首) and shuffled (a random
  other order), AUC of ``read_order(...).own`` (the written order's probability among its couplet orders);
- 唐詩三百首 against the same author's calibration poems of the same shape (song_anthology.pair_ordinary, as
  eval_grading.py's anthology_choice pairs them): within-author AUC of ``own`` and of the margin;
- the graded sets (tests/data/graded_set*.json; evaluation only): fine against skilled, fine against flat, and
  every kind against its own reversal;
- the 22 celebrated plain poems (tests/data/celebrated_plain.json): each one's ``own``, its margin over the likeliest
  other order, its percentile among the real calibration poems of its shape, and the line read as 轉.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_grading as build  # noqa: E402
from eval_grading import auc  # noqa: E402
from order_model import MIN_DF, ORDER_C, SHAPES, PositionModel, fit, position_logp, read_order, readable  # noqa: E402

from poetry.grading.variants import canonical  # noqa: E402
from poetry.text import split_lines  # noqa: E402

GRADED = sorted((ROOT / "tests" / "data").glob("graded_set*.json"))
CELEBRATED = ROOT / "tests" / "data" / "celebrated_plain.json"
SEED = 15


def reordered(lines: list[str], order: list[int]) -> list[str]:
    """The poem with its couplets set in ``order`` (entry s: the couplet at place s).

    >>> reordered(["a", "b", "c", "d"], [1, 0])
    ['c', 'd', 'a', 'b']
    """
    return [lines[2 * c + j] for c in order for j in (0, 1)]


def reversed_couplets(lines: list[str]) -> list[str]:
    """The couplets in reverse order."""
    return reordered(lines, list(range(len(lines) // 2))[::-1])


def shuffled_couplets(lines: list[str], rng: random.Random) -> list[str]:
    """The couplets in a random order other than the written one."""
    k = len(lines) // 2
    order = list(range(k))
    while order == list(range(k)):
        rng.shuffle(order)
    return reordered(lines, order)


Models = dict[int, PositionModel]


def real_vs_moved(label: str, poems: list[list[str]], models: Models, rng: random.Random) -> None:
    """Print the AUCs of the written order's probability against the couplets reversed and shuffled, by shape, and
    the share of poems whose written order is the likeliest of all."""
    for n in SHAPES:
        group = [p for p in poems if len(p) == n]
        if not group:
            continue
        real = [read_order(p, models).own for p in group]
        rev = [read_order(reversed_couplets(p), models).own for p in group]
        shuf = [read_order(shuffled_couplets(p, rng), models).own for p in group]
        best = statistics.mean(read_order(p, models).margin > 0 for p in group)
        name = {4: "絕句", 8: "律詩"}[n]
        print(f"| {label} {name} | {len(group)} | {auc(real, rev):.3f} | {auc(real, shuf):.3f} | {best:.3f} |")


def load(corpus: Path) -> tuple[list[dict], list[int], list[int], list[dict]]:
    """(全唐詩 poems, training indices, calibration indices, 唐詩三百首)."""
    poems = build.load_corpus(corpus)
    anthology = build.load_anthology(corpus)
    train, calib = build.split_corpus(poems, build.heldout_matches(poems, anthology))
    return poems, train, calib, anthology


def anthology_pairs(anthology: list[dict], ordinary: list[dict], models: Models) -> None:
    """唐詩三百首 against the same author's poems of the same shape: within-author AUC of ``own`` and the margin."""
    from song_anthology import pair_ordinary

    famous = [p for p in anthology if readable(p["lines"])]
    pairs = pair_ordinary(famous, [p for p in ordinary if readable(p["lines"])], 5, 14)
    for key in ("own", "margin"):
        wins = [1.0 if getattr(read_order(p["lines"], models), key) > getattr(read_order(q["lines"], models), key)
                else 0.0 for p, q in pairs]
        print(f"唐詩三百首 against the same author's calibration poems: {len(pairs)} pairs, "
              f"{len({p['author'] for p, _ in pairs})} authors; AUC of {key} {statistics.mean(wins):.3f}")


def graded_sets(models: Models) -> None:
    """The graded sets' kinds: fine against skilled, flat and weak, and each kind against its own couplets reversed."""
    kinds: dict[str, list[list[str]]] = {}
    for path in GRADED:
        for p in json.loads(path.read_text(encoding="utf-8"))["poems"]:
            lines = [canonical(x) for x in split_lines(p["text"])]
            if readable(lines):
                kinds.setdefault(p["kind"], []).append(lines)
    own = {k: [read_order(p, models).own for p in v] for k, v in kinds.items()}
    print("\nGraded sets (readable poems of each kind): mean own; AUC against its own reversal")
    for k, v in sorted(kinds.items()):
        rev = [read_order(reversed_couplets(p), models).own for p in v]
        print(f"  {k}: {len(v)} poems, mean own {statistics.mean(own[k]):.3f}, real vs reversed {auc(own[k], rev):.3f}")
    for other in ("skilled", "flat", "weak"):
        if other in own and "fine" in own:
            print(f"  fine against {other}: AUC {auc(own['fine'], own[other]):.3f}")


def celebrated(calib_own: dict[int, list[float]], seen: set[str], models: Models) -> None:
    """Each celebrated plain poem's reading, and how many are read as disordered (another order likelier)."""
    print("\n| poem | own | chance | margin | percentile among calibration | 轉 read at line | in training |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    disordered = 0
    for p in json.loads(CELEBRATED.read_text(encoding="utf-8"))["poems"]:
        lines = [canonical(x) for x in split_lines(p["text"])]
        r = read_order(lines, models)
        if r is None:
            print(f"| {p['title']} | – | – | – | – | – | |")
            continue
        ref = calib_own[len(lines)]
        pct = 100 * sum(x < r.own for x in ref) / len(ref)
        disordered += r.margin < 0
        print(f"| {p['title']} | {r.own:.3f} | {r.chance:.3f} | {r.margin:+.2f} | {pct:.0f} | {r.turn + 1} | "
              f"{'yes' if any(x in seen for x in lines) else ''} |")
    print(f"celebrated poems read as disordered (another couplet order likelier): {disordered}")


#: Weights of the what-if blend (``blend_report``): log-odds added per unit of log(own / chance).
BLEND_WEIGHTS = (0.0, 0.25, 0.5, 1.0)


def order_evidence(lines: list[str], models: Models) -> float:
    """log(own / chance) of a readable poem, clipped to ±3 (0 for another shape): how far the written order is
    likelier than a random order of its couplets."""
    r = read_order(lines, models)
    return 0.0 if r is None else float(np.clip(np.log(max(r.own, 1e-9) / r.chance), -3.0, 3.0))


def blend_report(models: Models, tang: list[list[str]], anthology: list[dict], ordinary: list[dict],
                 rng: random.Random) -> None:
    """What the order would do to the grade (a what-if, not shipped): Grade.score with w · ``order_evidence`` added
    to its log-odds, for each w of BLEND_WEIGHTS, on 300 calibration poems of each shape against their couplets
    reversed, 唐詩三百首 against the same author (the shipped 格調, in-sample), the graded sets (fine against skilled
    and flat; Spearman with the 詩伯's 品 over the well-formed), and the celebrated plain poems (largest fall)."""
    from scipy.stats import spearmanr
    from song_anthology import pair_ordinary

    from poetry.grading import GRADES, grade_poem

    def scored(lines: list[str], title: str | None = None) -> tuple[float, float]:
        s = min(max(grade_poem("，".join(lines) + "。", title=title).score, 1e-4), 1 - 1e-4)
        return float(np.log(s / (1 - s))), order_evidence(lines, models)

    def at(x: tuple[float, float], w: float) -> float:
        return x[0] + w * x[1]

    sample = [p for n in SHAPES for p in rng.sample([q for q in tang if len(q) == n], 300)]
    real = [scored(p) for p in sample]
    rev = [scored(reversed_couplets(p)) for p in sample]
    pairs = pair_ordinary([p for p in anthology if readable(p["lines"])],
                          [p for p in ordinary if readable(p["lines"])], 5, 14)
    cache: dict[int, tuple[float, float]] = {}
    for p in {id(x): x for pair in pairs for x in pair}.values():
        cache[id(p)] = scored(p["lines"], p["title"])
    anth = [(cache[id(p)], cache[id(q)]) for p, q in pairs]
    graded = []
    for path in GRADED:
        for p in json.loads(path.read_text(encoding="utf-8"))["poems"]:
            lines = [canonical(x) for x in split_lines(p["text"])]
            graded.append((p["kind"], GRADES.index(p["grade"]), scored(lines, p["title"])))
    famous = [scored([canonical(x) for x in split_lines(p["text"])], p["title"])
              for p in json.loads(CELEBRATED.read_text(encoding="utf-8"))["poems"]]
    print("\n| w | Tang real vs reversed (Grade) | 唐詩三百首 vs same author | fine vs skilled | fine vs flat "
          "| Spearman, well-formed | celebrated: largest fall in score |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for w in BLEND_WEIGHTS:
        kind = {k: [at(x, w) for kk, _, x in graded if kk == k] for k in ("fine", "skilled", "flat")}
        wf = [(g, at(x, w)) for k, g, x in graded if k != "jumble"]
        rho = spearmanr([g for g, _ in wf], [-v for _, v in wf])[0]
        sig = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
        fall = max(sig(at(x, 0)) - sig(at(x, w)) for x in famous)
        won = statistics.mean(1.0 if at(a, w) > at(b, w) else 0.5 if at(a, w) == at(b, w) else 0.0 for a, b in anth)
        print(f"| {w} | {auc([at(x, w) for x in real], [at(x, w) for x in rev]):.3f} | {won:.3f} "
              f"| {auc(kind['fine'], kind['skilled']):.3f} | {auc(kind['fine'], kind['flat']):.3f} | {rho:.2f} "
              f"| {fall:.3f} |")


def dev_report(train: list[list[str]]) -> None:
    """Line accuracy and the share of poems whose written order is the likeliest, on a random tenth of each shape's
    training poems held out, for each (C, MIN_DF) of the grid."""
    for n in SHAPES:
        shaped = [p for p in train if len(p) == n]
        held = set(random.Random(SEED).sample(range(len(shaped)), len(shaped) // 10))
        fit_on = [p for i, p in enumerate(shaped) if i not in held]
        dev = [p for i, p in enumerate(shaped) if i in held]
        for c in (0.1, 0.3, 1.0):
            for min_df in (5, 10, 20):
                model = fit(fit_on, c, min_df)
                acc = np.mean([(position_logp(p, model).argmax(1) == np.arange(n)).mean() for p in dev])
                best = np.mean([read_order(p, {n: model}).margin > 0 for p in dev])
                print(f"{n} lines: C {c} min_df {min_df}: {len(model.index)} features, line accuracy {acc:.3f}, "
                      f"written order the likeliest {best:.3f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--song", type=int, default=2000, help="Song poems of held-out authors (0: none)")
    parser.add_argument("--dev", action="store_true", help="choose C and MIN_DF on a tenth of the training split")
    parser.add_argument("--blend", action="store_true", help="also what the order would do added to Grade.score")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    corpus = Path(args.corpus)
    poems, train, calib, anthology = load(corpus)
    learned = [poems[i]["lines"] for i in train if readable(poems[i]["lines"])]
    if args.dev:
        dev_report(learned)
        return 0
    models = {n: fit([p for p in learned if len(p) == n]) for n in SHAPES}
    print(f"Position models (C {ORDER_C}, features seen in ≥ {MIN_DF} lines): "
          + ", ".join(f"{n} lines {sum(len(p) == n for p in learned)} poems, {len(m.index)} features"
                      for n, m in models.items()))
    for n, names in ((4, "起承轉合"), (8, "首首頷頷頸頸尾尾")):
        for place in range(0, n, 1 if n == 4 else 2):
            print(f"  {n} lines, {names[place]} (line {place + 1}): {' '.join(models[n].top_features(place))}")
    seen = {x for i in train for x in poems[i]["lines"]}
    tang = [poems[i]["lines"] for i in calib if readable(poems[i]["lines"])]
    unseen = [p for p in tang if not any(x in seen for x in p)]
    print("\n| poems | n | AUC real vs reversed | real vs shuffled | written order likeliest |")
    print("| --- | --- | --- | --- | --- |")
    real_vs_moved("Tang calibration", tang, models, rng)
    real_vs_moved("Tang calibration, no line in training", unseen, models, rng)
    if args.song:
        from tang_corpus import song_sample

        song = [p["lines"] for p in song_sample(args.song, build._clean, corpus=corpus) if readable(p["lines"])]
        real_vs_moved("Song, held-out authors", song, models, rng)
    anthology_pairs(anthology, [poems[i] for i in calib], models)
    graded_sets(models)
    calib_own = {n: [read_order(p, models).own for p in tang if len(p) == n] for n in SHAPES}
    celebrated(calib_own, seen, models)
    if args.blend:
        blend_report(models, unseen, anthology, [poems[i] for i in calib], rng)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

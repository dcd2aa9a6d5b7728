"""Why 一氣呵成 reads Song diction as garbled: the fluency calibrator's features on Tang and Song poems, and refits.

    nice -n 10 python scripts/eval_fluency_song.py --corpus /work/shared/corpus [--song-train 1500] [--heldout 600]

一氣呵成 is a logistic calibrator (scripts/build_grading.py build_model) over the LM features of
poetry.grading.measures (CRITERION_FEATURES["fluency"], det_llr from the swapped-character detector), fitted on
全唐詩 calibration poems against corrupted copies. This script measures, with the models in data/:

1. the calibrator's inputs on three sets of poems: the Tang calibration poems it learned (build_grading's half_a),
   poems of 全宋詩's **training** authors (tang_corpus.song_split: author-disjoint from every held-out poem; the
   diagnosis and every choice are made on them) and, with ``--heldout N``, N poems of held-out authors
   (tang_corpus.song_sample, the poems the product is measured on: reported last, never tuned on);
2. which features carry the Song penalty: each feature's coefficient times the Song−Tang difference of its mean
   (in the calibrator's scale), in logit units;
3. refits of the detector and the calibrator (cross-fitted det_llr, as build_grading.fit_detector): the recipe
   of the build (Tang only, corruption rate 0.25 by frequency), Tang and Song training poems as real with their
   corrupted copies, harder corruptions (a flatter draw of the swapped-in characters, a lower rate), each judged
   on a dev third of the Tang and Song training poems: real against corrupted (AUC) and the share of real poems
   under 0.5 and under the poor band (0.159, the 5% quantile of real Tang poems' 一氣呵成).
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_grading as build  # noqa: E402
import tang_corpus  # noqa: E402

from poetry import grading  # noqa: E402
from poetry.grading.models import _logistic, _model  # noqa: E402

NAMES = grading.CRITERION_FEATURES["fluency"]
POOR = 0.15885  # data/grading_model.json real_quantiles 一氣呵成's 5% quantile at the base (b0823746)


class Corrupter(build.Degrader):
    """build.Degrader whose swapped-in characters are drawn by frequency ** ``power`` (1: the build's draw)."""

    def __init__(self, pool: list[dict], freq: Counter, seed: int, power: float = 1.0) -> None:
        super().__init__(pool, freq, seed=seed)
        if power != 1.0:
            self.by_tone = {t: (chars, [w ** power for w in weights]) for t, (chars, weights) in self.by_tone.items()}


def poem_rows(poems: list[dict], deg: build.Degrader, rate: float) -> dict:
    """Features (with the shipped detector's det_llr) and character rows of each poem and of its corrupted copy."""
    out = {"real": [], "corrupted": [], "chars": []}
    for p in poems:
        bad = deg.corrupted(p, rate=rate)
        out["real"].append(grading.features(p["lines"], p["title"]))
        out["corrupted"].append(grading.features(bad["lines"], p["title"]))
        swapped = np.array([x != y for a, b in zip(p["lines"], bad["lines"]) for x, y in zip(a, b)])
        out["chars"].append((grading.char_features(p["lines"]), grading.char_features(bad["lines"]), swapped))
    return out


def load_sets(corpus: Path, n_tang: int, n_song: int, n_held: int, rates: tuple[float, ...],
              powers: tuple[float, ...]) -> dict:
    """The Tang calibration poems (build_grading's half_a), ``n_song`` Song training authors' poems of 4 to 40
    lines, ``n_held`` held-out Song poems; each with corrupted copies for every (rate, power)."""
    poems = build.load_corpus(corpus)
    held = build.heldout_matches(poems, build.load_anthology(corpus))
    train, calib = build.split_corpus(poems, held)
    pool = [poems[i] for i in calib]
    tang = pool[: len(pool) // 2][:n_tang]
    freq = Counter(ch for i in train[:20000] for line in poems[i]["lines"] for ch in line)
    split = tang_corpus.song_split(build._clean, tang_corpus.DEFAULT_SONG, corpus)
    song = [dict(p, title=build.canonical(p["title"])) for p in split.train if 4 <= len(p["lines"]) <= 40
            and len({len(x) for x in p["lines"]}) == 1 and len(p["lines"][0]) in (5, 7)]
    song = random.Random(build.SEED).sample(song, n_song)
    heldout = tang_corpus.song_sample(n_held, build._clean, corpus=corpus) if n_held else []
    sets = {"tang": tang, "song": song, "heldout": heldout}
    out = {"names": {k: [p["lines"] for p in v] for k, v in sets.items()}}
    for rate in rates:
        for power in powers:
            for name, ps in sets.items():
                if ps:
                    deg = Corrupter(ps, freq, seed=build.SEED, power=power)
                    out[(name, rate, power)] = poem_rows(ps, deg, rate)
                    build.log(f"{name} rate {rate} power {power}: {len(ps)} poems")
    return out


def auc(pos: list[float], neg: list[float]) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score([1] * len(pos) + [0] * len(neg), list(pos) + list(neg)))


def penalty(spec: dict, tang: list[dict], song: list[dict]) -> list[tuple[str, float]]:
    """Each feature's share of the Song−Tang difference of the calibrator's logit, largest penalty first."""
    rows = []
    for name, _mu, sd, coef in zip(spec["features"], spec["mean"], spec["scale"], spec["coef"]):
        diff = np.mean([f[name] for f in song]) - np.mean([f[name] for f in tang])
        rows.append((name, coef * diff / sd))
    return sorted(rows, key=lambda r: r[1])


def refit(parts: list[dict], C: float = 1.0) -> tuple[dict, dict]:
    """A detector and a fluency calibrator fitted on ``parts`` (each {"real", "corrupted", "chars"}), det_llr
    cross-fitted as build_grading.fit_detector does."""
    feats = {"real": [dict(f) for p in parts for f in p["real"]],
             "corrupted": [dict(f) for p in parts for f in p["corrupted"]]}
    chars = [c for p in parts for c in p["chars"]]
    detector = build.fit_detector(chars, feats)
    return detector, build._fit(feats["real"], feats["corrupted"], NAMES, C)


def judged(detector: dict | None, spec: dict, part: dict) -> tuple[list[float], list[float]]:
    """The calibrator's probabilities of a part's real poems and corrupted copies, det_llr by ``detector``."""
    out = []
    for kind, k in (("real", 0), ("corrupted", 1)):
        probs = []
        for f, c in zip(part[kind], part["chars"]):
            if detector is not None:
                f = dict(f, **grading.detector_features(detector, c[k]))
            probs.append(_logistic(spec, f))
        out.append(probs)
    return out[0], out[1]


def report(label: str, detector: dict | None, spec: dict, parts: dict[str, dict]) -> None:
    cells = []
    for name, part in parts.items():
        real, bad = judged(detector, spec, part)
        r = np.array(real)
        cells.append(f"{name}: AUC {auc(real, bad):.4f}, median {np.median(r):.3f}, <0.5 {np.mean(r < 0.5):.1%}, "
                     f"<poor {np.mean(r < POOR):.1%}")
    print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


def third(part: dict, dev: bool) -> dict:
    """The fit two thirds or the dev third of a part (by poem)."""
    cut = 2 * len(part["real"]) // 3
    s = slice(cut, None) if dev else slice(0, cut)
    return {k: v[s] for k, v in part.items()}


def graded(corpus: Path, n: int) -> None:
    """一氣呵成 and the 品 as grade_poem gives them: ``n`` held-out Song poems (tang_corpus.song_sample) and 唐詩三百首
    (held out of all training): median, share under 0.5, under the poor band (the model's 5% quantile of real
    Tang poems, and the base's 0.159), the 品, and how often 一氣呵成 is the weakest criterion of a poem under 0.5."""
    from eval_grading import as_text

    from poetry.grading import GRADES, grade_poem

    band = _model()["real_quantiles"]["一氣呵成"][0]
    sets = {"held-out Song": tang_corpus.song_sample(n, build._clean, corpus=corpus),
            "唐詩三百首": [p for p in build.load_anthology(corpus) if len(p["lines"]) >= 2]}
    print(f"\n一氣呵成 through grade_poem (poor band: under {band:.3f}):\n")
    print("| poems | n | median | < 0.5 | < band | < 0.159 | " + " | ".join(GRADES)
          + " | score < 0.5: 一氣呵成 weakest |\n" + "| --- " * (7 + len(GRADES)) + "|")
    for name, poems in sets.items():
        flu, grades, low, weakest = [], Counter(), 0, 0
        for p in poems:
            g = grade_poem(as_text(p["lines"]), title=p["title"])
            flu.append(g.criteria["一氣呵成"]["score"])
            grades[g.grade] += 1
            if g.score < 0.5:
                low += 1
                scored = {k: c["score"] for k, c in g.criteria.items() if c["score"] is not None}
                weakest += min(scored, key=scored.get) == "一氣呵成"
        f = np.array(flu)
        print(f"| {name} | {len(f)} | {np.median(f):.3f} | {np.mean(f < 0.5):.1%} | {np.mean(f < band):.1%} | "
              f"{np.mean(f < POOR):.1%} | " + " | ".join(f"{grades[x] / len(f):.0%}" for x in GRADES)
              + f" | {weakest} of {low} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--tang", type=int, default=3000, help="how many of the Tang calibration poems")
    parser.add_argument("--song-train", type=int, default=1500)
    parser.add_argument("--heldout", type=int, default=0)
    parser.add_argument("--cache", default="", help="pickle of the features (read when it exists, else written)")
    parser.add_argument("--rates", default="0.25")
    parser.add_argument("--powers", default="1.0")
    parser.add_argument("--graded", type=int, default=0,
                        help="only grade that many held-out Song poems and 唐詩三百首 with grade_poem (``graded``)")
    args = parser.parse_args(argv)
    if args.graded:
        graded(Path(args.corpus), args.graded)
        return 0
    rates = tuple(float(x) for x in args.rates.split(","))
    powers = tuple(float(x) for x in args.powers.split(","))
    cache = Path(args.cache) if args.cache else None
    if cache and cache.exists():
        data = pickle.loads(cache.read_bytes())
    else:
        grading.warm_up()
        data = load_sets(Path(args.corpus), args.tang, args.song_train, args.heldout, rates, powers)
        if cache:
            cache.write_bytes(pickle.dumps(data))
    shipped = _model()["criteria"]["fluency"]
    base = (0.25, 1.0)
    tang, song = data[("tang", *base)], data[("song", *base)]
    print("\nWhich features carry the Song penalty (coef × (Song mean − Tang mean) / scale, logit units):\n")
    for name, value in penalty(shipped, tang["real"], song["real"]):
        print(f"  {name:16s} {value:+.3f}")
    logit = lambda fs: np.mean([np.log(p / (1 - p)) for p in (_logistic(shipped, f) for f in fs)])  # noqa: E731
    print(f"  mean logit: Tang {logit(tang['real']):+.3f}, Song {logit(song['real']):+.3f}")
    dev = {"tang dev": third(tang, True), "song dev": third(song, True)}
    print("\n| calibrator | " + " | ".join(dev) + " |\n| --- | --- | --- |")
    report("shipped (detector and calibrator of data/)", None, shipped, dev)
    variants = {"Tang only, rate 0.25 (the build's recipe)": [third(tang, False)],
                "Tang + Song training poems, rate 0.25": [third(tang, False), third(song, False)]}
    for rate in rates:
        for power in powers:
            if (rate, power) != base:
                variants[f"Tang + Song, rate {rate}, power {power}"] = [
                    third(data[("tang", rate, power)], False), third(data[("song", rate, power)], False)]
    fitted = {}
    for label, parts in variants.items():
        detector, spec = refit(parts)
        fitted[label] = (detector, spec)
        report(label, detector, spec, dev)
    if ("heldout", *base) in data:
        held = {"held-out Song": data[("heldout", *base)]}
        print("\nHeld-out Song authors (measured once, at the end):\n")
        report("shipped", None, shipped, held)
        for label, (detector, spec) in fitted.items():
            report(label, detector, spec, held)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Measure pastiche (意味平平): poems strung from stock images and stock collocations, against real poems.

    nice -n 10 python scripts/eval_pastiche.py [--corpus /work/shared/corpus] [--song 1000]

Everything is counted on the 全唐詩 training split of scripts/build_grading.py (唐詩三百首 and near-copies held
out; the calibration split unseen). Two synthetic kinds of pastiche are made from Tang data only:

  * ``lm``: quatrains and 律詩 sampled from the Tang trigram LM (data/lm_chars.npz) at a low temperature under
    a regulated tone pattern: fluent, stock, nothing particular;
  * ``swap``: real calibration poems with, in each line, its rarest two-character word (the fewest training
    poems hold it) swapped for a frequent word of the same tones: the same poem with its particular taken out.

The measures (``features``) are reported as the AUC of real calibration poems against each kind (higher = the
measure calls the synthetic poem more stock), on the graded sets (fine against skilled / flat; EVALUATION only,
nothing is fitted on them), on celebrated plain poems (their percentile among real Tang poems), and on a Song
sample (evaluation only). The loaded corpus is cached in /tmp/eval_pastiche_corpus.pkl (delete it after a
rebuild of the split).
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
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
from eval_grading import auc  # noqa: E402

from poetry.grading.variants import canonical  # noqa: E402
from poetry.lm import load_lm  # noqa: E402

#: The measures the pastiche score takes the least percentile of.
COMBINED = ("neg_idf_mean", "neg_rare_attested", "stock_image")
CACHE = Path("/tmp/eval_pastiche_corpus.pkl")
GRADED = [ROOT / "tests/data/graded_set.json", ROOT / "tests/data/graded_set_holdout.json",
          ROOT / "tests/data/graded_set_fresh.json"]
#: Celebrated plain poems a pastiche measure must never call stock (tests/data/celebrated_plain.json).
PLAIN_FAMOUS = {p["title"]: p["text"] for p in json.loads(
    (ROOT / "tests/data/celebrated_plain.json").read_text(encoding="utf-8"))["poems"]}


def segments(line: str) -> list[str]:
    """A line's rhythmic units: 五言 2|3, 七言 2|2|3; other lengths whole."""
    cuts = {5: (0, 2, 5), 7: (0, 2, 4, 7)}.get(len(line))
    if not cuts:
        return [line]
    return [line[a:b] for a, b in zip(cuts, cuts[1:])]


def bigrams(line: str) -> list[str]:
    """The two-character words a line may hold: adjacent pairs inside one rhythmic unit (五言 01 23 34)."""
    return [seg[i : i + 2] for seg in segments(line) for i in range(len(seg) - 1)]


def load(corpus: Path) -> tuple[list[dict], list[int], list[int], list[dict]]:
    """(全唐詩 poems, training indices, calibration indices, 唐詩三百首 as lines and author), cached in /tmp."""
    if CACHE.exists():
        return pickle.loads(CACHE.read_bytes())
    poems = build.load_corpus(corpus)
    anthology = build.load_anthology(corpus)
    train, calib = build.split_corpus(poems, build.heldout_matches(poems, anthology))
    out = ([{"lines": p["lines"], "title": p["title"], "author": p.get("author", "")} for p in poems], train, calib,
           [{"lines": p["lines"], "author": p["author"]} for p in anthology])
    CACHE.write_bytes(pickle.dumps(out))
    return out


class Counts:
    """Document frequencies in the training split: two-character words, characters, four-character strings."""

    def __init__(self, poems: list[dict], train: list[int]):
        self.n = len(train)
        self.df2: Counter[str] = Counter()
        self.df1: Counter[str] = Counter()
        self.c4: Counter[str] = Counter()
        self.units: Counter[tuple[int, int, str]] = Counter()  # (line length, unit index, unit) in training lines
        for i in train:
            lines = poems[i]["lines"]
            self.df2.update({b for line in lines for b in bigrams(line)})
            self.df1.update({ch for line in lines for ch in line})
            self.c4.update(line[k : k + 4] for line in lines if len(line) == 7 for k in (0, 2))
            self.units.update((len(x), k, u) for x in lines if len(x) in (5, 7) for k, u in enumerate(segments(x)))
        ranked = sorted(self.df2.values(), reverse=True)
        self.top = {k: ranked[min(k, len(ranked)) - 1] for k in (300, 1000, 3000)}

    def idf2(self, b: str) -> float:
        return math.log((self.n + 1) / (self.df2.get(b, 0) + 1))

    def idf1(self, ch: str) -> float:
        return math.log((self.n + 1) / (self.df1.get(ch, 0) + 1))


def features(lines: list[str], c: Counts) -> dict[str, float]:
    """Candidate measures of stock diction (higher = more stock)."""
    lines = [canonical(x) for x in lines]
    bs = [b for line in lines for b in bigrams(line)]
    if not bs:
        return {}
    lm = load_lm()
    idfs = sorted(c.idf2(b) for b in bs)
    attested = sorted((c.idf2(b) for b in bs if c.df2.get(b, 0) >= 3), reverse=True)
    per_line_min = [min((c.df2.get(b, 0) for b in bigrams(x)), default=0) for x in lines]
    out = {f"top{k}": sum(c.df2.get(b, 0) >= t for b in bs) / len(bs) for k, t in c.top.items()}
    out["neg_idf_mean"] = -sum(idfs) / len(idfs)
    out["neg_idf_q75"] = -idfs[int(0.75 * (len(idfs) - 1))]
    out["neg_rare_attested"] = -(sum(attested[:2]) / 2 if len(attested) >= 2 else 12.0)
    # a line whose rarest word is still common: no particular in it
    out["lines_all_common"] = sum(m >= c.top[3000] for m in per_line_min) / len(lines)
    chars = [ch for line in lines for ch in line]
    out["neg_char_idf"] = -sum(c.idf1(ch) for ch in chars) / len(chars)
    out["lm_mean"] = sum(lm.score_line(x).mean for x in lines) / len(lines)
    from poetry.grading.taste import FUNCTION_CHARS, _themes

    seeds = _themes()[3]
    img = [b for b in bs if c.df2.get(b, 0) >= c.top[1000] and not set(b) & FUNCTION_CHARS and set(b) & seeds]
    out["stock_image"] = len(img) / len(bs)
    out["stock_image_distinct"] = len(set(img)) / len(lines)
    out["neg_function"] = -sum(ch in FUNCTION_CHARS for ch in chars) / len(chars)
    out["image_minus_function"] = out["stock_image"] + out["neg_function"]
    means = [lm.score_line(x).mean for x in lines]
    out["lm_least_line"] = min(means)
    # the poem's most surprising character that still makes a word Tang verse knows (an unexpected but right word)
    surprise = [-lp for x in lines
                for lp, b in zip(lm.score_line(x).logprobs[1:], (x[k : k + 2] for k in range(len(x))))
                if c.df2.get(b, 0) >= 3]
    out["neg_surprise_attested"] = -max(surprise, default=0.0)
    unit_counts = [[c.units.get((len(x), k, u), 0) for k, u in enumerate(segments(x))] for x in lines
                   if len(x) in (5, 7)]
    flat_units = [n for row in unit_counts for n in row]
    if flat_units:
        out["unit_stock"] = sum(n >= 5 for n in flat_units) / len(flat_units)
        out["lines_all_units_stock"] = sum(min(row) >= 3 for row in unit_counts) / len(unit_counts)
        out["rarest_unit"] = math.log1p(min(flat_units))
        out["second_rarest_unit"] = math.log1p(sorted(flat_units)[1])
    tri = [x[k : k + 3] for x in lines for k in range(len(x) - 2)]
    counts3 = [lm.trigram_count(t) for t in tri]
    out["stock3_5"] = sum(n >= 5 for n in counts3) / max(len(tri), 1)
    out["stock3_20"] = sum(n >= 20 for n in counts3) / max(len(tri), 1)
    out["stock4"] = sum(any(c.c4.get(x[k : k + 4], 0) >= 5 for k in (0, 2)) for x in lines if len(x) == 7) / len(lines)
    return out


# --- synthetic pastiche -----------------------------------------------------------------------------

#: 平起 / 仄起 quatrain line patterns (the first line not rhyming); 律詩 repeats them.
PATTERNS = {5: [("平平平仄仄", "仄仄仄平平", "仄仄平平仄", "平平仄仄平"),
                ("仄仄平平仄", "平平仄仄平", "平平平仄仄", "仄仄仄平平")],
            7: [("平平仄仄平平仄", "仄仄平平仄仄平", "仄仄平平平仄仄", "平平仄仄仄平平"),
                ("仄仄平平平仄仄", "平平仄仄仄平平", "平平仄仄平平仄", "仄仄平平仄仄平")]}


def sample_poem(rng: random.Random, tones: dict[str, str], n_chars: int, n_lines: int, temp: float) -> list[str]:
    """A poem sampled from the Tang trigram LM at ``temp`` under a regulated tone pattern (一三五不論: the odd
    positions before the last are free) with no rhyme character used twice."""
    lm = load_lm()
    V = lm.size
    ok = np.array([ch in tones for ch in lm.vocab])
    tone_of = np.array([{"平": 0, "仄": 1}.get(tones.get(ch, ""), 2) for ch in lm.vocab])
    pattern = rng.choice(PATTERNS[n_chars])
    used: set[str] = set()
    lines = []
    for k in range(n_lines):
        want = pattern[k % 4]
        u, v, line = lm.bos, lm.bos, ""
        for pos in range(n_chars):
            lp = _next(lm, u, v)
            t = 0 if want[pos] == "平" else 1
            mask = ok & ((tone_of == t) | (tone_of == 2) | (pos % 2 == 0 and pos < n_chars - 1))
            mask &= np.array([ch not in used for ch in lm.vocab]) if pos == n_chars - 1 else True
            logits = np.where(mask, lp * math.log(10) / temp, -np.inf)  # log10 P → natural units
            p = np.exp(logits - logits.max())
            p /= p.sum()
            x = min(int(np.searchsorted(np.cumsum(p), rng.random())), V - 1)
            line += lm.vocab[x]
            u, v = v, x
        used.add(line[-1])
        lines.append(line)
    return lines


def _next(lm, u: int, v: int) -> np.ndarray:
    """log10 P(w | u, v) for every w."""
    V = lm.size
    w = np.arange(V)
    p = lm.p1[w]
    pos2, hit2 = lm._lookup(lm.k2, v * V + w)
    p = np.where(hit2, lm.d2[pos2], 0.0) + lm.g1[v] * p
    posc, hitc = lm._lookup(lm.k2, np.array([u * V + v]))
    gamma = lm.g2[posc[0]] if hitc[0] else 1.0
    pos3, hit3 = lm._lookup(lm.k3, (u * V + v) * V + w)
    p = np.where(hit3, lm.d3[pos3], 0.0) + gamma * p
    return np.log10(np.maximum(p, 1e-12))


def swap_copy(lines: list[str], c: Counts, tones: dict[str, str], by_tone: dict[str, list[str]],
              rng: random.Random) -> list[str] | None:
    """Each line's rarest unit-initial two-character word swapped for a frequent word of the same tones."""
    out = []
    for line in lines:
        starts = [0, 2] if len(line) == 5 else [0, 2, 4]
        k = min(starts, key=lambda s: c.df2.get(line[s : s + 2], 0))
        word = line[k : k + 2]
        key = "".join(tones.get(ch, "?") for ch in word)
        pool = [b for b in by_tone.get(key, []) if b != word]
        if "?" in key or "either" in key or not pool:
            out.append(line)
            continue
        out.append(line[:k] + rng.choice(pool) + line[k + 2 :])
    return out if out != lines else None


def same_author_pairs(anth: list[dict], poems: list[dict], calib: list[int]) -> list[tuple[int, int]]:
    """(anthology index, calibration poem index) of one author and one shape (lines, characters a line)."""
    by_key: dict[tuple, list[int]] = {}
    for i in calib:
        lines = poems[i]["lines"]
        if build._is_regular(lines):
            by_key.setdefault((poems[i]["author"], len(lines), len(lines[0])), []).append(i)
    key = lambda p: (p["author"], len(p["lines"]), len(p["lines"][0]))  # noqa: E731
    return [(a, i) for a, p in enumerate(anth) for i in by_key.get(key(p), [])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="/work/shared/corpus")
    parser.add_argument("--synthetic", type=int, default=400)
    parser.add_argument("--song", type=int, default=0)
    parser.add_argument("--temperature", type=float, default=0.4, help="of the LM samples (natural units)")
    parser.add_argument("--show", action="store_true", help="each graded poem's pastiche percentiles")
    args = parser.parse_args(argv)
    poems, train, calib, anthology = load(Path(args.corpus))
    c = Counts(poems, train)
    tones = build.load_tones()
    rng = random.Random(20261202)
    regular = [i for i in calib if build._is_regular(poems[i]["lines"]) and len(poems[i]["lines"]) in (4, 8)]
    real = [poems[i]["lines"] for i in rng.sample(regular, min(1500, len(regular)))]
    frequent = [b for b, n in c.df2.most_common(1500)]
    by_tone: dict[str, list[str]] = {}
    for b in frequent:
        by_tone.setdefault("".join(tones.get(ch, "?") for ch in b), []).append(b)
    shapes = [(len(p[0]), len(p)) for p in real]
    synth_lm = [sample_poem(rng, tones, chars, n, args.temperature) for chars, n in rng.sample(shapes, args.synthetic)]
    synth_swap = [s for s in (swap_copy(p, c, tones, by_tone, rng) for p in real[: args.synthetic]) if s]
    print("examples lm:", ["，".join(p) for p in synth_lm[:3]])
    print("examples swap:", ["，".join(p) for p in synth_swap[:3]])
    fr = [features(p, c) for p in real]
    ref = {n: sorted(f[n] for f in fr) for n in fr[0]}

    def feats(lines: list[str]) -> dict[str, float]:
        f = features(lines, c)
        pct = {n: bisect.bisect_left(ref[n], f[n]) / len(ref[n]) for n in (*COMBINED, "lm_mean")}
        f["min_pct"] = min(pct[n] for n in COMBINED)
        f["min_pct_lm"] = min(pct["lm_mean"], pct["neg_rare_attested"])
        return f

    fr = [feats(p) for p in real]
    names = list(fr[0])
    kinds = {"lm": [feats(p) for p in synth_lm], "swap": [feats(p) for p in synth_swap]}
    graded: dict[str, list[dict]] = {}
    for path in GRADED:
        for p in json.loads(path.read_text(encoding="utf-8"))["poems"]:
            from poetry.text import split_lines

            lines = split_lines(p["text"])
            graded.setdefault(p["kind"], []).append(feats(lines))
            if args.show:
                f = graded[p["kind"]][-1]
                print(f"{p['kind']:8} {p['grade']} {f['min_pct']:.3f} {f['min_pct_lm']:.3f} {p['title']} {lines[0]}")
    famous = {t: feats(__import__("poetry.text", fromlist=["split_lines"]).split_lines(x))
              for t, x in PLAIN_FAMOUS.items()}
    anth_poems = [p for p in anthology if build._is_regular(p["lines"]) and len(p["lines"]) in (4, 8)]
    anth = [feats(p["lines"]) for p in anth_poems]
    pairs = same_author_pairs(anth_poems, poems, calib)
    rival = {i: feats(poems[i]["lines"]) for i in {i for _, i in pairs}}
    song = []
    if args.song:
        from tang_corpus import song_sample

        song = [feats(p["lines"]) for p in song_sample(args.song, build._clean, corpus=Path(args.corpus))]
    print("\n| measure | real vs lm | real vs swap | fine vs skilled | fine vs flat | Song vs Tang | 三百首 vs Tang "
          "| 三百首 vs same author | celebrated: highest / third pct |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print(f"({len(pairs)} same-author pairs of one shape)")
    for n in names:
        r = [f[n] for f in fr]
        row = [auc([f[n] for f in kinds["lm"]], r), auc([f[n] for f in kinds["swap"]], r)]
        fine = [f[n] for f in graded["fine"]]
        row += [auc([f[n] for f in graded["skilled"]], fine), auc([f[n] for f in graded["flat"]], fine)]
        row.append(auc([f[n] for f in song], r) if song else float("nan"))
        row.append(auc([f[n] for f in anth], r))
        row.append(sum((anth[a][n] > rival[i][n]) + 0.5 * (anth[a][n] == rival[i][n]) for a, i in pairs) / len(pairs))
        pct = sorted(100 * sum(x < f[n] for x in r) / len(r) for f in famous.values())
        if args.show:
            print(n, " ".join(f"{t[:2]}{100 * sum(x < f[n] for x in r) / len(r):.0f}" for t, f in famous.items()))
        print(f"| {n} | " + " | ".join(f"{x:.3f}" for x in row) + f" | {pct[-1]:.0f} / {pct[-3]:.0f} |")
    for n in ("min_pct", "min_pct_lm"):
        top = max(f[n] for f in famous.values())
        print(" ".join(f"{t}{f[n]:.2f}" for t, f in famous.items()))
        print(f"\n{n}: celebrated max {top:.3f} ({max(famous, key=lambda t: famous[t][n])}); share above it:")
        for kind, rows in [("real Tang", fr), ("唐詩三百首", anth), ("Song", song), *graded.items()]:
            if rows:
                above, high = sum(f[n] > top for f in rows), sum(f[n] >= 0.95 for f in rows)
                print(f"  {kind}: {above}/{len(rows)}; ≥ 0.95: {high}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

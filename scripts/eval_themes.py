"""Evaluate the theme grouping on planted gold hands, against two baselines.

    python scripts/eval_themes.py [--hands 200] [--half tune|held-out|both] [--seed 7]
    python scripts/eval_themes.py --gold tests/data/themes_gold_fresh.json [--hands 200]

Gold: tests/data/themes_gold.json, themed character lists written by hand independently of
data/themes.json, each marked "tune" (may be looked at while tuning) or "held-out" (only reported).
Each hand plants 3 gold lists of different themes (from one half) among random tiles of data/tiles.json
up to 150 characters. Reported per half, averaged over the hands:

- ARI: adjusted Rand index of the predicted grouping of the planted characters against the gold lists
  (a character put in 其他 counts as a group of its own);
- naming: share of planted lists whose plurality group carries the gold theme's name.

It also prints where the model puts the planted characters (own theme, a theme the random tiles
formed, another planted theme, 其他) and how many gold characters are tiles at all (few: the gold
lists use rarer characters than a real hand holds).

Baselines on the same hands: radical-only grouping (Unihan kRSUnicode radical; a radical group is named
by the lexicon theme whose seeds share that radical most often) and random grouping (as many groups as
the model found, random lexicon names).

--gold PATH evaluates on another gold file of the same shape whose lists carry a "kind" instead of a
"half" (tests/data/themes_gold_fresh.json: "tiles" lists use only tile characters, "free" lists any
characters of Tang verse); it reports each kind on its own. That file was written after the method was
frozen and is run once, as the held-out test; the "tune"/"held-out" halves of themes_gold.json are both
development data now.
"""

from __future__ import annotations

import argparse
import bz2
import json
import random
import sys
from collections import Counter
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sklearn.metrics import adjusted_rand_score  # noqa: E402

from poetry.themes import OTHER, _traditional_forms, char_vectors, load_themes, suggest_themes  # noqa: E402
from poetry.tiles import load_tile_set  # noqa: E402

GOLD = ROOT / "tests" / "data" / "themes_gold.json"
UNIHAN = Path("/usr/share/unicode/Unihan_IRGSources.txt.bz2")
HAND_SIZE = 150
PLANTED = 3


def load_gold(half: str, path: Path = GOLD, key: str = "half") -> list[dict]:
    """The gold lists whose ``key`` ("half", or "kind" in a fresh file) is ``half`` (all for "both")."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    lists = doc["lists"] if isinstance(doc, dict) else doc
    return [g for g in lists if half == "both" or g[key] == half]


@cache
def radicals() -> dict[str, str]:
    """char → radical number from Unihan kRSUnicode ('46.3' → '46')."""
    out = {}
    with bz2.open(UNIHAN, "rt", encoding="utf-8") as fh:
        for line in fh:
            if "\tkRSUnicode\t" in line:
                code, _, value = line.rstrip("\n").split("\t")
                out[chr(int(code[2:], 16))] = value.split()[0].split(".")[0].rstrip("'")
    return out


def make_hands(gold: list[dict], n: int, seed: int) -> list[tuple[list[str], dict[str, int], list[str]]]:
    """n hands: (characters, planted char → list id, theme name of each list id)."""
    rng = random.Random(seed)
    tiles = [t.char for t in load_tile_set()]
    hands = []
    by_theme: dict[str, list[dict]] = {}
    for g in gold:
        by_theme.setdefault(g["theme"], []).append(g)
    for _ in range(n):
        names = rng.sample(sorted(by_theme), PLANTED)
        lists = [rng.choice(by_theme[name]) for name in names]
        planted: dict[str, int] = {}
        for k, g in enumerate(lists):
            for c in g["chars"]:
                planted.setdefault(c, k)
        filler = [c for c in tiles if c not in planted]
        rng.shuffle(filler)
        chars = list(planted) + filler[: HAND_SIZE - len(planted)]
        rng.shuffle(chars)
        hands.append((chars, planted, names))
    return hands


def score(pred: dict[str, str], planted: dict[str, int], names: list[str]) -> tuple[float, int]:
    """(ARI over the planted chars, number of lists named right)."""
    order = sorted(planted)
    truth = [planted[c] for c in order]
    labels = [pred.get(c, OTHER) if pred.get(c, OTHER) != OTHER else f"{OTHER}:{c}" for c in order]
    ari = adjusted_rand_score(truth, labels)
    right = 0
    for k, name in enumerate(names):
        if k not in truth:  # (--non-seeds) a list made only of seed characters is not scored
            continue
        got = Counter(pred.get(c, OTHER) for c in order if planted[c] == k).most_common()
        got = [g for g in got if g[0] != OTHER] or [(OTHER, 0)]
        right += got[0][0] == name
    return ari, right


def model_grouping(chars: list[str]) -> dict[str, str]:
    return {tc.char: s.name for s in suggest_themes(chars, max_themes=99) for tc in s.chars}


def radical_grouping(chars: list[str]) -> dict[str, str]:
    rad = radicals()
    themes = load_themes()
    seed_rad = [Counter(rad.get(c) for c in t.seeds) for t in themes]
    pred = {}
    for c in chars:
        r = rad.get(c)
        best = max(range(len(themes)), key=lambda k: (seed_rad[k][r], -k))
        pred[c] = themes[best].name if r and seed_rad[best][r] else f"部{r}"
    return pred


def random_grouping(chars: list[str], k: int, rng: random.Random) -> dict[str, str]:
    names = rng.sample([t.name for t in load_themes()], k)
    return {c: rng.choice(names) for c in chars}


def evaluate(half: str, n: int, seed: int, gold: list[dict] | None = None,
             non_seeds: bool = False) -> dict[str, dict]:
    """ARI, naming and where the planted characters go; with ``non_seeds`` the hands are the same but only
    the planted characters that are not seeds of any lexicon theme are scored."""
    gold = load_gold(half) if gold is None else gold
    seeds = {c for t in load_themes() for c in t.seeds} if non_seeds else set()
    rng = random.Random(seed + 1)
    totals = {m: [0.0, 0] for m in ("model", "radical", "random")}
    lists = 0
    theme_names = {t.name for t in load_themes()}
    where: Counter[str] = Counter()
    for chars, planted, names in make_hands(gold, n, seed):
        pred = model_grouping(chars)
        planted = {c: k for c, k in planted.items() if c not in seeds}
        for c, k in planted.items():
            got = pred.get(c, OTHER)
            where["own theme" if got == names[k] else "another planted theme" if got in names
                  else OTHER if got == OTHER else "a theme of the random tiles" if got in theme_names
                  else "an unnamed group"] += 1
        k = max(1, len({v for v in pred.values() if v != OTHER}))
        for method, p in (("model", pred), ("radical", radical_grouping(chars)),
                          ("random", random_grouping(chars, k, rng))):
            ari, right = score(p, planted, names)
            totals[method][0] += ari
            totals[method][1] += right
        lists += len(set(planted.values()))
    result = {m: {"ari": round(a / n, 3), "naming": round(r / lists, 3)} for m, (a, r) in totals.items()}
    result["model"]["where"] = {k: round(v / sum(where.values()), 3) for k, v in where.most_common()}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--half", choices=["tune", "held-out", "both"], default="both")
    parser.add_argument("--gold", type=Path, default=None,
                        help="another gold file whose lists carry a \"kind\" (reported per kind) instead of a \"half\"")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--non-seeds", action="store_true",
                        help="score only the planted characters that are not seeds of the lexicon (same hands)")
    parser.add_argument("--show", type=int, default=0, help="print the grouping of the first N hands")
    args = parser.parse_args(argv)
    if args.gold:
        key, everything = "kind", load_gold("both", args.gold, "kind")
        halves = sorted({g["kind"] for g in everything})
        lexicon = {t.name for t in load_themes()}
        unknown = sorted({g["theme"] for g in everything} - lexicon)
        print(f"gold: {args.gold} ({len(everything)} lists; themes not in the lexicon: {' '.join(unknown) or 'none'})")
    else:
        key, everything = "half", load_gold(args.half)
        halves = ["tune", "held-out"] if args.half == "both" else [args.half]
    path = args.gold or GOLD
    vectors = char_vectors()
    oov = sorted({c for g in everything for c in _traditional_forms(g["chars"], vectors) if c not in vectors})
    print(f"gold characters without a vector (always 其他): {''.join(oov) or 'none'}")
    tiles = {t.char for t in load_tile_set()}
    in_tiles = sum(c in tiles for g in everything for c in g["chars"])
    print(f"gold characters that are tiles of data/tiles.json: {in_tiles}"
          f" of {sum(len(g['chars']) for g in everything)}")
    for half in halves:
        gold = load_gold(half, path, key)
        if len({g["theme"] for g in gold}) < PLANTED:
            print(f"[{half}] fewer than {PLANTED} themes: skipped")
            continue
        if args.show:
            for chars, _planted, names in make_hands(gold, args.show, args.seed):
                print("planted:", names)
                for s in suggest_themes(chars, max_themes=99):
                    print(f"  {s.name} {s.score}: {''.join(c.char for c in s.chars)}")
        result = evaluate(half, args.hands, args.seed, gold, args.non_seeds)
        print(f"[{half}] {args.hands} hands × {PLANTED} planted lists"
              + (", non-seed characters only" * args.non_seeds))
        for method, r in result.items():
            print(f"  {method:8s} ARI {r['ari']:.3f}  naming {r['naming']:.1%}")
        where = result["model"]["where"].items()
        print("  model: planted characters put in " + ", ".join(f"{k} {v:.1%}" for k, v in where))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Taste (格調): what an anthologist's choice prefers among competent poems by one poet.

The other criteria tell a poem from a broken copy of it; they do not tell 杜甫's 登高 from the many
competent poems 杜甫 wrote that 唐詩三百首 left out. The measures here are the ones that do, found on
that choice (scripts/build_taste.py: 唐詩三百首 poems against poems by the same author and of the same
shape in 全唐詩, pairwise within an author, whole authors held out):

  聲口   the criteria 一氣呵成, 平仄和暢, 貫理; how the lines read under the trigram LMs of Tang verse (both
         directions; the mean and the gain over the unigram, how each character fits both sides, the
         swapped-character detector) is measured but not weighed (scripts/build_taste.py STOCK_FEATURES: it
         measures stock diction, and the choice is predicted as well without it), and picks the line quoted;
  題材   the poem's profile over the seventeen themes of themes.json (the choice favours 羈旅, 月夜,
         秋景 over 宴飲, 詠物, 遊仙); scene characters against 虛字;
  對仗   the couplets' parallelism (the 對仗 model): the mean and the first couplet.

``taste_features`` measures them; ``taste_of`` applies the learned pairwise model (a weighted sum of
standardised features, fitted on differences within an author, so it orders poems and its 0.5 is the
average of the poems it learned from) and says in Chinese what it found, pointing at a line.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any, Mapping

import numpy as np

from poetry.data import data_path, load_arrays

#: 虛字: the function characters of classical verse (particles, negations, adverbs, pronouns).
FUNCTION_CHARS = frozenset("之乎者也矣焉哉而且以於于其不無何豈莫自相亦又猶尚已方乃則即便卻還更只唯惟誰此彼是爲所與共"
                           "今未須應可能欲")
#: The file scripts/build_taste.py writes.
TASTE_FILE = "grading_taste.json"
#: The criteria the taste model reads (their scores, 0.5 where one does not apply).
TASTE_CRITERIA = ("一氣呵成", "平仄和暢", "貫理")
#: Features measured but not weighed (flat14b; scripts/build_taste.py leaves them out): how well the Tang LMs
#: predict the lines measures stock diction (on Tang poems the LM mean tells LM-sampled pastiche from real poems
#: with AUC 0.996, and it separates the graded sets' fine poems from skilled and flat pastiche, 0.80 / 0.93;
#: scripts/eval_pastiche.py). With them the model rewards a player for sounding like stock Tang; without them the
#: anthologist's choice is predicted as well (grouped CV pooled 0.723 with, 0.730 without; author mean 0.720,
#: 0.706). The share of scene characters, also stock-like, stays: without it the author mean falls to 0.665
#: (docs/BENCHMARKS.md, "Pastiche (issue 14, flat14b)").
STOCK_FEATURES = frozenset({"lm_both", "gain_mean", "lm_fit", "det_llr"})


@cache
def _themes() -> tuple[tuple[str, ...], Mapping[str, int], np.ndarray, frozenset[str]]:
    """(theme names, character index, each character's association with each theme, seed characters)."""
    import json

    npz = load_arrays("vectors_themes.npz")
    vocab = data_path("vectors_vocab.txt").read_text(encoding="utf-8").split("\n")
    with open(data_path("themes.json"), encoding="utf-8") as fh:
        seeds = frozenset(ch for t in json.load(fh)["themes"] for ch in t["seeds"])
    assoc = npz["assoc"].astype(np.float32)
    assoc.flags.writeable = False
    return tuple(str(t) for t in npz["themes"]), {c: i for i, c in enumerate(vocab) if c}, assoc, seeds


@cache
def _taste_model() -> Mapping[str, Any] | None:
    """The pairwise taste model (grading_taste.json), or None before scripts/build_taste.py has run."""
    import json

    path = data_path(TASTE_FILE)
    if not path.exists():
        return None
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def theme_profile(lines: list[str]) -> dict[str, float]:
    """The mean association of the poem's characters with each theme (``th_<name>``), the strongest
    (th_max) and how far it stands above the median theme (th_spread).

    >>> p = theme_profile(["大漠孤煙直", "長河落日圓"])
    >>> p["th_邊塞"] > p["th_閨怨"]
    True
    """
    names, index, assoc, _ = _themes()
    ids = [index[ch] for x in lines for ch in x if ch in index]
    prof = assoc[ids].mean(0) if ids else np.zeros(len(names), dtype=np.float32)
    out = {f"th_{n}": float(v) for n, v in zip(names, prof)}
    out["th_max"] = float(prof.max())
    out["th_spread"] = float(prof.max() - np.median(prof))
    return out


def _line_lm(lines: list[str]) -> tuple[dict[str, float], np.ndarray]:
    """The lines' mean log-probability under both trigram LMs and their gain over the unigram, the
    characters' fit to both sides (``poetry.lm.context_fit``); and each line's gain (for the passage)."""
    from poetry.lm import context_fit, load_lm

    fwd, bwd = load_lm(), load_lm(reversed=True)
    f = [fwd.score_line(x) for x in lines]
    b = [bwd.score_line(x[::-1]) for x in lines]
    gain = np.array([(fwd.gain(s) + bwd.gain(t)) / 2 for s, t in zip(f, b)])
    fits = [x for line in lines for x in context_fit(line)]
    return {"lm_both": float(np.mean([(s.mean + t.mean) / 2 for s, t in zip(f, b)])), "gain_mean": float(gain.mean()),
            "lm_fit": float(np.mean(fits))}, gain


def taste_features(lines: list[str], criteria: Mapping[str, Mapping[str, Any]]) -> tuple[dict[str, float], np.ndarray]:
    """The raw measures of taste of a poem (lines in the grading's one form) and each line's LM gain.

    >>> f, gain = taste_features(["兩個黃鸝鳴翠柳", "一行白鷺上青天", "窗含西嶺千秋雪", "門泊東吳萬里船"], {})
    >>> len(gain), f["scene_share"] > f["function_share"]
    (4, True)
    """
    from poetry.grading.measures import char_features, detector_features, parallel_score
    from poetry.grading.models import _model

    f, gain = _line_lm(lines)
    f["det_llr"] = detector_features(_model().get("char_detector"), char_features(lines))["det_llr"]
    for name in TASTE_CRITERIA:
        score = (criteria.get(name) or {}).get("score")
        f[f"c_{name}"] = 0.5 if score is None else float(score)
    chars = [ch for x in lines for ch in x]
    n = max(len(chars), 1)
    seeds = _themes()[3]
    f["scene_share"] = sum(ch in seeds for ch in chars) / n
    f["function_share"] = sum(ch in FUNCTION_CHARS for ch in chars) / n
    f.update(theme_profile(lines))
    par = [parallel_score(lines[i], lines[i + 1]) for i in range(0, len(lines) - 1, 2)]
    f["par_mean"] = float(np.mean(par)) if par else 0.0
    f["par_first"] = par[0] if par else 0.0
    return f, gain


def held_out_spec(author: str) -> Mapping[str, Any] | None:
    """The taste model as fitted without ``author``'s group of authors (the file's ``folds``, written by
    scripts/build_taste.py), so that a poem of the choice it learned from is scored as if unseen; the shipped
    model for an author it never learned from. None without a taste model.

    >>> spec = held_out_spec("杜甫")
    >>> spec is None or spec["coef"] != _taste_model()["coef"]
    True
    """
    spec = _taste_model()
    if spec is None or author not in spec.get("folds", {}).get("groups", {}):
        return spec
    return {**spec, "coef": spec["folds"]["coef"][spec["folds"]["groups"][author]]}


def taste_z(spec: Mapping[str, Any], feats: Mapping[str, float]) -> float:
    """The taste model's linear score: the weighted sum of the standardised features (0 at the mean poem)."""
    return sum(w * (feats[name] - mu) / sd for name, mu, sd, w in
               zip(spec["features"], spec["mean"], spec["scale"], spec["coef"]))


#: The criteria whose least score gates taste (each fails on one kind of broken poem: a jumble, garbled
#: characters, a borrowed title); raised to GATE_POWER, so only a poem they all trust is lifted.
GATE_CRITERIA = ("貫理", "一氣呵成", "貼題")
GATE_POWER = 4


def competence(criteria: Mapping[str, Mapping[str, Any]]) -> float:
    """How far the combiner's own criteria trust the poem: the least of GATE_CRITERIA (a criterion that
    does not apply, 貼題 without a title, counts as met) to the power GATE_POWER.

    >>> competence({"貫理": {"score": 0.9}, "一氣呵成": {"score": 0.5}, "貼題": {"score": None}})
    0.0625
    """
    scores = [(criteria.get(n) or {}).get("score") for n in GATE_CRITERIA]
    return min(1.0 if x is None else float(x) for x in scores) ** GATE_POWER


def blend(score: float, z: float, weight: float, gate: float) -> float:
    """The combined score with taste: in log-odds, ``weight`` × ``gate`` (``competence``) × the taste's
    linear score where it is above the average, so taste lifts the poems the criteria already trust and
    never lowers a poem nor lifts a broken one (a shuffled, garbled or mistitled copy fails a gate criterion).

    >>> blend(0.9, 1.0, 2.0, 1.0) > 0.9 == round(blend(0.9, -1.0, 2.0, 1.0), 6)
    True
    >>> abs(blend(0.3, 1.0, 2.0, 0.01) - 0.3) < 0.01
    True
    """
    s = min(max(score, 1e-4), 1 - 1e-4)
    logit = math.log(s / (1 - s)) + weight * gate * max(z, 0.0)
    return 1.0 / (1.0 + math.exp(-max(min(logit, 40.0), -40.0)))


#: The groups of features the explanation speaks of, in its words.
_GROUPS = {
    "聲口": ("lm_both", "gain_mean", "lm_fit", "det_llr", "c_一氣呵成", "c_平仄和暢", "c_貫理"),
    "對仗": ("par_mean", "par_first"),
}


def taste_of(lines: list[str], shown: list[str], criteria: Mapping[str, Mapping[str, Any]],
             spec: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """格調: the taste score in [0, 1] (the share of the ordinary Tang poems of the training pairs that the
    poem passes), the model's linear score
    and a Chinese explanation pointing at the line it credits most and the themes it weighs; None
    without a taste model. ``shown``: the lines as the poet wrote them (quoted in the explanation);
    ``spec``: another taste model than the shipped one (``held_out_spec``, for evaluation)."""
    spec = spec or _taste_model()
    if spec is None or len(lines) < 2:
        return None
    feats, gain = taste_features(lines, criteria)
    z = taste_z(spec, feats)
    parts = {name: 0.0 for name in ("聲口", "題材", "對仗")}
    for name, mu, sd, w in zip(spec["features"], spec["mean"], spec["scale"], spec["coef"]):
        group = next((g for g, members in _GROUPS.items() if name in members), "題材")
        parts[group] += w * (feats[name] - mu) / sd
    share = float(np.interp(z, spec["quantiles"], np.linspace(0, 1, len(spec["quantiles"]))))
    scaled = {k: v / spec["z_scale"] for k, v in parts.items()}
    return {"label": "格調", "score": round(share, 3), "z": z,
            "explanation": explain_taste(share, scaled, feats, spec, shown, gain)}


def explain_taste(share: float, parts: Mapping[str, float], feats: Mapping[str, float], spec: Mapping[str, Any],
                  shown: list[str], gain: np.ndarray) -> str:
    """What the taste model found, in a 詩伯's words: the line that reads most like Tang verse and the theme
    the poem leans to that the anthologist's choice favours or passes over; no figures. (The choice weighs
    the couplets' parallelism slightly against: it is not praised here.)"""
    best = shown[int(np.argmax(gain))] if len(gain) == len(shown) else shown[0]
    weights = dict(zip(spec["features"], zip(spec["mean"], spec["scale"], spec["coef"])))
    # the poem's strongest theme, named only when it stands out more than in the average poem (a waterfall's white
    # is no 冬雪 poem) and the poem leans to it more than the average poem does: its lean, weighed by the choice for
    # or against it
    themes = [k for k in weights if k.startswith("th_") and k not in ("th_max", "th_spread")]
    clear = "th_spread" not in weights or feats["th_spread"] > weights["th_spread"][0]
    theme = max(themes, key=lambda k: feats[k]) if themes and clear else None
    mu, sd, w = weights[theme] if theme else (0.0, 1.0, 0.0)
    lean = w * (feats[theme] - mu) / sd if theme and feats[theme] > mu else 0.0
    out = []
    if parts["聲口"] > 0.3:
        out.append(f"字句深合唐人聲口，「{best}」一句尤為圓熟")
    elif parts["聲口"] < -0.3:
        out.append(f"字句與唐人聲口稍隔，較勝者為「{best}」一句")
    else:
        out.append(f"字句尚合唐人聲口，「{best}」一句最佳")
    if parts["題材"] > 0.3 and lean > 0:
        out.append(f"所寫近{theme[3:]}之情境，為選家所重")
    elif parts["題材"] < -0.3 and lean < 0:
        out.append(f"所寫近{theme[3:]}一類，選家較少取")
    verdict = "格調高於同體唐詩之常" if share > 0.7 else "格調不及同體唐詩之常" if share < 0.3 else "格調與同體唐詩相當"
    return "；".join(out) + f"。{verdict}（以唐詩三百首之去取為準）。"

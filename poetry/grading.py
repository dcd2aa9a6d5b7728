"""THE GRADING: the rules' words as measured criteria, one combined score, and a suggested 品.

The rules of 詩牌 grade a poem:
  上品 貼題貫理，聯句切當，一氣呵成;  中品 語句清新，首尾貫通;
  下品 題、體不失，平仄和暢，但意味平平;  荒牌 事實雜亂，首尾斷續.

Each criterion below is a score in [0, 1] with a short Chinese explanation:
  體不失 / 平仄和暢   the checker's report (form recognised and kept; tones and rhyme);
  貼題               the body fits the title (topic vectors + TF-IDF over jieba words, title-body
                     character PMI and learned weights of those pairs);
  貫理 / 首尾貫通     line-to-line and first-to-last coherence (topic vectors, rhyme); 貫理 also asks
                     whether each couplet's lines belong together rather than to two poems taken in
                     turns (``_couplet_coherence``);
  聯句切當           in a 律詩 the 頷聯 and 頸聯 are parallel (couplets.py), else the couplets hold together;
  一氣呵成 / 語句清新 fluency under the character trigram LMs (lm.py, both directions), how well each
                     character fits the rest of the poem (topic vectors) and a per-character detector
                     of characters swapped in (``char_features``); how much is stock phrase.

The learned scores are calibrated probabilities: each criterion is a logistic model fitted by
scripts/build_grading.py on corpus poems against the degraded copies that criterion should notice
(lines shuffled across poems, characters replaced keeping the tones, titles swapped, two poems'
lines taken in turns). One combined model over the log of the criteria gives ``Grade.score``:
small boosted trees, each criterion's effect constrained to be monotone (a better criterion never
lowers the score), so that one clearly failed criterion (a garbled line, a jumble, a borrowed title)
can sink the poem whatever the others say.
唐詩三百首 is held out of all of it.

Thresholds (DEFAULT_THRESHOLDS, adjustable per round by the 詩伯) turn the score into a 品:
  荒牌  score < 荒牌 threshold, or 貫理 < coherence floor: the poem does not hold together;
  下品  the rest below the 中品 threshold when form and tones hold (體不失, 平仄和暢 ≥ form floor);
        without them a low score stays 荒牌;
  中品  score ≥ 中品 threshold;
  上品  score ≥ 上品 threshold and 貼題, 聯句切當, 一氣呵成, 平仄和暢 each ≥ the 上品 floor or in the
        range where three Tang poems in four score on it.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from poetry.data import data_path, load_arrays
from poetry.errors import MalformedPoemError, PoetryError

GRADES = ("上品", "中品", "下品", "荒牌")
CRITERIA = ("體不失", "平仄和暢", "貼題", "貫理", "首尾貫通", "聯句切當", "一氣呵成", "語句清新")

#: Default thresholds; a round may override any of them (see ``merge_thresholds``).
DEFAULT_THRESHOLDS = MappingProxyType(
    {
        "上品": 0.85,  # combined score at least this, and every 上品 criterion ≥ "上品_floor"
        "上品_floor": 0.5,
        "中品": 0.5,  # combined score at least this
        "荒牌": 0.2,  # combined score below this: 荒牌
        "貫理_floor": 0.1,  # 貫理 below this: 荒牌 whatever the score
        "form_floor": 0.5,  # 體不失 and 平仄和暢 at least this for 下品 (else a weak poem is 荒牌)
    }
)

MAX_CHARS = 400
#: 貫理 of a poem of fewer lines (a 絕句) comes from a calibrator of its own (two couplets say less).
SHORT_POEM = 6
MAX_LINES = 300

_NOTES = re.compile(r"（[^）]*）|\([^)]*\)|〔[^〕]*〕|【[^】]*】")
_BREAKS = re.compile(r"[，。？！；、：,.?!;:\s\n\r\t「」『』《》“”\"'‘’—…·・]+")


def _is_han(ch: str) -> bool:
    cp = ord(ch)
    return 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x3134F or 0xF900 <= cp <= 0xFAFF


def split_lines(text: str) -> list[str]:
    """The lines of a poem: notes in brackets dropped, split at punctuation and newlines, Han only.

    >>> split_lines("白日依山盡，黃河入海流。\\n欲窮千里目，更上一層樓。")
    ['白日依山盡', '黃河入海流', '欲窮千里目', '更上一層樓']
    """
    text = _NOTES.sub("", text or "").replace("[", "").replace("]", "")
    lines = []
    for piece in _BREAKS.split(text):
        line = "".join(ch for ch in piece if _is_han(ch))
        if line:
            lines.append(line)
    return lines


# --- models, loaded once -----------------------------------------------------------------------


@cache
def _tokenizer():
    """A private jieba tokenizer (quiet, initialised once)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tok = jieba.Tokenizer()
    tok.initialize()
    return tok


@dataclass(frozen=True)
class _Vectors:
    index: Mapping[str, int]
    topic: np.ndarray  # character topic vectors (LSA, centred, unit length)
    idf: np.ndarray
    pair: np.ndarray  # 對仗 alignment vectors
    pair_class: np.ndarray  # 對仗 class, -1 when unknown
    title_index: Mapping[str, int]  # 貼題: title characters
    title_body: np.ndarray  # PMI of (title character, body character), dense, 0 where unknown


def _dense_title_body(npz, n_body: int) -> np.ndarray:
    n_title = len(str(npz["title_chars"]))
    table = np.zeros((n_title, n_body), dtype=np.float16)
    table[npz["tb_title"].astype(np.int64), npz["tb_body"].astype(np.int64)] = npz["tb_pmi"]
    table.flags.writeable = False
    return table


@cache
def _vectors() -> _Vectors:
    npz = load_arrays("grading_vectors.npz")
    chars = str(npz["chars"])
    return _Vectors(
        MappingProxyType({ch: i for i, ch in enumerate(chars)}),
        npz["topic"].astype(np.float32),
        npz["idf"].astype(np.float32),
        npz["pair"].astype(np.float32),
        npz["pair_class"].astype(np.int32),
        MappingProxyType({ch: i for i, ch in enumerate(str(npz["title_chars"]))}),
        _dense_title_body(npz, len(chars)),
    )


@cache
def _title_pairs() -> tuple[np.ndarray, np.ndarray, float]:
    """貼題's learned pair weights: (sorted keys title index × body count + body index, weights, intercept)."""
    npz = load_arrays("grading_title_pairs.npz")
    keys, weights = npz["keys"].astype(np.int64), npz["weight"].astype(np.float32)
    keys.flags.writeable = weights.flags.writeable = False
    return keys, weights, float(npz["intercept"])


def title_pair_score(title: str, lines: list[str]) -> float:
    """How much the (title character, body character) pairs of a poem say that the title is its own:
    a logistic model over the pairs of the title-body PMI table present in the poem, learned from the
    training poems against the same bodies under other titles (scripts/build_grading.py), each title
    character counting equally. 0 without a known title character.

    >>> body = ["胡馬嘶秋草", "邊城月照沙"]
    >>> title_pair_score("塞下曲", body) > title_pair_score("閨怨", body)
    True
    """
    vec = _vectors()
    t_ids = [vec.title_index[ch] for ch in dict.fromkeys(clean_title(title)) if ch in vec.title_index]
    if not t_ids:
        return 0.0
    body = np.array(sorted({vec.index[ch] for line in lines for ch in line if ch in vec.index}), dtype=np.int64)
    keys, weights, intercept = _title_pairs()
    wanted = (np.array(t_ids, dtype=np.int64)[:, None] * len(vec.index) + body[None, :]).ravel()
    pos = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    hit = keys[pos] == wanted
    return intercept + float(weights[pos[hit]].sum()) / len(t_ids)


@cache
def _word_idf() -> Mapping[str, float]:
    out = {}
    with open(data_path("grading_words.tsv"), encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            word, value = line.rstrip("\n").split("\t")
            out[word] = float(value)
    return MappingProxyType(out)


@cache
def _model() -> Mapping[str, Any]:
    with open(data_path("grading_model.json"), encoding="utf-8") as fh:
        return json.load(fh)


def reload_models() -> None:
    """Forget the loaded models (the build script calls this after rewriting data/)."""
    from poetry.lm import load_lm

    for f in (_vectors, _title_pairs, _word_idf, _model, load_lm):
        f.cache_clear()


def warm_up() -> None:
    """Load every model now (the app calls this so the first request is not slow)."""
    from poetry.lm import load_lm

    load_lm()
    load_lm(reversed=True)
    _vectors()
    _title_pairs()
    _word_idf()
    _model()
    _tokenizer()


# --- features ----------------------------------------------------------------------------------

CRITERION_FEATURES = {
    "fluency": ["lm_mean", "lm_min", "lm_low_share", "lm_gain", "lm_gain_min", "lm_loss_share", "lm_orphan", "lm_fit", "lm_fit_min",
                "lm_fit_bad", "lm_fit_q10", "char_topic", "char_topic_low", "char_topic_q10", "det_llr"],
    "coherence": ["coh_adj", "coh_min", "coh_loo", "rhyme_share", "coh_skip_gain", "coh_parity_gap", "coh_pair",
                  "coh_couplet_adj", "coh_parity_cos", "coh_cp_pair", "coh_cp_tone"],
    "ends": ["coh_first_last", "coh_ends_rest"],
    "relevance": ["rel_topic", "rel_lex", "rel_maxline", "rel_assoc", "rel_assoc_max", "rel_pairs"],
}
COUPLET_FEATURES = ["pair_cos", "same_class", "tone_opposed", "same_char", "topic_cos"]
COMBINED_FEATURES = [
    "lm_mean", "lm_min", "lm_low_share", "lm_gain", "lm_gain_min", "lm_loss_share", "lm_orphan", "lm_fit", "lm_fit_min", "coh_adj", "coh_min", "coh_loo", "rhyme_share",
    "coh_first_last", "coh_ends_rest", "rel_topic", "rel_lex", "rel_maxline", "stock_share",
]


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-9 else v


def _text_vector(text: str) -> np.ndarray:
    """IDF-weighted mean of the characters' topic vectors."""
    vec = _vectors()
    ids = [vec.index[ch] for ch in text if ch in vec.index]
    if not ids:
        return np.zeros(vec.topic.shape[1], dtype=np.float32)
    w = vec.idf[ids]
    return _unit((vec.topic[ids] * w[:, None]).sum(0))


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b))


def _tfidf(text: str) -> dict[str, float]:
    """TF-IDF of a text: jieba words (simplified) and single characters, log-scaled term frequency."""
    from poetry.text import to_simplified

    idf_w = _word_idf()
    vec = _vectors()
    tf = Counter(w for w in _tokenizer().lcut(to_simplified(text), HMM=False) if len(w) >= 2 and w in idf_w)
    out = {w: (1 + math.log(n)) * idf_w[w] for w, n in tf.items()}
    for ch, n in Counter(text).items():
        i = vec.index.get(ch)
        if i is not None:
            out["字" + ch] = (1 + math.log(n)) * float(vec.idf[i])
    return out


def _sparse_cos(a: dict[str, float], b: dict[str, float]) -> float:
    if not a or not b:
        return 0.0
    dot = sum(v * b[k] for k, v in a.items() if k in b)
    na = math.sqrt(sum(v * v for v in a.values()))
    nb = math.sqrt(sum(v * v for v in b.values()))
    return dot / (na * nb)


_TITLE_NOISE = re.compile(r"其[一二三四五六七八九十]+|[一二三四五六七八九十百]+首|[一二三四五六七八九十]$")


def clean_title(title: str | None) -> str:
    """Han characters of a title without its numbering (「十首」「其二」).

    >>> clean_title("帝京篇十首 一")
    '帝京篇'
    """
    if not title:
        return ""
    text = "".join(ch for ch in _NOTES.sub("", title) if _is_han(ch) or ch == " ")
    parts = [_TITLE_NOISE.sub("", p) for p in text.split()]
    return "".join(parts)


def _title_body(title: str, lines: list[str]) -> tuple[float, float]:
    """How strongly the body's characters are called for by the title's (mean PMI; best line).

    >>> a, _ = _title_body("塞下曲", ["胡馬嘶秋草", "邊城月照沙"])
    >>> b, _ = _title_body("閨怨", ["胡馬嘶秋草", "邊城月照沙"])
    >>> a > b
    True
    """
    vec = _vectors()
    t_ids = [vec.title_index[ch] for ch in dict.fromkeys(title) if ch in vec.title_index]
    if not t_ids:
        return 0.0, 0.0
    w = np.array([float(vec.idf[vec.index[ch]]) if ch in vec.index else 1.0
                  for ch in dict.fromkeys(title) if ch in vec.title_index])
    rows = vec.title_body[t_ids].astype(np.float32)

    def assoc(text: str) -> float:
        ids = [vec.index[ch] for ch in text if ch in vec.index]
        if not ids:
            return 0.0
        return float((rows[:, ids].mean(1) * w).sum() / w.sum())

    return assoc("".join(lines)), max(assoc(line) for line in lines)


def _rhyme_share(lines: list[str]) -> float:
    """Share of the even lines' last characters that rhyme with the most common group (平水韻)."""
    from poetry.prosody import get_rhyme_book

    book = get_rhyme_book("pingshui")
    finals = [line[-1] for line in lines[1::2]]
    if len(finals) < 2:
        return 1.0
    counts: Counter = Counter()
    sets = []
    for ch in finals:
        groups = book.rhyme_groups_of(ch)  # a tuple: the counts' ties break the same way in every process
        wide = set(groups)
        for g in groups:
            wide |= set(book.neighbours(g))
        sets.append(wide)
        counts.update(groups)
    if not counts:
        return 0.0
    best = counts.most_common(1)[0][0]
    return sum(best in s for s in sets) / len(finals)


def _tones(line: str) -> list[str]:
    from poetry.prosody import get_rhyme_book

    book = get_rhyme_book("pingshui")
    return [str(book.tone_of(ch).value) for ch in line]


def couplet_features(a: str, b: str) -> dict[str, float]:
    """Raw 對仗 features of two lines: aligned classes, tones opposed, repeated characters.

    >>> couplet_features("明月松間照", "清泉石上流")["tone_opposed"]
    1.0
    """
    vec = _vectors()
    n = min(len(a), len(b))
    cos, same, rep = [], [], 0
    for x, y in zip(a[:n], b[:n]):
        if x == y:
            rep += 1
        i, j = vec.index.get(x), vec.index.get(y)
        if i is None or j is None:
            cos.append(0.0)
            same.append(0.0)
            continue
        cos.append(float(np.dot(vec.pair[i], vec.pair[j])))
        ci, cj = vec.pair_class[i], vec.pair_class[j]
        same.append(1.0 if ci >= 0 and ci == cj else 0.0)
    # 對仗 opposes the tones of the rhythmic positions (2nd, 4th, 6th) and the last character
    ta, tb = _tones(a[:n]), _tones(b[:n])
    positions = [p for p in (1, 3, 5, n - 1) if p < n]
    opposed = [
        1.0 if {ta[p], tb[p]} == {"平", "仄"} else 0.5 if "可平可仄" in (ta[p], tb[p]) else 0.0
        for p in sorted(set(positions))
    ]
    # reduplications (蕭蕭 … 滾滾) are allowed: count a repeat only when not doubled in the line
    rep = sum(1 for k, (x, y) in enumerate(zip(a[:n], b[:n])) if x == y and not _doubled(a, k))
    return {
        "pair_cos": float(np.mean(cos)) if cos else 0.0,
        "same_class": float(np.mean(same)) if same else 0.0,
        "tone_opposed": float(np.mean(opposed)) if opposed else 0.0,
        "same_char": rep / max(n, 1),
        "topic_cos": _cos(_text_vector(a), _text_vector(b)),
    }


def _doubled(line: str, k: int) -> bool:
    return (k > 0 and line[k - 1] == line[k]) or (k + 1 < len(line) and line[k + 1] == line[k])


def _char_topic_fit(lines: list[str]) -> dict[str, float]:
    """How well each character belongs to the rest of the poem: cosine of its topic vector with the
    IDF-weighted vector of all the other characters (mean, share below 0, lowest tenth).

    A character swapped in at random (a frequent one of the same tone) fits the poem's theme worse
    than the one the poet chose, even where the n-gram model has no view on it.

    >>> real = _char_topic_fit(["白日依山盡", "黃河入海流"])["char_topic"]
    >>> real > _char_topic_fit(["白日依錢盡", "黃河入酒流"])["char_topic"]
    True
    """
    vec = _vectors()
    ids = [vec.index[ch] for line in lines for ch in line if ch in vec.index]
    if len(ids) < 2:
        return {"char_topic": 0.0, "char_topic_low": 0.0, "char_topic_q10": 0.0}
    topic = vec.topic[ids]
    weighted = topic * vec.idf[ids][:, None]
    others = weighted.sum(0)[None, :] - weighted
    others /= np.linalg.norm(others, axis=1, keepdims=True) + 1e-9
    cos = (topic * others).sum(1)
    return {"char_topic": float(cos.mean()), "char_topic_low": float((cos < 0).mean()),
            "char_topic_q10": float(np.quantile(cos, 0.1))}


#: Per-character features of the replaced-character detector (``char_features``).
CHAR_FEATURES = ("lp_fwd", "lp_bwd", "unigram", "fit_max", "fit_min", "topic", "topic_sq", "orphan", "nb_fit_min")


def char_features(lines: list[str]) -> np.ndarray:
    """One row of CHAR_FEATURES per character of the poem (line by line).

    lp_fwd / lp_bwd: log10 P of the character given the two before it / the two after it (trigram LMs);
    unigram: its context-free log10 P; fit_max / fit_min: the better / worse side's gain over the
    unigram (how much the context calls for it); topic: cosine of its topic vector with the rest of
    the poem (0 for a character without one); orphan: neither side calls for it (fit_max < 0);
    nb_fit_min: the lower fit_min of its neighbours in the line (a swapped character also spoils the
    prediction of the characters next to it).

    >>> char_features(["白日依山盡", "黃河入海流"]).shape
    (10, 9)
    """
    from poetry.lm import load_lm

    fwd, bwd = load_lm(), load_lm(reversed=True)
    vec = _vectors()
    rows = []
    for line in lines:
        a, b = fwd.score_line(line), bwd.score_line(line[::-1])
        lf = np.array(a.logprobs[:-1])
        lb = np.array(b.logprobs[:-1])[::-1]
        uni = np.array(a.unigram[:-1])
        gf, gb = lf - uni, lb - uni
        fmin = np.minimum(gf, gb)
        padded = np.concatenate(([np.inf], fmin, [np.inf]))
        nb = np.minimum(padded[:-2], padded[2:])
        nb = np.where(np.isfinite(nb), nb, fmin)
        rows.append(np.stack([lf, lb, uni, np.maximum(gf, gb), fmin, np.zeros_like(lf), np.zeros_like(lf),
                              (np.maximum(gf, gb) < 0).astype(float), nb], 1))
    X = np.concatenate(rows) if rows else np.zeros((0, len(CHAR_FEATURES)))
    ids = np.array([vec.index.get(ch, -1) for line in lines for ch in line])
    known = ids >= 0
    if known.sum() >= 2:
        topic = vec.topic[ids[known]]
        weighted = topic * vec.idf[ids[known]][:, None]
        others = weighted.sum(0)[None, :] - weighted
        others /= np.linalg.norm(others, axis=1, keepdims=True) + 1e-9
        cos = (topic * others).sum(1)
        X[known, 5] = cos
        X[known, 6] = cos * cos
    return X


def char_suspicion(spec: Mapping[str, Any], X: np.ndarray) -> np.ndarray:
    """Logit that each character was swapped in, from the detector's logistic model over CHAR_FEATURES."""
    z = (X - np.asarray(spec["mean"])) / np.asarray(spec["scale"]) @ np.asarray(spec["coef"]) + spec["intercept"]
    return np.clip(z, -30.0, 30.0)


def detector_features(spec: Mapping[str, Any] | None, X: np.ndarray) -> dict[str, float]:
    """Poem-level evidence of swapped characters from the per-character detector.

    det_llr: minus the mean over the characters of log(1 − r + r·LR), LR the detector's likelihood
    ratio of "swapped" against "the poet's" and r an assumed share of swapped characters: the
    log-likelihood ratio, per character, of the poem as written against one with that share of its
    characters swapped at random (high for a real poem). det_top: mean suspicion of the most suspicious quarter of the characters.
    """
    if spec is None or len(X) == 0:
        return {"det_llr": 0.0, "det_top": 0.0}
    z = char_suspicion(spec, X)
    prior, r = spec["prior"], spec["rate"]
    lr = np.exp(z) * (1 - prior) / prior
    q = 1 / (1 + np.exp(-z))
    k = max(1, len(q) // 4)
    return {"det_llr": float(-np.log(1 - r + r * lr).mean()), "det_top": float(np.sort(q)[-k:].mean())}


def suspicious_chars(lines: list[str], k: int = 3) -> list[tuple[str, str, float]]:
    """The characters the detector most suspects of being out of place: (line, character, probability).

    >>> [c for _, c, _ in suspicious_chars(["白日依山盡", "黃河入錢流"], k=1)]
    ['錢']
    """
    spec = _model().get("char_detector")
    X = char_features(lines)
    if spec is None or len(X) == 0:
        return []
    q = 1 / (1 + np.exp(-char_suspicion(spec, X)))
    where = [(line, ch) for line in lines for ch in line]
    order = np.argsort(-q)[:k]
    return [(where[i][0], where[i][1], float(q[i])) for i in order]


def features(lines: list[str], title: str | None) -> dict[str, float]:
    """All raw features of a poem (lines of Han characters, traditional), the input of every model."""
    from poetry.lm import context_fit, load_lm

    lm = load_lm()
    scores = [lm.score_line(line) for line in lines]
    means = [s.mean for s in scores]
    all_lp = [x for s in scores for x in s.logprobs]
    n_tri = sum(max(len(line) - 2, 0) for line in lines)
    n_stock = sum(len(s.stock) for s in scores)
    f: dict[str, float] = {
        "lm_mean": float(np.mean(means)),
        "lm_min": float(min(means)),
        "lm_low_share": sum(x < -4.0 for x in all_lp) / len(all_lp),
        "stock_share": n_stock / max(n_tri, 1),
    }
    gains = [lm.gain(s) for s in scores]
    diffs = [a - b for s in scores for a, b in zip(s.logprobs[:-1], s.unigram[:-1])]
    f["lm_gain"] = float(np.mean(gains))
    f["lm_gain_min"] = float(min(gains))
    f["lm_loss_share"] = sum(d < 0 for d in diffs) / max(len(diffs), 1)
    fits = [context_fit(line) for line in lines]
    flat = [x for fit in fits for x in fit]
    f["lm_orphan"] = sum(x < 0 for x in flat) / max(len(flat), 1)
    f["lm_fit"] = float(np.mean(flat))
    f["lm_fit_min"] = float(min(np.mean(fit) for fit in fits))
    f["lm_fit_bad"] = sum(x < -0.5 for x in flat) / max(len(flat), 1)  # clearly out of place on both sides
    f["lm_fit_q10"] = float(np.quantile(flat, 0.1))
    f.update(_char_topic_fit(lines))
    f.update(detector_features(_model().get("char_detector"), char_features(lines)))
    vecs = [_text_vector(line) for line in lines]
    whole = _unit(np.sum(vecs, axis=0))
    if len(lines) >= 2:
        adj = [_cos(vecs[i], vecs[i + 1]) for i in range(len(lines) - 1)]
        loo = [_cos(v, _unit(whole * len(vecs) - v)) for v in vecs]
        half = max(1, min(2, len(lines) // 2))
        first, last = _unit(np.sum(vecs[:half], 0)), _unit(np.sum(vecs[-half:], 0))
        middle = vecs[half:-half]
        rest = _unit(np.sum(middle, 0)) if middle else whole
        f.update(
            coh_adj=float(np.mean(adj)),
            coh_min=float(min(adj)),
            coh_loo=float(np.mean(loo)),
            coh_first_last=_cos(first, last),
            coh_ends_rest=(_cos(first, rest) + _cos(last, rest)) / 2,
        )
    else:
        f.update(coh_adj=0.0, coh_min=0.0, coh_loo=0.0, coh_first_last=0.0, coh_ends_rest=0.0)
    f.update(_couplet_coherence(lines, vecs))
    f["rhyme_share"] = _rhyme_share(lines)
    title = clean_title(title)
    f["has_title"] = 1.0 if title else 0.0
    if title:
        t = _text_vector(title)
        f["rel_topic"] = _cos(t, whole)
        f["rel_maxline"] = max(_cos(t, v) for v in vecs)
        f["rel_lex"] = _sparse_cos(_tfidf(title), _tfidf("".join(lines)))
        f["rel_assoc"], f["rel_assoc_max"] = _title_body(title, lines)
        f["rel_pairs"] = title_pair_score(title, lines)
    else:
        f.update(rel_topic=0.0, rel_maxline=0.0, rel_lex=0.0, rel_assoc=0.0, rel_assoc_max=0.0, rel_pairs=0.0)
    return f


def _couplet_coherence(lines: list[str], vecs: list[np.ndarray]) -> dict[str, float]:
    """Whether the poem's couplets hold together as couplets, and the poem as one poem, not two
    poems' lines taken in turns (every odd line from one, every even line from another).

    coh_skip_gain: mean topic cosine of lines two apart minus that of neighbouring lines (an
    interleaved poem's lines agree more with the line after next than with the next);
    coh_parity_gap: mean cosine among lines of the same parity minus that across parities;
    coh_parity_cos: cosine of the odd lines' vector with the even lines';
    coh_pair: mean cosine of each couplet's two lines; coh_couplet_adj: mean cosine of consecutive
    couplets (topic drift); coh_cp_pair / coh_cp_tone: mean 對仗 alignment of each couplet's two lines
    and how well their tones are opposed (``couplet_features``), which a borrowed partner line breaks.

    >>> real = ["國破山河在", "城春草木深", "感時花濺淚", "恨別鳥驚心"]
    >>> mixed = ["國破山河在", "天氣晚來秋", "感時花濺淚", "清泉石上流"]
    >>> f = lambda ls: _couplet_coherence(ls, [_text_vector(x) for x in ls])
    >>> f(real)["coh_skip_gain"] < f(mixed)["coh_skip_gain"]
    True
    """
    n = len(lines)
    keys = ("coh_skip_gain", "coh_parity_gap", "coh_pair", "coh_couplet_adj", "coh_parity_cos", "coh_cp_pair", "coh_cp_tone")
    if n < 2:
        return dict.fromkeys(keys, 0.0)
    V = np.array(vecs)
    S = V @ V.T
    adj = float(np.mean([S[i, i + 1] for i in range(n - 1)]))
    skip = [S[i, i + 2] for i in range(n - 2)]
    parity = np.arange(n) % 2
    same = (parity[:, None] == parity[None, :]) & ~np.eye(n, dtype=bool)
    cross = parity[:, None] != parity[None, :]
    pairs = [(2 * k, 2 * k + 1) for k in range(n // 2)]
    couplets = [_unit(V[a] + V[b]) for a, b in pairs]
    raw = [couplet_features(lines[a], lines[b]) for a, b in pairs]
    return {
        "coh_skip_gain": float(np.mean(skip)) - adj if skip else 0.0,
        "coh_parity_gap": float(S[same].mean() - S[cross].mean()) if same.any() else 0.0,
        "coh_pair": float(np.mean([S[a, b] for a, b in pairs])),
        "coh_couplet_adj": float(np.mean([_cos(couplets[i], couplets[i + 1]) for i in range(len(couplets) - 1)]))
        if len(couplets) > 1 else 0.0,
        "coh_parity_cos": _cos(_unit(V[0::2].sum(0)), _unit(V[1::2].sum(0))),
        "coh_cp_pair": float(np.mean([r["pair_cos"] for r in raw])),
        "coh_cp_tone": float(np.mean([r["tone_opposed"] for r in raw])),
    }


def _logistic(spec: Mapping[str, Any], feats: Mapping[str, float]) -> float:
    z = spec["intercept"]
    for name, mu, sd, w in zip(spec["features"], spec["mean"], spec["scale"], spec["coef"]):
        z += w * (feats[name] - mu) / sd
    return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


def _trees(spec: Mapping[str, Any], feats: Mapping[str, float]) -> float:
    """A boosted-trees model stored as JSON: sigmoid(baseline + the sum of each tree's leaf value).

    Each tree is a list of nodes [feature index, threshold, left, right, value]; a node whose left
    child is -1 is a leaf; a value at or below the threshold goes left (as scikit-learn's
    HistGradientBoostingClassifier, which scripts/build_grading.py fits and exports).

    >>> spec = {"features": ["a"], "baseline": 0.0, "trees": [[[0, 0.5, 1, 2, 0.0], [-1, 0, -1, -1, -1.0],
    ...                                                       [-1, 0, -1, -1, 1.0]]]}
    >>> _trees(spec, {"a": 0.9}) > 0.5 > _trees(spec, {"a": 0.1})
    True
    """
    x = [feats[name] for name in spec["features"]]
    z = spec["baseline"]
    for tree in spec["trees"]:
        node = tree[0]
        while node[2] >= 0:
            node = tree[node[2] if x[node[0]] <= node[1] else node[3]]
        z += node[4]
    return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


def combined_score(spec: Mapping[str, Any], feats: Mapping[str, float]) -> float:
    """The combined model's probability: boosted trees when the model file has them, else logistic."""
    return _trees(spec, feats) if "trees" in spec else _logistic(spec, feats)


def parallel_score(a: str, b: str) -> float:
    """Probability that two lines form a parallel couplet (對仗), calibrated on Tang 律詩.

    >>> parallel_score("明月松間照", "清泉石上流") > parallel_score("明月松間照", "何當共剪燭")
    True
    """
    return _logistic(_model()["criteria"]["parallel"], couplet_features(a, b))


# --- the criteria ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grade:
    """A suggested 品 with the measured criteria behind it.

    ``criteria`` maps each name of CRITERIA to {"score": float in [0, 1] or None (not applicable),
    "explanation": Chinese text}; ``reasons`` says in Chinese why this 品 and not the next.
    """

    grade: str  # 上品 | 中品 | 下品 | 荒牌
    score: float  # combined model, probability-like in [0, 1]
    criteria: Mapping[str, Mapping[str, Any]]
    reasons: tuple[str, ...]
    form: str | None = None  # the checker's form name, e.g. 五言律詩
    title: str | None = None
    lines: tuple[str, ...] = field(default=())


def _crit(score: float | None, explanation: str) -> dict[str, Any]:
    return {"score": None if score is None else round(float(min(max(score, 0.0), 1.0)), 3), "explanation": explanation}


def _is_lushi(lines: list[str]) -> bool:
    """Eight lines of five or seven characters: a 律詩 shape, whose middle couplets should be parallel."""
    return len(lines) == 8 and len({len(x) for x in lines}) == 1 and len(lines[0]) in (5, 7)


_TONE_KINDS = frozenset({"tone", "rhyme", "lone_ping", "triple_ping_tail", "adhesion", "opposition"})


def _form_criteria(text: str, lines: list[str], hand: str | None) -> tuple[dict, dict, str | None]:
    """體不失 and 平仄和暢 from the checker's report (poetry.checker.check_poem)."""
    from poetry.checker import check_poem

    result = check_poem(text, hand=hand)
    form = result.form
    errors = [v for v in result.violations if v.severity == "error"]
    notes = [v for v in result.violations if v.severity != "error"]
    tone_errors = [v for v in errors if v.kind in _TONE_KINDS]
    other_errors = [v for v in errors if v.kind not in _TONE_KINDS]
    n_chars = max(sum(len(x) for x in lines), 1)
    jin = any(w in form for w in ("律", "絕")) and "古" not in form  # 近體: 律詩, 絕句, 排律
    repeated = [v for v in other_errors if v.kind == "repeated_char"]
    if result.regulated:
        f_score = 1.0 - 0.15 * len(repeated)
        f_expl = f"{form}（{result.pattern or ''}），體式完整。" if not repeated else f"{form}，但有重字：{repeated[0].message}"
    elif jin:
        f_score = 0.75 - 0.15 * len(repeated)
        f_expl = f"{form}，格律小有不合。"
    elif result.chars_per_line is None:
        f_score = 0.8
        f_expl = f"{form}：句長不一，是雜言古體。"
    else:
        f_score = 0.9 - 0.15 * len(repeated)
        f_expl = f"{form}，不拘近體格律。" + (result.notes[0] if result.notes else "")
    # 平仄和暢: faults per ten characters, notes counting a fifth
    faults = len(tone_errors) + 0.2 * len([v for v in notes if v.kind in _TONE_KINDS])
    t_score = math.exp(-0.5 * faults * 10 / n_chars)
    if not tone_errors:
        t_expl = "平仄、押韻皆合。" if jin or result.regulated else f"{result.summary}"
    else:
        t_expl = f"平仄押韻有 {len(tone_errors)} 處不合，如：{tone_errors[0].message}"
    return _crit(f_score, f_expl), _crit(t_score, t_expl), form


def _band(name: str, p: float) -> str:
    """"good", "fair" or "poor": where a score falls among Tang poems' scores on the same criterion.

    good: at or above the lower quartile of real poems (three Tang poems in four); poor: below all
    but the lowest 5% of them; fair: between.
    """
    q = _model().get("real_quantiles", {}).get(name)
    good, poor = (q[2], q[0]) if q else (0.6, 0.3)
    return "good" if p >= good else "fair" if p >= poor else "poor"


def _explain_fluency(p: float, lines: list[str], f: Mapping[str, float]) -> str:
    band = _band("一氣呵成", p)
    from poetry.lm import load_lm

    lm = load_lm()
    worst = min(lines, key=lambda x: lm.score_line(x).mean)
    ppl = 10 ** (-f["lm_mean"])
    if band == "good":
        return f"字句順暢，讀來自然（困惑度 {ppl:.0f}）。"
    suspects = [(line, ch) for line, ch, q in suspicious_chars(lines, k=3) if q >= 0.5]
    if suspects:  # the line of the most suspected character is the one to name
        worst = suspects[0][0]
    odd = [f"「{ch}」（{line}）" for line, ch in suspects]
    odd_note = f"；{'、'.join(odd)}字似與上下文不合" if odd else ""
    if band == "fair":
        return f"大致通順，「{worst}」一句稍澀（困惑度 {ppl:.0f}）{odd_note}。"
    return f"語句生硬，前人詩中少見這樣的字序，最澀是「{worst}」（困惑度 {ppl:.0f}）{odd_note}。"


def _explain_fresh(score: float, lines: list[str]) -> str:
    from poetry.lm import load_lm

    lm = load_lm()
    stock = sorted((s for line in lines for s in lm.stock_trigrams(line)), key=lambda s: -s[1])
    if not stock:
        return "未見前人詩中的套語，措辭新穎。" if score >= 0.5 else "少用套語，但字句不甚通順。"
    shown = "、".join(f"「{g}」" for g, _ in stock[:3])
    return f"{len(stock)} 處三字套語，如{shown}（「{stock[0][0]}」見於前人詩 {stock[0][1]} 次）。"


def _explain_coherence(p: float, lines: list[str], f: Mapping[str, float] | None = None) -> str:
    """Why 貫理 is what it is; names the couplet that holds least when the odd and the even lines
    read as two poems taken in turns (the lines agree more with their own parity than across it)."""
    band = _band("貫理", p)
    vecs = [_text_vector(x) for x in lines]
    if len(lines) < 2:
        return "只有一句，無從論貫理。"
    adj = [_cos(vecs[i], vecs[i + 1]) for i in range(len(lines) - 1)]
    k = int(np.argmin(adj))
    if band == "good":
        return "句句相承，意脈貫通。"
    if f is not None and len(lines) >= 4 and f.get("coh_parity_gap", 0.0) > 0:
        j = 2 * int(np.argmin(adj[0::2]))  # the couplet whose two lines agree least
        tones = "，平仄亦不相對" if couplet_features(lines[j], lines[j + 1])["tone_opposed"] < 0.5 else ""
        return f"單句與雙句各成一脈，似兩首詩隔句相間：「{lines[j]}」與「{lines[j + 1]}」上下不相屬，意象不接{tones}。"
    if band == "fair":
        return f"大體相承，但「{lines[k]}」與「{lines[k + 1]}」之間意脈稍斷。"
    return f"事實雜亂：各句意象互不相屬，「{lines[k]}」與「{lines[k + 1]}」尤其斷開。"


def _explain_ends(p: float, lines: list[str]) -> str:
    band = _band("首尾貫通", p)
    if band == "good":
        return f"首句「{lines[0]}」與末句「{lines[-1]}」前後呼應。"
    if band == "fair":
        return f"首尾略有呼應，「{lines[-1]}」收束稍弱。"
    return f"首尾斷續：起句「{lines[0]}」與結句「{lines[-1]}」各說各話。"


def _explain_relevance(p: float, title: str, lines: list[str]) -> str:
    band = _band("貼題", p)
    hits = [ch for ch in dict.fromkeys(title) if any(ch in x for x in lines) and ch not in "之一二三四五六七八九十首其詩"]
    seen = f"題中「{'、'.join(hits[:4])}」見於詩中；" if hits else ""
    if band == "good":
        return f"{seen}詩意切合題目「{title}」。"
    if band == "fair":
        return f"{seen}與題目「{title}」若即若離。"
    return f"{seen}詩意與題目「{title}」關係不大，似離題。"


def _couplet_criterion(lines: list[str]) -> dict[str, Any]:
    model = _model()["criteria"]
    if _is_lushi(lines):
        names = ("頷聯", "頸聯")
        probs = [parallel_score(lines[2], lines[3]), parallel_score(lines[4], lines[5])]
        score = float(np.mean(probs))
        weak = [(n, p, lines[2 + 2 * i], lines[3 + 2 * i]) for i, (n, p) in enumerate(zip(names, probs)) if p < 0.5]
        if not weak:
            return _crit(score, "頷聯、頸聯對仗工整，字類相當，平仄相對。")
        parts = "；".join(f"{n}「{a}／{b}」對仗不工" for n, p, a, b in weak)
        return _crit(score, parts + "（律詩中二聯須對仗）。")
    if len(lines) < 2:
        return _crit(None, "只有一句，不成聯。")
    spec = model.get("couplet")
    probs = []
    for i in range(0, len(lines) - 1, 2):
        probs.append(_logistic(spec, couplet_features(lines[i], lines[i + 1])) if spec else 0.5)
    score = float(np.mean(probs))
    if score >= 0.6:
        return _crit(score, "非律詩，不要求對仗；各聯上下句相承。")
    k = int(np.argmin(probs))
    return _crit(score, f"非律詩，不要求對仗；但「{lines[2 * k]}／{lines[2 * k + 1]}」上下句不甚相屬。")


def merge_thresholds(overrides: Mapping[str, float] | None) -> dict[str, float]:
    """DEFAULT_THRESHOLDS with a round's overrides (unknown keys and values outside [0, 1] refused)."""
    out = dict(DEFAULT_THRESHOLDS)
    for key, value in (overrides or {}).items():
        if key not in out:
            raise ValueError(f"不認得的門檻：{key}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise ValueError(f"門檻「{key}」須是 0 到 1 之間的數。")
        out[key] = float(value)
    return out


def _floor2(x: float) -> str:
    """Two decimals rounded down, so a score shown as 0.84 is never mistaken for reaching 0.85."""
    return f"{math.floor(x * 100 + 1e-9) / 100:.2f}"


def suggest_grade(score: float, criteria: Mapping[str, Mapping[str, Any]],
                  thresholds: Mapping[str, float] | None = None) -> tuple[str, tuple[str, ...]]:
    """Turn the combined score and the criteria into a 品 and its reasons (see the module docstring).

    >>> suggest_grade(0.05, {"貫理": {"score": 0.02}})[0]
    '荒牌'
    """
    t = merge_thresholds(thresholds)

    def s(name: str) -> float | None:
        return (criteria.get(name) or {}).get("score")

    coherence = s("貫理")
    form_ok = all(s(n) is None or s(n) >= t["form_floor"] for n in ("體不失", "平仄和暢"))
    if score < t["荒牌"] or (coherence is not None and coherence < t["貫理_floor"]):
        why = [f"綜合分 {_floor2(score)}，低於荒牌門檻 {t['荒牌']:.2f}" if score < t["荒牌"] else f"貫理僅 {coherence:.2f}"]
        return "荒牌", tuple(why + ["事實雜亂，首尾斷續。"])
    if score < t["中品"]:
        if not form_ok:
            return "荒牌", (f"綜合分 {_floor2(score)} 未達中品，且體式或平仄不合。",)
        return "下品", (f"題、體不失，平仄和暢，但綜合分 {_floor2(score)} 未達中品門檻 {t['中品']:.2f}，意味平平。",)
    floor = t["上品_floor"]
    # a 上品 criterion is met at the floor, or where three Tang poems in four score (its good band)
    shortfalls = [n for n in ("貼題", "聯句切當", "一氣呵成", "平仄和暢")
                  if s(n) is not None and s(n) < floor and _band(n, s(n)) != "good"]
    if score >= t["上品"] and not shortfalls:
        return "上品", (f"綜合分 {_floor2(score)} 達上品門檻 {t['上品']:.2f}；貼題貫理，聯句切當，一氣呵成。",)
    reasons = [f"綜合分 {_floor2(score)}，語句清新，首尾貫通。"]
    if score < t["上品"]:
        reasons.append(f"未達上品門檻 {t['上品']:.2f}。")
    if shortfalls:
        reasons.append("未入上品：" + "、".join(f"{n} {s(n):.2f}" for n in shortfalls) + f" 低於 {floor:.2f}。")
    return "中品", tuple(reasons)


#: The criteria the combined score is made of: 語句清新 is derived from 一氣呵成, and 體不失 would only
#: tell 古體 from 近體, which is no fault, so both are left out.
COMBINED_CRITERIA = ("平仄和暢", "貼題", "貫理", "首尾貫通", "聯句切當", "一氣呵成")


def _read_poem(text: str, title: str | None) -> tuple[list[str], str | None]:
    from poetry.text import parse_poem

    if text is not None and len(text) > 2000:
        raise MalformedPoemError(f"文字太長：最多 2000 字，現有 {len(text)} 字。")
    parsed = parse_poem(text)
    lines = [x for x in parsed.lines if x]
    if len(lines) > MAX_LINES:
        raise MalformedPoemError(f"詩句太多：最多 {MAX_LINES} 句，現有 {len(lines)} 句。")
    if title is None:
        title = parsed.title
    return lines, (title or "").strip() or None


def measure_poem(text: str, title: str | None = None, hand: str | None = None
                 ) -> tuple[list[str], str | None, dict[str, dict[str, Any]], str | None]:
    """The criteria of a poem: (lines, title, {name: {score, explanation}}, form name).

    >>> lines, title, criteria, form = measure_poem("國破山河在，城春草木深。感時花濺淚，恨別鳥驚心。", "春望")
    >>> form, sorted(criteria) == sorted(CRITERIA)
    ('五言絕句', True)
    """
    lines, title = _read_poem(text, title)
    f = features(lines, title)
    model = _model()
    crit = model["criteria"]
    criteria: dict[str, dict[str, Any]] = {}
    form_c, tone_c, form_name = _form_criteria(text, lines, hand)
    criteria["體不失"] = form_c
    criteria["平仄和暢"] = tone_c
    ct = clean_title(title)
    if ct:
        p = _logistic(crit["relevance"], f)
        criteria["貼題"] = _crit(p, _explain_relevance(p, ct, lines))
    else:
        criteria["貼題"] = _crit(None, "未給題目，不評貼題。")
    p = _logistic(crit["coherence_short"] if len(lines) < SHORT_POEM and "coherence_short" in crit else crit["coherence"], f)
    criteria["貫理"] = _crit(p, _explain_coherence(p, lines, f))
    p = _logistic(crit["ends"], f)
    criteria["首尾貫通"] = _crit(p, _explain_ends(p, lines))
    criteria["聯句切當"] = _couplet_criterion(lines)
    fluency = _logistic(crit["fluency"], f)
    criteria["一氣呵成"] = _crit(fluency, _explain_fluency(fluency, lines, f))
    q90 = model["stock_share_quantiles"][2]
    fresh = max(0.0, 1.0 - f["stock_share"] / (2 * q90 + 1e-9)) * math.sqrt(fluency)
    criteria["語句清新"] = _crit(fresh, _explain_fresh(fresh, lines))
    return lines, title, criteria, form_name


#: A title whose characters call for body characters this strongly (the two most telling title
#: characters' strongest PMI) counts fully in 貼題's share of the combined score; vaguer titles
#: (雜詩, 無題) count less.
TITLE_INFORMATION_FULL = 5.0


def title_information(title: str | None) -> float:
    """How much a title says about its poem: the mean strongest title-body PMI of its two most telling
    characters (a long title such as 走馬川行奉送出師西征 is not diluted by its 行 and 奉).

    >>> title_information("塞下曲") > title_information("雜詩")
    True
    """
    vec = _vectors()
    ids = [vec.title_index[ch] for ch in dict.fromkeys(clean_title(title)) if ch in vec.title_index]
    if not ids:
        return 0.0
    strongest = np.sort(vec.title_body[ids].astype(np.float32).max(1))[::-1]
    return float(strongest[:2].mean())


def combined_features(criteria: Mapping[str, Mapping[str, Any]], neutral: Mapping[str, float] | None = None,
                      title_info: float | None = None) -> dict[str, float]:
    """log of each criterion's score (a criterion that does not apply takes its neutral value).

    The logarithm keeps a criterion that is confidently met near 0 and lets one that clearly fails
    (a jumble, a garbled line, a borrowed title) pull the whole score down. 貼題 is scaled by how much
    the title says (``title_info``, see TITLE_INFORMATION_FULL).
    """
    out = {}
    for name in COMBINED_CRITERIA:
        score = (criteria.get(name) or {}).get("score")
        out[name] = math.log(max(score, 1e-3)) if score is not None else (neutral or {}).get(name, math.log(0.5))
    if title_info is not None and (criteria.get("貼題") or {}).get("score") is not None:
        out["貼題"] *= min(1.0, title_info / TITLE_INFORMATION_FULL)
    return out


def grade_poem(text: str, title: str | None = None, thresholds: Mapping[str, float] | None = None,
               hand: str | None = None) -> Grade:
    """Measure a poem against the rules' words and suggest a 品.

    >>> g = grade_poem("白日依山盡，黃河入海流。欲窮千里目，更上一層樓。", title="登鸛雀樓")
    >>> g.grade in GRADES and 0 <= g.score <= 1
    True

    Raises MalformedPoemError for text that cannot be read as a poem (empty, one line, too long).
    """
    lines, title, criteria, form_name = measure_poem(text, title, hand)
    spec = _model()["combined"]
    score = round(combined_score(spec, combined_features(criteria, spec.get("neutral"), title_information(title))), 3)
    grade, reasons = suggest_grade(score, criteria, thresholds)
    return Grade(grade, score, MappingProxyType(criteria), reasons, form_name, title, tuple(lines))


def grade_to_dict(g: Grade) -> dict[str, Any]:
    """A Grade as plain JSON-ready data."""
    return {
        "grade": g.grade,
        "score": g.score,
        "criteria": {k: dict(v) for k, v in g.criteria.items()},
        "reasons": list(g.reasons),
        "form": g.form,
        "title": g.title,
        "lines": list(g.lines),
    }


def criterion_bands() -> dict[str, tuple[float, float]]:
    """For each criterion, (poor below, good from): the 5% and 25% points of Tang poems' scores."""
    q = _model().get("real_quantiles", {})
    return {name: (q[name][0], q[name][2]) if name in q else (0.3, 0.6) for name in CRITERIA}

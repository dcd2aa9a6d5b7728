"""The raw measures of a poem (the features), the input of every model of the grading.

Lines of Han characters (traditional) in, numbers out: fluency under the character trigram LMs
(poetry.lm), topic vectors of lines and of the whole, the title against the body, the rhyme of the
even lines, 對仗 of a couplet's two lines, and a detector of characters swapped in.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from poetry.grading.duizhang import class_agreement, figure_agreement
from poetry.grading.models import _logistic, _model, _title_pairs, _tokenizer, _vectors, _verse_bigrams, _word_idf
from poetry.grading.rubric import GENERIC_TITLES
from poetry.grading.title_meaning import MEANING_FEATURES, meaning_features
from poetry.grading.title_parts import read_title
from poetry.text import is_han, split_lines, to_simplified

#: The features of each criterion's logistic calibrator (scripts/build_grading.py fits them).
CRITERION_FEATURES = {
    "fluency": ["lm_mean", "lm_min", "lm_low_share", "lm_gain", "lm_gain_min", "lm_loss_share", "lm_orphan",
                "lm_fit", "lm_fit_min", "lm_fit_bad", "lm_fit_q10", "char_topic", "char_topic_low", "char_topic_q10",
                "det_llr"],
    "coherence": ["coh_adj", "coh_min", "coh_loo", "rhyme_share", "coh_skip_gain", "coh_parity_gap", "coh_pair",
                  "coh_couplet_adj", "coh_parity_cos", "coh_cp_pair", "coh_cp_tone"],
    "ends": ["coh_first_last", "coh_ends_rest"],
    "relevance": ["rel_topic", "rel_lex", "rel_maxline", "rel_assoc", "rel_assoc_max", "rel_pairs", *MEANING_FEATURES,
                  "rel_pairs_masked"],
    # whether the title's characters that the body writes are backed by the rest of the poem (a jumble
    # titled with one of its own words is not): real poems against such jumbles, where the body shares one;
    # not rel_shared itself (such jumbles always write their whole title, so it would learn that a poem
    # writing its whole title, 登高 or 梅花, is a jumble)
    "relevance_rescue": ["rel_topic", "rel_maxline", *MEANING_FEATURES[1:], "rel_pairs_masked", "rel_title_line_fit"],
}
#: The features of 對仗 (``couplet_features``), of the parallel and the couplet calibrators.
COUPLET_FEATURES = ["pair_cos", "same_class", "tone_opposed", "same_char", "topic_cos", "lei_match", "lei_clash",
                    "figure"]


# --- topic vectors and words -----------------------------------------------------------------------


def _unit(v: np.ndarray) -> np.ndarray:
    """The vector scaled to length 1 (a zero vector stays zero)."""
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-9 else v


@lru_cache(maxsize=8192)  # each line's vector is read by coherence, 對仗, the title and taste: computed once
def _text_vector(text: str) -> np.ndarray:
    """IDF-weighted mean of the characters' topic vectors (read-only: it is shared through the cache)."""
    vec = _vectors()
    ids = [vec.index[ch] for ch in text if ch in vec.index]
    if not ids:
        out = np.zeros(vec.topic.shape[1], dtype=np.float32)
    else:
        w = vec.idf[ids]
        out = _unit((vec.topic[ids] * w[:, None]).sum(0))
    out.setflags(write=False)
    return out


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of two unit vectors."""
    return float(np.dot(a, b))


def _tfidf(text: str) -> dict[str, float]:
    """TF-IDF of a text: jieba words (simplified) and single characters, log-scaled term frequency."""
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
    """Cosine of two sparse vectors (0 when either is empty)."""
    if not a or not b:
        return 0.0
    dot = sum(v * b[k] for k, v in a.items() if k in b)
    na = math.sqrt(sum(v * v for v in a.values()))
    nb = math.sqrt(sum(v * v for v in b.values()))
    return dot / (na * nb)


# --- the title ------------------------------------------------------------------------------------

#: A title's numbering: 「其二」, 「十首」, a numeral ending a word (「帝京篇十首 一」).
_TITLE_NOISE = re.compile(r"其[一二三四五六七八九十]+|[一二三四五六七八九十百]+首|^[一二三四五六七八九十]+$")


@lru_cache(maxsize=1024)  # a poem's title is cleaned by each feature that reads it
def clean_title(title: str | None) -> str:
    """Han characters of a title without its numbering (「十首」「其二」).

    >>> clean_title("帝京篇十首 一"), clean_title("問劉十九")
    ('帝京篇', '問劉十九')
    """
    if not title:
        return ""
    # spaces part a title's words, punctuation does not (「雜詩三首·其二」 is one word); split_lines
    # drops the notes, so their brackets stay until then
    kept = "".join(ch for ch in title if is_han(ch) or ch in " （）()〔〕【】")
    return "".join(_TITLE_NOISE.sub("", word) for word in split_lines(kept))


def title_topic(title: str | None) -> str:
    """The clean title's topical part (``title_parts.read_title``): without the formulas that name no matter
    (次韻, 和, 見寄) and the persons it names, the occasion's words (送, 寄, 之官) kept; "" when it is only those.

    >>> title_topic("次韻王定國南遷回見寄"), title_topic("次韻子由二首 其一")
    ('南遷回', '')
    """
    return read_title(clean_title(title)).topic


def title_information(title: str | None) -> float:
    """How much a title says about its poem: the mean strongest title-body PMI of its two most telling
    characters (a long title such as 走馬川行奉送出師西征 is not diluted by its 行 and 奉). The combiner was trained
    with 貼題 scaled by the whole title's; the combined score now scales it by ``title_demand`` (title14b).

    >>> title_information("塞下曲") > title_information("雜詩")
    True
    """
    vec = _vectors()
    ids = [vec.title_index[ch] for ch in dict.fromkeys(clean_title(title)) if ch in vec.title_index]
    if not ids:
        return 0.0
    strongest = np.sort(vec.title_body[ids].astype(np.float32).max(1))[::-1]
    return float(strongest[:2].mean())


def title_demand(title: str | None) -> float:
    """How much a title asks of the poem, for the rubric's 離題 (``TELLING_TITLE``) and 貼題's share of the combined
    score: ``title_information`` of its topical part (``title_topic``), so the rare characters of a person's name, a
    place's or a date's do not make a title telling, and 0 for a title that is only formula, name, place and date
    (次韻子由, 和王鞏見寄, 三衢道中, 真州絕句), which asks no subject.

    >>> title_demand("次韻子由"), title_demand("和王鞏見寄")
    (0.0, 0.0)
    >>> title_demand("塞下曲") == title_information("塞下曲")
    True
    """
    asked = read_title(clean_title(title)).asked  # an occasion counts only where the poem answers it (``applying``)
    return title_information(asked) if asked else 0.0


def names_an_object(title: str | None) -> bool:
    """Whether a title is a 詠物 title (詠X, 賦得X): its thing is asked, and the convention (不犯題字) leaves it unnamed
    in the poem, so its 貼題 by characters runs lower (rubric.OBJECT_FLOOR_SHARE).

    >>> names_an_object("詠草人"), names_an_object("賦得古原草送別"), names_an_object("春望")
    (True, True, False)
    """
    return clean_title(title).startswith(("詠", "咏", "賦得"))


def asks_nothing(title: str | None) -> bool:
    """Whether a title asks no subject of its poem, so that nothing can be off it: 無題, 雜詩 (GENERIC_TITLES), or
    only an occasion's formula and a name (次韻子由, 和王鞏見寄): 貼題 does not apply (``applying``).

    >>> asks_nothing("無題"), asks_nothing("次韻子由"), asks_nothing("塞下曲"), asks_nothing(None)
    (True, True, False, False)
    """
    clean = clean_title(title)
    return bool(clean) and (clean in GENERIC_TITLES or not title_topic(title))


#: 貼題 at which a poem answers the occasion of its feeling (秋夜有感 writing the autumn night): the combined model's
#: neutral value of 貼題 (exp −0.284 = 0.75), so that answering it can only raise the score.
OCCASION_ANSWERED = 0.75


def answers_occasion(title: str | None, relevance: float | None) -> bool:
    """Whether a poem under a feeling's title (X有感: ``TitleParts.occasion``) answers that occasion, at 貼題
    ``relevance``: then 貼題 applies and is credited; otherwise the title asks nothing (``asks_nothing``).

    >>> answers_occasion("觀書有感", 0.9), answers_occasion("觀書有感", 0.1), answers_occasion("塞下曲", 0.9)
    (True, False, False)
    """
    return relevance is not None and relevance >= OCCASION_ANSWERED and bool(read_title(clean_title(title)).occasion)


def relevance_waived(title: str | None, relevance: float | None) -> bool:
    """Whether 貼題 does not apply to a poem under ``title`` whose 貼題 is ``relevance``: the title asks nothing
    (``asks_nothing``) and the poem does not answer the occasion of a feeling's title (``answers_occasion``). The
    combined score, the rubric (``applying``) and 貼題's words ask this.

    >>> relevance_waived("次韻子由", 0.9), relevance_waived("觀書有感", 0.1), relevance_waived("觀書有感", 0.9)
    (True, True, False)
    """
    return asks_nothing(title) and not answers_occasion(title, relevance)


def retitled_features(f: dict[str, float], lines: list[str], title: str | None) -> dict[str, float]:
    """``features(lines, title)`` from the poem's features under another title: only the title's are measured again
    (貼題 reads X of X有感 on its own)."""
    vecs = [_text_vector(line) for line in lines]
    return {**f, **_title_features(clean_title(title), lines, vecs, _unit(np.sum(vecs, axis=0)))}


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


# --- rhyme and 對仗 ---------------------------------------------------------------------------------


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


@lru_cache(maxsize=8192)  # a line's tones are read by each couplet it is in
def _tones(line: str) -> tuple[str, ...]:
    """The tone of each character under the 平水韻: 平, 仄 or 可平可仄."""
    from poetry.prosody import get_rhyme_book

    book = get_rhyme_book("pingshui")
    return tuple(str(book.tone_of(ch).value) for ch in line)


def aligned_fit(a: str, b: str) -> list[float]:
    """How well each pair of aligned characters faces the other in Tang 對仗 (cosine of their 對仗 vectors,
    0 where a character is unknown).

    >>> [round(x, 1) > 0 for x in aligned_fit("明月", "清泉")]
    [True, True]
    """
    vec = _vectors()
    out = []
    for x, y in zip(a, b):
        i, j = vec.index.get(x), vec.index.get(y)
        out.append(0.0 if i is None or j is None else float(np.dot(vec.pair[i], vec.pair[j])))
    return out


def couplet_features(a: str, b: str) -> dict[str, float]:
    """Raw 對仗 features of two lines: aligned classes (learned, and the 對類 table's), tones opposed,
    repeated characters, and whether both lines carry the same repetition figure (疊字, 當句對).

    >>> couplet_features("明月松間照", "清泉石上流")["tone_opposed"]
    1.0
    """
    return dict(_couplet_features(a, b))


@lru_cache(maxsize=4096)  # a couplet is read by 貫理, 聯句切當, taste and the explanations: measured once
def _couplet_features(a: str, b: str) -> Mapping[str, float]:
    """``couplet_features``, shared read-only through the cache."""
    vec = _vectors()
    n = min(len(a), len(b))
    cos, same = aligned_fit(a[:n], b[:n]), []
    for x, y in zip(a[:n], b[:n]):
        i, j = vec.index.get(x), vec.index.get(y)
        ci, cj = (vec.pair_class[i], vec.pair_class[j]) if i is not None and j is not None else (-1, -2)
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
    match, clash = class_agreement(a[:n], b[:n])
    return MappingProxyType({
        "pair_cos": float(np.mean(cos)) if cos else 0.0,
        "same_class": float(np.mean(same)) if same else 0.0,
        "tone_opposed": float(np.mean(opposed)) if opposed else 0.0,
        "same_char": rep / max(n, 1),
        "topic_cos": _cos(_text_vector(a), _text_vector(b)),
        "lei_match": match,
        "lei_clash": clash,
        "figure": figure_agreement(a[:n], b[:n]),
    })


def _doubled(line: str, k: int) -> bool:
    """The character at k repeats a neighbour in its line (a reduplication: 蕭蕭, 滾滾)."""
    return (k > 0 and line[k - 1] == line[k]) or (k + 1 < len(line) and line[k + 1] == line[k])


def parallel_score(a: str, b: str) -> float:
    """Probability that two lines form a parallel couplet (對仗), calibrated on Tang 律詩.

    >>> parallel_score("明月松間照", "清泉石上流") > parallel_score("明月松間照", "何當共剪燭")
    True
    """
    return _logistic(_model()["criteria"]["parallel"], couplet_features(a, b))


# --- characters out of place ----------------------------------------------------------------------


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
CHAR_FEATURES = ("lp_fwd", "lp_bwd", "unigram", "fit_max", "fit_min", "topic", "topic_sq", "orphan", "nb_fit_min",
                 "verse_left", "verse_right", "verse_both")


def _verse_attested(line: str) -> np.ndarray:
    """Per character of a line: whether the pair it makes with the character before it, and with the one after it,
    is written in Song verse (models.VERSE_BIGRAMS_FILE), and both. A pair the Tang LMs rarely saw but Song poets
    wrote is diction, not a character swapped in (docs/BENCHMARKS.md, fluency15).

    >>> _verse_attested("白日依山盡")[:, 0].tolist()
    [0.0, 1.0, 1.0, 1.0, 1.0]
    """
    pairs = [_verse_pair(line[i:i + 2]) for i in range(len(line) - 1)]
    left = np.array([False, *pairs], dtype=float)
    right = np.array([*pairs, False], dtype=float)
    return np.stack([left, right, left * right], 1)


@lru_cache(maxsize=65536)
def _verse_pair(pair: str) -> bool:
    from poetry.lm import bloom_contains

    return bloom_contains(_verse_bigrams(), pair)


def char_features(lines: list[str]) -> np.ndarray:
    """One row of CHAR_FEATURES per character of the poem (line by line).

    lp_fwd / lp_bwd: log10 P of the character given the two before it / the two after it (trigram LMs);
    unigram: its context-free log10 P; fit_max / fit_min: the better / worse side's gain over the
    unigram (how much the context calls for it); topic: cosine of its topic vector with the rest of
    the poem (0 for a character without one); orphan: neither side calls for it (fit_max < 0);
    nb_fit_min: the lower fit_min of its neighbours in the line (a swapped character also spoils the
    prediction of the characters next to it); verse_left / verse_right / verse_both: its pair with the
    character before / after it (both) is written in Song verse (``_verse_attested``).

    >>> char_features(["白日依山盡", "黃河入海流"]).shape
    (10, 12)
    """
    return _char_features(tuple(lines)).copy()


@lru_cache(maxsize=16)  # the features and taste both read a poem's characters: measured once
def _char_features(lines: tuple[str, ...]) -> np.ndarray:
    """``char_features`` of a poem's lines, shared through the cache (callers get a copy)."""
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
        rows.append(np.concatenate([np.stack([lf, lb, uni, np.maximum(gf, gb), fmin, np.zeros_like(lf),
                                              np.zeros_like(lf), (np.maximum(gf, gb) < 0).astype(float), nb], 1),
                                    _verse_attested(line)], 1))
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
    """Logit that each character was swapped in, from the detector's logistic model over the CHAR_FEATURES it
    names (a detector fitted on fewer columns, as during a build, reads only those)."""
    X = X[:, [CHAR_FEATURES.index(name) for name in spec["features"]]]
    z = (X - np.asarray(spec["mean"])) / np.asarray(spec["scale"]) @ np.asarray(spec["coef"]) + spec["intercept"]
    return np.clip(z, -30.0, 30.0)


def detector_features(spec: Mapping[str, Any] | None, X: np.ndarray) -> dict[str, float]:
    """Poem-level evidence of swapped characters from the per-character detector.

    det_llr: minus the mean over the characters of log(1 − r + r·LR), LR the detector's likelihood
    ratio of "swapped" against "the poet's" and r an assumed share of swapped characters: the
    log-likelihood ratio, per character, of the poem as written against one with that share of its
    characters swapped at random (high for a real poem). det_top: mean suspicion of the most suspicious
    quarter of the characters.
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


def forget() -> None:
    """Forget the measures kept of recent lines and couplets (``reload_models``: they depend on the models)."""
    for f in (_text_vector, _tones, _couplet_features, _char_features):
        f.cache_clear()


# --- a poem's features -----------------------------------------------------------------------------


def features(lines: list[str], title: str | None) -> dict[str, float]:
    """All raw features of a poem (lines of Han characters, traditional), the input of every model."""
    from poetry.lm import load_lm

    # every line under both LMs at once (the features, the detector, taste and diction then read them kept)
    load_lm().score_lines(lines)
    load_lm(reversed=True).score_lines([line[::-1] for line in lines])
    vecs = [_text_vector(line) for line in lines]
    whole = _unit(np.sum(vecs, axis=0))
    f = _lm_features(lines)
    f.update(_char_topic_fit(lines))
    f.update(detector_features(_model().get("char_detector"), char_features(lines)))
    f.update(_topic_coherence(vecs, whole))
    f.update(_couplet_coherence(lines, vecs))
    f["rhyme_share"] = _rhyme_share(lines)
    f.update(_title_features(clean_title(title), lines, vecs, whole))
    return f


def _lm_features(lines: list[str]) -> dict[str, float]:
    """Fluency under the forward trigram LM: mean and worst line, improbable characters, gain over the
    unigram, characters neither side calls for (``poetry.lm.context_fit``), share of stock trigrams."""
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
    return f


def _topic_coherence(vecs: list[np.ndarray], whole: np.ndarray) -> dict[str, float]:
    """Line-to-line agreement of the topic vectors (貫理) and of the first and last lines (首尾貫通)."""
    if len(vecs) < 2:
        return {"coh_adj": 0.0, "coh_min": 0.0, "coh_loo": 0.0, "coh_first_last": 0.0, "coh_ends_rest": 0.0}
    adj = [_cos(vecs[i], vecs[i + 1]) for i in range(len(vecs) - 1)]
    loo = [_cos(v, _unit(whole * len(vecs) - v)) for v in vecs]
    half = max(1, min(2, len(vecs) // 2))
    first, last = _unit(np.sum(vecs[:half], 0)), _unit(np.sum(vecs[-half:], 0))
    middle = vecs[half:-half]
    rest = _unit(np.sum(middle, 0)) if middle else whole
    return {
        "coh_adj": float(np.mean(adj)),
        "coh_min": float(min(adj)),
        "coh_loo": float(np.mean(loo)),
        "coh_first_last": _cos(first, last),
        "coh_ends_rest": (_cos(first, rest) + _cos(last, rest)) / 2,
    }


def _title_features(title: str, lines: list[str], vecs: list[np.ndarray], whole: np.ndarray) -> dict[str, float]:
    """貼題: the (clean) title against the body: topic vectors, TF-IDF, title-body PMI, learned pairs, and the
    same by meaning with the title's own characters taken out of the body (poetry.grading.title_meaning)."""
    if not title:
        return {"has_title": 0.0, "rel_topic": 0.0, "rel_maxline": 0.0, "rel_lex": 0.0, "rel_assoc": 0.0,
                "rel_assoc_max": 0.0, "rel_pairs": 0.0, "rel_pairs_masked": 0.0, "rel_title_line_fit": 0.0,
                **dict.fromkeys(MEANING_FEATURES, 0.0)}
    t = _text_vector(title)
    assoc, assoc_max = _title_body(title, lines)
    own = set(title)
    return {
        **meaning_features(title, lines),
        "rel_pairs_masked": title_pair_score(title, ["".join(ch for ch in x if ch not in own) for x in lines]),
        "rel_title_line_fit": _title_line_fit(own, lines, vecs),
        "has_title": 1.0,
        "rel_topic": _cos(t, whole),
        "rel_maxline": max(_cos(t, v) for v in vecs),
        "rel_lex": _sparse_cos(_tfidf(title), _tfidf("".join(lines))),
        "rel_assoc": assoc,
        "rel_assoc_max": assoc_max,
        "rel_pairs": title_pair_score(title, lines),
    }


def _title_line_fit(title_chars: set[str], lines: list[str], vecs: list[np.ndarray]) -> float:
    """Topic cosine of the lines that write a title character with the other lines: in a poem on its title
    they talk of one thing; a jumble titled with one of its own words has one line on it (0 when no line
    or every line writes one).

    >>> lines = ["北風吹雁雪紛紛", "鸞扇斜分鳳幄開", "粉骨碎身渾不怕", "遙知兄弟登高處"]
    >>> _title_line_fit({"雪"}, lines, [_text_vector(x) for x in lines]) < 0.3
    True
    """
    hit = [i for i, x in enumerate(lines) if title_chars & set(x)]
    if not hit or len(hit) == len(lines):
        return 0.0
    rest = [v for i, v in enumerate(vecs) if i not in hit]
    return _cos(_unit(np.sum([vecs[i] for i in hit], 0)), _unit(np.sum(rest, 0)))


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
    keys = ("coh_skip_gain", "coh_parity_gap", "coh_pair", "coh_couplet_adj", "coh_parity_cos", "coh_cp_pair",
            "coh_cp_tone")
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

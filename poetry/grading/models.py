"""The grading's model files, loaded once, and the two kinds of model they hold.

Every table is read on first use through a ``functools.cache``d loader (``warm_up`` loads them all
at start; ``reload_models`` forgets them after scripts/build_grading.py rewrites data/):

  grading_vectors.npz       character topic vectors (LSA), IDF, 對仗 vectors and classes, title-body PMI;
  grading_title_pairs.npz   貼題's learned weights of (title character, body character) pairs;
  grading_title_words.npz   貼題 by meaning: body characters each title character or word calls for
                            (poetry.grading.title_meaning, which loads it);
  grading_words.tsv         IDF of jieba words, for 貼題's TF-IDF;
  grading_model.json        each criterion's logistic calibrator, the combined score's boosted trees,
                            the replaced-character detector, Tang poems' score quantiles;
  lm_chars*.npz             the character trigram LMs (poetry.lm, both directions);
  grading_verse_bigrams.npz a Bloom filter of the character pairs 全宋詩's training authors write twice or
                            more (the detector's verse_* features: attested in verse, not swapped in).
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from poetry.data import data_path, load_arrays
from poetry.text import to_simplified


@cache
def _tokenizer():
    """A private jieba tokenizer (quiet, initialised once)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tok = jieba.Tokenizer()
    tok.initialize()
    return tok


@lru_cache(maxsize=4096)
def dictionary_cut(simple: str) -> tuple[str, ...]:
    """A 简体 line as jieba's dictionary cuts it (no HMM: words of the dictionary only, 海內/存, not 內存), once per
    line: the diction's modern words and the piling's everyday words read the same cut.

    >>> dictionary_cut("风景真美丽")
    ('风景', '真', '美丽')
    """
    return tuple(_tokenizer().lcut(simple, HMM=False))


def cut_lines(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line index, start, word in 简体) of every word of the lines (canonical 繁) as ``dictionary_cut`` cuts their
    简体, each start the word's place in the line as written.

    >>> cut_lines(["登樓望遠山", "風景真美麗"])[-3:]
    [(1, 0, '风景'), (1, 2, '真'), (1, 3, '美丽')]
    """
    out = []
    for k, line in enumerate(lines):
        simple = to_simplified(line)
        if len(simple) != len(line):  # a conversion that changes the length cannot be aligned
            simple = "".join(to_simplified(ch) for ch in line)
        i = 0
        for token in dictionary_cut(simple):
            out.append((k, i, token))
            i += len(token)
    return out


@dataclass(frozen=True)
class _Vectors:
    """The character tables of grading_vectors.npz, read-only."""

    index: Mapping[str, int]
    topic: np.ndarray  # character topic vectors (LSA, centred, unit length)
    idf: np.ndarray
    pair: np.ndarray  # 對仗 alignment vectors
    pair_class: np.ndarray  # 對仗 class, -1 when unknown
    title_index: Mapping[str, int]  # 貼題: title characters
    title_body: np.ndarray  # PMI of (title character, body character), dense, 0 where unknown


def _dense_title_body(npz, n_body: int) -> np.ndarray:
    """The title-body PMI table, stored sparse, as a dense read-only float16 array."""
    n_title = len(str(npz["title_chars"]))
    table = np.zeros((n_title, n_body), dtype=np.float16)
    table[npz["tb_title"].astype(np.int64), npz["tb_body"].astype(np.int64)] = npz["tb_pmi"]
    table.flags.writeable = False
    return table


@cache
def _vectors() -> _Vectors:
    """The character tables, loaded once."""
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


@cache
def _word_idf() -> Mapping[str, float]:
    """IDF of each jieba word (simplified), loaded once."""
    out = {}
    with open(data_path("grading_words.tsv"), encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            word, value = line.rstrip("\n").split("\t")
            out[word] = float(value)
    return MappingProxyType(out)


#: The detector's filter of character pairs attested in Song verse (scripts/build_grading.py, stage model).
VERSE_BIGRAMS_FILE = "grading_verse_bigrams.npz"


def _verse_bigrams() -> tuple[np.ndarray, int, int]:
    """The filter of VERSE_BIGRAMS_FILE as (bits, k, m), loaded once (poetry.lm.load_bloom)."""
    from poetry.lm import load_bloom

    return load_bloom(VERSE_BIGRAMS_FILE)


@cache
def _model() -> Mapping[str, Any]:
    """The calibrators, the combined model, the detector and the quantiles (grading_model.json), loaded once."""
    with open(data_path("grading_model.json"), encoding="utf-8") as fh:
        return json.load(fh)


def reload_models() -> None:
    """Forget the loaded models (the build script calls this after rewriting data/)."""
    from poetry import lm
    from poetry.grading import measures, piling
    from poetry.grading.measures import _verse_pair
    from poetry.grading.taste import _taste_model
    from poetry.grading.title_meaning import _scenes, _title_words

    for f in (_vectors, _title_pairs, _word_idf, _model, _taste_model, _title_words, _scenes, _verse_pair):
        f.cache_clear()
    piling.reload()
    lm.reload()  # the LMs and the filters (_verse_bigrams among them)
    measures.forget()


@cache
def one_blas_thread() -> bool:
    """Run numpy's BLAS on one thread in this process (once; False where threadpoolctl is missing).

    The grading's products are small (a poem's lines' topic vectors against each other: 120 × 96 for 長恨歌), and
    OpenBLAS splits them across threads that then spin waiting for the next: measured on 2 cores, a long poem took
    2–3 times the CPU (docs/BENCHMARKS.md, speed15). One thread computes the same numbers.
    """
    try:
        from threadpoolctl import threadpool_limits  # installed with scikit-learn
    except ImportError:  # pragma: no cover - scikit-learn is in requirements.txt
        return False
    threadpool_limits(limits=1, user_api="blas")
    return True


def warm_up() -> None:
    """Load every model now (the app calls this so the first request is not slow)."""
    from poetry.lm import load_lm

    one_blas_thread()

    load_lm()
    load_lm(reversed=True)
    _vectors()
    _title_pairs()
    _word_idf()
    _model()
    _verse_bigrams()
    _tokenizer()
    from poetry.grading.title_meaning import _scenes, _title_words

    _title_words()
    _scenes()
    # what the models do not hold but a poem reads on first use (the checker's tables and readings, the 简体 and
    # variant tables, 歲時 and 四時, the diction, taste): one poem in 简体 under a festival's title, graded once
    from poetry.checker import check_poem
    from poetry.grading import grade_poem
    from poetry.prosody import get_rhyme_book, mandarin_syllables

    grade_poem(WARM_UP_POEM, title=WARM_UP_TITLE)
    check_poem(WARM_UP_POEM)  # and the checker's suggestions for its faults, which the editor shows
    # a char no rhyme book holds has its tone guessed from Mandarin: the 新韻 tables, then pypinyin
    get_rhyme_book("xinyun")
    mandarin_syllables("詩")


#: The poem ``warm_up`` grades and checks: 王安石's 元日 in 简体, 屠苏 changed to 屠门 so that the rhyme fails and
#: the checker loads what it suggests mends from.
WARM_UP_TITLE = "元日"
WARM_UP_POEM = "爆竹声中一岁除，春风送暖入屠门。千门万户曈曈日，总把新桃换旧符。"


# --- the two kinds of model ------------------------------------------------------------------------


def _logistic(spec: Mapping[str, Any], feats: Mapping[str, float]) -> float:
    """A logistic model stored as JSON: sigmoid(intercept + coef · standardised features)."""
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

"""Build the grading models in data/ from the Tang corpus (../shared/corpus, build time only).

    nice -n 10 python scripts/build_grading.py [--corpus ../shared/corpus] [--stage all|forms|lm|model|titles|known]

Splits of the 57,607 poems of 全唐詩:
  * held out for evaluation: every poem of 唐詩三百首 (matched by normalised title + text, see
    ``heldout_matches``); no model below sees them;
  * calibration: a seeded random 6,000 of the rest, used only to fit the criteria calibrators and the
    combining model (so that the LM has never seen the poems the combiner learns from);
  * training: the rest, for the character trigram LM, the topic vectors, the word IDF, the 對仗 classes
    and 貼題's title-body pair weights.
The LMs also learn the phrases of 全宋詞, the Song ci (``--songci``; chinese-poetry npm 2.0.1, MIT, beside
tang_corpus.DEFAULT_SONG), for Song diction. ``--song-train DIR`` (an experiment, not the shipped models: it made
the honest measures worse, docs/BENCHMARKS.md songtrain14) adds one in ``--song-train-every`` poems of 全宋詩's
training authors to the training split (tang_corpus.song_split: the held-out authors, on whom the grading is
measured, never enter); the calibration split stays 全唐詩. ``--song-titles DIR`` (an experiment, not shipped:
two 貼題 tests fail, docs/BENCHMARKS.md songtitles14) lets 貼題's title tables alone also learn the titles and
bodies of one in ``--song-titles-every`` of those poems; ``--stage titles`` rebuilds only those tables (the other
model files kept byte for byte; ``--title-calibrators`` refits 貼題's calibrators and band on the same calibration
poems). read_title's words stay 全唐詩's in every build (grading_title_words.npz's ``parse_words``).

Deterministic: seeded generators, one BLAS/OpenMP thread, nothing that depends on string hash order
(two builds write the same files).

Writes data/grading_forms.tsv (stage forms: each char's canonical form; every stage reads the corpus
through it), data/lm_chars.npz, data/lm_chars_rev.npz, data/grading_vectors.npz, data/grading_title_words.npz,
data/grading_words.tsv and data/lm_known_lines.npz (stage lm; stage known: that file alone, a Bloom filter of the
lines the LMs learned), data/grading_title_pairs.npz, data/grading_verse_bigrams.npz (the detector's Song verse
pairs) and data/grading_model.json (stage model).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import math
import os
import pickle
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from types import MappingProxyType

# one thread for BLAS and OpenMP: the build stays single-process on a shared machine, and its sums
# come out in the same order every run (the model files are reproducible)
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poetry import lm as lm_module  # noqa: E402
from poetry.errors import PoetryError  # noqa: E402
from poetry.grading.variants import FORMS_FILE, canonical, canonical_table  # noqa: E402
from poetry.text import split_lines  # noqa: E402
from scripts import tang_corpus  # noqa: E402

DATA = ROOT / "data"
CALIBRATION_SIZE = 6000
SEED = 20261129

_TITLE_NOISE = re.compile(
    r"[\s（）()〔〕\[\]【】「」《》·・,，、：:；;。.!！?？]"
    r"|其[一二三四五六七八九十]+|[一二三四五六七八九十百]+首"
)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# --- corpus and the held-out set ---------------------------------------------------------------


def normalise_title(title: str) -> str:
    """Title without punctuation, spaces and numbering (「其二」「十首」)."""
    return _TITLE_NOISE.sub("", title or "")


def _clean(paragraphs: list[str]) -> list[str]:
    """The lines as the grading reads them: split, Han only, each character in its canonical form."""
    return [canonical(line) for line in split_lines("\n".join(paragraphs))]


# --- one form of each character (poetry.grading.variants) ----------------------------------------

#: Forms the variant tables link but a poem keeps apart (鬚 beard / 須 must, 纔 just / 才 talent, 臺 terrace /
#: 台 in 天台 and 三台, 闢 open / 辟 ruler, 採 pick / 采 colour): never merged; the first, which Taiwan and
#: Hong Kong forms (or the rhyme book) write for both, may stand for either, and the grading's LM chooses.
KEPT_APART = MappingProxyType({"須": "鬚", "才": "纔", "台": "臺", "辟": "闢", "采": "採"})
#: Chars that 简→繁 conversion (OpenCC s2t, s2twp, s2hk) writes for another: 干 becomes 幹 in 「淚始乾」.
CONVERSION_SLIPS = MappingProxyType({"幹": "乾"})
#: Variants no table links: 鬥 鬭 鬬 (the 鬥 of Taiwan and Hong Kong against the corpus' 鬬); 閒 閑 (OpenCC
#: writes 简体 闲 as 閑, the corpus mostly 閒; 閑 never stands for 間, so the two are one word in verse).
EXTRA_CLASSES = ("鬥鬭鬬", "閒閑")


#: The Unihan fields whose pairs are one word written two ways (not kSpecializedSemanticVariant: 占 佔 share
#: only a sense).
SAME_WORD_FIELDS = ("kZVariant", "kSemanticVariant")


def unihan_same_word() -> list[tuple[str, str]]:
    """Pairs Unihan calls the same character or the same word (SAME_WORD_FIELDS) that 简体 writes as one
    character and the rhyme book reads exactly alike (遶 繞, 箇 個, 彫 雕, 汎 泛, 踰 逾, 盪 蕩): a 繁 poem keeps
    the form its source prints, while its 简体 comes back in the common one. Pairs that read apart stay apart
    (沈, 上聲 as a surname, is no 沉), and so do pairs 简体 keeps apart (肆 四, 阡 千: one sense shared)."""
    import opencc
    from build_rhyme_book import read_unihan

    from poetry.prosody import get_rhyme_book

    book, unihan, t2s = get_rhyme_book("pingshui"), read_unihan(), opencc.OpenCC("t2s")
    out = []
    for field in SAME_WORD_FIELDS:
        for a, variants in unihan[field].items():
            for b in variants:
                ra, rb = book.rhyme_groups_of(a), book.rhyme_groups_of(b)
                if a != b and ra and sorted(ra) == sorted(rb) and t2s.convert(a) == t2s.convert(b):
                    out.append((a, b))
    return out


def build_forms(corpus: Path) -> list[tuple[str, str]]:
    """(char, canonical form) for every char with another form in its variant class; (char, "char other")
    for a char that may stand for either of two (KEPT_APART, CONVERSION_SLIPS).

    The classes join data/variants.tsv's whole-char 'book' rows (爲 → 為, 豔 → 艷) and OpenCC's
    single-char conversions to and from Taiwan and Hong Kong standard forms (t2tw, t2hk, tw2t, hk2t:
    裏 ↔ 裡, 衆 ↔ 眾, 着 ↔ 著) and Unihan's same-word pairs that read alike (``unihan_same_word``), less
    KEPT_APART, plus EXTRA_CLASSES. Each class's canonical form is
    the one 全唐詩 uses most (爲, 裏, 鬬, 豔, 歎), so the models learned from the corpus know it best.
    """
    import opencc

    from poetry.data import read_tsv

    counts: Counter = Counter()
    for rec in tang_corpus.tang_poems(corpus):
        counts.update("".join(rec["paragraphs"]))
        counts.update(rec["title"])
    edges = [(row[0], row[2]) for row in read_tsv("variants.tsv")
             if row[1] == "book" and len(row) == 3 and " " not in row[2]]
    universe = sorted({ch for ch in counts if len(split_lines(ch)) == 1} | {c for e in edges for c in e})
    for config in ("t2tw", "t2hk", "tw2t", "hk2t"):
        converted = opencc.OpenCC(config).convert("\n".join(universe)).split("\n")
        edges += [(a, b) for a, b in zip(universe, converted) if len(b) == 1 and a != b]
    edges += [(cls[0], ch) for cls in EXTRA_CLASSES for ch in cls[1:]]
    edges += unihan_same_word()
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            ch = parent[ch]
        return ch

    for a, b in sorted(edges):
        if KEPT_APART.get(a) != b and KEPT_APART.get(b) != a and root(a) != root(b):
            parent[root(a)] = root(b)
    classes: dict[str, list[str]] = {}
    for ch in sorted(parent):
        classes.setdefault(root(ch), []).append(ch)
    out = []
    for members in classes.values():
        assert not any({a, b} <= set(members) for a, b in KEPT_APART.items()), members
        best = max(members, key=lambda c: (counts[c], c))
        out += [(ch, best) for ch in members if ch != best]
    out += [(a, f"{a} {b}") for a, b in {**KEPT_APART, **CONVERSION_SLIPS}.items()]
    return sorted(set(out))


def load_corpus(corpus: Path) -> list[dict]:
    """全唐詩, each poem's lines split and stripped as poetry.grading reads a poem (title in canonical forms too)."""
    return [dict(p, title=canonical(p["title"])) for p in tang_corpus.load_tang(corpus, _clean)]


def load_anthology(corpus: Path) -> list[dict]:
    """唐詩三百首 with its form labels, cleaned like the corpus."""
    return [dict(p, title=canonical(p["title"])) for p in tang_corpus.load_anthology(corpus, _clean)]


def heldout_matches(poems: list[dict], anthology: list[dict]) -> set[int]:
    """Indices of corpus poems that are (versions of) anthology poems.

    A poem is held out when its normalised text equals an anthology poem's, or when at least half of
    its lines are lines of one anthology poem, or when its normalised title equals an anthology title
    and it shares a line with that poem. Generous on purpose: a near-copy in training would leak.
    """
    line_owner: dict[str, set[int]] = {}
    texts = {}
    titles: dict[str, set[int]] = {}
    for j, poem in enumerate(anthology):
        texts["".join(poem["lines"])] = j
        titles.setdefault(normalise_title(poem["title"]), set()).add(j)
        for line in poem["lines"]:
            if len(line) >= 4:
                line_owner.setdefault(line, set()).add(j)
    held = set()
    for i, poem in enumerate(poems):
        if "".join(poem["lines"]) in texts:
            held.add(i)
            continue
        shared = Counter()
        for line in poem["lines"]:
            for j in line_owner.get(line, ()):
                shared[j] += 1
        if not shared:
            continue
        j, n = shared.most_common(1)[0]
        if n * 2 >= len(poem["lines"]):
            held.add(i)
            continue
        same_title = titles.get(normalise_title(poem["title"]), set())
        if any(shared[j] for j in same_title):
            held.add(i)
    return held


def split_corpus(poems: list[dict], held: set[int], seed: int = SEED) -> tuple[list[int], list[int]]:
    """(training indices, calibration indices), both disjoint from ``held``."""
    rest = [i for i in range(len(poems)) if i not in held]
    rng = random.Random(seed)
    # calibrate on every poem of four to forty lines, as varied as the poems to be graded
    eligible = [i for i in rest if 4 <= len(poems[i]["lines"]) <= 40]
    calib = set(rng.sample(eligible, min(CALIBRATION_SIZE, len(eligible))))
    train = [i for i in rest if i not in calib]
    return train, sorted(calib)


def _is_regular(lines: list[str]) -> bool:
    """Four or more lines, all of one length 5 or 7 (the shapes the game plays)."""
    return (4 <= len(lines) <= 24 and len(lines) % 2 == 0 and len({len(x) for x in lines}) == 1
            and len(lines[0]) in (5, 7))


# --- the character trigram LM (interpolated Kneser-Ney) ----------------------------------------

#: The shortest 全宋詞 phrase the LMs learn: a ci's one- and two-character phrases (the 醉 of 醉，醉，醉) are
#: fragments of a tune's shape, not diction.
SONGCI_MIN_PHRASE = 3
#: The share of 全宋詞 the LMs learn: every third ci (95,771 phrases, 468,300 characters, against 2,591,131 in
#: 全唐詩's 464,571 training lines). All of it read Song better still, but the combiner refitted on it let
#: 《登高》 with 一氣呵成 at 0.01 stay 中品 (0.508; tests/test_grading.py, monotone trees); a third keeps it
#: 下品 (docs/BENCHMARKS.md, songci14).
SONGCI_EVERY = 3


def songci_lines(directory: str, every: int = 1) -> list[str]:
    """The phrases of 全宋詞 the LMs learn besides 全唐詩's lines: Song diction (傲霜, 殘菊 …) from the ci, never
    from 全宋詩, which stands for the poems the grading is measured on; of every ``every``-th ci only. [] for
    ``"none"``."""
    if directory == "none":
        return []
    phrases = [x for ci in tang_corpus.songci_phrases(_clean, Path(directory))[::every] for x in ci
               if len(x) >= SONGCI_MIN_PHRASE]
    log(f"全宋詞 {directory}: {len(phrases)} phrases of {SONGCI_MIN_PHRASE}+ characters for the LMs")
    return phrases


#: The share of the training authors' 全宋詩 poems (tang_corpus.song_split) the models learn with ``--song-train``:
#: every third (songtrain14 measured every third and every sixth; neither is shipped).
SONG_TRAIN_EVERY = 3
#: The share of the training authors' 全宋詩 poems whose titles and bodies 貼題's title tables learn with
#: ``--song-titles``: every sixth keeps data/ within 10% (songtitles14 measured every third, sixth and twelfth;
#: none is shipped: two 貼題 tests fail in each, docs/BENCHMARKS.md).
SONG_TITLES_EVERY = 6


def song_training(corpus: Path, directory: str, every: int = SONG_TRAIN_EVERY) -> list[dict]:
    """Every ``every``-th poem of 全宋詩's training authors (tang_corpus.song_split: held-out authors, unknown
    authors and any poem sharing a line with a held-out, test or 唐詩三百首 poem never enter), cleaned like
    全唐詩 (title in canonical forms too), for the LMs, topic vectors, word IDF and 對仗 (``--song-train``) or for
    貼題's title tables (``--song-titles``); never the calibration split. [] for ``"none"``."""
    if directory == "none":
        return []
    split = tang_corpus.song_split(_clean, Path(directory), corpus)
    poems = [dict(p, title=canonical(p["title"])) for p in split.train[::every]]
    log(f"全宋詩 {directory}: {len(split.named)} authors held out by name, {len(split.train)} training authors' "
        f"poems ({split.excluded} sharing a line left out), one in {every}: {len(poems)} poems, "
        f"{sum(len(x) for p in poems for x in p['lines'])} characters")
    return poems


#: How many poems of 全宋詩's training authors 一氣呵成's calibrator and the swapped-character detector learn beside
#: the 全唐詩 calibration poems (``song_calibration``; fluency15 measured 1,500 and 3,000, docs/BENCHMARKS.md).
SONG_CALIBRATION = 3000


def song_calibration(corpus: Path, directory: str, n: int = SONG_CALIBRATION, trained: int = 0) -> list[dict]:
    """``n`` poems of 全宋詩's training authors (tang_corpus.song_split), drawn with SEED among those of 4 to 40 lines
    of five or seven characters, as real poems for 一氣呵成 (with their corrupted copies), so that Song diction
    the LMs know less is not learned as a sign of swapped characters; none that the models learned
    (every ``trained``-th training poem with ``--song-train``). [] for ``"none"`` or ``n`` = 0."""
    if directory == "none" or n <= 0:
        return []
    split = tang_corpus.song_split(_clean, Path(directory), corpus)
    pool = [dict(p, title=canonical(p["title"])) for i, p in enumerate(split.train)
            if not (trained and i % trained == 0) and 4 <= len(p["lines"]) <= 40
            and len({len(x) for x in p["lines"]}) == 1 and len(p["lines"][0]) in (5, 7)]
    poems = random.Random(SEED).sample(pool, min(n, len(pool)))
    log(f"全宋詩 {directory}: {len(poems)} training authors' poems for 一氣呵成's calibration (of {len(pool)})")
    return poems


#: A character pair is attested in Song verse (the detector's verse_* features) when 全宋詩's training authors write
#: it this often: twice keeps the filter at half the pairs and measured as well as once (docs/BENCHMARKS.md, fluency15).
VERSE_BIGRAM_MIN = 2


def verse_bigrams(corpus: Path, directory: str, calibration: list[dict]) -> dict[str, np.ndarray]:
    """The Bloom filter (poetry.lm.bloom_filter) of the character pairs that 全宋詩's training authors
    (tang_corpus.song_split) write VERSE_BIGRAM_MIN times or more, within a line, in poems other than the
    ``calibration`` ones (whose pairs would otherwise all be attested, unlike a new poem's); empty for ``"none"``."""
    from poetry.lm import bloom_filter

    if directory == "none":
        return bloom_filter([])
    left_out = {tuple(p["lines"]) for p in calibration}
    counts = Counter(x[i:i + 2] for p in tang_corpus.song_split(_clean, Path(directory), corpus).train
                     if tuple(p["lines"]) not in left_out for x in p["lines"] for i in range(len(x) - 1))
    kept = [pair for pair, n in counts.items() if n >= VERSE_BIGRAM_MIN]
    log(f"verse bigrams: {len(kept)} pairs written {VERSE_BIGRAM_MIN}+ times (of {len(counts)})")
    return bloom_filter(kept)


#: A stock phrase (語句清新's 套語): a trigram 全唐詩 (and the ci) repeat this many times.
STOCK_THRESHOLD = 20


def stock_threshold(lines: list[str], song_lines: list[str]) -> int:
    """STOCK_THRESHOLD scaled by the share of the LMs' characters that 全宋詩 adds, so that a stock phrase is as
    frequent as before: the absolute count over 1.7 times the text made 李白's 「飛流直下三千尺」 and 「低頭思故鄉」
    stock (docs/BENCHMARKS.md, songtrain14).

    >>> stock_threshold(["甲乙丙", "丁戊己"], ["甲乙丙"])
    40
    """
    total = sum(map(len, lines))
    added = sum(map(len, song_lines))
    return round(STOCK_THRESHOLD * total / max(total - added, 1))


def build_lm(lines: list[str], prune: int = 2, stock_threshold: int = STOCK_THRESHOLD) -> dict[str, np.ndarray]:
    chars = Counter(ch for line in lines for ch in line)
    vocab = lm_module.BOS + lm_module.EOS + lm_module.UNK + "".join(ch for ch, _ in chars.most_common())
    index = {ch: i for i, ch in enumerate(vocab)}
    V = len(vocab)
    bos, eos = index[lm_module.BOS], index[lm_module.EOS]
    seqs = []
    for line in lines:
        seqs.append(np.array([bos, bos] + [index[ch] for ch in line] + [eos], dtype=np.int64))
    U = np.concatenate([s[:-2] for s in seqs])
    Vv = np.concatenate([s[1:-1] for s in seqs])
    W = np.concatenate([s[2:] for s in seqs])
    keys3, c3 = np.unique((U * V + Vv) * V + W, return_counts=True)

    def discount(counts: np.ndarray) -> float:
        n1, n2 = int((counts == 1).sum()), int((counts == 2).sum())
        return n1 / (n1 + 2 * n2)

    D3 = discount(c3)
    ctx3 = keys3 // V  # (u,v) as u*V+v
    # bigram level: continuation counts N1+(. v w), raw counts for contexts starting a line
    key2_of3 = keys3 % (V * V)
    keys2, ckn2 = np.unique(key2_of3, return_counts=True)
    raw2 = np.bincount(np.searchsorted(keys2, key2_of3), weights=c3, minlength=len(keys2))
    v_of2 = keys2 // V
    cnt2 = np.where(v_of2 == bos, raw2, ckn2).astype(np.float64)
    D2 = discount(cnt2.astype(np.int64))
    den2 = np.bincount(v_of2, weights=cnt2, minlength=V)
    # unigram continuation P1(w) = N1+(. w) / N1+(. .), with a little uniform mass for the unseen
    w_of2 = keys2 % V
    cont1 = np.bincount(w_of2, minlength=V).astype(np.float64)
    cont1[bos] = 0
    p1 = 0.999 * cont1 / cont1.sum() + 0.001 / V
    p1[bos] = 1e-12
    # prune: trigrams seen fewer than `prune` times, bigrams whose count is below `prune`
    keep3 = c3 >= prune
    keys2_ctx = np.unique(ctx3)
    ci = np.searchsorted(keys2_ctx, ctx3)
    ctx_total = np.bincount(ci, weights=c3)
    d3_all = np.maximum(c3 - D3, 0) / ctx_total[ci]
    kept_mass = np.bincount(ci[keep3], weights=d3_all[keep3], minlength=len(keys2_ctx))
    g2_ctx = 1.0 - kept_mass  # normalised back-off weight of each trigram context
    keep2 = cnt2 >= prune
    d2_all = np.maximum(cnt2 - D2, 0) / den2[v_of2]
    kept2_mass = np.bincount(v_of2[keep2], weights=d2_all[keep2], minlength=V)
    g1 = np.where(den2 > 0, 1.0 - kept2_mass, 1.0)
    # the bigram table holds kept bigrams and contexts of kept trigrams
    ctx_needed = np.unique(ctx3[keep3])
    k2 = np.union1d(keys2[keep2], ctx_needed)
    pos = np.searchsorted(keys2, k2)
    d2 = np.where(np.isin(k2, keys2[keep2]), d2_all[np.minimum(pos, len(keys2) - 1)], 0.0)
    g2 = np.ones(len(k2))
    pc = np.searchsorted(keys2_ctx, k2)
    has_ctx = (pc < len(keys2_ctx)) & (keys2_ctx[np.minimum(pc, len(keys2_ctx) - 1)] == k2)
    g2[has_ctx] = g2_ctx[pc[has_ctx]]
    log(f"LM: V={V} trigrams {len(keys3)} kept {int(keep3.sum())}, bigram table {len(k2)}, D3={D3:.3f} D2={D2:.3f},"
        f" stock phrases from {stock_threshold} uses")
    return {
        "vocab": np.array(vocab),
        "p1": p1.astype(np.float32),
        "g1": g1.astype(np.float32),
        "k2": k2.astype(np.int64),
        "d2": d2.astype(np.float32),
        "g2": g2.astype(np.float32),
        "k3": keys3[keep3].astype(np.int64),
        "d3": d3_all[keep3].astype(np.float32),
        "c3": np.minimum(c3[keep3], 65535).astype(np.uint16),
        "stock_threshold": np.array(stock_threshold),
    }


# --- topic vectors, IDF, 對仗 classes ----------------------------------------------------------


def build_vectors(poems: list[dict], train: list[int], dims: int = 96, pair_dims: int = 40,
                  classes: int = 60, titled: list[int] | None = None) -> dict[str, np.ndarray]:
    """Topic vectors, 對仗 classes (from ``train``) and 貼題's title-body PMI (from ``titled``, default ``train``)."""
    from scipy import sparse
    from sklearn.cluster import KMeans
    from sklearn.decomposition import TruncatedSVD

    docs = ["".join(poems[i]["lines"]) for i in train]
    freq = Counter(ch for d in docs for ch in d)
    chars = [ch for ch, n in freq.most_common() if n >= 3]
    index = {ch: i for i, ch in enumerate(chars)}
    # character × poem, sublinear tf × idf; LSA gives each character a topic vector
    rows, cols, vals = [], [], []
    df = np.zeros(len(chars))
    for j, d in enumerate(docs):
        for ch, n in Counter(d).items():
            i = index.get(ch)
            if i is not None:
                rows.append(i)
                cols.append(j)
                vals.append(1 + math.log(n))
                df[i] += 1
    idf = np.log((1 + len(docs)) / (1 + df)) + 1
    X = sparse.csr_matrix((vals, (rows, cols)), shape=(len(chars), len(docs)))
    X = sparse.diags(idf) @ X
    svd = TruncatedSVD(n_components=dims, random_state=SEED, algorithm="randomized", n_iter=5)
    vec = svd.fit_transform(X)
    vec /= np.linalg.norm(vec, axis=1, keepdims=True) + 1e-9
    weights = np.array([freq[ch] for ch in chars], dtype=np.float64)
    vec -= (weights[:, None] * vec).sum(0) / weights.sum()  # centre: shared "poetry-ness" removed
    vec /= np.linalg.norm(vec, axis=1, keepdims=True) + 1e-9
    log(f"topic vectors: {len(chars)} chars × {dims}")

    # 對仗: characters aligned in the 頷聯 and 頸聯 of training 律詩 (8 lines of 5 or 7)
    pairs = Counter()
    n_couplets = 0
    for i in train:
        lines = poems[i]["lines"]
        if len(lines) == 8 and len({len(x) for x in lines}) == 1 and len(lines[0]) in (5, 7):
            for a, b in ((lines[2], lines[3]), (lines[4], lines[5])):
                n_couplets += 1
                for x, y in zip(a, b):
                    if x in index and y in index and x != y:
                        pairs[(index[x], index[y])] += 1
                        pairs[(index[y], index[x])] += 1
    keys = list(pairs)
    M = sparse.csr_matrix(([pairs[k] for k in keys], ([k[0] for k in keys], [k[1] for k in keys])),
                          shape=(len(chars), len(chars)))
    total = M.sum()
    rs = np.asarray(M.sum(1)).ravel()
    M = M.tocoo()
    pmi = np.log(M.data * total / (rs[M.row] * rs[M.col]) + 1e-12)
    pmi = np.maximum(pmi, 0)
    P = sparse.csr_matrix((pmi, (M.row, M.col)), shape=M.shape)
    psvd = TruncatedSVD(n_components=pair_dims, random_state=SEED, algorithm="randomized", n_iter=5)
    pvec = psvd.fit_transform(P)
    pvec /= np.linalg.norm(pvec, axis=1, keepdims=True) + 1e-9
    seen = rs >= 5  # characters aligned often enough to have a class
    km = KMeans(n_clusters=classes, random_state=SEED, n_init=3)
    km.fit(pvec[seen])
    pclass = np.full(len(chars), -1, dtype=np.int16)
    pclass[seen] = km.labels_
    pvec[~seen] = 0
    log(f"對仗 classes: {n_couplets} couplets, {int(seen.sum())} chars in {classes} classes")
    title_chars, tb_title, tb_body, tb_pmi = build_title_body(poems, train if titled is None else titled, index)
    return {
        "title_chars": np.array(title_chars),
        "tb_title": tb_title,
        "tb_body": tb_body,
        "tb_pmi": tb_pmi,
        "chars": np.array("".join(chars)),
        "topic": vec.astype(np.float16),
        "idf": idf.astype(np.float32),
        "pair": pvec.astype(np.float16),
        "pair_class": pclass,
    }


def build_title_body(poems: list[dict], train: list[int], index: dict[str, int], top: int = 200):
    """貼題: which body characters each title character calls for (送 → 別 君 歸; 塞 → 胡 馬 沙).

    Positive PMI of (title character, body character) over the training poems, counting each poem
    once (pairs seen in fewer than three poems dropped); for each title character only its ``top``
    strongest body characters are kept, as (title, body, pmi) triples.
    """
    from scipy import sparse

    from poetry.grading import clean_title

    tfreq = Counter()
    docs = []
    for i in train:
        t = set(clean_title(poems[i]["title"]))
        b = {index[ch] for line in poems[i]["lines"] for ch in line if ch in index}
        if t and b:
            docs.append((t, b))
            tfreq.update(t)
    # ties in frequency broken by the character, not by set order (which changes with the string hash seed)
    title_chars = [ch for ch, n in sorted(tfreq.items(), key=lambda kv: (-kv[1], kv[0])) if n >= 5]
    tindex = {ch: i for i, ch in enumerate(title_chars)}
    rows, cols = [], []
    for t, b in docs:
        for ch in t:
            if ch in tindex:
                rows.extend([tindex[ch]] * len(b))
                cols.extend(b)
    M = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(title_chars), len(index)))
    M.sum_duplicates()
    n = len(docs)
    tdf = np.array([tfreq[ch] for ch in title_chars], dtype=np.float64)
    bdf = np.zeros(len(index))
    for _, b in docs:
        bdf[list(b)] += 1
    M = M.tocoo()
    pmi = np.log(M.data * n / (tdf[M.row] * bdf[M.col]))
    keep = (M.data >= 3) & (pmi > 0)
    r, c, v = M.row[keep], M.col[keep], pmi[keep]
    order = np.lexsort((c, -v, r))  # ties at the cut broken by the body character
    r, c, v = r[order], c[order], v[order]
    rank = np.arange(len(r)) - np.searchsorted(r, r)  # position within its title character
    sel = rank < top
    log(f"貼題 title-body PMI: {len(title_chars)} title chars, {int(sel.sum())} pairs kept of {int(keep.sum())}")
    return "".join(title_chars), r[sel].astype(np.uint16), c[sel].astype(np.uint16), v[sel].astype(np.float16)


def build_title_words(poems: list[dict], train: list[int], vectors: dict[str, np.ndarray], min_df: int = 8,
                      top: int = 200, parse: list[int] | None = None) -> dict[str, np.ndarray]:
    """貼題 by meaning: which body characters each title unit calls for, a unit being a title character or
    a two-character word of the clean title (送別 → 君 歸 離; 重陽 → 菊 茱 萸; 七夕 → 牛 女 橋).

    Positive PMI of (unit, body character) over the training poems, each poem counted once (units in
    fewer than ``min_df`` titles and pairs in fewer than three poems dropped; the ``top`` strongest body
    characters of each unit kept, rows in CSR form); each unit's information (the mean of its 20 strongest
    PMIs) and its expansion (the unit topic vector of its body characters weighted by PMI). ``parse_words``: the
    two-character units of the titles of ``parse`` (default ``train``; the build passes 全唐詩's alone) seen in
    ``min_df`` titles, the words read_title knows (title_parts), so that Song titles (次韻, names) added to the
    tables leave the parse as learned from Tang titles.
    """
    from scipy import sparse

    from poetry.grading import clean_title

    chars = str(vectors["chars"])
    index = {ch: i for i, ch in enumerate(chars)}
    parsed = set(train if parse is None else parse)
    docs, freq, parse_freq = [], Counter(), Counter()
    for i in train:
        t = clean_title(poems[i]["title"])
        units = set(t) | {t[k:k + 2] for k in range(len(t) - 1)}
        body = {index[ch] for line in poems[i]["lines"] for ch in line if ch in index}
        if units and body:
            docs.append((units, sorted(body)))
            freq.update(units)
            if i in parsed:
                parse_freq.update(u for u in units if len(u) == 2)
    units = sorted((u for u, n in freq.items() if n >= min_df), key=lambda u: (-freq[u], u))
    uindex = {u: i for i, u in enumerate(units)}
    rows, cols = [], []
    bdf = np.zeros(len(chars))
    for us, body in docs:
        bdf[body] += 1
        for u in us:
            if u in uindex:
                rows.extend([uindex[u]] * len(body))
                cols.extend(body)
    M = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(units), len(chars)))
    M.sum_duplicates()
    M = M.tocoo()
    udf = np.array([freq[u] for u in units], dtype=np.float64)
    pmi = np.log(M.data * len(docs) / (udf[M.row] * bdf[M.col]))
    keep = (M.data >= 3) & (pmi > 0)
    r, c, v = M.row[keep], M.col[keep], pmi[keep]
    order = np.lexsort((c, -v, r))
    r, c, v = r[order], c[order], v[order]
    sel = (np.arange(len(r)) - np.searchsorted(r, r)) < top  # rank within its unit
    r, c, v = r[sel], c[sel], v[sel].astype(np.float16)
    indptr = np.searchsorted(r, np.arange(len(units) + 1)).astype(np.int32)
    info = np.array([np.sort(v[indptr[i]:indptr[i + 1]].astype(np.float32))[-20:].mean() if indptr[i + 1] > indptr[i]
                     else 0.0 for i in range(len(units))], dtype=np.float32)
    topic = vectors["topic"].astype(np.float32)
    P = sparse.csr_matrix((v.astype(np.float32), c, indptr), shape=(len(units), len(chars)))
    expansion = np.asarray(P @ topic)
    expansion /= np.linalg.norm(expansion, axis=1, keepdims=True) + 1e-9
    words = sorted(u for u, n in parse_freq.items() if n >= min_df)
    log(f"貼題 title units: {len(units)} ({sum(len(u) == 2 for u in units)} words), {len(r)} pairs; "
        f"{len(words)} words for read_title")
    return {"units": np.array("\n".join(units)), "indptr": indptr, "body": c.astype(np.uint16), "pmi": v,
            "info": info, "expansion": expansion.astype(np.float16), "parse_words": np.array("\n".join(words))}



def build_word_idf(poems: list[dict], train: list[int], min_df: int = 3) -> list[tuple[str, float]]:
    """IDF of jieba words (two characters or more) over the simplified training poems."""
    from poetry.grading.models import _tokenizer
    from poetry.text import to_simplified

    tok = _tokenizer()
    df = Counter()
    for i in train:
        words = set()
        for line in poems[i]["lines"]:
            words.update(w for w in tok.lcut(to_simplified(line), HMM=False) if len(w) >= 2)
        df.update(words)
    n = len(train)
    rows = [(w, math.log((1 + n) / (1 + c)) + 1) for w, c in df.most_common() if c >= min_df]
    log(f"word IDF: {len(rows)} words")
    return rows


TITLE_PAIRS_C = 10.0  # chosen among 3, 10, 30, 300, 3,000 on the relevance calibrator's dev third


def fit_title_pairs(poems: list[dict], train: list[int]) -> dict[str, np.ndarray]:
    """貼題's learned pair weights: a logistic model over the (title character, body character) pairs of
    the title-body PMI table (grading_vectors.npz) present in a poem, each pair 1 / (the number of the
    title's known characters), fitted on the titled training poems (each under its own title and under a
    seeded random other title). Pairs whose weight rounds to 0 are dropped."""
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression

    from poetry.grading import clean_title
    from poetry.grading.models import _vectors

    vec = _vectors()
    n_body = len(vec.index)
    z = np.load(DATA / "grading_vectors.npz")
    table = z["tb_title"].astype(np.int64) * n_body + z["tb_body"].astype(np.int64)
    column = {int(k): j for j, k in enumerate(table)}
    titled = [poems[i] for i in train if clean_title(poems[i]["title"])]
    rng = random.Random(SEED)
    rows, cols, vals, y = [], [], [], []
    for p in titled:
        other = rng.choice(titled)
        while normalise_title(other["title"]) == normalise_title(p["title"]):
            other = rng.choice(titled)
        body = {vec.index[ch] for line in p["lines"] for ch in line if ch in vec.index}
        for label, title in ((1, p["title"]), (0, other["title"])):
            t_ids = [vec.title_index[ch] for ch in dict.fromkeys(clean_title(title)) if ch in vec.title_index]
            hits = [column[k] for k in (t * n_body + b for t in t_ids for b in body) if k in column]
            rows.extend([len(y)] * len(hits))
            cols.extend(hits)
            vals.extend([1.0 / max(len(t_ids), 1)] * len(hits))
            y.append(label)
    X = sparse.csr_matrix((vals, (rows, cols)), shape=(len(y), len(table)))
    clf = LogisticRegression(C=TITLE_PAIRS_C, solver="liblinear", max_iter=3000, random_state=SEED).fit(X, np.array(y))
    w = clf.coef_[0].astype(np.float16)
    keep = np.abs(w) >= 1e-3
    log(f"貼題 pair weights: {len(titled)} titled poems, {len(table)} pairs, {int(keep.sum())} kept"
        f" (C={TITLE_PAIRS_C})")
    order = np.argsort(table[keep])
    return {"keys": table[keep][order].astype(np.int32), "weight": w[keep][order],
            "intercept": np.array(float(clf.intercept_[0]))}


# --- degraded copies and the combining model ---------------------------------------------------


def load_tones() -> dict[str, str]:
    """char → 平 / 仄 / both from data/pingshui.tsv (common readings only)."""
    tones: dict[str, set[str]] = {}
    for line in (DATA / "pingshui.tsv").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        ch, readings = line.split("\t")[:2]
        for r in readings.split():
            if r.endswith("*"):
                continue
            tones.setdefault(ch, set()).add("平" if r.startswith(("上平", "下平")) else "仄")
    return {ch: (next(iter(t)) if len(t) == 1 else "either") for ch, t in tones.items()}


class Degrader:
    """Make the three kinds of degraded copy used to train and evaluate the grading."""

    def __init__(self, pool: list[dict], char_freq: Counter, seed: int = SEED):
        self.rng = random.Random(seed)
        self.by_shape: dict[tuple[int, int], list[dict]] = {}
        for p in pool:
            self.by_shape.setdefault((len(p["lines"]), len(p["lines"][0])), []).append(p)
        self.by_len: dict[int, list[dict]] = {}
        for p in pool:
            self.by_len.setdefault(len(p["lines"][0]), []).append(p)
        self.pool = pool
        tones = load_tones()
        self.by_tone: dict[str, tuple[list[str], list[float]]] = {}
        for tone in ("平", "仄"):
            chars = [c for c, n in char_freq.most_common(4000) if tones.get(c) == tone]
            self.by_tone[tone] = (chars, [char_freq[c] for c in chars])
        self.tones = tones
        self.rng_interleaved = random.Random(seed + 1)  # its own draws: the other kinds stay as they were
        self.rng_retitled = random.Random(seed + 2)
        self._rhyme: dict[int, str | None] = {}

    def _rhyme_group(self, poem: dict) -> str | None:
        """The 平水韻 group most of the even lines end in (the rhyme class of the poem)."""
        key = id(poem)
        if key not in self._rhyme:
            from poetry.prosody import get_rhyme_book

            book = get_rhyme_book("pingshui")
            c = Counter(g for line in poem["lines"][1::2] for g in book.rhyme_groups_of(line[-1])[:1])
            self._rhyme[key] = c.most_common(1)[0][0] if c else None
        return self._rhyme[key]

    def interleaved(self, poem: dict) -> dict | None:
        """Two poems in turns: the poem's odd lines (1st, 3rd, …) with the even lines of another poem of
        the same shape, of the same rhyme class when there is one (so rhyme and tones still hold).
        None when no poem has the shape."""
        n, k = len(poem["lines"]), len(poem["lines"][0])
        donors = [d for d in self.by_shape.get((n, k), ()) if d is not poem]
        if not donors or n < 4:
            return None
        group = self._rhyme_group(poem)
        rhyming = [d for d in donors if group is not None and self._rhyme_group(d) == group]
        d = self.rng_interleaved.choice(rhyming or donors)
        return {**poem, "lines": [poem["lines"][i] if i % 2 == 0 else d["lines"][i] for i in range(n)]}

    def shuffled(self, poem: dict, rng: random.Random | None = None) -> dict:
        """Each line after the first taken from the same position of another poem of the same shape."""
        rng = rng or self.rng
        n, k = len(poem["lines"]), len(poem["lines"][0])
        donors = [d for d in self.by_shape.get((n, k), ()) if d is not poem]
        if len(donors) < 3:  # a rare shape: any poem whose first line has the same length
            donors = [d for d in self.by_len.get(k, ()) if d is not poem] or [d for d in self.pool if d is not poem]
        lines = [poem["lines"][0]]
        for i in range(1, n):
            d = rng.choice(donors)
            lines.append(d["lines"][i % len(d["lines"])])
        return {**poem, "lines": lines}

    def retitled(self, poem: dict) -> dict:
        """A shuffled copy titled with one of its own words (貼題's rescue calibrator learns that a shared word
        alone does not make a title fit): seven times in ten a two-character title word that one of its lines
        writes, else a telling character (a title character rarer than 山) of its lines. Own generator."""
        from poetry.grading.models import _vectors
        from poetry.grading.title_meaning import _title_words

        rng = self.rng_retitled
        jumble = self.shuffled(poem, rng)
        units = _title_words().index
        words = [x[i:i + 2] for x in jumble["lines"] for i in range(len(x) - 1) if x[i:i + 2] in units]
        vec = _vectors()
        chars = [ch for x in jumble["lines"] for ch in x
                 if ch in vec.title_index and ch in vec.index and vec.idf[vec.index[ch]] > 2.2]
        if words and (rng.random() < 0.7 or not chars):
            title = rng.choice(words)
        else:
            title = rng.choice(chars) if chars else jumble["lines"][0][:2]
        return {**jumble, "title": title}

    def corrupted(self, poem: dict, rate: float = 0.25) -> dict:
        """A quarter of the characters replaced by frequent characters of the same tone."""
        lines = []
        for line in poem["lines"]:
            out = []
            for ch in line:
                tone = self.tones.get(ch)
                if tone in ("平", "仄") and self.rng.random() < rate:
                    chars, weights = self.by_tone[tone]
                    ch = self.rng.choices(chars, weights)[0]
                out.append(ch)
            lines.append("".join(out))
        return {**poem, "lines": lines}

    def off_topic(self, poem: dict) -> dict:
        """The title of another poem."""
        d = self.rng.choice(self.pool)
        while normalise_title(d["title"]) == normalise_title(poem["title"]):
            d = self.rng.choice(self.pool)
        return {**poem, "title": d["title"]}


def as_text(lines: list[str]) -> str:
    """Lines joined as a poem: ，between the lines of a couplet, 。 after it."""
    return "".join(line + ("，" if i % 2 == 0 else "。\n") for i, line in enumerate(lines))


def _fit(pos: list[dict], neg: list[dict], names: list[str], C: float = 1.0, balanced: bool = False) -> dict:
    """A logistic calibrator of ``names``, real (pos) against degraded (neg); ``balanced`` weighs the two
    classes equally whatever their sizes (so a probability of 0.5 keeps its meaning)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    X = np.array([[f[n] for n in names] for f in pos + neg])
    y = np.array([1] * len(pos) + [0] * len(neg))
    mu, sd = X.mean(0), X.std(0) + 1e-9
    weight = np.where(y == 1, 1.0, len(pos) / max(len(neg), 1)) if balanced else None
    clf = LogisticRegression(C=C, max_iter=1000).fit((X - mu) / sd, y, sample_weight=weight)
    auc = roc_auc_score(y, clf.decision_function((X - mu) / sd))
    log(f"  {names}: AUC {auc:.3f}")
    return {"features": names, "mean": mu.tolist(), "scale": sd.tolist(),
            "coef": clf.coef_[0].tolist(), "intercept": float(clf.intercept_[0]), "train_auc": auc}


def _fit_trees(pos: list[dict], neg: list[dict], names: list[str], weight: np.ndarray | None = None) -> dict:
    """Monotone boosted trees over ``names`` (each feature can only raise the score), exported as JSON.

    Chosen on a dev split of the combiner's calibration half (docs/BENCHMARKS.md): depth 3, 200 rounds
    at rate 0.1, 50 poems a leaf; +0.02 AUC against corrupted copies over the logistic combiner, shuffled
    and off-topic unchanged or better. The export is read by poetry.grading.models._trees.
    """
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.metrics import roc_auc_score

    X = np.array([[f[n] for n in names] for f in pos + neg])
    y = np.array([1] * len(pos) + [0] * len(neg))
    clf = HistGradientBoostingClassifier(monotonic_cst=[1] * len(names), max_depth=3, max_iter=200,
                                         learning_rate=0.1, min_samples_leaf=50, random_state=SEED)
    clf.fit(X, y, sample_weight=weight)
    trees = []  # thresholds kept exact: scikit-learn's bin edges can fall on data values
    for (predictor,) in clf._predictors:
        trees.append([[int(n["feature_idx"]) if not n["is_leaf"] else -1, float(n["num_threshold"]),
                       int(n["left"]) if not n["is_leaf"] else -1, int(n["right"]) if not n["is_leaf"] else -1,
                       round(float(n["value"]), 6)] for n in predictor.nodes])
    spec = {"features": names, "baseline": float(np.ravel(clf._baseline_prediction)[0]), "trees": trees}
    from poetry.grading.models import _trees

    mine = np.array([_trees(spec, dict(zip(names, row))) for row in X])
    theirs = clf.predict_proba(X)[:, 1]
    assert np.abs(mine - theirs).max() < 1e-4, "tree export does not reproduce the model"
    auc = roc_auc_score(y, theirs)
    log(f"  combined trees over {names}: {len(trees)} trees, {sum(map(len, trees))} nodes, AUC {auc:.3f}")
    spec["train_auc"] = auc
    return spec


def _auc(spec: dict, pos: list[dict], neg: list[dict]) -> float:
    from sklearn.metrics import roc_auc_score

    from poetry.grading.models import _logistic

    return roc_auc_score([1] * len(pos) + [0] * len(neg), [_logistic(spec, f) for f in pos + neg])


DETECTOR_RATE = 0.2  # share of swapped characters assumed by det_llr (the degradation swaps about 0.2)


def _fit_char_logistic(rows: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> dict:
    from sklearn.linear_model import LogisticRegression

    from poetry.grading import CHAR_FEATURES

    X = np.concatenate([r for r, _, _ in rows] + [c for _, c, _ in rows])
    y = np.concatenate([np.zeros(len(r)) for r, _, _ in rows] + [m.astype(float) for _, _, m in rows])
    mu, sd = X.mean(0), X.std(0) + 1e-9
    clf = LogisticRegression(C=1.0, max_iter=2000).fit((X - mu) / sd, y)
    return {"features": list(CHAR_FEATURES), "mean": mu.tolist(),
            "scale": sd.tolist(), "coef": clf.coef_[0].tolist(), "intercept": float(clf.intercept_[0]),
            "prior": float(y.mean()), "rate": DETECTOR_RATE, "characters": int(len(y))}


def fit_detector(chars: list[tuple[np.ndarray, np.ndarray, np.ndarray]], feats: dict[str, list[dict]]) -> dict:
    """The replaced-character detector: a logistic model over CHAR_FEATURES telling the characters swapped
    into the corrupted copies of the calibration poems from the poets' own (in the real poems and the
    untouched characters of the copies). Its poem-level features (det_llr, det_top) are filled into
    ``feats`` cross-fitted (each half scored by the detector fitted on the other half), so that the
    fluency calibrator does not learn from a detector that has seen the same poems; the returned
    detector is fitted on all of them.
    """
    from sklearn.metrics import roc_auc_score

    from poetry.grading import char_suspicion, detector_features

    halves = [list(range(0, len(chars), 2)), list(range(1, len(chars), 2))]
    for k, half in enumerate(halves):
        spec = _fit_char_logistic([chars[i] for i in halves[1 - k]])
        for i in half:
            feats["real"][i].update(detector_features(spec, chars[i][0]))
            feats["corrupted"][i].update(detector_features(spec, chars[i][1]))
    spec = _fit_char_logistic(chars)
    X = np.concatenate([c for _, c, _ in chars])
    y = np.concatenate([m for _, _, m in chars])
    log(f"char detector: {spec['characters']} characters, swapped AUC within corrupted copies "
        f"{roc_auc_score(y, char_suspicion(spec, X)):.3f} (in-sample); coef "
        + ", ".join(f"{n} {c:+.2f}" for n, c in zip(spec["features"], spec["coef"])))
    pos = [f["det_llr"] for f in feats["real"]]
    neg = [f["det_llr"] for f in feats["corrupted"]]
    log("  det_llr alone (cross-fitted), real against corrupted: AUC "
        f"{roc_auc_score([1] * len(pos) + [0] * len(neg), pos + neg):.4f}")
    return spec


#: The degraded copies the combined score learns to tell from real poems, each kind's weight, and the weight
#: of a real poem (as many as the copies). Interleaved copies weigh a quarter: chosen on the dev third
#: (docs/BENCHMARKS.md, fourth pass), where a full weight cost off-topic 0.02 AUC.
DEGRADATIONS = MappingProxyType({"shuffled": 1.0, "corrupted": 1.0, "off_topic": 1.0, "interleaved": 0.25})
REAL_WEIGHT = sum(DEGRADATIONS.values())


def _combiner_data(rows: dict[str, list[dict]]) -> tuple[list[dict], list[dict], np.ndarray]:
    """(real, degraded, sample weights) for the combined trees."""
    neg = [f for kind in DEGRADATIONS for f in rows[kind]]
    weight = np.array([REAL_WEIGHT] * len(rows["real"]) + [DEGRADATIONS[k] for k in DEGRADATIONS for _ in rows[k]])
    return rows["real"], neg, weight


def _dev_combiner(rows: dict[str, list[dict]]) -> None:
    """Log the combiner's AUCs on a dev third of its poems when fitted on the other two thirds."""
    from sklearn.metrics import roc_auc_score

    from poetry.grading import COMBINED_CRITERIA
    from poetry.grading.models import _trees

    third = 2 * len(rows["real"]) // 3
    fit = {k: [f for f in v if f["_poem"] < third] for k, v in rows.items()}
    dev = {k: [f for f in v if f["_poem"] >= third] for k, v in rows.items()}
    real_fit, neg_fit, weight = _combiner_data(fit)
    spec = _fit_trees(real_fit, neg_fit, list(COMBINED_CRITERIA), weight)
    real = [_trees(spec, f) for f in dev["real"]]
    cells = []
    for kind in DEGRADATIONS:
        neg = [_trees(spec, f) for f in dev[kind]]
        cells.append(f"{kind} {roc_auc_score([1] * len(real) + [0] * len(neg), real + neg):.4f}")
    log("  combiner on the dev third: AUC " + ", ".join(cells))
    if os.environ.get("GRADING_DUMP"):  # for experiments with the combiner (not used by the build)
        with open(os.environ["GRADING_DUMP"], "wb") as fh:
            pickle.dump(rows, fh)


def build_model(poems: list[dict], calib: list[int], train: list[int], song: list[dict] = ()) -> dict:
    """Fit the criteria calibrators on one half of the calibration split, the combiner on the other; the detector
    and 一氣呵成 also on ``song`` (``song_calibration``) and their corrupted copies."""
    from poetry import grading

    grading.reload_models()
    pool = [poems[i] for i in calib]
    half_a, half_b = pool[: len(pool) // 2], pool[len(pool) // 2 :]
    freq = Counter(ch for i in train[:20000] for line in poems[i]["lines"] for ch in line)
    deg = Degrader(pool, freq)
    feats, interleaved, chars = _calibration_features(half_a, deg)
    flu, song_chars = _song_fluency_features(list(song), freq)
    # the fluency calibrator's poems: the Tang ones (the same dicts: det_llr is filled into both) and the Song ones
    flu = {k: feats[k] + flu[k] for k in ("real", "corrupted")}
    detector = fit_detector(chars + song_chars, flu)
    if os.environ.get("GRADING_DUMP"):  # for experiments with the calibrators (not used by the build)
        with open(os.environ["GRADING_DUMP"] + ".calibration", "wb") as fh:
            pickle.dump({"feats": feats, "poems": half_a}, fh)
    lu_pos, lu_neg, cp_pos, cp_neg = _couplet_pairs(half_a)

    model = {"criteria": {}, "generated": dt.date.today().isoformat(), "char_detector": detector}
    C = grading.CRITERION_FEATURES
    _dev_fluency(flu, len(feats["real"]))
    model["criteria"]["fluency"] = _fit(flu["real"], flu["corrupted"], C["fluency"])
    # 貫理 tells a poem from lines shuffled across poems and from two poems taken in turns, the two
    # classes weighed equally; poems of fewer than six lines (絕句) have a calibrator of their own,
    # since two couplets say little about interleaving and much less about drift
    short = [len(p["lines"]) < grading.SHORT_POEM for p in half_a]
    half = 2 * len(feats["real"]) // 3
    for name, keep in (("coherence", lambda i: True), ("coherence_short", lambda i: short[i])):
        real = [f for i, f in enumerate(feats["real"]) if keep(i)]
        shuffled = [f for i, f in enumerate(feats["shuffled"]) if keep(i)]
        mixed = [f for f in interleaved if keep(f["_poem"])]
        is_fit = [i < half for i, _ in enumerate(feats["real"]) if keep(i)]
        cut = sum(1 for f in mixed if f["_poem"] < half)
        dev = _fit([f for f, t in zip(real, is_fit) if t], [f for f, t in zip(shuffled, is_fit) if t] + mixed[:cut],
                   C["coherence"], balanced=True)
        dev_real = [f for f, t in zip(real, is_fit) if not t]
        log(f"  {name} calibrator, dev third of its poems: AUC shuffled "
            f"{_auc(dev, dev_real, [f for f, t in zip(shuffled, is_fit) if not t]):.4f}, interleaved "
            f"{_auc(dev, dev_real, mixed[cut:]):.4f}")
        model["criteria"][name] = _fit(real, shuffled + mixed, C["coherence"], balanced=True)
    model["criteria"]["ends"] = _fit(feats["real"], feats["shuffled"], C["ends"])
    titled = [f for f in feats["real"] if f["has_title"]]
    off = [f for f in feats["off_topic"] if f["has_title"]]
    with_title = {k: [[f for f in feats[k][:half] if f["has_title"]], [f for f in feats[k][half:] if f["has_title"]]]
                  for k in ("real", "off_topic")}
    dev = _fit(with_title["real"][0], with_title["off_topic"][0], C["relevance"])
    log("  relevance calibrator, dev third of its poems: AUC "
        f"{_auc(dev, with_title['real'][1], with_title['off_topic'][1]):.4f}")
    model["criteria"]["relevance"] = _fit(titled, off, C["relevance"])
    _fit_rescue(model, feats, half)
    # 對仗: the middle couplets against random pairs and against the same poems' 首聯 and 尾聯 (mostly
    # not parallel), each kind weighing half; 對仗不工 is said below the 10% quantile of the middle couplets
    model["criteria"]["parallel"] = _fit(lu_pos, lu_neg, grading.COUPLET_FEATURES, balanced=True)
    middle = [grading.models._logistic(model["criteria"]["parallel"], f) for f in lu_pos]
    model["criteria"]["parallel"]["loose_below"] = float(np.quantile(middle, 0.1))
    log(f"  parallel: 對仗不工 below {model['criteria']['parallel']['loose_below']:.3f}")
    model["criteria"]["couplet"] = _fit(cp_pos, cp_neg, ["topic_cos", "pair_cos", "tone_opposed"])
    stock = np.array([f["stock_share"] for f in feats["real"]])
    model["stock_share_quantiles"] = np.quantile(stock, [0.1, 0.5, 0.9]).tolist()
    model["combined"] = {"features": list(grading.COMBINED_CRITERIA), "mean": [0.0] * len(grading.COMBINED_CRITERIA),
                         "scale": [1.0] * len(grading.COMBINED_CRITERIA),
                         "coef": [1.0] * len(grading.COMBINED_CRITERIA), "intercept": 0.0}
    (DATA / "grading_model.json").write_text(json.dumps(model, ensure_ascii=False), encoding="utf-8")
    grading.reload_models()

    # the combiner: log-scores of the criteria, on the other half (never seen by the calibrators)
    comb, measured = _combiner_criteria(half_b, deg)
    neutral = {}
    for name in grading.COMBINED_CRITERIA:
        vals = [c[name]["score"] for c in measured if c[name]["score"] is not None]
        neutral[name] = math.log(max(float(np.median(vals)), 1e-3)) if vals else math.log(0.5)
    rows = {k: [dict(grading.combined_features(c, neutral, info), _poem=i) for c, info, i, _ in v]
            for k, v in comb.items()}
    if os.environ.get("GRADING_DUMP"):  # the criteria themselves and the titles, for scripts/eval_combiner.py
        with open(os.environ["GRADING_DUMP"] + ".criteria", "wb") as fh:
            pickle.dump({k: [({n: c[n]["score"] for n in c}, info, i, title) for c, info, i, title in v]
                         for k, v in comb.items()}, fh)
    _dev_combiner(rows)
    real, negatives, weight = _combiner_data(rows)
    model["combined"] = _fit_trees(real, negatives, list(grading.COMBINED_CRITERIA), weight)
    model["combined"]["neutral"] = neutral
    # each criterion's spread over real poems, for the explanations' bands
    model["real_quantiles"] = {
        name: np.quantile([c[name]["score"] for c in measured if c[name]["score"] is not None],
                          [0.05, 0.1, 0.25, 0.5]).tolist()
        for name in grading.CRITERIA
    }
    return model


def _song_fluency_features(song: list[dict], freq: Counter) -> tuple[dict[str, list[dict]], list]:
    """Features of the Song calibration poems and of their corrupted copies (their own Degrader, so the Tang
    copies are drawn as before), and their character rows for the detector."""
    from poetry import grading

    feats: dict[str, list[dict]] = {"real": [], "corrupted": []}
    chars = []
    deg = Degrader(song, freq) if song else None
    for p in song:
        bad = deg.corrupted(p)
        feats["real"].append(grading.features(p["lines"], p["title"]))
        feats["corrupted"].append(grading.features(bad["lines"], p["title"]))
        swapped = np.array([x != y for a, b in zip(p["lines"], bad["lines"]) for x, y in zip(a, b)])
        chars.append((grading.char_features(p["lines"]), grading.char_features(bad["lines"]), swapped))
    return feats, chars


def _dev_fluency(flu: dict[str, list[dict]], n_tang: int) -> None:
    """Log 一氣呵成's calibrator fitted on two thirds of the Tang and of the Song poems, on each one's last third."""
    from poetry import grading

    parts = {"Tang": slice(0, n_tang), "Song": slice(n_tang, None)}
    split = {}
    for name, part in parts.items():
        real, bad = flu["real"][part], flu["corrupted"][part]
        third = 2 * len(real) // 3
        split[name] = (real[:third], bad[:third], real[third:], bad[third:])
    dev = _fit([f for s in split.values() for f in s[0]], [f for s in split.values() for f in s[1]],
               grading.CRITERION_FEATURES["fluency"])
    for name, (_, _, real, bad) in split.items():
        if real:
            log(f"  fluency calibrator, dev third of its {name} poems: AUC {_auc(dev, real, bad):.4f}")


def _fit_rescue(model: dict, feats: dict[str, list[dict]], half: int) -> None:
    """貼題's rescue calibrator: real poems whose body writes a title character against shuffled copies
    titled with one of their own words (``Degrader.retitled``), classes weighed equally; logs 貼題 (the
    relevance calibrator's probability times the rescue factor, criteria.relevance) on the dev third."""
    from sklearn.metrics import roc_auc_score

    from poetry import grading
    from poetry.grading.criteria import rescue_factor
    from poetry.grading.models import _logistic

    names = grading.CRITERION_FEATURES["relevance_rescue"]

    def shared(kind: str, part: slice) -> list[dict]:
        return [f for f in feats[kind][part] if f["has_title"] and f["rel_shared"] > 0]

    fit, dev = slice(0, half), slice(half, None)
    spec = _fit(shared("real", fit), shared("retitled", fit), names, balanced=True)
    log(f"  relevance rescue calibrator, dev third: AUC {_auc(spec, shared('real', dev), shared('retitled', dev)):.4f}")
    relevance = _fit([f for f in feats["real"][fit] if f["has_title"]],
                     [f for f in feats["off_topic"][fit] if f["has_title"]], grading.CRITERION_FEATURES["relevance"])

    def score(f: dict) -> float:
        p = _logistic(relevance, f)
        if f["rel_shared"] <= 0:
            return p
        return p * rescue_factor(f["rel_shared"], _logistic(spec, f))

    real = [score(f) for f in feats["real"][dev] if f["has_title"]]
    for kind in ("off_topic", "retitled"):
        neg = [score(f) for f in feats[kind][dev] if f["has_title"]]
        log(f"  貼題 (with the rescue factor) on the dev third: AUC real against {kind} "
            f"{roc_auc_score([1] * len(real) + [0] * len(neg), real + neg):.4f}")
    model["criteria"]["relevance_rescue"] = _fit(shared("real", slice(None)), shared("retitled", slice(None)), names,
                                                 balanced=True)


def _calibration_features(half_a: list[dict], deg: Degrader):
    """Criteria features of each calibration poem and of its degraded copies, and its character rows."""
    from poetry import grading

    feats: dict[str, list[dict]] = {"real": [], "shuffled": [], "corrupted": [], "off_topic": [], "retitled": []}
    interleaved: list[dict] = []  # not every poem has one (a rare shape): kept apart from the aligned lists
    chars: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # per poem: real rows, corrupted rows, swapped
    t0 = time.time()
    for n, p in enumerate(half_a):
        feats["real"].append(grading.features(p["lines"], p["title"]))
        feats["shuffled"].append(grading.features(deg.shuffled(p)["lines"], p["title"]))
        bad = deg.corrupted(p)
        feats["corrupted"].append(grading.features(bad["lines"], p["title"]))
        feats["off_topic"].append(grading.features(p["lines"], deg.off_topic(p)["title"]))
        jumble = deg.retitled(p)
        feats["retitled"].append(grading.features(jumble["lines"], jumble["title"]))
        mixed = deg.interleaved(p)
        if mixed is not None:
            interleaved.append(dict(grading.features(mixed["lines"], p["title"]), _poem=n))
        swapped = np.array([x != y for a, b in zip(p["lines"], bad["lines"]) for x, y in zip(a, b)])
        chars.append((grading.char_features(p["lines"]), grading.char_features(bad["lines"]), swapped))
        if n % 1000 == 999:
            log(f"features {n + 1}/{len(half_a)} ({(time.time() - t0) / (n + 1) / 4 * 1000:.1f} ms/poem)")
    return feats, interleaved, chars


def _couplet_pairs(half_a: list[dict]):
    """Real couplets against made-up ones: 律詩's 頷聯/頸聯 (對仗), then any poem's (聯句)."""
    from poetry import grading

    # parallel couplets: real 頷聯/頸聯 of calibration 律詩 against random line pairs and the 首聯/尾聯
    rng = random.Random(SEED)
    lu_pos, lu_neg, lu_outer = [], [], []
    lus = [p for p in half_a if grading.is_lushi(p["lines"])]
    for p in lus:
        for a, b in ((2, 3), (4, 5)):
            lu_pos.append(grading.couplet_features(p["lines"][a], p["lines"][b]))
            q = rng.choice(lus)
            while len(q["lines"][0]) != len(p["lines"][0]) or q is p:
                q = rng.choice(lus)
            lu_neg.append(grading.couplet_features(p["lines"][a], q["lines"][b]))
        lu_outer.extend(grading.couplet_features(p["lines"][a], p["lines"][a + 1]) for a in (0, 6))
    # any poem's couplets: the two lines of a real couplet against a line and a stranger's line
    cp_pos, cp_neg = [], []
    by_len: dict[int, list[dict]] = {}
    for p in half_a:
        by_len.setdefault(len(p["lines"][0]), []).append(p)
    for p in half_a:
        lines = p["lines"]
        k = 2 * rng.randrange(len(lines) // 2)
        others = by_len[len(lines[0])]
        if len(others) < 2:
            continue
        q = rng.choice(others)
        while q is p:
            q = rng.choice(others)
        cp_pos.append(grading.couplet_features(lines[k], lines[k + 1]))
        cp_neg.append(grading.couplet_features(lines[k], q["lines"][min(k % len(q["lines"]) | 1, len(q["lines"]) - 1)]))
    return lu_pos, lu_neg + lu_outer, cp_pos, cp_neg


def _combiner_criteria(half_b: list[dict], deg: Degrader):
    """Criteria of each poem of the combiner's half and of its degraded copies (with the title's information)."""
    from poetry import grading

    comb: dict[str, list[dict]] = {"real": [], "shuffled": [], "corrupted": [], "off_topic": [], "interleaved": []}
    measured = []
    t0 = time.time()
    for n, p in enumerate(half_b):
        copies = {"real": p, "shuffled": deg.shuffled(p), "corrupted": deg.corrupted(p), "off_topic": deg.off_topic(p)}
        mixed = deg.interleaved(p)
        if mixed is not None:
            copies["interleaved"] = mixed
        try:
            rows = {k: grading.measure_poem(as_text(q["lines"]), title=q["title"])[2] for k, q in copies.items()}
        except PoetryError:
            continue
        measured.append(rows["real"])
        index = len(comb["real"])  # the poem's place, so that the dev split keeps a poem's copies together
        for k, crit in rows.items():
            comb[k].append((crit, grading.title_information(copies[k]["title"]), index, copies[k]["title"]))
        if n % 1000 == 999:
            log(f"criteria {n + 1}/{len(half_b)} ({(time.time() - t0) / (n + 1) / 4 * 1000:.1f} ms/poem)")
    return comb, measured


def build_titles(poems: list[dict], titled: list[int], tang: list[int]) -> None:
    """Rebuild 貼題's title tables alone from ``titled`` (read_title's words from ``tang``): the title-body PMI of
    grading_vectors.npz (its other arrays kept byte for byte), grading_title_words.npz (the topic vectors as
    shipped), grading_title_pairs.npz; the LMs, vectors, IDF and grading_model.json stay as they are."""
    from poetry import grading

    with np.load(DATA / "grading_vectors.npz") as z:
        vectors = {k: z[k] for k in z.files}
    index = {ch: i for i, ch in enumerate(str(vectors["chars"]))}
    title_chars, tb_title, tb_body, tb_pmi = build_title_body(poems, titled, index)
    vectors.update(title_chars=np.array(title_chars), tb_title=tb_title, tb_body=tb_body, tb_pmi=tb_pmi)
    np.savez_compressed(DATA / "grading_vectors.npz", **vectors)
    np.savez_compressed(DATA / "grading_title_words.npz", **build_title_words(poems, titled, vectors, parse=tang))
    grading.reload_models()
    np.savez_compressed(DATA / "grading_title_pairs.npz", **fit_title_pairs(poems, titled))
    log("wrote the title tables (grading_vectors.npz's title-body PMI, grading_title_words.npz, "
        "grading_title_pairs.npz)")


def refit_title_calibrators(poems: list[dict], calib: list[int], train: list[int]) -> None:
    """Refit 貼題's two calibrators (relevance, relevance_rescue) and its band over real poems (real_quantiles) in
    grading_model.json on the same calibration poems and copies as build_model (the Degrader's draws replayed in
    the same order), after the title tables changed; every other calibrator, the combiner (and its neutral
    values) and the detector are kept."""
    from poetry import grading

    grading.reload_models()
    model = json.loads((DATA / "grading_model.json").read_text(encoding="utf-8"))
    pool = [poems[i] for i in calib]
    half_a, half_b = pool[: len(pool) // 2], pool[len(pool) // 2 :]
    deg = Degrader(pool, Counter(ch for i in train[:20000] for line in poems[i]["lines"] for ch in line))
    feats: dict[str, list[dict]] = {"real": [], "off_topic": [], "retitled": []}
    for p in half_a:  # the draws of _calibration_features, in its order
        deg.shuffled(p)
        deg.corrupted(p)
        off, jumble = deg.off_topic(p), deg.retitled(p)
        deg.interleaved(p)
        feats["real"].append(grading.features(p["lines"], p["title"]))
        feats["off_topic"].append(grading.features(p["lines"], off["title"]))
        feats["retitled"].append(grading.features(jumble["lines"], jumble["title"]))
    half = 2 * len(feats["real"]) // 3
    C = grading.CRITERION_FEATURES["relevance"]
    fit = [[f for f in feats[k][:half] if f["has_title"]] for k in ("real", "off_topic")]
    dev = [[f for f in feats[k][half:] if f["has_title"]] for k in ("real", "off_topic")]
    log(f"  relevance calibrator, dev third of its poems: AUC {_auc(_fit(*fit, C), *dev):.4f}")
    model["criteria"]["relevance"] = _fit([f for f in feats["real"] if f["has_title"]],
                                          [f for f in feats["off_topic"] if f["has_title"]], C)
    _fit_rescue(model, feats, half)
    (DATA / "grading_model.json").write_text(json.dumps(model, ensure_ascii=False, indent=1), encoding="utf-8")
    grading.reload_models()
    scores = []
    for p in half_b:  # the combiner's half, as build_model's real_quantiles
        try:
            scores.append(grading.measure_poem(as_text(p["lines"]), title=p["title"])[2]["貼題"]["score"])
        except PoetryError:
            continue
    model["real_quantiles"]["貼題"] = np.quantile([s for s in scores if s is not None], [0.05, 0.1, 0.25, 0.5]).tolist()
    (DATA / "grading_model.json").write_text(json.dumps(model, ensure_ascii=False, indent=1), encoding="utf-8")
    log("wrote 貼題's calibrators and band into data/grading_model.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--stage", choices=["all", "forms", "lm", "model", "titles", "known"], default="all",
                        help="titles: 貼題's title tables alone, every other model file kept as it is")
    parser.add_argument("--songci", default=str(tang_corpus.DEFAULT_SONGCI),
                        help="全宋詞 (ci.song.*.json) whose phrases the LMs also learn; 'none': 全唐詩 alone")
    parser.add_argument("--songci-every", type=int, default=SONGCI_EVERY, help="every n-th ci of 全宋詞 only")
    for flag, every, what in (
            ("--song-train", SONG_TRAIN_EVERY, "whose training authors' poems the models also learn (tang_corpus."
             "song_split); 'none' (the shipped models, docs/BENCHMARKS.md songtrain14): 全唐詩 (and the ci) alone"),
            ("--song-titles", SONG_TITLES_EVERY, "whose training authors' titles and bodies 貼題's title tables also "
             "learn (grading_vectors.npz's title-body PMI, grading_title_words.npz, grading_title_pairs.npz); "
             "read_title's words stay 全唐詩's; 'none' (shipped, songtitles14): 全唐詩's alone")):
        parser.add_argument(flag, default="none", help=f"全宋詩 (poet.song.*.json, tang_corpus.DEFAULT_SONG) {what}")
        parser.add_argument(flag + "-every", type=int, default=every, help="every n-th training poem of 全宋詩 only")
    parser.add_argument("--song-calibration", default=str(tang_corpus.DEFAULT_SONG),
                        help="全宋詩 whose training authors' poems 一氣呵成's calibrator and the detector also learn "
                             "(song_calibration); 'none': 全唐詩's calibration poems alone")
    parser.add_argument("--song-calibration-n", type=int, default=SONG_CALIBRATION)
    parser.add_argument("--title-calibrators", action="store_true",
                        help="with --stage titles: refit 貼題's calibrators and band in grading_model.json too")
    args = parser.parse_args(argv)
    logging.getLogger("jieba").setLevel(logging.WARNING)
    corpus = Path(args.corpus)
    if args.stage in ("all", "forms"):
        rows = build_forms(corpus)
        with open(DATA / FORMS_FILE, "w", encoding="utf-8") as fh:
            fh.write("# char <TAB> its canonical form for the grading's models (the form 全唐詩 uses most in its\n"
                     "# variant class); made by scripts/build_grading.py --stage forms on "
                     f"{dt.date.today().isoformat()} from data/variants.tsv, OpenCC (Apache-2.0) and\n"
                     "# chinese-poetry (MIT); a row with two forms: the LM chooses one in context\n")
            fh.writelines(f"{a}\t{b}\n" for a, b in rows)
        log(f"wrote data/{FORMS_FILE}: {len(rows)} chars")
        canonical_table.cache_clear()
        if args.stage == "forms":
            return 0
    poems = load_corpus(corpus)
    anthology = load_anthology(corpus)
    held = heldout_matches(poems, anthology)
    train, calib = split_corpus(poems, held)
    song = song_training(corpus, args.song_train, args.song_train_every)
    train += range(len(poems), len(poems) + len(song))  # Song poems train only: calibration stays 全唐詩
    poems += song
    # 貼題's title tables learn 全唐詩's training titles, and with --song-titles those of 全宋詩's training authors
    # (songtitles14); read_title's words (``parse`` of build_title_words) stay 全唐詩's: with the Song titles' units
    # (次韻, names) six title tests failed (docs/BENCHMARKS.md, songtrain14)
    tang = train[:len(train) - len(song)]
    song_titled = song_training(corpus, args.song_titles, args.song_titles_every)
    titled = tang + list(range(len(poems), len(poems) + len(song_titled)))
    poems += song_titled
    log(f"corpus {len(poems)} poems: held out {len(held)} (唐詩三百首 {len(anthology)}), calibration {len(calib)},"
        f" training {len(train)} ({len(song)} of 全宋詩), title tables {len(titled)} ({len(song_titled)} of 全宋詩)")
    if args.stage == "titles":
        build_titles(poems, titled, tang)
        if args.title_calibrators:
            refit_title_calibrators(poems, calib, train)
        return 0
    if args.stage in ("all", "lm", "known"):
        ci = songci_lines(args.songci, args.songci_every)
        lines = [line for i in train for line in poems[i]["lines"]] + ci
        learned = [poems[i]["lines"] for i in train] + [[x] for x in ci]  # a ci's phrases are no poem's lines
        np.savez_compressed(DATA / lm_module.KNOWN_LINES_FILE, **lm_module.known_lines_filter(learned))
        log(f"wrote data/{lm_module.KNOWN_LINES_FILE}: the lines the LMs learned and their successive pairs")
        if args.stage == "known":
            return 0
        threshold = stock_threshold(lines, [x for p in song for x in p["lines"]])
        np.savez_compressed(DATA / lm_module.LM_FILE, **build_lm(lines, stock_threshold=threshold))
        np.savez_compressed(DATA / lm_module.LM_REVERSED_FILE,
                            **build_lm([x[::-1] for x in lines], stock_threshold=threshold))
        vectors = build_vectors(poems, train, titled=titled)
        np.savez_compressed(DATA / "grading_vectors.npz", **vectors)
        np.savez_compressed(DATA / "grading_title_words.npz", **build_title_words(poems, titled, vectors, parse=tang))
        rows = build_word_idf(poems, train)
        with open(DATA / "grading_words.tsv", "w", encoding="utf-8") as fh:
            split = "training split (全唐詩, 全宋詩's training authors)" if song else "全唐詩 training split"
            fh.write(f"# jieba words (simplified) of the {split} with their IDF; made by scripts/build_grading.py on "
                     f"{dt.date.today().isoformat()}; source chinese-poetry (MIT)\n")
            for w, v in rows:
                fh.write(f"{w}\t{v:.3f}\n")
    if args.stage in ("all", "model"):
        from poetry import grading

        grading.reload_models()
        np.savez_compressed(DATA / "grading_title_pairs.npz", **fit_title_pairs(poems, titled))
        song_calib = song_calibration(corpus, args.song_calibration, args.song_calibration_n,
                                      args.song_train_every if song else 0)
        np.savez_compressed(DATA / grading.models.VERSE_BIGRAMS_FILE,
                            **verse_bigrams(corpus, args.song_calibration, song_calib))
        grading.reload_models()
        model = build_model(poems, calib, train, song_calib)
        model["splits"] = {"heldout": len(held), "calibration": len(calib), "training": len(train),
                           "song_training": len(song), "song_calibration": len(song_calib)}
        (DATA / "grading_model.json").write_text(json.dumps(model, ensure_ascii=False, indent=1), encoding="utf-8")
        log("wrote data/grading_model.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

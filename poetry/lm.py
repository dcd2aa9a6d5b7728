"""A character trigram language model of Tang verse (interpolated Kneser-Ney, pruned).

The model is trained by scripts/build_grading.py on the 全唐詩 lines (唐詩三百首 and a calibration split
held out) and a third of 全宋詞's phrases (the Song ci: Song diction; never 全宋詩's poems), and stored
compactly in data/lm_chars.npz: the vocabulary, the unigram continuation
probabilities, and two sorted tables of bigram / trigram keys with their discounted probabilities and
back-off weights. Lookups are vectorised (numpy.searchsorted), so a whole poem costs a few calls.

Each line is a sentence: two start symbols, the characters, an end symbol. The grading uses it for
一氣呵成 (how natural each line reads) and 語句清新 (how much of it is stock phrase).
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from poetry.data import load_arrays

# the symbols and files, defined once where no numpy is needed (poetry.lm_plain reads the same files);
# LM_REVERSED_FILE is the same model trained on reversed lines (right context)
from poetry.lm_plain import BOS, EOS, LM_FILE, LM_REVERSED_FILE, UNK  # noqa: F401 (re-exported)


@dataclass(frozen=True)
class LineScore:
    """Per-character log10 probabilities of one line and its stock trigrams."""

    line: str
    logprobs: tuple[float, ...]  # one per character, then the end of line
    stock: tuple[tuple[str, int], ...]  # (trigram, corpus count) for trigrams seen >= stock threshold
    unigram: tuple[float, ...] = ()  # log10 P1(w) of the same positions (context-free baseline)

    @property
    def mean(self) -> float:
        return sum(self.logprobs) / len(self.logprobs)


#: How many scored lines each model keeps (a poem's lines are scored by several features: once is enough).
SCORED_LINES = 4096


class CharLM:
    """Interpolated Kneser-Ney character trigram model read from a compact .npz file.

    >>> lm = load_lm()
    >>> lm.score_line("白日依山盡").mean > lm.score_line("盡山依日白").mean
    True
    """

    def __init__(self, arrays: dict[str, np.ndarray]):
        vocab = str(arrays["vocab"])
        self.vocab = vocab
        self.index = {ch: i for i, ch in enumerate(vocab)}
        self.size = len(vocab)
        self.unk = self.index[UNK]
        self.bos = self.index[BOS]
        self.eos = self.index[EOS]
        self.p1 = arrays["p1"].astype(np.float64)  # P_kn(w), continuation unigram
        self.g1 = arrays["g1"].astype(np.float64)  # back-off weight of context v (bigram level)
        self.k2 = arrays["k2"]  # sorted keys v*V+w
        self.d2 = arrays["d2"].astype(np.float64)  # discounted bigram term
        self.g2 = arrays["g2"].astype(np.float64)  # back-off weight of context (v,w) at trigram level
        self.k3 = arrays["k3"]  # sorted keys (u*V+v)*V+w
        self.d3 = arrays["d3"].astype(np.float64)
        self.c3 = arrays["c3"]  # raw trigram counts (for stock phrases)
        self.stock_threshold = int(arrays["stock_threshold"])
        # the grading scores each line several times (features, detector, explanations): keep recent lines
        self._scored: OrderedDict[str, LineScore] = OrderedDict()
        self._lock = threading.Lock()

    def ids(self, text: str) -> np.ndarray:
        get = self.index.get
        return np.array([get(ch, self.unk) for ch in text], dtype=np.int64)

    @staticmethod
    def _lookup(keys: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pos = np.searchsorted(keys, query)
        pos = np.minimum(pos, len(keys) - 1)
        return pos, keys[pos] == query

    def logprobs(self, ids: np.ndarray) -> np.ndarray:
        """log10 P(w | u, v) for each position of a padded id sequence (BOS BOS w1 … wn EOS)."""
        return self._logprobs(ids[:-2], ids[1:-1], ids[2:])

    def _logprobs(self, u: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
        """log10 P(w | u, v) of each (u, v, w), position by position (one line's or many lines' at once)."""
        V = self.size
        p = self.p1[w]
        # bigram level: P2(w|v) = d2(v,w) + g1(v) * P1(w)
        pos2, hit2 = self._lookup(self.k2, v * V + w)
        p = np.where(hit2, self.d2[pos2], 0.0) + self.g1[v] * p
        # trigram level: P3(w|u,v) = d3(u,v,w) + g2(u,v) * P2(w|v); unseen context (u,v): P2
        posc, hitc = self._lookup(self.k2, u * V + v)
        gamma = np.where(hitc, self.g2[posc], 1.0)
        pos3, hit3 = self._lookup(self.k3, (u * V + v) * V + w)
        p = np.where(hit3, self.d3[pos3], 0.0) + gamma * p
        return np.log10(np.maximum(p, 1e-12))

    def score_line(self, line: str) -> LineScore:
        """Score one line (characters only), kept among the recent lines (SCORED_LINES)."""
        done = self._scored.get(line)
        return done if done is not None else self.score_lines([line])[0]

    def score_lines(self, lines: list[str]) -> list[LineScore]:
        """``score_line`` of each line, those not kept scored together: one lookup per table for a whole poem
        instead of one per line (the same numbers: every step is position by position).

        >>> lm = load_lm()
        >>> lm.score_lines(["白日依山盡", "黃河入海流"])[1] == lm._score_line("黃河入海流")
        True
        """
        with self._lock:
            found = {x: self._scored[x] for x in lines if x in self._scored}
        todo = [x for x in dict.fromkeys(lines) if x not in found]
        if todo:
            get, unk, bos, eos = self.index.get, self.unk, self.bos, self.eos
            padded = [[bos, bos, *(get(ch, unk) for ch in x), eos] for x in todo]
            u = np.array([i for p in padded for i in p[:-2]], dtype=np.int64)
            v = np.array([i for p in padded for i in p[1:-1]], dtype=np.int64)
            w = np.array([i for p in padded for i in p[2:]], dtype=np.int64)
            lp, uni = self._logprobs(u, v, w).tolist(), np.log10(self.p1[w]).tolist()
            start = 0
            for x, grams in zip(todo, self._stock_of(todo, padded)):
                end = start + len(x) + 1
                found[x] = LineScore(x, tuple(lp[start:end]), grams, tuple(uni[start:end]))
                start = end
        with self._lock:  # the lines of the poem last scored last; the longest kept go
            for x, score in found.items():
                self._scored[x] = score
                self._scored.move_to_end(x)
            while len(self._scored) > SCORED_LINES:
                self._scored.popitem(last=False)
        return [found[x] for x in lines]

    def _stock_of(self, lines: list[str], padded: list[list[int]]) -> list[tuple[tuple[str, int], ...]]:
        """``stock_trigrams`` of each line (``padded``: its ids between BOS BOS and EOS), in one lookup."""
        V = self.size
        keys = np.array([(p[k] * V + p[k + 1]) * V + p[k + 2] for p in padded for k in range(2, len(p) - 3)],
                        dtype=np.int64)
        if len(keys):
            pos, hit = self._lookup(self.k3, keys)
            counts = np.where(hit, self.c3[pos], 0).tolist()
        else:
            counts = []
        out, start, level = [], 0, self.stock_threshold
        for x in lines:
            n = max(len(x) - 2, 0)
            out.append(tuple((x[i : i + 3], int(c)) for i, c in enumerate(counts[start : start + n]) if c >= level))
            start += n
        return out

    def _score_line(self, line: str) -> LineScore:
        """Score one line alone, uncached (``score_lines`` does the same for many)."""
        ids = np.concatenate(([self.bos, self.bos], self.ids(line), [self.eos]))
        lp = self.logprobs(ids)
        uni = np.log10(self.p1[ids[2:]])
        return LineScore(line, tuple(float(x) for x in lp), self.stock_trigrams(line), tuple(float(x) for x in uni))

    @staticmethod
    def gain(score: LineScore) -> float:
        """Mean log10 P(w|context) − log10 P(w) over the characters: how much the context predicts them."""
        pairs = list(zip(score.logprobs[:-1], score.unigram[:-1]))
        return sum(a - b for a, b in pairs) / max(len(pairs), 1)

    def trigram_count(self, gram: str) -> int:
        """Corpus count of a character trigram (0 when pruned or unseen)."""
        if len(gram) != 3:
            raise ValueError("a trigram has three characters")
        V = self.size
        a, b, c = (int(x) for x in self.ids(gram))
        pos, hit = self._lookup(self.k3, np.array([(a * V + b) * V + c]))
        return int(self.c3[pos[0]]) if hit[0] else 0

    def stock_trigrams(self, line: str) -> tuple[tuple[str, int], ...]:
        """Trigrams of the line seen at least ``stock_threshold`` times in the corpus (stock phrases)."""
        if len(line) < 3:
            return ()
        V = self.size
        ids = self.ids(line)
        keys = (ids[:-2] * V + ids[1:-1]) * V + ids[2:]
        pos, hit = self._lookup(self.k3, keys)
        counts = np.where(hit, self.c3[pos], 0)
        return tuple(
            (line[i : i + 3], int(c)) for i, c in enumerate(counts) if c >= self.stock_threshold
        )


#: The lines the LMs learned and each two lines that follow one another in a poem they learned, as a Bloom filter
#: (scripts/build_grading.py, stage lm or known): a poem whose successive lines are found there is one the LMs may
#: know by heart, so how well they predict it says nothing of how common its diction is.
KNOWN_LINES_FILE = "lm_known_lines.npz"
#: What joins two successive lines in the filter.
_PAIR = "／"


def _line_slots(line: str, k: int, m: int) -> list[int]:
    """The k bit positions of a line in a filter of m bits (double hashing of a 128-bit BLAKE2b digest)."""
    digest = hashlib.blake2b(line.encode("utf-8"), digest_size=16).digest()
    h1, h2 = int.from_bytes(digest[:8], "little"), int.from_bytes(digest[8:], "little") | 1
    return [(h1 + i * h2) % m for i in range(k)]


def known_lines_filter(poems: list[list[str]], bits_per_entry: int = 10, k: int = 7) -> dict[str, np.ndarray]:
    """A Bloom filter of the poems' distinct lines and successive pairs of lines (about 1% false positives at 10
    bits and 7 slots an entry).

    >>> f = known_lines_filter([["白日依山盡", "黃河入海流"]])
    >>> int(f["k"]), int(f["m"]), len(f["bits"])
    (7, 30, 4)
    """
    pairs = {a + _PAIR + b for lines in poems for a, b in zip(lines, lines[1:])}
    return bloom_filter({x for lines in poems for x in lines} | pairs, bits_per_entry, k)


def bloom_filter(entries: Iterable[str], bits_per_entry: int = 10, k: int = 7) -> dict[str, np.ndarray]:
    """A Bloom filter of distinct strings: {"bits", "k", "m"} (about 1% false positives at 10 bits and 7 slots).

    >>> f = bloom_filter(["白日", "日依"])
    >>> bloom_contains((f["bits"], int(f["k"]), int(f["m"])), "白日"), int(f["m"])
    (True, 20)
    """
    entries = sorted(set(entries))
    m = max(8, len(entries) * bits_per_entry)
    bits = np.zeros((m + 7) // 8, dtype=np.uint8)
    for entry in entries:
        for j in _line_slots(entry, k, m):
            bits[j >> 3] |= 1 << (j & 7)
    return {"bits": bits, "k": np.int64(k), "m": np.int64(m)}


def bloom_contains(bloom: tuple[np.ndarray, int, int], entry: str) -> bool:
    """Whether ``entry`` may be in the filter (bits, k, m) of ``bloom_filter``: never a false "no"."""
    bits, k, m = bloom
    return all(bits[j >> 3] >> (j & 7) & 1 for j in _line_slots(entry, k, m))


@cache
def load_bloom(name: str) -> tuple[np.ndarray, int, int]:
    """A filter of ``bloom_filter`` saved in data/ (KNOWN_LINES_FILE, the grading's verse pairs) as (bits, k, m),
    loaded once (``reload`` forgets it)."""
    arrays = load_arrays(name)
    return arrays["bits"], int(arrays["k"]), int(arrays["m"])


def _known(entry: str) -> bool:
    return bloom_contains(load_bloom(KNOWN_LINES_FILE), entry)


def known_poem(lines: list[str]) -> bool:
    """Whether the LMs learned this poem (in canonical forms): most of its successive pairs of lines are in their
    全唐詩. 李白's 望廬山瀑布 is; 唐詩三百首 was held out (靜夜思 is not), and so is a poem of one's own, even one
    that borrows whole Tang lines (集句), since its lines did not follow one another there.

    >>> known_poem(["日照香爐生紫煙", "遙看瀑布挂前川", "飛流直下三千尺", "疑是銀河落九天"])  # canonical forms
    True
    >>> known_poem(["床前明月光", "疑是地上霜", "舉頭望明月", "低頭思故鄉"])
    False
    """
    pairs = [a + _PAIR + b for a, b in zip(lines, lines[1:])]
    return bool(pairs) and 2 * sum(_known(p) for p in pairs) > len(pairs)


def load_lm(directory: str | None = None, reversed: bool = False) -> CharLM:
    """The trained model from data/lm_chars.npz (or the right-to-left one), loaded once.

    ``load_lm()``, ``load_lm(None)`` and ``load_lm(reversed=False)`` are one model with one cache of scored lines
    (a ``functools.cache`` keys them apart, and loaded each model twice).

    >>> load_lm() is load_lm(None, reversed=False)
    True
    """
    return _load_lm(directory, bool(reversed))


@cache
def _load_lm(directory: str | None, reversed: bool) -> CharLM:
    name = LM_REVERSED_FILE if reversed else LM_FILE
    return CharLM(load_arrays(name, directory))


def reload() -> None:
    """Forget the loaded models (poetry.grading.reload_models, after scripts/build_grading.py rewrites data/)."""
    _load_lm.cache_clear()
    context_fit.cache_clear()
    load_bloom.cache_clear()


@lru_cache(maxsize=SCORED_LINES)  # the grading's features and taste both read each line's
def context_fit(line: str, directory: str | None = None) -> tuple[float, ...]:
    """For each character, how well its better side predicts it: max(left, right) log10 P − log10 P(w).

    A character that neither the two before it nor the two after it predict (a value below 0) does
    not belong where it stands.

    >>> fit = context_fit("白日依山盡")
    >>> len(fit)
    5
    """
    fwd, bwd = load_lm(directory), load_lm(directory, reversed=True)
    a = fwd.score_line(line)
    b = bwd.score_line(line[::-1])
    left = [x - u for x, u in zip(a.logprobs[:-1], a.unigram[:-1])]
    right = [x - u for x, u in zip(b.logprobs[:-1], b.unigram[:-1])][::-1]
    return tuple(max(x, y) for x, y in zip(left, right))


def perplexity(lm: CharLM, lines: list[str]) -> float:
    """Per-character perplexity of lines (end-of-line symbols included)."""
    total, n = 0.0, 0
    for line in lines:
        lp = lm.score_line(line).logprobs
        total += sum(lp)
        n += len(lp)
    return math.pow(10, -total / max(n, 1))

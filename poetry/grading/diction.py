"""Diction a 詩伯 calls 意味平平: words of modern Chinese foreign to classical verse, and strings of stock lines.

Two measures of a poem's lines (canonical 繁 forms, as every grading model reads them):
  * modern words (data/grading_diction.tsv, scripts/build_diction.py): words frequent in modern Chinese
    (jieba's dictionary) and rare or absent in 全唐詩 (美麗, 喜愛, 每天, 很, 們), among the words jieba cuts
    the 简体 form of each line into;
  * stock lines: lines the Tang trigram LM predicts better than nine Tang lines in ten (its mean log10 P
    per character at or above the file's ``stock_line_lm``), or that hold a stock trigram (a phrase Tang
    verse repeats at least ``stock_threshold`` times: poetry.lm's detector, as 語句清新 uses it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Mapping

from poetry.data import data_path

DICTION_FILE = "grading_diction.tsv"


@dataclass(frozen=True)
class _Table:
    """The modern words (简体 → modernity) and the stock-line level."""

    words: Mapping[str, float]
    stock_line_lm: float


@cache
def _table() -> _Table:
    """data/grading_diction.tsv, loaded once."""
    words, level = {}, 0.0
    with open(data_path(DICTION_FILE), encoding="utf-8") as fh:
        for row in fh:
            if row.startswith("# stock_line_lm\t"):
                level = float(row.split("\t")[1])
            elif row.strip() and not row.startswith("#"):
                word, value = row.rstrip("\n").split("\t")
                words[word] = float(value)
    return _Table(MappingProxyType(words), level)


@dataclass(frozen=True)
class Diction:
    """What a poem's diction shows: modern words (line index, the word as written in the line) and stock lines."""

    modern: tuple[tuple[int, str], ...]  # (line index, the word in the poem's canonical 繁 form)
    modern_share: float  # share of the poem's characters inside a modern word
    stock: tuple[int, ...]  # indices of the stock lines
    stock_share: float  # share of the lines that are stock
    # of those, the lines no repeated phrase marks, only the LM's ease: 常語, plain rather than borrowed (a
    # celebrated plain line such as 床前明月光 is one; it is not called 套語)
    common: tuple[int, ...] = ()


def modern_words(lines: list[str]) -> list[tuple[int, str]]:
    """The modern words of the lines, left to right, as jieba segments them: (line index, word as in the line).

    >>> modern_words(["登樓望遠山", "風景真美麗"])
    [(1, '美麗')]
    >>> modern_words(["白日依山盡", "黃河入海流"])
    []
    >>> modern_words(["七夕今宵月正明", "手機短信寄深情"])  # jieba's one word 手机短信 is two modern words
    [(1, '手機'), (1, '短信')]
    """
    from poetry.grading.models import cut_lines

    words = _table().words
    found = []
    for k, i, token in cut_lines(lines):  # words as jieba cuts them: 海內/存, not 內存
        # a four-character compound jieba knows whole (手机短信) is its two halves where both are modern words
        parts = [(i, token)] if token in words or len(token) != 4 or not {token[:2], token[2:]} <= words.keys() \
            else [(i, token[:2]), (i + 2, token[2:])]
        found += [(k, lines[k][j : j + len(w)]) for j, w in parts
                  if w in words and not _straddles(len(lines[k]), j, j + len(w))]
    return found


#: Where a line's rhythm pauses (五言 2|3, 七言 2|2|3): a word of verse does not run across a pause.
_PAUSES = {5: (2,), 7: (2, 4)}


def _straddles(length: int, start: int, end: int) -> bool:
    """Whether chars [start, end) of a line of ``length`` run across a pause (林表｜明霽色 holds no 表明).

    >>> _straddles(5, 1, 3), _straddles(5, 3, 5), _straddles(6, 1, 3)
    (True, False, False)
    """
    return any(start < p < end for p in _PAUSES.get(length, ()))


def _line_kinds(lines: list[str]) -> tuple[list[int], list[int]]:
    """(lines holding a stock trigram: 套語; lines only the LM finds commonplace: 常語), by index."""
    from poetry.lm import known_poem, load_lm

    lm, level = load_lm(), _table().stock_line_lm
    # a poem the LMs learned they know by heart: 高適's 尚有綈袍贈 reads easily for being his, not for being common
    by_heart = known_poem(lines)
    stock, common = [], []
    for k, line in enumerate(lines):
        score = lm.score_line(line)
        if score.stock:
            stock.append(k)
        elif len(line) >= 4 and score.mean >= level and not by_heart:
            common.append(k)
    return stock, common


def stock_evidence(lines: list[str]) -> dict[str, float]:
    """A poem's strongest evidence of stock diction, for the quantiles a claim's threshold is chosen from: the
    largest share of a line's characters inside stock trigrams, and the largest mean log10 P per character."""
    from poetry.lm import load_lm

    lm = load_lm()
    cover, mean = 0.0, -99.0
    for line in lines:
        score = lm.score_line(line)
        cover = max(cover, stock_cover(line, score.stock))
        mean = max(mean, score.mean)
    d = diction(lines)
    return {"套語 覆蓋 (max)": cover, "LM mean (max)": mean, "stock_share": d.stock_share, "stale": stale_share(d),
            "modern_share": d.modern_share}


def stock_cover(line: str, stock: tuple[tuple[str, int], ...]) -> float:
    """The share of a line's characters inside its stock trigrams.

    >>> stock_cover("千門萬戶曈曈日", (("千門萬", 22), ("門萬戶", 23)))
    0.5714285714285714
    """
    covered = set()
    for gram, _ in stock:
        i = line.find(gram)
        while i >= 0:
            covered.update(range(i, i + 3))
            i = line.find(gram, i + 1)
    return len(covered) / max(len(line), 1)


def stock_lines(lines: list[str]) -> list[int]:
    """Indices of the lines made of stock: predicted better than nine Tang lines in ten, or holding a stock trigram.

    >>> stock_lines(["白雲深處住", "春江水暖鴨先知"])
    [0]
    """
    stock, common = _line_kinds(lines)
    return sorted(stock + common)


def diction(lines: list[str]) -> Diction:
    """Both measures of a poem's lines."""
    modern = modern_words(lines)
    n_chars = max(sum(len(x) for x in lines), 1)
    stock, common = _line_kinds(lines)
    every = sorted(stock + common)
    return Diction(tuple(modern), sum(len(w) for _, w in modern) / n_chars, tuple(every),
                   len(every) / max(len(lines), 1), tuple(common))


#: How much of 語句清新 a poem keeps when every line is stock (a share of stock lines costs in proportion).
STOCK_WEIGHT = 0.8
#: The part of a stock line's cost a 常語 line (plain, no borrowed phrase) is spared.
COMMON_DISCOUNT = 0.5
#: A share of the characters in modern words at which nothing of 語句清新 is left (one modern word in a
#: 五言絕句, 2 characters of 20, keeps 40%).
MODERN_FULL = 1 / 6


def stale_share(d: Diction) -> float:
    """The share of a poem's lines that are stock, a plain line (常語) counting half a borrowed one: plainness is no
    fault in itself (靜夜思).

    >>> stale_share(Diction((), 0.0, (0, 1), 0.5, common=(1,)))
    0.375
    """
    return d.stock_share * (1.0 - COMMON_DISCOUNT * len(d.common) / max(len(d.stock), 1))


def freshness(d: Diction, fluency: float) -> float:
    """語句清新: the poem's own diction (few stock lines, no modern words) in lines that read well (√一氣呵成).

    >>> round(freshness(Diction((), 0.0, (), 0.0), 1.0), 3), round(freshness(Diction((), 0.0, (0, 1), 1.0), 1.0), 3)
    (1.0, 0.2)
    """
    stale = stale_share(d)
    own = (1.0 - STOCK_WEIGHT * stale) * max(0.0, 1.0 - d.modern_share / MODERN_FULL)
    return own * fluency ** 0.5


def found_text(d: Diction, lines: list[str]) -> str:
    """What the diction shows, quoting the poem: modern words in their line, then the stock lines.

    >>> found_text(Diction(((1, "美麗"),), 0.1, (0,), 0.25), ["白雲深處住", "風景真美麗"])
    '今語「風景真美麗」的「美麗」；套語成句「白雲深處住」'
    """
    parts = []
    if d.modern:
        words = [f"「{lines[k]}」的「{w}」" for k, w in d.modern[:3]]
        parts.append("今語" + "、".join(words) + (f"等 {len(d.modern)} 處" if len(d.modern) > 3 else ""))
    borrowed = [k for k in d.stock if k not in d.common]
    for label, found in (("套語成句", borrowed), ("句近唐詩常語", list(d.common))):
        if found:
            shown = "、".join(f"「{lines[k]}」" for k in found[:3])
            more = f"等 {len(found)} 句" if len(found) > 3 else ""
            parts.append(f"{label}{shown}{more}")
    return "；".join(parts)


#: The stock lines are named (套語成句, 句近唐詩常語) only when the poem's stale share (stock lines, a 常語 line
#: counting half: as ``freshness`` weighs them) is above this, the 98% point over 唐詩三百首 (320 poems; 90% 0.25,
#: 95% 0.375, 98% 0.50, 99% 0.625: scripts/eval_claims.py, "stale"), or every line is stock (意味平平 by the
#: rubric's default 平平_stock). One stock line is what a famous line becomes by being echoed: naming any told two
#: anthology poems in three that a line of theirs was stock (元日's 千門萬戶曈曈日); at 0.5 itself, 春曉.
STALE_CLAIM_ABOVE = 0.5
#: Modern words are named (今語) only when this share of the characters is in them: above the 99% point over
#: 唐詩三百首 (98% 0.011, 99% 0.044: scripts/eval_claims.py, "modern_share"): one such word in a 五絕 (0.1), a 七絕
#: (0.071) or a 五律 (0.05), not 王維's 教授 nor 杜甫's 參與 in a longer poem, where an old sense is likelier.
MODERN_CLAIM_AT = 0.05


def explain_fresh(score: float, lines: list[str], d: Diction) -> str:
    """語句清新 in words: the modern words and the stock lines found, when they are as many as only the rare tail of
    celebrated Tang poems shows (STALE_CLAIM_ABOVE, MODERN_CLAIM_AT); fewer are said to be within that range.

    >>> explain_fresh(1.0, ["竹外桃花三兩枝"], Diction((), 0.0, (), 0.0))
    '不見今語，亦無套語成句，措辭自出。'
    >>> explain_fresh(0.7, ["爆竹聲中一歲除", "千門萬戶曈曈日"], Diction((), 0.0, (0, 1), 0.5, common=(0,)))
    '不見今語；承用前人字句之處，在唐詩名篇常見之限。'
    """
    named = stale_share(d) > STALE_CLAIM_ABOVE or d.stock_share >= 1.0
    shown = Diction(d.modern if d.modern_share >= MODERN_CLAIM_AT else (), d.modern_share,
                    d.stock if named else (), d.stock_share, d.common if named else ())
    found = found_text(shown, lines)
    if found:
        return f"{found}。"
    modern = "" if d.modern else "不見今語，亦"  # a modern word or two: an old sense is likelier, so nothing is said
    if d.stock:
        return f"{modern[:-2] + '；' if modern else ''}承用前人字句之處，在唐詩名篇常見之限。"
    return f"{modern}無套語成句，措辭自出。" if score >= 0.5 else f"{modern}無套語，但字句不甚通順。"


def reload() -> None:
    """Forget the loaded table (after scripts/build_diction.py rewrites it)."""
    _table.cache_clear()

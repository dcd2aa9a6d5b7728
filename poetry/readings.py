"""Readings fixed by words: a 多音字 read by the word it stands in, not by what fits the pattern.

The word decides: 宰相 reads 相 去聲 (the minister), 相思 reads it 平 (mutual); 重陽 reads 重 平, 輕重 仄.
The table (data/word_readings.tsv, built by scripts/build_word_readings.py from pypinyin's phrase
dictionary and a curated list of verse words, verified against Tang verse) is parsed on first use. A
line is cut into words by forward longest match (up to four chars), a few dict lookups per char; a two-char word of
pypinyin's dictionary gives its second char to a curated verse word that begins there (負重陽: 重 is 重陽's)::

    >>> book = get_rhyme_book()
    >>> [r.group if r else None for r in fixed_readings("門前宰相車", book)]
    [None, None, None, '去聲二十三漾', None]
    >>> [r.group if r else None for r in fixed_readings("此物最相思", book)]
    [None, None, None, '下平七陽', None]

A doubled char (疊字) takes one reading for both: when a word fixes one of the pair, the other gets the
same reading. Where no word decides, the position is None and the rhyme book's readings stand.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache, lru_cache
from types import MappingProxyType

from poetry.data import read_tsv
from poetry.prosody import Reading, RhymeBook, Tone, get_rhyme_book


@cache
def word_table(data_dir: str | None = None) -> Mapping[str, tuple[tuple[int, str], ...]]:
    """word → ((index, 平水韻 group), …) from data/word_readings.tsv, read once, read-only.

    >>> word_table()["德行"]  # 行 curated (conduct), 德 from pypinyin's row
    ((0, '入聲十三職'), (1, '去聲二十四敬'))
    """
    table = {}
    for word, positions, *_ in read_tsv("word_readings.tsv", data_dir):
        fixed = []
        for item in positions.split():
            index, group = item.split(":")
            fixed.append((int(index), group))
        table[word] = tuple(fixed)
    return MappingProxyType(table)


@cache
def curated_words(data_dir: str | None = None) -> frozenset[str]:
    """The words of data/word_readings.tsv chosen by hand for verse (source ``curated``: 重陽, 相思), not read
    from pypinyin's phrase dictionary of modern Chinese (負重, 重陽's rival in 負重陽).

    >>> "重陽" in curated_words(), "負重" in curated_words()
    (True, False)
    """
    return frozenset(row[0] for row in read_tsv("word_readings.tsv", data_dir) if len(row) > 3 and row[3] == "curated")


def yields(line: str, start: int, word: str, begins_there: Iterable[str]) -> bool:
    """Whether a two-char word of pypinyin's dictionary gives its second char to a curated verse word that begins
    there in the line, which is read after it and decides that char: 負重陽 reads 重 as 重陽's (to let the Double
    Ninth pass), not as 負重's (a load).

    >>> yields("登高無路負重陽", 4, "負重", ["重陽"]), yields("負重前行", 0, "負重", ["重陽"])
    (True, False)
    """
    if len(word) != 2 or word in curated_words():
        return False
    return any(w in curated_words() and line.startswith(w, start + 1) for w in begins_there)


def word_index(words: Iterable[str]) -> dict[str, dict[str, tuple[str, ...]]]:
    """First char → second char → the words beginning with those two, longest first.

    >>> word_index(["相思", "相思子", "宰相"])["相"]["思"]
    ('相思子', '相思')
    """
    index: dict[str, dict[str, list[str]]] = {}
    for word in words:
        index.setdefault(word[0], {}).setdefault(word[1], []).append(word)
    # plain dicts, private to this module: the hot path pays no proxy
    return {a: {b: tuple(sorted(ws, key=len, reverse=True)) for b, ws in inner.items()} for a, inner in index.items()}


def longest_match(line: str, index: dict[str, dict[str, tuple[str, ...]]]) -> Iterator[tuple[int, str]]:
    """(start, word) of each word of ``index`` (see ``word_index``) in the line, by forward longest
    match: two dict lookups per position and no slicing, as most positions begin no word.

    >>> list(longest_match("宰相思", word_index(["宰相", "相思"])))
    [(0, '宰相')]
    """
    i, last = 0, len(line) - 1
    while i < last:
        inner = index.get(line[i])
        if inner is not None:
            for word in inner.get(line[i + 1], ()):
                if line.startswith(word, i):
                    yield i, word
                    i += len(word) - 1
                    break
        i += 1


def _reading(book: RhymeBook, char: str, group: str) -> Reading:
    """The book's own Reading of ``char`` in ``group`` (its common flag as stored), else a new common one
    (a char written for another, 并 for 並)."""
    for reading in book.lookup(char).readings:
        if reading.group == group:
            return reading
    sisheng = "平" if group[1] == "平" else group[0]
    return Reading(group, Tone.PING if sisheng == "平" else Tone.ZE, sisheng, True)


@cache
def _book_words(book: RhymeBook, data_dir: str | None) -> tuple[Mapping[str, tuple[Reading | None, ...]], dict]:
    """word → a Reading or None per char, in this book; empty for books other than the 平水韻."""
    if book.name != "pingshui":
        return MappingProxyType({}), {}
    words = {}
    for word, fixed in word_table(data_dir).items():
        readings: list[Reading | None] = [None] * len(word)
        for index, group in fixed:
            readings[index] = _reading(book, word[index], group)
        words[word] = tuple(readings)
    return MappingProxyType(words), word_index(words)


def doubled_pairs(line: str) -> tuple[int, ...]:
    """Start of each doubled char (疊字) of the line: the pair must take one reading.

    >>> doubled_pairs("無邊落木蕭蕭下")
    (4,)
    """
    return tuple(i for i in range(len(line) - 1) if line[i] == line[i + 1])


def across_caesura(line: str, start: int, word: str) -> bool:
    """Whether a two-char word would straddle a 五言 line's pause after its 2nd char, or a 七言's
    after its 2nd or 4th (死生｜長別離 holds no 生長): verse words keep inside their feet.

    >>> across_caesura("死生長別離", 1, "生長"), across_caesura("門前宰相車", 2, "宰相")
    (True, False)
    """
    return len(word) == 2 and (start == 1 or start == 3 and len(line) == 7) and len(line) in (5, 7)


def cut_readings(line: str, words: Mapping[str, tuple[Reading | None, ...]], index: dict) -> tuple:
    """The readings the words of ``words`` (indexed by ``word_index``) fix in a line, by forward
    longest match, two-char words kept inside their feet, a 疊字 one reading for both: a Reading or None
    per char, or () where no word decides (most lines)."""
    taken = []
    i, last = 0, len(line) - 1
    while i < last:  # ``longest_match``, inlined: this runs on most lines of a batch
        inner = index.get(line[i])
        if inner is not None:
            for word in inner.get(line[i + 1], ()):
                if line.startswith(word, i):
                    if not across_caesura(line, i, word):
                        taken.append((i, word))
                    after = index.get(line[i + 1], {}).get(line[i + 2], ()) if i + 2 <= last else ()
                    if not (after and yields(line, i, word, after)):  # else the verse word on its 2nd char is next
                        i += len(word) - 1
                    break
        i += 1
    return _apply(line, words, taken) if taken else ()


def _apply(line: str, words: Mapping, taken: list[tuple[int, str]]) -> tuple:
    """The readings of the words taken ((start, word) pairs), a 疊字 one reading for both."""
    out: list = [None] * len(line)
    for start, word in taken:
        for j, reading in enumerate(words[word]):
            if reading is not None:
                out[start + j] = reading
    if _DOUBLED.search(line):  # most lines hold no 疊字: not walked char by char
        for i in range(len(line) - 1):
            # 疊字: one reading for both chars of the pair
            if line[i] == line[i + 1] and (out[i] is None or out[i + 1] is None):
                out[i] = out[i + 1] = out[i] or out[i + 1]
    return tuple(out)


#: A doubled char (疊字), found in C.
_DOUBLED = re.compile(r"(.)\1", re.DOTALL)


def book_words(book: RhymeBook, keep: frozenset[str] | None = None,
               data_dir: str | None = None) -> tuple[Mapping[str, tuple[Reading | None, ...]], dict]:
    """(word → a Reading or None per char, its ``word_index``) in this book, only the words that fix one
    of the chars in ``keep`` when given (the checker's: those whose reading changes a verdict)."""
    words, index = _book_words(book, data_dir)
    if keep is None:
        return words, index
    kept = {w: r for w, r in words.items() if any(x is not None and c in keep for c, x in zip(w, r))}
    return MappingProxyType(kept), word_index(kept)


def near_index(words: Mapping[str, tuple[Reading | None, ...]], keep: frozenset[str]) -> dict[str, tuple]:
    """Two chars → (where they stand in the word, the word) for the words of ``words`` holding a fixed
    char of ``keep``: the fixed char and the one before it (or after it, at a word's start). ``cut_near``
    looks a line's words up from its chars of ``keep`` alone.

    >>> words = {"宰相": (None, "r"), "相思": ("r", None)}
    >>> near_index(words, frozenset("相"))
    {'宰相': ((0, '宰相'),), '相思': ((0, '相思'),)}
    """
    index: dict[str, set[tuple[int, str]]] = {}
    for word, readings in words.items():
        for k, reading in enumerate(readings):
            if reading is not None and word[k] in keep:
                offset = k - 1 if k else 0
                index.setdefault(word[offset : offset + 2], set()).add((offset, word))
    return {pair: tuple(sorted(found)) for pair, found in index.items()}


def cut_near(line: str, words: Mapping[str, tuple[Reading | None, ...]], keep: frozenset[str],
             near: dict[str, tuple]) -> tuple:
    """``cut_readings`` for a line whose words all hold a fixed char of ``keep`` (``near`` from
    ``near_index``): the candidate words are looked up around those chars only, then taken by forward
    longest match, so the result is cut_readings' own.

    >>> words = {"宰相": (None, "仄"), "相思": ("平", None)}
    >>> cut_near("宰相思", words, frozenset("相"), near_index(words, frozenset("相")))
    (None, '仄', None)
    """
    if not any(map(near.__contains__, map(line.__getitem__, _pairs(len(line))))):
        return ()  # no two chars of the line begin a word around a char of ``keep`` (most lines)
    return cut_at(line, words, near, [p for p, char in enumerate(line) if char in keep])


def cut_at(line: str, words: Mapping[str, tuple[Reading | None, ...]], near: dict[str, tuple],
           places: Iterable[int]) -> tuple:
    """``cut_near`` of a line whose chars of ``keep`` stand at ``places`` (in order), without its test
    for a word there: the caller has found one (reading.word_fixes searches the poem once).

    >>> words = {"宰相": (None, "仄"), "相思": ("平", None)}
    >>> cut_at("宰相思", words, near_index(words, frozenset("相")), [1])
    (None, '仄', None)
    """
    found = []
    for p in places:
        for q in (p - 1, p) if p else (p,):
            for offset, word in near.get(line[q : q + 2], ()):
                found.append((q - offset, word))
    return _take(line, words, found) if found else ()


@cache
def _pairs(length: int) -> tuple[slice, ...]:
    """The slices of every two neighbouring chars of a line of ``length`` chars.

    >>> ["白日依山盡"[s] for s in _pairs(5)]
    ['白日', '日依', '依山', '山盡']
    """
    return tuple(slice(q, q + 2) for q in range(length - 1))


def _earliest_longest(candidate: tuple[int, str]) -> tuple[int, int]:
    """The order _take tries candidates in: the earliest start, then the longest word."""
    return candidate[0], -len(candidate[1])


def _take(line: str, words: Mapping, found: list[tuple[int, str]]) -> tuple:
    """Forward longest match over candidate (start, word) pairs: the earliest start, the longest word."""
    taken = []
    cursor = 0
    ordered = sorted(set(found), key=_earliest_longest) if len(found) > 1 else found
    for start, word in ordered:
        if start < cursor or start < 0 or not line.startswith(word, start):
            continue
        # 負重陽: 負重 gives its second char to 重陽, read after it (as cut_readings reads it)
        shared = len(ordered) > 1 and yields(line, start, word, [w for s, w in ordered if s == start + 1])
        cursor = start + (1 if shared else len(word))
        if not across_caesura(line, start, word):
            taken.append((start, word))
    return _apply(line, words, taken) if taken else ()


@lru_cache(maxsize=1 << 16)
def _fixed(line: str, book: RhymeBook, data_dir: str | None) -> tuple[Reading | None, ...]:
    return cut_readings(line, *_book_words(book, data_dir))


def fixed_readings(
    line: str, book: RhymeBook | None = None, data_dir: str | os.PathLike | None = None
) -> tuple[Reading | None, ...]:
    """For each char of a (traditional) line, the reading a word fixes, or None where no word decides.

    >>> [r.group if r else None for r in fixed_readings("重陽獨酌杯中酒")][:2]
    ['上平二冬', None]
    >>> [r.tone.value if r else None for r in fixed_readings("德行")]
    ['仄', '仄']
    >>> [r.group if r else None for r in fixed_readings("纍纍")]
    ['上平四支', '上平四支']
    """
    book = book if book is not None else get_rhyme_book()
    return _fixed(line, book, os.fspath(data_dir) if data_dir is not None else None) or (None,) * len(line)

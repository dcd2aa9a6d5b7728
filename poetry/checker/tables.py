"""Per-character tone codes, one table per rhyme book, so the rules work on small integers.

A character's ``code`` is a bitmask of its readings: a common 平 (1), a common 仄 (2), a rare 平 (4), a
rare 仄 (8), or not in the book at all (16: unknown or guessed from Mandarin, fits anything, marked ？).
A line becomes four bitmasks (may be 平, may be 仄, commonly 平, commonly 仄), one bit per position:

    >>> table = table_for(resolve_book("pingshui"))
    >>> table.entry("東").code == COMMON_PING, table.entry("看").code == COMMON_PING | COMMON_ZE
    (True, True)
    >>> [table.entry(c).code for c in "白日依山盡"]  # looked up first: masks asks the entries
    [2, 2, 1, 1, 2]
    >>> table.masks("白日依山盡")
    Masks(may_ping=12, may_ze=19, common_ping=12, common_ze=19)
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from poetry.forms import PING
from poetry.text import siblings_table, simplified_siblings

COMMON_PING, COMMON_ZE, RARE_PING, RARE_ZE, UNKNOWN = 1, 2, 4, 8, 16
#: A char that may be read 平 (by any reading, or unknown), or 仄.
ANY_PING = COMMON_PING | RARE_PING | UNKNOWN
ANY_ZE = COMMON_ZE | RARE_ZE | UNKNOWN
#: The common readings of a char (the low two bits), and the rare ones.
COMMON = COMMON_PING | COMMON_ZE
RARE = RARE_PING | RARE_ZE


class Entry:
    """What the checker needs of one character, computed once per book."""

    __slots__ = ("code", "tone", "groups", "ping", "common_ping", "lookup")

    def __init__(self, code: int, tone: str, groups: tuple, ping: frozenset, common_ping: frozenset, lookup: str):
        self.code = code  #: tone code (the bits above)
        self.tone = tone  #: "平" "仄" "可平可仄" "?", as the book says
        self.groups = groups  #: all groups, common first
        self.ping = ping  #: 平聲 groups of any reading
        self.common_ping = common_ping  #: 平聲 groups of common readings
        self.lookup = lookup  #: the char looked up


class Masks(NamedTuple):
    """Bitmasks of a line, bit j for char j: unknown chars may be both and count as common both ways."""

    may_ping: int
    may_ze: int
    common_ping: int
    common_ze: int


def line_masks(row: list[Entry]) -> Masks:
    """The Masks of a line from its chars' entries.

    >>> book = table_for(resolve_book("pingshui"))
    >>> line_masks([book.entry(c) for c in "不盡長江"]) == book.masks("不盡長江")
    True
    """
    return _masks([e.code for e in row])


def code_masks(codes: str) -> Masks:
    """The Masks of a line given as its chars' tone codes (``BookTable.code_chars``: chr(0x30 + code)),
    as ``line_masks`` makes them from the chars' entries.

    >>> table = table_for(resolve_book("pingshui"))
    >>> code_masks("白日依山盡".translate(table.code_chars)) == table.masks("白日依山盡")
    True
    """
    return _masks([ord(char) - 0x30 for char in codes])


def _masks(codes: list[int]) -> Masks:
    """The Masks of a line from its chars' tone codes (unknown chars may be both, and count as common both ways)."""
    may_ping = may_ze = common_ping = common_ze = 0
    bit = 1
    for code in codes:
        if code & ANY_PING:
            may_ping |= bit
            if code & (COMMON_PING | UNKNOWN):
                common_ping |= bit
        if code & ANY_ZE:
            may_ze |= bit
            if code & (COMMON_ZE | UNKNOWN):
                common_ze |= bit
        bit <<= 1
    return Masks(may_ping, may_ze, common_ping, common_ze)


def _entry_of(info) -> Entry:
    """The Entry of a book's CharInfo."""
    tone = info.tone.value
    if info.guessed or not info.readings:
        return Entry(UNKNOWN, tone, (), frozenset(), frozenset(), info.char)
    code = 0
    ping: set[str] = set()
    common_ping: set[str] = set()
    for r in info.readings:
        is_ping = r.tone.value == PING
        if r.common:
            code |= COMMON_PING if is_ping else COMMON_ZE
        else:
            code |= RARE_PING if is_ping else RARE_ZE
        if is_ping:
            ping.add(r.group)
            if r.common:
                common_ping.add(r.group)
    groups = tuple(dict.fromkeys(r.group for r in info.readings))
    return Entry(code, tone, groups, frozenset(ping), frozenset(common_ping), info.char)


class BookTable:
    """Char → Entry for one rhyme book, each built on first use; one table per book (``table_for``)."""

    def __init__(self, book) -> None:
        self.book = book
        self.entries: dict[str, Entry] = {}
        #: ord(char) → one char standing for its tone code (str.translate), so lines of one shape share masks
        self.code_chars: dict[int, str] = {}
        #: the same for the chars of the Basic Multilingual Plane, indexed by ord(char): 0xFF (not ASCII) for a char
        #: not looked up yet; str.translate indexes it without hashing (a dict hashes and compares each key)
        self.code_bytes = bytearray(b"\xff") * 0x10000
        #: a line's tone-code string → its Masks
        self.mask_memo: dict[str, Masks] = {}
        #: chars not in the book (their entries carry UNKNOWN)
        self.unknown: set[str] = set()
        self._tone_chars: dict[str, tuple[str, ...]] = {}
        #: the 多音字 a word may fix (reading.word_chars), computed on first use
        self.word_chars: frozenset[str] | None = None
        #: the words fixing those chars: (word → readings, readings.near_index)
        self.words: tuple = ({}, {})
        #: chars a word fixes to their common tone while a rare reading has the other, and their words
        self.rare_chars: frozenset[str] = frozenset()
        self.rare_words: tuple = ({}, {})
        #: (char, group) → the Entry of a char read in that group alone (a reading fixed by its word)
        self.fixed: dict[tuple[str, str], Entry] = {}
        #: traditional chars whose 简体 forms read otherwise (幹: 乾 干), computed on first use (``typed_chars``)
        self._typed_chars: frozenset[str] | None = None
        #: those chars' Entries as typed (``as_typed``)
        self.typed: dict[str, Entry] = {}

    def entry(self, char: str) -> Entry:
        """The Entry of one char (looked up in the book the first time)."""
        e = self.entries.get(char)
        if e is None:
            e = self.entries[char] = _entry_of(self.book.lookup(char))
            self.code_chars[ord(char)] = chr(0x30 + e.code)
            if ord(char) < 0x10000:
                self.code_bytes[ord(char)] = 0x30 + e.code
            if e.code & UNKNOWN:
                self.unknown.add(char)
        return e

    def masks(self, line: str) -> Masks:
        """The Masks of a line whose chars are already looked up, memoised by their tone codes."""
        key = line.translate(self.code_chars)
        m = self.mask_memo.get(key)
        if m is None:
            m = self.mask_memo[key] = line_masks([self.entries[c] for c in line])
        return m

    def masks_of_codes(self, codes: str, width: int) -> list[Masks]:
        """``masks`` of every line of a poem (one call per poem: the batch path's hottest lookup), the lines of
        ``width`` chars given joined as their tone codes (``code_chars``, every char looked up): each line's slice
        is its memo key, so the lines are not translated one by one.

        >>> table = table_for(resolve_book("pingshui"))
        >>> lines = ["白日依山盡", "黃河入海流"]
        >>> _ = [table.entry(c) for c in "".join(lines)]
        >>> codes = "".join(lines).translate(table.code_chars)
        >>> table.masks_of_codes(codes, 5) == [table.masks(line) for line in lines]
        True
        """
        memo = self.mask_memo
        out = []
        for start in range(0, len(codes), width):
            key = codes[start : start + width]
            m = memo.get(key)
            if m is None:
                m = memo[key] = code_masks(key)
            out.append(m)
        return out

    def merged(self, chars: tuple[str, ...], usual: bool = False) -> Entry:
        """A simplified char standing for several traditional ones: the chosen form's readings count,
        the others' are accepted as rare (自校); ``usual``: only the others' common readings (a 繁 char's
        siblings, ``as_typed``: 閑 is not read as 閒's rare 去聲 jiàn)."""
        first = self.entry(chars[0])
        code = first.code
        ping = set(first.ping)
        groups = list(first.groups)
        for other in chars[1:]:
            e = self.entry(other)
            if e.code & UNKNOWN:
                continue
            code |= ((e.code & COMMON) << 2) | (0 if usual else e.code & RARE)
            ping |= e.common_ping if usual else e.ping
            kept = e.groups if not usual else [g for g in e.groups if g in e.common_ping or g not in e.ping]
            groups += [g for g in kept if g not in groups]
        if code == first.code:
            return first
        if code & UNKNOWN and code & (COMMON | RARE):
            code &= ~UNKNOWN
        return Entry(code, first.tone, tuple(groups), frozenset(ping), first.common_ping, first.lookup)

    def as_typed(self, char: str) -> Entry:
        """The Entry of a traditional char read as its 简体 is: its own readings count, those of the other forms
        the 简体 writes alike are accepted as rare (自校), so that a 繁 text and its 简体 get one verdict (淚始幹,
        OpenCC's 繁 of 泪始干, rhymes 寒 as 乾 may: ◇).

        >>> table = table_for(resolve_book("pingshui"))
        >>> table.entry("幹").ping, sorted(table.as_typed("幹").ping)
        (frozenset(), ['上平十四寒', '下平一先'])
        """
        if char not in self.typed_chars():
            return self.entry(char)
        e = self.typed.get(char)
        if e is None:
            e = self.typed[char] = self.merged((char,) + simplified_siblings(char), usual=True)
        return e

    def typed_chars(self) -> frozenset[str]:
        """The traditional chars whose 简体 stands for forms read in another tone or 平 group by their usual
        readings (幹 乾 徵 征 憑 …; 13 in the 平水韻); the others' siblings (後 后, 雲 云) change nothing the rules
        ask."""
        if self._typed_chars is None:
            def reads_otherwise(char: str, merged: Entry) -> bool:  # another tone, or another 平 group (a foot's)
                e = self.entry(char)
                return bool(_tones(merged.code) - _tones(e.code)) or merged.ping != e.ping

            self._typed_chars = frozenset(c for c, others in siblings_table().items()
                                          if reads_otherwise(c, self.merged((c,) + others, usual=True)))
        return self._typed_chars

    def chars_of_tone(self, tone: str) -> tuple[str, ...]:
        """Common chars of one tone, most used first (for suggestions): the tops of every group."""
        chars = self._tone_chars.get(tone)
        if chars is None:
            book = self.book
            columns = [book.chars_in_group(g)[:40] for g in book.groups]
            seen: dict[str, None] = {}
            want = COMMON_PING if tone == PING else COMMON_ZE
            for depth in range(40):
                for col in columns:
                    if depth < len(col) and self.entry(col[depth]).code & COMMON == want:
                        seen.setdefault(col[depth], None)  # only chars of that tone alone
            chars = self._tone_chars[tone] = tuple(seen)
        return chars


def _tones(code: int) -> set[str]:
    """The tones a tone code allows, by any reading."""
    return {t for t, bits in ((PING, COMMON_PING | RARE_PING), ("仄", COMMON_ZE | RARE_ZE)) if code & bits}


@cache
def table_for(book) -> BookTable:
    """The one BookTable of a rhyme book."""
    return BookTable(book)


def resolve_book(rhyme_book: Any):
    """A RhymeBook from a name ("pingshui", "xinyun", "tongyun"; None is pingshui) or a book itself."""
    if isinstance(rhyme_book, str) or rhyme_book is None:
        from poetry.prosody import get_rhyme_book

        return get_rhyme_book(rhyme_book or "pingshui")
    return rhyme_book

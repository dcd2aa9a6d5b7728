"""From what was typed to lines and tone codes: parse_poem's reading, or a quick one for batch text.

    >>> quick_lines("白日依山盡，黃河入海流(一作：黃河入海流)。")
    ['白日依山盡', '黃河入海流']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import NamedTuple

from poetry.checker.tables import COMMON, COMMON_PING, COMMON_ZE, RARE, BookTable, Entry
from poetry.readings import cut_at, cut_near
from poetry.text import HAN_CLASS, MAX_LENGTH, ParsedPoem, parse_poem, simplified_only_chars, strip_notes

#: A text of Han chars and the two common breaks alone (most clean texts, ``_clean``).
_PLAIN = re.compile(f"[{HAN_CLASS}□，。]+")


@cache
def _clean() -> re.Pattern:
    """A clean one-paragraph text: only Han ideographs, □ gaps and punctuation (no titles, Latin letters,
    newlines); compiled on first use (its class of Han chars costs a millisecond, and most texts are ``_PLAIN``)."""
    return re.compile(f"[{HAN_CLASS}□，。？！；、,.?!;：:「」『』“”\"'·…— \u3000]+")


#: Every char ``\s`` matches in a str pattern, spelt out: a class of literals alone is a bitmap the engine
#: tests in one step, where ``\s`` sends each char through a category test too (a Han char is tested by both).
SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: What separates the lines of such a text: its punctuation and spaces, quotes and colons included.
_BREAKS = re.compile(f"[，。？！；、,.?!;：:{SPACES}「」『』“”\"'·…—]+")


@cache
def _simplified_bmp() -> re.Pattern:
    """A class of the chars of the Basic Multilingual Plane only simplified script uses, and of every char
    beyond it: a bitmap and a range the regular expression engine tests in C, in one pass over the text
    (a set test walks the text making one str per char)."""
    bmp = "".join(sorted(c for c in simplified_only_chars() if c <= "\uffff"))
    return re.compile("[" + re.escape(bmp) + "\U00010000-\U0010ffff]")


def _simplified(text: str) -> bool:
    """Whether the text holds a char only simplified script uses.

    >>> _simplified("白日依山尽"), _simplified("白日依山盡"), _simplified("𬸁")
    (True, False, True)
    >>> _simplified("𠀋山尽"), _simplified("𠀋山")  # a char beyond the BMP first (𠀋 is no simplified form)
    (True, False)
    """
    found = _simplified_bmp().search(text)
    if found is None:
        return False
    # a simplified char of the BMP; or a char beyond it, which the set of simplified chars decides
    return found.group() <= "\uffff" or not simplified_only_chars().isdisjoint(text)


def quick_lines(text: str) -> list[str] | None:
    """Lines of a one-paragraph traditional text without parse_poem's heavier work, or None (then
    parse_poem reads it, and refuses what it must: too long, no Chinese, one line).

    >>> quick_lines("白日依山尽，黄河入海流。") is None  # 简体 goes to parse_poem
    True
    """
    if len(text) > MAX_LENGTH:
        return None
    text = text.strip()
    if ("]" in text or "］" in text) and not ("[" in text or "［" in text):
        return None  # a stray closing bracket: left to parse_poem
    text = strip_notes(text)
    if _PLAIN.fullmatch(text):
        # Han chars and 「，」「。」 alone (most texts): split in C by str.split, as _BREAKS would unless two
        # breaks stand together (a run is one break for _BREAKS, an empty line between for str.split)
        breaks = text.replace("。", "，")
        lines = _BREAKS.split(text) if "，，" in breaks else breaks.split("，")
    elif _clean().fullmatch(text):
        lines = _BREAKS.split(text)
    else:
        return None
    if _simplified(text):
        return None
    if lines and not lines[-1]:
        lines.pop()
    if len(lines) < 2 or not all(lines):
        return None
    return lines


class Prepared(NamedTuple):
    """A poem ready for the rules."""

    title: str | None
    lines: list[str]  #: traditional
    original: list[str]  #: as typed (simplified stays simplified)
    entries: list[list[Entry]] | None  #: per char; None when the quick reading leaves them to the analysis
    plain: bool  #: every entry is the table's own entry of the char (no simplified char merged, no word's reading)
    #: (line, char) → the Entry of a reading its word fixes, when ``entries`` is None (the quick reading)
    fixes: dict[tuple[int, int], Entry] | None = None
    #: the set of the poem's chars, when the quick reading made it (the rules ask it rather than walk the text)
    chars: set[str] | None = None
    #: the lines joined, each char as its tone code (BookTable.code_chars), when the quick reading made it
    codes: str | None = None


def prepare(poem: str | ParsedPoem, table: BookTable, fast: bool = False) -> Prepared:
    """Read a text (``fast``: the quick reading first, for batch) or take a parsed poem, and look its
    chars up; a simplified char stands for all its traditional forms (``BookTable.merged``), and a traditional one
    for those its 简体 writes alike where they read otherwise (``BookTable.as_typed``: 幹 as 乾), so that both
    scripts get one verdict."""
    if fast and isinstance(poem, str):
        quick = quick_lines(poem)
        chars = set("".join(quick)) if quick is not None else set()
        if quick is not None and chars.isdisjoint(table.typed_chars()):  # else read as its 简体 (as_typed)
            joined = "".join(quick)
            # each char as its tone code (BookTable.code_chars): ASCII once every char is looked up
            codes = joined.translate(table.code_bytes)
            if not codes.isascii():  # a char not looked up yet, or one beyond the BMP
                for c in chars.difference(table.entries):  # only the chars not looked up yet
                    table.entry(c)
                codes = joined.translate(table.code_chars)
            # no set test first: 93% of poems hold a word char, and word_fixes' one search finds none in the rest
            fixes = word_fixes(quick, table, joined)
            # entries looked up in analyse where needed, the words' readings put in there
            return Prepared(None, quick, quick, None, True, fixes or None, chars, codes)
    if isinstance(poem, str):
        poem = parse_poem(poem)
    lines = list(poem.lines)
    if poem.script == "hans":
        entries = [
            [table.merged(alts) if len(alts) > 1 else table.entry(alts[0]) for alts in row] for row in poem.alternatives
        ]
        for (i, j), e in word_fixes(lines, table).items():
            entries[i][j] = e
        return Prepared(poem.title, lines, list(poem.original_lines), entries, False)
    entries = [[table.as_typed(c) for c in s] for s in lines]
    fixes = word_fixes(lines, table)
    for (i, j), e in fixes.items():
        entries[i][j] = e
    plain = not fixes and table.typed_chars().isdisjoint("".join(lines))  # no char read as its 简体's siblings
    return Prepared(poem.title, lines, list(poem.original_lines), entries, plain)


def word_chars(table: BookTable) -> frozenset[str]:
    """The 多音字 whose reading a word of data/word_readings.tsv may change for the rules: read 平 and
    仄 or in two 平 groups by common readings, or fixed by some word to a rare reading (纍纍). A char a
    word fixes to its one common tone (不 in 不可) is left to the rhyme book: the batch path cuts fewer
    lines. Empty for books other than the 平水韻; computed once per table."""
    if table.word_chars is None:
        _load_words(table)
    return table.word_chars


def _load_words(table: BookTable) -> None:
    """The table's word_chars and words (readings.book_words of those chars only), and rare_chars with
    theirs: the chars a word fixes to their common tone while a rare reading has the other (人間: 間 平)."""
    table.word_chars, table.words, table.rare_chars, table.rare_words = frozenset(), ({}, {}), frozenset(), ({}, {})
    if table.book.name != "pingshui":
        return
    from poetry.readings import word_table

    found, rare = set(), set()
    commons: dict[str, frozenset[str]] = {}  # char → its common groups, asked only where the tones do not decide
    # word_table(None), as readings.book_words asks it: one cache key, the table read once (not twice)
    for word, positions in word_table(None).items():
        for i, group in positions:
            char = word[i]
            e = table.entry(char)
            if e.code & COMMON == COMMON or len(e.common_ping) > 1:
                found.add(char)
                continue
            common = commons.get(char)
            if common is None:
                common = commons[char] = _common_groups(table, char)
            if group not in common:
                found.add(char)
            elif e.code & RARE:
                rare.add(char)
    table.word_chars = frozenset(found)
    table.words = _near(table.book, table.word_chars)
    table.rare_chars = frozenset(rare - found)
    table.rare_words = _near(table.book, table.rare_chars)


def _near(book, chars: frozenset[str]) -> tuple:
    """(word → readings, readings.near_index) of the words fixing one of ``chars``."""
    from poetry.readings import book_words, near_index

    words = book_words(book, chars)[0]
    return words, near_index(words, chars)


def rare_fixes(lines: list[str], places: list[int], table: BookTable) -> dict[tuple[int, int], Entry]:
    """(line, char) → the Entry of the common reading a word fixes where a char fits its place (``places``:
    a bitmask per line) only by a rare reading of the other tone (不如: 不 入聲, not the 平 of 尤): asked
    only of the lines with such a fit, so the batch path seldom cuts a line.

    >>> from poetry.checker.tables import resolve_book, table_for
    >>> {k: e.tone for k, e in rare_fixes(["舊遊皆不如"], [0b01000], table_for(resolve_book("pingshui"))).items()}
    {(0, 3): '仄'}
    """
    word_chars(table)
    chars, fixes = table.rare_chars, {}
    if not chars:
        return fixes
    words, near = table.rare_words
    holds = class_re(chars).search
    for i, rare in enumerate(places):
        line = lines[i]
        if not rare or not holds(line):
            continue
        for j, reading in enumerate(cut_near(line, words, chars, near)):
            if reading is not None and rare >> j & 1 and line[j] in chars:
                fixes[i, j] = _fixed_entry(table, line[j], reading.group, reading.tone.value)
    return fixes


@cache
def class_re(chars: frozenset[str]) -> re.Pattern:
    """A character class of ``chars``: whether a line holds one is a search in C, where a set test walks
    the line making one str per char.

    >>> bool(class_re(frozenset("相重")).search("門前宰相車")), bool(class_re(frozenset("相重")).search("白日"))
    (True, False)
    """
    return re.compile("[" + re.escape("".join(sorted(chars))) + "]")


def _common_groups(table: BookTable, char: str) -> frozenset[str]:
    """The groups of a char's common readings."""
    return frozenset(r.group for r in table.book.lookup(char).readings if r.common)


def word_fixes(lines: list[str], table: BookTable, joined: str | None = None) -> dict[tuple[int, int], Entry]:
    """(line, char) → the Entry of the reading a word fixes for a 多音字 (宰相, 相思; a 疊字 one
    reading for both): that reading alone, never re-chosen to fit the pattern, and common there (a rare
    reading a word fixes is no 自校). Only lines holding such a char are cut into words (``joined``: the
    lines joined, if made).

    >>> from poetry.checker.tables import resolve_book, table_for
    >>> table = table_for(resolve_book("pingshui"))
    >>> {place: e.tone for place, e in word_fixes(["門前宰相車", "此物最相思"], table).items()}
    {(0, 3): '仄', (1, 3): '平'}
    """
    chars = word_chars(table)
    fixes: dict[tuple[int, int], Entry] = {}
    if not chars:
        return fixes
    words, near = table.words
    for i, places in _word_places(lines, joined, class_re(chars), near):
        line = lines[i]
        last = len(line) - 1
        for j, reading in enumerate(cut_at(line, words, near, places)):
            if reading is not None and line[j] in chars:
                fixes[i, j] = (_foot_entry(table, line[j], reading.group) if j == last and reading.tone.value == "平"
                               else _fixed_entry(table, line[j], reading.group, reading.tone.value))
    return fixes


def _word_places(lines: list[str], joined: str | None, chars: re.Pattern, near: dict) -> list[tuple[int, list[int]]]:
    """(line, the places of its word chars) of each line where two chars around one of them are a key of
    ``near`` (readings.near_index, whose every key holds a word char first or second): cut_near's own test,
    asked only at the word chars, so a line with no word there is not cut. Lines of one length (a 近體
    shape) are searched as one text, a line's pairs kept inside it (fewer calls, fewer chars sliced out).

    >>> from poetry.checker.tables import resolve_book, table_for
    >>> table = table_for(resolve_book("pingshui"))
    >>> found = class_re(word_chars(table)), table.words[1]
    >>> _word_places(["門前宰相車", "看山還是山", "此物最相思"], None, *found)
    [(0, [3]), (2, [3, 4])]
    >>> _word_places(["門前宰相車", "看山還是山也"], None, *found)
    [(0, [3])]
    """
    width = len(lines[0]) if lines else 0
    if joined is None:
        joined = "".join(lines)
    if not width or len(joined) != width * len(lines) or not all(map(width.__eq__, map(len, lines))):
        return [(i, places) for i, line in enumerate(lines) if (places := _line_places(line, chars, near))]
    out: list[tuple[int, list[int]]] = []
    current, places, found = -1, [], False
    last = width - 1
    for hit in chars.finditer(joined):
        p = hit.start()
        i, j = divmod(p, width)
        if i != current:
            if found:
                out.append((current, places))
            current, places, found = i, [], False
        places.append(j)
        if not found and ((j and joined[p - 1 : p + 1] in near) or (j < last and joined[p : p + 2] in near)):
            found = True
    if found:
        out.append((current, places))
    return out


def _line_places(line: str, chars: re.Pattern, near: dict) -> list[int]:
    """The places of the word chars of one line, if two chars around one of them are a key of ``near``;
    else []."""
    places = [hit.start() for hit in chars.finditer(line)]
    last = len(line) - 1
    for p in places:
        if (p and line[p - 1 : p + 1] in near) or (p < last and line[p : p + 2] in near):
            return places
    return []


def _foot_entry(table: BookTable, char: str, group: str) -> Entry:
    """The Entry of a line's last char that a word reads 平 in ``group``: 平 alone, and in every 平 group of its
    common readings when ``group`` is one of several.
    At a rhyme foot the rhyme, not the word, chooses among them: 「家書十五行」 ends on 十五行 (fifteen lines, háng,
    下平七陽), which the word 五行 (xíng, 下平八庚) would have made 出韻 beside 鄉 (袁凱《京師得家書》).

    >>> from poetry.checker.tables import resolve_book, table_for
    >>> sorted(_foot_entry(table_for(resolve_book("pingshui")), "行", "下平八庚").ping)
    ['下平七陽', '下平八庚']
    """
    e = table.entry(char)
    if len(e.common_ping) < 2 or group not in e.common_ping:  # one 平 group, or a rare one the word fixes (纍纍)
        return _fixed_entry(table, char, group, "平")
    key = (char, "平")
    found = table.fixed.get(key)
    if found is None:
        groups = tuple(g for g in e.groups if g in e.common_ping)
        found = table.fixed[key] = Entry(COMMON_PING, "平", groups, e.common_ping, e.common_ping, e.lookup)
    return found


def _fixed_entry(table: BookTable, char: str, group: str, tone: str) -> Entry:
    """The Entry of one char read in one group only (memoised per table)."""
    key = (char, group)
    e = table.fixed.get(key)
    if e is None:
        ping = frozenset((group,)) if tone == "平" else frozenset()
        code = COMMON_PING if ping else COMMON_ZE
        e = table.fixed[key] = Entry(code, tone, (group,), ping, ping, table.entry(char).lookup)
    return e


def hand_chars(hand: Iterable[str] | None) -> set[str] | None:
    """The chars of a hand of tiles, with the traditional forms of a simplified hand; None for no hand.

    >>> sorted(hand_chars(["风", "月"]))
    ['月', '風', '风']
    """
    if hand is None:
        return None
    chars: set[str] = set()
    for tile in hand:
        chars.update(str(tile))
    if not simplified_only_chars().isdisjoint(chars):  # a simplified hand: its traditional forms too
        from poetry.text import to_traditional

        chars |= set(to_traditional("".join(sorted(chars))))
    return chars

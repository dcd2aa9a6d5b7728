"""From what was typed to lines and tone codes: parse_poem's reading, or a quick one for batch text.

    >>> quick_lines("白日依山盡，黃河入海流(一作：黃河入海流)。")
    ['白日依山盡', '黃河入海流']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from poetry.checker.tables import BookTable, Entry
from poetry.text import HAN_CLASS, MAX_LENGTH, ParsedPoem, parse_poem, simplified_only_chars, strip_notes

#: A clean one-paragraph text: only Han ideographs, □ gaps and punctuation (no titles, Latin letters, newlines).
_CLEAN = re.compile(f"[{HAN_CLASS}□，。？！；、,.?!;：:「」『』“”\"'·…— \u3000]+")
#: What separates the lines of such a text: its punctuation and spaces, quotes and colons included.
_BREAKS = re.compile(r"[，。？！；、,.?!;：:\s\u3000「」『』“”\"'·…—]+")


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
    if not _CLEAN.fullmatch(text) or not simplified_only_chars().isdisjoint(text):
        return None
    lines = _BREAKS.split(text)
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
    plain: bool  #: every entry is the table's own entry of the char (no simplified char merged)


def prepare(poem: str | ParsedPoem, table: BookTable, fast: bool = False) -> Prepared:
    """Read a text (``fast``: the quick reading first, for batch) or take a parsed poem, and look its
    chars up; a simplified char stands for all its traditional forms (``BookTable.merged``)."""
    if fast and isinstance(poem, str):
        quick = quick_lines(poem)
        if quick is not None:
            chars = set("".join(quick))
            if not table.entries.keys() >= chars:
                for c in chars:
                    table.entry(c)
            return Prepared(None, quick, quick, None, True)  # entries looked up in analyse where needed
    if isinstance(poem, str):
        poem = parse_poem(poem)
    lines = list(poem.lines)
    if poem.script == "hans":
        entries = [
            [table.merged(alts) if len(alts) > 1 else table.entry(alts[0]) for alts in row] for row in poem.alternatives
        ]
        return Prepared(poem.title, lines, list(poem.original_lines), entries, False)
    entries = [[table.entry(c) for c in s] for s in lines]
    return Prepared(poem.title, lines, list(poem.original_lines), entries, True)


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

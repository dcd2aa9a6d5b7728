"""The rules of a round of 詩牌: what a poem handed in may use, and the report kept with it.

Pure functions: no SQL, no Flask. The store checks the phase and the seat, reads the hand and the
round's settings, then asks this module:

- :func:`require_poem`: a title with a Han character and at least two lines, or BadInput;
- :func:`check_composition`: the round's composition rule (作詩規則, one of ``COMPOSITIONS``);
- :func:`rhyme_feet`: which characters are the rhyme feet (韻腳), with :func:`ping_test` to say
  whether a line-1 ending is 平 (首句入韻);
- :func:`poem_report`: the checker's report on the poem, kept with the submission.

Usage::

    >>> check_composition("山行", "遠上寒山石徑斜，白雲生處有人家。", "山行斜家", "rhyme_feet",
    ...                   is_ping=lambda c: c in "斜家")
    []

Checks still to come
--------------------
The round's clock (a time limit on writing) and the 韻牌 (a rhyme tile the round's poems must rhyme
with) are not rules yet. When they are, their checks belong here, beside :func:`check_composition`,
as pure functions of the round's settings that the store calls at submission.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from poetry.errors import BadInput, PoetryError
from poetry.text import is_han, split_lines

#: "rhyme_feet": rhyme feet and title from one's own tiles (the default, as the game's description says);
#: "jizi": 集字, every character of the poem from one's own tiles, each tile once (plus wildcard blanks).
COMPOSITIONS = {"rhyme_feet": "韻腳與題目用己牌", "jizi": "集字（全詩用己牌）"}
#: Most 白板 (blank tiles standing for any character) a 集字 round may allow.
MAX_WILDCARDS = 10

Violation = dict[str, Any]


def require_poem(title: str, text: str) -> None:
    """Refuse (BadInput) a poem that cannot be handed in: a title without Han, or a single line.

    >>> require_poem("登樓", "白日依山盡，黃河入海流。")
    >>> require_poem("登樓", "白日依山盡")
    Traceback (most recent call last):
    ...
    poetry.errors.BadInput: 一首詩至少要兩句：請用標點或換行分句。
    """
    if not any(is_han(c) for c in title):
        raise BadInput("詩題須有漢字（取自己的牌）。")
    if len(split_lines(text)) < 2:
        raise BadInput("一首詩至少要兩句：請用標點或換行分句。")


def rhyme_feet(lines: Sequence[str], is_ping: Callable[[str], bool]) -> list[tuple[int, str]]:
    """The rhyme feet (韻腳): the last character of every even line, and of line 1 when it is 平 (首句入韻).

    Returns (line number from 1, character) pairs.

    >>> rhyme_feet(["白日依山盡", "黃河入海流", "欲窮千里目", "更上一層樓"], lambda c: c in "流樓")
    [(2, '流'), (4, '樓')]
    """
    feet = []
    for number, line in enumerate(lines, 1):
        if number % 2 == 0 or (number == 1 and len(lines) > 1 and is_ping(line[-1])):
            feet.append((number, line[-1]))
    return feet


def check_composition(title: str, text: str, hand: Iterable[str], composition: str, wildcards: int = 0,
                      is_ping: Callable[[str], bool] = lambda c: False) -> list[Violation]:
    """Violations of the round's composition rule, each {"where", "char", "message"} (empty: allowed).

    "rhyme_feet": the title's characters and the rhyme feet must be tiles of one's hand.
    "jizi" (集字): every character of the poem must be a tile of one's hand, each tile used once, with up
    to ``wildcards`` blank tiles standing for any character; the title's characters must be in the hand.

    >>> check_composition("山行", "遠上寒山石徑斜", "山行遠上寒石徑斜", "jizi")
    []
    >>> [v["char"] for v in check_composition("江", "江江", "江", "jizi")]
    ['江']
    """
    hand = list(hand)
    own = set(hand)
    violations = [
        {"where": "title", "char": char, "message": f"題目的「{char}」不在你的牌中。"}
        for char in dict.fromkeys(c for c in title if is_han(c))
        if char not in own
    ]
    lines = split_lines(text)
    if composition == "jizi":
        violations += _jizi_violations("".join(lines), hand, wildcards)
    else:
        violations += [
            {"where": "rhyme", "line": number, "char": char, "message": f"第 {number} 句的韻腳「{char}」不在你的牌中。"}
            for number, char in rhyme_feet(lines, is_ping)
            if char not in own
        ]
    return violations


def _jizi_violations(chars: str, hand: Sequence[str], wildcards: int) -> list[Violation]:
    """集字: the characters no tile of the hand covers, each tile used once, after the blanks (白板) are spent.

    >>> [v["message"] for v in _jizi_violations("山山水", "山", wildcards=1)]
    ['「水」不在你的牌中。']
    """
    available = Counter(hand)
    short: Counter[str] = Counter()
    for char in chars:
        if available[char] > 0:
            available[char] -= 1
        else:
            short[char] += 1
    violations = []
    blanks = wildcards
    for char, count in short.items():  # blanks cover the first shortfalls, in the poem's order
        covered = min(blanks, count)
        blanks -= covered
        missing = count - covered
        if missing:
            if char in available:  # a tile of the hand, used more often than it was dealt
                message = f"「{char}」只有一張牌，詩中多用了 {missing} 次。"
            else:
                message = f"「{char}」不在你的牌中。"
            violations.append({"where": "text", "char": char, "count": missing, "message": message})
    return violations


def ping_test(tiles: Iterable[Any], rhyme_book: str) -> Callable[[str], bool]:
    """Whether a character ending line 1 is 平 (首句入韻): its tile in the round's set says so, else the
    round's rhyme book; a character no book knows counts as not rhyming.

    >>> from poetry.tiles import Tile
    >>> is_ping = ping_test([Tile("斜", "平", "下平六麻", 11, "朱")], "pingshui")
    >>> is_ping("斜"), is_ping("家"), is_ping("月")
    (True, True, False)
    """
    tones = {t.char: t.tone for t in tiles}

    def is_ping(char: str) -> bool:
        if char in tones:
            return tones[char] == "平"
        try:
            from poetry.prosody import get_rhyme_book

            return get_rhyme_book(rhyme_book).tone_of(char).value == "平"
        except Exception:  # no book for it: treat the first line as not rhyming
            return False

    return is_ping


def poem_report(text: str, rhyme_book: str, hand: Sequence[str], checker: Callable | None = None) -> Any:
    """The checker's report on a poem handed in, as plain JSON data (None when no checker is installed).

    A poem the checker cannot judge is still a poem to hand in: its report is the reason.

    >>> from poetry.errors import MalformedPoemError
    >>> def refuse(text, **options):
    ...     raise MalformedPoemError("只有一句")
    >>> poem_report("床前明月光", "pingshui", "床前明月光", checker=refuse)
    {'error': '只有一句'}
    """
    if checker is None:
        try:
            from poetry.checker import check_poem as checker
        except ImportError:  # the checker is not installed: no report, the rule check still runs
            return None
    try:
        return _report_of(checker(text, rhyme_book=rhyme_book, hand=hand))
    except PoetryError as exc:
        return {"error": exc.message}


def _report_of(result: Any) -> Any:
    """A checker result as plain JSON data."""
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        result = dataclasses.asdict(result)
    return json.loads(json.dumps(result, ensure_ascii=False, default=str))

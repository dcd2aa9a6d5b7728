"""The rules of a round of 詩牌: what a poem handed in may use, and the report kept with it.

Pure functions: no SQL, no Flask. The store checks the phase and the seat, reads the hand and the
round's settings, then asks this module:

- :func:`require_poem`: a title with a Han character and at least two lines, or BadInput;
- :func:`check_composition`: the round's composition rule (作詩規則, one of ``COMPOSITIONS``);
- :func:`rhyme_feet`: which characters are the rhyme feet (韻腳), with :func:`ping_test` to say
  whether a line-1 ending is 平 (首句入韻);
- :func:`poem_report`: the checker's report on the poem, kept with the submission.

Which held tile a typed character uses is one rule, :func:`tile_for` / :func:`match_tiles`, asked by the
editor (``in_hand`` of POST /api/check), the submission, 集字's each-tile-once, 白板 and every tile count:
a character uses a tile when it is the tile, its 简体 form, or a variant glyph of it (遊/游, 靑/青).

Usage::

    >>> check_composition("山行", "遠上寒山石徑斜，白雲生處有人家。", "山行斜家", "rhyme_feet",
    ...                   is_ping=lambda c: c in "斜家")
    []

The clock and the 韻牌
--------------------
A round may carry a clock (``minutes`` after the deal: :func:`deadline_of`, :func:`check_clock`,
:func:`elapsed_seconds`) and the 韻牌 (each seat draws a 平聲 group, :func:`draw_rhymes`; its feet
must be of it, :func:`check_rhyme`); the cups each 品 drinks default to ``DEFAULT_CUPS``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any

from poetry.errors import BadInput, PoetryError, WrongPhase
from poetry.text import is_han, parse_poem, split_lines, to_simplified, to_traditional

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


# --- which tile a typed character uses ------------------------------------------------------------

#: Glyphs of one character that verse writes either way and the rhyme book lists apart (both under the
#: same group): a poet typing one uses the tile of the other. The book's own variant rows (data/variants.tsv,
#: kind "book": 靑 for 青, 為 for 爲, 嘆 for 歎) are read beside these.
VARIANT_GLYPHS = ("游遊", "裏裡", "峰峯", "雁鴈", "群羣", "岳嶽", "鷄雞", "棲栖", "綫線", "牆墻", "迹跡蹟", "睹覩")


@cache
def _variant_classes() -> dict[str, frozenset[str]]:
    """Each char of a variant class → the class (the book's single-form variant rows and VARIANT_GLYPHS)."""
    from poetry.data import read_tsv

    classes: dict[str, set[str]] = {}

    def join(members: Iterable[str]) -> None:
        merged = set(members)
        for c in list(merged):
            merged |= classes.get(c, set())
        for c in merged:
            classes[c] = merged

    for row in read_tsv("variants.tsv"):
        if row[1] == "book" and len(row[2].split()) == 1:
            join((row[0], row[2]))
    for glyphs in VARIANT_GLYPHS:
        join(glyphs)
    return {c: frozenset(members) for c, members in classes.items()}


@cache
def _simplified_of() -> dict[str, frozenset[str]]:
    """Traditional char → the simplified chars that may stand for it (data/variants.tsv rows of kind s2t)."""
    from poetry.data import read_tsv

    out: dict[str, set[str]] = {}
    for row in read_tsv("variants.tsv"):
        if row[1] == "s2t":
            for form in row[2].split():
                out.setdefault(form, set()).add(row[0])
    return {c: frozenset(chars) for c, chars in out.items()}


@cache
def spellings(tile: str) -> frozenset[str]:
    """Every character a poet may type to use ``tile``: the tile, its 简体 forms, its variant glyphs.

    >>> sorted(spellings("樓")), sorted(spellings("遊")), "靑" in spellings("青"), "里" in spellings("裏")
    (['楼', '樓'], ['游', '遊'], True, True)
    """
    glyphs = _variant_classes().get(tile, frozenset((tile,)))
    out = set(glyphs)
    simplified_of = _simplified_of()
    for glyph in glyphs:
        out.add(to_simplified(glyph))
        out |= simplified_of.get(glyph, frozenset())
    return frozenset(c for c in out if len(c) == 1)


class HandIndex:
    """A hand looked up by what is typed: each spelling → the held tiles it may use, the tile itself first."""

    def __init__(self, hand: Iterable[str]) -> None:
        self.tiles = [str(t) for t in hand if str(t)]
        index: dict[str, list[str]] = {}
        for tile in dict.fromkeys(self.tiles):
            for spelling in spellings(tile):
                found = index.setdefault(spelling, [])
                if spelling == tile:
                    found.insert(0, tile)
                else:
                    found.append(tile)
        self.index = index

    @staticmethod
    def of(hand: Iterable[str] | HandIndex) -> HandIndex:
        """The index of a hand (the same hand is indexed once: the editor, the rule and the dashboard
        ask about one hand many times)."""
        return hand if isinstance(hand, HandIndex) else _hand_index(tuple(str(t) for t in hand))

    def tiles_for(self, char: str) -> list[str]:
        """The held tiles ``char`` may use, the exact tile first (empty: none)."""
        found = self.index.get(char)
        if found is None and to_traditional(char) != char:
            found = self.index.get(to_traditional(char))  # OpenCC's pick (里 → 裏) when no row names it
        return found or []


@lru_cache(maxsize=64)
def _hand_index(hand: tuple[str, ...]) -> HandIndex:
    return HandIndex(hand)


def tile_for(char: str, hand: Iterable[str] | HandIndex) -> str | None:
    """The held tile a typed character uses (the tile itself, its 简体 form or a variant glyph), or None.

    >>> tile_for("楼", "樓蓮"), tile_for("游", "遊"), tile_for("靑", "青"), tile_for("月", "日")
    ('樓', '遊', '青', None)
    """
    index = HandIndex.of(hand)
    found = index.tiles_for(char)
    return found[0] if found else None


#: What stands in the place of a character a 白板 covers.
BLANK = "白板"


@dataclass(frozen=True)
class TileMatch:
    """Which tile each typed character uses: ``tiles[i]`` is a held tile, BLANK (a 白板 stands in) or None."""

    chars: str
    tiles: tuple[str | None, ...]
    each_once: bool

    @property
    def used(self) -> int:
        """Tiles taken from the hand, as the rule counts them: 集字 spends one per character, otherwise a
        tile is used once however often its character is written."""
        held = [t for t in self.tiles if t is not None and t != BLANK]
        return len(held) if self.each_once else len(set(held))

    @property
    def blanks(self) -> int:
        """白板 spent."""
        return sum(t == BLANK for t in self.tiles)


def match_tiles(chars: str, hand: Iterable[str] | HandIndex, wildcards: int = 0, each_once: bool = False) -> TileMatch:
    """Match typed characters to held tiles. ``each_once`` (集字): a tile serves one character, exact
    matches first, then 简体 forms and variant glyphs; ``wildcards`` 白板 cover what is still short,
    in the poem's order.

    >>> match_tiles("山山水", "山", wildcards=1, each_once=True).tiles
    ('山', '白板', None)
    >>> match_tiles("游遊", "遊游", each_once=True).tiles
    ('游', '遊')
    """
    index = HandIndex.of(hand)
    tiles: list[str | None] = [None] * len(chars)
    if not each_once:
        tiles = [tile_for(c, index) for c in chars]
    else:
        left = Counter(index.tiles)
        for exact in (True, False):  # a tile of the very glyph before a 简体 or variant spelling
            for i, c in enumerate(chars):
                if tiles[i] is not None:
                    continue
                for tile in index.tiles_for(c):
                    if left[tile] > 0 and (tile == c) == exact:
                        left[tile] -= 1
                        tiles[i] = tile
                        break
    blanks = wildcards
    for i, tile in enumerate(tiles):
        if tile is None and blanks > 0:
            tiles[i], blanks = BLANK, blanks - 1
    return TileMatch(chars, tuple(tiles), each_once)


def tile_marks(title: str, lines: Sequence[str], hand: Iterable[str] | HandIndex, composition: str,
               wildcards: int = 0) -> dict[str, Any]:
    """The tile each typed character of the poem uses, and the tiles taken from the hand, title included,
    as the round's rule counts them: {"used", "blanks", "lines": [[tile, BLANK or None per char]],
    "title_missing" (the title's characters no tile covers)}. The editor, the dashboard and the results
    show this ``used``.

    >>> tile_marks("登樓", ["白日依山盡", "黃河入海流"], "登樓山河流", "rhyme_feet")["used"]
    5
    """
    index = HandIndex.of(hand)
    poem = match_tiles("".join(lines), index, wildcards, each_once=composition == "jizi")
    held = {t for t in poem.tiles if t not in (None, BLANK)}
    title_match = match_tiles(_han(title), index)
    named = {t for t in title_match.tiles if t is not None}
    missing = [c for c, t in zip(title_match.chars, title_match.tiles) if t is None]
    marks, start = [], 0
    for line in lines:
        marks.append(list(poem.tiles[start:start + len(line)]))
        start += len(line)
    return {"used": poem.used + len(named - held), "blanks": poem.blanks, "lines": marks,
            "title_missing": list(dict.fromkeys(missing))}


def tiles_used(title: str, text: str, hand: Iterable[str], composition: str, wildcards: int = 0) -> int:
    """The tiles a poem takes from the hand, title included (:func:`tile_marks`' count).

    >>> tiles_used("登樓", "白日依山盡，黃河入海流", "登樓山河流", "rhyme_feet")
    5
    """
    return tile_marks(title, poem_lines(text), hand, composition, wildcards)["used"]


def poem_lines(text: str) -> list[str]:
    """The verse lines as typed, read as the checker reads them (``parse_poem``: a title line, notes and
    punctuation off), so that the editor's marks, the submission's rule and every tile count see the same
    lines; a text the checker cannot read (empty, one line) falls back to ``split_lines``.

    >>> poem_lines("《登樓》白日依山盡，黃河入海流。（一作「望」）")
    ['白日依山盡', '黃河入海流']
    """
    try:
        return list(parse_poem(text).original_lines)
    except PoetryError:
        return split_lines(text)


def _han(text: str) -> str:
    """The Han characters of a title, in order."""
    return "".join(c for c in text if is_han(c))


def check_composition(title: str, text: str, hand: Iterable[str], composition: str, wildcards: int = 0,
                      is_ping: Callable[[str], bool] = lambda c: False) -> list[Violation]:
    """Violations of the round's composition rule, each {"where", "char", "message"} (empty: allowed).

    "rhyme_feet": the title's characters and the rhyme feet must be tiles of one's hand.
    "jizi" (集字): every character of the poem must be a tile of one's hand, each tile used once, with up
    to ``wildcards`` blank tiles standing for any character; the title's characters must be in the hand.
    A character uses a tile by :func:`tile_for` (简体 and variant glyphs included).

    >>> check_composition("山行", "遠上寒山石徑斜", "山行遠上寒石徑斜", "jizi")
    []
    >>> [v["char"] for v in check_composition("江", "江江", "江", "jizi")]
    ['江']
    >>> check_composition("登楼", "白日依山尽，黄河入海流", "登樓流", "rhyme_feet", is_ping=lambda c: c == "流")
    []
    """
    index = HandIndex.of(hand)
    title_chars = _han(title)
    violations = [
        {"where": "title", "char": char, "message": f"題目的「{char}」不在你的牌中。"}
        for char, tile in dict(zip(title_chars, match_tiles(title_chars, index).tiles)).items()
        if tile is None
    ]
    lines = poem_lines(text)
    if composition == "jizi":
        violations += _jizi_violations("".join(lines), index, wildcards)
    else:
        violations += [
            {"where": "rhyme", "line": number, "char": char, "message": f"第 {number} 句的韻腳「{char}」不在你的牌中。"}
            for number, char in rhyme_feet(lines, is_ping)
            if tile_for(char, index) is None
        ]
    return violations


def _jizi_violations(chars: str, index: HandIndex, wildcards: int) -> list[Violation]:
    """集字: the characters no tile of the hand covers, each tile used once, after the blanks (白板) are spent.

    >>> [v["message"] for v in _jizi_violations("山山水", HandIndex("山"), wildcards=1)]
    ['「水」不在你的牌中。']
    """
    match = match_tiles(chars, index, wildcards, each_once=True)
    short = Counter(c for c, tile in zip(chars, match.tiles) if tile is None)
    violations = []
    for char, missing in short.items():
        if index.tiles_for(char):  # a tile of the hand, used more often than it was dealt
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


def poem_report(text: str, rhyme_book: str, hand: Sequence[str], checker: Callable | None = None,
                form: str | None = None) -> Any:
    """The checker's report on a poem handed in (judged as its declared ``form``, if any), as plain JSON
    data (None when no checker is installed).

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
        options = {"form": form} if form else {}
        return _report_of(checker(text, rhyme_book=rhyme_book, hand=hand, **options))
    except PoetryError as exc:
        return {"error": exc.message}


def _report_of(result: Any) -> Any:
    """A checker result as plain JSON data."""
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        result = dataclasses.asdict(result)
    return json.loads(json.dumps(result, ensure_ascii=False, default=str))


# --- a round as a club plays it: the clock and the 韻牌 (issue 12) ---------------------------------

#: Cups each 品 drinks when the round does not say (上品 and 中品 none, 下品 one, 荒牌 two).
DEFAULT_CUPS = MappingProxyType({"上品": 0, "中品": 0, "下品": 1, "荒牌": 2})
#: Most minutes a round's clock may give (a long evening).
MAX_MINUTES = 600
#: 韻牌: a seat draws among the 平聲 groups of which its hand holds this many 平 tiles (else the fallback).
RHYME_DRAW_MIN, RHYME_DRAW_FALLBACK = 5, 3


def deadline_of(dealt_at: datetime | None, minutes: float | None) -> datetime | None:
    """When the clock runs out: the deal plus the round's minutes (None: no clock, or not dealt yet).

    >>> deadline_of(datetime(2026, 3, 1, 8, 0, tzinfo=timezone.utc), 7.5).isoformat()
    '2026-03-01T08:07:30+00:00'
    """
    if dealt_at is None or not minutes:
        return None
    if dealt_at.tzinfo is None:  # SQLite hands back naive datetimes, which are UTC
        dealt_at = dealt_at.replace(tzinfo=timezone.utc)
    return dealt_at + timedelta(minutes=minutes)


def elapsed_seconds(dealt_at: datetime | None, now: datetime) -> float | None:
    """Seconds from the deal to a hand-in (以詩作的遲速論高下), to a tenth of a second.

    >>> elapsed_seconds(datetime(2026, 3, 1, 8, 0, tzinfo=timezone.utc), datetime(2026, 3, 1, 8, 1, 2, 250000,
    ...                                                                             tzinfo=timezone.utc))
    62.2
    """
    if dealt_at is None:
        return None
    if dealt_at.tzinfo is None:
        dealt_at = dealt_at.replace(tzinfo=timezone.utc)
    return round(max(0.0, (now - dealt_at).total_seconds()), 1)


def check_clock(deadline: datetime | None, now: datetime) -> None:
    """Refuse a hand-in after the clock ran out (WrongPhase 409 「時間已到」); the draft stays as it was.

    >>> check_clock(None, datetime(2026, 3, 1, tzinfo=timezone.utc))  # no clock: always in time
    """
    if deadline is not None and now > deadline:
        raise WrongPhase("時間已到：這局的限時已過，不能再交卷（詩稿仍保留）。")


def ping_groups(tiles: Iterable[Any]) -> dict[str, list[str]]:
    """The 平聲 rhyme groups (上平, 下平) of some tiles, each with its tiles' characters.

    >>> from poetry.tiles import Tile
    >>> ping_groups([Tile("山", "平", "上平十五刪", 3, "朱"), Tile("月", "仄", "入聲六月", 4, "墨")])
    {'上平十五刪': ['山']}
    """
    groups: dict[str, list[str]] = {}
    for tile in tiles:
        if tile.tone == "平" and tile.rhyme.startswith(("上平", "下平")):
            groups.setdefault(tile.rhyme, []).append(tile.char)
    return groups


def rhyme_choices(hand: Iterable[Any]) -> list[str]:
    """The 韻牌 a hand may draw: the groups of which it holds five 平 tiles (three, if it holds five of none).

    >>> from poetry.tiles import Tile
    >>> rhyme_choices([Tile(c, "平", "下平一先", 5, "朱") for c in "先天前"])
    ['下平一先']
    """
    counts = {group: len(chars) for group, chars in ping_groups(hand).items()}
    for least in (RHYME_DRAW_MIN, RHYME_DRAW_FALLBACK, 1):
        choices = sorted(group for group, count in counts.items() if count >= least)
        if choices:
            return choices
    return []


def draw_rhymes(hands: Mapping[int, Iterable[Any]], seed: str) -> dict[int, str]:
    """韻牌: each seat draws one 平聲 group among its :func:`rhyme_choices`, a different one for each seat.

    The draw is seeded by the deal's salt, so it is fixed with the deal and revealed with it. Seats are
    served in order; when a seat's choices are all taken, the seats before it draw again (backtracking).

    >>> from poetry.tiles import Tile
    >>> hand = [Tile(c, "平", g, 5, "朱") for g in ("上平一東", "下平一先") for c in "一二三"]
    >>> sorted(draw_rhymes({1: hand, 2: hand}, "salt").values())
    ['上平一東', '下平一先']
    """
    rng = random.Random(hashlib.sha256(f"{seed}\n韻牌".encode()).hexdigest())
    choices = {seat: rng.sample(rhyme_choices(tiles), k=len(rhyme_choices(tiles))) for seat, tiles in hands.items()}
    order = sorted(choices)

    def assign(index: int, taken: dict[int, str]) -> dict[int, str] | None:
        if index == len(order):
            return taken
        seat = order[index]
        for group in choices[seat]:
            if group not in taken.values():
                found = assign(index + 1, {**taken, seat: group})
                if found is not None:
                    return found
        return None

    drawn = assign(0, {})
    if drawn is None:  # no distinct draw among the choices: any 平聲 group of the hand, still distinct
        choices = {seat: rng.sample(sorted(ping_groups(tiles)), k=len(ping_groups(tiles)))
                   for seat, tiles in hands.items()}
        drawn = assign(0, {}) or {}
    return drawn


def check_rhyme(lines: Sequence[str], group: str | None, is_ping: Callable[[str], bool],
                groups_of: Callable[[str], Iterable[str]]) -> list[Violation]:
    """Violations of the 韻牌: every rhyme foot (韻腳) must be of the drawn group (empty: in rhyme).

    ``groups_of(char)`` gives a character's 平水韻 groups (its tile's, else the rhyme book's).

    >>> check_rhyme(["白日依山盡", "黃河入海流"], "下平十一尤", lambda c: False, lambda c: {"流": ["下平十一尤"]}[c])
    []
    >>> check_rhyme(["白日依山盡", "黃河入海流"], "下平一先", lambda c: False, lambda c: ["下平十一尤"])[0]["message"]
    '第 2 句的韻腳「流」不在韻牌「下平一先」中。'
    """
    if not group:
        return []
    return [
        {"where": "rhyme_tile", "line": number, "char": char, "group": group,
         "message": f"第 {number} 句的韻腳「{char}」不在韻牌「{group}」中。"}
        for number, char in rhyme_feet(lines, is_ping)
        if group not in set(groups_of(char))
    ]

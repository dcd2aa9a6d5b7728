"""THE TILES AND THE DEAL: the 600-tile set, the 詩伯's stroke count, a verifiable shuffle, the hands.

The rules of 詩牌: 600 tiles, 300 平 (朱, red) and 300 仄 (墨, black) by the 平水韻; four players draw 150
each. The 詩伯 draws the top tile (the count tile); its stroke number N is counted round the seats in seat
order with the 詩伯 as 1 (seat 1 when the 詩伯 does not play), so seat ((N − 1) mod 4) + 1 counted from the
詩伯 draws first. The count tile goes to the bottom of the stack and everyone draws in turn, one tile at a
time from the top, until each holds 150.

Because 4 × 150 = 600, every tile is dealt, the count tile too: it is the very last tile drawn, and it
goes to the seat just before the first drawer in turn order (the fourth drawer).

The shuffle is committed before anything is drawn::

    commitment = sha256((salt + "\\n" + "".join(stack)).encode()).hexdigest()

where ``stack`` is the 600 characters top to bottom as shuffled (before the count tile moves) and ``salt``
a random hex string; publishing salt and stack afterwards lets anyone check the deal with
:func:`verify_deal` and :func:`replay_deal`.

Usage::

    >>> deal = deal_round(load_tile_set(), host_seat=1, rng=random.Random(7))
    >>> deal.first_seat == first_seat(deal.count_tile.strokes, host_seat=1)
    True
    >>> deal.draws[-1] == (deal.turn_order[-1], deal.count_tile.char)         # the count tile comes last
    True
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from poetry.data import data_path
from poetry.errors import InvalidHandError
from poetry.text import is_han

#: Size of the standard set and its split by tone.
SET_SIZE = 600
PER_TONE = 300
#: Seats at the table and tiles per hand, as the rules give them.
SEATS = 4
HAND_SIZE = 150

PING = "平"
ZE = "仄"
#: 朱 (vermilion) for 平 tiles, 墨 (ink) for 仄 tiles.
COLOURS = {PING: "朱", ZE: "墨"}

TILES_FILE = "tiles.json"
STROKES_FILE = "strokes.tsv"


@dataclass(frozen=True)
class Tile:
    """One tile: a character with its tone class, rhyme group, stroke count and colour.

    >>> Tile("山", "平", "上平十五刪", 3, "朱").colour
    '朱'
    """

    char: str
    tone: str  # "平" | "仄"
    rhyme: str  # 平水韻 group, e.g. "下平七陽", "入聲一屋"
    strokes: int  # kTotalStrokes of the traditional form
    colour: str  # "朱" for 平, "墨" for 仄


@dataclass(frozen=True)
class Deal:
    """The record of one deal; everything in it can be recomputed from ``salt``, ``stack`` and the seats.

    ``stack`` is the shuffled order (top first) that the commitment covers. ``draws`` are the 600 draws
    into the hands, in order, after the count draw: ``draws[0]`` is the first drawer's first tile and the
    last draw is the count tile coming back from the bottom. ``hands`` maps seat → characters in draw
    order (a plain dict so that ``dataclasses.asdict`` and Flask's JSON work; treat it as read-only).
    ``turn_order`` is the seats in the order they draw (first drawer first). ``host_seat`` is None when
    the 詩伯 does not play.
    """

    salt: str
    stack: tuple[str, ...]
    commitment: str
    count_tile: Tile
    first_seat: int
    draws: tuple[tuple[int, str], ...]
    hands: Mapping[int, tuple[str, ...]]
    turn_order: tuple[int, ...]
    host_seat: int | None = 1
    hand_size: int = HAND_SIZE

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (seats as int keys; ``json.dumps`` turns them into strings)."""
        return {
            "salt": self.salt,
            "stack": list(self.stack),
            "commitment": self.commitment,
            "count_tile": {"char": self.count_tile.char, "strokes": self.count_tile.strokes,
                           "tone": self.count_tile.tone, "rhyme": self.count_tile.rhyme},
            "first_seat": self.first_seat,
            "host_seat": self.host_seat,
            "turn_order": list(self.turn_order),
            "draws": [[seat, char] for seat, char in self.draws],
            "hands": {seat: list(chars) for seat, chars in self.hands.items()},
        }


# --- the tile set --------------------------------------------------------------------------------


def _tile_from_record(rec: Mapping[str, Any]) -> Tile:
    tone = rec["tone"]
    return Tile(rec["char"], tone, rec["rhyme"], int(rec["strokes"]), COLOURS[tone])


@cache
def _load_tile_set(path: str) -> tuple[Tile, ...]:
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    records = doc["tiles"] if isinstance(doc, dict) else doc
    return tuple(_tile_from_record(rec) for rec in records)


def load_tile_set(path: str | os.PathLike | None = None) -> tuple[Tile, ...]:
    """The standard 600 tiles from data/tiles.json (parsed once), 平 tiles first.

    >>> tiles = load_tile_set()
    >>> len(tiles), sum(t.tone == "平" for t in tiles)
    (600, 300)
    """
    return _load_tile_set(str(Path(path) if path else data_path(TILES_FILE)))


@cache
def _tiles_by_char() -> Mapping[str, Tile]:
    return MappingProxyType({t.char: t for t in load_tile_set()})


@cache
def load_stroke_table(path: str | None = None) -> Mapping[str, int]:
    """Stroke counts (Unihan kTotalStrokes, traditional count) of every traditional spelling in the 平水韻."""
    table: dict[str, int] = {}
    with open(path or data_path(STROKES_FILE), encoding="utf-8") as fh:
        for line in fh:
            if not line.strip() or line.startswith("#"):
                continue
            char, count = line.rstrip("\n").split("\t")[:2]
            table[char] = int(count)
    return MappingProxyType(table)


def strokes_of(char: str) -> int | None:
    """Stroke count of the traditional form, or None when the stroke table does not know it.

    >>> strokes_of("澗"), strokes_of("山")
    (15, 3)
    """
    tile = _tiles_by_char().get(char)
    if tile is not None:
        return tile.strokes
    try:
        return load_stroke_table().get(char)
    except FileNotFoundError:
        return None


def _parse_upload(data: str | bytes | Sequence[Any]) -> list[dict[str, Any]]:
    """Turn a JSON or CSV upload (or an already parsed list) into records with at least "char"."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InvalidHandError("牌組檔案須為 UTF-8 編碼的 JSON 或 CSV") from None
    if isinstance(data, str):
        text = data.strip().lstrip("\ufeff")
        if not text:
            raise InvalidHandError("牌組是空的：須有 600 個字")
        if text[0] in "[{":
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InvalidHandError(f"牌組 JSON 格式有誤（第 {exc.lineno} 行）") from None
            if isinstance(data, dict):
                data = data.get("tiles")
                if not isinstance(data, list):
                    raise InvalidHandError("牌組 JSON 須為字的列表，或含 \"tiles\" 列表的物件")
        else:
            return _parse_csv(text)
    if not isinstance(data, (list, tuple)):
        raise InvalidHandError("牌組須為字的列表")
    records = []
    for i, item in enumerate(data, 1):
        if isinstance(item, str):
            records.append({"char": item})
        elif isinstance(item, Tile):
            records.append({"char": item.char, "tone": item.tone, "rhyme": item.rhyme, "strokes": item.strokes})
        elif isinstance(item, Mapping) and isinstance((rec := _normalise_keys(item)).get("char"), str):
            records.append(rec)
        else:
            raise InvalidHandError(f"牌組第 {i} 項不是字，也不是含 \"char\" 的物件")
    return records


#: Column names and tone spellings an upload may use (English, or the Chinese a club would write).
_FIELDS = {"char": "char", "字": "char", "字頭": "char", "tone": "tone", "平仄": "tone", "rhyme": "rhyme",
           "韻": "rhyme", "韻部": "rhyme", "韵部": "rhyme", "strokes": "strokes", "筆畫": "strokes", "笔画": "strokes"}
_TONES = {"平": PING, "平聲": PING, "朱": PING, "ping": PING, "仄": ZE, "仄聲": ZE, "墨": ZE, "ze": ZE}


def _normalise_keys(item: Mapping[str, Any]) -> dict[str, Any]:
    return {_FIELDS.get(str(key).strip().lower(), str(key)): value for key, value in item.items()}


def _parse_csv(text: str) -> list[dict[str, Any]]:
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # Windows and old Mac spreadsheets' line ends
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first and "," not in first else ","
    try:
        rows = [row for row in csv.reader(io.StringIO(text), delimiter=delimiter) if any(c.strip() for c in row)]
    except csv.Error as exc:
        raise InvalidHandError(f"牌組 CSV 格式有誤：{exc}") from None
    if not rows:
        raise InvalidHandError("牌組是空的：須有 600 個字")
    names = [_FIELDS.get(cell.strip().lower(), cell.strip().lower()) for cell in rows[0]]
    if "char" in names:
        header, rows = names, rows[1:]
    else:
        header = ["char", "tone", "rhyme", "strokes"][: max(len(r) for r in rows)]
    records = []
    for row in rows:
        rec = {name: cell.strip() for name, cell in zip(header, row) if cell.strip()}
        rec.setdefault("char", "")
        records.append(rec)
    return records


def _names(chars: Iterable[str], limit: int = 12) -> str:
    chars = list(chars)
    shown = "、".join(f"「{c}」" for c in chars[:limit])
    return shown + (f" 等 {len(chars)} 個" if len(chars) > limit else "")


#: What can be wrong with one tile of an upload, in the order the messages are given.
_PROBLEMS = {
    "unknown": "這些字不在平水韻中，不能做牌：{names}",
    "variants": "這些是同一個字的不同寫法，只能留一張：{names}",
    "tone": "平仄只能填「平」或「仄」，這些字填錯了：{names}",
    "contradicts": "這些字標的平仄與平水韻不合（括號內為韻書的平仄）：{names}",
    "either": "這些字可平可仄，請在牌組中註明平仄：{names}",
    "rhyme": "這些字不屬於所填的韻部：{names}",
    "strokes": "筆畫須為 1 到 64 的整數，這些字填錯了：{names}",
    "no_strokes": "查不到這些字的筆畫，請在牌組中註明：{names}",
}
MAX_UPLOAD = 1_000_000  # bytes or characters; a 600-tile CSV with every column is about 20 kB


def validate_tile_set(data: str | bytes | Sequence[Any]) -> tuple[Tile, ...]:
    """Check a custom tile set (JSON list of characters or objects, or CSV) and return its Tiles.

    Rules: exactly 600 distinct single CJK characters, 300 平 and 300 仄. Tone, rhyme group and stroke
    count come from the 平水韻 and the stroke table when the upload does not give them; a given tone or
    group must agree with the book (a 可平可仄 character must be given its tone). Rejected: characters in
    no book, two spellings of one character (峰／峯). Raises InvalidHandError with a Chinese message
    naming the offending characters.

    >>> validate_tile_set(["山"] * 600)
    Traceback (most recent call last):
    poetry.errors.InvalidHandError: 牌組有重複的字：「山」
    """
    if isinstance(data, (str, bytes)) and len(data) > MAX_UPLOAD:
        raise InvalidHandError("牌組檔案太大：600 張牌的 JSON 或 CSV 不會超過 1 MB")
    records = _parse_upload(data)
    chars = _distinct_chars(records)

    from poetry.prosody import get_rhyme_book  # the 平水韻 decides 平仄

    book = get_rhyme_book("pingshui")
    _refuse_simplified(chars, book)
    standard = {t.char: t for t in load_tile_set()}
    problems: dict[str, list[str]] = {key: [] for key in _PROBLEMS}
    tiles, entries = [], {}
    for rec, char in zip(records, chars):
        info = book.lookup(char)
        if info.guessed or not info.readings:
            problems["unknown"].append(char)
            continue
        entries.setdefault(info.canonical, []).append(char)
        tile = _tile_of(rec, char, info, standard.get(char), problems)
        if tile is not None:
            tiles.append(tile)
    problems["variants"] = ["／".join(spellings) for spellings in entries.values() if len(spellings) > 1]
    for key, message in _PROBLEMS.items():
        if problems[key]:
            raise InvalidHandError(message.format(names=_names(problems[key])))
    n_ping = sum(t.tone == PING for t in tiles)
    if n_ping != PER_TONE:
        raise InvalidHandError(
            f"牌組須平仄各 {PER_TONE} 張，現有平聲 {n_ping} 張、仄聲 {SET_SIZE - n_ping} 張")
    return tuple(tiles)


def _distinct_chars(records: list[dict[str, Any]]) -> list[str]:
    """The uploaded characters, refused unless they are SET_SIZE distinct single Han characters."""
    if len(records) > 10 * SET_SIZE:
        raise InvalidHandError(f"牌組須有 {SET_SIZE} 個不同的字，現有 {len(records)} 個")
    bad = [str(r["char"]) for r in records if not is_han(str(r["char"]).strip())]
    if bad:
        raise InvalidHandError(f"每張牌須是單一個漢字，這些不是：{_names(bad)}")
    chars = [str(r["char"]).strip() for r in records]
    seen: set[str] = set()
    dupes = [c for c in chars if c in seen or seen.add(c)]  # type: ignore[func-returns-value]
    if dupes:
        raise InvalidHandError(f"牌組有重複的字：{_names(dict.fromkeys(dupes))}")
    if len(chars) != SET_SIZE:
        raise InvalidHandError(f"牌組須有 {SET_SIZE} 個不同的字，現有 {len(chars)} 個")
    return chars


def _refuse_simplified(chars: Sequence[str], book) -> None:
    """Tiles are written in traditional characters (the app converts them when a player reads simplified):
    a simplified-only char is one the book finds only under a traditional form it stands for (风 → 風)."""
    from poetry.text import traditional_candidates

    simplified = []
    for char in chars:
        forms = traditional_candidates(char)
        if char not in forms or (book.lookup(char).canonical != char and book.lookup(char).canonical in forms):
            simplified.append(f"{char}→{'／'.join(f for f in forms if f != char)}")
    if simplified:
        raise InvalidHandError(f"牌組須用繁體字，這些是簡體字（箭頭後為繁體）：{_names(simplified)}")


def _tile_of(rec: Mapping[str, Any], char: str, info, standard: Tile | None,
             problems: dict[str, list[str]]) -> Tile | None:
    """One uploaded tile with its tone, rhyme group and strokes settled against the 平水韻 (the book's
    tone unless the upload gives one of the char's tones), or None with the fault noted in ``problems``."""
    book_tone = getattr(info.tone, "value", info.tone)
    given_tone = str(rec.get("tone") or "").strip()
    tone = _TONES.get(given_tone.lower(), given_tone)
    if tone and tone not in COLOURS:
        problems["tone"].append(char)
        return None
    if not tone and book_tone not in COLOURS:
        problems["either"].append(char)
        return None
    if tone and book_tone in COLOURS and tone != book_tone:
        problems["contradicts"].append(f"{char}（{book_tone}）")
        return None
    tone = tone or book_tone
    groups = [r.group for r in info.readings if getattr(r.tone, "value", r.tone) == tone]
    rhyme = str(rec.get("rhyme") or "").strip()
    if rhyme and rhyme not in groups:
        problems["rhyme"].append(f"{char}（{rhyme}）")
        return None
    if not rhyme and standard is not None and standard.tone == tone:
        rhyme = standard.rhyme  # the group chosen for the standard set (書 → 六魚, not 四支)
    rhyme = rhyme or groups[0]
    given = str(rec.get("strokes") or "").strip()
    strokes = int(given) if given.isdigit() else None if given else (
        strokes_of(char) or strokes_of(info.canonical))  # a simplified spelling: the traditional count
    if strokes is None or not 1 <= strokes <= 64:
        problems["strokes" if given else "no_strokes"].append(char)
        return None
    return Tile(char, tone, rhyme, strokes, COLOURS[tone])


# --- the deal ------------------------------------------------------------------------------------


def _chars(tiles: Iterable[Tile | str]) -> list[str]:
    return [t.char if isinstance(t, Tile) else t for t in tiles]


def shuffle_stack(tiles: Iterable[Tile | str], rng: random.Random | None = None) -> list[str]:
    """The characters shuffled into a stack, top first.

    The default RNG is ``secrets.SystemRandom`` (the operating system's cryptographic source); pass a
    seeded ``random.Random`` to reproduce a deal in tests and replays.

    >>> shuffle_stack(["山", "江", "草"], random.Random(1))
    ['江', '草', '山']
    """
    stack = _chars(tiles)
    (rng or secrets.SystemRandom()).shuffle(stack)
    return stack


def commitment(salt: str, stack: Sequence[str]) -> str:
    """sha256 of ``salt + "\\n" + stack``, hex: published before the first draw.

    >>> commitment("00", ["山", "江"])[:16]
    '7ed8f1663bbbe900'
    """
    return hashlib.sha256((salt + "\n" + "".join(stack)).encode("utf-8")).hexdigest()


def verify_deal(salt: str, stack: Sequence[str], published: str) -> bool:
    """True when the revealed salt and stack give the commitment published before the deal."""
    return secrets.compare_digest(commitment(salt, stack).encode(), published.strip().lower().encode("utf-8"))


def first_seat(strokes: int, host_seat: int | None = 1, seats: int = SEATS) -> int:
    """The seat that draws first: count N strokes round the table, the 詩伯's seat counting as 1.

    With no playing 詩伯 (``host_seat=None``) the count starts at seat 1.

    >>> first_seat(3, host_seat=1), first_seat(15, host_seat=2), first_seat(4, host_seat=None)
    (3, 4, 4)
    """
    if strokes < 1:
        raise ValueError(f"stroke count must be positive, not {strokes}")
    start = 1 if host_seat is None else host_seat
    if not 1 <= start <= seats:
        raise ValueError(f"host seat {host_seat} is not one of seats 1–{seats}")
    return (start - 1 + strokes - 1) % seats + 1


def _deal_from_stack(salt: str, stack: Sequence[str], tiles_by_char: Mapping[str, Tile],
                     host_seat: int | None, players: int, hand_size: int) -> Deal:
    stack = tuple(stack)
    if players * hand_size > len(stack):
        raise InvalidHandError(
            f"牌不夠：{players} 人各 {hand_size} 張須 {players * hand_size} 張，只有 {len(stack)} 張")
    try:
        count_tile = tiles_by_char[stack[0]]
    except (KeyError, IndexError):
        raise InvalidHandError("牌堆頂的字不在牌組中") from None
    first = first_seat(count_tile.strokes, host_seat, players)
    turn_order = tuple((first - 1 + i) % players + 1 for i in range(players))
    # The 詩伯 draws the top tile to count; it goes back under the stack, so the draw starts from the
    # second tile and the count tile is the last one drawn.
    pile = stack[1:] + stack[:1]
    draws = tuple((turn_order[i % players], pile[i]) for i in range(players * hand_size))
    hands: dict[int, list[str]] = {seat: [] for seat in range(1, players + 1)}
    for seat, char in draws:
        hands[seat].append(char)
    return Deal(
        salt=salt,
        stack=stack,
        commitment=commitment(salt, stack),
        count_tile=count_tile,
        first_seat=first,
        draws=draws,
        hands={seat: tuple(chars) for seat, chars in hands.items()},
        turn_order=turn_order,
        host_seat=host_seat,
        hand_size=hand_size,
    )


def deal_round(tiles: Sequence[Tile] | None = None, host_seat: int | None = 1, players: int = SEATS,
               hand_size: int = HAND_SIZE, rng: random.Random | None = None) -> Deal:
    """Shuffle, commit, count and deal: the whole of a round's 抽牌.

    ``host_seat`` is the 詩伯's seat (1–4) or None when the 詩伯 only judges. With ``rng`` given (a
    seeded ``random.Random``) the salt comes from it too, so the whole deal is reproducible.

    >>> deal = deal_round(load_tile_set(), rng=random.Random(1))
    >>> sorted(len(hand) for hand in deal.hands.values())
    [150, 150, 150, 150]
    """
    tiles = load_tile_set() if tiles is None else tuple(tiles)
    salt = f"{rng.getrandbits(128):032x}" if rng is not None else secrets.token_hex(16)
    stack = shuffle_stack(tiles, rng)
    return _deal_from_stack(salt, stack, {t.char: t for t in tiles}, host_seat, players, hand_size)


def replay_deal(salt: str, stack: Sequence[str], host_seat: int | None = 1, tiles: Sequence[Tile] | None = None,
                players: int = SEATS, hand_size: int = HAND_SIZE) -> Deal:
    """Recompute a published deal from its revealed salt and stack (and the set it used)."""
    tiles = load_tile_set() if tiles is None else tuple(tiles)
    by_char = {t.char: t for t in tiles}
    missing = [c for c in stack if c not in by_char]
    if missing:
        raise InvalidHandError(f"牌堆中有牌組外的字：{_names(missing)}")
    if len(stack) != len(by_char) or len(set(stack)) != len(stack):
        raise InvalidHandError(
            f"牌堆須是牌組的 {len(by_char)} 張牌各一張，現有 {len(stack)} 張、{len(set(stack))} 個不同的字")
    return _deal_from_stack(salt, stack, by_char, host_seat, players, hand_size)


def hand_tiles(chars: Iterable[str], tiles: Sequence[Tile] | None = None) -> tuple[Tile, ...]:
    """The Tiles of a hand's characters, in the given order."""
    by_char = {t.char: t for t in (load_tile_set() if tiles is None else tiles)}
    return tuple(by_char[c] for c in chars)


def format_deal(deal: Deal, tiles: Sequence[Tile] | None = None) -> str:
    """The deal as text for the command line: the commitment, the count, the turn order, each hand by tone.

    Within a tone the hand is grouped by rhyme group, largest group first, so the rhymes a hand offers
    are visible at a glance.
    """
    by_char = {t.char: t for t in (load_tile_set() if tiles is None else tiles)}
    count = deal.count_tile
    host = "詩伯不入座，從第 1 座" if deal.host_seat is None else f"從詩伯（第 {deal.host_seat} 座）"
    lines = [
        f"承諾（sha256）：{deal.commitment}",
        f"數牌：「{count.char}」{count.strokes} 畫（{count.tone}，{count.rhyme}）；"
        f"{host}數起，第 {deal.first_seat} 座先抽。",
        f"抽牌順序：{' → '.join(str(s) for s in deal.turn_order)}；數牌壓在牌底，最後由第 {deal.draws[-1][0]} 座抽回。",
    ]
    for seat, chars in sorted(deal.hands.items()):
        who = "（詩伯）" if seat == deal.host_seat else ""
        lines.append(f"\n第 {seat} 座{who}：{len(chars)} 張")
        for tone in (PING, ZE):
            groups: dict[str, list[str]] = {}
            for char in chars:
                tile = by_char[char]
                if tile.tone == tone:
                    groups.setdefault(tile.rhyme, []).append(char)
            n = sum(len(g) for g in groups.values())
            body = " ".join(f"{name}:{''.join(g)}" for name, g in
                            sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])))
            lines.append(f"  {tone}（{COLOURS[tone]}）{n}：{body}")
    lines.append(f"\n驗證：公佈 salt={deal.salt} 與牌堆後，sha256(salt + \"\\n\" + 牌堆) 應等於承諾。")
    return "\n".join(lines) + "\n"


#: The name STYLE.md and ARCHITECTURE.md use for the deal.
deal_hands = deal_round

"""What a round stores, checked on the way in: vocabularies, field limits, timestamps, a new round's settings.

Every user string goes through :func:`clean_text` (type, control characters, the length limits of
poetry.text.LIMITS) before it reaches a table; the messages are for the user (Chinese).
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from poetry.errors import BadInput
from poetry.rules import COMPOSITIONS, DEFAULT_CUPS, MAX_MINUTES, MAX_WILDCARDS
from poetry.text import LIMITS

PHASES = ("lobby", "dealt", "published")
RHYME_BOOKS = {"pingshui": "平水韻", "xinyun": "中華新韻"}
GRADES = ("上品", "中品", "下品", "荒牌")
PLAYERS = 4

#: Bidirectional overrides and isolates (RLO …): they reorder what others see, so no field takes them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def utcnow() -> datetime:
    """Now, in UTC (every timestamp the store writes)."""
    return datetime.now(timezone.utc)


def iso(value: datetime | None) -> str | None:
    """ISO 8601 in UTC; SQLite hands back naive datetimes, which are UTC here.

    >>> iso(datetime(2026, 3, 1, 8, 30, tzinfo=timezone.utc))
    '2026-03-01T08:30:00.000Z'
    """
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clean_text(value: Any, field: str, label: str, *, required: bool = False, multiline: bool = False) -> str:
    """A user string checked for type, control characters and length; surrounding spaces trimmed.

    >>> clean_text("  春日  ", "title", "標題")
    '春日'
    """
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise BadInput(f"「{label}」必須是文字。")
    if multiline:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    for char in value:
        if char in "\n\t" and multiline:
            continue
        category = unicodedata.category(char)
        if category == "Cc" or char in BIDI_CONTROLS:
            raise BadInput(f"「{label}」含有控制字元（U+{ord(char):04X}），請刪去。")
        if category == "Cs":  # a lone surrogate: no text a keyboard makes, and no database stores it
            raise BadInput(f"「{label}」含有無法辨識的字元（U+{ord(char):04X}），請刪去。")
    value = value.strip() if not multiline else value.strip("\n ")
    limit = LIMITS[field]
    if len(value) > limit:
        raise BadInput(f"「{label}」太長了：最多 {limit} 字，現有 {len(value)} 字。")
    if required and not value:
        raise BadInput(f"請填寫「{label}」。")
    return value


#: Characters that show nothing (or nothing of their own) and so make a look-alike name: fillers and
#: blanks that Unicode counts as letters; the categories below catch format characters (ZWSP, ZWJ,
#: LRM/RLM, BOM, word joiner, tags), combining marks and variation selectors.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180e")
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Mn", "Me", "Cc", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_name(value: Any, field: str, label: str) -> str:
    """A name as others will see it: NFKC, no invisible characters, spaces collapsed; refused when empty.

    Two names that look alike are one name: 「東坡」 with a zero-width space, a compatibility ideograph
    (U+F90A for 金) or a Kangxi radical (⼭ for 山) becomes the plain 「東坡」, 「金」, 「山」.

    >>> clean_name("東坡\u200b", "name", "名號"), clean_name("\uf90a\u00a0\u2f2d", "name", "名號")
    ('東坡', '金 山')
    """
    if isinstance(value, str):
        value = unicodedata.normalize("NFKC", value)
        value = "".join(char for char in value if char not in _INVISIBLE
                        and unicodedata.category(char) not in _INVISIBLE_CATEGORIES - {"Cc", "Cs"})
        value = " ".join(value.split())
    return clean_text(value, field, label, required=True)


def clean_flag(value: Any, label: str, default: bool) -> bool:
    """A user's true or false; None means the default."""
    if value is None:
        return default
    if not isinstance(value, bool):
        raise BadInput(f"「{label}」必須是 true 或 false。")
    return value


def clean_seat(seat: Any) -> int:
    """A player's seat number, 1–4 (BadInput otherwise; seat 0 only judges, it has no poem)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= PLAYERS:
        raise BadInput("「seat」必須是座位號（整數 1–4）。")
    return seat


@dataclass(frozen=True)
class RoundSettings:
    """A new round's settings, each checked: what the 詩伯 chose when opening it."""

    title: str
    host_name: str
    host_plays: bool
    penalty: str
    rhyme_book: str  #: a key of RHYME_BOOKS
    composition: str  #: a key of poetry.rules.COMPOSITIONS
    wildcards: int  #: 白板 allowed; always 0 unless the composition is 集字
    cups: dict[str, int] = dataclasses.field(default_factory=lambda: dict(DEFAULT_CUPS))  #: {品: cups}
    minutes: float | None = None  #: the clock; None: no clock
    rhyme_draw: bool = False  #: 韻牌: each seat draws a 平聲 rhyme with the deal


#: Most cups one 品 may drink (a number a table can pour).
MAX_CUPS = 20


def clean_cups(value: Any) -> dict[str, int]:
    """The cups each 品 drinks: {"上品", "中品", "下品", "荒牌": 0–20}; missing 品 take the default.

    >>> clean_cups({"荒牌": 3})
    {'上品': 0, '中品': 0, '下品': 1, '荒牌': 3}
    """
    if value is None:
        return dict(DEFAULT_CUPS)
    if not isinstance(value, dict):
        raise BadInput("「罰酒杯數」（cups）須是物件，例如 {\"下品\": 1, \"荒牌\": 2}。")
    unknown = [key for key in value if key not in GRADES]
    if unknown:
        raise BadInput(f"「罰酒杯數」只能列 上品、中品、下品、荒牌，不認得「{str(unknown[0])[:8]}」。")
    cups = dict(DEFAULT_CUPS)
    for grade, count in value.items():
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_CUPS:
            raise BadInput(f"「{grade}」的罰酒杯數須是 0 到 {MAX_CUPS} 的整數。")
        cups[grade] = count
    return cups


def clean_minutes(value: Any) -> float | None:
    """The clock's minutes: a number above 0 (fractions allowed) up to MAX_MINUTES; None: no clock.

    >>> clean_minutes(7.5), clean_minutes(None)
    (7.5, None)
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise BadInput("「限時」（minutes）須是分鐘數，例如 15 或 7.5；不限時就不填。")
    if not 0 < value <= MAX_MINUTES:
        raise BadInput(f"「限時」須大於 0 分鐘、至多 {MAX_MINUTES} 分鐘。")
    return float(value)


def round_settings(*, title: Any, host_name: Any, host_plays: Any = True, rhyme_book: Any = "pingshui",
                   penalty: Any = "", composition: Any = "rhyme_feet", wildcards: Any = 0,
                   cups: Any = None, minutes: Any = None, rhyme_draw: Any = False) -> RoundSettings:
    """Check what a 詩伯 sent to open a round (BadInput naming the first bad field); None means the default.

    >>> round_settings(title="春日山行", host_name="東坡", wildcards=3).wildcards  # 白板 only in 集字
    0
    >>> round_settings(title="集字", host_name="東坡", composition="jizi", wildcards=3).wildcards
    3
    """
    title = clean_text(title, "title", "牌局標題", required=True)
    host_name = clean_name(host_name, "host_name", "詩伯名號")
    host_plays = clean_flag(host_plays, "詩伯是否抽牌作詩", True)
    penalty = clean_text(penalty, "penalty", "罰則")
    if rhyme_book is None:
        rhyme_book = "pingshui"
    if not isinstance(rhyme_book, str) or rhyme_book not in RHYME_BOOKS:
        raise BadInput("「韻書」只能是 pingshui（平水韻）或 xinyun（中華新韻）。")
    if composition is None:
        composition = "rhyme_feet"
    if not isinstance(composition, str) or composition not in COMPOSITIONS:
        raise BadInput("「作詩規則」只能是 rhyme_feet（韻腳與題目用己牌）或 jizi（集字）。")
    if wildcards is None:
        wildcards = 0
    if isinstance(wildcards, bool) or not isinstance(wildcards, int) or not 0 <= wildcards <= MAX_WILDCARDS:
        raise BadInput(f"「白板（萬用牌）數」須是 0 到 {MAX_WILDCARDS} 的整數。")
    if composition != "jizi":
        wildcards = 0
    return RoundSettings(title, host_name, host_plays, penalty, rhyme_book, composition, wildcards,
                         clean_cups(cups), clean_minutes(minutes), clean_flag(rhyme_draw, "韻牌", False))

"""The rhyme books: 平水韻 (default), 中華新韻 and 中華通韻; for each character its readings, 平/仄, group.

A book answers every character: found directly, through a variant spelling (青 → 靑, 说 → 説), through a
simplified form (发 → 發/髮, readings merged), or, in no book at all, by a guess from modern Mandarin that
the result marks (``CharInfo.guessed``). Usage::

    >>> book = get_rhyme_book()
    >>> book.tone_of("東"), book.tone_of("月"), book.tone_of("看")
    (<Tone.PING: '平'>, <Tone.ZE: '仄'>, <Tone.EITHER: '可平可仄'>)
    >>> book.rhyme_groups_of("青")
    ('下平九靑',)

A 多音字's readings are marked common or rare (``Reading.common``), as learned from the Tang corpus by
scripts/build_rhyme_book.py: 不 is 仄 with a rare 平 reading; 看 is 可平可仄. Tables are parsed once on
first use (``get_rhyme_book`` is cached) and CharInfo objects are built lazily and memoised, so start-up
stays small and a lookup is one dict access. Neither opencc nor pypinyin is imported: Mandarin readings
(the modern books, the guesses) come from the generated data/xinyun*.tsv, pypinyin only for a char
missing from them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum
from functools import cache
from types import MappingProxyType

from poetry.data import data_path
from poetry.errors import UnsupportedFormError
from poetry.text import is_han


class Tone(str, Enum):
    """A character's tone class; the values are what the UI and the JSON show."""

    PING = "平"  #: level tone (平聲)
    ZE = "仄"  #: oblique tones (上 去 入)
    EITHER = "可平可仄"  #: 多音字 whose 平 and 仄 readings are both in real use
    UNKNOWN = "?"  #: in no book and no guess possible


@dataclass(frozen=True)
class Reading:
    """One reading of a character in a rhyme book.

    >>> Reading("上平一東", Tone.PING, "平", True).group
    '上平一東'
    """

    group: str  #: 平水韻 "上平一東" "下平一先" "上聲一董" "去聲一送" "入聲一屋"; 新韻 "一麻" …
    tone: Tone  #: PING or ZE
    sisheng: str  #: "平" "上" "去" "入" (新韻: "陰平" "陽平" "上" "去")
    common: bool  #: False: a rare reading; accepted, but marked for the poet to confirm (自校)


@dataclass(frozen=True)
class CharInfo:
    """Everything a book says about one character."""

    char: str  #: as written
    canonical: str  #: the form found in the book (variant- and script-mapped)
    readings: tuple[Reading, ...]  #: all readings, common first; () when guessed or unknown
    tone: Tone  #: from the common readings (EITHER when they have both tones)
    rare_tones: frozenset[Tone]  #: tones only a rare reading gives
    guessed: bool  #: not in the book: ``tone`` guessed from modern Mandarin (pypinyin), may be wrong

    @property
    def groups(self) -> tuple[str, ...]:
        """Rhyme groups of all readings, common first: 看 → ('上平十四寒', '去聲十五翰')."""
        return tuple(dict.fromkeys(r.group for r in self.readings))


def _tone_from(tones: set[Tone]) -> Tone:
    if Tone.PING in tones and Tone.ZE in tones:
        return Tone.EITHER
    if tones:
        return next(iter(tones))
    return Tone.UNKNOWN


def _mandarin_tone(char: str, data_dir: str | None = None) -> Tone | None:
    """Modern Mandarin tone of a char (陰平/陽平 → 平, 上/去 → 仄), or None. Only for guesses: it reads
    the 新韻 tables, so pypinyin is imported only for chars they lack."""
    info = get_rhyme_book("xinyun", data_dir).lookup(char)
    return None if info.tone is Tone.UNKNOWN else info.tone


class RhymeBook:
    """Common behaviour of the books: memoised lookup over a char → readings table.

    A char missing from the table is looked up through data/variants.tsv (variant and simplified
    spellings), then guessed from Mandarin (``CharInfo.guessed``).

    Subclasses fill ``_table`` (canonical char → readings, common first), ``_variants`` (char → forms to
    look up instead), ``_groups`` (group → chars, most used first) and ``_neighbours``.
    """

    name: str = ""

    def __init__(self) -> None:
        self._table: dict[str, tuple[Reading, ...]] = {}
        self._variants: dict[str, tuple[str, ...]] = {}
        self._variant_groups: dict[str, frozenset[str]] = {}
        self._groups: dict[str, tuple[str, ...]] = {}
        self._neighbours: dict[str, frozenset[str]] = {}
        self._memo: dict[str, CharInfo] = {}
        self._data_dir: str | None = None

    # --- lookup --------------------------------------------------------------------------------
    def lookup(self, char: str) -> CharInfo:
        """All the book knows about one character.

        >>> get_rhyme_book().lookup("留").canonical
        '畱'
        """
        info = self._memo.get(char)
        if info is None:
            info = self._memo[char] = self._resolve(char)
        return info

    def tone_of(self, char: str) -> Tone:
        """平, 仄, 可平可仄 or ? for one character: 東 → 平, 月 → 仄."""
        info = self._memo.get(char)
        if info is None:
            info = self.lookup(char)
        return info.tone

    def rhyme_groups_of(self, char: str, tone: Tone | None = None) -> tuple[str, ...]:
        """The char's rhyme groups, common readings first; only those of ``tone`` if it is 平 or 仄.

        >>> get_rhyme_book().rhyme_groups_of("看", Tone.PING)
        ('上平十四寒',)
        """
        readings = self.lookup(char).readings
        if tone in (Tone.PING, Tone.ZE):
            readings = tuple(r for r in readings if r.tone is tone)
        return tuple(dict.fromkeys(r.group for r in readings))

    def neighbours(self, group: str) -> frozenset[str]:
        """鄰韻 of a group (for 孤雁入群 / 通押), the group itself excluded: 上平一東 → {上平二冬}."""
        return self._neighbours.get(group, frozenset())

    def chars_in_group(self, group: str) -> tuple[str, ...]:
        """The group's characters, most used first, in the spelling poets use (青, not the book's 靑), for
        suggesting fixes; chars whose reading in the group is rare come last. () for an unknown group.

        >>> get_rhyme_book().chars_in_group("下平九靑")[:3]
        ('青', '經', '庭')
        """
        return self._group_index().get(group, ())

    @property
    def groups(self) -> tuple[str, ...]:
        """All group names in book order."""
        return tuple(self._group_index())

    def _group_index(self) -> dict[str, tuple[str, ...]]:
        return self._groups

    def _load_variants(self, data_dir, with_groups: bool) -> None:
        """Variant and simplified spellings from data/variants.tsv; ``with_groups``: honour a row's
        restriction to some 平水韻 groups (併 → 幷, 梗/敬 only)."""
        variants_file = data_path("variants.tsv", data_dir)
        if not variants_file.exists():
            return
        with open(variants_file, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("#") or not line.strip():
                    continue
                # char, kind (book | s2t), forms[, the only groups of the form the char takes]
                char, kind, forms, *only = line.rstrip("\n").split("\t")
                if char in self._variants:
                    continue
                self._variants[char] = tuple(forms.split())
                if only and with_groups:
                    self._variant_groups[char] = frozenset(only[0].split())

    # --- resolution ----------------------------------------------------------------------------
    def _resolve(self, char: str) -> CharInfo:
        readings = self._table.get(char)
        if readings is not None:
            return self._make(char, char, readings)
        forms = self._variants.get(char)
        if forms:
            only = self._variant_groups.get(char)
            merged: list[Reading] = []
            for form in forms:
                for reading in self._table.get(form, ()):
                    if reading not in merged and (not only or reading.group in only):
                        merged.append(reading)
            if only and merged and not any(r.common for r in merged):
                # a spelling read in these groups alone (checked by hand: 並 is 上聲迥 only) whose readings the book
                # form's row ranks rare (幷 is mostly 平): they are this spelling's own, common readings
                merged = [Reading(r.group, r.tone, r.sisheng, True) for r in merged]
            if merged:
                merged.sort(key=lambda r: not r.common)
                return self._make(char, forms[0], tuple(merged))
        return self._guess(char)

    def _make(self, char: str, canonical: str, readings: tuple[Reading, ...]) -> CharInfo:
        common = {r.tone for r in readings if r.common}
        every = {r.tone for r in readings}
        tone = _tone_from(common or every)
        rare = frozenset(every - common) if common else frozenset()
        return CharInfo(char, canonical, readings, tone, rare, False)

    def _guess(self, char: str) -> CharInfo:
        """In no book: the Mandarin tone, marked as a guess (入聲 chars read 平 in Mandarin get it wrong)."""
        guess = _mandarin_tone(char, self._data_dir) if is_han(char) else None
        if guess is None:
            return CharInfo(char, char, (), Tone.UNKNOWN, frozenset(), False)
        return CharInfo(char, char, (), guess, frozenset(), True)


def _parse_readings(field: str, cache_: dict[str, Reading]) -> tuple[Reading, ...]:
    """'上平一東 去聲一送*' → readings; Reading objects are shared between chars."""
    out = []
    for item in field.split():
        reading = cache_.get(item)
        if reading is None:
            group = item.rstrip("*")
            sisheng = "平" if group[1] == "平" else group[0]
            reading = Reading(group, Tone.PING if sisheng == "平" else Tone.ZE, sisheng, not item.endswith("*"))
            cache_[item] = reading
        out.append(reading)
    return tuple(out)


#: 鄰韻 of the 平聲 groups, as the 詩韻 tradition lets a first line borrow them (孤雁入群) and 古體 mix
#: them (通押), after the 詞林正韻 divisions: 東冬; 江陽; 支微齊 with half of 灰; 魚虞; 佳 and 灰 halves;
#: 眞文 with half of 元; the other half of 元 with 寒刪先; 蕭肴豪; half of 佳 with 麻; 庚靑蒸; 覃鹽咸.
#: 歌, 尤 and 侵 stand alone. Each tuple lists mutual neighbours (a half group counts whole).
PINGSHUI_NEIGHBOURS: tuple[tuple[str, ...], ...] = (
    ("上平一東", "上平二冬"),
    ("上平三江", "下平七陽"),
    ("上平四支", "上平五微", "上平八齊", "上平十灰"),
    ("上平六魚", "上平七虞"),
    ("上平九佳", "上平十灰"),
    ("上平十一眞", "上平十二文", "上平十三元"),
    ("上平十三元", "上平十四寒", "上平十五刪", "下平一先"),
    ("下平二蕭", "下平三肴", "下平四豪"),
    ("上平九佳", "下平六麻"),
    ("下平八庚", "下平九靑", "下平十蒸"),
    ("下平十三覃", "下平十四鹽", "下平十五咸"),
)


#: 古體 通押: the rhymes a 古詩 may rhyme together (王力《漢語詩律學》's account of 古風 用韻, as facts): 鄰韻 of one
#: tone, 上聲 and 去聲 together, 入聲 apart (its -t and -k rhymes together, as Tang 古詩 write them). Each class by
#: the rhyme names of its 平水韻 groups (a group may stand in two: 佳 with 灰 and with 麻). A 古詩 may change rhyme
#: (換韻) from one class to another.
ANCIENT_CLASSES: tuple[str, ...] = (
    "東冬", "江陽", "支微齊灰", "魚虞", "佳灰", "佳麻", "眞文元寒刪先", "蕭肴豪", "歌", "庚靑蒸", "尤", "侵", "覃鹽咸",
    "董腫送宋", "講養絳漾", "紙尾薺寘未霽", "語麌御遇", "蟹賄泰卦隊", "軫吻阮旱潸銑震問願翰諫霰", "筱巧皓嘯效號",
    "哿箇", "馬禡", "梗迥敬徑", "有宥", "寢沁", "感儉豏勘艷陷",
    "屋沃", "覺藥", "質物月曷黠屑陌錫職緝", "合葉洽緝",
)


def ancient_classes(group: str) -> frozenset[int]:
    """The 古體 通押 classes (indices of ANCIENT_CLASSES) of a 平水韻 group, by its rhyme name (its last char).

    >>> ancient_classes("上平一東") == ancient_classes("上平二冬")
    True
    >>> ancient_classes("上聲四紙") == ancient_classes("去聲四寘"), ancient_classes("八寒")
    (True, frozenset())
    >>> ancient_classes("下平一先") & ancient_classes("入聲九屑")
    frozenset()
    """
    if not group.startswith(("上平", "下平", "上聲", "去聲", "入聲")):  # another book's group (中華新韻 八寒)
        return frozenset()
    return _ancient_class_map().get(group.rstrip("*")[-1:], frozenset())


@cache
def _ancient_class_map() -> dict[str, frozenset[int]]:
    out: dict[str, set[int]] = {}
    for k, names in enumerate(ANCIENT_CLASSES):
        for name in names:
            out.setdefault(name, set()).add(k)
    return {name: frozenset(ks) for name, ks in out.items()}


def _neighbour_map(sets: tuple[tuple[str, ...], ...]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for members in sets:
        for g in members:
            out.setdefault(g, set()).update(m for m in members if m != g)
    return {g: frozenset(ns) for g, ns in out.items()}


class PingshuiBook(RhymeBook):
    """平水韻, 106 groups (data/pingshui.tsv, variants from data/variants.tsv)."""

    name = "pingshui"

    def __init__(self, data_dir: str | os.PathLike | None = None) -> None:
        super().__init__()
        self._data_dir = data_dir
        readings_cache: dict[str, Reading] = {}
        fields: dict[str, tuple[Reading, ...]] = {}  # ~1,500 distinct reading lists for ~20,000 chars
        self._usual: dict[str, str] = {}
        table = self._table
        with open(data_path("pingshui.tsv", data_dir), encoding="utf-8") as fh:
            for line in fh:
                if line[0] == "#" or not line.strip():
                    continue
                # char, readings[, the spelling the corpus mostly uses: 靑 → 青]
                char, field, *usual = line.rstrip("\n").split("\t")
                readings = fields.get(field)
                if readings is None:
                    readings = fields[field] = _parse_readings(field, readings_cache)
                table[char] = readings
                if usual:
                    self._usual[char] = usual[0]
        self._load_variants(data_dir, with_groups=True)
        self._neighbours = _neighbour_map(PINGSHUI_NEIGHBOURS)
        self._table = MappingProxyType(table)  # type: ignore[assignment]

    def _group_index(self) -> dict[str, tuple[str, ...]]:
        """group → chars in the spelling poets use, most used first, rare readings last (built on first use)."""
        if not self._groups:
            groups: dict[str, list[str]] = {}
            rare_members: dict[str, list[str]] = {}
            for char, readings in self._table.items():  # rows are stored most used first
                shown = self._usual.get(char, char)
                for r in readings:
                    (groups if r.common else rare_members).setdefault(r.group, []).append(shown)
            names = sorted(set(groups) | set(rare_members), key=_group_order)
            self._groups = {g: tuple(groups.get(g, ())) + tuple(rare_members.get(g, ())) for g in names}
        return self._groups


#: The 14 groups of 中華新韻 (中華詩詞學會, 2005) by Mandarin final (ü written v).
XINYUN_FINALS = {
    "一麻": "a ia ua", "二波": "o uo e", "三皆": "ie ve", "四開": "ai uai", "五微": "ei uei",
    "六豪": "ao iao", "七尤": "ou iou", "八寒": "an ian uan van", "九文": "en in uen vn",
    "十唐": "ang iang uang", "十一庚": "eng ing ong iong ueng", "十二齊": "i v er", "十三支": "",
    "十四姑": "u",
}
#: The 16 groups of 中華通韻 (教育部、國家語委, 2019); zhi chi shi ri zi ci si belong to 四衣.
TONGYUN_FINALS = {
    "一啊": "a ia ua", "二喔": "o uo", "三鵝": "e ie ve", "四衣": "i", "五烏": "u", "六迂": "v",
    "七哀": "ai uai", "八欸": "ei uei", "九熬": "ao iao", "十歐": "ou iou", "十一安": "an ian uan van",
    "十二恩": "en in uen vn", "十三昂": "ang iang uang", "十四英": "eng ing ueng", "十五雍": "ong iong",
    "十六兒": "er",
}
_XINYUN_BY_FINAL = {f: g for g, finals in XINYUN_FINALS.items() for f in finals.split()}
_TONGYUN_BY_FINAL = {f: g for g, finals in TONGYUN_FINALS.items() for f in finals.split()}
#: 舌尖元音 syllables: their -i is not the i of 衣/齊.
_APICAL = frozenset(("zhi", "chi", "shi", "ri", "zi", "ci", "si"))
_SISHENG_OF_DIGIT = {"1": "陰平", "2": "陽平", "3": "上", "4": "去", "5": "輕聲"}
_INITIALS = ("zh", "ch", "sh", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "j", "q", "x", "r",
             "z", "c", "s")


def mandarin_final(syllable: str) -> str:
    """Final of a toneless pinyin syllable, ü as v and y/w spelled out: xue → ve, you → iou, gui → uei."""
    if syllable.startswith("y"):
        rest = syllable[1:]
        if rest.startswith("u"):
            return "v" + rest[1:]
        return rest if rest.startswith("i") else "i" + rest
    if syllable.startswith("w"):
        rest = syllable[1:]
        return rest if rest.startswith("u") else "u" + rest
    initial = next((i for i in _INITIALS if syllable.startswith(i)), "")
    final = syllable[len(initial):]
    if initial in ("j", "q", "x") and final.startswith("u"):
        final = "v" + final[1:]
    return {"iu": "iou", "ui": "uei", "un": "uen"}.get(final, final)


def xinyun_group(syllable: str) -> str | None:
    """中華新韻 group of a toneless syllable: zhi … si → 十三支, er → 十二齊, else by final (dong → 十一庚)."""
    if syllable in _APICAL:
        return "十三支"
    return _XINYUN_BY_FINAL.get(mandarin_final(syllable))


def tongyun_group(syllable: str) -> str | None:
    """中華通韻 group of a toneless syllable: zhi … si → 四衣, dong → 十五雍, ju → 六迂."""
    if syllable in _APICAL:
        return "四衣"
    return _TONGYUN_BY_FINAL.get(mandarin_final(syllable))


def mandarin_syllables(char: str) -> tuple[str, ...]:
    """Mandarin readings of a char as 'kan4' tokens (pypinyin, every reading), the usual one first and the
    others ending in '*' (rare), as does a neutral tone: 看 → ('kan4', 'kan1*'). Build-time and last-resort
    helper; the books read the generated tables."""
    from pypinyin import Style, pinyin  # lazily: only for chars the tables lack

    out: list[str] = []
    syllables = pinyin(char, style=Style.TONE3, heteronym=True, neutral_tone_with_five=True, errors=lambda x: [[]])
    for i, syllable in enumerate(syllables[0] if syllables else ()):
        syllable = syllable.replace("ü", "v")
        if syllable[-1:] not in _SISHENG_OF_DIGIT or not syllable[:-1].isalpha():
            continue
        token = syllable + ("*" if i > 0 or syllable.endswith("5") else "")
        if token.rstrip("*") not in (t.rstrip("*") for t in out):
            out.append(token)
    return tuple(out)


#: 十二齊 and 十三支 share the vowel i and may be 通押 in the 新韻.
XINYUN_NEIGHBOURS: tuple[tuple[str, ...], ...] = (("十二齊", "十三支"),)


class XinyunBook(RhymeBook):
    """中華新韻 (default) or 中華通韻: modern Mandarin, 陰平/陽平 → 平, 上/去 → 仄, groups by final.

    Both read data/xinyun.tsv (Mandarin syllables per char) and data/xinyun_extra.tsv (rare chars, read
    on the first miss)::

        >>> get_rhyme_book("xinyun").lookup("東").readings[0].group
        '十一庚'
        >>> get_rhyme_book("tongyun").lookup("東").readings[0].group
        '十五雍'
    """

    def __init__(self, data_dir: str | os.PathLike | None = None, scheme: str = "xinyun") -> None:
        super().__init__()
        self.name = scheme
        self._group_of = xinyun_group if scheme == "xinyun" else tongyun_group
        names = tuple(XINYUN_FINALS if scheme == "xinyun" else TONGYUN_FINALS)
        self._data_dir = data_dir
        self._token_cache: dict[str, Reading | None] = {}
        self._extra: dict[str, str] | None = None
        groups: dict[str, list[str]] = {g: [] for g in names}
        rare_members: dict[str, list[str]] = {}
        with open(data_path("xinyun.tsv", data_dir), encoding="utf-8") as fh:
            for line in fh:
                if line[0] == "#" or not line.strip():
                    continue
                # char, syllables "kan4 kan1*"[, "-": looked up but not listed]
                char, field, *hidden = line.rstrip("\n").split("\t")
                readings = self._parse(field)
                self._table[char] = readings
                if not hidden:
                    for r in readings:
                        (groups if r.common else rare_members).setdefault(r.group, []).append(char)
        self._groups = {g: tuple(groups.get(g, ())) + tuple(rare_members.get(g, ())) for g in names}
        self._load_variants(data_dir, with_groups=False)
        self._neighbours = _neighbour_map(XINYUN_NEIGHBOURS) if scheme == "xinyun" else {}
        self._table = MappingProxyType(self._table)  # type: ignore[assignment]

    def _parse(self, field: str) -> tuple[Reading, ...]:
        """'kan4 kan1*' → readings in this book's groups (syllables it does not class are dropped)."""
        readings = []
        for token in field.split():
            reading = self._token_cache.get(token, False)
            if reading is False:
                syllable = token.rstrip("*")
                group = self._group_of(syllable[:-1])
                digit = syllable[-1]
                reading = None
                if group is not None:
                    tone = Tone.PING if digit in "12" else Tone.ZE
                    reading = Reading(group, tone, _SISHENG_OF_DIGIT[digit], not token.endswith("*"))
                self._token_cache[token] = reading
            if reading is not None and reading not in readings:
                readings.append(reading)
        return tuple(readings)

    def _guess(self, char: str) -> CharInfo:
        """The modern books are Mandarin itself: a rare char is read from data/xinyun_extra.tsv, then pypinyin."""
        if self._extra is None:
            self._extra = {}
            extra_file = data_path("xinyun_extra.tsv", self._data_dir)
            if extra_file.exists():
                with open(extra_file, encoding="utf-8") as fh:
                    for line in fh:
                        if line[0] != "#" and "\t" in line:
                            c, field = line.rstrip("\n").split("\t")[:2]
                            self._extra[c] = field
        field = self._extra.get(char)
        if field is None and is_han(char):
            field = " ".join(mandarin_syllables(char))
        readings = self._parse(field) if field else ()
        if not readings:
            return CharInfo(char, char, (), Tone.UNKNOWN, frozenset(), False)
        return self._make(char, char, tuple(sorted(readings, key=lambda r: not r.common)))


_SISHENG_ORDER = {"上平": 0, "下平": 1, "上聲": 2, "去聲": 3, "入聲": 4}
_NUMERALS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _group_number(name: str) -> int:
    """Chinese numeral prefix of a group name: 二十一箇 → 21, 十五刪 → 15, 三江 → 3."""
    digits = ""
    for ch in name:
        if ch in _NUMERALS or ch == "十":
            digits += ch
        else:
            break
    if "十" in digits:
        tens, _, ones = digits.partition("十")
        return (_NUMERALS.get(tens, 1) if tens else 1) * 10 + (_NUMERALS.get(ones, 0) if ones else 0)
    return _NUMERALS.get(digits, 0)


def _group_order(group: str) -> tuple[int, int]:
    return _SISHENG_ORDER.get(group[:2], 9), _group_number(group[2:])


@cache
def _cached_book(name: str, data_dir: str | None) -> RhymeBook:
    if name == "pingshui":
        return PingshuiBook(data_dir)
    if name in ("xinyun", "tongyun"):
        return XinyunBook(data_dir, scheme=name)
    raise UnsupportedFormError(name)


def get_rhyme_book(name: str = "pingshui", data_dir: str | os.PathLike | None = None) -> RhymeBook:
    """The named rhyme book, built once: "pingshui" (平水韻, default), "xinyun" (中華新韻) or "tongyun"
    (中華通韻); UnsupportedFormError for any other name.

    >>> get_rhyme_book().name
    'pingshui'
    """
    return _cached_book(name, os.fspath(data_dir) if data_dir is not None else None)

"""歲時: a title that names a festival (or an occasion of a life: 哀挽, 祝壽), and the customs and images by which a
poem answers it.

A 詩伯 reads 元日 as 爆竹、屠蘇、桃符, 九日 as 茱萸、黃花、登高, 七夕 as 牛女、鵲橋: a festival poem answers its
title by the day's customs, seldom by writing its name, and a poem of 茱萸 and 黃花 under 中秋 is a 重陽 poem under
another festival's title. data/festivals.json (scripts/build_festivals.py) lists each festival's names and the signs
that Tang verse bears out, with how often the other poems write each (per thousand). A sign at most SPECIFIC there
answers a festival alone; commoner signs (燈 of 上元, 鵲 and 橋 of 七夕) answer it two together. A poem is read as
another festival's only on firmer ground (``_strong``): two of its specific signs that Tang poems of it write.

    >>> fit = festival_fit("元日", ["爆竹聲中一歲除", "春風送暖入屠蘇", "千門萬戶曈曈日", "總把新桃換舊符"])
    >>> fit.festival, fit.answered, fit.signs[:3]
    ('元日', True, ('爆竹', '一歲除', '屠蘇'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, Mapping

from poetry.data import data_path
from poetry.text import to_simplified, words_written

#: A sign that the poems not of the festival write at most this often (per thousand) answers it alone.
SPECIFIC = 1.0
#: 貼題 of a poem that answers its festival by the day's customs: at least the median Tang poem's under its own title
#: (0.754), as a poem answering the occasion of its feeling's title (measures.OCCASION_ANSWERED).
ANSWERED = 0.75
#: 貼題 of a poem that answers another festival by two of its specific signs and its own by none: under the 離題 line
#: (rubric 貼題_floor 0.1).
OTHER = 0.05
#: Festivals of one season, whose poems share their signs (除夕 and 元日 both write 新年 and 守歲; 寒食 and 清明
#: 禁火 and 新火): a sign of one under the other's title is no mistaken festival.
SEASONS = (frozenset({"除夕", "元日", "人日", "上元"}), frozenset({"社日", "寒食", "清明", "上巳"}))


def _season_group(festival: str) -> frozenset[str]:
    """The festivals of ``festival``'s season that share their signs (SEASONS), itself alone otherwise.

    >>> sorted(_season_group("清明")), _season_group("端午")
    (['上巳', '寒食', '清明', '社日'], frozenset({'端午'}))
    """
    return next((s for s in SEASONS if festival in s), frozenset({festival}))


@dataclass(frozen=True)
class FestivalFit:
    """The festival a title names, the signs of it the poem writes (``signs``, in the poem's order) and whether they
    answer it (``answered``); ``other``: another festival the poem answers instead, with its signs."""

    festival: str
    signs: tuple[str, ...] = ()
    answered: bool = False
    other: str = ""
    other_signs: tuple[str, ...] = ()
    named: str = ""  #: the festival as the title writes it (九月九日, 元夕)
    lines: tuple[int, ...] = ()  #: the lines that write a sign of it
    where: str = ""  #: the first line that writes a sign (of the festival, or of the other one)

    def one_subject(self, n_lines: int) -> bool:
        """Whether the festival's customs run through the poem: answered, and written in at least half its lines
        (two at least), so that its lines talk of one thing, the day (元日: 爆竹, 屠蘇, 曈曈日, 新桃換舊符).

        >>> festival_fit("元日", ["爆竹聲中一歲除", "春風送暖入屠蘇"]).one_subject(2)
        True
        """
        return self.answered and len(self.lines) >= max(2, (n_lines + 1) // 2)


@dataclass(frozen=True)
class _Day:
    """One entry of data/festivals.json: its name, the expression of its names in a title (in 简体), its signs, each
    with its 简体 (``simple``), and whether it is an occasion of a life (哀挽, 祝壽: credited only, never read as
    another festival, nor another read in its stead)."""

    name: str
    names: re.Pattern[str]
    signs: Mapping[str, Any]
    occasion: bool


@cache
def _days() -> Mapping[str, _Day]:
    """The festivals and occasions of data/festivals.json by name, festivals first. Titles and poems are matched in
    简体, so that every script and variant form of them (粽 糉, 鬥 鬬, 秋千 鞦韆) reads alike."""
    import json

    with open(data_path("festivals.json"), encoding="utf-8") as fh:
        data = json.load(fh)["festivals"]
    days = {}
    for name, f in data.items():
        ranked = sorted(f["signs"].items(), key=lambda item: -len(item[0]))  # longest first: _signs reads them so
        signs = {sign: dict(info, simple=to_simplified(sign)) for sign, info in ranked}
        names = re.compile(to_simplified("|".join(f["names"])))
        days[name] = _Day(name, names, MappingProxyType(signs), bool(f.get("occasion")))
    return MappingProxyType(days)


def festival_of(title: str | None) -> str:
    """The festival a title names ("" for none): 九日 and 重九 are 重陽, 十九日 is a date.

    >>> festival_of("九月九日憶山東兄弟"), festival_of("京都元夕"), festival_of("十九日"), festival_of("上元夫人")
    ('重陽', '上元', '', '')
    """
    return _named(title)[0]


def _named(title: str | None) -> tuple[str, str]:
    """(the festival a title names, as the title writes it), or ("", "")."""
    simple = to_simplified(title) if title else ""
    for day in _days().values() if title else ():
        if found := day.names.search(simple):
            return day.name, title[found.start():found.end()] if len(simple) == len(title) else found.group()
    return "", ""


def _signs(signs: Mapping[str, Any], text: str) -> tuple[list[str], bool]:
    """The signs written in ``text`` (in 简体; ``signs`` longest first, each place read once) and whether they answer
    the festival."""
    by_simple = {}
    for sign, info in signs.items():  # two forms of one sign (鞦韆, 秋千) read as the first, the longest
        by_simple.setdefault(info["simple"], sign)
    found = [by_simple[simple] for simple in words_written(text, by_simple)]
    return found, any(signs[s]["elsewhere"] <= SPECIFIC for s in found) or len(found) >= 2


def _strong(signs: Mapping[str, Any], found: list[str]) -> bool:
    """Whether ``found`` holds two specific signs that Tang poems of the festival write (not only rare ones
    elsewhere): moon words stand in poems of every festival night, so one 嫦娥 makes no 中秋 poem. A sign one Tang
    poem of the day writes counts (屠蘇 and 曈曈 of 元日, 乞巧 and 天孫 of 七夕); one no Tang poem of it writes (爆竹, a
    Song word; 冰輪 and 廣寒, the moon's on any night) does not: over 7,451 全宋詩 poems under a festival's title the
    rule reads 3 as another festival's, where counting those too read 6 (docs/BENCHMARKS.md, thirteenth session)."""
    return sum(signs[s]["elsewhere"] <= SPECIFIC and signs[s]["poems"] >= 1 for s in found) >= 2


def festival_fit(title: str | None, lines: list[str]) -> FestivalFit | None:
    """How a poem answers the festival its title names (None when the title names none): its signs, and another
    festival (not of the same season) it answers instead when it answers its own by none.

    >>> festival_fit("中秋", ["九日登高望", "茱萸插鬢斜", "黃花滿地開", "遙憶故園家"]).other
    '重陽'
    >>> festival_fit("春望", ["國破山河在"]) is None
    True
    """
    festival, named = _named(title)
    if not festival:
        return None
    simple = [to_simplified(line) for line in lines]
    text = "\n".join(simple)
    days = _days()
    mine, answered = _signs(days[festival].signs, text)
    if mine:
        holding = tuple(i for i, line in enumerate(simple) if _signs(days[festival].signs, line)[0])
        return FestivalFit(festival, tuple(mine), answered, named=named, lines=holding, where=lines[holding[0]])
    if days[festival].occasion:  # an elegy may recall a feast day: only credited
        return FestivalFit(festival, named=named)
    season = _season_group(festival)
    for day in days.values():
        if day.name not in season and not day.occasion:
            theirs, _ = _signs(day.signs, text)
            if _strong(day.signs, theirs):
                where = next(line for line, sl in zip(lines, simple) if _signs(day.signs, sl)[0])
                return FestivalFit(festival, (), False, day.name, tuple(theirs), named, where=where)
    return FestivalFit(festival, named=named)


def festival_relevance(relevance: float, fit: FestivalFit | None) -> float:
    """貼題 with the festival's evidence: raised to ANSWERED when the poem answers the festival its title names,
    lowered to OTHER when it answers another festival instead; as it was otherwise.

    >>> festival_relevance(0.05, festival_fit("元日", ["爆竹聲中一歲除"])), festival_relevance(0.05, None)
    (0.75, 0.05)
    """
    if fit is None:
        return relevance
    if fit.answered:
        return max(relevance, ANSWERED)
    if fit.other:
        return min(relevance, OTHER)
    return relevance


def explain_festival(fit: FestivalFit | None) -> str:
    """What the festival's evidence says, in words ("" when the title names no festival or nothing was found).

    >>> explain_festival(festival_fit("元日", ["爆竹聲中一歲除", "春風送暖入屠蘇"]))
    '題中「元日」，詩寫「爆竹」「一歲除」「屠蘇」（「爆竹聲中一歲除」），皆元日之事；'
    >>> explain_festival(festival_fit("九月九日", ["遙知兄弟登高處", "遍插茱萸少一人"]))
    '題中「九月九日」（重陽），詩寫「登高」「插」「茱萸」（「遙知兄弟登高處」），皆重陽之事；'
    """
    if fit is None:
        return ""
    day = f"「{fit.named}」" + ("" if fit.named == fit.festival else f"（{fit.festival}）")
    if fit.answered:
        every = "皆" if len(fit.signs) > 1 else "是"
        return f"題中{day}，詩寫{_quoted(fit.festival, fit.signs)}（「{fit.where}」），{every}{fit.festival}之事；"
    if fit.other:
        return (f"詩寫{_quoted(fit.other, fit.other_signs)}（「{fit.where}」），是{fit.other}之事，"
                f"與題中{day}不合，似離題。")
    return ""


def _quoted(festival: str, signs: tuple[str, ...]) -> str:
    """The three most telling of a festival's signs (the rarest elsewhere first), each in 「」, in the poem's order."""
    table = _days()[festival].signs
    shown = sorted(signs, key=lambda s: table[s]["elsewhere"])[:3]
    return "".join(f"「{s}」" for s in signs if s in shown)


def explain_one_day(fit: FestivalFit, n_lines: int) -> str:
    """貫理 in words when the festival's customs run through the poem (``FestivalFit.one_subject``).

    >>> lines = ["爆竹聲中一歲除", "春風送暖入屠蘇", "千門萬戶曈曈日", "總把新桃換舊符"]
    >>> explain_one_day(festival_fit("元日", lines), 4)
    '四句皆寫元日之事（「爆竹」「一歲除」「舊符」），一意貫串。'
    """
    from poetry.checker.analysis import cn_numeral

    lines = "皆" if len(fit.lines) == n_lines else f"之中{cn_numeral(len(fit.lines))}句"
    return f"{cn_numeral(n_lines)}句{lines}寫{fit.festival}之事（{_quoted(fit.festival, fit.signs)}），一意貫串。"


#: 節物雜出: a poem under a festival's title that writes the specific customs of at least MIXED_DAYS other festivals
#: (none of its own season: SEASONS), MIXED_SIGNS of them in all, has its facts from several days of the year: 事實雜亂.
#: Of the 20,404 poems of 全唐詩 and 全宋詩 under a festival's (or an occasion's) title none does; six of up to 16 lines
#: write the customs of two other festivals by one sign each (a birthday's 織女 and 姮娥; an elegy's 汨羅 and 團圓):
#: hence four signs (docs/BENCHMARKS.md, twelfth session).
MIXED_DAYS = 2
MIXED_SIGNS = 4


def mixed_days(title: str | None, lines: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The other festivals whose customs a poem under a festival's title writes, with their signs, when they crowd
    it (``MIXED_DAYS`` festivals, ``MIXED_SIGNS`` signs); () otherwise.

    >>> mixed_days("除夕", ["插柳人家掃墓歸", "龍舟競渡水邊飛", "更看中秋明月滿", "家家守歲到天明"])
    (('清明', ('插柳', '掃墓')), ('端午', ('龍舟', '競渡')))
    >>> mixed_days("元日", ["爆竹聲中一歲除", "春風送暖入屠蘇", "千門萬戶曈曈日", "總把新桃換舊符"])
    ()
    """
    festival = festival_of(title)
    if not festival:
        return ()
    own = _season_group(festival)
    text = "\n".join(to_simplified(line) for line in lines)
    found: dict[frozenset[str], tuple[str, tuple[str, ...]]] = {}
    for day in _days().values():
        if day.name in own or day.occasion:
            continue
        signs = tuple(s for s in _signs(day.signs, text)[0] if day.signs[s]["elsewhere"] <= SPECIFIC)
        group = _season_group(day.name)
        if signs and len(signs) > len(found.get(group, ("", ()))[1]):  # a season's festivals share their signs
            found[group] = (day.name, signs)
    days = tuple(found.values())
    return days if len(days) >= MIXED_DAYS and sum(len(s) for _, s in days) >= MIXED_SIGNS else ()


def explain_mixed_days(title: str, days: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    """節物雜出 in words: which other festivals' customs the poem writes under its festival's title.

    >>> explain_mixed_days("除夕", (("清明", ("插柳", "掃墓")), ("端午", ("龍舟", "競渡"))))
    '題為除夕，詩中卻寫「插柳」「掃墓」（清明）、「龍舟」「競渡」（端午），節物雜出，事實雜亂'
    """
    named = "、".join(f"{''.join(f'「{s}」' for s in signs)}（{day}）" for day, signs in days)
    return f"題為{festival_of(title)}，詩中卻寫{named}，節物雜出，事實雜亂"

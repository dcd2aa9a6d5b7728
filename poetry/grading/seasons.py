"""四時: the season a title names by a time word, and the poem that writes the opposite season instead.

A 詩伯 reads 冬夜 as a winter night and 夏日 as a summer day: a poem of 鳴蟬 and 火雲 under 寒夜 is a summer poem
under a winter title, off its title however well its lines hold. data/seasons.json (scripts/build_seasons.py) lists each
season's time words (夏日 初夏 冬夜 殘冬 寒夜 歲暮 …), the stop words beside which a time word is a name's (江夏 宜春
立春), the figures that write one season's thing in another's poem (冰肌 冰壺 鬢雪), and the signs of each season that
Tang verse bears out: each ``telling`` one rare in the opposite season's poems and specific, the others (寒 涼 雪 冰
夏) only shielding a poem of their own season.

A title's season is read only from a time word that is a whole word of its topical part (title_parts.read_title: a
person's or a place's name is not read), only when the title names no festival (festivals.py reads those) and one
season alone. The poem contradicts it (``other``) when it writes none of its season's signs and at least
CONTRADICTED distinct telling signs of the opposite season (summer against winter, spring against autumn: PAIRS),
and its title writes none of the opposite's (初夏連雨作寒 asks for the cold).

    >>> fit = season_fit("寒夜", ["綠樹陰濃夏日長", "鳴蟬聲裏火雲張", "水晶簾動微風起", "滿架薔薇一院香"])
    >>> fit.season, fit.other, fit.other_signs
    ('冬', '夏', ('樹陰', '日長', '鳴蟬', '火雲'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Mapping

from poetry.data import load_json
from poetry.grading.festivals import OTHER, festival_of
from poetry.text import blanked, to_simplified, words_written

# OTHER (festivals.py): 貼題 of a poem that writes the opposite season, as of one that writes another festival: 離題
#: Telling signs of the opposite season a poem must write (and none of its own season's) to contradict its title.
CONTRADICTED = 2
#: The seasons whose titles are read against their opposite's signs: summer against winter, and spring against autumn,
#: which Tang verse allows as safely (no false contradiction in 1,624 poems of a two-fold cross-validation on the
#: build's training split, docs/BENCHMARKS.md "Seasons").
PAIRS = MappingProxyType({"夏": "冬", "冬": "夏", "春": "秋", "秋": "春"})
#: The season in words, for the explanations.
SEASON_NAMES = MappingProxyType({"春": "春日", "夏": "夏日", "秋": "秋日", "冬": "冬日"})


@dataclass(frozen=True)
class SeasonFit:
    """The season a title names (``season``, by the time word ``named``), the signs of it the poem writes (``signs``),
    and the opposite season it writes instead (``other``, by ``other_signs`` in the lines ``where``)."""

    season: str
    named: str
    signs: tuple[str, ...] = ()
    other: str = ""
    other_signs: tuple[str, ...] = ()
    where: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Season:
    """One season of data/seasons.json, in 简体: its time words (one expression), its signs (longest first) and the
    telling ones."""

    name: str
    words: re.Pattern[str]
    signs: tuple[str, ...]
    telling: tuple[str, ...]
    shown: Mapping[str, str]  #: a sign's 简体 → its form in the data (繁)


@cache
def _table() -> tuple[Mapping[str, _Season], frozenset[str], tuple[str, ...]]:
    """(the seasons by name, the stop words, the figures longest first), all in 简体."""
    data = load_json("seasons.json")
    seasons = {}
    for name, s in data["seasons"].items():
        words = sorted((to_simplified(w) for w in s["time_words"]), key=len, reverse=True)
        shown = {to_simplified(sign): sign for sign in s["signs"]}
        signs = tuple(sorted(shown, key=len, reverse=True))
        telling = tuple(sign for sign in signs if s["signs"][shown[sign]]["telling"])
        seasons[name] = _Season(name, re.compile("|".join(words)), signs, telling, MappingProxyType(shown))
    stops = frozenset(to_simplified(w) for w in data["stops"])
    figures = tuple(sorted({to_simplified(f) for f in data["figures"]}, key=len, reverse=True))
    return MappingProxyType(seasons), stops, figures


def season_of(title: str | None) -> tuple[str, str]:
    """(the season a clean title names by a time word of its topical part, the word as the title writes it), or
    ("", "") for none, two seasons, a festival's title, or a time word beside a name (江夏日, 宜春晚, 立春日).

    >>> season_of("冬夜讀書示子聿"), season_of("山家夏日"), season_of("江夏日望"), season_of("立春日")
    (('冬', '冬夜'), ('夏', '夏日'), ('', ''), ('', ''))
    """
    from poetry.grading.title_parts import read_title

    if not title or festival_of(title):
        return "", ""
    topic = read_title(title).topic
    simple = to_simplified(topic)
    seasons, stops, _ = _table()
    whole = to_simplified(title)
    found: dict[str, str] = {}
    for season in seasons.values():
        for m in season.words.finditer(simple):
            if _beside_a_name(whole, m.group(), stops) or _beside_a_name(simple, m.group(), stops):
                continue
            found.setdefault(season.name, topic[m.start():m.end()] if len(simple) == len(topic) else m.group())
    return next(iter(found.items())) if len(found) == 1 else ("", "")


def _beside_a_name(text: str, word: str, stops: frozenset[str]) -> bool:
    """Whether ``word`` stands in ``text`` (简体) only beside or inside a stop word (江夏日, 宜春晚; 陪叔夏夜飲,
    where the topical part lost 叔 to the person), so names no time.

    >>> _beside_a_name("宜春晚望", "春晚", _table()[1]), _beside_a_name("春晚", "春晚", _table()[1])
    (True, False)
    """
    for m in re.finditer(word, text):
        i, j = m.start(), m.end()
        if not {text[max(i - 1, 0):i + 1], text[j - 1:j + 1], text[i:i + 2]} & stops:
            return False
    return True


def season_fit(title: str | None, lines: list[str], pairs: Mapping[str, str] = PAIRS) -> SeasonFit | None:
    """How a poem answers the season its (clean) title names (None when it names none): the signs of it it writes,
    and the opposite season it writes instead when it writes none of its own and CONTRADICTED telling signs of the
    opposite, and the title none of the opposite's (figures of speech, 冰肌 鬢雪, read as no sign); ``pairs``: the
    seasons read against their opposite.

    >>> season_fit("夏日", ["綠樹陰濃夏日長", "樓臺倒影入池塘"]).signs
    ('樹陰', '夏', '日長')
    >>> season_fit("春望", ["國破山河在"]) is None
    True
    """
    season, named = season_of(title)
    if not season:
        return None
    seasons, _, figures = _table()
    simple = [blanked(to_simplified(line), figures) for line in lines]
    text = "\n".join(simple)
    mine = words_written(text, seasons[season].signs)
    opposite = seasons[pairs[season]] if season in pairs else None
    if mine or opposite is None or words_written(blanked(to_simplified(title), figures), opposite.signs):
        shown = seasons[season].shown  # a title that names the opposite's weather (初夏連雨作寒) asks for it
        return SeasonFit(season, named, tuple(shown[s] for s in mine))
    theirs = words_written(text, opposite.telling)
    if len(theirs) < CONTRADICTED:
        return SeasonFit(season, named)
    where = tuple(line for line, sl in zip(lines, simple) if words_written(sl, theirs))
    return SeasonFit(season, named, (), opposite.name, tuple(opposite.shown[s] for s in theirs), where)


def season_relevance(relevance: float, fit: SeasonFit | None) -> float:
    """貼題 with the season's evidence: lowered to OTHER when the poem writes the opposite season instead of its
    title's; as it was otherwise (a season's signs are common: they credit nothing).

    >>> season_relevance(0.6, season_fit("寒夜", ["鳴蟬聲裏火雲張", "避暑南窗竹簟涼"])), season_relevance(0.6, None)
    (0.05, 0.6)
    """
    return min(relevance, OTHER) if fit is not None and fit.other else relevance


def explain_season(fit: SeasonFit | None) -> str:
    """What the season's evidence says, in words ("" unless the poem writes the opposite season instead).

    >>> explain_season(season_fit("寒夜", ["鳴蟬聲裏火雲張", "避暑南窗竹簟涼"]))
    '詩寫「鳴蟬」「火雲」「避暑」（「鳴蟬聲裏火雲張」「避暑南窗竹簟涼」），是夏日之景，與題中「寒夜」（冬日）不合，似離題。'
    """
    if fit is None or not fit.other:
        return ""
    lines = fit.where[:2]  # the lines it points at, and the signs written there
    shown = [s for s in fit.other_signs if any(to_simplified(s) in to_simplified(line) for line in lines)][:3]
    signs = "".join(f"「{s}」" for s in shown)
    quoted = "".join(f"「{line}」" for line in lines)
    return (f"詩寫{signs}（{quoted}），是{SEASON_NAMES[fit.other]}之景，"
            f"與題中「{fit.named}」（{SEASON_NAMES[fit.season]}）不合，似離題。")



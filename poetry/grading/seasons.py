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
#: The season of each festival of festivals.json (歲時), for 四時雜出 under a festival's title.
FESTIVAL_SEASONS = MappingProxyType({"元日": "春", "人日": "春", "上元": "春", "社日": "春", "寒食": "春", "清明": "春",
                                     "上巳": "春", "端午": "夏", "七夕": "秋", "中元": "秋", "中秋": "秋", "重陽": "秋",
                                     "冬至": "冬", "除夕": "冬"})
#: 四時雜出 (事實雜亂): a poem under a season's (or a festival's) title whose body writes the marks of at least this
#: many seasons, the title's opposite among them, and at least MIXED_MARKS marks in all. Under such titles it holds
#: for 2 of 3,274 Tang poems of four to eight lines and none of 450 held-out Song ones (docs/BENCHMARKS.md, thirteenth
#: session): a real poem writes another season's things as memory or contrast, seldom three seasons' at once.
MIXED_SEASONS = 3
MIXED_MARKS = 3
#: All four seasons' marks in a poem of at most this many lines are 四時雜出 whatever its title: none of 43,804 Tang
#: poems of four to eight lines writes them, one of 6,000 held-out Song poems does (楊白花, its 南風 and 北風 winds).
FOUR_SEASONS_LINES = 8


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
    shown: Mapping[str, str]  #: a sign's (or a thing's) 简体 → its form in the data (繁)
    #: the telling signs and the things plainly of the season (物候, 節物: 荷花 知了 白雪), longest first: what
    #: 四時雜出 reads (``mixed_seasons``)
    marks: tuple[str, ...] = ()


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
        things = {to_simplified(thing): thing for thing in s.get("things", ())}
        marks = tuple(sorted(dict.fromkeys(telling + tuple(things)), key=len, reverse=True))  # stable: telling first
        seasons[name] = _Season(name, re.compile("|".join(words)), signs, telling,
                                MappingProxyType({**things, **shown}), marks)
    stops = frozenset(to_simplified(w) for w in data["stops"])
    figures = tuple(sorted({to_simplified(f) for f in data["figures"]}, key=len, reverse=True))
    return MappingProxyType(seasons), stops, figures


def _as_read(lines: list[str]) -> list[str]:
    """The lines as the seasons' signs are read in them: in 简体, the figures of speech blanked (冰肌, 鬢雪)."""
    figures = _table()[2]
    return [blanked(to_simplified(line), figures) for line in lines]


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
    simple = _as_read(lines)
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


def title_season(title: str | None) -> str:
    """The season a title names: by a time word (``season_of``) or by its festival's season (FESTIVAL_SEASONS); "".

    >>> title_season("秋日登山"), title_season("九日登高"), title_season("山行")
    ('秋', '秋', '')
    """
    return season_of(title)[0] or FESTIVAL_SEASONS.get(festival_of(title), "")


def mixed_seasons(title: str | None, lines: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """四時雜出: the seasons other than its title's whose marks (telling signs, and things plainly of a season: 荷花,
    知了, 白雪 read as no sign, a figure) a poem's body writes, with the marks as the data writes them, when the body
    writes MIXED_SEASONS seasons, the title's opposite among them, and MIXED_MARKS marks; or, whatever the title, all
    four seasons in a poem of at most FOUR_SEASONS_LINES lines (no Tang poem of 4–8 lines does); () otherwise.

    >>> mixed_seasons("秋日登山", ["秋日登高到山頂", "桃花朵朵笑春風", "白雪皚皚松樹綠", "汗流浹背熱烘烘"])
    (('春', ('桃花', '春風')), ('夏', ('汗流',)))
    >>> mixed_seasons("春晴", ["北風吹日晝多陰", "日暮擁階黃葉深", "倦鵲繞枝翻凍影", "飛鴻摩月墮孤音"])
    ()
    >>> [name for name, _ in mixed_seasons("郊行", ["春風吹綠柳", "荷葉滿池塘", "落葉隨秋去", "北風雪滿山"])]
    ['春', '夏', '秋', '冬']
    """
    season = title_season(title)
    seasons = _table()[0]
    text = "\n".join(_as_read(lines))
    written = {s.name: found for s in seasons.values() if (found := words_written(text, s.marks))}
    four = len(written) == len(seasons) and len(lines) <= FOUR_SEASONS_LINES
    if not four and (not season or PAIRS[season] not in written or len(written) < MIXED_SEASONS
                     or sum(map(len, written.values())) < MIXED_MARKS):
        return ()
    first = {name: min(text.find(m) for m in marks) for name, marks in written.items()}  # as the poem writes them
    return tuple((name, tuple(seasons[name].shown[m] for m in written[name])) for name in sorted(first, key=first.get)
                 if name != season)


def explain_mixed_seasons(title: str | None, mixed: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    """四時雜出 in words: which other seasons' things the poem writes (under its title's season, if it names one).

    >>> explain_mixed_seasons("夏夜", (("冬", ("風雪",)), ("春", ("桃李",))))
    '題為夏夜（夏日），詩中卻寫「風雪」（冬日）、「桃李」（春日），四時雜出，事實雜亂'
    >>> explain_mixed_seasons("郊行", (("春", ("春風",)), ("夏", ("荷葉",)), ("秋", ("落葉",)), ("冬", ("北風",))))
    '詩中寫「春風」（春日）、「荷葉」（夏日）、「落葉」（秋日）、「北風」（冬日），四時雜出，事實雜亂'
    """
    season = title_season(title)
    seen = "、".join(f"{''.join(f'「{m}」' for m in marks[:3])}（{SEASON_NAMES[name]}）" for name, marks in mixed)
    if not season:
        return f"詩中寫{seen}，四時雜出，事實雜亂"
    named = season_of(title)[1] or festival_of(title)
    return f"題為{named}（{SEASON_NAMES[season]}），詩中卻寫{seen}，四時雜出，事實雜亂"

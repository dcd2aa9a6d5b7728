"""Build data/seasons.json: the season (四時) a title's time words name, and the signs by which a poem writes a season.

    nice python scripts/build_seasons.py [--corpus ../shared/corpus]

A title that names a season by a time word (夏日, 初夏, 冬夜, 殘冬) asks for that season's poem; a poem of 蟬聲 and
荷香 under 冬夜 is a summer poem under a winter title. TIME_WORDS lists, for each season, the words a title names it by
(read only as whole words of the title's topical part, never inside a name: NAME_STOPS, and jieba's place and person
names that hold a season's character, 江夏 宜春 長春 夏侯). SIGNS lists candidate signs of each season in a poem, from
common knowledge of the seasons' images; FIGURES the figures of speech that write one season's things in another's
poem (冰肌 冰壺 雪膚: the coolness of a summer beauty; 鬢雪: white hair), which are read as no sign.

The build keeps a sign only where Tang verse bears it out: among the 全唐詩 training split's poems whose titles name
the season (by a time word, or by the season's character in the topical part: 詠夏, 山中冬; 唐詩三百首 and the
calibration split held out), it must stand in at least MIN_POEMS of them and LIFT times as often as in the poems
under the other seasons' titles. Each kept sign carries its lift, its poems, and its share of each season's poems.
A sign is ``telling`` (it may accuse a poem under the opposite season's title: summer against winter, spring against
autumn) only when it is also rare among the opposite season's poems (at most OPPOSITE_AT_MOST of them) and not broad
(BROAD: 寒, 涼, 雪, the season's own name, which only shield a poem of their season). Tang verse only: Song verse is
evaluation data.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_grading as build  # noqa: E402
import tang_corpus  # noqa: E402

from poetry.text import blanked, to_simplified, words_written  # noqa: E402

OUT = ROOT / "data" / "seasons.json"
#: A sign is kept when at least this many poems under its season's titles write it ...
MIN_POEMS = 2
#: ... and it stands this many times as often in them as in the poems under the other seasons' titles.
LIFT = 3.0
#: A telling sign stands in at most this share of the opposite season's poems.
OPPOSITE_AT_MOST = 0.005
#: The opposite seasons: a poem of one under a title of the other is contradicted.
OPPOSITE = {"春": "秋", "夏": "冬", "秋": "春", "冬": "夏"}

#: The time words a title names a season by (whole words of its topical part).
TIME_WORDS: dict[str, tuple[str, ...]] = {
    "春": tuple("春日 春夜 春晚 春暮 春夕 春曉 春朝 春晴 春雨 春寒 春陰 春宵 春盡 春深 早春 初春 仲春 暮春 "
                "晚春 殘春 孟春 季春 春遊 春江 春山 春景 春興 春思 春水 春色 春光 春野 春郊 春園 春行".split()),
    "夏": tuple("夏日 夏夜 夏晚 夏景 夏初 初夏 首夏 早夏 晚夏 仲夏 孟夏 季夏 長夏 夏意 盛夏 夏雨 夏夕 夏晝 "
                "苦熱 銷夏 消夏 避暑".split()),
    "秋": tuple("秋日 秋夜 秋夕 秋晚 秋暮 秋晨 秋宵 秋曉 秋霽 秋雨 早秋 初秋 新秋 仲秋 晚秋 暮秋 杪秋 秋末 "
                "秋深 孟秋 季秋 秋江 秋山 秋景 秋興 秋思 秋水 秋色 秋光 秋野 秋郊 秋園 秋遊 秋行".split()),
    "冬": tuple("冬日 冬夜 冬夕 冬晚 冬暮 冬末 冬宵 冬曉 初冬 早冬 孟冬 仲冬 季冬 暮冬 殘冬 窮冬 冬杪 冬深 "
                "寒夜 歲暮 歲晚 苦寒 冬景 冬郊 冬行".split()),
}
#: Two characters holding a season's character that make a name or another word, not a time: a time word beside
#: them is not read (江夏日, 宜春晚, 立春日: the first day of spring is winter's weather). With jieba's place and person
#: names (ns, nr) that hold a season's character, added by the build.
NAME_STOPS = tuple("立春 立夏 立秋 立冬 江夏 宜春 壽春 長春 陽春 青春 叔夏 華夏 諸夏 夏侯 先春 庭春 迎春 千秋 中秋 "
                   "春秋 知春 探春 報春 留春 送春 惜春 傷春 尋春 問春 送秋 悲秋 迎秋 九夏 夏口 春申 冬青".split())

#: Candidate signs of each season in a poem's body (a word is read before the characters inside it).
SIGNS: dict[str, tuple[str, ...]] = {
    "夏": tuple("蟬 鳴蟬 蟬聲 新蟬 蟬鳴 荷 荷花 荷葉 荷香 芰荷 新荷 風荷 荷池 荷塘 芙蕖 菡萏 紅蕖 蓮 "
                "採蓮 紅蓮 薰風 南風 炎 炎蒸 炎天 炎熱 炎暑 炎威 炎氛 炎光 炎風 炎炎 暑 暑氣 煩暑 避暑 "
                "盛暑 溽暑 大暑 扇 團扇 紈扇 揮扇 簟 竹簟 石榴 榴花 梅雨 黃梅 梅子 麥 麥秋 蛙 乘涼 "
                "納涼 涼 汗 流汗 葛 葛衣 絺 綠陰 清陰 濃陰 樹陰 瓜 浮瓜 日長 晝長 長夏 午陰 午睡 "
                "火雲 流金 蒸 新竹 筍 夏 熱 苦熱 酷熱 銷夏 夏木 夏雲 夏日 夏夜 夏景 夏晝 長日 蟬噪 "
                "荷風 荷盤 蓮葉 蓮子 蓮房 蜻蜓 螢火 流螢 竹陰 槐陰 柳陰 午風 午夢 蒲扇 紗廚 冰盤".split()),
    "冬": tuple("雪 飛雪 大雪 雪花 積雪 風雪 雪片 雪滿 雪深 雪壓 雪擁 雪夜 對雪 踏雪 朔雪 寒雪 暮雪 密雪 "
                "微雪 夜雪 新雪 急雪 冰 堅冰 層冰 冰凌 冰合 冰封 河冰 池冰 冰澌 凍 霰 朔風 北風 朔吹 "
                "寒 嚴寒 苦寒 祁寒 爐 火爐 圍爐 紅爐 地爐 爐火 擁爐 炭 獸炭 裘 貂裘 狐裘 重裘 臘 "
                "臘月 臘酒 殘臘 寒梅 早梅 梅花 歲暮 歲晚 窮冬 嚴冬 隆冬 三冬 冬 霜 嚴霜 氈 衾 冬日 "
                "冬夜 冬深 冬暖 寒冬 冬寒 殘冬 凍雲 凍雀 凍筆 凍硯 雪後 雪中 雪裏 殘雪 雪晴 雪霽 "
                "暖爐 寒爐 紙帳 綿衾 擁衾".split()),
    "春": tuple("春 春風 春色 花開 柳 楊柳 垂柳 新柳 柳絮 絮 鶯 黃鸝 桃花 杏 杏花 梨花 芳草 東風 "
                "蜂 新綠 花飛 落花 杜鵑 子規 鷓鴣 春光 春水 春草 春山 春雲 春雨 春愁 春心 春眠 春酒 春江 "
                "春禽 春鳥 春花 春晴 春寒 春深 春晚 春暮 春歸 春來 春意 春陰 春物 春日 春夜 春社 新燕 燕子 "
                "鶯啼 鶯聲 百花 桃李 海棠 牡丹 踏青 蝴蝶".split()),
    "秋": tuple("秋 秋風 秋色 秋聲 落葉 黃葉 紅葉 菊 蟋蟀 促織 蛩 砧 搗衣 寒蟬 白露 西風 金風 楓 "
                "搖落 蒹葭 秋月 秋山 秋水 秋光 秋雨 秋霜 秋草 秋蟲 秋江 秋雲 秋氣 秋陰 秋空 秋夜 秋天 秋林 "
                "秋葉 秋思 秋深 秋晚 秋露 秋日 秋來 秋意 秋容 秋興 霜葉 寒螿 鴻雁 雁聲 雁過 蘆花 荻花 桂花 "
                "丹楓 橙黃 稻".split()),
}
#: Things plainly of one season (物候 and 節物, from common knowledge), read only for 四時雜出
#: (poetry.grading.seasons ``mixed_seasons``): a hurried player's snow on a summer night, lotus with snow. Not
#: measured against Tang verse (知了 and 月餅 are modern words); 四時雜出 asks three seasons in one poem, its title's
#: opposite among them, so it is measured instead by how rarely real poems under a season's title do that
#: (docs/BENCHMARKS.md, thirteenth session). A festival's customs are festivals.json's (粽子 龍舟, 爆竹), not here.
THINGS: dict[str, tuple[str, ...]] = {
    "春": tuple("桃花 杏花 梨花 柳絮 燕子 紙鳶 風箏 踏青 插秧 春風 春天 桃李 鶯啼".split()),
    "夏": tuple("荷花 荷葉 知了 鳴蟬 蟬鳴 蟬聲 炎炎 汗流 西瓜 螢火 夏天 夏夜 夏日 酷暑".split()),
    "秋": tuple("菊花 桂花 楓葉 紅葉 落葉 收稻 割稻 稻熟 秋風 秋天 賞菊 丹桂 月餅".split()),
    "冬": tuple("大雪 雪花 飛雪 雪滿 寒梅 梅花 北風 冬天 冬夜 冬日 冰封 風雪 臘月".split()),
}
#: Signs that shield a poem of their season but accuse none: too broad (寒 and 霜 of autumn nights, 涼 of autumn,
#: 熱 of a fever) or a season's own name (夏 in 華夏, 冬 in 冬青), or common as figures (雪 of white hair and waves,
#: 冰 of a summer beauty's skin, 扇 of a door, 葛 a name, 蒸 of 蒸黎).
BROAD = frozenset("寒 霜 涼 熱 夏 冬 春 秋 雪 冰 扇 葛 蒸 爐 衾 裘 臘 炎 荷 蓮 麥 杏 柳 絮 瓜 菊 蟬".split())
#: Figures of speech and names that write a season's thing in another season's poem: read as no sign.
FIGURES = tuple("冰肌 冰膚 雪膚 雪肌 冰壺 玉壺 冰心 冰清 冰紈 冰綃 冰絲 冰蠶 冰簟 冰盤 冰輪 冰魂 冰姿 冰玉 "
                "冰雪 玉雪 雪窖 冰窖 冰井 冰桃 雪藕 鬢雪 雪鬢 雪髮 髮雪 頭雪 雪頭 霜鬢 鬢霜 霜髮 雪浪 浪雪 "
                "如雪 似雪 勝雪 若雪 疑雪 雪白 白雪 香雪 雪山 雪嶺 雪峰 陽春 青春 春秋 千秋 秋千 鞦韆 翠爐 "
                "香爐 丹爐 藥爐 茶爐 金爐 爐香 爐煙 寒暑 炎方 炎州 炎洲 炎荒 炎帝 炎漢 炎劉 炎涼 炎瘴 負荷 "
                "荷鋤 荷戈 荷衣 荷恩 荷擔 荷蓑 荷笠 僧臘 法臘 夏臘 冬青 冬夏 夏冬 蓮花 青蓮 蓮宮 蓮社 蓮座 "
                "金蓮 步蓮 羊裘 扇枕 蟬鬢 蟬翼 蟬冠 貂蟬 寒蟬".split())


def jieba_names() -> tuple[str, ...]:
    """jieba's place and person names (ns, nr) of two characters that hold a season's character, in 繁體."""
    import os

    import jieba
    import opencc

    convert = opencc.OpenCC("s2t")
    path = os.path.join(os.path.dirname(jieba.__file__), "dict.txt")
    out = []
    with open(path, encoding="utf-8") as fh:
        for row in fh:
            word, _, tag = row.split()
            if len(word) == 2 and tag in ("ns", "nr") and any(ch in word for ch in "春夏秋冬"):
                out.append(convert.convert(word))
    return tuple(sorted(set(out)))


def title_pattern() -> dict[str, re.Pattern[str]]:
    """Each season's time words as one expression (in 简体)."""
    return {season: re.compile("|".join(to_simplified(w) for w in words)) for season, words in TIME_WORDS.items()}


def season_of(title: str, patterns: dict[str, re.Pattern[str]], stops: frozenset[str]) -> str:
    """The one season a (simplified) topical part names by a time word (or by its character, with ``patterns`` of
    the characters), "" for none or two."""
    found = set()
    for season, pattern in patterns.items():
        for m in pattern.finditer(title):
            i, j = m.start(), m.end()
            if title[max(i - 1, 0):i + 1] in stops or title[j - 1:j + 1] in stops or title[i:i + 2] in stops:
                continue
            found.add(season)
    return found.pop() if len(found) == 1 else ""


def read_signs(text: str, signs: list[str], figures: tuple[str, ...]) -> list[str]:
    """The signs written in ``text`` (简体), longest first, each place read once; figures blanked first (as
    poetry.grading.seasons reads a poem)."""
    return words_written(blanked(text, figures), signs)


def season_groups(poems: list[dict], indices: list[int], stops: frozenset[str]) -> dict[str, list[str]]:
    """The bodies (in 简体) of the poems at ``indices`` whose titles name one season, by season: by a time word of the
    topical part, or by the season's character there (詠夏, 山中冬: more poems of each season to learn signs from; a
    title of two seasons, 春秋, or a name, 江夏, counts for none)."""
    from poetry.grading.measures import clean_title
    from poetry.grading.title_parts import read_title

    patterns = title_pattern()
    by_char = {season: re.compile(season) for season in TIME_WORDS}
    groups: dict[str, list[str]] = {season: [] for season in TIME_WORDS}
    for i in indices:
        ct = clean_title(poems[i]["title"])
        topic = to_simplified(read_title(ct).asked) if ct else ""
        season = season_of(topic, patterns, stops) or season_of(topic, by_char, stops)
        if season:
            groups[season].append(to_simplified("\n".join(poems[i]["lines"])))
    return groups


def learn_signs(groups: dict[str, list[str]], verbose: bool = True) -> dict[str, dict]:
    """Each season's candidate signs that ``groups`` bear out (MIN_POEMS, LIFT over the other seasons' poems), each
    with its lift, poems, whether it is telling, and its share of each season's poems (per thousand)."""
    figures = tuple(sorted({to_simplified(f) for f in FIGURES}, key=len, reverse=True))
    out = {}
    for season, candidates in SIGNS.items():
        opposite = OPPOSITE[season]
        ranked = sorted(dict.fromkeys(candidates), key=len, reverse=True)
        simple = [to_simplified(s) for s in ranked]
        found = {name: [set(read_signs(body, simple, figures)) for body in bodies] for name, bodies in groups.items()}
        kept, dropped = {}, []
        for sign, s in zip(ranked, simple):
            n = {name: sum(s in f for f in sets) for name, sets in found.items()}
            share = {name: n[name] / max(len(groups[name]), 1) for name in groups}
            n_other = sum(n[name] for name in groups if name != season)
            n_others = sum(len(groups[name]) for name in groups if name != season)
            lift = share[season] / ((n_other + 1) / (n_others + 1))
            if n[season] >= MIN_POEMS and lift >= LIFT:
                telling = sign not in BROAD and share[opposite] <= OPPOSITE_AT_MOST
                kept[sign] = {"lift": round(lift, 1), "poems": n[season], "telling": telling,
                              "shares": {name: round(1000 * v, 1) for name, v in share.items()}}
            else:
                dropped.append(f"{sign} {n[season]}/{len(groups[season])} ×{lift:.1f}")
        out[season] = {"time_words": list(TIME_WORDS[season]), "poems": len(groups[season]), "opposite": opposite,
                       "signs": kept, "things": list(THINGS[season])}
        if verbose:
            print(f"{season}: {len(groups[season])} poems; kept {len(kept)}: "
                  + " ".join(f"{s}{'*' if v['telling'] else ''} ×{v['lift']}" for s, v in kept.items()))
            print(f"    dropped: {'; '.join(dropped) or '-'}")
    return out


def measure_seasons(corpus: Path) -> dict:
    """The seasons with their time words and the signs the Tang training poems bear out."""
    poems = build.load_corpus(corpus)
    anthology = build.load_anthology(corpus)
    train, _ = build.split_corpus(poems, build.heldout_matches(poems, anthology))
    stops = tuple(dict.fromkeys(NAME_STOPS + jieba_names()))
    groups = season_groups(poems, train, frozenset(to_simplified(s) for s in stops))
    return {"stops": list(stops), "figures": list(FIGURES), "seasons": learn_signs(groups)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=tang_corpus.DEFAULT_CORPUS.parent)
    args = parser.parse_args(argv)
    seasons = measure_seasons(args.corpus)
    doc = {"about": f"Seasons (四時) a title names by a time word and the signs of each season in a poem: made by "
                    f"scripts/build_seasons.py on {dt.date.today().isoformat()} from its curated lists, each sign "
                    f"kept where it stands in >= {MIN_POEMS} Tang poems under its season's titles and {LIFT} times "
                    f"as often as in the poems under the opposite season's titles (全唐詩 training split, "
                    f"chinese-poetry, MIT); telling: rare (<= {OPPOSITE_AT_MOST:.1%}) in the opposite season's poems "
                    "and not broad; shares per thousand of each season's poems.",
           **seasons}
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

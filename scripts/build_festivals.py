"""Build data/festivals.json: the festivals (歲時) a title may name, and the customs and images that answer them.

    nice python scripts/build_festivals.py [--corpus ../shared/corpus]

A 詩伯 reads 元日 as 爆竹、屠蘇、桃符, 九日 as 茱萸、黃花、登高, 七夕 as 牛女、鵲橋: a festival poem answers its
title by the day's customs, not by writing its name. FESTIVALS below lists, for each festival, the names titles give
it (元夕 上元 元宵 正月十五夜 …) and candidate signs (its customs, objects and lore, from the common knowledge of the
歲時 tradition; facts, written here for this project). The build keeps a sign only where Tang verse bears it out: in
the bodies of 全唐詩's poems whose titles name the festival (the build's training split: 唐詩三百首 and the
calibration poems held out) it must stand in at least MIN_POEMS of them and LIFT times as often as in the other
poems; or, for the customs Tang verse seldom writes (爆竹 and 桃符 are Song words), it must be rare in the other poems
(at most RARE_ELSEWHERE of them) and not less common in the festival's. A sign that is common elsewhere and no more
common in the festival's poems (月 of 中秋, 蘭 of 上巳) is dropped: it tells nothing. Each kept sign carries its lift
and how often the other poems write it, per thousand; poetry.grading.festivals reads the file. Tang verse only:
Song verse is evaluation data.
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

from poetry.text import to_simplified  # noqa: E402

OUT = ROOT / "data" / "festivals.json"
#: A sign is kept when at least this many poems of the festival write it ...
MIN_POEMS = 2
#: ... and it stands this many times as often in them as in the other poems.
LIFT = 4.0
#: Or it is this rare in the other poems (a share), and not rarer in the festival's.
RARE_ELSEWHERE = 0.001

#: festival → (the names titles give it, regular expressions; the candidate signs, words or characters).
FESTIVALS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "元日": (("元日", "元旦", "正旦", "元正", "新正", "正朝", "歲旦", "歲朝", "正月一日", "新年", "元朔"),
             ("爆竹", "屠蘇", "桃符", "新桃", "舊符", "椒花", "椒觴", "椒盤", "柏酒", "春盤", "五辛", "獻歲", "發歲",
              "新歲", "舊歲", "一歲除", "歲除", "改歲", "新年", "朝賀", "元會", "守歲", "春帖", "門神", "曈曈")),
    "人日": (("人日", "正月七日"), ("人勝", "剪綵", "華勝", "七日", "彩勝", "勝")),
    "上元": (("上元(?!夫人|縣)", "(?<![中下])元夕", "元宵", "(?<![中下])元夜", "燈夕", "正月十五", "十五夜觀燈",
              "觀燈", "燈夜"),
             ("燈", "火樹", "銀花", "金吾", "不禁", "鰲山", "花燈", "蓮炬", "燈火", "三五", "遊人", "玉漏", "星橋",
              "鐵鎖", "蛾兒", "雪柳", "魚龍", "月", "不夜", "陸地蓮", "蓮燈", "燈山", "放燈", "張燈", "看燈", "燈市",
              "春燈", "踏歌", "新年", "千門", "火城", "燈樹", "燈輪", "寶炬")),
    "社日": (("社日", "春社", "秋社"), ("社", "豚", "雞棲", "社酒", "社鼓", "醉人", "桑柘", "賽神")),
    "寒食": (("寒食", "禁火", "禁煙", "一百五日"),
             ("禁火", "禁煙", "新火", "榆", "冷食", "鞦韆", "秋千", "踏青", "清明", "傳蠟燭", "五侯", "寒食",
              "梨花", "插柳", "斷火", "無火", "改火", "餳", "鬥雞")),
    "清明": (("清明",), ("新火", "寒食", "踏青", "掃墓", "上墳", "紙錢", "鞦韆", "秋千", "杏花", "斷魂", "墓", "冢",
                         "榆", "禁火", "祭", "紙灰", "插柳", "梨花")),
    "上巳": (("上巳", "三月三日", "修禊", "禊"), ("禊", "曲水", "流觴", "蘭亭", "祓", "水濱", "麗人", "浮觴",
                                             "羽觴", "蘭", "洛濱", "三月三")),
    "端午": (("端午", "端陽", "重五", "端五", "五月五日", "天中節", "午日"),
             ("龍舟", "競渡", "粽", "角黍", "菖蒲", "蒲", "艾", "屈原", "汨羅", "靈均", "三閭", "湘纍", "續命",
              "五絲", "長命縷", "綵絲", "蒲觴", "榴花", "石榴", "楚", "沅湘", "招魂")),
    "七夕": (("七夕", "乞巧", "七月七日", "牛女"),
             ("牽牛", "織女", "牛女", "河漢", "銀河", "天河", "鵲", "橋", "乞巧", "針", "巧", "雙星", "天孫", "機杼",
              "經年", "星", "渡河", "靈匹", "仙期", "佳期", "銀漢", "天漢", "雲軿")),
    "中元": (("中元", "七月十五", "盂蘭"),
             ("盂蘭", "蘭盆", "地官", "河燈", "目連", "超度", "普度", "薦亡", "燒衣", "冥錢", "鬼節")),
    "中秋": (("中秋", "八月十五", "仲秋夜", "月夕"),
             ("月餅", "桂", "嫦娥", "姮娥", "冰輪", "玉兔", "蟾", "清光", "團圓", "圓", "廣寒", "冰壺", "玉盤", "金波",
              "月", "素娥", "桂魄", "皓魄", "秋半")),
    "重陽": (("重陽", "重九", "(?<![一二三四五六七八十廿])九日", "九月九日", "登高"),
             ("茱萸", "萸", "菊", "黃花", "登高", "落帽", "孟嘉", "龍山", "白衣", "送酒", "陶令", "東籬", "佩萸",
              "戲馬臺", "戲馬", "九日", "重陽", "插", "泛菊")),
    "冬至": (("冬至", "至日", "長至", "日南至", "一陽"),
             ("陽生", "一陽", "添線", "葭灰", "葭", "律管", "吹灰", "日南至", "線", "雲物", "書雲", "短至", "冬至")),
    "除夕": (("除夕", "除夜", "歲除", "守歲", "除日", "歲夜", "大年夜", "歲盡"),
             ("守歲", "舊歲", "新年", "明朝", "爆竹", "辭歲", "故歲", "一夜", "兩年", "屠蘇", "桃符", "椒盤", "迎新",
              "送舊", "年光", "明日", "今宵", "歲華", "守夜", "分歲")),
}


#: 人事: occasions of a life whose titles ask their matter as a festival's do: a mourning (挽詞, 哭X, 悼X) and a
#: birthday (壽X, X生日). Credited only, never read as another's: an elegy may recall a feast, a birthday a loss.
OCCASIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "哀挽": (("挽", "輓", "哭", "悼", "誄"),
             ("泉下", "黃泉", "九泉", "夜臺", "泉臺", "窀穸", "佳城", "薤露", "蒿里", "丹旐", "旐", "銘旌", "幽壤",
              "松楸", "宿草", "白楊", "埋玉", "玉樓", "修文", "騎箕", "人琴", "九原", "遺像", "音容", "長眠", "殯",
              "奠", "歿", "逝", "慟", "墓", "墳", "靈", "柩", "喪", "挽", "輓", "哭", "淚", "泣", "魂")),
    "祝壽": (("生日", "生辰", "初度", "慶壽", "(?<![萬延長福])壽(?![州陽春安寺宮昌山])"),
             ("大椿", "椿", "松鶴", "南山", "彭祖", "千歲", "萬歲", "期頤", "眉壽", "長生", "蟠桃", "壽", "稱觴",
              "介壽", "懸弧", "弧", "初度", "岡陵", "松柏", "八千", "萊衣", "綵衣", "彩衣", "鶴", "籌", "仙", "觴")),
}


def title_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """One expression for a festival's names in a title."""
    return re.compile("|".join(names))


def measure_festivals(corpus: Path) -> dict:
    """The festivals with their names and the signs the Tang training poems bear out, each with its lift and
    the number of the festival's poems that write it."""
    poems = build.load_corpus(corpus)
    anthology = build.load_anthology(corpus)
    train, _ = build.split_corpus(poems, build.heldout_matches(poems, anthology))
    # titles and bodies in 简体, as poetry.grading.festivals matches them (粽 and 糉, 秋千 and 鞦韆 alike)
    bodies = [(to_simplified(poems[i]["title"]), to_simplified("\n".join(poems[i]["lines"]))) for i in train]
    out = {}
    for name, (names, signs) in {**FESTIVALS, **OCCASIONS}.items():
        pattern = title_pattern(tuple(to_simplified(n) for n in names))
        mine = [body for title, body in bodies if pattern.search(title)]
        rest = [body for title, body in bodies if not pattern.search(title)]
        kept, dropped = {}, []
        for sign in dict.fromkeys(signs):
            simple = to_simplified(sign)
            n_mine = sum(simple in body for body in mine)
            n_rest = sum(simple in body for body in rest)
            lift = (n_mine / max(len(mine), 1)) / ((n_rest + 1) / (len(rest) + 1))
            elsewhere = n_rest / max(len(rest), 1)
            attested = n_mine >= MIN_POEMS and lift >= LIFT
            if attested or (elsewhere <= RARE_ELSEWHERE and (n_mine == 0 or lift >= LIFT)):
                kept[sign] = {"lift": round(lift, 1), "poems": n_mine, "elsewhere": round(1000 * elsewhere, 2)}
            else:
                dropped.append(f"{sign} {n_mine}/{len(mine)} ×{lift:.1f} ({1000 * elsewhere:.1f}‰ elsewhere)")
        out[name] = {"names": list(names), "poems": len(mine), "signs": kept, "occasion": name in OCCASIONS}
        ranked = sorted(kept.items(), key=lambda x: -x[1]["lift"])
        print(f"{name}: {len(mine)} poems; kept {len(kept)}: "
              + " ".join(f"{s} ×{v['lift']} {v['elsewhere']}‰" for s, v in ranked))
        print(f"    dropped: {'; '.join(dropped) or '-'}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=tang_corpus.DEFAULT_CORPUS.parent)
    args = parser.parse_args(argv)
    festivals = measure_festivals(args.corpus)
    doc = {"about": f"Festivals (歲時) a title may name and the signs that answer them: made by "
                    f"scripts/build_festivals.py on {dt.date.today().isoformat()} from its curated list, each sign "
                    f"kept where it stands in >= {MIN_POEMS} Tang poems titled with the festival and {LIFT} times "
                    f"as often as in the other poems, or in at most {RARE_ELSEWHERE:.1%} of the other poems "
                    "(全唐詩 training split, chinese-poetry, MIT); lift, poems, elsewhere (per thousand).",
           "festivals": festivals}
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

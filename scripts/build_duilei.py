"""Write data/duilei.tsv: the 對類 table of 聯句切當 (which characters face which in a 對仗 couplet).

    python scripts/build_duilei.py

The classes are those of the 對類 primers (聲律啟蒙, 笠翁對韻: 天文 地理 時令 花木 鳥獸 數目 顏色 方位 人倫
身體 器物 宮室) with three of word kind (形容, 動作, 虛字), listed below by hand from knowledge of classical
verse, not from the corpus nor from any evaluation set. A character may belong to several classes.
``BORROWED`` gives the classes a character fits by another sense or a homophone (借對): 尋 and 常 are
measures (八尺曰尋，倍尋曰常) and face numbers in 酒債尋常行處有／人生七十古來稀; 楊 sounds as 羊 and
faces 雞 in 廚人具雞黍／稚子摘楊梅; 滄 as 蒼 faces 藍 in 滄海／藍田. The output: one character a row,
its classes and its borrowed classes (comma separated), sorted by character, so a rebuild is identical.
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "data" / "duilei.tsv"

CLASSES = {
    "天文": "天日月星辰雲風雨雪霜露虹霞煙霧雷電霄漢斗曦暉光影陰晴氣冰嵐靄",
    "地理": ("山水江河湖海川原野田林峰峯嶺谷溪泉石沙洲渚島岸浦津關城塞郭村郊"
             "徑路橋丘壑澗灘潭池塘堤陂巖崖磯嶽岳土地塵泥波浪濤潮流國州郡邑塞漠"),
    "時令": "春夏秋冬年歲時晨朝暮夕夜晝曉旦宵昏午今古昔節季候朔晚早",
    "花木": ("花草木樹柳松竹梅桃李杏菊蘭荷蓮桂楓梧桐柏楊藤蘿萍蓬苔葉"
             "枝根芳蕊蕙芷萱葵稻禾麥黍桑麻棠荊棘蒲葦蘆荻藻苗芽英薇槐"),
    "鳥獸": ("鳥雁鶴鴻鷗燕鶯鸝鵲鴉烏鳳凰龍虎馬牛羊犬雞魚蟬蝶蜂"
             "猿鹿狐兔蛩螢鷺鵑雉鳩鷹鵬麟龜蛇蠶蟲獸禽蛺蜓蝴駒鱗"),
    "數目": "一二三四五六七八九十百千萬兩雙半幾數獨孤單億",
    "顏色": "紅綠青白黃黑紫碧翠蒼朱丹金銀素玄赤絳彩皓縞緋藍",
    "方位": "東西南北中上下左右前後內外裏間邊頭旁側畔際",
    "人倫": "人君臣父母兄弟子女妻夫客友朋翁叟僧道仙兒孫姬娘郎卿士王侯將相賓主民漁樵童妾",
    "身體": "身心頭首手足眼目眉髮鬢顏面口舌齒骨血淚腸膽腰魂夢",
    "器物": "杯酒琴書劍舟船車帆燈燭鏡扇衣裳冠帶弓箭旗鼓鐘笛簫樽壺筆墨紙硯簾屏枕席棋鞍詩",
    "宮室": "樓臺亭閣堂殿宮室廊院窗門戶牆簷階庭軒廬舍寺屋闕塔",
    "形容": "高深長遠近大小清明暗淡濃寒暖冷熱新舊老少輕重疏密平危殘斜香幽閒靜急緩細微浮孤空",
    "動作": ("來去歸往行飛鳴啼落開生照流看望聞思見入出過登"
             "臨送別愁吟歌舞醉眠坐立臥笑哭泣聽問尋垂湧穿向逐"),
    "虛字": ("不無未莫非勿休猶尚已又亦還更正初方始欲將應須當自空獨"
             "共相皆俱只惟唯但且何誰豈安焉之乎也矣哉而以於與猶似如若"),
}

#: 借對: classes a character fits by another sense or by sound (the instances named in the docstring and
#: the primers' usual ones: 皇 as 黃, 清 as 青, 洪 and 鴻 as 紅, 珠 as 朱).
BORROWED = {
    "尋": "數目", "常": "數目", "楊": "鳥獸", "滄": "顏色", "皇": "顏色", "清": "顏色", "洪": "顏色",
    "珠": "顏色", "鴻": "顏色",
}


def table() -> dict[str, tuple[list[str], list[str]]]:
    """Each character's classes and borrowed classes, in the order of CLASSES."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for name, chars in CLASSES.items():
        for ch in chars:
            out.setdefault(ch, ([], []))[0].append(name)
    for ch, names in BORROWED.items():
        out.setdefault(ch, ([], []))[1].extend(names.split(","))
    return out


def main() -> int:
    rows = ["char\tclasses\tborrowed"]
    for ch, (own, borrowed) in sorted(table().items()):
        rows.append(f"{ch}\t{','.join(dict.fromkeys(own))}\t{','.join(borrowed)}")
    OUT.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"{OUT.name}: {len(rows) - 1} characters")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Build data/grading_diction.tsv: words of modern Chinese foreign to classical verse, and the stock-line level.

    nice -n 10 python scripts/build_diction.py [--corpus ../shared/corpus]

Modern words: every entry of jieba's dictionary (jieba 0.42.1, dict.txt: modern Chinese, with its
frequencies) of one to four Han characters is counted in the lines of 全唐詩's training split (the split the
grading's LMs learn from, 唐詩三百首 and the calibration split held out), both in 简体 (OpenCC t2s of the
canonical forms, as poetry.grading.diction reads a poem). A word's modernity is the log ratio of its share
of jieba's frequencies to its share of the corpus's characters (add-one): log((f + 1) / F) − log((c + 1) / C).
Kept: words of two to four characters with f ≥ ``MIN_WORD_FREQ`` and modernity ≥ ``MIN_MODERN`` (美麗 3.8, 喜愛,
什麼, 每天, 漂亮; below it: 鄉村 2.6 and 滾滾 2.8, which Song and Tang poets wrote, and 四周 3.0, 放鬆 3.3,
一天 3.3, which a longest match finds inside 四周星, 不放鬆, 一天星斗, but also 小孩 3.1), single characters with
f ≥ ``MIN_CHAR_FREQ`` and modernity ≥ ``MIN_MODERN_CHAR`` (很 們 嗎 吧 呢 她 它), and the hand entries of
``HAND_WORDS`` (非常, a modern "very": Tang verse writes it as "unusual" 48 times, which the ratio cannot tell),
less the words of ``CLASSICAL`` (兩個, which 杜甫 wrote).
真, 的 and 了 are not listed: verse writes them often (真成, 的的, 未了), so the ratio does not call them modern.

Stock-line level: the forward trigram LM's mean log10 probability per character of a line (poetry.lm, as
``LineScore.mean``) at its ``STOCK_QUANTILE`` point over the lines of the calibration split, which the LM never
saw: a line the LM predicts better than nine Tang lines in ten is made of the phrases Tang poets used most.

The file: ``# key<TAB>value`` header rows (stock_line_lm), then ``word<TAB>modernity`` rows, 简体, most modern
first. Deterministic (sorted output; no randomness).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_grading as build  # noqa: E402
import numpy as np  # noqa: E402

from poetry.text import is_han, to_simplified  # noqa: E402

OUT = ROOT / "data" / "grading_diction.tsv"
MIN_WORD_FREQ = 300
MIN_MODERN = 3.5
MIN_CHAR_FREQ = 3000
MIN_MODERN_CHAR = 5.0
STOCK_QUANTILE = 0.9
#: Modern words the ratio cannot call modern (their classical homograph is common enough), with a modernity.
HAND_WORDS = {"非常": 3.0}
#: Things of modern life, too rare in jieba's dictionary for the ratio (冰箱 391, 超市 534): listed by hand, each kept
#: only where neither 全唐詩 nor 全宋詩 writes the string at all (checked when the list was made; 空調 and 超市 are
#: left out: 空調瑟, 公超市). A hurried player's 奶茶 or 電梯 is 今語 as surely as 手機. The second row (eleventh
#: session: a modern 七夕's 情人節 and 女友 went unseen) was checked against 全唐詩 and 全宋詞 only: neither writes
#: any of them.
MODERN_THINGS = (
    "冰箱 网购 快递 朋友圈 点赞 加班 假期 商场 奶茶 冰淇淋 巧克力 刷屏 球赛 篮球 足球 减肥 "
    "门票 相机 耳机 电灯 楼房 护士 电扇 冰棍 啤酒 零食 饼干 蛋糕 电脑 电视 汽车 视频 "
    "电话 老板 工资 咖啡 汽水 电梯 机场 车站 高速 手表 钢琴 吉他 电台 报纸 演唱会 景点 "
    "网吧 聊天 短视频 直播 充电 电池 插座 数码 键盘 鼠标 打印 微博 博客 网友 网页 邮件 "
    "披萨 酸奶 果汁 冰镇 牛仔裤 袜子 运动鞋 书包 课本 黑板 操场 教室 体育 比赛 奥运 世界杯 "
    "情人节 女友 男友 女朋友 男朋友 约会 谈恋爱 宝宝 拍照 网红 打卡 外卖 出租车 轮船 帅哥 歌星 粉丝 卡通 钞票").split()
#: Words the ratio calls modern that verse writes (the test of celebrated lines found them): 杜甫's 兩個黃鸝.
CLASSICAL = frozenset({"两个"})


def jieba_words() -> dict[str, int]:
    """jieba's dictionary: word → frequency, for words of 1–4 Han characters."""
    import jieba

    out = {}
    with open(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), encoding="utf-8") as fh:
        for row in fh:
            word, freq, *_ = row.split()
            if 1 <= len(word) <= 4 and all(is_han(ch) for ch in word):
                out[word] = int(freq)
    return out


def modern_words(lines: list[str], words: dict[str, int]) -> list[tuple[str, float]]:
    """(word, modernity) of the words kept (see the module docstring), most modern first."""
    simplified = to_simplified("\n".join(lines)).split("\n")
    counts: Counter = Counter()
    for line in simplified:
        for n in (1, 2, 3, 4):
            for i in range(len(line) - n + 1):
                gram = line[i : i + n]
                if gram in words:
                    counts[gram] += 1
    total_f = sum(words.values())
    total_c = sum(len(x) for x in simplified)
    kept = dict(HAND_WORDS) | dict.fromkeys(MODERN_THINGS, 3.0)
    for word, f in words.items():
        modernity = math.log((f + 1) / total_f) - math.log((counts[word] + 1) / total_c)
        single = len(word) == 1
        if word in CLASSICAL:
            continue
        if f >= (MIN_CHAR_FREQ if single else MIN_WORD_FREQ) and modernity >= (MIN_MODERN_CHAR if single
                                                                              else MIN_MODERN):
            kept[word] = round(modernity, 2)
    return sorted(kept.items(), key=lambda x: (-x[1], x[0]))


def stock_line_level(lines: list[str]) -> float:
    """The STOCK_QUANTILE point of the forward LM's mean log10 P per character over these lines."""
    from poetry.lm import load_lm

    lm = load_lm()
    return float(np.quantile([lm.score_line(x).mean for x in lines if len(x) >= 4], STOCK_QUANTILE))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    args = parser.parse_args(argv)
    corpus = Path(args.corpus)
    poems = build.load_corpus(corpus)
    held = build.heldout_matches(poems, build.load_anthology(corpus))
    train, calib = build.split_corpus(poems, held)
    words = modern_words([x for i in train for x in poems[i]["lines"]], jieba_words())
    level = stock_line_level([x for i in calib for x in poems[i]["lines"]])
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write("# grading_diction.tsv: scripts/build_diction.py (see data/README.md)\n")
        fh.write(f"# stock_line_lm\t{level:.4f}\n")
        for word, modernity in words:
            fh.write(f"{word}\t{modernity:.2f}\n")
    print(f"{len(words)} modern words, stock-line level {level:.4f} → {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Generate data/word_readings.tsv: words whose meaning fixes the 平水韻 reading of a 多音字 in them.

Usage::

    python scripts/build_word_readings.py [--corpus ../shared/corpus/quantangshi.jsonl.gz] [--out data] [--list]

Method (issue 13, part 1):

1. **Mandarin reading of the char inside the word**: pypinyin's phrase dictionary (``pypinyin.phrases_dict``,
   MIT), which lists the words whose reading differs from a char's default, in simplified script. Every
   2–4-char sequence of a Tang line (全唐詩, chinese-poetry, MIT) that holds a char with several 平水韻
   readings is converted to simplified char by char (OpenCC t2s) and looked up. A syllable is taken only
   when the traditional char itself has it (纍 is léi/lěi/lèi; 累累 lěi speaks for 累, so it is kept only
   when the verse agrees).
2. **Mandarin → 平水韻**: the syllable is matched to the char's 平水韻 readings by how Mandarin descends
   from each group: P(final, tone | group), counted over the ~8,000 chars with one 平水韻 reading and one
   Mandarin reading (相 xiàng → 去聲二十三漾, not 下平七陽; 咽 yè → 入聲九屑, not 去聲十七霰). A word is kept
   when one reading takes ≥ 90% of the weight (``DECIDED``). When the weight is split between two groups
   of one tone (重 zhòng: 上聲二腫 or 去聲二宋) the word fixes the tone only: the row says ``tone`` and
   gives the likelier group.
3. **Verified by verse**: in the regular-shape poems of the corpus whose 平仄 pattern the one-tone chars
   decide (build_rhyme_book.strict_slots: positions 2/4/6, line ends), each occurrence of the word (found
   by the same longest match the checker uses, poetry.readings) at a strict slot agrees or contradicts
   the fixed tone; at a rhyme foot, the fixed 平 group agrees with or contradicts the poem's rhyme. A word
   is dropped when its contradictions are ≥ 2 and over ``MAX_CONTRADICTION`` of its uses; and the words
   of a (char, syllable) class that verse contradicts as a whole (看 kàn: Mandarin lost the 平 of 看)
   are dropped unless their own uses agree (``verified``).
4. **Curated verse words** (``CURATED``): the readings the tradition fixes and Mandarin no longer shows
   (秋思 思 去聲, 千騎 騎 去聲, 沈約 沈 上聲, 纍纍 平), each with the sense that fixes it. They override the
   automatic reading of their own char (the word's other chars keep pypinyin's); they are verified the same way
   and reported, and kept unless verse clearly contradicts.
5. **Doubled chars** (疊字): a word AA fixes both chars to one reading.

Output rows: ``word <TAB> fixed positions <TAB> basis <TAB> source <TAB> strict-slot uses agree/contradict``;
fixed positions are ``index:group`` (0-based) separated by spaces.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the poetry package
sys.path.insert(0, str(ROOT / "scripts"))  # build_rhyme_book, for the corpus reader and the strict slots

from build_rhyme_book import DEFAULT_CORPUS, read_corpus, regular_lines, strict_slots  # noqa: E402

from poetry.prosody import get_rhyme_book, mandarin_final  # noqa: E402
from poetry.readings import longest_match, word_index  # noqa: E402
from poetry.text import HAN_CLASS  # noqa: E402

DATA = ROOT / "data"
HAN_RUN_RE = re.compile(f"[{HAN_CLASS}]+")

#: A mapped reading must carry this share of the weight among the char's readings (of its tone, for a
#: tone-only decision).
DECIDED = 0.9
#: A word whose strict-slot uses contradict its reading this often (and at least twice) is dropped.
MAX_CONTRADICTION = 0.1
#: A (char, syllable) class is doubtful when verse contradicts it this often over all its words.
MAX_CLASS_CONTRADICTION = 0.2


@dataclass(frozen=True)
class Curated:
    """A verse word whose sense fixes one char's reading (both chars of a doubled word)."""

    word: str
    index: int  #: 0-based position of the fixed char
    group: str  #: 平水韻 group of the reading
    sense: str  #: why: the sense that fixes it


def _words(index: int, char: str, group: str, others: str, sense: str) -> tuple[Curated, ...]:
    """One Curated per word made of ``char`` and each of ``others``: ``char`` at ``index`` (0: char first)."""
    return tuple(Curated(char + o if index == 0 else o + char, index, group, sense) for o in others)


#: Verse words, each with the sense that decides the reading (廣韻 / 平水韻 glosses).
CURATED: tuple[Curated, ...] = (
    Curated("宰相", 1, "去聲二十三漾", "相 xiàng, the minister (息亮切)"),
    Curated("丞相", 1, "去聲二十三漾", "相 the chief minister"),
    Curated("將相", 1, "去聲二十三漾", "將相 generals and ministers: 相 the minister"),
    Curated("將相", 0, "去聲二十三漾", "將 jiàng, the general (子亮切)"),
    Curated("相國", 0, "去聲二十三漾", "相國 the chancellor"),
    Curated("相思", 0, "下平七陽", "相 xiāng, mutual (息良切)"),
    Curated("長安", 0, "下平七陽", "長 cháng, long (直良切), the capital's name"),
    Curated("長大", 0, "上聲二十二養", "長 zhǎng, to grow up (知丈切)"),
    Curated("生長", 1, "上聲二十二養", "長 zhǎng, to grow"),
    # 中酒 (中 zhòng, drunk, 陟仲切) is left out: Tang verse sets it at 平 places (氣味如中酒, 林花落處頻中酒);
    # it was dropped as contradicted until the X中 words below took 杯中酒-like lines from it
    Curated("中的", 0, "去聲一送", "中 zhòng, to hit the target"),
    Curated("杯中", 1, "上平一東", "中 zhōng, in the cup (杯中酒: 杯中 + 酒, not 中酒)"),
    Curated("樽中", 1, "上平一東", "中 zhōng, in the wine vessel"),
    Curated("尊中", 1, "上平一東", "中 zhōng, in the wine vessel"),
    Curated("壺中", 1, "上平一東", "中 zhōng, in the pot"),
    Curated("中間", 0, "上平一東", "中 zhōng, the middle (陟弓切)"),
    Curated("中間", 1, "上平十五刪", "間 jiān, between (古閑切)"),
    Curated("間隔", 0, "去聲十六諫", "間 jiàn, to separate (古莧切)"),
    Curated("離間", 1, "去聲十六諫", "間 jiàn, to sow discord"),
    Curated("德行", 1, "去聲二十四敬", "行 xìng, conduct (下孟切)"),
    Curated("雁行", 1, "下平七陽", "行 háng, a file of geese (胡郎切)"),
    Curated("重陽", 0, "上平二冬", "重 chóng, double (直容切): the ninth of the ninth"),
    Curated("輕重", 1, "上聲二腫", "重 zhòng, heavy (直隴切)"),
    Curated("幾重", 1, "上平二冬", "重 chóng, how many layers (直容切): a count of layers, not 輕重"),
    Curated("千重", 1, "上平二冬", "重 chóng, a thousand layers (直容切): a count of layers, not 輕重"),
    Curated("萬重", 1, "上平二冬", "重 chóng, ten thousand layers (直容切): a count of layers, not 輕重"),
    Curated("數重", 1, "上平二冬", "重 chóng, several layers (直容切): a count of layers, not 輕重"),
    Curated("百重", 1, "上平二冬", "重 chóng, a hundred layers (直容切): a count of layers, not 輕重"),
    Curated("兩重", 1, "上平二冬", "重 chóng, two layers (直容切): a count of layers, not 輕重"),
    Curated("洞庭", 1, "下平九靑", "庭 tíng, the lake 洞庭 (特丁切); the 去聲 is 逕庭 only"),
    Curated("沈約", 0, "上聲二十六寢", "沈 shěn, the surname (式任切): 沈約"),
    Curated("沈郎", 0, "上聲二十六寢", "沈郎, 沈約: the surname"),
    Curated("沈侯", 0, "上聲二十六寢", "沈侯, 沈約: the surname"),
    Curated("沈宋", 0, "上聲二十六寢", "沈宋, 沈佺期 and 宋之問: the surname"),
    Curated("典當", 1, "去聲二十三漾", "當 dàng, to pawn (丁浪切)"),
    Curated("的當", 1, "去聲二十三漾", "當 dàng, proper, fitting"),
    Curated("纍纍", 0, "上平四支", "纍 léi, in strings, one after another (力追切)"),
    Curated("累累", 0, "上平四支", "累累 written for 纍纍, in strings"),
    Curated("嗚咽", 1, "入聲九屑", "咽 yè, to sob (烏結切)"),
    Curated("哽咽", 1, "入聲九屑", "咽 yè, to choke with sobs"),
    Curated("咽喉", 0, "下平一先", "咽 yān, the throat (烏前切)"),
    Curated("秋思", 1, "去聲四寘", "思 sì, the noun: thoughts, longing (相吏切)"),
    Curated("鄉思", 1, "去聲四寘", "思 sì, thoughts of home"),
    Curated("旅思", 1, "去聲四寘", "思 sì, a traveller's thoughts"),
    Curated("歸思", 1, "去聲四寘", "思 sì, thoughts of return"),
    Curated("千騎", 1, "去聲四寘", "騎 jì, horsemen (奇寄切)"),
    Curated("萬騎", 1, "去聲四寘", "騎 jì, horsemen"),
    Curated("鐵騎", 1, "去聲四寘", "騎 jì, armoured horsemen"),
    Curated("車騎", 1, "去聲四寘", "騎 jì, chariots and horsemen"),
    Curated("驃騎", 1, "去聲四寘", "騎 jì, the 驃騎 general"),
    Curated("騎馬", 0, "上平四支", "騎 qí, to ride (渠羈切)"),
    Curated("不勝", 1, "下平十蒸", "勝 shēng, to bear (識蒸切)"),
    Curated("勝地", 0, "去聲二十五徑", "勝 shèng, fine, famous (詩證切)"),
    Curated("名勝", 1, "去聲二十五徑", "勝 shèng, a famous sight"),
    Curated("千乘", 1, "去聲二十五徑", "乘 shèng, chariots (實證切)"),
    Curated("萬乘", 1, "去聲二十五徑", "乘 shèng, ten thousand chariots: the emperor"),
    Curated("乘興", 1, "去聲二十五徑", "興 xìng, the mood (許應切)"),
    Curated("逸興", 1, "去聲二十五徑", "興 xìng, lofty mood"),
    Curated("詩興", 1, "去聲二十五徑", "興 xìng, the mood for verse"),
    Curated("興亡", 0, "下平十蒸", "興 xīng, to rise (虛陵切)"),
    Curated("燕山", 0, "下平一先", "燕 yān, the state and its hills (烏前切)"),
    Curated("燕趙", 0, "下平一先", "燕 yān, the state"),
    Curated("燕然", 0, "下平一先", "燕 yān, 燕然山"),
    Curated("燕子", 0, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("華山", 0, "去聲二十二禡", "華 huà, the mountain (胡化切)"),
    Curated("九華", 1, "下平六麻", "華 huá, flowers: 九華山 (not 華山)"),
    Curated("法華", 1, "下平六麻", "華 huá, the Lotus (法華經, 法華山)"),
    Curated("金華", 1, "下平六麻", "華 huá, 金華 the town and its hills"),
    Curated("太華", 1, "去聲二十二禡", "華 huà, 太華山"),
    Curated("道觀", 1, "去聲十五翰", "觀 guàn, a Taoist temple (古玩切)"),
    Curated("冠軍", 0, "去聲十五翰", "冠 guàn, first among (古玩切)"),
    Curated("弱冠", 1, "去聲十五翰", "冠 guàn, to be capped at twenty"),
    Curated("患難", 1, "去聲十五翰", "難 nàn, calamity (奴案切)"),
    Curated("國難", 1, "去聲十五翰", "難 nàn, the country's calamity"),
    Curated("少年", 0, "去聲十八嘯", "少 shào, young (失照切)"),
    Curated("年少", 1, "去聲十八嘯", "少 shào, young"),
    Curated("宮禁", 1, "去聲二十七沁", "禁 jìn, the forbidden palace (居蔭切)"),
    Curated("不禁", 1, "下平十二侵", "禁 jīn, to bear (居吟切)"),
    Curated("五更", 1, "下平八庚", "更 gēng, a night watch (古行切)"),
    Curated("三更", 1, "下平八庚", "更 gēng, a night watch"),
    Curated("二更", 1, "下平八庚", "更 gēng, a night watch"),
    Curated("四更", 1, "下平八庚", "更 gēng, a night watch (城月四更上: not 更上)"),
    # 更 gèng, the adverb "still more, again" (居孟切), before the verbs, modals and negations it governs
    # (更上一層樓) and the adjectives it raises (更細看); not before the states of a night watch (更深, 更長, 更闌,
    # 更殘, 更遲, 更寒, 更遠, 更急, 更切, 更閑, 更近: 報更遲, 聞更遠, 持更切 are the watch, gēng) nor 新 生 (to renew)
    *(Curated("更" + c, 0, "去聲二十四敬", "更 gèng, still more, again (居孟切)")
      for c in "無不有欲須將待把覺是能堪應莫可添憐聞似如在得教遣作上"
               "多清香明高哀青鮮愁紅悲頻輕微奇濃稀狂堅傷遙幽圓細好苦難白綠黃寬低孤空眞親妍歡迷繁"),
    Curated("縣令", 1, "去聲二十四敬", "令 lìng, the magistrate (力政切)"),
    Curated("教坊", 0, "去聲十九效", "教 jiào, the court music school (古孝切)"),
    Curated("曲調", 1, "去聲十八嘯", "調 diào, a tune (徒弔切)"),
    Curated("名分", 1, "去聲十三問", "分 fèn, one's lot (扶問切)"),
    # songcases13 (tests/data/prosody_cases_song.json): words whose sense the fit to the pattern read the
    # other way (孤騎盡日橫, 忙趁歸燕, 兒童林中, 忙趁風教)
    Curated("孤騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("一騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("胡騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("輕騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("歸騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("飛騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("征騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("戎騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("驍騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("游騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("遊騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("數騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("百騎", 1, "去聲四寘", "騎 jì, a horseman, horsemen (奇寄切)"),
    Curated("歸燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("雙燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("新燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("春燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("社燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("紫燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("鶯燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("巢燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("語燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("來燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("秋燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("梁燕", 1, "去聲十七霰", "燕 yàn, the swallow (於甸切)"),
    Curated("燕語", 0, "去聲十七霰", "燕 yàn, the swallow"),
    Curated("燕泥", 0, "去聲十七霰", "燕 yàn, the swallow"),
    Curated("燕巢", 0, "去聲十七霰", "燕 yàn, the swallow"),
    Curated("幽燕", 1, "下平一先", "燕 yān, the land of 燕 (烏前切)"),
    Curated("燕臺", 0, "下平一先", "燕 yān, the state of 燕"),
    Curated("燕歌", 0, "下平一先", "燕 yān, the state of 燕"),
    Curated("燕市", 0, "下平一先", "燕 yān, the state of 燕"),
    Curated("燕昭", 0, "下平一先", "燕 yān, the state of 燕"),
    Curated("林中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("山中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("雲中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("城中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("宮中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("江中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("舟中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("夢中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("鏡中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("雨中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("風中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("花中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("園中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("庭中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("樓中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("閨中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("軍中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("朝中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("客中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("病中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("醉中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("此中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("眼中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("手中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("囊中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("池中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("湖中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("谷中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("溪中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("水中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("煙中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("塵中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("海中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("竹中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("洞中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("殿中", 1, "上平一東", "中 zhōng, in, within (陟弓切)"),
    Curated("射中", 1, "去聲一送", "中 zhòng, to hit (陟仲切)"),
    Curated("中箭", 0, "去聲一送", "中 zhòng, to be hit by an arrow"),
    Curated("風教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("聲教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("政教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("禮教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("名教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("文教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("德教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("遺教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("垂教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("設教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("儒教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("釋教", 1, "去聲十九效", "教 jiào, teaching, instruction (古孝切)"),
    Curated("教化", 0, "去聲十九效", "教 jiào, to teach and transform"),

    # found by scripts/bench_song_checker.py over 全宋詩 (evaluation only), each checked against the glosses:
    Curated("尚書", 0, "下平七陽", "尚 cháng, the office (《廣韻》市羊切: 尚書官名)"),
    Curated("挑燈", 0, "下平二蕭", "挑 tiāo, to trim the wick (吐彫切), not tiǎo 挑撥"),
    Curated("跳梁", 0, "下平二蕭", "跳 tiáo, to leap about (徒聊切)"),
    Curated("夭矯", 0, "上聲十七筱", "夭 yǎo, 夭矯 writhing (於兆切)"),
    Curated("彷彿", 0, "上聲二十二養", "彷 fǎng, 彷彿 = 髣髴 (妃兩切), not páng 彷徨"),
    Curated("自便", 1, "下平一先", "便 pián, at one's ease (房連切: 安也)"),
    Curated("青蛇", 1, "下平六麻", "蛇 shé, the snake (食遮切)"),
    Curated("白蛇", 1, "下平六麻", "蛇 shé, the snake"),
    Curated("沈休文", 0, "上聲二十六寢", "沈休文, 沈約: the surname"),
    Curated("沈東陽", 0, "上聲二十六寢", "沈東陽, 沈約 as 東陽太守: the surname"),
    Curated("沈吳興", 0, "上聲二十六寢", "沈 of 吳興 (吳興沈氏): the surname"),
    Curated("沈吳興", 2, "下平十蒸", "吳興 the town (虛陵切)"),
    Curated("稽首", 0, "上聲八薺", "稽 qǐ, 稽首 to bow to the ground (康禮切)"),
    Curated("稽首", 1, "上聲二十五有", "首 shǒu, the head"),
    Curated("長物", 0, "去聲二十三漾", "長 zhàng, what is left over (直亮切): 身無長物"),
    # not 言行 (words and deeds, or 言行 to speak of leaving) nor 三號 (three cries, or 三號火 signal fires): a line's
    # sense, not the word's
    Curated("孝行", 1, "去聲二十四敬", "行 xìng, filial conduct (下孟切), as 德行"),
    Curated("長號", 0, "下平七陽", "長 cháng, long"),
    Curated("長號", 1, "下平四豪", "號 háo, a long wail (胡刀切)"),
    Curated("泡影", 0, "下平三肴", "泡 pāo, a bubble (匹交切: 浮漚)"),
    Curated("水泡", 1, "下平三肴", "泡 pāo, a bubble on the water"),

    # poly13c: the 多音字 the planted tone flips and a scan of Tang strict slots found read by fit, where the word
    # fixes the sense and the sense the reading (廣韻 / 平水韻; data/README.md "word_readings.tsv"). Left by fit:
    # 看 (看花 平 and 仄 alike), 醒 忘 聽 過 (one sense, two tones), 更 before a night watch's states, 相應 不應.
    *_words(0, "那", "下平五歌", "堪", "那 nuó, how (諾何切: 何也): 那堪 how can one bear"),
    *_words(1, "那", "去聲二十一箇", "無不爭", "那 nuò, 無那 = 無奈 (奴箇切)"),
    *_words(1, "將", "去聲二十三漾", "上漢諸胡虜戰裨邊", "將 jiàng, a general (子亮切)"),
    # not 將旗: 誰能將旗鼓 (將 平, to wield); 大將旗 上將旗 have their own words
    *_words(0, "將", "去聲二十三漾", "壇", "將 jiàng, the general's altar (子亮切)"),
    # 上將軍 漢將軍: 將軍 as everywhere (將 平), not 上將 + 軍
    *(Curated(c + "將軍", 1, "下平七陽", "將軍 jiāngjūn, as the word alone (即良切)") for c in "上漢諸胡虜戰裨邊"),
    *_words(1, "將", "下平七陽", "還莫欲唯相且空願誰曾已只却難自獨好休猶肯便那擬若",
            "將 jiāng, to take, to hold; about to (即良切)"),
    *_words(1, "稱", "去聲二十五徑", "偏雅", "稱 chèn, to fit, to suit (昌孕切)"),
    *_words(0, "稱", "去聲二十五徑", "意情", "稱 chèn, as one wishes (昌孕切)"),
    *_words(0, "稱", "下平十蒸", "觴臣賀歎美慶壽", "稱 chēng, to name, to praise, to raise (處陵切)"),
    *_words(1, "教", "下平三肴", "莫若須天爭却忍從免難肯欲長虛能直那但放寧更",
            "教 jiāo, to make, to let (古肴切: 令也, 使也)"),
    *_words(1, "論", "去聲十四願", "清經雅高", "論 lùn, a discourse, an opinion (盧困切)"),
    *_words(1, "騎", "去聲四寘", "驛虜羽獵後候軒別從導單", "騎 jì, a horseman, horsemen (奇寄切)"),
    *_words(0, "騎", "上平四支", "鶴牛驢鯨龍虎", "騎 qí, to ride (渠羈切)"),
    *_words(1, "勝", "去聲二十五徑", "決戰形選逐戴殊幽", "勝 shèng, victory, fine (詩證切)"),
    *_words(0, "勝", "去聲二十五徑", "遊因事概景境賞會", "勝 shèng, fine, famous (詩證切)"),
    *_words(1, "勝", "下平十蒸", "難", "勝 shēng, to bear (識蒸切)"),
    *_words(1, "禁", "去聲二十七沁", "紫中出清丹入仙", "禁 jìn, the forbidden palace (居蔭切)"),
    *_words(0, "禁", "去聲二十七沁", "城林中闈營苑掖門庭火煙", "禁 jìn, the palace; forbidden (居蔭切)"),
    *_words(1, "禁", "下平十二侵", "爭難那誰", "禁 jīn, to bear (居吟切)"),
    *_words(0, "應", "下平十蒸", "知是無難", "應 yīng, should, must be (於陵切: 當也)"),
    *_words(1, "興", "去聲二十五徑", "秋清野歸幽飲晚客佳發入遠雅高",
            "興 xìng, the mood (許應切)"),
    *_words(1, "興", "下平十蒸", "吳廢晨寢夙復", "興 xīng, to rise; 吳興 the town (虛陵切)"),
    *_words(1, "令", "去聲二十四敬", "陶荀江軍遺號法", "令 lìng, the magistrate, a command (力政切)"),
    *_words(0, "令", "去聲二十四敬", "名威節", "令 lìng, good; 丁令威 (力政切)"),
    *_words(1, "令", "下平八庚", "莫空但須遂還欲因翻縱", "令 líng, to make, to let (呂貞切: 使也)"),
    *_words(1, "思", "去聲四寘", "詩情屬藻野", "思 sì, the noun: thoughts, longing (相吏切)"),
    *_words(1, "思", "上平四支", "因却不常每翻沉", "思 sī, to think of (息茲切)"),
    *_words(0, "思", "上平四支", "歸鄉家君舊", "思 sī, to think of (息茲切)"),
    *_words(1, "量", "下平七陽", "可難", "量 liáng, to measure (呂張切)"),
    *_words(1, "難", "去聲十五翰", "危", "難 nàn, calamity (奴案切)"),
    *_words(0, "調", "下平二蕭", "琴弦絃", "調 tiáo, to tune (徒聊切: 和也)"),
    *_words(0, "傳", "下平一先", "觴杯語聲呼", "傳 chuán, to pass on (直攣切)"),
    *_words(1, "相", "去聲二十三漾", "賢亞卿漢副伍", "相 xiàng, a minister (息亮切)"),
    *_words(0, "相", "下平七陽", "如", "相 xiāng: 司馬相如 (息良切)"),
    *_words(1, "從", "去聲二宋", "侍", "從 zòng, an attendant, a retinue (疾用切)"),
    *_words(0, "從", "去聲二宋", "臣", "從 zòng, an attendant official (疾用切)"),
    *_words(1, "觀", "去聲十五翰", "仙古宮", "觀 guàn, a tower, a Taoist temple (古玩切)"),
    *_words(1, "觀", "上平十四寒", "仰", "觀 guān, to look (古丸切)"),
    *_words(0, "重", "上平二冬", "城關", "重 chóng, layered (直容切): the city's walls, the passes"),
    *_words(0, "長", "上聲二十二養", "卿", "長 zhǎng: 司馬長卿 (知丈切)"),
    *_words(1, "分", "去聲十三問", "投", "分 fèn, one's lot (扶問切)"),
    *_words(1, "便", "去聲十七霰", "風", "便 biàn, a fair wind (婢面切)"),
    *_words(1, "便", "去聲十七霰", "莫", "便 biàn, then, at once (婢面切)"),
)
#: pypinyin words whose sense the word alone does not decide, left to the book: 殷殷 yǐn the rumble of thunder or
#: a bell (於謹切, 上聲: 殷殷雷, 殷殷疏鐘) and yīn earnest (平).
UNDECIDED_WORDS = frozenset({"殷殷"})
#: Chars whose readings share their sense (車 chē 尺遮切 in 麻, jū 九魚切 in 魚: both the carriage, both rhymed),
#: so Mandarin's split (車 jū for the chess piece) fixes nothing in verse: pypinyin's words do not fix them.
SAME_SENSE = frozenset("車")
#: (char, syllable) classes whose Mandarin syllable maps to a reading verse hardly uses (too few Tang uses for
#: ``class_contradiction`` to see it; Song verse met them, docs/BENCHMARKS.md "The checker over 全宋詩"):
#: 跳 tiào → 去聲 嘯, while verse reads 跳 徒聊切 平 (跳梁, 跳丸); 蛇 shé → 歌, while the snake is 食遮切 麻;
#: 饑 jī cannot tell 支 (hunger, 《集韻》 as 飢) from 微 (famine).
DOUBTFUL_CLASSES = frozenset({("跳", "tiao4"), ("蛇", "she2"), ("饑", "ji1")})
#: (char, syllable) classes judged contradicted whatever their remaining words' record: 思 sī, whose contradicting
#: words (詩思 愁思 離思: the noun, 去聲) are curated now, so that its remaining words no longer show the class's
#: doubt (悲思, 雲愁海思 are the noun too); its words with their own uses agreeing stay (所思, 尋思).
CONTRADICTED_CLASSES = frozenset({("思", "si1")})


def tone3(syllable: str) -> str:
    """A marked syllable as 'xiang4' (pypinyin's converter; ü as v, no digit for the neutral tone)."""
    from pypinyin.contrib.tone_convert import to_tone3

    return to_tone3(syllable).replace("ü", "v")


def tone_class(group: str) -> str:
    """平 for 上平/下平 groups, else 仄."""
    return "平" if group[1] == "平" else "仄"


class Descent:
    """How Mandarin descends from each 平水韻 group: P(final, tone | group), learned from the chars with
    one 平水韻 reading and one Mandarin reading, backed off to P(final | group) · P(tone | 聲)."""

    def __init__(self, book) -> None:
        from pypinyin.pinyin_dict import pinyin_dict

        self.joint: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.finals: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.tones: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        for code, field in pinyin_dict.items():
            readings = book._table.get(chr(code))  # the book's own rows only, no variant guesses
            syllables = field.split(",")
            if not readings or len(readings) != 1 or len(syllables) != 1:
                continue
            final, tone = self.split(tone3(syllables[0]))
            group = readings[0].group
            self.joint[group][final, tone] += 1
            self.finals[group][final] += 1
            self.tones[group[:2]][tone] += 1

    @staticmethod
    def split(syllable: str) -> tuple[str, str]:
        """'xiang4' → ('iang', '4'); a neutral syllable has tone '5'."""
        if syllable[-1:].isdigit():
            return mandarin_final(syllable[:-1]), syllable[-1]
        return mandarin_final(syllable), "5"

    def weight(self, group: str, syllable: str) -> float:
        """P(syllable's final and tone | group), smoothed."""
        final, tone = self.split(syllable)
        joint, finals, tones = self.joint[group], self.finals[group], self.tones[group[:2]]
        n, nt = sum(finals.values()), sum(tones.values())
        backoff = (finals[final] + 0.1) / (n + 3) * (tones[tone] + 0.1) / (nt + 0.5)
        return (joint[final, tone] + 2 * backoff) / (n + 2)

    def decide(self, groups: tuple[str, ...], syllable: str) -> tuple[str, str] | None:
        """(group, basis) the syllable fixes among a char's groups: basis 'group', or 'tone' when only its
        tone is decided; None when undecided."""
        weights = {g: self.weight(g, syllable) for g in groups}
        total = sum(weights.values())
        best = max(weights, key=weights.get)
        if weights[best] >= DECIDED * total:
            # a 仄 group is claimed only when the char has no other: 不 bù is 入聲, 物 or 月 alike to Mandarin
            alone = tone_class(best) == "平" or sum(tone_class(g) == "仄" for g in groups) == 1
            return best, "group" if alone else "tone"
        same_tone = sum(w for g, w in weights.items() if tone_class(g) == tone_class(best))
        if same_tone >= DECIDED * total:
            return best, "tone"
        return None


def t2s_map(chars) -> dict[str, str]:
    """Char-level traditional → simplified map (OpenCC t2s), for looking words up in pypinyin."""
    import opencc

    cc = opencc.OpenCC("t2s")
    return {c: (s if len(s) == 1 else c) for c in chars for s in (cc.convert(c),)}


def han_runs(para: str) -> list[str]:
    """The runs of Han chars of a paragraph (its verse lines, notes already stripped)."""
    return HAN_RUN_RE.findall(para)


def pypinyin_words(lines, multi: dict, descent: Descent):
    """word → {index: (group, basis, syllable)} for the attested words pypinyin reads, and their counts."""
    from pypinyin.phrases_dict import phrases_dict
    from pypinyin.pinyin_dict import pinyin_dict

    t2s = t2s_map({c for line in lines for c in line})
    found: dict[str, dict[int, tuple[str, str, str]]] = {}
    seen: set[str] = set()
    for line in lines:
        simple = "".join(t2s[c] for c in line)
        for i, c in enumerate(line):
            if c not in multi:
                continue
            for n in (2, 3, 4):
                for start in range(max(0, i - n + 1), min(i, len(line) - n) + 1):
                    word = line[start:start + n]
                    if word in seen or word in UNDECIDED_WORDS:
                        continue
                    seen.add(word)
                    key = simple[start:start + n]
                    readings = phrases_dict.get(word) or phrases_dict.get(key)
                    if readings is None or len(readings) != n:
                        continue
                    fixed = {}
                    for j, (char, options) in enumerate(zip(word, readings)):
                        if char not in multi or char in SAME_SENSE:
                            continue
                        syllable = tone3(options[0])
                        own = {tone3(s) for s in pinyin_dict.get(ord(char), "").split(",") if s}
                        if syllable not in own:
                            continue  # the simplified char's reading, not this char's (累 lěi for 纍)
                        decided = descent.decide(multi[char], syllable)
                        if decided:
                            fixed[j] = (*decided, syllable)
                    if fixed:
                        found[word] = fixed
    return found


def decide_pattern(lines: list[str], tones: dict[str, frozenset]) -> list[tuple[int, int, str]] | None:
    """The strict slots of the one pattern (平起 or 仄起) the poem's one-tone chars fill with no clash
    and at least eight deciding slots; None when neither fits."""
    for ping_start in (True, False):
        slots = strict_slots(len(lines), len(lines[0]), ping_start)
        clash = decided = 0
        for i, pos, tone in slots:
            ts = tones.get(lines[i][pos], frozenset())
            if len(ts) == 1:
                decided += 1
                clash += tone not in ts
        if clash == 0 and decided >= 8:
            return slots
    return None


def poem_rhyme(lines: list[str], book) -> str | None:
    """The one 平 group every even-line foot shares, or None."""
    shared = None
    for i in range(1, len(lines), 2):
        groups = {r.group for r in book.lookup(lines[i][-1]).readings if r.tone.value == "平"}
        shared = groups if shared is None else shared & groups
    return next(iter(shared)) if shared and len(shared) == 1 else None


def decided(poems, book) -> Iterator[tuple[list[str], list[tuple[int, int, str]]]]:
    """(lines, strict slots) of each regular-shape poem whose one-tone chars decide its pattern."""
    tones: dict[str, frozenset] = {}
    for poem in poems:
        lines = regular_lines(poem)
        if not lines:
            continue
        for c in "".join(lines):
            if c not in tones:
                tones[c] = frozenset(r.tone.value for r in book.lookup(c).readings)
        slots = decide_pattern(lines, tones)
        if slots is not None:
            yield lines, slots


def verify(poems, table: dict[str, dict[int, tuple]], book):
    """(word, index) → Counter(agree, contradict) over strict slots of regular poems decided by their
    one-tone chars; at a rhyme foot a 平 reading must also be in the poem's rhyme group."""
    uses: dict[tuple[str, int], collections.Counter] = collections.defaultdict(collections.Counter)
    index = word_index(table)
    decided_poems = 0
    for lines, slots in decided(poems, book):
        decided_poems += 1
        rhyme = poem_rhyme(lines, book)
        required = {(i, pos): tone for i, pos, tone in slots}
        for i, line in enumerate(lines):
            for start, word in longest_match(line, index):
                for j, (group, *_rest) in table[word].items():
                    need = required.get((i, start + j))
                    if need is None:
                        continue
                    ok = tone_class(group) == need
                    if ok and need == "平" and i % 2 and start + j == len(line) - 1 and rhyme:
                        ok = group == rhyme  # a rhyme foot: the fixed 平 group must be the poem's
                    uses[word, j]["agree" if ok else "contradict"] += 1
    return uses, decided_poems


def judge(table, uses, classes) -> tuple[dict, collections.Counter]:
    """Keep the rows verse does not contradict; count why the others go."""
    kept: dict[str, dict[int, tuple]] = {}
    why: collections.Counter = collections.Counter()
    for word, fixed in table.items():
        out = {}
        for j, row in fixed.items():
            group, basis, syllable, source = row
            u = uses.get((word, j), collections.Counter())
            agree, contra = u["agree"], u["contradict"]
            if contra >= 2 and contra > MAX_CONTRADICTION * (agree + contra):
                why[source + ": contradicted by verse"] += 1
                continue
            if source == "pypinyin" and contra and not agree:
                why[source + ": only contradicted"] += 1
                continue
            if source == "pypinyin" and (word[j], syllable) in DOUBTFUL_CLASSES:
                why[source + ": a class verse reads otherwise (DOUBTFUL_CLASSES)"] += 1
                continue
            klass = 1.0 if (word[j], syllable) in CONTRADICTED_CLASSES else classes.get((word[j], syllable))
            if source == "pypinyin" and klass and klass > MAX_CLASS_CONTRADICTION and not (agree >= 3 and not contra):
                why[source + ": its (char, syllable) class contradicted"] += 1
                continue
            out[j] = (group, basis, source, agree, contra)
        if out:
            kept[word] = out
    return kept, why


def class_contradiction(table, uses) -> dict[tuple[str, str], float]:
    """(char, syllable) → share of contradicting strict-slot uses over all its words (≥ 10 uses)."""
    agree: collections.Counter = collections.Counter()
    contra: collections.Counter = collections.Counter()
    for word, fixed in table.items():
        for j, (_group, _basis, syllable, _source) in fixed.items():
            u = uses.get((word, j), collections.Counter())
            agree[word[j], syllable] += u["agree"]
            contra[word[j], syllable] += u["contradict"]
    return {k: contra[k] / (agree[k] + contra[k]) for k in agree if agree[k] + contra[k] >= 10}


def curated_rows(book) -> dict[str, dict[int, tuple]]:
    """CURATED as table rows; a doubled word fixes both chars."""
    groups = set(book.groups)
    rows: dict[str, dict[int, tuple]] = collections.defaultdict(dict)
    for c in CURATED:
        if c.group not in groups:
            raise SystemExit(f"{c.word}: no group {c.group} in the 平水韻")
        indexes = range(len(c.word)) if len(set(c.word)) == 1 else (c.index,)
        for j in indexes:
            rows[c.word][j] = (c.group, "group", "", "curated")
    return dict(rows)


def write_table(kept: dict, path: Path, notes: list[str]) -> None:
    """One row per word, sorted; see the module docstring for the columns."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            "# Words whose meaning fixes the 平水韻 reading of a 多音字: word <TAB> index:group … (0-based) <TAB>\n"
            "#   basis (group: the reading; tone: its tone only, the likelier group given) <TAB> source (pypinyin:\n"
            "#   pypinyin's phrase dictionary, MIT; curated: scripts/build_word_readings.py CURATED) <TAB>\n"
            "#   strict-slot uses in Tang verse agreeing/contradicting (全唐詩, chinese-poetry, MIT).\n"
        )
        for note in notes:
            fh.write(f"# {note}\n")
        fh.write(f"# Generated by scripts/build_word_readings.py on {date.today().isoformat()}; do not edit.\n")
        for word in sorted(kept):
            fixed = kept[word]
            positions = " ".join(f"{j}:{fixed[j][0]}" for j in sorted(fixed))
            basis = "tone" if any(r[1] == "tone" for r in fixed.values()) else "group"
            source = "curated" if any(r[2] == "curated" for r in fixed.values()) else "pypinyin"
            agree = sum(r[3] for r in fixed.values())
            contra = sum(r[4] for r in fixed.values())
            fh.write(f"{word}\t{positions}\t{basis}\t{source}\t{agree}/{contra}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument("--list", action="store_true", help="print the dropped words")
    args = parser.parse_args(argv)

    book = get_rhyme_book(data_dir=args.out)
    poems = read_corpus(args.corpus)
    if not poems:
        return 1
    lines = [run for poem in poems for para in poem for run in han_runs(para) if len(run) >= 2]
    chars = {c for line in lines for c in line}
    multi = {c: groups for c in chars if len(groups := book.lookup(c).groups) > 1}
    descent = Descent(book)
    auto = pypinyin_words(lines, multi, descent)
    table: dict[str, dict[int, tuple]] = {w: {j: (*v, "pypinyin") for j, v in f.items()} for w, f in auto.items()}
    # 疊字: pypinyin's reading of a doubled word holds for both chars, or for neither
    table = {w: f for w, f in table.items() if not (len(set(w)) == 1 and len({v[0] for v in f.values()}) != 1)}
    curated = curated_rows(book)
    overridden = sum(j in table.get(w, {}) for w, f in curated.items() for j in f)
    for word, fixed in curated.items():  # a curated char overrides pypinyin's; the word's other chars stand
        table.setdefault(word, {}).update(fixed)
    uses, decided_poems = verify(poems, table, book)
    kept, why = judge(table, uses, class_contradiction(table, uses))
    n_auto = sum(1 for f in table.values() for r in f.values() if r[3] == "pypinyin")
    n_verified = sum(1 for f in kept.values() for r in f.values() if r[3] + r[4])
    n_pos = sum(len(f) for f in kept.values())
    notes = [
        f"{len(kept)} words ({n_pos} fixed positions, {n_verified} of them met at strict slots of {decided_poems}",
        f"  regular poems): {len(auto)} attested words read by pypinyin ({n_auto} positions), {len(curated)} curated"
        f" ({overridden} overriding pypinyin);",
        "  dropped positions: " + "; ".join(f"{k} {v}" for k, v in sorted(why.items())) + ".",
    ]
    write_table(kept, args.out / "word_readings.tsv", notes)
    print("\n".join(notes))
    if args.list:
        for word, fixed in sorted(table.items()):
            for j, row in fixed.items():
                u = uses.get((word, j), collections.Counter())
                mark = "" if word in kept and j in kept[word] else "DROPPED"
                print(word, j, row[0], row[1], row[-1], f"{u['agree']}/{u['contradict']}", mark)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

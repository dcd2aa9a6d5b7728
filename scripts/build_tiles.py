"""Build data/tiles.json (the standard 600 tiles) and data/strokes.tsv (stroke counts) — deterministic.

    python scripts/build_tiles.py [--corpus ../shared/corpus/quantangshi.jsonl.gz] [--unihan FILE]

Selection, separately for 平 and 仄 (300 each), under the 平水韻 of poetry.prosody:
  * candidates: characters of the Tang corpus (全唐詩, chinese-poetry, MIT) used at least MIN_COUNT times,
    found in the rhyme book in that form, whose common readings have ONE tone class (可平可仄 excluded),
    with a Unihan stroke count; the corpus's known wrong forms are left out;
  * the characters the game's description names (山 峰 洞 石 澗 壑 江 萍 湖 草 煙 浦 漁 磯) are always in;
  * word classes are balanced with quotas (名 noun, 動 verb, 形 adjective, 虛 function word: pronouns,
    numerals, adverbs, prepositions, particles), tagged by jieba.posseg on the simplified form and
    corrected by the hand tables below for classical usage;
  * 平 rhyme groups: the common groups get at least GROUP_MIN characters so that a 150-tile hand usually
    offers several rhymes (scripts/bench_deal.py measures it);
  * within those constraints, the most used characters win (ties broken by the character, so the
    output is the same on every run).
Stroke counts: Unihan kTotalStrokes (Unicode licence); where two values are given the second, the
traditional (zh-Hant) count, is used.
"""

from __future__ import annotations

import argparse
import bz2
import collections
import gzip
import json
import logging
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poetry.prosody import Tone, get_rhyme_book  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "quantangshi.jsonl.gz"
UNIHAN = Path("/usr/share/unicode/Unihan_IRGSources.txt.bz2")
MIN_COUNT = 30
NAMED = "山峰洞石澗壑江萍湖草煙浦漁磯"
#: Wrong traditional forms in the corpus (its README), an editorial character, and variant spellings
#: the corpus prefers where readers expect the standard form (劒 → 劍, 却 → 卻, 羣 → 群, 疎 → 疏).
EXCLUDE = set("鬆徵幹裏錄" "劒却羣疎")

#: Word-class quotas per tone (of 300).
QUOTA = {
    "平": {"名": 135, "動": 75, "形": 54, "虛": 36},
    "仄": {"名": 129, "動": 78, "形": 48, "虛": 45},
}
#: The common 平 groups and the least number of tiles each gets.
GROUP_MIN = 12
COMMON_PING_GROUPS = 12

# Classical usage first: these hand tables (the main sense of each character in Tang verse) decide;
# jieba.posseg's tags, which come from modern words, only tag what the tables leave out.
FUNCTION = set(
    # pronouns, numerals, adverbs, prepositions, conjunctions, particles
    "無何誰之然非安終須因曾常皆兮吾於雖徒云胡由都惟諸寧而頻仍茲斯俱焉哉于余纔伊咸千同方今聊其"
    "一自此在是未萬我已欲十獨向五莫似四復二亦百所若九以者半兩豈又六八七數即只爾但必最每敢乃把"
    "各竟況遂或再肯偶彼甚則汝勿乍的了就及也且幾太始恐忽可遍"
    "當緣如兼唯"
)
VERB = set(
    "來生歸飛流開成還言隨逢驚尋居垂通鳴浮登憐懷堪疑移辭傷含求爭交憂歡飄啼持翻眠迷懸傾攜承侵"
    "修存攀消嗟銷喧披投銜嘗招添追停嫌推馳遷扶窺拋趨騰摧酬陪焚違謀揮舒升衝排欺瞻聯巡嘶耕憑征遊"
    "游愁歌能依吟分乘休催干為觀聞看思絕"
    "有見得去出落入作盡起坐醉問照動至憶笑合轉死使發愛散宿送覺會寄恨舞識度往用帶待定引逐隔解"
    "願化結立謝倚臥食拂喜念塞惜載住取飲感報守息變顧破集想映掩釣指伴舉積遇種賞按點沒列繞走"
    "閉賦抱渡負拜滅詠放訪達漏弄謂泛背奉滴響話養擬借避受贈唱殺覆侍屬服挂駕改奏羨遣擁棄哭灑"
    "泣戀倒候止試進濟伏洗歇掃致勸駐造睡忍寫誤讀免繫注薦脫退到別斷隱對接失切表印省疊語許望御"
    "經沈題行張卷"
)
ADJECTIVE = set(
    "清高明多寒新閑香紅黃平陰孤幽微芳殘遙虛悲丹窮悠全晴賢斜玄荒低貧偏稀良精衰佳狂雄茫危殊繁奇"
    "寥哀枯甘圓盈嘉誠勤澄嚴濃凡飢零貞纖炎愚堅祥豐忠翩昌康豪均迢靈雙蕭滄乾紛惆辛青蒼深長空輕涼真"
    "白遠古滿老大舊少晚好碧綠小近翠苦靜紫久早寂亂直暗異貴薄細冷素永美俗悵急暫淺廣短綺濕壯密"
    "妙逸杳雜浩黑疾寞秀富瑞善險闊肅熟固赤實易幸漠茂盛淡快"
    "斑欣親"
)
NOUN = set(
    "日月天雲花春秋年時風山水夜雨雪海竹松石江湖草煙浦漁磯萍峰洞壑澗家名邊枝臺堂杯根尊車園容"
    "孫村輪晨元初端期君關鳥物女主土井地歲曲首道露步畫鼓樂布計記旅著果餘"
    "絲章盤妾陌口樹影本簪"
    "蠻縣"
)


def corpus_counts(path: Path) -> collections.Counter:
    """Character counts of the poems' lines, without editorial notes in parentheses or brackets."""
    notes = re.compile(r"（[^）]*）|\([^)]*\)")
    counts: collections.Counter = collections.Counter()
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            for para in json.loads(line)["paragraphs"]:
                counts.update(notes.sub("", para))
    return counts


def rhyme_positions(path: Path) -> list[list[str]]:
    """Per poem, the characters at the end of each couplet (before 。？！), where the rhyme falls."""
    notes = re.compile(r"（[^）]*）|\([^)]*\)")
    ends = re.compile(r"(\w)[。？！]")
    poems = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            text = notes.sub("", "".join(json.loads(line)["paragraphs"]))
            feet = ends.findall(text)
            if len(feet) >= 2:
                poems.append(feet)
    return poems


def rhyme_group_votes(poems: list[list[str]], book, chars: set[str]) -> dict[str, collections.Counter]:
    """For characters with several groups in one tone: which group their rhyme partners in Tang poems vote for.

    A partner votes only when the rhyme book gives it a single group, e.g. 書 rhyming with 居 魚 餘 → 六魚.
    """
    single: dict[str, str | None] = {}

    def only_group(char: str) -> str | None:
        if char not in single:
            info = book.lookup(char)
            groups = {r.group for r in info.readings} if not info.guessed else set()
            single[char] = groups.pop() if len(groups) == 1 else None
        return single[char]

    votes: dict[str, collections.Counter] = {c: collections.Counter() for c in chars}
    for feet in poems:
        present = [c for c in feet if c in votes]
        if not present:
            continue
        partner_groups = collections.Counter(g for c in feet if (g := only_group(c)))
        for c in present:
            votes[c].update(partner_groups)
    return votes


def unihan_strokes(path: Path) -> dict[str, int]:
    """kTotalStrokes per character; the traditional count where Unihan gives two."""
    table = {}
    opener = bz2.open if path.suffix == ".bz2" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if "\tkTotalStrokes\t" in line:
                cp, _, value = line.rstrip("\n").split("\t")
                table[chr(int(cp[2:], 16))] = int(value.split()[-1])
    return table


def word_class(char: str, tagger, t2s) -> str:
    """名 / 動 / 形 / 虛 for one character, classical usage first."""
    if char in NOUN:
        return "名"
    if char in FUNCTION:
        return "虛"
    if char in VERB:
        return "動"
    if char in ADJECTIVE:
        return "形"
    flag = tagger.lcut(t2s.convert(char))[0].flag
    if flag[0] in "v":
        return "動"
    if flag[0] in "az" or flag == "b":
        return "形"
    if flag[0] in "dpcurmqyeo" or flag == "zg":
        return "虛"
    return "名"


def select(tone: str, cands: list[dict], group_min: int, common_groups: int, simplified: set[str]) -> list[dict]:
    """Pick 300 characters of one tone: named first, then group minima (平), then by use within quotas.

    ``simplified`` holds the simplified forms already taken (by either tone): two tiles must not look
    the same when the app shows simplified characters (雲/云, 髮/發, 遊/游).
    """
    quota = dict(QUOTA[tone])
    chosen: dict[str, dict] = {}

    def take(c: dict, force: bool = False) -> bool:
        if c["char"] in chosen or len(chosen) >= 300 or c["simplified"] in simplified:
            return False
        if not force and quota[c["class"]] <= 0:
            return False
        chosen[c["char"]] = c
        simplified.add(c["simplified"])
        quota[c["class"]] -= 1
        return True

    for c in cands:
        if c["char"] in NAMED:
            take(c, force=True)
    if tone == "平":
        weight = collections.Counter()
        for c in cands:
            weight[c["rhyme"]] += c["count"]
        for group, _ in weight.most_common(common_groups):
            have = sum(1 for c in chosen.values() if c["rhyme"] == group)
            for c in cands:
                if have >= group_min:
                    break
                if c["rhyme"] == group and take(c):
                    have += 1
    for c in cands:
        take(c)
    for c in cands:  # a class ran out of candidates: fill with the most used of any class
        take(c, force=True)
    return sorted(chosen.values(), key=lambda c: (-c["count"], c["char"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--unihan", type=Path, default=UNIHAN)
    parser.add_argument("--out", type=Path, default=ROOT / "data")
    parser.add_argument("--group-min", type=int, default=GROUP_MIN)
    parser.add_argument("--common-groups", type=int, default=COMMON_PING_GROUPS)
    args = parser.parse_args(argv)

    import jieba
    import jieba.posseg
    import opencc

    jieba.setLogLevel(logging.WARNING)
    tagger = jieba.posseg.POSTokenizer(jieba.Tokenizer())
    t2s = opencc.OpenCC("t2s")

    book = get_rhyme_book("pingshui")
    counts = corpus_counts(args.corpus)
    strokes = unihan_strokes(args.unihan)

    # Several groups within one tone (書: 四支 / 六魚): the group its rhyme partners in Tang verse use.
    ambiguous = set()
    for char, n in counts.items():
        if n >= MIN_COUNT or char in NAMED:
            info = book.lookup(char)
            if info.tone in (Tone.PING, Tone.ZE) and len({r.group for r in info.readings}) > 1:
                ambiguous.add(char)
    votes = rhyme_group_votes(rhyme_positions(args.corpus), book, ambiguous)

    cands: dict[str, list[dict]] = {"平": [], "仄": []}
    spellings: set[str] = set()
    for char, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if (n < MIN_COUNT and char not in NAMED) or char in EXCLUDE or char not in strokes:
            continue
        info = book.lookup(char)
        if info.guessed or info.tone not in (Tone.PING, Tone.ZE) or info.canonical in spellings:
            continue
        spellings.add(info.canonical)  # one tile per book entry, in the spelling poets use most (青, not 靑)
        tone = info.tone.value
        groups = [r.group for r in info.readings if r.tone == info.tone]
        group = max(groups, key=lambda g: (votes.get(char, {}).get(g, 0), -groups.index(g)))
        cands[tone].append({"char": char, "tone": tone, "rhyme": group, "strokes": strokes[char],
                            "count": n, "class": word_class(char, tagger, t2s),
                            "simplified": t2s.convert(char)})

    tiles: list[dict] = []
    simplified = {t2s.convert(char) for char in NAMED}
    for tone in ("平", "仄"):
        named = [c for c in cands[tone] if c["char"] in NAMED]
        rest = [c for c in cands[tone] if c["char"] not in NAMED]
        simplified -= {c["simplified"] for c in named}
        picked = select(tone, named + rest, args.group_min, args.common_groups, simplified)
        assert len(picked) == 300, (tone, len(picked))
        tiles += picked
    missing = set(NAMED) - {t["char"] for t in tiles}
    assert not missing, missing

    doc = {
        "description": "詩牌 standard tile set: 600 characters, 300 平 (朱) / 300 仄 (墨) under the 平水韻",
        "generated_by": "scripts/build_tiles.py",
        "sources": {
            "selection": "character use in 全唐詩 (chinese-poetry, MIT licence)",
            "tone_and_rhyme": "data/pingshui.tsv (平水韻, via poetry.prosody)",
            "strokes": "Unihan kTotalStrokes, traditional count (Unicode licence)",
        },
        "fields": {"char": "character", "tone": "平|仄", "rhyme": "平水韻 group", "strokes": "stroke count",
                   "colour": "朱 for 平, 墨 for 仄", "class": "名 noun, 動 verb, 形 adjective, 虛 function word",
                   "count": "uses in 全唐詩"},
        "tiles": [
            {"char": t["char"], "tone": t["tone"], "rhyme": t["rhyme"], "strokes": t["strokes"],
             "colour": "朱" if t["tone"] == "平" else "墨", "class": t["class"], "count": t["count"]}
            for t in tiles
        ],
    }
    out = args.out / "tiles.json"
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("{\n")
        for key in ("description", "generated_by", "sources", "fields"):
            fh.write(f"  {json.dumps(key)}: {json.dumps(doc[key], ensure_ascii=False)},\n")
        fh.write('  "tiles": [\n')
        rows = [json.dumps(t, ensure_ascii=False) for t in doc["tiles"]]
        fh.write(",\n".join(f"    {r}" for r in rows))
        fh.write("\n  ]\n}\n")

    # Stroke counts of every spelling the rhyme book knows, for custom tile sets.
    rows = sorted((c, strokes[c]) for c in _book_spellings(args.out) if c in strokes)
    with open(args.out / "strokes.tsv", "w", encoding="utf-8") as fh:
        fh.write("# Stroke counts (Unihan kTotalStrokes; the traditional count where two are given) of the\n"
                 "# characters of data/pingshui.tsv. Source: Unicode Unihan database, Unicode licence.\n"
                 "# Generated by scripts/build_tiles.py (no date, so a rebuild is byte-identical); do not edit.\n")
        for char, n in rows:
            fh.write(f"{char}\t{n}\n")

    mix = collections.Counter((t["tone"], t["class"]) for t in tiles)
    groups = collections.Counter(t["rhyme"] for t in tiles if t["tone"] == "平")
    print(f"wrote {out}: {len(tiles)} tiles; {len(rows)} stroke counts")
    for tone in ("平", "仄"):
        print(tone, {k: mix[(tone, k)] for k in ("名", "動", "形", "虛")})
    print("平 groups:", " ".join(f"{g}{n}" for g, n in groups.most_common()))
    return 0


def _book_spellings(data: Path) -> set[str]:
    """Every spelling the rhyme book answers for in traditional script: its own, the usual one, variants."""
    chars = set()
    for name, kinds in (("pingshui.tsv", None), ("variants.tsv", {"book"})):
        with open(data / name, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("#") or not line.strip():
                    continue
                cols = line.rstrip("\n").split("\t")
                if kinds is None:
                    chars.add(cols[0])
                    chars.update(cols[2:3])
                elif cols[1] in kinds:
                    chars.add(cols[0])
    return chars


if __name__ == "__main__":
    raise SystemExit(main())

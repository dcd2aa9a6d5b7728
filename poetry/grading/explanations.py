"""Each criterion's words: what a 詩伯 reads beside the score, every claim pointing at its passage.

The models know Tang usage: where they find a poem far from it, the words say so (and ask the 詩伯 to
look), rather than calling a Song poet's phrase rough or a quatrain's images a jumble.

No figure without a meaning to a reader of verse (no perplexity). A character is pointed at only when the
poem's fluency is below all but the lowest 5% of Tang poems' and the detector of characters out of place
names it, and then as rare in Tang verse, not as wrong; two lines are said to come from two poems only when
貫理 is that low, the poem has three couplets or more and its lines part by parity; lines within a couplet,
which often make one sentence (流水對), are never said to break off from each other, and a quatrain's 轉 is
named as a turn; 首尾貫通 is praised only when 貫理 holds, with the images that answer each other if any.
Every negative claim about a passage (首尾斷續, 只在字面…未及題意) is kept to the rare tail of 唐詩三百首's measure,
its 2% point (scripts/eval_claims.py prints the quantiles); above it the words say what the poem does, not a fault.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from poetry.grading.duizhang import NOUNS, duilei, facing_words, unlike_places
from poetry.grading.festivals import FestivalFit, explain_festival
from poetry.grading.measures import (
    _cos,
    _text_vector,
    aligned_fit,
    couplet_features,
    relevance_waived,
    suspicious_chars,
)
from poetry.grading.models import _vectors
from poetry.grading.rubric import GENERIC_TITLES, Band, band_of
from poetry.grading.seasons import SeasonFit, explain_season
from poetry.grading.title_meaning import _NO_SUBJECT, answers
from poetry.grading.title_parts import GENRE_FORMULAS, TitleParts, read_title

#: A character the detector suspects at least this much is named as out of place.
SUSPECT = 0.6
#: Odd and even lines agreeing more than this among themselves than across them, in a poem whose 貫理 is
#: below all but the lowest 5% of Tang poems', read as two poems (a bare majority of the poorly held
#: real poems of 唐詩三百首 show it too, so weaker 貫理 never draws the claim).
PARITY_GAP = 0.0
#: Two images (characters' topic vectors) this close answer each other (a character repeated always does).
ECHO = 0.55
#: Characters rarer than this (IDF; 山 2.3, 月 2.6, 不 1.9) can carry an image.
TELLING_IDF = 2.2
#: 首尾貫通 below this is said 首尾斷續 (起句 and 結句 各說各話): the 2% point of 唐詩三百首's 首尾貫通 (320 poems; 1%
#: 0.159, 2% 0.175, 5% 0.289: scripts/eval_claims.py). Below the criterion's poor band alone (the 5% point of
#: Tang poems, about 0.25) one anthology poem in thirty was told so (李商隱's 昨夜星辰昨夜風 … 走馬蘭臺類轉蓬).
ENDS_BROKEN_BELOW = 0.175
#: The title's characters written in the body are said to be there 只在字面 (the rest of the poem not treating the
#: title) only when the rescue calibrator backs them less than this: the 2% point of its probability over the 246
#: poems of 唐詩三百首 whose body writes a title character (2% 0.042, 5% 0.124, 10% 0.378: scripts/eval_claims.py,
#: "貼題 backed"). At 0.5 one anthology poem in ten was told so (元稹's 行宮, 杜甫's 八陣圖).
UNBACKED_BELOW = 0.04
#: A body character answers a title word this strongly (PMI) to be named 「題中X，詩以Y應之」, whatever 貼題 says: the
#: lowest PMI at which four pairs in five so named in Tang poems are named under the poem's own title rather than
#: another poem's (scripts/measure_title_answers.py, docs/BENCHMARKS.md title14b). 市→黃 (1.35) falls below it.
ANSWER_PMI = 2.0


def same_figure(a: str, b: str) -> bool:
    """Both lines repeat characters in the same places (當句對: 巴峽穿巫峽 / 襄陽向洛陽), beyond doubling.

    >>> same_figure("即從巴峽穿巫峽", "便下襄陽向洛陽"), same_figure("明月松間照", "清泉石上流")
    (True, False)
    """
    def figure(line: str) -> tuple[int, ...]:
        return tuple(line.index(ch) for ch in line)

    fa = figure(a)
    doubled = all(fa[k] in (k, k - 1) for k in range(len(fa)))  # only 蕭蕭, 滾滾
    return len(a) == len(b) and fa == figure(b) and fa != tuple(range(len(a))) and not doubled


def couplet_fault(a: str, b: str) -> str:
    """What keeps a couplet from 對仗, as found, with the characters that do not face each other.

    >>> couplet_fault("烽火連三月", "蓮動下漁舟")
    '對仗不工：平仄不相對，「三」對「漁」、「月」對「舟」字類不當'
    """
    f = couplet_features(a, b)
    found = ["平仄不相對"] if f["tone_opposed"] < 0.5 else []
    unlike = unlike_places(a, b, aligned_fit(a, b))
    if unlike:
        found.append("、".join(f"「{x}」對「{y}」" for x, y in unlike[:3]) + "字類不當")
    elif f["figure"] < 0:
        found.append("一句疊字或重字，他句不應")
    elif f["same_class"] < 0.4:
        found.append("上下句字類多不相當")
    return "對仗不工：" + "，".join(found) if found else "對仗稍寬"


def couplet_praise(names: tuple[str, ...], pairs: tuple[tuple[str, str], ...], exact: bool = True) -> str:
    """What faces what in a 律詩's parallel couplets, quoted: the words that best answer each other; called 工整
    only when ``exact`` (the couplets reach the parallel model's line), else what faces what, and nothing more.

    >>> couplet_praise(("頷聯",), (("萬里悲秋常作客", "百年多病獨登臺"),))
    '頷聯「萬里」對「百年」、「常作」對「獨登」；對仗工整，平仄相對。'
    """
    parts = []
    for name, (a, b) in zip(names, pairs):
        facing = facing_words(a, b, aligned_fit(a, b))
        if same_figure(a, b):
            parts.append(f"{name}「{a}／{b}」當句自對")
        elif facing:
            parts.append(name + "、".join(f"「{x}」對「{y}」" for x, y in facing))
    if exact:
        return "；".join(parts + ["對仗工整，平仄相對。"])
    return "；".join(parts) + "。" if parts else "中二聯未見字字相當的工對。"


def explain_fluency(p: float, lines: list[str]) -> str:
    """一氣呵成 in words: the characters the detector finds out of place, with their lines."""
    band = band_of("一氣呵成", p)
    if band is Band.GOOD:
        return "字句順暢，讀來自然。"
    if band is Band.FAIR:  # within the range of Tang poems: rare words of the poet's own are no fault
        return "大致通順，字序間有前人少用之處。"
    suspects = [(line, ch) for line, ch, q in suspicious_chars(lines, k=3) if q >= SUSPECT]
    if not suspects:
        return "字序多與唐人詩不同，但未見確指之字。"
    # what the models know is Tang usage: a Song poet's 萬紫千紅 is rare there, not wrong
    odd = "、".join(f"「{line}」的「{ch}」" for line, ch in suspects)
    return f"字序多與唐人詩不同：{odd}，唐詩中少見這樣的用法，請詩伯自校。"


def couplets_rhyme_within(lines: list[str]) -> bool:
    """Whether half the couplets or more end both their lines in one rhyme (or 鄰韻): a 古詩 that changes rhyme by
    the couplet (前村後村水車聲，咿咿軋軋終夜鳴) is made couplet by couplet, so its odd and even lines are not two
    poems taken in turns, whatever the topic vectors say.

    >>> couplets_rhyme_within(["前村後村水車聲", "咿咿軋軋終夜鳴", "田家眼穿望早禾", "早禾不熟奈饑何"])
    True
    >>> couplets_rhyme_within(["國破山河在", "城春草木深", "感時花濺淚", "恨別鳥驚心"])
    False
    """
    from poetry.prosody import get_rhyme_book

    book = get_rhyme_book("pingshui")

    def rhymes(a: str, b: str) -> bool:
        ga, gb = set(book.rhyme_groups_of(a)), set(book.rhyme_groups_of(b))
        return bool(ga & gb or {n for g in ga for n in book.neighbours(g)} & gb)

    pairs = [(lines[i][-1], lines[i + 1][-1]) for i in range(0, len(lines) - 1, 2) if lines[i] and lines[i + 1]]
    return bool(pairs) and 2 * sum(rhymes(a, b) for a, b in pairs) >= len(pairs)


def explain_coherence(p: float, lines: list[str], f: Mapping[str, float] | None = None) -> str:
    """Why 貫理 is what it is, naming the two lines where the sense breaks (between couplets, never
    inside one), or the couplet that holds least when the odd and the even lines read as two poems."""
    band = band_of("貫理", p)
    if len(lines) < 2:
        return "只有一句，無從論貫理。"
    if band is Band.GOOD:
        return "句句相承，意脈貫通。"
    vecs = [_text_vector(x) for x in lines]
    adj = [_cos(vecs[i], vecs[i + 1]) for i in range(len(lines) - 1)]
    if band is Band.POOR and f is not None and len(lines) >= 6 and f.get("coh_parity_gap", 0.0) > PARITY_GAP \
            and not couplets_rhyme_within(lines):
        j = 2 * int(np.argmin(adj[0::2]))  # the couplet whose two lines agree least
        tones = "，平仄亦不相對" if couplet_features(lines[j], lines[j + 1])["tone_opposed"] < 0.5 else ""
        return f"單句與雙句各成一脈，似兩首詩隔句相間：「{lines[j]}」與「{lines[j + 1]}」上下不相屬，意象不接{tones}。"
    between = list(range(1, len(lines) - 1, 2)) or [0]  # from one couplet to the next
    k = min(between, key=lambda i: adj[i])
    if band is Band.FAIR:  # a turn (起承轉合's 轉) is no fault: name where it is, claim no break
        return f"大體相承；「{lines[k + 1]}」一句轉出新意。"
    if len(lines) < 6:  # two couplets say little: state what was measured, not 事實雜亂
        return f"各句用字的意象少有相通，「{lines[k]}」與「{lines[k + 1]}」相去尤遠；請詩伯看是否一意貫串。"
    # what was measured; whether it is 事實雜亂 the rubric decides, with the form and the ends (rubric._scattered)
    return f"各聯意象互不相屬，「{lines[k]}」與「{lines[k + 1]}」尤其斷開。"


#: 對類 classes that never make an echo of images: particles, numbers and directions (來 answering 來, 十 answering
#: 萬 is no 呼應).
NOT_IMAGES = frozenset({"虛字", "數目", "方位"})


def _echo(first: list[str], last: list[str]) -> tuple[str, str] | None:
    """The two telling characters, one of the opening lines and one of the closing lines, whose images answer each
    other: not a rhyme foot (feet share a rhyme, not an image), not a particle, number or direction, one of the two
    naming a thing in the 對類 table (data/duilei.tsv), and a character met again only if it names a thing (月 … 月,
    not 無 … 無; two rare characters whose vectors merely lie close, 擎 and 橙, are no echo)."""
    vec, classes = _vectors(), duilei()

    def telling(lines: list[str]) -> list[str]:
        chars = dict.fromkeys(ch for line in lines for ch in line[:-1])
        return [ch for ch in chars if ch in vec.index and vec.idf[vec.index[ch]] >= TELLING_IDF
                and not (classes.get(ch, frozenset()) & NOT_IMAGES)]

    a, b = telling(first), telling(last)
    if not a or not b:
        return None
    sims = vec.topic[[vec.index[x] for x in a]] @ vec.topic[[vec.index[y] for y in b]].T
    for x, y in np.argwhere(sims >= ECHO)[np.argsort(-sims[sims >= ECHO], kind="stable")]:
        if classes.get(a[x], frozenset()) & NOUNS or a[x] != b[y] and classes.get(b[y], frozenset()) & NOUNS:
            return a[x], b[y]
    return None


def explain_ends(p: float, lines: list[str], coherence: float | None = None) -> str:
    """首尾貫通 in words: the images by which the opening and the close answer each other, if any."""
    band = band_of("首尾貫通", p)
    pair = _echo(lines[:2], lines[-2:]) if len(lines) >= 4 else None
    jumble = coherence is not None and band_of("貫理", coherence) is Band.POOR
    if band is not Band.POOR and pair and not jumble:
        x, y = pair
        where_x = next(line for line in lines[:2] if x in line)
        where_y = next(line for line in lines[-2:] if y in line)
        how = f"同以「{x}」" if x == y else f"以「{x}」與「{y}」"
        return f"起處「{where_x}」與結處「{where_y}」{how}相應，首尾貫通。"
    if p < ENDS_BROKEN_BELOW:
        return f"首尾斷續：起句「{lines[0]}」與結句「{lines[-1]}」各說各話。"
    if band is Band.GOOD and not jumble:
        return f"起處「{lines[0]}」與結處「{lines[-1]}」所寫相屬，首尾貫通。"
    return "未見首尾以同類的意象相應。"


def explain_relevance(p: float, title: str, lines: list[str], backed: float | None = None,
                      festival: FestivalFit | None = None, season: SeasonFit | None = None) -> str:
    """貼題 in words: which of the title's words the body answers and where (title_meaning.answers, in the title's
    topical part: title_parts.read_title), the title's characters it writes, and whether they are backed by
    the rest of the poem (``backed``: the rescue calibrator's probability, None when the body writes none); a
    festival's customs that answer the title, or another festival's that the poem writes instead (``festival``); the
    opposite season's signs that the poem writes instead of its title's season (``season``).

    >>> explain_relevance(0.9, "對雪", ["六出飛花入戶時", "坐看青竹變瓊枝", "如今好上高樓望", "蓋盡人間惡路岐"])[:8]
    '題中「雪」，詩以'
    """
    band = band_of("貼題", p)
    parts = read_title(title)
    if relevance_waived(title, p):  # the title asks for no subject: nothing is off it
        if title in GENERIC_TITLES:  # 絕句, 無題
            return f"題目「{title}」不限題材，貼題只作參考。"
        # 次韻子由, 三衢道中: the occasion, the person, the place, the day
        return f"題目「{title}」只記{recorded(parts)}，不限題材，貼題只作參考。"
    if festival is not None and festival.other:  # 茱萸、黃花 under 中秋: another festival's poem
        return explain_festival(festival)
    if season is not None and season.other:  # 鳴蟬、火雲 under 寒夜: the opposite season's poem
        return explain_season(season)
    asked = parts.asked  # names, places, dates and formulas are not what the body answers (次韻, 秦觀, 十一月四日)
    hits = [ch for ch in dict.fromkeys(asked) if any(ch in x for x in lines) and ch not in _NO_SUBJECT]
    answered = festival is not None and festival.answered  # the day's customs answer it: no 未及題意
    found = [a for a in answers(asked, lines) if a.pmi >= ANSWER_PMI
             and not (answered and a.unit in festival.named)]  # the festival is said once
    said = "；".join(f"題中「{a.unit}」，詩以「{a.char}」應之（「{a.line}」）" for a in found)
    said = explain_festival(festival) + (said + "；" if said else "")
    if hits and backed is not None and backed < UNBACKED_BELOW and not answered:
        where = next(x for x in lines if hits[0] in x)
        return (f"{said}題中「{'、'.join(hits[:4])}」只在字面上見於「{where}」，其餘詩句未及題意"
                f"{'，似離題' if band is Band.POOR else ''}。")
    seen = f"題中「{'、'.join(hits[:4])}」見於詩中；" if hits else ""
    subject = f"題中「{asked}」" if parts.named and asked else f"題目「{title}」"  # 書憤: the 憤, not the 書
    if hits and backed is not None and backed < 0.5 and band is not Band.POOR:  # backed weakly, as Tang poems often are
        where = next(x for x in lines if hits[0] in x)  # where they stand, no praise of 切合 and no fault
        return f"{said}題中「{'、'.join(hits[:4])}」見於「{where}」。"
    if band is Band.GOOD:
        return f"{said}{seen}詩意切合題目「{title}」。"
    if band is Band.FAIR:  # within the range of Tang poems under their own titles: what it answers, no fault
        if said or seen:
            return f"{said}{seen}".rstrip("；") + "。"
        return f"詩中不直寫{subject.replace('題目', '題')}的字面。"
    if not said and not seen:
        return f"詩中未見應{subject.replace('題目', '題')}之語，似離題。"
    return f"{said}{seen}詩意與{subject}關係不大，似離題。"


def recorded(parts: TitleParts) -> str:
    """What a title that asks nothing records, in words, with its parts: 酬唱之事 (a formula of answering and the
    person answered), 地名, 時日, 體例 (道中, 絕句, 題…壁).

    >>> recorded(read_title("次韻子由")), recorded(read_title("三衢道中"))
    ('酬唱之事（次韻、子由）', '地名、體例（三衢、道中）')
    >>> recorded(read_title("秋夜將曉出籬門迎涼有感"))
    '感興之由、體例（秋夜將曉出籬門迎涼、有感）'
    """
    occasion = [f for f in parts.formula if f not in GENRE_FORMULAS]
    kinds = (["酬唱之事"] if occasion else ["人名"] if parts.addressee else []) + (["地名"] if parts.places else []) + (
        ["時日"] if parts.dates else []) + (["感興之由"] if parts.occasion else []) + (
        ["體例"] if len(occasion) < len(parts.formula) else [])
    moved = [parts.occasion] if parts.occasion else []
    said = occasion + list(parts.addressee + parts.places + parts.dates) + moved + [
        f for f in parts.formula if f in GENRE_FORMULAS]
    return f"{'、'.join(kinds)}（{'、'.join(said)}）"

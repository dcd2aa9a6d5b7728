"""The rubric: the rules' 品 and criteria, the thresholds, and the 品 a score and its criteria earn.

The rules: 上品 貼題貫理，聯句切當，一氣呵成; 中品 語句清新，首尾貫通; 下品 題、體不失，平仄和暢，但意味平平;
荒牌 事實雜亂，首尾斷續. Thresholds (DEFAULT_THRESHOLDS, adjustable per round by the 詩伯) turn the score into a 品:
  荒牌  事實雜亂，首尾斷續: a poem under a festival's title that writes the customs of two other festivals
        (festivals.mixed_days: 節物雜出), or under a season's title the things of three seasons, the title's
        opposite among them (seasons.mixed_seasons: 四時雜出); score < 荒牌 threshold, or 貫理 < coherence
        floor, where it does not hold together (``_scattered``): 首尾貫通 below all but the lowest 5% of Tang
        poems, or 貫理 below the range of three in four with the form broken too (a jumble of lines breaks 黏
        and the rhyme); a low score beside a poem that holds together is 下品;
  at most 下品  the poem fails 題、體不失，平仄和暢: the checker reports an error (a tone, a rhyme, 黏對, 孤平,
        三平尾, 重字 …), or the poem does not treat its title (貼題 < 貼題 floor for a title that says what the
        poem should be about: ``title_demand`` ≥ TELLING_TITLE, read in its topical part, and not one of
        GENERIC_TITLES nor only an occasion's formula and a name, 次韻子由); with the
        flag 失格荒牌 = 1 such a poem is 荒牌;
  at most 下品  意味平平: form and tones kept but the diction modern (a share of the characters in words of
        modern Chinese ≥ 平平_modern), stock (a share of stock lines ≥ 平平_stock; poetry.grading.diction) or
        stock scenery piled up (詞藻堆砌 > 平平_piled; poetry.grading.piling).
        A poem in modern words that treats its title is 下品 even where the score or 貫理 would say 荒牌: the
        models know classical verse only, and one subject told in everyday words is not 事實雜亂;
  下品  the rest below the 中品 threshold when form and tones hold (體不失, 平仄和暢 ≥ form floor);
        without them a low score stays 荒牌;
  中品  score ≥ 中品 threshold;
  上品  score ≥ 上品 threshold and 貼題, 貫理, 聯句切當, 一氣呵成, 平仄和暢 (the rules' words for 上品) and
        語句清新 (中品's, which 上品 has too) each ≥ the 上品 floor or in the range where three Tang poems in
        four score on it.
Each reason says what was found (which fault, in which line; which criterion fell short), not the rule's words.
"""

from __future__ import annotations

import math
from enum import Enum
from types import MappingProxyType
from typing import Any, Mapping

from poetry.errors import InvalidThresholdError
from poetry.grading.models import _model

#: The 品, best first.
GRADES = ("上品", "中品", "下品", "荒牌")
#: The rules' words, each measured as a criterion (poetry.grading.criteria).
CRITERIA = ("體不失", "平仄和暢", "貼題", "貫理", "首尾貫通", "聯句切當", "一氣呵成", "語句清新")

#: The criteria the combined score is made of. 語句清新 (stock phrases count against it) joined in issue 14;
#: 體不失 would only tell 古體 from 近體, which is no fault, so it is left out.
COMBINED_CRITERIA = ("平仄和暢", "貼題", "貫理", "首尾貫通", "聯句切當", "一氣呵成", "語句清新")

#: What 上品 asks of the criteria: its own words (貼題貫理，聯句切當，一氣呵成), tones that hold, and 中品's
#: 語句清新, each at the 上品 floor or in the range of three Tang poems in four. 首尾貫通 is left out: it is the
#: weakest measure (AUC 0.72 against shuffled copies) and falls below the floor for 山居秋暝 and 春望.
UPPER_CRITERIA = ("貼題", "貫理", "聯句切當", "一氣呵成", "平仄和暢", "語句清新")

#: Default thresholds; a round may override any of them (see ``merge_thresholds``).
DEFAULT_THRESHOLDS = MappingProxyType(
    {
        "上品": 0.85,  # combined score at least this, and every 上品 criterion ≥ "上品_floor"
        "上品_floor": 0.5,
        "中品": 0.5,  # combined score at least this
        "荒牌": 0.2,  # combined score below this: 荒牌
        "貫理_floor": 0.1,  # 貫理 below this: 荒牌 whatever the score, where the form or the ends are broken too
        "form_floor": 0.5,  # 體不失 and 平仄和暢 at least this for 下品 (else a weak poem is 荒牌)
        # 貼題 below this, under a telling title: the poem does not treat its title (題失), at most 下品. On
        # 唐詩三百首 (eval_grading.py) 0.1 catches 22% of the poems under another poem's title, 1.6% under their own
        "貼題_floor": 0.1,
        # 1: a poem failing 題、體不失，平仄和暢 (a checker error, or off its title) is 荒牌; 0: at most 下品
        "失格荒牌": 0.0,
        # 意味平平 (diction14): form and tones kept but the diction modern or stock, at most 下品: this share of
        # the characters in modern words (poetry.grading.diction; one word in a 五絕 is 0.1, in a 七絕 0.071, in a
        # 五律 0.05). 0.075 rather than 0.04 (the development set grades the same): one such word in a longer poem
        # may be an old sense (教授 in 王維, 解釋 in 李白, 低聲 in 朱慶餘 were 意味平平 at 0.04)
        "平平_modern": 0.075,
        # or this share of the lines stock (the Tang LM predicts them better than nine Tang lines in ten, or
        # they hold a stock trigram): every line, since a famous poem's lines became stock by being echoed
        # (春曉 has three of four)
        "平平_stock": 1.0,
        # or stock scenery piled up (詞藻堆砌, poetry.grading.piling) with more than this probability: the highest
        # over 唐詩三百首 (data/grading_piling.json "at"), past which no poem of the anthology piles so
        "平平_piled": 0.9595,
    }
)
#: What each threshold decides, in the 詩伯's words (the dashboard labels every threshold from here).
THRESHOLD_LABELS = MappingProxyType(
    {
        "上品": "上品：綜合分至少",
        "上品_floor": "上品：各項至少",
        "中品": "中品：綜合分至少",
        "荒牌": "荒牌：綜合分低於（貫理、首尾貫通俱佳者至多下品）",
        "貫理_floor": "荒牌：貫理低於（且格律有誤或首尾斷續）",
        "form_floor": "下品：體、平仄至少",
        "貼題_floor": "題失（至多下品）：貼題低於",
        "失格荒牌": "格律有誤或離題者作荒牌（不勾則至多下品）",
        "平平_modern": "意味平平（至多下品）：今語字數佔比至少",
        "平平_stock": "意味平平（至多下品）：套語成句佔比至少",
        "平平_piled": "意味平平（至多下品）：詞藻堆砌之似然高於",
    }
)
#: Thresholds that are switches (0 off, 1 on) rather than levels.
THRESHOLD_SWITCHES = frozenset({"失格荒牌"})
#: The share of the 離題 line (貼題_floor) that holds under a 詠物 title (詠X, 賦得X: measures.names_an_object), whose
#: thing the convention leaves unnamed: under 0.1, 5.5% of such Tang poems (calibration split and 唐詩三百首, 91)
#: against 2.4% of others, 8.7% of held-out 全宋詩 ones against 4.8%; their 2% point is 0.059 (Tang). At 0.05, 1.1% of
#: the Tang and 1.4% of the Song ones fall under it, and 16.6% of other Song poems under their titles (43.7% at 0.1).
OBJECT_FLOOR_SHARE = 0.5
#: A title telling at least this much (``title_demand``) can be failed.
TELLING_TITLE = 2.0
#: Titles that ask nothing of the poem (the tradition's ways of saying "untitled"): never 離題.
GENERIC_TITLES = frozenset({"絕句", "無題", "雜詩", "雜興", "雜感", "偶成", "偶題", "偶作", "即事", "即景", "即目",
                            "感遇", "古意",
                            "遣興", "詠懷", "有感", "書事", "自遣", "述懷", "口號", "漫興", "漫成", "失題", "寓興",
                            "闕題", "缺題",  # 闕題: the title was lost (劉昚虛's 道由白雲盡)
                            # the poet's own feeling set down (陸游《書憤》): what moved it is the poem's to choose
                            "書憤", "書感", "書懷", "遣悶", "遣懷", "遣愁", "抒懷", "寫懷", "感懷", "感事", "有懷",
                            "自歎", "自嘆",
                            # a poem called a poem, and the Chan verse on old cases: no subject a word list can read
                            "詩", "頌古", "偈頌", "偈",
                            # on history: the person or the event is the poem's to choose (高適《詠史》, 綈袍 and 范叔)
                            "詠史",
                            # written at random, set down by chance (蘇軾《縱筆》, 賀知章's 偶書): no subject asked
                            "縱筆", "放言", "漫書", "偶書", "漫題",
                            # a fragment the collection keeps as 句 (788 of 全唐詩's titles), another of the last
                            # title (又), a song or a chant, an allegory, a dream's, made for another, seen by chance
                            "句", "斷句", "殘句", "佚句", "又", "歌", "吟", "寓言", "寄興", "夢中作", "代人作", "偶見",
                            # the miscellany formulas alone (雜詠, 雜題: title_parts reads them in longer titles too)
                            "雜詠", "雜題", "雜言", "雜賦"})


def merge_thresholds(overrides: Mapping[str, float] | None) -> dict[str, float]:
    """DEFAULT_THRESHOLDS with a round's overrides (unknown keys and values outside [0, 1] refused)."""
    out = dict(DEFAULT_THRESHOLDS)
    for key, value in (overrides or {}).items():
        if key not in out:
            raise InvalidThresholdError(f"不認得的門檻：{key}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise InvalidThresholdError(f"門檻「{key}」須是 0 到 1 之間的數。")
        out[key] = float(value)
    return out


def _band_limits(name: str) -> tuple[float, float]:
    """(poor below, good from) for one criterion: the 5% and 25% points of Tang poems' scores."""
    q = _model().get("real_quantiles", {}).get(name)
    return (q[0], q[2]) if q else (0.3, 0.6)


def criterion_bands() -> dict[str, tuple[float, float]]:
    """For each criterion, (poor below, good from): the 5% and 25% points of Tang poems' scores."""
    return {name: _band_limits(name) for name in CRITERIA}


class Band(str, Enum):
    """Where a score falls among Tang poems' scores on the same criterion (``criterion_bands``)."""

    GOOD = "good"  #: at or above the lower quartile of real poems (three Tang poems in four)
    FAIR = "fair"  #: between
    POOR = "poor"  #: below all but the lowest 5% of them


def band_of(name: str, score: float) -> Band:
    """The band of a criterion's score.

    >>> band_of("貫理", 1.0), band_of("貫理", 0.0)
    (<Band.GOOD: 'good'>, <Band.POOR: 'poor'>)
    """
    poor, good = _band_limits(name)
    return Band.GOOD if score >= good else Band.FAIR if score >= poor else Band.POOR


#: 上品 criteria that fall short only in their poor band (below all but the lowest 5% of Tang poems), not under the
#: floor: 貫理 reads how alike the lines' topic vectors are, and a turn (轉) or a scene of unlike things reads as a
#: break (楊萬里《閑居初夏午睡起》 0.26, 王冕《白梅》 0.28): 13% of 唐詩三百首 fall under 0.5 (its 10% point is 0.43),
#: where its poor band holds 5%. A jumble's 貫理 lies lower, and the combined score weighs it still. 一氣呵成 reads the
#: lines under the Tang trigram LMs, which find Song idiom less fluent than Tang (songtrain14): 梅堯臣《魯山山行》 0.48,
#: 陸游《梅村》 0.49 fell short of 上品 by it alone (the graded sets: 4 poems lifted to the 詩伯's 上品, none past it).
SHORT_ONLY_WHEN_POOR = frozenset({"貫理", "一氣呵成"})


def _short(name: str, criterion: Mapping[str, Any], floor: float) -> bool:
    """Whether a 上品 criterion falls short: where its explanation decides a fault (``fault``: 聯句切當 names a loose
    couplet, or says the couplets hold), that; else a score under the floor outside the good band (in the poor band
    for SHORT_ONLY_WHEN_POOR).

    >>> _short("聯句切當", {"score": 0.38, "fault": False}, 0.5), _short("貫理", {"score": 0.0}, 0.5)
    (False, True)
    >>> _short("貫理", {"score": 0.3}, 0.5), _short("語句清新", {"score": 0.3}, 0.5)
    (False, True)
    """
    if "fault" in criterion:
        return bool(criterion["fault"])
    score = criterion["score"]
    if name in SHORT_ONLY_WHEN_POOR:
        return band_of(name, score) is Band.POOR
    return score < floor and band_of(name, score) is not Band.GOOD


def _floor2(x: float) -> str:
    """Two decimals rounded down, so a score shown as 0.84 is never mistaken for reaching 0.85."""
    return f"{math.floor(x * 100 + 1e-9) / 100:.2f}"


#: The criteria that say whether a poem holds together (貫理: its lines talk of one thing; 首尾貫通: its end answers
#: its start): 荒牌 is 事實雜亂，首尾斷續, so a low score alone (a title the models read badly, a word order unlike
#: the Tang poets') makes no 荒牌 while both hold (``_scattered``).
SENSE_CRITERIA = ("貫理", "首尾貫通")


def _scattered(criteria: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether a poem does not hold together (事實雜亂，首尾斷續): 首尾貫通 (the weaker measure: 山居秋暝 and 春望 are
    below the range of three Tang poems in four) below all but the lowest 5% of them, or 貫理 below that range with
    the form broken too (``_form_broken``), or either not measured.

    >>> _scattered({"貫理": {"score": 1.0}, "首尾貫通": {"score": 1.0}}), _scattered({"貫理": {"score": 0.0}})
    (False, True)
    >>> _scattered({"貫理": {"score": 0.0}, "首尾貫通": {"score": 1.0}, "平仄和暢": {"faults": ["失黏"]}})
    True
    >>> _scattered({"貫理": {"score": 0.0}, "首尾貫通": {"score": 1.0}, "平仄和暢": {"faults": []}})
    False
    """
    coherence = (criteria.get("貫理") or {}).get("score")
    shown = _ends_or_form_broken(criteria)
    if coherence is None or shown is None:
        return True
    return band_of("貫理", coherence) is not Band.GOOD and shown


def _ends_or_form_broken(criteria: Mapping[str, Mapping[str, Any]]) -> bool | None:
    """Whether a poem whose lines read as unrelated shows it elsewhere too: its ends do not answer (首尾貫通 below all
    but the lowest 5% of Tang poems) or its form is broken (``_form_broken``); None when 首尾貫通 was not measured."""
    ends = (criteria.get("首尾貫通") or {}).get("score")
    if ends is None:
        return None
    return band_of("首尾貫通", ends) is Band.POOR or _form_broken(criteria)


def _held_in_everyday_words(criteria: Mapping[str, Mapping[str, Any]]) -> str:
    """What holds in a poem in everyday words (``_everyday``), in words.

    >>> _held_in_everyday_words({"首尾貫通": {"score": 0.66}})
    '但詩多用日常口語，唐詩模型難斷其文意是否相屬；首尾貫通 0.66 在唐人詩常見之限'
    """
    ends = (criteria.get("首尾貫通") or {}).get("score")
    return f"但詩多用日常口語，唐詩模型難斷其文意是否相屬；首尾貫通 {ends:.2f} 在唐人詩常見之限"


def _held(criteria: Mapping[str, Mapping[str, Any]]) -> str:
    """What holds in a poem that is not ``_scattered``, in words: 貫理 and 首尾貫通 where they are in the range of
    Tang poems, and the form where 貫理 is not (its lines read as apart, but it was made as one).

    >>> _held({"貫理": {"score": 0.01}, "首尾貫通": {"score": 0.49}})
    '但首尾貫通 0.49 在唐人詩常見之限，格律亦無誤，各句意象雖遠，詩成一篇'
    """
    coherence, ends = ((criteria.get(n) or {}).get("score") for n in SENSE_CRITERIA)
    if band_of("貫理", coherence) is Band.GOOD:
        return f"但貫理 {coherence:.2f}、首尾貫通 {ends:.2f}皆在唐人詩常見之限"
    return f"但首尾貫通 {ends:.2f} 在唐人詩常見之限，格律亦無誤，各句意象雖遠，詩成一篇"


def _form_broken(criteria: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether the checker found faults (體不失, 平仄和暢). Lines that read as unrelated are 事實雜亂 only with it (or
    with ends that do not answer): lines drawn from several poems break 黏 and the rhyme (40 of the graded sets' 42
    jumbles the grade calls 荒牌), while a poem that keeps its form and its ends was made as one, and the distance
    the models read between its lines is a turn they do not follow (文天祥《端午即事》: 鬢髮日已改 → 我欲從靈均).

    >>> _form_broken({"平仄和暢": {"faults": ["失黏"]}}), _form_broken({"平仄和暢": {"faults": []}})
    (True, False)
    """
    return any((criteria.get(name) or {}).get("faults") for name in ("體不失", "平仄和暢"))


def _faults(criteria: Mapping[str, Mapping[str, Any]], t: Mapping[str, float], title_info: float | None) -> list[str]:
    """What fails 題、體不失，平仄和暢, in words: the checker's errors (the first two), a title not treated."""
    found = [m for name in ("體不失", "平仄和暢") for m in (criteria.get(name) or {}).get("faults", ())]
    out = []
    if found:
        more = f"等 {len(found)} 處" if len(found) > 2 else ""
        out.append("格律有誤：" + "；".join(m.rstrip("。") for m in found[:2]) + more)
    fit = criteria.get("貼題") or {}
    relevance = fit.get("score")
    telling = title_info is None or title_info >= TELLING_TITLE
    floor = t["貼題_floor"] * (OBJECT_FLOOR_SHARE if fit.get("object_title") else 1.0)
    if relevance is not None and relevance < floor and telling:
        out.append(f"離題：貼題 {relevance:.2f}，{criteria['貼題'].get('explanation', '').rstrip('。')}")
    return out


def _flat(criteria: Mapping[str, Mapping[str, Any]], t: Mapping[str, float]) -> tuple[str, bool]:
    """意味平平 in words when the diction is modern or stock past the thresholds ("" if not), and whether
    modern words are what was found."""
    d = (criteria.get("語句清新") or {}).get("diction")
    if not d:
        return "", False
    modern = d["modern_share"] >= t["平平_modern"]
    if not modern and d["stock_share"] < t["平平_stock"]:
        piled = d.get("piled")
        if piled is not None and piled > t["平平_piled"]:  # 詞藻堆砌: what piling found, quoted
            return f"意味平平：{d['piled_found']}", False
        return "", False
    return f"意味平平：{d['found']}", modern


def _weakest(criteria: Mapping[str, Mapping[str, Any]]) -> str:
    """The criterion furthest below Tang poems' usual scores (its good band: three Tang poems in four), with what
    it found; when every criterion is in its good band, that (a 平仄和暢 of 1.00 is no poem's weakest point).

    >>> _weakest({"平仄和暢": {"score": 1.0, "explanation": "平仄、押韻皆合。"}, "貫理": {"score": 0.9}})
    '各項皆在唐人詩常見之限，合計未達。'
    """
    scored = [(n, c["score"]) for n, c in criteria.items() if n in COMBINED_CRITERIA and c.get("score") is not None]
    below = [(n, score) for n, score in scored if score < _band_limits(n)[1]]
    if not below:
        return "各項皆在唐人詩常見之限，合計未達。" if scored else ""
    name, score = min(below, key=lambda x: x[1] - _band_limits(x[0])[1])
    return f"最弱是{name} {score:.2f}：{criteria[name].get('explanation', '')}"


#: A poem with this share of its characters inside words of everyday modern Chinese (piling's ``familiar``: 路上, 出門,
#: 都是) whose lines the Tang LMs find unlike verse is out of the Tang models' reach: its low score or 貫理 tells no
#: 事實雜亂 (the graded sets' weak poems: median 0.64; fine, skilled and jumbled: 0.36; a jumble of real lines reads
#: as verse).
EVERYDAY_SHARE = 0.55


def _everyday(criteria: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether a poem is written in everyday words (EVERYDAY_SHARE) that the Tang LMs do not read as verse (一氣呵成
    below the range of three Tang poems in four), with ends that answer (首尾貫通 not in its poor band): then neither
    its score nor its 貫理 makes it 荒牌, which only its facts do (事實雜亂); what fails it is its form or its words.

    >>> prose = {"語句清新": {"diction": {"everyday": 0.7}}, "一氣呵成": {"score": 0.1}, "首尾貫通": {"score": 0.6}}
    >>> [_everyday({**prose, **other}) for other in ({}, {"首尾貫通": {"score": 0}}, {"一氣呵成": {"score": 1}})]
    [True, False, False]
    """
    everyday = ((criteria.get("語句清新") or {}).get("diction") or {}).get("everyday") or 0.0
    fluency, ends = ((criteria.get(n) or {}).get("score") for n in ("一氣呵成", "首尾貫通"))
    return (everyday >= EVERYDAY_SHARE and fluency is not None and band_of("一氣呵成", fluency) is not Band.GOOD
            and ends is not None and band_of("首尾貫通", ends) is not Band.POOR)


def _facts_or_everyday_words(criteria: Mapping[str, Mapping[str, Any]], t: Mapping[str, float],
                             title_info: float | None, modern: str) -> tuple[str, tuple[str, ...]] | None:
    """The 品 that the poem's facts or its words decide before any score: 荒牌 for a festival poem that writes the
    customs of other days or a season's poem the things of three seasons (貫理's ``mixed_days``: 事實雜亂); 下品 for
    one subject in everyday words (``modern``: the 意味平平 sentence of a poem in modern words) that does not leave its
    title (貼題 not below its floor, the 離題 line), however its lines hold together by the Tang models; None
    otherwise."""
    if mixed := (criteria.get("貫理") or {}).get("mixed_days"):
        return "荒牌", (f"{mixed}。",)
    relevance = (criteria.get("貼題") or {}).get("score")
    if not modern or (relevance is not None and relevance < t["貼題_floor"]):
        return None
    faults = _faults(criteria, t, title_info)
    if faults and t["失格荒牌"] >= 0.5:
        return "荒牌", tuple(f"{f}（本局失格即荒牌）。" for f in faults)
    return "下品", (f"{modern}，至多下品。",) + tuple(f"{f}。" for f in faults)


def suggest_grade(score: float, criteria: Mapping[str, Mapping[str, Any]],
                  thresholds: Mapping[str, float] | None = None,
                  title_info: float | None = None) -> tuple[str, tuple[str, ...]]:
    """Turn the combined score and the criteria into a 品 and its reasons (see the module docstring).

    A criterion may carry ``faults`` (the checker's error messages, for 體不失 and 平仄和暢); ``title_info``
    is how much the title asks (``title_demand``: its topical part's ``title_information``).

    >>> suggest_grade(0.05, {"貫理": {"score": 0.02}})[0]
    '荒牌'
    >>> grade, reasons = suggest_grade(0.95, {"平仄和暢": {"score": 0.8, "faults": ["第三句第二字『山』應仄而平"]}})
    >>> grade, reasons[0]
    ('下品', '格律有誤：第三句第二字『山』應仄而平，至多下品。')
    """
    t = merge_thresholds(thresholds)

    def s(name: str) -> float | None:
        return (criteria.get(name) or {}).get("score")

    coherence = s("貫理")
    form_ok = all(s(n) is None or s(n) >= t["form_floor"] for n in ("體不失", "平仄和暢"))
    everyday = _everyday(criteria)  # the Tang models cannot read whether everyday words hang together
    flat, modern = _flat(criteria, t)
    if early := _facts_or_everyday_words(criteria, t, title_info, flat if modern else ""):
        return early
    if score < t["荒牌"]:
        if _scattered(criteria) and not everyday:  # 事實雜亂，首尾斷續
            return "荒牌", (f"綜合分 {_floor2(score)}，低於荒牌門檻 {t['荒牌']:.2f}。", _weakest(criteria))
        low = f"綜合分 {_floor2(score)} 低於荒牌門檻 {t['荒牌']:.2f}"
        held = _held_in_everyday_words(criteria) if everyday else _held(criteria)
        return "下品", (f"{low}，{held}，未見事實雜亂，至多下品。", _weakest(criteria))
    # a jumble is 荒牌 whatever the score: lines that hold nothing in common, and a form or ends that show it
    if coherence is not None and coherence < t["貫理_floor"] and _ends_or_form_broken(criteria) is not False \
            and not everyday:
        return "荒牌", (f"貫理僅 {coherence:.2f}：{criteria['貫理'].get('explanation', '')}",)
    if score < t["中品"] and not form_ok and not everyday:
        return "荒牌", (f"綜合分 {_floor2(score)} 未達中品，且體式或平仄不合。",) + tuple(_faults(criteria, t, None))
    faults = _faults(criteria, t, title_info)
    if faults:  # 題、體不失，平仄和暢 is what 下品 asks at least
        if t["失格荒牌"] >= 0.5:
            return "荒牌", tuple(f"{f}（本局失格即荒牌）。" for f in faults)
        return "下品", tuple(f"{f}，至多下品。" for f in faults)
    if flat:  # 題、體不失，平仄和暢，但意味平平
        return "下品", (f"{flat}，至多下品。",)
    if score < t["中品"]:
        return "下品", (f"綜合分 {_floor2(score)} 未達中品門檻 {t['中品']:.2f}。", _weakest(criteria))
    floor = t["上品_floor"]
    # a 上品 criterion is met at the floor, or where three Tang poems in four score (its good band)
    shortfalls = [n for n in UPPER_CRITERIA if s(n) is not None and _short(n, criteria[n], floor)]
    if score >= t["上品"] and not shortfalls:
        # a criterion its explanation decides is met by what it says (各聯相承), not by a figure under the floor
        met = "、".join(n if "fault" in criteria[n] else f"{n} {_floor2(s(n))}"
                       for n in UPPER_CRITERIA if s(n) is not None)
        return "上品", (f"綜合分 {_floor2(score)} 達上品門檻 {t['上品']:.2f}；{met}，皆達上品之限。",)
    reasons = [f"綜合分 {_floor2(score)} 達中品門檻 {t['中品']:.2f}。"]
    if score < t["上品"]:
        reasons.append(f"未達上品門檻 {t['上品']:.2f}；{_weakest(criteria)}")
    by_score = [n for n in shortfalls if "fault" not in criteria[n]]
    if by_score:
        reasons.append("未入上品：" + "、".join(f"{n} {_floor2(s(n))}" for n in by_score) + f" 低於 {floor:.2f}。")
    reasons += [f"未入上品：{n}，{criteria[n]['explanation']}" for n in shortfalls if n not in by_score]
    return "中品", tuple(reasons)

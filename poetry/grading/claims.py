"""The negative claims a grade's words make about a poem's passages, by kind, for measuring and testing them.

Issue 14 (part 4): a claim that a famous line is awkward or a famous couplet loose is a bug. Each kind below is
one sentence the explanations (poetry.grading.explanations, criteria, diction) or the rubric's reasons can say
that finds fault with the poem or a passage of it; scripts/eval_claims.py counts how many celebrated poems
receive each, and tests/test_grading_claims.py asserts that a committed sample of them receives none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Iterator, Mapping

#: Each kind of negative claim: (the criterion whose explanation says it, or "reasons" for the rubric's, the
#: words that say it). The claims the checker makes (平仄, 押韻, 重字) are issue 13's and are not listed.
CLAIM_KINDS = MappingProxyType({
    "不甚相屬": ("聯句切當", re.compile(r"不甚相屬")),  # a couplet of a poem that is not a 律詩
    "對仗不工": ("聯句切當", re.compile(r"對仗不工|對仗稍寬")),  # a 律詩's middle couplet
    "意象少有相通": ("貫理", re.compile(r"意象少有相通|相去尤遠")),  # a quatrain's lines
    "事實雜亂": ("貫理", re.compile(r"事實雜亂|斷開")),  # a longer poem's couplets
    "似兩首詩": ("貫理", re.compile(r"隔句相間|上下不相屬")),
    "首尾斷續": ("首尾貫通", re.compile(r"首尾斷續|各說各話")),
    "字序": ("一氣呵成", re.compile(r"唐詩中少見這樣的用法|字序多與唐人詩不同")),
    "套語": ("語句清新", re.compile(r"(?<![無亦])套語成句")),  # not 亦無套語成句
    "常語": ("語句清新", re.compile(r"句近唐詩常語")),
    "今語": ("語句清新", re.compile(r"今語「")),
    "未及題意": ("貼題", re.compile(r"未及題意")),
    "離題": ("貼題", re.compile(r"離題")),
    "若即若離": ("貼題", re.compile(r"若即若離")),
    "意味平平": ("reasons", re.compile(r"^意味平平")),
    "離題（品）": ("reasons", re.compile(r"^離題")),
})


@dataclass(frozen=True)
class Claim:
    """One negative claim: its kind, the criterion (or "reasons") that says it, and the sentence."""

    kind: str
    where: str
    sentence: str


def negative_claims(criteria: Mapping[str, Mapping[str, Any]], reasons: tuple[str, ...] = ()) -> Iterator[Claim]:
    """The negative claims of a grade's criteria and reasons, each kind once per place.

    >>> [c.kind for c in negative_claims({"聯句切當": {"explanation": "但「甲／乙」上下句不甚相屬。"}})]
    ['不甚相屬']
    """
    for kind, (where, words) in CLAIM_KINDS.items():
        texts = reasons if where == "reasons" else [(criteria.get(where) or {}).get("explanation") or ""]
        for text in texts:
            if words.search(text):
                yield Claim(kind, where, text)
                break

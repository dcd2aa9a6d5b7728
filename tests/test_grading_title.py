"""貼題 by meaning (issue 14): the probe set of tests/data/title_fit_cases.json, written before the software
ran on it, and the words 貼題 says."""

import json
import statistics
from functools import cache
from pathlib import Path

from poetry.grading import grade_poem
from poetry.grading.title_meaning import answers, meaning_features

CASES = json.loads((Path(__file__).parent / "data" / "title_fit_cases.json").read_text(encoding="utf-8"))


def as_text(lines):
    return "".join(line + ("，" if i % 2 == 0 else "。") for i, line in enumerate(lines))


@cache
def fit(text, title):
    return grade_poem(text, title=title).criteria["貼題"]["score"]


def own_scores():
    return {p["id"]: fit(p["text"], p["title"]) for p in CASES["poems"]}


def test_own_title_above_wrong_titles():
    own = own_scores()
    pairs = [(own[p["id"]], fit(p["text"], t)) for p in CASES["poems"] for t in p["wrong"]]
    right = sum(a > b for a, b in pairs)
    assert right >= 0.9 * len(pairs), f"{right} of {len(pairs)} pairs in order"


def test_retitled_jumble_not_rescued_by_its_own_word():
    own = own_scores()
    median = statistics.median(own.values())
    jumbles = {j["id"]: fit(as_text(j["lines"]), j["title"]) for j in CASES["jumbles"]}
    assert all(s < median for s in jumbles.values()), (median, jumbles)
    # a shared word alone no longer gives the full fit (before issue 14 five of the six had 0.998 or more)
    assert statistics.median(jumbles.values()) < 0.7, jumbles
    below_source = sum(own[j["source"]] > jumbles[j["id"]] for j in CASES["jumbles"])
    assert below_source >= 4, (below_source, jumbles)


def test_snow_poem_without_snow_answers_its_title():
    body = ["六出飛花入戶時", "坐看青竹變瓊枝", "如今好上高樓望", "蓋盡人間惡路岐"]  # 高駢《對雪》
    snow, summer = meaning_features("對雪", body), meaning_features("夏日山中", body)
    assert snow["rel_shared"] == 0
    assert snow["rel_mean_assoc"] > summer["rel_mean_assoc"]
    assert answers("對雪", body)[0].unit == "雪"


def test_explanation_names_the_answering_passage():
    text = "鸞扇斜分鳳幄開，星橋橫過鵲飛回。爭將世上無期別，換得年年一度來。"  # 李商隱《七夕》
    words = grade_poem(text, title="七夕").criteria["貼題"]["explanation"]
    assert "題中「七夕」" in words and "「星橋橫過鵲飛回」" in words, words
    assert not any(ch.isdigit() for ch in words)


def test_explanation_of_a_retitled_jumble_says_the_word_stands_alone():
    jumble = next(j for j in CASES["jumbles"] if j["title"] == "寒燈")
    words = grade_poem(as_text(jumble["lines"]), title="寒燈").criteria["貼題"]["explanation"]
    # claims14: its backing (0.18) is as weak as one 唐詩三百首 poem in ten shows, too common to claim 未及題意 (only
    # below 0.04, the 2% point); the words point at where the title stands and no longer praise 切合
    assert "見於「寒燈獨可親」" in words and "切合" not in words, words


def test_a_character_of_a_title_word_answers_only_within_it():
    """春日懷人 asks 春日 and 懷人: its 日 alone is the 日 of 九日, which 重陽 poems answer with 菊, and 王禹偁's
    autumn 村行 under it had been told 「日」 was answered by 「菊」."""
    from poetry.grading.title_meaning import answers

    lines = ["馬穿山徑菊初黃", "信馬悠悠野興長", "萬壑有聲含晚籟", "數峰無語立斜陽"]
    assert not [a for a in answers("春日懷人", lines) if a.unit in "春日懷人" and len(a.unit) == 1]
    assert [a.unit for a in answers("對雪", ["六出飛花入戶時", "坐看青竹變瓊枝"], k=1)] == ["雪"]

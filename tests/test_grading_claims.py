"""Claims about celebrated poems (issue 14, part 4; claims14): a negative claim about a passage is made only where the
evidence is as strong as the rare tail of 唐詩三百首, so a committed sample of 千家詩 (never tuned on) receives none,
while jumbles, broken 律詩 and modern or stock diction still do."""

import json
from pathlib import Path

import pytest

from poetry.grading import grade_poem
from poetry.grading.claims import negative_claims

SAMPLE = json.loads((Path(__file__).parent / "data" / "celebrated_claims.json").read_text(encoding="utf-8"))["poems"]
#: The kinds whose thresholds claims14 moved to the rare tail of 唐詩三百首 (scripts/eval_claims.py).
FIXED = ("不甚相屬", "對仗不工", "首尾斷續", "套語", "常語", "今語", "未及題意", "若即若離")


def kinds(text: str, title: str) -> set[str]:
    g = grade_poem(text, title=title)
    return {c.kind for c in negative_claims(g.criteria, g.reasons)}


#: Poems of the sample that still receive a claim of a fixed kind at the thresholds chosen on 唐詩三百首 (the sample
#: was drawn before the claims were measured on it; they are reported, not tuned away: docs/BENCHMARKS.md, claims14).
STILL_CLAIMED = {
    "寒夜": "今語: 「一樣」 in a 七絕 is 0.071 of the characters, over the 99% point of 唐詩三百首 (0.044)",
}
# 王安石《元日》 was told 未及題意 (題中「日」 backed 0.031) until poetry.grading.festivals read 爆竹、屠蘇、桃符 as
# 元日's customs (ninth session).
# 賀知章《題袁氏別業》 was claimed too (every line 常語, 意味平平) until poetry.lm.known_poem: 全唐詩's LMs learned it,
# so its ease is memory, not commonplace diction (eighth session)


def _marked(poem: dict):
    """The poem as a parameter, a strict xfail if it is one of STILL_CLAIMED."""
    reason = STILL_CLAIMED.get(poem["title"])
    return pytest.param(poem, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else poem


@pytest.mark.parametrize("poem", [_marked(p) for p in SAMPLE], ids=[f"{p['author']}《{p['title']}》" for p in SAMPLE])
def test_a_celebrated_poem_receives_no_claim_of_the_fixed_kinds(poem):
    assert not kinds(poem["text"], poem["title"]) & set(FIXED), poem["title"]


def test_yuanri_is_not_told_its_couplet_is_loose_nor_its_line_stock():
    """王安石《元日》 was told its first couplet did not hold and 千門萬戶曈曈日 was a stock line."""
    g = grade_poem("爆竹聲中一歲除，春風送暖入屠蘇。千門萬戶曈曈日，總把新桃換舊符。", title="元日")
    said = " ".join(c["explanation"] for c in g.criteria.values())
    assert "不甚相屬" not in said and "套語成句" not in said
    assert g.criteria["聯句切當"]["fault"] is False  # the grade does not fault what the words do not claim


def test_yuanri_answers_its_title_by_the_days_customs():
    """元日 is answered by 爆竹、屠蘇、桃符, which never write 元日, and its four lines are one day's: it was 荒牌 on
    貫理 0.05 (the topic vectors saw four unlike things) and told 未及題意."""
    g = grade_poem("爆竹聲中一歲除，春風送暖入屠蘇。千門萬戶曈曈日，總把新桃換舊符。", title="元日")
    assert "皆元日之事" in g.criteria["貼題"]["explanation"] and "未及題意" not in g.criteria["貼題"]["explanation"]
    assert g.criteria["貫理"]["score"] >= 0.7 and "寫元日之事" in g.criteria["貫理"]["explanation"]
    assert g.grade in ("上品", "中品")
    assert grade_poem("九日登高望，茱萸插鬢斜。黃花滿地遍，遙憶故園家。", title="中秋").criteria["貼題"]["score"] < 0.1


def test_two_poems_interleaved_are_still_told_their_couplet_does_not_hold():
    text = "爲有雲屏無限嬌，夜泊秦淮近酒家。無端嫁得金龜壻，隔江猶唱後庭花。"  # 爲有 with 泊秦淮's even lines
    c = grade_poem(text, title="爲有").criteria["聯句切當"]
    assert "「爲有雲屏無限嬌／夜泊秦淮近酒家」上下句不甚相屬" in c["explanation"] and c["fault"] is True


def test_a_lushi_with_an_unparallel_middle_couplet_is_still_told_so():
    text = "國破山河在，城春草木深。白日依山盡，疑是地上霜。烽火連三月，家書抵萬金。白頭搔更短，渾欲不勝簪。"
    c = grade_poem(text, title="春望").criteria["聯句切當"]
    assert "頷聯「白日依山盡／疑是地上霜」對仗不工" in c["explanation"] and c["fault"] is True


def test_an_opening_and_a_close_of_two_poems_are_still_told_apart():
    text = "獨在異鄉爲異客，每逢佳節倍思親。二十四橋明月夜，玉人何處教吹簫。"
    assert "首尾斷續" in kinds(text, "九月九日憶山東兄弟")


def test_modern_and_stock_diction_are_still_named():
    assert "今語" in kinds("登樓望遠山，白雲飄其間。風景真美麗，令人心悠閒。", "登樓")
    stock = grade_poem("夜雨打窗聲，聲聲入耳鳴。孤燈照不寐，思念故鄉情。", title="夜雨").criteria["語句清新"]
    assert "「孤燈照不寐」" in stock["explanation"]  # every line stock: named, as the 意味平平 reason names them


def test_a_jumble_titled_with_its_own_words_is_still_told_the_title_is_only_in_its_letters():
    cases = json.loads((Path(__file__).parent / "data" / "title_fit_cases.json").read_text(encoding="utf-8"))
    jumble = next(j for j in cases["jumbles"] if j["title"] == "楊柳")
    assert "未及題意" in kinds("，".join(jumble["lines"]) + "。", jumble["title"])


def test_a_gushi_that_rhymes_by_the_couplet_is_not_called_two_poems_in_turns():
    """fresh22's 憫農 (前村後村水車聲, a 古詩 changing rhyme every couplet) was told 「似兩首詩隔句相間」: its couplets
    each rhyme within themselves, so its odd and even lines are no two poems taken in turns."""
    text = ("前村後村水車聲，咿咿軋軋終夜鳴。皇天不雨四十日，高田何止龜兆出。田家眼穿望早禾，早禾不熟奈饑何。"
            "今年神祠禱不應，沽酒買牛空費多。天公高居民父母，有耳應聞下民語。乞我滂沱半朝雨，免遭縣吏鞭笞苦。")
    assert "隔句相間" not in grade_poem(text, title="憫農").criteria["貫理"]["explanation"]

"""詞藻堆砌 (poetry.grading.piling): stock scenery piled up is 意味平平; celebrated poems of pure scenery are not."""

import pytest

from poetry.grading import grade_poem
from poetry.grading.piling import piling, piling_level
from poetry.grading.rubric import DEFAULT_THRESHOLDS

#: Written for this test: every line a stock phrase of a country scene (青山綠水, 家家戶戶, 喜洋洋).
PILED = "青山綠水繞村莊，陣陣花香滿院黃。翠竹紅花春似錦，家家戶戶喜洋洋。"
PILED_SIMPLE = "青山绿水绕村庄，阵阵花香满院黄。翠竹红花春似锦，家家户户喜洋洋。"


@pytest.mark.parametrize("text", [PILED, PILED_SIMPLE])
def test_stock_scenery_piled_up_is_flat(text):
    """The same 下品 in 繁 and 简体, its reason naming what was piled, and 語句清新 lowered with it."""
    g = grade_poem(text, title="村居")
    assert g.grade == "下品"
    assert g.reasons[0].startswith("意味平平：詞藻堆砌")
    assert "「青山綠水」" in g.reasons[0] and "疊字" in g.reasons[0]
    assert g.criteria["語句清新"]["explanation"].startswith("詞藻堆砌")
    assert g.criteria["語句清新"]["score"] < 0.5


@pytest.mark.parametrize("title,text", [
    ("絕句", "兩個黃鸝鳴翠柳，一行白鷺上青天。窗含西嶺千秋雪，門泊東吳萬里船。"),  # 杜甫: colours, all scenery
    ("江雪", "千山鳥飛絕，萬徑人蹤滅。孤舟蓑笠翁，獨釣寒江雪。"),
    ("山行", "遠上寒山石徑斜，白雲生處有人家。停車坐愛楓林晚，霜葉紅於二月花。"),
])
def test_celebrated_scenery_is_not_piled(title, text):
    g = grade_poem(text, title=title)
    assert g.criteria["語句清新"]["diction"]["piled"] < piling_level()
    assert not any("堆砌" in r for r in g.reasons)


def test_the_rubric_calls_it_at_the_level_of_the_data():
    """平平_piled's default is data/grading_piling.json's level (rebuild both together)."""
    assert DEFAULT_THRESHOLDS["平平_piled"] == pytest.approx(piling_level(), abs=1e-4)


def test_a_round_may_raise_the_level():
    g = grade_poem(PILED, title="村居", thresholds={"平平_piled": 1.0})
    assert not any(r.startswith("意味平平：詞藻堆砌") for r in g.reasons)


def test_a_single_line_is_not_measured():
    assert piling(["青山綠水繞村莊"]) is None

"""聯句切當 through 對仗 (issue 14, duizhang14): figures, 對類 classes, and explanations that point at words."""

import json
from pathlib import Path

import pytest

from poetry.grading import grade_poem
from poetry.grading.criteria import couplet_parallel, loose_line
from poetry.grading.duizhang import class_agreement, duilei, figure_agreement
from poetry.grading.explanations import couplet_fault, couplet_praise

DATA = Path(__file__).parent / "data"
CASES = json.loads((DATA / "duizhang_cases.json").read_text(encoding="utf-8"))
CELEBRATED = json.loads((DATA / "celebrated_lines.json").read_text(encoding="utf-8"))["poems"]
PARALLEL = [(p["title"], a, b) for p in CELEBRATED for a, b in p["couplets"]
            if a not in CASES["celebrated_not_parallel"]]


@pytest.mark.parametrize(("title", "a", "b"), PARALLEL, ids=[a for _, a, _ in PARALLEL])
def test_no_celebrated_parallel_couplet_is_called_loose(title, a, b):
    assert couplet_parallel(a, b) >= loose_line(), (title, a, b)


def test_the_probe_set_is_told_apart():
    from sklearn.metrics import roc_auc_score

    cases = CASES["cases"]
    scores = [couplet_parallel(c["a"], c["b"]) for c in cases]
    assert roc_auc_score([c["parallel"] for c in cases], scores) > 0.9


def test_repetition_figures_answered_in_both_lines_only():
    assert figure_agreement("無邊落木蕭蕭下", "不盡長江滾滾來") == 1.0
    assert figure_agreement("即從巴峽穿巫峽", "便下襄陽向洛陽") == 1.0
    assert figure_agreement("君問歸期未有期", "巴山夜雨漲秋池") == -1.0
    assert figure_agreement("明月松間照", "清泉石上流") == 0.0


def test_borrowed_sense_faces_numbers():
    assert "數目" in duilei()["尋"] and "數目" in duilei()["七"]
    assert class_agreement("尋常", "七十") == (1.0, 0.0)
    assert class_agreement("酒債尋常", "人生七十")[0] > class_agreement("酒債行處", "人生七十")[0]


def test_praise_quotes_the_words_that_face_each_other():
    text = couplet_praise(("頷聯",), (("萬里悲秋常作客", "百年多病獨登臺"),))
    assert "「萬里」對「百年」" in text


def test_a_fault_points_at_the_characters():
    text = couplet_fault("床前明月光", "疑是地上霜")
    assert "對仗不工" in text and "「明」對「地」" in text


def test_the_explanation_of_a_celebrated_lushi_says_what_is_parallel():
    g = grade_poem("風急天高猿嘯哀，渚清沙白鳥飛回。無邊落木蕭蕭下，不盡長江滾滾來。"
                   "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。", title="登高")
    text = g.criteria["聯句切當"]["explanation"]
    assert "「蕭蕭」對「滾滾」" in text and "不工" not in text

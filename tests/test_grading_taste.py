"""格調 (issue 14, taste): the anthologist's taste, exposed in the Grade and lifting only trusted poems."""

import json
import re
from pathlib import Path

import pytest

from poetry.grading import grade_poem, grade_to_dict
from poetry.grading.taste import blend, competence

CELEBRATED = json.loads((Path(__file__).parent / "data" / "celebrated_lines.json").read_text(encoding="utf-8"))["poems"]
DENGGAO = ("風急天高猿嘯哀，渚清沙白鳥飛迴。無邊落木蕭蕭下，不盡長江滾滾來。"
           "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。")
#: A hurried player's quatrain in modern diction (the graded set's kind of weak poem).
MODERN = "春天風景真美麗，花兒朵朵笑開顏。我們一起去遊玩，心情很是好逍遙。"


def test_the_grade_carries_taste_with_a_passage_and_no_figures():
    g = grade_poem(DENGGAO, title="登高")
    assert g.taste["label"] == "格調" and 0.0 <= g.taste["score"] <= 1.0
    quoted = re.findall(r"「([^「」]+)」", g.taste["explanation"])
    assert quoted and all(q in g.lines for q in quoted)
    assert not re.search(r"\d", g.taste["explanation"])
    assert grade_to_dict(g)["taste"]["explanation"] == g.taste["explanation"]


def test_a_tang_poem_has_more_taste_than_modern_diction():
    assert grade_poem(DENGGAO, title="登高").taste["score"] > grade_poem(MODERN, title="遊園").taste["score"] + 0.3


def test_taste_is_the_same_in_simplified_characters():
    tang = grade_poem("国破山河在，城春草木深。感时花溅泪，恨别鸟惊心。", title="春望")
    trad = grade_poem("國破山河在，城春草木深。感時花濺淚，恨別鳥驚心。", title="春望")
    assert tang.taste["score"] == trad.taste["score"] and tang.score == trad.score


@pytest.mark.parametrize("poem", CELEBRATED, ids=[p["title"] for p in CELEBRATED])
def test_taste_never_lowers_the_score_of_a_celebrated_poem(poem):
    from poetry.grading import base_score, measure_poem

    g = grade_poem(poem["text"], title=poem["title"])
    _, title, criteria, _ = measure_poem(poem["text"], title=poem["title"])
    assert g.score >= base_score(criteria, title)


def test_the_gate_keeps_taste_from_lifting_a_poem_a_criterion_distrusts():
    trusted = {"貫理": {"score": 0.95}, "一氣呵成": {"score": 0.9}, "貼題": {"score": None}}
    jumble = {"貫理": {"score": 0.1}, "一氣呵成": {"score": 0.9}, "貼題": {"score": 0.8}}
    assert blend(0.6, 1.0, 2.0, competence(trusted)) > 0.7
    assert blend(0.6, 1.0, 2.0, competence(jumble)) < 0.6005
    assert blend(0.6, -2.0, 2.0, 1.0) == pytest.approx(0.6)


def test_a_held_out_taste_model_scores_the_choice_as_unseen():
    """The anthology measure scores 杜甫's poems with the taste model fitted without 杜甫's group of authors: its
    weights differ from the shipped model's, the score it gives differs, and with the shipped model the
    measure's path is grade_poem's own (one scoring function)."""
    from poetry.grading import held_out_spec, measure_written, scored
    from poetry.grading.taste import _taste_model

    written, criteria, _ = measure_written(DENGGAO, "登高")
    shipped, fold = scored(written, criteria), scored(written, criteria, held_out_spec("杜甫"))
    assert shipped[0] == grade_poem(DENGGAO, title="登高").score
    assert held_out_spec("杜甫")["coef"] != _taste_model()["coef"]
    assert fold[1]["z"] != shipped[1]["z"]
    assert held_out_spec("no such poet") is _taste_model()

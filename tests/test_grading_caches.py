"""What the grading keeps or computes together to be fast gives the same answers as computing each thing alone."""

from __future__ import annotations

import pytest

from poetry import lm
from poetry.checker import check_poem
from poetry.grading import grade_poem, grade_to_dict, reload_models
from poetry.grading.measures import char_features, couplet_features
from poetry.grading.variants import _choose, _read_lines, read_as_simplified

CHANGHEN = ["漢皇重色思傾國", "御宇多年求不得", "楊家有女初長成", "養在深閨人未識", "天生麗質難自棄", "一朝選在君王側"]


def test_one_model_per_direction_whatever_the_arguments():
    assert lm.load_lm() is lm.load_lm(None) is lm.load_lm(None, reversed=False)
    assert lm.load_lm(reversed=True) is lm.load_lm(None, True)
    assert lm.load_lm() is not lm.load_lm(reversed=True)


@pytest.mark.parametrize("reversed_", [False, True])
def test_lines_scored_together_score_as_each_alone(reversed_):
    model = lm.load_lm(reversed=reversed_)
    # lines of every length (none, one, two chars: no trigram), an unknown char, a line twice
    lines = CHANGHEN + ["", "白", "白日", "𠀋山", "白日依山盡", "白日依山盡", "床前看月光疑是地上霜"]
    together = model.score_lines(lines)
    assert [s.line for s in together] == lines
    assert together == [model._score_line(x) for x in lines]
    assert [model.score_line(x) for x in lines] == together  # kept, and read back the same


def test_a_line_no_longer_kept_is_scored_again_alike(monkeypatch):
    model = lm.load_lm()
    first = model.score_line("孤帆遠影碧空盡")
    monkeypatch.setattr(lm, "SCORED_LINES", 2)
    model.score_lines(CHANGHEN)  # pushes out all but the last two
    assert "孤帆遠影碧空盡" not in model._scored and len(model._scored) == 2
    assert model.score_line("孤帆遠影碧空盡") == first


def test_kept_measures_are_not_shared_with_the_caller():
    a = couplet_features("明月松間照", "清泉石上流")
    a["pair_cos"] = 99.0
    assert couplet_features("明月松間照", "清泉石上流")["pair_cos"] != 99.0
    x = char_features(["白日依山盡", "黃河入海流"])
    x[:] = 0
    assert char_features(["白日依山盡", "黃河入海流"]).any()


def test_open_chars_weighed_across_lines_as_line_by_line():
    # 简体 lines whose chars stand for several 繁 forms (干 乾 幹, 游 遊, 里 裏, 发 發 髮)
    typed = ["白云天上游", "长干行里发", "春风又绿江南岸", "万里赴戎机", "白发三千丈"]
    texts = [(x, x) for x in typed]
    assert _read_lines(texts) == [read_as_simplified(x, c) for x, c in texts]
    assert _choose([], []) == []


def test_the_checker_without_mends_finds_the_same_faults():
    text = "爆竹声中一岁除，春风送暖入屠门。千门万户曈曈日，总把新桃换旧符。"
    full, bare = check_poem(text), check_poem(text, suggest_fixes=False)
    assert any(v.suggestions for v in full.violations)
    assert not any(v.suggestions for v in bare.violations)
    assert [(v.line, v.pos, v.kind, v.severity, v.message) for v in full.violations] == \
        [(v.line, v.pos, v.kind, v.severity, v.message) for v in bare.violations]
    assert (full.form, full.verdict, full.summary, full.notes) == (bare.form, bare.verdict, bare.summary, bare.notes)


def test_a_poem_graded_with_everything_kept_grades_as_from_cold():
    poem = "，".join(CHANGHEN) + "。"
    warm = [grade_to_dict(grade_poem(poem, "長恨歌"))]
    grade_poem("國破山河在，城春草木深。感時花濺淚，恨別鳥驚心。", "春望")
    warm.append(grade_to_dict(grade_poem(poem, "長恨歌")))
    reload_models()  # forgets the models and every measure kept of them
    assert warm == [grade_to_dict(grade_poem(poem, "長恨歌"))] * 2

"""Grading: criteria on real verse (唐詩三百首, held out of the models) and hand-made degradations."""

import io
import json
import re

import pytest

from poetry import cli
from poetry.errors import MalformedPoemError
from poetry.grading import (
    CRITERIA,
    DEFAULT_THRESHOLDS,
    GRADES,
    Band,
    band_of,
    clean_title,
    grade_poem,
    merge_thresholds,
    parallel_score,
    suggest_grade,
)
from poetry.text import split_lines

# 杜甫《春望》, 王維《山居秋暝》, 杜甫《登高》: all in 唐詩三百首, so no model was trained on them.
CHUNWANG = "國破山河在，城春草木深。感時花濺淚，恨別鳥驚心。烽火連三月，家書抵萬金。白頭搔更短，渾欲不勝簪。"
SHANJU = "空山新雨後，天氣晚來秋。明月松間照，清泉石上流。竹喧歸浣女，蓮動下漁舟。隨意春芳歇，王孫自可留。"
DENGGAO = ("風急天高猿嘯哀，渚清沙白鳥飛回。無邊落木蕭蕭下，不盡長江滾滾來。"
           "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。")


def lines_of(text):
    return split_lines(text)


def as_text(lines):
    return "".join(line + ("，" if i % 2 == 0 else "。") for i, line in enumerate(lines))


def test_split_lines_drops_notes_and_punctuation():
    assert split_lines("床前明月光（一作看月光），疑是地上霜。\n舉頭望明月，低頭思故鄉。") == [
        "床前明月光", "疑是地上霜", "舉頭望明月", "低頭思故鄉"]


def test_clean_title_drops_numbering():
    assert clean_title("秋興八首 其一") == "秋興"
    assert clean_title(None) == ""


def test_grade_has_every_criterion_in_range():
    g = grade_poem(CHUNWANG, title="春望")
    assert g.grade in GRADES
    assert set(g.criteria) == set(CRITERIA)
    for name, c in g.criteria.items():
        assert c["score"] is None or 0 <= c["score"] <= 1, name
        assert c["explanation"], name
    assert g.reasons and g.form == "五言律詩"


@pytest.mark.parametrize("a,b", [("明月松間照", "清泉石上流"), ("竹喧歸浣女", "蓮動下漁舟"),
                                 ("感時花濺淚", "恨別鳥驚心"), ("無邊落木蕭蕭下", "不盡長江滾滾來")])
def test_parallel_couplet_scores_above_non_parallel(a, b):
    strangers = ["王孫自可留", "家書抵萬金", "潦倒新停濁酒杯", "天氣晚來秋"]
    for other in strangers:
        if len(other) == len(b):
            assert parallel_score(a, b) > parallel_score(a, other) + 0.3


def test_lushi_with_parallel_middle_couplets_scores_higher_on_couplets():
    real = grade_poem(SHANJU, title="山居秋暝")
    lines = lines_of(SHANJU)
    lines[3], lines[5] = lines[5], lines[3]  # 頷聯 and 頸聯 no longer parallel
    broken = grade_poem(as_text(lines), title="山居秋暝")
    assert real.criteria["聯句切當"]["score"] > broken.criteria["聯句切當"]["score"]


@pytest.mark.parametrize("text,title,donor", [(CHUNWANG, "春望", SHANJU), (SHANJU, "山居秋暝", CHUNWANG)])
def test_shuffled_poem_scores_below_its_original(text, title, donor):
    real, other = lines_of(text), lines_of(donor)
    mixed = [real[i] if i % 2 == 0 else other[i] for i in range(len(real))]
    g_real, g_mixed = grade_poem(text, title=title), grade_poem(as_text(mixed), title=title)
    assert g_mixed.score < g_real.score
    assert g_mixed.criteria["貫理"]["score"] < g_real.criteria["貫理"]["score"]


def test_corrupted_poem_reads_less_fluently():
    lines = lines_of(DENGGAO)
    # the same tones, other characters: 平 for 平, 仄 for 仄
    corrupt = ["風急天高猿嘯哀", "渚清沙白鳥飛回", "無邊落木蕭蕭下", "不盡長江滾滾來",
               "萬里悲秋常作客", "百年多病獨登臺", "艱難苦恨繁霜鬢", "潦倒新停濁酒杯"]
    corrupt[2] = "無邊綠石蕭蕭下"
    corrupt[4] = "萬里悲花常寄客"
    corrupt[6] = "艱難苦去繁心鬢"
    corrupt[7] = "潦倒新停國酒杯"
    real = grade_poem(DENGGAO, title="登高")
    bad = grade_poem(as_text(corrupt), title="登高")
    assert bad.criteria["一氣呵成"]["score"] < real.criteria["一氣呵成"]["score"]
    assert bad.score < real.score
    assert lines != corrupt


def test_detector_points_at_the_swapped_characters():
    # 《登高》 with four characters swapped for frequent ones of the same tone (落木 → 綠石, 作 → 寄):
    # the detector's most suspected characters include swapped ones, and the poem-level evidence falls
    from poetry.grading import char_features, detector_features, suspicious_chars
    from poetry.grading.models import _model

    real = lines_of(DENGGAO)
    bad = list(real)
    bad[2], bad[4] = "無邊綠石蕭蕭下", "萬里悲秋常寄客"
    swapped = {(bad[2], "綠"), (bad[2], "石"), (bad[4], "寄")}
    top = {(line, ch) for line, ch, _ in suspicious_chars(bad, k=4)}
    assert top & swapped
    spec = _model()["char_detector"]
    assert (detector_features(spec, char_features(bad))["det_llr"]
            < detector_features(spec, char_features(real))["det_llr"])
    assert char_features(real).shape == (56, len(spec["features"]))


def test_a_pair_song_poets_wrote_is_never_more_suspect():
    # a character whose pairs with its neighbours are written in Song verse (the detector's verse_* features) is
    # diction the Tang LMs rarely saw, not a swap: with those pairs unattested, every character is as suspect or
    # more, and some pairs of a Song line (陸游's 「小樓一夜聽春雨」) are attested
    import numpy as np

    from poetry.grading import char_features, char_suspicion
    from poetry.grading.measures import CHAR_FEATURES
    from poetry.grading.models import _model

    spec = _model()["char_detector"]
    X = char_features(["小樓一夜聽春雨", "深巷明朝賣杏花"])
    verse = [CHAR_FEATURES.index(n) for n in ("verse_left", "verse_right", "verse_both")]
    unattested = X.copy()
    unattested[:, verse] = 0.0
    assert X[:, verse].sum() > 0
    assert np.all(char_suspicion(spec, X) <= char_suspicion(spec, unattested) + 1e-12)
    assert np.any(char_suspicion(spec, X) < char_suspicion(spec, unattested))


@pytest.mark.parametrize("text,title,wrong", [(SHANJU, "山居秋暝", "出塞"), (CHUNWANG, "春望", "送友人"),
                                              (DENGGAO, "登高", "閨怨")])
def test_off_topic_title_scores_below_the_real_one(text, title, wrong):
    right, off = grade_poem(text, title=title), grade_poem(text, title=wrong)
    assert off.criteria["貼題"]["score"] < right.criteria["貼題"]["score"]
    assert off.score < right.score


def test_no_title_means_no_relevance_score():
    g = grade_poem(SHANJU)
    assert g.criteria["貼題"]["score"] is None


def test_title_line_in_text_is_used():
    g = grade_poem("山居秋暝\n" + SHANJU)
    assert g.title == "山居秋暝" and g.criteria["貼題"]["score"] is not None


def test_thresholds_change_the_suggested_grade():
    g = grade_poem(CHUNWANG, title="春望")
    # under a 荒牌 threshold above its score 春望 is 下品, not 荒牌: its sense holds (事實雜亂 is what 荒牌 means);
    # with the coherence floor raised past its 貫理 a 春望 with a broken line is 荒牌, the poem itself is not (its form
    # and its ends hold: lines the models read as apart are a turn, not 事實雜亂)
    assert grade_poem(CHUNWANG, title="春望", thresholds={"荒牌": 0.99, "中品": 0.995}).grade == "下品"
    broken = CHUNWANG.replace("感時花濺淚", "感物花濺淚")  # 物 仄 where 時 平 is asked
    assert grade_poem(broken, title="春望").grade == "下品"
    assert grade_poem(broken, title="春望", thresholds={"貫理_floor": 1.0}).grade == "荒牌"
    assert grade_poem(CHUNWANG, title="春望", thresholds={"貫理_floor": 1.0}).grade != "荒牌"
    assert grade_poem(CHUNWANG, title="春望", thresholds={"中品": 0.0, "上品": 0.0, "上品_floor": 0.0}).grade == "上品"
    assert g.grade in ("上品", "中品")


def test_suggest_grade_rules():
    good = {n: {"score": 0.9} for n in CRITERIA}
    assert suggest_grade(0.95, good)[0] == "上品"
    assert suggest_grade(0.7, good)[0] == "中品"
    assert suggest_grade(0.4, good)[0] == "下品"
    bad_form = dict(good, 平仄和暢={"score": 0.2})
    assert suggest_grade(0.4, bad_form)[0] == "荒牌"
    assert suggest_grade(0.95, dict(good, 聯句切當={"score": 0.2}))[0] == "中品"
    # lines that hold nothing in common are 荒牌 where the form or the ends show it too, else a turn (中品 here)
    faulted = {"score": 0.9, "faults": ["失黏"]}
    assert suggest_grade(0.9, dict(good, 貫理={"score": 0.01}, 平仄和暢=faulted))[0] == "荒牌"
    assert suggest_grade(0.9, dict(good, 貫理={"score": 0.01}, 首尾貫通={"score": 0.01}))[0] == "荒牌"
    assert suggest_grade(0.9, dict(good, 貫理={"score": 0.01}))[0] == "中品"


def test_a_shortfall_is_never_shown_at_its_floor():
    """A criterion kept from 上品 just under the floor is shown rounded down (0.498 is 0.49, not 「0.50 低於 0.50」)."""
    good = {n: {"score": 0.95} for n in CRITERIA}
    grade, reasons = suggest_grade(0.9, dict(good, 語句清新={"score": 0.4981}))  # (一氣呵成 falls short only when poor)
    assert grade == "中品"
    assert "語句清新 0.49 低於 0.50" in reasons[-1]
    (shown, floor), = [pair for r in reasons for pair in re.findall(r"語句清新 (\d\.\d\d) 低於 (\d\.\d\d)", r)]
    assert float(shown) < float(floor)


def test_song_idiom_the_tang_lms_find_less_fluent_keeps_a_poem_from_shangpin_only_when_poor():
    """梅堯臣《魯山山行》: 一氣呵成 under 0.5 (the Tang LMs read Song idiom as less fluent), above its poor band, every
    other criterion met: 上品, as the 詩伯 graded it (it was 中品 by 一氣呵成 alone)."""
    g = grade_poem("適與野情愜，千山高復低。好峰隨處改，幽徑獨行迷。霜落熊升樹，林空鹿飲溪。人家在何許，雲外一聲雞。",
                   title="魯山山行")
    fluency = g.criteria["一氣呵成"]["score"]
    assert fluency < 0.5 and band_of("一氣呵成", fluency) is not Band.POOR
    assert g.grade == "上品"


def test_merge_thresholds_validates():
    assert merge_thresholds({"中品": 0.6})["中品"] == 0.6
    assert merge_thresholds(None) == dict(DEFAULT_THRESHOLDS)
    with pytest.raises(ValueError):
        merge_thresholds({"甲品": 0.5})
    with pytest.raises(ValueError):
        merge_thresholds({"中品": 2})


@pytest.mark.parametrize("text", ["", "   ", "hello world", "床前明月光"])
def test_unreadable_poems_raise(text):
    with pytest.raises(MalformedPoemError):
        grade_poem(text)


def test_cli_jsonl_keeps_going_after_a_bad_line(tmp_path, monkeypatch):
    rows = [{"id": "a", "title": "春望", "text": CHUNWANG}, "not json", {"id": "c", "text": ""},
            {"id": "d", "title": "登高", "text": DENGGAO}]
    path = tmp_path / "poems.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in rows),
                    encoding="utf-8")
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["grade", "--format", "jsonl", str(path)]) == 0
    results = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["id"] for r in results] == ["a", 2, "c", "d"]
    assert results[0]["grade"] in GRADES and set(results[0]["criteria"]) == set(CRITERIA)
    assert "error" in results[1] and "error" in results[2]
    assert results[3]["grade"] in GRADES


def test_cli_text_format(tmp_path, monkeypatch):
    path = tmp_path / "poem.txt"
    path.write_text("登高\n" + DENGGAO, encoding="utf-8")
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["grade", str(path)]) == 0
    text = out.getvalue()
    assert text.split()[0] in GRADES and "聯句切當" in text and "理由" in text


# --- the training excludes every evaluation poem -------------------------------------------------


def _poem(title, text, **extra):
    return {"title": title, "lines": split_lines(text), **extra}


def test_heldout_matches_finds_versions_of_anthology_poems():
    from scripts.build_grading import heldout_matches, split_corpus

    anthology = [_poem("春望", CHUNWANG), _poem("登高", DENGGAO)]
    variant = CHUNWANG.replace("渾欲", "渾慾")  # one character differs
    corpus = [
        _poem("春望", CHUNWANG, id="exact"),
        _poem("春望（一作春日）", variant, id="variant"),  # same title, shares lines
        _poem("無題", as_text(lines_of(DENGGAO)[:4] + lines_of(SHANJU)[:2]), id="half"),  # 4 of 6 lines
        _poem("山居秋暝", SHANJU, id="other"),
        _poem("雜詩", as_text([lines_of(CHUNWANG)[0]] + lines_of(SHANJU)[1:]), id="one-line"),
    ]
    held = heldout_matches(corpus, anthology)
    assert {corpus[i]["id"] for i in held} == {"exact", "variant", "half"}
    train, calib = split_corpus(corpus, held)
    assert not (set(train) | set(calib)) & held
    assert sorted(train + calib) == [i for i in range(len(corpus)) if i not in held]


# 李白《渡荊門送別》《送友人》 (唐詩三百首): 五言律詩, rhyming in 尤 like 山居秋暝 / in 庚
DU_JINGMEN = "渡遠荊門外，來從楚國遊。山隨平野盡，江入大荒流。月下飛天鏡，雲生結海樓。仍憐故鄉水，萬里送行舟。"
SONG_YOUREN = "青山橫北郭，白水繞東城。此地一為別，孤蓬萬里征。浮雲遊子意，落日故人情。揮手自茲去，蕭蕭班馬鳴。"


def test_interleaved_copies_take_turns_with_a_poem_of_the_same_shape_and_rhyme():
    from collections import Counter

    from scripts.build_grading import Degrader

    pool = [_poem("春望", CHUNWANG), _poem("山居秋暝", SHANJU), _poem("渡荊門送別", DU_JINGMEN),
            _poem("送友人", SONG_YOUREN), _poem("登鸛雀樓", "白日依山盡，黃河入海流。欲窮千里目，更上一層樓。")]
    deg = Degrader(pool, Counter("".join(CHUNWANG + SHANJU)))
    own, donor = lines_of(SHANJU), lines_of(DU_JINGMEN)
    for _ in range(5):  # 渡荊門送別 is the only other poem rhyming in 尤
        mixed = deg.interleaved(pool[1])["lines"]
        assert mixed[0::2] == own[0::2] and mixed[1::2] == donor[1::2]
    assert deg.interleaved(pool[4]) is None  # no other 絕句 to take turns with
    # the other kinds draw as they did before the interleaved copies existed
    assert Degrader(pool, Counter(CHUNWANG)).shuffled(pool[0]) == Degrader(pool, Counter(CHUNWANG)).shuffled(pool[0])


@pytest.mark.parametrize("text,title,donor", [(SHANJU, "山居秋暝", DU_JINGMEN), (CHUNWANG, "春望", SHANJU)])
def test_interleaved_poem_fails_coherence_with_a_reason(text, title, donor):
    real, other = lines_of(text), lines_of(donor)
    mixed = [real[i] if i % 2 == 0 else other[i] for i in range(len(real))]
    g_mixed = grade_poem(as_text(mixed), title=title)
    for original, t in ((text, title), (donor, None)):
        assert g_mixed.criteria["貫理"]["score"] < grade_poem(original, title=t).criteria["貫理"]["score"] - 0.3
    assert g_mixed.criteria["貫理"]["score"] < DEFAULT_THRESHOLDS["中品"]
    # interleaving breaks 對 at every other line: since issue 9 those faults count (no 古詩 reading hides them)
    assert g_mixed.criteria["平仄和暢"]["score"] < 0.9
    assert "隔句相間" in g_mixed.criteria["貫理"]["explanation"]
    assert g_mixed.grade in ("下品", "荒牌")


def test_normalise_title_ignores_numbering_and_punctuation():
    from scripts.build_grading import normalise_title

    assert normalise_title("秋興八首 其一") == normalise_title("秋興八首·其二") == "秋興"


@pytest.mark.parametrize("module", ["", ".criteria", ".diction", ".measures", ".models", ".rubric", ".title_parts"])
def test_grading_doctests_hold(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module("poetry.grading" + module))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", ["一氣呵成", "貫理", "貼題", "平仄和暢"])
def test_combined_score_never_falls_when_a_criterion_improves(name):
    # the combiner's trees are monotone: starting from 《登高》's own criteria, raising one criterion
    # from a clear failure to a clear pass can only raise the score, and the failure alone sinks it
    from poetry.grading import combined_features, combined_score, measure_poem
    from poetry.grading.models import _model

    _, title, criteria, _ = measure_poem(DENGGAO, "登高")
    spec = _model()["combined"]
    scores = []
    for value in (0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 1.0):
        changed = {**criteria, name: {**criteria[name], "score": value}}
        scores.append(combined_score(spec, combined_features(changed, spec.get("neutral"), 5.0)))
    assert scores == sorted(scores)
    assert scores[0] < scores[-1]
    if name != "平仄和暢":  # tone faults alone leave a fine poem 下品 or better, by the rules' 下品
        assert scores[0] < DEFAULT_THRESHOLDS["中品"] < scores[-1]


# --- the rules' limits as rules (issue 14, part 1) --------------------------------------------------

GOOD = {n: {"score": 0.9} for n in CRITERIA}


def test_a_checker_error_caps_the_grade_at_xiapin_and_says_which():
    fault = "第三句第二字『山』應仄而平"
    criteria = dict(GOOD, 平仄和暢={"score": 0.9, "faults": [fault]})
    grade, reasons = suggest_grade(0.97, criteria)
    assert grade == "下品" and fault in reasons[0]
    assert "題、體不失" not in "".join(reasons)
    grade, reasons = suggest_grade(0.97, criteria, {"失格荒牌": 1})
    assert grade == "荒牌" and fault in reasons[0]


def test_a_poem_off_its_title_is_at_most_xiapin():
    off = dict(GOOD, 貼題={"score": 0.05, "explanation": "詩意與題目「閨怨」關係不大，似離題。"})
    grade, reasons = suggest_grade(0.95, off, title_info=4.0)
    assert grade == "下品" and "閨怨" in reasons[0]
    assert suggest_grade(0.95, off, {"失格荒牌": 1}, title_info=4.0)[0] == "荒牌"
    assert suggest_grade(0.95, off, title_info=0.5)[0] == "中品"  # 雜詩, 無題: the title asks for nothing


def test_an_undeclared_long_poem_that_breaks_the_rules_is_judged_as_a_guti():
    """韓愈《山石》 (20 lines, 拗 throughout): a 七言古詩, no 排律 lost; a quatrain's faults still cap it."""
    text = ("山石犖确行徑微，黃昏到寺蝙蝠飛。升堂坐階新雨足，芭蕉葉大梔子肥。僧言古壁佛畫好，以火來照所見稀。"
            "鋪牀拂席置羹飯，疏糲亦足飽我飢。夜深靜臥百蟲絕，清月出嶺光入扉。天明獨去無道路，出入高下窮煙霏。"
            "山紅澗碧紛爛漫，時見松櫪皆十圍。當流赤足踏澗石，水聲激激風吹衣。人生如此自可樂，豈必局束爲人鞿。"
            "嗟哉吾黨二三子，安得至老不更歸。")
    g = grade_poem(text, title="山石")
    assert not g.criteria["平仄和暢"]["faults"] and "按七言古詩論" in g.criteria["體不失"]["explanation"]
    assert not any("格律有誤" in r for r in g.reasons)
    declared = grade_poem(text, title="山石", form="七言排律")
    assert declared.criteria["平仄和暢"]["faults"] and declared.grade in ("下品", "荒牌")


def test_graded_poem_with_a_rhyme_fault_is_not_above_xiapin():
    # 「瀾」 ends the fourth line in 上平十四寒 while the poem rhymes in 下平一先
    g = grade_poem("春風吹柳綠如煙，細雨飛花落滿天。獨倚高樓望江水，扁舟一葉過回瀾。", title="春日登樓")
    assert g.criteria["平仄和暢"]["faults"]
    assert g.grade in ("下品", "荒牌") and "格律有誤" in g.reasons[0]


def test_xiapin_reason_states_what_was_found():
    grade, reasons = suggest_grade(0.4, GOOD)
    assert grade == "下品" and "題、體不失" not in "".join(reasons) and "最弱" in reasons[1]


def test_poem_off_its_title_is_graded_xiapin():
    g = grade_poem(CHUNWANG, title="元日")
    assert g.grade in ("下品", "荒牌") and "元日" in g.reasons[0]


def test_a_title_that_asks_nothing_is_never_off():
    g = grade_poem("兩個黃鸝鳴翠柳，一行白鷺上青天。窗含西嶺千秋雪，門泊東吳萬里船。", title="絕句")
    assert "離題" not in "".join(g.reasons) + g.criteria["貼題"]["explanation"]


def test_the_grade_judges_tones_by_the_rounds_rhyme_book():
    """濃 (二冬) and 燈 (十蒸) rhyme in the 中華新韻 only: a 新韻 round's suggestion shows the dashboard's
    verdict (no fault), a 平水韻 round's the 出韻 (at most 下品)."""
    from poetry.standings import _poem_entry

    sub = {"title": "夜坐", "text": "山中春雨後，江上暮煙濃。獨坐看明月，寒窗對暗燈。", "locked": True, "form": None}
    for book, faulty in (("pingshui", True), ("xinyun", False)):
        entry = _poem_entry(sub, [], {"rhyme_book": book}, None)
        suggested = entry["suggestion"]["criteria"]["平仄和暢"].get("faults") or []
        assert bool(entry["faults"]) is faulty and bool(suggested) is faulty
        assert (entry["suggestion"]["grade"] in ("下品", "荒牌")) is faulty


def test_a_poem_whose_title_was_lost_is_never_off_its_title():
    """闕題 (the title lost, as 唐詩三百首 prints 劉昚虛's poem) asks nothing of the poem: no 離題 reason."""
    poem = "道由白雲盡，春與青溪長。時有落花至，遠隨流水香。閒門向山路，深柳讀書堂。幽映每白日，清輝照衣裳。"
    assert not any("離題" in r for r in grade_poem(poem, title="闕題").reasons)
    assert any("離題" in r for r in grade_poem(poem, title="塞下曲").reasons)


def test_the_weakest_criterion_named_is_below_its_good_band():
    """A reason that names the weakest criterion names one below three Tang poems in four; before, 范成大《村居》
    (every criterion in its good band, score 0.81) was told 「最弱是平仄和暢 1.00：平仄、押韻皆合」."""
    import re
    from pathlib import Path

    from poetry.grading.rubric import criterion_bands

    bands = criterion_bands()
    named = 0
    for name in ("graded_set", "graded_set_holdout", "graded_set_fresh"):
        poems = json.loads((Path(__file__).parent / "data" / f"{name}.json").read_text(encoding="utf-8"))["poems"]
        for p in poems:
            for reason in grade_poem(p["text"], title=p["title"]).reasons:
                for crit, score in re.findall(r"最弱是(\S+?) (\d\.\d\d)", reason):
                    named += 1
                    assert float(score) < bands[crit][1], (p["title"], reason)
    assert named >= 5  # the reason is still given where a criterion falls short


def test_a_turn_that_reads_as_a_break_does_not_keep_a_poem_from_shangpin():
    """貫理 reads a turn (轉) as a break: under 0.5 but above its poor band, it no longer bars 上品 (王冕《白梅》,
    楊萬里《閑居初夏午睡起》); in its poor band it still does."""
    from poetry.grading.rubric import band_of, criterion_bands

    poor, good = criterion_bands()["貫理"]
    met = {n: {"score": 0.95} for n in ("貼題", "一氣呵成", "平仄和暢", "語句清新")}
    met["聯句切當"] = {"score": 0.9, "fault": False}
    turned = dict(met, 貫理={"score": (poor + 0.5) / 2})
    broken = dict(met, 貫理={"score": poor * 0.9})
    assert band_of("貫理", turned["貫理"]["score"]).value == "fair"
    assert suggest_grade(0.9, turned)[0] == "上品"
    assert suggest_grade(0.9, broken)[0] == "中品"


def test_a_yongwu_title_is_failed_only_lower():
    """詠X leaves its thing unnamed (不犯題字), so its 貼題 by characters runs low: the 離題 line is half as high."""
    from poetry.grading.measures import names_an_object
    from poetry.grading.rubric import OBJECT_FLOOR_SHARE, merge_thresholds

    floor = merge_thresholds(None)["貼題_floor"]
    met = {n: {"score": 0.9} for n in ("貫理", "一氣呵成", "平仄和暢", "語句清新")}
    between = floor * (1 + OBJECT_FLOOR_SHARE) / 2
    plain = dict(met, 貼題={"score": between, "explanation": ""})
    riddle = dict(met, 貼題={"score": between, "explanation": "", "object_title": True})
    assert any(r.startswith("離題") for r in suggest_grade(0.6, plain, title_info=4.0)[1])
    assert not any(r.startswith("離題") for r in suggest_grade(0.6, riddle, title_info=4.0)[1])
    assert names_an_object("詠柳") and grade_poem("碧玉妝成一樹高，萬條垂下綠絲絛。不知細葉誰裁出，二月春風似剪刀。",
                                                  title="詠柳").criteria["貼題"].get("object_title")

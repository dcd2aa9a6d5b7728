"""意味平平 (issue 14, diction14): modern words and stock lines lower 語句清新 and cap a poem at 下品,
with a reason that quotes what was found; celebrated poems are not taken for either."""

import json
from pathlib import Path

import pytest

from poetry.grading import grade_poem, suggest_grade
from poetry.grading.diction import Diction, diction, found_text, freshness, modern_words, stock_lines

DATA = Path(__file__).parent / "data"
CELEBRATED = json.loads((DATA / "celebrated_lines.json").read_text(encoding="utf-8"))["poems"]
FINE = [p for p in json.loads((DATA / "graded_set.json").read_text(encoding="utf-8"))["poems"] if p["kind"] == "fine"]


def test_modern_words_are_found_where_they_stand():
    assert modern_words(["春天花開好", "我在院中坐", "心情很逍遙"]) == [(2, "很")]
    assert [w for _, w in modern_words(["大家都說頂呱呱", "我們一起去踏青"])] == ["大家", "我們", "一起"]


def test_things_of_modern_life_are_modern_however_rare_in_modern_text():
    """冰箱 and 奶茶 are too rare in jieba's dictionary for the ratio; the hand list of modern things names them."""
    assert [w for _, w in modern_words(["炎炎夏日飲奶茶", "冰箱西瓜透心涼"])] == ["奶茶", "冰箱"]
    g = grade_poem("炎炎夏日飲奶茶，冰箱取果透心涼。樓頭電梯人來往，坐看斜陽下短牆。", title="夏日")
    assert g.grade == "下品" and g.reasons[0].startswith("意味平平：今語「")
    # a modern 七夕 of the heart: 情人節 and 女友 (no 全唐詩 or 全宋詞 line writes them), in 繁 and 简 alike
    assert [w for _, w in modern_words(["今宵又是情人節", "攜得女友看星河"])] == ["情人節", "女友"]
    assert [w for _, w in modern_words(["今宵又是情人节", "携得女友看星河"])] == ["情人节", "女友"]


def test_simplified_and_traditional_find_the_same_modern_words():
    assert modern_words(["风景真美丽"]) == [(0, "美丽")]
    assert modern_words(["風景真美麗"]) == [(0, "美麗")]


@pytest.mark.parametrize("poem", CELEBRATED + FINE, ids=[p["title"] for p in CELEBRATED + FINE])
def test_no_celebrated_poem_is_taken_for_modern_or_stock(poem):
    g = grade_poem(poem["text"], title=poem["title"])
    assert not any(r.startswith("意味平平") for r in g.reasons), g.reasons
    assert g.criteria["語句清新"]["diction"]["modern_share"] == 0.0, g.criteria["語句清新"]


def test_stock_lines_are_the_ones_tang_verse_repeats():
    assert stock_lines(["白雲深處住", "春江水暖鴨先知"]) == [0]


def test_modern_words_lower_freshness_and_cap_the_grade_with_the_word_quoted():
    classical = grade_poem("登樓望遠山，白雲飄其間。秋色連天碧，令人心悠閒。", title="登樓")
    modern = grade_poem("登樓望遠山，白雲飄其間。風景真美麗，令人心悠閒。", title="登樓")
    assert modern.criteria["語句清新"]["score"] < classical.criteria["語句清新"]["score"]
    assert modern.grade == "下品"
    assert "「美麗」" in modern.reasons[0] and "題、體不失" not in modern.reasons[0]


def test_a_poem_in_modern_words_on_its_title_is_xiapin_not_huangpai():
    g = grade_poem("月亮圓又圓，照我在窗前。想起家鄉事，眼淚流滿面。", title="思鄉")
    assert g.grade == "下品" and "「想起」" in g.reasons[0]


@pytest.mark.parametrize("title, text", [
    ("春雨", "春雨下不停，路上都是泥。出門沒帶傘，衣服濕淋淋。"),  # the first graded set's hurried player
    ("訪友", "開車去訪友，門外狗兒叫。朋友不在家，留下一張條。"),  # fresh14's
])
def test_a_poem_in_everyday_words_that_holds_together_is_xiapin_not_huangpai(title, text):
    """The Tang models read 路上都是泥 and 出門沒帶傘 as unrelated (貫理 about 0) and score the poem under 荒牌's
    line; a poem of one subject in everyday words that the Tang LMs do not read as verse is 下品, as the 詩伯 graded
    it."""
    g = grade_poem(text, title=title)
    assert g.criteria["語句清新"]["diction"]["everyday"] >= 0.55 and g.criteria["貫理"]["score"] < 0.1
    assert g.grade == "下品"
    assert "低於荒牌門檻" not in g.reasons[0] or "日常口語" in g.reasons[0]  # a low score is said to be no muddle


def test_a_compound_jieba_knows_whole_is_read_as_its_modern_words():
    """fresh18's 七夕有寄: jieba cuts 手机短信 as one word, which no list holds; read as 手機 and 短信 the poem is in
    modern words on its title, 下品 (it was 荒牌 by its score)."""
    g = grade_poem("七夕今宵月正明，手機短信寄深情。鵲橋相會年年有，不及視頻天天見。", title="七夕有寄")
    assert g.grade == "下品" and "「手機」" in g.reasons[0] and "「短信」" in g.reasons[0]


def test_a_string_of_stock_lines_is_at_most_xiapin_and_names_the_lines():
    text = "夜雨打窗聲，聲聲入耳鳴。孤燈照不寐，思念故鄉情。"
    assert len(diction(["夜雨打窗聲", "聲聲入耳鳴", "孤燈照不寐", "思念故鄉情"]).stock) >= 3
    g = grade_poem(text, title="夜雨")
    assert g.grade == "下品"
    assert g.reasons[0].startswith("意味平平") and "「孤燈照不寐」" in g.reasons[0]


def test_suggest_grade_reads_the_diction_thresholds():
    crit = {"語句清新": {"score": 0.6, "diction": {"modern_share": 0.0, "stock_share": 1.0, "found": "套語成句「甲」"}}}
    assert suggest_grade(0.95, crit) == ("下品", ("意味平平：套語成句「甲」，至多下品。",))
    assert suggest_grade(0.95, crit, {"平平_stock": 0.9})[0] == "下品"
    crit["語句清新"]["diction"]["stock_share"] = 0.75
    assert suggest_grade(0.95, crit)[0] == "上品"
    crit["語句清新"]["diction"]["modern_share"] = 0.1  # one modern word of two in a 五絕
    assert suggest_grade(0.95, crit)[0] == "下品"
    crit["語句清新"]["diction"]["modern_share"] = 0.05  # one in a 五律: maybe an old sense (教授 in 王維)
    assert suggest_grade(0.95, crit)[0] == "上品"


def test_a_plain_celebrated_line_is_called_plain_not_borrowed():
    """床前明月光's poem repeats no stock phrase: its easy lines are 常語, not 套語, and cost 語句清新 less."""
    lines = ["床前明月光", "疑是地上霜", "舉頭望明月", "低頭思故鄉"]
    d = diction(lines)
    text = found_text(d, lines)
    assert d.common and "套語" not in text and text.startswith("句近唐詩常語")
    borrowed = Diction((), 0.0, d.stock, d.stock_share)  # the same lines taken as borrowed phrases
    assert freshness(d, 1.0) > freshness(borrowed, 1.0)


def test_a_modern_word_never_runs_across_the_lines_pause():
    """祖詠's 林表｜明霽色 holds no 表明 (五言 2|3); 風景｜真美麗 keeps its 美麗."""
    assert modern_words(["終南陰嶺秀", "積雪浮雲端", "林表明霽色", "城中增暮寒"]) == []
    assert modern_words(["登樓望遠山", "風景真美麗"]) == [(1, "美麗")]


# poems of 全唐詩 that the LMs learned (not in 唐詩三百首): 高適《詠史》, 錢起《江行無題》其六十九 (千家詩: 江行望匡廬)
# as 全唐詩 writes it (秖疑: written 只疑 its lines no longer follow one another in the filter, and it is still capped)
LEARNED = [("詠史", "尚有綈袍贈，應憐范叔寒。不知天下士，猶作布衣看。"),
           ("江行望匡廬", "咫尺愁風雨，匡廬不可登。秖疑雲霧窟，猶有六朝僧。")]


@pytest.mark.parametrize("title, text", LEARNED)
def test_a_poem_the_lms_learned_is_not_commonplace_for_being_known(title, text):
    """Before, both were 「意味平平：句近唐詩常語 …，至多下品」: every line reads easily to LMs that learned them, so
    each looked commonplace (7 in 101 training poems of regular shape were capped so; 0 in 116 unseen ones)."""
    g = grade_poem(text, title=title)
    assert not any(r.startswith("意味平平") for r in g.reasons), g.reasons
    assert "常語" not in g.criteria["語句清新"]["explanation"]


def test_a_known_poem_is_its_lines_in_their_order():
    """The filter knows the lines and which followed which: 李白's lines in another order are no poem it learned."""
    from poetry.lm import known_poem

    lines = ["日照香爐生紫煙", "遙看瀑布挂前川", "飛流直下三千尺", "疑是銀河落九天"]
    assert known_poem(lines) and not known_poem([lines[2], lines[0], lines[3], lines[1]])

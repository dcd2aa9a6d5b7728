"""poetry.text: script conversion and poem clean-up on real verse."""

import pytest

from poetry.errors import MalformedPoemError
from poetry.text import (
    detect_script,
    parse_poem,
    split_lines,
    strip_notes,
    to_simplified,
    to_traditional,
    traditional_candidates,
)


def test_round_trip_conversion():
    assert to_traditional("白云深处有人家") == "白雲深處有人家"
    assert to_simplified("白雲深處有人家") == "白云深处有人家"


@pytest.mark.parametrize(
    "text, script",
    [
        ("白日依山尽，黄河入海流。", "hans"),
        ("白日依山盡，黃河入海流。", "hant"),
        # 里 is written alike in both scripts; 鄉 decides
        ("故鄉里", "hant"),
        ("故乡里", "hans"),
    ],
)
def test_detect_script(text, script):
    assert detect_script(text) == script


def test_title_in_guillemets_and_simplified_lines():
    poem = parse_poem("《登鹳雀楼》\n白日依山尽，黄河入海流。欲穷千里目，更上一层楼。")
    assert poem.title == "登鹳雀楼"
    assert poem.script == "hans"
    assert poem.lines == ("白日依山盡", "黃河入海流", "欲窮千里目", "更上一層樓")
    assert poem.original_lines == ("白日依山尽", "黄河入海流", "欲穷千里目", "更上一层楼")
    assert [len(a) for a in poem.alternatives] == [5, 5, 5, 5]


def test_title_and_author_lines_without_punctuation():
    poem = parse_poem("登高\n杜甫\n風急天高猿嘯哀，渚清沙白鳥飛回。\n無邊落木蕭蕭下，不盡長江滾滾來。")
    assert poem.title == "登高"
    assert poem.script == "hant"
    assert poem.lines == ("風急天高猿嘯哀", "渚清沙白鳥飛回", "無邊落木蕭蕭下", "不盡長江滾滾來")
    assert poem.original_lines == poem.lines


def test_unpunctuated_lines_are_not_taken_for_a_title():
    poem = parse_poem("春眠不覺曉\n處處聞啼鳥\n夜來風雨聲\n花落知多少")
    assert poem.title is None
    assert len(poem.lines) == 4


def test_space_separated_couplets_split():
    poem = parse_poem("白日依山尽 黄河入海流\n欲穷千里目 更上一层楼")
    assert poem.title is None
    assert poem.lines[3] == "更上一層樓"


def test_notes_and_brackets_are_stripped():
    poem = parse_poem("春眠不覺曉，處處聞啼鳥。夜來風雨聲（一作「夜來風雨急」），花落知多少(明年 一作：年年)。")
    assert poem.lines == ("春眠不覺曉", "處處聞啼鳥", "夜來風雨聲", "花落知多少")
    assert strip_notes("仁高[姒]幄披") == "仁高姒幄披"


def test_one_simplified_char_for_several_traditional():
    poem = parse_poem("一干二净，头发后来。")
    assert poem.lines == ("一乾二淨", "頭髮後來")
    assert set(poem.alternatives[0][1]) == {"乾", "幹", "干"}
    assert poem.alternatives[0][1][0] == "乾"  # OpenCC's phrase-aware pick first
    assert poem.alternatives[1][1][0] == "髮" and "發" in poem.alternatives[1][1]
    assert traditional_candidates("后", chosen="後") == ("後", "后")
    assert traditional_candidates("山") == ("山",)
    # forms Tang verse never uses are not offered: 傢 for 家, the tree 机 for 機
    assert traditional_candidates("家") == ("家",)
    assert traditional_candidates("机", chosen="機") == ("機",)


def test_simplified_and_traditional_give_the_same_lines():
    hans = parse_poem("风急天高猿啸哀，渚清沙白鸟飞回。无边落木萧萧下，不尽长江滚滚来。")
    hant = parse_poem("風急天高猿嘯哀，渚清沙白鳥飛回。無邊落木蕭蕭下，不盡長江滾滾來。")
    assert hans.lines == hant.lines


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "沒有輸入"),
        ("   \n ", "沒有輸入"),
        ("hello, world.", "沒有找到漢字"),
        ("床前明月光", "只有一句"),
        ("《靜夜思》", "沒有找到詩句"),
        ("床前明月光，" * 400, "太長"),
    ],
)
def test_malformed_input_has_a_chinese_message(text, fragment):
    with pytest.raises(MalformedPoemError) as err:
        parse_poem(text)
    assert fragment in err.value.message


@pytest.mark.parametrize(
    "text, title",
    [
        ("杜甫《登高》\n風急天高猿嘯哀，渚清沙白鳥飛回。", "登高"),
        ("《靜夜思》李白\n床前明月光，疑是地上霜。", "靜夜思"),
        ("《春曉》春眠不覺曉，處處聞啼鳥。", "春曉"),
    ],
)
def test_title_beside_author_or_verse(text, title):
    poem = parse_poem(text)
    assert poem.title == title
    assert len(poem.lines) == 2 and all(len(line) in (5, 7) for line in poem.lines)


def test_chars_of_both_scripts_stay_as_typed():
    # nothing here is only simplified: 床 stays 床 (OpenCC would pick the variant 牀)
    poem = parse_poem("床前明月光，疑是地上霜。")
    assert poem.script == "hant" and poem.lines[0] == "床前明月光"
    assert poem.alternatives[0] == (("床",), ("前",), ("明",), ("月",), ("光",))


@pytest.mark.parametrize(
    "text",
    ["床前明月光\r\n疑是地上霜\r\n", "\t床前明月光\t疑是地上霜", "\u202e床前明月光，疑是地上霜",
     "😀床前明月光😀，疑是地上霜",
     "]]][[[床前明月光，疑是地上霜", "\x00床前\x00明月光，疑是地上霜", "１２３床前明月光，，，疑是地上霜"],
)
def test_stray_characters_are_dropped(text):
    assert parse_poem(text).lines == ("床前明月光", "疑是地上霜")


def test_a_note_opened_in_one_width_and_closed_in_the_other_is_dropped():
    """唐詩三百首 prints 李益's note as 「(回樂」「一作：回樂」「）」 over three paragraphs: it was read as three more
    lines (回樂 / 一作 / 回樂), and the poem was told 「似兩首詩隔句相間」."""
    text = "回樂烽前沙似雪，受降城外月如霜。(回樂\n一作：回樂\n）\n不知何處吹蘆管，一夜徵人盡望鄉。"
    assert split_lines(text) == ["回樂烽前沙似雪", "受降城外月如霜", "不知何處吹蘆管", "一夜徵人盡望鄉"]

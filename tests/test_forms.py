"""The form patterns: the four line types, 黏 and 對, the sixteen standard patterns, form names."""

import pytest

from poetry.forms import PATTERNS, form_name, is_regulated_shape, line_keys, line_pattern, pattern_name, poem_pattern


@pytest.mark.parametrize(
    "length, key, ending, expected",
    [
        (5, "仄", "仄", "仄仄平平仄"),
        (5, "平", "平", "平平仄仄平"),
        (5, "平", "仄", "平平平仄仄"),
        (5, "仄", "平", "仄仄仄平平"),
        (7, "平", "仄", "平平仄仄平平仄"),
        (7, "仄", "平", "仄仄平平仄仄平"),
        (7, "仄", "仄", "仄仄平平平仄仄"),
        (7, "平", "平", "平平仄仄仄平平"),
        (6, "平", "平", "平平仄仄平平"),
        (6, "仄", "仄", "仄仄平平仄仄"),
    ],
)
def test_line_types(length, key, ending, expected):
    assert line_pattern(length, key, ending) == expected


def test_six_char_lines_alternate_so_key_and_ending_agree():
    with pytest.raises(ValueError):
        line_pattern(6, "平", "仄")


def test_the_seven_char_line_is_the_five_char_line_with_an_opposite_head():
    for key in "平仄":
        for ending in "平仄":
            seven = line_pattern(7, key, ending)
            five = line_pattern(5, "平" if key == "仄" else "仄", ending)
            assert seven[2:] == five and seven[0] == seven[1] == key


def test_the_sixteen_patterns():
    assert len(PATTERNS) == 16
    # 杜甫《登高》 follows 七律 仄起首句入韻; 王維《山居秋暝》 五律 平起首句不入韻
    assert PATTERNS["七言律詩 仄起首句入韻"][:2] == ("仄仄平平仄仄平", "平平仄仄仄平平")
    assert PATTERNS["五言律詩 平起首句不入韻"] == (
        "平平平仄仄", "仄仄仄平平", "仄仄平平仄", "平平仄仄平",
        "平平平仄仄", "仄仄仄平平", "仄仄平平仄", "平平仄仄平",
    )


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_every_pattern_keeps_adhesion_opposition_and_rhyme(name):
    lines = PATTERNS[name]
    length = len(lines[0])
    for i, line in enumerate(lines):
        # 二四六分明: the 2nd, 4th (6th) chars alternate
        assert all(line[j] != line[j + 2] for j in range(1, length - 2, 2))
        if i % 2:
            assert line[-1] == "平"  # even lines rhyme in 平
            assert line[1] != lines[i - 1][1]  # 對
        elif i:
            assert line[-1] == "仄"
            assert line[1] == lines[i - 1][1]  # 黏
    assert (lines[0][-1] == "平") == name.endswith("首句入韻")
    assert name.split()[1].startswith(lines[0][1])  # 平起/仄起 from line 1's 2nd char


def test_keys_follow_adhesion_and_opposition():
    assert line_keys(4, "仄") == ("仄", "平", "平", "仄")
    assert poem_pattern(5, 12, "平", False)[8:] == poem_pattern(5, 4, "平", False)


def test_pattern_names():
    assert pattern_name("平", True) == "平起首句入韻"
    assert pattern_name("仄", False) == "仄起首句不入韻"


@pytest.mark.parametrize(
    "length, lines, ancient, name",
    [
        (5, 4, False, "五言絕句"),
        (7, 4, False, "七言絕句"),
        (5, 8, False, "五言律詩"),
        (7, 8, False, "七言律詩"),
        (5, 12, False, "五言排律"),
        (7, 10, False, "七言排律"),
        (5, 6, False, "五言古詩"),
        (5, 4, True, "五言古絕"),
        (7, 8, True, "七言古詩"),
        (6, 4, False, "六言絕句"),
        (6, 8, False, "六言律詩"),
        (4, 8, False, "四言詩"),
        (None, 6, False, "雜言"),
        (9, 4, False, "雜言"),
    ],
)
def test_form_names(length, lines, ancient, name):
    assert form_name(length, lines, ancient) == name


def test_regulated_shapes():
    assert is_regulated_shape(5, 4) and is_regulated_shape(7, 8) and is_regulated_shape(5, 12)
    assert not is_regulated_shape(5, 6) and not is_regulated_shape(6, 4) and not is_regulated_shape(7, 11)

"""The round's rules (poetry.rules) and the store's small rooms: their doctests hold.

The composition rule's table of cases is in tests/test_store.py, beside the store that enforces it.
"""

import doctest

import pytest

import poetry.rules
import poetry.store
import poetry.store.fields
import poetry.store.tokens


@pytest.mark.parametrize("module", [poetry.rules, poetry.store, poetry.store.fields, poetry.store.tokens],
                         ids=lambda m: m.__name__)
def test_doctests_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


# --- one character-to-tile rule (issue 9): the editor's in_hand and the submission agree ---------------

from poetry.checker import check_poem  # noqa: E402
from poetry.rules import check_composition, match_tiles, tile_for, tile_marks, tiles_used  # noqa: E402

#: (typed poem, hand, composition, accepted): 简体 forms and variant glyphs use the held tile.
AGREEMENT = [
    ("春风细雨满江楼，万点梨花逐水流。", "樓流", "rhyme_feet", True),  # 简体 feet of 繁 tiles
    ("春风细雨满江流，万点梨花逐水楼。", "蓮流", "rhyme_feet", False),  # 楼 not held
    ("山中何事不同流，江上青山自在游。", "遊流", "rhyme_feet", True),  # 游 for a held 遊
    ("山中何事不同流，江上青山自在遊。", "游流", "rhyme_feet", True),  # and the other way
    ("绿水，对青楼", "綠水對青樓", "jizi", True),  # 集字 in 简体
    ("綠水，對靑樓", "綠水對青樓", "jizi", True),  # 靑 for a held 青
    ("綠水，對靑樓", "綠水對樓", "jizi", False),
    ("水水，水水", "水水水", "jizi", False),  # each tile once
]


@pytest.mark.parametrize("poem, hand, composition, accepted", AGREEMENT)
def test_editor_in_hand_and_submission_agree(poem, hand, composition, accepted):
    violations = check_composition("", poem, hand, composition, is_ping=lambda c: False)
    assert (violations == []) is accepted
    report = check_poem(poem, hand=hand)
    typed = ["".join(c.char for c in line.chars) for line in report.lines]
    if composition == "jizi":
        marks = tile_marks("", typed, hand, composition)["lines"]
        assert all(t is not None for row in marks for t in row) is accepted
    else:
        feet = [line.chars[-1] for line in report.lines[1::2]]
        assert all(c.in_hand for c in feet) is accepted


def test_tile_for_spellings():
    assert tile_for("楼", "樓蓮") == "樓"
    assert tile_for("游", "遊") == "遊" and tile_for("遊", "游") == "游"
    assert tile_for("里", "裏") == "裏" and tile_for("裡", "裏") == "裏"
    assert tile_for("為", "爲") == "爲" and tile_for("嘆", "歎") == "歎"
    assert tile_for("乾", "干") is None  # a traditional char never uses another character's tile


def test_each_tile_once_prefers_the_exact_glyph_and_counts_as_the_rule_counts():
    assert match_tiles("游遊", "遊游", each_once=True).tiles == ("游", "遊")
    # 里 twice: one tile under 韻腳 rules, two under 集字 (each character spends a tile)
    assert tiles_used("", "千里萬里，山山", "里里千", "rhyme_feet") == 2
    assert tiles_used("", "千里萬里，山山", "里里千", "jizi") == 3
    assert tiles_used("登楼", "白日依山尽，黄河入海流", "登樓山河流", "rhyme_feet") == 5  # title included


def test_a_title_line_in_the_poem_box_is_read_as_the_checker_reads_it():
    """The rule, the counts and the editor see the same lines: a title line typed above the verse is no line."""
    from poetry.rules import poem_lines

    text = "《登樓》\n白日依山盡，黃河入海流。欲窮千里目，更上一層樓。"
    hand = "登樓流白日依"
    typed = ["".join(c.char for c in line.chars) for line in check_poem(text).lines]
    assert poem_lines(text) == typed == ["白日依山盡", "黃河入海流", "欲窮千里目", "更上一層樓"]
    assert tiles_used("登樓", text, hand, "rhyme_feet") == tile_marks("登樓", typed, hand, "rhyme_feet")["used"]
    # the feet are the verse's 流 and 樓 (held), not the title line's
    assert check_composition("登樓", text, hand, "rhyme_feet", is_ping=lambda c: c in "流樓") == []

"""The second pass of the readings audit (docs/READINGS_AUDIT.md): group readings too few feet take are rare."""

from __future__ import annotations

import sys
from pathlib import Path

from poetry.checker import check_poem
from poetry.checker.report import Status
from poetry.prosody import get_rhyme_book

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from audit_readings import unlikely_if_real  # noqa: E402


def test_wu_at_a_ma_foot_is_a_rare_reading_to_confirm():
    # 杜牧《山行》 with 花 → 吾: 吾 rhymes in 虞; its 麻 reading, never a foot in 34,094 regular Tang poems, is rare
    r = check_poem("遠上寒山石徑斜，白雲生處有人家。停車坐愛楓林晚，霜葉紅於二月吾。")
    assert r.rhyme_group == "下平六麻"
    assert r.lines[3].chars[-1].status is Status.CONFIRM
    # the poet's 花 is a plain rhyme foot
    poet = check_poem("遠上寒山石徑斜，白雲生處有人家。停車坐愛楓林晚，霜葉紅於二月花。")
    assert poet.lines[3].chars[-1].status is Status.RHYME


def test_second_pass_readings_are_rare_and_the_main_ones_common():
    book = get_rhyme_book("pingshui")
    rare = {
        "吾": "下平六麻", "矜": "上平十一眞", "衙": "上平六魚", "區": "下平十一尤", "麽": "下平二蕭",
        "醅": "下平十一尤",
        "輿": "去聲六御", "峨": "上聲二十哿", "單": "下平一先", "澌": "上平八齊",
    }
    for char, group in rare.items():
        readings = {r.group: r.common for r in book.lookup(char).readings}
        assert readings[group] is False, char
        assert any(readings.values()), char  # the char keeps a common reading
    assert {r.group: r.common for r in book.lookup("殷").readings}["上平十二文"] is True  # 殷勤: kept


def test_too_few_feet_for_a_real_second_group():
    # 0 feet of 12 in a group is unlikely were it used at a quarter of them; 0 of 10 or 1 of 16 is not
    assert unlikely_if_real(0, 12) and unlikely_if_real(1, 21)
    assert not unlikely_if_real(0, 10) and not unlikely_if_real(1, 16) and not unlikely_if_real(3, 12)


def test_a_spelling_read_in_one_group_alone_has_it_as_its_common_reading():
    """並 is 上聲迥 only (variants.tsv); 幷's row ranks that reading rare, but for 並 it is the reading (issue 13:
    並 was read as the 平 of 并): 渥澤並雲行 is no 三平尾, and 白鬚相並出 no fault 「若讀仄聲則合律」."""
    from poetry.checker import check_poem
    from poetry.prosody import get_rhyme_book

    book = get_rhyme_book("pingshui")
    for char in "並竝":
        assert [(r.group, r.common) for r in book.lookup(char).readings] == [("上聲二十四迥", True)]
    assert [r.common for r in book.lookup("并").readings] == [True, False]  # 并 keeps 幷's ranks
    report = check_poem("八表歡無事，三秋賀有成。照臨同日遠，渥澤並雲行。")
    assert report.regulated and not report.violations

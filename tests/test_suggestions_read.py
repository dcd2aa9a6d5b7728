"""Suggestions that read (issue 13, build item 5): ranked by how the whole line reads, none that keeps a fault.

Each case plants one fault in a famous poem; the assertions are what a reader of the line expects.
"""

from __future__ import annotations

import pytest

from poetry.checker import check_poem
from poetry.checker.tables import table_for

# 杜牧《山行》 (下平六麻)
SHAN_XING = "遠上寒山石徑斜，白雲生處有人家。停車坐愛楓林晚，霜葉紅於二月花。"
# 王維《山居秋暝》 (下平十一尤)
SHAN_JU = "空山新雨後，天氣晚來秋。明月松間照，清泉石上流。竹喧歸浣女，蓮動下漁舟。隨意春芳歇，王孫自可留。"
# 王維《相思》 (上平四支)
XIANG_SI = "紅豆生南國，春來發幾枝。願君多采擷，此物最相思。"


def fault(text: str, line: int, pos: int):
    report = check_poem(text)
    found = [v for v in report.violations if (v.line, v.pos) == (line, pos) and v.severity == "error"]
    assert found, report.violations
    return report, found[0]


def test_a_pastoral_line_is_not_offered_killing():
    # 白雲生處無人家: 三平尾 at the 5th char; 殺人家 does not read, the poet's 有人家 does
    _, v = fault(SHAN_XING.replace("有人家", "無人家"), 2, 5)
    assert "殺" not in v.suggestions
    assert "有" in v.suggestions[:3]


def test_a_foot_is_offered_only_chars_whose_first_reading_is_the_group():
    # 二月紅: 出韻 in a 麻 poem; 吾 is 虞 first (its 麻 reading would keep the fault for most readers)
    report, v = fault(SHAN_XING.replace("二月花", "二月紅"), 4, 7)
    book = table_for(report_book())
    assert v.suggestions and "吾" not in v.suggestions
    assert all(book.entry(c).groups[0] == "下平六麻" for c in v.suggestions)
    assert "花" in v.suggestions[:2]


def report_book():
    from poetry.checker.tables import resolve_book

    return resolve_book("pingshui")


@pytest.mark.parametrize(("poem", "old", "new", "line"), [
    (SHAN_JU, "明月松間照", "明月松間花", 3),  # 不 has a rare 尤 reading: 松間不 would 撞韻
    (SHAN_JU, "竹喧歸浣女", "竹喧歸浣花", 5),
    (XIANG_SI, "願君多采擷", "願君多采天", 3),  # 罷 has a rare 支 reading
], ids=["山居秋暝-3", "山居秋暝-5", "相思-3"])
def test_a_line_that_does_not_rhyme_is_never_offered_the_rhyme_group(poem, old, new, line):
    report, v = fault(poem.replace(old, new), line, len(old))
    book = table_for(report_book())
    assert v.suggestions
    assert not [c for c in v.suggestions if report.rhyme_group in book.entry(c).ping]  # no 撞韻, even by a rare reading


def test_every_suggestion_mends_the_fault_it_is_offered_for():
    # each suggestion of each planted fault above, put in its place: that fault is gone and none is new
    for text, line, pos in [(SHAN_XING.replace("有人家", "無人家"), 2, 5),
                            (SHAN_XING.replace("二月花", "二月紅"), 4, 7),
                            (SHAN_JU.replace("明月松間照", "明月松間花"), 3, 5)]:
        report, v = fault(text, line, pos)
        before = {(w.line, w.pos, w.kind) for w in report.violations if w.severity == "error"}
        lines = [x.text for x in report.lines]
        for c in v.suggestions:
            mended = list(lines)
            mended[line - 1] = mended[line - 1][: pos - 1] + c + mended[line - 1][pos:]
            after = check_poem("，".join(mended) + "。")
            errors = {(w.line, w.pos, w.kind) for w in after.violations if w.severity == "error"}
            assert not any(e[:2] == (line, pos) for e in errors) and errors < before, (c, errors)
            assert not [w for w in after.violations if "撞韻" in w.message], c


def test_the_line_reader_prefers_the_poets_line():
    from poetry.checker.suggestions import _bonds, line_reader

    reader = line_reader()
    assert reader is not None
    # 白雲生處有人家 reads better than 白雲生處殺人家, both ways
    good, bad = reader.lm_scores("白雲生處有人家", 4, ["有", "殺"])
    assert good > bad
    assert reader.word_bonus("白雲生處有人家", 5, "人", _bonds(7, 5)) == 2.0  # 有人, 人家
    assert reader.word_bonus("白雲生處有人家", 4, "有", _bonds(7, 4)) == 1.0  # 有人; 處有 straddles the 2|2|3 break


def test_the_plain_lm_reads_the_files_as_the_numpy_lm_does():
    from poetry import lm, lm_plain

    assert (lm_plain.BOS, lm_plain.EOS, lm_plain.UNK) == (lm.BOS, lm.EOS, lm.UNK)
    assert (lm_plain.LM_FILE, lm_plain.LM_REVERSED_FILE) == (lm.LM_FILE, lm.LM_REVERSED_FILE)
    for backward in (False, True):
        full, plain = lm.load_lm(reversed=backward), lm_plain.load_plain_lm(reversed=backward)
        for line in ("白日依山盡", "渚淺沙白鳥飛回", "白雲生處殺人家"):
            ids = [plain.bos, plain.bos, *plain.ids(line), plain.eos]
            mine = [plain.logprob(ids[t - 2], ids[t - 1], ids[t]) for t in range(2, len(ids))]
            assert mine == pytest.approx(full.score_line(line).logprobs, abs=1e-9)

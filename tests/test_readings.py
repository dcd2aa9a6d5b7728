"""Readings fixed by words (poetry/readings.py, data/word_readings.tsv)."""

import subprocess
import sys

import pytest

from poetry.checker import check_poem
from poetry.prosody import Reading, Tone, get_rhyme_book
from poetry.readings import doubled_pairs, fixed_readings, longest_match, word_index, word_table


def groups(line: str, book=None) -> list[str | None]:
    return [r.group if r else None for r in fixed_readings(line, book)]


def test_table_loads_read_only():
    table = word_table()
    assert len(table) > 5000
    with pytest.raises(TypeError):
        table["宰相"] = ((1, "下平七陽"),)  # type: ignore[index]


@pytest.mark.parametrize(
    ("line", "index", "group"),
    [
        ("宰相", 1, "去聲二十三漾"),  # the minister
        ("相思", 0, "下平七陽"),  # mutual
        ("長大", 0, "上聲二十二養"),  # to grow up
        ("長安", 0, "下平七陽"),
        ("中間", 0, "上平一東"),
        ("中間", 1, "上平十五刪"),
        ("間隔", 0, "去聲十六諫"),  # to separate
        ("德行", 1, "去聲二十四敬"),  # conduct
        ("重陽", 0, "上平二冬"),  # double
        ("輕重", 1, "上聲二腫"),  # heavy
        ("沈約", 0, "上聲二十六寢"),  # the surname
        ("嗚咽", 1, "入聲九屑"),  # to sob
        ("千騎", 1, "去聲四寘"),  # horsemen
        ("不勝", 1, "下平十蒸"),  # to bear
        ("秋思", 1, "去聲四寘"),  # thoughts
        ("孤騎", 1, "去聲四寘"),  # a lone horseman
        ("歸燕", 1, "去聲十七霰"),  # the swallow
        ("幽燕", 1, "下平一先"),  # the land of 燕
        ("林中", 1, "上平一東"),  # in the woods
        ("風教", 1, "去聲十九效"),  # teaching
    ],
)
def test_named_words(line, index, group):
    assert groups(line)[index] == group


def test_words_inside_real_lines():
    assert groups("門前宰相車") == [None, None, None, "去聲二十三漾", None]
    assert groups("此物最相思")[3] == "下平七陽"
    assert groups("重陽獨酌杯中酒")[0] == "上平二冬"
    assert groups("重陽獨酌杯中酒")[5] == "上平一東"  # 杯中 + 酒: in the cup, not 中酒 (drunk)
    assert groups("不知秋思落誰家")[3] == "去聲四寘"


def test_fixed_reading_is_the_books_own():
    book = get_rhyme_book()
    reading = fixed_readings("德行", book)[1]
    assert isinstance(reading, Reading) and reading.tone is Tone.ZE
    assert reading in book.lookup("行").readings


def test_doubled_chars_take_one_reading():
    assert groups("纍纍") == ["上平四支", "上平四支"]
    assert doubled_pairs("無邊落木蕭蕭下") == (4,)
    for line in ("重重", "離離原上草", "行行重行行"):
        readings = fixed_readings(line)
        for i in doubled_pairs(line):
            assert readings[i] == readings[i + 1]


def test_longest_match_prefers_the_longer_word():
    index = word_index(["九華", "華山", "九華山"])
    assert list(longest_match("高却九華山", index)) == [(2, "九華山")]
    assert list(longest_match("宰相思", word_index(["宰相", "相思"]))) == [(0, "宰相")]


def test_a_modern_word_gives_its_second_char_to_a_verse_word():
    """負重陽: 重 is 重陽's (平), not 負重's (仄), and the checker finds no fault there (fresh15's 重九雨中); 負重 alone
    keeps its reading."""
    assert [r.group if r else None for r in fixed_readings("登高無路負重陽")][5] == "上平二冬"
    assert fixed_readings("負重前行路更長")[1].group == "去聲二宋"
    poem = check_poem("一雨瀟瀟過短牆，登高無路負重陽。茱萸插罷臨窗坐，細數籬花一夜黃。")
    assert not [v for v in poem.violations if v.line == 2]


def test_other_books_fix_nothing():
    assert fixed_readings("宰相", get_rhyme_book("xinyun")) == (None, None)


def test_api_is_cheap_and_cached():
    line = "不盡長江滾滾來"
    assert fixed_readings(line) is fixed_readings(line)
    assert len(fixed_readings("")) == 0 and fixed_readings("山") == (None,)


def test_import_loads_no_table():
    code = "import poetry.readings as r; print(r.word_table.cache_info().currsize)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"


def test_readings_doctests_hold():
    import doctest

    import poetry.readings

    result = doctest.testmod(poetry.readings)
    assert result.attempted >= 8 and result.failed == 0


# --- the checker reads a 多音字 by its word (issue 13) --------------------------------------------

DENG_GUAN_QUE = ["白日依山盡", "黃河入海流", "欲窮千里目", "更上一層樓"]


def _variant(line: int, text: str) -> str:
    lines = list(DENG_GUAN_QUE)
    lines[line] = text
    return "，".join(lines) + "。"


def _faults(text: str) -> list[tuple[int, int, str]]:
    from poetry.checker import check_lines_brief

    verdict = check_lines_brief(text)
    return [(v["line"], v["pos"], v["kind"].value) for v in verdict["violations"] if v["severity"] == "error"]


@pytest.mark.parametrize(
    ("line", "text", "faults"),
    [
        (1, "相思入海流", []),  # 相思: 相 平, where 平 is wanted
        (1, "宰相入海流", [(2, 2, "tone")]),  # 宰相: 相 去聲 at a 平 place; not re-read 平 to fit
        (1, "雲中看看流", []),  # 看看 read alike, 仄 as the 4th char must be: 雲中 keep two 平
        (1, "雨中看看流", [(2, 1, "lone_ping")]),  # 看看 仄仄: 中 the only 平 besides the rhyme
    ],
)
def test_checker_reads_by_word(line, text, faults):
    assert _faults(_variant(line, text)) == faults


CUN_JU = "草長鶯飛二月天，拂堤楊柳醉春煙。兒童散學歸來早，忙趁東風放紙鳶。"  # 高鼎《村居》
DENG_LOU = "高樓聊引望，杳杳一川平。野水無人渡，孤舟盡日橫。荒村生斷靄，古寺語流鶯。舊業遙清渭，沉思忽自驚。"


@pytest.mark.parametrize(
    ("text", "old", "new", "faults"),
    [  # tests/data/prosody_cases_song.json: the fit to the pattern read these words the other way
        (DENG_LOU, "孤舟", "孤騎", [(4, 2, "tone")]),  # 孤騎 a lone horseman: 騎 去聲 at a 平 place
        (CUN_JU, "東風", "歸燕", [(4, 4, "tone")]),  # 歸燕 the swallow: 燕 去聲 at a 平 place
        (CUN_JU, "東風", "幽燕", []),  # 幽燕: 燕 平
        (CUN_JU, "散學", "林中", [(3, 4, "tone")]),  # 林中 in the woods: 中 平 at a 仄 place
        (CUN_JU, "散學", "射中", []),  # 射中 to hit: 中 去聲
        (CUN_JU, "東風", "風教", [(4, 4, "tone")]),  # 風教: 教 去聲 at a 平 place
    ],
)
def test_checker_reads_song_case_words(text, old, new, faults):
    assert _faults(text.replace(old, new)) == faults


def test_rare_reading_fixed_by_word_is_not_self_check():
    from poetry.checker import check_poem
    from poetry.checker.report import Status

    chars = check_poem(_variant(1, "纍纍入海流")).lines[1].chars
    assert chars[1].status is Status.OK  # 纍纍 平 (支) by the word: no ◇
    chars = check_poem(_variant(3, "纍纍上高樓")).lines[3].chars
    assert chars[1].status is Status.WRONG  # and not re-read 仄 where 仄 is wanted


def test_words_do_not_straddle_the_pause():
    # 死生｜長別離 (張籍《沒蕃故人》): no 生長 across the pause, so 長 stays 平 by the pattern
    assert fixed_readings("死生長別離")[2] is None


def test_the_checker_reads_the_word_table_once():
    """The checker's word chars and its words share one read of data/word_readings.tsv."""
    code = (
        "import poetry.readings as r; from poetry.checker import check_lines_brief; "
        "check_lines_brief('門前宰相車，此物最相思。'); print(r.word_table.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "1"


@pytest.mark.parametrize("text,group", [
    ("江水三千里，家書十五行。行行無別語，只道早還鄉。", "下平七陽"),  # 袁凱《京師得家書》: 十五行, háng
    ("蓊鬱新栽四五行，常將勁節負秋霜。爲緣春筍鑽墻破，不得垂陰覆玉堂。", "下平七陽"),  # 薛濤《竹離亭》
    ("欲寫明妃萬里情，紫槽紅撥夜丁丁。胡沙望盡漢宮遠，月落天山聞一聲。", "下平八庚"),  # 許渾《聽琵琶》: 丁丁
])
def test_at_a_rhyme_foot_the_rhyme_chooses_among_the_words_ping_groups(text, group):
    """A word fixes a foot's tone, not which of its 平 groups it rhymes in: 五行 (xíng, 庚) inside 十五行
    (háng) had made 行 出韻 beside 鄉; the poem's other feet decide."""
    report = check_poem(text)
    assert report.rhyme_group == group
    assert not [v for v in report.violations if v.kind.value == "rhyme"]


def test_a_word_still_fixes_the_tone_of_a_foot():
    # 德行 (conduct): 行 去聲 at a 平 foot is still out of the rhyme
    report = check_poem("白日依山盡，黃河入海流。欲窮千里目，君家有德行。")
    assert report.lines[3].chars[4].tone == "仄"
    assert any(v.line == 4 and "出韻" in v.message for v in report.violations)

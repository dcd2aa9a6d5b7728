"""poetry.prosody: the 平水韻 book on real characters and lines."""

import subprocess
import sys

import pytest

from poetry.errors import UnsupportedFormError
from poetry.prosody import CharInfo, Reading, RhymeBook, Tone, get_rhyme_book


@pytest.fixture(scope="module")
def book() -> RhymeBook:
    return get_rhyme_book()


def test_book_is_cached_and_named(book):
    assert get_rhyme_book("pingshui") is book
    assert book.name == "pingshui"


def test_unknown_book_name():
    with pytest.raises(UnsupportedFormError):
        get_rhyme_book("guangyun")


def test_the_106_groups(book):
    groups = book.groups
    assert len(groups) == 106
    assert groups[0] == "上平一東" and groups[15] == "下平一先" and groups[-1] == "入聲十七洽"
    assert sum(g.startswith("上平") for g in groups) == 15
    assert sum(g.startswith("入聲") for g in groups) == 17


@pytest.mark.parametrize(
    "char, tone, group",
    [
        ("東", Tone.PING, "上平一東"),
        ("風", Tone.PING, "上平一東"),
        ("天", Tone.PING, "下平一先"),
        ("月", Tone.ZE, "入聲六月"),
        ("白", Tone.ZE, "入聲十一陌"),  # 入聲: 平 in Mandarin, 仄 in the book
        ("國", Tone.ZE, "入聲十三職"),
        ("酒", Tone.ZE, "上聲二十五有"),
        ("雁", Tone.ZE, "去聲十六諫"),
    ],
)
def test_single_reading_chars(book, char, tone, group):
    info = book.lookup(char)
    assert info.tone is tone
    assert group in info.groups
    assert not info.guessed


def test_readings_carry_sisheng(book):
    info = book.lookup("中")
    assert {r.sisheng for r in info.readings} == {"平", "去"}
    assert all(isinstance(r, Reading) for r in info.readings)
    assert book.rhyme_groups_of("中", Tone.PING) == ("上平一東",)
    assert book.rhyme_groups_of("中", Tone.ZE) == ("去聲一送",)


def test_rhyme_feet_of_deng_gao_share_a_group(book):
    # 杜甫《登高》: 哀 回 來 臺 杯, all 上平十灰
    for char in "哀回來臺杯":
        assert "上平十灰" in book.rhyme_groups_of(char, Tone.PING)


def test_neighbouring_groups(book):
    assert book.neighbours("上平一東") == frozenset({"上平二冬"})
    assert "上平五微" in book.neighbours("上平四支")
    assert "下平九靑" in book.neighbours("下平八庚")
    assert "上平一東" not in book.neighbours("上平一東")
    assert book.neighbours("nonsense") == frozenset()


def test_chars_in_group_most_used_first(book):
    chars = book.chars_in_group("上平一東")
    assert len(chars) > 100
    assert chars.index("風") < chars.index("蟲") < chars.index("酆")
    assert book.chars_in_group("nonsense") == ()


def test_simplified_char_resolves_through_traditional(book):
    info = book.lookup("东")
    assert info.canonical == "東"
    assert info.tone is Tone.PING and not info.guessed


def test_non_chinese_is_unknown(book):
    for char in "□a，":
        info = book.lookup(char)
        assert isinstance(info, CharInfo)
        assert info.tone is Tone.UNKNOWN and info.readings == ()


def test_import_stays_light():
    # neither the import, nor a lookup, nor a guess for a char in no book needs opencc or pypinyin
    code = (
        "import sys, poetry.prosody as p; b = p.get_rhyme_book(); b.lookup('東'); g = b.lookup('𠀀');"
        "print(g.guessed, any(m.split('.')[0] in ('opencc', 'pypinyin', 'flask') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]


@pytest.mark.parametrize(
    "char, canonical, group",
    [
        ("青", "靑", "下平九靑"),  # 新舊字形: the book spells the old form
        ("真", "眞", "上平十一眞"),
        ("留", "畱", "下平十一尤"),
        ("說", "説", "入聲九屑"),
        ("絕", "絶", "入聲九屑"),
        ("尚", "尙", "去聲二十三漾"),
        ("爲", "為", "上平四支"),
    ],
)
def test_variant_spellings_resolve_to_the_book_form(book, char, canonical, group):
    info = book.lookup(char)
    assert info.canonical == canonical
    assert group in info.groups
    assert not info.guessed


def test_variant_keeps_only_its_own_readings(book):
    # 並 is filed under 幷, whose 平 reading (幷州) is not 並's
    assert book.tone_of("並") is Tone.ZE
    assert book.rhyme_groups_of("並") == ("上聲二十四迥",)


def test_group_listing_shows_the_usual_spelling(book):
    chars = book.chars_in_group("下平九靑")
    assert "青" in chars[:5] and "靑" not in chars


def test_char_in_no_book_gets_a_marked_mandarin_guess(book):
    info = book.lookup("𠀀")  # an extension-B character no rhyme table lists
    assert info.guessed
    assert info.tone in (Tone.PING, Tone.ZE)
    assert info.readings == ()


# 多音字: each char in a real line, with the tone the line's pattern needs at that position.
@pytest.mark.parametrize(
    "line, pos, expected",
    [
        ("遙看瀑布掛前川", 2, Tone.EITHER),  # 李白: 看 平 here, 去聲 in 「看」 elsewhere; both in use
        ("低頭思故鄉", 3, Tone.EITHER),  # 李白: 思 平; its 去聲 (noun) is standard too
        ("舉頭望明月", 3, Tone.EITHER),  # 望 is dual by tradition
        ("春風不度玉門關", 3, Tone.ZE),  # 王之渙: 不 入聲; its 平 reading (尤) is rare
        ("花落知多少", 3, Tone.PING),  # 孟浩然: 知 平; 去聲 (智) rare
        ("空山新雨後", 1, Tone.PING),  # 王維: 空 平; 去聲 rare
        ("行到水窮處", 1, Tone.PING),  # 王維: 行 平
        ("與爾同銷萬古愁", 1, Tone.ZE),  # 李白: 與 上聲; 平 (歟) rare
        ("猶是春閨夢裏人", 5, Tone.ZE),  # 陳陶: 夢 去聲; 平 rare
        ("輕舟已過萬重山", 6, Tone.EITHER),  # 李白: 重 平 (重疊); 仄 (輕重) just as standard
    ],
)
def test_dual_tone_chars_in_real_lines(book, line, pos, expected):
    assert book.tone_of(line[pos - 1]) is expected


@pytest.mark.parametrize("char, rare", [("不", Tone.PING), ("知", Tone.ZE), ("夢", Tone.PING), ("空", Tone.ZE)])
def test_rare_reading_is_kept_but_marked(book, char, rare):
    info = book.lookup(char)
    assert info.rare_tones == frozenset({rare})
    rare_readings = [r for r in info.readings if not r.common]
    assert rare_readings and all(r.tone is rare for r in rare_readings)
    # common readings come first
    assert info.readings[: len(info.readings) - len(rare_readings)] == tuple(r for r in info.readings if r.common)


def test_rare_rhyme_group_of_a_one_tone_char(book):
    # 思 rhymes in 支; its 灰 reading (于思, a beard) is rare but still listed, after the common one
    groups = book.rhyme_groups_of("思", Tone.PING)
    assert groups[0] == "上平四支" and "上平十灰" in groups
    assert book.chars_in_group("上平十灰").index("思") > book.chars_in_group("上平十灰").index("來")


def test_simplified_one_to_many_merges_readings(book):
    info = book.lookup("发")  # 發 and 髮, both 入聲六月
    assert info.canonical in ("發", "髮") and info.tone is Tone.ZE


# --- 中華新韻 ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def xinyun() -> RhymeBook:
    return get_rhyme_book("xinyun")


@pytest.mark.parametrize(
    "char, group, tone",
    [
        ("花", "一麻", Tone.PING),
        ("國", "二波", Tone.PING),  # 入聲 in the 平水韻, 陽平 in Mandarin
        ("白", "四開", Tone.PING),
        ("雪", "三皆", Tone.ZE),
        ("東", "十一庚", Tone.PING),  # -ong rhymes with -eng in the 新韻
        ("知", "十三支", Tone.PING),
        ("雨", "十二齊", Tone.ZE),
        ("兒", "十二齊", Tone.PING),
        ("湖", "十四姑", Tone.PING),
        ("归", "五微", Tone.PING),  # simplified input works directly
    ],
)
def test_xinyun_groups_and_tones(xinyun, char, group, tone):
    info = xinyun.lookup(char)
    assert info.readings[0].group == group
    assert info.tone is tone
    assert not info.guessed


def test_xinyun_has_fourteen_groups_and_sisheng(xinyun):
    assert xinyun.name == "xinyun"
    assert len(xinyun.groups) == 14
    assert xinyun.lookup("天").readings[0].sisheng == "陰平"
    assert xinyun.lookup("月").readings[0].sisheng == "去"
    assert "十三支" in xinyun.neighbours("十二齊")


def test_xinyun_lists_traditional_spellings_most_used_first(xinyun):
    chars = xinyun.chars_in_group("一麻")
    assert chars.index("花") < 20
    assert "华" not in chars  # simplified forms are looked up, not listed


def test_same_char_differs_between_books(book, xinyun):
    # 白 is 入聲 (仄) in the 平水韻, 陽平 in Mandarin
    assert book.tone_of("白") is Tone.ZE and xinyun.tone_of("白") is Tone.PING


@pytest.mark.parametrize(
    "char, group",
    [("東", "十五雍"), ("風", "十四英"), ("知", "四衣"), ("衣", "四衣"), ("雨", "六迂"), ("兒", "十六兒"),
     ("歌", "三鵝"), ("雪", "三鵝"), ("波", "二喔")],
)
def test_tongyun_groups(char, group):
    tongyun = get_rhyme_book("tongyun")
    assert tongyun.name == "tongyun"
    assert tongyun.lookup(char).readings[0].group == group
    assert len(tongyun.groups) == 16


# --- the data files and the data_dir override ------------------------------------------------------


def test_every_table_row_is_consistent(book):
    groups = set(book.groups)
    for char in ("東", "不", "看", "靑"):
        assert set(book.lookup(char).groups) <= groups
    # every variant row points at a form the book has, and keeps only groups that form has
    for char, forms in book._variants.items():
        if char in book._table:
            continue  # the book's own entry wins over a variant row (干 is 干, not 乾/幹)
        readings = [book._table.get(f) for f in forms]
        if any(readings):
            info = book.lookup(char)
            assert info.readings, char
            assert set(info.groups) <= {r.group for rs in readings if rs for r in rs}


def test_book_reads_another_data_dir(tmp_path):
    (tmp_path / "pingshui.tsv").write_text("# tiny\n東\t上平一東\n不\t入聲五物 下平十一尤*\n", encoding="utf-8")
    (tmp_path / "variants.tsv").write_text("# tiny\n东\ts2t\t東\n", encoding="utf-8")
    (tmp_path / "xinyun.tsv").write_text("# tiny\n東\tdong1\n", encoding="utf-8")
    tiny = get_rhyme_book(data_dir=tmp_path)
    assert tiny is not get_rhyme_book()
    assert tiny.groups == ("上平一東", "下平十一尤", "入聲五物")
    assert tiny.tone_of("东") is Tone.PING
    assert tiny.lookup("不").rare_tones == frozenset({Tone.PING})
    # a char this tiny book and its tiny 新韻 table lack: pypinyin's Mandarin, marked as a guess
    guess = tiny.lookup("月")
    assert guess.guessed and guess.tone is Tone.ZE and guess.readings == ()


@pytest.mark.parametrize(
    "group, neighbour",
    [("上平六魚", "上平七虞"), ("上平十四寒", "下平一先"), ("下平二蕭", "下平四豪"), ("下平十三覃", "下平十五咸"),
     ("上平三江", "下平七陽"), ("上平十一眞", "上平十二文")],
)
def test_neighbours_are_mutual(book, group, neighbour):
    assert neighbour in book.neighbours(group) and group in book.neighbours(neighbour)


@pytest.mark.parametrize("group", ["下平五歌", "下平十一尤", "下平十二侵"])
def test_groups_that_stand_alone(book, group):
    assert book.neighbours(group) == frozenset()

"""Places, persons, dates and formulas in a title ask nothing of the body (issue 14, title14b): real Song–Qing
poems under their own titles, the learned places of data/title_names.json, and the 「題中X，詩以Y應之」 pairs."""

import re

import pytest

from poetry.data import load_json
from poetry.grading import grade_poem, title_demand
from poetry.grading.title_parts import read_title

#: Fine poems graded 上品 by hand (tests/data/graded_set*.json) whose titles name a place, a person or a day.
ZHENZHOU = "江干多是釣人居，柳陌菱塘一帶疏。好是日斜風定後，半江紅樹賣鱸魚。"  # 王士禛《真州絕句》
SANQU = "梅子黃時日日晴，小溪泛盡卻山行。綠陰不減來時路，添得黃鸝四五聲。"  # 曾幾《三衢道中》
HUYIN = "茅簷長掃淨無苔，花木成畦手自栽。一水護田將綠繞，兩山排闥送青來。"  # 王安石《書湖陰先生壁》
XINSHI = "籬落疏疏一徑深，樹頭新綠未成陰。兒童急走追黃蝶，飛入菜花無處尋。"  # 楊萬里《宿新市徐公店》
STORM = "僵臥孤村不自哀，尚思爲國戍輪臺。夜闌臥聽風吹雨，鐵馬冰河入夢來。"  # 陸游《十一月四日風雨大作》


@pytest.mark.parametrize("title, places, dates, topic", [
    ("三衢道中", ("三衢",), (), ""),  # a name before 道中, a numeral in it
    ("襄邑道中", ("襄邑",), (), ""),
    ("真州絕句", ("真州",), (), ""),  # 州: a district suffix learned from Tang titles
    ("曉出淨慈寺送林子方", ("淨慈寺",), (), "曉出送"),
    ("題臨安邸", ("臨安",), (), ""),  # what 題 is written on
    ("己亥雜詩", (), ("己亥",), ""),
    ("十一月四日風雨大作", (), ("十一月四日",), "風雨大作"),
    ("九月九日憶山東兄弟", (), (), "九月九日憶山東兄弟"),  # a feast is the matter, not a date
    ("登鸛雀樓", (), (), "登鸛雀樓"),  # a place its poems write stays the matter
    ("終南山", (), (), "終南山"),  # a learned place alone is the matter (王維's poem is the mountain)
    ("涼州詞", (), (), "涼州詞"),  # a tune's place is its matter (the frontier), not a district
])
def test_places_and_dates_read(title, places, dates, topic):
    parts = read_title(title)
    assert (parts.places, parts.dates, parts.topic) == (places, dates, topic)


def test_persons_without_surname():
    assert read_title("書湖陰先生壁").addressee == ("湖陰先生",)
    assert read_title("曉出淨慈寺送林子方").addressee == ("林子方",)
    assert read_title("示兒").asks_little and not read_title("書憤").asks_little  # 書憤 asks for the 憤
    assert read_title("送春").topic == "送春"  # one character after 送 is the matter


def test_learned_places_are_the_ones_poems_do_not_name():
    """Places come from Tang titles whose poems seldom write the name: 慈恩寺 and 終南山 are places; 廬山, 金陵, 曲江,
    whose poems write them, are not in the list (they stay the title's matter unless a rule of shape reads them)."""
    data = load_json("title_names.json")
    assert {"慈恩寺", "終南山", "華清宮"} <= set(data["places"])
    assert not {"廬山", "金陵", "曲江", "黃鶴樓", "山寺"} & set(data["places"])
    assert "州" in data["district_suffixes"]


@pytest.mark.parametrize("title, text", [("真州絕句", ZHENZHOU), ("三衢道中", SANQU), ("書湖陰先生壁", HUYIN)])
def test_a_title_of_names_is_never_off_it(title, text):
    """Before title14b: 真州絕句 下品 for 離題 (貼題 0.03), 三衢道中 下品 0.41, 書湖陰先生壁 下品 0.38."""
    g = grade_poem(text, title=title)
    assert title_demand(title) == 0.0
    assert not any("離題" in r for r in g.reasons), g.reasons
    words = g.criteria["貼題"]["explanation"]
    assert "不限題材" in words and "離題" not in words, words
    assert g.grade in ("上品", "中品"), (g.grade, g.reasons)


@pytest.mark.parametrize("title", ["塞下曲", "中秋"])
def test_truly_mistitled_still_off_its_title(title):
    g = grade_poem(ZHENZHOU, title=title)
    assert g.grade in ("下品", "荒牌") and any(r.startswith("離題") for r in g.reasons), g.reasons


def _cited(words: str) -> list[str]:
    """The title words an explanation cites as answered or seen: 「題中「X」，詩以…」 and 「題中「X、Y」見於…」."""
    return [w for m in re.findall(r"題中「([^」]+)」[，見只]", words) for w in m.split("、")]


@pytest.mark.parametrize("title, text, names", [
    ("十一月四日風雨大作", STORM, "十一月四日"),
    ("宿新市徐公店", XINSHI, "徐公"),
])
def test_explanation_cites_no_name_or_date(title, text, names):
    words = grade_poem(text, title=title).criteria["貼題"]["explanation"]
    assert not any(ch in names for w in _cited(words) for ch in w), words


def test_weak_pairs_not_cited():
    """「題中「市」，詩以「黃」應之」 and 「題中「先」，詩以「闥」應之」 were said before: weaker pairs than ANSWER_PMI
    are not named."""
    assert "詩以「黃」" not in grade_poem(XINSHI, title="宿新市徐公店").criteria["貼題"]["explanation"]
    words = grade_poem(HUYIN, title="湖陰").criteria["貼題"]["explanation"]
    assert "詩以「闥」" not in words, words
    snow = grade_poem("六出飛花入戶時，坐看青竹變瓊枝。如今好上高樓望，蓋盡人間惡路岐。", title="對雪")
    assert "題中「雪」，詩以「" in snow.criteria["貼題"]["explanation"]  # a strong pair is still named

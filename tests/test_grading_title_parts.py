"""A title read into its topical part, its formulas and its addressee (poetry/grading/title_parts.py, songtitle14),
and what the rubric makes of a title that is only an occasion's formula and a name."""

import pytest

from poetry.grading import grade_poem, title_demand, title_information
from poetry.grading.measures import asks_nothing
from poetry.grading.title_parts import read_title

#: Real titles (Tang and Song), each with the topic, the formulas and the persons a reader takes from it.
TITLES = [
    ("次韻子由", "", ("次韻",), ("子由",)),  # 蘇軾
    ("和子由澠池懷舊", "澠池懷舊", ("和",), ("子由",)),  # 蘇軾
    ("和子由苦寒見寄", "苦寒", ("和", "見寄"), ("子由",)),  # 蘇軾
    ("次韻王定國南遷回見寄", "南遷回", ("次韻", "見寄"), ("王定國",)),  # 蘇軾
    ("寄黃幾復", "", ("寄",), ("黃幾復",)),  # 黃庭堅 (a letter to a person asks no subject: title14b)
    ("送杜少府之任蜀州", "送之任", (), ("杜少府",)),  # 王勃 (蜀州 a place: title14b)
    ("送元二使安西", "送使安西", (), ("元二",)),  # 王維
    ("黃鶴樓送孟浩然之廣陵", "黃鶴樓送", ("之",), ("孟浩然",)),  # 李白 (廣陵 a place)
    ("寄揚州韓綽判官", "", ("寄",), ("韓綽判官",)),  # 杜牧 (揚州 a district: title14b)
    ("和晉陵陸丞早春遊望", "早春遊望", ("和",), ("晉陵陸丞",)),  # 杜審言 (晉陵 read with the person)
    ("與諸子登峴山", "登峴山", ("與",), ("諸子",)),  # 孟浩然
    ("酬程延秋夜即事見贈", "秋夜", ("酬", "即事", "見贈"), ("程延",)),  # 韓翃 (即事 a formula: title14b)
    ("題西林壁", "", ("題", "壁"), ()),  # 蘇軾 (the place of writing: title14b)
    ("登高", "登高", (), ()),  # 杜甫
    ("送春", "送春", (), ()),  # the verb of address with no person: the matter
    ("懷古", "懷古", (), ()),
    ("和梅花", "梅花", ("和",), ()),  # 梅 can be a surname, 梅花 is a word of titles
    ("九月九日憶山東兄弟", "九月九日憶山東兄弟", (), ()),  # 王維
    ("答人", "", ("答",), ("人",)),  # 太上隱者: 人 is someone answered (was read as the matter, and 離題)
    ("送人東歸", "送東歸", (), ("人",)),  # 溫庭筠
    ("即景", "", ("即景",), ()),  # 朱淑真: "the scene before me" asks no subject, as 即事 (was 離題, 千家詩)
    ("春日即景", "春日", ("即景",), ()),
]


@pytest.mark.parametrize("title, topic, formula, addressee", TITLES)
def test_real_titles_parsed(title, topic, formula, addressee):
    parts = read_title(title)
    assert (parts.topic, parts.formula, parts.addressee) == (topic, formula, addressee)


def test_formula_and_name_ask_little():
    assert read_title("次韻子由").asks_little and read_title("和王鞏見寄").asks_little
    # a farewell is an occasion, 送 asks for it; a letter to a person (寄黃幾復) asks no subject since title14b
    assert not read_title("送杜少府之任蜀州").asks_little and read_title("寄黃幾復").asks_little
    assert title_demand("次韻子由") == 0.0 and title_demand("和王鞏見寄") == 0.0
    # the name's rare characters do not make a title telling for the rubric; the combined score reads them
    assert title_demand("次韻秦觀") < title_information("次韻秦觀")


# 蘇軾《和子由澠池懷舊》, graded under the occasion's bare formula and under titles it does not treat
SU_SHI = ("人生到處知何似，應似飛鴻踏雪泥。泥上偶然留指爪，鴻飛那復計東西。"
          "老僧已死成新塔，壞壁無由見舊題。往日崎嶇還記否，路長人困蹇驢嘶。")


@pytest.mark.parametrize("title", ["次韻黃魯直", "次韻秦觀"])
def test_song_ciyun_poem_not_called_off_its_title(title):
    """Before songtitle14 both were 下品 for 離題 (貼題 0.09 under a title of rhyme-matching and a name)."""
    g = grade_poem(SU_SHI, title=title)
    assert not any("離題" in r for r in g.reasons), g.reasons
    words = g.criteria["貼題"]["explanation"]
    assert "離題" not in words and "只記酬唱之事" in words, words


@pytest.mark.parametrize("title", ["塞下曲", "中秋"])
def test_true_mismatch_still_off_its_title(title):
    g = grade_poem(SU_SHI, title=title)
    assert g.grade in ("下品", "荒牌")
    assert any(r.startswith("離題") for r in g.reasons), g.reasons


def test_explanation_reads_the_topical_part():
    """The formula's and the name's characters are not what a body answers (before: 題中「次韻」，詩以「約」應之)."""
    body = ("月明驚鵲未安枝，一棹飄然影自隨。江上秋風無限浪，枕中春夢不多時。"
            "瓊林花草聞前語，罨畫溪山指後期。豈敢便為雞黍約，玉堂金殿要論思。")  # 蘇軾《次韻蔣穎叔》
    words = grade_poem(body, title="次韻王定國南遷回見寄").criteria["貼題"]["explanation"]
    cited = [w.split("」")[0] for w in words.split("題中「")[1:]]
    assert cited and not any(ch in "次韻王定國見寄" for w in cited for ch in w), words


@pytest.mark.parametrize("title", ["次韻黃魯直", "和王鞏見寄"])
def test_a_title_that_asks_nothing_is_graded_as_untitled_verse(title):
    """A title of formula and name asks no subject, like 無題: 貼題 takes its neutral value in the score and is no
    condition of 上品 (before, 蘇軾's poem was 中品 under 次韻黃魯直, 「未入上品：貼題 0.09」, and 上品 under 無題)."""
    g, untitled = grade_poem(SU_SHI, title=title), grade_poem(SU_SHI, title="無題")
    assert (g.grade, g.score) == (untitled.grade, untitled.score)
    assert not any("貼題" in r for r in g.reasons), g.reasons
    assert grade_poem(SU_SHI, title="塞下曲").score < g.score  # a title that asks something still counts


# 陸游《秋夜將曉出籬門迎涼有感》其二: the dawn walk moved him; the poem writes the lost north
LU_YOU = "三萬里河東入海，五千仞嶽上摩天。遺民淚盡胡塵裏，南望王師又一年。"


def test_the_occasion_of_a_feeling_is_not_its_matter():
    """X有感: X is what moved the poet. Before, 陸游's poem was 下品 for 「離題」 (貼題 0.08): it never writes the
    autumn dawn at the fence gate. Under 秋夜, a title whose matter is the autumn night, it is still off its title."""
    parts = read_title("秋夜將曉出籬門迎涼有感")
    assert (parts.topic, parts.occasion, parts.asks_little) == ("", "秋夜將曉出籬門迎涼", True)
    g = grade_poem(LU_YOU, title="秋夜將曉出籬門迎涼有感")
    assert not any("離題" in r for r in g.reasons), g.reasons
    assert "感興之由" in g.criteria["貼題"]["explanation"], g.criteria["貼題"]
    assert (g.grade, g.score) == (grade_poem(LU_YOU, title="無題").grade, grade_poem(LU_YOU, title="無題").score)
    assert any(r.startswith("離題") for r in grade_poem(LU_YOU, title="秋夜").reasons)


def test_a_poem_that_answers_its_feelings_occasion_is_credited():
    """杜甫《旅夜書懷》 writes the night on the river: 貼題 reads 旅夜 (as under the title 旅夜, not diluted by 書懷)
    and applies, so answering the occasion raises the score above the same poem's under 無題."""
    body = "細草微風岸，危檣獨夜舟。星垂平野闊，月湧大江流。名豈文章著，官應老病休。飄飄何所似，天地一沙鷗。"
    g = grade_poem(body, title="旅夜書懷")
    assert g.criteria["貼題"]["score"] == grade_poem(body, title="旅夜").criteria["貼題"]["score"] >= 0.75
    assert "感興之由" not in g.criteria["貼題"]["explanation"]
    assert g.score > grade_poem(body, title="無題").score


def test_a_feeling_set_down_asks_no_subject():
    """陸游《書憤》 never writes 憤: the feeling is the poem's whole matter, which no word list can read. Before, 下品
    for 「離題：…未見應題中「憤」之語」."""
    body = ("早歲那知世事艱，中原北望氣如山。樓船夜雪瓜洲渡，鐵馬秋風大散關。"
            "塞上長城空自許，鏡中衰鬢已先斑。出師一表真名世，千載誰堪伯仲間。")
    g = grade_poem(body, title="書憤")
    assert not any("離題" in r for r in g.reasons), g.reasons
    assert (g.grade, g.score) == (grade_poem(body, title="無題").grade, grade_poem(body, title="無題").score)


def test_a_rank_ending_the_title_is_part_of_the_name():
    """白居易《問劉十九》: the trailing 九 was taken for numbering (like 「帝京篇十首 一」's 一), leaving 問劉十, which
    no reading knew, and the poem was told 「詩中未見應題「問劉十」之語，似離題」."""
    from poetry.grading import clean_title

    assert clean_title("問劉十九") == "問劉十九" and clean_title("雜詩三首 二") == "雜詩"
    assert read_title("問劉十九").addressee == ("劉十九",)
    g = grade_poem("綠蟻新醅酒，紅泥小火爐。晚來天欲雪，能飲一杯無。", title="問劉十九")
    assert not any("離題" in r for r in g.reasons) and "劉十九" in g.criteria["貼題"]["explanation"]


@pytest.mark.parametrize("title", ["縱筆", "縱筆三首", "偶書", "放言"])
def test_a_title_written_at_random_asks_nothing(title):
    """蘇軾《縱筆》 (written at random) asks no subject, as 雜詩 or 無題: it was 離題 and 下品 (fresh4)."""
    assert asks_nothing(title)


def test_a_random_writings_place_is_still_recorded():
    assert read_title("回鄉偶書").topic == "回鄉" and read_title("儋耳縱筆").formula == ("縱筆",)


@pytest.mark.parametrize("title,painted", [("畫雞", "雞"), ("題畫雞", "雞"), ("寒林圖", "寒林"), ("畫船", ""),
                                           ("八陣圖", ""), ("題墨竹", "")])
def test_a_painting_title_asks_the_thing_painted(title, painted):
    assert read_title(title).painted == painted


def test_a_poem_on_a_painting_answers_by_the_thing_painted():
    """唐寅《畫雞》 writes the rooster (紅冠, 一叫), never the painting: its 貼題 reads 雞."""
    text = "頭上紅冠不用裁，滿身雪白走將來。平生不敢輕言語，一叫千門萬戶開。"
    g = grade_poem(text, title="畫雞")
    assert g.criteria["貼題"]["score"] > grade_poem(text, title="畫船").criteria["貼題"]["score"]
    assert "「雞」" in g.criteria["貼題"]["explanation"] and g.grade != "下品"


def test_a_quantity_in_a_title_is_answered_by_nothing():
    """王安石《半山春晚即事》: 半 (of the place 半山) is no subject; no body character is said to answer it."""
    from poetry.grading.title_meaning import answers

    lines = "春風取花去，酬我以清陰，翳翳陂路靜，交交園屋深，床敷每小息，杖屨或幽尋，惟有北山鳥，經過遺好音".split("，")
    assert "半" not in [a.unit for a in answers("半山春晚", lines)]
    graded = grade_poem("，".join(lines) + "。", title="半山春晚即事")
    assert "題中「半」" not in graded.criteria["貼題"]["explanation"]


# title15: the formulas and names Song titles write that the parser read as matter (measured in
# scripts/measure_off_title.py: each made a real poem 離題 under its own title)
@pytest.mark.parametrize("title, topic, formula, addressee", [
    ("和曹東谷韻", "", ("和韻",), ("曹東谷",)),  # the rhymes of a person's poem (韻 was left as the matter)
    ("次黄日巖韻", "", ("次韻",), ("黄日巖",)),  # 次…韻 with the person between
    ("次勾景山見寄韻", "", ("次韻",), ("勾景山",)),
    ("和珣上人", "", ("和",), ("珣上人",)),  # a monk named without a surname
    ("灼艾戲呈阮使君", "灼艾", ("戲呈",), ("阮使君",)),  # 阮 is not among the learned surnames
    ("和孫偉卿雜言十章", "", ("和", "雜言", "十章"), ("孫偉卿",)),  # a miscellany, and how many poems
    ("新市雜詠", "新市", ("雜詠",), ()),
    ("次韻漢卿舅即事二絕", "漢卿舅", ("次韻", "即事", "二絕"), ()),
    ("贈李處士長句四韻", "", ("贈", "長句", "四韻"), ("李處士",)),  # 李商隱: the form and a count of rhymes
    ("和梅花韻", "", ("和",), ("梅花韻",)),  # 梅花 is a word of titles: not read as 次…韻's person (as before)
])
def test_song_formulas_and_names(title, topic, formula, addressee):
    parts = read_title(title)
    assert (parts.topic, parts.formula, parts.addressee) == (topic, formula, addressee)


def test_a_count_alone_is_a_title():
    """九章 is a title (屈原's), not a count of poems: a count is a formula only after the title's matter."""
    assert read_title("九章").topic == "九章" and read_title("即事六絕").formula == ("即事", "六絕")


@pytest.mark.parametrize("title", ["句", "又", "又一首", "歌", "寓言", "雜詠四首", "雜題十首 其三"])
def test_a_fragment_or_a_miscellany_asks_nothing(title):
    """全唐詩 keeps 788 fragments under the title 句; 又 is another poem under the last title: no subject asked."""
    assert asks_nothing(title)


def test_a_fragment_is_not_called_off_its_title_but_a_season_still_is():
    """A Tang fragment (全唐詩's 句: 水聲長在耳，山色不離門) was 下品 for 離題 under 句; under 閨怨 it still is."""
    text = "水聲長在耳，山色不離門。"
    assert not any(r.startswith("離題") for r in grade_poem(text, title="句").reasons)
    assert any(r.startswith("離題") for r in grade_poem(text, title="閨怨").reasons)

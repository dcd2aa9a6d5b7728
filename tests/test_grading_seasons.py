"""四時: a title's season contradicted by a poem of the opposite season (poetry.grading.seasons, data/seasons.json)."""

import pytest

from poetry.grading import grade_poem
from poetry.grading.seasons import mixed_seasons, season_fit, season_of

#: 蘇舜欽《夏意》: 簟, 石榴 and 樹陰 of a summer noon (fresh5's wrong_title case under 寒夜).
SUMMER = "別院深深夏簟清，石榴開遍透簾明。樹陰滿地日當午，夢覺流鶯時一聲。"
#: 高駢《山亭夏日》.
MOUNTAIN_SUMMER = "綠樹陰濃夏日長，樓臺倒影入池塘。水晶簾動微風起，滿架薔薇一院香。"


@pytest.mark.parametrize("title,season", [
    ("寒夜", "冬"), ("冬夜讀書示子聿", "冬"), ("山亭夏日", "夏"), ("初夏睡起", "夏"), ("春夜喜雨", "春"),
    ("秋夕", "秋"), ("歲暮", "冬"),
    # a season's scene names it as its time does: 秋江, 秋山, 春遊 (春江 is also a place, jieba's ns: left)
    ("秋江", "秋"), ("秋山晚眺", "秋"), ("春遊", "春"), ("冬景", "冬"),
    # a season inside a name or beside one is no time: 江夏 宜春 叔夏 are names, 立春 is winter's weather
    ("江夏別宋之悌", ""), ("宜春晚望", ""), ("陪叔夏夜飲", ""), ("立春日", ""),
    ("中秋", ""),  # a festival's title: festivals.py reads it
    ("春望", ""), ("春秋", ""),
])
def test_a_title_names_its_season_by_a_time_word(title, season):
    assert season_of(title)[0] == season


def test_a_summer_poem_under_a_winter_title_is_off_it():
    g = grade_poem(SUMMER, title="寒夜")
    fit = season_fit("寒夜", g.lines)
    assert fit.other == "夏" and len(fit.other_signs) >= 2
    relevance = g.criteria["貼題"]
    assert relevance["score"] <= 0.05
    assert "別院深深夏簟清" in relevance["explanation"] and "與題中「寒夜」（冬日）不合" in relevance["explanation"]
    assert g.grade in ("下品", "荒牌") and any(r.startswith("離題") and "夏日之景" in r for r in g.reasons)


@pytest.mark.parametrize("title,text", [
    ("夏意", SUMMER), ("山亭夏日", MOUNTAIN_SUMMER), ("夏日", MOUNTAIN_SUMMER),
    # 叔夏 and 宜春 are names: no season is asked, whatever the poem writes
    ("陪叔夏夜飲", "朔風吹雪滿江城，殘臘圍爐酒半傾。"), ("宜春晚望", "落葉秋聲滿故城，西風白露菊花明。"),
])
def test_a_poem_of_its_titles_season_or_a_name_is_not_off_it(title, text):
    g = grade_poem(text, title=title)
    fit = season_fit(title, g.lines)
    assert fit is None or not fit.other
    assert "不合" not in g.criteria["貼題"]["explanation"]


def test_figures_of_speech_write_no_season():
    """冰肌 冰壺 雪窖 in a summer poem are its coolness, not winter: no contradiction."""
    fit = season_fit("夏夜", ["冰肌玉骨自清涼", "雪窖冰壺在此堂"])
    assert fit is not None and not fit.other
    fit = season_fit("夏夜", ["冰肌玉骨無人見", "雪窖冰壺在此堂"])
    assert fit is not None and not fit.other and not fit.other_signs


def test_a_title_that_names_the_opposite_weather_asks_for_it():
    """初夏連雨作寒: a cold early summer, 霰 and 重裘 are its matter."""
    lines = ["中宵還集霰", "四月尚重裘"]
    assert season_fit("初夏連雨作寒", lines).other == ""
    assert season_fit("初夏", lines + ["朔風吹雪花"]).other == "冬"


def test_spring_against_autumn():
    fit = season_fit("秋夜", ["東風吹落杏花紅", "垂柳黃鸝春色中"])
    assert fit.other == "春"
    assert season_fit("春夜", ["東風吹落杏花紅", "垂柳黃鸝春色中"]).other == ""


def test_an_autumn_walk_under_a_spring_outing_is_off_it():
    """趙翼《野步》 (秋風, 楓葉) under 春遊: its season contradicts the title's scene."""
    text = "峭寒催換木棉裘，倚杖郊原作近遊。最是秋風管閒事，紅他楓葉白人頭。"
    assert season_fit("春遊", grade_poem(text, title="春遊").lines).other == "秋"
    assert not season_fit("野步", grade_poem(text, title="野步").lines)


def test_three_seasons_things_under_a_seasons_title_are_a_muddle_of_facts():
    """四時雜出 (fresh16's 秋日登山): peach blossom in a spring wind, snow and sweating heat under 秋日 is 事實雜亂,
    荒牌 whatever else holds; the reason says what was found."""
    text = "秋日登高到山頂，桃花朵朵笑春風。白雪皚皚松樹綠，汗流浹背熱烘烘。"
    assert mixed_seasons("秋日登山", parse(text)) == (("春", ("桃花", "春風")), ("夏", ("汗流",)))
    g = grade_poem(text, title="秋日登山")
    assert g.grade == "荒牌" and "四時雜出" in g.reasons[0] and "「桃花」「春風」（春日）" in g.reasons[0]


def test_all_four_seasons_in_a_short_poem_are_a_muddle_whatever_the_title():
    """fresh18's 三月踏青: its title names no season by a time word, but lotus and cicadas, red maples and snow in one
    quatrain are 四時雜出."""
    g = grade_poem("踏青三月到湖邊，荷葉田田蟬正喧。楓葉滿山紅似火，雪花飄落小橋前。", title="三月踏青")
    assert g.grade == "荒牌" and g.reasons[0].startswith("詩中寫「踏青」（春日）") and "四時雜出" in g.reasons[0]


@pytest.mark.parametrize("title, text", [
    # a real late-autumn scene under a spring title is off its title (離題), not a muddle: two seasons, one scene
    ("春晴", "北風吹日晝多陰，日暮擁階黃葉深。倦鵲繞枝翻凍影，飛鴻摩月墮孤音。"),
    # 李白《秋風詞》: one season's things
    ("秋日", "秋風清，秋月明，落葉聚還散，寒鴉棲復驚。"),
    # 蘇軾《贈劉景文》under a season's title: 荷盡 and 菊殘 of late autumn
    ("初冬", "荷盡已無擎雨蓋，菊殘猶有傲霜枝。一年好景君須記，最是橙黃橘綠時。"),
])
def test_a_real_scene_of_one_or_two_seasons_is_no_muddle(title, text):
    assert mixed_seasons(title, parse(text)) == ()


def parse(text):
    return [x for x in text.replace("。", "，").split("，") if x]


def test_every_festival_has_its_season():
    """FESTIVAL_SEASONS names the season of every festival festivals.json lists (中元 was added to both), so that no
    festival's title escapes 四時雜出."""
    from poetry.data import load_json
    from poetry.grading.seasons import FESTIVAL_SEASONS

    festivals = {name for name, f in load_json("festivals.json")["festivals"].items() if not f.get("occasion")}
    assert festivals == set(FESTIVAL_SEASONS)

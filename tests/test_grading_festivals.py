"""歲時: festival titles answered by the day's customs (poetry.grading.festivals, data/festivals.json)."""

import pytest

from poetry.grading import grade_poem
from poetry.grading.festivals import festival_fit, festival_of, mixed_days
from poetry.text import to_simplified


@pytest.mark.parametrize("title,festival", [
    ("九月九日憶山東兄弟", "重陽"), ("重九登高", "重陽"), ("京都元夕", "上元"), ("正月十五夜", "上元"),
    ("除夜作", "除夕"), ("清明", "清明"), ("端午", "端午"), ("七夕", "七夕"),
    ("十九日", ""), ("二十九日夜", ""), ("上元夫人", ""), ("春望", ""),
])
def test_a_title_names_its_festival(title, festival):
    assert festival_of(title) == festival


@pytest.mark.parametrize("title,text", [
    ("清明", "清明時節雨紛紛，路上行人欲斷魂。借問酒家何處有，牧童遙指杏花村。"),  # 杜牧: 斷魂
    ("九月九日憶山東兄弟", "獨在異鄉爲異客，每逢佳節倍思親。遙知兄弟登高處，遍插茱萸少一人。"),  # 王維
    ("七夕", "銀燭秋光冷畫屏，輕羅小扇撲流螢。天階夜色涼如水，臥看牽牛織女星。"),  # 杜牧《秋夕》 under 七夕
    ("元夕", "不夜城中陸地蓮，小梅初破月初圓。新年第一佳時節，誰肯如翁閉戶眠。"),  # 范成大: the lantern city
])
def test_a_festival_poem_is_credited_by_its_customs(title, text):
    g = grade_poem(text, title=title)
    assert festival_fit(title, g.lines).answered
    assert g.criteria["貼題"]["score"] >= 0.75 and "之事" in g.criteria["貼題"]["explanation"]


def test_the_lanterns_of_the_first_full_moon_are_not_a_moon_festival():
    """范成大's 元夕 writes 月初圓, but its 不夜 and 陸地蓮 are 上元's: under 中秋 it answers no 中秋 custom."""
    lines = ["不夜城中陸地蓮", "小梅初破月初圓", "新年第一佳時節", "誰肯如翁閉戶眠"]
    assert festival_fit("元夕", lines).signs[:2] == ("不夜", "陸地蓮")
    assert not festival_fit("中秋", lines).answered


def test_moon_words_make_no_other_festival():
    """蘇軾《中秋月》 writes 銀漢 and 玉盤, images of every festival night: it is neither credited nor called 七夕's."""
    fit = festival_fit("中秋月", ["暮雲收盡溢清寒", "銀漢無聲轉玉盤", "此生此夜不長好", "明月明年何處看"])
    assert fit is not None and fit.festival == "中秋" and not fit.other and not fit.answered


def test_another_festivals_poem_under_a_festival_title_is_off_it():
    text = "遙知兄弟登高處，遍插茱萸少一人。菊花須插滿頭歸，落帽龍山醉不知。"
    g = grade_poem(text, title="端午")
    assert festival_fit("端午", g.lines).other == "重陽"
    assert g.grade in ("下品", "荒牌") and any("重陽之事" in r for r in g.reasons)


def test_a_sign_one_tang_poem_of_the_day_writes_counts():
    """劉宰《七夕》 under 中秋 (fresh6): 天孫 (one Tang 七夕 poem writes it) and 乞巧 are 七夕's, so it is off its
    title; it was 中品, as 天孫 counted only with two Tang poems behind it."""
    fit = festival_fit("中秋", ["天孫今夕渡銀潢", "女伴紛紛乞巧忙", "乞得巧多成底事", "祇堪裝點嫁衣裳"])
    assert fit.other == "七夕" and {"天孫", "乞巧"} <= set(fit.other_signs)


def test_the_same_poem_under_its_own_festival_is_not():
    text = "遙知兄弟登高處，遍插茱萸少一人。菊花須插滿頭歸，落帽龍山醉不知。"
    assert grade_poem(text, title="重陽").criteria["貼題"]["score"] >= 0.75


@pytest.mark.parametrize("text", ["競渡龍舟急，分糉角黍香。", "竞渡龙舟急，分粽角黍香。", "競渡龍舟急，分粽角黍香。"])
def test_signs_are_read_in_every_script_and_form(text):
    """粽 and 糉, 龍 and 龙: a festival's customs are matched in 简体, as the grading reads the poem."""
    g = grade_poem(text, title="端午")
    fit = festival_fit("端午", list(g.lines))
    assert fit.answered and fit.signs == ("競渡", "龍舟", "粽", "角黍"), fit


def test_an_elegy_is_answered_by_mourning_and_never_read_as_another_festival():
    """人事: 挽 and 壽 titles ask their matter as festivals do, credited only (an elegy may recall a feast day)."""
    elegy = festival_fit("挽王荊公", ["丹旐秋風急", "佳城宿草新", "重陽誰共醉", "菊蕊滿東籬"])
    assert elegy.festival == "哀挽" and elegy.answered and not elegy.other
    assert festival_of("萬壽寺") == "" and festival_of("壽州道中") == "" and festival_of("子由生日") == "祝壽"
    g = grade_poem("薤露晨光冷，銘旌野水邊。音容從此隔，宿草已經年。", title="挽故人")
    assert g.criteria["貼題"]["score"] >= 0.75 and "哀挽之事" in g.criteria["貼題"]["explanation"]


MIXED = "除夕家家放紙鳶，荷花滿院月團圓。龍舟競渡人爭看，插柳門前掃墓田。"


@pytest.mark.parametrize("text", [MIXED, to_simplified(MIXED)])
def test_the_customs_of_other_days_under_a_festival_are_facts_in_disorder(text):
    """節物雜出: 清明's willows and graves, 端午's dragon boats and 中秋's reunion under 除夕 are 事實雜亂 (荒牌), in
    any script, and the reason names each day's customs."""
    g = grade_poem(text, title="除夕")
    assert g.grade == "荒牌"
    assert "事實雜亂" in g.reasons[0] and "（清明）" in g.reasons[0] and "（端午）" in g.reasons[0]
    assert "mixed_days" in g.criteria["貫理"]


def test_a_festival_poem_that_recalls_one_other_day_is_not_mixed():
    """王安石's 元日 writes its own day only; a 重陽 poem that remembers 中秋's moon once is no jumble of days."""
    assert mixed_days("元日", ["爆竹聲中一歲除", "春風送暖入屠蘇", "千門萬戶曈曈日", "總把新桃換舊符"]) == ()
    assert mixed_days("九日", ["茱萸插鬢菊花黃", "猶記中秋月滿堂", "登高一望家何在", "落帽風前醉夕陽"]) == ()
    g = grade_poem("爆竹聲中一歲除，春風送暖入屠蘇。千門萬戶曈曈日，總把新桃換舊符。", title="元日")
    assert "mixed_days" not in g.criteria["貫理"] and g.grade != "荒牌"


def test_zhongyuan_is_a_festival_and_moon_cakes_are_mid_autumns():
    """中元 (七月十五) is read as a festival, answered by its customs (盂蘭, 河燈); 月餅 is 中秋's custom. fresh20's
    上巳节 with 粽 and 龍舟, 河燈 and 月餅 is 節物雜出 (it was 下品, said to show no muddle of facts)."""
    assert festival_of("中元夜") == "中元" and festival_of("七月十五夜") == "中元"
    assert festival_fit("中元", ["河燈點點照江流", "盂蘭會上薦亡魂"]).answered
    g = grade_poem("三月三日好春光，家家户户包粽香。河灯放到江心去，赏完月饼看龙舟。", title="上巳节")
    assert g.grade == "荒牌" and "「河燈」（中元）" in g.reasons[0] and "「月餅」（中秋）" in g.reasons[0]

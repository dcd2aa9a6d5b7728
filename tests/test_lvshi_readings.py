"""唐詩三百首's 律詩 the checker rejects (issue 13, lvshi13): readings fixed by their words, and 特拗 without
its condition named with the rescue the tradition argues over.

幾重 千重 萬重 (重 a layer, 平 冬) and 洞庭 (庭 平: its 去聲 is 逕庭's) are words of the table; a 仄平仄平仄
line stays a fault (王力《詩詞格律》: the 1st char of 特拗 must be 平), but its message names the 對句's 平
head that 董文渙《聲調四譜》 accepts as the rescue, and what would pass otherwise.
"""

import pytest

from poetry.checker import check_poem
from poetry.readings import fixed_readings

GUO_GU_REN_ZHUANG = (  # 孟浩然《過故人莊》
    "故人具雞黍，邀我至田家。綠樹村邊合，青山郭外斜。開軒面場圃，把酒話桑麻。待到重陽日，還來就菊花。"
)
DENG_YUE_YANG_LOU = (  # 杜甫《登岳陽樓》
    "昔聞洞庭水，今上岳陽樓。吳楚東南坼，乾坤日夜浮。親朋無一字，老病有孤舟。戎馬關山北，憑軒涕泗流。"
)
FENG_WEI_XIANG_LUO = (  # 李商隱《無題》
    "鳳尾香羅薄幾重，碧文圓頂夜深縫。扇裁月魄羞難掩，車走雷聲語未通。"
    "曾是寂寥金燼暗，斷無消息石榴紅。斑騅只繫垂楊岸，何處西南任好風。"
)


def _errors(text: str) -> list[tuple[int, int, str, str]]:
    return [(v.line, v.pos, str(v.kind), v.message) for v in check_poem(text).violations if v.severity == "error"]


@pytest.mark.parametrize(
    ("line", "index", "group"),
    [
        ("鳳尾香羅薄幾重", 6, "上平二冬"),  # 李商隱: how many layers
        ("千里關河萬重意", 5, "上平二冬"),
        ("嶺色千重萬重雨", 3, "上平二冬"),
        ("昔聞洞庭水", 3, "下平九靑"),  # 杜甫: the lake, not 逕庭
    ],
)
def test_words_fix_the_reading(line, index, group):
    reading = fixed_readings(line)[index]
    assert reading is not None and reading.group == group


def test_a_first_foot_of_layers_rhymes_as_a_neighbour():
    # 幾重 重 平 (冬) in a 東 poem: the first line rhymes, 孤雁出群 (a note); 縫 (冬) at an even foot stays 出韻
    result = check_poem(FENG_WEI_XIANG_LUO)
    assert result.pattern == "仄起首句入韻"
    assert [(v.line, v.pos, str(v.kind), str(v.severity)) for v in result.violations] == [
        (1, 7, "rhyme", "note"), (2, 7, "rhyme", "error")]


def test_te_ao_without_its_condition_stays_a_fault_and_names_the_dui_ju_rescue():
    # 故人具雞黍 (仄平仄平仄), 對句 邀我至田家 (平仄仄平平): 王力 refuses, 董文渙 accepts
    assert _errors(GUO_GU_REN_ZHUANG) == [
        (1, 4, "tone", "第一句第四字『雞』應仄而平（特拗須第一字平；董文渙《聲調四譜》許對句首字『邀』平聲相救）。")]
    assert not check_poem(GUO_GU_REN_ZHUANG).regulated


def test_dong_ting_is_not_a_rare_reading_to_confirm():
    # 庭 was 仄 only by its rare 去聲, and the message asked the poet to confirm it; 洞庭 reads it 平
    errors = _errors(DENG_YUE_YANG_LOU)
    assert errors == [
        (1, 4, "tone", "第一句第四字『庭』應仄而平（特拗須第一字平；董文渙《聲調四譜》許對句首字『今』平聲相救）。")]


def test_te_ao_hint_without_a_rescue_and_in_seven_chars():
    # 杜甫《春夜喜雨》 with 隨風潛入夜 → 逐風入春夜: the 對句 潤物細無聲 starts 仄, nothing to name
    text = "好雨知時節，當春乃發生。逐風入春夜，潤物細無聲。野徑雲俱黑，江船火獨明。曉看紅濕處，花重錦官城。"
    assert _errors(text) == [(3, 4, "tone", "第三句第四字『春』應仄而平（特拗須第一字平）。")]
    # 梅堯臣《魯山山行》 with 人 → 此: 雲外一聲雞 is the 平仄仄平平 董文渙 asks for; still a fault
    text = "適與野情愜，千山高復低。好峰隨處改，幽徑獨行迷。霜落熊升樹，林空鹿飲溪。此家在何許，雲外一聲雞。"
    assert _errors(text) == [
        (7, 4, "tone", "第七句第四字『何』應仄而平（特拗須第一字平；董文渙《聲調四譜》許對句首字『雲』平聲相救）。")]
    # 蘇軾《東欄梨花》 with 東 → 北: 七言, the 3rd char; the 對句's 3rd 看 平
    text = "梨花淡白柳深青，柳絮飛時花滿城。惆悵北欄一株雪，人生看得幾清明。"
    assert _errors(text) == [
        (3, 6, "tone", "第三句第六字『株』應仄而平（特拗須第三字平；董文渙《聲調四譜》許對句第三字『看』平聲相救）。")]
    # 陸游《遊山西村》 with 簫鼓追隨春社近 → 簫鼓競隨近春社: the 對句's 3rd 簡 仄
    text = ("莫笑農家臘酒渾，豐年留客足雞豚。山重水複疑無路，柳暗花明又一村。"
            "簫鼓競隨近春社，衣冠簡樸古風存。從今若許閑乘月，拄杖無時夜叩門。")
    assert _errors(text) == [(5, 6, "tone", "第五句第六字『春』應仄而平（特拗須第三字平）。")]

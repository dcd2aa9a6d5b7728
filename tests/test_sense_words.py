"""多音字 whose word fixes the sense and the sense the reading (issue 13, poly13c), on real lines.

無那 那 去聲, 漢將 將 去聲, 上將軍 將 平, 亞相 相 去聲, 侍從 從 去聲, 勝事 勝 去聲, 難勝 勝 平,
秋興 興 去聲, 陶令 令 去聲, 詩思 思 去聲, 調琴 調 平 …
"""

import pytest

from poetry.checker import check_poem
from poetry.readings import fixed_readings


def _errors(text: str) -> list[tuple[int, int]]:
    return [(v.line, v.pos) for v in check_poem(text).violations if v.severity == "error"]


@pytest.mark.parametrize(
    ("line", "place", "group"),
    [
        ("無那金閨萬里愁", 1, "去聲二十一箇"),  # 王昌齡《從軍行》: 無那 = 無奈
        ("那堪正飄泊", 0, "下平五歌"),  # 杜甫: 那 how (諾何切)
        ("漢將辭家破殘賊", 1, "去聲二十三漾"),  # 高適《燕歌行》: the general
        ("不知官是上將軍", 5, "下平七陽"),  # 白居易: 將軍 as the word alone, not 上將 + 軍
        ("莫教明月去", 1, "下平三肴"),  # 教 to let (古肴切: 令也)
        ("思吳勝事繁", 2, "去聲二十五徑"),  # 杜甫: 勝事, fine sights
        ("才薄難勝任", 3, "下平十蒸"),  # 張詠: 勝 to bear
        ("城連禁苑斜", 2, "去聲二十七沁"),  # 李嶠: the palace park
        ("陶令門前四五樹", 1, "去聲二十四敬"),  # 陶令, the magistrate
        ("詩思竹間得", 1, "去聲四寘"),  # 思 the noun
        ("調琴欲有弄", 0, "下平二蕭"),  # 調 to tune (徒聊切)
        ("驛騎朝丹闕", 1, "去聲四寘"),  # 騎 a horseman
        ("山水含秋興", 4, "去聲二十五徑"),  # 興 the mood
        ("韋經亞相傳", 3, "去聲二十三漾"),  # 杜甫《哭韋大夫之晉》: 亞相, the vice-chancellor
        ("鯫生侍從忝王枚", 3, "去聲二宋"),  # 從 zòng, an attendant
        ("相如作賦才", 0, "下平七陽"),  # 司馬相如
        ("誰能借風便", 4, "去聲十七霰"),  # 便 a fair wind
    ],
)
def test_the_word_fixes_the_reading(line, place, group):
    assert fixed_readings(line)[place].group == group


def test_left_by_fit_where_the_word_takes_both():
    # 看花 (看 平 and 去 alike in Tang verse), 若論 (論 去 in Song: 若論三山方外境), 只應 (應 respond or should):
    # no word fixes them, so the book's readings stand
    assert fixed_readings("看花滿眼淚")[0] is None
    assert fixed_readings("若論三山方外境")[1] is None
    assert fixed_readings("只應朱顔非舊時")[1] is None
    assert fixed_readings("扈從良可賦")[1] is None  # 宋之問: 扈從 to attend the emperor, 從 平 there


def test_a_da_ao_is_not_rescued_by_the_other_reading_of_sheng():
    """杜甫《春日梓州登樓》 with the 出句's 4th char planted 仄 (大拗): 勝事 is 去聲, so 勝 in the 對句 cannot be read
    平 to rescue it."""
    original = "天畔登樓眼，隨春入故園，戰場今始定，移柳更能存，厭蜀交遊冷，思吳勝事繁，應須理舟楫，長嘯下荆門。"
    assert _errors(original) == []
    planted = original.replace("厭蜀交遊冷", "厭蜀交瘦冷")
    assert _errors(planted) == [(5, 4)]


def test_song_poems_judged_by_the_word():
    # 張詠《縣齋秋夕》: 難勝任 勝 平 (to bear), so 才薄難勝任 is no 大拗
    assert check_poem("才薄難勝任，空銷懶惰情，公堂羣吏散，苔地亂蛩聲，"
                      "隔歲鄉書絕，新寒酒病生，方今聖明代，不敢話辭榮。").regulated
    # 宋太宗《逍遥詠》: 殊勝 (the Buddhist "surpassing") 勝 去聲: an unrescued 大拗, 不 is 仄
    assert _errors("天界殊勝理，凡愚不易知，曩因誰可究，淺近故懷疑，"
                   "的實歸真性，區邪入正持，樂耶親大道，報應自然之。") == [(1, 4)]

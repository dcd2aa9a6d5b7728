"""Pastiche (issue 14, flat14b): stock diction is not taste, and plainness is not 意味平平.

Celebrated Tang poems are as stock by every diction measure as a player's pastiche (scripts/eval_pastiche.py:
靜夜思 and 春曉 sit above 95% of Tang poems), so no stock measure may call them 意味平平; and the 格調 model does
not weigh how well the Tang LMs predict the lines.
"""

import json

import pytest

from poetry.data import data_path
from poetry.grading import grade_poem
from poetry.grading.taste import STOCK_FEATURES, taste_features, taste_z

#: Celebrated plain poems: stock diction, nothing rare, and never 意味平平.
PLAIN_FAMOUS = {
    "靜夜思": "床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。",
    "春曉": "春眠不覺曉，處處聞啼鳥。夜來風雨聲，花落知多少。",
    "登鸛雀樓": "白日依山盡，黃河入海流。欲窮千里目，更上一層樓。",
    "山居秋暝": "空山新雨後，天氣晚來秋。明月松間照，清泉石上流。竹喧歸浣女，蓮動下漁舟。隨意春芳歇，王孫自可留。",
    "江雪": "千山鳥飛絕，萬徑人蹤滅。孤舟蓑笠翁，獨釣寒江雪。",
    "遊子吟": "慈母手中線，遊子身上衣。臨行密密縫，意恐遲遲歸。誰言寸草心，報得三春暉。",
    "尋隱者不遇": "松下問童子，言師采藥去。只在此山中，雲深不知處。",
    "竹里館": "獨坐幽篁裏，彈琴復長嘯。深林人不知，明月來相照。",
}


@pytest.mark.parametrize("title", sorted(PLAIN_FAMOUS))
def test_a_celebrated_plain_poem_is_not_called_flat(title):
    g = grade_poem(PLAIN_FAMOUS[title], title=title)
    assert not any("意味平平" in r for r in g.reasons), g.reasons


def test_the_shipped_taste_model_weighs_no_stock_measure():
    with open(data_path("grading_taste.json"), encoding="utf-8") as fh:
        spec = json.load(fh)
    assert not STOCK_FEATURES & set(spec["features"])
    # so a poem's 格調 does not move with the LM measures at all
    g = grade_poem(PLAIN_FAMOUS["江雪"], title="江雪")
    feats, _ = taste_features(list(g.lines), g.criteria)
    shifted = {k: (v + 5.0 if k in STOCK_FEATURES else v) for k, v in feats.items()}
    assert taste_z(spec, shifted) == taste_z(spec, feats)

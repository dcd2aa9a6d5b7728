"""Pastiche (issue 14, flat14b): stock diction is not taste, and plainness is not 意味平平.

Celebrated Tang poems are as stock by every diction measure as a player's pastiche (scripts/eval_pastiche.py:
靜夜思 and 春曉 sit above 95% of Tang poems), so no stock measure may call them 意味平平; and the 格調 model does
not weigh how well the Tang LMs predict the lines.
"""

import json
from pathlib import Path

import pytest

from poetry.data import data_path
from poetry.grading import grade_poem
from poetry.grading.taste import STOCK_FEATURES, taste_features, taste_z

#: Celebrated plain poems (stock diction, nothing rare): 靜夜思, 春曉, 登鸛雀樓, 山居秋暝, 江雪, 遊子吟 and 16 more.
PLAIN_FAMOUS = {p["title"]: p["text"] for p in json.loads(
    (Path(__file__).parent / "data" / "celebrated_plain.json").read_text(encoding="utf-8"))["poems"]}


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

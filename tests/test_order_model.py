"""The order measurement of 起承轉合 (scripts/order_model.py, scripts/eval_order.py) on in-memory toys: no corpus."""

import doctest
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import order_model  # noqa: E402
from eval_order import reordered, reversed_couplets, shuffled_couplets  # noqa: E402
from order_model import couplet_orders, fit, line_features, read_order  # noqa: E402

#: Characters that say nothing of a line's place.
FILLER = "山水雲月風花江天春秋寒日夜人城樹鳥舟煙雨草石"
#: A character that opens the line written for each place of a 絕句 (a toy 起承轉合: 昔 … 忽 … 歸).
MARKERS = "昔又忽歸"


def toy_poem(rng: random.Random, markers: str = MARKERS, length: int = 5) -> list[str]:
    """A toy poem whose line at place k opens with ``markers[k]``, the rest drawn from FILLER."""
    return [m + "".join(rng.choice(FILLER) for _ in range(length - 1)) for m in markers]


@pytest.fixture(scope="module")
def quatrain_model():
    rng = random.Random(1)
    return {4: fit([toy_poem(rng) for _ in range(300)], min_df=2)}


def test_the_written_order_of_a_quatrain_reads_above_its_reversal(quatrain_model):
    poem = toy_poem(random.Random(99))
    written, moved = read_order(poem, quatrain_model), read_order(reversed_couplets(poem), quatrain_model)
    assert written.own > 0.9 > 0.1 > moved.own
    assert written.margin > 0 > moved.margin and moved.best == (1, 0)
    assert written.chance == 0.5 and written.turn == 2  # the third line, opening with 忽, stands at 轉


def test_a_line_without_a_sign_of_its_place_reads_as_chance(quatrain_model):
    rng = random.Random(5)
    plain = ["".join(rng.choice(FILLER) for _ in range(5)) for _ in range(4)]
    assert abs(read_order(plain, quatrain_model).own - 0.5) < 0.2


def test_a_lushi_is_read_among_its_24_couplet_orders():
    rng = random.Random(2)
    markers = "昔昔又又忽忽歸歸"
    model = {8: fit([toy_poem(rng, markers, 7) for _ in range(200)], min_df=2)}
    poem = toy_poem(random.Random(7), markers, 7)
    reading = read_order(poem, model)
    assert len(couplet_orders(8)) == 24 and reading.chance == pytest.approx(1 / 24)
    assert reading.own > 0.5 and reading.turn == 4  # 頸聯's upper line
    for order in ([3, 2, 1, 0], [1, 0, 2, 3], [0, 1, 3, 2]):
        assert read_order(reordered(poem, order), model).own < reading.own


def test_other_shapes_are_not_read(quatrain_model):
    assert read_order(["白日依山盡", "黃河入海流"], quatrain_model) is None
    assert read_order(["白日依山盡", "黃河入海流", "欲窮千里目", "更上一層"], quatrain_model) is None


def test_an_odd_lines_last_character_is_not_read():
    # whether the first line rhymes (首句入韻) is prosody, which the checker judges
    assert "c:光" not in line_features("床前明月光", odd=True)
    assert "c:霜" in line_features("疑是地上霜", odd=False)


def test_moved_couplets_keep_their_lines_together():
    poem = ["一", "二", "三", "四", "五", "六", "七", "八"]
    assert reversed_couplets(poem) == ["七", "八", "五", "六", "三", "四", "一", "二"]
    rng = random.Random(3)
    for _ in range(20):
        moved = shuffled_couplets(poem, rng)
        assert moved != poem and sorted(moved) == sorted(poem)
        assert all(moved.index(poem[2 * k]) + 1 == moved.index(poem[2 * k + 1]) for k in range(4))


def test_order_model_doctests_hold():
    assert doctest.testmod(order_model).failed == 0


def test_eval_order_doctests_hold():
    import eval_order

    assert doctest.testmod(eval_order).failed == 0

"""貼題's title tables may learn Song titles, but read_title's words stay those of the Tang titles (songtitles14)."""

import numpy as np

from poetry.grading.title_meaning import _title_words
from poetry.grading.title_parts import read_title
from scripts.build_grading import build_title_words

CHARS = "春風花月夜江山雪梅寒"


def _poems() -> list[dict]:
    """Four Tang-like poems titled 春江 and three Song-like poems titled 次韻子由 (a formula and a name)."""
    tang = [{"title": "春江", "lines": ["春風花月夜", "江山雪梅寒"]} for _ in range(4)]
    song = [{"title": "次韻子由", "lines": ["梅花寒雪夜", "春風江月山"]} for _ in range(3)]
    return tang + song


def _vectors() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {"chars": np.array(CHARS), "topic": rng.normal(size=(len(CHARS), 4)).astype(np.float16)}


def test_the_parse_keeps_the_tang_words_when_the_tables_learn_song_titles():
    tables = build_title_words(_poems(), list(range(7)), _vectors(), min_df=3, parse=list(range(4)))
    units = str(tables["units"]).split("\n")
    assert "次韻" in units and "子由" in units  # the tables learned the Song titles' units
    assert str(tables["parse_words"]).split("\n") == ["春江"]  # the parse only the Tang titles'


def test_by_default_the_parse_knows_the_tables_two_character_units():
    tables = build_title_words(_poems(), list(range(7)), _vectors(), min_df=3)
    units = str(tables["units"]).split("\n")
    assert str(tables["parse_words"]).split("\n") == sorted(u for u in units if len(u) == 2)


def test_read_title_reads_the_shipped_parse_words():
    words = _title_words().parse_words
    assert "梅花" in words and "送別" in words
    assert words <= set(_title_words().index)  # shipped: Tang tables, every parse word a unit
    assert read_title("與諸子登峴山").topic == "登峴山"

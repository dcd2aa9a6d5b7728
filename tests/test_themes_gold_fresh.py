"""The fresh held-out theme gold (tests/data/themes_gold_fresh.json): its shape, checked against the tile set.

The file was written independently of the product's theme lexicon (see its ``_comment``); these tests only
guard its shape so an evaluation can trust it: 17 themes × {tiles, free}, 8–12 distinct characters per list,
every "tiles" character a real tile (e.g. 磯 of 水村釣, 塞 of 邊塞), no character in two lists.
"""

import collections
import json
import unicodedata
from pathlib import Path

import pytest

from poetry.tiles import load_tile_set

GOLD = Path(__file__).parent / "data" / "themes_gold_fresh.json"

THEMES = (
    "山景", "水村釣", "邊塞", "田園", "送別", "閨怨", "羈旅", "春景", "秋景",
    "冬雪", "月夜", "宴飲", "禪寺", "詠物", "懷古", "遊仙", "夏景",
)
KINDS = ("tiles", "free")


@pytest.fixture(scope="module")
def gold():
    with open(GOLD, encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="module")
def tile_chars():
    return frozenset(t.char for t in load_tile_set())


def test_comment_states_independence(gold):
    assert "data/themes.json" in gold["_comment"]
    assert set(gold) == {"_comment", "lists"}


def test_every_theme_has_exactly_one_list_of_each_kind(gold):
    pairs = collections.Counter((entry["theme"], entry["kind"]) for entry in gold["lists"])
    assert set(pairs) == {(theme, kind) for theme in THEMES for kind in KINDS}
    assert all(n == 1 for n in pairs.values())
    assert all(set(entry) == {"theme", "kind", "chars"} for entry in gold["lists"])


@pytest.mark.parametrize("theme", THEMES)
def test_lists_hold_8_to_12_distinct_han_characters(gold, theme):
    for entry in (e for e in gold["lists"] if e["theme"] == theme):
        chars = entry["chars"]
        assert 8 <= len(chars) <= 12, entry
        assert len(set(chars)) == len(chars), entry
        assert all(unicodedata.name(ch).startswith("CJK UNIFIED IDEOGRAPH") for ch in chars), entry


def test_tiles_lists_use_only_tile_characters(gold, tile_chars):
    strays = {
        entry["theme"]: set(entry["chars"]) - tile_chars for entry in gold["lists"] if entry["kind"] == "tiles"
    }
    assert {theme: chars for theme, chars in strays.items() if chars} == {}
    # 磯 and 塞 are tiles; the 水村釣 and 邊塞 lists hold them
    by_theme = {e["theme"]: e["chars"] for e in gold["lists"] if e["kind"] == "tiles"}
    assert "磯" in by_theme["水村釣"] and "塞" in by_theme["邊塞"]


def test_free_lists_reach_beyond_the_tile_set(gold, tile_chars):
    """The free lists were written with non-tile characters (蓑 笠 烽 戍 …), so they test generalisation."""
    for entry in (e for e in gold["lists"] if e["kind"] == "free"):
        assert not set(entry["chars"]) & tile_chars, entry


def test_no_character_in_two_lists(gold):
    owners = collections.defaultdict(list)
    for entry in gold["lists"]:
        for ch in entry["chars"]:
            owners[ch].append((entry["theme"], entry["kind"]))
    assert {ch: where for ch, where in owners.items() if len(where) > 1} == {}

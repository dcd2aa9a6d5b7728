"""The tile set and the deal: invariants of data/tiles.json, the 詩伯's count, the commitment, the draw."""

import collections
import csv
import hashlib
import io
import json
import random
from pathlib import Path

import pytest

from poetry.cli import main as cli_main
from poetry.data import data_path
from poetry.errors import InvalidHandError
from poetry.prosody import get_rhyme_book
from poetry.tiles import (
    HAND_SIZE,
    Tile,
    commitment,
    deal_round,
    first_seat,
    format_deal,
    load_tile_set,
    replay_deal,
    shuffle_stack,
    validate_tile_set,
    verify_deal,
)

NAMED = "山峰洞石澗壑江萍湖草煙浦漁磯"


@pytest.fixture(scope="module")
def tiles():
    return load_tile_set()


@pytest.fixture(scope="module")
def book():
    return get_rhyme_book("pingshui")


# --- the tile set --------------------------------------------------------------------------------


def test_tile_set_has_600_distinct_tiles_300_of_each_tone(tiles):
    chars = [t.char for t in tiles]
    assert len(chars) == 600
    assert len(set(chars)) == 600
    assert collections.Counter(t.tone for t in tiles) == {"平": 300, "仄": 300}


def test_every_tile_has_one_tone_in_the_rhyme_book(tiles, book):
    for tile in tiles:
        info = book.lookup(tile.char)
        assert not info.guessed, tile.char
        assert info.tone.value == tile.tone, (tile.char, info.tone)
        assert tile.rhyme in book.rhyme_groups_of(tile.char, info.tone), tile


def test_colour_marks_tone_and_strokes_are_traditional(tiles):
    by_char = {t.char: t for t in tiles}
    for tile in tiles:
        assert tile.colour == {"平": "朱", "仄": "墨"}[tile.tone]
        assert 1 <= tile.strokes <= 40
    # Unihan kTotalStrokes of the traditional forms (澗 15, not 涧 10; 煙 13, not 烟 10).
    assert [by_char[c].strokes for c in "山澗煙漁磯"] == [3, 15, 13, 14, 17]


def test_the_characters_the_game_names_are_tiles(tiles):
    chars = {t.char for t in tiles}
    assert set(NAMED) <= chars


def test_no_two_tiles_look_alike_in_simplified_script(tiles):
    import opencc

    t2s = opencc.OpenCC("t2s")
    simplified = collections.Counter(t2s.convert(t.char) for t in tiles)
    assert [c for c, n in simplified.items() if n > 1] == []


def test_word_classes_are_balanced():
    with open(data_path("tiles.json"), encoding="utf-8") as fh:
        records = json.load(fh)["tiles"]
    for tone in "平仄":
        mix = collections.Counter(r["class"] for r in records if r["tone"] == tone)
        assert set(mix) == {"名", "動", "形", "虛"}
        assert mix["名"] <= 150  # nouns at most half
        assert all(mix[c] >= 30 for c in "動形虛"), mix


def test_common_ping_groups_are_deep_enough_to_rhyme(tiles):
    # A hand holds a quarter of the set, so a group of 12 平 tiles gives a hand about 3 of them.
    groups = collections.Counter(t.rhyme for t in tiles if t.tone == "平")
    assert sum(n >= 12 for n in groups.values()) >= 10, groups


def test_load_tile_set_is_cached_and_immutable(tiles):
    assert load_tile_set() is tiles
    with pytest.raises(AttributeError):
        tiles[0].tone = "仄"


# --- the count -----------------------------------------------------------------------------------


def _count_round(strokes, start, seats=4):
    """Count round the table one seat per stroke, the starting seat saying 'one'."""
    seat = start
    for _ in range(strokes - 1):
        seat = seat % seats + 1
    return seat


@pytest.mark.parametrize("host_seat", [1, 2, 3, 4, None])
def test_count_rule_for_every_stroke_number(host_seat):
    start = 1 if host_seat is None else host_seat
    for strokes in range(1, 65):
        expected = _count_round(strokes, start)
        assert first_seat(strokes, host_seat) == expected, (strokes, host_seat)
        assert first_seat(strokes, host_seat) == (start - 1 + strokes - 1) % 4 + 1


@pytest.mark.parametrize(
    "strokes,host_seat,seat",
    [(1, 1, 1), (2, 1, 2), (4, 1, 4), (5, 1, 1), (3, 3, 1), (15, 2, 4), (13, 4, 4), (6, None, 2)],
)
def test_count_rule_examples(strokes, host_seat, seat):
    assert first_seat(strokes, host_seat) == seat


def test_count_rule_rejects_nonsense():
    with pytest.raises(ValueError):
        first_seat(0)
    with pytest.raises(ValueError):
        first_seat(5, host_seat=5)


@pytest.mark.parametrize("host_seat", [1, 2, 3, 4, None])
def test_deal_starts_with_the_seat_the_count_tile_gives(tiles, host_seat):
    # One stack per stroke number in the set, with a tile of that many strokes on top.
    by_strokes = {}
    for tile in tiles:
        by_strokes.setdefault(tile.strokes, tile)
    rest = [t.char for t in tiles]
    for n, top in sorted(by_strokes.items()):
        stack = [top.char] + [c for c in rest if c != top.char]
        deal = replay_deal("00", stack, host_seat=host_seat, tiles=tiles)
        assert deal.count_tile == top
        assert deal.first_seat == _count_round(n, 1 if host_seat is None else host_seat)
        assert deal.draws[0][0] == deal.first_seat


# --- the deal ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("host_seat", [1, 3, None])
def test_each_tile_once_and_150_each(tiles, seed, host_seat):
    deal = deal_round(tiles, host_seat=host_seat, rng=random.Random(seed))
    assert sorted(deal.hands) == [1, 2, 3, 4]
    assert all(len(hand) == HAND_SIZE for hand in deal.hands.values())
    dealt = [c for hand in deal.hands.values() for c in hand]
    assert sorted(dealt) == sorted(t.char for t in tiles)
    assert len(deal.draws) == 600


def test_draw_follows_the_turn_order(tiles):
    deal = deal_round(tiles, host_seat=2, rng=random.Random(5))
    first = deal.first_seat
    assert deal.turn_order == tuple((first - 1 + i) % 4 + 1 for i in range(4))
    assert [seat for seat, _ in deal.draws] == [deal.turn_order[i % 4] for i in range(600)]
    # The draw takes the stack from the top, the count tile having gone to the bottom.
    assert [c for _, c in deal.draws] == list(deal.stack[1:]) + [deal.stack[0]]
    # So the count tile is drawn last, by the seat before the first drawer.
    assert deal.draws[-1] == (deal.turn_order[-1], deal.count_tile.char)
    assert deal.hands[deal.turn_order[-1]][-1] == deal.count_tile.char
    for seat in range(1, 5):
        assert deal.hands[seat] == tuple(c for s, c in deal.draws if s == seat)


def test_seeded_deal_gives_exact_hands():
    # A frozen copy of the first tile set, so that rebuilding data/tiles.json does not move this test.
    tiles = load_tile_set(Path(__file__).parent / "data" / "tiles_fixture.json")
    deal = deal_round(tiles, host_seat=2, rng=random.Random(2026))
    assert deal.salt == "f38b2ffc80a4df5a51c9bc701e7ea419"
    assert deal.stack[:3] == ("憐", "願", "鏡")
    assert (deal.count_tile.char, deal.count_tile.strokes, deal.first_seat) == ("憐", 15, 4)
    assert deal.turn_order == (4, 1, 2, 3)
    assert "".join(deal.hands[1][:5]) == "鏡樹仍眼谷"
    assert "".join(deal.hands[4][:5]) == "願少承臣到"
    assert deal.hands[3][-1] == "憐"  # the count tile, drawn last
    assert deal_round(tiles, host_seat=2, rng=random.Random(2026)) == deal


def test_default_shuffle_is_unpredictable(tiles):
    one, two = deal_round(tiles), deal_round(tiles)
    assert one.stack != two.stack
    assert one.salt != two.salt and len(one.salt) == 32
    int(one.salt, 16)


def test_shuffle_keeps_every_character(tiles):
    stack = shuffle_stack(tiles, random.Random(9))
    assert sorted(stack) == sorted(t.char for t in tiles)
    assert stack != [t.char for t in tiles]


# --- the commitment ------------------------------------------------------------------------------


def test_commitment_is_sha256_of_salt_newline_stack():
    # printf 'abc\n山江' | sha256sum
    assert commitment("abc", ["山", "江"]) == "169924dc0e6073a4450ffc18245bba77ca523bf26712f929ba3ab676bf442279"
    assert commitment("abc", "山江") == commitment("abc", ["山", "江"])


def test_commitment_verifies_and_fails_on_any_change(tiles):
    deal = deal_round(tiles, rng=random.Random(11))
    assert deal.commitment == hashlib.sha256((deal.salt + "\n" + "".join(deal.stack)).encode()).hexdigest()
    assert verify_deal(deal.salt, deal.stack, deal.commitment)
    assert verify_deal(deal.salt, list(deal.stack), deal.commitment.upper())
    swapped = list(deal.stack)
    swapped[10], swapped[11] = swapped[11], swapped[10]
    assert not verify_deal(deal.salt, swapped, deal.commitment)
    replaced = list(deal.stack)
    replaced[599] = "龘"
    assert not verify_deal(deal.salt, replaced, deal.commitment)
    assert not verify_deal(deal.salt[:-1] + ("0" if deal.salt[-1] != "0" else "1"), deal.stack, deal.commitment)
    assert not verify_deal(deal.salt, deal.stack[:-1], deal.commitment)
    assert not verify_deal(deal.salt, deal.stack, "承諾")  # a garbled commitment is simply false


def test_replay_gives_the_same_deal(tiles):
    deal = deal_round(tiles, host_seat=4, rng=random.Random(12))
    assert replay_deal(deal.salt, deal.stack, host_seat=4) == deal
    assert replay_deal(deal.salt, deal.stack, host_seat=1) != deal


@pytest.mark.parametrize("change", ["drop", "duplicate"])
def test_replay_rejects_a_stack_that_is_not_the_set(tiles, change):
    stack = [t.char for t in tiles]
    if change == "drop":
        stack.pop()
    else:
        stack[1] = stack[0]
    with pytest.raises(InvalidHandError, match="各一張"):
        replay_deal("00", stack)


def test_replay_rejects_a_stack_with_foreign_characters(tiles):
    stack = [t.char for t in tiles]
    stack[0] = "氫"
    with pytest.raises(InvalidHandError, match="氫"):
        replay_deal("00", stack)


# --- custom tile sets ----------------------------------------------------------------------------


def _chars(tiles):
    return [t.char for t in tiles]


def test_custom_set_as_json_list_of_characters(tiles):
    custom = validate_tile_set(json.dumps(_chars(tiles), ensure_ascii=False))
    assert custom == tiles


def test_custom_set_as_json_objects_with_given_tone_and_strokes(tiles):
    records = [{"char": t.char} for t in tiles]
    # 看 is 可平可仄: allowed when the upload says which tone the tile plays.
    ping_out = next(i for i, t in enumerate(tiles) if t.tone == "平" and t.char not in NAMED)
    records[ping_out] = {"char": "看", "tone": "平", "strokes": 9}
    custom = validate_tile_set(json.dumps({"tiles": records}, ensure_ascii=False))
    kan = next(t for t in custom if t.char == "看")
    assert kan == Tile("看", "平", "上平十四寒", 9, "朱")


def test_custom_set_as_csv_with_header(tiles):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["char", "tone", "strokes"])
    for t in tiles:
        writer.writerow([t.char, t.tone, t.strokes])
    custom = validate_tile_set(out.getvalue().encode("utf-8"))
    assert [t.char for t in custom] == _chars(tiles)
    assert collections.Counter(t.tone for t in custom) == {"平": 300, "仄": 300}


def test_custom_set_as_tsv_with_chinese_header_and_colour_names(tiles):
    lines = ["字\t平仄\t筆畫"] + [f"{t.char}\t{t.colour}\t{t.strokes}" for t in tiles]
    custom = validate_tile_set("\r\n".join(lines))
    assert custom == tiles


def test_custom_set_from_an_old_mac_spreadsheet_with_bare_cr_line_ends(tiles):
    lines = ["字,平仄"] + [f"{t.char},{t.tone}" for t in tiles]
    assert [t.char for t in validate_tile_set("\r".join(lines))] == _chars(tiles)


@pytest.mark.parametrize("text,needle", [('"' + "山" * 140_000, "牌組 CSV 格式有誤"), ('a,"b"c\r]', "須是單一個漢字")])
def test_malformed_csv_is_a_chinese_error_not_a_crash(text, needle):
    with pytest.raises(InvalidHandError, match=needle):
        validate_tile_set(text)


def test_custom_set_as_json_objects_with_chinese_keys(tiles):
    records = [{"字": t.char, "平仄": t.tone + "聲"} for t in tiles]
    assert validate_tile_set(records) == tiles


def test_custom_set_as_csv_one_character_a_line(tiles):
    custom = validate_tile_set("\n".join(_chars(tiles)))
    assert {t.char for t in custom} == set(_chars(tiles))


def test_custom_set_with_a_new_ping_character_takes_tone_and_rhyme_from_the_book(tiles):
    chars = _chars(tiles)
    i = chars.index("人")
    chars[i] = "腸"
    custom = validate_tile_set(chars)
    assert custom[i] == Tile("腸", "平", "下平七陽", 13, "朱")


def test_duplicates_are_named(tiles):
    chars = _chars(tiles)
    chars[5] = chars[0]
    with pytest.raises(InvalidHandError, match=f"重複.*「{chars[0]}」"):
        validate_tile_set(chars)


def test_599_tiles_are_rejected(tiles):
    with pytest.raises(InvalidHandError, match="600.*599"):
        validate_tile_set(_chars(tiles)[:-1])


def test_301_ping_and_299_ze_are_rejected(tiles):
    chars = _chars(tiles)
    ze = next(i for i, t in enumerate(tiles) if t.tone == "仄")
    chars[ze] = "腸"  # a 平 character not in the set
    with pytest.raises(InvalidHandError, match="平聲 301 張、仄聲 299 張"):
        validate_tile_set(chars)


def test_non_cjk_entries_are_named(tiles):
    chars = _chars(tiles)
    chars[3], chars[4] = "A", "山江"
    with pytest.raises(InvalidHandError, match="單一個漢字.*「A」.*「山江」"):
        validate_tile_set(chars)


def test_unknown_characters_are_named(tiles):
    chars = _chars(tiles)
    chars[7] = "氫"  # a modern character: in no rhyme book
    with pytest.raises(InvalidHandError, match="不在平水韻.*「氫」"):
        validate_tile_set(chars)


def test_simplified_characters_are_named_with_their_traditional_forms(tiles):
    chars = _chars(tiles)
    i, j = chars.index("風"), chars.index("發")
    chars[i], chars[j] = "风", "发"
    with pytest.raises(InvalidHandError, match="繁體.*「风→風」.*「发→(發／髮|髮／發)」"):
        validate_tile_set(chars)


def test_either_tone_characters_need_a_tone(tiles):
    chars = _chars(tiles)
    chars[0] = "看"
    with pytest.raises(InvalidHandError, match="可平可仄.*「看」"):
        validate_tile_set(chars)


def test_a_tone_against_the_book_is_named(tiles):
    records = [{"char": t.char, "tone": t.tone} for t in tiles]
    records[2] = {"char": "山", "tone": "仄"}
    with pytest.raises(InvalidHandError, match="與平水韻不合.*「山（平）」"):
        validate_tile_set(records)


def test_a_rhyme_group_the_character_is_not_in_is_named(tiles):
    records = [{"char": t.char} for t in tiles]
    records[2] = {"char": "山", "rhyme": "下平七陽"}
    with pytest.raises(InvalidHandError, match="韻部.*「山（下平七陽）」"):
        validate_tile_set(records)


def test_bad_stroke_counts_are_named(tiles):
    records = [{"char": t.char} for t in tiles]
    records[2] = {"char": "山", "strokes": "三"}
    with pytest.raises(InvalidHandError, match="筆畫.*「山」"):
        validate_tile_set(records)


def test_two_spellings_of_one_character_are_rejected(tiles):
    chars = _chars(tiles)
    assert "峰" in chars and "峯" not in chars
    ze = next(i for i, t in enumerate(tiles) if t.tone == "平" and t.char != "峰")
    chars[ze] = "峯"
    with pytest.raises(InvalidHandError, match="同一個字.*(峰／峯|峯／峰)"):
        validate_tile_set(chars)


def test_huge_uploads_are_refused_before_parsing():
    with pytest.raises(InvalidHandError, match="太大"):
        validate_tile_set("山," * 600_000)


@pytest.mark.parametrize("upload", ["", "[", b"\xff\xfe", "{\"tiles\": 3}", "[1, 2]"])
def test_malformed_uploads_get_a_message(upload):
    with pytest.raises(InvalidHandError) as exc:
        validate_tile_set(upload)
    assert exc.value.message


# --- the command line ----------------------------------------------------------------------------


def test_cli_deal_json_is_the_seeded_deal(capsys, tiles):
    assert cli_main(["deal", "--seed", "2026", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    deal = deal_round(tiles, rng=random.Random(2026))
    assert out["commitment"] == deal.commitment
    count = deal.count_tile
    assert out["count_tile"] == {"char": count.char, "strokes": count.strokes, "tone": count.tone, "rhyme": count.rhyme}
    assert out["first_seat"] == first_seat(count.strokes, 1)
    assert out["hands"]["1"] == list(deal.hands[1])
    assert verify_deal(out["salt"], out["stack"], out["commitment"])


def test_cli_deal_text_shows_count_and_hands_by_tone(capsys, tiles):
    assert cli_main(["deal", "--seed", "2026"]) == 0
    text = capsys.readouterr().out
    deal = deal_round(tiles, rng=random.Random(2026))
    count = deal.count_tile
    assert f"數牌：「{count.char}」{count.strokes} 畫" in text
    assert f"第 {deal.first_seat} 座先抽" in text
    assert text.count("：150 張") == 4
    assert text.count("平（朱）") == 4 and text.count("仄（墨）") == 4
    assert deal.commitment in text
    assert text == format_deal(deal)


def test_docstring_examples_hold():
    import doctest

    import poetry.tiles

    result = doctest.testmod(poetry.tiles)
    assert result.attempted >= 8 and result.failed == 0

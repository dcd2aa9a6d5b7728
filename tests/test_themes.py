"""poetry.themes: the vectors, the lexicon, suggest_themes on real hands, the CLI and POST /api/themes."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from poetry.cli import main
from poetry.errors import MalformedPoemError, PoetryError
from poetry.prosody import Tone, get_rhyme_book
from poetry.text import to_simplified
from poetry.themes import (
    MAX_CHARS,
    MIN_FEET,
    OTHER,
    char_vectors,
    hand_chars,
    load_themes,
    suggest_themes,
    themes_to_json,
    vector_of,
)
from poetry.tiles import load_tile_set

ROOT = Path(__file__).resolve().parent.parent
MOUNTAIN = "山峰洞石澗壑巖嶺"
WATER_VILLAGE = "江萍湖草煙浦漁磯"


def random_hand(planted: str, seed: int, size: int = 150) -> list[str]:
    """``planted`` plus random tiles of the standard set, shuffled: a hand as a deal could give it."""
    rng = random.Random(seed)
    filler = [t.char for t in load_tile_set() if t.char not in planted]
    rng.shuffle(filler)
    hand = list(dict.fromkeys(planted)) + filler[: size - len(set(planted))]
    rng.shuffle(hand)
    return hand


def names(suggestions) -> list[str]:
    return [s.name for s in suggestions]


# --- data -----------------------------------------------------------------------------------------


def test_vectors_are_normalised_and_cover_the_tiles():
    vectors = char_vectors()
    assert vectors.matrix.shape == (len(vectors.vocab), vector_of("山").shape[0])
    norms = np.linalg.norm(vectors.matrix, axis=1)
    assert np.allclose(norms, 1.0, atol=1e-3)
    assert not vectors.matrix.flags.writeable
    missing = [t.char for t in load_tile_set() if t.char not in vectors]
    assert len(missing) <= 6, missing  # tiles are common characters of Tang verse


def test_vectors_put_related_characters_together():
    fish, angle, wine = vector_of("漁"), vector_of("釣"), vector_of("酒")
    assert float(fish @ angle) > float(fish @ wine)
    assert float(vector_of("峰") @ vector_of("嶺")) > float(vector_of("峰") @ vector_of("杯"))
    assert vector_of("a") is None and vector_of("𠀀") is None


def test_lexicon_has_the_required_themes():
    themes = load_themes()
    required = "山景 水村釣 邊塞 田園 送別 閨怨 羈旅 春景 秋景 冬雪 月夜 宴飲 禪寺 詠物".split()
    assert set(required) <= {t.name for t in themes}
    for theme in themes:
        assert 15 <= len(theme.seeds) <= 50, theme.name
        assert 3 <= len(theme.titles) <= 5, theme.name
        assert theme.description


def test_title_association_covers_the_lexicon_and_points_the_right_way():
    """data/vectors_themes.npz knows every theme, and characters typical of a kind of poem lean to its theme."""
    from poetry.data import load_arrays
    from poetry.themes import ASSOC_FILE, _lexicon

    stored = [str(name) for name in load_arrays(ASSOC_FILE)["themes"]]
    assert stored == [t.name for t in load_themes()]
    vectors, lex = char_vectors(), _lexicon(None)
    names = [t.name for t in lex.themes]
    assert not lex.assoc.flags.writeable
    for char, theme in (("烽", "邊塞"), ("僧", "禪寺"), ("漁", "水村釣"), ("醉", "宴飲"), ("驛", "羈旅")):
        row = lex.assoc[vectors.index[char]]
        assert names[int(np.argmax(row))] == theme, char
    # centred over the themes: a character as common in every kind of poem (之) leans nowhere much
    assert abs(float(lex.assoc[vectors.index["之"]].max())) < float(lex.assoc[vectors.index["烽"]].max())


def test_lexicon_without_the_association_file_still_groups(tmp_path):
    """A data folder without vectors_themes.npz (or with a lexicon edited since) falls back to the vectors."""
    import shutil

    from poetry.data import data_dir

    for name in ("vectors.npy", "vectors_vocab.txt", "vectors_words.tsv", "themes.json", "tiles.json"):
        shutil.copy(data_dir() / name, tmp_path / name)
    result = suggest_themes(random_hand(MOUNTAIN + "泉瀑嵐岫", 1), data_dir=tmp_path)
    assert names(result)[0] == "山景"


# --- suggest_themes -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mountain_hand_gets_mountain_scene_first(seed):
    result = suggest_themes(random_hand(MOUNTAIN, seed))
    assert result[0].name == "山景"
    members = {c.char for c in result[0].chars}
    assert len(members & set(MOUNTAIN)) >= 6


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_water_village_hand_gets_fishing_first(seed):
    result = suggest_themes(random_hand(WATER_VILLAGE, seed))
    assert result[0].name == "水村釣"
    members = {c.char for c in result[0].chars}
    assert len(members & set(WATER_VILLAGE)) >= 5


def test_two_themes_in_one_hand_are_kept_apart():
    result = suggest_themes(random_hand(MOUNTAIN + "猿泉瀑" + WATER_VILLAGE + "釣舟蓑鷗", 5))
    by_name = {s.name: {c.char for c in s.chars} for s in result}
    assert {"山景", "水村釣"} <= set(by_name)
    assert not by_name["山景"] & set("漁磯釣蓑鷗")
    assert not by_name["水村釣"] & set("峰壑巖澗")


def test_every_character_appears_once_and_other_is_last():
    hand = random_hand(MOUNTAIN, 9)
    result = suggest_themes(hand, max_themes=99)
    placed = [c.char for s in result for c in s.chars]
    assert sorted(placed) == sorted(hand)
    assert OTHER not in names(result)[:-1]
    scores = [s.score for s in result if s.name != OTHER]
    assert scores == sorted(scores, reverse=True)
    assert all(0 < s < 1 for s in scores)


def test_max_themes_limits_the_named_themes():
    result = suggest_themes(random_hand(MOUNTAIN + WATER_VILLAGE, 4), max_themes=2)
    assert len([s for s in result if s.name != OTHER]) <= 2
    assert sorted(c.char for s in result for c in s.chars) == sorted(random_hand(MOUNTAIN + WATER_VILLAGE, 4))


def test_chars_carry_their_tone():
    result = suggest_themes("山峰洞石澗壑巖嶺泉松")
    tones = {c.char: c.tone for s in result for c in s.chars}
    assert tones["山"] == "平" and tones["石"] == "仄" and tones["峰"] == "平"


def test_rhymes_have_at_least_three_ping_feet_theme_first():
    book = get_rhyme_book()
    hand = random_hand(MOUNTAIN + WATER_VILLAGE, 11)
    result = suggest_themes(hand)
    assert any(s.rhymes for s in result)
    for s in result:
        own = {c.char for c in s.chars}
        for option in s.rhymes:
            assert len(option.feet) >= MIN_FEET
            assert len(set(option.feet)) == len(option.feet)
            for foot in option.feet:
                assert foot in hand
                assert option.group in book.rhyme_groups_of(foot, Tone.PING)
            assert option.group.startswith(("上平", "下平"))
            assert option.theme_feet == len(own & set(option.feet))
            assert all(f in own for f in option.feet[: option.theme_feet])
        # every 平 group with ≥ 3 feet in the hand is offered
    counts: dict[str, int] = {}
    for c in hand:
        for g in book.rhyme_groups_of(c, Tone.PING):
            if any(r.group == g and r.common for r in book.lookup(c).readings):
                counts[g] = counts.get(g, 0) + 1
    offered = {o.group for o in result[0].rhymes}
    assert {g for g, n in counts.items() if n >= 5} <= offered


def test_a_hand_with_no_rhyme_group_of_three_offers_none():
    result = suggest_themes("峰壑石澗嶺洞")  # 峰 is the only 平 character
    assert all(s.rhymes == () for s in result)


def test_titles_two_or_three_per_named_theme():
    for s in suggest_themes(random_hand(MOUNTAIN + WATER_VILLAGE, 6)):
        if s.name == OTHER:
            assert s.titles == ()
        else:
            assert 2 <= len(s.titles) <= 3
            assert all(t for t in s.titles)
    # issue 9: a round's title is of one's own tiles, so every suggested title is spelled from the hand,
    # the lexicon's titles the hand can spell first
    lexicon = {t.name: set(t.titles) for t in load_themes()}
    hand = random_hand(MOUNTAIN, 1)
    mountain = suggest_themes(hand)[0]
    assert all(set(t) <= set(hand) for t in mountain.titles)
    spellable = {t for t in lexicon["山景"] if set(t) <= set(hand)}
    assert set(mountain.titles[:len(spellable)]) <= spellable
    with_title = hand + list("山中雜詠")
    assert "山中雜詠" in suggest_themes(with_title)[0].titles


def test_deterministic_and_independent_of_order():
    hand = random_hand(MOUNTAIN + WATER_VILLAGE, 8)
    first = suggest_themes(hand)
    assert suggest_themes(hand) == first
    shuffled = list(hand)
    random.Random(0).shuffle(shuffled)
    again = suggest_themes(shuffled)
    assert {s.name: {c.char for c in s.chars} for s in again} == {s.name: {c.char for c in s.chars} for s in first}


def test_simplified_hand_gets_the_same_themes():
    hand = "".join(random_hand(MOUNTAIN + WATER_VILLAGE, 3))
    traditional = suggest_themes(hand)
    simplified_text = to_simplified(hand)
    simplified = suggest_themes(simplified_text)
    assert names(simplified) == names(traditional)
    assert {c.char for s in simplified for c in s.chars} == set(simplified_text)
    assert "渔" in {c.char for c in simplified[names(simplified).index("水村釣")].chars}


def test_characters_without_a_vector_go_to_other():
    result = suggest_themes("山峰洞石澗壑巖嶺泉松𠀀㐀")
    other = next(s for s in result if s.name == OTHER)
    assert {"𠀀", "㐀"} <= {c.char for c in other.chars}
    assert result[0].name == "山景"


def test_function_words_fit_no_theme():
    result = suggest_themes("之乎者也而其於以")
    assert names(result) == [OTHER]


@pytest.mark.parametrize("bad", ["", "   ", "abc, 123!", "山" * (MAX_CHARS + 1), 42, ["山", 3], None])
def test_bad_input_is_refused_in_chinese(bad):
    with pytest.raises(MalformedPoemError) as info:
        suggest_themes(bad)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in info.value.message)


def test_hand_chars_skips_separators_and_repeats():
    assert hand_chars(["山", "峰", "山"]) == ("山", "峰")
    assert hand_chars("江、湖 ,浦\n漁") == ("江", "湖", "浦", "漁")
    with pytest.raises(PoetryError):
        suggest_themes("山峰", max_themes=0)


def test_json_shape():
    doc = themes_to_json(suggest_themes(random_hand(MOUNTAIN, 2)))
    theme = doc["themes"][0]
    assert set(theme) >= {"name", "chars", "score", "rhymes", "titles"}
    assert set(theme["chars"][0]) == {"char", "tone"}
    json.dumps(doc, ensure_ascii=False)


# --- CLI ------------------------------------------------------------------------------------------


def test_cli_json(tmp_path, capsys):
    path = tmp_path / "hand.txt"
    path.write_text(" ".join(random_hand(WATER_VILLAGE, 2)), encoding="utf-8")
    assert main(["themes", "--format", "json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["themes"][0]["name"] == "水村釣"
    assert all(set(t) >= {"name", "chars", "score", "rhymes", "titles"} for t in doc["themes"])


def test_cli_text_from_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(random_hand(MOUNTAIN, 3))))
    assert main(["themes", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("山景")
    assert "題：「" in out


def test_cli_bad_input_exits_2(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("hello"))
    assert main(["themes"]) == 2
    assert "沒有漢字" in capsys.readouterr().err


def test_cli_as_a_process():
    proc = subprocess.run(
        [sys.executable, "-m", "poetry", "themes", "--format", "json"],
        input="山峰洞石澗壑巖嶺泉瀑松猿", capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["themes"][0]["name"] == "山景"


# --- API ------------------------------------------------------------------------------------------


def test_api_themes(client):
    response = client.post("/api/themes", json={"chars": "".join(random_hand(MOUNTAIN, 1))})
    assert response.status_code == 200
    doc = response.get_json()
    assert doc["themes"][0]["name"] == "山景"
    response = client.post("/api/themes", json={"chars": list("江萍湖草煙浦漁磯釣舟")})
    assert response.get_json()["themes"][0]["name"] == "水村釣"


def test_api_simplified_reader_gets_simplified_names(client):
    client.set_cookie("script", "hans")
    doc = client.post("/api/themes", json={"chars": "江萍湖草煙浦漁磯釣舟"}).get_json()
    assert doc["themes"][0]["name"] == "水村钓"
    assert "漁" in {c["char"] for c in doc["themes"][0]["chars"]}  # characters stay as given


@pytest.mark.parametrize(
    "body",
    [{}, {"text": "山峰"}, {"chars": 5}, {"chars": None}, {"chars": ["山", 1]}, {"chars": {"a": "山"}},
     {"chars": "abc"}, {"chars": ""}, {"chars": "山" * (MAX_CHARS + 1)}, {"chars": "、" * 10000}, [1, 2]],
)
def test_api_bad_input_is_400(client, body):
    response = client.post("/api/themes", json=body)
    assert response.status_code == 400
    assert response.get_json()["detail"]


def test_api_not_json_is_400(client):
    response = client.post("/api/themes", data="山峰", content_type="text/plain")
    assert response.status_code == 400
    response = client.post("/api/themes", data="{bad json", content_type="application/json")
    assert response.status_code == 400


def test_themes_page(client):
    response = client.get("/themes")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'id="themes-panel"' in html and "themes.js" in html


def test_words_are_spelled_from_the_hand_and_the_theme():
    hand = random_hand(WATER_VILLAGE + "舟釣", 2)
    result = suggest_themes(hand)
    fishing = result[names(result).index("水村釣")]
    own = {c.char for c in fishing.chars}
    assert "漁舟" in fishing.words
    for word in fishing.words:
        assert len(word) == 2 and word[0] != word[1]
        assert set(word) <= set(hand) and set(word) & own
    simplified = suggest_themes(to_simplified("".join(hand)))
    assert "渔舟" in simplified[names(simplified).index("水村釣")].words
    assert next(s for s in result if s.name == OTHER).words == ()


def test_import_poetry_loads_neither_sklearn_nor_jieba():
    code = "import sys, poetry; print(sorted(m for m in ('sklearn', 'jieba', 'numpy') if m in sys.modules))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "sklearn" not in proc.stdout and "jieba" not in proc.stdout


def test_chance_support_matches_random_deals():
    """The minimum-support rule's null model (a hypergeometric draw from the tile set) agrees with dealing."""
    from poetry.themes import _lexicon, _null_support, _theme_closeness, _theme_support

    vectors, lex = char_vectors(), _lexicon(None)
    tiles = sorted({t.char for t in load_tile_set()} & set(vectors.index))
    raw = _theme_closeness([vectors.index[c] for c in tiles], vectors, lex)
    affinity = raw - raw.mean(axis=1, keepdims=True)
    rng = random.Random(3)
    dealt = np.array([_theme_support(affinity[rng.sample(range(len(tiles)), 150)]) for _ in range(400)])
    mean, spread = _null_support(None, 150)
    assert np.allclose(dealt.mean(axis=0), mean, atol=0.5)
    assert np.allclose(dealt.std(axis=0), spread, atol=0.5)
    whole, _ = _null_support(None, len(tiles))
    assert whole.sum() == pytest.approx(dealt.sum(axis=1).mean() * len(tiles) / 150, rel=0.05)


def test_feet_are_only_tiles_whose_tone_is_ping():
    """issue 9: a rare 平 reading of a 仄 tile (不 尤, 夢 東, 信 眞, 徑 青, 折 齊) is never offered as a foot."""
    rare = set("不夢信徑折")
    for s in suggest_themes("不夢信徑折流樓舟秋愁遊頭東風中空紅" + "山峰洞石澗壑巖嶺泉瀑雲松猿"):
        for r in s.rhymes:
            assert not rare & set(r.feet), (r.group, r.feet)

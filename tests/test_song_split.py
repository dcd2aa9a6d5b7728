"""全宋詩 split by author (scripts/tang_corpus.song_split): training authors, held-out authors, no shared line.

In-memory toys written to a temporary folder laid out like the chinese-poetry package; no corpus needed.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import tang_corpus  # noqa: E402
from tang_corpus import SONG_HELD_SHARE, SongSplit, author_bucket, known_test_poems, song_split  # noqa: E402

from poetry.text import split_lines  # noqa: E402


def clean(paragraphs: list[str]) -> list[str]:
    return split_lines("\n".join(paragraphs))


def names_in(bucket_wanted: bool, n: int) -> list[str]:
    """``n`` made-up author names whose hash bucket is (True) or is not (False) the held-out one."""
    names = (f"作者{i}" for i in range(10_000))
    return [x for x in names if (author_bucket(x) == 0) == bucket_wanted][:n]


def test_unknown_named_and_a_third_of_the_rest_are_held_out():
    split = SongSplit(frozenset({"黃庭堅"}), (), 0)
    assert split.held_out("無名氏") and split.held_out("") and split.held_out("不詳")
    assert split.held_out("黄庭堅")  # named, in another written form of the same name
    names = [f"作者{i}" for i in range(3000)]
    share = sum(split.held_out(x) for x in names) / len(names)
    assert abs(share - 1 / SONG_HELD_SHARE) < 0.03
    assert [author_bucket(x) for x in names[:50]] == [author_bucket(x) for x in names[:50]]  # no per-run salt


def test_the_test_sets_name_their_poets():
    authors, texts = known_test_poems(clean)
    assert {"蘇軾", "杜甫", "杜牧", "陸游"} <= authors  # 杜牧 from a note "杜牧 (attrib.; …)", 杜甫 an author field
    assert not any("(" in a or " " in a for a in authors)
    assert ["橫看成嶺側成峰", "遠近高低各不同", "不識廬山真面目", "只緣身在此山中"] in texts


def test_song_split_trains_only_on_training_authors_and_drops_shared_lines(tmp_path, monkeypatch):
    trained, held = names_in(False, 2), names_in(True, 1)[0]
    def rec(key: str, author: str, title: str, *paragraphs: str) -> dict:
        return {"id": key, "author": author, "title": title, "paragraphs": list(paragraphs)}

    poems = [
        rec("a", trained[0], "春日", "春風吹綠野，細雨潤青山。", "燕子歸來早，桃花笑滿灣。"),
        rec("b", trained[0], "秋日", "秋水寒煙碧，孤舟夜泊遲。", "鐘聲來遠寺，明月照空枝。"),
        rec("c", held, "夜泊", "江楓漁火對，孤舟夜泊遲。"),
        rec("d", trained[1], "登樓", "白日依山盡，黃河入海流。"),  # 唐詩三百首's lines
        rec("e", trained[1], "題壁", "橫看成嶺側成峰，遠近高低總不同。"),  # a test poem's line
        rec("f", "無名氏", "雜詩", "山中無甲子，寒盡不知年。"),
        rec("g", "蘇軾", "雜詠", "水光山色共清秋，一葉扁舟自在遊。"),  # named in tests/data
    ]
    song = tmp_path / "dist" / "quantangshi"
    song.mkdir(parents=True)
    (song / "poet.song.0.json").write_text(json.dumps(poems, ensure_ascii=False), encoding="utf-8")
    (song / "authors.song.json").write_text("[]", encoding="utf-8")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    anthology = {"content": [{"type": "五言絕句", "content": [
        {"chapter": "登鸛雀樓", "subchapter": None, "author": "王之渙",
         "paragraphs": ["白日依山盡，黃河入海流。", "欲窮千里目，更上一層樓。"]}]}]}
    (corpus / "tangshisanbaishou.json").write_text(json.dumps(anthology, ensure_ascii=False), encoding="utf-8")
    split = song_split(clean, song, corpus)
    assert [p["title"] for p in split.train] == ["春日"]  # 秋日 shares 孤舟夜泊遲 with a held-out poem
    assert split.excluded == 3 and "蘇軾" in split.named
    monkeypatch.setattr(tang_corpus, "SHAPES", {(2, 5): "五言二句", (2, 7): "七言二句"})
    drawn = tang_corpus.song_sample(10, clean, directory=song, corpus=corpus)
    assert sorted(p["title"] for p in drawn) == ["夜泊", "雜詠", "雜詩"]  # held-out authors only

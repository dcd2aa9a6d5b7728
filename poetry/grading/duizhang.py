"""對仗 beyond the aligned vectors: the 對類 table, repetition figures, and which words face which.

The 對類 table (data/duilei.tsv, scripts/build_duilei.py) gives each listed character its classes (天文 地理
時令 花木 鳥獸 數目 顏色 方位 … and the word kinds 形容 動作 虛字) and the classes it fits by another sense
or sound (借對: 尋常 as measures face 七十). A repetition figure is the pattern of characters a line repeats:
疊字 (蕭蕭 … 滾滾) and 當句對 (巴峽穿巫峽 … 襄陽向洛陽) are parallel when both lines repeat at the same
places, and a repetition in one line only (獨在異鄉爲異客) is not answered.
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType
from typing import Mapping

from poetry.data import data_path

#: Classes of things (實字: a noun faces a noun) and of predicates (形容 and 動作 face each other).
NOUNS = frozenset({"天文", "地理", "時令", "花木", "鳥獸", "人倫", "身體", "器物", "宮室", "方位"})
PREDICATES = frozenset({"形容", "動作"})


@cache
def duilei() -> Mapping[str, frozenset[str]]:
    """Each listed character's 對類 classes, its borrowed senses (借對) included.

    >>> sorted(duilei()["尋"]), "數目" in duilei()["七"]
    (['動作', '數目'], True)
    """
    out = {}
    rows = data_path("duilei.tsv").read_text(encoding="utf-8").splitlines()[1:]
    for row in rows:
        ch, own, borrowed = (row.split("\t") + ["", ""])[:3]
        out[ch] = frozenset(x for x in (own + "," + borrowed).split(",") if x)
    return MappingProxyType(out)


def class_agreement(a: str, b: str) -> tuple[float, float]:
    """(share of aligned places where both characters are listed and share a class, share where both are
    listed and share none).

    >>> class_agreement("兩個黃鸝鳴翠柳", "一行白鷺上青天")[0] > 0.5
    True
    """
    table = duilei()
    n = min(len(a), len(b))
    match = clash = 0
    for x, y in zip(a[:n], b[:n]):
        cx, cy = table.get(x), table.get(y)
        if cx and cy:
            if cx & cy:
                match += 1
            else:
                clash += 1
    return match / max(n, 1), clash / max(n, 1)


def figure(line: str) -> tuple[int, ...]:
    """The line's repetition pattern: each character's first place in the line.

    >>> figure("無邊落木蕭蕭下")
    (0, 1, 2, 3, 4, 4, 6)
    """
    return tuple(line.index(ch) for ch in line)


def figure_agreement(a: str, b: str) -> float:
    """1 when both lines repeat characters at the same places (疊字 or 當句對 answered), −1 when one line
    repeats where the other does not, 0 when neither repeats.

    >>> figure_agreement("無邊落木蕭蕭下", "不盡長江滾滾來"), figure_agreement("獨在異鄉爲異客", "每逢佳節倍思親")
    (1.0, -1.0)
    """
    fa, fb = figure(a), figure(b)
    plain = tuple(range(len(a)))
    if fa == plain and fb == plain:
        return 0.0
    return 1.0 if len(a) == len(b) and fa == fb else -1.0


def words(n: int) -> list[tuple[int, int]]:
    """The two-character words a line of n characters may pause into (2|2|3 or 2|3, the three either way).

    >>> words(5), words(7)
    ([(0, 2), (2, 4), (3, 5)], [(0, 2), (2, 4), (4, 6), (5, 7)])
    """
    return [(s, s + 2) for s in range(0, n - 2, 2)] + [(n - 2, n)]


def facing_words(a: str, b: str, fit: list[float], k: int = 2) -> list[tuple[str, str]]:
    """The words of the two lines that face each other best (疊字 answered, then classes shared, then the
    aligned characters' fit), at most k, in line order, no two overlapping.

    >>> facing_words("無邊落木蕭蕭下", "不盡長江滾滾來", [0.0] * 7)
    [('無邊', '不盡'), ('蕭蕭', '滾滾')]
    """
    table = duilei()
    n = min(len(a), len(b))

    def kin(x: str, y: str) -> float:
        cx, cy = table.get(x, frozenset()), table.get(y, frozenset())
        if cx & cy:
            return 1.0
        return 0.5 if any(cx & g and cy & g for g in (NOUNS, PREDICATES)) else 0.0

    def strength(s: int, e: int) -> float:
        doubled = a[s] == a[s + 1] and b[s] == b[s + 1]
        usual = 0.3 if s % 2 == 0 else 0.0  # the usual pause: 2|2|1 and 2|2|2|1
        return 2.0 * doubled + sum(kin(x, y) for x, y in zip(a[s:e], b[s:e])) + 0.5 * sum(fit[s:e]) + usual

    ranked = sorted(words(n), key=lambda w: -strength(*w))
    chosen: list[tuple[int, int]] = []
    for s, e in ranked:
        if strength(s, e) >= 1.2 and all(e <= s2 or s >= e2 for s2, e2 in chosen) and len(chosen) < k:
            chosen.append((s, e))
    return [(a[s:e], b[s:e]) for s, e in sorted(chosen)]


def unlike_places(a: str, b: str, fit: list[float]) -> list[tuple[str, str]]:
    """Aligned characters of unlike kinds: listed in classes that share nothing, or fitting least.

    >>> unlike_places("床前明月光", "疑是地上霜", [0.5] * 5)
    [('明', '地'), ('月', '上')]
    """
    table = duilei()
    out = []
    for k, (x, y) in enumerate(zip(a, b)):
        cx, cy = table.get(x), table.get(y)
        if (cx and cy and not cx & cy) or fit[k] < 0.05:
            out.append((x, y))
    return out

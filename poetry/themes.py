"""THE THEMES: cluster a hand's characters into themes (山景, 水村釣 …) a poem could take up.

Three read-only data files, loaded once on first use (never at import):

- ``data/vectors.npy`` + ``data/vectors_vocab.txt``: one L2-normalised float16 vector per character,
  learned from 全唐詩 by ``scripts/build_models.py`` (positive PMI of co-occurrence within a line and within
  a couplet, reduced with TruncatedSVD). Other features may reuse them through :func:`char_vectors` and
  :func:`vector_of`.
- ``data/vectors_words.tsv``: two-character words of Tang verse that jieba's dictionary knows (白雲 明月 …),
  offered per theme as words the hand can spell.
- ``data/themes.json``: the theme lexicon, written by hand (name, description, seed characters, title keys,
  titles).
- ``data/vectors_themes.npz``: each character's association with each lexicon theme, learned by
  ``scripts/build_models.py`` from the poems whose titles carry the theme's title keys (送 別 餞 → 送別): a
  smoothed PMI, centred over the themes. It is added (weight _ASSOC_WEIGHT) to the vectors' closeness to each
  theme's seeds; a theme the file does not know (lexicon edited without a rebuild) simply gets none.

:func:`suggest_themes` groups the hand with scikit-learn's agglomerative clustering (cosine distance, average
linkage); a distance threshold, not a fixed count, decides how many groups there are. Each group is named by
the nearest lexicon theme, or by its most central characters (「松・泉・雲」) when no theme is near; a broad
group whose members lean to different themes splits, and groups under the same name merge. A named group
stays only when the hand holds its theme beyond chance (minimum support): more of its characters than a
random deal of the same size from the tile set (data/tiles.json) would give, by a z-score over the
hypergeometric draw; a random 150-tile hand always holds a few characters of every theme, and those
groups would otherwise take characters from the themes the hand really carries. A few rounds of
k-means-like reassignment then settle the members. Characters near no group, and merely generic ones
(之 一 去, nearer the centre of the most frequent characters than any theme), go to 其他.
jieba and scikit-learn are imported here only.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

from poetry.data import data_path, load_arrays, load_json
from poetry.errors import MalformedPoemError
from poetry.text import is_han

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from poetry.prosody import RhymeBook

VECTORS_FILE = "vectors.npy"
VOCAB_FILE = "vectors_vocab.txt"
WORDS_FILE = "vectors_words.tsv"
THEMES_FILE = "themes.json"
ASSOC_FILE = "vectors_themes.npz"

#: At most this many Chinese characters in one request (a hand is 150; a whole stack is 600).
MAX_CHARS = 600
#: The name of the group of characters that fit no theme.
OTHER = "其他"
#: A rhyme group can carry a poem when the hand holds at least this many 平 feet in it (a 律詩 needs 4–5).
MIN_FEET = 3

# Tuned on the "tune" half of tests/data/themes_gold.json (scripts/eval_themes.py);
# both halves are development data now.
_LINK_DISTANCE = 0.80  # cosine distance at which agglomerative clustering stops merging
_NAME_SIMILARITY = 0.10  # a group's centroid at least this close to a theme's takes its name
_MEMBER_SIMILARITY = 0.08  # a character joins a named group when at least this close to the theme
_GENERIC_TOP = 200  # the most frequent characters define the "generic" pseudo-theme (→ 其他)
_REFINE_ROUNDS = 2  # k-means-like reassignment rounds after the clustering
_LEXICON_WEIGHT = 0.5  # share of the lexicon theme in a named group's prototype
_STRENGTH_SCALE = 2.0  # Σ weight² of a clear theme of ~8 characters, mapped to a score near 0.6
# a named group's theme must have support this many SDs above a random hand's (0.5 before the title association)
_HELD_Z = 0.25
_MIN_GROUP = 3  # smaller groups dissolve into 其他 (or join a named group)
# Chosen on both halves of the dev gold (0.06 / 0.10 / 0.15 / 0.20: each half on its own picks 0.15).
_ASSOC_WEIGHT = 0.15  # weight of the title-learned theme association beside the vectors' closeness


# --- the vectors -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CharVectors:
    """The character vectors: ``matrix[index[c]]`` is the L2-normalised float32 vector of ``c``."""

    vocab: tuple[str, ...]  #: characters, most frequent in 全唐詩 first
    index: Mapping[str, int]  #: character → row
    matrix: np.ndarray  #: (len(vocab), dim) float32, read-only

    def __contains__(self, char: object) -> bool:
        return char in self.index


@cache
def _load_vectors(directory: str | None) -> CharVectors:
    import numpy as np  # lazily: `import poetry` stays cheap

    with open(data_path(VOCAB_FILE, directory), encoding="utf-8") as fh:
        vocab = tuple(line.rstrip("\n") for line in fh if line.strip())
    matrix = load_arrays(VECTORS_FILE, directory)["array"].astype(np.float32)
    if matrix.shape[0] != len(vocab):
        raise ValueError(f"{VECTORS_FILE} has {matrix.shape[0]} rows for {len(vocab)} characters")
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-12  # float16 rounding
    matrix.setflags(write=False)
    return CharVectors(vocab, MappingProxyType({c: i for i, c in enumerate(vocab)}), matrix)


def char_vectors(data_dir: str | os.PathLike | None = None) -> CharVectors:
    """All character vectors (loaded once, read-only); cosine similarity is a plain dot product.

    >>> vectors = char_vectors()
    >>> float(vectors.matrix[vectors.index["漁"]] @ vectors.matrix[vectors.index["釣"]]) > 0.5
    True
    """
    return _load_vectors(str(data_dir) if data_dir else None)


def vector_of(char: str, data_dir: str | os.PathLike | None = None) -> np.ndarray | None:
    """The vector of one (traditional) character, or None when it is too rare to have one.

    >>> vector_of("山").shape
    (160,)
    """
    vectors = char_vectors(data_dir)
    row = vectors.index.get(char)
    return None if row is None else vectors.matrix[row]


# --- the lexicon -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Theme:
    """One theme of data/themes.json: 山景 (seeds 山峰嶺…, titles 山居即事 …)."""

    name: str
    description: str
    seeds: tuple[str, ...]
    titles: tuple[str, ...]


@dataclass(frozen=True)
class _Lexicon:
    themes: tuple[Theme, ...]
    centroids: np.ndarray  # (len(themes), dim): normalised mean of each theme's seed vectors
    seed_sets: tuple[frozenset[str], ...]
    assoc: np.ndarray  # (len(vocab), len(themes)): weighted title association of each character (0 if unknown)


def load_themes(data_dir: str | os.PathLike | None = None) -> tuple[Theme, ...]:
    """The theme lexicon, in file order.

    >>> load_themes()[0].name
    '山景'
    """
    doc = load_json(THEMES_FILE, str(data_dir) if data_dir else None)
    return tuple(
        Theme(t["name"], t["description"], tuple(dict.fromkeys(t["seeds"])), tuple(t["titles"]))
        for t in doc["themes"]
    )


@cache
def _lexicon(directory: str | None) -> _Lexicon:
    import numpy as np

    vectors = _load_vectors(directory)
    themes = load_themes(directory)
    rows = []
    for theme in themes:
        ids = [vectors.index[c] for c in theme.seeds if c in vectors.index]
        centroid = vectors.matrix[ids].mean(axis=0)
        rows.append(centroid / (np.linalg.norm(centroid) + 1e-12))
    # a pseudo-theme last: the centre of the most frequent characters (之 不 人 一 …), which fit any poem
    generic = vectors.matrix[:_GENERIC_TOP].mean(axis=0)
    rows.append(generic / (np.linalg.norm(generic) + 1e-12))
    centroids = np.vstack(rows).astype(np.float32)
    centroids.setflags(write=False)
    assoc = np.zeros((len(vectors.vocab), len(themes)), dtype=np.float32)
    if data_path(ASSOC_FILE, directory).exists():
        arrays = load_arrays(ASSOC_FILE, directory)
        if arrays["assoc"].shape[0] == len(vectors.vocab):
            column = {str(name): k for k, name in enumerate(arrays["themes"])}
            for t, theme in enumerate(themes):
                if theme.name in column:
                    assoc[:, t] = arrays["assoc"][:, column[theme.name]] * _ASSOC_WEIGHT
    assoc.setflags(write=False)
    return _Lexicon(themes, centroids, tuple(frozenset(t.seeds) for t in themes), assoc)


def _theme_closeness(rows: Sequence[int], vectors: CharVectors, lex: _Lexicon) -> np.ndarray:
    """(len(rows), themes + generic): each character's closeness to each theme (cosine to the seeds' centroid
    plus its title association) and, last column, to the generic centre of the most frequent characters."""
    raw = vectors.matrix[list(rows)] @ lex.centroids.T
    raw[:, :-1] += lex.assoc[list(rows)]
    return raw


# --- results ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThemeChar:
    """A character of a theme with its tone, for 朱 (平) / 墨 (仄) display."""

    char: str  #: as the hand has it
    tone: str  #: "平" "仄" "可平可仄" or "?"


@dataclass(frozen=True)
class RhymeOption:
    """A 平 rhyme group the hand can rhyme a poem on: 下平一先 with feet 煙 天 邊 前 …"""

    group: str  #: 平水韻 group, e.g. "下平一先"
    feet: tuple[str, ...]  #: the hand's 平 characters in it, the theme's own first
    theme_feet: int  #: how many of ``feet`` belong to the theme


@dataclass(frozen=True)
class ThemeSuggestion:
    """One theme a hand can carry: its characters, how strong it is, its rhymes and titles."""

    name: str  #: a lexicon theme (山景), central characters (松・泉・雲) or 其他
    chars: tuple[ThemeChar, ...]  #: most central first
    score: float  #: strength in [0, 1): 1 − exp(−Σ weight² / _STRENGTH_SCALE); 0 for 其他
    rhymes: tuple[RhymeOption, ...]  #: groups with ≥ MIN_FEET 平 feet in the hand, best for the theme first
    titles: tuple[str, ...]  #: two or three title suggestions (none for 其他)
    description: str = ""  #: the lexicon's one line, when the name is a lexicon theme
    words: tuple[str, ...] = ()  #: two-character words of Tang verse the hand can spell, of this theme


# --- input -----------------------------------------------------------------------------------------


def hand_chars(chars: str | Iterable[str]) -> tuple[str, ...]:
    """The distinct Chinese characters of a hand, in order; anything else (spaces, 、, latin) is skipped.

    >>> hand_chars("山、峰 洞石山")
    ('山', '峰', '洞', '石')

    Raises MalformedPoemError when the input is not text, has no Chinese or more than MAX_CHARS.
    """
    if isinstance(chars, str):
        text = chars
    elif isinstance(chars, (list, tuple)) and all(isinstance(c, str) for c in chars):
        text = "".join(chars)
    else:
        raise MalformedPoemError("請以文字或字的清單給出手牌。")
    han = [c for c in text if is_han(c)]
    if not han:
        raise MalformedPoemError("手牌裡沒有漢字。")
    if len(han) > MAX_CHARS:
        raise MalformedPoemError(f"手牌最多 {MAX_CHARS} 字，這裡有 {len(han)} 字。")
    return tuple(dict.fromkeys(han))


def _traditional_forms(chars: Sequence[str], vectors: CharVectors) -> tuple[str, ...]:
    """The traditional form to look up for each char: a hand written in simplified script is converted
    as a whole (OpenCC picks 雲 for 云 from context); a char still without a vector tries its own s2t form."""
    from poetry.text import detect_script, to_traditional

    text = "".join(chars)
    converted = list(chars)
    if detect_script(text) == "hans":
        whole = to_traditional(text)
        converted = list(whole) if len(whole) == len(text) else [to_traditional(c) for c in chars]
    out = []
    for orig, trad in zip(chars, converted):
        if trad not in vectors.index:
            alt = to_traditional(orig)
            trad = alt if alt in vectors.index else trad
        out.append(trad)
    return tuple(out)


# --- clustering ------------------------------------------------------------------------------------


def _agglomerative() -> type:
    """scikit-learn's AgglomerativeClustering (the import costs about a second: done once, at warm-up)."""
    from sklearn.cluster import AgglomerativeClustering

    return AgglomerativeClustering


def _cluster(matrix: np.ndarray) -> np.ndarray:
    """Agglomerative clustering with a distance threshold: the data decide how many groups."""
    import numpy as np

    if len(matrix) < 2:
        return np.zeros(len(matrix), dtype=int)
    AgglomerativeClustering = _agglomerative()

    model = AgglomerativeClustering(
        n_clusters=None, metric="cosine", linkage="average", distance_threshold=_LINK_DISTANCE
    )
    return model.fit_predict(matrix)


def _central_name(members: Sequence[int], sims: Mapping[int, float], forms: Sequence[str]) -> str:
    """「松・泉・雲」: the three characters nearest the group's centre."""
    order = sorted(members, key=lambda i: (-sims[i], forms[i]))
    return "・".join(forms[i] for i in order[:3])


def _theme_support(affinity: np.ndarray) -> np.ndarray:
    """A theme's support in a set of characters: how many of them are nearest that theme and specific (nearer
    some theme than the generic centre). Counting worked better on the tune half than Σ affinity or Σ affinity²."""
    import numpy as np

    own = affinity[:, :-1].argmax(axis=1)
    specific = affinity[:, :-1].max(axis=1) > affinity[:, -1]
    return np.bincount(own[specific], minlength=affinity.shape[1] - 1).astype(np.float64)


@cache
def _tile_theme_counts(directory: str | None) -> tuple[np.ndarray, int]:
    """How many tiles of the standard set are specific characters nearest each theme, and how many tiles
    have a vector: the urn a random hand is drawn from."""
    from poetry.tiles import TILES_FILE, load_tile_set

    vectors = _load_vectors(directory)
    lex = _lexicon(directory)
    path = data_path(TILES_FILE, directory)
    tiles = sorted({t.char for t in load_tile_set(path if path.exists() else None)} & set(vectors.index))
    raw = _theme_closeness([vectors.index[c] for c in tiles], vectors, lex)
    counts = _theme_support(raw - raw.mean(axis=1, keepdims=True))
    counts.setflags(write=False)
    return counts, len(tiles)


def _null_support(directory: str | None, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean and spread of each theme's support in a random hand of ``size`` tiles: a hypergeometric draw
    from the tile set (the spread floored at one character, so a tiny or a whole-stack hand stays sane)."""
    import numpy as np

    counts, total = _tile_theme_counts(directory)
    size = min(size, total)
    share = counts / total
    mean = size * share
    var = size * share * (1 - share) * (total - size) / max(total - 1, 1)
    return mean, np.maximum(np.sqrt(var), 1.0)


@dataclass
class _HandSpace:
    """The characters of a hand that have vectors, and where they stand against the lexicon's themes."""

    known: list[int]  #: hand positions with a vector, in hand order; a row r below is known[r]
    matrix: np.ndarray  #: their unit vectors
    raw: np.ndarray  #: closeness to each theme, and last to the generic centre
    affinity: np.ndarray  #: raw less its row mean: a generic character (之 一 去) is about as close to every theme
    title_assoc: np.ndarray  #: association with each theme's title keys
    baseline: np.ndarray  #: mean closeness to the themes, taken off every similarity when reassigning


def _hand_space(forms: Sequence[str], vectors: CharVectors, lex: _Lexicon) -> _HandSpace | None:
    known = [i for i, c in enumerate(forms) if c in vectors.index]
    if not known:
        return None
    vocab_rows = [vectors.index[forms[i]] for i in known]
    raw = _theme_closeness(vocab_rows, vectors, lex)  # (n, themes + generic)
    return _HandSpace(known, vectors.matrix[vocab_rows], raw, raw - raw.mean(axis=1, keepdims=True),
                      lex.assoc[vocab_rows], raw[:, :-1].mean(axis=1))


def _first_groups(space: _HandSpace, lex: _Lexicon) -> dict[Any, dict[str, Any]]:
    """Groups from the clustering, each named by its nearest lexicon theme or kept as a central group."""
    import numpy as np

    labels = _cluster(space.matrix)
    groups: dict[Any, dict[str, Any]] = {}
    for label in sorted(set(labels.tolist())):
        rows = [r for r in range(len(space.known)) if labels[r] == label]
        if len(rows) < 2:
            continue
        centroid = space.matrix[rows].mean(axis=0)
        centroid /= np.linalg.norm(centroid) + 1e-12
        theme_sims = lex.centroids @ centroid
        theme_sims = theme_sims - theme_sims.mean()
        best = int(np.argmax(theme_sims))
        if best == len(lex.themes):  # nearest the generic centre: fits any poem, so 其他
            continue
        if theme_sims[best] >= _NAME_SIMILARITY:
            # a broad cluster (a whole landscape) may hold several themes: members whose own nearest
            # theme is shared by at least _MIN_GROUP of them split off under that theme
            own = space.affinity[rows, :-1].argmax(axis=1)
            counts = np.bincount(own, minlength=len(lex.themes))
            for r, t in zip(rows, own.tolist()):
                key: Any = t if counts[t] >= _MIN_GROUP else best
                groups.setdefault(key, {"theme": key, "rows": []})["rows"].append(r)
        elif len(rows) >= _MIN_GROUP:
            groups[("central", label)] = {"theme": None, "rows": list(rows)}
    return groups


def _seed_owners(found: list[dict[str, Any]], space: _HandSpace, forms: Sequence[str],
                 lex: _Lexicon) -> dict[int, int]:
    """Row → id() of the first group whose theme has that character among its seeds."""
    owners: dict[int, int] = {}
    for group in found:
        if group["theme"] is not None:
            for r in range(len(space.known)):
                if forms[space.known[r]] in lex.seed_sets[group["theme"]]:
                    owners.setdefault(r, id(group))
    return owners


def _reassign(found: list[dict[str, Any]], space: _HandSpace, lex: _Lexicon, seed_of: Mapping[int, int],
              specific: np.ndarray) -> None:
    """One k-means-like round: every character joins its nearest prototype (a group's lexicon theme
    blended with the centre of its members) if that is close enough and the character is not merely
    generic; a seed character of a group's theme always joins that group."""
    import numpy as np

    protos = []
    for group in found:
        rows = group["rows"]
        centre = space.matrix[rows].mean(axis=0) if rows else np.zeros(space.matrix.shape[1])
        centre = centre / (np.linalg.norm(centre) + 1e-12)
        if group["theme"] is not None:
            centre = _LEXICON_WEIGHT * lex.centroids[group["theme"]] + (1 - _LEXICON_WEIGHT) * centre
        protos.append(centre / (np.linalg.norm(centre) + 1e-12))
    sims = space.matrix @ np.vstack(protos).T - space.baseline[:, None]
    for k, group in enumerate(found):
        if group["theme"] is not None:
            sims[:, k] += space.title_assoc[:, group["theme"]]
    best = sims.argmax(axis=1)
    slot = {id(g): k for k, g in enumerate(found)}
    for group in found:
        group["rows"] = []
    for r in range(len(space.known)):
        if r in seed_of and seed_of[r] in slot:
            found[slot[seed_of[r]]]["rows"].append(r)
        elif specific[r] and sims[r, best[r]] >= _MEMBER_SIMILARITY:
            found[best[r]]["rows"].append(r)


def _member_weights(group: dict[str, Any], space: _HandSpace) -> np.ndarray:
    """How strongly each member (rows in order) belongs: its specific closeness to the theme, or to the
    centre of a central group."""
    import numpy as np

    rows = sorted(group["rows"])
    if group["theme"] is not None:
        weight = space.affinity[rows, group["theme"]]
    else:
        centre = space.matrix[rows].mean(axis=0)
        weight = space.matrix[rows] @ (centre / (np.linalg.norm(centre) + 1e-12)) - space.baseline[rows]
    return np.clip(weight, 0.0, None)


def _group_hand(forms: Sequence[str], vectors: CharVectors, lex: _Lexicon,
                directory: str | None = None) -> list[dict[str, Any]]:
    """Groups of hand positions, unordered: [{"theme": lexicon index or None, "members": [position …],
    "sims": {position: weight}, "strength": Σ weight²}]; positions not in any group are 其他.

    Minimum support: a named group stays only when the hand holds more characters of its theme than a
    random deal of the tile set would (z-score against _null_support). The groups left are refined like
    k-means (_reassign); groups left too small dissolve and their characters try the others once more.
    """
    space = _hand_space(forms, vectors, lex)
    if space is None:
        return []
    groups = _first_groups(space, lex)
    support = _theme_support(space.affinity)
    mean, std = _null_support(directory, len(space.known))
    held = (support - mean) / std >= _HELD_Z
    found = [g for g in groups.values() if g["theme"] is None or held[g["theme"]]]
    if not found:
        return []
    specific = space.affinity[:, :-1].max(axis=1) > space.affinity[:, -1]
    seed_of = _seed_owners(found, space, forms, lex)
    for _ in range(_REFINE_ROUNDS):
        _reassign(found, space, lex, seed_of, specific)
    found = [g for g in found if len(g["rows"]) >= _MIN_GROUP]
    if found:
        _reassign(found, space, lex, seed_of, specific)

    out = []
    for group in found:
        rows = sorted(group["rows"])
        if len(rows) < _MIN_GROUP:
            continue
        weight = _member_weights(group, space)
        out.append({"theme": group["theme"], "members": [space.known[r] for r in rows],
                    "sims": {space.known[r]: float(w) for r, w in zip(rows, weight)},
                    "strength": float((weight**2).sum())})
    return out


# --- words ----------------------------------------------------------------------------------------


@cache
def _load_words(directory: str | None) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """data/vectors_words.tsv as (words, counts), most used first: (("白雲", …), (1279, …)).

    Kept flat (one split of the file, ~5 ms): each hand picks out the few hundred words it can spell.
    """
    path = data_path(WORDS_FILE, directory)
    if not path.exists():
        return (), ()
    text = path.read_text(encoding="utf-8")
    fields = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    return tuple(f[0] for f in fields), tuple(int(f[1]) for f in fields)


def _hand_words(hand_forms: Mapping[str, str], words: tuple[tuple[str, ...], tuple[int, ...]]
                ) -> Mapping[str, tuple[tuple[str, int], ...]]:
    """The words both of whose characters the hand holds, indexed by character: 雲 → (("白雲", 1279), …)."""
    index: dict[str, list[tuple[str, int]]] = {}
    for word, count in zip(*words):
        if word[0] in hand_forms and word[1] in hand_forms:
            for char in dict.fromkeys(word):
                index.setdefault(char, []).append((word, count))
    return {c: tuple(rows) for c, rows in index.items()}


def _words(theme_forms: Sequence[str], hand_forms: Mapping[str, str],
           words: Mapping[str, tuple[tuple[str, int], ...]], limit: int = 8) -> tuple[str, ...]:
    """Words whose two characters are both in the hand and at least one in the theme, the theme's own
    first, then by use in Tang verse; spelled as the hand spells them."""
    own = set(theme_forms)
    found = {}
    for char in own:
        for word, count in words.get(char, ()):
            a, b = word[0], word[1]
            if a != b and a in hand_forms and b in hand_forms:  # one tile, one use
                found[word] = (-(a in own and b in own), -count, hand_forms[a] + hand_forms[b])
    return tuple(w for _, _, w in sorted(found.values())[:limit])


# --- rhymes and titles -----------------------------------------------------------------------------


def _ping_groups(char: str, book: RhymeBook) -> tuple[str, ...]:
    """The 平 rhyme groups a tile can be a foot in: only a tile whose tone on the tile is 平 (the standard
    set's, else the book's common tone), in its common 平 readings; a rare 平 reading of a 仄 tile (不 in
    尤, 夢 in 東) is no foot, as the round's rule (poetry.rules.ping_test) reads it.

    >>> from poetry.prosody import get_rhyme_book
    >>> _ping_groups("不", get_rhyme_book()), _ping_groups("流", get_rhyme_book())
    ((), ('下平十一尤',))
    """
    from poetry.prosody import Tone
    from poetry.tiles import load_tile_set

    tile = {t.char: t for t in load_tile_set()}.get(char)
    if (tile.tone if tile is not None else book.lookup(char).tone.value) != Tone.PING.value:
        return ()
    readings = [r for r in book.lookup(char).readings if r.tone is Tone.PING]
    common = [r for r in readings if r.common] or readings
    return tuple(dict.fromkeys(r.group for r in common))


def _rhymes(theme_chars: Sequence[str], hand: Sequence[str], feet_by_group: Mapping[str, list[str]]
            ) -> tuple[RhymeOption, ...]:
    own = set(theme_chars)
    rank = {c: i for i, c in enumerate(theme_chars)}
    options = []
    for group, feet in feet_by_group.items():
        if len(feet) < MIN_FEET:
            continue
        ordered = sorted(feet, key=lambda c: (c not in own, rank.get(c, 0), hand.index(c)))
        options.append(RhymeOption(group, tuple(ordered), sum(c in own for c in feet)))
    options.sort(key=lambda o: (-o.theme_feet, -len(o.feet), o.group))
    return tuple(options)


def _titles(theme: Theme | None, members: Sequence[str], hand: Sequence[str]) -> tuple[str, ...]:
    """Two or three titles made only of the hand's characters (a round's title must be of one's tiles):
    the lexicon's titles the hand can spell (简体 and variant glyphs by poetry.rules.tile_for), then pairs
    of the theme's own characters.

    >>> _titles(None, ["江", "舟", "月"], "江舟月")
    ('江舟', '江月', '舟月')
    """
    from poetry.rules import HandIndex, tile_for

    index = HandIndex.of(hand)
    spelled = [t for t in (theme.titles if theme else ()) if all(tile_for(c, index) for c in t)]
    pairs = [a + b for i, a in enumerate(members[:4]) for b in members[i + 1:4] if a != b]
    return tuple(dict.fromkeys(spelled + pairs))[:3] or tuple(members[:1])


# --- the entry point -------------------------------------------------------------------------------


def suggest_themes(
    chars: str | Iterable[str],
    rhyme_book: RhymeBook | None = None,
    max_themes: int = 6,
    data_dir: str | os.PathLike | None = None,
) -> tuple[ThemeSuggestion, ...]:
    """Group a hand into themes, strongest first, with their rhymes and titles; 其他 (if any) last.

    >>> [t.name for t in suggest_themes("山峰洞石澗壑巖嶺泉瀑雲松猿 江萍湖浦漁磯釣舟蓑鷗 之而")][:2]
    ['山景', '水村釣']

    ``chars`` is a string or a list of characters, traditional or simplified; characters the vectors do
    not know go to 其他. Raises MalformedPoemError for input with no Chinese, or too much of it.
    """
    from poetry.prosody import get_rhyme_book

    hand = hand_chars(chars)
    if max_themes < 1:
        raise MalformedPoemError("至少要列出一個題材。")
    book = rhyme_book or get_rhyme_book()
    vectors = _load_vectors(str(data_dir) if data_dir else None)
    lex = _lexicon(str(data_dir) if data_dir else None)
    forms = _traditional_forms(hand, vectors)

    feet_by_group: dict[str, list[str]] = {}
    for orig, form in zip(hand, forms):
        for group in _ping_groups(form, book):
            feet_by_group.setdefault(group, []).append(orig)

    def tone(i: int) -> str:
        return book.lookup(forms[i]).tone.value

    spelled = {form: orig for orig, form in zip(hand, forms)}
    hand_words = _hand_words(spelled, _load_words(str(data_dir) if data_dir else None))
    suggestions = []
    placed: set[int] = set()
    for group in _group_hand(forms, vectors, lex, str(data_dir) if data_dir else None):
        members = sorted(group["members"], key=lambda i: (-group["sims"][i], i))
        strength = group["strength"]
        theme = lex.themes[group["theme"]] if group["theme"] is not None else None
        member_chars = [hand[i] for i in members]
        suggestions.append(
            ThemeSuggestion(
                name=theme.name if theme else _central_name(members, group["sims"], hand),
                chars=tuple(ThemeChar(hand[i], tone(i)) for i in members),
                score=round(1.0 - math.exp(-strength / _STRENGTH_SCALE), 3),
                rhymes=_rhymes(member_chars, hand, feet_by_group),
                titles=_titles(theme, member_chars, hand),
                description=theme.description if theme else "",
                words=_words([forms[i] for i in members], spelled, hand_words),
            )
        )
    suggestions.sort(key=lambda s: (-s.score, s.name))
    suggestions = suggestions[:max_themes]
    for s in suggestions:
        placed.update(c.char for c in s.chars)  # type: ignore[arg-type]
    rest = [i for i, c in enumerate(hand) if c not in placed]
    if rest:
        suggestions.append(ThemeSuggestion(OTHER, tuple(ThemeChar(hand[i], tone(i)) for i in rest), 0.0, (), ()))
    return tuple(suggestions)


def warm_up(data_dir: str | os.PathLike | None = None) -> None:
    """Load the vectors, lexicon and words and import scikit-learn now, so the first hand is fast (~1 s saved)."""
    directory = str(data_dir) if data_dir else None
    _lexicon(directory)
    _load_words(directory)
    _agglomerative()


def themes_to_json(suggestions: Sequence[ThemeSuggestion]) -> dict[str, Any]:
    """The JSON shape of the CLI and the API: {"themes": [{"name", "chars", "score", "rhymes", "titles", …}]}."""
    return {
        "themes": [
            {
                "name": s.name,
                "description": s.description,
                "chars": [{"char": c.char, "tone": c.tone} for c in s.chars],
                "score": s.score,
                "rhymes": [{"group": r.group, "feet": list(r.feet), "theme_feet": r.theme_feet} for r in s.rhymes],
                "titles": list(s.titles),
                "words": list(s.words),
            }
            for s in suggestions
        ]
    }


# --- jieba, wrapped once ---------------------------------------------------------------------------


@cache
def tokenizer():
    """Our own jieba Tokenizer (quiet, initialised once); the global ``jieba.cut`` is never used.

    >>> "渔舟" in tokenizer().FREQ  # the dictionary is in simplified script
    True
    """
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tok = jieba.Tokenizer()
    # jieba caches its parsed dictionary; keep that cache in the user's cache folder, not the shared /tmp
    cache_dir = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "shipai"
    cache_dir.mkdir(parents=True, exist_ok=True)
    tok.tmp_dir = str(cache_dir)
    tok.initialize()
    return tok

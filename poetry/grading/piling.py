"""詞藻堆砌: lines that pile up stock scenery, which a 詩伯 calls 意味平平 however well they scan.

A poem strung of 青山綠水, 鳥語花香 and 亭亭玉立 reads smoothly to every model of Tang verse: its lines are fluent, its
words fit its title. What gives it away is how it is made (``piling_features``, over the canonical 繁 lines):

  scene      the share of the characters that are scene words (the seeds of themes.json: 山 水 花 柳 月 …);
  function   the share of 虛字 (taste.FUNCTION_CHARS): the syntax that turns a list of things into a thought;
  colour     the share of colour words (紅 綠 碧 翠 金 …), which pastiche lays on;
  redouble   the share of reduplicated characters (陣陣 聲聲 點點);
  familiar   the share of the characters inside words of everyday modern Chinese (jieba's dictionary words of
             two or more characters with a frequency of at least FAMILIAR_FREQ, cut from the 简体 line): 夕陽,
             故鄉, 亭亭玉立, where a poet of the Song writes 斜暉, 鄉關;
  set_phrase the share inside four-character words of that dictionary (frequency at least SET_PHRASE_FREQ): the
             set phrases pastiche strings lines of (秋高氣爽, 鶯歌燕舞, 千山萬水, 出水芙蓉);
  lm         how well the Tang trigram LMs (both directions) predict the lines (taste's lm_both).

data/grading_piling.json (scripts/build_piling.py) weighs them: a logistic regression that tells the graded sets'
flat poems (every line a stock phrase strung on the title: the 詩伯 graded them 下品) from their fine and skilled
ones, and the level ``at``: its highest probability over 唐詩三百首, which it never saw. A poem above it piles its
words more than any poem of the anthology does: 語句清新 is lowered and the rubric calls it 意味平平
(平平_piled). On the graded sets, with each set held out of the fit in turn, the level catches a third of the flat
poems (29 of 84), 1 of 214 fine ones and none of 117 skilled ones (docs/BENCHMARKS.md,
twelfth session).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Mapping

from poetry.data import data_path, load_json

#: The file scripts/build_piling.py writes.
PILING_FILE = "grading_piling.json"
#: Colour words (設色).
COLOUR_CHARS = frozenset("紅綠青碧翠黃白紫金銀朱丹藍蒼")
#: Numerals: a word that holds one is counted but not quoted.
NUMERALS = frozenset("一二三四五六七八九十百千万萬两兩")
#: A word of jieba's dictionary this frequent is everyday modern Chinese.
FAMILIAR_FREQ = 20
#: A four-character word of jieba's dictionary this frequent is a set phrase.
SET_PHRASE_FREQ = 10
#: The share of 語句清新 a poem keeps when it piles stock scenery past the level.
PILED_FRESHNESS = 0.5
#: The features, in the order of the file's weights.
FEATURES = ("scene", "function", "colour", "redouble", "familiar", "set_phrase", "lm")


@dataclass(frozen=True)
class Piling:
    """How far a poem piles stock scenery: the model's probability, and what it saw, to quote."""

    probability: float
    familiar: tuple[str, ...]  # everyday words (亭亭玉立, 夕陽), as written, the longest first
    redoubled: tuple[str, ...]  # 陣陣, 聲聲
    colours: tuple[str, ...]
    everyday: float = 0.0  # the share of the characters inside words of everyday modern Chinese (``familiar``)


@cache
def _model() -> Mapping[str, Any] | None:
    """data/grading_piling.json, or None before scripts/build_piling.py has run."""
    return load_json(PILING_FILE) if data_path(PILING_FILE).exists() else None


def piling_level() -> float:
    """The probability above which a poem piles its words more than any poem of 唐詩三百首 does."""
    spec = _model()
    return spec["at"] if spec else 1.0


def _dictionary_words(lines: list[str]) -> list[tuple[int, int, str, int]]:
    """(line, start, word in 简体, its frequency) of each word of two or more characters of jieba's dictionary, as
    jieba cuts the 简体 lines."""
    from poetry.grading.models import _tokenizer, cut_lines

    freqs = _tokenizer().FREQ
    return [(k, i, token, freqs[token]) for k, i, token in cut_lines(lines)
            if len(token) >= 2 and freqs.get(token, 0) > 0]


def piling_features(lines: list[str]) -> tuple[dict[str, float], Piling]:
    """The seven measures of a poem's lines (canonical forms) and what they found (probability 0 here).

    >>> f, seen = piling_features(["青山綠水繞村莊", "陣陣花香滿院黃"])
    >>> f["scene"] > f["function"], seen.redoubled, seen.colours
    (True, ('陣陣',), ('青', '綠', '黃'))
    """
    from poetry.grading.taste import FUNCTION_CHARS, _line_lm, _themes

    seeds = _themes()[3]
    chars = [ch for line in lines for ch in line]
    n = max(len(chars), 1)
    redoubled = [line[i:i + 2] for line in lines for i in range(len(line) - 1) if line[i] == line[i + 1]]
    words = _dictionary_words(lines)
    familiar = [(k, i, w) for k, i, w, freq in words if freq >= FAMILIAR_FREQ]
    set_phrases = [w for _, _, w, freq in words if len(w) == 4 and freq >= SET_PHRASE_FREQ]
    f = {"scene": sum(ch in seeds for ch in chars) / n, "function": sum(ch in FUNCTION_CHARS for ch in chars) / n,
         "colour": sum(ch in COLOUR_CHARS for ch in chars) / n, "redouble": len(redoubled) / n,
         "familiar": sum(len(w) for _, _, w in familiar) / n, "set_phrase": 4 * len(set_phrases) / n,
         "lm": _line_lm(lines)[0]["lm_both"]}
    quoted = sorted(dict.fromkeys(lines[k][i:i + len(w)] for k, i, w, freq in words
                                  if (freq >= FAMILIAR_FREQ or w in set_phrases) and not NUMERALS.intersection(w)),
                    key=len, reverse=True)  # a count (三十里) is no stock phrase to quote
    colours = tuple(dict.fromkeys(ch for ch in chars if ch in COLOUR_CHARS))
    seen = Piling(0.0, tuple(quoted), tuple(dict.fromkeys(redoubled)), colours, f["familiar"])
    return f, seen


def piling(lines: list[str]) -> Piling | None:
    """The poem's piling of stock scenery (None without the model, or for a poem of fewer than two lines)."""
    spec = _model()
    if spec is None or len(lines) < 2:
        return None
    f, seen = piling_features(lines)
    z = spec["intercept"] + sum(w * (f[name] - mu) / sd for name, mu, sd, w in
                                zip(spec["features"], spec["mean"], spec["scale"], spec["coef"]))
    return replace(seen, probability=1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0))))


def explain_piling(p: Piling) -> str:
    """詞藻堆砌 in words, quoting what was found (no figures).

    >>> explain_piling(Piling(0.99, ("亭亭玉立", "清香"), ("陣陣",), ("綠", "紅")))
    '詞藻堆砌：景物字滿篇而少用虛字，熟語「亭亭玉立」「清香」，疊字「陣陣」，設色「綠」「紅」'
    """
    parts = ["景物字滿篇而少用虛字"]
    if p.familiar:
        parts.append("熟語" + "".join(f"「{w}」" for w in p.familiar[:4]))
    if p.redoubled:
        parts.append("疊字" + "".join(f"「{w}」" for w in p.redoubled[:3]))
    if len(p.colours) >= 2:
        parts.append("設色" + "".join(f"「{c}」" for c in p.colours[:4]))
    return "詞藻堆砌：" + "，".join(parts)


def reload() -> None:
    """Forget the loaded model (after scripts/build_piling.py rewrites it)."""
    _model.cache_clear()

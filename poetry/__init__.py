"""詩牌 (poem tiles): the 平水韻, regulated-verse checking, the tile deal, themes and grading.

A pure domain package: it never imports Flask. The public API is re-exported here, loaded on first use
(PEP 562), so `import poetry` stays cheap and `python -m poetry check` never loads numpy or scikit-learn.

>>> from poetry import check_poem
>>> check_poem("風急天高猿嘯哀，渚清沙白鳥飛迴。無邊落木蕭蕭下，不盡長江滾滾來。"
...            "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。").regulated
True
"""

from importlib import import_module

from poetry.errors import (
    InvalidHandError,
    MalformedPoemError,
    PoetryError,
    UnknownCharacterError,
    UnsupportedFormError,
)

#: public name → the module that defines it
_EXPORTS = {
    "poetry.prosody": ("CharInfo", "Reading", "RhymeBook", "Tone", "get_rhyme_book"),
    "poetry.text": ("ParsedPoem", "parse_poem", "to_simplified", "to_traditional"),
    "poetry.checker": ("CharReport", "CheckResult", "LineReport", "Violation", "check_poem"),
    "poetry.tiles": (
        "Deal",
        "Tile",
        "commitment",
        "deal_hands",
        "deal_round",
        "first_seat",
        "load_tile_set",
        "replay_deal",
        "shuffle_stack",
        "validate_tile_set",
        "verify_deal",
    ),
    "poetry.themes": ("ThemeSuggestion", "char_vectors", "suggest_themes", "vector_of"),
    "poetry.grading": ("GRADES", "Grade", "grade_poem", "measure_poem", "parallel_score"),
    "poetry.standings": ("rank_round",),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = [
    "InvalidHandError",
    "MalformedPoemError",
    "PoetryError",
    "UnknownCharacterError",
    "UnsupportedFormError",
    *_MODULE_OF,
]


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'poetry' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(__all__)

"""詩牌 (poem tiles): the 平水韻, regulated-verse checking, the tile deal, themes and grading.

A pure domain package: it never imports Flask. The public API is re-exported here as the modules land.
"""

from poetry.checker import CharReport, CheckResult, LineReport, Violation, check_poem
from poetry.errors import (
    InvalidHandError,
    MalformedPoemError,
    PoetryError,
    UnknownCharacterError,
    UnsupportedFormError,
)
from poetry.grading import GRADES, Grade, grade_poem, parallel_score
from poetry.prosody import CharInfo, Reading, RhymeBook, Tone, get_rhyme_book
from poetry.text import ParsedPoem, parse_poem, to_simplified, to_traditional
from poetry.themes import ThemeSuggestion, char_vectors, suggest_themes, vector_of
from poetry.tiles import (
    Deal,
    Tile,
    commitment,
    deal_hands,
    deal_round,
    first_seat,
    load_tile_set,
    replay_deal,
    shuffle_stack,
    validate_tile_set,
    verify_deal,
)

__all__ = [
    "CharInfo",
    "Reading",
    "RhymeBook",
    "Tone",
    "get_rhyme_book",
    "ParsedPoem",
    "parse_poem",
    "to_simplified",
    "to_traditional",
    "GRADES",
    "Grade",
    "grade_poem",
    "parallel_score",
    "ThemeSuggestion",
    "char_vectors",
    "suggest_themes",
    "vector_of",
    "CharReport",
    "CheckResult",
    "LineReport",
    "Violation",
    "check_poem",
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
    "InvalidHandError",
    "MalformedPoemError",
    "PoetryError",
    "UnknownCharacterError",
    "UnsupportedFormError",
]

"""詩牌 (poem tiles): the 平水韻, regulated-verse checking, the tile deal, themes and grading.

A pure domain package: it never imports Flask. The public API is re-exported here as the modules land.
"""

from poetry.errors import (
    InvalidHandError,
    MalformedPoemError,
    PoetryError,
    UnknownCharacterError,
    UnsupportedFormError,
)

__all__ = [
    "InvalidHandError",
    "MalformedPoemError",
    "PoetryError",
    "UnknownCharacterError",
    "UnsupportedFormError",
]

"""Script conversion and text clean-up (簡 ↔ 繁) shared by the checker, the UI and the themes.

OpenCC does the conversion; converters are built once on first use.
"""

from __future__ import annotations

from functools import cache


@cache
def _converter(config: str):
    import opencc  # imported lazily: `import poetry` stays cheap

    return opencc.OpenCC(config)


def to_simplified(text: str) -> str:
    """Traditional → simplified (OpenCC t2s).

    >>> to_simplified("白雲深處有人家")
    '白云深处有人家'
    """
    return _converter("t2s").convert(text)


def to_traditional(text: str) -> str:
    """Simplified → traditional (OpenCC s2t).

    >>> to_traditional("白云深处有人家")
    '白雲深處有人家'
    """
    return _converter("s2t").convert(text)

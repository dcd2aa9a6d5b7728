"""Exceptions for input that cannot be judged at all.

A poem that breaks the tonal rules is not an error: it is a CheckResult listing its violations.
Each exception carries a Chinese message for users (``message``) and the offending value.
"""


class PoetryError(Exception):
    """Base class: the input cannot be judged. ``message`` is shown to the user."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class MalformedPoemError(PoetryError):
    """The text is empty, has no Chinese, has too few lines or is too long."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class UnknownCharacterError(PoetryError):
    """A character that the caller required to be known (e.g. a tile) is in no rhyme book."""

    def __init__(self, char: str):
        super().__init__(f"「{char}」不在韻書中")
        self.char = char


class UnsupportedFormError(PoetryError):
    """A form or rhyme book name that the package does not know."""

    def __init__(self, form: str):
        super().__init__(f"不支援的體裁或韻書：{form}")
        self.form = form


class InvalidHandError(PoetryError):
    """A tile set or hand that breaks the game's rules (600 distinct tiles, 300 平 / 300 仄 …)."""

    status = 422

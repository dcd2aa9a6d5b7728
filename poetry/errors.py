"""Exceptions for input that cannot be judged at all.

A poem that breaks the tonal rules is not an error: it is a CheckResult listing its violations.
Each exception carries a Chinese message for users (``message``) and the offending value.
The StoreError family says why a round refuses an action (poetry.store raises them); each class's
``status`` is the HTTP code app.py and the views answer with.
"""

from typing import Any


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


class InvalidThresholdError(PoetryError, ValueError):
    """A 詩伯's grading threshold that the rubric does not know, or outside 0 to 1."""


class InvalidHandError(PoetryError):
    """A tile set or hand that breaks the game's rules (600 distinct tiles, 300 平 / 300 仄 …)."""

    status = 422


# --- a round's actions: the store raises these, each maps to one HTTP status ------------------------


class StoreError(PoetryError):
    """An action the round does not allow; ``status`` is the HTTP code the web layer answers."""

    status = 400


class BadInput(StoreError):
    """A field of the wrong type, too long, missing or not one of the allowed values."""

    status = 400


class NotAllowed(StoreError):
    """The seat asking may not do this (only the 詩伯 deals, only a player has a hand)."""

    status = 403


class RoundNotFound(StoreError):
    """No round with that code (or no such seat in it)."""

    status = 404


class WrongPhase(StoreError):
    """Not at this point of the round (before the deal, after publication, already submitted)."""

    status = 409


class CompositionError(StoreError):
    """The poem uses characters the composition rule does not allow; ``violations`` lists them."""

    status = 422

    def __init__(self, message: str, violations: list[dict[str, Any]]):
        super().__init__(message)
        self.violations = violations

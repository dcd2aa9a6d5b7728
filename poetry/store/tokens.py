"""Round codes and seat tokens: how a request proves which seat of which round it speaks for.

A round is found by its code (read aloud, typed by hand); a seat by its token, which the database keeps
only as a sha256 hash::

    >>> normalise_code(" abc 234 ")
    'ABC234'
    >>> len(hash_token(new_token()))
    64
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: codes are read aloud and typed
CODE_LENGTH = 6


def hash_token(token: str) -> str:
    """Tokens are stored only as sha256 hex: a leaked database does not let anyone take a seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh seat token (the seat's private link and cookie)."""
    return secrets.token_urlsafe(24)


def new_code() -> str:
    """A fresh round code of CODE_LENGTH characters from CODE_ALPHABET."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    """Codes are typed by hand: case and spaces do not matter."""
    return "".join(str(code).split()).upper()


@dataclass(frozen=True)
class Seat:
    """Who a request speaks for: a seat of one round (0 is a 詩伯 who does not play)."""

    round_id: int
    code: str
    seat: int
    name: str
    is_host: bool

    @property
    def plays(self) -> bool:
        """Seats 1–4 draw tiles and write; seat 0 only judges."""
        return self.seat >= 1

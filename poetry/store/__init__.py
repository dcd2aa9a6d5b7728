"""Persistence for rounds of 詩牌 through SQLAlchemy Core: SQLite by default, any DATABASE_URL (PostgreSQL).

No Flask here: the web layer authenticates a request to a seat with :meth:`Store.authenticate` and calls
one method; the method checks the phase and the seat's rights and raises a StoreError subclass
(poetry.errors: 404 / 403 / 409 / 400 / 422 / 429, Chinese ``message``) when the action is not allowed.
What a poem may use is poetry.rules' to say. Every change that others should see live is appended to
the ``events`` table (never to one process's memory), which the event stream reads, so several workers
can serve one round.

The package's rooms:

- ``schema``: the tables (``metadata``, which the Alembic migrations must produce), the engine, the migrations;
- ``tokens``: round codes, seat tokens and :class:`Seat`;
- ``fields``: vocabularies, field limits, timestamps and a new round's checked settings;
- ``store``: the :class:`Store`, one method per action of a round.

Usage::

    >>> store = Store("sqlite://")            # an in-memory database, migrated
    >>> created = store.create_round(title="春日山行", host_name="東坡")
    >>> created["seat"], len(created["code"])
    (1, 6)
"""

from poetry.errors import (
    BadInput,
    CompositionError,
    NotAllowed,
    RoundNotFound,
    StoreError,
    TooManyAttempts,
    WrongPhase,
)
from poetry.rules import COMPOSITIONS, MAX_WILDCARDS
from poetry.store.fields import (
    GRADES,
    LIMITS,
    PHASES,
    PLAYERS,
    RHYME_BOOKS,
    RoundSettings,
    clean_text,
    round_settings,
    utcnow,
)
from poetry.store.schema import (
    MIGRATIONS_DIR,
    drafts,
    events,
    grades,
    hands,
    join_attempts,
    make_engine,
    metadata,
    rounds,
    seats,
    submissions,
    upgrade_database,
)
from poetry.store.store import JOIN_LIMIT, JOIN_WINDOW, Store
from poetry.store.tokens import CODE_ALPHABET, CODE_LENGTH, Seat, hash_token, new_code, new_token, normalise_code

__all__ = [
    "BadInput", "CompositionError", "NotAllowed", "RoundNotFound", "StoreError", "TooManyAttempts", "WrongPhase",
    "COMPOSITIONS", "MAX_WILDCARDS", "GRADES", "LIMITS", "PHASES", "PLAYERS", "RHYME_BOOKS",
    "RoundSettings", "clean_text", "round_settings", "utcnow",
    "MIGRATIONS_DIR", "drafts", "events", "grades", "hands", "join_attempts", "make_engine", "metadata", "rounds",
    "seats", "submissions", "upgrade_database",
    "JOIN_LIMIT", "JOIN_WINDOW", "Store",
    "CODE_ALPHABET", "CODE_LENGTH", "Seat", "hash_token", "new_code", "new_token", "normalise_code",
]

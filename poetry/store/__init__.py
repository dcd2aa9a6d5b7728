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
- ``fields``: vocabularies, field limits, names, timestamps and a new round's checked settings;
- ``ratelimit``: a storage for the ``limits`` rate limiter in the same database (shared by every worker);
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
    clean_name,
    clean_text,
    round_settings,
    utcnow,
)
from poetry.store.ratelimit import DatabaseStorage
from poetry.store.schema import (
    MIGRATIONS_DIR,
    drafts,
    events,
    grades,
    hands,
    make_engine,
    metadata,
    rate_limits,
    rounds,
    seats,
    submissions,
    upgrade_database,
)
from poetry.store.store import Store
from poetry.store.tokens import CODE_ALPHABET, CODE_LENGTH, Seat, hash_token, new_code, new_token, normalise_code

__all__ = [
    "BadInput", "CompositionError", "NotAllowed", "RoundNotFound", "StoreError", "WrongPhase",
    "COMPOSITIONS", "MAX_WILDCARDS", "GRADES", "LIMITS", "PHASES", "PLAYERS", "RHYME_BOOKS",
    "RoundSettings", "clean_name", "clean_text", "round_settings", "utcnow",
    "MIGRATIONS_DIR", "drafts", "events", "grades", "hands", "rate_limits", "make_engine", "metadata", "rounds",
    "seats", "submissions", "upgrade_database",
    "DatabaseStorage", "Store",
    "CODE_ALPHABET", "CODE_LENGTH", "Seat", "hash_token", "new_code", "new_token", "normalise_code",
]

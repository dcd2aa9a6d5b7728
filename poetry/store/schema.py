"""The store's tables, its engine and its migrations: what the database of rounds looks like.

The schema is created and upgraded by Alembic (``migrations/``, :func:`upgrade_database`); ``metadata``
below is what the migrations must produce (tests/test_store.py compares them). A change here needs a
new revision in ``migrations/versions/``.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock (migrate once before starting workers there)
    fcntl = None

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

rounds = Table(
    "rounds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(12), nullable=False, unique=True),
    Column("title", Text, nullable=False),
    Column("rhyme_book", String(16), nullable=False),
    Column("penalty", Text, nullable=False, default=""),
    Column("composition", String(16), nullable=False),
    Column("wildcards", Integer, nullable=False, default=0),
    Column("host_plays", Boolean, nullable=False),
    Column("phase", String(16), nullable=False),
    Column("tile_set", Text),  # JSON list of tiles when the round uses a custom set, else NULL
    Column("commitment", String(64)),
    Column("salt", String(64)),
    Column("stack", Text),  # the 600 characters top to bottom, as shuffled (revealed at publication)
    Column("count_char", String(4)),
    Column("count_strokes", Integer),
    Column("first_seat", Integer),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("dealt_at", DateTime(timezone=True)),
    Column("published_at", DateTime(timezone=True)),
    # a round as a club plays it (migration 0004_club)
    Column("cups", Text),  # JSON {品: cups}; NULL: the default cups (poetry.rules.DEFAULT_CUPS)
    Column("minutes", Float),  # the clock: minutes to write after the deal; NULL: no clock
    Column("rhyme_draw", Boolean, nullable=False, default=False, server_default=false()),  # 韻牌
    Column("rhymes", Text),  # JSON {seat: 平聲 rhyme group}, drawn with the deal when rhyme_draw
    Column("previous_code", String(12)),  # the round this one is a rematch of
    Column("next_code", String(12)),  # its rematch
)

seats = Table(
    "seats",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),  # 1–4 draw and write; 0 is a 詩伯 who only judges
    Column("name", Text, nullable=False),  # normalised (fields.clean_name): one per round
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("is_host", Boolean, nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    # a rematch's seat: the hash of the token of the first round's seat, which works here too (0004_club)
    Column("token_root", String(64)),
    UniqueConstraint("round_id", "seat", name="uq_seats_round_seat"),
    Index("uq_seats_round_name", "round_id", "name", unique=True),
    Index("ix_seats_token_root", "token_root"),
)

hands = Table(
    "hands",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("tiles", Text, nullable=False),  # the characters in draw order
)

drafts = Table(
    "drafts",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("title", Text, nullable=False, default=""),
    Column("text", Text, nullable=False, default=""),
    Column("form", String(8)),  # the declared form (五言絕句 … 古體), None: judged by its shape
    Column("revision", Integer, nullable=False, default=0),
    Column("updated_at", DateTime(timezone=True)),
)

submissions = Table(
    "submissions",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("title", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("form", String(8)),  # the declared form, None: judged by its shape
    Column("report", Text),  # JSON: the checker's report at submission
    Column("locked", Boolean, nullable=False),  # False once the 詩伯 reopens it
    Column("submitted_at", DateTime(timezone=True), nullable=False),
    Column("reopened_at", DateTime(timezone=True)),
    Column("elapsed_seconds", Float),  # from the deal to this hand-in (the clock's 遲速)
)

grades = Table(
    "grades",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("grade", String(8), nullable=False),  # 上品 中品 下品 荒牌
    Column("comment", Text, nullable=False, default=""),
    Column("graded_at", DateTime(timezone=True), nullable=False),
)

grade_changes = Table(  # every 品 changed after publication, with its time (migration 0004_club)
    "grade_changes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("old_grade", String(8)),
    Column("new_grade", String(8), nullable=False),
    Column("changed_at", DateTime(timezone=True), nullable=False),
    Index("ix_grade_changes_round_id", "round_id", "seat"),
)

rate_limits = Table(  # the rate limiter's fixed windows (poetry.store.ratelimit), shared by every worker
    "rate_limits",
    metadata,
    Column("key", String(255), primary_key=True),  # limit, scope and client (a hash for seats)
    Column("count", Integer, nullable=False),
    Column("expires_at", Float, nullable=False),  # epoch seconds when the window ends
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("payload", Text, nullable=False),  # JSON, public data only (never a hand or a draft)
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_events_round_id", "round_id", "id"),
)


def make_engine(url: str) -> Engine:
    """An engine for the URL; SQLite gets WAL, a busy timeout and foreign keys, so threads can share it."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        pool = {"pool_size": 10, "max_overflow": 40} if path and path != ":memory:" else {}
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, **pool)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):  # pragma: no cover - trivial
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if path and path != ":memory:":
                cursor.execute("PRAGMA journal_mode=WAL")
                # FULL: a write the app acknowledged survives a power cut, not only a crash of the
                # process (NORMAL in WAL mode may lose the last commits then); docs/BENCHMARKS.md
                # measures what it costs a draft save.
                cursor.execute("PRAGMA synchronous=FULL")
            cursor.close()

        return engine
    # one connection per server thread at most (event streams hold a thread each, briefly a connection)
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=40)


MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


#: The key of the PostgreSQL advisory lock held while migrating (any fixed 64-bit number; 詩牌 in hex).
MIGRATION_LOCK_KEY = 0x8A69_7260


def upgrade_database(engine: Engine) -> None:
    """Run the Alembic migrations up to head on this engine (what the app does at start).

    Several workers start at once (gunicorn -w 4) and each migrates: a lock makes them take turns,
    so the first creates the tables and the others find them made. PostgreSQL: an advisory lock
    for the migration's transaction; SQLite: a lock on a file beside the database.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with _sqlite_file_lock(engine), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@contextlib.contextmanager
def _sqlite_file_lock(engine: Engine):
    """Hold an exclusive lock on ``<database>.migrate-lock`` (SQLite files only; elsewhere nothing)."""
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or fcntl is None:
        yield
        return
    with open(database + ".migrate-lock", "a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)

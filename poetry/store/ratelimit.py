"""A storage for the ``limits`` rate limiter in the store's own database, shared by every worker.

Flask-Limiter counts requests through a ``limits`` storage; the ones it ships keep counts in one
process's memory (each worker would count alone) or in Redis or Memcached (a server a club does not
run). This one keeps each fixed window's counter as a row of ``rate_limits``, so every worker and
every restart sees one count. :meth:`DatabaseStorage.incr` is one statement, ``INSERT … ON CONFLICT
DO UPDATE … RETURNING``: concurrent requests on PostgreSQL or SQLite each get a distinct count, so a
burst cannot slip past the limit between counting and acting. No Flask here::

    >>> from limits import parse
    >>> from limits.strategies import FixedWindowRateLimiter
    >>> from poetry.store import Store
    >>> limiter = FixedWindowRateLimiter(DatabaseStorage(engine=Store("sqlite://").engine))
    >>> [limiter.hit(parse("2 per minute"), "join", "client") for _ in range(3)]
    [True, True, False]
"""

from __future__ import annotations

import time

from limits.storage import Storage
from sqlalchemy import case, delete, func, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from poetry.store.schema import rate_limits

#: Expired windows are swept once every this many increments (one process's count).
SWEEP_EVERY = 500


class DatabaseStorage(Storage):
    """Fixed-window counters in the ``rate_limits`` table (``shipai+sqlalchemy://`` with ``engine=``)."""

    STORAGE_SCHEME = ["shipai+sqlalchemy"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, *, engine: Engine | None = None,
                 **options):
        if engine is None:
            raise ValueError("DatabaseStorage needs engine= (the Store's engine)")
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.engine = engine
        self._increments = 0

    @property
    def base_exceptions(self) -> type[Exception]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add ``amount`` to the key's window (a new window when it expired) and return the new count."""
        now = time.time()
        with self.engine.begin() as conn:
            count = conn.execute(self._upsert(key, expiry, amount, now)).scalar_one()
        self._increments += 1
        if self._increments % SWEEP_EVERY == 0:
            self._sweep(now)
        return count

    def _upsert(self, key: str, expiry: int, amount: int, now: float):
        """One atomic statement: insert the window, or add to it (restarting it when it has expired)."""
        dialect = self.engine.dialect.name
        if dialect not in ("postgresql", "sqlite"):  # pragma: no cover - the store runs on these two
            raise NotImplementedError(f"rate limits in the database need PostgreSQL or SQLite, not {dialect}")
        insert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(rate_limits)
        expired = rate_limits.c.expires_at <= now
        return insert.values(key=key, count=amount, expires_at=now + expiry).on_conflict_do_update(
            index_elements=[rate_limits.c.key],
            set_={"count": case((expired, amount), else_=rate_limits.c.count + amount),
                  "expires_at": case((expired, now + expiry), else_=rate_limits.c.expires_at)},
        ).returning(rate_limits.c.count)

    def _sweep(self, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(rate_limits).where(rate_limits.c.expires_at <= now))

    def get(self, key: str) -> int:
        """The count of the key's current window (0 when none is open)."""
        with self.engine.connect() as conn:
            count = conn.execute(select(rate_limits.c.count).where(
                rate_limits.c.key == key, rate_limits.c.expires_at > time.time())).scalar()
        return count or 0

    def get_expiry(self, key: str) -> float:
        """When the key's window ends (epoch seconds; now when none is open)."""
        with self.engine.connect() as conn:
            expires = conn.execute(select(rate_limits.c.expires_at).where(rate_limits.c.key == key)).scalar()
        return max(expires or 0.0, time.time())

    def check(self) -> bool:
        """Whether the database answers."""
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            return True
        except SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        """Forget every window; the number of windows forgotten."""
        with self.engine.begin() as conn:
            count = conn.execute(select(func.count()).select_from(rate_limits)).scalar()
            conn.execute(delete(rate_limits))
        return count

    def clear(self, key: str) -> None:
        """Forget one key's window."""
        with self.engine.begin() as conn:
            conn.execute(delete(rate_limits).where(rate_limits.c.key == key))

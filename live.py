"""Live event streams: one listener per process wakes the open streams of a round, and no client holds the server.

The ``events`` table stays the record (a reconnecting page gets what it missed through ``Last-Event-ID``);
this module only says *when* to read it. In each process one :class:`Broker` keeps the open streams by
round and one listener wakes them:

- PostgreSQL: the transaction that writes an event also sends ``NOTIFY shipai_events, '<code>'``
  (delivered at commit, to every process that listens, this one included): :class:`PostgresBroker`;
- ``REDIS_URL`` set: the code is published on the Redis channel ``shipai_events`` after commit:
  :class:`RedisBroker`;
- otherwise (SQLite, one machine): this process's own events wake its streams at once, and one shared
  poll of the table every ``EVENT_POLL_SECONDS`` finds other processes' events: :class:`PollingBroker`.

The broker also counts the open streams of each client address and of each round, so past
``LIVE_STREAMS_PER_CLIENT`` or ``LIVE_STREAMS_PER_ROUND`` a new stream is refused (429). No Flask here:
app.py calls :func:`init_app`, views/rounds.py opens an :class:`EventStream`. docs/LIVE_UPDATES.md says why.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from poetry.store import Store, events, rounds

#: The PostgreSQL NOTIFY channel and the Redis pub/sub channel; the message is a round code.
CHANNEL = "shipai_events"
#: A comment line after this many seconds of silence finds closed connections, keeps proxies from timing out.
PING_SECONDS = 10.0
#: Events read at once; a full batch is followed by the next one without waiting.
BATCH = 100
#: How long a listener waits before connecting again after its connection failed.
RECONNECT_SECONDS = 1.0

logger = logging.getLogger(__name__)


class TooManyStreams(Exception):
    """A client address or a round already holds as many open streams as allowed (the view answers 429)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Subscription:
    """One open stream's place in its process's broker: set when its round has a new event."""

    __slots__ = ("code", "client", "_woken")

    def __init__(self, code: str, client: str):
        self.code = code
        self.client = client
        self._woken = threading.Event()

    def wake(self) -> None:
        self._woken.set()

    def clear(self) -> None:
        self._woken.clear()

    def wait(self, timeout: float) -> bool:
        """Sleep until woken or the timeout passes; True when woken."""
        return self._woken.wait(timeout)


class Broker:
    """This process's open streams by round: wakes a round's streams, refuses streams past the limits.

    The base class wakes streams only for events written in this process (enough for one process).
    """

    def __init__(self, store: Store, *, per_client: int = 20, per_round: int = 50, poll_seconds: float = 0.4):
        self.store = store
        self.per_client = per_client
        self.per_round = per_round
        self.poll_seconds = poll_seconds
        self._lock = threading.Lock()
        self._rounds: dict[str, set[Subscription]] = {}
        self._clients: Counter[str] = Counter()
        self._listener: threading.Thread | None = None
        self._closed = threading.Event()

    # -- what the Store tells it (Store.announcer) --

    def in_transaction(self, conn, code: str) -> None:
        """Called in the transaction that writes an event of round ``code``."""

    def committed(self, codes: Iterable[str]) -> None:
        """Called once that transaction is committed: wake this process's streams of those rounds."""
        self.wake(*codes)

    # -- waking --

    def wake(self, *codes: str) -> None:
        """Wake every open stream of these rounds in this process."""
        with self._lock:
            woken = [sub for code in codes for sub in self._rounds.get(code, ())]
        for sub in woken:
            sub.wake()

    def wake_all(self) -> None:
        """Wake every open stream (after a listener reconnects: it may have missed notifications)."""
        self.wake(*self.rounds_open())

    def rounds_open(self) -> list[str]:
        with self._lock:
            return list(self._rounds)

    # -- open streams and their limits --

    def subscribe(self, code: str, client: str) -> Subscription:
        """A new stream of round ``code`` for ``client`` (an address); TooManyStreams past a limit."""
        with self._lock:
            if self._clients[client] >= self.per_client:
                raise TooManyStreams(f"這個位址開著的即時連線已達上限（{self.per_client} 個），請先關掉一些分頁再試。")
            if len(self._rounds.get(code, ())) >= self.per_round:
                raise TooManyStreams(f"這一局開著的即時連線已達上限（{self.per_round} 個），請稍後再試。")
            subscription = Subscription(code, client)
            self._rounds.setdefault(code, set()).add(subscription)
            self._clients[client] += 1
        self._start_listener()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """The stream ended: it no longer counts, nor is woken."""
        with self._lock:
            subs = self._rounds.get(subscription.code)
            if subs is None or subscription not in subs:
                return
            subs.discard(subscription)
            if not subs:
                del self._rounds[subscription.code]
            self._clients[subscription.client] -= 1
            if self._clients[subscription.client] <= 0:
                del self._clients[subscription.client]

    def open_streams(self) -> int:
        with self._lock:
            return sum(len(subs) for subs in self._rounds.values())

    # -- the listener: one per process, started with the first stream --

    def _start_listener(self) -> None:
        with self._lock:
            if self._listener is not None and self._listener.is_alive():
                return
            self._listener = threading.Thread(target=self._listen, name=f"{type(self).__name__}-listener",
                                              daemon=True)
            self._listener.start()

    def _listen(self) -> None:
        """Receive other processes' events and wake their rounds (the base class has none to receive)."""

    def close(self) -> None:
        """Stop listening (once the listener's current wait or connection ends)."""
        self._closed.set()


class PollingBroker(Broker):
    """One machine without a message channel (SQLite): one shared poll of the table per process.

    This process's own events wake its streams at once; the poll finds other processes' events at most
    ``poll_seconds`` later, with one query for all the streams of the process.
    """

    def _listen(self) -> None:
        seen = self._last_event_id()
        while not self._closed.wait(self.poll_seconds):
            if not self.rounds_open():
                continue
            try:
                seen = self._poll(seen)
            except Exception:  # a locked or restarting database: try again on the next poll
                logger.exception("polling the events table failed")

    def _last_event_id(self) -> int:
        with self.store.engine.connect() as conn:
            return conn.execute(select(func.max(events.c.id))).scalar() or 0

    def _poll(self, seen: int) -> int:
        """Wake the rounds with events after ``seen``; the newest id."""
        query = (select(rounds.c.code, func.max(events.c.id))
                 .select_from(events.join(rounds, events.c.round_id == rounds.c.id))
                 .where(events.c.id > seen).group_by(rounds.c.code))
        with self.store.engine.connect() as conn:
            found = conn.execute(query).all()
        if found:
            self.wake(*(code for code, _ in found))
            seen = max(seen, *(newest for _, newest in found))
        return seen


class PostgresBroker(Broker):
    """PostgreSQL: NOTIFY in the event's transaction, one LISTEN connection per process.

    Every process (this one too) is told at commit, so a stream on any worker or machine wakes at once;
    no process polls.
    """

    def in_transaction(self, conn, code: str) -> None:
        conn.execute(text("SELECT pg_notify(:channel, :code)"), {"channel": CHANNEL, "code": code})

    def committed(self, codes: Iterable[str]) -> None:
        """Nothing: the NOTIFY reaches this process's listener too."""

    def _listen(self) -> None:
        import psycopg

        engine = self.store.engine
        args, params = engine.dialect.create_connect_args(engine.url)
        params.pop("context", None)
        while not self._closed.is_set():
            try:
                with psycopg.connect(*args, autocommit=True, **params) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.wake_all()  # what was written before this connection listened
                    for note in conn.notifies():
                        self.wake(note.payload)
            except psycopg.Error:
                logger.exception("the LISTEN connection failed; connecting again")
            self._closed.wait(RECONNECT_SECONDS)


class RedisBroker(Broker):
    """``REDIS_URL`` set: the round code is published on a Redis channel after commit; one subscriber per process."""

    def __init__(self, store: Store, redis_url: str, **limits: Any):
        import redis

        super().__init__(store, **limits)
        self.redis_url = redis_url
        self._redis = redis.Redis.from_url(redis_url)

    def committed(self, codes: Iterable[str]) -> None:
        import redis

        for code in set(codes):
            try:
                self._redis.publish(CHANNEL, code)
            except redis.RedisError:  # the event is in the table: streams find it when next woken
                logger.exception("publishing an event to Redis failed")

    def _listen(self) -> None:
        import redis

        while not self._closed.is_set():
            try:
                pubsub = redis.Redis.from_url(self.redis_url).pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                self.wake_all()
                for message in pubsub.listen():
                    if message["type"] == "message":
                        self.wake(message["data"].decode())
            except redis.RedisError:
                if not self._closed.is_set():
                    logger.exception("the Redis subscription failed; subscribing again")
            self._closed.wait(RECONNECT_SECONDS)


def make_broker(store: Store, config) -> Broker:
    """The broker for this store and config: Redis where REDIS_URL is set, else by the database."""
    limits = {"per_client": int(config["LIVE_STREAMS_PER_CLIENT"]),
              "per_round": int(config["LIVE_STREAMS_PER_ROUND"]),
              "poll_seconds": float(config["EVENT_POLL_SECONDS"])}
    redis_url = config.get("REDIS_URL") or os.environ.get("REDIS_URL")
    if redis_url:
        return RedisBroker(store, redis_url, **limits)
    if store.engine.dialect.name == "postgresql":
        return PostgresBroker(store, **limits)
    return PollingBroker(store, **limits)


def init_app(app) -> Broker:
    """Give the app's Store its broker (app.extensions["live_broker"]), which every event is announced to."""
    store = app.extensions["poetry_store"]
    broker = make_broker(store, app.config)
    store.announcer = broker
    app.extensions["live_broker"] = broker
    return broker


class EventStream:
    """The ``text/event-stream`` of one round: the events after an id, then each new one as it comes.

    A WSGI response body: the server calls :meth:`close` when the stream ends or the client goes, which
    frees its place in the broker even if the body was never read. It ends by itself after ``seconds``
    (the browser reconnects with ``Last-Event-ID``).
    """

    def __init__(self, broker: Broker, code: str, client: str, after: int, seconds: float):
        """Subscribe (TooManyStreams past a limit), then read what the client missed (RoundNotFound: 404)."""
        self.broker = broker
        self.subscription = broker.subscribe(code, client)
        self.after = after
        self.seconds = seconds
        try:
            self._first = self._read(after)
        except BaseException:
            self.close()
            raise

    def _read(self, after: int) -> list[dict[str, Any]]:
        self.subscription.clear()  # before reading: an event committed after the read wakes the next wait
        return self.broker.store.events_since(self.subscription.code, after, limit=BATCH)

    def __iter__(self) -> Iterator[str]:
        return self._lines()

    def _lines(self) -> Iterator[str]:
        sub, batch = self.subscription, self._first
        last, deadline = self.after, time.monotonic() + self.seconds
        yield "retry: 1500\n\n"
        while True:
            for item in batch:
                last = item["id"]
                payload = json.dumps(item["data"], ensure_ascii=False)
                yield f"id: {last}\nevent: {item['kind']}\ndata: {payload}\n\n"
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            if len(batch) == BATCH or sub.wait(min(PING_SECONDS, remaining)):
                try:
                    batch = self._read(last)
                except (OperationalError, InterfaceError, DisconnectionError, PoolTimeoutError) as exc:
                    # the database went away mid-stream: end it; the browser reconnects with Last-Event-ID
                    # (and meets app.py's 503 until the database is back), nothing is missed
                    logger.warning("event stream of %s ended, storage unavailable: %s", sub.code, exc)
                    return
            else:
                batch = []  # silence: no query, only a comment line (unless the stream is over)
                if deadline - time.monotonic() > 0:
                    yield ": ping\n\n"

    def close(self) -> None:
        self.broker.unsubscribe(self.subscription)

"""Persistence for rounds of 詩牌 through SQLAlchemy Core: SQLite by default, any DATABASE_URL (PostgreSQL).

No Flask here: the web layer authenticates a request to a seat with :meth:`Store.authenticate` and calls
one method; the method checks the phase and the seat's rights and raises a :class:`StoreError` subclass
(404 / 403 / 409 / 400 / 422 / 429, Chinese ``message``) when the action is not allowed. Every change that
others should see live is appended to the ``events`` table (never to one process's memory), which the
event stream reads, so several workers can serve one round.

The schema is created and upgraded by Alembic (``migrations/``, :func:`upgrade_database`); ``metadata``
below is what the migrations must produce (tests/test_store.py compares them).

Usage::

    >>> store = Store("sqlite://")            # an in-memory database, migrated
    >>> created = store.create_round(title="春日山行", host_name="東坡")
    >>> created["seat"], len(created["code"])
    (1, 6)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
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
    func,
    select,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from poetry.errors import PoetryError

# --- vocabularies and limits -----------------------------------------------------------------------

PHASES = ("lobby", "dealt", "published")
RHYME_BOOKS = {"pingshui": "平水韻", "xinyun": "中華新韻"}
#: "rhyme_feet": rhyme feet and title from one's own tiles (the default, as the game's description says);
#: "jizi": 集字, every character of the poem from one's own tiles, each tile once (plus wildcard blanks).
COMPOSITIONS = {"rhyme_feet": "韻腳與題目用己牌", "jizi": "集字（全詩用己牌）"}
GRADES = ("上品", "中品", "下品", "荒牌")
PLAYERS = 4
MAX_WILDCARDS = 10

#: Length limits (characters) of every user-supplied field.
LIMITS = {
    "title": 40,  # a round's title
    "host_name": 20,
    "name": 20,
    "penalty": 200,
    "poem_title": 40,
    "text": 2000,  # a draft or a submitted poem
    "comment": 1000,  # a grade's comment
}

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: codes are read aloud and typed
CODE_LENGTH = 6

#: Join attempts allowed per client (IP) in the window; wrong codes count too (no guessing codes).
JOIN_LIMIT = 20
JOIN_WINDOW = timedelta(minutes=10)


# --- errors: each maps to one HTTP status through PoetryError.status ---------------------------------


class StoreError(PoetryError):
    """An action the round does not allow; ``status`` is the HTTP code the web layer answers."""

    status = 400


class BadInput(StoreError):
    status = 400


class NotAllowed(StoreError):
    status = 403


class RoundNotFound(StoreError):
    status = 404


class WrongPhase(StoreError):
    status = 409


class CompositionError(StoreError):
    """The poem uses characters the composition rule does not allow; ``violations`` lists them."""

    status = 422

    def __init__(self, message: str, violations: list[dict[str, Any]]):
        super().__init__(message)
        self.violations = violations


class TooManyAttempts(StoreError):
    status = 429


# --- schema ----------------------------------------------------------------------------------------

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
)

seats = Table(
    "seats",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),  # 1–4 draw and write; 0 is a 詩伯 who only judges
    Column("name", Text, nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("is_host", Boolean, nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("round_id", "seat", name="uq_seats_round_seat"),
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
    Column("report", Text),  # JSON: the checker's report at submission
    Column("locked", Boolean, nullable=False),  # False once the 詩伯 reopens it
    Column("submitted_at", DateTime(timezone=True), nullable=False),
    Column("reopened_at", DateTime(timezone=True)),
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

join_attempts = Table(
    "join_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("client", String(64), nullable=False),  # sha256 of the client address
    Column("code", String(12), nullable=False),
    Column("attempted_at", DateTime(timezone=True), nullable=False),
    Index("ix_join_attempts_client_time", "client", "attempted_at"),
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


# --- helpers ---------------------------------------------------------------------------------------


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _iso(value: datetime | None) -> str | None:
    """ISO 8601 in UTC; SQLite hands back naive datetimes, which are UTC here."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def hash_token(token: str) -> str:
    """Tokens are stored only as sha256 hex: a leaked database does not let anyone take a seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    """Codes are typed by hand: case and spaces do not matter."""
    return "".join(str(code).split()).upper()


_BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_text(value: Any, field: str, label: str, *, required: bool = False, multiline: bool = False) -> str:
    """A user string checked for type, control characters and length; surrounding spaces trimmed.

    >>> clean_text("  春日  ", "title", "標題")
    '春日'
    """
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise BadInput(f"「{label}」必須是文字。")
    if multiline:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    for char in value:
        if char in "\n\t" and multiline:
            continue
        category = unicodedata.category(char)
        if category == "Cc" or char in _BIDI_CONTROLS:
            raise BadInput(f"「{label}」含有控制字元（U+{ord(char):04X}），請刪去。")
        if category == "Cs":  # a lone surrogate: no text a keyboard makes, and no database stores it
            raise BadInput(f"「{label}」含有無法辨識的字元（U+{ord(char):04X}），請刪去。")
    value = value.strip() if not multiline else value.strip("\n ")
    limit = LIMITS[field]
    if len(value) > limit:
        raise BadInput(f"「{label}」太長了：最多 {limit} 字，現有 {len(value)} 字。")
    if required and not value:
        raise BadInput(f"請填寫「{label}」。")
    return value


def _flag(value: Any, label: str, default: bool) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise BadInput(f"「{label}」必須是 true 或 false。")
    return value


def is_han(char: str) -> bool:
    """CJK ideographs (the characters a tile can carry)."""
    return len(char) == 1 and unicodedata.category(char) == "Lo" and "CJK" in unicodedata.name(char, "")


def poem_lines(text: str) -> list[str]:
    """The lines of a poem: runs of Han characters between punctuation or line breaks.

    >>> poem_lines("白日依山盡，黃河入海流。\\n欲窮千里目")
    ['白日依山盡', '黃河入海流', '欲窮千里目']
    """
    lines, current = [], []
    for char in text:
        if is_han(char):
            current.append(char)
        elif current:
            lines.append("".join(current))
            current = []
    if current:
        lines.append("".join(current))
    return lines


def rhyme_feet(lines: Sequence[str], is_ping: Callable[[str], bool]) -> list[tuple[int, str]]:
    """The rhyme feet (韻腳): the last character of every even line, and of line 1 when it is 平 (首句入韻).

    Returns (line number from 1, character) pairs.

    >>> rhyme_feet(["白日依山盡", "黃河入海流", "欲窮千里目", "更上一層樓"], lambda c: c in "流樓")
    [(2, '流'), (4, '樓')]
    """
    feet = []
    for number, line in enumerate(lines, 1):
        if number % 2 == 0 or (number == 1 and len(lines) > 1 and is_ping(line[-1])):
            feet.append((number, line[-1]))
    return feet


def check_composition(title: str, text: str, hand: Iterable[str], composition: str, wildcards: int = 0,
                      is_ping: Callable[[str], bool] = lambda c: False) -> list[dict[str, Any]]:
    """Violations of the round's composition rule, each {"where", "char", "message"} (empty: allowed).

    "rhyme_feet": the title's characters and the rhyme feet must be tiles of one's hand.
    "jizi" (集字): every character of the poem must be a tile of one's hand, each tile used once, with up
    to ``wildcards`` blank tiles standing for any character; the title's characters must be in the hand.

    >>> check_composition("山行", "遠上寒山石徑斜", "山行遠上寒石徑斜", "jizi")
    []
    >>> [v["char"] for v in check_composition("江", "江江", "江", "jizi")]
    ['江']
    """
    own = set(hand)
    violations: list[dict[str, Any]] = []
    for char in dict.fromkeys(c for c in title if is_han(c)):
        if char not in own:
            violations.append({"where": "title", "char": char, "message": f"題目的「{char}」不在你的牌中。"})
    lines = poem_lines(text)
    if composition == "jizi":
        available = Counter(hand)
        short: Counter[str] = Counter()
        for char in "".join(lines):
            if available[char] > 0:
                available[char] -= 1
            else:
                short[char] += 1
        blanks = wildcards
        for char, count in short.items():
            covered = min(blanks, count)
            blanks -= covered
            if count > covered:
                missing = count - covered
                if char in own:
                    message = f"「{char}」只有一張牌，詩中多用了 {missing} 次。"
                else:
                    message = f"「{char}」不在你的牌中。"
                violations.append({"where": "text", "char": char, "count": missing, "message": message})
    else:
        for number, char in rhyme_feet(lines, is_ping):
            if char not in own:
                violations.append({"where": "rhyme", "line": number, "char": char,
                                   "message": f"第 {number} 句的韻腳「{char}」不在你的牌中。"})
    return violations


def _report_of(result: Any) -> Any:
    """A checker result as plain JSON data."""
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        result = dataclasses.asdict(result)
    return json.loads(json.dumps(result, ensure_ascii=False, default=str))


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
        return self.seat >= 1


# --- the store -------------------------------------------------------------------------------------


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
                cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    # one connection per server thread at most (event streams hold a thread each, briefly a connection)
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=40)


MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


def upgrade_database(engine: Engine) -> None:
    """Run the Alembic migrations up to head on this engine (what the app does at start)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """Rounds, seats, hands, drafts, submissions, grades and the event log of one database."""

    def __init__(self, url_or_engine: str | Engine, *, migrate: bool = True, tile_loader=None,
                 checker=None, join_limit: int = JOIN_LIMIT, join_window: timedelta = JOIN_WINDOW):
        self.engine = make_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
        if migrate:
            upgrade_database(self.engine)
        self._tile_loader = tile_loader
        self._checker = checker
        self.join_limit = join_limit
        self.join_window = join_window
        #: wakes this process's event streams at once; other processes find events by polling the table
        self.new_event = threading.Condition()

    # -- tiles and checking, with the domain package's defaults --

    def tiles_of_round(self, row) -> tuple:
        from poetry import tiles as tiles_module

        if row.tile_set:
            return tuple(tiles_module.Tile(**t) for t in json.loads(row.tile_set))
        return (self._tile_loader or tiles_module.load_tile_set)()

    def _check(self, text: str, rhyme_book: str, hand: Sequence[str]) -> Any:
        checker = self._checker
        if checker is None:
            try:
                from poetry.checker import check_poem as checker
            except ImportError:  # the checker is not installed: no report, the rule check still runs
                return None
        try:
            return _report_of(checker(text, rhyme_book=rhyme_book, hand=hand))
        except PoetryError as exc:  # a poem the checker cannot judge is still a poem to hand in
            return {"error": exc.message}

    # -- reading --

    def _round(self, conn: Connection, code: str):
        row = conn.execute(select(rounds).where(rounds.c.code == normalise_code(code))).first()
        if row is None:
            raise RoundNotFound(f"找不到牌局「{str(code)[:12]}」，請檢查代碼。")
        return row

    def authenticate(self, code: str, token: str | None) -> Seat | None:
        """The seat a token belongs to in this round, or None (unknown token, other round)."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(seats, rounds.c.code)
                .join(rounds, rounds.c.id == seats.c.round_id)
                .where(seats.c.token_hash == hash_token(token))
            ).first()
        if row is None or row.code != normalise_code(code):
            return None
        return Seat(row.round_id, row.code, row.seat, row.name, row.is_host)

    def round_info(self, code: str, viewer: Seat | None = None) -> dict[str, Any]:
        """The public state of a round: what anyone with the code may see (no hands, no drafts)."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            seat_rows = conn.execute(select(seats).where(seats.c.round_id == row.id).order_by(seats.c.seat)).all()
            submitted = {
                r.seat: r.locked
                for r in conn.execute(select(submissions.c.seat, submissions.c.locked)
                                      .where(submissions.c.round_id == row.id))
            }
            last_event = conn.execute(select(func.max(events.c.id)).where(events.c.round_id == row.id)).scalar()
        info = {
            "code": row.code,
            "title": row.title,
            "phase": row.phase,
            "rhyme_book": row.rhyme_book,
            "penalty": row.penalty,
            "composition": row.composition,
            "wildcards": row.wildcards,
            "host_plays": row.host_plays,
            "custom_tiles": bool(row.tile_set),
            "players": PLAYERS,
            "seats": [
                {"seat": s.seat, "name": s.name, "is_host": s.is_host, "plays": s.seat >= 1,
                 "submitted": bool(submitted.get(s.seat, False))}
                for s in seat_rows
            ],
            "commitment": row.commitment,
            "count_tile": self._count_tile(row),
            "first_seat": row.first_seat,
            "turn_order": _turn_order(row.first_seat) if row.first_seat else None,
            "created_at": _iso(row.created_at),
            "dealt_at": _iso(row.dealt_at),
            "published_at": _iso(row.published_at),
            "last_event": last_event or 0,
            "me": None,
        }
        if viewer is not None:
            info["me"] = {"seat": viewer.seat, "name": viewer.name, "is_host": viewer.is_host,
                          "plays": viewer.plays}
        return info

    # -- writing --

    def _event(self, conn: Connection, round_id: int, kind: str, payload: dict[str, Any]) -> None:
        conn.execute(events.insert().values(round_id=round_id, kind=kind,
                                            payload=json.dumps(payload, ensure_ascii=False), created_at=utcnow()))

    def _notify(self) -> None:
        with self.new_event:
            self.new_event.notify_all()

    def create_round(self, *, title: Any, host_name: Any, host_plays: Any = True, rhyme_book: Any = "pingshui",
                     penalty: Any = "", composition: Any = "rhyme_feet", wildcards: Any = 0,
                     tile_set: Sequence | None = None) -> dict[str, Any]:
        """Open a round; the 詩伯 takes seat 1 (or seat 0 when only judging). Returns code, token, seat.

        ``tile_set`` is an already validated sequence of Tiles (tiles.validate_tile_set), or None.
        """
        title = clean_text(title, "title", "牌局標題", required=True)
        host_name = clean_text(host_name, "host_name", "詩伯名號", required=True)
        host_plays = _flag(host_plays, "詩伯是否抽牌作詩", True)
        penalty = clean_text(penalty, "penalty", "罰則")
        if rhyme_book is None:
            rhyme_book = "pingshui"
        if not isinstance(rhyme_book, str) or rhyme_book not in RHYME_BOOKS:
            raise BadInput("「韻書」只能是 pingshui（平水韻）或 xinyun（中華新韻）。")
        if composition is None:
            composition = "rhyme_feet"
        if not isinstance(composition, str) or composition not in COMPOSITIONS:
            raise BadInput("「作詩規則」只能是 rhyme_feet（韻腳與題目用己牌）或 jizi（集字）。")
        if wildcards is None:
            wildcards = 0
        if isinstance(wildcards, bool) or not isinstance(wildcards, int) or not 0 <= wildcards <= MAX_WILDCARDS:
            raise BadInput(f"「白板（萬用牌）數」須是 0 到 {MAX_WILDCARDS} 的整數。")
        if composition != "jizi":
            wildcards = 0
        tile_json = None
        if tile_set is not None:
            tile_json = json.dumps([dataclasses.asdict(t) for t in tile_set], ensure_ascii=False)
        token = new_token()
        seat = 1 if host_plays else 0
        now = utcnow()
        for _ in range(10):
            code = new_code()
            try:
                with self.engine.begin() as conn:
                    round_id = conn.execute(rounds.insert().values(
                        code=code, title=title, rhyme_book=rhyme_book, penalty=penalty, composition=composition,
                        wildcards=wildcards, host_plays=host_plays, phase="lobby", tile_set=tile_json,
                        created_at=now,
                    )).inserted_primary_key[0]
                    conn.execute(seats.insert().values(round_id=round_id, seat=seat, name=host_name,
                                                       token_hash=hash_token(token), is_host=True, joined_at=now))
                    self._event(conn, round_id, "seats", {"seat": seat, "name": host_name})
                break
            except IntegrityError:  # a code already in use: draw another
                continue
        else:  # pragma: no cover - 31**6 codes
            raise WrongPhase("暫時無法開局，請再試一次。")
        self._notify()
        return {"code": code, "host_token": token, "seat": seat}

    def check_join_rate(self, client: str, code: str) -> None:
        """Record a join attempt and refuse it when the client made too many lately (kept in the DB)."""
        now = utcnow()
        client_hash = hash_token(client or "?")
        with self.engine.begin() as conn:
            conn.execute(join_attempts.delete().where(join_attempts.c.attempted_at < now - self.join_window * 2))
            recent = conn.execute(
                select(func.count()).select_from(join_attempts).where(
                    join_attempts.c.client == client_hash, join_attempts.c.attempted_at >= now - self.join_window)
            ).scalar()
            if recent >= self.join_limit:
                minutes = max(1, int(self.join_window.total_seconds() // 60))
                raise TooManyAttempts(f"加入嘗試太頻繁，請 {minutes} 分鐘後再試。")
            conn.execute(join_attempts.insert().values(client=client_hash, code=normalise_code(code)[:12],
                                                       attempted_at=now))

    def join(self, code: str, name: Any, client: str = "") -> dict[str, Any]:
        """Take the next free seat with a name; 409 when the table is full or the deal has begun."""
        self.check_join_rate(client, code)
        name = clean_text(name, "name", "名號", required=True)
        token = new_token()
        for _ in range(5):
            try:
                with self.engine.begin() as conn:
                    row = self._round(conn, code)
                    if row.phase != "lobby":
                        raise WrongPhase("這局已經抽牌，不能再加入。")
                    taken = {s.seat: s.name for s in conn.execute(
                        select(seats.c.seat, seats.c.name).where(seats.c.round_id == row.id))}
                    if name in taken.values():
                        raise BadInput(f"名號「{name}」已有人用了，請換一個。")
                    free = [n for n in range(1, PLAYERS + 1) if n not in taken]
                    if not free:
                        raise WrongPhase("座位已滿（四人），不能再加入。")
                    seat = free[0]
                    conn.execute(seats.insert().values(round_id=row.id, seat=seat, name=name,
                                                       token_hash=hash_token(token), is_host=False,
                                                       joined_at=utcnow()))
                    self._event(conn, row.id, "seats", {"seat": seat, "name": name})
                self._notify()
                return {"seat": seat, "token": token, "code": row.code}
            except IntegrityError:  # two joined at once and took the same seat: try the next one
                continue
        raise WrongPhase("座位剛被別人坐了，請再試一次。")

    def _require_host(self, viewer: Seat | None, action: str) -> Seat:
        if viewer is None:
            raise NotAllowed(f"請先入座：只有詩伯能{action}。")
        if not viewer.is_host:
            raise NotAllowed(f"只有詩伯能{action}。")
        return viewer

    def _require_player(self, viewer: Seat | None) -> Seat:
        if viewer is None:
            raise NotAllowed("請先入座（用加入連結或私人連結）。")
        if not viewer.plays:
            raise NotAllowed("詩伯這局不抽牌，沒有自己的牌與詩稿。")
        return viewer

    def deal(self, code: str, viewer: Seat | None, deal_fn: Callable | None = None) -> dict[str, Any]:
        """The 詩伯's 抽牌: shuffle, commit, count, deal 150 tiles to each of the four seats."""
        from poetry import tiles as tiles_module

        deal_fn = deal_fn or tiles_module.deal_round
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            self._require_host(viewer, "抽牌")
            if row.phase != "lobby":
                raise WrongPhase("這局已經抽過牌了。")
            players = conn.execute(select(func.count()).select_from(seats).where(
                seats.c.round_id == row.id, seats.c.seat >= 1)).scalar()
            if players < PLAYERS:
                raise WrongPhase(f"人還沒到齊：需要四位抽牌的人，現有 {players} 位。")
            tile_set = self.tiles_of_round(row)
            deal = deal_fn(tile_set, host_seat=1 if row.host_plays else None)
            now = utcnow()
            claimed = conn.execute(
                rounds.update().where(rounds.c.id == row.id, rounds.c.phase == "lobby").values(
                    phase="dealt", commitment=deal.commitment, salt=deal.salt, stack="".join(deal.stack),
                    count_char=deal.count_tile.char, count_strokes=deal.count_tile.strokes,
                    first_seat=deal.first_seat, dealt_at=now)
            ).rowcount
            if claimed != 1:
                raise WrongPhase("這局已經抽過牌了。")
            conn.execute(hands.insert(), [
                {"round_id": row.id, "seat": seat, "tiles": "".join(chars)} for seat, chars in deal.hands.items()
            ])
            conn.execute(drafts.insert(), [
                {"round_id": row.id, "seat": seat, "title": "", "text": "", "revision": 0}
                for seat in deal.hands
            ])
            public = {
                "commitment": deal.commitment,
                "count_tile": {"char": deal.count_tile.char, "strokes": deal.count_tile.strokes,
                               "tone": deal.count_tile.tone, "rhyme": deal.count_tile.rhyme},
                "first_seat": deal.first_seat,
                "turn_order": list(deal.turn_order),
                "hand_size": len(next(iter(deal.hands.values()))),
            }
            self._event(conn, row.id, "dealt", public)
        self._notify()
        return public

    def _count_tile(self, row) -> dict[str, Any] | None:
        if not row.count_char:
            return None
        tile = {t.char: t for t in self.tiles_of_round(row)}.get(row.count_char)
        return {"char": row.count_char, "strokes": row.count_strokes, "tone": tile.tone if tile else "",
                "rhyme": tile.rhyme if tile else ""}

    def _tile_dicts(self, row, chars: str) -> list[dict[str, Any]]:
        by_char = {t.char: t for t in self.tiles_of_round(row)}
        out = []
        for char in chars:
            tile = by_char.get(char)
            out.append({"char": char, "tone": tile.tone if tile else "", "rhyme": tile.rhyme if tile else "",
                        "strokes": tile.strokes if tile else 0})
        return out

    def _hand_chars(self, conn: Connection, round_id: int, seat: int) -> str:
        hand = conn.execute(select(hands.c.tiles).where(hands.c.round_id == round_id, hands.c.seat == seat)).scalar()
        return hand or ""

    def hand(self, code: str, viewer: Seat | None) -> dict[str, Any]:
        """One's own 150 tiles in draw order."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            viewer = self._require_player(viewer)
            if row.phase == "lobby":
                raise WrongPhase("還沒抽牌，手上沒有牌。")
            chars = self._hand_chars(conn, row.id, viewer.seat)
        return {"seat": viewer.seat, "tiles": self._tile_dicts(row, chars), "wildcards": row.wildcards}

    def hands(self, code: str, viewer: Seat | None) -> dict[str, Any]:
        """Every hand: the record the rules ask the 詩伯 to keep (詩伯 only, or anyone once published)."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            if row.phase != "published":
                self._require_host(viewer, "看所有人的牌")
            if row.phase == "lobby":
                raise WrongPhase("還沒抽牌。")
            names = {s.seat: s.name for s in conn.execute(select(seats.c.seat, seats.c.name)
                                                           .where(seats.c.round_id == row.id))}
            hand_rows = conn.execute(select(hands).where(hands.c.round_id == row.id).order_by(hands.c.seat)).all()
        return {"hands": [{"seat": h.seat, "name": names.get(h.seat, ""), "tiles": self._tile_dicts(row, h.tiles)}
                          for h in hand_rows]}

    def get_draft(self, code: str, viewer: Seat | None) -> dict[str, Any]:
        """One's own draft (and whether it is submitted and locked)."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            viewer = self._require_player(viewer)
            draft = conn.execute(select(drafts).where(drafts.c.round_id == row.id,
                                                      drafts.c.seat == viewer.seat)).first()
            sub = conn.execute(select(submissions).where(submissions.c.round_id == row.id,
                                                         submissions.c.seat == viewer.seat)).first()
        if sub is not None and sub.locked:
            return {"title": sub.title, "text": sub.text, "revision": draft.revision if draft else 0,
                    "updated_at": _iso(sub.submitted_at), "submitted": True,
                    "report": json.loads(sub.report) if sub.report else None}
        return {"title": draft.title if draft else "", "text": draft.text if draft else "",
                "revision": draft.revision if draft else 0, "updated_at": _iso(draft.updated_at) if draft else None,
                "submitted": False, "report": None}

    def save_draft(self, code: str, viewer: Seat | None, title: Any, text: Any) -> dict[str, Any]:
        """Save one's draft as one types; 409 once submitted (until the 詩伯 reopens it)."""
        now = utcnow()
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            viewer = self._require_player(viewer)
            title = clean_text(title, "poem_title", "詩題")
            text = clean_text(text, "text", "詩稿", multiline=True)
            if row.phase == "lobby":
                raise WrongPhase("還沒抽牌，先等詩伯抽牌。")
            if row.phase == "published":
                raise WrongPhase("這局已經公佈，詩稿不能再改。")
            locked = conn.execute(select(submissions.c.locked).where(
                submissions.c.round_id == row.id, submissions.c.seat == viewer.seat)).scalar()
            if locked:
                raise WrongPhase("你已交卷，詩稿已鎖定；要改請詩伯重開。")
            updated = conn.execute(
                drafts.update().where(drafts.c.round_id == row.id, drafts.c.seat == viewer.seat)
                .values(title=title, text=text, revision=drafts.c.revision + 1, updated_at=now)
            ).rowcount
            if not updated:
                conn.execute(drafts.insert().values(round_id=row.id, seat=viewer.seat, title=title, text=text,
                                                    revision=1, updated_at=now))
            revision = conn.execute(select(drafts.c.revision).where(
                drafts.c.round_id == row.id, drafts.c.seat == viewer.seat)).scalar()
        return {"saved": True, "revision": revision, "updated_at": _iso(now)}

    def _is_ping_for(self, row) -> Callable[[str], bool]:
        by_char = {t.char: t.tone for t in self.tiles_of_round(row)}

        def is_ping(char: str) -> bool:
            if char in by_char:
                return by_char[char] == "平"
            try:
                from poetry.prosody import get_rhyme_book

                return get_rhyme_book(row.rhyme_book).tone_of(char).value == "平"
            except Exception:  # no book for it: treat the first line as not rhyming
                return False

        return is_ping

    def submit(self, code: str, viewer: Seat | None, title: Any, text: Any) -> dict[str, Any]:
        """Hand in title and poem: the composition rule is enforced (422), the checker's report kept."""
        with self.engine.connect() as conn:
            self._round(conn, code)
        viewer = self._require_player(viewer)
        title = clean_text(title, "poem_title", "詩題", required=True)
        text = clean_text(text, "text", "詩稿", required=True, multiline=True)
        if not any(is_han(c) for c in title):
            raise BadInput("詩題須有漢字（取自己的牌）。")
        if len(poem_lines(text)) < 2:
            raise BadInput("一首詩至少要兩句：請用標點或換行分句。")
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            hand = self._hand_chars(conn, row.id, viewer.seat)
        if row.phase != "dealt":
            raise WrongPhase("還沒抽牌，不能交卷。" if row.phase == "lobby" else "這局已經公佈，不能再交卷。")
        violations = check_composition(title, text, hand, row.composition, row.wildcards, self._is_ping_for(row))
        if violations:
            raise CompositionError("不合這局的作詩規則：" + " ".join(v["message"] for v in violations[:8]),
                                   violations)
        report = self._check(text, row.rhyme_book, hand)
        now = utcnow()
        with self.engine.begin() as conn:
            existing = conn.execute(select(submissions.c.locked).where(
                submissions.c.round_id == row.id, submissions.c.seat == viewer.seat)).first()
            values = dict(title=title, text=text, report=json.dumps(report, ensure_ascii=False),
                          locked=True, submitted_at=now)
            if existing is None:
                try:
                    conn.execute(submissions.insert().values(round_id=row.id, seat=viewer.seat, **values))
                except IntegrityError:
                    raise WrongPhase("你已經交卷了。") from None
            else:
                claimed = conn.execute(submissions.update().where(
                    submissions.c.round_id == row.id, submissions.c.seat == viewer.seat,
                    submissions.c.locked.is_(False)).values(**values)).rowcount
                if claimed != 1:
                    raise WrongPhase("你已經交卷了；要改請詩伯重開。")
            phase = conn.execute(select(rounds.c.phase).where(rounds.c.id == row.id)).scalar()
            if phase != "dealt":
                raise WrongPhase("這局已經公佈，不能再交卷。")
            conn.execute(drafts.update().where(drafts.c.round_id == row.id, drafts.c.seat == viewer.seat)
                         .values(title=title, text=text, updated_at=now))
            self._event(conn, row.id, "submitted", {"seat": viewer.seat})
        self._notify()
        return {"submitted": True, "seat": viewer.seat, "submitted_at": _iso(now), "report": report,
                "violations": []}

    def reopen(self, code: str, viewer: Seat | None, seat: Any) -> dict[str, Any]:
        """The 詩伯 unlocks a submitted poem so its writer can revise it."""
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            self._require_host(viewer, "重開交卷")
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise BadInput("「seat」必須是座位號（整數 1–4）。")
            if row.phase != "dealt":
                raise WrongPhase("只有抽牌後、公佈前可以重開交卷。")
            if not 1 <= seat <= PLAYERS:
                raise RoundNotFound(f"沒有第 {seat} 座。")
            changed = conn.execute(submissions.update().where(
                submissions.c.round_id == row.id, submissions.c.seat == seat, submissions.c.locked.is_(True))
                .values(locked=False, reopened_at=utcnow())).rowcount
            if changed != 1:
                raise WrongPhase(f"第 {seat} 座還沒交卷，不必重開。")
            self._event(conn, row.id, "reopened", {"seat": seat})
        self._notify()
        return {"reopened": True, "seat": seat}

    def publish(self, code: str, viewer: Seat | None) -> dict[str, Any]:
        """The 詩伯 publishes: poems, hands, salt and stack become public."""
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            self._require_host(viewer, "公佈")
            if row.phase != "dealt":
                raise WrongPhase("還沒抽牌，不能公佈。" if row.phase == "lobby" else "這局已經公佈了。")
            claimed = conn.execute(rounds.update().where(rounds.c.id == row.id, rounds.c.phase == "dealt")
                                   .values(phase="published", published_at=utcnow())).rowcount
            if claimed != 1:
                raise WrongPhase("這局已經公佈了。")
            self._event(conn, row.id, "published", {})
        self._notify()
        return {"published": True}

    def results(self, code: str) -> dict[str, Any]:
        """After publication: every poem, hand and grade, and the reveal (salt and stack order)."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            if row.phase != "published":
                raise WrongPhase("這局還沒公佈。")
            seat_rows = conn.execute(select(seats).where(seats.c.round_id == row.id).order_by(seats.c.seat)).all()
            subs = {s.seat: s for s in conn.execute(select(submissions).where(submissions.c.round_id == row.id))}
            hand_rows = {h.seat: h.tiles for h in conn.execute(select(hands).where(hands.c.round_id == row.id))}
            grade_rows = {g.seat: g for g in conn.execute(select(grades).where(grades.c.round_id == row.id))}
        poems = []
        for s in seat_rows:
            if s.seat < 1:
                continue
            sub = subs.get(s.seat)
            grade = grade_rows.get(s.seat)
            poems.append({
                "seat": s.seat, "name": s.name, "is_host": s.is_host,
                "submitted": sub is not None and sub.locked,
                "title": sub.title if sub else "", "text": sub.text if sub else "",
                "report": json.loads(sub.report) if sub and sub.report else None,
                "grade": grade.grade if grade else None, "comment": grade.comment if grade else None,
            })
        info = self.round_info(code)
        return {
            "code": row.code, "title": row.title, "phase": row.phase, "seats": info["seats"],
            "poems": poems,
            "hands": [{"seat": seat, "tiles": self._tile_dicts(row, chars)} for seat, chars in sorted(hand_rows.items())],
            "commitment": row.commitment,
            "count_tile": self._count_tile(row),
            "first_seat": row.first_seat,
            "turn_order": _turn_order(row.first_seat),
            "host_plays": row.host_plays,
            "reveal": {"salt": row.salt, "order": list(row.stack or "")},
        }

    # -- grades (the judge dashboard builds on these) --

    def set_grade(self, code: str, seat: int, grade: str, comment: Any = "") -> dict[str, Any]:
        """Record the 詩伯's 品 for one seat's poem (replacing an earlier one)."""
        if grade not in GRADES:
            raise BadInput("品第只能是 上品、中品、下品 或 荒牌。")
        comment = clean_text(comment, "comment", "評語", multiline=True)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= PLAYERS:
            raise BadInput("「seat」必須是座位號（整數 1–4）。")
        now = utcnow()
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            if row.phase == "lobby":
                raise WrongPhase("還沒抽牌，無詩可評。")
            updated = conn.execute(grades.update().where(grades.c.round_id == row.id, grades.c.seat == seat)
                                   .values(grade=grade, comment=comment, graded_at=now)).rowcount
            if not updated:
                conn.execute(grades.insert().values(round_id=row.id, seat=seat, grade=grade, comment=comment,
                                                    graded_at=now))
            self._event(conn, row.id, "graded", {"seat": seat})
        self._notify()
        return {"seat": seat, "grade": grade, "comment": comment, "graded_at": _iso(now)}

    def list_grades(self, code: str) -> list[dict[str, Any]]:
        """Every grade of a round, by seat."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            rows = conn.execute(select(grades).where(grades.c.round_id == row.id).order_by(grades.c.seat)).all()
        return [{"seat": g.seat, "grade": g.grade, "comment": g.comment, "graded_at": _iso(g.graded_at)}
                for g in rows]

    def submissions_of(self, code: str) -> list[dict[str, Any]]:
        """Every submission with its report (for the 詩伯's judging; the caller checks who asks)."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            rows = conn.execute(select(submissions).where(submissions.c.round_id == row.id)
                                .order_by(submissions.c.seat)).all()
        return [{"seat": s.seat, "title": s.title, "text": s.text, "locked": s.locked,
                 "report": json.loads(s.report) if s.report else None, "submitted_at": _iso(s.submitted_at)}
                for s in rows]

    # -- the event log --

    def events_since(self, code: str, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """Events of a round with id > after, oldest first (what the live stream sends)."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            rows = conn.execute(select(events).where(events.c.round_id == row.id, events.c.id > after)
                                .order_by(events.c.id).limit(limit)).all()
        return [{"id": e.id, "kind": e.kind, "data": json.loads(e.payload)} for e in rows]

    def wait_for_event(self, timeout: float) -> None:
        """Sleep until this process records an event or the timeout passes (other processes: poll)."""
        with self.new_event:
            self.new_event.wait(timeout)


def _turn_order(first: int | None) -> list[int] | None:
    if not first:
        return None
    return [(first - 1 + i) % PLAYERS + 1 for i in range(PLAYERS)]

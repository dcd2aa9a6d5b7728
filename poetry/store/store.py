"""The Store: rounds, seats, hands, drafts, submissions, grades and the event log of one database.

Each public method is one action of the round: it checks the phase and the seat's rights, asks
poetry.rules what a poem may use, and reads or writes the tables of :mod:`poetry.store.schema`. Every
change that others should see live is also appended to ``events`` (see :meth:`Store.events_since`).
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from poetry.errors import BadInput, CompositionError, NotAllowed, RoundNotFound, WrongPhase
from poetry.forms import declared_form
from poetry.rules import (
    check_clock,
    check_composition,
    deadline_of,
    elapsed_seconds,
    ping_test,
    poem_report,
    require_poem,
    tiles_used,
)
from poetry.store.club import ClubActions
from poetry.store.fields import GRADES, PLAYERS, clean_name, clean_seat, clean_text, iso, round_settings, utcnow
from poetry.store.schema import (
    drafts,
    events,
    grades,
    hands,
    make_engine,
    rounds,
    seats,
    submissions,
    upgrade_database,
)
from poetry.store.tokens import Seat, hash_token, new_code, new_token, normalise_code


class Store(ClubActions):
    """Rounds, seats, hands, drafts, submissions, grades and the event log of one database."""

    def __init__(self, url_or_engine: str | Engine, *, migrate: bool = True, tile_loader=None, checker=None):
        self.engine = make_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
        if migrate:
            upgrade_database(self.engine)
        self._tile_loader = tile_loader
        self._checker = checker
        #: wakes this process's event streams at once (live.py's broker also tells other processes)
        self.new_event = threading.Condition()
        #: told of every event: ``in_transaction(conn, code)`` as it is written, ``committed(codes)`` after
        #: (live.Broker: PostgreSQL NOTIFY, Redis publish, this process's streams); None: only the Condition
        self.announcer = None
        self._written = threading.local()  # codes of the rounds whose events this thread has not announced

    # -- the tiles of a round (its own set, or the standard one) --

    def tiles_of_round(self, row) -> tuple:
        """The round's tiles: its custom set when it has one, else the loader's (the standard 600)."""
        from poetry import tiles as tiles_module

        if row.tile_set:
            return tuple(tiles_module.Tile(**t) for t in json.loads(row.tile_set))
        return (self._tile_loader or tiles_module.load_tile_set)()

    def _count_tile(self, row) -> dict[str, Any] | None:
        """The tile whose strokes chose the first drawer (None before the deal)."""
        if not row.count_char:
            return None
        tile = {t.char: t for t in self.tiles_of_round(row)}.get(row.count_char)
        return {"char": row.count_char, "strokes": row.count_strokes, "tone": tile.tone if tile else "",
                "rhyme": tile.rhyme if tile else ""}

    def _tile_dicts(self, row, chars: str) -> list[dict[str, Any]]:
        """The tiles of a hand as JSON data: char, tone, rhyme group, strokes."""
        by_char = {t.char: t for t in self.tiles_of_round(row)}
        out = []
        for char in chars:
            tile = by_char.get(char)
            out.append({"char": char, "tone": tile.tone if tile else "", "rhyme": tile.rhyme if tile else "",
                        "strokes": tile.strokes if tile else 0})
        return out

    # -- lookups and rights --

    def _round(self, conn: Connection, code: str):
        """The round's row, or RoundNotFound (404)."""
        row = conn.execute(select(rounds).where(rounds.c.code == normalise_code(code))).first()
        if row is None:
            raise RoundNotFound(f"找不到牌局「{str(code)[:12]}」，請檢查代碼。")
        return row

    def _lock_round(self, conn: Connection, round_id: int) -> str:
        """The round's phase, its row locked for writing until this transaction ends.

        Submit, reopen and publish each take this lock first, so exactly one of two racing actions goes
        first and the other sees the phase it left (a 409). The lock is a write of the row to itself: on
        PostgreSQL it holds the row like SELECT … FOR UPDATE; on SQLite it takes the database's write
        lock, which a SELECT (run outside any transaction by the driver) would not.
        """
        conn.execute(rounds.update().where(rounds.c.id == round_id).values(phase=rounds.c.phase))
        return conn.execute(select(rounds.c.phase).where(rounds.c.id == round_id)).scalar_one()

    def _hand_chars(self, conn: Connection, round_id: int, seat: int) -> str:
        """A seat's tiles in draw order ("" before the deal)."""
        hand = conn.execute(select(hands.c.tiles).where(hands.c.round_id == round_id, hands.c.seat == seat)).scalar()
        return hand or ""

    def authenticate(self, code: str, token: str | None) -> Seat | None:
        """The seat a token belongs to in this round, or None (unknown token, other round)."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        with self.engine.connect() as conn:
            row = self._seat_by_token(conn, normalise_code(code), token)  # a rematch's seat shares the token
        if row is None or row.code != normalise_code(code):
            return None
        return Seat(row.round_id, row.code, row.seat, row.name, row.is_host)

    def _require_host(self, viewer: Seat | None, action: str) -> Seat:
        """The viewer if it is the 詩伯; NotAllowed (403) naming the action otherwise."""
        if viewer is None:
            raise NotAllowed(f"請先入座：只有詩伯能{action}。")
        if not viewer.is_host:
            raise NotAllowed(f"只有詩伯能{action}。")
        return viewer

    def _require_player(self, viewer: Seat | None) -> Seat:
        """The viewer if it holds tiles (seats 1–4); NotAllowed (403) otherwise."""
        if viewer is None:
            raise NotAllowed("請先入座（用加入連結或私人連結）。")
        if not viewer.plays:
            raise NotAllowed("詩伯這局不抽牌，沒有自己的牌與詩稿。")
        return viewer

    # -- the lobby: open, join, look --

    def create_round(self, *, title: Any, host_name: Any, host_plays: Any = True, rhyme_book: Any = "pingshui",
                     penalty: Any = "", composition: Any = "rhyme_feet", wildcards: Any = 0,
                     tile_set: Sequence | None = None, cups: Any = None, minutes: Any = None,
                     rhyme_draw: Any = False) -> dict[str, Any]:
        """Open a round; the 詩伯 takes seat 1 (or seat 0 when only judging). Returns code, token, seat.

        ``tile_set`` is an already validated sequence of Tiles (tiles.validate_tile_set), or None.
        """
        settings = round_settings(title=title, host_name=host_name, host_plays=host_plays, rhyme_book=rhyme_book,
                                  penalty=penalty, composition=composition, wildcards=wildcards, cups=cups,
                                  minutes=minutes, rhyme_draw=rhyme_draw)
        tile_json = None
        if tile_set is not None:
            tile_json = json.dumps([dataclasses.asdict(t) for t in tile_set], ensure_ascii=False)
        token = new_token()
        seat = 1 if settings.host_plays else 0
        now = utcnow()
        for _ in range(10):
            code = new_code()
            try:
                with self.engine.begin() as conn:
                    round_id = conn.execute(rounds.insert().values(
                        code=code, title=settings.title, rhyme_book=settings.rhyme_book, penalty=settings.penalty,
                        composition=settings.composition, wildcards=settings.wildcards,
                        host_plays=settings.host_plays, phase="lobby", tile_set=tile_json, created_at=now,
                        cups=json.dumps(settings.cups, ensure_ascii=False), minutes=settings.minutes,
                        rhyme_draw=settings.rhyme_draw,
                    )).inserted_primary_key[0]
                    conn.execute(seats.insert().values(round_id=round_id, seat=seat, name=settings.host_name,
                                                       token_hash=hash_token(token), is_host=True, joined_at=now))
                    self._event(conn, round_id, "seats", {"seat": seat, "name": settings.host_name})
                break
            except IntegrityError:  # a code already in use: draw another
                continue
        else:  # pragma: no cover - 31**6 codes
            raise WrongPhase("暫時無法開局，請再試一次。")
        self._notify()
        return {"code": code, "host_token": token, "seat": seat}

    def join(self, code: str, name: Any) -> dict[str, Any]:
        """Take the next free seat with a name; 409 when the table is full or the deal has begun.

        Names are compared as normalised (fields.clean_name), and the database holds one per round.
        """
        name = clean_name(name, "name", "名號")
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
            except IntegrityError:  # two joined at once and took the same seat (or name): look again
                continue
        raise WrongPhase("座位剛被別人坐了，請再試一次。")

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
            graded = set(conn.execute(select(grades.c.seat).where(grades.c.round_id == row.id)).scalars())
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
                 "submitted": bool(submitted.get(s.seat, False)), "graded": s.seat in graded}
                for s in seat_rows
            ],
            "commitment": row.commitment,
            "count_tile": self._count_tile(row),
            "first_seat": row.first_seat,
            "turn_order": _turn_order(row.first_seat) if row.first_seat else None,
            "created_at": iso(row.created_at),
            "dealt_at": iso(row.dealt_at),
            "published_at": iso(row.published_at),
            "last_event": last_event or 0,
            "me": None,
            **self.club_info(row),
        }
        if viewer is not None:
            info["me"] = {"seat": viewer.seat, "name": viewer.name, "is_host": viewer.is_host,
                          "plays": viewer.plays}
        return info

    # -- the deal and the hands --

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
            rhymes = self._draw_rhymes(row, deal.salt, deal.hands)  # 韻牌, drawn with the deal
            now = utcnow()
            claimed = conn.execute(
                rounds.update().where(rounds.c.id == row.id, rounds.c.phase == "lobby").values(
                    phase="dealt", commitment=deal.commitment, salt=deal.salt, stack="".join(deal.stack),
                    count_char=deal.count_tile.char, count_strokes=deal.count_tile.strokes,
                    first_seat=deal.first_seat, dealt_at=now,
                    rhymes=json.dumps(rhymes, ensure_ascii=False) if rhymes else None)
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
            if rhymes:  # 韻牌: revealed with the deal
                public["rhymes"] = rhymes
            if row.minutes:  # the clock starts with the deal
                public["deadline"] = iso(deadline_of(now, row.minutes))
            self._event(conn, row.id, "dealt", public)
        self._notify()
        return public

    def hand(self, code: str, viewer: Seat | None) -> dict[str, Any]:
        """One's own 150 tiles in draw order."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            viewer = self._require_player(viewer)
            if row.phase == "lobby":
                raise WrongPhase("還沒抽牌，手上沒有牌。")
            chars = self._hand_chars(conn, row.id, viewer.seat)
        rhyme = (json.loads(row.rhymes) if row.rhymes else {}).get(str(viewer.seat))
        return {"seat": viewer.seat, "tiles": self._tile_dicts(row, chars), "wildcards": row.wildcards,
                "rhyme": rhyme}

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

    # -- drafts and submission (the rules of the round are poetry.rules') --

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
            return {"title": sub.title, "text": sub.text, "form": sub.form,
                    "revision": draft.revision if draft else 0,
                    "updated_at": iso(sub.submitted_at), "submitted": True,
                    "report": json.loads(sub.report) if sub.report else None}
        return {"title": draft.title if draft else "", "text": draft.text if draft else "",
                "form": draft.form if draft else None, "revision": draft.revision if draft else 0,
                "updated_at": iso(draft.updated_at) if draft else None,
                "submitted": False, "report": None}

    def save_draft(self, code: str, viewer: Seat | None, title: Any, text: Any, form: Any = None) -> dict[str, Any]:
        """Save one's draft (and its declared form) as one types; 409 once submitted (until the 詩伯 reopens
        it). The answer carries the round's rule verdict on the draft, by the submission's own function."""
        now = utcnow()
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            viewer = self._require_player(viewer)
            title = clean_text(title, "poem_title", "詩題")
            text = clean_text(text, "text", "詩稿", multiline=True)
            form = declared_form(form)
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
                .values(title=title, text=text, form=form, revision=drafts.c.revision + 1, updated_at=now)
            ).rowcount
            if not updated:
                conn.execute(drafts.insert().values(round_id=row.id, seat=viewer.seat, title=title, text=text,
                                                    form=form, revision=1, updated_at=now))
            revision = conn.execute(select(drafts.c.revision).where(
                drafts.c.round_id == row.id, drafts.c.seat == viewer.seat)).scalar()
            hand = self._hand_chars(conn, row.id, viewer.seat)
        return {"saved": True, "revision": revision, "updated_at": iso(now), "form": form,
                "rule": self._rule_verdict(row, hand, title, text, viewer.seat)}

    def _rule_verdict(self, row, hand: str, title: str, text: str, seat: int | None = None) -> dict[str, Any]:
        """The round's rules on a poem, as the editor shows them and the submission enforces them (the
        composition rule, and the seat's 韻牌 when the round draws rhymes):
        {"violations" (each once), "tiles_used" (title included, as the rule counts)}."""
        is_ping = ping_test(self.tiles_of_round(row), row.rhyme_book)
        violations = check_composition(title, text, hand, row.composition, row.wildcards, is_ping)
        if seat is not None:
            violations += self._rhyme_violations(row, seat, text)
        return {"violations": violations,
                "tiles_used": tiles_used(title, text, hand, row.composition, row.wildcards)}

    def submit(self, code: str, viewer: Seat | None, title: Any, text: Any, form: Any = None) -> dict[str, Any]:
        """Hand in title and poem (and its declared form): the composition rule is enforced (422), the
        checker's report kept."""
        with self.engine.connect() as conn:
            self._round(conn, code)
        viewer = self._require_player(viewer)
        title = clean_text(title, "poem_title", "詩題", required=True)
        text = clean_text(text, "text", "詩稿", required=True, multiline=True)
        require_poem(title, text)
        form = declared_form(form)
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            hand = self._hand_chars(conn, row.id, viewer.seat)
        if row.phase != "dealt":
            raise WrongPhase("還沒抽牌，不能交卷。" if row.phase == "lobby" else "這局已經公佈，不能再交卷。")
        check_clock(deadline_of(row.dealt_at, row.minutes), utcnow())
        violations = self._rule_verdict(row, hand, title, text, viewer.seat)["violations"]
        if violations:
            raise CompositionError("不合這局的作詩規則：" + " ".join(v["message"] for v in violations[:8]),
                                   violations)
        report = poem_report(text, row.rhyme_book, hand, self._checker, form)
        now = utcnow()
        with self.engine.begin() as conn:
            if self._lock_round(conn, row.id) != "dealt":
                raise WrongPhase("這局已經公佈，不能再交卷。")
            existing = conn.execute(select(submissions.c.locked).where(
                submissions.c.round_id == row.id, submissions.c.seat == viewer.seat)).first()
            values = dict(title=title, text=text, form=form, report=json.dumps(report, ensure_ascii=False),
                          locked=True, submitted_at=now, elapsed_seconds=elapsed_seconds(row.dealt_at, now))
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
            conn.execute(drafts.update().where(drafts.c.round_id == row.id, drafts.c.seat == viewer.seat)
                         .values(title=title, text=text, form=form, updated_at=now))
            self._event(conn, row.id, "submitted", {"seat": viewer.seat})
        self._notify()
        return {"submitted": True, "seat": viewer.seat, "submitted_at": iso(now), "report": report,
                "violations": [], "elapsed_seconds": values["elapsed_seconds"]}

    def reopen(self, code: str, viewer: Seat | None, seat: Any) -> dict[str, Any]:
        """The 詩伯 unlocks a submitted poem so its writer can revise it."""
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            self._require_host(viewer, "重開交卷")
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise BadInput("「seat」必須是座位號（整數 1–4）。")
            if self._lock_round(conn, row.id) != "dealt":
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

    # -- publication and grades (the judge dashboard builds on these) --

    def publish(self, code: str, viewer: Seat | None) -> dict[str, Any]:
        """The 詩伯 publishes: poems, hands, salt and stack become public."""
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            self._require_host(viewer, "公佈")
            phase = self._lock_round(conn, row.id)
            if phase != "dealt":
                raise WrongPhase("還沒抽牌，不能公佈。" if phase == "lobby" else "這局已經公佈了。")
            self._refuse_ungraded(conn, row.id)
            blanks = self._grade_blanks(conn, row.id)  # who handed in nothing is 荒牌
            claimed = conn.execute(rounds.update().where(rounds.c.id == row.id, rounds.c.phase == "dealt")
                                   .values(phase="published", published_at=utcnow())).rowcount
            if claimed != 1:
                raise WrongPhase("這局已經公佈了。")
            self._event(conn, row.id, "published", {})
        self._notify()
        return {"published": True, "blank": blanks}

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
            reopened = sub is not None and not sub.locked  # reopened and never handed in again: 未交卷
            if reopened:
                sub = None
            grade = grade_rows.get(s.seat)
            poems.append({
                "seat": s.seat, "name": s.name, "is_host": s.is_host,
                "submitted": sub is not None, "reopened": reopened,
                "title": sub.title if sub else "", "text": sub.text if sub else "",
                "form": sub.form if sub else None,
                "report": json.loads(sub.report) if sub and sub.report else None,
                "grade": grade.grade if grade else None, "comment": grade.comment if grade else None,
            })
        info = self.round_info(code)
        return {
            "code": row.code, "title": row.title, "phase": row.phase, "seats": info["seats"],
            "poems": poems,
            "hands": [{"seat": seat, "tiles": self._tile_dicts(row, chars)}
                      for seat, chars in sorted(hand_rows.items())],
            "commitment": row.commitment,
            "count_tile": self._count_tile(row),
            "first_seat": row.first_seat,
            "turn_order": _turn_order(row.first_seat),
            "host_plays": row.host_plays,
            "reveal": {"salt": row.salt, "order": list(row.stack or "")},
        }

    def set_grade(self, code: str, seat: int, grade: str, comment: Any = "", confirm: Any = False) -> dict[str, Any]:
        """Record the 詩伯's 品 for one seat's poem (replacing an earlier one; after publication, confirmed)."""
        if grade not in GRADES:
            raise BadInput("品第只能是 上品、中品、下品 或 荒牌。")
        comment = clean_text(comment, "comment", "評語", multiline=True)
        seat = clean_seat(seat)
        now = utcnow()
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            if row.phase == "lobby":
                raise WrongPhase("還沒抽牌，無詩可評。")
            self._log_grade_change(conn, row, seat, grade, confirm)
            updated = conn.execute(grades.update().where(grades.c.round_id == row.id, grades.c.seat == seat)
                                   .values(grade=grade, comment=comment, graded_at=now)).rowcount
            if not updated:
                conn.execute(grades.insert().values(round_id=row.id, seat=seat, grade=grade, comment=comment,
                                                    graded_at=now))
            self._event(conn, row.id, "graded", {"seat": seat})
        self._notify()
        return {"seat": seat, "grade": grade, "comment": comment, "graded_at": iso(now)}

    def list_grades(self, code: str) -> list[dict[str, Any]]:
        """Every grade of a round, by seat."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            rows = conn.execute(select(grades).where(grades.c.round_id == row.id).order_by(grades.c.seat)).all()
        return [{"seat": g.seat, "grade": g.grade, "comment": g.comment, "graded_at": iso(g.graded_at)}
                for g in rows]

    def submissions_of(self, code: str) -> list[dict[str, Any]]:
        """Every submission with its report (for the 詩伯's judging; the caller checks who asks)."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            rows = conn.execute(select(submissions).where(submissions.c.round_id == row.id)
                                .order_by(submissions.c.seat)).all()
        return [{"seat": s.seat, "title": s.title, "text": s.text, "form": s.form, "locked": s.locked,
                 "report": json.loads(s.report) if s.report else None, "submitted_at": iso(s.submitted_at),
                 "elapsed_seconds": s.elapsed_seconds}
                for s in rows]

    # -- the event log --

    def _event(self, conn: Connection, round_id: int, kind: str, payload: dict[str, Any]) -> None:
        """Append a public event in the action's transaction (every worker's streams read the table)."""
        conn.execute(events.insert().values(round_id=round_id, kind=kind,
                                            payload=json.dumps(payload, ensure_ascii=False), created_at=utcnow()))
        code = conn.execute(select(rounds.c.code).where(rounds.c.id == round_id)).scalar_one()
        if self.announcer is not None:
            self.announcer.in_transaction(conn, code)
        self._written.codes = {*getattr(self._written, "codes", ()), code}

    def _notify(self) -> None:
        """Wake the event streams once the action's transaction is committed (the announcer's, this process's)."""
        codes, self._written.codes = getattr(self._written, "codes", set()), set()
        if self.announcer is not None and codes:
            self.announcer.committed(codes)
        with self.new_event:
            self.new_event.notify_all()

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
    """The seats in drawing order from the first drawer on, e.g. 3 → [3, 4, 1, 2]."""
    if not first:
        return None
    return [(first - 1 + i) % PLAYERS + 1 for i in range(PLAYERS)]

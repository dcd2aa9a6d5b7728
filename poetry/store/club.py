"""A round as a club plays it: the clock, the 韻牌, withdrawing, grades after publication and rematches.

:class:`ClubActions` is a mixin of :class:`poetry.store.Store`: its methods share the Store's lookups
(``_round``, ``_lock_round``, ``_require_host``, ``_event``) and, like them, check phase and seat, keep
SQL here and ask poetry.rules for the rules themselves (the clock, the 韻牌, the cups).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.engine import Connection

from poetry.errors import NotAllowed, WrongPhase
from poetry.prosody import get_rhyme_book
from poetry.rules import (
    DEFAULT_CUPS,
    check_rhyme,
    deadline_of,
    draw_rhymes,
    ping_groups,
    ping_test,
    poem_lines,
    rhyme_choices,
)
from poetry.store.fields import iso, utcnow
from poetry.store.schema import drafts, grade_changes, grades, hands, rounds, seats, submissions
from poetry.store.tokens import Seat, hash_token, new_code

#: Most rounds a series (an evening's rematches) is followed back through.
MAX_SERIES = 50


def scoped_hash(root: str, code: str) -> str:
    """The token hash a rematch's seat is stored under: unique per round, derived from the first round's.

    >>> len(scoped_hash("ab" * 32, "ABC234"))
    64
    """
    return hashlib.sha256(f"{root}\n{code}".encode()).hexdigest()


class ClubActions:
    """The Store's actions for a club's evening (mixed into Store)."""

    # -- settings and state --

    def club_info(self, row, viewer: Seat | None = None) -> dict[str, Any]:
        """What round_info adds: cups, the clock and its deadline, the 韻牌 drawn, the series' links."""
        deadline = deadline_of(row.dealt_at, row.minutes)
        return {
            "cups": cups_of(row),
            "minutes": row.minutes,
            "deadline": iso(deadline),
            "rhyme_draw": bool(row.rhyme_draw),
            "rhymes": {int(seat): group for seat, group in json.loads(row.rhymes).items()} if row.rhymes else None,
            "previous_code": row.previous_code,
            "next_code": row.next_code,
        }

    def _draw_rhymes(self, row, salt: str, dealt: dict[int, Any]) -> dict[int, str] | None:
        """韻牌 at the deal: each seat's 平聲 group (None when the round does not draw them)."""
        if not row.rhyme_draw:
            return None
        by_char = {t.char: t for t in self.tiles_of_round(row)}
        return draw_rhymes({seat: [by_char[c] for c in chars if c in by_char] for seat, chars in dealt.items()}, salt)

    def _rhyme_violations(self, row, seat: int, text: str) -> list[dict[str, Any]]:
        """The 韻牌's violations of a poem handed in by a seat (empty when the round draws none)."""
        group = (json.loads(row.rhymes) if row.rhymes else {}).get(str(seat))
        if not group:
            return []
        tiles = {t.char: t for t in self.tiles_of_round(row)}

        book = get_rhyme_book("pingshui")  # the 韻牌 are the 30 平聲 groups of the 平水韻

        def groups_of(char: str) -> list[str]:
            # the tile's own group first; a character no book knows has no group, so rhymes with nothing
            return ([tiles[char].rhyme] if char in tiles else []) + list(book.rhyme_groups_of(char))

        return check_rhyme(poem_lines(text), group, ping_test(tiles.values(), "pingshui"), groups_of)

    def rhyme_record(self, code: str) -> list[dict[str, Any]]:
        """The 韻牌 drawn, by seat; after publication also how many 平 tiles of it each hand held and which
        groups it could draw (poetry.rules.rhyme_choices), so anyone can check the draw (/r/<code>/verify)."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            names = {s.seat: s.name for s in conn.execute(select(seats.c.seat, seats.c.name)
                                                           .where(seats.c.round_id == row.id))}
            dealt = {h.seat: h.tiles for h in conn.execute(select(hands).where(hands.c.round_id == row.id))}
        drawn = json.loads(row.rhymes) if row.rhymes else {}
        by_char = {t.char: t for t in self.tiles_of_round(row)}
        record = []
        for seat, group in sorted(drawn.items()):
            entry = {"seat": int(seat), "name": names.get(int(seat), ""), "rhyme": group}
            if row.phase == "published":
                held = [by_char[c] for c in dealt.get(int(seat), "") if c in by_char]
                entry["held"] = ping_groups(held).get(group, [])
                entry["choices"] = rhyme_choices(held)
            record.append(entry)
        return record

    # -- authentication across a series --

    def _seat_by_token(self, conn: Connection, code: str, token: str):
        """The seat row (with its round's code) a token speaks for in this round: its own, or a rematch's."""
        digest = hash_token(token)
        round_id = select(rounds.c.id).where(rounds.c.code == code).scalar_subquery()
        return conn.execute(
            select(seats, rounds.c.code).join(rounds, rounds.c.id == seats.c.round_id)
            .where(or_(seats.c.token_hash == digest, (seats.c.token_root == digest) & (seats.c.round_id == round_id)))
            .order_by(seats.c.round_id.desc())
        ).first()

    # -- withdrawing --

    def withdraw(self, code: str, viewer: Seat | None) -> dict[str, Any]:
        """A player takes back a poem handed in (撤回): before publication and before the 詩伯 graded it."""
        if viewer is None:
            raise NotAllowed("請先入座（用加入連結或私人連結）。")
        if not viewer.plays:
            raise NotAllowed("詩伯這局不抽牌，沒有可撤回的詩。")
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            if self._lock_round(conn, row.id) != "dealt":
                raise WrongPhase("只有抽牌後、公佈前可以撤回。")
            graded = conn.execute(select(grades.c.grade).where(grades.c.round_id == row.id,
                                                                grades.c.seat == viewer.seat)).scalar()
            if graded:
                raise WrongPhase(f"詩伯已評為「{graded}」，不能撤回了；請詩伯重開。")
            sub = conn.execute(select(submissions).where(submissions.c.round_id == row.id,
                                                         submissions.c.seat == viewer.seat)).first()
            if sub is None or not sub.locked:
                raise WrongPhase("你沒有已交的詩，不必撤回。")
            conn.execute(submissions.update().where(submissions.c.round_id == row.id,
                                                    submissions.c.seat == viewer.seat)
                         .values(locked=False, reopened_at=utcnow()))
            conn.execute(drafts.update().where(drafts.c.round_id == row.id, drafts.c.seat == viewer.seat)
                         .values(title=sub.title, text=sub.text, revision=drafts.c.revision + 1, updated_at=utcnow()))
            self._event(conn, row.id, "withdrawn", {"seat": viewer.seat, "name": viewer.name})
        self._notify()
        return {"withdrawn": True, "seat": viewer.seat, "title": sub.title, "text": sub.text}

    # -- publication and grades after it --

    def _refuse_ungraded(self, conn: Connection, round_id: int) -> None:
        """Publishing waits for every poem handed in to have its 品 (409 naming the seats)."""
        handed = {s.seat: s.locked for s in conn.execute(select(submissions.c.seat, submissions.c.locked)
                                                          .where(submissions.c.round_id == round_id))}
        graded = set(conn.execute(select(grades.c.seat).where(grades.c.round_id == round_id)).scalars())
        waiting = sorted(seat for seat, locked in handed.items() if locked and seat not in graded)
        if waiting:
            names = {s.seat: s.name for s in conn.execute(select(seats.c.seat, seats.c.name)
                                                           .where(seats.c.round_id == round_id))}
            listed = "、".join(f"第 {seat} 座{names.get(seat, '')}" for seat in waiting)
            raise WrongPhase(f"還有詩未評品：{listed}。請先評品再公佈。")

    def _grade_blanks(self, conn: Connection, round_id: int) -> list[int]:
        """At publication, every writing seat without a poem handed in becomes 荒牌 (交白卷)."""
        handed = set(conn.execute(select(submissions.c.seat).where(submissions.c.round_id == round_id,
                                                                   submissions.c.locked.is_(True))).scalars())
        writing = set(conn.execute(select(seats.c.seat).where(seats.c.round_id == round_id,
                                                              seats.c.seat >= 1)).scalars())
        blanks = sorted(writing - handed)
        now = utcnow()
        for seat in blanks:
            conn.execute(grades.delete().where(grades.c.round_id == round_id, grades.c.seat == seat))
            conn.execute(grades.insert().values(round_id=round_id, seat=seat, grade="荒牌", comment="未交卷（交白卷）",
                                                graded_at=now))
        return blanks

    def _log_grade_change(self, conn: Connection, row, seat: int, grade: str, confirm: Any) -> None:
        """After publication a 品 changes only when the 詩伯 confirms; the change is logged with its time."""
        if row.phase != "published":
            return
        old = conn.execute(select(grades.c.grade).where(grades.c.round_id == row.id, grades.c.seat == seat)).scalar()
        if old == grade:
            return
        if confirm is not True:
            raise WrongPhase(f"這局已經公佈：確定要把第 {seat} 座的品第從「{old or '未評'}」改為「{grade}」嗎？"
                             "請再確認（confirm）。")
        conn.execute(grade_changes.insert().values(round_id=row.id, seat=seat, old_grade=old, new_grade=grade,
                                                   changed_at=utcnow()))

    def grade_log(self, code: str) -> dict[int, list[dict[str, Any]]]:
        """Every 品 changed after publication, by seat: {"from", "to", "at"}, oldest first."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            rows = conn.execute(select(grade_changes).where(grade_changes.c.round_id == row.id)
                                .order_by(grade_changes.c.id)).all()
        log: dict[int, list[dict[str, Any]]] = {}
        for change in rows:
            log.setdefault(change.seat, []).append({"from": change.old_grade, "to": change.new_grade,
                                                    "at": iso(change.changed_at)})
        return log

    def elapsed_of(self, code: str) -> dict[int, float | None]:
        """Seconds from the deal to each seat's poem handed in (the clock's 遲速)."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            return {s.seat: s.elapsed_seconds for s in conn.execute(
                select(submissions.c.seat, submissions.c.elapsed_seconds, submissions.c.locked)
                .where(submissions.c.round_id == row.id)) if s.locked}

    # -- fairness: a playing 詩伯 reads the others' poems only after handing in their own --

    def may_read_poems(self, code: str, viewer: Seat | None) -> bool:
        """Whether the viewer may read the others' poems before publication (the 詩伯, once their own is in)."""
        if viewer is None or not viewer.is_host:
            return False
        if not viewer.plays:
            return True
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            return bool(conn.execute(select(submissions.c.locked).where(
                submissions.c.round_id == row.id, submissions.c.seat == viewer.seat)).scalar())

    def poems_for_host(self, code: str, viewer: Seat | None) -> dict[str, Any]:
        """The poems handed in, as the 詩伯 may read them now (a playing 詩伯: their own until it is in)."""
        self._require_host(viewer, "讀已交的詩")
        fair = self.may_read_poems(code, viewer)
        poems = [{"seat": s["seat"], "title": s["title"], "text": s["text"],
                  "elapsed_seconds": s.get("elapsed_seconds")}
                 for s in self.submissions_of(code) if s["locked"] and (fair or s["seat"] == viewer.seat)]
        return {"poems": poems, "hidden": not fair}

    # -- rematch and the series --

    def rematch(self, code: str, viewer: Seat | None) -> dict[str, Any]:
        """Again with the same table: a new round, same settings, same people in the same seats and tokens."""
        with self.engine.begin() as conn:
            row = self._round(conn, code)
            self._require_host(viewer, "再開一局")
            if self._lock_round(conn, row.id) != "published":
                raise WrongPhase("公佈之後才能再開一局。")
            if row.next_code:
                raise WrongPhase(f"這局已經再開過了：新局代碼 {row.next_code}。")
            seat_rows = conn.execute(select(seats).where(seats.c.round_id == row.id)).all()
            now = utcnow()
            new = new_code()
            new_id = conn.execute(rounds.insert().values(
                code=new, title=row.title, rhyme_book=row.rhyme_book, penalty=row.penalty,
                composition=row.composition, wildcards=row.wildcards, host_plays=row.host_plays, phase="lobby",
                tile_set=row.tile_set, created_at=now, cups=row.cups, minutes=row.minutes,
                rhyme_draw=row.rhyme_draw, previous_code=row.code,
            )).inserted_primary_key[0]
            for s in seat_rows:
                root = s.token_root or s.token_hash
                conn.execute(seats.insert().values(round_id=new_id, seat=s.seat, name=s.name, is_host=s.is_host,
                                                   token_hash=scoped_hash(root, new), token_root=root, joined_at=now))
                self._event(conn, new_id, "seats", {"seat": s.seat, "name": s.name})
            conn.execute(rounds.update().where(rounds.c.id == row.id).values(next_code=new))
            self._event(conn, row.id, "rematch", {"code": new})
        self._notify()
        return {"code": new, "previous_code": row.code}

    def series(self, code: str) -> list[str]:
        """The codes of a round's series (its rematches before it, itself, and after it), oldest first."""
        with self.engine.connect() as conn:
            row = self._round(conn, code)
            codes = [row.code]
            back, forward = row.previous_code, row.next_code
            while back and len(codes) < MAX_SERIES:
                earlier = conn.execute(select(rounds.c.code, rounds.c.previous_code)
                                       .where(rounds.c.code == back)).first()
                if earlier is None:
                    break
                codes.insert(0, earlier.code)
                back = earlier.previous_code
            while forward and len(codes) < MAX_SERIES:
                later = conn.execute(select(rounds.c.code, rounds.c.next_code).where(rounds.c.code == forward)).first()
                if later is None:
                    break
                codes.append(later.code)
                forward = later.next_code
        return codes


def cups_of(row) -> dict[str, int]:
    """The round's cups per 品 (the default for rounds opened before cups were numbers)."""
    cups = dict(DEFAULT_CUPS)
    if getattr(row, "cups", None):
        cups.update(json.loads(row.cups))
    return cups


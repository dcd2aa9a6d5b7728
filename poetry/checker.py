"""The regulated-verse checker: ``check_poem(text) -> CheckResult``, every character judged.

The checker reads a poem (簡 or 繁), finds its form (五言律詩, 七言絕句, 五言排律, 六言, 四言 …),
the pattern that fits it best (平起/仄起, 首句入韻 or not) and its rhyme group, then judges each
position the way the tradition does:

- 二四六分明: the 2nd, 4th (and 6th) chars and the last follow the pattern; 一三五不論: the others
  are free, except where a free char makes 孤平 (a 平-ending line left with one 平 besides its rhyme:
  仄平仄仄平, 仄仄仄平仄仄平) or 三平尾 (the last three 平);
- the accepted 拗救: 孤平拗救 in the line itself (仄平平仄平, 仄仄仄平平仄平), 對句相救 of 大拗 (出句
  4th/七言 6th char 仄, saved by the 對句's 3rd/七言 5th char 平) and 小拗 (出句 3rd/5th 仄), and
  特拗 平平仄平仄 / 仄仄平平仄平仄 in an 出句;
- 黏 and 對 between lines; one 平聲 rhyme group for the even lines (and line 1 when it rhymes), a
  first line borrowing a neighbouring group (孤雁入群) only noted; 出韻, 撞韻, 重字 (not 萋萋);
- 三仄尾 as a soft note; 仄韻 or breaks in half the lines or more make the poem 古體 (五言古絕, 七言古詩)
  rather than a failed 律詩.

Usage::

    >>> result = check_poem("風急天高猿嘯哀，渚清沙白鳥飛回。無邊落木蕭蕭下，不盡長江滾滾來。"
    ...                     "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。")
    >>> result.form, result.pattern, result.rhyme_group, result.regulated
    ('七言律詩', '仄起首句入韻', '上平十灰', True)

Marks (the 搜韻 tradition), one per character in ``CharReport.mark``:
〇 平 where 平 is required · ● 仄 where 仄 is required · ◎ free position (一三五不論) or 古體 ·
⊗ wrong tone · △ 拗 accepted by a 拗救 · □ rhyme foot in the rhyme group · ✕ rhyme foot out of it ·
◇ fits only by a rare reading (自校: confirm) · ？ not in the rhyme book.

The work is done on small integers (a tone bitmask per character, computed once per book) so that a
七律 takes well under a millisecond; the report objects are built only by ``check_poem``, and the
batch path (``check_lines_brief``) skips them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from poetry.forms import PING, ZE, form_name, line_pattern, pattern_name

# --- the public report ----------------------------------------------------------------------------

STATUSES = ("ok", "free", "wrong", "rescued", "rhyme", "rhyme_wrong", "unknown", "confirm")
KINDS = (
    "tone",
    "rhyme",
    "lone_ping",
    "triple_ping_tail",
    "adhesion",
    "opposition",
    "repeated_char",
    "unknown_char",
    "other",
)
#: Legend of ``CharReport.mark`` by status (ok depends on the required tone).
MARKS = {
    "ok平": "〇",
    "ok仄": "●",
    "free": "◎",
    "wrong": "⊗",
    "rescued": "△",
    "rhyme": "□",
    "rhyme_wrong": "✕",
    "confirm": "◇",
    "unknown": "？",
}


@dataclass(frozen=True)
class CharReport:
    """One character: its tone, what its position requires and how it fares.

    ``status``: ok · free (一三五不論) · wrong · rescued (拗 saved by 拗救) · rhyme · rhyme_wrong ·
    unknown (not in the book) · confirm (fits only by a rare reading: 自校).
    """

    char: str  #: as typed (simplified input stays simplified)
    lookup: str  #: the traditional form looked up
    tone: str  #: "平" "仄" "可平可仄" "?"
    required: str | None  #: "平" / "仄", None where the position is free
    status: str
    groups: tuple[str, ...]  #: rhyme groups of its readings, common first
    in_hand: bool | None  #: None when no hand was given
    mark: str  #: 〇 ● ◎ ⊗ △ □ ✕ ◇ ？ (see the module docstring)


@dataclass(frozen=True)
class LineReport:
    """One line of verse (1-based ``number``)."""

    number: int
    text: str
    chars: tuple[CharReport, ...]
    rhyme_foot: bool  #: the line must rhyme (even lines; line 1 when the pattern says 首句入韻)


@dataclass(frozen=True)
class Violation:
    """A fault (severity "error") or a remark (severity "note") at line/pos, 1-based; pos 0 = whole line."""

    line: int
    pos: int
    kind: str  #: tone rhyme lone_ping triple_ping_tail adhesion opposition repeated_char unknown_char other
    severity: str  #: "error" | "note"
    message: str  #: Chinese, e.g. 「第三句第四字『山』應仄而平」
    suggestions: tuple[str, ...] = ()  #: chars of the right tone (or rhyme) that fit, the hand's first


@dataclass(frozen=True)
class CheckResult:
    """The whole judgement of one poem."""

    title: str | None
    form: str  #: 七言律詩 五言絕句 五言排律 七言古詩 五言古絕 六言絕句 四言詩 雜言 …
    chars_per_line: int | None  #: None for 雜言
    line_count: int
    pattern: str | None  #: 仄起首句入韻 …, None for forms without one
    rhyme_book: str
    rhyme_group: str | None  #: e.g. 下平七陽
    regulated: bool  #: 合律 (after accepted 拗救)
    lines: tuple[LineReport, ...]
    violations: tuple[Violation, ...]
    notes: tuple[str, ...]  #: soft observations: 拗救 found, why the poem is 古體 …
    summary: str  #: one Chinese sentence


# --- per-character tone codes -------------------------------------------------------------------
# bit 1: a common 平 reading · 2: a common 仄 reading · 4: a rare 平 reading · 8: a rare 仄 reading ·
# 16: not in the book (unknown or guessed from Mandarin): fits anything, marked ？

_CP, _CZ, _RP, _RZ, _UNK = 1, 2, 4, 8, 16
_ANY_P = _CP | _RP | _UNK
_ANY_Z = _CZ | _RZ | _UNK


class _Entry:
    """What the checker needs of one character, computed once per book."""

    __slots__ = ("code", "tone", "groups", "ping", "common_ping", "lookup")

    def __init__(self, code: int, tone: str, groups: tuple, ping: frozenset, common_ping: frozenset, lookup: str):
        self.code = code
        self.tone = tone
        self.groups = groups  #: all groups, common first
        self.ping = ping  #: 平聲 groups of any reading
        self.common_ping = common_ping  #: 平聲 groups of common readings
        self.lookup = lookup


class _Table:
    """Memoised char → _Entry for one rhyme book."""

    def __init__(self, book) -> None:
        self.book = book
        self.entries: dict[str, _Entry] = {}
        self._tone_chars: dict[str, tuple[str, ...]] = {}

    def entry(self, char: str) -> _Entry:
        e = self.entries.get(char)
        if e is None:
            e = self.entries[char] = self._build(char)
        return e

    def _build(self, char: str) -> _Entry:
        info = self.book.lookup(char)
        tone = info.tone.value
        if info.guessed or not info.readings:
            return _Entry(_UNK, tone, (), frozenset(), frozenset(), char)
        code = 0
        ping: set[str] = set()
        common_ping: set[str] = set()
        for r in info.readings:
            is_ping = r.tone.value == PING
            if r.common:
                code |= _CP if is_ping else _CZ
            else:
                code |= _RP if is_ping else _RZ
            if is_ping:
                ping.add(r.group)
                if r.common:
                    common_ping.add(r.group)
        groups = tuple(dict.fromkeys(r.group for r in info.readings))
        return _Entry(code, tone, groups, frozenset(ping), frozenset(common_ping), char)

    def merged(self, chars: tuple[str, ...]) -> _Entry:
        """A simplified char standing for several traditional ones: the chosen form's readings count,
        the others' are accepted as rare (自校)."""
        first = self.entry(chars[0])
        code = first.code
        ping = set(first.ping)
        groups = list(first.groups)
        for other in chars[1:]:
            e = self.entry(other)
            if e.code & _UNK:
                continue
            code |= ((e.code & 3) << 2) | (e.code & 12)
            ping |= e.ping
            groups += [g for g in e.groups if g not in groups]
        if code == first.code:
            return first
        if code & _UNK and code & 15:
            code &= ~_UNK
        return _Entry(code, first.tone, tuple(groups), frozenset(ping), first.common_ping, first.lookup)

    def chars_of_tone(self, tone: str) -> tuple[str, ...]:
        """Common chars of one tone, most used first (for suggestions): the tops of every group."""
        chars = self._tone_chars.get(tone)
        if chars is None:
            book = self.book
            names = [g for g in book.groups if (g[1] == "平") == (tone == PING)]
            columns = [book.chars_in_group(g)[:40] for g in names]
            seen: dict[str, None] = {}
            want = _CP if tone == PING else _CZ
            for depth in range(40):
                for col in columns:
                    if depth < len(col):
                        c = col[depth]
                        e = self.entry(c)
                        if e.code & 3 == want:  # only chars of that tone alone
                            seen.setdefault(c, None)
            chars = self._tone_chars[tone] = tuple(seen)
        return chars


_TABLES: dict[int, _Table] = {}


def _table_for(book) -> _Table:
    table = _TABLES.get(id(book))
    if table is None or table.book is not book:
        table = _TABLES[id(book)] = _Table(book)
    return table


def _resolve_book(rhyme_book):
    if isinstance(rhyme_book, str) or rhyme_book is None:
        from poetry.prosody import get_rhyme_book

        return get_rhyme_book(rhyme_book or "pingshui")
    return rhyme_book


# --- the analysis ---------------------------------------------------------------------------------

_NUM = "一二三四五六七八九十"


def _cn(n: int) -> str:
    """Chinese numeral for line and position numbers: 3 → 三, 12 → 十二, 20 → 二十."""
    if n <= 10:
        return _NUM[n - 1]
    if n < 20:
        return "十" + _NUM[n - 11]
    tens, ones = divmod(n, 10)
    return _NUM[tens - 1] + "十" + (_NUM[ones - 1] if ones else "")


def _where(line: int, pos: int) -> str:
    return f"第{_cn(line)}句第{_cn(pos)}字"


class _Analysis:
    """The result of the fast core: plain lists, turned into a CheckResult only when asked."""

    __slots__ = (
        "form",
        "length",
        "pattern",
        "group",
        "regulated",
        "statuses",
        "required",
        "rhyme_lines",
        "violations",
        "notes",
        "ancient",
    )

    def __init__(self) -> None:
        self.form = ""
        self.length: int | None = None
        self.pattern: str | None = None
        self.group: str | None = None
        self.regulated = False
        self.statuses: list[list[str]] = []
        self.required: list[list[str | None]] = []
        self.rhyme_lines: list[bool] = []
        # (line, pos, kind, severity, message, suggestion spec or None)
        self.violations: list[tuple] = []
        self.notes: list[str] = []
        self.ancient = False


def _fits(code: int, tone: str) -> str:
    """Status of a char at a position requiring ``tone``: ok, confirm (rare reading) or wrong."""
    if code & _UNK:
        return "unknown"
    if tone == PING:
        if code & _CP:
            return "ok"
        return "confirm" if code & _RP else "wrong"
    if code & _CZ:
        return "ok"
    return "confirm" if code & _RZ else "wrong"


def _choose_group(entries_feet: list[_Entry]) -> tuple[str | None, bool]:
    """The 平聲 group most even-line feet share (common readings weigh more); and whether the poem
    rhymes in 仄 (most feet can only be 仄)."""
    votes: dict[str, float] = {}
    only_ze = 0
    for e in entries_feet:
        if not (e.code & _ANY_P):
            only_ze += 1
            continue
        for g in e.ping:
            votes[g] = votes.get(g, 0.0) + (1.0 if g in e.common_ping else 0.6)
    if only_ze * 2 > len(entries_feet):
        return None, True
    if not votes:
        return None, False
    best = max(votes.values())
    for e in entries_feet:  # ties: the first foot's group
        for g in e.ping:
            if votes[g] == best:
                return g, False
    return None, False  # pragma: no cover


def _analyse(lines: list[str], entries: list[list[_Entry]], table: _Table) -> _Analysis:
    """Judge a poem given its lines and their per-char entries."""
    a = _Analysis()
    n = len(lines)
    lengths = {len(s) for s in lines}
    length = lengths.pop() if len(lengths) == 1 else None
    a.length = length
    a.statuses = [["free"] * len(s) for s in lines]
    a.required = [[None] * len(s) for s in lines]
    a.rhyme_lines = [False] * n
    if length in (5, 7):
        if n in (4, 8) or (n >= 10 and n % 2 == 0):
            _analyse_regulated(a, lines, entries, table, length)
        else:
            a.form = form_name(length, n)
            a.ancient = True
            a.notes.append(f"{n}句，不合近體句數（絕句四句、律詩八句、排律十句以上雙數），按古體論。")
            _rhyme_ancient(a, lines, entries, table)
    elif length == 6 and n % 2 == 0:
        a.form = form_name(6, n)
        _analyse_six(a, lines, entries, table)
    elif length == 4:
        a.form = form_name(4, n)
        _analyse_four(a, lines, entries, table)
    else:
        a.form = form_name(length if length in (5, 6, 7) else None, n)
        a.ancient = True
        if length is None:
            a.notes.append("句子長短不一，屬雜言，不論平仄。")
        else:
            a.notes.append(f"{a.form}不論近體平仄。")
        _rhyme_ancient(a, lines, entries, table)
    _repeated_chars(a, lines)
    _unknown_chars(a, lines, entries)
    a.regulated = not a.ancient and not any(v[3] == "error" for v in a.violations)
    a.violations.sort(key=lambda v: (v[0], v[1]))
    return a


def _unknown_chars(a: _Analysis, lines: list[str], entries: list[list[_Entry]]) -> None:
    for i, row in enumerate(entries):
        for j, e in enumerate(row):
            if e.code & _UNK:
                a.statuses[i][j] = "unknown"
                a.violations.append(
                    (i + 1, j + 1, "unknown_char", "note", f"{_where(i + 1, j + 1)}『{lines[i][j]}』不在韻書中，平仄未定，請自校。", None)
                )


def _repeated_chars(a: _Analysis, lines: list[str]) -> None:
    """重字: the same char twice in a poem, except reduplications (萋萋, 歷歷)."""
    first: dict[str, tuple[int, int]] = {}
    for i, line in enumerate(lines):
        for j, c in enumerate(line):
            if (j and line[j - 1] == c) or (j + 1 < len(line) and line[j + 1] == c):
                continue  # 疊字
            seen = first.get(c)
            if seen is None:
                first[c] = (i, j)
            else:
                a.violations.append(
                    (i + 1, j + 1, "repeated_char", "note", f"重字：『{c}』已見於{_where(seen[0] + 1, seen[1] + 1)}。", None)
                )


def _rhyme_ancient(a: _Analysis, lines, entries, table) -> None:
    """古體: mark the even-line feet; name the group when they share one (換韻 is allowed)."""
    n = len(lines)
    feet = [entries[i][-1] for i in range(1, n, 2)]
    group, ze = _choose_group(feet)
    a.group = group
    for i in range(1, n, 2):
        a.rhyme_lines[i] = True
        a.statuses[i][-1] = "rhyme"
    if ze:
        a.notes.append("押仄聲韻。")


def _ending_required_ping(e: _Entry, group: str | None) -> bool:
    return group is not None and group in e.ping


def _line_cost(codes: list[int], std: str, next_codes: list[int] | None, length: int) -> int:
    """Mismatches at the strict positions (2/4/6, not the last) for the DP, with 拗救 already forgiven."""
    cost = 0
    for j in range(1, length - 1, 2):
        c = codes[j]
        if std[j] == PING:
            if not c & _ANY_P:
                # 大拗 at the 4th/6th char of a 仄仄平平仄 line, saved by the 對句's 3rd/5th char 平
                if j == length - 2 and next_codes is not None and next_codes[length - 3] & _ANY_P:
                    continue
                cost += 1
        elif not c & _ANY_Z:
            # 特拗 平平仄平仄: the 4th/6th char 平 with the 3rd/5th 仄
            if j == length - 2 and not codes[length - 3] & _ANY_P:
                continue
            cost += 1
    return cost


def _analyse_regulated(a: _Analysis, lines, entries, table, length: int) -> None:
    n = len(lines)
    codes = [[e.code for e in row] for row in entries]
    feet = [entries[i][-1] for i in range(1, n, 2)]
    group, ze = _choose_group(feet)
    a.group = group
    if ze:
        a.form = form_name(length, n, ancient=True)
        a.ancient = True
        a.notes.append("押仄聲韻，屬古體，不按近體平仄論。")
        for i in range(1, n, 2):
            a.rhyme_lines[i] = True
            a.statuses[i][-1] = "rhyme"
        return

    # Does line 1 rhyme? Its foot in the group (or a neighbour: 孤雁入群), or a 平 it cannot avoid.
    first = entries[0][-1]
    if group is not None and (group in first.ping or (first.ping & table.book.neighbours(group))):
        first_rhymes = True
    else:
        first_rhymes = not (first.code & _ANY_Z)
    ends = [PING if (i % 2 or (i == 0 and first_rhymes)) else ZE for i in range(n)]

    # The keys (2nd-char tones) of the lines by dynamic programming: each line's mismatches with
    # either key, plus a penalty where 黏 or 對 breaks; the penalty (1.5 × the strict positions)
    # makes one inverted line a fault of that line, but lets a whole inverted half (折腰) switch.
    strict = (length - 1) // 2
    penalty = 1.5 * strict
    costs = []
    for i in range(n):
        nxt = codes[i + 1] if i + 1 < n and i % 2 == 0 else None
        costs.append(
            (
                _line_cost(codes[i], line_pattern(length, PING, ends[i]), nxt, length),
                _line_cost(codes[i], line_pattern(length, ZE, ends[i]), nxt, length),
            )
        )
    # state 0 = key 平, 1 = key 仄
    best = [costs[0][0], costs[0][1] + 0.01 * (0 if codes[0][1] & _ANY_Z and not codes[0][1] & _CP else 1)]
    best[0] += 0.01 * (0 if codes[0][1] & _ANY_P and not codes[0][1] & _CZ else 1)
    back: list[tuple[int, int]] = []
    for i in range(1, n):
        flip = i % 2 == 1  # 對 inside a couplet; 黏 between couplets
        new = [0.0, 0.0]
        choice = [0, 0]
        for s in (0, 1):
            expected_prev = (1 - s) if flip else s
            stay = best[expected_prev]
            other = best[1 - expected_prev] + penalty
            if stay <= other:
                new[s], choice[s] = stay + costs[i][s], expected_prev
            else:
                new[s], choice[s] = other + costs[i][s], 1 - expected_prev
        back.append((choice[0], choice[1]))
        best = new
    state = 0 if best[0] <= best[1] else 1
    states = [state]
    for i in range(n - 2, -1, -1):
        state = back[i][state]
        states.append(state)
    states.reverse()
    keys = [PING if s == 0 else ZE for s in states]

    a.form = form_name(length, n)
    a.pattern = pattern_name(keys[0], first_rhymes)
    broken: set[int] = set()
    _judge_lines(a, lines, entries, codes, keys, ends, group, length, table, broken)

    if broken and len(broken) * 2 >= n:
        # Heavy breaks: a 古絕/古詩, not a failed 律詩; keep only the rhyme observations.
        a.ancient = True
        a.form = form_name(length, n, ancient=True)
        a.pattern = None
        listed = "、".join(_cn(i + 1) for i in sorted(broken))
        a.notes.insert(0, f"第{listed}句不合律（{len(broken)}/{n} 句），屬古體，不按近體論。")
        a.violations = [v for v in a.violations if v[2] == "rhyme" and v[3] == "error"]
        a.violations = [(v[0], v[1], v[2], "note", v[4], v[5]) for v in a.violations]
        for i in range(n):
            st = a.statuses[i]
            for j in range(length):
                if st[j] in ("ok", "wrong", "rescued", "confirm"):
                    st[j] = "free"
                a.required[i][j] = None
            if a.rhyme_lines[i] and st[-1] == "rhyme_wrong":
                st[-1] = "rhyme"


def _judge_lines(a, lines, entries, codes, keys, ends, group, length, table, broken) -> None:
    n = len(lines)
    neighbours = table.book.neighbours(group) if group else frozenset()
    L = length
    t3, t4 = L - 3, L - 2  # 0-based index of the 3rd and 4th char of the 五言 core (七言 5th, 6th)
    for i in range(n):
        row = codes[i]
        std = line_pattern(L, keys[i], ends[i])
        st = a.statuses[i]
        req = a.required[i]
        ln = i + 1
        line = lines[i]
        chain_ok = True
        if i:
            expected = (PING if keys[i - 1] == ZE else ZE) if i % 2 else keys[i - 1]
            if keys[i] != expected:
                chain_ok = False
                kind = "opposition" if i % 2 else "adhesion"
                word = "失對" if i % 2 else "失黏"
                rel = "相對" if i % 2 else "相黏"
                a.violations.append(
                    (ln, 2, kind, "error", f"{word}：第{_cn(ln)}句第二字『{line[1]}』應與第{_cn(i)}句第二字『{lines[i - 1][1]}』{rel}。", (i, 1, expected))
                )
                st[1] = "wrong"
                req[1] = expected
                broken.add(i)
        # strict positions: 2, 4, 6 (the last is handled below)
        mism: list[int] = []
        for j in range(1, L - 1, 2):
            need = std[j]
            req[j] = need
            if not chain_ok and j == 1:
                continue
            s = _fits(row[j], need)
            if s == "wrong":
                if j == t4 and need == PING and i % 2 == 0 and i + 1 < n and codes[i + 1][t3] & _ANY_P and std[-1] == ZE:
                    s = "rescued"
                    a.notes.append(f"第{_cn(ln)}句大拗（第{_cn(j + 1)}字『{line[j]}』仄），對句第{_cn(t3 + 1)}字『{lines[i + 1][t3]}』平聲相救。")
                elif j == t4 and need == ZE and std[-1] == ZE and not row[t3] & _ANY_P:
                    s = "rescued"
                    a.notes.append(f"第{_cn(ln)}句特拗（{'平平仄平仄' if L == 5 else '仄仄平平仄平仄'}），可用。")
                else:
                    mism.append(j)
            st[j] = s
        if mism:
            broken.add(i)
            if chain_ok and len(mism) == (L - 1) // 2:
                # the whole line has the other key: a 黏/對 fault of this line
                kind = "opposition" if i % 2 or i == 0 else "adhesion"
                word = "失對" if kind == "opposition" else "失黏"
                a.violations.append(
                    (ln, 2, kind, "error", f"{word}：第{_cn(ln)}句二四{'六' if L == 7 else ''}字平仄與格律全反（應為{std}）。", (i, 1, std[1]))
                )
                for j in mism:
                    st[j] = "wrong"
            else:
                for j in mism:
                    st[j] = "wrong"
                    a.violations.append(
                        (ln, j + 1, "tone", "error", f"{_where(ln, j + 1)}『{line[j]}』應{std[j]}而{std[j] == PING and '仄' or '平'}。", (i, j, std[j]))
                    )
        # the last char: rhyme foot or a 仄 ending
        last = entries[i][-1]
        if ends[i] == PING:
            a.rhyme_lines[i] = True
            req[-1] = PING
            if group is not None and group in last.ping:
                st[-1] = "rhyme" if (group in last.common_ping or not last.code & _RP or last.code & _CP) else "confirm"
            elif last.code & _UNK:
                st[-1] = "unknown"
            elif i == 0 and last.ping & neighbours:
                st[-1] = "rhyme"
                a.violations.append(
                    (ln, L, "rhyme", "note", f"首句韻腳『{line[-1]}』屬鄰韻（孤雁入群），可用。", None)
                )
            else:
                st[-1] = "rhyme_wrong"
                where = "、".join(last.groups) or "未知韻"
                a.violations.append(
                    (ln, L, "rhyme", "error", f"出韻：{_where(ln, L)}韻腳『{line[-1]}』屬{where}，不在{group or '本韻'}。", (i, L - 1, "rhyme"))
                )
        else:
            req[-1] = ZE
            s = _fits(last.code, ZE)
            if s == "wrong":
                broken.add(i)
                clash = "，與韻腳同韻（撞韻）" if group and group in last.ping else ""
                a.violations.append(
                    (ln, L, "tone", "error", f"{_where(ln, L)}『{line[-1]}』應仄而平{clash}：不入韻的句子以仄聲收尾。", (i, L - 1, ZE))
                )
            elif group and group in last.ping:
                a.violations.append((ln, L, "rhyme", "note", f"撞韻：{_where(ln, L)}『{line[-1]}』可讀入{group}，與韻腳同韻。", None))
            st[-1] = s
        # free positions and the rules that bind them
        tail = std[t3:]
        if tail == "仄平平" and not row[t3] & _ANY_Z and not row[t4] & _ANY_Z and not row[-1] & _ANY_Z:
            # 三平尾
            st[t3] = "wrong"
            req[t3] = ZE
            broken.add(i)
            a.violations.append(
                (ln, t3 + 1, "triple_ping_tail", "error", f"三平尾：第{_cn(ln)}句末三字『{line[t3:]}』皆平，第{_cn(t3 + 1)}字宜仄。", (i, t3, ZE))
            )
        elif tail == "仄仄平":
            # 孤平: a 平平仄仄平 line left with one 平 besides its rhyme
            pings = [j for j in range(L - 1) if row[j] & _ANY_P]
            lone = L - 5  # 五言 1st char, 七言 3rd
            if len(pings) <= 1:
                st[lone] = "wrong"
                req[lone] = PING
                broken.add(i)
                a.violations.append(
                    (ln, lone + 1, "lone_ping", "error", f"犯孤平：第{_cn(ln)}句除韻腳外只有一個平聲字，第{_cn(lone + 1)}字『{line[lone]}』宜平（或第{_cn(t3 + 1)}字用平聲相救）。", (i, lone, PING))
                )
            elif not row[lone] & _ANY_P and row[t3] & _ANY_P and len([j for j in pings if j != t3]) <= 1:
                # 孤平拗救: the 3rd (七言 5th) char 平 saves the line
                st[lone] = "rescued"
                a.notes.append(f"第{_cn(ln)}句孤平拗救：第{_cn(lone + 1)}字『{line[lone]}』仄，第{_cn(t3 + 1)}字『{line[t3]}』平聲自救。")
        elif tail == "平平仄":
            # 小拗: the 3rd (七言 5th) char 仄 in a 仄仄平平仄 line
            if not row[t3] & _ANY_P and st[t4] != "rescued":
                if i % 2 == 0 and i + 1 < n and codes[i + 1][t3] & _ANY_P:
                    st[t3] = "rescued"
                    a.notes.append(f"第{_cn(ln)}句小拗（第{_cn(t3 + 1)}字『{line[t3]}』仄），對句第{_cn(t3 + 1)}字『{lines[i + 1][t3]}』平聲相救。")
        elif tail == "平仄仄":
            if not row[t3] & _ANY_P and not row[t4] & _ANY_P and not row[-1] & _ANY_P:
                a.violations.append(
                    (ln, t3 + 1, "other", "note", f"三仄尾：第{_cn(ln)}句末三字『{line[t3:]}』皆仄，可用，聲調稍促。", None)
                )


def _analyse_six(a: _Analysis, lines, entries, table) -> None:
    """六言: 2/4/6 alternate, so a line's key follows its ending (平平仄仄平平 / 仄仄平平仄仄)."""
    n = len(lines)
    feet = [entries[i][-1] for i in range(1, n, 2)]
    group, ze = _choose_group(feet)
    a.group = group
    if ze:
        a.ancient = True
        a.notes.append("押仄聲韻，不按六言律句論。")
        return
    first = entries[0][-1]
    first_rhymes = group is not None and group in first.ping
    a.pattern = "首句入韻" if first_rhymes else "首句不入韻"
    for i in range(n):
        end = PING if (i % 2 or (i == 0 and first_rhymes)) else ZE
        std = line_pattern(6, end, end)
        line = lines[i]
        ln = i + 1
        for j in (1, 3):
            a.required[i][j] = std[j]
            s = _fits(entries[i][j].code, std[j])
            a.statuses[i][j] = s
            if s == "wrong":
                a.violations.append(
                    (ln, j + 1, "tone", "error", f"{_where(ln, j + 1)}『{line[j]}』應{std[j]}（六言二四六平仄相間）。", (i, j, std[j]))
                )
        last = entries[i][-1]
        a.required[i][5] = end
        if end == PING:
            a.rhyme_lines[i] = True
            if group and group in last.ping:
                a.statuses[i][5] = "rhyme"
            else:
                a.statuses[i][5] = "rhyme_wrong"
                a.violations.append((ln, 6, "rhyme", "error", f"出韻：{_where(ln, 6)}韻腳『{line[-1]}』不在{group or '本韻'}。", (i, 5, "rhyme")))
        else:
            s = _fits(last.code, ZE)
            a.statuses[i][5] = s
            if s == "wrong":
                a.violations.append((ln, 6, "tone", "error", f"{_where(ln, 6)}『{line[-1]}』應仄而平。", (i, 5, ZE)))


def _analyse_four(a: _Analysis, lines, entries, table) -> None:
    """四言: the even lines rhyme (平 or 仄, one group or neighbours); tone advice only."""
    n = len(lines)
    feet = [entries[i][-1] for i in range(1, n, 2)]
    group, ze = _choose_group(feet)
    if ze:
        votes: dict[str, int] = {}
        for e in feet:
            for g in e.groups:
                votes[g] = votes.get(g, 0) + 1
        group = max(votes, key=votes.get) if votes else None
    a.group = group
    book = table.book
    ok_groups = {group} | set(book.neighbours(group)) if group else set()
    for i in range(n):
        line = lines[i]
        c2, c4 = entries[i][1].code, entries[i][3].code
        if (c2 & 3) == (c4 & 3) and (c2 & 3) in (_CP, _CZ):
            a.notes.append(f"第{_cn(i + 1)}句第二、四字同為{'平' if c2 & _CP else '仄'}聲，四言宜平仄相間（如「關關雎鳩」）。")
        if i % 2:
            a.rhyme_lines[i] = True
            last = entries[i][-1]
            if group and set(last.groups) & ok_groups:
                a.statuses[i][-1] = "rhyme"
            elif last.code & _UNK:
                a.statuses[i][-1] = "unknown"
            else:
                a.statuses[i][-1] = "rhyme_wrong"
                a.violations.append((i + 1, len(line), "rhyme", "error", f"出韻：第{_cn(i + 1)}句韻腳『{line[-1]}』不在{group or '本韻'}。", (i, len(line) - 1, "rhyme")))


# --- entry points -------------------------------------------------------------------------------

_SPLIT = re.compile(r"[，。？！；、,.?!;：:\s\u3000「」『』“”\"'·…—]+")
_FAST_BAD = re.compile(r"[（()《》\[\]［］□〇a-zA-Z0-9]")


def _quick_lines(text: str) -> list[str] | None:
    """Lines of a clean one-paragraph traditional text without parse_poem's heavier work, or None."""
    if _FAST_BAD.search(text) or "\n" in text.strip():
        return None
    lines = [s for s in _SPLIT.split(text) if s]
    if len(lines) < 2:
        return None
    for s in lines:
        for c in s:
            if c in _simplified_only():
                return None
    return lines


_SIMPLIFIED: frozenset | None = None


def _simplified_only() -> frozenset:
    """Chars only simplified script uses (their traditional forms all differ): such text goes to
    parse_poem, which converts it."""
    global _SIMPLIFIED
    if _SIMPLIFIED is None:
        from poetry.data import read_tsv

        _SIMPLIFIED = frozenset(r[0] for r in read_tsv("variants.tsv") if r[1] == "s2t" and r[0] not in r[2].split())
    return _SIMPLIFIED


def _prepare(text: str, table: _Table, fast: bool = False):
    """(title, lines, original_lines, entries) of a text."""
    if fast:
        quick = _quick_lines(text)
        if quick is not None and all(0x3400 <= ord(c) for s in quick for c in s):
            entry = table.entry
            return None, quick, quick, [[entry(c) for c in s] for s in quick]
    from poetry.text import parse_poem

    poem = parse_poem(text)
    lines = list(poem.lines)
    if poem.script == "hans":
        entries = [[table.merged(alts) if len(alts) > 1 else table.entry(alts[0]) for alts in row] for row in poem.alternatives]
    else:
        entries = [[table.entry(c) for c in s] for s in lines]
    return poem.title, lines, list(poem.original_lines), entries


def check_lines_brief(text: str, rhyme_book: Any = "pingshui") -> dict:
    """The batch verdict of one poem: {"form", "regulated", "violations": [{"line","pos","kind","severity"}]}.

    Same judgement as check_poem, without the per-character report or suggestions (for jsonl).

    >>> check_lines_brief("床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。")["form"]
    '五言古絕'
    """
    table = _table_for(_resolve_book(rhyme_book))
    _, lines, _, entries = _prepare(text, table, fast=True)
    a = _analyse(lines, entries, table)
    return {
        "form": a.form,
        "regulated": a.regulated,
        "violations": [{"line": v[0], "pos": v[1], "kind": v[2], "severity": v[3]} for v in a.violations],
    }


def check_poem(text: str, rhyme_book: Any = "pingshui", hand: Iterable[str] | None = None) -> CheckResult:
    """Judge a poem: form, pattern, rhyme, every character's tone and status, faults with fixes.

    ``rhyme_book`` is a name ("pingshui", "xinyun") or a RhymeBook; ``hand`` the player's tiles, whose
    characters are suggested first. Raises MalformedPoemError for text that cannot be read.

    >>> r = check_poem("空山新雨後，天氣晚來秋。明月松間照，清泉石上流。竹喧歸浣女，蓮動下漁舟。隨意春芳歇，王孫自可留。")
    >>> r.form, r.pattern, r.regulated
    ('五言律詩', '平起首句不入韻', True)
    """
    book = _resolve_book(rhyme_book)
    table = _table_for(book)
    title, lines, original, entries = _prepare(text, table)
    a = _analyse(lines, entries, table)
    hand_set = _hand_set(hand)
    used = set("".join(lines))

    line_reports = []
    for i, line in enumerate(lines):
        chars = []
        for j, c in enumerate(line):
            e = entries[i][j]
            status = a.statuses[i][j]
            required = a.required[i][j]
            typed = original[i][j] if j < len(original[i]) else c
            in_hand = None if hand_set is None else (typed in hand_set or c in hand_set)
            chars.append(CharReport(typed, c, e.tone, required, status, e.groups, in_hand, _mark(status, required)))
        line_reports.append(LineReport(i + 1, original[i], tuple(chars), a.rhyme_lines[i]))

    violations = []
    for line_no, pos, kind, severity, message, spec in a.violations:
        suggestions = _suggest(spec, a, table, hand_set, used) if spec and severity == "error" else ()
        violations.append(Violation(line_no, pos, kind, severity, message, suggestions))

    return CheckResult(
        title=title,
        form=a.form,
        chars_per_line=a.length,
        line_count=len(lines),
        pattern=a.pattern,
        rhyme_book=book.name,
        rhyme_group=a.group,
        regulated=a.regulated,
        lines=tuple(line_reports),
        violations=tuple(violations),
        notes=tuple(a.notes),
        summary=_summary(a, len(lines)),
    )


def _mark(status: str, required: str | None) -> str:
    if status == "ok":
        return MARKS["ok平"] if required == PING else MARKS["ok仄"]
    return MARKS[status]


def _hand_set(hand: Iterable[str] | None) -> set[str] | None:
    if hand is None:
        return None
    chars: set[str] = set()
    for tile in hand:
        chars.update(str(tile))
    try:
        from poetry.text import to_traditional

        if chars:
            chars |= set(to_traditional("".join(sorted(chars))))
    except Exception:  # pragma: no cover - OpenCC missing: the hand as given
        pass
    return chars


def _suggest(spec, a: _Analysis, table: _Table, hand: set[str] | None, used: set[str], limit: int = 6) -> tuple[str, ...]:
    """A handful of chars for the faulty position: of the right tone, or of the rhyme group for a foot;
    the hand's chars first."""
    _, _, need = spec
    if need == "rhyme":
        if not a.group:
            return ()
        pool = table.book.chars_in_group(a.group)
        fits = lambda c: a.group in table.entry(c).common_ping  # noqa: E731
    else:
        pool = table.chars_of_tone(need)
        want = _CP if need == PING else _CZ
        fits = lambda c: table.entry(c).code & 3 == want  # noqa: E731
    out: list[str] = []
    if hand:
        for c in sorted(hand):
            if c not in used and fits(c):
                out.append(c)
                if len(out) >= limit:
                    return tuple(out)
    for c in pool:
        if c not in used and c not in out and fits(c):
            out.append(c)
            if len(out) >= limit:
                break
    return tuple(out)


def _summary(a: _Analysis, n: int) -> str:
    errors = [v for v in a.violations if v[3] == "error"]
    if a.ancient:
        return f"此詩為{a.form}，不按近體格律論。"
    if a.regulated:
        rescued = any("救" in note or "特拗" in note for note in a.notes)
        extra = "（有拗救）" if rescued else ""
        group = f"，押{a.group}" if a.group else ""
        return f"此詩為{a.form}{('，' + a.pattern) if a.pattern else ''}{group}，合律{extra}。"
    return f"此詩為{a.form}，有{len(errors)}處不合律。"

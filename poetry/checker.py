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

Each fault of the full report carries a few replacement characters (``Violation.suggestions``): of the
required tone, or of the rhyme group for a foot, ranked by how well they fit their neighbours (and the
char facing them in the couplet) in Tang verse, from data/suggest_bigrams.tsv, which is read on the
first suggestion only; the hand's characters first, and only them for 集字 (``hand_only``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from poetry.forms import PING, ZE, form_name, line_pattern, pattern_name

# --- the public report ----------------------------------------------------------------------------

STATUSES = ("ok", "free", "wrong", "rescued", "rhyme", "rhyme_wrong", "unknown", "confirm")
KINDS = (
    "tone",
    "rhyme",
    "lone_ping",
    "triple_ping_tail",
    "triple_ze_tail",
    "adhesion",
    "opposition",
    "repeated_char",
    "unknown_char",
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
    kind: str  #: tone rhyme lone_ping triple_ping_tail triple_ze_tail adhesion opposition repeated_char unknown_char
    severity: str  #: "error" | "note"
    message: str  #: Chinese, e.g. 「第三句第四字『山』應仄而平」
    suggestions: tuple[str, ...] = ()  #: ≤ 8 chars of the right tone (or rhyme), best fit first, the hand's first


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
        #: ord(char) → one char standing for its tone code (for str.translate), and code string → masks
        self.code_chars: dict[int, str] = {}
        self.mask_memo: dict[str, tuple[int, int, int, int]] = {}
        #: line costs under both keys, memoised by the line's masks and context
        self.cost_memo: dict[tuple, tuple] = {}
        #: chars not in the book (their entries carry _UNK)
        self.unknown: set[str] = set()

    def entry(self, char: str) -> _Entry:
        e = self.entries.get(char)
        if e is None:
            e = self.entries[char] = self._build(char)
            self.code_chars[ord(char)] = chr(0x30 + e.code)
            if e.code & _UNK:
                self.unknown.add(char)
        return e

    def masks(self, line: str) -> tuple[int, int, int, int]:
        """_masks of a line of chars already looked up, through a memo keyed by their tone codes."""
        key = line.translate(self.code_chars)
        m = self.mask_memo.get(key)
        if m is None:
            m = self.mask_memo[key] = _masks([self.entries[c] for c in line])
        return m

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
            columns = [book.chars_in_group(g)[:40] for g in book.groups]
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
    """Chinese numeral for line and position numbers: 3 → 三, 12 → 十二, 20 → 二十, 105 → 一百零五."""
    if n <= 10:
        return _NUM[n - 1] if n > 0 else "零"
    if n < 20:
        return "十" + _NUM[n - 11]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _NUM[tens - 1] + "十" + (_NUM[ones - 1] if ones else "")
    if n >= 1000:
        return str(n)
    hundreds, rest = divmod(n, 100)
    head = _cn(hundreds) + "百"
    if not rest:
        return head
    return head + ("零" + _cn(rest) if rest < 10 else ("一" + _cn(rest) if rest < 20 else _cn(rest)))


_CN = tuple(_cn(i) if i else "" for i in range(200))


def _where(line: int, pos: int) -> str:
    return f"第{_CN[line] if line < 200 else _cn(line)}句第{_CN[pos] if pos < 200 else _cn(pos)}字"


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


def _choose_group(feet: list[_Entry], first: _Entry | None = None) -> tuple[str | None, bool]:
    """The 平聲 group most even-line feet share (common readings weigh more, line 1's foot breaks
    ties); and whether the poem rhymes in 仄 (most feet can only be 仄)."""
    votes: dict[str, float] = {}
    if first is not None and first.code & _CP:
        for g in first.common_ping:
            votes[g] = 0.3
    only_ze = 0
    for e in feet:
        if not (e.code & _ANY_P):
            only_ze += 1
            continue
        common = e.common_ping
        for g in e.ping:
            votes[g] = votes.get(g, 0.0) + (1.0 if g in common else 0.6)
    if only_ze * 2 > len(feet):
        return None, True
    if not votes:
        return None, False
    if len(votes) == 1:
        return next(iter(votes)), False
    best = max(votes.values())
    for e in feet:  # ties: the first even foot's group
        for g in e.ping:
            if votes[g] == best:
                return g, False
    return None, False  # pragma: no cover


def _analyse(lines: list[str], entries: list[list[_Entry]] | None, table: _Table, detail: bool = True, plain: bool = False) -> _Analysis:
    """Judge a poem given its lines and their per-char entries (``detail``: fill every char's status;
    ``plain``: each entry is the table's own entry of the char written, as for traditional text;
    entries None: plain, every char already in the table, rows built here only where needed)."""
    unknown = plain and bool(table.unknown) and not table.unknown.isdisjoint("".join(lines))
    a = _Analysis()
    n = len(lines)
    length = len(lines[0])
    for s in lines:
        if len(s) != length:
            length = None
            break
    a.length = length
    a.statuses = [["free"] * len(s) for s in lines]
    a.required = [[None] * len(s) for s in lines]
    a.rhyme_lines = [False] * n
    regular = (length == 5 or length == 7) and (n == 4 or n == 8 or (n >= 10 and n % 2 == 0))
    if entries is None:
        known = table.entries
        if regular and not unknown:
            feet = [known[s[-1]] for s in lines]  # the batch path reads only the feet
        else:
            entries = [[known[c] for c in s] for s in lines]
    if entries is not None:
        feet = [row[-1] for row in entries]
    if length == 5 or length == 7:
        if regular:
            _analyse_regulated(a, lines, entries, feet, table, length, detail, plain)
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
    if plain:
        if unknown:
            _unknown_chars(a, lines, entries)
    elif any(e.code & _UNK for row in entries for e in row):
        _unknown_chars(a, lines, entries)
    a.regulated = not a.ancient and not any(v[3] == "error" for v in a.violations)
    if len(a.violations) > 1:
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
    text = "".join(lines)
    seen: set[str] = set()
    dups: dict[str, int] = {}
    add = seen.add
    for c in text:
        if c in seen:
            dups[c] = dups.get(c, 1) + 1
        else:
            add(c)
    if not dups:
        return
    found = []
    for c, count in dups.items():
        if count == 2 and any(c + c in line for line in lines):
            continue  # one 疊字 pair
        first = None
        for i, line in enumerate(lines):
            j = line.find(c)
            while j >= 0:
                if not ((j and line[j - 1] == c) or (j + 1 < len(line) and line[j + 1] == c)):
                    if first is None:
                        first = (i, j)
                    else:
                        found.append((i, j, c, first))
                j = line.find(c, j + 1)
    for i, j, c, (fi, fj) in found:
        a.violations.append((i + 1, j + 1, "repeated_char", "note", f"重字：『{c}』已見於{_where(fi + 1, fj + 1)}。", None))


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


@cache
def _std_masks(length: int, key: str, end: str) -> tuple[str, int, int]:
    """(pattern, bits where it wants 平, bits where it wants 仄) of a standard line."""
    std = line_pattern(length, key, end)
    p = sum(1 << j for j, t in enumerate(std) if t == PING)
    return std, p, ((1 << length) - 1) & ~p


def _masks(row: list[_Entry]) -> tuple[int, int, int, int]:
    """Bitmasks of a line: may be 平, may be 仄 (unknown chars may be both), common 平, common 仄
    (unknown chars count as common both ways)."""
    p = z = cp = cz = 0
    bit = 1
    for e in row:
        code = e.code
        if code & 21:
            p |= bit
            if code & 17:
                cp |= bit
        if code & 26:
            z |= bit
            if code & 18:
                cz |= bit
        bit <<= 1
    return p, z, cp, cz


def _line_costs(L: int, masks: tuple[int, int, int, int], end: str, rescue: bool) -> tuple:
    """((mismatch mask, forgiven mask) under key 平 and 仄, (cost under 平, cost under 仄)) of a line.

    The 拗 accepted here: 大拗 (4th/6th char 仄 in a 仄仄平平仄 line) when ``rescue`` says the 對句's
    3rd/5th char is 平; 特拗 平平仄平仄 (4th/6th 平 with the 3rd/5th 仄) in a 平平平仄仄 line.
    """
    p, z, cp, cz = masks
    t3, t4 = L - 3, L - 2
    b3, b4 = 1 << t3, 1 << t4
    strict = _STRICT[L]
    pair = []
    cost = []
    for key in (PING, ZE):
        std, sp, sz = _std_masks(L, key, end)
        raw = ((sp & ~p) | (sz & ~z)) & strict  # wrong by every reading
        common = ((sp & ~cp) | (sz & ~cz)) & strict  # wrong by the common readings
        forgiven = 0
        if common & b4 and end == ZE:
            if sp & b4:  # 大拗
                if rescue:
                    forgiven = b4
            elif cz & b3:  # 特拗 (the 3rd/5th char 仄 by a common reading)
                forgiven = b4
        mm = raw & ~forgiven
        pair.append((mm, forgiven))
        # a fit only by a rare reading costs a little: the pattern is less likely
        rare = common & ~raw & ~forgiven
        cost.append(mm.bit_count() + (0.4 * rare.bit_count() if rare else 0))
    return tuple(pair), tuple(cost)


_STRICT = {5: 0b01010, 7: 0b0101010}  # 二四(六), not the last char


def _analyse_regulated(a: _Analysis, lines, entries, feet, table, length: int, detail: bool, plain: bool) -> None:
    """五言/七言 絕句, 律詩, 排律: rhyme group, pattern, 黏對 by dynamic programming, every line judged.

    ``feet``: each line's last entry; ``entries`` (every char's) may be None in the batch path."""
    n = len(lines)
    L = length
    group, ze = _choose_group(feet[1::2], feet[0])
    a.group = group
    if ze:
        a.form = form_name(length, n, ancient=True)
        a.ancient = True
        a.notes.append("押仄聲韻，屬古體，不按近體平仄論。")
        for i in range(1, n, 2):
            a.rhyme_lines[i] = True
            a.statuses[i][-1] = "rhyme"
        return

    # Does line 1 rhyme? Its foot in the group, or a 平 it cannot avoid (a neighbour: 孤雁入群).
    first = feet[0]
    # (a foot read 仄 commonly and 平 in the group only by a rare reading, like 不 in 尤, does not rhyme)
    first_rhymes = (
        not (first.code & _ANY_Z)
        or group is not None
        and (group in first.common_ping or (group in first.ping and not first.code & _CZ))
    )
    if plain:
        masks = [table.masks(line) for line in lines]  # traditional text: memoised by tone codes
    else:
        masks = [_masks(row) for row in entries]  # simplified text: merged readings
    t3, t4 = L - 3, L - 2  # 0-based: the 3rd and 4th char of the 五言 core (七言 5th and 6th)
    b3, b4 = 1 << t3, 1 << t4
    strict = _STRICT[L]  # 二四六

    # Mismatches of every line under either key, with the 拗救 forgiven: 大拗 (4th/6th char 仄 in a
    # 仄仄平平仄 line) saved by the 對句's 3rd/5th char 平; 特拗 平平仄平仄 (4th/6th 平, 3rd/5th 仄).
    ends = []
    mism = []  # per line: (mask, forgiven mask) under key 平, under key 仄
    costs = []
    memo = table.cost_memo
    for i in range(n):
        end = PING if (i % 2 or (i == 0 and first_rhymes)) else ZE
        ends.append(end)
        rescue = i % 2 == 0 and i + 1 < n and bool(masks[i + 1][2] & b3)
        key = (L, masks[i], end, rescue)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _line_costs(L, masks[i], end, rescue)
        mism.append(found[0])
        costs.append(found[1])

    # The keys (2nd-char tones) by dynamic programming: mismatches plus a penalty where 黏 or 對
    # breaks; at 1.2 × the strict positions one inverted line stays a fault of that line (two
    # breaks cost more), while a whole inverted half (折腰) switches key once.
    penalty = 1.2 * ((L - 1) // 2)
    c0 = costs[0]
    # ties go to what line 1's 2nd char says
    best0 = c0[0] + (0 if masks[0][0] & 2 else 0.01)
    best1 = c0[1] + (0 if masks[0][1] & 2 else 0.01)
    back = []
    for i in range(1, n):
        ci = costs[i]
        if i % 2:  # 對: the key flips
            s0_same, s1_same = best1, best0
        else:  # 黏: the key stays
            s0_same, s1_same = best0, best1
        alt0, alt1 = s1_same + penalty, s0_same + penalty
        if s0_same <= alt0:
            n0, k0 = s0_same + ci[0], 0
        else:
            n0, k0 = alt0 + ci[0], 1
        if s1_same <= alt1:
            n1, k1 = s1_same + ci[1], 0
        else:
            n1, k1 = alt1 + ci[1], 1
        back.append((k0, k1))
        best0, best1 = n0, n1
    state = 0 if best0 <= best1 else 1
    states = [state] * n
    for i in range(n - 1, 0, -1):
        broke = back[i - 1][state]
        # previous state: what 黏/對 expects from this one, unless this line broke the chain
        prev = (1 - state if i % 2 else state) if not broke else (state if i % 2 else 1 - state)
        states[i - 1] = prev
        state = prev

    keys = [PING if s == 0 else ZE for s in states]
    # Feet split evenly between groups (紅豆生南國 with one foot changed): no telling which is
    # wrong, so each foot of the chosen group is flagged too.
    feet_lines = [i for i in range(n) if ends[i] == PING]
    in_group = [i for i in feet_lines if group is not None and group in feet[i].ping]
    split = len(feet_lines) >= 2 and 0 < len(in_group) * 2 <= len(feet_lines)
    if split:
        strays = "、".join(f"『{lines[i][-1]}』" for i in feet_lines if i not in in_group)
    a.form = form_name(length, n)
    a.pattern = pattern_name(keys[0], first_rhymes)
    neighbours = table.book.neighbours(group) if group else frozenset()
    last = L - 1
    lastbit = 1 << last
    broken: set[int] = set()
    violations = a.violations
    notes = a.notes

    if not detail:
        _judge_brief(a, lines, feet, states, ends, mism, masks, group, neighbours, split, L, broken)
    else:
        P = [m[0] for m in masks]
        Z = [m[1] for m in masks]
        CP = [m[2] for m in masks]
        CZ = [m[3] for m in masks]
        for i in range(n):
            key, end = keys[i], ends[i]
            std, sp, sz = _std_masks(L, key, end)
            mm, forgiven = mism[i][states[i]]
            p, z, cp, cz = P[i], Z[i], CP[i], CZ[i]
            line = lines[i]
            ln = i + 1
            st = a.statuses[i]
            req = a.required[i]
            # 黏 and 對 with the line before
            chain_ok = True
            if i and states[i] != ((1 - states[i - 1]) if i % 2 else states[i - 1]):
                chain_ok = False
                expected = ZE if key == PING else PING
                word, kind, rel = ("失對", "opposition", "相對") if i % 2 else ("失黏", "adhesion", "相黏")
                # no single-char fix: the whole line must follow the other pattern
                violations.append(
                    (
                        ln,
                        2,
                        kind,
                        "error",
                        f"{word}：第{_cn(ln)}句第二字『{line[1]}』應與第{_cn(i)}句第二字『{lines[i - 1][1]}』{rel}，"
                        f"全句宜依「{line_pattern(L, expected, end)}」。",
                        None,
                    )
                )
                broken.add(i)
                mm &= ~2
            for j in range(1, last, 2):
                req[j] = std[j]
                st[j] = _fits(entries[i][j].code, std[j])
            if not chain_ok:
                st[1] = "wrong"
                req[1] = ZE if key == PING else PING
            if forgiven:
                st[t4] = "rescued"
                if sp & b4:
                    notes.append(f"第{_cn(ln)}句大拗（第{_cn(t4 + 1)}字『{line[t4]}』仄），對句第{_cn(t3 + 1)}字『{lines[i + 1][t3]}』平聲相救。")
                else:
                    notes.append(f"第{_cn(ln)}句特拗（{line}：{'平平仄平仄' if L == 5 else '仄仄平平仄平仄'}），可用。")
            inverted = False
            if mm:
                broken.add(i)
                if chain_ok and mm == strict:
                    inverted = True
                    # the whole line has the other key: a 黏/對 fault of this line
                    kind = "opposition" if i % 2 or i == 0 else "adhesion"
                    word = "失對" if kind == "opposition" else "失黏"
                    violations.append(
                        (ln, 2, kind, "error", f"{word}：第{_cn(ln)}句二四{'六' if L == 7 else ''}字平仄與格律全反（應為{std}）。", None)
                    )
                    for j in range(1, last, 2):
                        st[j] = "wrong"
                else:
                    for j in range(1, last, 2):
                        if mm >> j & 1:
                            st[j] = "wrong"
                            need = std[j]
                            violations.append(
                                (ln, j + 1, "tone", "error", f"{_where(ln, j + 1)}『{line[j]}』應{need}而{'仄' if need == PING else '平'}。", (i, j, need))
                            )
            # the last char: a rhyme foot, or a 仄 ending
            foot = feet[i]
            if end == PING:
                a.rhyme_lines[i] = True
                req[last] = PING
                if group is not None and group in foot.ping:
                    st[last] = "rhyme" if (group in foot.common_ping) else "confirm"
                    if split:
                        st[last] = "rhyme_wrong"
                        violations.append(
                            (ln, L, "rhyme", "error", f"韻腳不統一：{_where(ln, L)}『{line[-1]}』屬{group}，與{strays}不同韻，須改其一。", (i, last, "rhyme"))
                        )
                elif foot.code & _UNK:
                    st[last] = "unknown"
                elif i == 0 and foot.ping & neighbours:
                    st[last] = "rhyme"
                    violations.append((ln, L, "rhyme", "note", f"首句韻腳『{line[-1]}』屬鄰韻（孤雁入群），可用。", None))
                else:
                    st[last] = "rhyme_wrong"
                    where = "、".join(foot.groups) or "未知韻"
                    near = "（鄰韻，近體不通押）" if foot.ping & neighbours else ""
                    violations.append(
                        (ln, L, "rhyme", "error", f"出韻：{_where(ln, L)}韻腳『{line[-1]}』屬{where}{near}，不在{group or '本韻'}。", (i, last, "rhyme"))
                    )
            else:
                req[last] = ZE
                s = _fits(foot.code, ZE)
                st[last] = s
                if s == "wrong":
                    broken.add(i)
                    clash = "，又與韻腳同韻（撞韻）" if group and group in foot.ping else ""
                    violations.append(
                        (ln, L, "tone", "error", f"{_where(ln, L)}『{line[-1]}』應仄而平{clash}：不入韻的句子以仄聲收尾。", (i, last, ZE))
                    )
                elif group and group in foot.ping:
                    violations.append((ln, L, "rhyme", "note", f"撞韻：{_where(ln, L)}『{line[-1]}』可讀入{group}，與韻腳同韻。", None))
            # the free positions and the rules that bind them
            tail = "" if inverted else std[t3:]
            if tail == "仄平平":
                if not cz & (b3 | b4 | lastbit):
                    # 三平尾 (judged by the common readings: 空 in 「空悠悠」 is 平)
                    st[t3] = "wrong"
                    req[t3] = ZE
                    broken.add(i)
                    violations.append(
                        (ln, t3 + 1, "triple_ping_tail", "error", f"三平尾：第{_cn(ln)}句末三字『{line[t3:]}』皆平，第{_cn(t3 + 1)}字宜仄。", (i, t3, ZE))
                    )
            elif tail == "仄仄平" and not mm:
                # 孤平: a 平平仄仄平 line left with one 平 besides its rhyme
                lone = L - 5  # 五言 1st char, 七言 3rd
                body = cp & ~lastbit
                if body.bit_count() <= 1:
                    st[lone] = "wrong"
                    req[lone] = PING
                    broken.add(i)
                    violations.append(
                        (ln, lone + 1, "lone_ping", "error", f"犯孤平：第{_cn(ln)}句除韻腳外只有一個平聲字，第{_cn(lone + 1)}字『{line[lone]}』宜平（或第{_cn(t3 + 1)}字用平聲相救）。", (i, lone, PING))
                    )
                elif not cp >> lone & 1 and cp & b3 and (body & ~b3).bit_count() <= 1:
                    # 孤平拗救: the 3rd (七言 5th) char 平 saves the line
                    st[lone] = "rescued"
                    notes.append(f"第{_cn(ln)}句孤平拗救：第{_cn(lone + 1)}字『{line[lone]}』仄，第{_cn(t3 + 1)}字『{line[t3]}』平聲自救。")
            elif tail == "平平仄":
                # 小拗: the 3rd (七言 5th) char 仄 in a 仄仄平平仄 line, saved (or not: 可救可不救) by the 對句
                if not cp & b3 and not forgiven and i % 2 == 0 and i + 1 < n and CP[i + 1] & b3:
                    st[t3] = "rescued"
                    notes.append(f"第{_cn(ln)}句小拗（第{_cn(t3 + 1)}字『{line[t3]}』仄），對句第{_cn(t3 + 1)}字『{lines[i + 1][t3]}』平聲相救。")
            elif tail == "平仄仄":
                if not cp & (b3 | b4 | lastbit):
                    violations.append(
                        (ln, t3 + 1, "triple_ze_tail", "note", f"三仄尾：第{_cn(ln)}句末三字『{line[t3:]}』皆仄，可用，聲調稍促。", None)
                    )

    if broken and len(broken) * 2 >= n:
        # Heavy breaks: a 古絕/古詩, not a failed 律詩; keep only the rhyme observations, as notes.
        a.ancient = True
        a.form = form_name(length, n, ancient=True)
        a.pattern = None
        listed = "、".join(_cn(i + 1) for i in sorted(broken))
        notes.insert(0, f"第{listed}句不合律（{len(broken)}/{n} 句），屬古體，不按近體論。")
        a.violations = [(v[0], v[1], v[2], "note", v[4], None) for v in violations if v[2] == "rhyme" and v[3] == "error"]
        for i in range(n):
            st = a.statuses[i]
            for j in range(L):
                if st[j] in ("ok", "wrong", "rescued", "confirm"):
                    st[j] = "free"
                a.required[i][j] = None
            if st[-1] == "rhyme_wrong":
                st[-1] = "rhyme"


def _judge_brief(a, lines, feet, states, ends, mism, masks, group, neighbours, split, L, broken) -> None:
    """The verdict of every line without statuses, notes or messages (batch mode); the same rules as
    the detailed loop in _analyse_regulated, which tests/test_checker.py holds it to."""
    n = len(lines)
    violations = a.violations
    add = violations.append
    strict = _STRICT[L]
    t3, t4 = L - 3, L - 2
    b3, b4 = 1 << t3, 1 << t4
    last = L - 1
    lastbit = 1 << last
    tail3 = b3 | b4 | lastbit
    lone = L - 5
    prev = None
    for i in range(n):
        s = states[i]
        mm = mism[i][s][0]
        ln = i + 1
        if i and s != ((1 - prev) if i % 2 else prev):
            add((ln, 2, "opposition" if i % 2 else "adhesion", "error", "", None))
            broken.add(i)
            mm &= ~2
            chain_ok = False
        else:
            chain_ok = True
        prev = s
        inverted = False
        if mm:
            broken.add(i)
            if chain_ok and mm == strict:
                inverted = True
                add((ln, 2, "opposition" if i % 2 or i == 0 else "adhesion", "error", "", None))
            else:
                for j in range(1, last, 2):
                    if mm >> j & 1:
                        add((ln, j + 1, "tone", "error", "", None))
        foot = feet[i]
        end = ends[i]
        if end == PING:
            if group is not None and group in foot.ping:
                if split:
                    add((ln, L, "rhyme", "error", "", None))
            elif foot.code & _UNK:
                pass
            elif i == 0 and foot.ping & neighbours:
                add((ln, L, "rhyme", "note", "", None))
            else:
                add((ln, L, "rhyme", "error", "", None))
        else:
            if not foot.code & _ANY_Z:
                broken.add(i)
                add((ln, L, "tone", "error", "", None))
            elif group and group in foot.ping:
                add((ln, L, "rhyme", "note", "", None))
        if inverted:
            continue
        p, z, cp, cz = masks[i]
        # the tail of the line's pattern: s == 0 is key 平
        if end == PING:
            if (s == 0) == (L == 5):  # 平平仄仄平 / 仄仄平平仄仄平: 孤平
                if not mm and (cp & ~lastbit).bit_count() <= 1:
                    broken.add(i)
                    add((ln, lone + 1, "lone_ping", "error", "", None))
            elif not cz & tail3:  # 仄仄仄平平 / 平平仄仄仄平平: 三平尾
                broken.add(i)
                add((ln, t3 + 1, "triple_ping_tail", "error", "", None))
        elif (s == 0) == (L == 5):  # 平平平仄仄 / 仄仄平平平仄仄: 三仄尾
            if not cp & tail3:
                add((ln, t3 + 1, "triple_ze_tail", "note", "", None))


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
#: A clean text: only CJK ideographs, □ gaps and punctuation (no titles or Latin letters).
_CLEAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U000323af□，。？！；、,.?!;：:「」『』“”\"'·…— \u3000]+")
#: Editorial notes 「(明年 一作：年年)」 and the brackets of restored chars 「[龍]」, as parse_poem strips them.
_NOTES = re.compile(r"[（(][^（）()]*[）)]")
_BRACKETS = str.maketrans("", "", "[]［］")


def _quick_lines(text: str) -> list[str] | None:
    """Lines of a one-paragraph traditional text without parse_poem's heavier work, or None (then
    parse_poem reads it, and refuses what it must: too long, no Chinese, one line)."""
    if len(text) > 2000:
        return None
    text = text.strip()
    if "(" in text or "（" in text:
        previous = None
        while previous != text:
            previous, text = text, _NOTES.sub("", text)
    if "[" in text or "［" in text:
        text = text.translate(_BRACKETS)
    if not _CLEAN.fullmatch(text) or not _simplified_only().isdisjoint(text):
        return None
    lines = _SPLIT.split(text)
    if lines and not lines[-1]:
        lines.pop()
    if len(lines) < 2 or not all(lines):
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
    """(title, lines, original_lines, entries, plain) of a text; plain: no simplified chars merged."""
    if fast:
        quick = _quick_lines(text)
        if quick is not None:
            known = table.entries
            chars = set("".join(quick))
            if not known.keys() >= chars:
                for c in chars:
                    table.entry(c)
            return None, quick, quick, None, True  # entries looked up in _analyse where needed
    from poetry.text import parse_poem

    poem = parse_poem(text)
    lines = list(poem.lines)
    if poem.script == "hans":
        entries = [[table.merged(alts) if len(alts) > 1 else table.entry(alts[0]) for alts in row] for row in poem.alternatives]
        return poem.title, lines, list(poem.original_lines), entries, False
    entries = [[table.entry(c) for c in s] for s in lines]
    return poem.title, lines, list(poem.original_lines), entries, True


def check_lines_brief(text: str, rhyme_book: Any = "pingshui") -> dict:
    """The batch verdict of one poem: {"form", "regulated", "violations": [{"line","pos","kind","severity"}]}.

    Same judgement as check_poem, without the per-character report or suggestions (for jsonl).

    >>> check_lines_brief("床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。")["form"]
    '五言古絕'
    """
    table = _table_for(_resolve_book(rhyme_book))
    _, lines, _, entries, plain = _prepare(text, table, fast=True)
    a = _analyse(lines, entries, table, detail=False, plain=plain)
    return {
        "form": a.form,
        "regulated": a.regulated,
        "violations": [{"line": v[0], "pos": v[1], "kind": v[2], "severity": v[3]} for v in a.violations],
    }


def check_poem(
    text: str, rhyme_book: Any = "pingshui", hand: Iterable[str] | None = None, hand_only: bool = False
) -> CheckResult:
    """Judge a poem: form, pattern, rhyme, every character's tone and status, faults with fixes.

    ``rhyme_book`` is a name ("pingshui", "xinyun") or a RhymeBook; ``hand`` the player's tiles, whose
    characters are suggested first; ``hand_only`` (集字) suggests nothing but the hand's characters.
    Each fault's suggestions are ranked by how well they fit their neighbours in Tang verse (see
    ``_suggest``). Raises MalformedPoemError for text that cannot be read.

    >>> r = check_poem("空山新雨後，天氣晚來秋。明月松間照，清泉石上流。竹喧歸浣女，蓮動下漁舟。隨意春芳歇，王孫自可留。")
    >>> r.form, r.pattern, r.regulated
    ('五言律詩', '平起首句不入韻', True)
    """
    book = _resolve_book(rhyme_book)
    table = _table_for(book)
    title, lines, original, entries, plain = _prepare(text, table)
    a = _analyse(lines, entries, table, plain=plain)
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
    context = None
    for line_no, pos, kind, severity, message, spec in a.violations:
        suggestions: tuple[str, ...] = ()
        if spec and severity == "error" and not (hand_only and not hand_set):
            if context is None:
                context = _FixContext(a, lines, entries, table, plain)
            suggestions = _suggest(spec, context, hand_set, used, hand_only)
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
    if not _simplified_only().isdisjoint(chars):  # a simplified hand: its traditional forms too
        from poetry.text import to_traditional

        chars |= set(to_traditional("".join(sorted(chars))))
    return chars


# --- fix suggestions ------------------------------------------------------------------------------
# Candidates of the required tone (by common reading) or of the rhyme group, ranked by a smoothed
# bigram model of Tang verse: log P(c | left neighbour) + log P(right neighbour | c) within the line
# (a neighbour across the 2|2|3 word break weighs less), plus the association with the char facing
# the position in the couplet's other line (對仗), from data/suggest_bigrams.tsv (scripts/build_suggestions.py). The table is read on the first
# suggestion, never by the batch path, and its rows are parsed one by one as they are needed.

SUGGEST_TABLE = "suggest_bigrams.tsv"
#: How many suggestions a fault gets (the editor shows up to 8).
SUGGEST_LIMIT = 8
#: Additive smoothing toward the unigram distribution (tuned on the build's development split).
_SMOOTH = 250.0
#: Frequent chars always considered besides those seen next to the neighbours.
_BACKGROUND = 60
#: Weight of a neighbour across a word break (五言 2|3, 七言 2|2|3): 「悲秋常」 fits 秋 by 悲 more than by 常.
_ACROSS = 0.2
#: Weight and smoothing of the char facing the position in the couplet's other line (對仗: 風急 / 渚清).
_FACING = 0.3
_SMOOTH_FACING = 500.0


def _bonds(length: int, j: int) -> tuple[float, float]:
    """Weights of the left and right neighbour of char j (0-based) in a line of ``length`` chars: 1 inside
    a word (the line's 2+2+3 / 2+3 rhythm), _ACROSS across a break."""
    breaks = (2, 4) if length == 7 else ((2,) if length == 5 else ((2, 4) if length == 6 else (2,)))
    return (_ACROSS if j in breaks else 1.0), (_ACROSS if j + 1 in breaks else 1.0)


class _FitTable:
    """Adjacent-character counts of Tang verse: char → (count, as_left, as_partner), rows of followers,
    predecessors and couplet partners parsed on first use (read-only once built)."""

    def __init__(self, path) -> None:
        self.count: dict[str, int] = {}
        self.as_left: dict[str, int] = {}
        self.as_partner: dict[str, int] = {}
        self._raw: dict[str, tuple[str, str, str]] = {}
        self._followers: dict[str, dict[str, int]] = {}
        self._predecessors: dict[str, dict[str, int]] = {}
        self._partners: dict[str, dict[str, int]] = {}
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("#"):
                    continue
                c, n, left, _right, facing, after, before, partners = line.rstrip("\n").split("\t")
                self.count[c] = int(n)
                self.as_left[c] = int(left)
                self.as_partner[c] = int(facing)
                self._raw[c] = (after, before, partners)
        self.total = sum(self.count.values()) or 1
        self.by_count = tuple(self.count)  # the file lists chars most used first

    @staticmethod
    def _parse(row: str) -> dict[str, int]:
        return {tok[0]: int(tok[1:]) for tok in row.split(" ")} if row else {}

    def followers(self, c: str) -> dict[str, int]:
        row = self._followers.get(c)
        if row is None:
            raw = self._raw.get(c)
            row = self._followers[c] = self._parse(raw[0]) if raw else {}
        return row

    def predecessors(self, c: str) -> dict[str, int]:
        row = self._predecessors.get(c)
        if row is None:
            raw = self._raw.get(c)
            row = self._predecessors[c] = self._parse(raw[1]) if raw else {}
        return row

    def partners(self, c: str) -> dict[str, int]:
        """Chars facing ``c`` at the same place of the other line of a couplet (對仗)."""
        row = self._partners.get(c)
        if row is None:
            raw = self._raw.get(c)
            row = self._partners[c] = self._parse(raw[2]) if raw else {}
        return row


_FIT_TABLES: dict[str, _FitTable] = {}


def _fit_table() -> _FitTable | None:
    """The suggestion table of the current data directory, loaded once (None when it is missing)."""
    from poetry.data import data_path

    path = str(data_path(SUGGEST_TABLE))
    table = _FIT_TABLES.get(path)
    if table is None:
        try:
            table = _FitTable(path)
        except FileNotFoundError:
            return None
        _FIT_TABLES[path] = table
    return table


class _FixContext:
    """What the suggestions of one report share: the poem, its faults, the fit table."""

    def __init__(self, a: _Analysis, lines: list[str], entries, table: _Table, plain: bool) -> None:
        self.a = a
        self.lines = lines
        self.entries = entries
        self.table = table
        self.plain = plain
        self.errors = {(v[0], v[1], v[2]) for v in a.violations if v[3] == "error"}
        self.fit = _fit_table()
        self._safe: dict[tuple, bool] = {}

    def safe(self, i: int, j: int, e: _Entry, c: str) -> bool:
        """Whether a char with entry ``e`` at line i, char j adds no fault the poem did not have
        (a new 孤平, 三平尾, 出韻 …); memoised by tone code, since chars of one code judge alike."""
        key = (i, j, e.code, e.common_ping if j == len(self.lines[i]) - 1 else None)
        ok = self._safe.get(key)
        if ok is None:
            lines = list(self.lines)
            lines[i] = lines[i][:j] + c + lines[i][j + 1 :]
            entries = [list(row) for row in self.entries]
            entries[i][j] = e
            after = _analyse(lines, entries, self.table, detail=False, plain=self.plain)
            new = {(v[0], v[1], v[2]) for v in after.violations if v[3] == "error"} - self.errors
            ok = self._safe[key] = not new
        return ok


def _fit_scores(fit: _FitTable, left: str | None, right: str | None, chars: Iterable[str],
                bonds: tuple[float, float] = (1.0, 1.0), facing: str | None = None) -> dict[str, float]:
    """w₁·log P(c | left) + w₂·log P(right | c) (+ w₃·log P(c | facing) / P(c), the char at the same
    place of the couplet's other line), each smoothed toward the unigram distribution."""
    from math import log

    total = fit.total
    count = fit.count
    beta = _SMOOTH
    after = fit.followers(left) if left else None
    before = fit.predecessors(right) if right else None
    left_n = fit.as_left.get(left, 0) + beta if left else 0.0
    right_p = beta * count.get(right, 0.5) / total if right else 0.0
    scores = {}
    w_left, w_right = bonds
    partners = fit.partners(facing) if facing else None
    facing_n = fit.as_partner.get(facing, 0) + _SMOOTH_FACING if facing else 1.0
    for c in chars:
        p = count.get(c, 0.5) / total
        s = w_left * log((after.get(c, 0) + beta * p) / left_n) if after is not None else w_left * log(p)
        if before is not None:
            s += w_right * log((before.get(c, 0) + right_p) / (fit.as_left.get(c, 0) + beta))
        if partners is not None:
            s += _FACING * log((partners.get(c, 0) / p + _SMOOTH_FACING) / facing_n)
        scores[c] = s
    return scores


def _suggest(spec, ctx: _FixContext, hand: set[str] | None, used: set[str], hand_only: bool = False,
             limit: int = SUGGEST_LIMIT) -> tuple[str, ...]:
    """A handful of chars for the faulty position: of the required tone (by common reading), or of the
    poem's rhyme group for a foot; ranked by fit with the neighbours, the hand's chars first (only
    them when ``hand_only``, 集字); never a char of the poem, and none that adds a fault where others
    do not.

    >>> r = check_poem("風急天高猿嘯哀，渚淺沙白鳥飛回。無邊落木蕭蕭下，不盡長江滾滾來。"
    ...                "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。")
    >>> fix = r.violations[0].suggestions
    >>> len(fix) == 8 and "時" not in fix[:3]
    True
    """
    i, j, need = spec
    a, table, fit = ctx.a, ctx.table, ctx.fit
    line = ctx.lines[i]
    left = line[j - 1] if j > 0 else None
    right = line[j + 1] if j + 1 < len(line) else None
    other = i + 1 if i % 2 == 0 else i - 1  # the couplet's other line
    facing = ctx.lines[other][j] if other < len(ctx.lines) and len(ctx.lines[other]) == len(line) else None
    if need == "rhyme":
        if not a.group:
            return ()
        group = a.group
        fits = lambda e: group in e.common_ping  # noqa: E731
    else:
        want = _CP if need == PING else _CZ
        fits = lambda e: e.code & 3 == want and not e.code & _UNK  # noqa: E731
    entry = table.entry
    from_hand = sorted(c for c in hand if c not in used and fits(entry(c))) if hand else []
    others: list[str] = []
    if not hand_only:
        ranking = _ranking(table, fit, a.group if need == "rhyme" else need, fits, left, right, facing, len(line), j)
        for c in ranking:
            if c not in used and c not in from_hand:
                others.append(c)
                if len(others) >= limit * 3:
                    break
    if fit is not None and len(from_hand) > 1:
        hand_scores = _fit_scores(fit, left, right, from_hand, _bonds(len(line), j), facing)
        from_hand.sort(key=hand_scores.__getitem__, reverse=True)
    ranked = from_hand + others
    # Chars of one tone code judge alike (memoised): keep those that add no fault, unless none can.
    safe = []
    for c in ranked:
        if ctx.safe(i, j, entry(c), c):
            safe.append(c)
            if len(safe) >= limit:
                break
    return tuple((safe or ranked)[:limit])


#: Recent rankings by context (the live editor re-checks a draft at every keystroke): bounded, FIFO.
_RANKINGS: dict[tuple, tuple[str, ...]] = {}
_RANKINGS_MAX = 1024


def _ranking(table: _Table, fit: _FitTable | None, need: str, fits, left, right, facing, length: int, j: int) -> tuple[str, ...]:
    """Every candidate of the tone (or rhyme group) ``need`` that fits, best first, for this context."""
    key = (id(table), id(fit), need, left, right, facing, length, j)
    ranking = _RANKINGS.get(key)
    if ranking is not None:
        return ranking
    if need not in (PING, ZE):  # a rhyme group: all of it, ranked by the left neighbour
        pool: Iterable[str] = table.book.chars_in_group(need)
        right = None
    elif fit is None:
        pool = table.chars_of_tone(need)
    else:  # what Tang poets put next to these neighbours or facing this place, and the most used chars
        near = dict.fromkeys(fit.followers(left)) if left else {}
        if right:
            near.update(dict.fromkeys(fit.predecessors(right)))
        if facing:
            near.update(dict.fromkeys(fit.partners(facing)))
        near.update(dict.fromkeys(fit.by_count[:_BACKGROUND]))
        pool = near
    entry = table.entry
    chars = [c for c in pool if fits(entry(c))]
    if fit is not None:
        scores = _fit_scores(fit, left, right, chars, _bonds(length, j), facing)
        chars.sort(key=scores.__getitem__, reverse=True)
    ranking = tuple(chars)
    if len(_RANKINGS) >= _RANKINGS_MAX:
        try:  # another thread may be evicting too
            del _RANKINGS[next(iter(_RANKINGS))]
        except (KeyError, RuntimeError, StopIteration):
            pass
    _RANKINGS[key] = ranking
    return ranking


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


# --- text and batch output (python -m poetry check) -----------------------------------------------

LEGEND = "圖例：〇 平（合） ● 仄（合） ◎ 可平可仄（一三五不論） ⊗ 不合 △ 拗而有救 □ 韻腳 ✕ 出韻 ◇ 僻讀待自校 ？ 韻書未收"


def format_report(result: CheckResult) -> str:
    """The report as text: each line with its 搜韻 marks under it, then the faults and notes in Chinese.

    >>> print(format_report(check_poem("白日依山盡，黃河入海流。欲窮千里目，更上一層樓。")).splitlines()[1])
    白日依山盡
    """
    head = [result.form]
    if result.pattern:
        head.append(result.pattern)
    if result.rhyme_group:
        head.append(f"押{result.rhyme_group}")
    head.append("合律" if result.regulated else ("古體" if "古" in result.form or result.form == "雜言" else "不合律"))
    title = f"《{result.title}》 " if result.title else ""
    out = [title + " · ".join(head)]
    for line in result.lines:
        out.append(line.text)
        out.append("".join(c.mark for c in line.chars))
    errors = [v for v in result.violations if v.severity == "error"]
    remarks = [v for v in result.violations if v.severity == "note"]
    if errors:
        out.append("")
        out.append("不合之處：")
        for v in errors:
            fix = f"　可改用：{' '.join(v.suggestions)}" if v.suggestions else ""
            out.append(f"  {v.message}{fix}")
    if remarks or result.notes:
        out.append("")
        out.append("附註：")
        out.extend(f"  {v.message}" for v in remarks)
        out.extend(f"  {note}" for note in result.notes)
    out.append("")
    out.append(result.summary)
    out.append(LEGEND)
    return "\n".join(out) + "\n"


def check_jsonl_lines(raw_lines: list[str], rhyme_book: Any = "pingshui") -> list[str]:
    """Batch mode: each input line {"id","title","text"} → one JSON output line
    {"id","form","regulated","violations":[{"line","pos","kind","severity"}]}, or {"id","error"}."""
    import json

    from poetry.errors import PoetryError

    dumps = json.dumps
    loads = json.loads
    book = _resolve_book(rhyme_book)
    out = []
    for raw in raw_lines:
        if not raw.strip():
            continue
        ident = None
        try:
            item = loads(raw)
            if not isinstance(item, dict):
                raise ValueError
            ident = item.get("id")
            text = item.get("text")
            if not isinstance(text, str):
                out.append(dumps({"id": ident, "error": "缺少 text 欄位（詩文字串）。"}, ensure_ascii=False))
                continue
            verdict = check_lines_brief(text, book)
        except PoetryError as exc:
            out.append(dumps({"id": ident, "error": exc.message}, ensure_ascii=False))
            continue
        except ValueError:
            out.append(dumps({"id": ident, "error": "此行不是 JSON 物件。"}, ensure_ascii=False))
            continue
        # the verdict line by hand: every field but the id is a known plain string, int or bool
        found = ", ".join(
            f'{{"line": {v["line"]}, "pos": {v["pos"]}, "kind": "{v["kind"]}", "severity": "{v["severity"]}"}}'
            for v in verdict["violations"]
        )
        regulated = "true" if verdict["regulated"] else "false"
        out.append(f'{{"id": {dumps(ident, ensure_ascii=False)}, "form": "{verdict["form"]}", "regulated": {regulated}, "violations": [{found}]}}')
    return out


def _jsonl_worker(args: tuple[list[str], str]) -> list[str]:
    return check_jsonl_lines(args[0], args[1])


def run_jsonl(raw_lines: list[str], rhyme_book: str, write, workers: int | None = None) -> None:
    """Check a batch, writing output lines in input order; large batches use two processes."""
    import os

    book = _resolve_book(rhyme_book)
    if workers is None:
        workers = min(2, os.cpu_count() or 1) if len(raw_lines) >= 6000 else 1
    if workers <= 1:
        for line in check_jsonl_lines(raw_lines, book):
            write(line + "\n")
        return
    import multiprocessing

    # Look every char up once before forking, so the workers share one warm table.
    table = _table_for(book)
    for char in set("".join(raw_lines)):
        if char >= "\u3400":
            table.entry(char)
    size = 1500
    chunks = [(raw_lines[k : k + size], book.name) for k in range(0, len(raw_lines), size)]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers) as pool:
        for lines in pool.imap(_jsonl_worker, chunks):
            write("\n".join(lines) + ("\n" if lines else ""))

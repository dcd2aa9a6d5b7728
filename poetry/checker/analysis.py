"""What the rules share: the Analysis they fill, their Findings, the wording of places, tone fits, the rhyme group.

The full report (check.py) and the batch verdict run the same rules on an Analysis; with ``detail``
off the rules skip their wording and the per-char statuses of the required positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple

from poetry.checker.report import Kind, LonePing, Severity, Status
from poetry.checker.tables import (
    ANY_PING,
    COMMON_PING,
    COMMON_ZE,
    RARE_PING,
    RARE_ZE,
    UNKNOWN,
    Entry,
)
from poetry.forms import PING, ZE

# The members the rules ask for on every line, bound once: an Enum member looked up on its class costs
# ~70 ns in Python 3.11 (a module global ~6 ns), and the batch path judges some 20,000 poems a second.
FREE, OK, CONFIRM, WRONG, RHYME = Status.FREE, Status.OK, Status.CONFIRM, Status.WRONG, Status.RHYME
RESCUED, RHYME_WRONG, UNKNOWN_STATUS = Status.RESCUED, Status.RHYME_WRONG, Status.UNKNOWN
ERROR, NOTE = Severity.ERROR, Severity.NOTE

# --- wording --------------------------------------------------------------------------------------

_NUM = "一二三四五六七八九十"


def cn_numeral(n: int) -> str:
    """Chinese numeral for line and position numbers.

    >>> cn_numeral(3), cn_numeral(12), cn_numeral(20), cn_numeral(105)
    ('三', '十二', '二十', '一百零五')
    """
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
    head = cn_numeral(hundreds) + "百"
    if not rest:
        return head
    if rest < 10:
        return head + "零" + cn_numeral(rest)
    return head + ("一" + cn_numeral(rest) if rest < 20 else cn_numeral(rest))


_CN = tuple(cn_numeral(i) if i else "" for i in range(200))


def where(line: int, pos: int) -> str:
    """「第三句第四字」 for 1-based line and position.

    >>> where(3, 4)
    '第三句第四字'
    """
    return f"第{_CN[line] if line < 200 else cn_numeral(line)}句第{_CN[pos] if pos < 200 else cn_numeral(pos)}字"


# --- the analysis ---------------------------------------------------------------------------------


class Fix(NamedTuple):
    """Where a fix is wanted (0-based line and char) and what: "平", "仄" or "rhyme" (the poem's group)."""

    line: int
    char: int
    need: str


@dataclass(slots=True)
class Finding:
    """A fault or remark as the rules find it; ``message`` is "" when the analysis words nothing."""

    line: int  #: 1-based
    pos: int  #: 1-based, 0 = the whole line
    kind: Kind
    severity: Severity
    message: str
    fix: Fix | None = None  #: what a suggestion must be, for faults that one char can mend


class Analysis:
    """What the rules found: plain lists, turned into a CheckResult only when asked."""

    __slots__ = (
        "detail", "form", "length", "pattern", "group", "regulated",
        "statuses", "required", "rhyme_lines", "findings", "notes", "ancient", "lone_ping",
    )  # fmt: skip

    def __init__(self, lines: list[str], detail: bool, lone_ping: LonePing = LonePing.WANGLI) -> None:
        self.detail = detail  #: word the findings and fill every required position's status
        self.lone_ping = lone_ping  #: whose 孤平 a 七言 line is judged by
        self.form = ""
        self.length: int | None = None
        self.pattern: str | None = None
        self.group: str | None = None
        self.regulated = False
        if detail:
            self.statuses: list[list[str]] = [[FREE] * len(s) for s in lines]
            self.required: list[list[str | None]] = [[None] * len(s) for s in lines]
            self.rhyme_lines: list[bool] = [False] * len(lines)
        else:  # the brief verdict reads none of them: rows the rules write and no one reads
            self.statuses, self.rhyme_lines = _scratch(len(lines), max(map(len, lines), default=0))
            self.required = self.statuses
        self.findings: list[Finding] = []
        self.notes: list[str] = []
        self.ancient = False

    def error(self, line: int, pos: int, kind: Kind, message: str, fix: Fix | None = None) -> None:
        """Record a fault."""
        self.findings.append(Finding(line, pos, kind, ERROR, message, fix))

    def remark(self, line: int, pos: int, kind: Kind, message: str) -> None:
        """Record a note (not a fault)."""
        self.findings.append(Finding(line, pos, kind, NOTE, message))

    def has_errors(self) -> bool:
        """Whether any finding is a fault."""
        for f in self.findings:
            if f.severity is ERROR:
                return True
        return False


@lru_cache(maxsize=256)
def _scratch(n: int, width: int) -> tuple[list[list], list]:
    """Rows for ``n`` lines of up to ``width`` chars, and a flag per line, shared by every brief analysis
    of that shape: the rules write per-char statuses and the rhyme lines there, the brief verdict reads
    only the findings, so one set of rows serves them all (no per-poem lists to build and free)."""
    return [[None] * width for _ in range(n)], [False] * n


def fits(code: int, tone: str) -> Status:
    """Status of a char at a position requiring ``tone``: ok, confirm (rare reading), wrong or unknown.

    >>> fits(COMMON_PING, "平"), fits(COMMON_ZE | RARE_PING, "平"), fits(COMMON_PING, "仄")
    (<Status.OK: 'ok'>, <Status.CONFIRM: 'confirm'>, <Status.WRONG: 'wrong'>)
    """
    if code & UNKNOWN:
        return UNKNOWN_STATUS
    common, rare = (COMMON_PING, RARE_PING) if tone == PING else (COMMON_ZE, RARE_ZE)
    if code & common:
        return OK
    return CONFIRM if code & rare else WRONG


#: ``fits`` of every tone code (0–31) at a position requiring 平, and 仄: a tuple index in the hot loops.
FITS_PING = tuple(fits(code, PING) for code in range(32))
FITS_ZE = tuple(fits(code, ZE) for code in range(32))


#: An entry's 平聲 groups (of any reading).
_PING_GROUPS = attrgetter("ping")


def choose_group(feet: list[Entry], first: Entry | None = None) -> tuple[str | None, bool]:
    """The 平聲 group most even-line feet share (common readings weigh more, line 1's foot breaks
    ties, then the first even foot's readings in the book's order); and whether the poem rhymes in 仄
    (most feet can only be 仄)."""
    if feet:
        pings = set(map(_PING_GROUPS, feet))
        if len(pings) == 1 and len(only := pings.pop()) == 1:
            # every foot has one 平 reading, in one group: that group, whatever line 1's foot (it weighs 0.3
            # against a foot's 0.6 or 1); asked in C, without the vote
            return next(iter(only)), False
    votes: dict[str, float] = {}
    if first is not None and first.code & COMMON_PING:
        for g in first.common_ping:
            votes[g] = 0.3
    only_ze = 0
    for e in feet:
        if not (e.code & ANY_PING):
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
    for e in feet:  # ties: the first even foot's group, in the book's order of its readings (never a set's)
        for g in e.groups:
            if votes.get(g) == best:
                return g, False
    return None, False  # pragma: no cover

"""What the checker reports: per-character statuses, faults, the whole result, and its text form.

The vocabularies are ``StrEnum`` members, so they compare, hash, print and serialise as their values
(``Status.OK == "ok"``, ``json.dumps`` writes ``"ok"``):

    >>> Status.RESCUED == "rescued", f"{Kind.LONE_PING}", MARKS[Status.FREE]
    (True, 'lone_ping', '◎')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from poetry.forms import PING


class Status(StrEnum):
    """How one character fares at its position (``CharReport.status``)."""

    OK = "ok"  #: the required tone
    FREE = "free"  #: a free position (一三五不論), or any position of a 古體 poem
    WRONG = "wrong"  #: the other tone
    RESCUED = "rescued"  #: 拗 accepted by a 拗救
    RHYME = "rhyme"  #: a rhyme foot in the poem's group
    RHYME_WRONG = "rhyme_wrong"  #: a rhyme foot out of it (出韻)
    UNKNOWN = "unknown"  #: not in the rhyme book
    CONFIRM = "confirm"  #: fits only by a rare reading (自校)


class Verdict(StrEnum):
    """The checker's one word on a poem (``CheckResult.verdict``): every screen and the text report say this.

    >>> Verdict.ANCIENT == "ancient", VERDICT_WORDS[Verdict.ANCIENT_FAULTS]
    (True, '古體・押韻有誤')
    """

    REGULATED = "regulated"  #: 近體 that holds: 合律 (after accepted 拗救)
    ANCIENT = "ancient"  #: read or declared as 古體 (仄韻, 古絕, a long 古詩, 雜言) and its rhyme holds
    ANCIENT_FAULTS = "ancient_faults"  #: 古體 with a rhyme or shape fault
    FAULTS = "faults"  #: 近體 with faults: 未合律


#: The verdict in the 詩伯's words (the editor's badge reads the same words from its strings).
VERDICT_WORDS = {Verdict.REGULATED: "合律", Verdict.ANCIENT: "古體・押韻無誤", Verdict.ANCIENT_FAULTS: "古體・押韻有誤",
                 Verdict.FAULTS: "未合律"}


class Kind(StrEnum):
    """What a fault or remark is about (``Violation.kind``)."""

    TONE = "tone"  #: a 二四六 position or a line's last char of the wrong tone
    RHYME = "rhyme"  #: 出韻, 韻腳不統一, 孤雁出群, 撞韻
    LONE_PING = "lone_ping"  #: 孤平
    TRIPLE_PING_TAIL = "triple_ping_tail"  #: 三平尾
    TRIPLE_ZE_TAIL = "triple_ze_tail"  #: 三仄尾 (a remark)
    ADHESION = "adhesion"  #: 失黏
    OPPOSITION = "opposition"  #: 失對
    REPEATED_CHAR = "repeated_char"  #: 重字
    UNKNOWN_CHAR = "unknown_char"  #: a char the rhyme book does not have
    FORM = "form"  #: a line or a line count that departs from the declared form
    DOUBTFUL_READING = "doubtful_reading"  #: 中華新韻/通韻: a char that fits only by a rare reading (a note)


class LonePing(StrEnum):
    """Whose 孤平 a 七言 line is judged by (the 五言 rule is one)."""

    #: 王力《漢語詩律學》: the 1st char of a 七言 line is free and does not rescue: 仄仄平平仄仄平's
    #: core 平平仄仄平 must keep its own 平 (平仄仄平仄仄平 is 孤平); the default
    WANGLI = "wangli"
    #: the other view: a 平 1st char counts (平仄仄平仄仄平 has two 平 besides the rhyme, no 孤平)
    LENIENT = "lenient"


class Severity(StrEnum):
    """A fault breaks the rules; a note is only remarked on."""

    ERROR = "error"
    NOTE = "note"


STATUSES = tuple(s.value for s in Status)
KINDS = tuple(k.value for k in Kind)
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
_OK, _OK_PING, _OK_ZE = Status.OK, MARKS["ok平"], MARKS["ok仄"]  # bound once: mark_of runs for every char
LEGEND = (
    "圖例：〇 平（合） ● 仄（合） ◎ 可平可仄（一三五不論） ⊗ 不合 △ 拗而有救 □ 韻腳 ✕ 出韻 "
    "◇ 僻讀待自校 ？ 韻書未收"
)


def mark_of(status: str, required: str | None) -> str:
    """The 搜韻 mark of a status: 〇 or ● for ok by the required tone, else MARKS[status].

    >>> mark_of("ok", "仄"), mark_of("rescued", "平")
    ('●', '△')
    """
    if status == _OK:
        return _OK_PING if required == PING else _OK_ZE
    return MARKS[status]


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
    status: Status
    groups: tuple[str, ...]  #: rhyme groups of its readings, common first
    in_hand: bool | None  #: None when no hand was given
    mark: str  #: 〇 ● ◎ ⊗ △ □ ✕ ◇ ？ (see the package docstring)


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
    kind: Kind  #: tone rhyme lone_ping triple_ping_tail triple_ze_tail adhesion opposition repeated_char unknown_char
    severity: Severity  #: "error" | "note"
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
    verdict: Verdict  #: 合律, 古體 (its rhyme holding or not) or 未合律: what every screen says
    lines: tuple[LineReport, ...]
    violations: tuple[Violation, ...]
    notes: tuple[str, ...]  #: soft observations: 拗救 found, why the poem is 古體 …
    summary: str  #: one Chinese sentence


def format_report(result: CheckResult) -> str:
    """The report as text: each line with its 搜韻 marks under it, then the faults and notes in Chinese.

    >>> from poetry.checker import check_poem
    >>> print(format_report(check_poem("白日依山盡，黃河入海流。欲窮千里目，更上一層樓。")).splitlines()[1])
    白日依山盡
    """
    head = [result.form]
    if result.pattern:
        head.append(result.pattern)
    if result.rhyme_group:
        head.append(f"押{result.rhyme_group}")
    head.append(VERDICT_WORDS[result.verdict])
    title = f"《{result.title}》 " if result.title else ""
    out = [title + " · ".join(head)]
    for line in result.lines:
        out.append(line.text)
        out.append("".join(c.mark for c in line.chars))
    errors = [v for v in result.violations if v.severity == Severity.ERROR]
    remarks = [v for v in result.violations if v.severity == Severity.NOTE]
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

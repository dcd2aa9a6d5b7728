"""``analyse``: find the form and ask its rules; the rules of 六言, 四言 and 古體, and of every form.

五言/七言 poems of a 近體 shape go to regulated.py; 六言 and 四言 are judged here, 古體 and 雜言 by
their rhyme only; then 重字 and chars the rhyme book lacks, whatever the form.

    >>> from poetry.checker.reading import prepare
    >>> from poetry.checker.tables import resolve_book, table_for
    >>> table = table_for(resolve_book("pingshui"))
    >>> poem = prepare("關關雎鳩，在河之洲。窈窕淑女，君子好逑。", table)
    >>> a = analyse(poem.lines, poem.entries, table, plain=poem.plain)
    >>> a.form, a.group, a.ancient
    ('四言詩', '下平十一尤', False)
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from operator import attrgetter, itemgetter

from poetry.checker.analysis import ERROR, NOTE, Analysis, Finding, Fix, choose_group, cn_numeral, fits, where
from poetry.checker.regulated import analyse_regulated
from poetry.checker.report import Kind, LonePing, Status
from poetry.checker.tables import COMMON, COMMON_PING, COMMON_ZE, UNKNOWN, BookTable, Entry
from poetry.forms import DECLARED_FORMS, PING, ZE, form_name, is_regulated_shape, line_pattern
from poetry.prosody import ancient_classes

#: A finding's place (line, char): the order the findings are reported in.
_PLACE = attrgetter("line", "pos")
#: A line's last char (taken in C).
_LAST = itemgetter(-1)
#: The tone code of a char the rhyme book lacks (BookTable.code_chars).
_UNKNOWN_CODE = chr(0x30 + UNKNOWN)
#: 重字's kind bound once (a class attribute of an Enum is slow to look up in Python 3.11; the commonest finding).
_REPEATED = Kind.REPEATED_CHAR


def _length_of(lines: list[str]) -> int | None:
    """Chars per line, None when lines differ (雜言)."""
    lengths = set(map(len, lines))
    return lengths.pop() if len(lengths) == 1 else None


def analyse(lines: list[str], entries: list[list[Entry]] | None, table: BookTable, detail: bool = True,
            plain: bool = False, form: str | None = None, fixes: dict | None = None,
            lone_ping: LonePing = LonePing.WANGLI, chars: set[str] | None = None,
            codes: str | None = None) -> Analysis:
    """Judge a poem given its lines and their per-char entries (``detail``: word the findings and fill
    every char's status; ``plain``: each entry is the table's own entry of the char written, as for
    traditional text; entries None: plain, every char already in the table, rows built only where needed,
    with ``fixes`` ((line, char) → Entry: the readings words fix, reading.word_fixes) put in;
    ``form``: the form the poet declared, one of forms.DECLARED_FORMS, judged as declared; ``lone_ping``:
    whose 孤平 a 七言 line is judged by, report.LonePing; ``chars``: the set of the poem's chars, if made;
    ``codes``: the lines joined as tone codes, BookTable.code_chars, if made, every char looked up)."""
    if form is not None:
        if entries is None:
            entries = _rows(lines, table, fixes)
        return analyse_declared(lines, entries, table, detail, plain and not fixes, form, lone_ping)
    if codes is not None:  # a char the book lacks has the code UNKNOWN alone
        unknown = plain and _UNKNOWN_CODE in codes
    else:
        unknown = plain and bool(table.unknown) and not table.unknown.isdisjoint(chars or "".join(lines))
    a = Analysis(lines, detail, lone_ping)
    n = len(lines)
    length = a.length = _length_of(lines)
    regular = is_regulated_shape(length, n)
    if entries is None:
        known = table.entries
        if regular and not unknown:
            feet = list(map(known.__getitem__, map(_LAST, lines)))  # the batch path reads only the feet
            if fixes:
                _fix_feet(feet, length, fixes)
        else:
            entries = _rows(lines, table, fixes)
            plain = plain and not fixes
    if entries is not None:
        feet = [row[-1] for row in entries]
    if regular:
        analyse_regulated(a, lines, entries, feet, table, plain, fixes=fixes, codes=codes)
        a = _long_ancient(a, lines, entries, table, fixes)
    elif length == 6 and n % 2 == 0:
        a.form = form_name(6, n)
        _analyse_six(a, lines, entries)
    elif length == 4:
        a.form = form_name(4, n)
        _analyse_four(a, lines, entries, table)
    else:
        _analyse_ancient(a, lines, entries)
    _repeated_chars(a, lines, chars)
    if plain:
        if unknown:
            _unknown_chars(a, lines, entries)
    elif any(e.code & UNKNOWN for row in entries for e in row):
        _unknown_chars(a, lines, entries)
    a.regulated = not a.ancient and not a.has_errors()
    if len(a.findings) > 1:
        a.findings.sort(key=_PLACE)
    return a


#: An undeclared poem of a 排律's length (ten lines or more) that breaks the 近體 rules is the 古詩 it reads as:
#: 排律 is a form poets name (declared, it is judged as one), while 長恨歌, 桃源行 or 渭川田家 (換韻, 拗 lines,
#: 三平尾) are 七言/五言古詩. Shorter poems keep their faults at their places, with a note when they read as 古體.
ANCIENT_FROM_LINES = 10


def _long_ancient(regulated: Analysis, lines: list[str], entries: list[list[Entry]] | None, table: BookTable,
                  fixes: dict | None) -> Analysis:
    """The 古詩 reading of a long undeclared poem (ANCIENT_FROM_LINES) that the 近體 rules fault: the rhyme only
    (換韻 allowed), with a note of how many 近體 faults it has and how to have them checked; any other poem's
    ``regulated`` analysis as it is."""
    if len(lines) < ANCIENT_FROM_LINES or regulated.ancient or not regulated.has_errors():
        return regulated
    if entries is None:  # the batch path read only the feet
        entries = _rows(lines, table, fixes)
    a = Analysis(lines, regulated.detail, regulated.lone_ping)
    a.length, n = regulated.length, len(lines)
    a.ancient = True
    a.form = form_name(a.length, n, ancient=True)
    faults = sum(f.severity == ERROR for f in regulated.findings)
    a.notes.append(f"{n}句而不合{regulated.form}（{faults}處），未宣告體裁，按{a.form}論，只看押韻（可換韻）；"
                   f"若作排律，可宣告體裁為「{regulated.form}」。")
    rhyme_ancient(a, lines, [row[-1] for row in entries])
    return a


def _fix_feet(feet: list[Entry], length: int, fixes: dict) -> None:
    """Put into ``feet`` the readings words fix at the last char of a line."""
    for (i, j), e in fixes.items():
        if j == length - 1:
            feet[i] = e


def _rows(lines: list[str], table: BookTable, fixes: dict | None) -> list[list[Entry]]:
    """Every char's entry (all in the table already), with the readings words fix."""
    known = table.entries
    rows = [[known[c] for c in s] for s in lines]
    for (i, j), e in (fixes or {}).items():
        rows[i][j] = e
    return rows


def analyse_declared(lines: list[str], entries: list[list[Entry]], table: BookTable, detail: bool, plain: bool,
                     form: str, lone_ping: LonePing = LonePing.WANGLI) -> Analysis:
    """A declared form, judged as declared: every line or line count off its shape is a fault at its place,
    then the form's rules (古體: the rhyme only); the report's form is the declared one."""
    a = Analysis(lines, detail, lone_ping)
    n = len(lines)
    length, count = DECLARED_FORMS[form]
    a.length = _length_of(lines)
    _shape_faults(a, lines, form, length, count)
    if form == "古體":  # no tonal rule; the rhyme is still read
        a.ancient = True
        a.notes.append("宣告為古體：不論平仄，只看押韻（可換韻）。")
        rhyme_ancient(a, lines, [row[-1] for row in entries])
    elif length in (5, 7) and all(len(line) == length for line in lines) and n >= 2:
        analyse_regulated(a, lines, entries, [row[-1] for row in entries], table, plain, declared=True)
    elif length == 6 and a.length == 6 and n % 2 == 0:
        _analyse_six(a, lines, entries)
    elif length == 4 and a.length == 4:
        _analyse_four(a, lines, entries, table)
    else:  # off the declared shape: the rhyme is still read
        rhyme_ancient(a, lines, [row[-1] for row in entries])
    a.form = form
    _repeated_chars(a, lines)
    if any(e.code & UNKNOWN for row in entries for e in row):
        _unknown_chars(a, lines, entries)
    a.regulated = not a.ancient and not a.has_errors()
    a.findings.sort(key=_PLACE)
    return a


def _shape_faults(a: Analysis, lines: list[str], form: str, length: int | None, count: int | None) -> None:
    """體: a line of another length than the declared form's, or another number of lines, is a fault."""
    n = len(lines)
    if length is not None:
        for i, line in enumerate(lines):
            if len(line) != length:
                pos = min(len(line), length + 1)
                message = f"{where(i + 1, pos)}：{form}每句{cn_numeral(length)}字，此句{cn_numeral(len(line))}字。"
                a.error(i + 1, pos, Kind.FORM, message if a.detail else "")
    wanted = count or (10 if form.endswith("排律") else None)
    if wanted is None or (n == wanted if count else n >= wanted and n % 2 == 0):
        return
    need = f"{cn_numeral(count)}句" if count else f"{cn_numeral(wanted)}句以上、雙數"
    message = f"第{cn_numeral(n)}句：{form}應為{need}，此詩{cn_numeral(n)}句。"
    a.error(n, 0, Kind.FORM, message if a.detail else "")


def _analyse_ancient(a: Analysis, lines: list[str], entries: list[list[Entry]]) -> None:
    """古體 and 雜言: not a 近體 shape, so only the rhyme is read."""
    n, length = len(lines), a.length
    a.ancient = True
    if length in (5, 7):
        a.form = form_name(length, n)
        a.notes.append(f"{n}句，不合近體句數（絕句四句、律詩八句、排律十句以上雙數），按古體論。")
    else:
        a.form = form_name(length if length in (5, 6, 7) else None, n)
        a.notes.append("句子長短不一，屬雜言，不論平仄。" if length is None else f"{a.form}不論近體平仄。")
    rhyme_ancient(a, lines, [row[-1] for row in entries])


def rhyme_ancient(a: Analysis, lines: list[str], feet: list[Entry]) -> None:
    """古體: mark the even-line feet; name the group when they share one (換韻 is allowed)."""
    group, ze = choose_group(feet[1::2])
    a.group = group
    for i in range(1, len(lines), 2):
        a.rhyme_lines[i] = True
        a.statuses[i][-1] = Status.RHYME
    if ze:
        a.notes.append("押仄聲韻。")
    _unrhymed_feet(a, lines, feet)


def _unrhymed_feet(a: Analysis, lines: list[str], feet: list[Entry]) -> None:
    """古體 押韻: an even line's foot that rhymes (by 古體 通押, ``prosody.ancient_classes``) with none of the two
    even feet before and after it, nor the odd line before it (which may open a 換韻 stanza), is unrhymed: a fault
    where two or more are, a note to check (自校) where one is (a 多音字 or an old rhyme the book lacks). Chars of
    unknown group, and other books than the 平水韻, are let be."""
    classes = [frozenset().union(*(ancient_classes(g) for g in e.groups)) for e in feet]
    unrhymed = []
    for i in range(1, len(lines), 2):
        near = [classes[j] for j in (i - 4, i - 2, i + 2, i + 4, i - 1) if 0 <= j < len(lines)]
        if classes[i] and not any(not c or classes[i] & c for c in near):
            unrhymed.append(i)
    record = a.error if len(unrhymed) > 1 else a.remark
    for i in unrhymed:
        if len(unrhymed) > 1:
            a.statuses[i][-1] = Status.RHYME_WRONG
        message = f"{where(i + 1, len(lines[i]))}韻腳『{lines[i][-1]}』與前後韻腳皆不相押" + (
            "（古體可換韻、可通押鄰韻，仍須押韻）。" if len(unrhymed) > 1 else "，請自校。")
        record(i + 1, len(lines[i]), Kind.RHYME, message if a.detail else "")


def _unknown_chars(a: Analysis, lines: list[str], entries: list[list[Entry]]) -> None:
    """A char the rhyme book lacks: marked ？, and a note asks the poet to check it (自校)."""
    for i, row in enumerate(entries):
        for j, e in enumerate(row):
            if e.code & UNKNOWN:
                a.statuses[i][j] = Status.UNKNOWN
                message = f"{where(i + 1, j + 1)}『{lines[i][j]}』不在韻書中，平仄未定，請自校。" if a.detail else ""
                a.remark(i + 1, j + 1, Kind.UNKNOWN_CHAR, message)


def _repeated_chars(a: Analysis, lines: list[str], chars: set[str] | None = None) -> None:
    """重字: the same char twice in a poem, except reduplications (萋萋, 歷歷): each later use is noted
    with the place of the first (``chars``: the set of the poem's chars, when made: no repeat if as many)."""
    joined = "".join(lines)
    if chars is not None and len(chars) == len(joined):
        return
    seen: set[str] = set()
    see = seen.add
    repeated = [c for c in joined if c in seen or see(c)]  # set.add returns None: each char seen once
    if not repeated:
        return
    detail, add = a.detail, a.findings.append
    starts = list(accumulate(map(len, lines), initial=0))  # line i is joined[starts[i]:starts[i + 1]]
    for c in dict.fromkeys(repeated):
        first: tuple[int, int] | None = None
        doubled = c + c in joined  # a 疊字 somewhere: only then is each use asked whether it is one
        k = joined.find(c)  # the poem searched once per char, not line by line
        while k >= 0:
            i = bisect_right(starts, k) - 1
            begin, end = starts[i], starts[i + 1]
            # not a 疊字 (the same char next to it in its line); startswith takes no char out of the text
            if not doubled or not (
                (k > begin and joined.startswith(c, k - 1)) or (k + 1 < end and joined.startswith(c, k + 1))
            ):
                if first is None:
                    first = (i, k - begin)
                else:
                    message = f"重字：『{c}』已見於{where(first[0] + 1, first[1] + 1)}。" if detail else ""
                    add(Finding(i + 1, k - begin + 1, _REPEATED, NOTE, message))
            k = joined.find(c, k + 1)


def _analyse_six(a: Analysis, lines: list[str], entries: list[list[Entry]]) -> None:
    """六言: 2/4/6 alternate, so a line's key follows its ending (平平仄仄平平 / 仄仄平平仄仄)."""
    n = len(lines)
    group, ze = choose_group([row[-1] for row in entries[1::2]])
    a.group = group
    if ze:
        a.ancient = True
        a.notes.append("押仄聲韻，不按六言律句論。")
        return
    first_rhymes = group is not None and group in entries[0][-1].ping
    a.pattern = "首句入韻" if first_rhymes else "首句不入韻"
    for i in range(n):
        end = PING if (i % 2 or (i == 0 and first_rhymes)) else ZE
        std = line_pattern(6, end, end)
        line = lines[i]
        ln = i + 1
        for j in (1, 3):
            a.required[i][j] = std[j]
            s = a.statuses[i][j] = fits(entries[i][j].code, std[j])
            if s == Status.WRONG:
                message = f"{where(ln, j + 1)}『{line[j]}』應{std[j]}（六言二四六平仄相間）。"
                a.error(ln, j + 1, Kind.TONE, message, Fix(i, j, std[j]))
        _six_foot(a, i, line, entries[i][-1], end, group)


def _six_foot(a: Analysis, i: int, line: str, last: Entry, end: str, group: str | None) -> None:
    """六言's last char: a rhyme foot in the group, or a 仄 ending."""
    ln = i + 1
    a.required[i][5] = end
    if end == PING:
        a.rhyme_lines[i] = True
        if group and group in last.ping:
            a.statuses[i][5] = Status.RHYME
        else:
            a.statuses[i][5] = Status.RHYME_WRONG
            message = f"出韻：{where(ln, 6)}韻腳『{line[-1]}』不在{group or '本韻'}。"
            a.error(ln, 6, Kind.RHYME, message, Fix(i, 5, "rhyme"))
    else:
        s = a.statuses[i][5] = fits(last.code, ZE)
        if s == Status.WRONG:
            a.error(ln, 6, Kind.TONE, f"{where(ln, 6)}『{line[-1]}』應仄而平。", Fix(i, 5, ZE))


def _analyse_four(a: Analysis, lines: list[str], entries: list[list[Entry]], table: BookTable) -> None:
    """四言: the even lines rhyme (平 or 仄, one group or neighbours); tone advice only."""
    feet = [row[-1] for row in entries[1::2]]
    group, ze = choose_group(feet)
    if ze:
        votes: dict[str, int] = {}
        for e in feet:
            for g in e.groups:
                votes[g] = votes.get(g, 0) + 1
        group = max(votes, key=votes.get) if votes else None
    a.group = group
    ok_groups = {group} | set(table.book.neighbours(group)) if group else set()
    for i, line in enumerate(lines):
        second, fourth = entries[i][1].code & COMMON, entries[i][3].code & COMMON
        if second == fourth and second in (COMMON_PING, COMMON_ZE):
            # 四言 alternates its 2nd and 4th chars (關關雎鳩)
            tone = "平" if second == COMMON_PING else "仄"
            a.notes.append(f"第{cn_numeral(i + 1)}句第二、四字同為{tone}聲，四言宜平仄相間（如「關關雎鳩」）。")
        if i % 2:
            a.rhyme_lines[i] = True
            last = entries[i][-1]
            if group and set(last.groups) & ok_groups:
                a.statuses[i][-1] = Status.RHYME
            elif last.code & UNKNOWN:
                a.statuses[i][-1] = Status.UNKNOWN
            else:
                a.statuses[i][-1] = Status.RHYME_WRONG
                message = f"出韻：第{cn_numeral(i + 1)}句韻腳『{line[-1]}』不在{group or '本韻'}。"
                a.error(i + 1, len(line), Kind.RHYME, message, Fix(i, len(line) - 1, "rhyme"))

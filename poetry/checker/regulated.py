"""The rules of 近體 (五言/七言 絕句, 律詩, 排律), one function each, for the full report and batch alike.

``analyse_regulated`` finds the rhyme group, whether line 1 rhymes, and each line's key (the tone of
its 2nd char) by dynamic programming over the lines, then asks every rule of every line:

- ``judge_chain``: 黏 and 對 with the line before;
- ``judge_positions``: 二四六分明 (the 2nd, 4th, 6th chars), with the 拗 that a 拗救 forgives;
- ``judge_foot``: the last char: a 韻腳 in the group (出韻, 孤雁出群, 韻腳不統一), or a 仄 ending (撞韻);
- ``judge_tail``: 一三五不論 except 孤平 (and 孤平拗救), 三平尾, 小拗 saved by the 對句, 三仄尾;

and finally ``note_ancient_reading``: breaks in half the lines or more read as a 古絕/古詩, said in a note;
the faults stay at their places (the poem is judged as the 近體 its shape is, or as declared).

    >>> from poetry.checker import check_lines_brief
    >>> check_lines_brief("白日依山盡，黃河入海流。欲窮千里目，更上一層樓。")["regulated"]
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from operator import getitem, itemgetter

from poetry.checker.analysis import (
    CONFIRM,
    FITS_PING,
    FITS_ZE,
    RESCUED,
    RHYME,
    RHYME_WRONG,
    UNKNOWN_STATUS,
    WRONG,
    Analysis,
    Fix,
    choose_group,
    cn_numeral,
    where,
)
from poetry.checker.reading import rare_fixes
from poetry.checker.report import Kind, LonePing, Status
from poetry.checker.tables import COMMON_PING, COMMON_ZE, UNKNOWN, BookTable, Entry, Masks, line_masks
from poetry.forms import PING, ZE, form_name, line_pattern, opposite, pattern_name

#: The positions 二四(六) must follow (0-based bits), the last char aside.
_STRICT = {5: 0b01010, 7: 0b0101010}
#: The kinds bound once (a class attribute of an Enum is slow to look up in Python 3.11).
TONE, RHYME_KIND, ADHESION, OPPOSITION = Kind.TONE, Kind.RHYME, Kind.ADHESION, Kind.OPPOSITION
LONE_PING, TRIPLE_PING_TAIL, TRIPLE_ZE_TAIL = Kind.LONE_PING, Kind.TRIPLE_PING_TAIL, Kind.TRIPLE_ZE_TAIL
DOUBTFUL = Kind.DOUBTFUL_READING
WANGLI = LonePing.WANGLI


#: The last three tones of each standard line (the tail rules ask them of every line: a dict, no slicing).
_TAILS = {
    line_pattern(length, key, end): line_pattern(length, key, end)[-3:]
    for length in (5, 7) for key in (PING, ZE) for end in (PING, ZE)
}


@cache
def line_ends(n: int, first_rhymes: bool) -> tuple[str, ...]:
    """Each line's last tone: 平 for the even lines (the rhymes) and line 1 when it rhymes (首句入韻), else 仄.

    >>> "".join(line_ends(4, True)), "".join(line_ends(4, False))
    ('平平仄平', '仄平仄平')
    """
    return tuple(PING if (i % 2 or (i == 0 and first_rhymes)) else ZE for i in range(n))


@cache
def chained_keys(n: int, first: int) -> tuple[int, ...]:
    """The keys (0: 平, 1: 仄) of n lines that keep 黏 and 對 from line 1's key.

    >>> chained_keys(8, 0)
    (0, 1, 1, 0, 0, 1, 1, 0)
    """
    keys = [first]
    for i in range(1, n):
        keys.append(1 - keys[-1] if i % 2 else keys[-1])
    return tuple(keys)


@cache
def standard_masks(length: int, key: str, end: str) -> tuple[str, int, int]:
    """(pattern, bits where it wants 平, bits where it wants 仄) of a standard line.

    >>> standard_masks(5, "平", "平")
    ('平平仄仄平', 19, 12)
    """
    std = line_pattern(length, key, end)
    ping = sum(1 << j for j, t in enumerate(std) if t == PING)
    return std, ping, ((1 << length) - 1) & ~ping


@cache
def line_costs(length: int, masks: Masks, end: str, rescue: bool) -> tuple:
    """((mismatch mask, forgiven mask, pattern, rare fits, both) under key 平 and 仄, (cost under 平, cost
    under 仄)) of a line; the rare fits: the 二四六 chars and the foot that fit the pattern only by a rare
    reading; both: the 二四六 chars common in both tones where the pattern is kept (``read_by_pattern``).

    The 拗 accepted here: 大拗 (4th/6th char 仄 in a 仄仄平平仄 line) when ``rescue`` says the 對句's
    3rd/5th char is 平; 特拗 平平仄平仄 (4th/6th 平 with the 3rd/5th 仄, the 1st/3rd 平: 王力《詩詞格律》)
    in a 平平平仄仄 line.
    """
    may_ping, may_ze, common_ping, common_ze = masks
    # the 五言 core's 1st, 3rd and 4th chars
    first, third, fourth = 1 << (length - 5), 1 << (length - 3), 1 << (length - 2)
    strict = _STRICT[length]
    places = strict | 1 << (length - 1)
    # the chars with a rare reading of a tone they have no common reading of
    rare_only = ((may_ping & ~common_ping) | (may_ze & ~common_ze)) & places
    pair = []
    cost = []
    for key in (PING, ZE):
        pattern, want_ping, want_ze = standard_masks(length, key, end)
        raw = ((want_ping & ~may_ping) | (want_ze & ~may_ze)) & strict  # wrong by every reading
        off_common = (want_ping & ~common_ping) | (want_ze & ~common_ze)  # wrong by the common readings
        common = off_common & strict
        forgiven = 0
        if common & fourth and end == ZE:
            if want_ping & fourth:  # 大拗
                if rescue:
                    forgiven = fourth
            elif common_ze & third and common_ping & first:
                # 特拗 平平仄平仄 (七言 仄仄平平仄平仄): the 3rd/5th char 仄, and only with the 1st/3rd 平
                forgiven = fourth
            elif common_ze & third:
                # 特拗 without its condition: a 仄 only a rare reading gives the 4th (深 in 逐風入深夜) does
                # not hide it (no regular Tang line the checker accepts fits so: docs/READINGS_AUDIT.md)
                raw |= fourth
        mismatch = raw & ~forgiven
        both = common_ping & common_ze & strict & ~mismatch & ~forgiven
        pair.append((mismatch, forgiven, pattern, rare_only & off_common & ~forgiven, both))
        # a fit only by a rare reading costs a little: the pattern is less likely
        rare = common & ~raw & ~forgiven
        cost.append(mismatch.bit_count() + (0.4 * rare.bit_count() if rare else 0))
    return tuple(pair), tuple(cost)


def keys_by_chain(costs: tuple[tuple[float, float], ...], masks: list[Masks], length: int) -> tuple[int, ...]:
    """Each line's key (0: 平, 1: 仄) by dynamic programming: mismatches plus a penalty where 黏 or 對
    breaks; at 1.2 × the strict positions one inverted line stays a fault of that line (two breaks
    cost more), while a whole inverted half (折腰) switches key once. Ties go to what line 1's 2nd char
    says. Memoised: poems share few cost profiles (a regulated 七律 costs 0 or 3 a line).

    >>> keys_by_chain(((0, 3), (3, 0), (3, 0), (0, 3)), [Masks(3, 0, 3, 0)], 7)
    (0, 1, 1, 0)
    """
    return _chain(costs, bool(masks[0].may_ping & 2), bool(masks[0].may_ze & 2), length)


@lru_cache(maxsize=1 << 14)
def _chain(costs: tuple[tuple[float, float], ...], ping2: bool, ze2: bool, length: int) -> tuple[int, ...]:
    """``keys_by_chain`` of a cost profile (``ping2``, ``ze2``: line 1's 2nd char may be 平, 仄)."""
    n = len(costs)
    penalty = 1.2 * ((length - 1) // 2)
    best0 = costs[0][0] + (0 if ping2 else 0.01)
    best1 = costs[0][1] + (0 if ze2 else 0.01)
    back = []
    for i in range(1, n):
        cost = costs[i]
        if i % 2:  # 對: the key flips
            same0, same1 = best1, best0
        else:  # 黏: the key stays
            same0, same1 = best0, best1
        alt0, alt1 = same1 + penalty, same0 + penalty
        if same0 <= alt0:
            new0, broke0 = same0 + cost[0], 0
        else:
            new0, broke0 = alt0 + cost[0], 1
        if same1 <= alt1:
            new1, broke1 = same1 + cost[1], 0
        else:
            new1, broke1 = alt1 + cost[1], 1
        back.append((broke0, broke1))
        best0, best1 = new0, new1
    state = 0 if best0 <= best1 else 1
    states = [state] * n
    for i in range(n - 1, 0, -1):
        broke = back[i - 1][state]
        # previous state: what 黏/對 expects from this one, unless this line broke the chain
        prev = (1 - state if i % 2 else state) if not broke else (state if i % 2 else 1 - state)
        states[i - 1] = prev
        state = prev
    return tuple(states)


@dataclass(slots=True)
class Verse:
    """A 近體 poem as the rules see it: the lines, their masks, keys, patterns and endings, the rhyme."""

    lines: list[str]
    feet: list[Entry]  #: each line's last char
    masks: list[Masks]
    length: int  #: chars per line, 5 or 7
    ends: tuple[str, ...]  #: each line's last tone: 平 (a rhyme foot) or 仄
    states: tuple[int, ...]  #: each line's key: 0 平, 1 仄
    patterns: tuple[str, ...]  #: each line's standard pattern by its key and ending
    mismatch: list[int]  #: per line, bits of the 二四六 positions off its pattern (拗救 forgiven; judge_chain clears)
    forgiven: tuple[int, ...]  #: per line, the bit of a 拗 accepted (大拗 saved by the 對句, 特拗)
    group: str | None
    neighbours: frozenset  #: the groups next to ``group`` (鄰韻)
    strays: str | None  #: the feet out of the group when the feet split evenly, else None
    broken: set[int]  #: 0-based lines that break a rule


def analyse_regulated(a: Analysis, lines: list[str], entries: list[list[Entry]] | None, feet: list[Entry],
                      table: BookTable, plain: bool, declared: bool = False, fixes: dict | None = None,
                      codes: str | None = None) -> None:
    """五言/七言 絕句, 律詩, 排律: rhyme group, pattern, 黏對 by dynamic programming, every rule judged.

    ``feet``: each line's last entry; ``entries`` (every char's) may be None in the batch path; ``plain``:
    every entry is the table's own (traditional text), so the table's memoised masks serve; ``declared``:
    the poet declared this 近體 form, so a 仄韻 is a fault of each foot rather than a 古體 reading;
    ``fixes``: with ``plain``, the readings words fix ((line, char) → Entry), put into the masks; ``codes``: with
    ``plain``, the lines joined as tone codes (reading.prepare's quick reading), sliced for the masks."""
    n, length = len(lines), len(lines[0])
    group, ze = choose_group(feet[1::2], feet[0])
    a.group = group
    if ze and not declared:
        _rhymes_in_ze(a, n, length)
        return
    first_rhymes = _first_line_rhymes(feet[0], group)
    if plain:
        # traditional text: memoised by tone codes
        if codes is None:
            codes = "".join(lines).translate(table.code_chars)
        masks = table.masks_of_codes(codes, length)
        if fixes:  # a word's reading alone (宰相: 相 仄)
            for (i, j), e in fixes.items():
                masks[i] = _read_as(masks[i], 1 << j, PING if e.code == COMMON_PING else ZE)
    else:
        masks = [line_masks(row) for row in entries]  # simplified text: merged readings
    ends = line_ends(n, first_rhymes)
    states, (mismatch, forgiven, patterns, rare_fits, both) = _fit(masks, ends, length)
    if any(rare_fits):
        rare = rare_fixes(lines, list(rare_fits), table)
        if rare:  # a rare reading its word rules out (不如: 不 仄, not the 平 of 尤) no longer fits
            masks = _fix_rare(masks, rare, entries, feet, length)
            states, (mismatch, forgiven, patterns, rare_fits, both) = _fit(masks, ends, length)
    verse = Verse(
        lines, feet, masks, length, ends, states, patterns, list(mismatch), forgiven, group,
        table.book.neighbours(group) if group else frozenset(), _strays(lines, feet, ends, group), set(),
    )  # fmt: skip
    if any(both):
        read_by_pattern(verse, both)
    a.form = form_name(length, n)
    a.pattern = pattern_name(PING if states[0] == 0 else ZE, first_rhymes)
    # Each rule over every line; the findings are sorted by place afterwards, and a line's
    # rules never find at the same place, so the order of the rules is the order of the lines.
    chain_ok = judge_chain(a, verse)
    if a.detail:
        _mark_required(a, verse, entries, chain_ok)
    inverted = judge_positions(a, verse, chain_ok)
    judge_foot(a, verse)
    judge_tail(a, verse, inverted)
    if table.book.name != "pingshui":
        note_doubtful(a, verse)
    if verse.broken and len(verse.broken) * 2 >= n and not declared:
        note_ancient_reading(a, verse)


def read_by_pattern(v: Verse, both_tones: tuple[int, ...]) -> None:
    """One reading per char: a 多音字 common in both tones at a 二四六 position is read as the pattern
    wants it there (the tail rules, 孤平 and 三平尾, no longer count it the other way too), and the free
    char of a doubled pair (疊字, 看看) is read as its partner. ``both_tones``: per line, those chars
    where the line keeps its pattern (line_costs' fifth column).

    >>> from poetry.checker import check_lines_brief
    >>> [v["kind"].value for v in check_lines_brief("白日依山盡，雨中看看流。欲窮千里目，更上一層樓。")["violations"]]
    ['lone_ping']
    """
    last = v.length - 1
    for i, both in enumerate(both_tones):
        if not both:
            continue
        m, line, std = v.masks[i], v.lines[i], v.patterns[i]
        for strict in range(1, last, 2):
            if both >> strict & 1:
                m = _read_as(m, 1 << strict, std[strict])
                for free in (strict - 1, strict + 1):
                    if free < last and line[free] == line[strict]:
                        m = _read_as(m, 1 << free, std[strict])
        v.masks[i] = m


def _fit(masks: list[Masks], ends: tuple[str, ...], length: int) -> tuple[tuple[int, ...], tuple]:
    """Each line's key by keys_by_chain over its line_costs, and the columns of line_costs' entries under
    those keys: (mismatch, forgiven, pattern, rare fits, both), a tuple of the lines' values each."""
    n, third = len(masks), 1 << (length - 3)
    # 大拗 in a 出句 is saved by the 對句's 3rd/5th char 平 (the 4th argument)
    fitted = [
        line_costs(length, masks[i], ends[i], not i % 2 and i + 1 < n and bool(masks[i + 1].common_ping & third))
        for i in range(n)
    ]
    states = keys_by_chain(tuple(map(_COST, fitted)), masks, length)
    # each line's entry under its key, the columns transposed (taken in C)
    return states, tuple(zip(*map(getitem, map(_PAIR, fitted), states)))


#: The parts of a line_costs result.
_PAIR, _COST = itemgetter(0), itemgetter(1)


def _fix_rare(masks: list[Masks], fixes: dict, entries: list[list[Entry]] | None, feet: list[Entry],
              length: int) -> list[Masks]:
    """The masks (and entries, feet) with the readings of ``reading.rare_fixes`` put in."""
    masks = list(masks)
    for (i, j), e in fixes.items():
        masks[i] = _read_as(masks[i], 1 << j, PING if e.code == COMMON_PING else ZE)
        if entries is not None:
            entries[i][j] = e
        if j == length - 1:
            feet[i] = e
    return masks


def _read_as(m: Masks, bit: int, tone: str) -> Masks:
    """The masks with the char at ``bit`` read in ``tone`` alone."""
    if tone == PING:
        return Masks(m.may_ping | bit, m.may_ze & ~bit, m.common_ping | bit, m.common_ze & ~bit)
    return Masks(m.may_ping & ~bit, m.may_ze | bit, m.common_ping & ~bit, m.common_ze | bit)


def _rhymes_in_ze(a: Analysis, n: int, length: int) -> None:
    """仄韻: a 古體 poem, not a 近體 one; the even feet are its rhymes."""
    a.form = form_name(length, n, ancient=True)
    a.ancient = True
    a.notes.append("押仄聲韻，屬古體，不按近體平仄論。")
    for i in range(1, n, 2):
        a.rhyme_lines[i] = True
        a.statuses[i][-1] = RHYME


def _first_line_rhymes(first: Entry, group: str | None) -> bool:
    """Whether line 1 rhymes (首句入韻): its foot in the group, or a 平 it cannot avoid: 平 by its
    common readings (a 仄 only a rare reading gives is not taken to fit), so a 鄰韻 foot is 孤雁出群 and
    any other 平 group 出韻. A foot read 仄 commonly and 平 in the group only by a rare reading (不 in 尤)
    does not rhyme."""
    return (
        not (first.code & COMMON_ZE)
        or group is not None
        and (group in first.common_ping or (group in first.ping and not first.code & COMMON_ZE))
    )


def _strays(lines: list[str], feet: list[Entry], ends: tuple[str, ...], group: str | None) -> str | None:
    """Feet split evenly between groups (紅豆生南國 with one foot changed): no telling which is wrong,
    so each foot of the chosen group is flagged too, naming the feet out of it (『…』、『…』)."""
    if group is None:
        return None
    feet_lines = _rhyme_places(ends)
    strays = [i for i in feet_lines if group not in feet[i].ping]
    # at most half the feet in the group, and some: the feet split evenly
    if strays and len(feet_lines) >= 2 and len(feet_lines) > len(strays) and len(strays) * 2 >= len(feet_lines):
        return "、".join(f"『{lines[i][-1]}』" for i in strays)
    return None


@cache
def _rhyme_places(ends: tuple[str, ...]) -> tuple[int, ...]:
    """The lines ending in 平 (the rhyme feet), by ``line_ends``.

    >>> _rhyme_places(line_ends(4, True))
    (0, 1, 3)
    """
    return tuple(i for i, end in enumerate(ends) if end == PING)


def judge_chain(a: Analysis, v: Verse) -> list[bool]:
    """黏 and 對: a couplet's 對句 opposes its 出句's key, the next 出句 repeats the key before it.
    Per line, False (and a fault at its 2nd char, no longer a 二四六 one) where it breaks the chain."""
    states, lines = v.states, v.lines
    chain_ok = [True] * len(lines)
    if states == chained_keys(len(states), states[0]):
        return chain_ok  # the whole poem keeps 黏 and 對
    for i in range(1, len(lines)):
        if states[i] == ((1 - states[i - 1]) if i % 2 else states[i - 1]):
            continue
        chain_ok[i] = False
        v.broken.add(i)
        v.mismatch[i] &= ~2
        ln = i + 1
        word, kind, rel = ("失對", OPPOSITION, "相對") if i % 2 else ("失黏", ADHESION, "相黏")
        # no single-char fix: the whole line must follow the other pattern
        message = (
            f"{word}：第{cn_numeral(ln)}句第二字『{lines[i][1]}』應與第{cn_numeral(i)}句第二字『{lines[i - 1][1]}』"
            f"{rel}，全句宜依「{line_pattern(v.length, PING if states[i] else ZE, v.patterns[i][-1])}」。"
            if a.detail else ""
        )
        a.error(ln, 2, kind, message)
    if a.detail and chain_ok == [True, True, False, True]:  # a quatrain broken at its waist only: 折腰體
        a.notes.append(ZHEYAO_NOTE)
    return chain_ok


#: A quatrain whose third line alone breaks 黏 (失黏 at the waist) is what Tang poets wrote as 折腰體; the rules of
#: 近體 still call it 失黏, so the fault stands and the note says the name.
ZHEYAO_NOTE = "第三句失黏，唐人絕句間有之，稱「折腰體」（如王維《渭城曲》）；以近體格律論，仍屬失黏。"


def _mark_required(a: Analysis, v: Verse, entries: list[list[Entry]], chain_ok: list[bool]) -> None:
    """The statuses of the 二四六 positions by each line's pattern (the full report only)."""
    for i, std in enumerate(v.patterns):
        statuses, required, row = a.statuses[i], a.required[i], entries[i]
        for j in range(1, v.length - 1, 2):
            tone = required[j] = std[j]
            statuses[j] = (FITS_PING if tone == PING else FITS_ZE)[row[j].code]
        if not chain_ok[i]:
            statuses[1] = WRONG
            required[1] = opposite(std[1])


def judge_positions(a: Analysis, v: Verse, chain_ok: list[bool]) -> list[bool]:
    """二四六分明: each 2nd/4th/6th char of the wrong tone is a fault; a line whose every one is inverted
    (the other key) is a 黏/對 fault of that line instead. Per line, True for such an inverted line."""
    length, strict = v.length, _STRICT[v.length]
    inverted = [False] * len(v.lines)
    if not any(v.mismatch):
        return inverted  # every 二四六 position as its pattern wants
    for i, mismatch in enumerate(v.mismatch):
        if not mismatch:
            continue
        v.broken.add(i)
        line, ln, std, statuses = v.lines[i], i + 1, v.patterns[i], a.statuses[i]
        if chain_ok[i] and mismatch == strict:
            # the whole line has the other key: a 黏/對 fault of this line
            inverted[i] = True
            kind = OPPOSITION if i % 2 or i == 0 else ADHESION
            word = "失對" if kind is OPPOSITION else "失黏"
            six = "六" if length == 7 else ""
            message = f"{word}：第{cn_numeral(ln)}句二四{six}字平仄與格律全反（應為{std}）。" if a.detail else ""
            a.error(ln, 2, kind, message)
            for j in range(1, length - 1, 2):
                statuses[j] = WRONG
            continue
        for j in range(1, length - 1, 2):
            if mismatch >> j & 1:
                statuses[j] = WRONG
                need = std[j]
                message = (
                    f"{where(ln, j + 1)}『{line[j]}』應{need}而{opposite(need)}{_rescue_hint(v, i, j)}。"
                    if a.detail else ""
                )
                a.error(ln, j + 1, TONE, message, Fix(i, j, need))
    return inverted


def _rescue_hint(v: Verse, i: int, j: int) -> str:
    """大拗 unrescued (the 4th/七言 6th char 仄 in a 仄仄平平仄 出句): the 對句's 3rd/5th char 平 could save it;
    特拗 without its condition, whose 4th (七言 6th) char is 仄 by a rare reading: read so, the line would pass.

    >>> from poetry.checker import check_poem
    >>> check_poem("白日依水盡，黃河入海流。欲窮千里目，更上一層樓。").violations[0].message
    '第一句第四字『水』應平而仄（大拗：對句第三字『入』用平聲可救）。'
    >>> check_poem("好雨知時節，當春乃發生。逐風入深夜，潤物細無聲。").violations[0].message
    '第三句第四字『深』應仄而平（特拗須第一字平；『深』若讀仄聲則合律，請自校）。'
    """
    length = v.length
    fourth = length - 2
    if j == fourth and v.ends[i] == ZE and v.patterns[i][j] == ZE:
        return _te_ao_hint(v, i)
    if j != fourth or v.ends[i] != ZE or i % 2 or i + 1 >= len(v.lines) or v.patterns[i][j] != PING:
        return ""
    third = length - 3
    return f"（大拗：對句第{cn_numeral(third + 1)}字『{v.lines[i + 1][third]}』用平聲可救）"


def _te_ao_hint(v: Verse, i: int) -> str:
    """特拗 without its condition (仄平仄平仄, 七言 仄仄仄平仄平仄: 王力《詩詞格律》 wants the 1st/七言 3rd char
    平): what would pass. A 4th (七言 6th) char 仄 by a rare reading is the poet's to confirm; a 對句 平仄仄平平
    (its 1st/七言 3rd char 平) is the rescue 董文渙《聲調四譜》 allows, named but not accepted (王力 is the rule).

    >>> from poetry.checker import check_poem
    >>> check_poem("故人具雞黍，邀我至田家。綠樹村邊合，青山郭外斜。").violations[0].message
    '第一句第四字『雞』應仄而平（特拗須第一字平；董文渙《聲調四譜》許對句首字『邀』平聲相救）。'
    """
    length, masks = v.length, v.masks[i]
    first, third, fourth = length - 5, length - 3, length - 2
    if not masks.common_ze >> third & 1 or masks.common_ping >> first & 1:
        return ""  # not the 特拗 shape: a plain fault
    where_first = "三" if length == 7 else "一"
    if masks.may_ze >> fourth & 1:
        # fit only by a rare 仄 (line_costs): the reading is the poet's to confirm
        return f"（特拗須第{where_first}字平；『{v.lines[i][fourth]}』若讀仄聲則合律，請自校）"
    if i % 2 == 0 and i + 1 < len(v.lines) and v.masks[i + 1].common_ping >> first & 1:
        # 董文渙《聲調四譜》: 仄平仄平仄 is 拗極, and the 下句 must then be 平仄仄平平
        mate = v.lines[i + 1][first]
        head = "首" if length == 5 else "第三"
        return f"（特拗須第{where_first}字平；董文渙《聲調四譜》許對句{head}字『{mate}』平聲相救）"
    return f"（特拗須第{where_first}字平）"


def judge_foot(a: Analysis, v: Verse) -> None:
    """Each line's last char: a rhyme foot in the poem's group (平 ending), or a 仄 ending that is no rhyme."""
    last, group, ends = v.length - 1, v.group, v.ends
    statuses, required, rhyme_lines = a.statuses, a.required, a.rhyme_lines
    if not a.detail:
        _judge_feet_brief(a, v, group is not None and v.strays is None)  # the feet may simply rhyme
        _repeated_rhymes(a, v)
        return
    for i, foot in enumerate(v.feet):
        if ends[i] == ZE:
            required[i][last] = ZE
            status = statuses[i][last] = FITS_ZE[foot.code]
            if status is WRONG or group and group in foot.ping:
                _ze_ending(a, v, i, status)
        else:
            required[i][last] = PING
            rhyme_lines[i] = True
            _rhyme_foot(a, v, i)
    _repeated_rhymes(a, v)


def _repeated_rhymes(a: Analysis, v: Verse) -> None:
    """重韻: a 近體 poem rhymes each foot on another char; a rhyme char written again at a later foot is a fault
    (a 古詩 may repeat one)."""
    feet = [line[-1] for line, end in zip(v.lines, v.ends) if end != ZE]
    if len(set(feet)) == len(feet):
        return
    first: dict[str, int] = {}
    for i, (line, end) in enumerate(zip(v.lines, v.ends)):
        if end == ZE or v.feet[i].code & UNKNOWN:  # a char the book lacks (□ for a lost one) is no rhyme
            continue
        char = line[-1]
        if char not in first:
            first[char] = i
            continue
        message = (f"重韻：{where(i + 1, v.length)}韻腳『{char}』已押於{where(first[char] + 1, v.length)}，"
                   "近體一韻不重押。") if a.detail else ""
        if a.detail:
            a.statuses[i][v.length - 1] = RHYME_WRONG
        a.error(i + 1, v.length, RHYME_KIND, message, Fix(i, v.length - 1, "rhyme"))


def _judge_feet_brief(a: Analysis, v: Verse, rhymes: bool) -> None:
    """``judge_foot``'s findings alone: the brief verdict reads no status, so a foot that rhymes or
    ends in 仄 as it should writes nothing. (The batch path's hottest loop: a foot that simply rhymes is told
    here, by ``_rhyme_foot``'s own test, without calling it.)"""
    group, ends = v.group, v.ends
    for i, foot in enumerate(v.feet):
        if ends[i] == ZE:
            status = FITS_ZE[foot.code]
            if status is WRONG or group and group in foot.ping:
                _ze_ending(a, v, i, status)
        elif not (rhymes and (group in foot.common_ping or group in foot.ping and not _borrowed(v, i))):
            _rhyme_foot(a, v, i)


def _borrowed(v: Verse, i: int) -> bool:
    """孤雁出群: line ``i`` is the first and its foot is in the poem's group by a rare reading only, in a 鄰韻 by a
    common one, so it is read the common way (逢 冬 in a 東 poem; its 東 reading is 逢逢, a drum's sound)."""
    foot = v.feet[i]
    return i == 0 and v.group not in foot.common_ping and bool(foot.common_ping & v.neighbours)


def _ze_ending(a: Analysis, v: Verse, i: int, status: Status) -> None:
    """A line that does not rhyme ends in 仄; a foot that may be read in the rhyme group is 撞韻."""
    length, line, ln, foot, group = v.length, v.lines[i], i + 1, v.feet[i], v.group
    if status is WRONG:
        v.broken.add(i)
        clash = "，又與韻腳同韻（撞韻）" if group and group in foot.ping else ""
        message = f"{where(ln, length)}『{line[-1]}』應仄而平{clash}：不入韻的句子以仄聲收尾。" if a.detail else ""
        a.error(ln, length, TONE, message, Fix(i, length - 1, ZE))
    elif group and group in foot.ping and not _te_ao(v, i):  # 撞韻
        message = f"撞韻：{where(ln, length)}『{line[-1]}』可讀入{group}，與韻腳同韻。" if a.detail else ""
        a.remark(ln, length, RHYME_KIND, message)


def _te_ao(v: Verse, i: int) -> bool:
    """Whether line i is accepted as 特拗 (平平仄平仄, 七言 仄仄平平仄平仄): a shape that reads its last char
    仄, so that char's 平 reading in the rhyme group is no 撞韻 (one reading per char: 『思』 in 「樓高欲愁思」
    is the 去聲 of 愁思 for both).

    >>> from poetry.checker import check_poem
    >>> r = check_poem("勝絕驚身老，情忘發興奇。座從歌妓密，樂任主人爲。"
    ...                "重碧拈春酒，輕紅擘荔枝。樓高欲愁思，橫笛未休吹。")
    >>> [n for n in r.notes if "特拗" in n], [v.kind.value for v in r.violations if v.line == 7]
    (['第七句特拗（樓高欲愁思：平平仄平仄），可用。'], [])
    """
    return bool(v.forgiven[i]) and v.patterns[i][v.length - 2] == ZE


def _rhyme_foot(a: Analysis, v: Verse, i: int) -> None:
    """A rhyme foot: in the poem's group, else 出韻 (line 1 may borrow a neighbour: 孤雁出群); feet
    split evenly between groups are each 韻腳不統一."""
    length, line, ln, foot, group = v.length, v.lines[i], i + 1, v.feet[i], v.group
    last = length - 1
    statuses = a.statuses[i]
    if group is not None and group in foot.ping and not _borrowed(v, i):
        statuses[last] = RHYME if group in foot.common_ping else CONFIRM
        if v.strays is not None:  # 韻腳不統一
            statuses[last] = RHYME_WRONG
            message = (
                f"韻腳不統一：{where(ln, length)}『{line[-1]}』屬{group}，與{v.strays}不同韻，須改其一。"
                if a.detail else ""
            )
            a.error(ln, length, RHYME_KIND, message, Fix(i, last, "rhyme"))
    elif foot.code & UNKNOWN:
        statuses[last] = UNKNOWN_STATUS
    elif i == 0 and foot.ping & v.neighbours:  # 孤雁出群: a 鄰韻 first foot
        statuses[last] = RHYME
        borrowed = f"首句韻腳『{line[-1]}』屬鄰韻（孤雁出群，一稱孤雁入群），可用。"  # 謝榛's name, and 夏世欽's
        a.remark(ln, length, RHYME_KIND, borrowed if a.detail else "")
    else:  # 出韻
        statuses[last] = RHYME_WRONG
        near = "（鄰韻，近體不通押）" if foot.ping & v.neighbours else ""
        message = (
            f"出韻：{where(ln, length)}韻腳『{line[-1]}』屬{'、'.join(foot.groups) or '未知韻'}{near}，"
            f"不在{group or '本韻'}。"
            if a.detail else ""
        )
        a.error(ln, length, RHYME_KIND, message, Fix(i, last, "rhyme"))


def judge_tail(a: Analysis, v: Verse, inverted: list[bool]) -> None:
    """拗救 and 一三五不論: the 拗 a 對句 or a 特拗 forgives; free chars, except where one makes 孤平
    (孤平拗救 noted) or 三平尾; 小拗 saved by the 對句 and 三仄尾 noted. An inverted line has no tail rule."""
    third, detail = v.length - 3, a.detail
    third_bit, tail_bits, body_bits = 1 << third, 0b111 << third, _lone_ping_body(a, v.length)
    masks, forgiven = v.masks, v.forgiven
    for i, std in enumerate(v.patterns):
        if detail and forgiven[i]:  # a note and a mark: the brief verdict has neither
            _note_forgiven(a, v, i, std)
        if inverted[i]:
            continue
        tail, m = _TAILS[std], masks[i]
        if tail == "仄平平":
            if not m.common_ze & tail_bits:
                # 三平尾 (judged by the common readings: 空 in 「空悠悠」 is 平)
                _fault_at(a, v, i, third, ZE, TRIPLE_PING_TAIL,
                          f"三平尾：第{cn_numeral(i + 1)}句末三字『{v.lines[i][third:]}』皆平，"
                          f"第{cn_numeral(third + 1)}字宜仄。" if detail else "")
        elif tail == "仄仄平":
            if v.mismatch[i]:
                continue
            if not m.common_ze & tail_bits:
                # 三平尾: the 4th (七言 6th) char 仄 only by a rare reading (蹉 in 「身名良蹉跎」)
                _fault_at(a, v, i, third + 1, ZE, TRIPLE_PING_TAIL,
                          f"三平尾：第{cn_numeral(i + 1)}句末三字『{v.lines[i][third:]}』皆平"
                          f"（『{v.lines[i][third + 1]}』讀仄為僻讀），第{cn_numeral(third + 2)}字宜仄。"
                          if detail else "")
            # 孤平 needs at most one 平 besides the rhyme, its 拗救 (a note, which the brief verdict does not
            # give) two: most lines have more
            elif (m.common_ping & body_bits).bit_count() <= (2 if detail else 1):
                _lone_ping(a, v, i)
        elif tail == "平平仄":
            # 小拗: the 3rd (七言 5th) char 仄 in a 仄仄平平仄 line, saved (or not: 可救可不救) by the 對句;
            # only a note and a mark, which the brief verdict does not give
            if detail and not m.common_ping & third_bit and not forgiven[i] and i % 2 == 0:
                _small_ao(a, v, i)
        elif not m.common_ping & tail_bits:  # 平仄仄 with all three 仄: 三仄尾
            message = (
                f"三仄尾：第{cn_numeral(i + 1)}句末三字『{v.lines[i][third:]}』皆仄，可用，聲調稍促。"
                if a.detail else ""
            )
            a.remark(i + 1, third + 1, TRIPLE_ZE_TAIL, message)


def _note_forgiven(a: Analysis, v: Verse, i: int, std: str) -> None:
    """大拗 saved by the 對句, or 特拗: the 4th (七言 6th) char is 拗 but accepted."""
    length, line = v.length, v.lines[i]
    third, fourth = length - 3, length - 2
    a.statuses[i][fourth] = RESCUED
    if std[fourth] == PING:
        a.notes.append(
            f"第{cn_numeral(i + 1)}句大拗（第{cn_numeral(fourth + 1)}字『{line[fourth]}』仄），"
            f"對句第{cn_numeral(third + 1)}字『{v.lines[i + 1][third]}』平聲相救。"
        )
    else:
        shape = "平平仄平仄" if length == 5 else "仄仄平平仄平仄"
        a.notes.append(f"第{cn_numeral(i + 1)}句特拗（{line}：{shape}），可用。")


def _small_ao(a: Analysis, v: Verse, i: int) -> None:
    """小拗 in a 出句 (its 3rd/七言 5th char 仄), saved when the 對句's char there is 平."""
    third = v.length - 3
    if i + 1 < len(v.lines) and v.masks[i + 1].common_ping & (1 << third):
        a.statuses[i][third] = RESCUED
        a.notes.append(f"第{cn_numeral(i + 1)}句小拗（第{cn_numeral(third + 1)}字『{v.lines[i][third]}』仄），"
                       f"對句第{cn_numeral(third + 1)}字『{v.lines[i + 1][third]}』平聲相救。")


def _lone_ping_body(a: Analysis, length: int) -> int:
    """The chars whose 平 count against 孤平: all but the rhyme; for 七言 by 王力 (LonePing.WANGLI) not
    the 1st either, which is free and does not rescue.

    >>> from poetry.checker import check_lines_brief
    >>> text = "風急天高猿嘯哀，渚清沙白鳥飛回。無邊落木蕭蕭下，平仄仄平仄仄來。"
    >>> [v["kind"].value for v in check_lines_brief(text.replace("平仄仄平仄仄", "平日一聲敗葉"))["violations"]]
    ['lone_ping']
    >>> check_lines_brief(text.replace("平仄仄平仄仄", "平日一聲敗葉"), lone_ping="lenient")["violations"]
    []
    """
    if length == 7 and a.lone_ping == WANGLI:
        return 0b111110
    return (1 << (length - 1)) - 1


def _lone_ping(a: Analysis, v: Verse, i: int) -> None:
    """孤平: a 平平仄仄平 line left with one 平 besides its rhyme; 孤平拗救 when the 3rd (七言 5th)
    char 平 saves it."""
    length, line, common_ping = v.length, v.lines[i], v.masks[i].common_ping
    lone, third = length - 5, length - 3  # 五言 1st char, 七言 3rd; the 五言 core's 3rd
    body = common_ping & _lone_ping_body(a, length)
    if body.bit_count() <= 1:
        free = "（第一字不論）" if length == 7 and a.lone_ping == LonePing.WANGLI else ""
        _fault_at(a, v, i, lone, PING, LONE_PING,
                  f"犯孤平：第{cn_numeral(i + 1)}句{free}除韻腳外只有一個平聲字，"
                  f"第{cn_numeral(lone + 1)}字『{line[lone]}』宜平（或第{cn_numeral(third + 1)}字用平聲相救）。"
                  if a.detail else "")
    elif not a.detail:
        return  # 孤平拗救 is only a note and a mark, which the brief verdict does not give
    elif not common_ping >> lone & 1 and common_ping & (1 << third) and (body & ~(1 << third)).bit_count() <= 1:
        a.statuses[i][lone] = RESCUED
        a.notes.append(f"第{cn_numeral(i + 1)}句孤平拗救：第{cn_numeral(lone + 1)}字『{line[lone]}』仄，"
                       f"第{cn_numeral(third + 1)}字『{line[third]}』平聲自救。")


def _fault_at(a: Analysis, v: Verse, i: int, j: int, need: str, kind: Kind, message: str) -> None:
    """A free position that breaks a rule of the line: marked, required, a fault that a char can mend
    (``message``: "" when the analysis words nothing)."""
    a.statuses[i][j] = WRONG
    a.required[i][j] = need
    v.broken.add(i)
    a.error(i + 1, j + 1, kind, message, Fix(i, j, need))


def note_doubtful(a: Analysis, v: Verse) -> None:
    """中華新韻/通韻: a 二四六 char or a line's last char that fits only by a rare Mandarin reading is a
    doubt (疑讀), noted at its place in every output (kind ``doubtful_reading``), counted in the summary.

    >>> from poetry.checker import check_poem
    >>> r = check_poem("白日依看盡，黃河入海流。欲窮千里目，更上幾層樓。", rhyme_book="xinyun")
    >>> [v.message for v in r.violations], r.summary
    (['第一句第四字『看』讀平聲為少用之讀音，請自校。'], '此詩為五言絕句，仄起首句不入韻，押七尤，合律，1處讀音存疑。')
    """
    strict = _STRICT[v.length] | 1 << (v.length - 1)
    for i, m in enumerate(v.masks):
        _, want_ping, want_ze = standard_masks(v.length, PING if v.states[i] == 0 else ZE, v.ends[i])
        doubt = ((want_ping & ~m.common_ping & m.may_ping) | (want_ze & ~m.common_ze & m.may_ze)) & strict
        doubt &= ~v.mismatch[i] & ~v.forgiven[i]
        for j in range(v.length):
            if doubt >> j & 1:
                tone = PING if want_ping >> j & 1 else ZE
                message = (
                    f"{where(i + 1, j + 1)}『{v.lines[i][j]}』讀{tone}聲為少用之讀音，請自校。" if a.detail else ""
                )
                a.remark(i + 1, j + 1, DOUBTFUL, message)


def note_ancient_reading(a: Analysis, v: Verse) -> None:
    """Heavy breaks (half the lines or more): the poem reads as a 古絕/古詩; said in a note, while every
    fault stays an error at its place (a 近體 shape is judged against its closest pattern)."""
    n = len(v.lines)
    listed = "、".join(cn_numeral(i + 1) for i in sorted(v.broken))
    ancient = form_name(v.length, n, ancient=True)
    a.notes.insert(0, f"第{listed}句不合律（{len(v.broken)}/{n} 句），讀來近於{ancient}；"
                      "若作古體，可宣告體裁為「古體」。")

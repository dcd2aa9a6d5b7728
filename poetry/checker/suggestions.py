"""Replacement characters for a fault: of the required tone, or of the rhyme group for a foot.

Candidates are drawn and first ranked by a smoothed bigram model of Tang verse: log P(c | left
neighbour) + log P(right neighbour | c) within the line (a neighbour across the 2|2|3 word break weighs
less), plus the association with the char facing the position in the couplet's other line (對仗), from
data/suggest_bigrams.tsv (scripts/build_suggestions.py). The best of them are then ranked by how the
whole line reads with each (``LineReader``): the character trigram LMs of the grading in both directions
(poetry.lm) over the line, and a bonus for a real word with a neighbour (data/suggest_words.tsv), so that
白雲生處□人家 is offered 是 rather than 殺. The tables are read on the first suggestion, never by the
batch path. The hand's chars come first, and only they for 集字 (``hand_only``); none keeps the fault or
adds one the poem did not have (a new 孤平, 三平尾, 出韻 …), none makes a line that does not rhyme end in
the rhyme group (撞韻), and a foot is offered only chars whose first reading is in the poem's group.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from math import log

from poetry.checker.analysis import Analysis, Fix
from poetry.checker.report import Severity
from poetry.checker.rules import analyse
from poetry.checker.tables import COMMON, COMMON_PING, COMMON_ZE, UNKNOWN, BookTable, Entry
from poetry.forms import PING, ZE

SUGGEST_TABLE = "suggest_bigrams.tsv"
SUGGEST_WORDS = "suggest_words.tsv"
FORMS_FILE = "grading_forms.tsv"  # poetry.grading.variants.FORMS_FILE
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
#: Rankings remembered by context (the live editor re-checks a draft at every keystroke).
_RANKINGS_KEPT = 1024
#: How many of the bigram ranking's best are ranked again by how the whole line reads (24 and 96 recover the
#: poet's char as often on the development split).
_REREAD = 48
#: Weight of the LMs' log10 P of the line (forward and backward each), against the bigram's natural logs, and
#: bonus for each neighbour inside the same word (the 2|2|3 rhythm) with which the char makes a real word:
#: the best of a grid on the development split (scripts/eval_suggestions.py --set dev --tune).
_LM_WEIGHT = 0.75
_WORD_BONUS = 0.25


def _bonds(length: int, j: int) -> tuple[float, float]:
    """Weights of the left and right neighbour of char j (0-based) in a line of ``length`` chars: 1 inside
    a word (the line's 2+2+3 / 2+3 rhythm), _ACROSS across a break.

    >>> _bonds(7, 2), _bonds(7, 3)
    ((0.2, 1.0), (1.0, 0.2))
    """
    breaks = (2, 4) if length == 7 else ((2,) if length == 5 else ((2, 4) if length == 6 else (2,)))
    return (_ACROSS if j in breaks else 1.0), (_ACROSS if j + 1 in breaks else 1.0)


class FitTable:
    """Adjacent-character counts of Tang verse: char → (count, as_left, as_partner), rows of followers,
    predecessors and couplet partners parsed on first use (read-only once built)."""

    def __init__(self, path) -> None:
        self.count: dict[str, int] = {}
        self.as_left: dict[str, int] = {}
        self.as_partner: dict[str, int] = {}
        self._raw: dict[str, tuple[str, str, str]] = {}
        #: parsed rows: followers, predecessors, partners (by the column of _raw)
        self._rows: tuple[dict, dict, dict] = ({}, {}, {})
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

    def _row(self, column: int, c: str) -> dict[str, int]:
        rows = self._rows[column]
        row = rows.get(c)
        if row is None:
            raw = self._raw.get(c)
            text = raw[column] if raw else ""
            row = rows[c] = {tok[0]: int(tok[1:]) for tok in text.split(" ")} if text else {}
        return row

    def followers(self, c: str) -> dict[str, int]:
        """Chars written right after ``c``, with counts."""
        return self._row(0, c)

    def predecessors(self, c: str) -> dict[str, int]:
        """Chars written right before ``c``, with counts."""
        return self._row(1, c)

    def partners(self, c: str) -> dict[str, int]:
        """Chars facing ``c`` at the same place of the other line of a couplet (對仗)."""
        return self._row(2, c)


@cache
def load_fit_table(path: str) -> FitTable:
    """The suggestion table at ``path``, read once (FileNotFoundError when it is missing)."""
    return FitTable(path)


def fit_table() -> FitTable | None:
    """The suggestion table of the current data directory (None when it is missing)."""
    from poetry.data import data_path

    try:
        return load_fit_table(str(data_path(SUGGEST_TABLE)))
    except FileNotFoundError:
        return None


class FixContext:
    """What the suggestions of one report share: the poem, its faults, the fit table."""

    def __init__(self, a: Analysis, lines: list[str], entries, table: BookTable, plain: bool) -> None:
        self.a = a
        self.lines = lines
        self.entries = entries
        self.table = table
        self.plain = plain
        self.errors = _errors(a)
        self.fit = fit_table()
        self._safe: dict[tuple, bool] = {}  # by position and tone code: one report's candidates only

    def safe(self, i: int, j: int, e: Entry, c: str) -> bool:
        """Whether a char with entry ``e`` at line i, char j mends the fault there and adds none the poem
        did not have (a new 孤平, 三平尾, 出韻, 撞韻 …); memoised by tone code, since chars of one code
        judge alike."""
        key = (i, j, e.code, e.common_ping if j == len(self.lines[i]) - 1 else None)
        ok = self._safe.get(key)
        if ok is None:
            lines = list(self.lines)
            lines[i] = lines[i][:j] + c + lines[i][j + 1 :]
            entries = [list(row) for row in self.entries]
            entries[i][j] = e
            after = analyse(lines, entries, self.table, detail=False, plain=self.plain, lone_ping=self.a.lone_ping)
            errors = _errors(after)
            place = (i + 1, j + 1)
            ok = self._safe[key] = not (errors - self.errors) and not any(f[:2] == place for f in errors)
        return ok


def _errors(a: Analysis) -> set[tuple]:
    """(line, pos, kind) of every fault."""
    return {(f.line, f.pos, f.kind) for f in a.findings if f.severity == Severity.ERROR}


def fit_scores(fit: FitTable, left: str | None, right: str | None, chars: Iterable[str],
               bonds: tuple[float, float] = (1.0, 1.0), facing: str | None = None) -> dict[str, float]:
    """w₁·log P(c | left) + w₂·log P(right | c) (+ w₃·log P(c | facing) / P(c), the char at the same
    place of the couplet's other line), each smoothed toward the unigram distribution."""
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


class LineReader:
    """How a line reads with a candidate at one place: the grading's character trigram LMs left to right and
    right to left (poetry.lm, read without numpy by poetry.lm_plain; 唐詩三百首 held out of both), in their
    canonical forms, and the real words of data/suggest_words.tsv (read-only once built)."""

    def __init__(self, forward, backward, forms, words: dict[str, int]) -> None:
        self.forward = forward
        self.backward = backward
        self.forms = forms  #: str.translate table to the LMs' canonical forms (爲 for 為)
        self.words = words

    def lm_scores(self, line: str, j: int, chars: list[str]) -> list[float]:
        """log10 P of the line with each char at j (forward + backward), counting only the predictions it
        changes: its own and the next two each way (a trigram model sees no further).

        >>> reader = line_reader()
        >>> a, b = reader.lm_scores("白日依山盡", 1, ["日", "石"])
        >>> a > b
        True
        """
        line = line.translate(self.forms)
        cands = "".join(chars).translate(self.forms)
        total = [0.0] * len(chars)
        for lm, text, at in ((self.forward, line, j), (self.backward, line[::-1], len(line) - 1 - j)):
            padded = [lm.bos, lm.bos, *lm.ids(text), lm.eos]
            ends = range(at + 2, min(at + 5, len(padded)))  # the predictions that see the char
            logprob = lm.logprob
            for k, c in enumerate(lm.ids(cands)):
                padded[at + 2] = c
                total[k] += sum(logprob(padded[t - 2], padded[t - 1], padded[t]) for t in ends)
        return total

    def word_bonus(self, line: str, j: int, c: str, bonds: tuple[float, float]) -> float:
        """How many neighbours in the same word (bond 1, not across the 2|2|3 break) make a word with ``c``.

        >>> line_reader().word_bonus("白雲生處有人家", 4, "殺", (1.0, 1.0)) < 2
        True
        """
        words = self.words
        n = 0.0
        if j > 0 and bonds[0] == 1.0 and line[j - 1] + c in words:
            n += 1.0
        if j + 1 < len(line) and bonds[1] == 1.0 and c + line[j + 1] in words:
            n += 1.0
        return n


@cache
def load_line_reader(directory: str | None = None) -> LineReader:
    """The LMs, their canonical forms and the suggestion words, read once (FileNotFoundError when missing)."""
    from poetry.data import read_tsv
    from poetry.lm_plain import load_plain_lm

    words = {row[0]: int(row[1]) for row in read_tsv(SUGGEST_WORDS, directory)}
    # the canonical forms the LMs were trained in (poetry.grading.variants.canonical_table; importing the
    # grading would load numpy): a row with two forms is a char the grading chooses for in context, kept
    forms = {ord(row[0]): row[1] for row in read_tsv(FORMS_FILE, directory) if " " not in row[1]}
    return LineReader(load_plain_lm(directory), load_plain_lm(directory, reversed=True), forms, words)


def line_reader() -> LineReader | None:
    """The LineReader of the current data directory (None when a file is missing)."""
    try:
        return load_line_reader()
    except (FileNotFoundError, KeyError):
        return None


def read_scores(fit: FitTable, line: str, j: int, chars: list[str], facing: str | None,
                fits: dict[str, float] | None = None) -> dict[str, float]:
    """The bigram fit of each char at j (``fits``, else ``fit_scores``), plus how the whole line reads with
    it: the LMs' log10 P of the line both ways (_LM_WEIGHT) and a bonus per real word with a neighbour
    (_WORD_BONUS)."""
    bonds = _bonds(len(line), j)
    if fits is None:
        left = line[j - 1] if j > 0 else None
        right = line[j + 1] if j + 1 < len(line) else None
        fits = fit_scores(fit, left, right, chars, bonds, facing)
    scores = {c: fits[c] for c in chars}
    reader = line_reader()
    if reader is not None and chars:
        for c, lm in zip(chars, reader.lm_scores(line, j, chars)):
            scores[c] += _LM_WEIGHT * lm + _WORD_BONUS * reader.word_bonus(line, j, c, bonds)
    return scores


@lru_cache(maxsize=_RANKINGS_KEPT)
def reading(table: BookTable, fit: FitTable | None, need: str, line: str, j: int,
            facing: str | None) -> tuple[str, ...]:
    """The candidates of ``ranking`` for char j of ``line``, the best _REREAD ranked again by how the
    whole line reads with each (``read_scores``), the rest after them."""
    left = line[j - 1] if j > 0 else None
    right = line[j + 1] if j + 1 < len(line) else None
    ranked = ranking(table, fit, need, left, right, facing, len(line), j)
    if fit is None:
        return tuple(c for c, _ in ranked)
    best = [c for c, _ in ranked[:_REREAD]]
    scores = read_scores(fit, line, j, best, facing, dict(ranked[:_REREAD]))
    best.sort(key=scores.__getitem__, reverse=True)
    return tuple(best) + tuple(c for c, _ in ranked[_REREAD:])


def _fits_need(need: str):
    """The test a candidate's entry must pass: the tone ``need`` (平/仄) alone by its common readings,
    or, for a rhyme group, a common reading in it."""
    if need in (PING, ZE):
        want = COMMON_PING if need == PING else COMMON_ZE
        return lambda e: e.code & COMMON == want and not e.code & UNKNOWN
    # a foot: the group is the char's first reading (吾 is 虞 first; its 麻 reading would not mend 出韻)
    return lambda e: need in e.common_ping and e.groups[0] == need


def suggest(fix: Fix, ctx: FixContext, hand: set[str] | None, used: set[str], hand_only: bool = False,
            limit: int = SUGGEST_LIMIT) -> tuple[str, ...]:
    """A handful of chars for the faulty position: of the required tone (by common reading), or of the
    poem's rhyme group for a foot; ranked by fit with the neighbours, the hand's chars first (only
    them when ``hand_only``, 集字); never a char of the poem, and none that adds a fault where others
    do not.

    >>> from poetry.checker import check_poem
    >>> r = check_poem("風急天高猿嘯哀，渚淺沙白鳥飛回。無邊落木蕭蕭下，不盡長江滾滾來。"
    ...                "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。")
    >>> found = r.violations[0].suggestions
    >>> len(found) == 8 and "時" not in found[:3]
    True
    """
    i, j, need = fix
    if need == "rhyme":
        if not ctx.a.group:
            return ()
        need = ctx.a.group
    table, fit = ctx.table, ctx.fit
    line = ctx.lines[i]
    other = i + 1 if i % 2 == 0 else i - 1  # the couplet's other line
    facing = ctx.lines[other][j] if other < len(ctx.lines) and len(ctx.lines[other]) == len(line) else None
    fits = _fits_need(need)
    entry = table.entry
    from_hand = sorted(c for c in hand if c not in used and fits(entry(c))) if hand else []
    others: list[str] = []
    if not hand_only:
        for c in reading(table, fit, need, line, j, facing):
            if c not in used and c not in from_hand:
                others.append(c)
                if len(others) >= limit * 3:
                    break
    if fit is not None and len(from_hand) > 1:
        hand_scores = read_scores(fit, line, j, from_hand, facing)
        from_hand.sort(key=hand_scores.__getitem__, reverse=True)
    # 撞韻: a line that does not rhyme must not end in the poem's rhyme group, not even by a rare reading
    clash = ctx.a.group if j == len(line) - 1 and need in (PING, ZE) else None
    # Chars of one tone code judge alike (memoised): only those that mend the fault and add none
    safe = []
    for c in from_hand + others:
        e = entry(c)
        if (clash is None or clash not in e.ping) and ctx.safe(i, j, e, c):
            safe.append(c)
            if len(safe) >= limit:
                break
    return tuple(safe)


@lru_cache(maxsize=_RANKINGS_KEPT)
def ranking(table: BookTable, fit: FitTable | None, need: str, left: str | None, right: str | None,
            facing: str | None, length: int, j: int) -> tuple[tuple[str, float], ...]:
    """Every candidate of the tone (or rhyme group) ``need`` that fits, with its bigram fit (0 without a
    table), best first, for this context."""
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
    fits = _fits_need(need)
    entry = table.entry
    chars = [c for c in pool if fits(entry(c))]
    if fit is None:
        return tuple((c, 0.0) for c in chars)
    scores = fit_scores(fit, left, right, chars, _bonds(length, j), facing)
    chars.sort(key=scores.__getitem__, reverse=True)
    return tuple((c, scores[c]) for c in chars)

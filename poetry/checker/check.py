"""The two ways in: ``check_poem`` (the full report, with suggestions) and ``check_lines_brief`` (batch).

Both read the poem and run the same rules (analysis.py, regulated.py); only the full report words the
findings, marks every character and asks for fixes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from poetry.checker.analysis import Analysis
from poetry.checker.reading import Prepared, hand_chars, prepare
from poetry.checker.report import (
    CharReport,
    CheckResult,
    Kind,
    LineReport,
    LonePing,
    Severity,
    Verdict,
    Violation,
    mark_of,
)
from poetry.checker.rules import analyse
from poetry.checker.suggestions import FixContext, suggest
from poetry.checker.tables import BookTable, resolve_book, table_for
from poetry.errors import UnsupportedFormError
from poetry.forms import declared_form
from poetry.rules import HandIndex, tile_for
from poetry.text import ParsedPoem


def check_lines_brief(text: str, rhyme_book: Any = "pingshui", form: str | None = None,
                      lone_ping: str = LonePing.WANGLI) -> dict:
    """The batch verdict of one poem: {"form", "regulated", "violations": [{"line","pos","kind","severity"}]}.

    Same judgement as check_poem, without the per-character report or suggestions (for jsonl).

    >>> check_lines_brief("床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。")["form"]
    '五言絕句'
    >>> check_lines_brief("床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。", form="古體")["regulated"]
    False
    """
    a = brief_analysis(text, table_for(resolve_book(rhyme_book)), declared_form(form), lone_ping_rule(lone_ping))
    return {
        "form": a.form,
        "regulated": a.regulated,
        "violations": [{"line": f.line, "pos": f.pos, "kind": f.kind, "severity": f.severity} for f in a.findings],
    }


def brief_analysis(text: str, table: BookTable, form: str | None = None,
                   lone_ping: LonePing = LonePing.WANGLI) -> Analysis:
    """The findings of one poem as batch mode needs them: the quick reading, no wording."""
    poem = prepare(text, table, fast=True)
    return analyse(poem.lines, poem.entries, table, detail=False, plain=poem.plain, form=form, fixes=poem.fixes,
                   lone_ping=lone_ping, chars=poem.chars, codes=poem.codes)


def lone_ping_rule(name: str | None) -> LonePing:
    """The 孤平 setting named (None: 王力's), or UnsupportedFormError naming the two.

    >>> lone_ping_rule("lenient")
    <LonePing.LENIENT: 'lenient'>
    """
    if name is None:
        return LonePing.WANGLI
    try:
        return LonePing(name)
    except ValueError:
        raise UnsupportedFormError(f"孤平的判法只有 {'、'.join(LonePing)}，不認得「{name}」。") from None


def check_poem(
    text_or_parsed: str | ParsedPoem, rhyme_book: Any = "pingshui", hand: Iterable[str] | None = None,
    hand_only: bool = False, form: str | None = None, lone_ping: str | None = None, suggest_fixes: bool = True,
) -> CheckResult:
    """Judge a poem: form, pattern, rhyme, every character's tone and status, faults with fixes.

    ``text_or_parsed`` is the text as typed or a ``poetry.text.ParsedPoem`` already read (not read
    again); ``rhyme_book`` is a name ("pingshui", "xinyun") or a RhymeBook; ``hand`` the player's
    tiles, whose characters are suggested first; ``hand_only`` (集字) suggests nothing but the hand's
    characters; ``form`` the form the poet declares (forms.DECLARED_FORMS: 七言絕句 … 古體), judged as
    declared and reported back as ``form`` (UnsupportedFormError for another name); ``lone_ping`` whose
    孤平 a 七言 line is judged by ("wangli", the default: 王力, the 1st char free and no rescue;
    "lenient": a 平 1st char counts; report.LonePing); without a form, a
    poem of 近體 shape is judged against its closest pattern. Each fault's suggestions are ranked by
    how well they fit their neighbours in Tang verse (see ``suggestions.suggest``); ``suggest_fixes=False``
    leaves them empty (the grading reads the faults alone, and ranking them costs a few ms a fault). Raises
    MalformedPoemError for text that cannot be read.

    >>> r = check_poem("空山新雨後，天氣晚來秋。明月松間照，清泉石上流。"
    ...                "竹喧歸浣女，蓮動下漁舟。隨意春芳歇，王孫自可留。")
    >>> r.form, r.pattern, r.regulated
    ('五言律詩', '平起首句不入韻', True)
    """
    form = declared_form(form)
    book = resolve_book(rhyme_book)
    table = table_for(book)
    poem = prepare(text_or_parsed, table)
    a = analyse(poem.lines, poem.entries, table, plain=poem.plain, form=form, lone_ping=lone_ping_rule(lone_ping))
    hand_set = hand_chars(hand)
    return CheckResult(
        title=poem.title,
        form=a.form,
        chars_per_line=a.length,
        line_count=len(poem.lines),
        pattern=a.pattern,
        rhyme_book=book.name,
        rhyme_group=a.group,
        regulated=a.regulated,
        verdict=verdict_of(a),
        lines=_line_reports(a, poem, None if hand is None else HandIndex.of(hand)),
        violations=_violations(a, poem, table, hand_set, hand_only, suggest_fixes),
        notes=tuple(a.notes),
        summary=_summary(a),
    )


def _line_reports(a: Analysis, poem: Prepared, hand: HandIndex | None) -> tuple[LineReport, ...]:
    """Every character's report, as typed (simplified stays simplified), with its 搜韻 mark; ``in_hand``
    by the round's one character-to-tile rule (poetry.rules.tile_for)."""
    reports = []
    rows = zip(poem.lines, poem.original, poem.entries, a.statuses, a.required, a.rhyme_lines)
    for i, (line, original, entries, statuses, required_tones, rhymes) in enumerate(rows):
        chars = []
        for j, c in enumerate(line):
            e, status, required = entries[j], statuses[j], required_tones[j]
            typed = original[j] if j < len(original) else c
            in_hand = None if hand is None else tile_for(typed, hand) is not None
            chars.append(CharReport(typed, c, e.tone, required, status, e.groups, in_hand, mark_of(status, required)))
        reports.append(LineReport(i + 1, original, tuple(chars), rhymes))
    return tuple(reports)


def _violations(a: Analysis, poem: Prepared, table: BookTable, hand_set: set[str] | None,
                hand_only: bool, suggest_fixes: bool = True) -> tuple[Violation, ...]:
    """The findings as Violations; each fault a char can mend gets its suggestions (unless not ``suggest_fixes``)."""
    violations = []
    context = None
    used = set("".join(poem.lines))
    for f in a.findings:
        suggestions: tuple[str, ...] = ()
        if suggest_fixes and f.fix and f.severity == Severity.ERROR and not (hand_only and not hand_set):
            if context is None:
                context = FixContext(a, poem.lines, poem.entries, table, poem.plain)
            suggestions = suggest(f.fix, context, hand_set, used, hand_only)
        violations.append(Violation(f.line, f.pos, f.kind, f.severity, f.message, suggestions))
    return tuple(violations)


def verdict_of(a: Analysis) -> Verdict:
    """合律, 古體 (its rhyme holding or not) or 未合律: the one place the checker's word on a poem is decided."""
    if a.regulated:
        return Verdict.REGULATED
    faults = a.has_errors()
    if a.ancient:
        return Verdict.ANCIENT_FAULTS if faults else Verdict.ANCIENT
    return Verdict.FAULTS


def _summary(a: Analysis) -> str:
    """One Chinese sentence: the form, and 合律 or how many faults."""
    errors = sum(f.severity == Severity.ERROR for f in a.findings)
    if a.ancient:
        return f"此詩為{a.form}，不按近體格律論" + (f"；有{errors}處不合（押韻）。" if errors else "。")
    if a.regulated:
        rescued = any("救" in note or "特拗" in note for note in a.notes)
        extra = "（有拗救）" if rescued else ""
        group = f"，押{a.group}" if a.group else ""
        return f"此詩為{a.form}{('，' + a.pattern) if a.pattern else ''}{group}，合律{extra}{_doubts(a)}。"
    return f"此詩為{a.form}，有{errors}處不合律{_doubts(a)}。"


def _doubts(a: Analysis) -> str:
    """「，N處讀音存疑」: chars that fit only by a rare reading (中華新韻/通韻), or ""."""
    doubts = sum(f.kind == Kind.DOUBTFUL_READING for f in a.findings)
    return f"，{doubts}處讀音存疑" if doubts else ""

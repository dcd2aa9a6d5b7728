"""The regulated-verse checker: ``check_poem(text) -> CheckResult``, every character judged.

The checker reads a poem (簡 or 繁), finds its form (五言律詩, 七言絕句, 五言排律, 六言, 四言 …),
the pattern that fits it best (平起/仄起, 首句入韻 or not) and its rhyme group, then judges each
position the way the tradition does:

- 二四六分明: the 2nd, 4th (and 6th) chars and the last follow the pattern; 一三五不論: the others
  are free, except where a free char makes 孤平 (a 平-ending line left with one 平 besides its rhyme:
  仄平仄仄平, 仄仄仄平仄仄平) or 三平尾 (the last three 平);
- the accepted 拗救: 孤平拗救 in the line itself (仄平平仄平, 仄仄仄平平仄平), 對句相救 of 大拗 (出句
  4th/七言 6th char 仄, saved by the 對句's 3rd/七言 5th char 平) and 小拗 (出句 3rd/5th 仄), and
  特拗 平平仄平仄 / 仄仄平平仄平仄 in an 出句, only with its 1st (七言 3rd) char 平 (王力《詩詞格律》);
  七言 孤平 by 王力 (the 1st char free, no rescue) unless ``lone_ping="lenient"``;
- 黏 and 對 between lines; one 平聲 rhyme group for the even lines (and line 1 when it rhymes), a
  first line borrowing a neighbouring group (孤雁出群, 謝榛's name; 孤雁入群 to others) only noted; 出韻, 撞韻,
  重韻, 重字 (not 萋萋);
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

The modules, in the order a poem passes through them:

- ``tables``: per-book tone codes (a bitmask per character, computed once per book) and line masks;
- ``reading``: text (or a ParsedPoem) → lines and entries, a quick reading for batch text;
- ``rules``: ``analyse`` finds the form; 六言, 四言, 古體, 重字 and unknown chars;
- ``regulated``: the 近體 rules, one function each (黏對, 二四六, 韻腳/撞韻, 孤平/三平尾/拗救, 古體);
- ``analysis``: what the rules share (Analysis, Finding, wording of places, tone fits, the rhyme group);
- ``report``: Status, Kind, Severity and the result dataclasses, ``format_report``;
- ``suggestions``: replacement characters for a fault, ranked by fit in Tang verse;
- ``check``: ``check_poem`` and ``check_lines_brief``, which run the same rules; ``batch``: jsonl.

A 七律 takes well under a millisecond: the rules work on small integers, and the batch path
(``check_lines_brief``) neither words its findings nor builds report objects.
"""

from __future__ import annotations

from poetry.checker.batch import check_jsonl_lines, run_jsonl
from poetry.checker.check import check_lines_brief, check_poem
from poetry.checker.report import (
    KINDS,
    LEGEND,
    MARKS,
    STATUSES,
    CharReport,
    CheckResult,
    Kind,
    LineReport,
    Severity,
    Status,
    Violation,
    format_report,
)
from poetry.checker.suggestions import SUGGEST_LIMIT, SUGGEST_TABLE

__all__ = [
    "KINDS",
    "LEGEND",
    "MARKS",
    "STATUSES",
    "SUGGEST_LIMIT",
    "SUGGEST_TABLE",
    "CharReport",
    "CheckResult",
    "Kind",
    "LineReport",
    "Severity",
    "Status",
    "Violation",
    "check_jsonl_lines",
    "check_lines_brief",
    "check_poem",
    "format_report",
    "run_jsonl",
]

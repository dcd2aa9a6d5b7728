"""One written form of the poem for every model of the grading, whatever script and variants it was typed in.

A poem typed in 简体, in Taiwan-standard forms (為 裡 鬥 艷 嘆 眾 著) or in Hong Kong-standard forms (為 裏 鬥 豔
歎 眾 着) is the same poem as the one in the corpus' forms (爲 裏 鬬 豔 歎 衆 著). The language models, the topic
vectors and the title tables learned each glyph apart, so the grading reads every poem in one form: 简体
goes to 繁體 through OpenCC (poetry.text, phrase-aware), then each character to the canonical form of its
variant class (data/grading_forms.tsv, made by ``scripts/build_grading.py --stage forms``: the classes join
data/variants.tsv, the rhyme book's variant table, with OpenCC's Taiwan and Hong Kong conversions; the
canonical form is the one 全唐詩 uses most, which the models know best). The build reads the corpus
through the same table, so the models learn and grade one form.

    >>> canonical("何事長向別時圓") == canonical("何事長向别時圓")
    True
    >>> canonical("為") == canonical("爲"), canonical("裡") == canonical("裏"), canonical("鬥") == canonical("鬭")
    (True, True, True)

Every line and title is read through its 简体 (``read_as_simplified``): a char that 简体 writes for several
(干 for 乾, 幹 or 干; 游 for 游 or 遊; 里 for 里 or 裏; a Taiwan or Hong Kong 台 for 台 or 臺) takes the form
the trigram LMs find likeliest in its line, whichever of them the poet wrote, so that nothing but the 简体
of the written forms reaches the models. The explanations quote the poem as the poet wrote it
(``as_written``), not the canonical form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Mapping

from poetry.text import ParsedPoem, detect_script, to_simplified, to_traditional

#: The table of canonical forms in data/.
FORMS_FILE = "grading_forms.tsv"


@cache
def canonical_table() -> Mapping[int, str]:
    """Code point → canonical form (a ``str.translate`` table) of every char that has another form."""
    from poetry.data import read_tsv

    return MappingProxyType({ord(row[0]): row[1] for row in read_tsv(FORMS_FILE) if " " not in row[1]})


@cache
def _either_forms() -> Mapping[str, tuple[str, ...]]:
    """A char that Taiwan or Hong Kong forms write for two (台 for 台 and 臺) → both forms."""
    from poetry.data import read_tsv

    return MappingProxyType({row[0]: tuple(row[1].split()) for row in read_tsv(FORMS_FILE) if " " in row[1]})


def canonical(text: str) -> str:
    """The text with each character in the canonical form of its variant class (same length).

    >>> canonical("歎息爲誰裡")
    '歎息爲誰裏'
    """
    return text.translate(canonical_table())


def _forms_at(written: tuple[str, ...]) -> tuple[str, ...]:
    """The canonical forms a written char may stand for (简体 干: 乾 幹 干; 台: 台 臺), first the likeliest."""
    either = _either_forms()
    forms = (f for c in written for f in either.get(canonical(c), (canonical(c),)))
    return tuple(dict.fromkeys(forms))


def _line_fits(lines: list[str]) -> list[float]:
    """How likely each line reads under the trigram LMs, both directions (mean log10 P a char), scored together."""
    from poetry.lm import load_lm

    fwd, bwd = load_lm().score_lines(lines), load_lm(reversed=True).score_lines([x[::-1] for x in lines])
    return [a.mean + b.mean for a, b in zip(fwd, bwd)]


def _choose(lines: list[str], options: list[list[tuple[str, ...]]]) -> list[str]:
    """Each line with each open char (several forms) set to the form the trigram LMs find likeliest there, left to
    right within a line; the lines are independent, so the k-th open chars of all lines are weighed together
    (one scoring of the candidates instead of one for each).

    >>> _choose(["白雲天上游"], [[("白",), ("雲",), ("天",), ("上",), ("游", "遊")]])
    ['白雲天上遊']
    """
    chars = [list(line) for line in lines]
    open_at = [[(k, forms) for k, forms in enumerate(opts) if len(forms) > 1] for opts in options]
    for r in range(max(map(len, open_at), default=0)):
        now = [(i, at[r]) for i, at in enumerate(open_at) if r < len(at)]
        candidates = [["".join(chars[i][:k] + [form] + chars[i][k + 1:]) for form in forms] for i, (k, forms) in now]
        fits = iter(_line_fits([c for cs in candidates for c in cs]))
        for i, (k, forms) in now:
            fit = [next(fits) for _ in forms]
            chars[i][k] = forms[max(range(len(forms)), key=fit.__getitem__)]  # the first of the likeliest, as max()
    return ["".join(c) for c in chars]


@dataclass(frozen=True)
class GradedText:
    """A poem as the models read it (``lines``, ``title``) and as the poet wrote it (``shown_*``, 繁體)."""

    lines: tuple[str, ...]
    title: str | None
    shown_lines: tuple[str, ...]
    shown_title: str | None


def read_for_grading(parsed: ParsedPoem, title: str | None) -> GradedText:
    """The canonical lines and title of a parsed poem; a 简体 title goes to 繁體 as the body does.

    >>> from poetry.text import parse_poem
    >>> a = read_for_grading(parse_poem("床前明月光，疑是地上霜。"), "静夜思")
    >>> b = read_for_grading(parse_poem("牀前明月光，疑是地上霜。"), "靜夜思")
    >>> a.lines == b.lines and a.title == b.title
    True
    """
    kept = [(line, typed) for line, typed in zip(parsed.lines, parsed.original_lines) if line]
    shown = tuple(line for line, _ in kept)
    lines = tuple(_read_lines([(typed, line) for line, typed in kept]))
    shown_title = title
    if title:
        hans = detect_script(title) == "hans"
        converted = to_traditional(title) if hans else title
        if len(converted) == len(title):  # a 简体 title is shown in the 繁 the body is shown in
            shown_title = converted if hans or parsed.script == "hans" else title
            title = read_as_simplified(title, converted)
    return GradedText(lines, title, shown, shown_title)


def read_as_simplified(typed: str, converted: str) -> str:
    """A line or title as the models read it: through its 简体, so that every script and variant of it reads alike.

    Each char of the 简体 may stand for every canonical form that 简体 writes so (``_same_in_simplified``: 干 for
    乾 幹 干, 游 for 游 遊, 里 for 里 裏); the trigram LMs set each, left to right, to the form likeliest in the
    line, starting from OpenCC's phrase-aware reading of the 简体. Nothing of the written forms but their 简体
    enters, so 繁, 简, Taiwan and Hong Kong forms read alike (a 简体 征人怨 is 征人怨, where OpenCC writes 徵人怨, a
    title Tang poets never wrote). ``converted``: the text in 繁, of the same length, for a text OpenCC cannot
    take char for char.

    >>> read_as_simplified("征人怨", "徵人怨"), read_as_simplified("徵人怨", "徵人怨")
    ('征人怨', '征人怨')
    >>> read_as_simplified("長干行", "長干行")
    '長干行'
    >>> read_as_simplified("白云天上游", "白雲天上游") == read_as_simplified("白雲天上遊", "白雲天上遊")
    True
    """
    return _read_lines([(typed, converted)])[0]


def _read_lines(texts: list[tuple[str, str]]) -> list[str]:
    """``read_as_simplified`` of each (typed, converted), the open chars of all weighed together (``_choose``)."""
    classes = _same_in_simplified()
    starts, options = [], []
    for typed, converted in texts:
        simple = to_simplified(typed)
        start = canonical(to_traditional(simple))
        if len(simple) != len(typed) or len(start) != len(typed):
            starts.append(canonical(converted))
            options.append([])
            continue
        starts.append(start)
        options.append([_forms_at((t,) + classes.get(s, ())) for s, t in zip(simple, start)])
    return _choose(starts, options)


@cache
def _same_in_simplified() -> Mapping[str, tuple[str, ...]]:
    """简体 char → the canonical forms of the chars the models know that 简体 writes so, the char itself among
    them when the models know it (OpenCC's phrases write 简体 澄江 as the county 澂江: the poet's 澄 stays a choice).

    >>> _same_in_simplified()["干"], _same_in_simplified()["游"], _same_in_simplified()["澄"]
    (('乾', '干', '幹', '榦'), ('游', '遊'), ('澄',))
    """
    from poetry.lm import load_lm

    table = canonical_table()
    known = set(load_lm().vocab) | {chr(k) for k in table} | set(table.values())
    chars = sorted(c for c in known if len(c) == 1 and not c.isspace())
    classes: dict[str, set[str]] = {}
    for char, simple in zip(chars, to_simplified("\n".join(chars)).split("\n")):
        if len(simple) == 1:
            classes.setdefault(simple, set()).add(canonical(char))
    return MappingProxyType({s: tuple(sorted(forms)) for s, forms in classes.items()})


_QUOTE = re.compile(r"「([^「」]+)」")


def as_written(explanation: str, text: GradedText) -> str:
    """An explanation with each quotation of the poem (「…」, a line, a part of one or the title) in the
    forms the poet wrote, not the canonical ones the models read.

    >>> from poetry.text import parse_poem
    >>> t = read_for_grading(parse_poem("為君持酒勸斜陽，且向花間留晚照。"), None)
    >>> as_written("「" + t.lines[0] + "」一句", t)
    '「為君持酒勸斜陽」一句'
    """

    def shown(match: re.Match) -> str:
        quoted = match.group(1)
        for line, written in zip(text.lines + (text.title or "",), text.shown_lines + (text.shown_title or "",)):
            at = line.find(quoted)
            if at >= 0 and len(written) == len(line):
                return f"「{written[at:at + len(quoted)]}」"
        return match.group(0)

    return _QUOTE.sub(shown, explanation)

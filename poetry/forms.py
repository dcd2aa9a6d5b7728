"""The form patterns of 近體詩: 五言 and 七言 絕句 / 律詩 / 排律, 六言 and 四言, as plain data.

A regulated line is one of four types, named by the tone of its 2nd character (平起/仄起) and of its
last (平收/仄收). The 五言 types, with the 七言 ones (two opposite characters put in front)::

    仄起仄收  仄仄平平仄      平平仄仄平平仄
    平起平收  平平仄仄平      仄仄平平仄仄平
    平起仄收  平平平仄仄      仄仄平平平仄仄
    仄起平收  仄仄仄平平      平平仄仄仄平平

Everywhere in this module the ``key`` of a line is the tone of its 2nd character as written (in
七言 the head the 五言 core is extended by). A poem's pattern is named by line 1's key (平起/仄起)
and whether line 1 rhymes (首句入韻); the other lines follow by 對 (a couplet's second line has the
opposite key) and 黏 (the next couplet's first line has the same key as the line before it).

    >>> poem_pattern(5, 4, "平", False)
    ('平平平仄仄', '仄仄仄平平', '仄仄平平仄', '平平仄仄平')
    >>> PATTERNS["七言絕句 仄起首句入韻"][0]
    '仄仄平平仄仄平'
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType

from poetry.prosody import Tone

#: The two tones a pattern asks for, as the rhyme book names them: plain strings "平" and "仄", so that
#: patterns stay strings ("仄仄平平仄") and a position compares equal to a Tone's value.
PING: str = Tone.PING.value
ZE: str = Tone.ZE.value

#: The four 五言 line types by (key, ending): key = tone of the 2nd char, ending = tone of the last.
_FIVE: dict[tuple[str, str], str] = {
    (ZE, ZE): "仄仄平平仄",
    (PING, PING): "平平仄仄平",
    (PING, ZE): "平平平仄仄",
    (ZE, PING): "仄仄仄平平",
}


def opposite(tone: str) -> str:
    """平 ↔ 仄.

    >>> opposite("平")
    '仄'
    """
    return ZE if tone == PING else PING


@cache
def line_pattern(length: int, key: str, ending: str) -> str:
    """The standard line of ``length`` chars (5, 6 or 7) whose 2nd char is ``key`` and last is ``ending``.

    >>> line_pattern(7, "平", "仄"), line_pattern(5, "仄", "平")
    ('平平仄仄平平仄', '仄仄仄平平')

    六言 alternates 2/4/6 (平平仄仄平平, 仄仄平平仄仄), so its key and ending must agree.
    """
    if length == 5:
        return _FIVE[(key, ending)]
    if length == 7:
        core = _FIVE[(opposite(key), ending)]
        return key + key + core
    if length == 6:
        if key != ending:
            raise ValueError("六言的第二字與末字同聲")
        other = opposite(key)
        return key * 2 + other * 2 + key * 2
    raise ValueError(f"no regulated line of {length} chars")


def line_keys(line_count: int, first_key: str) -> tuple[str, ...]:
    """Key (2nd-char tone) of every line: 對 inside a couplet, 黏 between couplets.

    >>> line_keys(8, "平")
    ('平', '仄', '仄', '平', '平', '仄', '仄', '平')
    """
    keys = []
    key = first_key
    for i in range(line_count):
        if i:
            # 對: the couplet's second line opposes the first; 黏: the next couplet's first line
            # repeats the key of the line before it.
            key = opposite(key) if i % 2 else key
        keys.append(key)
    return tuple(keys)


def line_endings(line_count: int, first_rhymes: bool) -> tuple[str, ...]:
    """Tone of each line's last char: even lines rhyme (平), odd ones 仄, line 1 平 when it rhymes."""
    return tuple(PING if i % 2 or (i == 0 and first_rhymes) else ZE for i in range(line_count))


@cache
def poem_pattern(length: int, line_count: int, first_key: str, first_rhymes: bool) -> tuple[str, ...]:
    """The standard lines of a 五言/七言 poem of ``line_count`` lines (4 絕句, 8 律詩, 10+ 排律).

    >>> poem_pattern(7, 4, "仄", True)
    ('仄仄平平仄仄平', '平平仄仄仄平平', '平平仄仄平平仄', '仄仄平平仄仄平')
    """
    if length not in (5, 7):
        raise ValueError("only 五言 and 七言 have the four standard patterns")
    keys = line_keys(line_count, first_key)
    ends = line_endings(line_count, first_rhymes)
    return tuple(line_pattern(length, k, e) for k, e in zip(keys, ends))


@cache
def pattern_name(first_key: str, first_rhymes: bool) -> str:
    """「平起首句入韻」 etc., from line 1's 2nd char and whether line 1 rhymes."""
    return f"{first_key}起首句{'入韻' if first_rhymes else '不入韻'}"


_LENGTH_NAMES = {4: "四言", 5: "五言", 6: "六言", 7: "七言"}


@cache
def form_name(length: int | None, line_count: int, ancient: bool = False) -> str:
    """Chinese name of a form from its shape: 七言律詩, 五言絕句, 五言排律, 五言古絕, 七言古詩, 雜言.

    ``length`` is None when lines differ in length (雜言); ``ancient`` asks for the 古體 name of a
    五言/七言 poem that breaks the rules too heavily (or rhymes in 仄) to be a failed 近體.

    >>> form_name(7, 8), form_name(5, 4, ancient=True), form_name(5, 12), form_name(None, 6)
    ('七言律詩', '五言古絕', '五言排律', '雜言')
    """
    if length is None or length not in _LENGTH_NAMES:
        return "雜言"
    prefix = _LENGTH_NAMES[length]
    if length == 4:
        return "四言詩"
    if length == 6:
        if line_count == 4:
            return "六言絕句"
        if line_count == 8:
            return "六言律詩"
        return "六言詩"
    if ancient:
        return prefix + ("古絕" if line_count == 4 else "古詩")
    if line_count == 4:
        return prefix + "絕句"
    if line_count == 8:
        return prefix + "律詩"
    if line_count >= 10 and line_count % 2 == 0:
        return prefix + "排律"
    return prefix + "古詩"


def is_regulated_shape(length: int | None, line_count: int) -> bool:
    """五言/七言 of 4, 8 or 10+ (even) lines: a shape the 近體 rules apply to."""
    return length in (5, 7) and (line_count in (4, 8) or (line_count >= 10 and line_count % 2 == 0))


def _build_patterns() -> MappingProxyType:
    out: dict[str, tuple[str, ...]] = {}
    for length in (5, 7):
        for count in (4, 8):
            form = form_name(length, count)
            for key in (PING, ZE):
                for rhymes in (False, True):
                    out[f"{form} {pattern_name(key, rhymes)}"] = poem_pattern(length, count, key, rhymes)
    return MappingProxyType(out)


#: The sixteen standard patterns of 五絕 七絕 五律 七律, by name: "五言律詩 平起首句不入韻" → 8 lines.
PATTERNS: MappingProxyType = _build_patterns()


#: The forms a poet may declare, each with (chars per line, line count); None: any (排律 ten lines or more,
#: 四言 and 古體 any even count). A declared form is judged as declared (poetry.checker).
DECLARED_FORMS: MappingProxyType = MappingProxyType({
    "五言絕句": (5, 4), "七言絕句": (7, 4), "五言律詩": (5, 8), "七言律詩": (7, 8),
    "五言排律": (5, None), "七言排律": (7, None), "六言絕句": (6, 4), "六言律詩": (6, 8),
    "四言": (4, None), "古體": (None, None),
})


def declared_form(name: str | None) -> str | None:
    """A declared form's name as given, None for none; UnsupportedFormError (naming the accepted ones) else.

    >>> declared_form("七言絕句"), declared_form(None)
    ('七言絕句', None)
    """
    if name is None or name == "":
        return None
    if not isinstance(name, str) or name not in DECLARED_FORMS:
        from poetry.errors import UnsupportedFormError

        raise UnsupportedFormError(f"{name}（可用的體裁：{'、'.join(DECLARED_FORMS)}）")
    return name
